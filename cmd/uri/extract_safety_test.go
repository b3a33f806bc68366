package main

import (
	"bufio"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/urikit/urikit/internal/testshared"
)

// TestExtractDelimiting: the rules of package extract hold through the
// command (issue 16 items 8 and 9): punctuation before a scheme, HTML in
// text, brackets that are not wrappers, and a hyphen at a line end
// before a line that starts a URI.
func TestExtractDelimiting(t *testing.T) {
	tests := []struct {
		in   string
		args []string
		want string
	}{
		{"...http://x.example/ -https://y.example/", nil, "http://x.example/\nhttps://y.example/\n"},
		{`<a href="http://x.example/">x</a>`, nil, "http://x.example/\n"},
		{"<http://x.example/a and more text", nil, "http://x.example/a\n"},
		{"<see http://x.example/ for details>", nil, "http://x.example/\n"},
		{"<www.x.org/p> <ftp.x.org>", []string{"--abbrev"}, "http://www.x.org/p\nftp://ftp.x.org\n"},
		{"http://a.example/-\nhttp://b.example/", nil, "http://a.example/-\nhttp://b.example/\n"},
		{"http://a.example/x-\n  y.html", nil, "http://a.example/x-y.html\n"},
	}
	for _, tt := range tests {
		out, _, code := uriCmd(t, tt.in, append([]string{"extract"}, tt.args...)...)
		if code != 0 || out != tt.want {
			t.Errorf("extract %s on %q = %q, exit %d; want %q", strings.Join(tt.args, " "), tt.in, out, code, tt.want)
		}
	}
}

// TestExtractRecordsCost: "-z" reads every record with one Scanner
// (issue 20 item 12: a Scanner per record cost 12 µs, 1 MB of NULs
// 12 s). Time and memory are linear in the records, and a record
// allocates nothing of its own.
func TestExtractRecordsCost(t *testing.T) {
	run1 := func(text string) {
		if code := run([]string{"extract", "-z"}, strings.NewReader(text), io.Discard, io.Discard); code != 1 {
			t.Fatalf("exit %d", code)
		}
	}
	testshared.CheckLinearN(t, "extract -z", 32<<10, func(n int) string {
		return strings.Repeat("\x00", n)
	}, run1)
	text := strings.Repeat("\x00", 1<<20)
	if allocs := testing.AllocsPerRun(1, func() { run1(text) }); allocs > 1000 {
		t.Errorf("1M records: %v allocations", allocs)
	}
	out, _, _ := uriCmd(t, "a\x00\x00http://a.example/\x00", "extract", "-z")
	if out != `{"record":0,"matches":[]}`+"\n"+`{"record":1,"matches":[]}`+"\n"+
		`{"record":2,"matches":[{"uri":"http://a.example/","raw":"http://a.example/","start":0,"end":17,"line":1,"col":1,"wrapper":"none","abbrev":false,"iri":false}]}`+"\n" {
		t.Errorf("%s", out)
	}
}

// TestExtractClosingBrackets: a trailing run of ")" costs its length
// through the command too (issue 20 item 13).
func TestExtractClosingBrackets(t *testing.T) {
	testshared.CheckLinearN(t, "extract )))", 4, func(n int) string {
		return strings.Repeat("http://a/"+strings.Repeat(")", 30000)+"\n", n)
	}, func(text string) {
		var out strings.Builder
		if code := run([]string{"extract"}, strings.NewReader(text), &out, io.Discard); code != 0 || !strings.HasPrefix(out.String(), "http://a/\n") {
			t.Fatalf("exit %d: %.40q", code, out.String())
		}
	})
}

// TestExtractIdle: the command writes what it found before it waits for
// more input, so that "tail -f log | uri extract" prints each URI as
// its line arrives (issue 20 item 11). The test writes one line into a
// pipe and waits for its URI while the pipe stays open.
func TestExtractIdle(t *testing.T) {
	for _, args := range [][]string{{"extract"}, {"extract", "--json"}, {"extract", "--abbrev"}} {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan int, 1)
		go func() {
			done <- run(args, inR, outW, io.Discard)
			outW.Close()
		}()
		lines := bufio.NewReader(outR)
		got := make(chan string, 1)
		for i, line := range []string{"first http://a.example/x here\n", "then <ftp://b.example/y>\n"} {
			if _, err := io.WriteString(inW, line); err != nil {
				t.Fatal(err)
			}
			go func() {
				l, _ := lines.ReadString('\n')
				got <- l
			}()
			select {
			case l := <-got:
				if want := []string{"a.example/x", "b.example/y"}[i]; !strings.Contains(l, want) {
					t.Errorf("%v: line %d = %q", args, i, l)
				}
			case <-time.After(20 * time.Second):
				// A deadlock guard, not a timing: the URI never came
				// while the input stayed open.
				t.Fatalf("%v: no output for line %d while the input is open", args, i)
			}
		}
		inW.Close()
		io.Copy(io.Discard, outR)
		if code := <-done; code != 0 {
			t.Errorf("%v: exit %d", args, code)
		}
	}
}
