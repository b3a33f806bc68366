package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// appendixE is the text of the 1998 draft's Appendix E example.
const appendixE = `Yes, Jim, I found it under "http://www.w3.org/Addressing/",
but you can probably pick it up from <ftp://ds.internic.
net/rfc/>.  Note the warning in <http://www.ics.uci.edu/pub/
ietf/uri/historical.html#WARNING>.
`

func TestExtract(t *testing.T) {
	// Appendix E: the text "contains the URI references".
	out, _, code := uriCmd(t, appendixE, "extract")
	if code != 0 || out != "http://www.w3.org/Addressing/\nftp://ds.internic.net/rfc/\nhttp://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING\n" {
		t.Errorf("extract = %q, exit %d", out, code)
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "a.txt")
	os.WriteFile(name, []byte("Visit www.w3.org/Addressing/ now"), 0o644)
	out, _, code = uriCmd(t, "", "extract", "--abbrev", "--json", name)
	objs := jsonLines(t, out)
	want := map[string]any{"uri": "http://www.w3.org/Addressing/", "raw": "www.w3.org/Addressing/", "start": 6.0, "end": 28.0,
		"line": 1.0, "col": 7.0, "wrapper": "none", "abbrev": true, "iri": false}
	if code != 0 || len(objs) != 1 || !reflect.DeepEqual(objs[0], want) {
		t.Errorf("extract --abbrev --json = %s", out)
	}
	if _, _, code := uriCmd(t, "nothing here", "extract"); code != 1 {
		t.Errorf("no URI: exit %d", code)
	}
	out, _, _ = uriCmd(t, "a http://x.example/ b\x00no uri\x00<https://例え.jp/>", "extract", "-z")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 || lines[1] != `{"record":1,"matches":[]}` || !strings.Contains(lines[2], `"uri":"https://xn--r8jz45g.jp/"`) || !strings.Contains(lines[2], `"iri":true`) {
		t.Errorf("extract -z = %s", out)
	}
	if _, errOut, code := uriCmd(t, "", "extract", filepath.Join(dir, "missing")); code != 2 || errOut == "" {
		t.Errorf("missing file: exit %d", code)
	}
}

func TestIRICommands(t *testing.T) {
	out, _, code := uriCmd(t, "", "iri-to-uri", "https://例え.jp/ü", "http://a/b", "http://a/\uE000")
	if code != 1 || !strings.HasPrefix(out, "https://xn--r8jz45g.jp/%C3%BC\nhttp://a/b\nerror: 9: private-use") {
		t.Errorf("iri-to-uri = %q, exit %d", out, code)
	}
	// RFC 3987 3.2's example.
	out, _, code = uriCmd(t, "", "uri-to-iri", "--json", "http://www.example.org/D%C3%BCrst")
	if code != 0 || out != `{"input":"http://www.example.org/D%C3%BCrst","result":"http://www.example.org/Dürst"}`+"\n" {
		t.Errorf("uri-to-iri = %q", out)
	}
}

func TestRepairFlag(t *testing.T) {
	out, _, code := uriCmd(t, "", "normalize", "--repair", " <HTTP://Example.COM/a b> ", "http://ok/")
	if code != 0 || out != "http://example.com/a%20b\nhttp://ok/\n" {
		t.Errorf("normalize --repair = %q", out)
	}
	out, _, _ = uriCmd(t, "", "parse", "--repair", "--json", "page 2.html")
	objs := jsonLines(t, out)
	if len(objs) != 1 || objs[0]["path"] != "page%202.html" ||
		!reflect.DeepEqual(objs[0]["repairs"], []any{map[string]any{"offset": 4.0, "from": " ", "to": "%20"}}) {
		t.Errorf("parse --repair --json = %s", out)
	}
	// Without --repair, strict; a valid input has no "repairs".
	if _, _, code := uriCmd(t, "", "check", "page 2.html"); code != 1 {
		t.Errorf("check without --repair: exit %d", code)
	}
	if out, _, code := uriCmd(t, "", "check", "--repair", "page 2.html"); code != 0 || out != "" {
		t.Errorf("check --repair = %q %d", out, code)
	}
	out, _, _ = uriCmd(t, "", "resolve", "--repair", "--base", "http://a/b/", "c d")
	if out != "http://a/b/c%20d\n" {
		t.Errorf("resolve --repair = %q", out)
	}
	out, _, _ = uriCmd(t, "", "edit", "--repair", "--set", "port=81", "https://例え.jp/")
	if out != "https://xn--r8jz45g.jp:81/\n" {
		t.Errorf("edit --repair = %q", out)
	}
	out, _, _ = uriCmd(t, "", "parse", "--json", "http://a/")
	if strings.Contains(out, "repairs") {
		t.Errorf("no --repair, no repairs: %s", out)
	}
}

func TestLinksAndBase(t *testing.T) {
	const doc = `<HTML><HEAD>
<BASE href="http://www.ics.uci.edu/Test/a/b/c">
</HEAD><BODY>
... <A href="../x">a hypertext anchor</A> <img src=" p.png ">
</BODY></HTML>`
	// The 1998 draft's Appendix D: "../x" is http://www.ics.uci.edu/Test/a/x.
	out, _, code := uriCmd(t, doc, "links", "--url", "http://other.example/")
	if code != 0 || out != "http://www.ics.uci.edu/Test/a/x\nhttp://www.ics.uci.edu/Test/a/b/p.png\n" {
		t.Errorf("links = %q, exit %d", out, code)
	}
	out, _, _ = uriCmd(t, doc, "links", "--json", "--url", "http://other.example/", "-")
	if !strings.HasPrefix(out, `{"uri":"http://www.ics.uci.edu/Test/a/x","ref":"../x","element":"a","attr":"href","line":4,"active":false}`) {
		t.Errorf("links --json = %q", out)
	}
	out, _, _ = uriCmd(t, doc, "base", "--json", "--url", "http://other.example/")
	if out != `{"base":"http://www.ics.uci.edu/Test/a/b/c","source":"base-element"}`+"\n" {
		t.Errorf("base --json = %q", out)
	}
	out, _, _ = uriCmd(t, "<p>no base", "base", "--url", "http://r.example/a/b", "--header", "Content-Location: c/d")
	if out != "http://r.example/a/c/d\n" {
		t.Errorf("base with Content-Location = %q", out)
	}
	out, _, _ = uriCmd(t, "<p>", "base", "--json", "--url", "http://r.example/", "--header", "Content-Base: http://cb.example/")
	if out != `{"base":"http://cb.example/","source":"content-base"}`+"\n" {
		t.Errorf("base with Content-Base = %q", out)
	}
	for _, args := range [][]string{{"links"}, {"links", "--url", "rel/x"}, {"base", "--url", "http://a/", "--header", "nocolon"}} {
		if _, _, code := uriCmd(t, "", args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}
