// Package classcount counts inputs per key in bounded memory: the count
// and the smallest input of each key, as uribeam.Dedupe sums them
// within a bundle before its shuffle. It imports no Beam package, so
// that its tests build in a moment.
package classcount

// A Sum is the count of a key's inputs and the smallest of them in byte
// order. Its fields are exported so that Beam can encode it.
type Sum struct {
	Count int64
	Min   string
}

// Add returns the sum of a and b: counts add up, the smaller input
// stays. The zero Sum is its identity.
func (a Sum) Add(b Sum) Sum {
	switch {
	case b.Count == 0:
		return a
	case a.Count == 0:
		return b
	}
	if b.Min < a.Min {
		a.Min = b.Min
	}
	a.Count += b.Count
	return a
}

// A Table sums inputs per key and holds at most Max keys: when it is
// full, it hands all its sums to the flush function and starts empty,
// so that its memory stays bounded however many keys go through it.
type Table struct {
	max int
	m   map[string]Sum
}

// New returns an empty Table of at most n keys (at least 1).
func New(n int) *Table {
	return &Table{max: max(n, 1), m: make(map[string]Sum)}
}

// Add counts the input in under key; flush receives the sums when the
// table is full.
func (t *Table) Add(key, in string, flush func(string, Sum)) {
	t.m[key] = t.m[key].Add(Sum{Count: 1, Min: in})
	if len(t.m) >= t.max {
		t.Flush(flush)
	}
}

// Flush hands every sum to emit and empties the table.
func (t *Table) Flush(emit func(string, Sum)) {
	for k, s := range t.m {
		emit(k, s)
	}
	clear(t.m)
}

// Len returns how many keys the table holds.
func (t *Table) Len() int { return len(t.m) }
