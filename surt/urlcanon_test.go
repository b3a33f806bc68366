package surt

import (
	"encoding/json"
	"os"
	"sort"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// The test data of iipc/urlcanon (testdata/*.json at 842afd4, Apache-2.0,
// vendored under testdata/surt/ with its licence). urlcanon's tests read
// these files as Latin-1 and write every string back as Latin-1 bytes
// (load_json_bytes in python/tests/test_urlcanon.py), so that "\u0080" is
// the byte 0x80; latin1JSON does the same.

// latin1JSON decodes the committed urlcanon file name into v, every
// string as the bytes of its Latin-1 code points.
func latin1JSON(t *testing.T, v any, name string) {
	t.Helper()
	b, err := os.ReadFile(testshared.Path(t, "surt", name))
	if err != nil {
		t.Fatal(err)
	}
	rs := make([]rune, len(b))
	for k, c := range b {
		rs[k] = rune(c)
	}
	var raw any
	if err := json.Unmarshal([]byte(string(rs)), &raw); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	bytesOf := func(s string) string {
		out := make([]byte, 0, len(s))
		for _, r := range s {
			out = append(out, byte(r))
		}
		return string(out)
	}
	var conv func(any) any
	conv = func(x any) any {
		switch x := x.(type) {
		case string:
			return bytesOf(x)
		case map[string]any:
			m := make(map[string]any, len(x))
			for k, e := range x {
				m[bytesOf(k)] = conv(e)
			}
			return m
		case []any:
			for k := range x {
				x[k] = conv(x[k])
			}
			return x
		}
		return x
	}
	set(t, v, conv(raw))
}

// set assigns the decoded value x to v (a *map[string]string, a
// *map[string]map[string]string or a *[]string) without a JSON round trip,
// which would replace the bytes that are not UTF-8.
func set(t *testing.T, v, x any) {
	t.Helper()
	flat := func(x any) map[string]string {
		m := map[string]string{}
		for k, e := range x.(map[string]any) {
			s, _ := e.(string)
			if e == nil {
				s = "\x00null"
			}
			m[k] = s
		}
		return m
	}
	switch v := v.(type) {
	case *map[string]string:
		*v = flat(x)
	case *map[string]map[string]string:
		*v = map[string]map[string]string{}
		for k, e := range x.(map[string]any) {
			(*v)[k] = flat(e)
		}
	case *[]string:
		for _, e := range x.([]any) {
			*v = append(*v, e.(string))
		}
	default:
		t.Fatalf("set: %T", v)
	}
}

func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// urlcanonDiffs lists, file by file, the inputs where this package and
// urlcanon's expected output differ on purpose, each with its reason.
var urlcanonDiffs = map[string]map[string]string{
	"urlcanon.semantic_precise.json": emptyIPv4PartDiffs(true),
	"urlcanon.supplemental_whatwg.json": merge(emptyIPv4PartDiffs(false), map[string]string{
		"file://%":                       whyWHATWGFailure,
		"file://%/a/b":                   whyWHATWGFailure,
		"http:%/":                        whyWHATWGFailure,
		"http:/%/":                       whyWHATWGFailure,
		"http://%/":                      whyWHATWGFailure,
		"http://09/":                     whyWHATWGFailure,
		"http://info@merseburger.de%20/": whyWHATWGFailure,
		"www.google.com":                 whyWHATWGFailure,
		"www.google.com/":                whyWHATWGFailure,
		"lolscheme:/x x#x x":             whyFragmentSpace,
		"lolscheme:x x#x x":              whyFragmentSpace,
	}),
	"urlcanon.surt.json googleSupplementalFromSurt": {
		"B\xfccher.ch:8080": "the test file's input is the Latin-1 byte 0xFC; bytes are read as UTF-8 (URL Standard), so it is no letter ü and has no IDN form (surt's own test, with the letter, is in TestAnchorVectors)",
	},
	"urlcanon.ssurt.json surt": {
		"http://user:pass@foo.example.org:81/path?query#frag": whyUserinfoHeritrix,
		"http://user:pass@foo.example.org:81/":                whyUserinfoHeritrix,
		"http://user:pass@foo.example.org:81":                 whyUserinfoHeritrix,
		"http://user:pass@foo.example.org:81?query":           whyUserinfoHeritrix,
		"http://user:pass@foo.example.org:81#frag":            whyUserinfoHeritrix,
		"http://user:pass@10.1.2.3:81#frag":                   whyUserinfoHeritrix,
	},
	"urlcanon.ssurt.json surtWithoutScheme": {
		"http://user:pass@foo.example.org:81/path?query#frag": whyTrailingCommaPort,
		"http://user:pass@foo.example.org:81/":                whyTrailingCommaPort,
		"http://user:pass@foo.example.org:81":                 whyTrailingCommaPort,
		"http://user:pass@foo.example.org:81?query":           whyTrailingCommaPort + "; and an empty path before a query is \"/\" as surt writes it",
		"http://user:pass@foo.example.org:81#frag":            whyTrailingCommaPort + "; and an empty path before a fragment is \"/\" as surt writes it",
		"http://user:pass@10.1.2.3:81#frag":                   "the URLKey reverses an IPv4 address as surt (reverse_ipaddr=True) and Wayback do, with the comma after the port; urlcanon's surt() keeps the address",
	},
}

const (
	whyWHATWGFailure = "the URL Standard returns failure for this input (whatwg.Parse, tested on the web-platform-tests); urlcanon's whatwg canonicalizer keeps what it can"
	whyFragmentSpace = "the URL Standard encodes a space in a fragment (fragment percent-encode set, since 2020); urlcanon's data predates it"
)

// emptyIPv4PartDiffs are the hosts "." ".." "..." (from %2e): urlcanon's
// parse_ipv4 reads an empty part as 0 and writes 0.0.0.0; the URL
// Standard's IPv4 parser does not, so the host is a name, and the
// profiles drop its dots (Safe Browsing's rule).
func emptyIPv4PartDiffs(nonspecial bool) map[string]string {
	m := map[string]string{}
	const why = "urlcanon's parse_ipv4 reads an empty part as 0, so a host of dots is 0.0.0.0; the URL Standard's IPv4 parser has no empty parts and the host stays a name (whose dots the profiles remove, and an http host emptied so is followed by the first path segment)"
	pres := []string{"file://", "http:", "http:/", "http://", "http:///"}
	if nonspecial {
		pres = append(pres, "nonspecial://")
	}
	for _, pre := range pres {
		for _, dots := range []string{"%2e", "%2e%2e", "%2e%2e%2e"} {
			m[pre+dots+"/a/b"] = why
		}
	}
	return m
}

func merge(a, b map[string]string) map[string]string {
	for k, v := range b {
		a[k] = v
	}
	return a
}

// checkTable compares f over a file's table, allowing the listed
// differences only, and reports both counts.
func checkTable(t *testing.T, name string, table map[string]string, f func(string) (string, error)) {
	t.Helper()
	diffs := urlcanonDiffs[name]
	same, differ := 0, 0
	for _, in := range sortedKeys(table) {
		want := table[in]
		got, err := f(in)
		if err != nil {
			got = "error: " + err.Error()
		}
		why, listed := diffs[in]
		switch {
		case got == want && listed:
			t.Errorf("%s: %q is listed as a difference (%s) but agrees now", name, in, why)
		case got == want:
			same++
		case listed:
			differ++
		default:
			t.Errorf("%s: %q = %q, want %q", name, in, got, want)
		}
	}
	for in := range diffs {
		if _, ok := table[in]; !ok {
			t.Errorf("%s: listed difference %q is not in the file", name, in)
		}
	}
	t.Logf("%s: %d as urlcanon, %d listed differences", name, same, differ)
}

func canonWith(p Profile) func(string) (string, error) {
	return func(s string) (string, error) { return Canonicalize(s, p) }
}

func TestURLCanonProfiles(t *testing.T) {
	for _, c := range []struct {
		file string
		p    Profile
	}{
		{"urlcanon.aggressive.json", Aggressive},
		{"urlcanon.semantic_precise.json", SemanticPrecise},
		{"urlcanon.supplemental_whatwg.json", WHATWG},
	} {
		var m map[string]string
		latin1JSON(t, &m, c.file)
		checkTable(t, c.file, m, canonWith(c.p))
	}
}

// TestURLCanonSurtJSON runs urlcanon's transcription of surt's and
// webarchive-commons' tests (testdata/surt.json of urlcanon).
func TestURLCanonSurtJSON(t *testing.T) {
	var m map[string]map[string]string
	latin1JSON(t, &m, "urlcanon.surt.json")
	name := func(s string) string { return "urlcanon.surt.json " + s }
	checkTable(t, name("Canonicalizer.DefaultIA"), m["Canonicalizer.DefaultIA"], canonWith(IA))
	checkTable(t, name("google"), m["google"], canonWith(Google))
	checkTable(t, name("googleSupplementalFromSurt"), m["googleSupplementalFromSurt"], canonWith(Google))
	checkTable(t, name("Canonicalizer.IA"), m["Canonicalizer.IA"], canonWith(IA))
	checkTable(t, name("defaultIASurt"), m["defaultIASurt"], Key)
	checkTable(t, name("unescapeRepeatedly"), m["unescapeRepeatedly"], func(s string) (string, error) {
		return string(appendUnescapeAll(nil, []byte(s))), nil
	})
	checkTable(t, name("alphaRorderQuery"), m["alphaRorderQuery"], func(s string) (string, error) {
		st := getState()
		defer putState(st)
		st.p.setString(&st.p.query, s)
		st.sortQueryIA()
		return string(st.p.get(st.p.query)), nil
	})
	checkTable(t, name("massageHost"), m["massageHost"], func(s string) (string, error) {
		st := getState()
		defer putState(st)
		st.p.setString(&st.p.host, s)
		st.p.stripWWW(&Options{})
		return string(st.p.get(st.p.host)), nil
	})
	checkTable(t, name("stripPathSessionId"), m["stripPathSessionId"], func(s string) (string, error) {
		st := getState()
		defer putState(st)
		st.p.setString(&st.p.path, s)
		st.p.stripIAPathSessions()
		return string(st.p.get(st.p.path)), nil
	})
}

// TestURLCanonSSURT runs urlcanon's ssurt.json: SSURT keys (and their
// round trip), the Heritrix form and the host transforms.
func TestURLCanonSSURT(t *testing.T) {
	var m map[string]map[string]string
	latin1JSON(t, &m, "urlcanon.ssurt.json")
	name := func(s string) string { return "urlcanon.ssurt.json " + s }
	none := func(f Form, comma bool) func(string) (string, error) {
		return Options{Profile: None, Form: f, TrailingComma: comma}.Key
	}
	checkTable(t, name("ssurt"), m["ssurt"], none(SSURT, false))
	checkTable(t, name("surt"), m["surt"], none(Heritrix, false))
	checkTable(t, name("surtWithoutScheme"), m["surtWithoutScheme"], none(URLKey, true))
	t.Logf("%s: %d vectors not run: no form here writes the Heritrix form without its trailing comma", name("surtWithoutTrailingComma"), len(m["surtWithoutTrailingComma"]))
	for in := range m["ssurt"] {
		k, err := none(SSURT, false)(in)
		if err != nil {
			continue
		}
		if back, err := ParseSSURT(k); err != nil || back != in {
			t.Errorf("ParseSSURT(%q) = %q, %v; want %q", k, back, err, in)
		}
	}
	checkTable(t, name("reverseHost"), m["reverseHost"], func(s string) (string, error) {
		return string(appendReversed(nil, []byte(s), true, true)), nil
	})
	checkTable(t, name("ssurtHost"), m["ssurtHost"], func(s string) (string, error) {
		k, err := Options{Profile: None, Form: SSURT}.Key("x://" + s + "/")
		return k[:len(k)-len("//x:/")], err
	})
}

// TestURLCanonFunkyIPv4 runs funky_ipv4.json: IPv4 forms of the URL
// Standard (null: not an address).
func TestURLCanonFunkyIPv4(t *testing.T) {
	var m map[string]string
	latin1JSON(t, &m, "urlcanon.funky_ipv4.json")
	checkTable(t, "urlcanon.funky_ipv4.json", m, func(s string) (string, error) {
		v, ok := parseIPv4([]byte(s), true)
		if !ok {
			return "\x00null", nil
		}
		return string(appendIPv4(nil, v)), nil
	})
}

// TestURLCanonIdempotence: every profile's canonical form of the inputs of
// idempotence.json canonicalizes to itself and keeps its key.
func TestURLCanonIdempotence(t *testing.T) {
	var ins []string
	latin1JSON(t, &ins, "urlcanon.idempotence.json")
	checkFixedPoints(t, ins)
}
