package extract

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urikit/urikit/uri"
)

// linkifyCase is one case of linkify-it's fixtures (testdata/linkify-it,
// markdown-it/linkify-it 8e887d5, MIT): a line of text and the link it
// should hold ("" for a line that holds none).
type linkifyCase struct {
	text, want string
}

// readLinkify reads links.txt (blocks: the text, then the link when it
// differs from the text) or not_links.txt (one text per line). "%"
// starts a comment.
func readLinkify(t *testing.T, name string, links bool) []linkifyCase {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "linkify-it", name))
	if err != nil {
		t.Fatal(err)
	}
	strip := func(l string) string {
		if i := strings.Index(l, " %"); i >= 0 {
			l = l[:i]
		}
		return strings.TrimRight(l, " ")
	}
	var cases []linkifyCase
	var block []string
	end := func() {
		switch {
		case !links:
		case len(block) == 1:
			cases = append(cases, linkifyCase{block[0], block[0]})
		case len(block) >= 2:
			cases = append(cases, linkifyCase{block[0], block[1]})
		}
		block = nil
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "%") {
			continue
		}
		l = strip(l)
		if !links {
			if l != "" {
				cases = append(cases, linkifyCase{l, ""})
			}
			continue
		}
		if l == "" {
			end()
			continue
		}
		block = append(block, l)
	}
	end()
	return cases
}

// linkifyDifference says why we differ from linkify-it on a case, or ""
// when the difference has no listed reason. linkify-it is a heuristic
// for chat and Markdown ("fuzzy links"); we follow the 1998 draft's
// Appendices E and F.
func linkifyDifference(c linkifyCase, got []string) string {
	w := c.want
	lw := strings.ToLower(w)
	switch {
	case w == "" && len(got) > 0:
		for _, g := range got {
			u, err := uri.Parse(g)
			if err != nil || !u.HasScheme() {
				return ""
			}
		}
		return "linkify-it rejects it by its own rules (a host that is not a domain, an unknown TLD, a scheme after \"_\"); it is a URI with a registered scheme by RFC 3986, which we find"
	case strings.HasPrefix(w, "//"):
		return "a network-path reference without a scheme is not a URI in running text (Appendix E finds URIs, whose scheme says what they are)"
	case !strings.Contains(w, ":") && strings.Contains(w, "@"):
		return "a mail address is not a URL (Appendix F completes www. and ftp. hosts only)"
	case !strings.Contains(lw, "://") && !strings.HasPrefix(lw, "mailto:") && !strings.HasPrefix(lw, "www.") && !strings.HasPrefix(lw, "ftp."):
		return "a bare domain name is not a URL: Appendix F's heuristics complete hosts that start with www. or ftp., and \"such heuristics may change\""
	case strings.HasPrefix(lw, "www.") || strings.HasPrefix(lw, "ftp."):
		return "an abbreviated URL: we find it with Abbrev (Appendix F) but end it by Appendix E's rules, not by linkify's TLD list"
	}
	for _, g := range got {
		if strings.HasPrefix(w, g) || strings.HasPrefix(g, w) {
			return "the end of the URI: Appendix E's stop characters and trailing punctuation, where linkify-it uses Markdown-aware rules (it stops at a closing bracket or quote we keep, or keeps one we drop)"
		}
	}
	if _, err := uri.Parse(w); err != nil && isASCIIString(w) {
		return "linkify-it's link is not a URI by RFC 3986 (here \"[\" or \"]\" in a path, 3.3): the URI ends before the first character it cannot hold"
	}
	if !isASCIIString(w) {
		return "non-ASCII text: an IRI, found by us up to a stop character; linkify-it ends it by other rules"
	}
	return ""
}

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// TestLinkify runs linkify-it's fixtures; every case where we differ
// must have a reason in linkifyDifference.
func TestLinkify(t *testing.T) {
	cases := append(readLinkify(t, "links.txt", true), readLinkify(t, "not_links.txt", false)...)
	same, differ := 0, map[string]int{}
	for _, c := range cases {
		var got []string
		s := NewScanner(strings.NewReader(c.text), Options{Abbrev: true})
		for s.Scan() {
			m := s.Match()
			if m.Abbrev {
				got = append(got, m.Raw)
			} else {
				got = append(got, m.URI)
			}
		}
		ok := c.want == "" && len(got) == 0
		for _, g := range got {
			if g == c.want {
				ok = true
			}
		}
		if ok {
			same++
			continue
		}
		why := linkifyDifference(c, got)
		if why == "" {
			t.Errorf("linkify-it case %q: want %q, we find %q, and no reason is listed", c.text, c.want, got)
			continue
		}
		differ[why]++
	}
	t.Logf("%d cases as linkify-it, %d differ:", same, len(cases)-same)
	for why, n := range differ {
		t.Logf("  %3d  %s", n, why)
	}
	if same < 40 {
		t.Errorf("only %d cases agree", same)
	}
}
