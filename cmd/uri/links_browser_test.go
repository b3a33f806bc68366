package main

import (
	"strings"
	"testing"
)

// TestLinksBrowser: "uri links --browser" prints each link as a
// browser's a.href (issue 21): the HTML standard's document base URL,
// then the URL Standard's parser with that base. Where RFC 3986 reads a
// link otherwise, plain "uri links" is checked to differ, so that the
// flag is seen to matter.
func TestLinksBrowser(t *testing.T) {
	const doc = `<base href="HTTPS://B.example:443/d/">
<a href="http:x">1</a>
<a href="http://0x7f.1/">2</a>
<a href="http://a b/">3</a>
<a href="java&#x0A;script:alert(2)">4</a>
<a href="../y z">5</a>`
	out, _, code := uriCmd(t, doc, "links", "--browser", "--url", "http://r.example/p")
	want := "http://x/\nhttp://127.0.0.1/\nerror: line 4: domain-to-ASCII at offset 7 of \"http://a b/\"\njavascript:alert(2)\nhttps://b.example/y%20z\n"
	if code != 1 || out != want {
		t.Errorf("links --browser = %q (exit %d), want %q", out, code, want)
	}
	rfc, _, _ := uriCmd(t, doc, "links", "--url", "http://r.example/p")
	if rfc == out {
		t.Errorf("links without --browser is the same: %q", rfc)
	}
	out, _, _ = uriCmd(t, doc, "links", "--browser", "--json", "--no-active", "--url", "http://r.example/p")
	objs := jsonLines(t, out)
	if len(objs) != 4 {
		t.Fatalf("links --browser --json --no-active: %d objects:\n%s", len(objs), out)
	}
	if o := objs[2]; o["uri"] != nil || o["error"] != "domain-to-ASCII" || o["offset"] != 7.0 || o["ref"] != "http://a b/" || o["line"] != 4.0 {
		t.Errorf("failure: %v", o)
	}
	if o := objs[3]; o["uri"] != "https://b.example/y%20z" || o["ref"] != "../y z" || o["error"] != nil {
		t.Errorf("link 5: %v", o)
	}
	// Every link resolves: exit 0.
	if out, _, code := uriCmd(t, `<a href="\\h.example\x">`, "links", "--browser", "--url", "https://r.example/"); code != 0 || out != "https://h.example/x\n" {
		t.Errorf("backslashes: %q (exit %d)", out, code)
	}
}

// TestBaseBrowser: "uri base --browser" is document.baseURI: the first
// base element's frozen base URL, or the document's URL (fragment
// kept); Content-Base and Content-Location are no layers of it, so
// --header is refused.
func TestBaseBrowser(t *testing.T) {
	tests := []struct {
		doc, url, want string
	}{
		{`<p>`, "HTTP://R.example:80/a#f", `{"base":"http://r.example/a#f","source":"retrieval"}`},
		{`<base href="//o.example/x">`, "https://r.example/", `{"base":"https://o.example/x","source":"base-element"}`},
		{`<base href="http://a b/"><base href="http://2.example/">`, "https://r.example/", `{"base":"https://r.example/","source":"retrieval"}`},
		{`<base href="data:,x">`, "https://r.example/", `{"base":"https://r.example/","source":"retrieval"}`},
	}
	for _, tt := range tests {
		out, _, code := uriCmd(t, tt.doc, "base", "--browser", "--json", "--url", tt.url)
		if code != 0 || out != tt.want+"\n" {
			t.Errorf("%s: %q (exit %d), want %s", tt.doc, out, code, tt.want)
		}
	}
	// The RFC 3986 reading drops the fragment and counts Content-Base.
	if out, _, _ := uriCmd(t, "<p>", "base", "--url", "http://r.example/a#f"); out != "http://r.example/a\n" {
		t.Errorf("base = %q", out)
	}
	for _, args := range [][]string{
		{"base", "--browser", "--url", "http://r.example/", "--header", "Content-Base: http://c.example/"},
		{"links", "--browser", "--url", "http://r.example/", "--header", "Content-Location: /x"},
		{"links", "--browser", "--url", "rel/x"},
		{"base", "--browser", "--url", "http://a b/"},
	} {
		if _, errOut, code := uriCmd(t, "<p>", args...); code != 2 || !strings.Contains(errOut, "flag --") {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
	// Without --browser, the same --url is accepted.
	if _, _, code := uriCmd(t, "<p>", "base", "--url", "http://r.example/", "--header", "Content-Base: http://c.example/"); code != 0 {
		t.Errorf("base --header: exit %d", code)
	}
}
