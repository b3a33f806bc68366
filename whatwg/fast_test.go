package whatwg

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The fast path (fast.go) must give exactly what the state machine
// gives, validation errors included, whenever it answers; these tests
// run both on the same inputs.

// fastBases are the bases the differential also parses with: an
// absolute "scheme://" URL parses the same with any base (section 4.4,
// scheme state: the special authority slashes or special relative or
// authority state, then "//" either way), and parse uses the fast path
// with a base too.
var fastBases = []string{"http://example.org/foo/bar", "file:///C:/dir/", "sc://x/"}

// checkFast runs parseFast on s and, when it answers, the full parser
// with no base and with each base, and fails on any difference. It
// reports whether the fast path answered.
func checkFast(t *testing.T, s string, bases []URL) bool {
	t.Helper()
	checkFastMasks(t, s)
	var fast URL
	if !parseFast(s, &fast) {
		return false
	}
	var full URL
	if err := parseFull(s, nil, &full); err != nil {
		t.Fatalf("%q: the fast path accepts, the full parser fails: %v", s, err)
	}
	compareURLs(t, s, "no base", fast, full)
	for _, b := range bases {
		var rel URL
		if err := parseFull(s, &b, &rel); err != nil {
			t.Fatalf("%q with base %q: the fast path accepts, the full parser fails: %v", s, b.Href(), err)
		}
		compareURLs(t, s, "base "+b.Href(), fast, rel)
	}
	return true
}

// compareURLs fails unless the two URLs are the same record: every
// field, hence every getter, and the validation errors.
func compareURLs(t *testing.T, s, how string, fast, full URL) {
	t.Helper()
	getters := []struct {
		name string
		get  func(URL) string
	}{
		{"href", URL.Href}, {"origin", URL.Origin}, {"protocol", URL.Protocol},
		{"username", URL.Username}, {"password", URL.Password}, {"host", URL.Host},
		{"hostname", URL.Hostname}, {"port", URL.Port}, {"pathname", URL.Pathname},
		{"search", URL.Search}, {"hash", URL.Hash}, {"query", URL.Query}, {"fragment", URL.Fragment},
	}
	for _, g := range getters {
		if a, b := g.get(fast), g.get(full); a != b {
			t.Errorf("%q (%s): %s is %q on the fast path, %q on the full parser", s, how, g.name, a, b)
		}
	}
	if a, b := fast.Errors(), full.Errors(); !slices.Equal(a, b) {
		t.Errorf("%q (%s): errors %v on the fast path, %v on the full parser", s, how, a, b)
	}
	if fast != full {
		t.Errorf("%q (%s): fast path %+v, full parser %+v", s, how, fast, full)
	}
}

func mustBases(t *testing.T) []URL {
	var out []URL
	for _, b := range fastBases {
		out = append(out, MustParse(b))
	}
	return out
}

// TestParseFastCases: what the fast path takes and what it leaves to the
// state machine, each with the rule that decides.
func TestParseFastCases(t *testing.T) {
	bases := mustBases(t)
	cases := []struct {
		in   string
		fast bool
		why  string
	}{
		{"https://example.com/", true, "the common case"},
		{"http://a.b-c.d/x/y;z?q=1&r=%20#f", true, "path, query and fragment of URL code points and valid percent-encodings"},
		{"ws://h:8080/", true, "a port other than the default is kept"},
		{"wss://h:0/", true, "port 0 is its own shortest form"},
		{"ftp://h/a", true, "ftp is special"},
		{"ws://a/", true, "shorter than the eight bytes the scan reads at a time"},
		{"ws://a-/", false, "UTS #46 CheckHyphens, in a URL shorter than eight bytes"},
		{"file://host/p", true, "a file URL with a host"},
		{"file:///C:/x", true, "a file URL with the empty host"},
		{"https://a/?'", false, "4.4 query state: the special-query percent-encode set holds U+0027 (')"},
		{"http://a/'?x#'", true, "' is in neither the path nor the fragment percent-encode set"},
		{"HTTP://a/", false, "4.4 scheme state: the scheme is lowercased"},
		{"http://A/", false, "3.5 domain to ASCII lowercases the host"},
		{"http://a", false, "4.5 a special URL's path is never empty: \"http://a/\""},
		{"http://a?x", false, "the path \"/\" is added before the query"},
		{"http://a:80/", false, "4.4 port state: the default port becomes null"},
		{"http://a:/", false, "an empty port is null"},
		{"http://a:080/", false, "the port is serialized in decimal without leading zeros"},
		{"http://a:65536/", false, "port-out-of-range"},
		{"file://h:1/", false, "file URLs have no port: ':' is a forbidden host code point"},
		{"file://localhost/x", false, "4.4 file host state: \"localhost\" becomes the empty host"},
		{"http://xn--nxasmq6b/", false, "3.3: an xn-- label takes the strict ToASCII"},
		{"http://a-.b/", false, "UTS #46 CheckHyphens: no hyphen last in a label (domain-to-ASCII)"},
		{"http://ab--c/", false, "UTS #46 CheckHyphens: no hyphens in the third and fourth places"},
		{"http://a..b/", false, "an empty label is a domain-to-ASCII error"},
		{"http://.a/", false, "an empty first label"},
		{"http://-a.b/", false, "UTS #46 CheckHyphens: no hyphen first in a label"},
		{"http://a-b.c-d.e/", true, "hyphens inside labels pass"},
		{"http://" + strings.Repeat("abcdefghi.", 10) + "com/", true, "a host over 63 bytes of short labels"},
		{"http://a.b.c.com:65535/", true, "the largest port"},
		{"http://a/b%41?c%42#d%43", true, "valid percent-encodings in path, query and fragment"},
		{"http://a.b./", false, "a trailing dot: left to the full parser"},
		{"http://" + strings.Repeat("a", 64) + "/", false, "VerifyDnsLength: labels of 63 bytes at most"},
		{"http://" + strings.Repeat("a", 63) + "/", true, "a 63-byte label passes"},
		{"http://" + strings.Repeat("a.", 127) + "a/", false, "VerifyDnsLength: 253 bytes at most"},
		{"http://1.2.3.4/", false, "3.5 the ends-in-a-number checker: an IPv4 address"},
		{"http://a.0x1/", false, "ends in a number: a hexadecimal last label"},
		{"http://1a.b/", true, "a leading digit in a label before the last"},
		{"http://a_b.example/", true, "3.3: '_' passes the lenient ToASCII, the strict one (STD3) refuses it: a domain-to-ASCII error"},
		{"https://\"www.example.com/x", true, "'\"' is no forbidden domain code point: kept, domain-to-ASCII error"},
		{"http://a_b.c:81/p?q#f", true, "a host with '_', then a port, query and fragment"},
		{"http://_/", true, "a host of one '_'"},
		{"http://a_b-.c/", true, "CheckHyphens does not matter once the host has its domain-to-ASCII error"},
		{"http://a_b..c./", true, "nor do empty labels"},
		{"http://a_b.1/", false, "3.5 ends in a number: the IPv4 parser fails on it"},
		{"http://a_b.0x1./", false, "ends in a number, a trailing dot aside"},
		{"http://a_b.1x/", true, "a last label that starts with a digit but is no number"},
		{"http://xn--a_b/", false, "a possible Punycode label is left to the full parser"},
		{"http://a_B/", false, "the host is lowercased"},
		{"http://a_b%41/", false, "'%' is a forbidden domain code point: the host is percent-decoded"},
		{"file://a_b/x", true, "a file host with '_'"},
		{"http://u@a/", false, "credentials: invalid-credentials"},
		{"http://a/b/../c", false, "4.1 a double-dot URL path segment"},
		{"http://a/./c", false, "a single-dot URL path segment"},
		{"http://a/%2E/c", false, "%2e, case-insensitively, is a single-dot segment"},
		{"http://a/b.c/.d/.gitignore", true, "a segment that starts with '.' but is no dot segment"},
		{"http://a/b/..", false, "a final double-dot segment"},
		{"http://a/b/.?q", false, "a single-dot segment before the query"},
		{"http://a/b/.#f", false, "a single-dot segment before the fragment"},
		{"http://a/b/.%2e/c", false, ".%2e is a double-dot segment"},
		{"http://a/b/%2e./c", false, "%2e. is a double-dot segment"},
		{"http://a/b/...", true, "... is no dot segment"},
		{"http://a/b/..c", true, "..c is no dot segment"},
		{"http://a/b%2", false, "invalid-URL-unit: '%' not followed by two hex digits"},
		{"http://a/b%zz", false, "invalid-URL-unit: '%' not followed by two hex digits"},
		{"http://a/b c", false, "space is in the path percent-encode set"},
		{"http://a/b\tc", false, "4.4 tabs and newlines are removed"},
		{"http://a/b\\c", false, "a backslash is a path separator in a special URL"},
		{"http://a/b{c", false, "{ is in the path percent-encode set"},
		{"http://a/b|c", false, "| is not a URL code point (invalid-URL-unit)"},
		{"http://a/é", false, "non-ASCII code points are percent-encoded"},
		{"http://a/#b#c", false, "'#' in the fragment is not a URL code point"},
		{"http://a/#b`c", false, "` is in the fragment percent-encode set"},
		{" http://a/", false, "leading C0 control or space is removed"},
		{"sc://a/", false, "not a special scheme"},
		{"https:/a/", false, "special-scheme-missing-following-solidus"},
		{"http:///a/", false, "extra slashes are ignored, with a validation error"},
	}
	for _, c := range cases {
		if got := checkFast(t, c.in, bases); got != c.fast {
			t.Errorf("%q: fast path %v, want %v (%s)", c.in, got, c.fast, c.why)
		}
	}
}

// TestParseFastAlignments: the fast path reads eight bytes at a time,
// and each rule looks at pairs of bytes that may straddle two words, or
// fall in the last, partial word. Each case is placed after 0 to 17
// bytes of padding, so that it meets every alignment, with the answer
// the case gives at every one.
func TestParseFastAlignments(t *testing.T) {
	bases := mustBases(t)
	pad := func(n int) string { return strings.Repeat("a", n) }
	hosts := []struct {
		host string // after the padding, which starts the host
		fast bool
	}{
		{"b.c", true},
		{"-b.c", true}, // the padding goes first: "aaa-b.c"
		{"b-c.d", true},
		{"b--c.d", true}, // "aab--c": the hyphens are not third and fourth
		{"b..c", false},
		{"b.-c", false},
		{"b-.c", false},
		{"b.1c.d", true}, // a label before the last may start with a digit
		{"b.1c", false},  // the last may not: left to the ends-in-a-number checker
		{"b.c1", true},
		{"b.1", false},   // the last label is a number
		{"b.0x1", false}, // a hexadecimal number
		{"b.", false},    // a trailing dot
		{"b-", false},    // a trailing hyphen
		{"b.c-", false},
		{"B.c", false},
	}
	for n := range 18 {
		for _, c := range hosts {
			for _, tail := range []string{"/", "/p", ":8080/", "/" + pad(n)} {
				host := pad(n) + c.host
				if n == 0 && c.host[0] == '-' {
					continue // a leading hyphen: a case of its own below
				}
				in := "https://" + host + tail
				want := c.fast && !(len(host) >= 4 && host[2:4] == "--") && len(host) <= 63
				if got := checkFast(t, in, bases); got != want {
					t.Errorf("%q: fast path %v, want %v", in, got, want)
				}
			}
		}
	}
	for _, in := range []string{"https://-a.b/", "https://.a.b/", "https://1/", "https://1a/", "https://0x1/"} {
		if checkFast(t, in, bases) {
			t.Errorf("%q: on the fast path", in)
		}
	}
	paths := []struct {
		path string // after "/" and the padding
		fast bool
	}{
		{"", true},
		{"/b.c", true},
		{"/.b", true},
		{"/..b", true},
		{"/.", false},
		{"/./b", false},
		{"/..", false},
		{"/../b", false},
		{"/%2e/b", false},
		{"/%2E%2e", false},
		{"/b%41", true},
		{"/b%4", false},
		{"/b%", false},
		{"/b c", false},
		{"?q=/./", true}, // dots in a query are no dot segments
		{"?q'", false},
		{"#/./", true},
		{"#a#", false},
	}
	for n := range 18 {
		for _, c := range paths {
			for _, host := range []string{"h", "host.example"} {
				in := "https://" + host + "/" + pad(n) + c.path
				if got := checkFast(t, in, bases); got != c.fast {
					t.Errorf("%q: fast path %v, want %v", in, got, c.fast)
				}
			}
			in := "file:///" + pad(n) + c.path
			if got := checkFast(t, in, bases); got != c.fast {
				t.Errorf("%q: fast path %v, want %v", in, got, c.fast)
			}
		}
	}
}

// mutate returns s with one to three random edits: a byte inserted,
// replaced or deleted, drawn from bytes that matter to the URL parser.
func mutate(r *rand.Rand, s string) string {
	const alphabet = "./%2eE-:@?#\\\t\n \x00\x7fAZaz09x'\"<>|^`{}[]é;=&+~_!$"
	b := []byte(s)
	for n := 1 + r.IntN(3); n > 0; n-- {
		k := r.IntN(len(b) + 1)
		c := alphabet[r.IntN(len(alphabet))]
		switch op := r.IntN(3); {
		case op == 0 || len(b) == 0:
			b = slices.Insert(b, k, c)
		case op == 1 && k < len(b):
			b[k] = c
		case k < len(b):
			b = slices.Delete(b, k, k+1)
		}
	}
	return string(b)
}

// TestParseFastDifferential: on every line of the kasztp and node_files
// corpora, every urltestdata.json input and random mutations of the
// corpus lines, the fast path, when it answers, gives the URL the full
// parser gives, with and without a base.
func TestParseFastDifferential(t *testing.T) {
	bases := mustBases(t)
	var inputs []string
	for _, c := range benchCorpora(t) {
		inputs = append(inputs, c.Lines...)
	}
	for _, c := range readWPT[wptURLCase](t, "urltestdata.json") {
		inputs = append(inputs, c.Input)
	}
	r := rand.New(rand.NewPCG(21, 1))
	n := len(inputs)
	mutations := 200000
	if testing.Short() {
		mutations = 20000
	}
	for range mutations {
		inputs = append(inputs, mutate(r, inputs[r.IntN(n)]))
	}
	took := 0
	for _, s := range inputs {
		if checkFast(t, s, bases) {
			took++
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d inputs (%d mutations), %d on the fast path", len(inputs), mutations, took)
	// The fast path must answer for most corpus lines, or it is not
	// under test (nor of use).
	if took < n/3 {
		t.Errorf("the fast path answered %d of %d inputs", took, len(inputs))
	}
}

// FuzzParseFast: the fast path, whenever it answers, agrees with the
// full parser.
func FuzzParseFast(f *testing.F) {
	fuzzSeeds(f, func(in, _ string) { f.Add(in) })
	for _, c := range benchCorpora(f) {
		for i, s := range c.Lines {
			if i%97 == 0 {
				f.Add(s)
			}
		}
	}
	var bases []URL
	for _, b := range fastBases {
		bases = append(bases, MustParse(b))
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkFast(t, s, bases)
	})
}
