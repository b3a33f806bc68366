package scheme

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/urikit/urikit/uri"
)

// FuzzViews: every view of a valid URI either succeeds or returns a
// typed error; views never panic, encode to JSON, and a plan either
// refuses with an offset inside the URL or sends no CR, LF or NUL
// that the URL did not put at the end of a line (or in a +ASK block).
func FuzzViews(f *testing.F) {
	for _, s := range []string{
		"http://a/b?c+d", "https://u:p@[::1]:8443/", "ftp://u:p@h/a/b;type=d", "ftp://h//x%0D%0Ay",
		"gopher://h/7sel%09q", "gopher://h/0s%09%09+%091%0D%0A+-1%0D%0Av%0D%0A.%0D%0A", "gopher://h/0%0D%0A",
		"mailto:a@b?subject=x&body=y", "news:*", "news:a@b", "nntp://h/g/1", "nntp:g/1", "telnet://u:p@h:1/",
		"rlogin://h", "tn3270://h/", "wais://h/db?s", "wais://h/db/t/p", "prospero://h/x%001%00a;f=v",
		"file:///c:/x", "file://localhost/x", "mid:a@b/c@d", "cid:x@y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := uri.Parse(s)
		if err != nil {
			return
		}
		v, err := registry.View(u)
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
		sv, ok := v.(View)
		if !ok {
			return
		}
		if _, err := json.Marshal(sv); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		pl, ok := v.(Planner)
		if !ok {
			return
		}
		p, err := pl.Plan(PlanOptions{})
		var re *RefusedError
		if errors.As(err, &re) {
			if re.URL != "" && (re.Offset < 0 || re.Offset >= len(s)) {
				t.Fatalf("%q: refused at %d, outside the URL", s, re.Offset)
			}
			return
		}
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		for _, c := range p.Commands {
			if strings.ContainsAny(c, "\r\n\x00") {
				t.Fatalf("%q: command %q holds a control character", s, c)
			}
		}
		req := string(p.Request)
		if i := strings.Index(req, "\t1\r\n+-1\r\n"); i >= 0 && p.Scheme == "gopher" {
			req = req[:i] + "\r\n" // the +ASK data block, checked by askBlock
		}
		body := strings.TrimSuffix(req, "\r\n")
		if p.Scheme == "http" || p.Scheme == "https" {
			body = strings.Replace(body, "\r\nHost: ", " ", 1)
		}
		if strings.ContainsAny(body, "\r\n\x00") {
			t.Fatalf("%q: request %q holds a control character", s, p.Request)
		}
	})
}
