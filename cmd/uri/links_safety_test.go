package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinksAsBrowsers: "uri links" reads an href as a browser does (the
// URL Standard, 4.4: "Remove any leading and trailing C0 control or
// space from input", "Remove all ASCII tab or newline from input"), so
// that a link filter built on it is bypassed neither way (issue 20
// item 8); active links are marked and --no-active leaves them out
// (item 9).
func TestLinksAsBrowsers(t *testing.T) {
	const doc = `<a href="/&#x09;/evil.example/">1</a>
<a href="java&#x0A;script:alert(2)">2</a>
<a href="ht&#x09;tps://evil.example/x">3</a>
<a href=" VBScript:x ">4</a><img src="data:image/png,x">
<a href="ok">5</a>`
	out, _, code := uriCmd(t, doc, "links", "--url", "https://good.example/d/p")
	want := "https://evil.example/\njavascript:alert(2)\nhttps://evil.example/x\nVBScript:x\ndata:image/png,x\nhttps://good.example/d/ok\n"
	if code != 0 || out != want {
		t.Errorf("links = %q (exit %d), want %q", out, code, want)
	}
	out, _, code = uriCmd(t, doc, "links", "--no-active", "--url", "https://good.example/d/p")
	if want := "https://evil.example/\nhttps://evil.example/x\nhttps://good.example/d/ok\n"; code != 0 || out != want {
		t.Errorf("links --no-active = %q (exit %d), want %q", out, code, want)
	}
	out, _, _ = uriCmd(t, doc, "links", "--json", "--url", "https://good.example/d/p")
	objs := jsonLines(t, out)
	wantActive := []bool{false, true, false, true, true, false}
	if len(objs) != len(wantActive) {
		t.Fatalf("links --json: %d objects, want %d:\n%s", len(objs), len(wantActive), out)
	}
	for i, o := range objs {
		if o["active"] != wantActive[i] {
			t.Errorf("link %d: active %v, want %v (%v)", i, o["active"], wantActive[i], o)
		}
	}
	if objs[1]["ref"] != "javascript:alert(2)" {
		t.Errorf("ref: %v", objs[1]["ref"])
	}
	// The base element is read the same way.
	out, _, _ = uriCmd(t, `<base href="ht&#x09;tps://evil.example/">`, "base", "--url", "https://good.example/")
	if out != "https://evil.example/\n" {
		t.Errorf("base = %q", out)
	}
	// A base in a template or in SVG is not the document's (issue 20
	// item 10).
	for _, d := range []string{`<template><base href="https://t.example/"></template>`, `<svg><base href="https://s.example/"/></svg>`} {
		out, _, _ = uriCmd(t, d+`<a href=x>`, "links", "--url", "https://good.example/")
		if out != "https://good.example/x\n" {
			t.Errorf("%s: links = %q", d, out)
		}
	}
	if !strings.Contains(linksCommand.help(), "--no-active") {
		t.Error("help does not list --no-active")
	}
}

// TestLinksUnresolvable: a link that cannot be resolved is printed with
// its error, not dropped, and the exit status is 1, as for every command
// with a bad input (issue 16 item 10).
func TestLinksUnresolvable(t *testing.T) {
	const doc = "<a href=\"http://[bad\">1</a>\n<a href=\"ok\">2</a>\n<a href=\"http://a b/\">3</a>"
	out, _, code := uriCmd(t, doc, "links", "--url", "https://good.example/d/p")
	want := "error: line 1: invalid character '[' at offset 7 in host of \"http://[bad\"\nhttps://good.example/d/ok\nerror: line 3: invalid character ' ' at offset 8 in host of \"http://a b/\"\n"
	if code != 1 || out != want {
		t.Errorf("links = %q (exit %d), want %q", out, code, want)
	}
	out, _, code = uriCmd(t, doc, "links", "--json", "--url", "https://good.example/d/p")
	objs := jsonLines(t, out)
	if code != 1 || len(objs) != 3 {
		t.Fatalf("links --json = %q (exit %d)", out, code)
	}
	if objs[0]["uri"] != nil || objs[0]["error"] == nil || objs[0]["offset"] != 7.0 || objs[0]["ref"] != "http://[bad" {
		t.Errorf("unresolvable link: %v", objs[0])
	}
	if _, ok := objs[1]["error"]; ok || objs[1]["uri"] != "https://good.example/d/ok" {
		t.Errorf("resolvable link: %v", objs[1])
	}
	// Both ways: a document whose links all resolve exits 0.
	if _, _, code := uriCmd(t, `<a href="ok">`, "links", "--url", "https://good.example/"); code != 0 {
		t.Errorf("exit %d", code)
	}
	// A newline in an unresolvable ref cannot start a line of its own.
	out, _, _ = uriCmd(t, "<a href=\"http://a\fb/\nX-Injected: 1\">", "links", "--url", "https://good.example/")
	if strings.Count(out, "\n") != 1 {
		t.Errorf("one link, several lines: %q", out)
	}
}

// lineWriter passes each write on, for a test that waits for output.
type lineWriter chan string

func (w lineWriter) Write(p []byte) (int, error) { w <- string(p); return len(p), nil }

// TestLinksStream: "tail -f log | uri links" prints each page's links as
// the page arrives: output is flushed when the input is idle, and the
// links held for a later base element go out then (issue 20 item 11).
// The test waits for events, never for time.
func TestLinksStream(t *testing.T) {
	pr, pw := io.Pipe()
	out := make(lineWriter, 16)
	var errOut strings.Builder
	code := make(chan int)
	go func() { code <- run([]string{"links", "--url", "http://r.example/"}, pr, out, &errOut) }()
	pw.Write([]byte("<html><a href=\"p1\">one</a>\n"))
	if got := <-out; got != "http://r.example/p1\n" {
		t.Fatalf("first page: %q", got)
	}
	pw.Write([]byte("<a href=\"p2\">two</a>\n"))
	if got := <-out; got != "http://r.example/p2\n" {
		t.Fatalf("second page: %q", got)
	}
	pw.Close()
	if c := <-code; c != 0 {
		t.Errorf("exit %d, %s", c, errOut.String())
	}
}

// TestLinksLateBase: a base element after links already printed from a
// stream read once is reported, exit 1; from a file (read twice) the
// answer is whole and right. Both ways.
func TestLinksLateBase(t *testing.T) {
	doc := strings.Repeat("<a href=x>\n", 2000) + `<base href="http://b.example/">`
	out, errOut, code := uriCmd(t, doc, "links", "--url", "http://r.example/")
	if code != 0 || strings.Count(out, "http://b.example/x\n") != 2000 {
		t.Errorf("seekable input: exit %d, %q", code, errOut)
	}
	var stdout, stderr strings.Builder
	code = run([]string{"links", "--url", "http://r.example/"}, struct{ io.Reader }{strings.NewReader(doc)}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "line 2001: the base element comes after 2000 links") {
		t.Errorf("stream: exit %d, %q", code, stderr.String())
	}
	path := filepath.Join(t.TempDir(), "p.html")
	os.WriteFile(path, []byte(doc), 0o600)
	out, _, code = uriCmd(t, "", "links", "--url", "http://r.example/", path)
	if code != 0 || strings.Count(out, "http://b.example/x\n") != 2000 {
		t.Errorf("file: exit %d", code)
	}
}
