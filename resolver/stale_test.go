package resolver

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
	"github.com/urikit/urikit/resolver/internal/store/storetest"
)

// faultProxy stands between a server and PostgreSQL on 127.0.0.1 and
// makes the faults of a real network: a connection that stops
// forwarding without an error or a close (a frozen proxy, a NAT mapping
// that timed out), new connections that go nowhere, a database that is
// gone.
type faultProxy struct {
	ln     net.Listener
	target string

	mu        sync.Mutex
	conns     []*proxyConn
	freezeNew bool
}

type proxyConn struct {
	client, server net.Conn
	frozen         atomic.Bool
	listens        atomic.Bool // carried LISTEN urnresolver_cache
	closed         chan struct{}
	once           sync.Once
}

func (c *proxyConn) close() {
	c.once.Do(func() {
		close(c.closed)
		c.client.Close()
		c.server.Close()
	})
}

func newFaultProxy(t *testing.T, target string) *faultProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{ln: ln, target: target}
	go p.accept()
	t.Cleanup(func() {
		ln.Close()
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, c := range p.conns {
			c.close()
		}
	})
	return p
}

func (p *faultProxy) accept() {
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			client.Close()
			continue
		}
		c := &proxyConn{client: client, server: server, closed: make(chan struct{})}
		p.mu.Lock()
		c.frozen.Store(p.freezeNew)
		p.conns = append(p.conns, c)
		p.mu.Unlock()
		go p.pipe(c, client, server, true)
		go p.pipe(c, server, client, false)
	}
}

// pipe forwards src to dst until the connection closes; once frozen it
// reads on and forwards nothing, so that neither end sees an error.
func (p *faultProxy) pipe(c *proxyConn, src, dst net.Conn, fromClient bool) {
	defer c.close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && fromClient && bytes.Contains(buf[:n], []byte("LISTEN "+store.NotifyChannel)) {
			c.listens.Store(true)
		}
		if n > 0 && !c.frozen.Load() {
			if _, err := dst.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			if c.frozen.Load() {
				<-c.closed // a frozen connection does not even pass on a close
			}
			return
		}
	}
}

// freeze freezes the open connections that match, and returns how many.
func (p *faultProxy) freeze(match func(*proxyConn) bool) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, c := range p.conns {
		select {
		case <-c.closed:
			continue
		default:
		}
		if match(c) {
			c.frozen.Store(true)
			n++
		}
	}
	return n
}

func (p *faultProxy) setFreezeNew(on bool) {
	p.mu.Lock()
	p.freezeNew = on
	p.mu.Unlock()
}

// dropFrozen closes the frozen connections, as TCP does in the end.
func (p *faultProxy) dropFrozen() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		if c.frozen.Load() {
			c.close()
		}
	}
}

// withHost returns dsn with its host:port replaced and a query
// parameter added.
func withHost(t testing.TB, dsn, host, param string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		u.Host = host
	}
	if param != "" {
		u.RawQuery += "&" + param
	}
	return u.String()
}

// jumpClock is the wall clock moved by an offset the test changes: a
// clock that jumps.
type jumpClock struct{ offset atomic.Int64 }

func (c *jumpClock) now() time.Time { return time.Now().Add(time.Duration(c.offset.Load())) }

// staleProbe is one server with a cache (a) and one that writes (b, no
// cache), on one database; a reaches it as the test says.
type staleProbe struct {
	t        *testing.T
	a, b     *Store
	bound    time.Duration
	clock    *jumpClock
	key, urn string
	version  int
}

func newStaleProbe(t *testing.T, dsnA, dsnB string, bound time.Duration) *staleProbe {
	t.Helper()
	p := &staleProbe{t: t, bound: bound, clock: &jumpClock{}, urn: "urn:example:stale"}
	n, err := Dialects{}.Parse(p.urn)
	if err != nil {
		t.Fatal(err)
	}
	p.key = n.Key()
	p.b = openTestStore(t, dsnB)
	p.write()
	p.a = openTestStore(t, dsnA)
	if err := p.a.Cache(context.Background(), CacheOptions{Entries: 100, MaxStale: bound, now: p.clock.now}); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p *staleProbe) url(v int) string { return "https://stale.example/" + strconv.Itoa(v) }

// write stores the next version through b and returns when it is
// acknowledged.
func (p *staleProbe) write() time.Time {
	p.t.Helper()
	p.version++
	csv := "urn,url\n" + p.urn + "," + p.url(p.version) + "\n"
	var err error
	// A few tries: after a restart the first statement on each pooled
	// connection finds it closed.
	for try := 0; try < 50; try++ {
		if _, err = Import(context.Background(), p.b, strings.NewReader(csv), FormatCSV, ImportOptions{}); err == nil {
			return time.Now()
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.t.Fatalf("write: %v", err)
	return time.Time{}
}

// read asks a for the N2L answer, giving up after a while as a client
// would.
func (p *staleProbe) read() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	return firstURL(ctx, p.a, p.key)
}

// cached waits until a answers the current version from its cache.
func (p *staleProbe) cached() {
	p.t.Helper()
	waitFor(p.t, "answering the current version from the cache", func() bool {
		_, hits0, _ := p.a.CacheStats()
		u, err := p.read()
		_, hits, _ := p.a.CacheStats()
		return err == nil && u == p.url(p.version) && hits > hits0
	})
}

// run makes the fault, writes a new version through b, and reads from a
// until one and a half times the bound has passed: every answer of the old version must
// have been asked for within the bound after the write was acknowledged
// (a read that began later and still got it fails the test). Then heal
// ends the fault and a must answer the new version. It returns the
// number of stale answers and how long after the acknowledgement the
// last of them was received. A fault that leaves a blind (no connection
// to the database) must also show in its CacheFreshness.
func (p *staleProbe) run(name string, blind bool, fault, heal func()) (stale int, last time.Duration) {
	t := p.t
	t.Helper()
	p.cached()
	old := p.url(p.version)
	fault()
	acked := p.write()
	fresh, failed := 0, 0
	for {
		asked := time.Now()
		if asked.Sub(acked) > p.bound*3/2 {
			break
		}
		u, err := p.read()
		got := time.Now()
		switch {
		case err != nil:
			failed++
		case u == old:
			stale++
			last = got.Sub(acked)
			if asked.Sub(acked) > p.bound {
				t.Fatalf("%s: the old answer to a read asked %v after the write was acknowledged; the bound is %v",
					name, asked.Sub(acked).Round(time.Millisecond), p.bound)
			}
		case u == p.url(p.version):
			fresh++
		default:
			t.Fatalf("%s: answer %q, want %q or %q", name, u, old, p.url(p.version))
		}
		if err == nil {
			// Not a busy loop: a read from memory takes a microsecond.
			time.Sleep(time.Millisecond)
		}
	}
	if _, age, current := p.a.CacheFreshness(); blind && current {
		t.Errorf("%s: the cache says it is current, %v after its last catch-up began", name, age)
	}
	heal()
	waitFor(t, name+": answering the new version once healed", func() bool {
		u, err := p.read()
		return err == nil && u == p.url(p.version)
	})
	t.Logf("%s: %d stale answers, the last received %v after the write was acknowledged (bound %v); %d current, %d failed",
		name, stale, last.Round(time.Millisecond), p.bound, fresh, failed)
	return stale, last
}

// Issue 29.1: no server answers from its cache more than the bound after
// a write that changed the answer was acknowledged, whatever stops it
// hearing of the write. Server a reaches PostgreSQL through a proxy that
// freezes its connections silently (no error, no close), or has its
// backends killed, or its clock jumps; server b writes.
func TestStalenessBound(t *testing.T) {
	t.Parallel()
	base := postgresDSN(t)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	proxy := newFaultProxy(t, u.Host)
	var b [6]byte
	rand.Read(b[:])
	app := "urnresolver_stale_" + hex.EncodeToString(b[:])
	const bound = time.Second
	p := newStaleProbe(t, withHost(t, base, proxy.ln.Addr().String(), "application_name="+app), base, bound)
	none := func() {}
	waitFor(t, "listening through the proxy", func() bool {
		proxy.mu.Lock()
		defer proxy.mu.Unlock()
		for _, c := range proxy.conns {
			if c.listens.Load() {
				return true
			}
		}
		return false
	})

	// The fault of the issue: the listening connection goes silent and
	// the others work. Before, the old answer was served for 8 min 48 s.
	p.run("LISTEN connection frozen", false, func() {
		if proxy.freeze(func(c *proxyConn) bool { return c.listens.Load() }) != 1 {
			t.Fatal("no listening connection through the proxy")
		}
	}, none)

	// Every connection frozen, and the new ones too: a dead path.
	p.run("every connection frozen", true, func() {
		proxy.setFreezeNew(true)
		proxy.freeze(func(*proxyConn) bool { return true })
	}, func() {
		proxy.setFreezeNew(false)
		proxy.dropFrozen()
	})

	// Backends killed by the database (pg_terminate_backend).
	p.run("backends killed", false, func() {
		if n, err := storetest.TerminateBackends(base, app); err != nil || n == 0 {
			t.Fatalf("pg_terminate_backend: %d backends, %v", n, err)
		}
	}, none)

	// Blind and the clock jumps: back an hour, back less than the bound,
	// ahead an hour. A clock that goes back must not stretch the bound.
	blind := func(jump time.Duration) func() {
		return func() {
			proxy.setFreezeNew(true)
			proxy.freeze(func(*proxyConn) bool { return true })
			p.clock.offset.Add(int64(jump))
		}
	}
	heal := func() {
		proxy.setFreezeNew(false)
		proxy.dropFrozen()
	}
	p.run("every connection frozen, clock back 1 h", true, blind(-time.Hour), heal)
	p.run("every connection frozen, clock back 0.6 s", true, blind(-600*time.Millisecond), heal)
	if stale, _ := p.run("every connection frozen, clock ahead 1 h", true, blind(time.Hour), heal); stale != 0 {
		t.Errorf("%d answers from the cache after the clock jumped past the bound", stale)
	}
}

// The same on a database that restarts: a PostgreSQL of the test's own
// (the shared one serves other tests meanwhile), stopped and started
// again under the server.
func TestStalenessBoundRestart(t *testing.T) {
	t.Parallel()
	dsn, restart := privatePostgres(t)
	p := newStaleProbe(t, dsn, dsn, time.Second)
	p.run("database restarted", false, restart, func() {})
}

// privatePostgres starts a PostgreSQL cluster of the test's own with the
// binaries scripts/resolver-testenv.sh found (URNRESOLVER_PGBIN), and
// returns its DSN and a function that restarts it.
func privatePostgres(t *testing.T) (dsn string, restart func()) {
	t.Helper()
	bin := os.Getenv("URNRESOLVER_PGBIN")
	if bin == "" || os.Getenv(postgresEnv) == "" {
		t.Skip("URNRESOLVER_PGBIN is not set: no PostgreSQL to restart (.ci/run sets it with scripts/resolver-testenv.sh)")
	}
	dir, err := os.MkdirTemp("", "urnresolver-restart-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	var run []string
	if os.Geteuid() == 0 {
		// initdb refuses root: the cluster runs as the user that of
		// scripts/resolver-testenv.sh.
		user := "postgres"
		if exec.Command("id", user).Run() != nil {
			user = "nobody"
		}
		if err := exec.Command("chown", user, dir).Run(); err != nil {
			t.Fatal(err)
		}
		run = []string{"runuser", "-u", user, "--"}
	}
	cmd := func(name string, args ...string) error {
		c := append(append([]string{}, run...), append([]string{filepath.Join(bin, name)}, args...)...)
		out, err := exec.Command(c[0], c[1:]...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("%s: %v: %s", name, err, out)
		}
		return nil
	}
	if err := cmd("initdb", "-D", dir+"/data", "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	opts := "-c listen_addresses=127.0.0.1 -p " + port + " -k " + dir + " -c fsync=off"
	start := func() error {
		return cmd("pg_ctl", "-D", dir+"/data", "-l", dir+"/server.log", "-w", "-t", "60", "-o", opts, "start")
	}
	if err := start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd("pg_ctl", "-D", dir+"/data", "-m", "immediate", "stop") })
	dsn = "postgres://postgres@127.0.0.1:" + port + "/postgres?sslmode=disable"
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
	return dsn, func() {
		if err := cmd("pg_ctl", "-D", dir+"/data", "-m", "fast", "-w", "stop"); err != nil {
			t.Fatal(err)
		}
		if err := start(); err != nil {
			t.Fatal(err)
		}
	}
}
