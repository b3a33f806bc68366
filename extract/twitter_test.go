package extract

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urikit/urikit/iri"
	"github.com/urikit/urikit/uri"
)

// twitterCase is one URL case of twitter-text's conformance file
// (testdata/twitter-text/extract-urls.yml, the "urls" section of
// twitter/twitter-text conformance/extract.yml at 30e2430, Apache-2.0).
type twitterCase struct {
	description, text string
	expected          []string
}

// readTwitter reads the cases; their "text" and "expected" values are
// YAML double-quoted strings and flow sequences of them, which JSON
// reads the same.
func readTwitter(t *testing.T) []twitterCase {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "twitter-text", "extract-urls.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []twitterCase
	var c twitterCase
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "- description: "):
			json.Unmarshal([]byte(strings.TrimPrefix(l, "- description: ")), &c.description)
		case strings.HasPrefix(l, "text: "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(l, "text: ")), &c.text); err != nil {
				t.Fatalf("%s: %v", l, err)
			}
		case strings.HasPrefix(l, "expected: "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(l, "expected: ")), &c.expected); err != nil {
				t.Fatalf("%s: %v", l, err)
			}
			cases = append(cases, c)
			c = twitterCase{}
		}
	}
	return cases
}

// twitterDifference says why we differ from twitter-text on a URL, or
// "" when no reason is listed. twitter-text finds links for tweets,
// with a TLD list and no scheme needed; we follow Appendices E and F.
func twitterDifference(want string, got []string) string {
	lw := strings.ToLower(want)
	switch {
	case !strings.Contains(lw, "://"):
		return "a bare domain name is not a URL (Appendix F completes www. and ftp. hosts only)"
	case !isASCIIString(want):
		return "non-ASCII text (an IRI): found by us up to Appendix E's stop characters, where twitter-text ends it by its own character classes"
	}
	if _, err := uri.Parse(want); err != nil {
		return "twitter-text's URL is not a URI by RFC 3986 (a character that must be percent-encoded): the URI ends before it"
	}
	for _, g := range got {
		if strings.HasPrefix(want, g) || strings.HasPrefix(g, want) {
			return "the end of the URI: Appendix E's stop characters and trailing punctuation, where twitter-text uses its own"
		}
		if !isASCIIString(g) && strings.Contains(g, want) {
			return "a URI run into CJK prose without a space: an IRI may hold those characters, so Appendix E's rules (whitespace and delimiters end a URI) read one IRI"
		}
	}
	return ""
}

// twitterExtra says why we find a URI, g in text, that twitter-text
// does not, or "".
func twitterExtra(g, text string) string {
	if !isASCIIString(g) {
		if m, err := iri.ToURI(g); err == nil {
			g = m.String()
		}
	}
	u, err := uri.Parse(g)
	if err != nil || !u.HasScheme() {
		return ""
	}
	h := u.Host()
	switch i := strings.Index(text, g); {
	case i > 0 && strings.IndexByte("#@$", text[i-1]) >= 0:
		return "Appendix E does not look at the character before a URI: a \"#\", \"@\" or \"$\" before it is text (twitter-text skips hashtags, mentions and cashtags)"
	case strings.Contains(h, "_") || strings.Contains(h, "-.") || strings.Contains(h, ".-") || strings.HasPrefix(h, "-") || strings.HasSuffix(h, "-") || !strings.Contains(h, ".") || longLabel(h):
		return "a host that DNS names cannot be (RFC 1034 3.5's letters, digits and inner hyphens; a dotted name; 63-octet labels) is still a reg-name of RFC 3986 3.2.2, which allows any unreserved character: twitter-text checks DNS rules, a URI extractor does not"
	case !isTLD(h[strings.LastIndex(h, ".")+1:]):
		return "twitter-text knows top-level domains; RFC 3986 does not (any name is a reg-name)"
	case len(g) > 40 && strings.Contains(h, "t.co"):
		return "twitter-text limits t.co paths to 40 characters, a rule of that service"
	}
	return ""
}

// TestTwitterText runs twitter-text's URL cases; every difference must
// have a reason.
func TestTwitterText(t *testing.T) {
	cases := readTwitter(t)
	if len(cases) < 80 {
		t.Fatalf("%d cases", len(cases))
	}
	same, differ := 0, map[string]int{}
	for _, c := range cases {
		var got []string
		s := NewScanner(strings.NewReader(c.text), Options{Map: iri.ToURI})
		for s.Scan() {
			// An IRI is compared as found (Raw), since twitter-text
			// reports it so; its URI is the mapped one.
			if m := s.Match(); m.IRI {
				got = append(got, m.Raw)
			} else {
				got = append(got, m.URI)
			}
		}
		if strings.Join(got, "\n") == strings.Join(c.expected, "\n") {
			same++
			continue
		}
		found := map[string]bool{}
		for _, g := range got {
			found[g] = true
		}
		for _, w := range c.expected {
			if found[w] {
				continue
			}
			why := twitterDifference(w, got)
			if why == "" {
				t.Errorf("twitter-text %q (%s): want %q, we find %q, and no reason is listed", c.text, c.description, w, got)
				continue
			}
			differ[why]++
		}
		want := map[string]bool{}
		for _, w := range c.expected {
			want[w] = true
		}
		for _, g := range got {
			if want[g] {
				continue
			}
			matched := false
			for _, w := range c.expected {
				if strings.HasPrefix(w, g) || strings.HasPrefix(g, w) {
					matched = true // counted above as the end of the URI
				}
			}
			if matched {
				continue
			}
			why := twitterExtra(g, c.text)
			if why == "" {
				t.Errorf("twitter-text %q (%s): we find %q, which it does not, and no reason is listed", c.text, c.description, g)
				continue
			}
			differ[why]++
		}
	}
	t.Logf("%d of %d cases as twitter-text; differences:", same, len(cases))
	for why, n := range differ {
		t.Logf("  %3d  %s", n, why)
	}
}

func longLabel(h string) bool {
	for l := range strings.SplitSeq(h, ".") {
		if len(l) > 63 {
			return true
		}
	}
	return false
}

// isTLD reports whether s has the shape of a top-level domain: two or
// more letters (or an A-label).
func isTLD(s string) bool {
	if strings.HasPrefix(s, "xn--") {
		return true
	}
	for i := 0; i < len(s); i++ {
		if !('a' <= s[i]|0x20 && s[i]|0x20 <= 'z') {
			return false
		}
	}
	return len(s) >= 2
}
