package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/urikit/urikit/resolver"
)

const serveHelp = `usage: urnresolver serve [--addr HOST:PORT] [--db DSN] [flags]

Runs the resolver over HTTP until SIGINT or SIGTERM, then finishes the
requests in flight. Once it listens it prints one line on stdout with
where (addr=, url=) and on which database (store=, db=); logs go to
stderr. The database's schema is brought up to date first.

Endpoints: /uri-res/<service>?<URN> (N2L, N2Ls, N2R, N2Rs, N2C, N2Cs, N2N,
N2Ns, I=I, L2N, L2Ns and the I2L... names), /<URN>, the lookup page /,
/admin/records/<URN>, /admin/deactivations/<URN> and /admin/import
(bearer tokens, see "urnresolver help token"), /healthz, /readyz (can the
store take writes), /metrics. DELETE of a record deactivates it: its URN
answers 410 Gone, never 404.

N2L answers are kept in memory (--cache-entries, --cache-bytes), read in
the background at start (--cache-preload), and each dropped by the write
that changes it: this server's at once, those of other servers and
processes on the same database (urnresolver import, a second server)
through the database's change log, within 0.1 s or, with PostgreSQL, at
once by LISTEN/NOTIFY. No answer from memory is more than 1 s older than
a write acknowledged anywhere: a server that cannot read the change log
for that long answers from the database (/metrics: urnresolver_cache_current).

Examples:
  urnresolver serve
  urnresolver serve --addr 0.0.0.0:8080 --db /var/lib/urikit/urn.db
  urnresolver serve --db postgres://resolver@db.internal/urn --addr 10.0.0.11:8080
  urnresolver serve --dialects nbn=draft2012 --default-services isbn=N2C
  URNRESOLVER_DB=/srv/urn.db URNRESOLVER_ADDR=:8080 urnresolver serve

Flags:
`

// runServe runs the HTTP server until SIGINT or SIGTERM, then shuts down
// gracefully: it stops accepting connections, lets requests in flight
// finish within --shutdown-timeout, and closes the database.
//
// Once ready it writes exactly one line on stdout, a log line with the
// address it listens on (useful with --addr 127.0.0.1:0); all other logs
// go to stderr.
func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("serve", stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), serveHelp)
		fs.PrintDefaults()
	}
	addr := fs.String("addr", "127.0.0.1:8080", "`HOST:PORT` to listen on (port 0 picks a free one)")
	dsn := fs.String("db", defaultDB(), "database: a SQLite file `path`, or a postgres:// URL")
	dialects := fs.String("dialects", "", "URN grammar per namespace, as `nbn=draft2012,isbn=rfc8141` (default rfc8141)")
	defaults := fs.String("default-services", "", "service of GET /URN per namespace, as `nbn=N2Ls` (default N2L)")
	var schemes listFlag
	fs.Var(&schemes, "schemes", "location `schemes` allowed (default http,https)")
	writeRate := fs.Float64("write-rate", 20, "admin requests per second per client IP (negative: no limit)")
	writeBurst := fs.Int("write-burst", 40, "admin requests a client may make at once")
	cacheAge := fs.Duration("cache-max-age", 60*time.Second, "Cache-Control max-age of resolution answers")
	readHeader := fs.Duration("read-header-timeout", 5*time.Second, "time to read a request's headers")
	readTO := fs.Duration("read-timeout", 30*time.Second, "time to read a whole request (imports get --import-timeout)")
	writeTO := fs.Duration("write-timeout", 30*time.Second, "time to write a response")
	idleTO := fs.Duration("idle-timeout", 120*time.Second, "keep-alive idle time")
	importTO := fs.Duration("import-timeout", 30*time.Minute, "time an import request may take")
	shutdownTO := fs.Duration("shutdown-timeout", 15*time.Second, "time to finish requests in flight on SIGTERM")
	maxHeader := fs.Int("max-header-bytes", 16<<10, "request line and headers limit")
	maxBody := fs.Int64("max-body-bytes", 1<<20, "single-record request body limit")
	maxImport := fs.Int64("max-import-bytes", 1<<30, "import request body limit")
	logFormat := fs.String("log-format", "text", "log format on stderr: text or json")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn, error")
	accessLog := fs.Bool("access-log", false, "log every request (at info)")
	cacheEntries := fs.Int("cache-entries", resolver.DefaultCacheEntries, "N2L answers kept in memory, about 100 bytes each (0: no cache)")
	cacheBytes := fs.Int("cache-bytes", resolver.DefaultCacheBytes, "memory for the N2L answers, in `bytes`")
	cachePreload := fs.Bool("cache-preload", true, "read the N2L answers of the records into memory in the background at start, until --cache-entries or --cache-bytes")
	oaiName := fs.String("oai-name", "URN resolver", "OAI-PMH repositoryName (Identify)")
	var oaiEmail listFlag
	fs.Var(&oaiEmail, "oai-admin-email", "OAI-PMH adminEmail `addresses` (Identify; default admin@example.org)")
	oaiBase := fs.String("oai-base-url", "", "OAI-PMH baseURL (default http://HOST/oai, HOST the request's)")
	oaiPage := fs.Int("oai-page-size", 200, "records per page of an OAI-PMH list")
	pprofAddr := fs.String("pprof-addr", "", "serve net/http/pprof on this separate `HOST:PORT` (off by default; keep it on loopback)")
	if code := parseFlags(fs, args, stderr); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "urnresolver serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(stderr, "urnresolver serve: --log-level: %v\n", err)
		return 2
	}
	hopts := &slog.HandlerOptions{Level: level}
	var logger *slog.Logger
	switch *logFormat {
	case "text":
		logger = slog.New(slog.NewTextHandler(stderr, hopts))
	case "json":
		logger = slog.New(slog.NewJSONHandler(stderr, hopts))
	default:
		fmt.Fprintf(stderr, "urnresolver serve: --log-format: want text or json, not %q\n", *logFormat)
		return 2
	}
	dia, err := resolver.ParseDialects(*dialects)
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver serve: --dialects: %v\n", err)
		return 2
	}
	defs, err := resolver.ParseServiceDefaults(*defaults)
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver serve: --default-services: %v\n", err)
		return 2
	}

	store, err := openStore(*dsn)
	if err != nil {
		logger.Error("cannot open the database", "db", redactDSN(*dsn), "err", err)
		return 1
	}
	defer store.Close()
	if *cacheEntries > 0 {
		if err := store.Cache(context.Background(), resolver.CacheOptions{Entries: *cacheEntries, Bytes: *cacheBytes}); err != nil {
			logger.Error("cannot start the answer cache", "err", err)
			return 1
		}
		if *cachePreload {
			// In the background: the server answers meanwhile, from the
			// database what is not loaded yet.
			pctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				start := time.Now()
				n, err := store.Preload(pctx)
				if err != nil && pctx.Err() == nil {
					logger.Warn("answer cache preload stopped", "entries", n, "err", err)
					return
				}
				logger.Info("answer cache preloaded", "entries", n, "took", time.Since(start).Round(time.Millisecond))
			}()
		}
	}
	srv, err := resolver.New(resolver.Config{
		Store: store, Dialects: dia, DefaultServices: defs, Schemes: schemes,
		Limits:    resolver.Limits{BodyBytes: *maxBody, ImportBytes: *maxImport},
		WriteRate: *writeRate, WriteBurst: *writeBurst, CacheMaxAge: *cacheAge,
		ImportTimeout: *importTO, Logger: logger, AccessLog: *accessLog,
		OAI: resolver.OAIConfig{RepositoryName: *oaiName, AdminEmail: oaiEmail, BaseURL: *oaiBase, PageSize: *oaiPage},
	})
	if err != nil {
		logger.Error("cannot start", "err", err)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		logger.Error("cannot listen", "addr", *addr, "err", err)
		return 1
	}
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: *readHeader,
		ReadTimeout:       *readTO,
		WriteTimeout:      *writeTO,
		IdleTimeout:       *idleTO,
		MaxHeaderBytes:    *maxHeader,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	ln = resolver.GuardFraming(hs, ln)
	if *pprofAddr != "" {
		pl, err := net.Listen("tcp", *pprofAddr)
		if err != nil {
			logger.Error("cannot listen for pprof", "addr", *pprofAddr, "err", err)
			return 1
		}
		mux := http.NewServeMux()
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
		go (&http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}).Serve(pl)
		logger.Info("pprof listening", "addr", pl.Addr().String())
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()

	ready := slog.New(slog.NewTextHandler(stdout, nil))
	ready.Info("urnresolver ready", "addr", ln.Addr().String(), "url", "http://"+ln.Addr().String()+"/",
		"store", store.Kind(), "db", redactDSN(absDSN(*dsn)),
		"dialects", dialectsOrDefault(dia))

	select {
	case err := <-done:
		if !errors.Is(err, http.ErrServerClosed) {
			logger.Error("server failed", "err", err)
			return 1
		}
		return 0
	case <-ctx.Done():
	}
	stop()
	logger.Info("shutting down", "timeout", *shutdownTO)
	sctx, cancel := context.WithTimeout(context.Background(), *shutdownTO)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		logger.Warn("shutdown did not finish in time; closing connections", "err", err)
		hs.Close()
	}
	<-done
	logger.Info("stopped")
	return 0
}

// absDSN returns a SQLite path made absolute, so that the ready line
// says which file is in use whatever the working directory.
func absDSN(dsn string) string {
	if resolver.IsPostgres(dsn) {
		return dsn
	}
	if abs, err := filepath.Abs(dsn); err == nil {
		return abs
	}
	return dsn
}

func dialectsOrDefault(d resolver.Dialects) string {
	if s := d.String(); s != "" {
		return strings.TrimSpace(s) + ",*=rfc8141"
	}
	return "*=rfc8141"
}
