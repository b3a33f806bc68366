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
	"syscall"

	"github.com/apache/beam/sdks/v2/go/container/pool"
	fnpb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/fnexecution_v1"
	"google.golang.org/grpc"
)

// The portable mode of the tests (URIPIPE_TEST_RUNNER=portable, as CI
// runs them a second time): every job that the tests run with job()
// runs as a cluster runs it, not in this process. Prism is a job server
// in a process of its own (the SDK's cmd/prism); uripipe, a binary
// built from this package, submits the job through the portable job
// API (--runner universal) and stages itself as the worker binary;
// Prism asks the SDK's external worker pool (--environment_type
// EXTERNAL) for a worker, and the pool starts the SDK's boot loader,
// which fetches the staged binary from Prism and runs it as the
// worker, a process of its own. The test's temporary directory, which
// every process reaches by the same absolute path, stands for the
// object store. So a job that depends on the state of one process (a
// relative path, a package variable, an unregistered type or function)
// fails here.

// portableEnvVar selects the portable mode.
const portableEnvVar = "URIPIPE_TEST_RUNNER"

// portable is the portable runner's setting; nil in the default mode.
var portable *portableRunner

type portableRunner struct {
	bin      string // uripipe, built from this package
	boot     string // the SDK's boot loader
	endpoint string // Prism's job service
	poolAddr string // the worker pool's address
	prism    *exec.Cmd
	prismLog *bytes.Buffer
	server   *grpc.Server
	workers  *pool.Process   // the pool, which starts the boot loader
	copies   map[string]bool // the boot loader's copies of bin before the tests
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
	if r.boot, err = goTool("container"); err != nil {
		return err
	}
	r.copies = workerCopies(r.bin)

	// Prism on a port the kernel picks; it says which on its log.
	// It stops by itself when it has had no job for 10 minutes, in case
	// this process dies without stopping it.
	r.prism = exec.Command(prism, "--job_port=0", "--serve_http=false", "--log_kind=text", "--idle_shutdown_timeout=10m")
	r.prism.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	logs, err := r.prism.StderrPipe()
	if err != nil {
		return err
	}
	r.prism.Stdout = r.prism.Stderr
	if err := r.prism.Start(); err != nil {
		return fmt.Errorf("starting prism: %v", err)
	}
	r.prismLog = &bytes.Buffer{}
	if r.endpoint, err = prismEndpoint(logs, r.prismLog); err != nil {
		r.prism.Process.Kill()
		r.prism.Wait()
		return fmt.Errorf("prism: %v\n%s", err, r.prismLog)
	}

	// The SDK's worker pool (container/pool, what "boot --worker_pool"
	// serves on port 50000), served here on a port the kernel picks on
	// 127.0.0.1, so that two runs of the tests never share one. Its own
	// listener (on all interfaces, the port also picked by the kernel)
	// is not served.
	r.workers, err = pool.New(context.Background(), 0, r.boot)
	if err != nil {
		r.stop()
		return fmt.Errorf("worker pool: %v", err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		r.stop()
		return err
	}
	r.poolAddr = lis.Addr().String()
	r.server = grpc.NewServer()
	fnpb.RegisterBeamFnExternalWorkerPoolServer(r.server, r.workers)
	go r.server.Serve(lis)
	portable = r
	return nil
}

var endpointRE = regexp.MustCompile(`msg="Serving JobManagement" endpoint=(\S+)`)

// prismEndpoint reads Prism's log until it says where its job service
// is, and copies the rest of the log into log.
func prismEndpoint(logs io.Reader, log *bytes.Buffer) (string, error) {
	sc := bufio.NewScanner(logs)
	for sc.Scan() {
		log.Write(sc.Bytes())
		log.WriteByte('\n')
		if m := endpointRE.FindSubmatch(sc.Bytes()); m != nil {
			go io.Copy(io.Discard, logs) // Prism must never block on its log
			return string(m[1]), nil
		}
	}
	return "", errors.New("it exited without serving its job service")
}

// stop stops the pool, the workers and Prism, and removes the copies
// of the worker binary that the boot loader left (it copies the staged
// binary into a directory /tmp/binNNN of its own, one per worker, and
// does not remove it).
func (r *portableRunner) stop() {
	if r.server != nil {
		r.server.Stop()
	}
	if r.workers != nil {
		r.workers.Stop(context.Background())
	}
	if r.prism != nil && r.prism.Process != nil {
		r.prism.Process.Kill()
		r.prism.Wait()
	}
	for d := range workerCopies(r.bin) {
		if !r.copies[d] {
			os.RemoveAll(d)
		}
	}
}

// workerCopies returns the directories /tmp/bin* that hold only a file
// "worker" with the bytes of bin: the boot loader's copies of it.
func workerCopies(bin string) map[string]bool {
	want, err := os.ReadFile(bin)
	if err != nil {
		return nil
	}
	dirs, _ := filepath.Glob("/tmp/bin*")
	copies := map[string]bool{}
	for _, d := range dirs {
		ents, err := os.ReadDir(d)
		if err != nil || len(ents) != 1 || ents[0].Name() != "worker" {
			continue
		}
		w := filepath.Join(d, "worker")
		if fi, err := os.Stat(w); err != nil || fi.Size() != int64(len(want)) {
			continue
		}
		if got, err := os.ReadFile(w); err == nil && bytes.Equal(got, want) {
			copies[d] = true
		}
	}
	return copies
}

// runPortable runs uripipe with args through Prism and the worker pool,
// and returns its exit status and standard error.
func runPortable(args ...string) (int, string) {
	r := portable
	args = append(args, "--runner=universal", "--endpoint="+r.endpoint,
		"--environment_type=EXTERNAL", "--environment_config="+r.poolAddr, "--worker_binary="+r.bin)
	cmd := exec.Command(r.bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, stderr.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), stderr.String()
	}
	return -1, err.Error() + "\n" + stderr.String()
}
