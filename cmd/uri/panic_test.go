package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// panicky is a command with a bug put in on purpose: it echoes each
// input, but panics on "boom" (in the handling of the input), on
// "write-boom" (while its line is written) and on "long-boom" (after a
// line of more than a block has been written out in part).
var panicky = &command{
	name:   "panicky",
	traits: inputs | jsonOut,
	start: func(c *call) (each, error) {
		return func(in string) (result, error) {
			switch in {
			case "boom":
				var m map[string]int
				m[in]++ // a nil map: a runtime error, as a real bug gives
			case "write-boom":
				return render(func(w *writer) {
					w.B = append(w.B, "half a line"...)
					panic("in write")
				}), nil
			case "long-boom":
				return render(func(w *writer) {
					w.B = append(w.B, strings.Repeat("x", blockSize+1)...)
					w.spill()
					panic("after a spill")
				}), nil
			}
			return c.text(in), nil
		}, nil
	},
}

// wantInternal is the error line of an input that hit a bug.
func wantInternal(v string) string {
	return "error: internal error: " + v + " (a bug in uri: please report it with this input)\n"
}

// TestPanicKeepsOutput: a panic on one input costs that input alone:
// the inputs before it keep their lines, it gets an error line, the
// inputs after it go on, and the exit status is 3 (documented in every
// help). The stack goes to standard error once.
func TestPanicKeepsOutput(t *testing.T) {
	var out, errOut bytes.Buffer
	code := panicky.exec(nil, strings.NewReader("a\nboom\nb\nwrite-boom\nc\n"), &out, &errOut)
	want := "a\n" + wantInternal("assignment to entry in nil map") + "b\n" + wantInternal("in write") + "c\n"
	if code != 3 || out.String() != want {
		t.Errorf("exit %d, output %q; want 3, %q", code, out.String(), want)
	}
	if e := errOut.String(); !strings.Contains(e, "uri panicky: standard input:2: internal error: assignment to entry in nil map") ||
		!strings.Contains(e, "uri panicky: standard input:4: internal error: in write") ||
		strings.Count(e, "runtime/debug.Stack") != 1 {
		t.Errorf("standard error: %q", e)
	}

	// JSON: the error object of the input, as for any failure.
	out.Reset()
	code = panicky.exec([]string{"--json", "a", "boom"}, strings.NewReader(""), &out, &errOut)
	objs := jsonLines(t, out.String())
	if code != 3 || len(objs) != 2 || objs[0]["result"] != "a" || !strings.HasPrefix(objs[1]["error"].(string), "internal error: assignment") || objs[1]["input"] != "boom" {
		t.Errorf("--json: exit %d, %q", code, out.String())
	}

	// A line written out in part (longer than a block) is ended, so the
	// error line stands on its own line.
	out.Reset()
	code = panicky.exec([]string{"a", "long-boom", "b"}, strings.NewReader(""), &out, &errOut)
	lines := strings.Split(out.String(), "\n")
	if code != 3 || len(lines) != 5 || lines[0] != "a" || len(lines[1]) < blockSize || lines[2]+"\n" != wantInternal("after a spill") || lines[3] != "b" {
		t.Errorf("long line: exit %d, %d lines", code, len(lines))
	}

	// Files: the reading goes on after the input that panicked, in the
	// same file and then in the next; --skip-errors sends its error
	// line to standard error with where it came from.
	dir := t.TempDir()
	f1, f2 := dir+"/1.txt", dir+"/2.txt"
	os.WriteFile(f1, []byte("a\nboom\nb"), 0o644)
	os.WriteFile(f2, []byte("boom\nc\n"), 0o644)
	out.Reset()
	errOut.Reset()
	code = panicky.exec([]string{"-f", f1, "-f", f2, "x", "--skip-errors"}, strings.NewReader(""), &out, &errOut)
	if code != 3 || out.String() != "x\na\nb\nc\n" ||
		!strings.Contains(errOut.String(), "uri panicky: "+f1+":2: error: internal error: assignment") ||
		!strings.Contains(errOut.String(), "uri panicky: "+f2+":1: error: internal error: assignment") {
		t.Errorf("files: exit %d, output %q, stderr %q", code, out.String(), errOut.String())
	}

	// Writing fails and an input panics: the bug is what the status says.
	code = panicky.exec([]string{"boom"}, strings.NewReader(""), failingWriter{}, &errOut)
	if code != 3 {
		t.Errorf("failing writer: exit %d", code)
	}
}

// TestPanicWhole: a command that reads its inputs itself cannot go on
// after a panic, but what it made before is written out, and the exit
// status is 3.
func TestPanicWhole(t *testing.T) {
	cmd := &command{name: "panicky-whole", traits: jsonOut, whole: func(c *call) int {
		w := newWriter(c.stdout, c.json)
		c.out = w
		w.line("first")
		w.flushLine()
		w.B = append(w.B, "half"...)
		panic(errors.New("mid-stream"))
	}}
	var out, errOut bytes.Buffer
	code := cmd.exec(nil, strings.NewReader(""), &out, &errOut)
	if code != 3 || out.String() != "first\n" || !strings.Contains(errOut.String(), "uri panicky-whole: internal error: mid-stream") {
		t.Errorf("exit %d, output %q, stderr %q", code, out.String(), errOut.String())
	}
}

// TestPanicProcess runs the command as a process writing to a pipe, as
// a user runs it: the lines of the inputs before a panic reach the pipe,
// and the process ends with status 3, not with the Go runtime's 2 and a
// lost buffer.
func TestPanicProcess(t *testing.T) {
	if os.Getenv("URIKIT_PANIC_CHILD") == "1" {
		os.Exit(panicky.exec(nil, os.Stdin, os.Stdout, os.Stderr))
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("no test binary to run: %v", err)
	}
	cmd := exec.Command(exe, "-test.run=^TestPanicProcess$")
	cmd.Env = append(os.Environ(), "URIKIT_PANIC_CHILD=1")
	cmd.Stdin = strings.NewReader("a\nb\nboom\nc\n")
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("exit: %v", err)
	}
	if want := "a\nb\n" + wantInternal("assignment to entry in nil map") + "c\n"; string(out) != want {
		t.Errorf("output %q, want %q", out, want)
	}
}
