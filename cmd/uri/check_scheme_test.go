package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestCheckSchemeRules: `uri check` applies the rules of the scheme it
// documents, the same that parse --json reports as "scheme_error"
// (issue 20, item 18): RFC 9110 4.2.1, "A sender MUST NOT generate an
// "http" URI with an empty host identifier".
func TestCheckSchemeRules(t *testing.T) {
	tests := []struct {
		in   string
		fail string // the error line's tail, "" for a valid input
	}{
		{"http://", "error: 7: the scheme needs a host in host"},
		{"http:", `error: 5: the scheme needs an authority ("//host") in host`},
		{"HTTPS://u@/", "error: 10: the scheme needs a host in host"},
		{"http://h:65536/", "error: 9: port above 65535 in port"},
		{"ftp://h/f?x", "error: 9: not allowed by the scheme's syntax in query"},
		{"news:", "error: 5: not allowed by the scheme's syntax in path"},
		{"http://h/", ""},
		{"http://h:80", ""},
		{"foo:", ""},
		{"mailto:a@b", ""},
	}
	for _, tt := range tests {
		for _, warn := range []bool{false, true} {
			args := []string{"check", tt.in}
			if warn {
				args = []string{"check", "--warn", tt.in}
			}
			out, _, code := uriCmd(t, "", args...)
			want, wantCode := "", 0
			if tt.fail != "" {
				want, wantCode = tt.in+"\t"+tt.fail+"\n", 1
			}
			if out != want || code != wantCode {
				t.Errorf("%q = %q exit %d, want %q exit %d", args, out, code, want, wantCode)
			}
		}
		// The same verdict from parse --json (issue 26): the error
		// object of the same reason and offset.
		out, _, code := uriCmd(t, "", "parse", "--json", tt.in)
		o := jsonLines(t, out)[0]
		if tt.fail == "" {
			if _, hasErr := o["error"]; hasErr || code != 0 {
				t.Errorf("parse --json %q: %v exit %d", tt.in, o, code)
			}
			continue
		}
		if got := fmt.Sprintf("error: %v: %v", o["offset"], o["error"]); got != tt.fail || code != 1 {
			t.Errorf("parse --json %q: %q exit %d, want %q", tt.in, got, code, tt.fail)
		}
	}
}

// TestCheckWarnMailto: RFC 6068 section 7; issue 20, item 7's
// reproducer, which printed nothing. A CR LF in an address makes it no
// addr-spec (RFC 6068 2, issue 16): an error at the escape; in a header
// field name, a warning.
func TestCheckWarnMailto(t *testing.T) {
	out, _, code := uriCmd(t, "", "check", "--warn", "mailto:a@b%0D%0ABcc:evil@x", "mailto:?to=a@b%0D%0ABcc:x", "mailto:a@b?x%0D%0ABcc:evil@x=1")
	want := "mailto:a@b%0D%0ABcc:evil@x\terror: 10: not allowed by the scheme's syntax: not an addr-spec (RFC 6068 2) in path\n" +
		"mailto:?to=a@b%0D%0ABcc:x\terror: 14: not allowed by the scheme's syntax: not an address list (RFC 5322 3.4) in query\n" +
		"mailto:a@b?x%0D%0ABcc:evil@x=1\twarning: encoded-crlf\n"
	if out != want || code != 1 {
		t.Errorf("check --warn = %q exit %d, want %q", out, code, want)
	}
	out, _, _ = uriCmd(t, "", "parse", "--json", "mailto:a@b?x%0D%0ABcc:evil@x=1")
	if !strings.Contains(out, `"hfields":[["x%0D%0ABcc:evil@x","1"]]`) {
		t.Errorf("parse --json: %s", out)
	}
}
