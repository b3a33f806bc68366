package resolver

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
)

// Harvesting another resolver's OAI-PMH 2.0 repository (issue 30.3):
// the harvester side of harvest.go. A harvest asks ListRecords in
// oai_dc from where the last complete harvest of the source ended (the
// responseDate of its first page, as the OAI-PMH guidelines for
// harvesters say), follows the resumption tokens, and writes each page
// in one transaction: a page is stored whole or not at all, and a
// harvest that fails after some pages keeps them and starts again from
// the same place next time (records already stored are then unchanged,
// and not written again). Where the next harvest starts is written with
// the last page, so it advances only when the harvest is complete.
//
// A record's URN is its header's identifier, or, when that is not a
// URN (an oai: identifier), its first dc:identifier that is; its
// locations are its dc:identifiers that are URLs of the allowed
// schemes, in order; its title is the first dc:title, kept in the
// metadata member "title" (the record's other members and its synonyms
// stay as they are here). Other dc elements are not read. A deleted
// record deactivates the URN here, with a reason that names the source;
// a URN this resolver never had is stored deactivated, without
// locations, so that it answers 410 Gone as at the source. A record that
// comes back at the source reactivates a URN its harvest deactivated,
// never one deactivated here by other means (that record is refused).
//
// Every record of every page is accounted for: Records = Created +
// Updated + Reactivated + Deleted + Unchanged + len(Refused).

// HarvestOptions configures a harvest.
type HarvestOptions struct {
	// Set restricts the harvest to a set of the source (its setSpec).
	Set string
	// From, when set, is the datestamp to harvest from instead of where
	// the last harvest of the source ended; Full harvests every record.
	From string
	Full bool
	// Client sends the requests; default a client with a 60 s timeout
	// per request.
	Client *http.Client
	// MaxResponseBytes bounds one response; default 64 MiB.
	MaxResponseBytes int64
	// MaxRetryAfter is the longest Retry-After of a 503 the harvest
	// waits for (OAI-PMH section 3.1.3, flow control), at most 5 times
	// per request; default 2 minutes. A longer one fails the harvest.
	MaxRetryAfter time.Duration

	Dialects Dialects
	Limits   Limits
	Schemes  []string // allowed location schemes; default http, https
	// Audit is the audit entry written with each page; Action, URN (the
	// source) and Detail are filled in.
	Audit AuditEntry
}

// HarvestRefusal is a harvested record that was not stored: its
// identifier (as the source sent it) and why.
type HarvestRefusal struct {
	Identifier string
	Reason     string
}

func (r HarvestRefusal) String() string { return strconv.Quote(r.Identifier) + ": " + r.Reason }

// HarvestResult counts what a harvest did.
type HarvestResult struct {
	Source string // the base URL, and " set=SPEC" for a set
	From   string // the from the harvest asked; "" for every record
	Next   string // where the next harvest starts; "" when this one did not complete
	Pages  int
	// Records is the number of records the source sent; each is one of
	// the others.
	Records                                  int
	Created, Updated, Reactivated, Unchanged int
	Deleted                                  int // deactivated here, or stored deactivated
	Refused                                  []HarvestRefusal
	// NoDeletions is set when the source keeps no deleted records
	// (Identify's deletedRecord "no"): its deletions do not reach this
	// resolver.
	NoDeletions bool
}

// harvestSource is the key under which the next harvest's start is
// kept.
func harvestSource(base, set string) string {
	if set == "" {
		return base
	}
	return base + " set=" + set
}

// harvestReason is the reason of a deactivation a harvest of base
// makes; reactivations check its prefix.
func harvestReason(base string) string { return "deleted in the OAI-PMH repository " + base }

// Harvest harvests the OAI-PMH repository at base into s. The error is
// non-nil when the harvest did not complete (the source failed, answered
// what is not OAI-PMH, or the database failed); the result then counts
// the pages stored before it.
func Harvest(ctx context.Context, s *Store, base string, o HarvestOptions) (HarvestResult, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return HarvestResult{}, fmt.Errorf("%q is not an OAI-PMH base URL: http or https, with a host, without a query, fragment or user", truncate(base, 200))
	}
	h := &harvester{ctx: ctx, s: s, base: base, o: o,
		v: &validator{dialects: o.Dialects, limits: o.Limits.withDefaults(), schemes: lowerSchemes(o.Schemes)}}
	if h.o.Client == nil {
		h.o.Client = &http.Client{Timeout: 60 * time.Second}
	}
	if h.o.MaxResponseBytes <= 0 {
		h.o.MaxResponseBytes = 64 << 20
	}
	if h.o.MaxRetryAfter <= 0 {
		h.o.MaxRetryAfter = 2 * time.Minute
	}
	res := &h.res
	res.Source = harvestSource(base, o.Set)
	switch {
	case o.Full && o.From != "":
		return *res, errors.New("a full harvest takes no from")
	case o.From != "":
		if _, e := parseOAITime("from", o.From); e != nil {
			return *res, errors.New(e.Text)
		}
		res.From = o.From
	case !o.Full:
		if res.From, _, err = s.db.HarvestFrom(ctx, res.Source); err != nil {
			return *res, err
		}
	}
	// Identify: the repository's granularity, which from must follow,
	// and whether it reports deletions.
	id, err := h.get(url.Values{"verb": {"Identify"}})
	if err != nil {
		return *res, err
	}
	if id.Identify == nil {
		return *res, fmt.Errorf("%s: Identify answered no Identify element", base)
	}
	dayOnly := strings.TrimSpace(id.Identify.Granularity) == "YYYY-MM-DD"
	res.NoDeletions = strings.TrimSpace(id.Identify.DeletedRecord) == "no"
	if dayOnly && len(res.From) > len("2006-01-02") {
		res.From = res.From[:len("2006-01-02")]
	}

	q := url.Values{"verb": {"ListRecords"}, "metadataPrefix": {oaiDCPrefix}}
	if res.From != "" {
		q.Set("from", res.From)
	}
	if o.Set != "" {
		q.Set("set", o.Set)
	}
	next := ""
	tokens := map[string]bool{}
	for {
		resp, err := h.get(q)
		if err != nil {
			return *res, err
		}
		if next == "" {
			// Every change up to the first page's responseDate is in
			// this list (section 3.3.1's datestamps are inclusive).
			if _, e := parseOAITime("responseDate", resp.ResponseDate); e != nil {
				return *res, fmt.Errorf("%s: the responseDate %q is not a UTC datestamp", base, truncate(resp.ResponseDate, 40))
			}
			next = resp.ResponseDate
			if dayOnly {
				next = next[:len("2006-01-02")]
			}
		}
		var recs []harvestedXML
		token := ""
		switch {
		case len(resp.Errors) == 1 && resp.Errors[0].Code == errNoRecordsMatch && res.Pages == 0:
		case len(resp.Errors) > 0:
			var msgs []string
			for _, e := range resp.Errors {
				msgs = append(msgs, strconv.Quote(truncate(e.Code, 40))+" ("+strconv.Quote(truncate(strings.TrimSpace(e.Text), 200))+")")
			}
			return *res, fmt.Errorf("%s: ListRecords answered the error %s", base, strings.Join(msgs, ", "))
		case resp.ListRecords == nil:
			return *res, fmt.Errorf("%s: ListRecords answered neither records nor an error", base)
		default:
			recs = resp.ListRecords.Records
			if t := resp.ListRecords.Token; t != nil {
				token = strings.TrimSpace(t.Value)
			}
		}
		if token != "" && tokens[token] {
			return *res, fmt.Errorf("%s: the resumptionToken %q came twice: the list would not end", base, truncate(token, 80))
		}
		tokens[token] = true
		last := ""
		if token == "" {
			last = next
		}
		if err := h.page(recs, last); err != nil {
			return *res, err
		}
		if token == "" {
			res.Next = next
			return *res, nil
		}
		q = url.Values{"verb": {"ListRecords"}, "resumptionToken": {token}}
	}
}

type harvester struct {
	ctx  context.Context
	s    *Store
	base string
	o    HarvestOptions
	v    *validator
	res  HarvestResult
}

// The parts of an OAI-PMH response a harvest reads.
type oaiResponseXML struct {
	XMLName      xml.Name `xml:"http://www.openarchives.org/OAI/2.0/ OAI-PMH"`
	ResponseDate string   `xml:"responseDate"`
	Errors       []struct {
		Code string `xml:"code,attr"`
		Text string `xml:",chardata"`
	} `xml:"error"`
	Identify *struct {
		Granularity   string `xml:"granularity"`
		DeletedRecord string `xml:"deletedRecord"`
	} `xml:"Identify"`
	ListRecords *struct {
		Records []harvestedXML `xml:"record"`
		Token   *struct {
			Value string `xml:",chardata"`
		} `xml:"resumptionToken"`
	} `xml:"ListRecords"`
}

type harvestedXML struct {
	Header struct {
		Status     string `xml:"status,attr"`
		Identifier string `xml:"identifier"`
		Datestamp  string `xml:"datestamp"`
	} `xml:"header"`
	Metadata struct {
		DC *struct {
			Titles      []string `xml:"http://purl.org/dc/elements/1.1/ title"`
			Identifiers []string `xml:"http://purl.org/dc/elements/1.1/ identifier"`
		} `xml:"http://www.openarchives.org/OAI/2.0/oai_dc/ dc"`
	} `xml:"metadata"`
}

// get sends one request and reads the response document, waiting out
// a 503's Retry-After up to MaxRetryAfter, five times at most.
func (h *harvester) get(q url.Values) (*oaiResponseXML, error) {
	target := h.base + "?" + q.Encode()
	for try := 0; ; try++ {
		req, err := http.NewRequestWithContext(h.ctx, http.MethodGet, target, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("User-Agent", "urnresolver-harvest")
		resp, err := h.o.Client.Do(req)
		if err != nil {
			return nil, err
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, h.o.MaxResponseBytes+1))
		resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: reading the response: %w", h.base, err)
		}
		if resp.StatusCode == http.StatusServiceUnavailable && try < 5 {
			if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs >= 0 && time.Duration(secs)*time.Second <= h.o.MaxRetryAfter {
				t := time.NewTimer(time.Duration(secs) * time.Second)
				select {
				case <-h.ctx.Done():
					t.Stop()
					return nil, h.ctx.Err()
				case <-t.C:
				}
				continue
			}
		}
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("%s: %s answered %d %s", h.base, q.Get("verb"), resp.StatusCode, strconv.Quote(truncate(string(body), 200)))
		}
		if int64(len(body)) > h.o.MaxResponseBytes {
			return nil, fmt.Errorf("%s: a response longer than %d bytes", h.base, h.o.MaxResponseBytes)
		}
		var doc oaiResponseXML
		if err := xml.Unmarshal(body, &doc); err != nil {
			return nil, fmt.Errorf("%s: %s answered what is not an OAI-PMH document: %v", h.base, q.Get("verb"), err)
		}
		return &doc, nil
	}
}

// page stores the records of one page in one transaction, and, when
// next is set (the last page), where the next harvest starts.
func (h *harvester) page(recs []harvestedXML, next string) error {
	ctx, res := h.ctx, &h.res
	tx, err := h.s.db.BeginImport(ctx, time.Now().UTC())
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var c HarvestResult // this page's counts
	var keys []string
	for _, r := range recs {
		key, reason, err := h.record(tx, r, &c)
		if err != nil {
			return err
		}
		if reason != "" {
			c.Refused = append(c.Refused, HarvestRefusal{Identifier: strings.TrimSpace(r.Header.Identifier), Reason: reason})
		}
		if key != "" {
			keys = append(keys, key)
		}
	}
	if next != "" {
		if err := tx.SetHarvestFrom(ctx, res.Source, next); err != nil {
			return err
		}
	}
	a := h.o.Audit
	a.Action, a.URN = "harvest", res.Source
	detail, _ := json.Marshal(map[string]any{"source": res.Source, "page": res.Pages + 1, "records": len(recs),
		"created": c.Created, "updated": c.Updated, "reactivated": c.Reactivated, "deleted": c.Deleted,
		"unchanged": c.Unchanged, "refused": len(c.Refused), "next_from": next})
	a.Detail = string(detail)
	if err := tx.Commit(ctx, a, keys); err != nil {
		return err
	}
	h.s.invalidate(false, keys...)
	res.Pages++
	res.Records += len(recs)
	res.Created += c.Created
	res.Updated += c.Updated
	res.Reactivated += c.Reactivated
	res.Deleted += c.Deleted
	res.Unchanged += c.Unchanged
	res.Refused = append(res.Refused, c.Refused...)
	return nil
}

// record stores one harvested record in tx and counts it in c: it
// returns the key it wrote ("" for none), or why it refused the record.
func (h *harvester) record(tx *store.ImportTx, r harvestedXML, c *HarvestResult) (key, reason string, err error) {
	deleted := strings.TrimSpace(r.Header.Status) == "deleted"
	id := strings.TrimSpace(r.Header.Identifier)
	dc := r.Metadata.DC
	if !deleted && dc == nil {
		return "", "no oai_dc metadata", nil
	}
	// The URN: the identifier, or the first dc:identifier that is one.
	urn := id
	if n, err := h.v.dialects.Parse(id); err != nil || n.HasComponents() {
		urn = ""
		if dc != nil {
			for _, d := range dc.Identifiers {
				if n, err := h.v.dialects.Parse(strings.TrimSpace(d)); err == nil && !n.HasComponents() {
					urn = strings.TrimSpace(d)
					break
				}
			}
		}
		if urn == "" && strings.HasPrefix(lowerASCII(id), "urn:") {
			if _, fe := h.v.parseAssigned("identifier", id); fe != nil {
				return "", fe.Error(), nil
			}
		}
		if urn == "" {
			return "", "neither the identifier nor a dc:identifier is a URN", nil
		}
	}
	var rec Record
	rec.URN = urn
	title := ""
	if dc != nil {
		n, _ := h.v.dialects.Parse(urn)
		for _, d := range dc.Identifiers {
			d = strings.TrimSpace(d)
			if m, err := h.v.dialects.Parse(d); err == nil && m.Key() == n.Key() {
				continue
			}
			if _, err := checkLocation(d, h.v.schemes, h.v.limits.URLBytes); err == nil {
				rec.URLs = append(rec.URLs, d)
			}
		}
		if len(dc.Titles) > 0 {
			title = strings.TrimSpace(dc.Titles[0])
		}
	}
	e, fe := h.v.check(rec)
	if fe != nil {
		return "", fe.Error(), nil
	}
	old, gone, found, err := tx.Entry(h.ctx, e.Key)
	if err != nil {
		return "", "", err
	}
	prefix := harvestReason(h.base)
	if deleted {
		// The reason says when the source deleted it, if its datestamp
		// says so: nothing else of the source's text goes into it.
		ds := strings.TrimSpace(r.Header.Datestamp)
		if _, e := parseOAITime("datestamp", ds); e != nil {
			ds = "no datestamp"
		}
		reason := prefix + " (" + ds + ")"
		switch {
		case gone != nil:
			c.Unchanged++
			return "", "", nil
		case !found:
			e.Metadata = "{}"
			if err := tx.Load(h.ctx, []store.Loaded{{Entry: e.Entry, Created: time.Now().UTC(), Updated: time.Now().UTC(),
				Deactivated: &store.Deactivation{At: time.Now().UTC(), Reason: reason}}}); err != nil {
				return "", "", err
			}
		default:
			if err := tx.SetDeactivated(h.ctx, e.Key, &store.Deactivation{Reason: reason}); err != nil {
				return "", "", err
			}
		}
		c.Deleted++
		return e.Key, "", nil
	}
	if gone != nil && !strings.HasPrefix(gone.Reason, prefix+" (") {
		return "", fmt.Sprintf("urn: %s is deactivated here (%q), not by a harvest of this source: a harvest does not reactivate it", e.URN, truncate(gone.Reason, 80)), nil
	}
	// The record as it is to be: the harvested locations and title, the
	// stored synonyms and other metadata members.
	meta := map[string]json.RawMessage{}
	if found {
		if err := json.Unmarshal([]byte(old.Metadata), &meta); err != nil {
			return "", "", fmt.Errorf("%s: stored metadata: %w", e.URN, err)
		}
		e.Synonyms = old.Synonyms
	}
	same := found && titleOf(old.Metadata) == title && len(old.URLs) == len(e.URLs)
	for i := 0; same && i < len(e.URLs); i++ {
		same = old.URLs[i].URL == e.URLs[i].URL
	}
	if same && gone == nil {
		c.Unchanged++
		return "", "", nil
	}
	delete(meta, "title")
	if title != "" {
		meta["title"], _ = json.Marshal(title)
	}
	if len(meta) > 0 {
		b, _ := json.Marshal(meta)
		if e.Metadata, fe = h.v.metadata(b); fe != nil {
			return "", fe.Error(), nil
		}
	}
	if err := tx.Write(h.ctx, []store.Entry{e.Entry}); err != nil {
		return "", "", err
	}
	switch {
	case gone != nil:
		if err := tx.SetDeactivated(h.ctx, e.Key, nil); err != nil {
			return "", "", err
		}
		c.Reactivated++
	case found:
		c.Updated++
	default:
		c.Created++
	}
	return e.Key, "", nil
}
