package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets the test binary run as the uri command itself, so that
// shell recipes and help examples can call "uri" without building it.
func TestMain(m *testing.M) {
	if os.Getenv("URIKIT_TEST_AS_URI") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// messyURLs is a list as data engineers meet them: bad lines, an IDN
// host, empty lines, a line with CRLF, duplicates in other spellings.
const messyURLs = "http://a.example/x?utm_source=m&id=1\n" +
	"HTTP://A.example:80/x?id=1\n" +
	"\n" +
	"https://u:p@b.example:8443/?b=2&a=1&fbclid=z\n" +
	"http://a.example:8o/\n" +
	"https://münchen.example/straße\r\n" +
	"http://a.example/list?page=3\n" +
	"\n"

// cleanURLs is the urls.txt of the help examples.
const cleanURLs = "http://a.example/x?utm_source=m&id=1\nhttps://b.example:8443/docs/?b=2&a=1\n"

// sandbox returns a folder holding a "uri" that runs this test binary as
// the command, and the files the README recipes and the help examples
// name, and the environment to run bash in it.
func sandbox(t *testing.T, urls string) (dir string, env []string, bash string) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	dir = t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(dir, "uri")); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"urls.txt":    urls,
		"urns.txt":    "urn:isbn:0-395-36341-1\nURN:EXAMPLE:a%2c\n",
		"ids.txt":     "978-3-16-148410-0\n0-395-36341-1\n",
		"hrefs.txt":   "../img/a.png\nguide/intro.html\n#top\n",
		"page.html":   "<base href=/base/><a href=x.html>x</a><img src=../i.png>",
		"notes.txt":   "Yes, Jim, see <http://www.w3.org/Addressing/> and\n<ftp://ds.internic.\nnet/rfc/>.\n",
		"mail.txt":    "Yes, Jim, see <http://www.w3.org/Addressing/> and\n<ftp://ds.internic.\nnet/rfc/>.\n",
		"records.bin": "see http://a.example/ here\x00and <urn:isbn:0-395-36341-1>\x00",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env = append(os.Environ(), "URIKIT_TEST_AS_URI=1", "LC_ALL=C", "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return dir, env, bash
}

// shell runs script with bash in the sandbox and returns its standard
// output, standard error and exit status.
func shell(t *testing.T, dir string, env []string, bash, script string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bash, "-c", script)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader("")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	return out.String(), errb.String(), code
}

// readmeBlock returns the lines of the README's code block that follows
// heading.
func readmeBlock(t *testing.T, heading string) []string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), heading+"\n\n```sh\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatalf("README.md has no code block under %q", heading)
	}
	return strings.Split(strings.TrimSpace(block), "\n")
}

// TestReadmeRecipes runs every line of the README's "Recipes" block with
// bash on a messy list (bad lines, an IDN host, empty lines) and checks
// what each prints: the recipes are what a new user copies first, and a
// recipe that counts must not count error lines or empty lines.
func TestReadmeRecipes(t *testing.T) {
	dir, env, bash := sandbox(t, messyURLs)
	want := map[string]string{
		"the busiest hosts of a list": "      3 a.example\n      1 xn--mnchen-3ya.example\n      1 b.example\n",
		"strip tracking parameters": "http://a.example/x?id=1\nHTTP://A.example:80/x?id=1\n\nhttps://u:p@b.example:8443/?b=2&a=1\n" +
			"error: 19: invalid port '/' in port\nhttps://xn--mnchen-3ya.example/stra%C3%9Fe\nhttp://a.example/list?page=3\n\n",
		"deduplicate by equivalence":                          "",
		"one decoded query value into a variable":             "3\n",
		"the lines that are not URIs, with the reason":        "2\n",
		"absolute URLs from the links of a page":              "https://example.com/img/a.png\nhttps://example.com/docs/guide/intro.html\nhttps://example.com/docs/#top\n",
		"move a list to https":                                "https://a.example/x?utm_source=m&id=1\nhttps://A.example:80/x?id=1\nhttps://u:p@b.example:8443/?b=2&a=1&fbclid=z\nhttps://xn--mnchen-3ya.example/stra%C3%9Fe\nhttps://a.example/list?page=3\n",
		"drop credentials before sharing a list":              "http://a.example/x?utm_source=m&id=1\nHTTP://A.example:80/x?id=1\n\nhttps://b.example:8443/?b=2&a=1&fbclid=z\nerror: 19: invalid port '/' in port\nhttps://xn--mnchen-3ya.example/stra%C3%9Fe\nhttp://a.example/list?page=3\n\n",
		"one line per query, whatever the order of its pairs": "\nHTTP://A.example:80/x?id=1\nhttp://a.example/list?page=3\nhttp://a.example/x?id=1&utm_source=m\nhttps://u:p@b.example:8443/?a=1&b=2&fbclid=z\nhttps://xn--mnchen-3ya.example/stra%C3%9Fe\n",
		"the URLs with an explicit port":                      "HTTP://A.example:80/x?id=1\nhttps://u:p@b.example:8443/?b=2&a=1&fbclid=z\n",
		"the links of a saved page, absolute":                 "https://example.com/base/x.html\nhttps://example.com/i.png\n",
		"the links a browser follows (a.href)":                "https://example.com/base/x.html\nhttps://example.com/i.png\n",
		"the hosts named in a mail":                           "ds.internic.net\nwww.w3.org\n",
		"compare two URLs in a script":                        "same\n",
		"the next page of a listing, replacing in place":      "http://a.example/list?page=4\n",
		"the SURT keys of a list, sorted as CDX files are": "-\n-\nexample,a)/list?page=3\nexample,a)/x?id=1\nexample,a)/x?id=1&utm_source=m\n" +
			"example,b:8443)/?a=1&b=2&fbclid=z\nexample,xn--mnchen-3ya)/stra%c3%9fe\n",
		"the sites of a list, as a browser groups hosts": "      3 a.example\n      1 xn--mnchen-3ya.example\n      1 b.example\n",
	}
	lines := readmeBlock(t, "### Recipes")
	if len(lines) < 10 {
		t.Errorf("%d recipes, want at least ten", len(lines))
	}
	seen := map[string]bool{}
	for _, line := range lines {
		cmdline, comment, _ := strings.Cut(line, "   # ")
		cmdline, comment = strings.TrimSpace(cmdline), strings.TrimSpace(comment)
		if strings.Contains(cmdline, "jq ") {
			if _, err := exec.LookPath("jq"); err != nil {
				t.Logf("jq not found: %s not run", cmdline)
				seen[comment] = true
				continue
			}
		}
		w, ok := want[comment]
		if !ok {
			t.Errorf("recipe %q: no expected output in the test for %q", cmdline, comment)
			continue
		}
		seen[comment] = true
		script := "set -o pipefail\nurl='http://a.example/list?page=3'\na='HTTP://a.example:80'\nb='http://a.example/'\n" + cmdline
		if strings.HasPrefix(cmdline, "page=") {
			script += "\necho \"$page\""
		}
		out, errOut, code := shell(t, dir, env, bash, script)
		// A recipe over urls.txt may exit 1: the list holds bad lines.
		if code != 0 && !(code == 1 && strings.Contains(cmdline, "urls.txt")) {
			t.Errorf("recipe %q: exit %d\n%s%s", cmdline, code, out, errOut)
			continue
		}
		if out != w {
			t.Errorf("recipe %q:\n got %q\nwant %q", cmdline, out, w)
		}
	}
	for c := range want {
		if !seen[c] {
			t.Errorf("the expected output for %q has no recipe in the README", c)
		}
	}
}

// TestReadmeExamples runs every line of the README's "Examples" block
// and compares what it prints with the text after "# =>": the README
// shows real output.
func TestReadmeExamples(t *testing.T) {
	dir, env, bash := sandbox(t, cleanURLs)
	lines := readmeBlock(t, "### Examples")
	n := 0
	for i := 0; i < len(lines); i++ {
		cmdline, want, ok := strings.Cut(lines[i], "# => ")
		if !ok {
			t.Errorf("README example %q: no \"# => OUTPUT\"", lines[i])
			continue
		}
		// Further output lines follow as "#    LINE".
		want = strings.TrimSpace(want)
		for i+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "#    ") {
			i++
			want += "\n" + strings.TrimPrefix(strings.TrimSpace(lines[i]), "#    ")
		}
		out, errOut, code := shell(t, dir, env, bash, cmdline)
		if got := strings.TrimRight(out+errOut, "\n"); got != want {
			t.Errorf("README example %s\n got %q (exit %d)\nwant %q", cmdline, got, code, want)
		}
		n++
	}
	if n < 8 {
		t.Errorf("%d README examples, want at least 8", n)
	}
}

// TestHelpExamples runs every "e.g." example of every subcommand's help,
// taken from the help text itself, in a folder holding the files the
// examples name: each must succeed (exit 0) and print something (check
// and urn check print only failures), so that an example pasted from
// "uri help" works.
func TestHelpExamples(t *testing.T) {
	dir, env, bash := sandbox(t, cleanURLs)
	n := 0
	for _, c := range commands() {
		for _, l := range strings.Split(c.help(), "\n") {
			_, ex, ok := strings.Cut(l, "e.g. ")
			if !ok {
				continue
			}
			n++
			out, errOut, code := shell(t, dir, env, bash, ex)
			quiet := c.traits&failsOnly != 0
			if code != 0 || (out == "" && !quiet) {
				t.Errorf("uri help %s: example %s: exit %d, stdout %q, stderr %q", c.name, ex, code, out, errOut)
			}
		}
	}
	if n < 90 {
		t.Errorf("%d help examples, want every flag's", n)
	}
}
