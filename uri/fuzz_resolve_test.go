package uri_test

import (
	"testing"

	"github.com/urikit/urikit/uri"
)

// FuzzResolve checks, for any two strings that parse (strictly, or with
// the 1998 draft's grammar), that Resolve and Resolve2396 under every
// policy do not panic and return results that re-parse into the same
// components, and that Relativize and Relativize2396 find a reference
// back to each result (one exists: ref itself) that resolves to it.
func FuzzResolve(f *testing.F) {
	for _, c := range rfc3986Normal {
		f.Add(rfc3986Base, c.Ref) // RFC 3986 5.4
	}
	for _, c := range draft1998AppendixC {
		f.Add(rfc3986Base, c.Ref) // 1998 draft Appendix C
	}
	for _, c := range [][2]string{
		{"a://foo/", "..//"},     // issue 2
		{"scheme:", "/..//x"},    // issue 2
		{"f:/a", ".//g"},         // conformance README
		{"foo:a/b", "../c"},      // conformance README
		{"x:", ".///C:::"},       // oxiri invalid_resolutions
		{"a", "./b:c"},           // RFC 3986 4.2
		{"../../foo/bar", "baz"}, // oxiri relative base
		{"http://[fe80::1%25en0]/a", "b"},
	} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, bs, rs string) {
		for _, mode := range []uri.Options{{AllowZoneID: true}, {Grammar: uri.RFC2396}} {
			base, err1 := uri.ParseWith(bs, mode)
			ref, err2 := uri.ParseWith(rs, mode)
			if err1 != nil || err2 != nil {
				continue
			}
			res := base.Resolve(ref)
			checkReparse(t, "Resolve", res)
			if r, err := base.Relativize(res); err != nil {
				t.Errorf("Relativize(%q, %q): none, but %q resolves to it", bs, res, rs)
			} else if back := base.Resolve(r); back.String() != res.String() {
				t.Errorf("Relativize(%q, %q) = %q, which resolves to %q", bs, res, r, back)
			}
			if r, err := base.Relativize(ref); err == nil {
				if back := base.Resolve(r); back.String() != ref.String() {
					t.Errorf("Relativize(%q, %q) = %q, which resolves to %q", bs, rs, r, back)
				}
			}
			for _, p := range []uri.DotPolicy{uri.KeepDots, uri.DropDots, uri.RejectDots} {
				res2, err := base.Resolve2396(ref, p)
				if err != nil {
					if p != uri.RejectDots {
						t.Errorf("Resolve2396(%q, %q, %d): %v", bs, rs, p, err)
					}
					continue
				}
				checkReparse(t, "Resolve2396", res2)
				if p != uri.KeepDots {
					continue
				}
				r, relErr := base.Relativize2396(res2)
				ok := relErr == nil
				if !ok {
					t.Errorf("Relativize2396(%q, %q): none, but %q resolves to it", bs, res2, rs)
					continue
				}
				if back, err := base.Resolve2396(r, uri.KeepDots); err != nil || back.String() != res2.String() {
					t.Errorf("Relativize2396(%q, %q) = %q, which resolves to %q", bs, res2, r, back)
				}
			}
		}
	})
}
