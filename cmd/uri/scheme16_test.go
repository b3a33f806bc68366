package main

import (
	"strings"
	"testing"
)

// TestSchemeRulesThroughCommand: issue 16 items 1-4 give the same answer
// through `uri` as through the library (RFC 6068 2 and 6.1, RFC 4266
// 2.1, RFC 1738 3.2.2, RFC 4248 2, RFC 8089 E.3).
func TestSchemeRulesThroughCommand(t *testing.T) {
	for _, tt := range []struct {
		a, b  string
		equal bool
	}{
		{"mailto:addr1@an.example,addr2@an.example", "mailto:?to=addr1@an.example,addr2@an.example", true},
		{"mailto:addr1@an.example,addr2@an.example", "mailto:addr1@an.example?to=addr2@an.example", true},
		{"mailto:a@x?SUBJECT=s", "mailto:a@x?subject=s", true},
		{"mailto:a@x?cc=b@x", "mailto:a@x,b@x", false},
		{"gopher://h/1a%2Fb", "gopher://h/1a/b", true},
		{"gopher://h/1a%09b", "gopher://h/1a%20b", false},
		{"ftp://h/x;type=I", "ftp://h/x;type=i", true},
		{"telnet://h/", "telnet://h", true},
	} {
		out, _, code := uriCmd(t, "", "equal", tt.a, tt.b)
		if want := map[bool]string{true: "equal\n", false: "not equal\n"}[tt.equal]; out != want || (code == 0) != tt.equal {
			t.Errorf("equal %q %q = %q exit %d", tt.a, tt.b, out, code)
		}
	}
	// RFC 6068 6.1: "<mailto:joe@example.com?cc=bob@example.com?body=hello> ; WRONG!"
	for _, in := range []string{"mailto:joe@example.com?cc=bob@example.com?body=hello", "mailto:a@b..c", "mailto:@x", "mailto:?to=a;b", "mailto:a@b?s=1=2"} {
		out, _, code := uriCmd(t, "", "check", in)
		if code != 1 || !strings.HasPrefix(out, in+"\terror: ") || !strings.Contains(out, "not allowed by the scheme's syntax") {
			t.Errorf("check %q = %q exit %d", in, out, code)
		}
		out, _, _ = uriCmd(t, "", "check", "--warn", in)
		if !strings.HasPrefix(out, in+"\terror: ") {
			t.Errorf("check --warn %q = %q", in, out)
		}
		out, _, _ = uriCmd(t, "", "parse", "--json", in)
		o := jsonLines(t, out)[0]
		if e, _ := o["error"].(string); o["scheme_data"] != nil || !strings.Contains(e, "not allowed by the scheme's syntax") {
			t.Errorf("parse --json %q: %v", in, o)
		}
	}
	if out, _, code := uriCmd(t, "", "check", "--warn", "mailto:joe@example.com?cc=bob@example.com&body=hello"); out != "" || code != 0 {
		t.Errorf("check --warn RFC 6068 6.1 = %q exit %d", out, code)
	}
	out, _, _ := uriCmd(t, "", "parse", "--json", "https://h/s?utm_source=x&a=b", "http://h/s?a+b", "file://host.example.com/Share/f.txt")
	objs := jsonLines(t, out)
	sd := func(i int) map[string]any { return objs[i]["scheme_data"].(map[string]any) }
	if v, ok := sd(0)["search_words"]; !ok || v != nil {
		t.Errorf("search_words of a form query: %v", v)
	}
	if v := sd(1)["search_words"].([]any); len(v) != 2 {
		t.Errorf("search_words of a search: %v", v)
	}
	if v := sd(2)["windows_path"]; v != `\\host.example.com\Share\f.txt` {
		t.Errorf("windows_path: %v", v)
	}
}
