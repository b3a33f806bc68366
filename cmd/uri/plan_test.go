package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestPlan(t *testing.T) {
	tests := []struct {
		args []string
		out  string
		code int
	}{
		// The 1994 draft: "a_gopher_selector<tab>+application/postscript Es_ES<cr><lf>".
		{[]string{"gopher://host/0a_gopher_selector%09%09+application/postscript%20Es_ES"}, `a_gopher_selector\t+application/postscript Es_ES\r\n` + "\n", 0},
		// RFC 1738 3.2.2: "CWD " with a null argument keeps its space.
		{[]string{"ftp://myname@host.dom//etc/motd"}, "USER myname | PASS <ask> | CWD  | CWD etc | TYPE I | RETR motd\n", 0},
		{[]string{"--email", "me@example.com", "ftp://h/pub/"}, "USER anonymous | PASS me@example.com | CWD pub | TYPE A | LIST\n", 0},
		{[]string{"http://a:8080/x?y#z"}, `GET /x?y HTTP/1.1\r\nHost: a:8080\r\n` + "\n", 0},
		{[]string{"--proxy", "http://a/x"}, `GET http://a/x HTTP/1.1\r\nHost: a\r\n` + "\n", 0},
		{[]string{"gopher://h/0a%5C"}, `a\\\r\n` + "\n", 0},
		// RFC 1738 section 6: refused, the line fails.
		{[]string{"gopher://h:25/_HELO%0D%0AQUIT", "http://a/"}, "<refused>\n" + `GET / HTTP/1.1\r\nHost: a\r\n` + "\n", 1},
		{[]string{"mailto:a@b"}, "error: no client plan for the scheme mailto\n", 1},
		{[]string{"nntp://h/g/7"}, "GROUP g | ARTICLE 7\n", 0},
	}
	for _, tt := range tests {
		out, errOut, code := uriCmd(t, "", append([]string{"plan"}, tt.args...)...)
		if out != tt.out || code != tt.code {
			t.Errorf("plan %q = %q exit %d (%s), want %q exit %d", tt.args, out, code, errOut, tt.out, tt.code)
		}
	}
	out, _, code := uriCmd(t, "ftp://u@h/a;type=d\ngopher://h/0%00\n", "plan", "--json", "-f", "-")
	objs := jsonLines(t, out)
	want := []map[string]any{
		{"input": "ftp://u@h/a;type=d", "scheme": "ftp", "connect": map[string]any{"host": "h", "port": 21.0}, "request": nil,
			"commands": []any{"USER u", "PASS <ask>", "TYPE A", "NLST a"}, "refused": false, "reason": nil, "warnings": []any{}},
		{"input": "gopher://h/0%00", "scheme": "gopher", "connect": nil, "request": nil, "commands": nil, "refused": true,
			"reason":   "refused: a percent-encoded NUL in the selector would be decoded into a protocol line (RFC 1738 section 6) at offset 12",
			"warnings": []any{"encoded-nul"}},
	}
	if code != 1 || !reflect.DeepEqual(objs, want) {
		t.Errorf("plan --json = %s (exit %d)", out, code)
	}
	// The key order of the exact interface.
	if !strings.HasPrefix(out, `{"input":"ftp://u@h/a;type=d","scheme":"ftp","connect":{"host":"h","port":21},"request":null,"commands":[`) {
		t.Errorf("plan --json key order: %s", out)
	}
}

func TestCheckWarn(t *testing.T) {
	out, _, code := uriCmd(t, "", "check", "--warn", "ftp://u:p@h:25/a%0D", "http://h/", "telnet://a%00@h", "http://a b/")
	want := "ftp://u:p@h:25/a%0D\twarning: nondefault-port\nftp://u:p@h:25/a%0D\twarning: reserved-port\n" +
		"ftp://u:p@h:25/a%0D\twarning: password\nftp://u:p@h:25/a%0D\twarning: encoded-crlf\n" +
		"telnet://a%00@h\twarning: encoded-nul\nhttp://a b/\terror: 8: invalid character ' ' in host\n"
	if out != want || code != 1 {
		t.Errorf("check --warn = %q exit %d", out, code)
	}
	// Without --warn, a valid input prints nothing.
	if out, _, code := uriCmd(t, "", "check", "ftp://u:p@h:25/"); out != "" || code != 0 {
		t.Errorf("check = %q exit %d", out, code)
	}
	out, _, _ = uriCmd(t, "", "check", "--warn", "--json", "http://u:p@h/")
	if out != `{"input":"http://u:p@h/","warnings":["password"]}`+"\n" {
		t.Errorf("check --warn --json = %q", out)
	}
}

func TestSchemeData(t *testing.T) {
	out, _, _ := uriCmd(t, "", "parse", "--json", "nntp://h:119/g/5", "foo:x", "http:///x", "urn:isbn:0451450523")
	objs := jsonLines(t, out)
	if len(objs) != 4 {
		t.Fatalf("%s", out)
	}
	want := map[string]any{"host": "h", "port": 119.0, "default_port": 119.0, "newsgroup": "g", "article": 5.0, "warnings": []any{}}
	if !reflect.DeepEqual(objs[0]["scheme_data"], want) {
		t.Errorf("nntp scheme_data = %v", objs[0]["scheme_data"])
	}
	if v, ok := objs[1]["scheme_data"]; !ok || v != nil {
		t.Errorf("foo: scheme_data = %v, %v; want null", v, ok)
	}
	// RFC 9110 4.2.1: an http URL without a host has no http meaning:
	// refused, as uri check refuses it (issue 26).
	if e, _ := objs[2]["error"].(string); !strings.Contains(e, "needs a host") {
		t.Errorf("http:///x: %v", objs[2])
	}
	// A URN's view (scheme.URN), as package scheme's ViewOf gives it.
	want = map[string]any{"urn": "urn:isbn:0451450523", "nid": "isbn", "nss": "0451450523", "warnings": []any{}}
	if !reflect.DeepEqual(objs[3]["scheme_data"], want) {
		t.Errorf("urn: scheme_data = %v", objs[3]["scheme_data"])
	}
}
