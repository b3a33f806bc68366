package urn

import (
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// readLines returns the non-empty lines of the file at path (a shared
// file or a sample under testdata/), or skips the test when it is missing.
func readLines(t testing.TB, path string) []string {
	t.Helper()
	return testshared.FileLines(t, path)
}

// goURNVector is one case of go-urn's test tables, as transcribed in
// conformance/urn/go-urn.tables.json (go-urn is MIT-licensed; the
// license is beside the file).
type goURNVector struct {
	Table  string  `json:"table"`
	Index  int     `json:"index"`
	In     string  `json:"in"`
	OK     bool    `json:"ok"`
	NID    string  `json:"nid"`
	NSS    string  `json:"nss"`
	Norm   string  `json:"norm"`
	Error  string  `json:"error"`
	IsSCIM bool    `json:"is_scim"`
	R      *string `json:"r_component"`
	Q      *string `json:"q_component"`
	F      *string `json:"f_component"`
}

// goURNKnownDifferences lists every vector of go-urn's tables where this
// package disagrees, keyed by table and index, with the spec reason.
var goURNKnownDifferences = map[string]string{
	// RFC 2141 section 2.2 puts "/" in <reserved>, part of <trans>;
	// section 2.3.2 only says namespaces SHOULD NOT use it unencoded.
	"urn2141OnlyTestCases/71": `RFC 2141 2.2: "/" is a <reserved> <trans> character; 2.3.2 only discourages it`,

	// RFC 8141 section 5.1/5.2 rules on informal NIDs are registration
	// rules, not syntax: NID = (alphanum) 0*30(ldh) (alphanum) matches
	// "urn-0" and "urn-s". ClassifyNID reports them as malformed informal
	// NIDs.
	"rfc8141TestCases/34": `RFC 8141 2: "urn-0" matches the NID rule; 5.2's informal form is a registration rule (ClassifyNID: malformed-informal)`,
	"rfc8141TestCases/35": `RFC 8141 2: "urn-s" matches the NID rule; 5.2's informal form is a registration rule (ClassifyNID: malformed-informal)`,

	// RFC 8141 section 2: r-component = pchar *( pchar / "/" / "?" ) and
	// q-component likewise, and 2.3.1/2.3.2 say an r-component ends only
	// at "?=" or "#" and a q-component only at "#". So "?+" may appear
	// inside an r-component, and "?=" inside a q-component.
	"rfc8141TestCases/47": `RFC 8141 2, 2.3.1: r-component "a?+" is pchar *(pchar / "/" / "?"), ended only by "?=" or "#"`,
	"rfc8141TestCases/49": `RFC 8141 2, 2.3.2: q-component "a?=" is pchar *(pchar / "/" / "?"), ended only by "#"`,
	"rfc8141TestCases/51": `RFC 8141 2, 2.3.1: r-component "rcomponent?+rcomponent" then q-component "qcomponent"`,
	"rfc8141TestCases/53": `RFC 8141 2, 2.3.2: q-component "qcomponent?=q" may hold "?="`,
}

// scimKnownDifference explains the SCIM table's rejections: they check
// RFC 7643 section 10's schema URI names, a profile of
// urn:ietf:params:scim, not URN syntax; every rejected input that is a
// syntactically valid URN is accepted here.
const scimKnownDifference = "RFC 7643 10 (SCIM schema URIs) is a profile, not URN syntax"

func TestGoURNTables(t *testing.T) {
	var vectors []goURNVector
	testshared.ReadJSON(t, &vectors, "conformance", "urn", "go-urn.tables.json")
	pass, known, fail := 0, 0, 0
	for _, v := range vectors {
		key := v.Table + "/" + itoa(v.Index)
		d := RFC8141
		if v.Table == "urn2141OnlyTestCases" || v.Table == "urnlexTestCases" {
			d = RFC2141
		}
		problem := checkVector(v, d)
		reason, isKnown := goURNKnownDifferences[key]
		if problem != "" && v.Table == "scimOnlyTestCases" && !v.OK {
			reason, isKnown = scimKnownDifference, true
		}
		switch {
		case problem == "" && isKnown && v.Table != "scimOnlyTestCases":
			t.Errorf("%s %q: listed as a known difference but agrees", key, v.In)
			fail++
		case problem == "":
			pass++
		case isKnown:
			known++
			t.Logf("known difference %s %q: %s; because %s", key, v.In, problem, reason)
		default:
			fail++
			t.Errorf("%s %q: %s", key, v.In, problem)
		}
	}
	t.Logf("go-urn tables: %d vectors, %d pass, %d known differences, %d fail", len(vectors), pass, known, fail)
}

func checkVector(v goURNVector, d Dialect) string {
	u, err := ParseWith(v.In, Options{Dialect: d})
	if !v.OK {
		if err == nil {
			return "accepted, go-urn rejects (" + v.Error + ")"
		}
		return ""
	}
	if err != nil {
		return "rejected: " + err.Error()
	}
	if v.Table != "scimOnlyTestCases" && (u.NID() != v.NID || u.NSS() != v.NSS) {
		return "NID, NSS = " + u.NID() + ", " + u.NSS() + "; go-urn " + v.NID + ", " + v.NSS
	}
	for _, c := range []struct {
		name string
		want *string
		get  func() (string, bool)
	}{{"r", v.R, u.RComponent}, {"q", v.Q, u.QComponent}, {"f", v.F, u.FComponent}} {
		got, ok := c.get()
		if c.want != nil && (!ok || got != *c.want) {
			return c.name + "-component " + got + ", go-urn " + *c.want
		}
		// go-urn reports an empty f-component as absent ("#" at the end).
		if c.want == nil && ok && got != "" {
			return c.name + "-component " + got + ", go-urn none"
		}
	}
	// go-urn's normalized form lowercases percent-encoding (RFC 2141
	// section 5 leaves the case open); RFC 8141 section 3.1 uppercases
	// it. Compare equivalence keys, which do not depend on that choice.
	n, err := ParseWith(v.Norm, Options{Dialect: d})
	if err != nil {
		return "go-urn's normalized form " + v.Norm + " does not parse: " + err.Error()
	}
	if n.Key() != u.Key() {
		return "key " + u.Key() + ", go-urn normalized " + v.Norm
	}
	return ""
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for ; i > 0; i /= 10 {
		n--
		b[n] = byte('0' + i%10)
	}
	return string(b[n:])
}

// corpusKnownRejections lists the corpus lines that are not URNs, with
// the reason.
var corpusKnownRejections = map[string]string{
	// The IANA registry lists "urn:ietf:" as the prefix of the ietf
	// namespace, not a URN: RFC 8141 2 requires a non-empty NSS.
	"urn:ietf:": "RFC 8141 2: NSS = pchar *(pchar / \"/\") is not empty; this is the registry's prefix entry",
}

// TestCorpora parses every URN of the corpora with RFC 8141: urns.txt
// (LoadCorpus: the committed sample without URIKIT_SHARED) and the two
// small real-world files committed under testdata/corpora/urns.
func TestCorpora(t *testing.T) {
	files := []string{"urns.txt", "iana-registry-urns.txt", "nbn-no-letter-editions.csv"}
	for _, name := range files {
		var lines []string
		if name == "urns.txt" {
			lines = testshared.LoadCorpus(t, "urns").Lines
		} else {
			lines = testshared.Lines(t, "corpora", "urns", name)
		}
		accepted, known, nsInvalid := 0, 0, 0
		for _, line := range lines {
			in := line
			if strings.HasSuffix(name, ".csv") {
				in = nbnFromCSV(line)
			}
			u, err := Parse(in)
			if err != nil {
				if reason, ok := corpusKnownRejections[in]; ok {
					known++
					t.Logf("%s: %q rejected as expected: %s", name, in, reason)
					continue
				}
				t.Errorf("%s: %v", name, err)
				continue
			}
			accepted++
			if u.String() != in {
				t.Errorf("%s: round trip %q -> %q", name, in, u)
			}
			if u.ValidateNamespace() != nil {
				nsInvalid++
			}
		}
		t.Logf("%s: %d lines, %d accepted, %d known rejections; %d fail their namespace's own syntax",
			name, len(lines), accepted, known, nsInvalid)
	}
}

// nbnFromCSV extracts the URN of a line of nbn-no-letter-editions.csv,
// which reads `"https://urn.nb.no/URN:NBN:no-nb_digibok_... Author, ..."`.
func nbnFromCSV(line string) string {
	line = strings.Trim(line, `"`)
	if i := strings.Index(line, "URN:"); i >= 0 {
		line = line[i:]
	}
	if i := strings.IndexByte(line, ' '); i >= 0 {
		line = line[:i]
	}
	return line
}
