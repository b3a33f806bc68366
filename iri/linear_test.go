package iri

import (
	"runtime"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// shape is an input shape for the scaling tests of issue 20 item 16:
// gen(n) is an input of about n bytes.
type shape struct {
	name string
	gen  func(n int) string
}

func repeat(prefix, unit string, n int, suffix string) string {
	return prefix + strings.Repeat(unit, max(n/len(unit), 1)) + suffix
}

// repairShapes are inputs Repair must handle in linear time and bounded
// memory: every kind of repair, massed, and mixes that defeat merging.
var repairShapes = []shape{
	{"percent", func(n int) string { return repeat("http://a/", "%", n, "") }},
	{"dotdot", func(n int) string { return repeat("http://a/", "../", n, " ") }},
	{"non-ASCII", func(n int) string { return repeat("http://a/", "é", n, "") }},
	{"brackets", func(n int) string { return repeat("http://a/", "[", n, "") }},
	{"spaces", func(n int) string { return repeat("http://a/", " ", n, "x") }},
	{"tabs", func(n int) string { return repeat("http://a/", "\t", n, "x") }},
	{"newlines", func(n int) string { return repeat("http://a/", "a\r\n", n, "") }},
	{"every other", func(n int) string { return repeat("http://a/", "a ", n, "") }},
	{"every ninth", func(n int) string { return repeat("http://a/", "abcdefgh|", n, "") }},
	{"every tenth", func(n int) string { return repeat("http://a/", "abcdefghi|", n, "") }},
	{"mixed", func(n int) string { return repeat(" <http://", "é\\ x%zz\t[]|\n ", n, "> ") }},
	{"IDN host", func(n int) string { return repeat("http://", "é", n, "/ x") }},
	{"scheme", func(n int) string { return repeat("", "a\n", n, ":x y") }},
	{"userinfo", func(n int) string { return repeat("http://", "u@", n, "h/ x") }},
	{"authority", func(n int) string { return repeat("http://", "[", n, "]/ x") }},
}

// TestRepairLinear: Repair costs CPU time and allocated bytes linear in
// the input for every shape (issue 20 item 16), checked at 32 KiB and
// 256 KiB by testshared.CheckLinearN.
func TestRepairLinear(t *testing.T) {
	for _, sh := range repairShapes {
		testshared.CheckLinearN(t, "Repair "+sh.name, 32<<10, sh.gen, func(s string) { Repair(s) })
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

// TestRepairMemory: Repair allocates at most 10 times its input, the
// change list included, for every shape (issue 20 item 16).
func TestRepairMemory(t *testing.T) {
	for _, sh := range repairShapes {
		s := sh.gen(1 << 20)
		var changes int
		b := allocated(func() {
			_, reps, _ := Repair(s)
			changes = len(reps)
		})
		if ratio := float64(b) / float64(len(s)); ratio > 10 {
			t.Errorf("Repair %s: %d bytes for %d of input (%.1fx), %d changes", sh.name, b, len(s), ratio, changes)
		} else {
			t.Logf("Repair %-12s %.2fx the input, %d changes", sh.name, ratio, changes)
		}
	}
}

// TestRepairMerges: the change list is exact for ordinary input and
// merged only past maxChanges, touching changes first.
func TestRepairMerges(t *testing.T) {
	s := "http://a/" + strings.Repeat("a ", 100) + "b" // 100 changes: over 64 + 210/16, none touching
	_, reps, err := Repair(s)
	if err != nil || len(reps) != 1 || reps[0].Offset != 10 || reps[0].From != s[10:209] || reps[0].To != "%20"+strings.Repeat("a%20", 99) {
		t.Errorf("Repair(%q): %d changes %v, %v", s, len(reps), reps, err)
	}
	s = "http://a/" + strings.Repeat("|", 80) + "abcdefghij|" // 81 changes, over 64 + 100/16; touching ones merge into 2
	_, reps, err = Repair(s)
	if err != nil || len(reps) != 2 || reps[0].From != strings.Repeat("|", 80) || reps[1].Offset != 99 {
		t.Errorf("Repair(%q): %v, %v", s, reps, err)
	}
	s = "http://a/" + strings.Repeat("x|", 60) // 60 changes, within the limit: each listed
	if _, reps, _ = Repair(s); len(reps) != 60 {
		t.Errorf("Repair(%q): %d changes, want each of the 60", s, len(reps))
	}
	// Merged or not, applying the changes to the input gives the output.
	for _, sh := range repairShapes {
		s := sh.gen(4096)
		u, reps, err := Repair(s)
		if err != nil {
			continue
		}
		var b strings.Builder
		at := 0
		for _, c := range reps {
			if c.Offset < at || s[c.Offset:c.Offset+len(c.From)] != c.From {
				t.Fatalf("Repair %s: change %v out of order or not in the input", sh.name, c)
			}
			b.WriteString(s[at:c.Offset])
			b.WriteString(c.To)
			at = c.Offset + len(c.From)
		}
		b.WriteString(s[at:])
		if b.String() != u.String() {
			t.Errorf("Repair %s: the changes applied give %q, the result is %q", sh.name, b.String(), u)
		}
	}
}

// displayShapes are valid URIs (or IRIs, for ToURI) of every shape
// ToIRI and ToURI decode or encode.
var displayShapes = []shape{
	{"unreserved escapes", func(n int) string { return repeat("http://a/", "%41", n, "") }},
	{"UTF-8 escapes", func(n int) string { return repeat("http://a/", "%C3%A9", n, "") }},
	{"Han escapes", func(n int) string { return repeat("http://a/", "%E4%BE%8B", n, "") }},
	{"hidden escapes", func(n int) string { return repeat("http://a/", "%E2%80%8B", n, "") }},
	{"broken UTF-8", func(n int) string { return repeat("http://a/", "%E4%BE", n, "") }},
	{"marks", func(n int) string { return repeat("http://a/", "%CC%81", n, "") }},
	{"A-labels", func(n int) string { return repeat("http://", "xn--mnchen-3ya.", n, "de/") }},
	{"host escapes", func(n int) string { return repeat("http://", "m%C3%BCnchen.", n, "de/") }},
	{"IRI path", func(n int) string { return repeat("http://a/", "é", n, "") }},
	{"IRI host", func(n int) string { return repeat("http://", "é", n, "/") }},
	{"IRI labels", func(n int) string { return repeat("http://", "é.", n, "de/") }},
}

// TestDisplayLinear: ToIRI and ToURI cost time and memory linear in
// the input, for every shape.
func TestDisplayLinear(t *testing.T) {
	for _, sh := range displayShapes {
		testshared.CheckLinearN(t, "ToIRI "+sh.name, 64<<10, sh.gen, func(s string) { ToIRI(s) })
		testshared.CheckLinearN(t, "ToURI "+sh.name, 64<<10, sh.gen, func(s string) { ToURI(s) })
		s := sh.gen(1 << 20)
		for name, f := range map[string]func(string){"ToIRI": func(s string) { ToIRI(s) }, "ToURI": func(s string) { ToURI(s) }} {
			if b := allocated(func() { f(s) }); b > 10*uint64(len(s)) {
				t.Errorf("%s %s: %d bytes for %d of input", name, sh.name, b, len(s))
			}
		}
	}
}
