package whatwg

import (
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// TestEmptyACELabel: section 3.3, the domain parser ToASCII runs UTS #46
// ToASCII, whose section 4 (Processing) step 4 says of a label that
// starts with "xn--": "If the label is empty, or if the label contains
// only ASCII code points, record that there was an error." A non-ASCII
// domain with an "xn--" label, as written or once mapped, fails.
func TestEmptyACELabel(t *testing.T) {
	for _, in := range []string{
		"http://xn--.ß/", "http://ß.xn--/", "http://1.2.3.ｘｎ－－", "http://ß.ｘｎ－－/", "http://ß。xn--/",
		"http://XN--.ß/", "http://ß.x\u00ADn--/",
	} {
		if u, err := Parse(in); err == nil {
			t.Errorf("%+q parses as %q; UTS #46 section 4 step 4 makes it an error", in, u.Href())
		} else if !strings.Contains(err.Error(), DomainToASCII.String()) {
			t.Errorf("%+q: %v; want %v", in, err, DomainToASCII)
		}
	}
	// An ASCII domain is only lowercased (section 3.3: "If domain is an
	// ASCII string, then set result to domain, lowercased"), with a
	// validation error; the label after the prefix may be anything.
	for in, want := range map[string]string{
		"http://xn--/":        "http://xn--/",
		"http://XN--.example": "http://xn--.example/",
		"http://xn--zca.ß/":   "http://xn--zca.xn--zca/",
		"http://ß.xn-/":       "http://xn--zca.xn-/",
	} {
		u, err := Parse(in)
		if err != nil || u.Href() != want {
			t.Errorf("%+q: %v, %v; want %q", in, u.Href(), err, want)
		}
	}
}

// distinctHost returns n distinct code points (up to 38,756): CJK
// ideographs of extension A and of the URO, then Hangul syllables. It
// is Punycode's worst case, one delta per code point, each code point
// its own value. (Ideographs of extension B after them would make a
// delta past 2^31-1, an overflow, RFC 3492 section 6.4.)
func distinctHost(n int) string {
	var b strings.Builder
	for _, rg := range [][2]rune{{0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xAC00, 0xD7A3}} {
		for r := rg[0]; r <= rg[1] && n > 0; r++ {
			b.WriteRune(r)
			n--
		}
	}
	return b.String()
}

// TestLongHost: the URL Standard sets no length limit on a domain
// (VerifyDnsLength is false when beStrict is), so a host of 60 KB of
// distinct code points is a URL, and its A-label parses back to itself,
// also beside a non-ASCII label (the Punycode is then decoded).
func TestLongHost(t *testing.T) {
	u, err := Parse("http://" + distinctHost(20000) + "/")
	if err != nil {
		t.Fatal(err)
	}
	host := u.Host()
	if !strings.HasPrefix(host, "xn--") || strings.Contains(host, ".") {
		t.Fatalf("host %.40q...", host)
	}
	if v, err := Parse(u.Href()); err != nil || v.Host() != host {
		t.Errorf("the href does not parse back: %v", err)
	}
	v, err := Parse("http://" + strings.ToUpper(host) + ".ß/")
	if err != nil || v.Host() != host+".xn--zca" {
		t.Errorf("the A-label beside ß: %.40q..., %v", v.Host(), err)
	}
}

// TestLongHostCost: the host parser costs O(n log n) in the code points
// of a label, both ways (a factor 8 in size costs about 10).
func TestLongHostCost(t *testing.T) {
	parse := func(s string) {
		if sinkURL, sinkErr = Parse(s); sinkErr != nil {
			t.Fatal(sinkErr)
		}
	}
	testshared.CheckLinearN(t, "encode", 4096, func(n int) string {
		return "http://" + distinctHost(n) + "/"
	}, parse)
	testshared.CheckLinearN(t, "decode", 4096, func(n int) string {
		return "http://" + MustParse("http://"+distinctHost(n)+"/").Host() + ".ß/"
	}, parse)
}
