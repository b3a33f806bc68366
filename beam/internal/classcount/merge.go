package classcount

import "unsafe"

// A Merge sums records per key (the count and the smallest input)
// within a budget of memory, for a merge that spills to files when the
// keys it holds would take more. Its keys and inputs are copied into
// large blocks rather than allocated one by one: a merge of millions of
// keys allocates a block a megabyte, and the garbage collector has
// blocks without pointers to skip rather than millions of strings.
type Merge struct {
	budget int64
	used   int64
	index  map[string]int32 // the key's sum in sums
	sums   []Sum
	arena  arena
}

// mergeEntryCost is the memory of a key in a Merge besides its bytes:
// its slot in the index (a string header and an int32) with the index's
// control bytes and free slots, and its Sum.
const mergeEntryCost = 64

// NewMerge returns an empty Merge whose keys take at most about budget
// bytes; it holds at least one key. Room for hint keys is made at once
// (as many as the budget allows), so that a merge of many keys does not
// grow its index step by step.
func NewMerge(budget int64, hint int) *Merge {
	budget = max(budget, 1)
	hint = int(min(int64(max(hint, 0)), budget/mergeEntryCost))
	return &Merge{budget: budget, index: make(map[string]int32, hint), sums: make([]Sum, 0, hint)}
}

// Add adds count inputs of key, whose smallest is in, and reports
// whether it did: a new key that would take the keys past the budget is
// not added (unless the Merge is empty), and the Merge is full. The
// bytes are copied; the caller may reuse them.
func (g *Merge) Add(key, in []byte, count int64) bool {
	if i, ok := g.index[string(key)]; ok {
		s := &g.sums[i]
		s.Count += count
		if string(in) < s.Min {
			s.Min = g.arena.string(in)
			g.used += int64(len(in))
		}
		return true
	}
	same := string(in) == string(key)
	cost := int64(len(key)) + mergeEntryCost
	if !same {
		cost += int64(len(in))
	}
	if len(g.sums) > 0 && g.used+cost > g.budget {
		return false
	}
	g.used += cost
	k := g.arena.string(key)
	m := k
	if !same {
		m = g.arena.string(in)
	}
	g.index[k] = int32(len(g.sums))
	g.sums = append(g.sums, Sum{Count: count, Min: m})
	return true
}

// Each calls fn with each key and its sum.
func (g *Merge) Each(fn func(key string, s Sum)) {
	for k, i := range g.index {
		fn(k, g.sums[i])
	}
}

// Len returns how many keys the Merge holds.
func (g *Merge) Len() int { return len(g.sums) }

// arenaBlock is the size of an arena's blocks.
const arenaBlock = 1 << 20

// An arena makes strings by appending their bytes to a block: a string
// is a view of bytes that are never written again (a block is only
// appended to, and a new one begins where it is full), so it stays as
// immutable as a string must be. A block lives as long as one of its
// strings.
type arena struct {
	block []byte
}

func (a *arena) string(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > arenaBlock/8 {
		return string(b) // large: on its own, not to waste a block
	}
	if len(b) > cap(a.block)-len(a.block) {
		a.block = make([]byte, 0, arenaBlock)
	}
	n := len(a.block)
	a.block = append(a.block, b...)
	return unsafe.String(&a.block[n], len(b))
}
