package resolver

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"hash/maphash"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/jackc/pgx/v5/stdlib"
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
//   - on SQLite, another process writing the same file (urnresolver
//     import beside a running server) is seen by PRAGMA data_version on
//     the writer connection, which changes only when another connection
//     commits; the cache is then emptied, within pollInterval;
//   - on PostgreSQL, every write transaction sends its keys with
//     pg_notify, delivered at commit to every server that LISTENs on the
//     same database; while the listening connection is down, the cache
//     is off (and emptied when it is back), since a notification may have
//     been missed.
//
// A read that began before a write and ends after it must not put back
// what it read: every invalidation advances an epoch and is logged in a
// ring, and an answer read at epoch e is kept only if no invalidation
// since e names its key (or all keys).

// CacheOptions configures the N2L answer cache (Store.Cache).
type CacheOptions struct {
	// Entries bounds the answers held; when full, an arbitrary one
	// makes room. Zero takes DefaultCacheEntries. About 150 bytes each.
	Entries int
	// Preload reads the answers of up to Entries records at once,
	// instead of as they are asked for.
	Preload bool
}

// DefaultCacheEntries is the size of the cache when CacheOptions leaves
// it zero: a million answers, about 150 MB.
const DefaultCacheEntries = 1 << 20

// pollInterval is how often a SQLite store looks for commits of other
// processes.
const pollInterval = 100 * time.Millisecond

// notifyChannel is the PostgreSQL channel of cache invalidations; a
// payload is a key, or "" for every key.
const notifyChannel = "urnresolver_cache"

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
	on      bool                  // false while an invalidation may be missed
	epoch   uint64                // invalidations so far
	log     [invalidationLog]invalidation

	hits, misses atomic.Uint64
}

// The kinds of an arena entry.
const (
	kindURL  = 0
	kindNone = 1
	kindGone = 2
)

// maxArena bounds the arena so that an offset fits its uint32.
const maxArena = 1<<32 - 1

func newAnswerCache(max int) *answerCache {
	return &answerCache{max: max, seed: maphash.MakeSeed(), gone: map[string]*GoneError{}, on: true}
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
	off, _, ok := c.find(key)
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
	on := c.on
	c.mu.Unlock()
	if ok {
		c.hits.Add(1)
	} else if on {
		c.misses.Add(1)
	}
	return v, ok, e
}

// stale reports whether an invalidation since epoch e names key. c.mu
// is held.
func (c *answerCache) stale(key string, e uint64) bool {
	if !c.on || c.epoch-e >= invalidationLog {
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
// it was read.
func (c *answerCache) put(key string, v cached, e uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.stale(key, e) {
		c.store(key, v)
	}
}

// store adds or replaces key's entry. c.mu is held.
func (c *answerCache) store(key string, v cached) {
	if len(key) > 0xffff || len(v.url) > 0xffff || len(c.arena)+len(key)+len(v.url)+5 > maxArena {
		return
	}
	c.drop(key)
	c.room()
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

// room makes room for one more entry by dropping a random one, which
// costs nothing to track and does about as well as LRU on skewed
// traffic. c.mu is held.
func (c *answerCache) room() {
	if c.idx.n < c.max {
		return
	}
	if off, ok := c.idx.any(rand.Uint64()); ok {
		key, _, _, _ := c.entry(off)
		c.drop(key)
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

// setOn turns the cache on or off; both empty it.
func (c *answerCache) setOn(on bool) {
	c.invalidate(true)
	c.mu.Lock()
	c.on = on
	c.mu.Unlock()
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
// processes and servers on the same database within moments (the
// comment at the top of cache.go says how). Call it once, before the
// store serves; Close stops it.
func (s *Store) Cache(ctx context.Context, o CacheOptions) error {
	if s.cache.Load() != nil {
		return errors.New("resolver: Store.Cache called twice")
	}
	if o.Entries <= 0 {
		o.Entries = DefaultCacheEntries
	}
	c := newAnswerCache(o.Entries)
	wctx, cancel := context.WithCancel(context.Background())
	s.stopWatch = cancel
	s.watchDone = make(chan struct{})
	if s.d.postgres {
		// Off until the listener is up: nothing may be missed.
		c.on = false
		ready := make(chan struct{})
		go s.listen(wctx, c, ready)
		select {
		case <-ready:
		case <-ctx.Done():
			cancel()
			<-s.watchDone
			return ctx.Err()
		}
	} else {
		var v int64
		if err := s.w.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
			cancel()
			return err
		}
		go s.poll(wctx, c, v)
	}
	s.cache.Store(c)
	if o.Preload {
		return s.preload(ctx, c)
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

// preload reads the N2L answers of up to c.max records, a page of keys at
// a time, each page kept unless a write invalidated its keys meanwhile.
func (s *Store) preload(ctx context.Context, c *answerCache) error {
	const page = 10000
	after := ""
	for n := 0; n < c.max; {
		c.mu.Lock()
		e := c.epoch
		c.mu.Unlock()
		rows, err := s.r.QueryContext(ctx, s.q(`SELECT r.key, r.urn, r.deactivated_at, r.reason, r.successor, l.url
			FROM records r LEFT JOIN locations l ON l.key = r.key AND l.pos = 0 WHERE r.key > ? ORDER BY r.key LIMIT ?`), after, min(page, c.max-n))
		if err != nil {
			return err
		}
		type row struct {
			key string
			v   cached
		}
		var got []row
		for rows.Next() {
			var key, urn, reason, successor string
			var at sql.NullInt64
			var url sql.NullString
			if err := rows.Scan(&key, &urn, &at, &reason, &successor, &url); err != nil {
				rows.Close()
				return err
			}
			got = append(got, row{key, toCached(lookup{found: true, urn: urn, gone: deactivation(at, reason, successor), urls: nullURL(url)})})
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return err
		}
		if len(got) == 0 {
			return nil
		}
		c.mu.Lock()
		for _, r := range got {
			if !c.stale(r.key, e) {
				c.store(r.key, r.v)
			}
		}
		c.mu.Unlock()
		n += len(got)
		after = got[len(got)-1].key
	}
	return nil
}

func nullURL(u sql.NullString) []string {
	if u.Valid {
		return []string{u.String}
	}
	return nil
}

func toCached(l lookup) cached {
	switch {
	case l.gone != nil:
		return cached{gone: &GoneError{URN: l.urn, Deactivation: *l.gone}}
	case len(l.urls) == 0:
		return cached{none: true}
	}
	return cached{url: l.urls[0]}
}

func (v cached) lookup() lookup {
	switch {
	case v.gone != nil:
		d := v.gone.Deactivation
		return lookup{found: true, urn: v.gone.URN, gone: &d}
	case v.none:
		return lookup{found: true}
	}
	return lookup{found: true, urls: []string{v.url}}
}

// poll empties the cache when another process commits to the SQLite
// database: PRAGMA data_version, asked on the writer connection, changes
// only then (this process's writes are on that connection).
func (s *Store) poll(ctx context.Context, c *answerCache, last int64) {
	defer close(s.watchDone)
	t := time.NewTicker(pollInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var v int64
		if err := s.w.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
			if ctx.Err() != nil {
				return
			}
			// Unknown: nothing cached is trusted until it answers.
			c.setOn(false)
			continue
		}
		c.mu.Lock()
		on := c.on
		c.mu.Unlock()
		if v != last || !on {
			last = v
			c.setOn(true)
		}
	}
}

// listen receives the invalidations of every server on the PostgreSQL
// database. The cache is on only while it listens; ready is closed after
// the first attempt, so that Cache returns with the cache on when the
// database answers.
func (s *Store) listen(ctx context.Context, c *answerCache, ready chan struct{}) {
	defer close(s.watchDone)
	once := sync.OnceFunc(func() { close(ready) })
	defer once()
	for delay := 100 * time.Millisecond; ctx.Err() == nil; delay = min(2*delay, 5*time.Second) {
		conn, err := s.w.Conn(ctx)
		if err == nil {
			conn.Raw(func(dc any) error {
				pc := dc.(*stdlib.Conn).Conn()
				if _, err := pc.Exec(ctx, "LISTEN "+notifyChannel); err == nil {
					c.setOn(true)
					once()
					delay = 100 * time.Millisecond
					for {
						n, err := pc.WaitForNotification(ctx)
						if err != nil {
							break
						}
						c.invalidate(n.Payload == "", n.Payload)
					}
				}
				// The connection listens, or is broken: it never goes
				// back into the pool.
				return driver.ErrBadConn
			})
			conn.Close()
		}
		c.setOn(false)
		once()
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		}
	}
}

// notify tells the servers on a PostgreSQL database, in tx, that keys
// change when tx commits; all, or too many keys for one payload each,
// empties their caches. A store without a cache notifies too: it may be
// an urnresolver import beside running servers.
func (s *Store) notify(ctx context.Context, tx execer, all bool, keys ...string) error {
	if !s.d.postgres {
		return nil
	}
	if len(keys) > 1000 {
		all = true
	}
	if all {
		_, err := tx.ExecContext(ctx, `SELECT pg_notify($1, '')`, notifyChannel)
		return err
	}
	for _, k := range keys {
		if len(k) >= 7900 || strings.ContainsRune(k, 0) {
			_, err := tx.ExecContext(ctx, `SELECT pg_notify($1, '')`, notifyChannel)
			return err
		}
		if _, err := tx.ExecContext(ctx, `SELECT pg_notify($1, $2)`, notifyChannel, k); err != nil {
			return err
		}
	}
	return nil
}

// invalidate drops keys from this process's cache after a commit; all,
// or many keys, empties it.
func (s *Store) invalidate(all bool, keys ...string) {
	c := s.cache.Load()
	if c == nil {
		return
	}
	if len(keys) > invalidationLog/2 {
		all = true
	}
	c.invalidate(all, keys...)
}
