package iri

import (
	"errors"
	"strings"
	"testing"

	"github.com/urikit/urikit/uri"
)

// fuzzSeeds are the reproducers of issues 16 and 20 and the shapes the
// display rules are about.
var fuzzSeeds = []string{
	"http://résumé.example.org", "https://例え.jp/", "a b", "http://a/%zz", "\uE000", "http://a/?\uE000",
	"//google%E3%80%82com", "http://%E2%80%8Bgoogle.com/", "https://xn--mnchen-3ya.de/",
	"https://xn--pypal-4ve.com/", "http://xn--99zt52a.example.org/%e2%80%ae", "http://a/%7E%41%2E",
	"https://m%C3%BCnchen.de/", "foo://%E4%BE%8B/", "http://a/=%CC%B8", "ftp://ds.internic.\n      net/rfc/",
	" <http://a/b c> ", "http://[::1]/[x]\t|", "http:\\\\host\\a\\b?c\\d", "https://例\tえ.jp/",
}

// FuzzToURI: ToURI gives a valid URI, which ToIRI shows and ToURI maps
// back to an equivalent URI.
func FuzzToURI(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := ToURI(s)
		if err != nil {
			return
		}
		// The URI is ASCII (RFC 3987 3.1) and reads back as itself.
		if back, err := uri.Parse(out.String()); err != nil || back != out || !isASCII(out.String()) {
			t.Fatalf("ToURI(%q) = %q, which does not read back: %v", s, out, err)
		}
		checkDisplay(t, out.String())
	})
}

// FuzzToIRI: for every valid URI reference u, ToURI(ToIRI(u)) is
// equivalent to u and the display shows no hidden code point (issue 20
// item 15). Besides the input itself, it checks the URIs made from it:
// its repair, and its bytes percent-encoded in a DNS host, a path, a
// query and a fragment, so that the fuzzer reaches every decoding rule.
func FuzzToIRI(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := uri.Parse(s); err == nil {
			checkDisplay(t, s)
		}
		if u, _, err := Repair(s); err == nil {
			checkDisplay(t, u.String())
		}
		e := uri.Escape(s, nil)
		for _, u := range []string{
			"http://" + e + "/" + e + "?" + e + "#" + e,
			"http://" + strings.ReplaceAll(e, "%2E", ".") + ".example/",
			"foo://" + e + "/",
		} {
			if _, err := uri.Parse(u); err == nil {
				checkDisplay(t, u)
			}
		}
	})
}

// FuzzRepair: what Repair returns is a valid URI reference, which
// Repair returns unchanged (idempotence); its changes, in input order,
// rebuild the output from the input; a valid input is not changed.
func FuzzRepair(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, reps, err := Repair(s)
		if err != nil {
			var pe *uri.ParseError
			if !errors.As(err, &pe) || pe.Offset < 0 || pe.Offset > len(s) || pe.Input != s {
				t.Fatalf("Repair(%q): %v, not a *uri.ParseError with an offset in the input", s, err)
			}
			return
		}
		out := u.String()
		if _, err := uri.Parse(out); err != nil {
			t.Fatalf("Repair(%q) = %q, which does not parse: %v", s, out, err)
		}
		if _, err := uri.Parse(s); err == nil && (out != s || reps != nil) {
			t.Fatalf("Repair(%q) changed a valid URI: %q, %v", s, out, reps)
		}
		again, reps2, err := Repair(out)
		if err != nil || again.String() != out || reps2 != nil {
			t.Fatalf("Repair(Repair(%q)) = %q, %v, %v; want %q unchanged", s, again, reps2, err, out)
		}
		var b strings.Builder
		at := 0
		for _, c := range reps {
			if c.Offset < at || c.Offset+len(c.From) > len(s) || s[c.Offset:c.Offset+len(c.From)] != c.From {
				t.Fatalf("Repair(%q): change %+v out of order or not in the input", s, c)
			}
			b.WriteString(s[at:c.Offset])
			b.WriteString(c.To)
			at = c.Offset + len(c.From)
		}
		b.WriteString(s[at:])
		if b.String() != out {
			t.Fatalf("Repair(%q) = %q, but its changes give %q", s, out, b.String())
		}
		if len(reps) > maxChanges(len(s)) && len(reps) > len(s)/(mergeGap+1)+1 {
			t.Fatalf("Repair(%q): %d changes", s, len(reps))
		}
		// A line break or tab never survives, not even encoded (the
		// 1998 draft, Appendix E).
		for _, esc := range []string{"%09", "%0A", "%0D"} {
			if strings.Contains(out, esc) && !strings.Contains(strings.ToUpper(s), esc) {
				t.Fatalf("Repair(%q) = %q holds %s", s, out, esc)
			}
		}
	})
}
