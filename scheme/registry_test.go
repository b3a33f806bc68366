package scheme_test

import (
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/scheme"
	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/urn"
)

// variants returns forms of s that scheme-based equivalence may or may
// not identify with it: case changes, an encoded letter, a default
// port, the empty path, a fragment.
func variants(s string) []string {
	v := []string{strings.ToUpper(s[:min(len(s), 8)]) + s[min(len(s), 8):], s + "#f"}
	if i := strings.Index(s, "a"); i >= 0 {
		v = append(v, s[:i]+"%61"+s[i+1:])
	}
	if u, err := uri.Parse(s); err == nil && u.HasAuthority() && !u.HasPort() {
		p := u.Authority()
		v = append(v, strings.Replace(s, "//"+p, "//"+p+":80", 1), strings.Replace(s, "//"+p, "//"+p+":", 1))
	}
	return v
}

// TestRegistryAgreesWithEqual: issue 11. The complete registry adds
// validation and views, never another equivalence: its Equal and Key are
// uri.Equal's and uri.Key's on every input of the corpora; and on URNs
// both give urn.Equal's answer (RFC 8141 section 3).
func TestRegistryAgreesWithEqual(t *testing.T) {
	r := scheme.Registry()
	pairs := 0
	for _, name := range testshared.CorpusNames {
		c := testshared.LoadCorpus(t, name)
		var prev uri.URI
		for _, s := range c.Lines {
			a, err := uri.Parse(s)
			if err != nil {
				continue
			}
			for _, vs := range append(variants(s), prev.String()) {
				b, err := uri.Parse(vs)
				if err != nil {
					continue
				}
				pairs++
				eq := uri.Equal(a, b)
				if got := r.Equal(a, b); got != eq {
					t.Errorf("%s: Registry().Equal(%q, %q) = %v, uri.Equal %v", c.Name, a, b, got, eq)
				}
				if (a.Key() == b.Key()) != eq {
					t.Errorf("%s: Key and Equal disagree on %q, %q", c.Name, a, b)
				}
				ua, errA := urn.Parse(a.String())
				ub, errB := urn.Parse(b.String())
				if errA == nil && errB == nil && urn.Equal(ua, ub) != eq {
					t.Errorf("%s: urn.Equal(%q, %q) = %v, uri.Equal %v", c.Name, a, b, !eq, eq)
				}
			}
			prev = a
		}
	}
	t.Logf("%d pairs", pairs)
}

// TestRegistryChecksURNs: the complete registry validates "urn:" URIs
// by the URN syntax of RFC 8141, and views them as urn.URN.
func TestRegistryChecksURNs(t *testing.T) {
	r := scheme.Registry()
	if err := r.Check(uri.MustParse("urn:a:b")); err == nil {
		t.Errorf("urn:a:b passes") // RFC 8141 2: NID of 2 to 32 characters
	}
	if err := r.Check(uri.MustParse("URN:example:a")); err != nil {
		t.Errorf("URN:example:a: %v", err)
	}
	v, err := r.View(uri.MustParse("urn:isbn:0-395-36341-1"))
	if u, ok := v.(urn.URN); err != nil || !ok || u.NID() != "isbn" {
		t.Errorf("View = %#v, %v", v, err)
	}
	if v, err := r.View(uri.MustParse("foo:x")); v != nil || err != nil {
		t.Errorf("View of a scheme without one = %v, %v", v, err)
	}
}
