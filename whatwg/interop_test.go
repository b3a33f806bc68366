package whatwg

import (
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/urikit/urikit/uri"
)

// uriReason says why href, which uri.Parse rejects at off, is not an
// RFC 3986 URI, in terms of the list in the doc of URL.URI; "" when no
// reason of that list applies.
func uriReason(u URL, off int) string {
	s := u.Href()
	// package uri blames the byte after a '%' that is not followed by
	// two hex digits (or the end of the input).
	for k := off; k >= off-2 && k >= 0; k-- {
		if k < len(s) && s[k] == '%' && !validPercent(s, k) {
			return "stray %"
		}
	}
	if off >= len(s) {
		return ""
	}
	c := s[off]
	in := func(set string) bool { return strings.IndexByte(set, c) >= 0 }
	switch {
	case u.HasFragment() && off > int(u.fragStart):
		if in("#[]\\^{|}") {
			return "fragment keeps " + string(c)
		}
	case u.HasQuery() && off > int(u.queryStart):
		if in("\"[]\\^`{|}'") {
			return "query keeps " + string(c)
		}
	case off >= int(u.pathStart):
		if u.HasOpaquePath() && c >= 0x20 && c < 0x7f {
			return "opaque path keeps " + string(c)
		}
		if in("[]|") || c == '\\' && !u.IsSpecial() {
			return "path keeps " + string(c)
		}
	case off >= int(u.hostStart) && off < int(u.hostEnd):
		if c > 0x20 && c < 0x7f {
			return "host keeps " + string(c)
		}
	}
	return ""
}

// TestURIOfWPT: every href of urltestdata.json that the URL parser
// accepts is either a valid RFC 3986 URI, equal to its uri.URI's string,
// or invalid for a reason URL.URI's documentation lists.
func TestURIOfWPT(t *testing.T) {
	cases := readWPT[wptURLCase](t, "urltestdata.json")
	reasons := map[string]int{}
	valid := 0
	for _, tc := range cases {
		u, err := parseWith(tc.Input, tc.Base)
		if err != nil {
			continue
		}
		r, err := u.URI()
		if err == nil {
			valid++
			if r.String() != u.Href() || !r.HasScheme() {
				t.Errorf("%q: URI %q", u.Href(), r.String())
			}
			back, err := FromURI(r)
			if err != nil || back.Href() != u.Href() {
				t.Errorf("%q: FromURI gives %q, %v", u.Href(), back.Href(), err)
			}
			continue
		}
		var pe *uri.ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("%q: %v", u.Href(), err)
		}
		reason := uriReason(u, pe.Offset)
		if reason == "" {
			t.Errorf("%q is not an RFC 3986 URI for no listed reason: %v", u.Href(), err)
			continue
		}
		reasons[reason]++
	}
	var names []string
	for r, n := range reasons {
		names = append(names, r+": "+itoa(n))
	}
	sort.Strings(names)
	t.Logf("%d hrefs are RFC 3986 URIs; the others: %s", valid, strings.Join(names, "; "))
	if valid < 560 { // 569 when written
		t.Errorf("only %d valid URIs", valid)
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// TestFromURI: an RFC 3986 URI read by the URL parser, and a relative
// reference, which needs a base.
func TestFromURI(t *testing.T) {
	r := uri.MustParse("HTTP://Example.COM:80/a/./b/../c?q#f")
	u, err := FromURI(r)
	if err != nil || u.Href() != "http://example.com/a/c?q#f" {
		t.Errorf("FromURI = %q, %v", u.Href(), err)
	}
	rel := uri.MustParse("../x")
	if _, err := FromURI(rel); !errors.Is(err, MissingSchemeNonRelativeURL) {
		t.Errorf("FromURI(relative) err = %v, want missing-scheme-non-relative-URL", err)
	}
	got, err := FromURIRef(MustParse("https://h/a/b/c"), rel)
	if err != nil || got.Href() != "https://h/a/x" {
		t.Errorf("FromURIRef = %q, %v", got.Href(), err)
	}
}
