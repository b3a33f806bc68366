package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urikit/urikit/beam/uribeam"
)

// The differential tests: each job runs on Prism, in process, through
// run (the whole command but os.Exit), and its output shards must hold
// the same lines, as a multiset, as the uri command's answers on the
// same input. The uri command is built from the repository's source.

var (
	root   = filepath.Join("..", "..", "..") // the repository
	uriBin string                            // the uri command, built in TestMain
)

func TestMain(m *testing.M) {
	if boot := os.Getenv(poolEnvVar); boot != "" {
		os.Exit(servePool(boot))
	}
	dir, err := os.MkdirTemp("", "uripipe-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	uriBin = filepath.Join(dir, "uri")
	cmd := exec.Command("go", "build", "-o", uriBin, "./cmd/uri")
	cmd.Dir = root
	// The repository's own go.work when it has one; never one found in
	// a folder above it.
	if _, err := os.Stat(filepath.Join(root, "go.work")); err != nil {
		cmd.Env = append(os.Environ(), "GOWORK=off")
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the uri command: %v\n%s", err, out)
		os.Exit(2)
	}
	switch mode := os.Getenv(portableEnvVar); mode {
	case "":
	case "portable":
		if err := startPortable(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.RemoveAll(dir)
			os.Exit(2)
		}
	default:
		fmt.Fprintf(os.Stderr, "%s=%q: want portable, or nothing\n", portableEnvVar, mode)
		os.Exit(2)
	}
	code := m.Run()
	if portable != nil {
		if err := portable.checkWorkDir(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
		portable.stop()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// uriLines runs the uri command with args and stdin and returns the
// lines of its standard output.
func uriLines(t *testing.T, stdin []byte, args ...string) []string {
	t.Helper()
	cmd := exec.Command(uriBin, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() > 1 {
			t.Fatalf("uri %s: %v\n%s", strings.Join(args, " "), err, errb.Bytes())
		}
	}
	return splitLines(out.Bytes())
}

// splitLines splits as the uri command reads: every line an input, the
// empty one included, a final "\r" dropped, no line after a final "\n".
func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	s := strings.TrimSuffix(string(b), "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// job runs uripipe with args, in process or, in the portable mode,
// through Prism's job service, and fails the test unless it exits 0.
func job(t *testing.T, args ...string) {
	t.Helper()
	run := runCommand
	if portable != nil {
		run = runPortable
	}
	code, stderr := run(args...)
	if code != 0 {
		t.Fatalf("uripipe %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	for line := range strings.Lines(stderr) {
		if strings.HasPrefix(line, "uripipe ") {
			t.Log(strings.TrimSpace(line))
		}
	}
}

// jobIn is job run in the directory dir: in the portable mode, only
// uripipe runs there, not its workers.
func jobIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	if portable == nil {
		t.Chdir(dir)
		job(t, args...)
		return
	}
	code, stderr := runPortableIn(dir, args...)
	if code != 0 {
		t.Fatalf("uripipe %s (in %s): exit %d\n%s", strings.Join(args, " "), dir, code, stderr)
	}
}

// runCommand runs the command in process with fresh flags.
func runCommand(args ...string) (int, string) {
	*input, *output, *shards = "", "", 1
	*by, *postApp = "host", true
	*fmap = uribeam.Mapping{}
	*maxRecord = uribeam.DefaultMaxRecord
	flag.Set("runner", "")
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stderr.String()
}

// shardLines returns the lines of the shards PREFIX-SSSSS-of-NNNNN, and
// checks that there are n of them.
func shardLines(t *testing.T, prefix string, n int) []string {
	t.Helper()
	var all []string
	for i := range n {
		b, err := os.ReadFile(uribeam.ShardName(prefix, i, n))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, splitLines(b)...)
	}
	if extra, _ := filepath.Glob(prefix + fmt.Sprintf("-*-of-%05d", n+1)); len(extra) > 0 {
		t.Errorf("unexpected shards %v", extra)
	}
	return all
}

// sameMultiset reports the differences between the multisets got and want.
func sameMultiset(t *testing.T, what string, got, want []string) {
	t.Helper()
	got, want = slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
	if slices.Equal(got, want) {
		return
	}
	var only1, only2 []string
	i, j := 0, 0
	for i < len(got) || j < len(want) {
		switch {
		case j == len(want) || i < len(got) && got[i] < want[j]:
			only1 = append(only1, got[i])
			i++
		case i == len(got) || got[i] > want[j]:
			only2 = append(only2, want[j])
			j++
		default:
			i++
			j++
		}
	}
	t.Errorf("%s: %d lines, want %d\nonly in uripipe's (%d): %q\nonly in uri's (%d): %q",
		what, len(got), len(want), len(only1), head(only1), len(only2), head(only2))
}

func head(s []string) []string { return s[:min(len(s), 10)] }

// lineInputs writes the URI test inputs into dir/in, each in another of
// the forms a job reads, and returns the glob of the files and their
// lines, concatenated: hand-written edge cases (CRLF, invalid UTF-8, the
// empty line) as a plain file; a sample of a real URL list gzipped;
// open-redirect payloads as a gzip file of several members, cut in the
// middle of lines; URNs gzipped under a name without ".gz"; lines
// without a host (or an empty one), with no final newline; and a WARC
// file, plain and gzipped (a record a member).
func lineInputs(t *testing.T, dir string) (string, []byte) {
	t.Helper()
	files := []string{
		filepath.Join("..", "..", "testdata", "edge.txt"),
		filepath.Join(root, "testdata", "corpora", "kasztp-sample.txt"),
		filepath.Join(root, "testdata", "corpora", "adversarial", "openredirects.txt"),
		filepath.Join(root, "testdata", "corpora", "urns-sample.txt"),
	}
	in := filepath.Join(dir, "in")
	if err := os.MkdirAll(in, 0o755); err != nil {
		t.Fatal(err)
	}
	var all []byte
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(in, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 0 && b[len(b)-1] != '\n' {
			b = append(b, '\n')
		}
		all = append(all, b...)
		switch i {
		case 0:
			write("0.txt", b)
		case 1:
			write("1.txt.gz", gzipMembers(b, 1))
		case 2:
			write("2.txt.gz", gzipMembers(b, 7))
		case 3:
			write("3.list", gzipMembers(b, 1))
		}
	}
	hostless := []byte("/a\n::::\nfile:///etc/hosts\r\n\nmailto:joe@example.org\n\xff/\nhttp://h.example/")
	write("4.txt", hostless)
	all = append(append(all, hostless...), '\n')
	// WARC files are lines too for these jobs, a .warc.gz decompressed:
	// their headers, and the payloads' bytes (not all UTF-8).
	for _, name := range []string{"5.warc", "6.warc.gz"} {
		p := filepath.Join(in, name)
		writeWARC(t, p, crawl, strings.HasSuffix(name, ".gz"))
		b, _ := os.ReadFile(p)
		if strings.HasSuffix(name, ".gz") {
			b = gunzip(t, b)
		}
		all = append(all, b...)
	}
	return filepath.Join(in, "*"), all
}

// gzipMembers returns b gzipped as n members, cut at equal lengths
// whatever the lines.
func gzipMembers(b []byte, n int) []byte {
	var out bytes.Buffer
	for i := range n {
		z := gzip.NewWriter(&out)
		z.Write(b[i*len(b)/n : (i+1)*len(b)/n])
		z.Close()
	}
	return out.Bytes()
}

// normalizeAnswers returns uri normalize's answer for every input line:
// the normal form, or "" and false for an invalid line; and the JSON
// lines of the invalid ones.
func normalizeAnswers(t *testing.T, all []byte) (lines, normal []string, valid []bool, errs []string) {
	lines = splitLines(all)
	normal = uriLines(t, all, "normalize")
	if len(normal) != len(lines) {
		t.Fatalf("uri normalize: %d lines for %d inputs", len(normal), len(lines))
	}
	valid = make([]bool, len(lines))
	for i, n := range normal {
		// A normal form never holds a space: "error: " starts a failure.
		valid[i] = !strings.HasPrefix(n, "error: ")
	}
	for _, j := range uriLines(t, all, "normalize", "--json") {
		if strings.Contains(j, `"error":`) {
			// uri normalize tells a person how to repair an IRI; the
			// pipeline has no --repair to point at.
			errs = append(errs, strings.Replace(j, " (an IRI: use --repair or uri iri-to-uri)", "", 1))
		}
	}
	return lines, normal, valid, errs
}

func TestNormalizeAgreesWithURI(t *testing.T) {
	dir := t.TempDir()
	glob, all := lineInputs(t, dir)
	_, normal, valid, errs := normalizeAnswers(t, all)
	var want []string
	for i, n := range normal {
		if valid[i] {
			want = append(want, n)
		}
	}
	out := filepath.Join(dir, "out", "n")
	job(t, "normalize", "--input", glob, "--output", out, "--shards", "3")
	sameMultiset(t, "normalize", shardLines(t, out, 3), want)
	sameMultiset(t, "normalize errors", shardLines(t, out+"-errors", 3), errs)
	checkCounts(t, "normalize", out, 3, len(normal))
	if len(errs) < 15 || len(want) < 500 {
		t.Errorf("the inputs hold %d valid and %d invalid lines: too few to tell", len(want), len(errs))
	}
}

func TestDedupeAgreesWithURI(t *testing.T) {
	dir := t.TempDir()
	glob, all := lineInputs(t, dir)
	lines, normal, valid, errs := normalizeAnswers(t, all)
	// The key is the normal form, but for a URN its assigned-name
	// alone: what "uri urn key" prints (RFC 8141 section 3).
	keys := slices.Clone(normal)
	var urns []byte
	var at []int
	for i, n := range normal {
		if valid[i] && strings.HasPrefix(n, "urn:") {
			urns = append(append(urns, lines[i]...), '\n')
			at = append(at, i)
		}
	}
	for k, key := range uriLines(t, urns, "urn", "key") {
		keys[at[k]] = key
	}
	type class struct {
		n    int
		repr string
	}
	classes := map[string]*class{}
	for i, k := range keys {
		if !valid[i] {
			continue
		}
		c := classes[k]
		if c == nil {
			c = &class{repr: lines[i]}
			classes[k] = c
		}
		c.n++
		c.repr = min(c.repr, lines[i])
	}
	var want []string
	merged := 0
	for k, c := range classes {
		want = append(want, k+"\t"+strconv.Itoa(c.n)+"\t"+c.repr)
		if c.n > 1 {
			merged++
		}
	}
	out := filepath.Join(dir, "out", "d")
	job(t, "dedupe", "--input", glob, "--output", out, "--shards", "2")
	sameMultiset(t, "dedupe", shardLines(t, out, 2), want)
	sameMultiset(t, "dedupe errors", shardLines(t, out+"-errors", 2), errs)
	checkCounts(t, "dedupe", out, 2, len(lines))
	if merged < 5 {
		t.Errorf("only %d classes of more than one line: the inputs do not test grouping", merged)
	}
}

func TestHostsAgreesWithURI(t *testing.T) {
	dir := t.TempDir()
	glob, all := lineInputs(t, dir)
	lines, normal, valid, errs := normalizeAnswers(t, all)
	var normals []byte
	var inputs []string
	for i, n := range normal {
		if valid[i] {
			normals = append(append(normals, n...), '\n')
			inputs = append(inputs, lines[i])
		}
	}
	// A valid line without a host is a dead letter: no authority (the
	// host null) or an empty host ("").
	counts := map[string]int{}
	hostless := 0
	for i, j := range uriLines(t, normals, "get", "--json", "{:host}") {
		var v struct {
			Host *string `json:":host"`
		}
		if err := json.Unmarshal([]byte(j), &v); err != nil {
			t.Fatal(err)
		}
		var why error
		switch {
		case v.Host == nil:
			why = uribeam.ErrNoAuthority
		case *v.Host == "":
			why = uribeam.ErrEmptyHost
		default:
			counts[*v.Host]++
			continue
		}
		errs = append(errs, uribeam.DeadLetter{Input: inputs[i], Offset: -1, Error: why.Error()}.JSON())
		hostless++
	}
	var want []string
	for h, n := range counts {
		want = append(want, h+"\t"+strconv.Itoa(n))
	}
	out := filepath.Join(dir, "out", "h")
	job(t, "hosts", "--input", glob, "--output", out)
	sameMultiset(t, "hosts", shardLines(t, out, 1), want)
	sameMultiset(t, "hosts errors", shardLines(t, out+"-errors", 1), errs)
	checkCounts(t, "hosts", out, 1, len(lines))
	if hostless < 10 {
		t.Errorf("only %d lines without a host in the inputs", hostless)
	}
}

func TestExtractAgreesWithURI(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for _, f := range []string{"mail.txt", "small.txt.gz"} {
		src := filepath.Join("..", "..", "testdata", "text", f)
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, f)
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f, ".gz") {
			b = gunzip(t, b)
		}
		for _, j := range uriLines(t, b, "extract", "--json") {
			want = append(want, dst+"\t"+jsonField(t, j, "start")+"\t"+jsonField(t, j, "uri"))
		}
	}
	out := filepath.Join(dir, "out", "x")
	job(t, "extract", "--input", filepath.Join(dir, "*"), "--output", out)
	sameMultiset(t, "extract", shardLines(t, out, 1), want)
	if len(want) < 8 {
		t.Errorf("only %d URIs in the test texts", len(want))
	}
}

func TestLinksAgreesWithURI(t *testing.T) {
	pages := filepath.Join("..", "..", "testdata", "pages")
	const site = "https://www.example.org/site/"
	var want, wantDead []string
	n := 0
	err := filepath.Walk(pages, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(pages, p)
		page := site + filepath.ToSlash(rel)
		for _, l := range uriLines(t, nil, "links", "--url", page, p) {
			if msg, ok := strings.CutPrefix(l, "error: "); ok {
				// A link uri links cannot resolve is a dead letter.
				wantDead = append(wantDead, msg)
				continue
			}
			want = append(want, page+"\t"+l)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out", "l")
	// The longest prefix wins: the second --map is never used.
	job(t, "links", "--input", filepath.Join(pages, "*.html"), "--map", pages+"/="+site,
		"--map", filepath.Dir(pages)+"/="+"https://nowhere.example/", "--output", out)
	got := shardLines(t, out, 1)
	job(t, "links", "--input", filepath.Join(pages, "sub", "*.html"), "--map", pages+"/="+site, "--output", out+"2")
	got = append(got, shardLines(t, out+"2", 1)...)
	sameMultiset(t, "links", got, want)
	var dead []string
	for _, l := range append(shardLines(t, out+"-errors", 1), shardLines(t, out+"2-errors", 1)...) {
		var d struct{ Error string }
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatalf("dead letter %q: %v", l, err)
		}
		dead = append(dead, d.Error)
	}
	sameMultiset(t, "links dead letters", dead, wantDead)
	if n != 3 || len(want) < 20 {
		t.Errorf("%d pages with %d links: the test pages are missing", n, len(want))
	}
}

func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "Usage: uripipe JOB"},
		{[]string{"sort"}, 2, `unknown job "sort"`},
		{[]string{"dedupe"}, 2, "flag --input is required"},
		{[]string{"dedupe", "--input", "x"}, 2, "flag --output is required"},
		{[]string{"dedupe", "--input", "x", "--output", "y", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"dedupe", "--input", "x", "--output", "y", "--shards", "0"}, 2, "at least 1"},
		{[]string{"dedupe", "--input", "x", "--output", "y", "--nosuchflag"}, 2, "flag provided but not defined"},
		{[]string{"dedupe", "--input", "x", "--output", "y", "--runner", "mapreduce"}, 2, "flag --runner"},
		{[]string{"dedupe", "--input", "x", "--output", "y", "--map", "a=http:"}, 2, "--map is for links only"},
		{[]string{"links", "--input", "x", "--output", "y", "--map", "a"}, 2, "want PATHPREFIX=URLPREFIX"},
		{[]string{"links", "--input", "x", "--output", "y", "--map", "a=relative/"}, 2, "absolute URI"},
		{[]string{"links", "--input", "x", "--output", "y", "--max-record-size", "0"}, 2, "want a positive size"},
		{[]string{"links", "--input", "x", "--output", "y", "--max-record-size", "12X"}, 2, "want a positive size"},
		{[]string{"links", "--input", "x", "--output", "y", "--max-record-size", ""}, 2, "want a positive size"},
		{[]string{"help"}, 0, ""},
	} {
		code, stderr := runCommand(tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("uripipe %q: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, tc.code, tc.msg)
		}
	}
}

// TestNoInput: an --input that matches no file is a usage error, with
// or without a wildcard; the pipeline is not run.
func TestNoInput(t *testing.T) {
	dir := t.TempDir()
	for _, glob := range []string{filepath.Join(dir, "none.txt"), filepath.Join(dir, "*.txt.gz"), filepath.Join(dir, "no", "*")} {
		for _, j := range []string{"normalize", "links"} {
			code, stderr := runCommand(j, "--input", glob, "--output", filepath.Join(dir, "o"))
			if code != 2 || !strings.Contains(stderr, "no file matches "+strconv.Quote(glob)) {
				t.Errorf("%s --input %s: exit %d, want 2\n%s", j, glob, code, stderr)
			}
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "o*")); len(m) > 0 {
		t.Errorf("a job without input wrote %v", m)
	}
}

// TestFailedPipeline: a pipeline that cannot write its output exits 1,
// not 0 and not 2.
func TestFailedPipeline(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	os.WriteFile(in, []byte("http://example.com/\n"), 0o644)
	code, stderr := runCommand("normalize", "--input", in, "--output", filepath.Join(in, "o"))
	if code != 1 {
		t.Errorf("exit %d, want 1\n%s", code, stderr)
	}
}

// TestReadErrors: a gzip file cut short gives its lines up to the cut
// and a dead letter for the file; a line over --max-record-size is a
// dead letter with its first bytes; every other line is read.
func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	var text []byte
	for i := range 300 {
		text = fmt.Appendf(text, "http://example.com/%d\n", i)
	}
	z := gzipMembers(text, 1)
	cut := z[:len(z)/2]
	whole, err := io.ReadAll(mustGzipReader(t, cut))
	if err == nil {
		t.Fatal("the cut gzip file reads to its end")
	}
	os.WriteFile(filepath.Join(dir, "cut.txt.gz"), cut, 0o644)
	long := "http://example.com/" + strings.Repeat("a", 2000)
	os.WriteFile(filepath.Join(dir, "long.txt"), []byte("http://a.example/\n"+long+"\nhttp://b.example/"), 0o644)
	out := filepath.Join(dir, "out", "n")
	job(t, "normalize", "--input", filepath.Join(dir, "*"), "--output", out, "--max-record-size", "1K")
	before := bytes.Count(whole, []byte("\n")) // the complete lines before the cut
	c := checkCounts(t, "normalize", out, 1, before+3)
	if c.ReadErrors != 1 || c.Dead != 1 || c.Out != int64(before+2) {
		t.Errorf("counts %+v, want 1 read error, 1 dead line, %d out", c, before+2)
	}
	var sawCut, sawLong bool
	for _, l := range shardLines(t, out+"-errors", 1) {
		file, input, why := jsonField(t, l, "file"), jsonField(t, l, "input"), jsonField(t, l, "error")
		sawCut = sawCut || file == filepath.Join(dir, "cut.txt.gz") && strings.Contains(why, "unexpected EOF")
		sawLong = sawLong || input == long[:1024] && strings.HasPrefix(why, "a line of more than 1024 bytes")
	}
	if !sawCut || !sawLong {
		t.Errorf("dead letters %q: want one for the cut file and one for the long line", shardLines(t, out+"-errors", 1))
	}
}

func mustGzipReader(t *testing.T, b []byte) io.Reader {
	t.Helper()
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return z
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// jsonField returns the field of the JSON object line as text.
func jsonField(t *testing.T, line, field string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	var s string
	if json.Unmarshal(m[field], &s) == nil {
		return s
	}
	return string(m[field])
}
