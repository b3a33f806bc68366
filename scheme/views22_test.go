package scheme

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/urikit/urikit/uri"
)

// everyScheme holds a URL of each scheme with a view, a password where
// the scheme's URLs may carry one.
var everyScheme = []string{
	"http://u:s3cret@h:8080/p?q", "HTTPS://u:s3cret@h/", "ftp://u:s3cret@h/a/f;type=i", "gopher://h/0sel",
	"mailto:a@b?subject=s", "news:comp.lang.go", "news://srv:1190/g", "snews:g", "nntp://h/g/1", "nntp:g/1",
	"telnet://u:s3cret@h/", "rlogin://u:s3cret@h", "tn3270://u:s3cret@h:2323", "wais://h/db?s",
	"prospero://u:s3cret@h/x", "file://h/share/f", "mid:a@b/c@d", "cid:x@y", "urn:example:a", "urn:X-foo:bar",
}

// TestViewsRedact: issue 22, "fmt.Printf("%v", scheme.ParseFTP(...))
// prints the password twice". Every view prints as its URL with the
// password replaced by "xxxxx" (as net/url's URL.Redacted), with every
// verb; RFC 3986 3.2.1: "Applications should not render as clear text
// any data after the first colon (":") character found within a
// userinfo subcomponent".
func TestViewsRedact(t *testing.T) {
	for _, s := range everyScheme {
		u := uri.MustParse(s)
		v, err := ViewOf(u)
		if err != nil || v == nil {
			t.Fatalf("%s: %v, %v", s, v, err)
		}
		want := s
		if _, ok := u.Password(); ok {
			want = strings.Replace(s, ":s3cret@", ":xxxxx@", 1)
		}
		if v.Redacted() != want || v.String() != want || v.URI().String() != s {
			t.Errorf("%s: Redacted %q String %q URI %q", s, v.Redacted(), v.String(), v.URI())
		}
		for _, f := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%20v", "%v"} {
			got := fmt.Sprintf(f, v)
			if strings.Contains(got, "s3cret") || strings.Contains(got, fmt.Sprintf("%x", "s3cret")) {
				t.Errorf("%s: %s prints the password: %s", s, f, got)
			}
		}
		if got := fmt.Sprint(v); got != want {
			t.Errorf("%s: Sprint %q", s, got)
		}
		if got := fmt.Sprintf("%v", &v); strings.Contains(got, "s3cret") {
			t.Errorf("%s: %%v of a pointer: %s", s, got)
		}
		// The redacted URL is a URI whose password is "xxxxx".
		if r, err := uri.Parse(v.Redacted()); err != nil {
			t.Errorf("%s: %v", s, err)
		} else if p, ok := r.Password(); ok && p != "xxxxx" {
			t.Errorf("%s: redacted password %q", s, p)
		}
	}
	// The typed values print the same way.
	f, _ := ParseFTP(uri.MustParse("ftp://user:pw@host/f"))
	if got := fmt.Sprintf("%v %+v", f, f); got != "ftp://user:xxxxx@host/f ftp://user:xxxxx@host/f" {
		t.Errorf("FTP %%v: %s", got)
	}
}

// TestEndpoints: one port convention across the views that connect
// (issue 22): Port is the URL's or -1, DefaultPort the scheme's,
// ConnectPort the one a plan connects to.
func TestEndpoints(t *testing.T) {
	for _, tt := range []struct {
		url                string
		port, def, connect int
		host               string
	}{
		{"http://h", -1, 80, 80, "h"},
		{"http://h:", -1, 80, 80, "h"},
		{"https://h:8443/", 8443, 443, 8443, "h"},
		{"ftp://h:2121/f", 2121, 21, 2121, "h"},
		{"gopher://h/", -1, 70, 70, "h"},
		{"news:g", -1, 119, 119, ""},
		{"news://srv:1190/g", 1190, 119, 1190, "srv"},
		{"snews://srv/g", -1, 563, 563, "srv"},
		{"nntp://h:0/g/1", 0, 119, 0, "h"},
		{"telnet://h", -1, 23, 23, "h"},
		{"rlogin://h", -1, 513, 513, "h"},
		{"tn3270://h:2323", 2323, 23, 2323, "h"},
		{"wais://h/db", -1, 210, 210, "h"},
		{"prospero://[::1]:1/x", 1, 1525, 1, "::1"},
	} {
		v, err := ViewOf(uri.MustParse(tt.url))
		e, ok := v.(Endpoint)
		if err != nil || !ok {
			t.Errorf("%s: %T, %v", tt.url, v, err)
			continue
		}
		if e.Port() != tt.port || e.DefaultPort() != tt.def || e.ConnectPort() != tt.connect || e.Host() != tt.host {
			t.Errorf("%s: host %q port %d default %d connect %d", tt.url, e.Host(), e.Port(), e.DefaultPort(), e.ConnectPort())
		}
		if pl, ok := v.(Planner); ok {
			if p, err := pl.Plan(PlanOptions{}); err == nil && p.Port != e.ConnectPort() {
				t.Errorf("%s: plan port %d, ConnectPort %d", tt.url, p.Port, e.ConnectPort())
			}
		}
	}
	// Views without a host to connect to are no Endpoint.
	for _, s := range []string{"mailto:a@b", "file:///x", "mid:a@b", "urn:example:a"} {
		if v, _ := ViewOf(uri.MustParse(s)); v == nil {
			t.Errorf("%s: no view", s)
		} else if _, ok := v.(Endpoint); ok {
			t.Errorf("%s: an Endpoint", s)
		}
	}
}

// TestViewOfURN: ViewOf returns a View for every scheme with one, URNs
// included, whose warnings use the same codes (issue 22): RFC 2141 2.4
// for "%00", RFC 8141 5.1 for a NID that may not be assigned.
func TestViewOfURN(t *testing.T) {
	for _, tt := range []struct {
		urn  string
		want string
	}{
		{"urn:example:a", ""},
		{"urn:isbn:0451450523", ""},
		{"urn:urn-7:x", ""},
		{"urn:X-foo:bar", "reserved-nid"},
		{"urn:us:x", "reserved-nid"},
		{"urn:example:a%00", "encoded-nul"},
		{"urn:X-foo:a%00", "encoded-nul reserved-nid"},
	} {
		v, err := ViewOf(uri.MustParse(tt.urn))
		n, ok := v.(URN)
		if err != nil || !ok {
			t.Errorf("%s: %T %v", tt.urn, v, err)
			continue
		}
		var got []string
		for _, w := range n.Warnings() {
			got = append(got, string(w))
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%s: warnings %v, want %q", tt.urn, got, tt.want)
		}
		j, _ := n.MarshalJSON()
		if !strings.HasPrefix(string(j), `{"urn":"`+tt.urn+`","nid":`) {
			t.Errorf("%s: %s", tt.urn, j)
		}
	}
	// A URN that RFC 8141 refuses has no view, and says why.
	if v, err := ViewOf(uri.MustParse("urn:a:b")); v != nil || err == nil {
		t.Errorf("urn:a:b: %v, %v", v, err)
	}
	if v, err := ViewOf(uri.MustParse("foo:x")); v != nil || err != nil {
		t.Errorf("foo:x: %v, %v", v, err)
	}
	if _, err := ViewOf(uri.MustParse("http:x")); !errors.Is(err, ErrNoAuthority) {
		t.Errorf("http:x: %v", err)
	}
}

// TestWarningMessages: one vocabulary, each code with its message.
func TestWarningMessages(t *testing.T) {
	seen := map[string]bool{}
	for _, w := range []Warning{WarnNondefaultPort, WarnReservedPort, WarnPassword, WarnEncodedCRLF, WarnEncodedNUL, WarnReservedNID, WarnIgnoredPart} {
		m := w.Message()
		if m == string(w) || !strings.Contains(m, "RFC") || seen[m] {
			t.Errorf("%s: %q", w, m)
		}
		seen[m] = true
	}
	if Warning("other").Message() != "other" {
		t.Error("an unknown code is its own message")
	}
}
