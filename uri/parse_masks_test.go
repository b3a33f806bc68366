package uri

import (
	"math/rand/v2"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// checkMasks checks the promise of parseMasks on s: when it accepts s,
// parse3986 accepts s too, with the same URI in every field. It reports
// whether parseMasks accepted.
func checkMasks(t testing.TB, s string) bool {
	t.Helper()
	fast, ok := parseMasks(s)
	if !ok {
		if fast != (URI{}) {
			t.Fatalf("parseMasks(%q) failed but changed the URI: %+v", s, fast)
		}
		return false
	}
	var f fields
	if err := f.parse3986(s, false); err != nil {
		t.Fatalf("parseMasks(%q) accepted what parse3986 rejects: %v", s, err)
	}
	if slow := f.pack(); fast != slow {
		t.Fatalf("parseMasks(%q) = %+v, parse3986 %+v", s, fast, slow)
	}
	return true
}

// TestParseMasksCorpora runs both parsers on every line of the URL
// corpora, and checks that parseMasks takes most of them (it is there
// for speed: a change that made it give up on common URLs would pass the
// other tests and lose it).
func TestParseMasksCorpora(t *testing.T) {
	for _, name := range []string{"kasztp", "node_files"} {
		c := testshared.LoadCorpus(t, name)
		fast, short := 0, 0
		for _, s := range c.Lines {
			if checkMasks(t, s) {
				fast++
			}
			if len(s) <= 64 {
				short++
			}
		}
		t.Logf("%s: parseMasks took %d of the %d lines of at most 64 bytes (%d lines)", c.Name, fast, short, len(c.Lines))
		if fast*10 < short*8 {
			t.Errorf("%s: parseMasks took %d of %d lines of at most 64 bytes; want 80%% or more", c.Name, fast, short)
		}
	}
}

// TestParseMasksEveryByte puts every byte value in every position of
// URLs and relative references (each component present or not, up to
// 64 bytes), also cut at every length, and compares with parse3986.
func TestParseMasksEveryByte(t *testing.T) {
	templates := []string{
		"http://example.com/a/b?q=1&r=2#frag",
		"https://www.example.org:8080/p;a=b/c.html?x#y",
		"a+b.c-d://h:/p?q?/#f/?",
		"s://",
		"s://h",
		"s://:1",
		"foo://h.example:65536?",
		"g://x#",
		"http://192.168.0.1/" + "0123456789012345678901234567890123456789012",
		"http://h/" + "0123456789012345678901234567890123456789012345678901234",
		"mailto:a@b.example?subject=x",
		"urn:isbn:0-395-36341-1",
		"../a/b;c?d=e#f",
		"/x/y:z",
		"//h.example:81/p?q#f",
		"g:h/i",
		"a/b:c",
		"?q#f",
		"#f",
		"",
	}
	for _, tmpl := range templates {
		checkMasks(t, tmpl)
		b := []byte(tmpl)
		for i := range b {
			for c := range 256 {
				old := b[i]
				b[i] = byte(c)
				s := string(b)
				checkMasks(t, s)
				checkMasks(t, s[:i+1])
				b[i] = old
			}
		}
	}
}

// TestParseMasksRandom compares the two parsers on random strings made
// of the bytes that matter to them.
func TestParseMasksRandom(t *testing.T) {
	const alphabet = "aZ09+-.:/?#@[]%~!$&'()*,;=_ \x00\x7f\x80\xff"
	r := rand.New(rand.NewPCG(3, 4))
	b := make([]byte, 70)
	for range 300000 {
		n := r.IntN(len(b) + 1)
		for i := range n {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		// Most random strings fail at once: start half of them as a URL.
		if n > 9 && r.IntN(2) == 0 {
			copy(b, "http://h")
		}
		checkMasks(t, string(b[:n]))
	}
}

// FuzzParseMasks checks the promise of parseMasks on any input.
func FuzzParseMasks(f *testing.F) {
	f.Add("http://example.com:80/a?b#c")
	f.Add("s://:/")
	f.Fuzz(func(t *testing.T, s string) {
		checkMasks(t, s)
	})
}
