package uri_test

// Resolution and relativization vectors of other projects, read from
// testdata/conformance/rfc3986 (the permissive suites; testdata/README.md
// gives origins and licences) and $URIKIT_SHARED/conformance/rfc3986
// (uriparser's LGPL extracts, left out without it). Every vector must pass, except the disagreements listed in
// resolveKnownDiffs, each with the spec reason; a listed difference that
// starts passing fails the test too, so the table stays honest.

import (
	"slices"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
)

// resolveKnownDiff is a vector where the other project's expectation
// and ours differ, with the reason the spec gives for ours.
type resolveKnownDiff struct {
	theirs, ours, reason string
}

// Reasons shared by several rows.
const (
	whyRootless    = "RFC 3986 5.2.4 read literally: rule C removes the last output segment and its preceding \"/\" if any, so a rootless merged path that climbs gives a rooted one (\"a/../c\" -> \"/c\"); the peer expects the RFC 2396 step 6e result (conformance README)"
	whyRelBase     = "relative base: RFC 3986 5.2 applied literally (documented on Resolve), where remove_dot_segments rule A drops leading \"../\" and \"./\"; oxiri keeps them to compose relative references"
	whyNoError     = "RFC 3986 5.2 defines a result for every base and reference; Resolve has no error (oxiri rejects a relative base that its algorithm cannot resolve)"
	whyShorter     = "ours is shorter and resolves to the same target (RFC 3986 5.2.2-5.2.4): Relativize returns the shortest reference"
	whyLoophole    = "RFC 3986 5.2.2 strict parser: a reference with a scheme is absolute; the peer tests the RFC 1630 same-scheme loophole (backward compatibility), RFC 3986 5.4.2 gives http:g"
	whyBaseDots    = "RFC 3986 5.2.2: when R.path is empty, T.path = Base.path as it is (dot segments are removed only from merged or reference paths); oxiri normalizes the base too. iri-string.resolve.json agrees with ours (http://a/b/c/d/e/../.. + \"\" keeps its dots)"
	whySlashSlash  = "RFC 3986 5.2.4 gives the path \"//g\", which written after \"f:\" would read as the authority \"g\" (RFC 3986 3.3: without an authority a path cannot begin with \"//\"); Resolve writes the same path as \"/.//g\" (conformance README)"
	whyTheirJoin   = "RFC 3986 5.2.3-5.2.4: \"./\" against http://ex/a/b merges to \"/a/./\" and gives http://ex/a/, not http://ex (the suite's pair holds only for its own relativization)"
	whyEmptyPath   = "their \"./\" resolves to http://ex/a/ (RFC 3986 5.2.3); an empty path under an authority is reachable only through a network-path reference (RFC 3986 5.2.2)"
	whyTie         = "equally short; Relativize prefers the reference that keeps more of the base (a relative path over an absolute one), as documented"
	whyStrictSplit = "RFC 3986 5.2.2 strict parser: \"this\" resolves to http://example.org/base/this, not to http:this; only the absolute target itself resolves to it"
)

// resolveKnownDiffs is keyed by file, list and inputs: see vectorKey.
var resolveKnownDiffs = map[string]resolveKnownDiff{
	"oxiri.resolve_ref_base_expected.json resolve http://a/bb/ccc/./d;p?q | ?y":                 {"http://a/bb/ccc/d;p?y", "http://a/bb/ccc/./d;p?y", whyBaseDots},
	"oxiri.resolve_ref_base_expected.json resolve http://a/bb/ccc/./d;p?q | #s":                 {"http://a/bb/ccc/d;p?q#s", "http://a/bb/ccc/./d;p?q#s", whyBaseDots},
	"oxiri.resolve_ref_base_expected.json resolve http://a/bb/ccc/./d;p?q | ":                   {"http://a/bb/ccc/d;p?q", "http://a/bb/ccc/./d;p?q", whyBaseDots},
	"oxiri.resolve_ref_base_expected.json resolve http://a/bb/ccc/../d;p?q | ?y":                {"http://a/bb/d;p?y", "http://a/bb/ccc/../d;p?y", whyBaseDots},
	"oxiri.resolve_ref_base_expected.json resolve http://a/bb/ccc/../d;p?q | #s":                {"http://a/bb/d;p?q#s", "http://a/bb/ccc/../d;p?q#s", whyBaseDots},
	"oxiri.resolve_ref_base_expected.json resolve http://a/bb/ccc/../d;p?q | ":                  {"http://a/bb/d;p?q", "http://a/bb/ccc/../d;p?q", whyBaseDots},
	"oxiri.resolve_ref_base_expected.json resolve http://a/bb/ccc/. | ?y":                       {"http://a/bb/ccc/?y", "http://a/bb/ccc/.?y", whyBaseDots},
	"oxiri.resolve_ref_base_expected.json resolve http://a/bb/ccc/. | #s":                       {"http://a/bb/ccc/#s", "http://a/bb/ccc/.#s", whyBaseDots},
	"oxiri.resolve_ref_base_expected.json resolve http://a/bb/ccc/. | ":                         {"http://a/bb/ccc/", "http://a/bb/ccc/.", whyBaseDots},
	"oxiri.resolve_ref_base_expected.json resolve http://a/bb/ccc/.. | ?y":                      {"http://a/bb/?y", "http://a/bb/ccc/..?y", whyBaseDots},
	"oxiri.resolve_ref_base_expected.json resolve http://a/bb/ccc/.. | #s":                      {"http://a/bb/#s", "http://a/bb/ccc/..#s", whyBaseDots},
	"oxiri.resolve_ref_base_expected.json resolve http://a/bb/ccc/.. | ":                        {"http://a/bb/", "http://a/bb/ccc/..", whyBaseDots},
	"oxiri.resolve_relative_base_ref_base_expected.json resolve ./foo/bar | baz":                {"./foo/baz", "foo/baz", whyRelBase},
	"oxiri.resolve_relative_base_ref_base_expected.json resolve ../foo/bar | baz":               {"../foo/baz", "foo/baz", whyRelBase},
	"oxiri.resolve_relative_base_ref_base_expected.json resolve ././foo/bar | baz":              {"././foo/baz", "foo/baz", whyRelBase},
	"oxiri.resolve_relative_base_ref_base_expected.json resolve ../../foo/bar | baz":            {"../../foo/baz", "foo/baz", whyRelBase},
	"oxiri.resolve_relative_base_ref_base_expected.json resolve  | .":                           {".", "", whyRelBase},
	"oxiri.invalid_resolutions_ref_base.json resolve x: | .///C:::":                             {"(error)", "x:/.//C:::", whyNoError},
	"oxiri.invalid_resolutions_ref_base.json resolve a | ..":                                    {"(error)", "", whyNoError},
	"oxiri.invalid_resolutions_ref_base.json resolve .. | a":                                    {"(error)", "a", whyNoError},
	"oxiri.invalid_resolutions_ref_base.json resolve ../.. | a":                                 {"(error)", "a", whyNoError},
	"oxiri.invalid_resolutions_ref_base.json resolve a | ../..":                                 {"(error)", "", whyNoError},
	"oxiri.relativize.json relativize http://example.com/ | http://example.com//a":              {"//example.com//a", ".//a", whyShorter},
	"oxiri.relativize.json relativize urn: | urn:isbn:foo":                                      {"urn:isbn:foo", "./isbn:foo", whyShorter},
	"oxiri.relativize.json relativize x:02 | x:":                                                {"x:", ".", whyShorter},
	"oxiri.relativize.json relativize x:?foo | x:":                                              {"x:", ".", whyShorter},
	"oxiri.relativize.json relativize t:o/ | t:o//":                                             {"t:o//", ".//", whyShorter},
	"uriparser.FourSuite.json absolutize foo:a/b | ../c":                                        {"foo:c", "foo:/c", whyRootless},
	"uriparser.FourSuite.json absolutize zz:abc | foo/../../../bar":                             {"zz:bar", "zz:/bar", whyRootless},
	"uriparser.FourSuite.json absolutize zz:abc | foo/../bar":                                   {"zz:bar", "zz:/bar", whyRootless},
	"uriparser.FourSuite.json relativize s://ex/a/d/c/d | s://ex/a/b/c/d":                       {"../../b/c/d", "/a/b/c/d", whyShorter},
	"uriparser.FourSuite.json relativize s://ex/a/c/d/e | s://ex/a/b/":                          {"../../b/", "/a/b/", whyShorter},
	"uriparser.FourSuite.json relativize s://ex/a//b/c | s://ex/a/b":                            {"../../b", "/a/b", whyShorter},
	"uriparser.FourSuite.json relativize s://ex/a///b | s://ex/a/":                              {"../../", "/a/", whyShorter},
	"uriparser.test_cpp.json add_base/backward_compatibility http://a/b/c/d;p?q | http:g":       {"http://a/b/c/g", "http:g", whyLoophole},
	"uriparser.test_cpp.json add_base/backward_compatibility http://a/b/c/d;p?q | http:g?q#f":   {"http://a/b/c/g?q#f", "http:g?q#f", whyLoophole},
	"uriparser.test_cpp.json remove_base http://host/path111/path222 | http://host/path1/path2": {"../path1/path2", "/path1/path2", whyShorter},
	"uriparser.test_cpp.json remove_base http://host/path1/path2 | http://host/path111/path222": {"../path111/path222", "/path111/path222", whyShorter},
	"network-uri.uri001.json relative/split file:/some/dir/foo | file:/some/dir/#blort":         {"./#blort", ".#blort", whyShorter},
	"network-uri.uri001.json relative/split file:/some/dir/foo | file:/some/dir/#":              {"./#", ".#", whyShorter},
	"network-uri.uri001.json relative/split http://ex?p | http://ex/x/y?q":                      {"/x/y?q", "x/y?q", whyShorter},
	"network-uri.uri001.json relative/split http://example/a/x/y/z | http://example/a/x%2Fabc":  {"../../x%2Fabc", "/a/x%2Fabc", whyShorter},
	"network-uri.uri001.json relative/split file:/some/dir/.. | file:/some/dir/#blort":          {"./#blort", ".#blort", whyShorter},
	"network-uri.uri001.json relative/split http://ex | http://ex/x/y?q":                        {"/x/y?q", "x/y?q", whyShorter},
	"network-uri.uri001.json relative/split http://ex#f | http://ex/x/y?q":                      {"/x/y?q", "x/y?q", whyShorter},
	"network-uri.uri001.json relative/split http://ex?p | http://ex/x/y#g":                      {"/x/y#g", "x/y#g", whyShorter},
	"network-uri.uri001.json relative/split http://ex | http://ex/":                             {"/", ".", whyTie},
	"network-uri.uri001.json relative/split http://ex | http://ex/a/b":                          {"/a/b", "a/b", whyShorter},
	"network-uri.uri001.json relative/join http://ex/a/b | ./":                                  {"http://ex", "http://ex/a/", whyTheirJoin},
	"network-uri.uri001.json relative/split http://ex/a/b | http://ex":                          {"./", "//ex", whyEmptyPath},
	"network-uri.uri001.json rel_join f:/a | .//g":                                              {"f://g", "f:/.//g", whySlashSlash},
	"network-uri.uri001.json rel_join f:/a/ | ..//g":                                            {"f://g", "f:/.//g", whySlashSlash},
	"network-uri.uri001.json rel_split http://example.org/base/uri | http:this":                 {"this", "http:this", whyStrictSplit},
}

// resolveStats counts the outcome of the vectors of one file.
type resolveStats struct {
	total, passed, known, iri, lenient int
}

// resolveConformance runs the vectors and keeps the counts.
type resolveConformance struct {
	t     *testing.T
	seen  map[string]bool
	stats map[string]*resolveStats
	files []string
}

func vectorKey(file, kind string, inputs ...string) string {
	return file + " " + kind + " " + strings.Join(inputs, " | ")
}

// isIRI reports whether s has a byte outside ASCII: an IRI, which a
// URI parser must reject (RFC 3987 is out of scope).
func isIRI(ss ...string) bool {
	for _, s := range ss {
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				return true
			}
		}
	}
	return false
}

func (rc *resolveConformance) st(file string) *resolveStats {
	s := rc.stats[file]
	if s == nil {
		s = &resolveStats{}
		rc.stats[file] = s
		rc.files = append(rc.files, file)
	}
	return s
}

// load reads a JSON file into v, or skips when it is missing.
func (rc *resolveConformance) load(file string, v any) bool {
	rc.t.Helper()
	return testshared.OptionalJSON(rc.t, v, "conformance", "rfc3986", file)
}

// parse parses s strictly; on failure it returns the text that stands
// for our answer in the comparison.
func parseOrErr(s string) (uri.URI, string) {
	u, err := uri.Parse(s)
	if err != nil {
		return u, "error: " + err.(*uri.ParseError).Message()
	}
	return u, ""
}

// compare records one vector: theirs against ours.
func (rc *resolveConformance) compare(file, key, theirs, ours string) {
	rc.t.Helper()
	s := rc.st(file)
	s.total++
	rc.seen[key] = true
	if kd, ok := resolveKnownDiffs[key]; ok {
		switch {
		case ours == theirs:
			rc.t.Errorf("%s: listed as a known difference but now passes (%q); remove it from resolveKnownDiffs", key, ours)
		case kd.theirs != theirs || kd.ours != ours:
			rc.t.Errorf("%s: known difference changed: theirs %q ours %q, table says theirs %q ours %q", key, theirs, ours, kd.theirs, kd.ours)
		default:
			s.known++
		}
		return
	}
	if ours != theirs {
		rc.t.Errorf("%s:\n theirs %q\n ours   %q", key, theirs, ours)
		return
	}
	s.passed++
}

// parsePair starts the vector of kind on base and other: it returns the
// vector's key, the two parsed, and the error text that stands for our
// answer ("" when both parse); ok is false for a vector of IRIs, which is
// counted and left out.
func (rc *resolveConformance) parsePair(file, kind, base, other, want string) (key string, b, o uri.URI, errs string, ok bool) {
	key = vectorKey(file, kind, base, other)
	if isIRI(base, other, want) {
		rc.st(file).total++
		rc.st(file).iri++
		return key, b, o, "", false
	}
	b, e1 := parseOrErr(base)
	o, e2 := parseOrErr(other)
	return key, b, o, e1 + e2, true
}

// resolve resolves two strings, or reports why it cannot.
func (rc *resolveConformance) resolve(file, kind, base, ref, want string) {
	rc.t.Helper()
	key, b, r, ours, ok := rc.parsePair(file, kind, base, ref, want)
	if !ok {
		return
	}
	if ours == "" {
		res := b.Resolve(r)
		checkReparse(rc.t, key, res)
		ours = res.String()
		roundTrips(rc.t, key, b, r)
	} else if strings.Contains(file, "unchecked") {
		// oxiri's unchecked resolution takes inputs that are not URI
		// references (spaces, backslashes, control characters).
		rc.st(file).total++
		rc.st(file).lenient++
		rc.t.Logf("%s: lenient input, not a URI reference: %s", key, ours)
		return
	}
	rc.compare(file, key, want, ours)
}

// relativize checks Relativize(base, target) against want ("" with
// ok=false is written "(none)"), and that the answer resolves back.
func (rc *resolveConformance) relativize(file, kind, base, target, want string) {
	rc.t.Helper()
	key, b, tg, ours, ok := rc.parsePair(file, kind, base, target, want)
	if !ok {
		return
	}
	if ours == "" {
		r, relErr := b.Relativize(tg)
		ok := relErr == nil
		ours = "(none)"
		if ok {
			ours = r.String()
			if back := b.Resolve(r).String(); back != target {
				rc.t.Errorf("%s: Relativize gave %q, which resolves to %q", key, ours, back)
			}
		}
	}
	rc.compare(file, key, want, ours)
}

// roundTrips checks the properties that hold for any base and reference:
// the target base+ref is reachable, so Relativize finds a reference, no
// longer than ref, that resolves back to it; the same under the 1998
// draft's algorithm; and every result re-parses into its components.
func roundTrips(t *testing.T, key string, b, r uri.URI) {
	t.Helper()
	target := b.Resolve(r)
	rel, relErr := b.Relativize(target)
	ok := relErr == nil
	if !ok || b.Resolve(rel).String() != target.String() {
		t.Errorf("%s: Relativize(%q) = %q, %v: does not resolve back", key, target, rel, ok)
	} else if len(rel.String()) > len(r.String()) {
		t.Errorf("%s: Relativize(%q) = %q, longer than %q", key, target, rel, r)
	}
	for _, p := range []uri.DotPolicy{uri.KeepDots, uri.DropDots, uri.RejectDots} {
		t2, err := b.Resolve2396(r, p)
		if err != nil {
			continue
		}
		checkReparse(t, key+" (2396)", t2)
		if p != uri.KeepDots {
			continue
		}
		rel2, relErr := b.Relativize2396(t2)
		ok := relErr == nil
		if !ok {
			t.Errorf("%s: Relativize2396(%q): none", key, t2)
			continue
		}
		if back, err := b.Resolve2396(rel2, uri.KeepDots); err != nil || back.String() != t2.String() {
			t.Errorf("%s: Relativize2396(%q) = %q, which resolves to %q", key, t2, rel2, back)
		} else if len(rel2.String()) > len(r.String()) {
			t.Errorf("%s: Relativize2396(%q) = %q, longer than %q", key, t2, rel2, r)
		}
	}
}

func TestResolveConformance(t *testing.T) {
	testshared.Path(t, "conformance", "rfc3986")
	rc := &resolveConformance{
		t:     t,
		seen:  map[string]bool{},
		stats: map[string]*resolveStats{},
	}

	// oxiri: [ref, base, expected].
	for _, f := range []string{
		"oxiri.resolve_ref_base_expected.json",
		"oxiri.resolve_relative_base_ref_base_expected.json",
		"oxiri.resolve_unchecked_ref_base_expected.json",
	} {
		var v [][3]string
		if rc.load(f, &v) {
			for _, c := range v {
				rc.resolve(f, "resolve", c[1], c[0], c[2])
			}
		}
	}
	// oxiri: [ref, base] that oxiri refuses to resolve.
	{
		f := "oxiri.invalid_resolutions_ref_base.json"
		var v [][2]string
		if rc.load(f, &v) {
			for _, c := range v {
				rc.resolve(f, "resolve", c[1], c[0], "(error)")
			}
		}
	}
	// oxiri: [target, base, expected relative] and [target, base].
	{
		f := "oxiri.relativize.json"
		var v [][3]string
		if rc.load(f, &v) {
			for _, c := range v {
				rc.relativize(f, "relativize", c[1], c[0], c[2])
			}
		}
		f = "oxiri.relativize_fails.json"
		var w [][2]string
		if rc.load(f, &w) {
			for _, c := range w {
				rc.relativize(f, "relativize", c[1], c[0], "(none)")
			}
		}
	}
	// uriparser's 4Suite lists.
	{
		f := "uriparser.FourSuite.json"
		var v struct {
			Absolutize []struct{ Ref, Base, Expected string }
			Relativize []struct {
				Target, Base, Expected string
				DomainRootMode         bool `json:"domain_root_mode"`
			}
		}
		if rc.load(f, &v) {
			for _, c := range v.Absolutize {
				rc.resolve(f, "absolutize", c.Base, c.Ref, c.Expected)
			}
			for _, c := range v.Relativize {
				rc.relativize(f, "relativize", c.Base, c.Target, c.Expected)
			}
		}
	}
	// uriparser's test.cpp tables.
	{
		f := "uriparser.test_cpp.json"
		var v struct {
			AddBase []struct {
				Base, Ref, Expected string
				Compat              bool `json:"backward_compatibility"`
			} `json:"add_base"`
			RemoveBase []struct {
				Expected  string
				AbsSource string `json:"abs_source"`
				AbsBase   string `json:"abs_base"`
			} `json:"remove_base"`
		}
		if rc.load(f, &v) {
			for _, c := range v.AddBase {
				kind := "add_base"
				if c.Compat {
					kind = "add_base/backward_compatibility"
				}
				rc.resolve(f, kind, c.Base, c.Ref, c.Expected)
			}
			for _, c := range v.RemoveBase {
				rc.relativize(f, "remove_base", c.AbsBase, c.AbsSource, c.Expected)
			}
		}
	}
	// Graham Klyne's suite in network-uri: "relative" pairs hold both
	// ways, "rel_join" resolves, "rel_split" relativizes.
	{
		f := "network-uri.uri001.json"
		type pair struct{ Label, Base, Abs, Rel string }
		var v struct {
			Relative []pair
			RelJoin  []pair `json:"rel_join"`
			RelSplit []pair `json:"rel_split"`
		}
		if rc.load(f, &v) {
			for _, c := range v.Relative {
				rc.resolve(f, "relative/join", c.Base, c.Rel, c.Abs)
				rc.relativize(f, "relative/split", c.Base, c.Abs, c.Rel)
			}
			for _, c := range v.RelJoin {
				rc.resolve(f, "rel_join", c.Base, c.Rel, c.Abs)
			}
			for _, c := range v.RelSplit {
				rc.relativize(f, "rel_split", c.Base, c.Abs, c.Rel)
			}
		}
	}
	// iri-string: {base, ref, expected}.
	{
		f := "iri-string.resolve.json"
		var v []struct{ Base, Ref, Expected string }
		if rc.load(f, &v) {
			for _, c := range v {
				rc.resolve(f, "resolve", c.Base, c.Ref, c.Expected)
			}
		}
	}

	var sum resolveStats
	for _, f := range rc.files {
		s := rc.stats[f]
		t.Logf("%-52s total %4d  passed %4d  known differences %3d  IRI (out of scope) %3d  lenient input (skipped) %3d",
			f, s.total, s.passed, s.known, s.iri, s.lenient)
		sum.total += s.total
		sum.passed += s.passed
		sum.known += s.known
		sum.iri += s.iri
		sum.lenient += s.lenient
	}
	t.Logf("%-52s total %4d  passed %4d  known differences %3d  IRI (out of scope) %3d  lenient input (skipped) %3d",
		"all", sum.total, sum.passed, sum.known, sum.iri, sum.lenient)
	var stale []string
	for k := range resolveKnownDiffs {
		if !rc.seen[k] && rc.stats[strings.Fields(k)[0]] != nil {
			stale = append(stale, k)
		}
	}
	slices.Sort(stale)
	for _, k := range stale {
		t.Errorf("known difference %s matches no vector", k)
	}
}
