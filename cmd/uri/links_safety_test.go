package main

import (
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
