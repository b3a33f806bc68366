package uri_test

import (
	"errors"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/internal/vectors"
	"github.com/urikit/urikit/uri"
)

// resolveCase is one resolution example: a reference and its result
// against the table's base.
type resolveCase = vectors.Resolution

// The RFC tables live in internal/vectors, shared with the command's
// tests.
const rfc3986Base = vectors.RFC3986Base

var (
	rfc3986Normal      = vectors.RFC3986Examples
	draft1998AppendixC = vectors.Draft1998AppendixC
)

// checkReparse fails when r's string does not parse, in r's grammar,
// into exactly the components r reports.
func checkReparse(t testing.TB, what string, r uri.URI) {
	t.Helper()
	back, err := uri.ParseWith(r.String(), uri.Options{Grammar: r.Grammar(), AllowZoneID: r.Grammar() == uri.RFC3986})
	if err != nil {
		t.Errorf("%s: result %q does not parse: %v", what, r.String(), err)
		return
	}
	if back != r {
		t.Errorf("%s: result %q re-parses into other components:\n got  %s\n want %s", what, r.String(), describe(r), describe(back))
	}
}

// describe lists the components of u, for failure messages.
func describe(u uri.URI) string {
	var b strings.Builder
	opt := func(name string, has bool, v string) {
		if has {
			b.WriteString(name + "=" + `"` + v + `" `)
		} else {
			b.WriteString(name + "=nil ")
		}
	}
	opt("scheme", u.HasScheme(), u.Scheme())
	opt("authority", u.HasAuthority(), u.Authority())
	opt("userinfo", u.HasUserinfo(), u.Userinfo())
	opt("host", u.HasAuthority(), u.Host()+"("+u.HostKind().String()+")")
	opt("port", u.HasPort(), u.Port())
	opt("path", true, u.Path())
	opt("query", u.HasQuery(), u.Query())
	opt("fragment", u.HasFragment(), u.Fragment())
	return b.String()
}

func TestResolveRFC3986Examples(t *testing.T) {
	base := uri.MustParse(rfc3986Base)
	for _, c := range rfc3986Normal {
		ref := uri.MustParse(c.Ref)
		got := base.Resolve(ref)
		if got.String() != c.Want {
			t.Errorf("Resolve(%q, %q) = %q, want %q", rfc3986Base, c.Ref, got, c.Want)
		}
		checkReparse(t, c.Ref, got)
	}
}

func TestResolve2396AppendixC(t *testing.T) {
	base, err := uri.ParseWith(rfc3986Base, uri.Options{Grammar: uri.RFC2396})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range draft1998AppendixC {
		ref, err := uri.ParseWith(c.Ref, uri.Options{Grammar: uri.RFC2396})
		if err != nil {
			t.Errorf("ParseWith(%q, Options{Grammar: RFC2396}): %v", c.Ref, err)
			continue
		}
		got, err := base.Resolve2396(ref, uri.KeepDots)
		if err != nil || got.String() != c.Want {
			t.Errorf("Resolve2396(%q, %q, KeepDots) = %q, %v; want %q", rfc3986Base, c.Ref, got, err, c.Want)
		}
		if got.Grammar() != uri.RFC2396 {
			t.Errorf("Resolve2396(%q): grammar %v, want the base's RFC2396", c.Ref, got.Grammar())
		}
		checkReparse(t, c.Ref, got)
	}
}

// TestResolve2396Policies checks the three choices of step 6g of the
// 1998 draft's section 5.2 ("retaining these components", "removing
// them", "avoiding traversal").
func TestResolve2396Policies(t *testing.T) {
	base := uri.MustParse(rfc3986Base)
	tests := []struct {
		ref  string
		p    uri.DotPolicy
		want string // "" when ErrAboveRoot is expected
	}{
		{"../../../g", uri.KeepDots, "http://a/../g"},         // 1998 draft C.2
		{"../../../../g", uri.KeepDots, "http://a/../../g"},   // 1998 draft C.2
		{"../../../g", uri.DropDots, "http://a/g"},            // 1998 draft C.2 ("interpreted as http://a/g")
		{"../../../../g", uri.DropDots, "http://a/g"},         // 1998 draft C.2
		{"../../../g", uri.RejectDots, ""},                    // 1998 draft 5.2 step 6g
		{"../../../../g", uri.RejectDots, ""},                 // 1998 draft 5.2 step 6g
		{"../../g", uri.RejectDots, "http://a/g"},             // 1998 draft C.1: not above the root
		{"../..", uri.DropDots, "http://a/"},                  // 1998 draft C.1
		{"/../g", uri.DropDots, "http://a/../g"},              // 1998 draft 5.2 step 5: taken as is
		{"/../g", uri.RejectDots, "http://a/../g"},            // 1998 draft 5.2 step 5
		{"../../../g/../h", uri.DropDots, "http://a/h"},       // 1998 draft 5.2 step 6e then 6g
		{"../../../../g?y#s", uri.DropDots, "http://a/g?y#s"}, // 1998 draft 5.2 step 6g
	}
	for _, c := range tests {
		got, err := base.Resolve2396(uri.MustParse(c.ref), c.p)
		if c.want == "" {
			if !errors.Is(err, uri.ErrAboveRoot) {
				t.Errorf("Resolve2396(%q, %d) = %q, %v; want ErrAboveRoot", c.ref, c.p, got, err)
			}
			continue
		}
		if err != nil || got.String() != c.want {
			t.Errorf("Resolve2396(%q, %d) = %q, %v; want %q", c.ref, c.p, got, err, c.want)
		}
		checkReparse(t, c.ref, got)
	}
}

// TestResolveEdgeCases covers the cases issue 2 names, where peers go
// wrong, and the rewriting that keeps a result from re-parsing into
// other components.
func TestResolveEdgeCases(t *testing.T) {
	tests := []struct {
		base, ref, want string
	}{
		// RFC 3986 5.2.4 step C then E twice: the empty segments stay
		// (issue 2; net/url gives a://foo/, golang/go#80282).
		{"a://foo/", "..//", "a://foo//"},
		// RFC 3986 5.2.4 gives the path "//x" without an authority;
		// written as is it would read as the authority "x" (issue 2;
		// uriparser gives scheme://x). RFC 3986 5.2.4's closing note:
		// a "/." prefix keeps it a path.
		{"scheme:", "/..//x", "scheme:/.//x"},
		{"f:/a", ".//g", "f:/.//g"},                       // conformance README: "f:/.//g"
		{"x:", ".///C:::", "x:/.//C:::"},                  // oxiri invalid_resolutions case
		{"a", "./b:c", "./b:c"},                           // RFC 3986 4.2: a colon in the first segment
		{"", "./b:c", "./b:c"},                            // RFC 3986 4.2
		{"foo:a/b", "../c", "foo:/c"},                     // RFC 3986 5.2.4 read literally (conformance README)
		{"http://a", "g", "http://a/g"},                   // RFC 3986 5.2.3 first rule
		{"http://a", "?q", "http://a?q"},                  // RFC 3986 5.2.2: empty path kept
		{"http://a/b#f", "", "http://a/b"},                // RFC 3986 5.1: the base's fragment is not used
		{"http://a/b#f", "#g", "http://a/b#g"},            // RFC 3986 5.2.2
		{"http://a/b?q#f", "#", "http://a/b?q#"},          // RFC 3986 3.5: an empty fragment stays
		{"http://a/b", "?", "http://a/b?"},                // RFC 3986 3.4: an empty query stays
		{"g:/a/./b/../c", "", "g:/a/./b/../c"},            // RFC 3986 5.2.2: R.path empty, T.path = Base.path as is
		{"http://a/b", "g:/x/../y", "g:/y"},               // RFC 3986 5.2.2: remove_dot_segments(R.path)
		{"http://a/b", "//h/./p/..", "http://h/"},         // RFC 3986 5.2.2
		{"http://[::1]:8/a/b", "c", "http://[::1]:8/a/c"}, // RFC 3986 3.2.2 host kept
		{"http://u@h:8/a", "//v@k:9/x", "http://v@k:9/x"}, // RFC 3986 5.2.2
		// Relative bases: the algorithm applied literally.
		{"../foo/bar", "baz", "foo/baz"}, // RFC 3986 5.2.4 rule A
		{"a", "..", ""},                  // RFC 3986 5.2.4 rule D
		{"/foo", "..", "/"},              // RFC 3986 5.2.4 rule C
		{"#bar", "#foo", "#foo"},         // RFC 3986 5.2.2
		{"?bar", "?foo", "?foo"},         // RFC 3986 5.2.2
	}
	for _, c := range tests {
		base, err := uri.Parse(c.base)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.base, err)
		}
		ref, err := uri.Parse(c.ref)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.ref, err)
		}
		got := base.Resolve(ref)
		if got.String() != c.want {
			t.Errorf("Resolve(%q, %q) = %q, want %q", c.base, c.ref, got, c.want)
		}
		checkReparse(t, c.base+" + "+c.ref, got)
	}
}

// TestResolve2396EdgeCases covers the rewriting under the 1998 draft.
func TestResolve2396EdgeCases(t *testing.T) {
	tests := []struct {
		base, ref, want string
	}{
		{"foo:a/b", "../c", "foo:c"},              // 1998 draft 5.2 step 6e: "a/../" removed (4Suite agrees)
		{"foo:/.//b", "g", "foo:/.//g"},           // step 6c gives "//g": "/." keeps it a path
		{"http://a", "g", "http://a/g"},           // step 6a with "/" for the empty path (see Resolve2396)
		{"http://a/b//c", "../g", "http://a/b/g"}, // step 6e: the empty segment is a segment
		{"a", "./b:c", "./b:c"},                   // section 3.3: "b:c" would read as a scheme
		{"http://a/b/c", "..", "http://a/"},       // step 6f
		{"http://a/b/c", "./..", "http://a/"},     // steps 6c then 6f
	}
	for _, c := range tests {
		base, err := uri.ParseWith(c.base, uri.Options{Grammar: uri.RFC2396})
		if err != nil {
			t.Fatalf("ParseWith(%q): %v", c.base, err)
		}
		ref, err := uri.ParseWith(c.ref, uri.Options{Grammar: uri.RFC2396})
		if err != nil {
			t.Fatalf("ParseWith(%q): %v", c.ref, err)
		}
		got, err := base.Resolve2396(ref, uri.KeepDots)
		if err != nil || got.String() != c.want {
			t.Errorf("Resolve2396(%q, %q) = %q, %v; want %q", c.base, c.ref, got, err, c.want)
		}
		checkReparse(t, c.base+" + "+c.ref, got)
	}
}

// TestResolveGrammar checks that the result keeps the base's grammar,
// or the reference's when the authority comes from it.
func TestResolveGrammar(t *testing.T) {
	b2396, _ := uri.ParseWith("http://a/b/c", uri.Options{Grammar: uri.RFC2396})
	b3986 := uri.MustParse("http://a/b/c")
	r2396, _ := uri.ParseWith("//1.2.3.999/x", uri.Options{Grammar: uri.RFC2396}) // an IPv4address in the draft only
	if g := b2396.Resolve(uri.MustParse("d")).Grammar(); g != uri.RFC2396 {
		t.Errorf("2396 base + 3986 path: grammar %v", g)
	}
	r := b3986.Resolve(r2396)
	if r.Grammar() != uri.RFC2396 || r.HostKind() != uri.IPv4 {
		t.Errorf("3986 base + 2396 authority: grammar %v, host kind %v", r.Grammar(), r.HostKind())
	}
	checkReparse(t, "grammar", r)
}

// TestResolveLinear resolves a megabyte of "../" (and of "/..") and
// checks that doubling the input does not quadruple the time.
func TestResolveLinear(t *testing.T) {
	base := uri.MustParse("http://a/b/c/d")
	for _, unit := range []string{"../", "./", "a/../", "x/"} {
		testshared.CheckLinear(t, strconv.Quote(unit), func(n int) uri.URI {
			return uri.MustParse(strings.Repeat(unit, n/len(unit)) + "g")
		}, func(ref uri.URI) {
			r := base.Resolve(ref)
			r2, err := base.Resolve2396(ref, uri.DropDots)
			if err != nil || len(r.String()) == 0 || len(r2.String()) == 0 {
				t.Fatalf("%q x %d bytes: %v", unit, len(ref.String()), err)
			}
		})
	}
}

// TestRelativizeSpecExamples checks Relativize against the examples of
// RFC 3986 5.4.1 and the 1998 draft's Appendix C: each reference there
// is a witness, so the answer must resolve back to the same target and
// be no longer than the witness.
func TestRelativizeSpecExamples(t *testing.T) {
	base := uri.MustParse(rfc3986Base)
	for _, c := range rfc3986Normal {
		target := uri.MustParse(c.Want)
		r, relErr := base.Relativize(target)
		ok := relErr == nil
		if !ok {
			t.Errorf("Relativize(%q, %q): none", rfc3986Base, c.Want)
			continue
		}
		if got := base.Resolve(r).String(); got != c.Want {
			t.Errorf("Relativize(%q, %q) = %q, which resolves to %q", rfc3986Base, c.Want, r, got)
		}
		if len(r.String()) > len(c.Ref) {
			t.Errorf("Relativize(%q, %q) = %q, longer than %q (RFC 3986 5.4)", rfc3986Base, c.Want, r, c.Ref)
		}
	}
	b2396, _ := uri.ParseWith(rfc3986Base, uri.Options{Grammar: uri.RFC2396})
	for _, c := range draft1998AppendixC {
		target, _ := uri.ParseWith(c.Want, uri.Options{Grammar: uri.RFC2396})
		r, relErr := b2396.Relativize2396(target)
		ok := relErr == nil
		if !ok {
			t.Errorf("Relativize2396(%q, %q): none", rfc3986Base, c.Want)
			continue
		}
		got, err := b2396.Resolve2396(r, uri.KeepDots)
		if err != nil || got.String() != c.Want {
			t.Errorf("Relativize2396(%q, %q) = %q, which resolves to %q, %v", rfc3986Base, c.Want, r, got, err)
		}
		if len(r.String()) > len(c.Ref) {
			t.Errorf("Relativize2396(%q, %q) = %q, longer than %q (1998 draft C)", rfc3986Base, c.Want, r, c.Ref)
		}
	}
}

// TestRelativizeFails checks oxiri's relativize_fails cases by hand
// (RFC 3986 5.2.4 removes the dot segments of any path it merges).
func TestRelativizeFails(t *testing.T) {
	for _, c := range [][2]string{
		{"http://example.com/a/../b", "http://example.com/s"}, // oxiri relativize_fails
		{"http://example.com/./b", "http://example.com/s"},    // oxiri relativize_fails
		{"urn:.", "urn:"}, // oxiri relativize_fails
	} {
		if r, err := uri.MustParse(c[1]).Relativize(uri.MustParse(c[0])); err == nil {
			t.Errorf("Relativize(%q, %q) = %q, want none", c[1], c[0], r)
		}
	}
}

// resolveBenchRefs are the references of the benchmark (issue 2).
var resolveBenchRefs = []string{"../a/b?c", "/x", "g", "#f", "//h/p"}

// resolveBenchBases reads the real-URL corpus named by URIKIT_BENCH_URLS
// or $URIKIT_SHARED/corpora/urls/kasztp.txt, keeping the absolute URLs
// that both parsers accept.
func resolveBenchBases(b *testing.B) ([]uri.URI, []*url.URL) {
	p := os.Getenv("URIKIT_BENCH_URLS")
	if p == "" {
		p = testshared.Path(b, "corpora", "urls", "kasztp.txt")
	}
	var us []uri.URI
	var ns []*url.URL
	for i, l := range testshared.FileLines(b, p) {
		if i == 0 {
			l = strings.TrimPrefix(l, "\ufeff")
		}
		u, err1 := uri.Parse(l)
		n, err2 := url.Parse(l)
		if err1 == nil && err2 == nil && u.HasScheme() {
			us = append(us, u)
			ns = append(ns, n)
		}
	}
	return us, ns
}

func BenchmarkResolveQuick(b *testing.B) {
	us, ns := resolveBenchBases(b)
	var refs []uri.URI
	var nrefs []*url.URL
	for _, r := range resolveBenchRefs {
		refs = append(refs, uri.MustParse(r))
		n, _ := url.Parse(r)
		nrefs = append(nrefs, n)
	}
	run := func(name string, f func(i int)) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				f(i)
				i++
			}
		})
	}
	run("urikit", func(i int) { _ = us[i%len(us)].Resolve(refs[i%len(refs)]) })
	run("urikit2396", func(i int) { _, _ = us[i%len(us)].Resolve2396(refs[i%len(refs)], uri.KeepDots) })
	run("net-url", func(i int) { _ = ns[i%len(ns)].ResolveReference(nrefs[i%len(nrefs)]) })
	run("net-url+String", func(i int) { _ = ns[i%len(ns)].ResolveReference(nrefs[i%len(nrefs)]).String() })
}

// TestResolveBaseDots: RFC 3986 5.2.2 takes the base's path as it is
// for a reference without a path ("if (R.path == "") then T.path =
// Base.path"): remove_dot_segments runs only on a merged path (5.2.3,
// 5.2.4), so the dot segments of the base stay in "?y", "#s" and "" and
// go in every other example. The examples of section 5.4 against their
// base with a "./" added; and the "http://a/b/c/.." (issue 26).
func TestResolveBaseDots(t *testing.T) {
	dotted := strings.Replace(rfc3986Base, "/b/c/", "/b/c/./", 1)
	base := uri.MustParse(dotted)
	kept := 0
	for _, c := range rfc3986Normal {
		ref := uri.MustParse(c.Ref)
		want := c.Want
		if !ref.HasScheme() && !ref.HasAuthority() && ref.Path() == "" {
			want = strings.Replace(want, "/b/c/d;p", "/b/c/./d;p", 1)
			kept++
		}
		if got := base.Resolve(ref).String(); got != want {
			t.Errorf("Resolve(%q, %q) = %q, want %q", dotted, c.Ref, got, want)
		}
	}
	if kept < 3 {
		t.Fatalf("only %d references without a path", kept)
	}
	b := uri.MustParse("http://a/b/c/..")
	for ref, want := range map[string]string{"?y": "http://a/b/c/..?y", "": "http://a/b/c/..", "#s": "http://a/b/c/..#s", "g": "http://a/b/c/g", ".": "http://a/b/c/"} {
		if got := b.Resolve(uri.MustParse(ref)).String(); got != want {
			t.Errorf("Resolve(http://a/b/c/.., %q) = %q, want %q", ref, got, want)
		}
	}
}
