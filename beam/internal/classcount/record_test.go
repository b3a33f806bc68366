package classcount

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"strconv"
	"strings"
	"testing"
)

// readAll reads every record of b.
func readAll(b []byte) (keys []string, sums []Sum, err error) {
	r := NewReader(bytes.NewReader(b))
	for {
		k, m, n, err := r.Next()
		if err == io.EOF {
			return keys, sums, nil
		}
		if err != nil {
			return keys, sums, err
		}
		keys = append(keys, string(k))
		sums = append(sums, Sum{Count: n, Min: string(m)})
	}
}

// TestRecordRoundTrip: every record reads back as written: an empty key
// (the empty reference's), an empty smallest input beside a key, a
// smallest input equal to its key (written once), fields longer than
// the reader's buffer, a count past 32 bits.
func TestRecordRoundTrip(t *testing.T) {
	long := strings.Repeat("x", 200<<10)
	recs := []struct {
		key string
		s   Sum
	}{
		{"http://a/", Sum{1, "HTTP://a"}},
		{"", Sum{3, ""}},
		{"k", Sum{2, ""}},
		{"http://b/", Sum{7, "http://b/"}},
		{long, Sum{1 << 40, long + "y"}},
		{"z", Sum{1, long}},
	}
	var b []byte
	for _, r := range recs {
		b = AppendRecord(b, r.key, r.s)
	}
	if same := AppendRecord(nil, "http://b/", Sum{7, "http://b/"}); len(same) != 1+1+9+1 {
		t.Errorf("a record whose input is its key takes %d bytes, want 12", len(same))
	}
	keys, sums, err := readAll(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != len(recs) {
		t.Fatalf("%d records read, %d written", len(keys), len(recs))
	}
	for i, r := range recs {
		if keys[i] != r.key || sums[i] != r.s {
			t.Errorf("record %d: %.20q %v, want %.20q %v", i, keys[i], sums[i].Count, r.key, r.s.Count)
		}
	}
}

// TestRecordCorrupt: records cut at any byte, a count of 0 or a length
// past the end are ErrCorrupt with the offset of the record, never a
// short record taken for a whole one; a length of a terabyte costs no
// more memory than the bytes that follow it.
func TestRecordCorrupt(t *testing.T) {
	b := AppendRecord(nil, "http://a/", Sum{2, "HTTP://A/"})
	first := len(b)
	b = AppendRecord(b, "http://b/", Sum{1, "http://b/"})
	for cut := 1; cut < len(b); cut++ {
		if cut == first {
			continue // a whole record
		}
		keys, _, err := readAll(b[:cut])
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("cut at %d: %q, %v; want ErrCorrupt", cut, keys, err)
			continue
		}
		want := "record at byte 0:"
		if cut > first {
			want = "record at byte " + strconv.Itoa(first) + ":"
		}
		if !strings.HasPrefix(err.Error(), want) {
			t.Errorf("cut at %d: %v, want %q", cut, err, want)
		}
	}
	for name, in := range map[string][]byte{
		"count 0":       {0, 1, 'a', 0},
		"a terabyte":    {1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 'a'},
		"min past end":  {1, 1, 'a', 9, 'b'},
		"varint of 11B": {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01},
	} {
		if _, _, err := readAll(in); err == nil || !strings.HasPrefix(err.Error(), "record at byte 0:") {
			t.Errorf("%s: %v, want an error at byte 0", name, err)
		}
	}
}

// TestMergeSums: a Merge gives each key its count and smallest input,
// whatever the order of the records, and its strings keep their bytes
// when the caller reuses its slices and the arena fills block after
// block.
func TestMergeSums(t *testing.T) {
	g := NewMerge(1<<40, 10)
	want := map[string]Sum{}
	key := make([]byte, 0, 64)
	in := make([]byte, 0, 64)
	for i := range 50000 {
		k := "http://example.com/" + strconv.Itoa(i%20000)
		v := k + "?" + strconv.Itoa(50000-i)
		key = append(key[:0], k...)
		in = append(in[:0], v...)
		if !g.Add(key, in, int64(i%3+1)) {
			t.Fatal("an unbounded Merge is full")
		}
		clear(key[:cap(key)])
		clear(in[:cap(in)])
		want[k] = want[k].Add(Sum{Count: int64(i%3 + 1), Min: v})
	}
	got := map[string]Sum{}
	g.Each(func(k string, s Sum) { got[k] = s })
	if g.Len() != len(want) || !maps.Equal(got, want) {
		t.Errorf("%d keys, want %d; equal: %v", g.Len(), len(want), maps.Equal(got, want))
	}
}

// TestMergeBudget: a Merge refuses a new key that would take it past
// its budget, keeps summing the keys it has, and holds at least one key
// whatever its size.
func TestMergeBudget(t *testing.T) {
	const budget = 10 * (mergeEntryCost + 20)
	g := NewMerge(budget, 1000)
	added := 0
	for i := 0; ; i++ {
		k := []byte("k" + strconv.Itoa(1000+i) + strings.Repeat("x", 15)) // 20 bytes
		if !g.Add(k, k, 1) {
			break
		}
		added++
		if added > 100 {
			t.Fatal("the budget does not hold")
		}
	}
	if added != 10 {
		t.Errorf("%d keys of %d bytes each in a budget of %d", added, mergeEntryCost+20, budget)
	}
	if !g.Add([]byte("k1000xxxxxxxxxxxxxxx"), []byte("a"), 5) {
		t.Error("a key held was refused")
	}
	g.Each(func(k string, s Sum) {
		if k == "k1000xxxxxxxxxxxxxxx" && (s.Count != 6 || s.Min != "a") {
			t.Errorf("%s: %v, want 6 a", k, s)
		}
	})
	big := []byte(strings.Repeat("y", 4*budget))
	if g := NewMerge(budget, 0); !g.Add(big, big, 1) || g.Add([]byte("z"), []byte("z"), 1) {
		t.Error("an empty Merge refused a key larger than its budget, or took a second one")
	}
}
