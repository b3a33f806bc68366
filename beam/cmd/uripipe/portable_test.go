package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"

	"github.com/apache/beam/sdks/v2/go/container/pool"
	fnpb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/fnexecution_v1"
	"google.golang.org/grpc"
)

// The portable mode of the tests (URIPIPE_TEST_RUNNER=portable, as CI
// runs them a second time): every job that the tests run with job()
// runs as a cluster runs it, each part in a process of its own. Prism
// is a job server (the SDK's cmd/prism); uripipe, a binary built from
// this package, submits the job through the portable job API (--runner
// universal) and stages itself as the worker binary; Prism asks the
// SDK's external worker pool (--environment_type EXTERNAL) for a
// worker; the pool starts the SDK's boot loader, which fetches the
// staged binary from Prism and runs it as the worker. The test's
// temporary directories, which every process reaches by the same
// absolute path, stand for the object store. So a job that depends on
// the state of one process (a relative path, a package variable set
// when the job is built, an unregistered type or function) fails here,
// and one that writes into its worker's working directory is reported
// when the tests end (checkWorkDir). What this cannot show: Prism runs
// every stage of a job in one worker, so state that one stage leaves
// for another in the worker's memory goes unseen.

// portableEnvVar selects the portable mode.
const portableEnvVar = "URIPIPE_TEST_RUNNER"

// poolEnvVar makes the test binary the worker pool: its value is the
// boot loader's path.
const poolEnvVar = "URIPIPE_TEST_POOL"

// portable is the portable runner's setting; nil in the default mode.
var portable *portableRunner

type portableRunner struct {
	bin      string    // uripipe, built from this package
	endpoint string    // Prism's job service
	poolAddr string    // the worker pool's address
	prism    *exec.Cmd // the job server
	pool     *exec.Cmd // the worker pool
	poolIn   io.Closer // its standard input: closing it stops it
	poolLog  *tailBuffer
	work     string          // the workers' working directory
	copies   map[string]bool // the boot loader's copies of bin before the tests (workerCopies)
}

// goTool returns the path of a tool of beam/go.mod (prism, container),
// built once and kept in the Go build cache.
func goTool(name string) (string, error) {
	out, err := exec.Command("go", "tool", "-n", name).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			err = fmt.Errorf("%v\n%s", err, ee.Stderr)
		}
		return "", fmt.Errorf("go tool -n %s: %v", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// startPortable builds uripipe into dir, starts Prism and the worker
// pool, and sets portable.
func startPortable(dir string) error {
	r := &portableRunner{bin: filepath.Join(dir, "uripipe")}
	// Built as the test is (a CGO_ENABLED=0 build, static, as the README
	// advises for a cluster, would compile every package again): the
	// workers run on this machine.
	build := exec.Command("go", "build", "-o", r.bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building uripipe: %v\n%s", err, out)
	}
	prism, err := goTool("prism")
	if err != nil {
		return err
	}
	boot, err := goTool("container")
	if err != nil {
		return err
	}
	r.copies = workerCopies(r.bin)

	// Prism on a port the kernel picks, which it says on its log. It
	// stops by itself when it has had no job for 10 minutes, in case
	// this process dies without stopping it.
	r.prism = exec.Command(prism, "--job_port=0", "--serve_http=false", "--log_kind=text", "--idle_shutdown_timeout=10m")
	r.prism.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	r.prism.Dir = dir
	line, log, err := startLogged(r.prism, regexp.MustCompile(`msg="Serving JobManagement" endpoint=(\S+)`))
	if err != nil {
		return fmt.Errorf("prism: %v\n%s", err, log)
	}
	r.endpoint = line

	// The worker pool: this test binary (poolEnvVar), in a directory of
	// its own, where the boot loader writes its pipeline_options.json
	// and the workers run. The boot loader fetches the staged binary
	// into its semi-persistent directory, /tmp/staged unless told, as
	// 1-uripipe, a name that the runs of the tests on one machine
	// would share: it gets one of this run's.
	r.work = filepath.Join(dir, "pool")
	persist := filepath.Join(dir, "persist")
	for _, d := range []string{r.work, persist} {
		if err := os.Mkdir(d, 0o755); err != nil {
			r.stop()
			return err
		}
	}
	wrapper := filepath.Join(dir, "boot")
	script := "#!/bin/sh\nexec " + shellQuote(boot) + " --semi_persist_dir=" + shellQuote(persist) + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		r.stop()
		return err
	}
	r.pool = exec.Command(os.Args[0])
	r.pool.Env = append(os.Environ(), poolEnvVar+"="+wrapper)
	r.pool.Dir = r.work
	r.pool.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if r.poolIn, err = r.pool.StdinPipe(); err != nil {
		r.stop()
		return err
	}
	line, r.poolLog, err = startLogged(r.pool, regexp.MustCompile(`^worker pool (\S+)$`))
	if err != nil {
		r.stop()
		return fmt.Errorf("worker pool: %v\n%s", err, r.poolLog)
	}
	r.poolAddr = line
	portable = r
	return nil
}

// startLogged starts cmd, its standard output and error into the log it
// returns, and returns the first submatch of the first line of it that
// re matches.
func startLogged(cmd *exec.Cmd, re *regexp.Regexp) (string, *tailBuffer, error) {
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	log := &tailBuffer{}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		fmt.Fprintf(log, "%s\n", sc.Bytes())
		if m := re.FindSubmatch(sc.Bytes()); m != nil {
			go io.Copy(log, out) // it must never block on its output
			return string(m[1]), log, nil
		}
	}
	cmd.Wait()
	return "", log, fmt.Errorf("%v exited without saying where it serves", cmd.Args)
}

// A tailBuffer keeps the last 16 KB written to it.
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - 16<<10; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// servePool is the worker pool process: the SDK's worker pool
// (container/pool, what "boot --worker_pool" serves on port 50000),
// served on a port the kernel picks on 127.0.0.1 (its own listener, on
// all interfaces, is left unserved), so that two runs of the tests
// never share one. It says where on standard output, and serves until
// its standard input closes; then it stops its workers.
func servePool(boot string) int {
	ctx := context.Background()
	workers, err := pool.New(ctx, 0, boot)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	s := grpc.NewServer()
	fnpb.RegisterBeamFnExternalWorkerPoolServer(s, workers)
	go s.Serve(lis)
	fmt.Printf("worker pool %s\n", lis.Addr())
	io.Copy(io.Discard, os.Stdin)
	workers.Stop(ctx)
	s.Stop()
	return 0
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// checkWorkDir returns an error when the workers left a file in their
// working directory other than the boot loader's pipeline_options.json:
// a job that writes where its worker runs loses the file on a cluster,
// where the next stage runs on another machine.
func (r *portableRunner) checkWorkDir() error {
	ents, err := os.ReadDir(r.work)
	if err != nil {
		return err
	}
	var left []string
	for _, e := range ents {
		if e.Name() != "pipeline_options.json" {
			left = append(left, e.Name())
		}
	}
	if len(left) > 0 {
		return fmt.Errorf("the workers left %q in their working directory %s", left, r.work)
	}
	return nil
}

// stop stops the pool, its workers and Prism, and removes the copies
// of the worker binary that the boot loader left: it copies the staged
// binary into a directory /tmp/binNNN of its own, one a worker, and
// does not remove it.
func (r *portableRunner) stop() {
	if r.poolIn != nil {
		r.poolIn.Close()
		r.pool.Wait()
	}
	if r.prism != nil && r.prism.Process != nil {
		r.prism.Process.Kill()
		r.prism.Wait()
	}
	for p := range workerCopies(r.bin) {
		if !r.copies[p] {
			os.RemoveAll(p)
		}
	}
}

// workerCopies returns the boot loader's copies of bin: the
// directories /tmp/bin* that hold only a file "worker" with its bytes.
func workerCopies(bin string) map[string]bool {
	want, err := os.ReadFile(bin)
	if err != nil {
		return nil
	}
	same := func(path string) bool {
		fi, err := os.Stat(path)
		if err != nil || fi.Size() != int64(len(want)) {
			return false
		}
		got, err := os.ReadFile(path)
		return err == nil && bytes.Equal(got, want)
	}
	copies := map[string]bool{}
	dirs, _ := filepath.Glob("/tmp/bin*")
	for _, d := range dirs {
		ents, err := os.ReadDir(d)
		if err == nil && len(ents) == 1 && ents[0].Name() == "worker" && same(filepath.Join(d, "worker")) {
			copies[d] = true
		}
	}
	return copies
}

// runPortable runs uripipe with args through Prism and the worker pool,
// and returns its exit status and standard error.
func runPortable(args ...string) (int, string) { return runPortableIn("", args...) }

// runPortableIn is runPortable with uripipe in the directory dir ("":
// this process's).
func runPortableIn(dir string, args ...string) (int, string) {
	r := portable
	args = append(args, "--runner=universal", "--endpoint="+r.endpoint,
		"--environment_type=EXTERNAL", "--environment_config="+r.poolAddr, "--worker_binary="+r.bin)
	cmd := exec.Command(r.bin, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, stderr.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), fmt.Sprintf("%s\nthe worker pool's log, its end:\n%s", &stderr, r.poolLog)
	}
	return -1, err.Error() + "\n" + stderr.String()
}
