package resolver

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/maphash"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/urikit/urikit/resolver/internal/store"
)

// Reads that hold under writes (issue 23.1). On SQLite in WAL mode every
// commit makes each read connection drop its page cache at its next
// transaction, and a profile of N2L at 15 writes/s shows the readers
// rebuilding B-tree pages (btreeInitPage) instead of answering. So the N2L
// answers (a record's state and first location) are kept in memory,
// keyed by the equivalence key, and a write drops only the keys it
// changed:
//
//   - the writes of this process drop their keys when they commit, so a
//     client reads its own writes at once;
//   - the writes of every other process or server on the same database
//     (urnresolver import beside a running server, a second server) are
//     read from the change log (package store), polled every pollInterval
//     and, on PostgreSQL, at once when a write's NOTIFY arrives; only the
//     keys they changed are dropped;
//   - the cache answers only while its last catch-up with the log began
//     at most MaxStale ago (issue 29): no answer from memory is older
//     than that after the write that changed it was acknowledged, under
//     any fault; otherwise reads go to the database.
//
// A read that began before a write and ends after it must not put back
// what it read: every invalidation advances an epoch and is logged in a
// ring, and an answer read at epoch e is kept only if no invalidation
// since e names its key (or all keys).

// CacheOptions configures the N2L answer cache (Store.Cache).
type CacheOptions struct {
	// Entries bounds the answers held; when full, an arbitrary one
	// makes room. Zero takes DefaultCacheEntries.
	Entries int
	// Bytes bounds the memory of the answers: their keys and locations
	// plus 32 bytes each for the index (dropped answers' bytes are
	// reclaimed once they are half of it). Zero takes DefaultCacheBytes.
	Bytes int
	// MaxStale bounds how old an answer from memory may be: the cache
	// answers only while its last catch-up with the other servers'
	// writes began at most MaxStale ago. Zero takes DefaultMaxStale.
	MaxStale time.Duration
	// Preload reads the answers of up to Entries records (within Bytes)
	// before Cache returns, instead of as they are asked for;
	// Store.Preload does it later, in the background for instance.
	Preload bool

	now func() time.Time // the clock; tests make it jump
}

// DefaultCacheEntries is the size of the cache when CacheOptions leaves
// it zero: a million answers.
const DefaultCacheEntries = 1 << 20

// DefaultCacheBytes is the memory of the answers when CacheOptions leaves
// it zero: 256 MiB, which holds a million answers with locations of 150
// bytes.
const DefaultCacheBytes = 256 << 20

// DefaultMaxStale is the staleness bound when CacheOptions leaves it
// zero.
const DefaultMaxStale = time.Second

// pollInterval is how often a store reads the change log (at least four
// times per MaxStale).
const pollInterval = 100 * time.Millisecond

// cached is one N2L answer: a record's first location, or its
// deactivation. Keys without a record are not cached, so that requests
// for random URNs cannot push out the answers of real ones.
type cached struct {
	url  string
	gone *GoneError
	none bool // the record has no location
}

const invalidationLog = 1024

type invalidation struct {
	key string
	all bool
}

// answerCache holds the answers without a pointer the garbage collector
// would follow: a million answers held as strings in a map made the
// collector's marking a third of the server's CPU (issue 23.1 profile).
// So an answer lives in one byte arena, [key length:2][key][URL
// length:2][URL][kind:1], found through a table from the key's 64-bit
// hash to its offset, neither of which is scanned. The table is open
// addressing in one flat slice rather than a Go map: a lookup among a
// million answers then touches one slot's memory instead of a group's
// control word and slot, which is most of its cost. A dropped answer leaves
// its bytes behind, and the arena is compacted when they are half of it.
// The few deactivated answers are kept apart, as values.
type answerCache struct {
	mu      sync.Mutex
	max     int
	seed    maphash.Seed
	idx     table // maphash of the key -> offset in arena
	arena   []byte
	garbage int                   // bytes of arena no longer indexed
	gone    map[string]*GoneError // answers of deactivated keys (kindGone)
	epoch   uint64                // invalidations so far
	log     [invalidationLog]invalidation

	maxBytes int    // bound of size()
	evicted  uint64 // answers dropped to make room

	// Freshness (issue 29). bound 0: no other writer to follow (a bare
	// cache in tests), always current.
	bound time.Duration
	clock func() time.Time
	fresh time.Time // when the last complete catch-up began; zero: never
	seen  time.Time // the latest reading of clock
	jumps uint64    // times clock went back

	hits, misses, bypassed atomic.Uint64
}

// indexBytes is what an answer costs in the index: a slot of 16 bytes in
// a table at most half full.
const indexBytes = 32

// The kinds of an arena entry.
const (
	kindURL  = 0
	kindNone = 1
	kindGone = 2
)

// maxArena bounds the arena so that an offset fits its uint32.
const maxArena = 1<<32 - 1

func newAnswerCache(max int) *answerCache {
	return &answerCache{max: max, maxBytes: math.MaxInt, seed: maphash.MakeSeed(), gone: map[string]*GoneError{}, clock: time.Now}
}

// size is the memory the answers take by the measure of maxBytes. c.mu
// is held.
func (c *answerCache) size() int { return len(c.arena) - c.garbage + indexBytes*c.idx.n }

// observe takes a reading of the clock. A reading earlier than the one
// before means the clock went back: then no catch-up is known to be
// recent, and one under way when it happened does not count. c.mu is
// held.
func (c *answerCache) observe() time.Time {
	now := c.clock()
	if now.Before(c.seen) {
		c.jumps++
		c.fresh = time.Time{}
	}
	c.seen = now
	return now
}

// current reports whether the cache may answer now: its last catch-up
// began at most bound ago. c.mu is held.
func (c *answerCache) current() bool {
	if c.bound == 0 {
		return true
	}
	now := c.observe()
	if c.fresh.IsZero() {
		return false
	}
	age := now.Sub(c.fresh)
	return age >= 0 && age <= c.bound
}

// reading returns the start of a catch-up, to pass to trust when it
// has reached the end of the log.
func (c *answerCache) reading() (time.Time, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.observe(), c.jumps
}

// trust records a complete catch-up that began at start, unless the
// clock went back since.
func (c *answerCache) trust(start time.Time, jumps uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if jumps == c.jumps && (c.fresh.IsZero() || start.After(c.fresh)) {
		c.fresh = start
	}
}

// age returns the time since the last complete catch-up began, and false
// when there has been none since the clock last went back.
func (c *answerCache) age() (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bound == 0 {
		return 0, true
	}
	now := c.observe()
	if c.fresh.IsZero() {
		return 0, false
	}
	return now.Sub(c.fresh), true
}

// entry reads the arena entry at off: its key, URL and kind, and its size.
func (c *answerCache) entry(off uint32) (key, url string, kind byte, size int) {
	a := c.arena[off:]
	kl := int(binary.LittleEndian.Uint16(a))
	// Bytes of the arena are never written again once appended (a
	// compaction makes a new arena), so the strings can share them.
	key = unsafe.String(&a[2], kl)
	a = a[2+kl:]
	ul := int(binary.LittleEndian.Uint16(a))
	if ul > 0 {
		url = unsafe.String(&a[2], ul)
	}
	kind = a[2+ul]
	return key, url, kind, 2 + kl + 2 + ul + 1
}

// find returns the offset of key's entry. c.mu is held.
func (c *answerCache) find(key string) (uint32, uint64, bool) {
	h := maphash.String(c.seed, key)
	off, ok := c.idx.get(h)
	if !ok {
		return 0, h, false
	}
	if k, _, _, _ := c.entry(off); k != key {
		return 0, h, false // another key with the same hash
	}
	return off, h, true
}

// get returns the answer under key, or the epoch to put one with.
func (c *answerCache) get(key string) (cached, bool, uint64) {
	c.mu.Lock()
	var v cached
	cur := c.current()
	var off uint32
	ok := false
	if cur {
		off, _, ok = c.find(key)
	}
	if ok {
		_, url, kind, _ := c.entry(off)
		switch kind {
		case kindURL:
			v.url = url
		case kindNone:
			v.none = true
		default:
			v.gone = c.gone[key]
		}
	}
	e := c.epoch
	c.mu.Unlock()
	switch {
	case ok:
		c.hits.Add(1)
	case cur:
		c.misses.Add(1)
	default:
		c.bypassed.Add(1)
	}
	return v, ok, e
}

// stale reports whether an invalidation since epoch e names key. c.mu
// is held.
func (c *answerCache) stale(key string, e uint64) bool {
	if c.epoch-e >= invalidationLog {
		return true
	}
	for i := e + 1; i <= c.epoch; i++ {
		if inv := c.log[i%invalidationLog]; inv.all || inv.key == key {
			return true
		}
	}
	return false
}

// put keeps v under key if nothing invalidated key since epoch e, when
// it was read. (It does so also while the cache is not current: v is the
// database's, and the catch-up that makes the cache current again drops
// it if it changed.)
func (c *answerCache) put(key string, v cached, e uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.stale(key, e) {
		c.store(key, v)
	}
}

// store adds or replaces key's entry. c.mu is held.
func (c *answerCache) store(key string, v cached) {
	need := len(key) + len(v.url) + 5
	if len(key) > 0xffff || len(v.url) > 0xffff || len(c.arena)+need > maxArena || need+indexBytes > c.maxBytes {
		return
	}
	c.drop(key)
	c.room(need + indexBytes)
	kind := byte(kindURL)
	switch {
	case v.gone != nil:
		kind = kindGone
		c.gone[key] = v.gone
	case v.none:
		kind = kindNone
	}
	off := uint32(len(c.arena))
	c.arena = binary.LittleEndian.AppendUint16(c.arena, uint16(len(key)))
	c.arena = append(c.arena, key...)
	c.arena = binary.LittleEndian.AppendUint16(c.arena, uint16(len(v.url)))
	c.arena = append(c.arena, v.url...)
	c.arena = append(c.arena, kind)
	c.idx.set(maphash.String(c.seed, key), off)
}

// drop removes key's entry. c.mu is held.
func (c *answerCache) drop(key string) {
	off, h, ok := c.find(key)
	if !ok {
		return
	}
	_, _, kind, size := c.entry(off)
	if kind == kindGone {
		delete(c.gone, key)
	}
	c.idx.delete(h)
	c.garbage += size
	c.compact()
}

// room makes room for one more entry of need bytes by dropping random
// ones, which costs nothing to track and does about as well as LRU on
// skewed traffic. c.mu is held.
func (c *answerCache) room(need int) {
	for c.idx.n > 0 && (c.idx.n >= c.max || c.size()+need > c.maxBytes) {
		off, _ := c.idx.any(rand.Uint64())
		key, _, _, _ := c.entry(off)
		c.drop(key)
		c.evicted++
	}
}

// compact copies the live entries into a new arena when dropped ones are
// half of it, so that the arena stays within twice what it holds. c.mu is
// held.
func (c *answerCache) compact() {
	if c.garbage < 1<<20 || c.garbage < len(c.arena)/2 {
		return
	}
	arena := make([]byte, 0, len(c.arena)-c.garbage)
	for i := range c.idx.slots {
		sl := &c.idx.slots[i]
		if sl.h == 0 {
			continue
		}
		_, _, _, size := c.entry(sl.off)
		off := sl.off
		sl.off = uint32(len(arena))
		arena = append(arena, c.arena[off:int(off)+size]...)
	}
	c.arena, c.garbage = arena, 0
}

// invalidate drops keys; all drops every key.
func (c *answerCache) invalidate(all bool, keys ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if all {
		c.idx = table{}
		clear(c.gone)
		c.arena, c.garbage = nil, 0
		c.epoch++
		c.log[c.epoch%invalidationLog] = invalidation{all: true}
		return
	}
	for _, k := range keys {
		c.drop(k)
		c.epoch++
		c.log[c.epoch%invalidationLog] = invalidation{key: strings.Clone(k)}
	}
}

func (c *answerCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.idx.n
}

// table maps 64-bit hashes to arena offsets: open addressing with linear
// probing in a power-of-two slice at most half full, deletion by
// shifting back the slots after (no tombstones). The hash 0 marks an
// empty slot, so a hash of 0 is stored as 1 (find compares the key).
type table struct {
	slots []slot
	n     int
}

type slot struct {
	h   uint64
	off uint32
}

func (t *table) get(h uint64) (uint32, bool) {
	if t.n == 0 {
		return 0, false
	}
	if h == 0 {
		h = 1
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch t.slots[i].h {
		case h:
			return t.slots[i].off, true
		case 0:
			return 0, false
		}
	}
}

func (t *table) set(h uint64, off uint32) {
	if h == 0 {
		h = 1
	}
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch t.slots[i].h {
		case h:
			t.slots[i].off = off
			return
		case 0:
			t.slots[i] = slot{h, off}
			t.n++
			return
		}
	}
}

func (t *table) grow() {
	old := t.slots
	t.slots = make([]slot, max(1024, 2*len(old)))
	t.n = 0
	for _, s := range old {
		if s.h != 0 {
			t.set(s.h, s.off)
		}
	}
}

func (t *table) delete(h uint64) {
	if h == 0 {
		h = 1
	}
	if t.n == 0 {
		return
	}
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for t.slots[i].h != h {
		if t.slots[i].h == 0 {
			return
		}
		i = (i + 1) & mask
	}
	// Shift back every slot of the run after i that may move into the
	// hole: one whose home is not between the hole and itself.
	for j := (i + 1) & mask; t.slots[j].h != 0; j = (j + 1) & mask {
		home := t.slots[j].h & mask
		if (j > i && (home <= i || home > j)) || (j < i && home <= i && home > j) {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = slot{}
	t.n--
}

// any returns the offset of a used slot, the first at or after r.
func (t *table) any(r uint64) (uint32, bool) {
	if t.n == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := r & mask; ; i = (i + 1) & mask {
		if t.slots[i].h != 0 {
			return t.slots[i].off, true
		}
	}
}

// Cache keeps the store's N2L answers in memory (CacheOptions), kept
// right by the writes of this process at once and by those of other
// processes and servers on the same database through the change log,
// never answering from memory more than MaxStale behind it (the comments
// at the top of cache.go, and of changes.go in package store, say how).
// Call it once, before the store serves; Close stops it.
func (s *Store) Cache(ctx context.Context, o CacheOptions) error {
	if s.cache.Load() != nil {
		return errors.New("resolver: Store.Cache called twice")
	}
	if o.Entries <= 0 {
		o.Entries = DefaultCacheEntries
	}
	c := newAnswerCache(o.Entries)
	c.maxBytes = o.Bytes
	if c.maxBytes <= 0 {
		c.maxBytes = DefaultCacheBytes
	}
	c.bound = o.MaxStale
	if c.bound <= 0 {
		c.bound = DefaultMaxStale
	}
	if o.now != nil {
		c.clock = o.now
	}
	t := &tailer{}
	if err := s.catchUp(ctx, c, t); err != nil {
		return err
	}
	wctx, cancel := context.WithCancel(context.Background())
	s.stopWatch = cancel
	wake := make(chan struct{}, 1)
	s.watch.Add(1)
	go s.follow(wctx, c, t, wake)
	s.watch.Add(1)
	go func() {
		defer s.watch.Done()
		s.db.Listen(wctx, func() {
			select {
			case wake <- struct{}{}:
			default:
			}
		})
	}()
	s.cache.Store(c)
	if o.Preload {
		_, err := s.Preload(ctx)
		return err
	}
	return nil
}

// CacheStats returns the N2L answers the cache holds and its hits and
// misses so far; all zero without a cache.
func (s *Store) CacheStats() (entries int, hits, misses uint64) {
	c := s.cache.Load()
	if c == nil {
		return 0, 0, 0
	}
	return c.len(), c.hits.Load(), c.misses.Load()
}

// CacheFreshness returns the lookups the cache did not answer because it
// was not current (its last catch-up with the change log began more than
// MaxStale ago), and the age of that catch-up; current is false while
// the cache does not answer for that reason. Without a cache it is
// 0, 0, false.
func (s *Store) CacheFreshness() (bypassed uint64, age time.Duration, current bool) {
	c := s.cache.Load()
	if c == nil {
		return 0, 0, false
	}
	age, ok := c.age()
	return c.bypassed.Load(), age, ok && age <= c.bound
}

// Preload reads into the cache the N2L answers of the records in key
// order until the cache is full (CacheOptions.Entries and Bytes) or ctx
// ends, and returns how many it holds then. Writes may go on meanwhile:
// a page of answers read before a write that changed one of its keys is
// not kept. A store without a cache preloads nothing.
func (s *Store) Preload(ctx context.Context) (int, error) {
	c := s.cache.Load()
	if c == nil {
		return 0, nil
	}
	err := s.preload(ctx, c)
	return c.len(), err
}

// preload reads the N2L answers a page of keys at a time, each page kept
// unless a write invalidated its keys meanwhile, until an answer had to
// make room.
func (s *Store) preload(ctx context.Context, c *answerCache) error {
	const page = 10000
	after := ""
	for {
		c.mu.Lock()
		e, full := c.epoch, c.evicted > 0 || c.idx.n >= c.max
		c.mu.Unlock()
		if full {
			return nil
		}
		keys, answers, err := s.db.FirstPage(ctx, after, page)
		if err != nil {
			return err
		}
		if len(keys) == 0 {
			return nil
		}
		c.mu.Lock()
		for i, key := range keys {
			if c.evicted > 0 || c.idx.n >= c.max {
				break
			}
			if !c.stale(key, e) {
				c.store(key, toCached(answers[i]))
			}
		}
		c.mu.Unlock()
		after = keys[len(keys)-1]
	}
}

func toCached(l store.Lookup) cached {
	switch {
	case l.Gone != nil:
		return cached{gone: &GoneError{URN: l.URN, Deactivation: *l.Gone}}
	case len(l.URLs) == 0:
		return cached{none: true}
	}
	return cached{url: l.URLs[0]}
}

func (v cached) lookup() store.Lookup {
	switch {
	case v.gone != nil:
		d := v.gone.Deactivation
		return store.Lookup{Found: true, URN: v.gone.URN, Gone: &d}
	case v.none:
		return store.Lookup{Found: true}
	}
	return store.Lookup{Found: true, URLs: []string{v.url}}
}

// first reads the N2L answer for key: from the cache when the store has
// one, else from the database (one prepared statement, which is its own
// read transaction).
func (s *Store) first(ctx context.Context, key string) (store.Lookup, error) {
	c := s.cache.Load()
	var epoch uint64
	if c != nil {
		v, ok, e := c.get(key)
		if ok {
			return v.lookup(), nil
		}
		epoch = e
	}
	l, err := s.db.First(ctx, key)
	if c != nil && err == nil && l.Found {
		c.put(key, toCached(l), epoch)
	}
	return l, err
}

// follow keeps c caught up with the change log: every pollInterval (at
// least four times per bound), and at once when woken. A catch-up that
// takes longer than the bound is given up, since it could not make the
// cache current anyway; a PostgreSQL connection that hangs without an
// error is then closed by pgx and the next catch-up takes another.
func (s *Store) follow(ctx context.Context, c *answerCache, t *tailer, wake <-chan struct{}) {
	defer s.watch.Done()
	tick := time.NewTicker(min(pollInterval, c.bound/4))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-wake:
		}
		cctx, cancel := context.WithTimeout(ctx, c.bound)
		s.catchUp(cctx, c, t) // an error leaves the cache to grow old
		cancel()
	}
}

// invalidate drops keys from this process's cache after a commit; all,
// or more keys than the change log names one by one, empties it.
func (s *Store) invalidate(all bool, keys ...string) {
	c := s.cache.Load()
	if c == nil {
		return
	}
	if len(keys) > store.MaxLoggedKeys {
		all = true
	}
	c.invalidate(all, keys...)
}

// The tailing of the change log bounds staleness. A catch-up that began
// at time t and reached the end of the log has applied every write
// acknowledged before t; the cache answers only while the last such
// start is at most MaxStale ago, by the server's monotonic clock, and
// otherwise every read goes to the database. So whatever stops the
// tailing (a connection that hangs without an error, a killed backend, a
// restarting database, a stalled process) costs speed, never an answer
// older than the bound.

// tailer is where a server is in the change log; only its follow
// goroutine touches it.
type tailer struct {
	last  int64 // the number of the last write applied
	known bool  // false until the first catch-up
}

// catchUp applies the log from t.last to its end to c, then lets c answer
// for MaxStale from the moment the catch-up began.
func (s *Store) catchUp(ctx context.Context, c *answerCache, t *tailer) error {
	start, gen := c.reading()
	n, keys, all, err := s.db.Changes(ctx, t.last, t.known)
	if err != nil {
		return err
	}
	if all || len(keys) > 0 {
		c.invalidate(all, keys...)
	}
	t.last, t.known = n, true
	c.trust(start, gen)
	return nil
}
