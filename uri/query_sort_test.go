package uri_test

import (
	"cmp"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
)

// Params.Sort orders pairs by their decoded key, then decoded value
// ("+" a space, valid triplets decoded, a malformed "%" kept), stably;
// it compares the pairs where they are written (issue 20: 10 MB of
// "a=b&" took 300 MB to sort).
func TestParamsSortDecoded(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"a triplet sorts as its octet", "B=1&%41=2", "%41=2&B=1"},
		{"an octet above 0x7F sorts after ASCII", "%C3%A9=1&z=2", "z=2&%C3%A9=1"},
		{"+ is a space, equal to %20: order kept", "a%20b=1&a+b=2&a b=3", "a%20b=1&a+b=2&a b=3"},
		{"+ is a space, below !", "a!=1&a+=2", "a+=2&a!=1"},
		{"a malformed % is itself", "%4=1&%3=2&%=3", "%=3&%3=2&%4=1"},
		{"a truncated triplet at the end", "a%41&a%4", "a%4&a%41"},
		{"a prefix sorts first", "aa=1&a=2", "a=2&aa=1"},
		{"no = equals an empty value: order kept", "a=&a&a=", "a=&a&a="},
		{"then by decoded value", "k=%62&k=a&k=c", "k=a&k=%62&k=c"},
		{"only the first = splits", "a=b=c&a=b", "a=b&a=b=c"},
		{"empty pieces are dropped once rewritten", "&b&&a&", "a&b"},
		{"sorted input is kept byte for byte", "a&&b&", "a&&b&"},
	}
	for _, tt := range tests {
		p := uri.ParseParams(tt.in)
		p.Sort()
		if got := p.Encode(); got != tt.want {
			t.Errorf("%s: Sort(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
	p := uri.ParseParams("b;a&c;a").WithSeparator(';')
	p.Sort()
	if got := p.Encode(); got != "a;a&c;b" {
		t.Errorf("Sort with separator ';' = %q, want %q", got, "a;a&c;b")
	}
}

// TestParamsSortReference compares Sort with the plain definition:
// decode every key and value, sort stably, join.
func TestParamsSortReference(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 16))
	const alphabet = "ab=&+%4F1"
	for range 20000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		in := string(b)
		var ps []uri.Param
		for _, q := range uri.ParseParams(in).All() {
			ps = append(ps, q)
		}
		sorted := slices.IsSortedFunc(ps, compareDecoded)
		slices.SortStableFunc(ps, compareDecoded)
		raw := make([]string, len(ps))
		for i, q := range ps {
			raw[i] = q.Raw()
		}
		want := strings.Join(raw, "&")
		if sorted {
			want = in
		}
		p := uri.ParseParams(in)
		p.Sort()
		if got := p.Encode(); got != want {
			t.Fatalf("Sort(%q) = %q, want %q", in, got, want)
		}
	}
}

func compareDecoded(a, b uri.Param) int {
	return cmp.Or(strings.Compare(a.Key(), b.Key()), strings.Compare(a.Value(), b.Value()))
}

// TestParamsSortLinear: every shape of a hostile query sorts in time and
// memory linear in its length (up to the sort's log factor), and holds
// at most a few times the query in memory.
func TestParamsSortLinear(t *testing.T) {
	shapes := []struct {
		name string
		gen  func(n int) string
	}{
		{"b&a& (one-byte pairs)", func(n int) string { return strings.Repeat("b&a&", n/4) }},
		{"b=2&a=1&", func(n int) string { return strings.Repeat("b=2&a=1&", n/8) }},
		{"%42&%41& (triplets)", func(n int) string { return strings.Repeat("%42=%42&%41=%41&", n/16) }},
		{"descending keys", func(n int) string {
			var b strings.Builder
			for i := n / 8; b.Len() < n; i-- {
				b.WriteString(strings.Repeat("k", 3))
				b.WriteByte(byte('a' + i%26))
				b.WriteString("=v&")
			}
			return b.String()
		}},
		{"two long equal keys", func(n int) string {
			k := strings.Repeat("%41", n/6)
			return k + "=2&" + k + "=1"
		}},
	}
	for _, sh := range shapes {
		testshared.CheckLinearN(t, sh.name, 64<<10, sh.gen, func(q string) {
			p := uri.ParseParams(q)
			p.Sort()
		})
		q := sh.gen(1 << 20)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		p := uri.ParseParams(q)
		p.Sort()
		runtime.ReadMemStats(&after)
		// The offsets (4 bytes per pair, a pair is at least 2 bytes)
		// and the sorted copy.
		if got := after.TotalAlloc - before.TotalAlloc; got > 3*uint64(len(q))+64<<10 {
			t.Errorf("%s: sorting %d bytes allocated %d bytes (more than 3 times)", sh.name, len(q), got)
		}
	}
}
