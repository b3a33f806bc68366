package surt

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/urikit/urikit/internal/testshared"
)

// allOptions is every profile with every combination of the switches.
func allOptions() []Options {
	var os []Options
	for _, p := range Profiles() {
		for bits := 0; bits < 16; bits++ {
			os = append(os, Options{
				Profile:           p,
				KeepWWW:           bits&1 != 0,
				WWWTwoLabels:      bits&2 != 0,
				KeepTrailingSlash: bits&4 != 0,
				TrailingComma:     bits&8 != 0,
			})
		}
	}
	return os
}

func passthrough(s string) bool {
	return blank(s) || strings.HasPrefix(s, "filedesc") || strings.HasPrefix(s, "warcinfo")
}

// checkFixedPoints checks the promises of the package on each input,
// under every profile and switch combination:
//
//   - the canonical form canonicalizes to itself;
//   - it has the key of the input in every form;
//   - ParseSSURT of the SSURT key is the canonical form;
//   - Key and Canonicalize fail together, and AppendKey appends to dst
//     what Key returns.
func checkFixedPoints(t testing.TB, ins []string) {
	t.Helper()
	for _, s := range ins {
		for _, o := range allOptions() {
			c, err := o.Canonicalize(s)
			o.Form = SSURT
			ks, kerr := o.Key(s)
			if (err == nil) != (kerr == nil) {
				t.Errorf("%s: %q: Canonicalize error %v, Key error %v", o, s, err, kerr)
				continue
			}
			if err != nil {
				continue
			}
			if c2, err := o.Canonicalize(c); err != nil || c2 != c {
				t.Errorf("%s: %q: canonical %q canonicalizes to %q, %v", o, s, c, c2, err)
			}
			if back, err := ParseSSURT(ks); err != nil || back != c {
				t.Errorf("%s: %q: ParseSSURT(%q) = %q, %v; want %q", o, s, ks, back, err, c)
			}
			if passthrough(s) || passthrough(c) {
				continue
			}
			for _, f := range []Form{URLKey, Heritrix, SSURT} {
				o.Form = f
				k1, err1 := o.Key(s)
				k2, err2 := o.Key(c)
				if err1 != nil || err2 != nil || k1 != k2 {
					t.Errorf("%s: %q: key %q (%v), key of canonical %q: %q (%v)", o, s, k1, err1, c, k2, err2)
				}
				if b, _ := o.AppendKey([]byte("x"), s); string(b) != "x"+k1 {
					t.Errorf("%s: %q: AppendKey = %q, want %q", o, s, b, "x"+k1)
				}
			}
		}
	}
}

// TestFixedPointsCorpus runs the properties over the committed sample of
// real URLs (the full corpus with $URIKIT_SHARED is left to the
// benchmark: 48,000 URLs times 112 option sets is minutes).
func TestFixedPointsCorpus(t *testing.T) {
	lines := testshared.MustReadLines(t, testshared.SampleDir()+"/kasztp-sample.txt")
	if len(lines) > 300 {
		lines = lines[:300]
	}
	checkFixedPoints(t, lines)
}

// hostile are inputs that the rules must survive: every delimiter
// decoded from an escape, dots, IP forms, session ids, www.
var hostile = []string{
	"http://a%2Fb%3Fc%23d%40e%3Af.com/%3F%23%2F?%26%3D%23#%23",
	"http://%2e/a", "http://..../a/b", "https://....../path/file.txt", "http:///", "http://", "http://@/x",
	"http://%2e%2e%2e/a/b", "HTTP://WWW.WWW.Example.COM./A/../B/./C//D/?Z=1&a=2&A=3#F",
	"http://www1355544.com/", "http://www.co.uk/", "http://www./", "http://www2.www.example.com/",
	"http://a/?cftoken=1&b=2&cfid=3", "http://a/?B=1&CFID=1&a=2&cftoken=3",
	"http://a/?sid=0123456789abcdef0123456789abcdef&sid=0123456789abcdef0123456789abcdef",
	"http://a/?jsessionid=0123456789abcdefghijklemopqrstuv&x=1&jsessionid=0123456789abcdefghijklemopqrstuv",
	"http://a/(4hqa0555fwsecu455xqckv45)/(4hqa0555fwsecu455xqckv46)/a.aspx",
	"http://a/x/;jsessionid=0123456789abcdef0123456789abcdef",
	"http://0x7f.1/", "http://3279880203/", "http://39024579298/", "http://[::FFFF:1.2.3.4]:080/",
	"http://[::1]/", "http://[a]b]/", "http://[::1/", "x://[::1]:9/", "http://\u3002example.com/",
	"http://B\u00fccher.ch/\u2603?\u00e9#\u00e8", "http://\x01\x80.com/", "http://%C3%A9.com/",
	"mailto:Foo@Example.COM", "dns:Archive.ORG", "urn:ISBN:0451450523", "file:///C:/x/../y", "file:a",
	"javascript:alert(1)", "a.b:1:2/", "localhost:8080/x", "//example.com/x", "\\\\example.com\\x",
	"http:\\\\example.com\\a\\..\\b", "http://user:pass@www.example.com:8080/a?b#c",
	"http://u:p@1.2.3.4:81/?#", "x://a,b.c/", "x:////a", "x:/.//a", "web+demo:/.//not-a-host/",
	"http://example.com/a/b/..", "http://example.com/../a", "http://example.com/%2e%2e/a", "http://a/?&&a&&",
	"http://a/?a=1&", "http://a/?%26=%3D", "http://a/b?c=d=e", "  \t", "-", "filedescx", "warcinfo:Foo",
	"./", "/", "//", "../", "http:/", "http:////", "http:///?a", "http://.//", "https:///#f",
	"http://a/%", "http://a/%%%25%32%35asd%%", "http://a:/", "http://a::/", "http://xn--n3h.com/", "http://a/\x7f\xff",
}

func TestFixedPointsHostile(t *testing.T) { checkFixedPoints(t, hostile) }

// FuzzKey attacks the promises: no input panics; the canonical form of
// every profile is a fixed point with the key of its input; SSURT keys
// read back into the canonical form.
func FuzzKey(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 512 {
			return
		}
		for _, o := range []Options{{}, {Profile: Google}, {Profile: WHATWG}, {Profile: SemanticPrecise}, {Profile: Aggressive, KeepWWW: true}, {Profile: RFC3986}, {Profile: None}, {WWWTwoLabels: true, KeepTrailingSlash: true}} {
			_, _ = o.Key(s)
		}
		if utf8.ValidString(s) || true {
			checkFixedPointsSome(t, s)
		}
	})
}

// checkFixedPointsSome is checkFixedPoints for one input and one option
// set per profile, to keep the fuzzer fast.
func checkFixedPointsSome(t *testing.T, s string) {
	t.Helper()
	saved := allOptionsSome
	checkFixedPointsWith(t, []string{s}, saved)
}

var allOptionsSome = func() []Options {
	var os []Options
	for _, p := range Profiles() {
		os = append(os, Options{Profile: p}, Options{Profile: p, KeepWWW: true, KeepTrailingSlash: true}, Options{Profile: p, WWWTwoLabels: true})
	}
	return os
}()

func checkFixedPointsWith(t *testing.T, ins []string, opts []Options) {
	t.Helper()
	for _, s := range ins {
		for _, o := range opts {
			c, err := o.Canonicalize(s)
			if err != nil {
				continue
			}
			if c2, err := o.Canonicalize(c); err != nil || c2 != c {
				t.Fatalf("%s: %q: canonical %q canonicalizes to %q, %v", o, s, c, c2, err)
			}
			o.Form = SSURT
			ks, err := o.Key(s)
			if err != nil {
				t.Fatalf("%s: %q: SSURT key: %v", o, s, err)
			}
			if back, err := ParseSSURT(ks); err != nil || back != c {
				t.Fatalf("%s: %q: ParseSSURT(%q) = %q, %v; want %q", o, s, ks, back, err, c)
			}
			if passthrough(s) || passthrough(c) {
				continue
			}
			o.Form = URLKey
			if k1, k2 := mustKey(t, o, s), mustKey(t, o, c); k1 != k2 {
				t.Fatalf("%s: %q: key %q, key of canonical %q: %q", o, s, k1, c, k2)
			}
		}
	}
}

func mustKey(t *testing.T, o Options, s string) string {
	k, err := o.Key(s)
	if err != nil {
		t.Fatalf("%s: Key(%q): %v", o, s, err)
	}
	return k
}
