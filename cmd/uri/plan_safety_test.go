package main

import (
	"strings"
	"testing"
)

// TestPlanSafety: issue 20's reproducers for `uri plan`, each with the
// safe result (RFC 1738 section 6; RFC 3977 9.8; RFC 6874 section 4).
func TestPlanSafety(t *testing.T) {
	const smtp = "gopher://mail.example:25/0x%09%09+%091%0D%0A+-1%0D%0AHELO%20a%0D%0AMAIL%20FROM:%3Ca@b%3E%0D%0ADATA%0D%0A.%0D%0A"
	tests := []struct {
		args []string
		out  string
		code int
	}{
		// Item 1: the +ASK block of the SMTP attack is refused, with or
		// without --ask-data; to port 70 with --ask-data it is sent.
		{[]string{smtp}, "<refused>\n", 1},
		{[]string{"--ask-data", smtp}, "<refused>\n", 1},
		{[]string{"gopher://h/0x%09%09+%091%0D%0A+-1%0D%0Av%0D%0A.%0D%0A"}, "<refused>\n", 1},
		{[]string{"--ask-data", "gopher://h/0x%09%09+%091%0D%0A+-1%0D%0Av%0D%0A.%0D%0A"}, `x\t+\t1\r\n+-1\r\nv\r\n.\r\n` + "\n", 0},
		// Item 3: no default port for a port above 65535.
		{[]string{"http://h:65536/"}, "error: 9: port above 65535 in port\n", 1},
		// Item 4: hosts and groups. A host that decodes to a control
		// names no host: the scheme's rules refuse it before any plan
		// (issue 26).
		{[]string{"ftp://h%0D%0Ax/f"}, "error: 7: not a host name in host\n", 1},
		{[]string{"nntp://h/a%20b/1"}, "<refused>\n", 1},
		{[]string{"nntp:g/1"}, "<refused>\n", 1},
		// Item 5: the separator and non-printing bytes are escaped.
		{[]string{"ftp://h/a%20%7C%20DELE%20important.txt/f"}, `USER anonymous | PASS <email> | CWD a \| DELE important.txt | TYPE I | RETR f` + "\n", 0},
		{[]string{"ftp://h/%1B%5B2J%FF%E2%80%AE%5C/f"}, `USER anonymous | PASS <email> | CWD \x1b[2J\xff\u202e\\ | TYPE I | RETR f` + "\n", 0},
		{[]string{"gopher://h/0%1B%7F%09%C3%A9"}, `\x1b\x7f\té\r\n` + "\n", 0},
		// Item 6: the zone identifier stays local (RFC 6874 section 4).
		{[]string{"--zone-id", "http://[fe80::1%25en0]:8080/x"}, `GET /x HTTP/1.1\r\nHost: [fe80::1]:8080\r\n` + "\n", 0},
		{[]string{"--zone-id", "--proxy", "http://[fe80::1%25en0]/x"}, `GET http://[fe80::1]/x HTTP/1.1\r\nHost: [fe80::1]\r\n` + "\n", 0},
		{[]string{"http://[fe80::1%25en0]/x"}, "error: 15: IPv6 zone identifier not allowed '%' in host\n", 1},
	}
	for _, tt := range tests {
		out, errOut, code := uriCmd(t, "", append([]string{"plan"}, tt.args...)...)
		if out != tt.out || code != tt.code {
			t.Errorf("plan %q = %q exit %d (%s), want %q exit %d", tt.args, out, code, errOut, tt.out, tt.code)
		}
	}
	// Item 2: the email is a protocol line: a usage error.
	for _, email := range []string{"me@x\r\nDELE important", "me@x\n", "a b@x", "a\x00@x"} {
		out, errOut, code := uriCmd(t, "", "plan", "--email", email, "ftp://h/f")
		if out != "" || code != 2 || !strings.Contains(errOut, "flag --email") {
			t.Errorf("plan --email %q: %q exit %d (%s)", email, out, code, errOut)
		}
	}
	// Item 3: parse --json refuses the port as check does (issue 26:
	// one verdict per input).
	out, _, _ := uriCmd(t, "", "parse", "--json", "http://h:65536/", "ftp://h:99999/")
	objs := jsonLines(t, out)
	for _, o := range objs {
		if e, _ := o["error"].(string); o["scheme_data"] != nil || !strings.Contains(e, "port above 65535") {
			t.Errorf("parse --json: %v", o)
		}
	}
	// Item 4: the JSON refusal carries the offset of the escape.
	out, _, _ = uriCmd(t, "", "plan", "--json", "nntp://h/a%20b/1")
	if o := jsonLines(t, out); len(o) != 1 || !strings.HasSuffix(o[0]["reason"].(string), "at offset 10") {
		t.Errorf("plan --json nntp: %s", out)
	}
}
