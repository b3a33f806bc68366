package classcount

import (
	"maps"
	"strconv"
	"testing"
)

// TestSumAdd: counts add up and the smallest input in byte order stays
// ("HTTP:" < "http:" since 'H' is 0x48 and 'h' 0x68); the zero Sum is
// the identity on both sides.
func TestSumAdd(t *testing.T) {
	a := Sum{Count: 2, Min: "http://a/"}
	b := Sum{Count: 3, Min: "HTTP://a/"}
	for _, tc := range []struct{ x, y, want Sum }{
		{a, b, Sum{5, "HTTP://a/"}},
		{b, a, Sum{5, "HTTP://a/"}},
		{a, Sum{}, a},
		{Sum{}, a, a},
		{Sum{Count: 1, Min: ""}, a, Sum{3, ""}}, // the empty reference is an input
	} {
		if got := tc.x.Add(tc.y); got != tc.want {
			t.Errorf("%v.Add(%v) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
}

// TestTableBounded: a Table never holds more than its maximum of keys,
// and its flushed sums, however often it had to flush, add up to the
// count and smallest input of every key; with room for every key, each
// key is flushed once.
func TestTableBounded(t *testing.T) {
	type in struct{ key, input string }
	var ins []in
	want := map[string]Sum{}
	for i := range 60 {
		k := "k" + strconv.Itoa(i%7)
		v := strconv.Itoa(100 - i)
		ins = append(ins, in{k, v})
		want[k] = want[k].Add(Sum{Count: 1, Min: v})
	}
	for _, limit := range []int{1, 2, 3, 7, 8, 1000} {
		tab := New(limit)
		got := map[string]Sum{}
		flushed := 0
		emit := func(k string, s Sum) { flushed++; got[k] = got[k].Add(s) }
		for _, x := range ins {
			tab.Add(x.key, x.input, emit)
			if tab.Len() >= max(limit, 1) {
				t.Fatalf("limit %d: %d keys held", limit, tab.Len())
			}
		}
		tab.Flush(emit)
		if tab.Len() != 0 {
			t.Errorf("limit %d: %d keys after Flush", limit, tab.Len())
		}
		if !maps.Equal(got, want) {
			t.Errorf("limit %d: got %v, want %v", limit, got, want)
		}
		if limit > 7 && flushed != 7 {
			t.Errorf("limit %d: %d sums flushed for 7 keys", limit, flushed)
		}
	}
}
