package uri

import (
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// packShapes returns references whose scheme, userinfo, host and port
// have every length around the limits of the packing (a scheme of 63
// bytes, a host or a port with its ':' of 255), alone and together, in
// IP literals, and in the 1998 grammar's registry-based authorities,
// which may hold '@'.
func packShapes() []string {
	var out []string
	lens := []int{0, 1, 2, 61, 62, 63, 64, 65, 126, 127, 128, 252, 253, 254, 255, 256, 257, 300, 1000}
	for _, n := range lens {
		if n > 0 {
			sch := strings.Repeat("a", n)
			out = append(out, sch+":", sch+":x", sch+"://h/p", sch+"://u@h:8/p?q#f", sch+":/p?q", sch+"://"+strings.Repeat("h", n)+":"+strings.Repeat("9", n))
		}
		h := strings.Repeat("h", n)
		port := strings.Repeat("7", n)
		for _, pre := range []string{"", "http:", "s" + strings.Repeat("x", 70) + ":"} {
			for _, ui := range []string{"", "@", "u@", "u:p@", strings.Repeat("u", 300) + "@", strings.Repeat("v", n) + ":@"} {
				for _, p := range []string{"", ":", ":80", ":" + port} {
					for _, tail := range []string{"", "/", "/a/b?q", "?q#f", "#f"} {
						out = append(out, pre+"//"+ui+h+p+tail)
					}
				}
			}
			out = append(out,
				pre+"//["+strings.Repeat("0:", 7)+"1]:"+port+"/p",
				pre+"//u@[v1."+h+"x]:"+port+"/p",
				pre+"//[fe80::1%25"+h+"e]/p",
				pre+"//a@b@"+h+"/p",          // a registry-based authority in the 1998 grammar
				pre+"//a@b@"+h+":"+port+"/p", // ... with a ':'
			)
		}
		out = append(out, h, "/"+h, h+"/x:y", "./"+h+":"+port)
	}
	return out
}

// checkPacked checks that f, as a parser wrote it, is in the one form
// pack assumes (no host bounds without an authority, no scheme end
// without a scheme), and that its packing gives every field back.
func checkPacked(t *testing.T, what string, f *fields) {
	t.Helper()
	if f.flags&hasAuthority == 0 && (f.hostStart != f.pathStart || f.hostEnd != f.pathStart) {
		t.Errorf("%s(%q): no authority, but host bounds %d-%d and path start %d", what, f.s, f.hostStart, f.hostEnd, f.pathStart)
	}
	if f.flags&hasScheme == 0 && f.schemeEnd != 0 {
		t.Errorf("%s(%q): no scheme, but schemeEnd %d", what, f.s, f.schemeEnd)
	}
	u := f.pack()
	var g fields
	u.unpack(&g)
	if g != *f {
		t.Errorf("%s(%q): packed and unpacked %+v, parsed %+v", what, f.s, g, *f)
	}
}

// TestPackRoundTrip checks that a URI's packing keeps every bound and
// flag the parsers find: on the shapes of packShapes, in both grammars,
// and on the corpora's lines, where parseMasks must also agree.
func TestPackRoundTrip(t *testing.T) {
	inputs := packShapes()
	for _, name := range []string{"kasztp", "node_files"} {
		inputs = append(inputs, testshared.LoadCorpus(t, name).Lines...)
	}
	parsed := 0
	for _, s := range inputs {
		var f fields
		if f.parse3986(s, true) == nil {
			parsed++
			checkPacked(t, "parse3986", &f)
			if u, ok := parseMasks(s); ok && u != f.pack() {
				t.Errorf("parseMasks(%q) = %+v, parse3986 packed %+v", s, u, f.pack())
			}
		}
		var g fields
		if g.parse2396(s) == nil {
			parsed++
			checkPacked(t, "parse2396", &g)
		}
	}
	// The shapes are there to be parsed: a change that made them all
	// fail would leave this test checking nothing.
	if parsed < len(inputs) {
		t.Errorf("only %d parses of %d inputs in two grammars", parsed, len(inputs))
	}
}

// TestPackBuilt checks the URIs that Resolve, the Resolver and Normalize
// build from the packed bounds of others (shift, takeScheme, setPath):
// each re-parses into itself, on bases and references with long schemes,
// hosts and ports.
func TestPackBuilt(t *testing.T) {
	var refs []URI
	for _, s := range append(packShapes(), "g", "../g", "", "?y", "#s", "//g", "/./g", "g/../..", "//h/../x") {
		if u, err := Parse(s); err == nil && len(s) < 2000 {
			refs = append(refs, u)
		}
	}
	again := func(what string, u URI) {
		t.Helper()
		v, err := ParseWith(u.String(), Options{Grammar: u.Grammar(), AllowZoneID: true})
		if err != nil || v != u {
			t.Fatalf("%s = %q (%+v), which parses into %+v, %v", what, u.String(), u, v, err)
		}
	}
	var r Resolver
	for i, b := range refs {
		// Every seventh base of up to 400 bytes, each against every
		// reference: 7 is prime to the counts of packShapes' loops, so
		// each shape has some.
		if !b.HasScheme() || b.HasFragment() || len(b.String()) > 400 || i%7 != 0 {
			continue
		}
		r.Reset(b)
		for _, ref := range refs {
			if len(ref.String()) > 400 {
				continue
			}
			again("Resolve", b.Resolve(ref))
			again("Resolver.Resolve", r.Resolve(ref))
		}
		again("Normalize", b.Normalize())
	}
}

// unpack sets f to u's fields, as the accessors read them.
func (u *URI) unpack(f *fields) {
	f.s = u.s
	f.schemeEnd = u.schemeEnd()
	f.hostStart = u.hostStart()
	f.hostEnd = u.hostEnd()
	f.pathStart = u.pathStart()
	f.pathEnd = u.pathEnd()
	f.queryEnd = u.queryEnd()
	f.flags = u.flags()
	f.hostKind = u.hostKind()
}
