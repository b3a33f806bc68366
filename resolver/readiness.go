package resolver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
)

// probeEvery is how long /readyz reuses the answer of its probe: a
// balancer may ask many times a second, and each probe is a committed
// write (an fsync).
const probeEvery = time.Second

// probeTimeout bounds a probe; a store that does not commit within it is
// not ready.
const probeTimeout = 5 * time.Second

// readiness holds /readyz's last probe. /readyz used to stay 503 after a
// full disk was freed until some write succeeded, which a balancer that
// routes writes by /readyz never sends (issue 29.5); now /readyz finds
// out by itself: it probes, at most once per probeEvery, and after a
// write failed on a full disk its probe is a write as large as the body
// limit, so that 200 means a record fits again, not only a row.
type readiness struct {
	every time.Duration
	now   func() time.Time // the clock; tests move it

	mu     sync.Mutex // held across a probe: concurrent requests share it
	at     time.Time  // when the last probe ran; zero before the first
	full   int64      // Server.fullSince when it ran
	err    error      // what it found
	probes int        // how many have run
}

// writable returns whether the store takes writes, from a probe no older
// than s.ready.every, or from a new one when the last is older or a
// write has failed on a full disk since.
func (s *Server) writable() error {
	rd := &s.ready
	rd.mu.Lock()
	defer rd.mu.Unlock()
	full := s.fullSince.Load()
	if !rd.at.IsZero() && full == rd.full && rd.now().Sub(rd.at) < rd.every {
		return rd.err
	}
	// Not the request's context: the answer serves every request
	// within rd.every, and a client that goes away must not make it
	// a failure.
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	size := 0
	if full != 0 {
		size = int(s.v.limits.BodyBytes)
	}
	err := store.DiskFull(s.store.db.Probe(ctx, size))
	switch {
	case err == nil && full != 0:
		s.fullSince.CompareAndSwap(full, 0)
		s.log.Info("ready again: the disk takes a write of the body limit", "bytes", size)
	case errors.Is(err, ErrDiskFull):
		s.fullSince.CompareAndSwap(0, time.Now().UnixNano())
		s.log.Error("not ready: disk full", "probe_bytes", size, "err", err)
	case err != nil:
		s.metrics.storeError("probe")
		s.log.Warn("not ready", "err", err)
	}
	rd.at, rd.full, rd.err = rd.now(), s.fullSince.Load(), err
	rd.probes++
	return err
}

// serveReady answers /readyz: 200 when the store takes writes, 503 with
// the reason otherwise (a full disk says so). /healthz says only that the
// process and the database answer; a load balancer that routes writes
// asks /readyz.
func (s *Server) serveReady(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	err := s.writable()
	if err == nil {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ready\n"))
		return
	}
	detail := "the database does not take writes: " + truncate(err.Error(), 300)
	if errors.Is(err, ErrDiskFull) {
		detail = "the database's disk is full: " + truncate(err.Error(), 300)
		if since := s.fullSince.Load(); since != 0 {
			detail = fmt.Sprintf("the database's disk is full: writes have failed since %s, and so does a probe write of %d bytes (%s); /readyz probes again at most every %s and answers 200 once one fits",
				time.Unix(0, since).UTC().Format(time.RFC3339), s.v.limits.BodyBytes, truncate(err.Error(), 300), s.ready.every)
		}
	}
	writeProblem(w, newProblem(probNotReady, http.StatusServiceUnavailable, detail))
}
