package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets the test binary run as the uri command itself, so that
// shell recipes can call "uri" without building it.
func TestMain(m *testing.M) {
	if os.Getenv("URIKIT_TEST_AS_URI") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestReadmeRecipes runs every line of the README's "Recipes" block
// with bash, on small files, and checks that it succeeds and prints
// something: the recipes are what a new user copies first.
func TestReadmeRecipes(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "### Recipes\n\n```sh\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("README.md has no Recipes block")
	}
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(dir, "uri")); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"urls.txt":  "http://a.example/x?utm_source=m&id=1\nHTTP://A.example:80/x?id=1\nhttps://u:p@b.example:8443/?b=2&a=1&fbclid=z\nhttp://bad host/\n",
		"hrefs.txt": "../img/a.png\nguide/intro.html\n#top\n",
		"page.html": "<base href=/base/><a href=x.html>x</a><img src=../i.png>",
		"mail.txt":  "Yes, Jim, see <http://www.w3.org/Addressing/> and\n<ftp://ds.internic.\nnet/rfc/>.\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(strings.TrimSpace(block), "\n")
	if len(lines) < 10 {
		t.Errorf("%d recipes, want at least ten", len(lines))
	}
	for _, line := range lines {
		cmdline, _, _ := strings.Cut(line, "   # ")
		cmdline = strings.TrimSpace(cmdline)
		if strings.Contains(cmdline, "jq ") {
			if _, err := exec.LookPath("jq"); err != nil {
				t.Logf("jq not found: %s not run", cmdline)
				continue
			}
		}
		script := "set -o pipefail\nurl='http://a.example/list?page=3'\na='HTTP://a.example:80'\nb='http://a.example/'\n" + cmdline
		if strings.HasPrefix(cmdline, "page=") {
			script += "\necho \"$page\""
		}
		cmd := exec.Command(bash, "-c", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "URIKIT_TEST_AS_URI=1", "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 && strings.Contains(cmdline, "urls.txt") {
			err = nil // exit status 1: urls.txt holds a line that is not a URI
		}
		if err != nil {
			t.Errorf("recipe %q: %v\n%s", cmdline, err, out)
			continue
		}
		if len(strings.TrimSpace(string(out))) == 0 && !strings.Contains(cmdline, "> unique.txt") {
			t.Errorf("recipe %q printed nothing", cmdline)
		}
	}
}
