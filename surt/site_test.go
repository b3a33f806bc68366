package surt

import (
	"regexp"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// pslVersionDiffs are the cases of the Public Suffix List's test file
// (publicsuffix/list tests/test_psl.txt at 6ca11f5, vendored as
// testdata/surt/psl.test_psl.txt) that the list compiled into
// golang.org/x/net/publicsuffix answers otherwise because it is another
// version of the list. The file was written for the list of its own
// commit; x/net v0.62.0 compiles the list of 2026-02-06 (d6c92f1). None
// differs today; a row added here must say which rule changed.
var pslVersionDiffs = map[string]string{}

var checkPSL = regexp.MustCompile(`^checkPublicSuffix\((null|'[^']*'), (null|'[^']*')\);$`)

// TestPublicSuffixListTests runs the list's own test file on Site: the
// registrable domain under the whole list (ICANN and private sections),
// as browsers and the file's checkPublicSuffix use it.
func TestPublicSuffixListTests(t *testing.T) {
	lines := testshared.Lines(t, "surt", "psl.test_psl.txt")
	n, same := 0, 0
	for _, l := range lines {
		if strings.HasPrefix(l, "//") {
			continue
		}
		m := checkPSL.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("test_psl.txt: unreadable line %q", l)
		}
		in, want := strings.Trim(m[1], "'"), strings.Trim(m[2], "'")
		if m[1] == "null" {
			in = ""
		}
		if m[2] == "null" {
			want = ""
		}
		n++
		got, ok := Site(in)
		if !ok {
			got = ""
		}
		if why, listed := pslVersionDiffs[in]; listed {
			if got == want {
				t.Errorf("test_psl.txt: %q listed as a list-version difference (%s) but agrees", in, why)
			}
			continue
		}
		if got != want {
			t.Errorf("test_psl.txt: Site(%q) = %q, want %q", in, got, want)
			continue
		}
		same++
	}
	if n < 70 {
		t.Fatalf("test_psl.txt: only %d cases read", n)
	}
	t.Logf("test_psl.txt: %d of %d cases as the file says, %d listed list-version differences", same, n, len(pslVersionDiffs))
}

// TestSiteICANN: the ICANN section alone, against the whole list, on
// hosts under private rules of the list and under ICANN ones; and the
// public suffixes that give them. The cases of HandyURLTest.testGetPublicSuffix
// (webarchive-commons) and test_getPublicSuffix (surt) are the first four.
func TestSiteICANN(t *testing.T) {
	for _, c := range []struct {
		host, site, siteICANN, suffix, suffixICANN string
		icann                                      bool
	}{
		{"www.fool.com", "fool.com", "fool.com", "com", "com", true},
		{"www.amazon.co.uk", "amazon.co.uk", "amazon.co.uk", "co.uk", "co.uk", true},
		{"www.images.amazon.co.uk", "amazon.co.uk", "amazon.co.uk", "co.uk", "co.uk", true},
		{"funky-images.fancy.co.jp", "fancy.co.jp", "fancy.co.jp", "co.jp", "co.jp", true},
		{"a.b.github.io", "b.github.io", "github.io", "github.io", "io", false},
		{"foo.blogspot.com", "foo.blogspot.com", "blogspot.com", "blogspot.com", "com", false},
		{"x.y.appspot.com", "y.appspot.com", "appspot.com", "appspot.com", "com", false},
		{"WWW.Example.COM.", "example.com", "example.com", "com", "com", true},
		{"b.example.example", "example.example", "example.example", "example", "example", false},
		{"www.食狮.公司.cn", "食狮.公司.cn", "食狮.公司.cn", "公司.cn", "公司.cn", true},
		{"github.io", "", "github.io", "github.io", "io", false},
	} {
		if got, _ := Site(c.host); got != c.site {
			t.Errorf("Site(%q) = %q, want %q", c.host, got, c.site)
		}
		if got, _ := SiteICANN(c.host); got != c.siteICANN {
			t.Errorf("SiteICANN(%q) = %q, want %q", c.host, got, c.siteICANN)
		}
		if got, icann := PublicSuffix(c.host); got != c.suffix || icann != c.icann {
			t.Errorf("PublicSuffix(%q) = %q, %v, want %q, %v", c.host, got, icann, c.suffix, c.icann)
		}
		if got := PublicSuffixICANN(c.host); got != c.suffixICANN {
			t.Errorf("PublicSuffixICANN(%q) = %q, want %q", c.host, got, c.suffixICANN)
		}
	}
	for _, h := range []string{"", ".", "a..b.com", "192.168.0.1", "[::1]", "::1", ".com"} {
		if s, ok := Site(h); ok {
			t.Errorf("Site(%q) = %q, want none", h, s)
		}
		if s, ok := SiteICANN(h); ok {
			t.Errorf("SiteICANN(%q) = %q, want none", h, s)
		}
		if s, _ := PublicSuffix(h); s != "" {
			t.Errorf("PublicSuffix(%q) = %q, want none", h, s)
		}
	}
}
