package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"github.com/urikit/urikit/resolver/internal/store/storetest"
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
// Three modes run side by side in one run, on the same pinned core:
//
//   - reads: N2L requests alone;
//   - mixed: the same, with writes mixed in (PUT of a random stored URN,
//     URNRESOLVER_LOAD_WRITES per second, default 15; issue 23.1);
//   - ceiling: a bare net/http handler (this test binary) answering the
//     same 303, what net/http alone costs on that core.
//
// On a shared machine the share of the core a process gets changes from
// one second to the next, so each store's run is URNRESOLVER_LOAD_ROUNDS
// rounds (default 12) of the three modes in turn, the order rotated each
// round; the throughput reported is each mode's median over the rounds,
// the ratios the median of each round's, the percentiles are of all of a
// mode's requests, and the server's CPU time per request (from /proc,
// which the other jobs on the machine do not move) says what a core of
// its own would give.
//
// It is a benchmark, not a timed test: it runs only when asked.
//
//	URNRESOLVER_LOAD=1 go test -run XXX -bench N2LLoad -benchtime 400000x ./cmd/urnresolver
//
// URNRESOLVER_LOAD_URNS (default 1000000) sets the number of stored URNs,
// URNRESOLVER_LOAD_CONNS (default 16) the connections, and
// URNRESOLVER_LOAD_SERVER_ARGS adds flags to the server (such as
// "--pprof-addr 127.0.0.1:6060" to profile it, "--cache-preload=false"
// to measure the cache filled only by the reads, or "--cache-entries 0"
// to measure the store without the answer cache; the server otherwise
// runs with serve's defaults), and
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
		dsn, err := storetest.Schema(base, fmt.Sprintf("load_%d", n))
		if err != nil {
			b.Fatal(err)
		}
		dsns = append(dsns, dsn)
	} else {
		b.Log("URNRESOLVER_TEST_POSTGRES is not set: no PostgreSQL run")
	}
	var wrapper []string
	if runtime.NumCPU() >= 2 {
		if _, err := exec.LookPath("taskset"); err == nil {
			wrapper = []string{"taskset", "-c", "0"}
		}
	}
	bare := startBare(b, wrapper)
	runLoad(b, bare.addr, n, conns, 50_000, nil)
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
		// serve's defaults (issue 29): no flag but the database and no
		// write rate limit for the benchmark's own writer.
		args := append([]string{"--db", dsn, "--write-rate", "-1"}, strings.Fields(os.Getenv("URNRESOLVER_LOAD_SERVER_ARGS"))...)
		s := startServerWith(b, wrapper, dir, cleanEnv("GOMAXPROCS=1"), args...)
		// The server preloads its answers in the background; the rounds
		// measure it once that is done (the log says so), as it runs
		// from then on.
		if a := strings.Join(args, " ") + " "; !strings.Contains(a, "--cache-entries 0 ") && !strings.Contains(a, "--cache-entries=0 ") && !strings.Contains(a, "--cache-preload=false ") {
			t0 := time.Now()
			for !strings.Contains(s.stderr.String(), "answer cache preloaded") {
				if time.Since(t0) > 10*time.Minute {
					b.Fatalf("no preload within 10 minutes; stderr:\n%s", s.stderr)
				}
				time.Sleep(100 * time.Millisecond)
			}
			b.Logf("%s: preloaded in %v: %s", name, time.Since(t0).Round(time.Millisecond), lastLine(s.stderr.String()))
		}
		runLoad(b, s.addr, n, conns, 50_000, nil) // warm the page cache and the database's
		modes := []loadMode{
			{name: "reads", addr: s.addr, pid: s.cmd.Process.Pid},
			{name: "mixed", addr: s.addr, pid: s.cmd.Process.Pid, w: &writer{url: s.url, token: token, perSecond: writes, n: n}},
			{name: "ceiling", addr: bare.addr, pid: bare.cmd.Process.Pid},
		}
		b.Run(name, func(b *testing.B) { loadRounds(b, name, modes, n, conns) })
		// What the cache did: answered, missed, or was bypassed because
		// it was not current (issue 29).
		_, _, body := request(b, http.MethodGet, s.url+"/metrics", "", "", "")
		for _, l := range strings.Split(body, "\n") {
			if strings.HasPrefix(l, "urnresolver_cache_") {
				b.Logf("%s: %s", name, l)
			}
		}
		s.stop()
	}
	bare.stop()
	logLoadAverage(b)
}

// loadMode is one of the modes of a load run.
type loadMode struct {
	name string
	addr string
	pid  int
	w    *writer

	rps      []float64       // per round, sorted at the end
	roundRPS []float64       // per round, in order
	lat      []time.Duration // all requests
	cpu      time.Duration
	n        int
	writes   int
	elapsed  time.Duration
}

// loadRounds runs b.N requests of each mode in rounds and reports each
// mode's median req/s, percentiles, server CPU per request, and the
// ratios the issue sets goals for: mixed/reads and reads/ceiling.
func loadRounds(b *testing.B, name string, modes []loadMode, n, conns int) {
	rounds := envInt("URNRESOLVER_LOAD_ROUNDS", 12)
	per := max(1, b.N/rounds)
	for i := range modes {
		m := &modes[i]
		m.rps, m.roundRPS, m.lat, m.cpu, m.n, m.writes, m.elapsed = nil, nil, nil, 0, 0, 0, 0
	}
	b.ResetTimer()
	for r := 0; r < rounds; r++ {
		for j := range modes {
			m := &modes[(r+j)%len(modes)]
			cpu0 := processCPU(m.pid)
			res := runLoad(b, m.addr, n, conns, per, m.w)
			m.cpu += processCPU(m.pid) - cpu0
			m.rps = append(m.rps, res.rps)
			m.roundRPS = append(m.roundRPS, res.rps)
			m.lat = append(m.lat, res.lat...)
			m.n += per
			m.elapsed += res.elapsed
			if m.w != nil {
				m.writes += m.w.done
			}
		}
	}
	b.StopTimer()
	med := map[string]float64{}
	for i := range modes {
		m := &modes[i]
		slices.Sort(m.rps)
		slices.Sort(m.lat)
		pct := func(p float64) float64 { return m.lat[min(len(m.lat)-1, int(p*float64(len(m.lat))))].Seconds() * 1e3 }
		med[m.name] = m.rps[len(m.rps)/2]
		cpu := float64(m.cpu.Microseconds()) / float64(m.n)
		b.ReportMetric(med[m.name], m.name+"-req/s")
		b.ReportMetric(pct(0.99), m.name+"-p99-ms")
		b.ReportMetric(cpu, m.name+"-µs/req")
		line := fmt.Sprintf("%s %s: %d requests in %d rounds, %d connections, median %.0f req/s (rounds %.0f), p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, server CPU %.1f µs/req",
			name, m.name, m.n, rounds, conns, med[m.name], m.rps, pct(0.5), pct(0.99), pct(0.999), cpu)
		if m.w != nil {
			ws := float64(m.writes) / m.elapsed.Seconds()
			b.ReportMetric(ws, "writes/s")
			line += fmt.Sprintf(", %.1f writes/s", ws)
		}
		if b.N > 1 {
			b.Log(line)
		}
	}
	// The ratios are taken within each round, between modes run one
	// right after the other, and their median reported: the machine's
	// state changes less within a round than across the run.
	byName := map[string]*loadMode{}
	for i := range modes {
		byName[modes[i].name] = &modes[i]
	}
	ratio := func(a, c string) float64 {
		var rs []float64
		for r := range byName[a].roundRPS {
			rs = append(rs, byName[a].roundRPS[r]/byName[c].roundRPS[r])
		}
		slices.Sort(rs)
		return rs[len(rs)/2]
	}
	mr, rc := ratio("mixed", "reads"), ratio("reads", "ceiling")
	b.ReportMetric(mr, "mixed/reads")
	b.ReportMetric(rc, "reads/ceiling")
	cpu := func(name string) float64 { return float64(byName[name].cpu) / float64(byName[name].n) }
	if b.N > 1 {
		b.Logf("%s: per-round ratios, median: mixed/reads %.2f, reads/ceiling %.2f; by server CPU per request: mixed/reads %.2f, reads/ceiling %.2f",
			name, mr, rc, cpu("reads")/cpu("mixed"), cpu("ceiling")/cpu("reads"))
	}
	b.ReportMetric(0, "ns/op")
}

// processCPU returns the CPU time process pid has used (user and system,
// /proc/PID/stat fields 14 and 15, in clock ticks of 1/100 s), or 0 when
// it cannot be read.
func processCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name, field 2, is in parentheses and may hold spaces.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	return time.Duration(utime+stime) * 10 * time.Millisecond
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
// replaces a random stored record (same location, new metadata), as a
// cataloguer's client would. A write does not wait for the one before:
// up to 8 are in flight (a commit that waits for a busy disk must not
// lower the rate); a tick with 8 in flight is skipped, and the rate
// achieved is reported.
type writer struct {
	url, token string
	perSecond  int
	n          int
	done       int // writes acknowledged in the last run
}

func (w *writer) run(stop <-chan struct{}, errs chan<- error) {
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	defer client.CloseIdleConnections()
	tick := time.NewTicker(time.Second / time.Duration(w.perSecond))
	defer tick.Stop()
	rng := rand.New(rand.NewPCG(7, uint64(time.Now().UnixNano())))
	slots := make(chan struct{}, 8)
	var done atomic.Int64
	var wg sync.WaitGroup
	defer func() { wg.Wait(); w.done = int(done.Load()) }()
	for v := 0; ; v++ {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		select {
		case slots <- struct{}{}:
		default:
			continue
		}
		i := rng.IntN(w.n)
		body := fmt.Sprintf(`{"urls":["https://www.nb.example/items/%d"],"metadata":{"title":"Bok %d","version":"%d"}}`, i, i, v)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			req, _ := http.NewRequest("PUT", w.url+"/admin/records/"+loadURN(i), strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+w.token)
			req.Header.Set("Content-Type", "application/json")
			resp, err := client.Do(req)
			if err != nil {
				select {
				case errs <- fmt.Errorf("write: %v", err):
				default:
				}
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				select {
				case errs <- fmt.Errorf("write: status %d", resp.StatusCode):
				default:
				}
				return
			}
			done.Add(1)
		}()
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

// prepareLoadData imports n records into dsn with the import command,
// unless they are there from an earlier run.
func prepareLoadData(b *testing.B, dir, dsn string, n int) {
	st := openTestDB(b, dsn)
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
	code, _, stderr := runCmdWithin(b, 30*time.Minute, dir, cleanEnv(), "", "import", "--db", dsn, csv)
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
	lat                 []time.Duration
	elapsed             time.Duration
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
	res := loadResult{rps: float64(len(all)) / elapsed.Seconds(), p50: pct(0.50), p99: pct(0.99), p999: pct(0.999), max: all[len(all)-1],
		lat: all, elapsed: elapsed}
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

// lastLine returns the last non-empty line of s.
func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	return s[strings.LastIndexByte(s, '\n')+1:]
}
