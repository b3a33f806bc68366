package resolver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
)

// Config configures a Server. Only Store is required.
type Config struct {
	Store *Store

	// Dialects says which URN grammar each namespace is read with;
	// the zero value reads all as RFC 8141.
	Dialects Dialects
	// DefaultServices gives the service of the path form "GET /URN"
	// when the URN names none, per namespace (lowercase NID); N2L when
	// absent (2012 draft section 2.3.1: the namespace's default).
	DefaultServices map[string]Service
	// Limits are the size limits; zero fields take DefaultLimits.
	Limits Limits
	// Schemes are the location schemes accepted; default http, https.
	Schemes []string
	// WriteRate and WriteBurst bound the admin requests of one client
	// (by IP address): WriteBurst at once, WriteRate per second after.
	// Zero takes 20 per second and a burst of 40; a negative rate turns
	// the limit off.
	WriteRate  float64
	WriteBurst int
	// CacheMaxAge is the max-age of successful resolution answers;
	// zero takes 60 seconds, negative sends no-cache. RFC 2169 section
	// 3.6 asks resolvers to honour HTTP caching.
	CacheMaxAge time.Duration
	// ImportTimeout bounds an import request; zero takes 30 minutes.
	ImportTimeout time.Duration
	// Logger receives the server's structured logs; nil discards them.
	Logger *slog.Logger
	// OAI configures the OAI-PMH provider at /oai.
	OAI OAIConfig
	// AccessLog logs every request at level Info (off by default: the
	// metrics count requests, and a log line per lookup costs more than
	// the lookup).
	AccessLog bool
}

// Server is the resolver's HTTP handler: the resolution services, the
// admin API, the lookup page, /healthz and /metrics.
type Server struct {
	store    *Store
	rec      *records                // the write side (records.go)
	mux      *http.ServeMux          // the routes (routes.go)
	fixed    map[string]http.Handler // the mux's routes of fixed GET paths
	pathForm http.Handler            // "GET /<URN>"
	other    http.Handler            // 404
	v        *validator
	defaults map[string]Service
	limiter  *rateLimiter
	metrics  *Metrics
	log      *slog.Logger
	access   bool
	cache    string // Cache-Control of successful resolution answers
	importTO time.Duration
	oai      oaiConfig

	// fullSince is when a write last failed on a full disk (Unix
	// nanoseconds), 0 once a write, or /readyz's probe of the body
	// limit's size, has succeeded since: a small probe write can still
	// fit where records no longer do.
	fullSince atomic.Int64
	ready     readiness // /readyz's probe (readiness.go)
}

// New returns a Server for cfg.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("resolver: Config.Store is nil")
	}
	s := &Server{
		store:    cfg.Store,
		v:        &validator{dialects: cfg.Dialects, limits: cfg.Limits.withDefaults(), schemes: cfg.Schemes},
		defaults: cfg.DefaultServices,
		metrics:  newMetrics(),
		log:      cfg.Logger,
		access:   cfg.AccessLog,
		importTO: cfg.ImportTimeout,
		oai:      cfg.OAI.withDefaults(),
	}
	s.ready.every, s.ready.now = probeEvery, time.Now
	s.rec = &records{st: s.store, v: s.v}
	s.v.schemes = lowerSchemes(cfg.Schemes)
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.importTO <= 0 {
		s.importTO = 30 * time.Minute
	}
	rate, burst := cfg.WriteRate, cfg.WriteBurst
	if rate == 0 {
		rate = 20
	}
	if burst <= 0 {
		burst = 40
	}
	if rate > 0 {
		s.limiter = newRateLimiter(rate, burst)
	}
	switch age := cfg.CacheMaxAge; {
	case age < 0:
		s.cache = "no-cache"
	case age == 0:
		s.cache = "public, max-age=60"
	default:
		s.cache = fmt.Sprintf("public, max-age=%d", int(age.Seconds()))
	}
	s.mux = s.routes()
	return s, nil
}

// lowerSchemes returns the allowed location schemes in lowercase (scheme
// names compare without case, RFC 3986 section 3.1), in a new slice: the
// caller's Config is never modified. None means http and https.
func lowerSchemes(in []string) []string {
	if len(in) == 0 {
		return defaultSchemes
	}
	out := make([]string, len(in))
	for i, sc := range in {
		out[i] = strings.ToLower(sc)
	}
	return out
}

// Metrics returns the server's metrics.
func (s *Server) Metrics() *Metrics { return s.metrics }

// serveMetrics answers /metrics: the Prometheus text format.
func (s *Server) serveMetrics(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	s.metrics.WriteTo(w)
	s.store.writeResolutionMetrics(w)
	if n, hits, misses := s.store.CacheStats(); hits+misses > 0 || n > 0 {
		fmt.Fprintf(w, "# HELP urnresolver_cache_entries N2L answers held in memory.\n# TYPE urnresolver_cache_entries gauge\nurnresolver_cache_entries %d\n", n)
		fmt.Fprintf(w, "# HELP urnresolver_cache_lookups_total N2L lookups by whether the cache answered.\n# TYPE urnresolver_cache_lookups_total counter\n")
		bypassed, age, current := s.store.CacheFreshness()
		fmt.Fprintf(w, "urnresolver_cache_lookups_total{result=\"hit\"} %d\nurnresolver_cache_lookups_total{result=\"miss\"} %d\n", hits, misses)
		fmt.Fprintf(w, "urnresolver_cache_lookups_total{result=\"bypass\"} %d\n", bypassed)
		fmt.Fprintf(w, "# HELP urnresolver_cache_current 1 while the cache answers: its last catch-up with the other servers' writes began within the staleness bound.\n# TYPE urnresolver_cache_current gauge\nurnresolver_cache_current %d\n", b2i(current))
		fmt.Fprintf(w, "# HELP urnresolver_cache_age_seconds Time since the last complete catch-up with the change log began.\n# TYPE urnresolver_cache_age_seconds gauge\nurnresolver_cache_age_seconds %g\n", age.Seconds())
	}
}

// serveHealth answers /healthz: 200 while the process and the database
// answer.
func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	w.Header().Set("Cache-Control", "no-store")
	if err := s.store.db.Ping(ctx); err != nil {
		s.metrics.storeError("ping")
		s.log.Warn("health check failed", "err", err)
		writeProblem(w, newProblem(probStore, http.StatusServiceUnavailable, "the database does not answer"))
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write([]byte("ok\n"))
}

// wrote notes a write that succeeded: the disk takes writes again.
func (s *Server) wrote() { s.fullSince.Store(0) }

// storeFailed answers 503 for a database error and counts it.
func (s *Server) storeFailed(w http.ResponseWriter, r *http.Request, op string, err error) {
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		// The client went away; there is no one to answer.
		w.WriteHeader(499)
		return
	}
	s.metrics.storeError(op)
	if err = store.DiskFull(err); errors.Is(err, ErrDiskFull) {
		s.fullSince.CompareAndSwap(0, time.Now().UnixNano())
		s.log.Error("store error: disk full", "op", op, "err", err)
		writeProblem(w, newProblem(probStore, http.StatusServiceUnavailable,
			"the database's disk is full: nothing was stored; writes fail until space is freed (see /readyz)"))
		return
	}
	s.log.Error("store error", "op", op, "err", err)
	writeProblem(w, newProblem(probStore, http.StatusServiceUnavailable, "the database failed; try again"))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
