package uri_test

import (
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/urikit/urikit/uri"
)

// paramsKeys are the keys and values of the differential: the
// delimiters of a form query ("&", "=", "+", the space), the one
// net/url refuses (";", golang/go#25192), "%" alone and in triplets,
// "#" (which ends a query), and non-ASCII text.
var paramsKeys = []string{"", "a", "next", "/home;admin", ";", "a;b", "&", "=", "+", " ", "a b+c", "%", "%41", "%zz",
	"#", "x#y", "ü", "例え", "?", "/", "k=v&w=x", "\x00", "\xff"}

// TestParamsAgainstURLValues: Params and url.Values, given the same
// Add, Set and Del, hold the same pairs; and what Params.Encode writes,
// url.ParseQuery reads back to those pairs, without an error (RFC 3986
// 3.4 leaves the query's structure to the application; the one both
// follow is the URL Standard's application/x-www-form-urlencoded).
func TestParamsAgainstURLValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 3))
	pick := func() string {
		// One of the keys, or two of them glued, so that a delimiter
		// stands inside text too.
		s := paramsKeys[rng.IntN(len(paramsKeys))]
		if rng.IntN(3) == 0 {
			s += paramsKeys[rng.IntN(len(paramsKeys))]
		}
		return s
	}
	runs := 0
	for range 3000 {
		// Start from a query both read alike: what url.Values writes.
		start := url.Values{}
		for range rng.IntN(4) {
			start.Add(pick(), pick())
		}
		want := url.Values{}
		for k, vs := range start {
			want[k] = slices.Clone(vs)
		}
		p := uri.ParseParams(start.Encode())
		var ops []string
		for range 1 + rng.IntN(5) {
			k, v := pick(), pick()
			switch rng.IntN(3) {
			case 0:
				p.Add(k, v)
				want.Add(k, v)
				ops = append(ops, "Add("+k+", "+v+")")
			case 1:
				p.Set(k, v)
				want.Set(k, v)
				ops = append(ops, "Set("+k+", "+v+")")
			case 2:
				p.Del(k)
				want.Del(k)
				ops = append(ops, "Del("+k+")")
			}
		}
		runs++
		enc := p.Encode()
		got, err := url.ParseQuery(enc)
		if err != nil {
			t.Fatalf("from %q, %q: url.ParseQuery(%q): %v", start.Encode(), ops, enc, err)
		}
		if !sameValues(got, want) {
			t.Fatalf("from %q, %q: Encode gives %q, which url.ParseQuery reads as %v, want %v", start.Encode(), ops, enc, got, want)
		}
		// The view reads its own text as url.Values does.
		for k, vs := range want {
			if pv := p.Values(k); !slices.Equal(pv, vs) {
				t.Fatalf("from %q, %q: Params.Values(%q) = %q, want %q", start.Encode(), ops, k, pv, vs)
			}
		}
		if n := p.Len(); n != countValues(want) {
			t.Fatalf("from %q, %q: %d pairs, want %d", start.Encode(), ops, n, countValues(want))
		}
	}
	t.Logf("%d edit sequences", runs)
}

func sameValues(a, b url.Values) bool {
	if countValues(a) != countValues(b) {
		return false
	}
	for k, vs := range b {
		if len(vs) > 0 && !slices.Equal(a[k], vs) {
			return false
		}
	}
	return true
}

func countValues(v url.Values) int {
	n := 0
	for _, vs := range v {
		n += len(vs)
	}
	return n
}

// TestParamsSemicolon: a value with ";" that Set writes stays one pair
// for url.ParseQuery (which drops a pair holding a ";") and for a server
// that splits at ";" (HTML 4.01 B.2.2 asked servers to), as
// url.Values.Encode writes it: "%3B". A pair no edit touches keeps its
// ";", as Encode documents.
func TestParamsSemicolon(t *testing.T) {
	p := uri.ParseParams("a=1;2")
	p.Set("next", "/home;admin")
	if got, want := p.Encode(), "a=1;2&next=/home%3Badmin"; got != want {
		t.Errorf("Encode = %q, want %q", got, want)
	}
	v, _ := url.ParseQuery(p.Encode()) // the error is the untouched "a=1;2"
	if v.Get("next") != "/home;admin" {
		t.Errorf("url.ParseQuery(%q) lost next: %v", p.Encode(), v)
	}
	for _, piece := range strings.Split(strings.Split(p.Encode(), "&")[1], ";") {
		if piece != "next=/home%3Badmin" {
			t.Errorf("a server that splits at \";\" sees %q", piece)
		}
	}
}
