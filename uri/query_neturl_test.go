package uri_test

import (
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
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
	for range 3000 {
		// Start from a query both read alike: what url.Values writes.
		start := url.Values{}
		for range rng.IntN(4) {
			start.Add(pick(), pick())
		}
		ops := make([]paramsOp, 1+rng.IntN(5))
		for i := range ops {
			ops[i] = paramsOp{rng.IntN(3), pick(), pick()}
		}
		checkParamsAgainstURLValues(t, start, ops)
	}
}

// A paramsOp is one edit of the differential: Add, Set or Del.
type paramsOp struct {
	kind int // 0 Add, 1 Set, 2 Del
	k, v string
}

func (o paramsOp) String() string {
	return [...]string{"Add", "Set", "Del"}[o.kind] + "(" + strconv.Quote(o.k) + ", " + strconv.Quote(o.v) + ")"
}

// checkParamsAgainstURLValues applies ops to the Params of start's
// encoding and to a copy of start, and fails unless Params.Encode reads
// back through url.ParseQuery to the same pairs and the view reads them
// as url.Values holds them.
func checkParamsAgainstURLValues(t *testing.T, start url.Values, ops []paramsOp) {
	t.Helper()
	want := url.Values{}
	for k, vs := range start {
		want[k] = slices.Clone(vs)
	}
	p := uri.ParseParams(start.Encode())
	for _, o := range ops {
		switch o.kind {
		case 0:
			p.Add(o.k, o.v)
			want.Add(o.k, o.v)
		case 1:
			p.Set(o.k, o.v)
			want.Set(o.k, o.v)
		case 2:
			p.Del(o.k)
			want.Del(o.k)
		}
	}
	enc := p.Encode()
	got, err := url.ParseQuery(enc)
	if err != nil {
		t.Fatalf("from %q, %v: url.ParseQuery(%q): %v", start.Encode(), ops, enc, err)
	}
	if !sameValues(got, want) {
		t.Fatalf("from %q, %v: Encode gives %q, which url.ParseQuery reads as %v, want %v", start.Encode(), ops, enc, got, want)
	}
	// The view reads its own text as url.Values does.
	for k, vs := range want {
		if pv := p.Values(k); !slices.Equal(pv, vs) {
			t.Fatalf("from %q, %v: Params.Values(%q) = %q, want %q", start.Encode(), ops, k, pv, vs)
		}
	}
	if n := p.Len(); n != countValues(want) {
		t.Fatalf("from %q, %v: %d pairs, want %d", start.Encode(), ops, n, countValues(want))
	}
}

// FuzzParamsAgainstURLValues is the differential of
// TestParamsAgainstURLValues on any text: the fuzzer's string is cut at
// "\x01" into fields, the first two a starting pair (written by
// url.Values) and then triples of an edit's kind (its first byte mod 3),
// key and value.
func FuzzParamsAgainstURLValues(f *testing.F) {
	f.Add("a\x01b\x01\x01\x01next\x01/home;admin")
	f.Add("\x01\x01\x00\x01a;b\x01%zz\x01\x02\x01&\x01")
	f.Add("k\x01v\x01\x02\x01k\x01\x00\x01k\x01x#y+z")
	f.Fuzz(func(t *testing.T, s string) {
		fields := strings.Split(s, "\x01")
		if len(fields) < 2 || len(fields) > 32 {
			return
		}
		start := url.Values{}
		start.Add(fields[0], fields[1])
		var ops []paramsOp
		for i := 2; i+2 < len(fields); i += 3 {
			kind := 0
			if fields[i] != "" {
				kind = int(fields[i][0]) % 3
			}
			ops = append(ops, paramsOp{kind, fields[i+1], fields[i+2]})
		}
		checkParamsAgainstURLValues(t, start, ops)
	})
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
