package surt

import (
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// TestLinear checks that every profile keys hostile shapes in time and
// memory linear in their length: escapes of escapes ("%2525..."), which
// a pass-by-pass decoding makes quadratic; runs of dot segments, of
// dots, of "www." labels, of session identifiers and cfid/cftoken pairs
// that the sort makes adjacent, of ASP.NET ids; long queries to sort.
func TestLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("linearity check: seconds of CPU")
	}
	const id32 = "0123456789abcdef0123456789abcdef"
	shapes := map[string]func(n int) string{
		"escapes":  func(n int) string { return "http://a/%" + strings.Repeat("25", n/2) },
		"dotsegs":  func(n int) string { return "http://a/" + strings.Repeat("x/../", n/5) },
		"updots":   func(n int) string { return "http://a/" + strings.Repeat("../", n/3) },
		"hostdots": func(n int) string { return "http://a" + strings.Repeat(".", n) + "b/" },
		"www":      func(n int) string { return "http://" + strings.Repeat("www.", n/4) + "a.b/" },
		"sessions": func(n int) string { return "http://a/?" + strings.Repeat("sid="+id32+"&", n/37) },
		"cfid": func(n int) string {
			return "http://a/?" + strings.Repeat("cftoken=1&", n/20) + strings.Repeat("cfid=2&", n/20)
		},
		"aspx": func(n int) string {
			return "http://a/" + strings.Repeat("(4hqa0555fwsecu455xqckv45)/", n/27) + "a.aspx"
		},
		"params":    func(n int) string { return "http://a/?" + strings.Repeat("b=1&a=2&", n/8) },
		"slashes":   func(n int) string { return "http:" + strings.Repeat("/", n) + "a" },
		"emptyhost": func(n int) string { return "http://" + strings.Repeat("%2e/", n/4) + "a" },
	}
	for name, gen := range shapes {
		for _, o := range []Options{{}, {Profile: Aggressive, Form: SSURT}} {
			testshared.CheckLinearN(t, name+"/"+o.Profile.String(), 8<<10, gen, func(s string) {
				_, _ = o.Key(s)
			})
		}
	}
}
