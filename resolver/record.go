package resolver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/urikit/urikit/resolver/internal/store"
)

// Record is what the resolver knows about one URN, as the admin API and
// the JSON Lines import write it and N2C reads it:
//
//	{"urn": "urn:nbn:no-1234", "urls": ["https://..."],
//	 "metadata": {"title": "..."}, "synonyms": ["urn:isbn:..."]}
//
// URLs keep their order: the first is the one N2L redirects to.
type Record struct {
	URN      string          `json:"urn"`
	URLs     []string        `json:"urls"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
	Synonyms []string        `json:"synonyms,omitempty"`
}

// Limits are the documented size limits of records and requests. A
// record over any of them is refused whole, with the field named.
type Limits struct {
	URNBytes      int   // one URN, as written (default 2,048)
	URLBytes      int   // one location (default 4,096)
	URLs          int   // locations per record (default 64)
	Synonyms      int   // synonyms per record (default 64)
	MetadataBytes int   // the metadata object, compact JSON (default 16,384)
	BodyBytes     int64 // a single-record request body (default 1 MiB)
	ImportBytes   int64 // an import request body (default 1 GiB)
	LineBytes     int   // one line of an import (default 1 MiB)
}

// DefaultLimits returns the limits a Server uses when Config leaves them zero.
func DefaultLimits() Limits {
	return Limits{
		URNBytes: 2048, URLBytes: 4096, URLs: 64, Synonyms: 64,
		MetadataBytes: 16 << 10, BodyBytes: 1 << 20, ImportBytes: 1 << 30, LineBytes: 1 << 20,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.URNBytes <= 0 {
		l.URNBytes = d.URNBytes
	}
	if l.URLBytes <= 0 {
		l.URLBytes = d.URLBytes
	}
	if l.URLs <= 0 {
		l.URLs = d.URLs
	}
	if l.Synonyms <= 0 {
		l.Synonyms = d.Synonyms
	}
	if l.MetadataBytes <= 0 {
		l.MetadataBytes = d.MetadataBytes
	}
	if l.BodyBytes <= 0 {
		l.BodyBytes = d.BodyBytes
	}
	if l.ImportBytes <= 0 {
		l.ImportBytes = d.ImportBytes
	}
	if l.LineBytes <= 0 {
		l.LineBytes = d.LineBytes
	}
	return l
}

// FieldError says which field of a record is wrong and why.
type FieldError struct {
	Field   string     // "urn", "urls[1]", "metadata", "synonyms[0]", "metadata.title"
	Pointer string     // Field as a JSON Pointer ("#/metadata/title"), when it is not derived from Field
	Reason  string     // what is wrong with it
	Name    *NameError // set when the field is an invalid URN
	TooBig  bool       // set when the field is over a size limit
}

func (e *FieldError) Error() string {
	if e.Field == "" {
		return e.Reason
	}
	return e.Field + ": " + e.Reason
}

// entry is a validated record, ready for the store: every URN parsed and
// keyed, every location checked.
type entry struct {
	store.Entry
	name     Name
	synNames []Name // the synonyms' names, by index; zero for one read back from the store
	dropped  bool   // an import refused the record after queueing it
	line     int    // an import's first line of the record
}

// validator checks records against the limits and the namespaces' dialects.
type validator struct {
	dialects Dialects
	limits   Limits
	schemes  []string
}

// parseAssigned parses a URN that is to be registered: an assigned name,
// without r-, q- or f-component, whose NSS passes its namespace's syntax.
func (v *validator) parseAssigned(field, s string) (Name, *FieldError) {
	if len(s) > v.limits.URNBytes {
		return Name{}, &FieldError{Field: field, Reason: fmt.Sprintf("URN longer than %d bytes", v.limits.URNBytes), TooBig: true}
	}
	if s == "" {
		return Name{}, &FieldError{Field: field, Reason: "missing URN"}
	}
	n, err := v.dialects.Parse(s)
	if err != nil {
		var ne *NameError
		if !errors.As(err, &ne) {
			return Name{}, &FieldError{Field: field, Reason: err.Error()}
		}
		return Name{}, &FieldError{Field: field, Reason: ne.Reason, Name: ne}
	}
	if n.HasComponents() {
		return Name{}, &FieldError{Field: field, Reason: "a registered URN is an assigned name, without r-, q- or f-component (RFC 8141 section 2)"}
	}
	if err := n.ValidateNamespace(); err != nil {
		return Name{}, &FieldError{Field: field, Reason: err.Error()}
	}
	return n, nil
}

// check validates r and returns the entry to store.
func (v *validator) check(r Record) (entry, *FieldError) {
	n, fe := v.parseAssigned("urn", r.URN)
	if fe != nil {
		return entry{}, fe
	}
	e := entry{name: n, Entry: store.Entry{Key: n.Key(), URN: n.Canonical(), NID: n.NID(), Metadata: "{}"}}
	if len(r.URLs) > v.limits.URLs {
		return entry{}, &FieldError{Field: "urls", Reason: fmt.Sprintf("%d locations, more than %d", len(r.URLs), v.limits.URLs), TooBig: true}
	}
	for i, u := range r.URLs {
		field := "urls[" + strconv.Itoa(i) + "]"
		k, err := checkLocation(u, v.schemes, v.limits.URLBytes)
		if err != nil {
			return entry{}, &FieldError{Field: field, Reason: strconv.Quote(truncate(u, 200)) + " " + err.Error(), TooBig: len(u) > v.limits.URLBytes}
		}
		e.URLs = append(e.URLs, store.Location{URL: u, Key: k})
	}
	if len(r.Synonyms) > v.limits.Synonyms {
		return entry{}, &FieldError{Field: "synonyms", Reason: fmt.Sprintf("%d synonyms, more than %d", len(r.Synonyms), v.limits.Synonyms), TooBig: true}
	}
	for i, s := range r.Synonyms {
		field := "synonyms[" + strconv.Itoa(i) + "]"
		sn, fe := v.parseAssigned(field, s)
		if fe != nil {
			return entry{}, fe
		}
		if sn.Key() == e.Key {
			return entry{}, ownSynonym(i)
		}
		e.Synonyms = append(e.Synonyms, store.Synonym{Key: sn.Key(), URN: sn.Canonical()})
		e.synNames = append(e.synNames, sn)
	}
	if len(r.Metadata) > 0 && !bytes.Equal(bytes.TrimSpace(r.Metadata), []byte("null")) {
		m, fe := v.metadata(r.Metadata)
		if fe != nil {
			return entry{}, fe
		}
		e.Metadata = m
	}
	return e, nil
}

// ownSynonym is the error of synonyms[i], the record's own URN.
func ownSynonym(i int) *FieldError {
	return &FieldError{Field: "synonyms[" + strconv.Itoa(i) + "]", Reason: "is the record's own URN (lexically equivalent, RFC 8141 section 3)"}
}

// metadata checks that raw is a JSON object within the size limit and
// returns it compacted.
func (v *validator) metadata(raw json.RawMessage) (string, *FieldError) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return "", &FieldError{Field: "metadata", Reason: "not a JSON object"}
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return "", &FieldError{Field: "metadata", Reason: "not a JSON object"}
	}
	if buf.Len() > v.limits.MetadataBytes {
		return "", &FieldError{Field: "metadata", Reason: fmt.Sprintf("%d bytes, more than %d", buf.Len(), v.limits.MetadataBytes), TooBig: true}
	}
	return buf.String(), nil
}

// maxReason bounds the reason of a deactivation, in bytes.
const maxReason = 1024

// deactivationMembers are the member names of a deactivation body.
var deactivationMembers = map[string]bool{"reason": true, "successor": true}

// decodeDeactivation reads the body of a deactivation, strictly (as a
// record's): empty, or {"reason": "...", "successor": "urn:..."}, both
// optional. The successor is as written; validator.successor checks it.
func decodeDeactivation(body []byte) (Deactivation, *FieldError) {
	var d Deactivation
	if len(bytes.TrimSpace(body)) == 0 {
		return d, nil
	}
	if je := checkJSON(body, deactivationMembers); je != nil {
		return d, je.fieldError()
	}
	var in struct {
		Reason    string `json:"reason"`
		Successor string `json:"successor"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return d, &FieldError{Reason: "not a deactivation {\"reason\", \"successor\"}: " + jsonReason(err)}
	}
	if len(in.Reason) > maxReason {
		return d, &FieldError{Field: "reason", Reason: fmt.Sprintf("longer than %d bytes", maxReason), TooBig: true}
	}
	d.Reason, d.Successor = strings.TrimSpace(in.Reason), in.Successor
	return d, nil
}

// successor checks the successor a deactivation of n names: an assigned
// name other than n. The zero Name when there is none.
func (v *validator) successor(successor string, n Name) (Name, *FieldError) {
	if successor == "" {
		return Name{}, nil
	}
	succ, fe := v.parseAssigned("successor", successor)
	if fe != nil {
		return Name{}, fe
	}
	if succ.Key() == n.Key() {
		return Name{}, &FieldError{Field: "successor", Reason: "is the URN itself (lexically equivalent, RFC 8141 section 3)"}
	}
	return succ, nil
}

// mergeEntries adds b's locations and synonyms after a's and b's metadata
// members over a's: what an import does when a URN comes back.
func mergeEntries(a, b entry) entry {
	out := a
	out.URLs = append(append([]store.Location(nil), a.URLs...), b.URLs...)
	out.Synonyms = append(append([]store.Synonym(nil), a.Synonyms...), b.Synonyms...)
	out.synNames = append(append(make([]Name, 0, len(out.Synonyms)), a.synNames...), make([]Name, len(a.Synonyms)-len(a.synNames))...)
	out.synNames = append(append(out.synNames, b.synNames...), make([]Name, len(b.Synonyms)-len(b.synNames))...)
	if b.Metadata != "{}" && b.Metadata != "" {
		if a.Metadata == "{}" || a.Metadata == "" {
			out.Metadata = b.Metadata
		} else {
			var ma, mb map[string]json.RawMessage
			_ = json.Unmarshal([]byte(a.Metadata), &ma)
			_ = json.Unmarshal([]byte(b.Metadata), &mb)
			for k, val := range mb {
				ma[k] = val
			}
			if m, err := json.Marshal(ma); err == nil {
				out.Metadata = string(m)
			}
		}
	}
	return out
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// namedURNs returns every URN a write of e names, with the field that
// names it: the record's own and each synonym. A token must cover all of
// them (issue 23): a synonym binding is answered by N2N, N2Ns, I=I and
// the page for both of its URNs, so registering one speaks for the
// synonym's namespace as much as for the record's.
func (e entry) namedURNs() (fields []string, names []Name) {
	fields, names = append(fields, "urn"), append(names, e.name)
	for i, n := range e.synNames {
		if n.key != "" {
			fields = append(fields, "synonyms["+strconv.Itoa(i)+"]")
			names = append(names, n)
		}
	}
	return fields, names
}
