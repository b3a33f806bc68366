package uri_test

import (
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
)

// neturlRows maps each class of difference the differential below can
// find to what the "Coming from net/url" table of the package doc must
// say about it: a part of its row.
var neturlRows = map[string]string{
	"accept":           "strict RFC 3986",                 // url.Parse takes what Parse refuses
	"scheme-case":      `"HTTP" stays "HTTP"`,             // u.Scheme is lowercased
	"hostname-decoded": "Hostname() as written",           // u.Hostname() is decoded
	"user-decoded":     "DecodedUserinfo decodes",         // Username, Password decoded
	"path-decoded":     "DecodedX decoded",                // u.Path is decoded
	"path-reencoded":   "never re-encoded",                // EscapedPath may differ from the input
	"fragment-reenc":   "never re-encoded",                // EscapedFragment too
	"string-reenc":     "the input itself",                // String re-serializes
	"query-semicolon":  "ParseParams(s)",                  // ParseQuery fails on ";"
	"query-plus":       `"+" is a space only inside`,      // ...
	"encode":           "v.Encode()",                      // Values.Encode and Params.Encode write different text
	"resolve-dots":     `"?y", "#s" and "" keep the base`, // ResolveReference removes the base's dots
	"resolve-other":    "RFC 3986 5.2 exactly",
	"empty-query":      "undefined and empty are distinct",
	"empty-authority":  "undefined and empty are distinct",
	"opaque":           "RFC 3986 has no opaque part",
	"port":             "HasPort tells",
	"isabs":            "u.IsAbs()",
}

// TestNetURLDifferences: a differential against net/url over the
// corpora (and the examples): each accessor pair of the
// "Coming from net/url" table is compared on every line both parse,
// each difference is put in a class, and the table must name every
// class found (issue 26: Hostname of "http://%e2%98%83/" is decoded by
// net/url and not here, and the table did not say so). A difference of
// no class fails the test: the table would not cover it.
func TestNetURLDifferences(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	table := string(doc[strings.Index(string(doc), "# Coming from net/url"):])
	found := map[string][]string{}
	note := func(class, line string) {
		if len(found[class]) < 3 {
			found[class] = append(found[class], line)
		} else if _, ok := neturlRows[class]; !ok {
			found[class] = append(found[class], line)
		}
	}
	lines := []string{"http://%e2%98%83/", "HTTP://u%40:p%3A@h/a%2Fb?q=a;b&c=+d#f%20", "http://a/b/c/..", "http://[fe80::1%25en0]/"}
	for _, name := range testshared.CorpusNames {
		c := testshared.LoadCorpus(t, name).Lines
		if testing.Short() && len(c) > 20000 {
			c = c[:20000]
		}
		lines = append(lines, c...)
	}
	n := 0
	for _, line := range lines {
		v, verr := url.Parse(line)
		u, uerr := uri.ParseWith(line, uri.Options{AllowZoneID: true})
		if verr != nil || uerr != nil {
			if verr == nil {
				note("accept", line)
			}
			continue
		}
		n++
		if v.Scheme != u.Scheme() {
			note("scheme-case", line)
		}
		if v.Hostname() != u.Hostname() {
			note("hostname-decoded", line)
			if d, _ := uri.Unescape(u.Hostname()); d != v.Hostname() {
				note("hostname-other", line)
			}
		}
		if v.Port() != u.Port() || (v.Port() == "") != !u.HasPort() && u.Port() != "" {
			note("port", line)
		}
		if v.User != nil {
			user, _ := u.User()
			if v.User.Username() != user {
				note("user-decoded", line)
			}
		}
		if !u.HasAuthority() && v.Opaque != "" {
			// The opaque part: RFC 3986 has none (a row of its own).
		} else {
			if v.Path != u.Path() {
				note("path-decoded", line)
			}
			if v.EscapedPath() != u.Path() {
				note("path-reencoded", line)
			}
		}
		if v.RawQuery != u.Query() {
			note("query-raw", line)
		}
		if v.EscapedFragment() != u.Fragment() {
			note("fragment-reenc", line)
		}
		if v.String() != u.String() {
			note("string-reenc", line)
		}
		if v.IsAbs() != u.IsAbs() {
			note("isabs", line)
		}
		// The query as pairs: url.ParseQuery against Params.
		if u.HasQuery() {
			vals, qerr := url.ParseQuery(u.Query())
			var keys []string
			for _, p := range u.QueryParams().All() {
				keys = append(keys, p.Key())
				if qerr == nil && !slices.Contains(vals[p.Key()], p.Value()) {
					note("query-plus", line)
				}
			}
			if qerr != nil {
				note("query-semicolon", line)
			}
			// Encode: the same pairs, set through each API, must
			// read back through url.ParseQuery to the same values.
			var p uri.Params
			w := url.Values{}
			for _, q := range u.QueryParams().All() {
				p.Add(q.Key(), q.Value())
				w.Add(q.Key(), q.Value())
			}
			back, err := url.ParseQuery(p.Encode())
			if err != nil || !sameValues(back, w) {
				note("encode", line)
			}
		}
		// Resolution of the references that keep the base's path, and
		// of the usual ones, compared in normal form (net/url writes
		// its own escapes).
		if u.IsAbs() {
			for _, r := range []string{"?y", "#s", "g", "../g", "./"} {
				rv, _ := url.Parse(r)
				got := u.Resolve(uri.MustParse(r))
				want, err := uri.Parse(v.ResolveReference(rv).String())
				switch {
				case err != nil:
				case (r[0] == '?' || r[0] == '#') && hasDotSegment(u.Path()) && got.Path() != want.Path():
					note("resolve-dots", line+" + "+r) // Equal would remove the dots
				case uri.Equal(got, want):
				case got.HasQuery() && got.Query() == "" && !want.HasQuery():
					note("empty-query", line+" + "+r) // url.URL loses "?" of the base
				case u.HasAuthority() && u.Host() == "" && !want.HasAuthority():
					note("empty-authority", line+" + "+r) // and "//" of an empty host
				case v.Opaque != "":
					note("opaque", line+" + "+r) // "urn:x" + "g": merged as a path here
				default:
					note("resolve-other", line+" + "+r)
				}
			}
		}
	}
	var classes []string
	for c := range found {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		row, ok := neturlRows[c]
		switch {
		case !ok:
			t.Errorf("a difference of no class %q (the table may not cover it), e.g. %q", c, found[c][:min(len(found[c]), 5)])
		case !strings.Contains(table, row):
			t.Errorf("class %s (e.g. %q): the table does not say %q", c, found[c], row)
		default:
			t.Logf("%s: e.g. %q", c, found[c])
		}
	}
	if _, ok := found["hostname-decoded"]; !ok {
		t.Error("the differential misses Hostname's decoding")
	}
	t.Logf("%d lines both parse; %d classes of difference", n, len(found))
}

// hasDotSegment reports whether the path p has a "." or ".." segment.
func hasDotSegment(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}
