package compare_test

import (
	"errors"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	gourn "github.com/leodido/go-urn"
	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/urn"
)

// explainDisagreement returns why this package and go-urn (RFC 8141
// mode) may rightly disagree on in, or "" when the disagreement is not
// explained (a bug on one side).
func explainDisagreement(in string, ours urn.URN, oursErr error, theirs *gourn.URN, theirsOK bool) string {
	switch {
	case oursErr == nil && !theirsOK:
		if c := urn.ClassifyNID(ours.NID()).Class; c == urn.NIDMalformedInformal {
			return `RFC 8141 2: the NID matches (alphanum) 0*30(ldh) (alphanum); "urn-" + non-number is refused by registration rules (5.2), which ClassifyNID reports, not by the grammar`
		}
		if r, ok := ours.RComponent(); ok && strings.Contains(r, "?+") {
			return `RFC 8141 2.3.1: "?+" inside the r-component is data; only "?=" or "#" ends it`
		}
		if q, ok := ours.QComponent(); ok && (strings.Contains(q, "?=") || strings.Contains(q, "?+")) {
			return `RFC 8141 2.3.2: "?=" or "?+" inside the q-component is data; only "#" ends it`
		}
		if f, ok := ours.FComponent(); ok && f == "" {
			return `RFC 3986 3.5: fragment = *( pchar / "/" / "?" ) may be empty`
		}
	case oursErr != nil && theirsOK:
		// go-urn accepting what the grammar refuses: a bug in go-urn,
		// when we can say which rule it misses.
		var pe *urn.ParseError
		if !errors.As(oursErr, &pe) {
			return ""
		}
		switch {
		case pe.Reason == urn.ErrInvalidPercent:
			return `RFC 3986 2.1 (used by RFC 8141 2): pct-encoded = "%" HEXDIG HEXDIG; go-urn accepts a "%" followed by a non-hexadecimal character`
		case pe.Reason == urn.ErrUnexpectedEnd && pe.Component == urn.ComponentQ && strings.HasSuffix(in, "?="):
			return `RFC 8141 2: q-component = pchar *( pchar / "/" / "?" ) is not empty; go-urn accepts an empty one after an r-component`
		}
	case oursErr == nil && theirsOK:
		if ours.NID() != theirs.ID || ours.NSS() != theirs.SS {
			return ""
		}
		r, _ := ours.RComponent()
		q, _ := ours.QComponent()
		f, _ := ours.FComponent()
		if r != theirs.RComponent() || q != theirs.QComponent() || f != theirs.FComponent() {
			return ""
		}
		return "agree"
	}
	return ""
}

func differential(t *testing.T, inputs []string, label string) {
	t.Helper()
	disagree := map[string]int{}
	for _, in := range inputs {
		ours, err := urn.Parse(in)
		theirs, ok := gourn.Parse([]byte(in), gourn.WithParsingMode(gourn.RFC8141Only))
		if (err == nil) == ok && err != nil {
			continue // both reject
		}
		why := explainDisagreement(in, ours, err, theirs, ok)
		switch why {
		case "agree":
		case "":
			t.Errorf("%s: unexplained disagreement on %q: ours %v, go-urn ok=%v", label, in, err, ok)
		default:
			if disagree[why] < 3 {
				t.Logf("%s: %q: we accept, go-urn rejects: %s", label, in, why)
			}
			disagree[why]++
		}
	}
	for why, n := range disagree {
		t.Logf("%s: %d disagreements: %s", label, n, why)
	}
}

// TestDifferentialCorpus compares with go-urn on the real URNs.
func TestDifferentialCorpus(t *testing.T) {
	var inputs []string
	inputs = append(inputs, testshared.LoadCorpus(t, "urns").Lines...) // the sample without URIKIT_SHARED
	inputs = append(inputs, testshared.Lines(t, "corpora", "urns", "iana-registry-urns.txt")...)
	for _, l := range testshared.Lines(t, "corpora", "urns", "nbn-no-letter-editions.csv") {
		inputs = append(inputs, nbnOf(l))
	}
	differential(t, inputs, "corpus")
}

// TestDifferentialSample compares with go-urn on the committed sample, so
// that the test runs without URIKIT_SHARED.
func TestDifferentialSample(t *testing.T) {
	differential(t, testshared.MustReadLines(t, filepath.Join(testshared.SampleDir(), "urns-sample.txt")), "sample")
}

// TestDifferentialGenerated compares with go-urn on generated strings:
// urn.URN-shaped sequences of pieces that exercise every rule of RFC 8141
// section 2.
func TestDifferentialGenerated(t *testing.T) {
	rng := rand.New(rand.NewSource(8141))
	prefixes := []string{"urn:", "urn.URN:", "uRn:", "urn", "urx:", ""}
	nids := []string{"ex", "example", "a", "a-", "-a", "urn-7", "urn-0", "urn-x", "xn--a", "a-b", "abcdefghijklmnopqrstuvwxyz012345", "abcdefghijklmnopqrstuvwxyz0123456", "1", "x_y", ""}
	pieces := []string{"a", "Z", "0", "-", ".", "_", "~", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "=", ":", "@", "/", "?", "#",
		"%", "%2", "%2c", "%2C", "%G1", "%00", " ", "[", "]", "\"", "<", "\\", "^", "`", "{", "|", "}", "\x7f", "\xd0\xb0",
		"?+", "?=", "??", "?+r", "?=q", "#f"}
	inputs := make([]string, 0, 50000)
	for i := 0; i < 50000; i++ {
		var b strings.Builder
		b.WriteString(prefixes[rng.Intn(len(prefixes))])
		b.WriteString(nids[rng.Intn(len(nids))])
		if rng.Intn(10) > 0 {
			b.WriteByte(':')
		}
		for n := rng.Intn(8); n > 0; n-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		inputs = append(inputs, b.String())
	}
	differential(t, inputs, "generated")
}

// nbnOf extracts the URN of a line of nbn-no-letter-editions.csv, as
// the urn package's conformance test does.
func nbnOf(line string) string {
	line = strings.Trim(line, `"`)
	if i := strings.Index(line, "URN:"); i >= 0 {
		line = line[i:]
	}
	if i := strings.IndexByte(line, ' '); i >= 0 {
		line = line[:i]
	}
	return line
}
