package compare_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/urikit/urikit/whatwg"
)

// The differential test of "uri links --browser" and "uri base
// --browser" against headless Chromium (issue 21): on generated pages,
// each a.href must be, byte for byte, the "uri" that "uri links
// --browser --json" prints, an href Chromium's URL parser rejects must
// be an error there, and document.baseURI must be what "uri base
// --browser" prints. The pages hold the inputs of the web-platform-
// tests' urltestdata.json (one page per base of the file, the base as a
// base element) and hostile hrefs and bases (tabs, newlines, C0
// controls and spaces, backslashes, IDN, IPv4 forms, percent-encoded
// hosts). Chromium departs from the URL Standard in a few known places;
// each disagreement must fall under one of them (chromiumDeparture),
// with its reason, or the test fails.

// wptCase is one test of urltestdata.json, the fields used here.
type wptCase struct {
	Input string  `json:"input"`
	Base  *string `json:"base"`
}

// A testPage is a generated page and the href of its first base element
// that counts (nil when none does).
type testPage struct {
	html string
	base *string
}

// wptPages returns the pages made from urltestdata.json: the inputs
// grouped by base, each group a page whose base element has that base
// (none for a null base: the page's own URL is then the base).
func wptPages(t *testing.T) []testPage {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "conformance", "whatwg", "urltestdata.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	groups, order := map[string][]string{}, []string{}
	for _, r := range raw {
		var c wptCase
		if json.Unmarshal(r, &c) != nil || r[0] != '{' {
			continue // a comment string
		}
		key := "\x00none"
		if c.Base != nil {
			key = *c.Base
		}
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], c.Input)
	}
	var pages []testPage
	for _, key := range order {
		var p strings.Builder
		var base *string
		p.WriteString("<!doctype html><html><head><meta charset=utf-8>")
		if key != "\x00none" {
			p.WriteString(`<base href="` + html.EscapeString(key) + `">`)
			base = &key
		}
		p.WriteString("</head><body>\n")
		for _, in := range groups[key] {
			p.WriteString(`<a href="` + html.EscapeString(in) + `">x</a>` + "\n")
		}
		p.WriteString("</body></html>")
		pages = append(pages, testPage{p.String(), base})
	}
	return pages
}

// Hostile hrefs and bases for the URL Standard: what it strips and
// repairs, IPv4 in every form, IDN, percent-encoded hosts, file URLs.
var (
	whatwgHrefs = append(append([]string{}, browserHrefs...),
		"http://127.1/", "http://0x7f000001/", "http://2130706433/", "http://0177.0.0.1/", "http://1.2.3.4./",
		"http://1.2.3.256/", "http://1.2.3.08/", "http://0x100000000/", "http://1.2.3.4.5/", "http://foo.0x4/",
		"http://[::ffff:127.0.0.1]/", "http://[0:0::1]/", "http://[1:2:3:4:5:6:7:8:9]/", "http://[::1]:0080/",
		"http://MÜNCHEN.example/", "http://straße.example/", "http://ｆｕｌｌ.example/", "http://a。b.example/",
		"http://xn--mnchen-3ya.example/", "http://xn--/", "http://a\u200db.example/", "http://%41.example/",
		"http://%e2%98%83.example/", "http://a%00b/", "http://a\x01b/", "http://a<b/", "http://a^b/",
		`http:\\h.example\p`, `https:/\h.example/`, `\/h.example/`, "HTTP:/h.example/", "ws:x", "file:c:\\x",
		"file:///C|/x", "//h.example:8080/", "http://h.example:65536/", "http://h.example:/", "http://u@:80/",
		"sc://ho st/", "sc://h.example/a b?c d#e f", "non-spec:/.//p", "a\x7fb", "/%2e%2E/x", "/a/%2e./b",
		"?\x01\"'<>`", "#\x01\"<>`", "http://h.example/\u00e9?\u00e9#\u00e9", "javascript:\ta", "blob:http://h.example/x",
	)
	whatwgBases = append(append([]string{}, browserBases...),
		"http://0x7f.1/d/", `https:\\b.example\d\`, "http://B\u00dcCHER.example/", "file:///tmp/", "sc://h/p",
		"about:blank", "http://b.example:443/", "https://u:p@b.example/",
	)
)

// whatwgPage generates a hostile page: maybe a base element (in a
// template or SVG too, which do not count), 20 links with noise slipped
// in, and a later base element that never counts.
func whatwgPage(rng *rand.Rand) testPage {
	var b strings.Builder
	var base *string
	b.WriteString("<!doctype html><html><head><meta charset=utf-8>")
	if rng.IntN(4) == 0 {
		b.WriteString(`<template><base href="http://template.example/"></template>`)
	}
	if rng.IntN(4) == 0 {
		b.WriteString(`<svg><base href="http://svg.example/"/></svg>`)
	}
	if i := rng.IntN(len(whatwgBases) + 2); i < len(whatwgBases) {
		b.WriteString(`<base href="` + html.EscapeString(whatwgBases[i]) + `">`)
		base = &whatwgBases[i]
	}
	writeNoisyLinks(&b, rng, whatwgHrefs)
	return testPage{b.String(), base}
}

func TestBrowserLinksAgainstChromium(t *testing.T) {
	bin := chromiumPath(t)
	docs := wptPages(t)
	nWPT := len(docs)
	rng := rand.New(rand.NewPCG(21, 4))
	for range 40 {
		docs = append(docs, whatwgPage(rng))
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var i int
		if _, err := fmt.Sscanf(r.URL.Path, "/p/%d.html", &i); err != nil || i < 0 || i >= len(docs) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(docs[i].html))
	}))
	defer srv.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.Flag("no-first-run", true))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()

	agreed, bases, listed, example := 0, 0, map[string]int{}, map[string]string{}
	list := func(reason, what string) {
		if listed[reason]++; listed[reason] == 1 {
			example[reason] = what
		}
	}
	for i := range docs {
		// Half the hostile pages have a query and a fragment, which
		// document.baseURI keeps.
		page := fmt.Sprintf("%s/p/%d.html", srv.URL, i)
		if i >= nWPT && i%2 == 1 {
			page += "?q=%C3%A9#top"
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(page)); err != nil {
			t.Fatalf("page %d: %v", i, err)
		}
		res, err := chromedp.Run(ctx, chromedp.Evaluate[string](browserScript))
		if err != nil {
			t.Fatalf("page %d: %v", i, err)
		}
		var bd browserDoc
		if err := json.Unmarshal([]byte(res), &bd); err != nil {
			t.Fatalf("page %d: %v", i, err)
		}

		out, errOut, code := uriCmd(t, docs[i].html, "base", "--browser", "--url", page)
		if code != 0 {
			t.Fatalf("page %d: uri base --browser: exit %d, %s", i, code, errOut)
		}
		base := strings.TrimSuffix(out, "\n")
		baseDeparts := ""
		if base != bd.Base {
			baseDeparts = chromiumBaseDeparture(page, docs[i].base, base, bd.Base)
			if baseDeparts == "" {
				t.Errorf("page %d: uri base --browser %q, Chromium's document.baseURI %q\n%s", i, base, bd.Base, docs[i].html)
				continue
			}
			list(baseDeparts, base+" / "+bd.Base)
		} else {
			bases++
		}
		out, _, _ = uriCmd(t, docs[i].html, "links", "--browser", "--json", "--url", page)
		ours := jsonLines(t, out)
		if len(ours) != len(bd.Links) {
			t.Fatalf("page %d: %d links, Chromium %d", i, len(ours), len(bd.Links))
		}
		for k, bl := range bd.Links {
			o := ours[k]
			got, _ := o["uri"].(string)
			okOurs := o["error"] == nil
			if okOurs == bl.OK && (!okOurs || got == bl.Href) {
				agreed++
				continue
			}
			ref, _ := o["ref"].(string)
			chromium := bl.Href
			if !bl.OK {
				chromium = "failure"
			}
			ourSide := got
			if !okOurs {
				ourSide = fmt.Sprint("failure (", o["error"], ")")
			}
			if baseDeparts != "" {
				// Parsed with Chromium's base, the link must agree, or
				// depart in one of the known ways.
				got, okOurs = parseWithBase(bd.Base, ref)
				if okOurs == bl.OK && (!okOurs || got == bl.Href) {
					list("a link on a page whose base Chromium reads apart from the standards, which agrees once parsed with Chromium's base", ref)
					continue
				}
			}
			if reason := chromiumDeparture(ref, base, got, okOurs, bl.Href, bl.OK); reason != "" {
				list(reason, fmt.Sprintf("%q: ours %s, Chromium %s", ref, ourSide, chromium))
				continue
			}
			t.Errorf("page %d link %d %q (base %q): uri links --browser %s, Chromium %s", i, k, ref, base, ourSide, chromium)
		}
	}
	t.Logf("%d pages (%d of urltestdata), %d bases and %d links agree with Chromium", len(docs), nWPT, bases, agreed)
	reasons := make([]string, 0, len(listed))
	for r := range listed {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		t.Logf("Chromium departs, %d, such as %s: %s", listed[r], example[r], r)
	}
	if agreed < 1000 {
		t.Errorf("only %d links agree", agreed)
	}
}

// parseWithBase parses ref with the base Chromium gives, by the URL
// Standard, and returns the href. A base with a space in its host
// (Chromium writes it %20, where the standard fails) is parsed with a
// stand-in host, put back in the result.
func parseWithBase(base, ref string) (string, bool) {
	const stand = "x-space-x"
	a := authority(base)
	spaced := strings.Contains(a, "%20")
	if spaced {
		base = strings.Replace(base, a, strings.ReplaceAll(a, "%20", stand), 1)
	}
	b, err := whatwg.Parse(base)
	if err != nil {
		return "", false
	}
	u, err := whatwg.ParseRef(b, ref)
	if err != nil {
		return "", false
	}
	h := u.Href()
	if spaced {
		h = strings.Replace(h, stand, "%20", -1)
	}
	return h, true
}

// chromiumBaseDeparture names how Chromium's document.baseURI departs
// from the HTML standard and the URL Standard, given the page's URL, the
// href of its first base element, and ours, or "".
func chromiumBaseDeparture(page string, href *string, ours, chromium string) string {
	if href == nil {
		return ""
	}
	doc, _ := whatwg.Parse(page)
	_, err := whatwg.ParseRef(doc, *href)
	switch {
	case chromium == "about:blank" && err != nil && ours == page:
		return "Chromium's document.baseURI is about:blank when the first base href fails to parse; the HTML standard's frozen base URL is then the fallback base URL, the document's URL (4.2.3)"
	case strings.Contains(authority(chromium), "%20") && err != nil && ours == page:
		return "Chromium escapes a space in a base href's host as %20; to the URL Standard a space is a forbidden host code point, parsing fails, and the frozen base URL is the fallback base URL"
	case strings.TrimFunc(*href, func(r rune) bool { return r <= ' ' }) == "" && chromium == page && ours == strings.Split(page, "#")[0]:
		return "Chromium ignores a base href that is empty once stripped, keeping the document's URL with its fragment; the standard parses \"\" against the fallback base URL, which drops the fragment (no link inherits it)"
	}
	if r := fileSlashes(ours, chromium); r != "" {
		return r
	}
	return ""
}

// authority returns the authority of a URL string, or "".
func authority(s string) string {
	_, rest, ok := strings.Cut(s, "://")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// chromiumSchemes are the schemes Chromium registers as its own
// "standard" schemes, which it parses as special ones.
var chromiumSchemes = []string{"chrome", "chrome-extension", "chrome-distiller", "chrome-native", "chrome-search", "chrome-untrusted", "devtools", "isolated-app"}

// chromiumDeparture names the known way Chromium's URL parser departs
// from the URL Standard that explains a disagreement on ref parsed with
// base, or "". Each is a web-platform-test that Chromium fails.
func chromiumDeparture(ref, base, ours string, oursOK bool, chromium string, chromiumOK bool) string {
	low := strings.ToLower(ref)
	scheme, _, _ := strings.Cut(low, ":")
	for _, s := range chromiumSchemes {
		if scheme == s {
			return "Chromium parses its own schemes (chrome-extension:, isolated-app:, ...) as special ones: port 0 dropped; to the standard they are not special (WPT \"chrome-extension://x:0\")"
		}
	}
	if !oursOK && chromiumOK {
		switch {
		case strings.Contains(authority(chromium), "%20"):
			return "Chromium escapes a space in a host as %20 (typed, percent-encoded, or mapped from U+00A0 or U+3000 by IDNA); to the standard it is a forbidden host code point and parsing fails (WPT \"http://a b/\", \"http://ho%20st/\", \"http://GOO\\u00a0\\u3000goo.com\")"
		case strings.ContainsAny(authority(ref), "%％"):
			return "Chromium percent-decodes a host before IPv6 parsing, or again after IDNA maps a full-width '％'; the standard decodes once and then fails on '%', '[' or ']' (WPT \"http://%5B::1]\", \"http://[::%31]\", \"http://％４１.com\")"
		}
	}
	if oursOK && chromiumOK && scheme == "data" && stripEncodedTabs(chromium) == ours {
		return "Chromium keeps a tab or newline inside a data: URL, percent-encoded; the standard removes every one first (4.4: \"Remove all ASCII tab or newline from input\")"
	}
	if oursOK && strings.HasPrefix(ours, "file:") {
		if r := fileSlashes(ours, chromium); r != "" {
			return r
		}
		if chromiumOK && strings.HasPrefix(chromium, "file://localhost") && ours == "file://"+strings.TrimPrefix(chromium, "file://localhost") {
			return "Chromium keeps localhost as a file URL's host; the standard empties it (file host state: \"If host is \"localhost\", then set host to the empty string\"; WPT \"file://localhost/test\")"
		}
		if u, err := whatwg.Parse(ours); err == nil && startsWithDriveLetter(u.Pathname()) {
			return "Chromium on Linux reads no Windows drive letter (\"C:\", \"C|\") in a file URL: the standard keeps it at the start of the path against \"..\" and \"/\", moves it out of the host and writes \"|\" as \":\" (WPT \"file:c:\\\\foo\\\\bar.html\", \"//C:/\", \"C|/\")"
		}
	}
	if oursOK && chromiumOK {
		if r := chromiumEncoding(ours, chromium); r != "" {
			return r
		}
	}
	if b, err := whatwg.Parse(base); err == nil && !b.IsSpecial() && strings.HasPrefix(ref, `\`) {
		return "Chromium reads a reference that starts with '\\' against a non-special base as if '\\' were '/'; to the standard '\\' is a path code point there (WPT \"\\\\a\", \"\\\\/a\" against \"foo://foo/a\")"
	}
	return ""
}

// fileSlashes reports Chromium's collapsing of the empty segments at the
// start of a file URL's path.
func fileSlashes(ours, chromium string) string {
	if strings.HasPrefix(ours, "file:////") && strings.HasPrefix(chromium, "file:///") &&
		strings.TrimLeft(ours[len("file:///"):], "/") == strings.TrimLeft(chromium[len("file:///"):], "/") {
		return "Chromium collapses the empty segments at the start of a file URL's path; the standard keeps them (WPT \"file:////one/two\" against \"file:///\", \"/////mouse\")"
	}
	return ""
}

// startsWithDriveLetter reports whether a path starts with "/X:" or
// "/X|", a Windows drive letter.
func startsWithDriveLetter(p string) bool {
	return len(p) >= 3 && p[0] == '/' && ('a' <= p[1]|0x20 && p[1]|0x20 <= 'z') && (p[2] == ':' || p[2] == '|') && (len(p) == 3 || strings.ContainsRune("/\\?#", rune(p[3])))
}

// stripEncodedTabs removes the percent-encoded tabs and newlines of s.
func stripEncodedTabs(s string) string {
	return strings.NewReplacer("%09", "", "%0A", "", "%0D", "").Replace(s)
}

// chromiumEncoding reports the code points Chromium percent-encodes
// where the standard does not: "'" in userinfo and in a non-special
// URL's query, '*' in a host, '|' in a path, and a space at the end of
// an opaque path before '?' or '#' which the standard (since 2025)
// writes as %20. ours must turn into chromium by those alone.
func chromiumEncoding(ours, chromium string) string {
	u, err := whatwg.Parse(ours)
	if err != nil || u.HasOpaquePath() && strings.HasPrefix(u.Pathname(), "/.") {
		return ""
	}
	var reasons []string
	sub := func(v, from, to, reason string) string {
		if w := strings.ReplaceAll(v, from, to); w != v {
			reasons = append(reasons, reason)
			return w
		}
		return v
	}
	var b strings.Builder
	b.WriteString(u.Protocol())
	if u.HasHost() {
		b.WriteString("//")
		user := sub(u.Username(), "'", "%27", "' in userinfo")
		pass := sub(u.Password(), "'", "%27", "' in userinfo")
		b.WriteString(user)
		if pass != "" {
			b.WriteString(":" + pass)
		}
		if user != "" || pass != "" {
			b.WriteString("@")
		}
		b.WriteString(sub(u.Hostname(), "*", "%2A", "* in a host"))
		if u.Port() != "" {
			b.WriteString(":" + u.Port())
		}
	}
	p := u.Pathname()
	if u.HasOpaquePath() {
		if strings.HasSuffix(p, "%20") {
			p = strings.TrimSuffix(p, "%20") + " "
			reasons = append(reasons, "the space before '?' or '#' at the end of an opaque path, which the standard writes as %20 (WPT \"non-special:opaque  ?hi\")")
		}
	} else {
		p = sub(p, "|", "%7C", "| in a path")
	}
	b.WriteString(p)
	q := u.Search()
	if !u.IsSpecial() {
		q = sub(q, "'", "%27", "' in a non-special URL's query")
	}
	b.WriteString(q)
	b.WriteString(u.Hash())
	if b.String() != chromium || len(reasons) == 0 {
		return ""
	}
	sort.Strings(reasons)
	return "Chromium percent-encodes what the standard's encode sets leave (WPT \"foo://host/ !\\\"$%&'()*+,-./:;<=>@[\\\\]^_`{|}~\", \"http://!\\\"$&'()*+,-.;=_`{}~/\"): " + strings.Join(slicesCompact(reasons), ", ")
}

func slicesCompact(s []string) []string {
	var out []string
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// TestChromiumDepartureRefuses: the known departures explain only
// disagreements of their own shape; any other is a bug, and the
// classifiers must say so (no browser needed).
func TestChromiumDepartureRefuses(t *testing.T) {
	for _, tt := range []struct {
		ref, base, ours string
		oursOK          bool
		chromium        string
		chromiumOK      bool
	}{
		{"x", "http://b/", "http://b/x", true, "http://b/y", true},
		{"http://a b/", "http://b/", "", false, "http://a%2Fb/", true},
		{"http://h/a'b", "http://b/", "http://h/a'b", true, "http://h/a%27b", true}, // ' in a path is not one
		{"sc://h/?'", "http://b/", "sc://h/?'", true, "sc://h/?%22", true},
		{"file:///tmp/x", "http://b/", "file:///tmp/x", true, "file:///tmp/y", true},
		{"/x", "sc://h/p", "sc://h/x", true, "sc://h/y", true},
		{"data:,a", "http://b/", "data:,a", true, "data:,a%20", true},
	} {
		if r := chromiumDeparture(tt.ref, tt.base, tt.ours, tt.oursOK, tt.chromium, tt.chromiumOK); r != "" {
			t.Errorf("%q: ours %q, Chromium %q explained as %q", tt.ref, tt.ours, tt.chromium, r)
		}
	}
	// And each explains its own.
	for _, tt := range []struct {
		ref, base, ours string
		oursOK          bool
		chromium        string
		chromiumOK      bool
	}{
		{"http://a b/", "http://b/", "", false, "http://a%20b/", true},
		{"sc://h/?'", "http://b/", "sc://h/?'", true, "sc://h/?%27", true},
		{"file://localhost/x", "http://b/", "file:///x", true, "file://localhost/x", true},
		{"data:,a\tb", "http://b/", "data:,ab", true, "data:,a%09b", true},
	} {
		if r := chromiumDeparture(tt.ref, tt.base, tt.ours, tt.oursOK, tt.chromium, tt.chromiumOK); r == "" {
			t.Errorf("%q: ours %q, Chromium %q not explained", tt.ref, tt.ours, tt.chromium)
		}
	}
	if r := chromiumBaseDeparture("http://p/x#f", ptr("http://b/"), "http://b/", "http://c/"); r != "" {
		t.Errorf("base explained as %q", r)
	}
}

func ptr(s string) *string { return &s }
