package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkN2LLoad is the resolver's load benchmark: N2L requests for
// URNs drawn uniformly at random among a million stored ones, over
// keep-alive connections on 127.0.0.1, against the real server process
// pinned to one core (taskset -c 0, GOMAXPROCS=1) while this load
// generator runs on the other core. Each b.N is one request; the
// benchmark reports requests per second and latency percentiles measured
// by the client, from writing the request to reading the whole answer.
//
// Three modes run side by side, one after the other on the same pinned
// core, so that the figures share the machine's state of the moment:
//
//   - <store>/reads: N2L requests alone;
//   - <store>/mixed: the same, with writes mixed into the run (PUT of a
//     random stored URN, URNRESOLVER_LOAD_WRITES per second, default 15,
//     from one more connection; issue 23.1);
//   - ceiling: a bare net/http handler answering the same 303 from the
//     same core, what net/http alone costs.
//
// It is a benchmark, not a timed test: it runs only when asked.
//
//	URNRESOLVER_LOAD=1 go test -run XXX -bench N2LLoad -benchtime 400000x ./cmd/urnresolver
//
// URNRESOLVER_LOAD_URNS (default 1000000) sets the number of stored URNs,
// URNRESOLVER_LOAD_CONNS (default 16) the connections, and
// URNRESOLVER_LOAD_SERVER_ARGS adds flags to the server (such as
// "--pprof-addr 127.0.0.1:6060" to profile it, or "--cache-entries 0" to
// measure the store without the answer cache, which the server otherwise
// preloads with --cache-preload), and
// URNRESOLVER_LOAD_DIR (default $TMPDIR/urnresolver-load) where the SQLite
// database and the CSV file are kept between runs. The PostgreSQL run
// needs URNRESOLVER_TEST_POSTGRES and keeps its data in the schema
// load_<N> of that database.
func BenchmarkN2LLoad(b *testing.B) {
	if os.Getenv("URNRESOLVER_LOAD") == "" {
		b.Skip("load benchmark: set URNRESOLVER_LOAD=1 (see resolver/BENCHMARKS.md)")
	}
	n := envInt("URNRESOLVER_LOAD_URNS", 1_000_000)
	conns := envInt("URNRESOLVER_LOAD_CONNS", 16)
	writes := envInt("URNRESOLVER_LOAD_WRITES", 15)
	dir := os.Getenv("URNRESOLVER_LOAD_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "urnresolver-load")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	pinSelf(b)
	logLoadAverage(b)
	dsns := []string{filepath.Join(dir, fmt.Sprintf("sqlite-%d.db", n))}
	if base := os.Getenv("URNRESOLVER_TEST_POSTGRES"); base != "" {
		schema := fmt.Sprintf("load_%d", n)
		db, err := sql.Open("pgx", base)
		if err != nil {
			b.Fatal(err)
		}
		_, err = db.Exec("CREATE SCHEMA IF NOT EXISTS " + schema)
		db.Close()
		if err != nil {
			b.Fatal(err)
		}
		sep := "?"
		if strings.Contains(base, "?") {
			sep = "&"
		}
		dsns = append(dsns, base+sep+"search_path="+schema)
	} else {
		b.Log("URNRESOLVER_TEST_POSTGRES is not set: no PostgreSQL run")
	}
	var wrapper []string
	if runtime.NumCPU() >= 2 {
		if _, err := exec.LookPath("taskset"); err == nil {
			wrapper = []string{"taskset", "-c", "0"}
		}
	}
	for _, dsn := range dsns {
		name := "sqlite"
		if strings.HasPrefix(dsn, "postgres") {
			name = "postgres"
		}
		// The data and the server outlive the sub-benchmark's runs (it
		// is called with b.N = 1 first, then with the -benchtime count).
		prepareLoadData(b, dir, dsn, n)
		code, out, stderr := runCmd(b, dir, cleanEnv(), "", "token", "create", "--db", dsn, "--namespace", "nbn:no-", "--note", "load benchmark")
		if code != 0 {
			b.Fatalf("token create: %d %s", code, stderr)
		}
		token := strings.TrimSpace(out)
		args := append([]string{"--db", dsn, "--write-rate", "-1", "--cache-preload"}, strings.Fields(os.Getenv("URNRESOLVER_LOAD_SERVER_ARGS"))...)
		s := startServerWith(b, wrapper, dir, cleanEnv("GOMAXPROCS=1"), args...)
		runLoad(b, s.addr, n, conns, 50_000, nil) // warm the page cache and the database's
		b.Run(name+"/reads", func(b *testing.B) { loadBench(b, s.addr, name+" reads", n, conns, nil) })
		b.Run(name+"/mixed", func(b *testing.B) {
			loadBench(b, s.addr, name+" mixed", n, conns, &writer{url: s.url, token: token, perSecond: writes, n: n})
		})
		s.stop()
	}
	bare := startBare(b, wrapper)
	runLoad(b, bare.addr, n, conns, 50_000, nil)
	b.Run("ceiling", func(b *testing.B) { loadBench(b, bare.addr, "ceiling", n, conns, nil) })
	bare.stop()
	logLoadAverage(b)
}

// logLoadAverage logs the machine's load average: the figures of a
// shared machine mean little without it.
func logLoadAverage(b *testing.B) {
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		b.Logf("load average: %s", strings.TrimSpace(string(la)))
	}
}

// bareEnv, set in the environment of this test binary, makes it serve
// the ceiling: a bare net/http handler answering N2L's 303 and nothing
// else (TestMain runs it instead of the tests).
const bareEnv = "URNRESOLVER_LOAD_BARE"

// serveBare is the ceiling server: the same 303 the resolver answers
// (Location and Cache-Control), from a handler that reads nothing. It
// prints its address and serves until killed.
func serveBare() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("level=INFO msg=\"urnresolver ready\" addr=%s\n", ln.Addr())
	http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.RawQuery
		h := w.Header()
		h["Location"] = []string{"https://www.nb.example/items/" + strings.TrimLeft(q[strings.LastIndexByte(q, '_')+1:], "0")}
		h["Cache-Control"] = []string{"public, max-age=60"}
		w.WriteHeader(http.StatusSeeOther)
	}))
}

// startBare starts this test binary as the ceiling server, pinned as
// the resolver is.
func startBare(b *testing.B, wrapper []string) *bareServer {
	argv := append(append([]string(nil), wrapper...), os.Args[0], "-test.run=^$")
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = cleanEnv("GOMAXPROCS=1", bareEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	bs := &bareServer{cmd: cmd}
	b.Cleanup(bs.stop)
	line, err := bufio.NewReader(out).ReadString('\n')
	i := strings.Index(line, " addr=")
	if err != nil || i < 0 {
		b.Fatalf("ceiling server: %q %v", line, err)
	}
	bs.addr = strings.TrimSpace(line[i+len(" addr="):])
	return bs
}

type bareServer struct {
	cmd  *exec.Cmd
	addr string
}

func (s *bareServer) stop() {
	if s.cmd.ProcessState == nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
	}
}

// writer mixes writes into a load run: every 1/perSecond s a PUT that
// replaces a random stored record (same location, new metadata), over
// one keep-alive connection of its own, as a cataloguer's client would.
type writer struct {
	url, token string
	perSecond  int
	n          int
	done       int // writes acknowledged
}

func (w *writer) run(stop <-chan struct{}, errs chan<- error) {
	client := &http.Client{Timeout: 30 * time.Second}
	tick := time.NewTicker(time.Second / time.Duration(w.perSecond))
	defer tick.Stop()
	rng := rand.New(rand.NewPCG(7, uint64(time.Now().UnixNano())))
	for v := 0; ; v++ {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		i := rng.IntN(w.n)
		body := fmt.Sprintf(`{"urls":["https://www.nb.example/items/%d"],"metadata":{"title":"Bok %d","version":"%d"}}`, i, i, v)
		req, _ := http.NewRequest("PUT", w.url+"/admin/records/"+loadURN(i), strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+w.token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			errs <- fmt.Errorf("write: %v", err)
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			errs <- fmt.Errorf("write: status %d", resp.StatusCode)
			return
		}
		w.done++
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// loadURN is the i-th URN of the data set, in the shape of the
// Norwegian national library's URN:NBN.
func loadURN(i int) string { return fmt.Sprintf("urn:nbn:no-nb_digibok_%08d", i) }

func loadBench(b *testing.B, addr string, name string, n, conns int, w *writer) {
	b.ResetTimer()
	res := runLoad(b, addr, n, conns, b.N, w)
	b.StopTimer()
	b.ReportMetric(res.rps, "req/s")
	b.ReportMetric(res.p50.Seconds()*1e3, "p50-ms")
	b.ReportMetric(res.p99.Seconds()*1e3, "p99-ms")
	b.ReportMetric(res.p999.Seconds()*1e3, "p99.9-ms")
	if w != nil {
		b.ReportMetric(res.writesPerSec, "writes/s")
	}
	b.ReportMetric(0, "ns/op")
	if b.N >= 10000 {
		b.Logf("%s: %d requests, %d connections, %.0f req/s, p50 %v, p99 %v, p99.9 %v, max %v, %.1f writes/s",
			name, b.N, conns, res.rps, res.p50, res.p99, res.p999, res.max, res.writesPerSec)
	}
}

// prepareLoadData imports n records into dsn with the import command,
// unless they are there from an earlier run.
func prepareLoadData(b *testing.B, dir, dsn string, n int) {
	st := openTestStore(b, dsn)
	have, err := st.Count(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	st.Close()
	if have == n {
		return
	}
	csv := filepath.Join(dir, fmt.Sprintf("load-%d.csv", n))
	if fi, err := os.Stat(csv); err != nil || fi.Size() == 0 {
		f, err := os.Create(csv)
		if err != nil {
			b.Fatal(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		w.WriteString("urn,url,title\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(w, "%s,https://www.nb.example/items/%d,Bok %d\n", loadURN(i), i, i)
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	binary(b)
	start := time.Now()
	code, _, stderr := runCmd(b, dir, cleanEnv(), "", "import", "--db", dsn, csv)
	if code != 0 {
		b.Fatalf("import: %d %s", code, stderr)
	}
	b.Logf("imported %d records into %s in %v (%.0f records/s)", n, strings.SplitN(dsn, "?", 2)[0], time.Since(start).Round(time.Millisecond),
		float64(n)/time.Since(start).Seconds())
}

// pinSelf moves every thread of this process to core 1, leaving core 0
// to the server.
func pinSelf(b *testing.B) {
	if runtime.NumCPU() < 2 {
		b.Log("one CPU: server and load generator share it")
		return
	}
	if out, err := exec.Command("taskset", "-a", "-p", "-c", "1", strconv.Itoa(os.Getpid())).CombinedOutput(); err != nil {
		b.Logf("taskset: %v %s (not pinned)", err, out)
	}
}

type loadResult struct {
	rps                 float64
	p50, p99, p999, max time.Duration
	writesPerSec        float64 // acknowledged writes mixed in, per second
}

// runLoad sends total N2L requests over conns keep-alive connections, a
// closed loop: each connection sends its next request when the answer to
// the last one is read. It checks every answer is a 303. With w, writes
// run beside the reads for as long as they do.
func runLoad(b *testing.B, addr string, n, conns, total int, w *writer) loadResult {
	var next atomic.Int64
	lat := make([][]time.Duration, conns)
	errs := make(chan error, conns+1)
	var wg sync.WaitGroup
	start := time.Now()
	stop := make(chan struct{})
	wdone := make(chan struct{})
	if w != nil {
		w.done = 0
		go func() { defer close(wdone); w.run(stop, errs) }()
	} else {
		close(wdone)
	}
	for c := 0; c < conns; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				errs <- err
				return
			}
			defer conn.Close()
			r := bufio.NewReaderSize(conn, 8192)
			rng := rand.New(rand.NewPCG(uint64(c), uint64(time.Now().UnixNano())))
			req := make([]byte, 0, 128)
			mine := make([]time.Duration, 0, total/conns+1)
			for next.Add(1) <= int64(total) {
				req = append(req[:0], "GET /uri-res/N2L?"...)
				req = fmt.Appendf(req, "urn:nbn:no-nb_digibok_%08d", rng.IntN(n))
				req = append(req, " HTTP/1.1\r\nHost: bench\r\n\r\n"...)
				t0 := time.Now()
				if _, err := conn.Write(req); err != nil {
					errs <- err
					return
				}
				code, err := readResponse(r)
				if err != nil {
					errs <- err
					return
				}
				mine = append(mine, time.Since(t0))
				if code != 303 {
					errs <- fmt.Errorf("status %d", code)
					return
				}
			}
			lat[c] = mine
		}(c)
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(stop)
	<-wdone
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	pct := func(p float64) time.Duration { return all[min(len(all)-1, int(p*float64(len(all))))] }
	res := loadResult{rps: float64(len(all)) / elapsed.Seconds(), p50: pct(0.50), p99: pct(0.99), p999: pct(0.999), max: all[len(all)-1]}
	if w != nil {
		res.writesPerSec = float64(w.done) / elapsed.Seconds()
	}
	return res
}

// readResponse reads one HTTP/1.1 response with a Content-Length body.
func readResponse(r *bufio.Reader) (int, error) {
	line, err := r.ReadSlice('\n')
	if err != nil {
		return 0, err
	}
	if len(line) < 12 {
		return 0, fmt.Errorf("short status line %q", line)
	}
	code, _ := strconv.Atoi(string(line[9:12]))
	length := 0
	for {
		h, err := r.ReadSlice('\n')
		if err != nil {
			return 0, err
		}
		if len(h) <= 2 {
			break
		}
		if len(h) > 16 && bytes.EqualFold(h[:15], []byte("Content-Length:")) {
			length, _ = strconv.Atoi(string(bytes.TrimSpace(h[15:])))
		}
	}
	if length > 0 {
		if _, err := r.Discard(length); err != nil {
			return 0, err
		}
	}
	return code, nil
}
