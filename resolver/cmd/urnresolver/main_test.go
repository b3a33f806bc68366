package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/urikit/urikit/resolver"
	"github.com/urikit/urikit/resolver/internal/store"
	"github.com/urikit/urikit/resolver/internal/store/storetest"
)

// The tests here run the command as a user does: built into a binary,
// started as a process, spoken to over HTTP on 127.0.0.1.

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	buildDir  string
)

func TestMain(m *testing.M) {
	if os.Getenv(bareEnv) != "" {
		serveBare() // the load benchmark's ceiling server
		return
	}
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// binary builds cmd/urnresolver once per test run.
func binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "urnresolver-bin")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(buildDir, "urnresolver")
		goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(goBin); err != nil {
			goBin = "go"
		}
		cmd := exec.Command(goBin, "build", "-o", binPath, ".")
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// cleanEnv is the environment without any URNRESOLVER_ setting, so that
// the tests see the defaults unless they set one.
func cleanEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "URNRESOLVER_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// server is a running urnresolver serve process.
type server struct {
	t      testing.TB
	cmd    *exec.Cmd
	addr   string
	url    string
	stdout *syncBuffer
	stderr *syncBuffer
	done   chan error
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServer starts "urnresolver serve --addr 127.0.0.1:0 args..." in
// dir, reads the address from its ready line, and waits for /healthz,
// both within bounded time.
func startServer(t testing.TB, dir string, env []string, args ...string) *server {
	t.Helper()
	return startServerWith(t, nil, dir, env, args...)
}

// startServerWith is startServer with the command run through wrapper,
// as in "taskset -c 0".
func startServerWith(t testing.TB, wrapper []string, dir string, env []string, args ...string) *server {
	t.Helper()
	argv := append(append(wrapper, binary(t), "serve", "--addr", "127.0.0.1:0"), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	s := &server{t: t, cmd: cmd, stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan error, 1)}
	pr, pw := io.Pipe()
	cmd.Stdout = io.MultiWriter(s.stdout, pw)
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.done <- cmd.Wait(); pw.Close() }()
	t.Cleanup(func() { s.kill() })

	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		io.Copy(io.Discard, pr)
	}()
	select {
	case line, ok := <-lines:
		if !ok {
			t.Fatalf("server exited without a ready line; stderr:\n%s", s.stderr)
		}
		i := strings.Index(line, " addr=")
		if !strings.Contains(line, `msg="urnresolver ready"`) || i < 0 {
			t.Fatalf("ready line %q", line)
		}
		s.addr = strings.Fields(line[i+len(" addr="):])[0]
	case <-time.After(60 * time.Second):
		t.Fatalf("no ready line within 60 s; stderr:\n%s", s.stderr)
	}
	s.url = "http://" + s.addr
	for i := 0; ; i++ {
		resp, err := http.Get(s.url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if i == 100 {
			t.Fatalf("/healthz not 200 after 100 tries: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return s
}

// stop sends SIGTERM and returns the exit status, within bounded time.
func (s *server) stop() int {
	s.t.Helper()
	s.cmd.Process.Signal(syscall.SIGTERM)
	return s.wait()
}

// wait returns the exit status once the process ends, within bounded time.
func (s *server) wait() int {
	s.t.Helper()
	select {
	case err := <-s.done:
		s.done <- err
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			s.t.Fatal(err)
		}
		return 0
	case <-time.After(30 * time.Second):
		s.t.Fatal("server did not stop within 30 s")
		return -1
	}
}

// kill sends SIGKILL and waits for the process to be gone.
func (s *server) kill() {
	s.cmd.Process.Signal(syscall.SIGKILL)
	select {
	case err := <-s.done:
		s.done <- err
	case <-time.After(30 * time.Second):
	}
}

// runCmd runs the binary with args and returns its exit status and output.
func runCmd(t testing.TB, dir string, env []string, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCmdWithin(t, 120*time.Second, dir, env, stdin, args...)
}

// runCmdWithin is runCmd killing the command after timeout instead of
// 120 s (the load benchmark's import of a million records on a busy
// machine).
func runCmdWithin(t testing.TB, timeout time.Duration, dir string, env []string, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	go func() {
		<-ctx.Done()
		if cmd.Process != nil && ctx.Err() == context.DeadlineExceeded {
			cmd.Process.Kill()
		}
	}()
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), o.String(), e.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, o.String(), e.String()
}

// dsns returns the databases to run against: a SQLite file, and a fresh
// PostgreSQL schema when URNRESOLVER_TEST_POSTGRES is set.
func forEachDB(t *testing.T, f func(t *testing.T, dir, dsn string)) {
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		f(t, dir, filepath.Join(dir, "resolver.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		f(t, t.TempDir(), postgresDSN(t))
	})
}

func postgresDSN(t testing.TB) string { return storetest.PostgresDSN(t) }

func openTestStore(t testing.TB, dsn string) *resolver.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := resolver.OpenStore(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// openTestDB opens the database to look at what the commands stored.
func openTestDB(t testing.TB, dsn string) *store.DB {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

var noRedirect = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	Timeout:       30 * time.Second,
}

func request(t testing.TB, method, url, token, ctype, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	code, h, b, err := send(noRedirect, req)
	if err != nil {
		t.Fatal(err)
	}
	return code, h, b
}

// send does req with client and returns the answer's status, header and
// body.
func send(client *http.Client, req *http.Request) (int, http.Header, string, error) {
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b), err
}

// TestServeWithNothingInstalled is "go run ./cmd/urnresolver serve" (from resolver/) in an
// empty directory, with no configuration: it starts on SQLite, prints
// one line on stdout, answers, and stops cleanly on SIGTERM.
// Issue 17: the default database "lives in the user's data directory
// ($XDG_DATA_HOME/urikit, else ~/.local/share/urikit), not in the
// working directory".
func TestServeWithNothingInstalled(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	for _, c := range []struct {
		name, xdg, want string
	}{
		{"XDG_DATA_HOME", filepath.Join(dir, "data"), filepath.Join(dir, "data", "urikit", "urnresolver.db")},
		{"no XDG_DATA_HOME", "", filepath.Join(home, ".local", "share", "urikit", "urnresolver.db")},
		{"relative XDG_DATA_HOME", "rel", filepath.Join(home, ".local", "share", "urikit", "urnresolver.db")},
	} {
		work := t.TempDir()
		s := startServer(t, work, cleanEnv("HOME="+home, "XDG_DATA_HOME="+c.xdg))
		if _, err := os.Stat(c.want); err != nil {
			t.Fatalf("%s: default database not created: %v", c.name, err)
		}
		if !strings.Contains(s.stdout.String(), "db="+c.want) || !strings.Contains(s.stdout.String(), "url=http://"+s.addr+"/") {
			t.Errorf("%s: the ready line does not say where it listens and which database: %q", c.name, s.stdout)
		}
		if ents, _ := os.ReadDir(work); len(ents) != 0 {
			t.Errorf("%s: files in the working directory: %v", c.name, ents)
		}
		s.stop()
	}
	s := startServer(t, dir, cleanEnv("XDG_DATA_HOME="+filepath.Join(dir, "data")))
	code, _, body := request(t, "GET", s.url+"/uri-res/N2L?urn:example:none", "", "", "")
	if code != 404 || !strings.Contains(body, "no record") {
		t.Fatalf("%d %s", code, body)
	}
	if code, _, body := request(t, "GET", s.url+"/", "", "", ""); code != 200 || !strings.Contains(body, "<form") {
		t.Fatalf("page: %d", code)
	}
	if code := s.stop(); code != 0 {
		t.Fatalf("exit status %d after SIGTERM; stderr:\n%s", code, s.stderr)
	}
	out := s.stdout.String()
	if strings.Count(out, "\n") != 1 || !strings.Contains(out, "store=sqlite") {
		t.Fatalf("stdout %q: want exactly one log line", out)
	}
	if !strings.Contains(s.stderr.String(), "msg=stopped") {
		t.Errorf("stderr %q", s.stderr)
	}
}

func TestServeConfigFromEnvironment(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "env.db")
	s := startServer(t, dir, cleanEnv("URNRESOLVER_DB="+db, "URNRESOLVER_DIALECTS=nbn=draft2012", "URNRESOLVER_LOG_FORMAT=json"))
	if _, err := os.Stat(db); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.stdout.String(), `dialects="nbn=draft2012,*=rfc8141"`) {
		t.Fatalf("ready line %q", s.stdout)
	}
	s.stop()
	if !strings.HasPrefix(strings.TrimSpace(s.stderr.String()), "{") {
		t.Errorf("stderr not JSON: %q", s.stderr)
	}
	// A bad value in the environment is a usage error.
	code, _, stderr := runCmd(t, dir, cleanEnv("URNRESOLVER_WRITE_RATE=fast"), "", "serve")
	if code != 2 || !strings.Contains(stderr, "URNRESOLVER_WRITE_RATE") {
		t.Fatalf("%d %q", code, stderr)
	}
	// The command line wins over the environment.
	code, _, stderr = runCmd(t, dir, cleanEnv("URNRESOLVER_DIALECTS=nbn=bogus"), "", "serve", "--dialects", "nbn=bogus2")
	if code != 2 || !strings.Contains(stderr, "bogus2") {
		t.Fatalf("%d %q", code, stderr)
	}
}

// TestEndToEnd is the README's session: a token from the command line,
// a record over the admin API, and every service, on both databases.
func TestEndToEnd(t *testing.T) {
	forEachDB(t, func(t *testing.T, dir, dsn string) {
		env := cleanEnv()
		code, tok, stderr := runCmd(t, dir, env, "", "token", "create", "--db", dsn, "--namespace", "nbn:no-", "--namespace", "isbn", "--note", "test")
		tok = strings.TrimSpace(tok)
		if code != 0 || !strings.HasPrefix(tok, "urt_") || strings.Count(tok, "\n") != 0 {
			t.Fatalf("token create: %d %q %q", code, tok, stderr)
		}
		s := startServer(t, dir, env, "--db", dsn)
		body := `{"urls":["https://nb.example/items/1","https://mirror.example/1"],"metadata":{"title":"Bok"},"synonyms":["urn:isbn:978-3-16-148410-0"]}`
		if code, _, b := request(t, "PUT", s.url+"/admin/records/URN:NBN:NO-1", tok, "application/json", body); code != 201 {
			t.Fatalf("PUT: %d %s", code, b)
		}
		if code, _, _ := request(t, "PUT", s.url+"/admin/records/urn:nbn:se-1", tok, "application/json", body); code != 403 {
			t.Fatalf("PUT out of scope: %d", code)
		}
		checks := []struct {
			target string
			code   int
			want   string // Location, or body substring
		}{
			{"/uri-res/N2L?urn:nbn:no-1", 303, "https://nb.example/items/1"},
			{"/uri-res/I2L?urn:nbn:NO-1", 303, "https://nb.example/items/1"},
			{"/uri-res/N2Ls?urn:nbn:no-1", 200, "https://nb.example/items/1\r\nhttps://mirror.example/1\r\n"},
			{"/urn:nbn:no-1", 303, "https://nb.example/items/1"},
			{"/urn:nbn:no-1?s=I2Ls", 200, "https://mirror.example/1"},
			{"/urn:nbn:no-1?+s=I2Ls", 200, "https://mirror.example/1"},
			{"/urn:nbn:no-1?=page=2", 303, "https://nb.example/items/1?page=2"},
			{"/uri-res/N2C?urn:nbn:no-1", 200, `"title":"Bok"`},
			{"/uri-res/N2Ns?urn:nbn:no-1", 200, "urn:isbn:978-3-16-148410-0"},
			{"/uri-res/I=I?urn:nbn:no-1&urn:isbn:9783161484100", 200, "true"},
			{"/uri-res/N=N?urn:nbn:no-1&urn:nbn:no-2", 200, "false"},
			{"/uri-res/L2N?https://mirror.example/1", 200, "urn:nbn:NO-1\r\n"}, // as registered
			{"/uri-res/N2L?urn:nbn:no-2", 404, "no record"},
			{"/uri-res/N2L?urn:nbn:", 400, "offset 8"},
		}
		for _, c := range checks {
			code, h, b := request(t, "GET", s.url+c.target, "", "", "")
			got := b
			if code >= 300 && code < 400 {
				got = h.Get("Location")
			}
			if code != c.code || !strings.Contains(got, c.want) {
				t.Errorf("GET %s: %d %q, want %d %q", c.target, code, got, c.code, c.want)
			}
		}
		// Revocation from the command line takes effect at once.
		code, _, stderr = runCmd(t, dir, env, "", "token", "revoke", "--db", dsn, tok)
		if code != 0 {
			t.Fatalf("revoke: %d %s", code, stderr)
		}
		if code, _, _ := request(t, "DELETE", s.url+"/admin/records/urn:nbn:no-1", tok, "", ""); code != 401 {
			t.Fatalf("DELETE with a revoked token: %d", code)
		}
		code, list, _ := runCmd(t, dir, env, "", "token", "list", "--db", dsn)
		if code != 0 || !strings.Contains(list, "nbn:no-") || !strings.Contains(list, "revoked") {
			t.Fatalf("list: %d %q", code, list)
		}
		if code := s.stop(); code != 0 {
			t.Fatalf("exit %d", code)
		}
	})
}

// TestImportCommand checks the exact interface: exit 0 and no output when
// every line is stored; exit 1 and one "LINE: reason" line per refused
// line, the other lines stored.
func TestImportCommand(t *testing.T) {
	forEachDB(t, func(t *testing.T, dir, dsn string) {
		env := cleanEnv()
		good := filepath.Join(dir, "good.csv")
		os.WriteFile(good, []byte("urn,url\nurn:example:a,https://a.example/1\nurn:example:a,https://a.example/2\nurn:example:b,https://b.example/\n"), 0o644)
		code, out, errOut := runCmd(t, dir, env, "", "import", "--db", dsn, good)
		if code != 0 || out != "" || errOut != "" {
			t.Fatalf("good.csv: %d %q %q", code, out, errOut)
		}
		bad := filepath.Join(dir, "bad.jsonl")
		os.WriteFile(bad, []byte(`{"urn":"urn:example:c","urls":["https://c.example/"]}
{"urn":"urn:x:d","urls":["https://d.example/"]}
{"urn":"urn:example:e","urls":["ftp://e.example/"]}

{"urn":"urn:example:f","urls":["https://f.example/"],"metadata":{"k":"v"}}
{oops
`), 0o644)
		code, out, errOut = runCmd(t, dir, env, "", "import", "--db", dsn, bad)
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		if code != 1 || out != "" || len(lines) != 4 ||
			!strings.HasPrefix(lines[0], "2: urn: ") || !strings.HasPrefix(lines[1], "3: urls[0]: ") || !strings.HasPrefix(lines[2], "6: ") ||
			!strings.HasPrefix(lines[3], "urn:example:e: record refused whole (line 3: urls[0]: ") {
			t.Fatalf("bad.jsonl: %d stdout %q stderr %q", code, out, errOut)
		}
		st := openTestDB(t, dsn)
		for key, want := range map[string]int{"urn:example:a": 2, "urn:example:b": 1, "urn:example:c": 1, "urn:example:f": 1} {
			rec, err := st.Record(context.Background(), key)
			if err != nil || len(rec.URLs) != want {
				t.Errorf("%s: %+v %v", key, rec, err)
			}
		}
		if _, err := st.Record(context.Background(), "urn:example:e"); err == nil {
			t.Error("a refused line was stored")
		}
		// -v prints a summary; stdin with --format; usage errors.
		code, out, _ = runCmd(t, dir, env, "urn,url\nurn:example:g,https://g.example/\n", "import", "--db", dsn, "--format", "csv", "-v", "-")
		if code != 0 || !strings.Contains(out, "1 lines stored") {
			t.Fatalf("stdin: %d %q", code, out)
		}
		if code, _, _ := runCmd(t, dir, env, "", "import", "--db", dsn, filepath.Join(dir, "x.txt")); code != 2 {
			t.Errorf("unknown format: %d", code)
		}
		if code, _, _ := runCmd(t, dir, env, "", "import", "--db", dsn); code != 2 {
			t.Errorf("no file: %d", code)
		}
		if code, _, e := runCmd(t, dir, env, "", "import", "--db", dsn, filepath.Join(dir, "missing.csv")); code != 1 || e == "" {
			t.Errorf("missing file: %d %q", code, e)
		}
	})
}

func TestUsage(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
	}{
		{nil, 2}, {[]string{"help"}, 0}, {[]string{"bogus"}, 2}, {[]string{"help", "import"}, 0},
		{[]string{"serve", "extra"}, 2}, {[]string{"token"}, 2}, {[]string{"token", "create"}, 2},
		{[]string{"token", "create", "--namespace", "a b"}, 2},
	} {
		if code, _, _ := runCmd(t, dir, cleanEnv(), "", c.args...); code != c.code {
			t.Errorf("%q: exit %d, want %d", c.args, code, c.code)
		}
	}
}

// TestServerLimits checks the limits the http.Server enforces before the
// handler: an oversized header block is refused with 431.
func TestServerLimits(t *testing.T) {
	s := startServer(t, t.TempDir(), cleanEnv(), "--max-header-bytes", "4096")
	req, _ := http.NewRequest("GET", s.url+"/healthz", nil)
	req.Header.Set("X-Big", strings.Repeat("a", 8192))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 431 {
		t.Fatalf("%d", resp.StatusCode)
	}
}

// TestGracefulShutdown sends SIGTERM while an import is streaming: the
// server stops taking connections but lets the request finish, stores
// it, and then exits 0.
func TestGracefulShutdown(t *testing.T) {
	dir := t.TempDir()
	dsn := filepath.Join(dir, "g.db")
	st := openTestStore(t, dsn)
	sc, _ := resolver.ParseScope("example")
	tok, _, err := st.CreateToken(context.Background(), []resolver.Scope{sc}, "", resolver.AuditEntry{At: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, dir, cleanEnv(), "--db", dsn, "--log-level", "debug")
	pr, pw := io.Pipe()
	req, _ := http.NewRequest("POST", s.url+"/admin/import", pr)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/jsonl")
	type result struct {
		code int
		body string
		err  error
	}
	res := make(chan result, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			res <- result{err: err}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		res <- result{code: resp.StatusCode, body: string(b)}
	}()
	fmt.Fprintln(pw, `{"urn":"urn:example:g1","urls":["https://g.example/1"]}`)
	// The request is in flight once the handler runs: before that the
	// connection may still wait in the listener's queue, which closing
	// the listener resets.
	for i := 0; !strings.Contains(s.stderr.String(), "import started"); i++ {
		if i == 3000 {
			t.Fatalf("the import did not start within 30 s; stderr:\n%s", s.stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	for i := 0; !strings.Contains(s.stderr.String(), "shutting down"); i++ { // shutdown has begun
		if i == 3000 {
			t.Fatalf("no shutdown line within 30 s; stderr:\n%s", s.stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Fprintln(pw, `{"urn":"urn:example:g2","urls":["https://g.example/2"]}`)
	pw.Close()
	r := <-res
	if r.err != nil || r.code != 200 || !strings.Contains(r.body, `"lines":2`) {
		t.Fatalf("import during shutdown: %d %q %v", r.code, r.body, r.err)
	}
	// The first SIGTERM is enough: the server exits once the request is done.
	if code := s.wait(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if n, _ := openTestDB(t, dsn).Count(context.Background()); n != 2 {
		t.Fatalf("%d records", n)
	}
}

// Issue 17: "urnresolver help and urnresolver help serve give examples
// like uri help": on stdout, exit 0, and every example names a command
// and flags that command has.
func TestHelpExamples(t *testing.T) {
	dir := t.TempDir()
	flagsOf := map[string]string{}
	for _, name := range []string{"", "serve", "import", "token", "registrar", "migrate", "backup"} {
		args := []string{"help"}
		if name != "" {
			args = append(args, name)
		}
		code, out, errOut := runCmd(t, dir, cleanEnv(), "", args...)
		if code != 0 || errOut != "" || !strings.Contains(out, "Examples:\n") {
			t.Fatalf("help %s: %d, stderr %q, stdout %q", name, code, errOut, out)
		}
		flagsOf[name] = out
	}
	for name, out := range flagsOf {
		_, ex, _ := strings.Cut(out, "Examples:\n")
		for _, line := range strings.Split(ex, "\n") {
			// An example is a command line: VAR=value settings, then
			// urnresolver; or a pipeline into it.
			f := strings.Fields(line)
			start := -1
			for i, w := range f {
				if w == "urnresolver" {
					start = i
					break
				}
				if !strings.Contains(w, "=") {
					break
				}
			}
			if j := slices.Index(f, "|"); start < 0 && j >= 0 && j+1 < len(f) && f[j+1] == "urnresolver" {
				start = j + 1
			}
			if start < 0 || start+1 >= len(f) {
				continue
			}
			line = strings.TrimSpace(line)
			f = f[start+1:]
			help := flagsOf[f[0]]
			// What the help says outside its examples: its usage lines
			// and flag list.
			if pre, post, ok := strings.Cut(help, "Examples:\n"); ok {
				_, after, _ := strings.Cut(post, "\n\n")
				help = pre + after
			}
			if flagsOf[f[0]] == "" {
				t.Errorf("help %s: example %q names no command", name, line)
				continue
			}
			for _, a := range f[1:] {
				if a == "#" || strings.HasPrefix(a, "#") {
					break
				}
				if strings.HasPrefix(a, "--") {
					flag, _, _ := strings.Cut(a[2:], "=")
					if !strings.Contains(help, "  -"+flag+" ") && !strings.Contains(help, "  -"+flag+"\n") && !strings.Contains(help, "--"+flag) {
						t.Errorf("help %s: example %q: %s has no flag --%s", name, line, f[0], flag)
					}
				}
			}
		}
	}
	if !strings.Contains(flagsOf["serve"], "urnresolver serve --addr") {
		t.Errorf("help serve has no example with flags")
	}
}
