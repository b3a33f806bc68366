package scheme

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/urikit/urikit/uri"
)

// FuzzViews: every view of a valid URI either succeeds or returns a
// typed error; views never panic and encode to JSON. Every plan either
// refuses with an offset inside the URL, or puts on the wire only lines
// with no CR, LF or NUL but their CR LF ends (issue 20): the whole
// request is checked (the +ASK data block too, which is planned only with
// AskData and to port 70), and so are Plan.Host and the PlanOptions
// strings the plan writes.
func FuzzViews(f *testing.F) {
	for _, s := range []string{
		"http://a/b?c+d", "https://u:p@[::1]:8443/", "ftp://u:p@h/a/b;type=d", "ftp://h//x%0D%0Ay",
		"gopher://h/7sel%09q", "gopher://h/0s%09%09+%091%0D%0A+-1%0D%0Av%0D%0A.%0D%0A", "gopher://h/0%0D%0A",
		"gopher://h:25/0s%09%09+%091%0D%0A+-1%0D%0AHELO%0D%0A.%0D%0A",
		"mailto:a@b?subject=x&body=y", "news:*", "news:a@b", "nntp://h/g/1", "nntp:g/1", "nntp://h/a%20b/1", "telnet://u:p@h:1/",
		"rlogin://h", "tn3270://h/", "wais://h/db?s", "wais://h/db/t/p", "prospero://h/x%001%00a;f=v",
		"file:///c:/x", "file://localhost/x", "mid:a@b/c@d", "cid:x@y", "http://[fe80::1%25en0]:8080/x",
		"ftp://h%0D%0Ax/f", "http://h:65536/",
		"mailto:%22a%5C%22b%22@%5B1.2.3.4%5D,c@d?to=J%20D%20%3Ce@f%3E&cc=&x%0D%0A=1", "mailto:a@b..c?s=1=2",
		"gopher://h/1a%2Fb?c", "file:////host/share/f", "https://h/?a=b&c",
	} {
		f.Add(s, "", false, false)
	}
	f.Add("ftp://h/f", "me@x\r\nDELE x", false, false)
	f.Add("gopher://h/0s%09%09+%091%0D%0A+-1%0D%0Av%0D%0A.%0D%0A", "", true, false)
	f.Add("http://[fe80::1%25en0]/x", "", false, true)
	f.Fuzz(func(t *testing.T, s, email string, askData, proxy bool) {
		u, err := uri.ParseWith(s, uri.Options{AllowZoneID: true})
		if err != nil {
			return
		}
		v, err := ViewOf(u)
		if err != nil {
			var pe *uri.ParseError
			if !errors.As(err, &pe) && !errors.Is(err, ErrWrongScheme) {
				// urn's view returns a *urn.ParseError, the same type.
				t.Fatalf("%q: untyped error %v", s, err)
			}
			if pe != nil && (pe.Offset < 0 || pe.Offset > len(s)) {
				t.Fatalf("%q: offset %d outside the input", s, pe.Offset)
			}
			return
		}
		if v == nil {
			return
		}
		if _, err := json.Marshal(v); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		// Printing a view shows the URL without its password (issue 22).
		if got := fmt.Sprintf("%v", v); got != v.Redacted() || v.URI().String() != s {
			t.Fatalf("%q: prints %q, Redacted %q", s, got, v.Redacted())
		}
		if _, ok := u.Password(); ok {
			r, err := uri.ParseWith(v.Redacted(), uri.Options{AllowZoneID: true})
			if p, _ := r.Password(); err != nil || p != "xxxxx" {
				t.Fatalf("%q: redacted %q, %v", s, v.Redacted(), err)
			}
		}
		pl, ok := v.(Planner)
		if !ok {
			return
		}
		o := PlanOptions{Email: email, AskData: askData, Proxy: proxy}
		p, err := pl.Plan(o)
		var re *RefusedError
		if errors.As(err, &re) {
			if re.URL != s || re.Offset < 0 || re.Offset >= len(s) {
				t.Fatalf("%q: refused at %d of %q, outside the URL", s, re.Offset, re.URL)
			}
			return
		}
		if errors.Is(err, ErrEmail) {
			if o.Check() == nil {
				t.Fatalf("%q: ErrEmail for %q", s, email)
			}
			return
		}
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		checkPlan(t, s, o, p)
	})
}

// checkPlan checks the safety property of a plan that was not refused.
func checkPlan(t *testing.T, s string, o PlanOptions, p Plan) {
	t.Helper()
	if strings.ContainsAny(p.Host, "\r\n\x00") || p.Port < 0 || p.Port > 65535 {
		t.Fatalf("%q: connects to %q port %d", s, p.Host, p.Port)
	}
	for c := range p.Commands() {
		if strings.ContainsAny(c, "\r\n\x00") {
			t.Fatalf("%q: command %q holds a control character", s, c)
		}
		if pass, ok := strings.CutPrefix(c, "PASS "); ok && pass == o.Email && o.Check() != nil {
			t.Fatalf("%q: PASS with an unchecked email %q", s, o.Email)
		}
	}
	if p.Request == nil {
		return
	}
	req := string(p.Request)
	if !strings.HasSuffix(req, "\r\n") {
		t.Fatalf("%q: request %q does not end with CR LF", s, req)
	}
	lines := strings.Split(strings.TrimSuffix(req, "\r\n"), "\r\n")
	for _, l := range lines {
		if strings.ContainsAny(l, "\r\n\x00") {
			t.Fatalf("%q: request %q: line %q holds a CR, LF or NUL", s, req, l)
		}
	}
	switch p.Scheme {
	case "http", "https":
		// RFC 9112 3: request-line; RFC 9110 7.2: Host, without a zone
		// identifier (RFC 6874 section 4).
		if len(lines) != 2 || strings.Count(lines[0], " ") != 2 || !strings.HasPrefix(lines[1], "Host: ") ||
			strings.ContainsAny(lines[1][6:], " \t") || strings.HasPrefix(lines[1][6:], "[") && strings.Contains(lines[1], "%25") {
			t.Fatalf("%q: HTTP request %q", s, req)
		}
	case "gopher":
		// One request line, but for a +ASK data block, which is sent
		// only when asked for, and only to port 70.
		if len(lines) > 1 && (!o.AskData || p.Port != 70 || !strings.Contains(req, "\t1\r\n+-1\r\n")) {
			t.Fatalf("%q: gopher request %q (AskData %v, port %d)", s, req, o.AskData, p.Port)
		}
		if strings.Contains(lines[0], "\t") && strings.Count(lines[0], "\t") > 3 {
			t.Fatalf("%q: gopher request line %q", s, lines[0])
		}
	default:
		t.Fatalf("%q: a request for scheme %q", s, p.Scheme)
	}
}
