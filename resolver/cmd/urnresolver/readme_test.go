package main

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The README's resolver section is what users copy: its deactivation
// examples once got 415 (curl's -d sends a form type, and the examples
// had no Content-Type), and its start-up line was not the one the
// server prints (issue 29.5). These tests run the section as written.

// readmeSection returns the lines of the code blocks of the README's
// "## URN resolver" section, continuation lines ("\" at the end) joined.
func readmeSection(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## URN resolver\n")
	if !ok {
		t.Fatal("README.md has no \"## URN resolver\" section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	var lines []string
	in := false
	for _, l := range strings.Split(sec, "\n") {
		if strings.HasPrefix(l, "```") {
			in = !in
			continue
		}
		if !in {
			continue
		}
		if n := len(lines); n > 0 && strings.HasSuffix(lines[n-1], "\\") {
			lines[n-1] = strings.TrimSuffix(lines[n-1], "\\") + " " + strings.TrimSpace(l)
			continue
		}
		lines = append(lines, l)
	}
	return lines
}

// shellWords splits a command line as sh does for the README's
// commands: words, '...' and "..." quoting, $NAME expanded from vars
// outside single quotes, and a "#" that starts a word begins the comment.
func shellWords(t *testing.T, line string, vars map[string]string) (words []string, comment string) {
	t.Helper()
	var w strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				w.WriteByte(c)
			}
		case c == '$':
			j := i + 1
			for j < len(line) && (line[j] == '_' || 'A' <= line[j] && line[j] <= 'Z') {
				j++
			}
			v, ok := vars[line[i+1:j]]
			if !ok {
				t.Fatalf("README line %q: $%s is not set", line, line[i+1:j])
			}
			w.WriteString(v)
			inWord, i = true, j-1
		case quote == '"':
			if c == '"' {
				quote = 0
			} else {
				w.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '#' && !inWord:
			return words, strings.TrimSpace(line[i+1:])
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		t.Fatalf("README line %q: unclosed quote", line)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, ""
}

// expectation is what a README comment promises: a status ("# 303, ..."
// or "# 410 Gone"; none says 2xx), a Location ("Location: X" or "303 to
// X"), or, for a comment of one word ("# true"), that the body holds it;
// a one-word JSON object that ends in ",...}" is how the body begins.
type expectation struct {
	status   int // 0: any 2xx
	location string
	body     string
	start    string // the body's beginning
}

var statusComment = regexp.MustCompile(`^([1-5][0-9][0-9])\b(?:,? (?:Location:|to) ((?:https?:/|/)\S*))?`)

func expect(comment string) expectation {
	var e expectation
	if m := statusComment.FindStringSubmatch(comment); m != nil {
		e.status, _ = strconv.Atoi(m[1])
		e.location = m[2]
	} else if f := strings.Fields(comment); len(f) == 1 {
		if head, ok := strings.CutSuffix(f[0], ",...}"); ok && strings.HasPrefix(head, "{") {
			e.start = head + ","
		} else {
			e.body = f[0]
		}
	}
	return e
}

// readmeCommand reports whether a README line runs a urnresolver
// subcommand TestREADME runs too (registrar), and its arguments.
func readmeCommand(t *testing.T, line string, vars map[string]string) (args []string, comment string, ok bool) {
	for _, cmd := range []string{"go run ./resolver/cmd/urnresolver registrar ", "urnresolver registrar "} {
		if strings.HasPrefix(line, cmd) {
			words, comment := shellWords(t, line, vars)
			return words[len(strings.Fields(cmd))-1:], comment, true
		}
	}
	return nil, "", false
}

// TestREADME runs every curl line of the README's resolver section, in
// order, against a live server on a new database, with the token the
// section's "token create" line makes: with curl itself when it is
// installed, and with net/http reading curl's options the way curl does
// (-d without a Content-Type sends application/x-www-form-urlencoded).
func TestREADME(t *testing.T) {
	lines := readmeSection(t)
	run := func(t *testing.T, send func(t *testing.T, args []string) (int, http.Header, string)) {
		dir := t.TempDir()
		env := cleanEnv("HOME="+filepath.Join(dir, "home"), "XDG_DATA_HOME=")
		// The file the section's first import line reads.
		if err := os.WriteFile(filepath.Join(dir, "records.csv"), []byte("urn,url,title\nurn:nbn:no-9,https://nb.example/9,Bok 9\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var s *server
		vars := map[string]string{}
		ran := 0
		for _, line := range lines {
			if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
				continue
			}
			if assign, cmd, ok := strings.Cut(line, "=$("); ok && strings.Contains(cmd, "urnresolver token create") {
				_, args, _ := strings.Cut(cmd, "urnresolver ")
				args, _, _ = strings.Cut(args, ")")
				words, _ := shellWords(t, args, vars)
				code, out, errOut := runCmd(t, dir, env, "", words...)
				if code != 0 {
					t.Fatalf("%s: %d %s", line, code, errOut)
				}
				vars[assign] = strings.TrimSpace(out)
				continue
			}
			if args, comment, ok := readmeCommand(t, line, vars); ok {
				// Its output, tabs read as spaces, holds the comment.
				code, out, errOut := runCmd(t, dir, env, "", args...)
				if out = strings.ReplaceAll(out, "\t", " "); code != 0 || !strings.Contains(out, comment) {
					t.Errorf("%s\n  exit %d, stdout %q, stderr %q", line, code, out, errOut)
				}
				ran++
				continue
			}
			if cmdline, ok := strings.CutPrefix(line, "go run ./resolver/cmd/urnresolver "); ok && readmeCommands[strings.Fields(cmdline)[0]] {
				if s == nil {
					s = startServer(t, dir, env)
				}
				runREADMECommand(t, dir, env, s, line, cmdline, vars)
				ran++
				continue
			}
			if !strings.HasPrefix(line, "curl ") {
				if strings.Contains(line, "curl") {
					t.Errorf("README line %q: a curl example this test does not run (curl must start the line)", line)
				}
				continue
			}
			words, comment := shellWords(t, line, vars)
			if s == nil {
				s = startServer(t, dir, env)
			}
			for i, w := range words {
				words[i] = strings.ReplaceAll(w, "localhost:8080", s.addr)
			}
			code, h, body := send(t, words[1:])
			e := expect(comment)
			switch {
			case e.status == 0 && (code < 200 || code > 299), e.status != 0 && code != e.status:
				t.Errorf("%s\n  answered %d: %s", line, code, body)
			case e.location != "" && h.Get("Location") != e.location:
				t.Errorf("%s\n  Location %q", line, h.Get("Location"))
			case e.body != "" && !strings.Contains(body, e.body):
				t.Errorf("%s\n  body %q lacks %q", line, body, e.body)
			case !strings.HasPrefix(body, e.start):
				t.Errorf("%s\n  body %q does not begin %q", line, body, e.start)
			}
			ran++
		}
		if ran == 0 {
			t.Fatal("no curl line in the README's resolver section")
		}
		t.Logf("%d curl, registrar and urnresolver lines run", ran)
	}
	t.Run("curl", func(t *testing.T) {
		curl, err := exec.LookPath("curl")
		if err != nil {
			t.Skip("no curl installed: the net/http run reads its options")
		}
		run(t, func(t *testing.T, args []string) (int, http.Header, string) {
			dir := t.TempDir()
			head, out := filepath.Join(dir, "head"), filepath.Join(dir, "body")
			cmd := exec.Command(curl, append([]string{"-sS", "--max-time", "30", "-D", head, "-o", out, "-w", "%{http_code}"}, args...)...)
			code, err := cmd.Output()
			if err != nil {
				t.Fatalf("curl %q: %v", args, err)
			}
			n, _ := strconv.Atoi(string(code))
			hb, _ := os.ReadFile(head)
			h := http.Header{}
			for _, l := range strings.Split(string(hb), "\r\n") {
				if k, v, ok := strings.Cut(l, ":"); ok {
					h.Add(k, strings.TrimSpace(v))
				}
			}
			b, _ := os.ReadFile(out)
			if _, rest, ok := bytes.Cut(b, []byte("\r\n\r\n")); ok && bytes.HasPrefix(b, []byte("HTTP/")) {
				b = rest // -i puts the header in the body too
			}
			return n, h, string(b)
		})
	})
	t.Run("net/http", func(t *testing.T) {
		run(t, curlRequest)
	})
}

// readmeCommands are the urnresolver subcommands whose README lines
// ("go run ./resolver/cmd/urnresolver import ...") TestREADME runs:
// those that read or write records, against the server's database
// (the default one) or a file in the test's directory.
var readmeCommands = map[string]bool{"import": true, "export": true, "harvest": true}

// runREADMECommand runs one urnresolver line of the README with the
// built command in dir, "> FILE" writing its standard output there: it
// must exit 0 and, for a comment of one word, print that word.
func runREADMECommand(t *testing.T, dir string, env []string, s *server, line, cmdline string, vars map[string]string) {
	t.Helper()
	words, comment := shellWords(t, cmdline, vars)
	out := ""
	if n := len(words); n >= 2 && words[n-2] == ">" {
		out, words = words[n-1], words[:n-2]
	}
	for i, w := range words {
		words[i] = strings.ReplaceAll(w, "localhost:8080", s.addr)
	}
	code, stdout, stderr := runCmd(t, dir, env, "", words...)
	if code != 0 {
		t.Errorf("%s\n  exit %d: %s", line, code, stderr)
		return
	}
	if out != "" {
		if err := os.WriteFile(filepath.Join(dir, out), []byte(stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if e := expect(comment); e.body != "" && !strings.Contains(stdout, e.body) {
		t.Errorf("%s\n  printed %q, lacks %q", line, stdout, e.body)
	}
}

// curlRequest sends the request curl would for the options the README
// uses (-X, -H, -d, -i), and fails on any other.
func curlRequest(t *testing.T, args []string) (int, http.Header, string) {
	t.Helper()
	method, url, data := "", "", ""
	hasData := false
	header := http.Header{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-i":
		case (a == "-X" || a == "-H" || a == "-d") && i+1 < len(args):
			i++
			switch a {
			case "-X":
				method = args[i]
			case "-H":
				k, v, _ := strings.Cut(args[i], ":")
				header.Set(k, strings.TrimSpace(v))
			case "-d":
				data, hasData = args[i], true
			}
		case strings.HasPrefix(a, "-"):
			t.Fatalf("README curl option %s: not read by this test", a)
		default:
			url = a
		}
	}
	if !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
		url = "http://" + url
	}
	if method == "" {
		method = "GET"
		if hasData {
			method = "POST"
		}
	}
	var body io.Reader
	if hasData {
		body = strings.NewReader(data)
		if header.Get("Content-Type") == "" {
			header.Set("Content-Type", "application/x-www-form-urlencoded") // as curl -d does
		}
	}
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	code, h, b, err := send(noRedirect, req)
	if err != nil {
		t.Fatal(err)
	}
	return code, h, b
}

// TestReadyLineMatchesREADME starts the server as the README's first
// example does (no flags, no configuration, a user whose home is
// /home/you) and compares its start-up line with the one the README
// shows, field by field in order: only the time, the port and where
// /home/you is differ.
func TestReadyLineMatchesREADME(t *testing.T) {
	var want string
	for _, l := range readmeSection(t) {
		if strings.Contains(l, `msg="urnresolver ready"`) {
			want = strings.TrimPrefix(l, "# ")
		}
	}
	if want == "" {
		t.Fatal(`the README's resolver section shows no start-up line (msg="urnresolver ready")`)
	}
	root := t.TempDir()
	s := startServer(t, root, cleanEnv("HOME="+filepath.Join(root, "home", "you"), "XDG_DATA_HOME="))
	got := strings.TrimSuffix(s.stdout.String(), "\n")
	tm := regexp.MustCompile(`^time=(\S+) `)
	for _, line := range []string{want, got} {
		m := tm.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("no time= in %q", line)
		}
		if _, err := time.Parse(time.RFC3339, m[1]); err != nil {
			t.Errorf("time %q: %v", m[1], err)
		}
	}
	got = tm.ReplaceAllString(got, want[:strings.IndexByte(want, ' ')+1])
	got = strings.ReplaceAll(got, s.addr, "127.0.0.1:8080")
	got = strings.ReplaceAll(got, root, "")
	if got != want {
		t.Errorf("start-up line\n got: %s\nREADME: %s", got, want)
	}
}
