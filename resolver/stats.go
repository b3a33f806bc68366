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

// Resolutions per namespace and day (issue 30). A resolution of a URN
// that has a record (active or deactivated) adds one to its namespace's
// counter in memory: an atomic add on the request's path, never a
// write. A background flusher adds what was counted since its last flush
// to the database's table of counts (every StatsFlushEvery, at each UTC
// midnight for the day that ended, and when the Store closes), where
// every server's counts add up; GET /admin/stats flushes and reads it.
// A flush that fails is tried again with the counts of the next.

// StatsFlushEvery is how often the resolution counts are added to the
// database.
var StatsFlushEvery = time.Minute

// NamespaceCount is the number of resolutions of one namespace.
type NamespaceCount = store.Count

// resolutionStats counts resolutions by namespace. counters is an
// immutable map, replaced whole (under mu) when a namespace is first
// counted, so that a count is a map lookup and an atomic add.
type resolutionStats struct {
	counters atomic.Pointer[map[string]*atomic.Uint64]
	mu       sync.Mutex        // adding a namespace; flushing
	flushed  map[string]uint64 // what the database has, by namespace
	today    map[string]uint64 // the counts at the start of day
	day      string            // the UTC day being counted, YYYY-MM-DD

	start, stopped sync.Once
	stop           chan struct{}
	done           chan struct{}
}

// countResolution counts a resolution of a URN of the namespace nid.
func (s *Store) countResolution(nid string) {
	if m := s.stats.counters.Load(); m != nil {
		if c, ok := (*m)[nid]; ok {
			c.Add(1)
			return
		}
	}
	s.newCounter(nid).Add(1)
}

// newCounter adds the namespace nid to the counters, and starts the
// flusher with the first.
func (s *Store) newCounter(nid string) *atomic.Uint64 {
	st := &s.stats
	st.mu.Lock()
	defer st.mu.Unlock()
	old := st.counters.Load()
	if old != nil {
		if c, ok := (*old)[nid]; ok {
			return c
		}
	}
	m := make(map[string]*atomic.Uint64, 1)
	if old != nil {
		for k, v := range *old {
			m[k] = v
		}
	}
	c := new(atomic.Uint64)
	m[strings.Clone(nid)] = c
	st.counters.Store(&m)
	st.start.Do(func() {
		st.flushed, st.today = map[string]uint64{}, map[string]uint64{}
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
	now := make(map[string]uint64, len(*m))
	var cs []store.Count
	for nid, c := range *m {
		v := c.Load()
		now[nid] = v
		if d := v - st.flushed[nid]; d > 0 {
			cs = append(cs, store.Count{Day: st.day, NID: nid, N: int64(d)})
		}
	}
	if err := s.db.AddResolutions(ctx, cs); err != nil {
		return err
	}
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
// the total per namespace since it started, and the count of the UTC
// day being counted.
func (s *Store) writeResolutionMetrics(w io.Writer) {
	st := &s.stats
	m := st.counters.Load()
	if m == nil {
		return
	}
	st.mu.Lock()
	day, today := st.day, st.today
	st.mu.Unlock()
	nids := make([]string, 0, len(*m))
	for nid := range *m {
		nids = append(nids, nid)
	}
	sort.Strings(nids)
	fmt.Fprintln(w, "# HELP urnresolver_resolutions_total Resolutions of URNs that have a record, by namespace, since the server started.")
	fmt.Fprintln(w, "# TYPE urnresolver_resolutions_total counter")
	for _, nid := range nids {
		fmt.Fprintf(w, "urnresolver_resolutions_total{namespace=%s} %d\n", quoteLabel(nid), (*m)[nid].Load())
	}
	fmt.Fprintln(w, "# HELP urnresolver_resolutions_day Resolutions by namespace in the UTC day being counted, by this server (GET /admin/stats: every server's, every day).")
	fmt.Fprintln(w, "# TYPE urnresolver_resolutions_day gauge")
	for _, nid := range nids {
		fmt.Fprintf(w, "urnresolver_resolutions_day{namespace=%s,day=%q} %d\n", quoteLabel(nid), day, (*m)[nid].Load()-today[nid])
	}
}

// statsDays is how far back GET /admin/stats reads without "since".
const statsDays = 30

// adminStats answers GET /admin/stats[?since=YYYY-MM-DD]: the
// resolutions per day and namespace of the token's namespaces, counted
// by every server, from 30 days ago or since.
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
		if nids[c.NID] {
			out = append(out, c)
		}
	}
	writeJSON(w, http.StatusOK, struct {
		Since       string           `json:"since"`
		Resolutions []NamespaceCount `json:"resolutions"`
	}{since, out})
}
