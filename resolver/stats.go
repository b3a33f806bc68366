package resolver

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
)

// Resolutions per namespace, registrar and day (issue 30). A resolution
// of a URN that has a record (active or deactivated) adds one to the
// counter of its namespace and of the registrar whose prefix it is
// under ("" for none) in memory: an atomic add on the request's path,
// never a write. The registrars' prefixes are read at the first count,
// at every flush and when this process adds a registrar, so a registrar
// another server adds is counted apart from its next flush on (until
// then its URNs count under the namespace alone). A background flusher adds what was counted since its last flush
// to the database's table of counts (every StatsFlushEvery, at each UTC
// midnight for the day that ended, and when the Store closes), where
// every server's counts add up; GET /admin/stats flushes and reads it.
// A flush that fails is tried again with the counts of the next.

// StatsFlushEvery is how often the resolution counts are added to the
// database.
var StatsFlushEvery = time.Minute

// NamespaceCount is the number of resolutions of one namespace and
// registrar ("" for none) in one day.
type NamespaceCount = store.Count

// statKey is what a resolution is counted under.
type statKey struct{ nid, registrar string }

// registrarPrefix is a registrar's code and the key its URNs start with.
type registrarPrefix struct{ code, key string }

// resolutionStats counts resolutions by namespace and registrar.
// counters is an immutable map, replaced whole (under mu) when a key is
// first counted, so that a count is a map lookup and an atomic add.
type resolutionStats struct {
	counters   atomic.Pointer[map[statKey]*atomic.Uint64]
	registrars atomic.Pointer[[]registrarPrefix]
	mu         sync.Mutex         // adding a key; flushing
	flushed    map[statKey]uint64 // what the database has
	today      map[statKey]uint64 // the counts at the start of day
	day        string             // the UTC day being counted, YYYY-MM-DD

	regOnce        sync.Once // the registrars' first read
	start, stopped sync.Once
	stop           chan struct{}
	done           chan struct{}
}

// countResolution counts a resolution of the URN under key, of the
// namespace nid.
func (s *Store) countResolution(nid, key string) {
	k := statKey{nid: nid}
	s.stats.regOnce.Do(func() { s.loadRegistrars(context.Background()) })
	if rs := s.stats.registrars.Load(); rs != nil {
		for _, r := range *rs {
			if strings.HasPrefix(key, r.key) {
				k.registrar = r.code
				break
			}
		}
	}
	if m := s.stats.counters.Load(); m != nil {
		if c, ok := (*m)[k]; ok {
			c.Add(1)
			return
		}
	}
	s.newCounter(k).Add(1)
}

// loadRegistrars reads the registrars' prefixes for countResolution;
// on a failure the last ones stay.
func (s *Store) loadRegistrars(ctx context.Context) {
	regs, err := s.db.RegistrarPrefixes(ctx)
	if err != nil {
		return
	}
	rs := make([]registrarPrefix, len(regs))
	for i, r := range regs {
		rs[i] = registrarPrefix{code: r.Code, key: r.PrefixKey}
	}
	s.stats.registrars.Store(&rs)
}

// newCounter adds k to the counters, and starts the flusher with the
// first.
func (s *Store) newCounter(k statKey) *atomic.Uint64 {
	st := &s.stats
	st.mu.Lock()
	defer st.mu.Unlock()
	old := st.counters.Load()
	if old != nil {
		if c, ok := (*old)[k]; ok {
			return c
		}
	}
	m := make(map[statKey]*atomic.Uint64, 1)
	if old != nil {
		for k, v := range *old {
			m[k] = v
		}
	}
	c := new(atomic.Uint64)
	m[statKey{strings.Clone(k.nid), strings.Clone(k.registrar)}] = c
	st.counters.Store(&m)
	st.start.Do(func() {
		st.flushed, st.today = map[statKey]uint64{}, map[statKey]uint64{}
		st.day = time.Now().UTC().Format(time.DateOnly)
		st.stop, st.done = make(chan struct{}), make(chan struct{})
		go s.flushStats()
	})
	return c
}

// flushStats flushes the counts every StatsFlushEvery and at each UTC
// midnight, until the Store closes.
func (s *Store) flushStats() {
	st := &s.stats
	defer close(st.done)
	for {
		now := time.Now().UTC()
		midnight := now.Truncate(24 * time.Hour).Add(24 * time.Hour)
		wait := min(StatsFlushEvery, midnight.Sub(now))
		t := time.NewTimer(wait)
		select {
		case <-st.stop:
			t.Stop()
			s.flush(context.Background())
			return
		case <-t.C:
			s.flush(context.Background())
		}
	}
}

// flush adds the counts since the last flush to the database, under
// the day being counted, and starts a new day after midnight.
func (s *Store) flush(ctx context.Context) error {
	st := &s.stats
	st.mu.Lock()
	defer st.mu.Unlock()
	m := st.counters.Load()
	if m == nil {
		return nil
	}
	now := make(map[statKey]uint64, len(*m))
	var cs []store.Count
	for k, c := range *m {
		v := c.Load()
		now[k] = v
		if d := v - st.flushed[k]; d > 0 {
			cs = append(cs, store.Count{Day: st.day, NID: k.nid, Registrar: k.registrar, N: int64(d)})
		}
	}
	if err := s.db.AddResolutions(ctx, cs); err != nil {
		return err
	}
	s.loadRegistrars(ctx)
	st.flushed = now
	if day := time.Now().UTC().Format(time.DateOnly); day != st.day {
		st.day = day
		st.today = now
	}
	return nil
}

// stopStats stops the flusher, which flushes a last time.
func (s *Store) stopStats() {
	st := &s.stats
	st.mu.Lock()
	started := st.stop != nil
	st.mu.Unlock()
	if started {
		st.stopped.Do(func() { close(st.stop) })
		<-st.done
	}
}

// Resolutions flushes this process's counts and returns the stored
// counts of every server, from the day since on (YYYY-MM-DD, "" for
// all), by day and namespace.
func (s *Store) Resolutions(ctx context.Context, since string) ([]NamespaceCount, error) {
	if err := s.flush(ctx); err != nil {
		return nil, err
	}
	return s.db.Resolutions(ctx, since)
}

// writeResolutionMetrics writes this process's counts for /metrics:
// the total per namespace and registrar since it started, and the count
// of the UTC day being counted; the registrar label is left out for the
// URNs of no registrar.
func (s *Store) writeResolutionMetrics(w io.Writer) {
	st := &s.stats
	m := st.counters.Load()
	if m == nil {
		return
	}
	st.mu.Lock()
	day, today := st.day, st.today
	st.mu.Unlock()
	keys := make([]statKey, 0, len(*m))
	for k := range *m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].nid != keys[j].nid {
			return keys[i].nid < keys[j].nid
		}
		return keys[i].registrar < keys[j].registrar
	})
	labels := func(k statKey) string {
		l := "namespace=" + quoteLabel(k.nid)
		if k.registrar != "" {
			l += ",registrar=" + quoteLabel(k.registrar)
		}
		return l
	}
	fmt.Fprintln(w, "# HELP urnresolver_resolutions_total Resolutions of URNs that have a record, by namespace and registrar, since the server started.")
	fmt.Fprintln(w, "# TYPE urnresolver_resolutions_total counter")
	for _, k := range keys {
		fmt.Fprintf(w, "urnresolver_resolutions_total{%s} %d\n", labels(k), (*m)[k].Load())
	}
	fmt.Fprintln(w, "# HELP urnresolver_resolutions_day Resolutions by namespace and registrar in the UTC day being counted, by this server (GET /admin/stats: every server's, every day).")
	fmt.Fprintln(w, "# TYPE urnresolver_resolutions_day gauge")
	for _, k := range keys {
		fmt.Fprintf(w, "urnresolver_resolutions_day{%s,day=%q} %d\n", labels(k), day, (*m)[k].Load()-today[k])
	}
}

// statsDays is how far back GET /admin/stats reads without "since".
const statsDays = 30

// adminStats answers GET /admin/stats[?since=YYYY-MM-DD]: the
// resolutions per day, namespace and registrar of the token's
// namespaces (a registrar's token: of its registrar), counted by every
// server, from 30 days ago or since.
func (s *Server) adminStats(w http.ResponseWriter, r *http.Request) {
	wr, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	since := time.Now().UTC().AddDate(0, 0, -statsDays).Format(time.DateOnly)
	if v := r.URL.Query().Get("since"); v != "" {
		if _, err := time.Parse(time.DateOnly, v); err != nil {
			writeProblem(w, newProblem(probBadRequest, http.StatusBadRequest, "since is a day, YYYY-MM-DD"))
			return
		}
		since = v
	}
	counts, err := s.store.Resolutions(r.Context(), since)
	if err != nil {
		s.adminError(w, r, "stats", err)
		return
	}
	nids := map[string]bool{}
	for _, sc := range wr.tok.Scopes {
		nids[sc.NID] = true
	}
	out := []NamespaceCount{}
	for _, c := range counts {
		// A registrar's token sees its registrar's counts only.
		if nids[c.NID] && (wr.tok.Registrar == "" || c.Registrar == wr.tok.Registrar) {
			out = append(out, c)
		}
	}
	writeJSON(w, http.StatusOK, struct {
		Since       string           `json:"since"`
		Resolutions []NamespaceCount `json:"resolutions"`
	}{since, out})
}
