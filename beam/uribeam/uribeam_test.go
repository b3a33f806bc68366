package uribeam_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/urikit/urikit/beam/uribeam"
)

// run builds a pipeline over the lines with build and returns its
// string PCollections' elements, sorted.
func run(t *testing.T, lines []string, build func(s beam.Scope, lines beam.PCollection) map[string]beam.PCollection) map[string][]string {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	out, err := collect(p, s, build(s, beam.CreateList(s, lines)))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestParse: RFC 3986 Appendix A accepts a line or gives the offset of
// its first error; the scheme's own rules apply on top (RFC 8141 for
// "urn:"); a final "\r" is dropped as the uri command drops it.
func TestParse(t *testing.T) {
	tests := []struct {
		line string
		off  int64 // -2: valid
		why  string
	}{
		// "URI-reference = URI / relative-ref" (4.1): both kinds.
		{"foo://example.com:8042/over/there?name=ferret#nose", -2, "3: the example URI"},
		{"../g;x?y#s", -2, "4.2: a relative reference"},
		{"", -2, "4.2: the empty path is a relative reference"},
		{"http://example.com/\r", -2, "a CRLF line"},
		// "pchar = unreserved / pct-encoded / sub-delims / ":" / "@"" (3.3).
		{"http://example.com/a b", 20, "3.3: a space is no pchar"},
		// "pct-encoded = "%" HEXDIG HEXDIG" (2.1).
		{"%zz", 1, "2.1: % needs two hex digits"},
		// "IP-literal = "[" ( IPv6address / IPvFuture  ) "]"" (3.2.2).
		{"http://[::1/", 11, "3.2.2: an IP-literal ends at \"]\", not at \"/\""},
		// RFC 8141 2: "assigned-name = "urn" ":" NID ":" NSS".
		{"urn:x", 5, "RFC 8141 2: no NSS"},
	}
	var lines []string
	for _, tc := range tests {
		lines = append(lines, tc.line)
	}
	out := run(t, lines, func(s beam.Scope, lines beam.PCollection) map[string]beam.PCollection {
		refs, dead := uribeam.Parse(s, lines)
		return map[string]beam.PCollection{"refs": refs, "dead": beam.ParDo(s, deadString, dead)}
	})
	for _, tc := range tests {
		in := strings.TrimSuffix(tc.line, "\r")
		valid := slices.Contains(out["refs"], in)
		var dead string
		for _, d := range out["dead"] {
			if strings.HasPrefix(d, `{"input":`+strconv.Quote(in)+`,`) {
				dead = d
			}
		}
		switch {
		case tc.off == -2 && (!valid || dead != ""):
			t.Errorf("%s: %q refused (%s), want accepted", tc.why, tc.line, dead)
		case tc.off != -2 && (valid || !strings.HasSuffix(dead, `"offset":`+strconv.FormatInt(tc.off, 10)+"}")):
			t.Errorf("%s: %q gave %q (valid %v), want a dead letter at offset %d", tc.why, tc.line, dead, valid, tc.off)
		}
	}
	if n := len(out["refs"]) + len(out["dead"]); n != len(tests) {
		t.Errorf("%d lines out for %d in: a line was lost or doubled", n, len(tests))
	}
}

// TestKeyEquivalence: two lines have the same key exactly when RFC 3986
// 6.2.2 and 6.2.3 (and RFC 8141 3 for URNs) make them equivalent.
func TestKeyEquivalence(t *testing.T) {
	tests := []struct {
		a, b  string
		equal bool
		why   string
	}{
		{"HTTP://www.EXAMPLE.com/", "http://www.example.com/", true, "6.2.2.1: scheme and host are case-insensitive"},
		{"http://example.com/%7Esmith", "http://example.com/~smith", true, "6.2.2.2: percent-encoded unreserved characters are decoded"},
		{"http://example.com/%3a", "http://example.com/%3A", true, "6.2.2.1: hex digits of percent-encodings are case-insensitive"},
		{"http://example.com/a/./b/../c", "http://example.com/a/c", true, "6.2.2.3: dot segments are removed"},
		{"http://example.com", "http://example.com:80/", true, "6.2.3: an empty path and the default port"},
		{"http://example.com/a", "http://example.com/A", false, "6.2.2.1: the path is case-sensitive"},
		{"http://example.com/%2F", "http://example.com//", false, "2.2: a percent-encoded reserved character is not the character"},
		{"https://example.com/", "http://example.com/", false, "different schemes"},
		{"urn:example:a123,z456", "URN:EXAMPLE:a123,z456?+abc#789", true, "RFC 8141 3.2: case of urn and NID; r-, q-, f-components ignored"},
		{"urn:example:a123,z456", "urn:example:A123,z456", false, "RFC 8141 3.2: the NSS is case-sensitive"},
		{"urn:example:a123%2Cz456", "urn:example:a123,z456", false, "RFC 8141 3.2: %2C is not decoded"},
	}
	var lines []string
	for _, tc := range tests {
		lines = append(lines, tc.a, tc.b)
	}
	out := run(t, lines, func(s beam.Scope, lines beam.PCollection) map[string]beam.PCollection {
		keyed, _ := uribeam.Key(s, lines)
		return map[string]beam.PCollection{"keys": beam.ParDo(s, pairString, keyed)}
	})
	key := map[string]string{}
	for _, l := range out["keys"] {
		k, in, _ := strings.Cut(l, " <- ")
		key[in] = k
	}
	for _, tc := range tests {
		ka, oka := key[tc.a]
		kb, okb := key[tc.b]
		if !oka || !okb || (ka == kb) != tc.equal {
			t.Errorf("%s: keys %q (%q) and %q (%q), want equal %v", tc.why, ka, tc.a, kb, tc.b, tc.equal)
		}
	}
}

// TestURNKeys: the namespace's lexical equivalence applies (RFC 3187
// for ISBN: hyphens are not significant; RFC 4122 3 for UUID: hex
// digits without case) only with a valid NSS; a line that is not a URN
// is a dead letter.
func TestURNKeys(t *testing.T) {
	tests := []struct {
		a, b  string
		equal bool
		why   string
	}{
		{"urn:isbn:0-395-36341-1", "URN:ISBN:0395363411", true, "RFC 3187: hyphens are not significant"},
		{"urn:isbn:0-395-36341-1", "urn:isbn:0-395-36341-2", false, "different ISBNs"},
		{"urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6", true, "RFC 4122 3: case-insensitive hex"},
		{"urn:example:a-b", "urn:example:ab", false, "no namespace rule: hyphens count"},
	}
	var lines []string
	for _, tc := range tests {
		lines = append(lines, tc.a, tc.b)
	}
	lines = append(lines, "http://example.com/", "urn:")
	out := run(t, lines, func(s beam.Scope, lines beam.PCollection) map[string]beam.PCollection {
		keyed, dead := uribeam.URNKeys(s, lines)
		return map[string]beam.PCollection{"keys": beam.ParDo(s, pairString, keyed), "dead": beam.ParDo(s, deadString, dead)}
	})
	key := map[string]string{}
	for _, l := range out["keys"] {
		k, in, _ := strings.Cut(l, " <- ")
		key[in] = k
	}
	for _, tc := range tests {
		ka, oka := key[tc.a]
		kb, okb := key[tc.b]
		if !oka || !okb || (ka == kb) != tc.equal {
			t.Errorf("%s: keys %q (%q) and %q (%q), want equal %v", tc.why, ka, tc.a, kb, tc.b, tc.equal)
		}
	}
	if len(out["dead"]) != 2 {
		t.Errorf("dead letters %q, want the two lines that are not URNs", out["dead"])
	}
}

// TestDedupeRepresentative: the representative is the smallest input in
// byte order, and the count counts every line, duplicates included.
func TestDedupeRepresentative(t *testing.T) {
	lines := []string{"http://example.com/b", "HTTP://example.com/b", "http://EXAMPLE.com/b", "HTTP://example.com/b", "http://example.com/c"}
	out := run(t, lines, func(s beam.Scope, lines beam.PCollection) map[string]beam.PCollection {
		classes, _ := uribeam.Dedupe(s, lines)
		return map[string]beam.PCollection{"c": beam.ParDo(s, classString, classes)}
	})
	want := []string{"http://example.com/b\t4\tHTTP://example.com/b", "http://example.com/c\t1\thttp://example.com/c"}
	if !slices.Equal(out["c"], want) {
		t.Errorf("got %q, want %q", out["c"], want)
	}
}

// TestDeadLetterJSON: the JSON of "uri normalize --json" for a failed
// input, with "input_hex" for input that is not UTF-8 and "file" first
// for a file.
func TestDeadLetterJSON(t *testing.T) {
	for _, tc := range []struct {
		d    uribeam.DeadLetter
		want string
	}{
		{uribeam.DeadLetter{Input: "a\"b", Offset: 1, Error: "x"}, `{"input":"a\"b","error":"x","offset":1}`},
		{uribeam.DeadLetter{Input: "\xff", Offset: 0, Error: "x"}, `{"input":"\ufffd","input_hex":"ff","error":"x","offset":0}`},
		{uribeam.DeadLetter{File: "a.warc", Offset: 42, Error: "x"}, `{"file":"a.warc","input":"","error":"x","offset":42}`},
	} {
		if got := tc.d.JSON(); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.d, got, tc.want)
		}
	}
}

// TestRetrieval: the longest path prefix wins, the rest of the path is
// percent-encoded as a path (RFC 3986 3.3), a path that is a URI is its
// own, and any other path is a file: URL (RFC 8089 2).
func TestRetrieval(t *testing.T) {
	var m uribeam.Mapping
	if err := m.Add("/c/", "https://a.example/"); err != nil {
		t.Fatal(err)
	}
	if err := m.Add("/c/b/", "https://b.example/x/"); err != nil {
		t.Fatal(err)
	}
	if err := m.Add("/d/", "relative/"); err == nil {
		t.Error("a relative URL prefix was accepted")
	}
	abs, _ := filepath.Abs("p q.html")
	for path, want := range map[string]string{
		"/c/index.html":    "https://a.example/index.html",
		"/c/b/index.html":  "https://b.example/x/index.html",
		"/c/a b#?.html":    "https://a.example/a%20b%23%3F.html",
		"gs://bucket/a.ht": "gs://bucket/a.ht",
		"p q.html":         "file://" + strings.ReplaceAll(filepath.ToSlash(abs), " ", "%20"),
	} {
		u, err := m.Retrieval(path)
		if err != nil || u.String() != want {
			t.Errorf("Retrieval(%q) = %v, %v; want %s", path, u, err, want)
		}
	}
}

// TestWriteShardsEmpty: every shard is written, even an empty one, no
// line is lost or doubled, and no temporary file of the bundles is left.
func TestWriteShardsEmpty(t *testing.T) {
	dir := t.TempDir()
	p, s := beam.NewPipelineWithRoot()
	uribeam.WriteShards(s, filepath.Join(dir, "o"), 4, beam.Create(s, "only", "two"))
	uribeam.WriteShards(s, filepath.Join(dir, "e"), 2, beam.CreateList(s, []string{}))
	if err := beamRun(p); err != nil {
		t.Fatal(err)
	}
	var all []string
	for i := range 4 {
		b, err := os.ReadFile(uribeam.ShardName(filepath.Join(dir, "o"), i, 4))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, strings.Fields(string(b))...)
	}
	for i := range 2 {
		if b, err := os.ReadFile(uribeam.ShardName(filepath.Join(dir, "e"), i, 2)); err != nil || len(b) != 0 {
			t.Errorf("empty shard %d: %q, %v", i, b, err)
		}
	}
	slices.Sort(all)
	if !slices.Equal(all, []string{"only", "two"}) {
		t.Errorf("shards hold %q", all)
	}
	if names, _ := filepath.Glob(filepath.Join(dir, "*")); len(names) != 6 {
		t.Errorf("files left: %q, want the 6 shards", names)
	}
}
