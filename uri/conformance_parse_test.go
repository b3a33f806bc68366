package uri_test

// The syntax suites of other projects: committed under
// testdata/conformance when their licence is permissive, read from
// $URIKIT_SHARED/conformance otherwise (uriparser, LGPL); see
// testdata/README.md for their origins and licences. Every vector must agree with
// our verdict, except the known differences listed below with the spec
// reason; a listed difference that starts agreeing fails the test too, so
// that the list stays exact. IRIs (non-ASCII input) are out of scope for
// a URI parser: they must be rejected, and are counted apart.

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
)

// ptKnownDiff is a vector where another project's verdict differs from
// ours for a reason the specifications give.
type ptKnownDiff struct {
	theirs, ours, reason string
}

// ptKnownDiffs is keyed by file + "\x00" + table + "\x00" + input.
var ptKnownDiffs = map[string]ptKnownDiff{
	"network-uri.uri001.json\x00uri_ref_type\x00http://[fe80::ff:fe00:1%25eth0]": {
		"AbsId", "InvRf",
		"RFC 6874 zone identifiers are not part of RFC 3986; strict mode rejects them (ParseWith with AllowZoneID gives AbsId, checked below)",
	},
	"uriparser.test_cpp.json\x00ipv4_pass\x00x": {
		"pass", "fail",
		"'x' is the parameter name of test.cpp's URI_TEST_IP_FOUR_PASS(x) macro, picked up by the extraction, not a vector",
	},
	"uriparser.test_cpp.json\x00ipv6_pass\x00x": {
		"pass", "fail",
		"'x' is the parameter name of test.cpp's URI_TEST_IP_SIX_PASS(x) macro, picked up by the extraction, not a vector",
	},
}

// ptSuite tallies one file's results.
type ptSuite struct {
	t                                *testing.T
	file                             string
	total, passed, differences, iris int
	used                             map[string]bool
}

func newPtSuite(t *testing.T, file string) *ptSuite {
	return &ptSuite{t: t, file: file, used: map[string]bool{}}
}

func ptNonASCII(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return i
		}
	}
	return -1
}

// compare records one vector: theirs and ours are verdicts as strings.
func (st *ptSuite) compare(table, input, theirs, ours string) {
	st.t.Helper()
	st.total++
	key := st.file + "\x00" + table + "\x00" + input
	kd, listed := ptKnownDiffs[key]
	if listed {
		st.used[key] = true
	}
	switch {
	case theirs == ours && listed:
		st.t.Errorf("%s %s %q: listed as a known difference (%s) but now agrees (%s)", st.file, table, input, kd.reason, ours)
	case theirs == ours:
		st.passed++
	case listed && kd.theirs == theirs && kd.ours == ours:
		st.differences++
	case ptNonASCII(input) >= 0:
		// An IRI: a URI parser rejects it by design, at its first
		// non-ASCII byte (or earlier).
		_, err := uri.Parse(input)
		var pe *uri.ParseError
		if !errors.As(err, &pe) || pe.Offset > ptNonASCII(input) {
			st.t.Errorf("%s %s %q: IRI accepted or rejected too late: %v", st.file, table, input, err)
		}
		st.iris++
	default:
		st.t.Errorf("%s %s %q: theirs %s, ours %s", st.file, table, input, theirs, ours)
	}
}

func (st *ptSuite) done() {
	st.t.Helper()
	for key := range ptKnownDiffs {
		if strings.HasPrefix(key, st.file+"\x00") && !st.used[key] {
			st.t.Errorf("known difference %q not met: the vector is gone", key)
		}
	}
	st.t.Logf("%s: %d vectors, %d passed, %d known differences, %d IRIs rejected by design (out of scope)",
		st.file, st.total, st.passed, st.differences, st.iris)
}

// ptVerdict is "ok" or "fail".
func ptVerdict(s string, mode uri.Options) string {
	if _, err := uri.ParseWith(s, mode); err != nil {
		return "fail"
	}
	return "ok"
}

func TestConformanceOxiriLists(t *testing.T) {
	for _, f := range []struct {
		file, want string
	}{
		{"oxiri.valid_absolute_iris.json", "absolute"},
		{"oxiri.valid_relative_iri_refs.json", "ok"},
		{"oxiri.invalid_iri_refs.json", "fail"},
	} {
		var list []string
		testshared.ReadJSON(t, &list, "conformance", "rfc3986", f.file)
		st := newPtSuite(t, f.file)
		for _, s := range list {
			ours := ptVerdict(s, uri.Options{})
			if f.want == "absolute" && ours == "ok" && uri.MustParse(s).HasScheme() {
				ours = "absolute"
			}
			st.compare("list", s, f.want, ours)
			ptCheckProperties(t, s, uri.Options{})
		}
		st.done()
	}
}

func TestConformanceFourSuite(t *testing.T) {
	var fs struct {
		Good []string
		Bad  []struct {
			URI    string `json:"uri"`
			Offset int    `json:"error_offset"`
		}
	}
	const file = "uriparser.FourSuite.json"
	testshared.ReadJSON(t, &fs, "conformance", "rfc3986", file)
	st := newPtSuite(t, file)
	for _, s := range fs.Good {
		st.compare("good", s, "ok", ptVerdict(s, uri.Options{}))
		ptCheckProperties(t, s, uri.Options{})
	}
	// uriparser reports the offset of the first byte it could not
	// consume; on these 31 vectors that is our longest-viable-prefix
	// offset too (including "http://w3c.org:80path1/path2" at 22, where
	// "80path1" could still have been a userinfo).
	for _, b := range fs.Bad {
		_, err := uri.Parse(b.URI)
		ours := "accepted"
		var pe *uri.ParseError
		if errors.As(err, &pe) {
			ours = fmt.Sprintf("error at %d", pe.Offset)
		}
		st.compare("bad", b.URI, fmt.Sprintf("error at %d", b.Offset), ours)
	}
	st.done()
}

func TestConformanceUriparserTestCpp(t *testing.T) {
	var tc struct {
		IPv4Pass  []string `json:"ipv4_pass"`
		IPv4Fail  []string `json:"ipv4_fail"`
		IPv6Pass  []string `json:"ipv6_pass"`
		IPv6Fail  []string `json:"ipv6_fail"`
		RoundTrip []string `json:"to_string_roundtrip"`
		ParseOK   []string `json:"parse_ok"`
		ParseFail []string `json:"parse_fail"`
	}
	const file = "uriparser.test_cpp.json"
	testshared.ReadJSON(t, &tc, "conformance", "rfc3986", file)
	st := newPtSuite(t, file)
	kind := func(s string, k uri.HostKind) string {
		u, err := uri.Parse(s)
		if err != nil || u.HostKind() != k {
			return "fail"
		}
		return "pass"
	}
	for _, s := range tc.IPv4Pass {
		st.compare("ipv4_pass", s, "pass", kind("http://"+s+"/", uri.IPv4))
	}
	for _, s := range tc.IPv4Fail {
		// Not an IPv4address; "01.0.0.0" is still a valid reg-name.
		st.compare("ipv4_fail", s, "fail", kind("http://"+s+"/", uri.IPv4))
	}
	for _, s := range tc.IPv6Pass {
		st.compare("ipv6_pass", s, "pass", kind("http://["+s+"]/", uri.IPv6))
	}
	for _, s := range tc.IPv6Fail {
		st.compare("ipv6_fail", s, "fail", kind("http://["+s+"]/", uri.IPv6))
	}
	for _, s := range tc.RoundTrip {
		ours := "different"
		if u, err := uri.Parse(s); err == nil && u.String() == s {
			ours = "same"
		}
		st.compare("to_string_roundtrip", s, "same", ours)
	}
	for _, s := range tc.ParseOK {
		st.compare("parse_ok", s, "ok", ptVerdict(s, uri.Options{}))
		ptCheckProperties(t, s, uri.Options{})
	}
	for _, s := range tc.ParseFail {
		st.compare("parse_fail", s, "fail", ptVerdict(s, uri.Options{}))
	}
	st.done()
}

func TestConformanceNetworkURI(t *testing.T) {
	var nu struct {
		Types []struct{ Type, URI string } `json:"uri_ref_type"`
	}
	const file = "network-uri.uri001.json"
	testshared.ReadJSON(t, &nu, "conformance", "rfc3986", file)
	// Klyne's types: AbsId (absolute-URI, RFC 3986 4.3), AbsRf (a URI
	// with a fragment), RelRf (relative-ref, 4.2), InvRf (invalid).
	refType := func(s string, mode uri.Options) string {
		u, err := uri.ParseWith(s, mode)
		switch {
		case err != nil:
			return "InvRf"
		case !u.HasScheme():
			return "RelRf"
		case u.IsAbsoluteURI():
			return "AbsId"
		}
		return "AbsRf"
	}
	st := newPtSuite(t, file)
	for _, v := range nu.Types {
		st.compare("uri_ref_type", v.URI, v.Type, refType(v.URI, uri.Options{}))
		ptCheckProperties(t, v.URI, uri.Options{})
		if strings.Contains(v.URI, "%25") && v.Type == "AbsId" {
			// RFC 6874: with zone identifiers allowed, the reference is valid.
			if got := refType(v.URI, uri.Options{AllowZoneID: true}); got != v.Type {
				t.Errorf("%s %q with AllowZoneID: %s, want %s", file, v.URI, got, v.Type)
			}
		}
	}
	st.done()
}

func TestConformanceIRIStringComponents(t *testing.T) {
	var cases []struct {
		Name       string
		Composed   string
		Components map[string]string
	}
	const file = "iri-string.components.json"
	testshared.ReadJSON(t, &cases, "conformance", "rfc3986", file)
	st := newPtSuite(t, file)
	for _, c := range cases {
		want := ptIRIStringSplit(c.Components)
		u, err := uri.Parse(c.Composed)
		ours := "invalid: " + fmt.Sprint(err)
		if err == nil {
			got := map[string]string{"scheme": u.Scheme(), "path": u.Path()}
			if u.HasScheme() {
				got["scheme"] = u.Scheme()
			} else {
				delete(got, "scheme")
			}
			if u.HasAuthority() {
				got["host"] = u.Host()
			}
			if u.HasUserinfo() {
				user, pass, ok := strings.Cut(u.Userinfo(), ":")
				got["user"] = user
				if ok {
					got["password"] = pass
				}
			}
			if u.HasPort() {
				got["port"] = u.Port()
			}
			if u.HasQuery() {
				got["query"] = u.Query()
			}
			if u.HasFragment() {
				got["fragment"] = u.Fragment()
			}
			ours = ptIRIStringSplit(got)
		}
		st.compare("components", c.Composed, want, ours)
		ptCheckProperties(t, c.Composed, uri.Options{})
	}
	st.done()
}

// ptIRIStringSplit writes iri-string's components in a fixed order; a
// missing key is undefined, except the path, which is always defined.
func ptIRIStringSplit(m map[string]string) string {
	var b strings.Builder
	for _, k := range []string{"scheme", "user", "password", "host", "port", "path", "query", "fragment"} {
		v, ok := m[k]
		if k == "path" {
			ok = true
		}
		if ok {
			fmt.Fprintf(&b, "%s=%q ", k, v)
		}
	}
	return b.String()
}

// TestRobustnessWHATWG runs the inputs of the WHATWG URL tests (browser
// URLs, not RFC 3986: the expected results are not ours to compare) in
// both modes: no panic, the round trip and Appendix B split for the ones
// we accept, and linear time on each input repeated to 64 KB and more.
func TestRobustnessWHATWG(t *testing.T) {
	t.Parallel() // long and CPU-bound; not a timing test (issue 7: a fast go test ./...)
	var data []any
	testshared.ReadJSON(t, &data, "conformance", "whatwg", "urltestdata.json")
	var inputs []string
	for _, d := range data {
		if m, ok := d.(map[string]any); ok {
			if s, ok := m["input"].(string); ok {
				inputs = append(inputs, s)
			}
			if s, ok := m["base"].(string); ok {
				inputs = append(inputs, s)
			}
		}
	}
	ptRobustness(t, "whatwg/urltestdata.json", inputs)
}

// TestRobustnessAdversarial does the same with the open-redirect and
// parser-confusion payloads.
func TestRobustnessAdversarial(t *testing.T) {
	dir := testshared.Path(t, "corpora", "adversarial")
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	for _, f := range files {
		lines := testshared.FileLines(t, f)
		ptRobustness(t, "adversarial/"+filepath.Base(f), lines)
	}
}

func ptRobustness(t *testing.T, name string, inputs []string) {
	counts := map[uri.Options][2]int{}
	start := time.Now()
	for _, s := range inputs {
		for _, mode := range []uri.Options{{}, {Grammar: uri.RFC2396}, {AllowZoneID: true}} {
			c := counts[mode]
			if ptCheckProperties(t, s, mode) {
				c[0]++
			} else {
				c[1]++
			}
			counts[mode] = c
		}
		if s != "" {
			// A hostile line repeated to 64 KiB parses at most 50 times
			// slower than a plain path of that size (a quadratic path
			// would be thousands of times slower).
			long := strings.Repeat(s, 1+(64<<10)/len(s))
			plain := "/" + strings.Repeat("a", len(long)-1)
			testshared.CheckFast(t, fmt.Sprintf("%s: %q repeated to %d bytes", name, s, len(long)), 50, func() {
				uri.Parse(plain)
				uri.ParseWith(plain, uri.Options{Grammar: uri.RFC2396})
			}, func() {
				uri.Parse(long)
				uri.ParseWith(long, uri.Options{Grammar: uri.RFC2396})
			})
		}
	}
	t.Logf("%s: %d inputs in %v; RFC 3986 %d valid / %d rejected; RFC 2396 %d / %d; with zones %d / %d",
		name, len(inputs), time.Since(start).Round(time.Millisecond),
		counts[uri.Options{}][0], counts[uri.Options{}][1], counts[uri.Options{Grammar: uri.RFC2396}][0], counts[uri.Options{Grammar: uri.RFC2396}][1],
		counts[uri.Options{AllowZoneID: true}][0], counts[uri.Options{AllowZoneID: true}][1])
}
