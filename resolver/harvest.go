package resolver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
)

// The harvest layer answers the requests of OAI-PMH 2.0
// (https://www.openarchives.org/OAI/openarchivesprotocol.html, cited
// below by section) with values: the arguments of a request are checked
// here, the store is read here, and a refused request is a list of
// oaiErrors, the protocol's error codes (section 3.6). oai.go reads the
// HTTP request and writes the XML.
//
// A record of the repository is a record of the resolver: its
// identifier is the URN, its datestamp the record's change time (every
// write stamps it, in the order the writes commit), its sets the URN's
// namespace and registrar, and a deactivated record is a deleted one, kept for ever
// (deletedRecord "persistent", section 2.5.1).
//
// Lists page without skipping or repeating a record while writes go on:
// a list without "from" pages in key order, so a record that is changed
// during the harvest keeps its place and is sent once (as it is when the
// page that holds it is read); a list with "from" pages in order of
// (change time, key) up to the horizon taken at its first request (Horizon
// in the store), so that changes after that come in the next incremental
// harvest. Every page of a list has the horizon as its responseDate:
// every write stamped at or before it is in the list, so a harvester
// that starts its next harvest from the responseDate of any page, the
// first as the OAI-PMH guidelines say or the last as HTTP::OAI reports
// it, misses nothing.

// oaiError is an error condition of OAI-PMH section 3.6.
type oaiError struct {
	Code string // badVerb, badArgument, ...
	Text string
}

func (e oaiError) Error() string { return e.Code + ": " + e.Text }

// The error codes (section 3.6).
const (
	errBadVerb           = "badVerb"
	errBadArgument       = "badArgument"
	errCannotDisseminate = "cannotDisseminateFormat"
	errIDDoesNotExist    = "idDoesNotExist"
	errNoRecordsMatch    = "noRecordsMatch"
	errBadToken          = "badResumptionToken"
	errNoSetHierarchy    = "noSetHierarchy"
	errNoMetadataFormats = "noMetadataFormats"
)

// The verbs and the arguments each takes (section 4): required ones
// true, optional false. A resumptionToken is exclusive.
var oaiVerbs = map[string]map[string]bool{
	"Identify":            {},
	"ListMetadataFormats": {"identifier": false},
	"ListSets":            {"resumptionToken": false},
	"GetRecord":           {"identifier": true, "metadataPrefix": true},
	"ListIdentifiers":     {"metadataPrefix": true, "from": false, "until": false, "set": false, "resumptionToken": false},
	"ListRecords":         {"metadataPrefix": true, "from": false, "until": false, "set": false, "resumptionToken": false},
}

// The one metadata format: unqualified Dublin Core (section 3.4 and
// appendix "Dublin Core").
const (
	oaiDCPrefix    = "oai_dc"
	oaiDCSchema    = "http://www.openarchives.org/OAI/2.0/oai_dc.xsd"
	oaiDCNamespace = "http://www.openarchives.org/OAI/2.0/oai_dc/"
)

// oaiRequest is a request's arguments, checked: Args are the ones to
// echo in the response's request element (none for badVerb and
// badArgument, section 3.2).
type oaiRequest struct {
	Verb string
	Args url.Values
}

// parseOAI checks the verb and arguments of a request (section 3.1.1):
// each argument at most once, only those the verb takes, the required
// ones present, a resumptionToken alone.
func parseOAI(q url.Values) (oaiRequest, []oaiError) {
	verbs := q["verb"]
	switch {
	case len(verbs) == 0:
		return oaiRequest{}, []oaiError{{errBadVerb, "no verb: the request needs verb=Identify, ListMetadataFormats, ListSets, GetRecord, ListIdentifiers or ListRecords"}}
	case len(verbs) > 1:
		return oaiRequest{}, []oaiError{{errBadVerb, "the verb is repeated"}}
	}
	verb := verbs[0]
	takes, ok := oaiVerbs[verb]
	if !ok {
		return oaiRequest{}, []oaiError{{errBadVerb, fmt.Sprintf("%q is not a verb of OAI-PMH 2.0", truncate(verb, 40))}}
	}
	var errs []oaiError
	args := url.Values{}
	for name, vs := range q {
		if name == "verb" {
			continue
		}
		if _, ok := takes[name]; !ok {
			errs = append(errs, oaiError{errBadArgument, fmt.Sprintf("%s does not take the argument %q", verb, truncate(name, 40))})
			continue
		}
		if len(vs) > 1 {
			errs = append(errs, oaiError{errBadArgument, fmt.Sprintf("the argument %s is repeated", name)})
			continue
		}
		args.Set(name, vs[0])
	}
	if args.Has("resumptionToken") {
		if len(args) > 1 {
			errs = append(errs, oaiError{errBadArgument, "resumptionToken is an exclusive argument: it takes no other besides verb"})
		}
	} else {
		for name, required := range takes {
			if required && !args.Has(name) {
				errs = append(errs, oaiError{errBadArgument, fmt.Sprintf("%s needs the argument %s", verb, name)})
			}
		}
	}
	if errs != nil {
		sortErrors(errs)
		return oaiRequest{}, errs
	}
	return oaiRequest{Verb: verb, Args: args}, nil
}

// sortErrors orders errors by text, so that a response does not depend
// on the order of a map.
func sortErrors(errs []oaiError) {
	for i := 1; i < len(errs); i++ {
		for j := i; j > 0 && errs[j].Text < errs[j-1].Text; j-- {
			errs[j], errs[j-1] = errs[j-1], errs[j]
		}
	}
}

// oaiSet is a set of the repository (section 2.7.2): its setSpec and
// name, and the records it holds as a store filter. Every namespace
// that has records is a set, its spec the lowercase NID ("nbn"), and
// every registrar a set within its namespace's, its spec the NID and
// the registrar's code ("nbn:aba001"), holding the records under its
// prefix.
type oaiSet struct {
	Spec, Name string
	nid        string
	registrar  string // the code, for a registrar's set
	empty      bool   // a set no record can be in
}

// setSpecRE is setSpecType of the OAI-PMH schema.
var setSpecRE = regexp.MustCompile(`^[A-Za-z0-9\-_.!~*'()]+(:[A-Za-z0-9\-_.!~*'()]+)*$`)

// oaiSets returns the repository's sets, sorted by spec.
func (s *Server) oaiSets(ctx context.Context) ([]oaiSet, error) {
	nids, err := s.store.db.Namespaces(ctx)
	if err != nil {
		return nil, err
	}
	regs, err := s.store.db.RegistrarPrefixes(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]oaiSet, 0, len(nids)+len(regs))
	for _, nid := range nids {
		out = append(out, oaiSet{Spec: nid, Name: "URNs of the namespace " + nid, nid: nid})
	}
	for _, r := range regs {
		nid := registrarNID(r)
		out = append(out, oaiSet{Spec: nid + ":" + r.Code, Name: "URNs of the registrar " + r.Code + " (urn:" + r.Prefix + ")", nid: nid, registrar: r.Code})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Spec < out[j].Spec })
	return out, nil
}

// registrarNID is the namespace of a registrar's prefix, lowercase.
func registrarNID(r store.RegistrarRow) string {
	nid, _, _ := strings.Cut(r.Prefix, ":")
	return lowerASCII(nid)
}

// setOf reads a set argument: the set it names, or an error. A set that
// could exist but holds no record is no error here: the list is then
// empty (noRecordsMatch).
func setOf(spec string) (oaiSet, *oaiError) {
	if !setSpecRE.MatchString(spec) {
		return oaiSet{}, &oaiError{errBadArgument, fmt.Sprintf("set %q is not a setSpec (OAI-PMH schema, setSpecType)", truncate(spec, 80))}
	}
	parts := strings.Split(spec, ":")
	switch len(parts) {
	case 1:
		return oaiSet{Spec: spec, nid: lowerASCII(spec)}, nil
	case 2:
		return oaiSet{Spec: spec, nid: lowerASCII(parts[0]), registrar: lowerASCII(parts[1])}, nil
	}
	// Registrars' sets have no children.
	return oaiSet{Spec: spec, empty: true}, nil
}

// oaiItem is a record of the repository with the specs of the sets it
// belongs to: its namespace's and, under a registrar's prefix, the
// registrar's.
type oaiItem struct {
	store.Harvested
	Sets []string
}

func itemOf(h store.Harvested, regs []store.RegistrarRow) oaiItem {
	it := oaiItem{Harvested: h, Sets: []string{h.NID}}
	for _, r := range regs {
		if strings.HasPrefix(h.Key, r.PrefixKey) {
			it.Sets = append(it.Sets, registrarNID(r)+":"+r.Code)
		}
	}
	return it
}

// cannotDisseminate is the error of a metadataPrefix other than oai_dc,
// nil for oai_dc.
func cannotDisseminate(req oaiRequest) *oaiError {
	if p := req.Args.Get("metadataPrefix"); p != oaiDCPrefix {
		return &oaiError{errCannotDisseminate, fmt.Sprintf("metadataPrefix %q: this repository disseminates oai_dc only", truncate(p, 40))}
	}
	return nil
}

// oaiTime is a datestamp argument: from or until (section 3.3.1), in
// the day or the seconds granularity.
type oaiTime struct {
	t   time.Time
	day bool // given as YYYY-MM-DD
}

// parseOAITime reads a datestamp argument.
func parseOAITime(name, v string) (oaiTime, *oaiError) {
	if len(v) == len("2006-01-02") {
		if t, err := time.Parse("2006-01-02", v); err == nil {
			return oaiTime{t: t, day: true}, nil
		}
	} else if len(v) == len("2006-01-02T15:04:05Z") {
		if t, err := time.Parse("2006-01-02T15:04:05Z", v); err == nil {
			return oaiTime{t: t}, nil
		}
	}
	return oaiTime{}, &oaiError{errBadArgument, fmt.Sprintf("%s %q is not a UTC datestamp YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ (section 3.3.1)", name, truncate(v, 40))}
}

// first and last are the first and last microsecond the argument
// covers: "until 2026-01-02" takes the whole day, "until ...:05Z" the
// whole second (a datestamp is sent to the second, section 3.3.1).
func (t oaiTime) first() int64 { return t.t.UnixMicro() }
func (t oaiTime) last() int64 {
	if t.day {
		return t.t.AddDate(0, 0, 1).UnixMicro() - 1
	}
	return t.t.Add(time.Second).UnixMicro() - 1
}

// datestamp formats a change time as a datestamp, to the second
// (granularity YYYY-MM-DDThh:mm:ssZ).
func datestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// oaiToken is the state of a list between two pages, sent to the
// harvester as the resumptionToken (section 3.5): base64url of JSON.
// It holds the request's arguments and the cursor, so the server keeps
// nothing and the token never expires; a token that does not decode or
// does not hold a valid state is badResumptionToken.
type oaiToken struct {
	V        int    `json:"v"`
	Verb     string `json:"verb"`
	Set      string `json:"set,omitempty"`
	From     int64  `json:"from,omitempty"`  // first microsecond, when HasFrom
	Until    int64  `json:"until,omitempty"` // last microsecond, when HasUntil
	HasFrom  bool   `json:"hf,omitempty"`
	HasUntil bool   `json:"hu,omitempty"`
	ByKey    bool   `json:"bykey,omitempty"`
	Key      string `json:"key"`          // the last key sent
	Changed  int64  `json:"ch,omitempty"` // its change time (not ByKey)
	Sent     int    `json:"sent"`         // records sent before this page: the cursor
	Horizon  int64  `json:"h"`            // the list's horizon, Unix microseconds
}

const tokenVersion = 1

// maxToken bounds a resumption token's length.
const maxToken = 8 << 10

func (t oaiToken) encode() string {
	b, _ := json.Marshal(t)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeToken(s, verb string) (oaiToken, *oaiError) {
	bad := &oaiError{errBadToken, "the resumptionToken is not one this repository issued for " + verb}
	if len(s) > maxToken {
		return oaiToken{}, bad
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return oaiToken{}, bad
	}
	var t oaiToken
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&t); err != nil || d.More() || t.V != tokenVersion || t.Verb != verb || t.Sent < 0 || t.Key == "" {
		return oaiToken{}, bad
	}
	if t.Set != "" {
		if _, e := setOf(t.Set); e != nil {
			return oaiToken{}, bad
		}
	}
	return t, nil
}

// oaiList is a page of a list: the records (headers only for
// ListIdentifiers), the token of the next page ("" for the last), the
// cursor (records sent before this page), and the horizon the list
// started at.
type oaiList struct {
	Records []oaiItem
	Token   string
	Cursor  int
	Horizon time.Time
}

// list answers ListIdentifiers and ListRecords (sections 4.3, 4.5).
func (s *Server) oaiListRecords(ctx context.Context, req oaiRequest) (oaiList, []oaiError, error) {
	var t oaiToken
	var out oaiList
	if tok := req.Args.Get("resumptionToken"); tok != "" || req.Args.Has("resumptionToken") {
		tt, e := decodeToken(tok, req.Verb)
		if e != nil {
			return oaiList{}, []oaiError{*e}, nil
		}
		t = tt
		out.Horizon = time.UnixMicro(t.Horizon).UTC()
	} else {
		var errs []oaiError
		if e := cannotDisseminate(req); e != nil {
			errs = append(errs, *e)
		}
		t = oaiToken{V: tokenVersion, Verb: req.Verb}
		var from, until oaiTime
		if v, ok := req.Args["from"]; ok {
			f, e := parseOAITime("from", v[0])
			if e != nil {
				return oaiList{}, []oaiError{*e}, nil
			}
			from, t.HasFrom, t.From = f, true, f.first()
		}
		if v, ok := req.Args["until"]; ok {
			u, e := parseOAITime("until", v[0])
			if e != nil {
				return oaiList{}, []oaiError{*e}, nil
			}
			until, t.HasUntil, t.Until = u, true, u.last()
		}
		if t.HasFrom && t.HasUntil {
			if from.day != until.day {
				return oaiList{}, []oaiError{{errBadArgument, "from and until have different granularities (section 3.3.1)"}}, nil
			}
			if from.t.After(until.t) {
				return oaiList{}, []oaiError{{errBadArgument, "from is later than until"}}, nil
			}
		}
		if v, ok := req.Args["set"]; ok {
			if _, e := setOf(v[0]); e != nil {
				return oaiList{}, []oaiError{*e}, nil
			}
			t.Set = v[0]
		}
		if errs != nil {
			return oaiList{}, errs, nil
		}
		h, err := s.store.db.Horizon(ctx)
		if err != nil {
			return oaiList{}, nil, err
		}
		out.Horizon, t.Horizon = h, h.UnixMicro()
		t.ByKey = !t.HasFrom
		if !t.ByKey && (!t.HasUntil || t.Until > h.UnixMicro()) {
			// Changes after the horizon come in the next harvest.
			t.HasUntil, t.Until = true, h.UnixMicro()
		}
		if t.HasFrom && t.HasUntil && t.From > t.Until {
			return oaiList{}, []oaiError{{errNoRecordsMatch, "no record has changed in this interval"}}, nil
		}
	}
	q := store.HarvestQuery{ByKey: t.ByKey, AfterKey: t.Key, AfterChanged: t.Changed,
		From: t.From, Until: t.Until, HasFrom: t.HasFrom, HasUntil: t.HasUntil,
		Limit: s.oai.pageSize + 1, Full: req.Verb == "ListRecords"}
	if !t.ByKey && t.Key == "" {
		q.AfterChanged = -1 << 62
	}
	// The registrars, read once: a registrar's set, and every record's
	// sets.
	regs, err := s.store.db.RegistrarPrefixes(ctx)
	if err != nil {
		return oaiList{}, nil, err
	}
	if t.Set != "" {
		set, _ := setOf(t.Set)
		if set.registrar != "" {
			i := slices.IndexFunc(regs, func(r store.RegistrarRow) bool { return r.Code == set.registrar })
			if i < 0 || registrarNID(regs[i]) != set.nid {
				set.empty = true
			} else {
				q.KeyPrefix = regs[i].PrefixKey
			}
		}
		if set.empty {
			return oaiList{}, []oaiError{{errNoRecordsMatch, "no record is in the set " + set.Spec}}, nil
		}
		q.NID = set.nid
	}
	recs, err := s.store.db.Harvest(ctx, q)
	if err != nil {
		return oaiList{}, nil, err
	}
	if len(recs) == 0 {
		return oaiList{}, []oaiError{{errNoRecordsMatch, "no record matches the arguments"}}, nil
	}
	out.Cursor = t.Sent
	if len(recs) > s.oai.pageSize {
		recs = recs[:s.oai.pageSize]
		last := recs[len(recs)-1]
		next := t
		next.Key, next.Changed, next.Sent = last.Key, last.ChangedMicros(), t.Sent+len(recs)
		out.Token = next.encode()
	}
	out.Records = make([]oaiItem, len(recs))
	for i, h := range recs {
		out.Records[i] = itemOf(h, regs)
	}
	return out, nil, nil
}

// oaiRecord answers GetRecord (section 4.1).
func (s *Server) oaiRecord(ctx context.Context, req oaiRequest) (oaiItem, []oaiError, error) {
	var errs []oaiError
	if e := cannotDisseminate(req); e != nil {
		errs = append(errs, *e)
	}
	h, e, err := s.oaiIdentifier(ctx, req.Args.Get("identifier"))
	if err != nil {
		return oaiItem{}, nil, err
	}
	if e != nil {
		return oaiItem{}, append(errs, *e), nil
	}
	if errs != nil {
		return oaiItem{}, errs, nil
	}
	regs, err := s.store.db.RegistrarPrefixes(ctx)
	if err != nil {
		return oaiItem{}, nil, err
	}
	return itemOf(h, regs), nil, nil
}

// oaiIdentifier reads the record an identifier argument names: any
// lexically equivalent form of its URN finds it.
func (s *Server) oaiIdentifier(ctx context.Context, id string) (store.Harvested, *oaiError, error) {
	n, err := s.v.dialects.Parse(id)
	if err != nil || n.HasComponents() {
		return store.Harvested{}, &oaiError{errIDDoesNotExist, fmt.Sprintf("%q is not a URN this repository holds: its identifiers are URNs", truncate(id, 200))}, nil
	}
	h, err := s.store.db.HarvestOne(ctx, n.Key())
	if errors.Is(err, store.ErrNotFound) {
		return store.Harvested{}, &oaiError{errIDDoesNotExist, fmt.Sprintf("no record for %s", n.Canonical())}, nil
	}
	return h, nil, err
}

// oaiFormats answers ListMetadataFormats (section 4.4): oai_dc, for
// the repository or for an item; a deleted item has none, since no
// metadata is disseminated for it (only its header).
func (s *Server) oaiFormats(ctx context.Context, req oaiRequest) ([]oaiError, error) {
	if !req.Args.Has("identifier") {
		return nil, nil
	}
	h, e, err := s.oaiIdentifier(ctx, req.Args.Get("identifier"))
	switch {
	case err != nil:
		return nil, err
	case e != nil:
		return []oaiError{*e}, nil
	case h.Deactivated != nil:
		return []oaiError{{errNoMetadataFormats, fmt.Sprintf("%s is deleted (deactivated %s): its header is all that is disseminated", h.URN, datestamp(h.Deactivated.At))}}, nil
	}
	return nil, nil
}

// titleOf returns the "title" member of a record's metadata, when it is
// a string.
func titleOf(metadata string) string {
	var m struct {
		Title json.RawMessage `json:"title"`
	}
	if json.Unmarshal([]byte(metadata), &m) != nil || len(m.Title) == 0 {
		return ""
	}
	var title string
	if json.Unmarshal(m.Title, &title) != nil {
		return ""
	}
	return title
}
