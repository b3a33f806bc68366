package uri

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/internal/vectors"
)

// resolverRefs are the references the property test resolves against
// every base: those of RFC 3986 5.4 (5.4.1 normal, 5.4.2 abnormal), the
// kinds of real links, and the cases where a literal recomposition would
// be read back differently.
func resolverRefs() []string {
	var refs []string
	for _, c := range vectors.RFC3986Examples {
		refs = append(refs, c.Ref) // RFC 3986 5.4
	}
	return append(refs,
		"", "?", "#", "?q#f", "index.html", "../css/style.css?v=3", "/search?q=uri&page=2",
		"./about/", "/", "../../", "//cdn.example.com/lib.js", "//h/./p/..?q#f",
		"//v@[::1]:9/x/../y", "//", "///x", "..//", "/..//x", ".//g", ".///C:::", "./b:c",
		"b:c/../d", "g:/x/../y", "a/..", ".", "..", "g/./h/../i", "%2e/g", ".%2e/g",
		"file:///a/./b", "urn:x:./y",
	)
}

// checkResolver holds Resolve, Resolver.Resolve and AppendResolve to
// resolveStepwise (RFC 3986 5.2.2 step by step, the code Resolve had
// before issue 18): the same text and the same components.
func checkResolver(t *testing.T, r *Resolver, base, ref URI) {
	t.Helper()
	want := base.resolveStepwise(ref)
	if got := base.Resolve(ref); got != want {
		t.Errorf("Resolve(%q, %q) = %q, want %q (or other components)", base, ref, got, want)
	}
	if got := r.Resolve(ref); got != want {
		t.Errorf("Resolver(%q).Resolve(%q) = %q, want %q (or other components)", base, ref, got, want)
	}
	if got := r.AppendResolve([]byte("x"), ref); string(got[1:]) != want.s || got[0] != 'x' {
		t.Errorf("Resolver(%q).AppendResolve(x, %q) = %q, want x%q", base, ref, got, want)
	}
}

// TestResolverMatchesResolve is the property of issue 18 over the
// corpora: for every line that parses as a base (with both grammars)
// and every reference of resolverRefs, plus the next line and its
// relative forms as references, the Resolver gives what Resolve gives.
// Relative forms of each line are bases too (RFC 3986 5.2 is applied
// literally to a relative base).
func TestResolverMatchesResolve(t *testing.T) {
	var refs, refs2396 []URI
	for _, s := range resolverRefs() {
		refs = append(refs, MustParse(s))
		if u, err := ParseWith(s, Options{Grammar: RFC2396}); err == nil {
			refs2396 = append(refs2396, u)
		}
	}
	var r Resolver
	n := 0
	for _, name := range []string{"kasztp", "node_files"} {
		lines := testshared.LoadCorpus(t, name).Lines
		for i, s := range lines {
			base, err := Parse(s)
			if err != nil {
				continue
			}
			next, _ := Parse(lines[(i+1)%len(lines)])
			own := append(refs[:len(refs):len(refs)], next)
			own = append(own, relativeForms(next)...)
			r.Reset(base)
			for _, ref := range own {
				checkResolver(t, &r, base, ref)
				n++
			}
			if i%16 != 0 {
				continue
			}
			// Relative bases, and the draft's grammar, on a sixteenth.
			for _, b := range relativeForms(base) {
				r.Reset(b)
				for _, ref := range own {
					checkResolver(t, &r, b, ref)
					n++
				}
			}
			if b, err := ParseWith(s, Options{Grammar: RFC2396}); err == nil {
				r.Reset(b)
				for _, ref := range refs2396 {
					checkResolver(t, &r, b, ref)
					n++
				}
			}
			if t.Failed() {
				return
			}
		}
	}
	t.Logf("%d resolutions compared", n)
}

// relativeForms returns the relative references that u's text holds:
// from its authority on ("//host/p?q#f"), from its path on, and from its
// query on, those that parse.
func relativeForms(u URI) []URI {
	var out []URI
	for _, k := range []int32{u.authStart() - 2, u.pathStart(), u.pathEnd()} {
		if k <= 0 || !u.HasScheme() {
			continue
		}
		if v, err := Parse(u.s[k:]); err == nil {
			out = append(out, v)
		}
	}
	return out
}

// TestResolverResultsStay checks that Resolve never writes over a
// result it returned: every result of a long run, through several
// blocks and a Reset, is still what it was when returned.
func TestResolverResultsStay(t *testing.T) {
	r := NewResolver(MustParse(vectors.RFC3986Base))
	var got []URI
	var want []string
	for i := 0; i < 2000; i++ {
		if i == 1000 {
			r.Reset(MustParse("foo://u@h:1/x/./y/z?q#f"))
		}
		ref := MustParse("g" + strconv.Itoa(i) + "/../h?" + strings.Repeat("q", i%300))
		u := r.Resolve(ref)
		got = append(got, u)
		want = append(want, strings.Clone(u.String()))
	}
	for i := range got {
		if got[i].String() != want[i] {
			t.Fatalf("result %d is now %q, was %q", i, got[i], want[i])
		}
	}
	if r.Base().String() != "foo://u@h:1/x/./y/z?q" {
		t.Errorf("Base() = %q, want the base without its fragment (RFC 3986 5.1)", r.Base())
	}
}

// TestResolverZero checks that the zero Resolver resolves against the
// empty reference, as the zero URI's Resolve does, and that
// AppendResolve does not write it (goroutines may share one), though
// its base's directory is found on use.
func TestResolverZero(t *testing.T) {
	var r Resolver
	for _, s := range resolverRefs() {
		r.AppendResolve(nil, MustParse(s))
		if r.dir != (baseDir{}) || r.base != (URI{}) || r.block != nil {
			t.Fatalf("AppendResolve(%q) changed the zero Resolver: %+v", s, r)
		}
	}
	for _, s := range resolverRefs() {
		checkResolver(t, &r, URI{}, MustParse(s))
	}
}

// TestResolverAllocs checks the goal of issue 18: AppendResolve into a
// buffer with room allocates nothing, and Resolve allocates once per
// block, not per result.
func TestResolverAllocs(t *testing.T) {
	r := NewResolver(MustParse("https://www.example.org/docs/./guide/intro.html?lang=en#top"))
	var refs []URI
	for _, s := range resolverRefs() {
		refs = append(refs, MustParse(s))
	}
	buf := make([]byte, 0, 1024)
	if a := testing.AllocsPerRun(100, func() {
		for _, ref := range refs {
			buf = r.AppendResolve(buf[:0], ref)
		}
	}); a != 0 {
		t.Errorf("AppendResolve: %v allocations for %d references, want 0", a, len(refs))
	}
	if a := testing.AllocsPerRun(100, func() {
		for _, ref := range refs {
			_ = r.Resolve(ref)
		}
	}); a > float64(len(refs))/8 {
		t.Errorf("Resolver.Resolve: %v allocations for %d references, want one per block", a, len(refs))
	}
}

// TestResolverLinear checks that AppendResolve is linear in the length
// of the reference and of the base's directory, dot segments included.
func TestResolverLinear(t *testing.T) {
	for _, unit := range []string{"../", "./", "a/../", "x/"} {
		testshared.CheckLinear(t, "ref "+strconv.Quote(unit), func(n int) URI {
			return MustParse(strings.Repeat(unit, n/len(unit)) + "g")
		}, func(ref URI) {
			r := NewResolver(MustParse("http://a/b/c/d"))
			if len(r.AppendResolve(nil, ref)) == 0 {
				t.Fatal("empty result")
			}
		})
		testshared.CheckLinear(t, "base "+strconv.Quote(unit), func(n int) URI {
			return MustParse("http://a/" + strings.Repeat(unit, n/len(unit)) + "g")
		}, func(base URI) {
			r := NewResolver(base)
			if len(r.AppendResolve(nil, MustParse("../h"))) == 0 {
				t.Fatal("empty result")
			}
		})
	}
}

// FuzzResolver holds the Resolver to resolveStepwise on any base and
// reference that parse, with both grammars.
func FuzzResolver(f *testing.F) {
	for _, s := range resolverRefs() {
		f.Add(vectors.RFC3986Base, s)
	}
	f.Add("scheme:", "/..//x")
	f.Add("foo:/.//b", "g")
	f.Add("../../foo/bar", "baz")
	f.Add("http://[fe80::1%25en0]/a/./b", "../c")
	f.Fuzz(func(t *testing.T, bs, rs string) {
		for _, mode := range []Options{{AllowZoneID: true}, {Grammar: RFC2396}} {
			base, err1 := ParseWith(bs, mode)
			ref, err2 := ParseWith(rs, mode)
			if err1 != nil || err2 != nil {
				continue
			}
			checkResolver(t, NewResolver(base), base, ref)
		}
	})
}

// resolveSink keeps the results of TestResolveAllocs on the heap.
var resolveSink URI

// TestResolveAllocs checks what URI.Resolve allocates (issue 32): nothing
// when the result is the reference, the base, or the start of the base
// (a link to the site's root, to the page's directory or to the page
// with its own query), whose text it then shares; otherwise one string
// of the result's exact size.
func TestResolveAllocs(t *testing.T) {
	base := MustParse("https://www.example.org/docs/guide/intro.html?lang=en#top")
	for _, c := range []struct {
		ref, want string
		allocs    float64
	}{
		{"https://example.com/a", "https://example.com/a", 0},
		{"", "https://www.example.org/docs/guide/intro.html?lang=en", 0},
		{"/", "https://www.example.org/", 0},
		{"../", "https://www.example.org/docs/", 0},
		{"../../", "https://www.example.org/", 0},
		{".", "https://www.example.org/docs/guide/", 0},
		{"./", "https://www.example.org/docs/guide/", 0},
		{"intro.html", "https://www.example.org/docs/guide/intro.html", 0},
		{"?lang=en", "https://www.example.org/docs/guide/intro.html?lang=en", 0},
		{"//www.example.org", "https://www.example.org", 0},
		{"g", "https://www.example.org/docs/guide/g", 1},
		{"?lang=fr", "https://www.example.org/docs/guide/intro.html?lang=fr", 1},
		{"#s", "https://www.example.org/docs/guide/intro.html?lang=en#s", 1},
		{"//cdn.example.org/lib.js", "https://cdn.example.org/lib.js", 1},
		{"../css/style.css?v=3", "https://www.example.org/docs/css/style.css?v=3", 1},
	} {
		ref := MustParse(c.ref)
		got := base.Resolve(ref)
		if got.String() != c.want {
			t.Errorf("Resolve(%q) = %q, want %q", c.ref, got, c.want)
		}
		if re := MustParse(c.want); got != re {
			t.Errorf("Resolve(%q) = %#v, want the components of %q: %#v", c.ref, got, c.want, re)
		}
		// Resolver.Resolve shares the same results instead of writing
		// them into its block.
		r := NewResolver(base)
		rr := r.Resolve(ref)
		if rr != got {
			t.Errorf("Resolver.Resolve(%q) = %#v, want %#v", c.ref, rr, got)
		}
		if shared := unsafe.StringData(rr.s) == unsafe.StringData(base.s) || unsafe.StringData(rr.s) == unsafe.StringData(ref.s); shared != (c.allocs == 0) || len(r.block) > 0 && shared {
			t.Errorf("Resolver.Resolve(%q): shares the base's or the reference's text: %v, its block holds %d bytes", c.ref, shared, len(r.block))
		}
		if a := testing.AllocsPerRun(100, func() { _ = base.Resolve(ref) }); a != c.allocs {
			t.Errorf("Resolve(%q): %v allocations, want %v", c.ref, a, c.allocs)
		}
		// One string of the result's size: the allocator rounds it up
		// to a multiple of 16 at this size.
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		for range 1000 {
			resolveSink = base.Resolve(ref)
		}
		runtime.ReadMemStats(&m1)
		if a := (m1.TotalAlloc - m0.TotalAlloc) / 1000; c.allocs == 1 && a > uint64(len(c.want)+15)/16*16 {
			t.Errorf("Resolve(%q): %d bytes allocated for a result of %d", c.ref, a, len(c.want))
		}
	}
}
