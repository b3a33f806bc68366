package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// readmeCommand matches a line of the README that runs uripipe: "go
// run [-tags T] ./cmd/uripipe ARGS", or "./uripipe ARGS" at its start.
var readmeCommand = regexp.MustCompile(`(?:go run (?:-tags \S+ )?\./cmd/uripipe|^\./uripipe) (.*)`)

// readmeCommands returns the uripipe commands of the README, each as
// its arguments: the lines that run uripipe, joined over a final "\",
// without a comment.
func readmeCommands(t *testing.T) [][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var cmds [][]string
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		m := readmeCommand.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		rest := m[1]
		for strings.HasSuffix(strings.TrimSpace(rest), "\\") && i+1 < len(lines) {
			i++
			rest = strings.TrimSuffix(strings.TrimSpace(rest), "\\") + " " + lines[i]
		}
		rest, _, _ = strings.Cut(rest, "#")
		var args []string
		for _, f := range strings.Fields(rest) {
			args = append(args, strings.Trim(f, "'"))
		}
		cmds = append(cmds, args)
	}
	return cmds
}

// TestREADMEExamples runs every uripipe example of the README on
// inputs of the forms it names, and checks its counts against what it
// wrote. The example through a job server (--runner universal) runs in
// the portable mode, with the test's job server, worker pool and
// binary; the examples for a cluster (--runner flink, dataflow) cannot
// run here: the test only checks that they are the only ones left out.
func TestREADMEExamples(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string, b []byte) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	urls := "http://Example.com/a\nhttps://example.com:443/b\r\n\nnot a uri\nurn:isbn:0-395-36341-1\n"
	mk("in/a.txt", []byte(urls))
	mk("in/b.txt", []byte("HTTP://EXAMPLE.COM/a\n/relative\n"))
	mk("in/c.txt.gz", gzipMembers([]byte(urls), 2))
	os.MkdirAll(filepath.Join(dir, "crawl"), 0o755)
	writeWARC(t, filepath.Join(dir, "crawl", "c.warc.gz"), crawl, true)
	mk("site/index.html", []byte(`<a href="page.html">p</a> <a href="http://a b/">bad</a>`))
	mk("mail/m.txt", []byte("Write to <mailto:joe@example.org> or see http://example.com/x.\n"))
	lineCount := map[string]int{"in/*.txt": 7, "in/*.txt.gz": 5}
	cmds := readmeCommands(t) // before the test moves away from the repository
	t.Chdir(dir)
	ran := 0
	for _, args := range cmds {
		joined := strings.Join(args, " ")
		switch {
		case strings.Contains(joined, "--runner universal"):
			if portable == nil {
				continue
			}
		case strings.Contains(joined, "--runner flink"), strings.Contains(joined, "--runner dataflow"):
			continue
		case strings.Contains(joined, "--runner"):
			t.Errorf("README: %q: not run here, and not for a cluster", joined)
			continue
		}
		var glob, out string
		shards := 1
		for i := 0; i+1 < len(args); i++ {
			switch args[i] {
			case "--input":
				glob = args[i+1]
			case "--output":
				out = args[i+1]
			case "--shards":
				shards, _ = strconv.Atoi(args[i+1])
			}
		}
		job(t, args...)
		in := -1
		if n, ok := lineCount[glob]; ok {
			in = n
		}
		c := checkCounts(t, args[0], out, shards, in)
		if c.Out == 0 {
			t.Errorf("README: %q: nothing out: %v", joined, c)
		}
		ran++
	}
	if ran < 6 {
		t.Errorf("ran %d README examples, want every one (6 at least)", ran)
	}
}
