package scheme

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
)

// TestJSONRedactsPassword: issue 26. A view prints as its URL with the
// password redacted (%v, String); JSON does the same, so that a view
// logged through json.Marshal or log/slog's JSONHandler shows no
// secret. The secret is had only by asking for it (Password).
func TestJSONRedactsPassword(t *testing.T) {
	const secret = "s3cr%2Bt"
	urls := []string{"ftp://u:" + secret + "@h/f", "telnet://u:" + secret + "@h", "rlogin://u:" + secret + "@h",
		"tn3270://u:" + secret + "@h", "http://u:" + secret + "@h/", "https://u:" + secret + "@h/", "ftp://u:@h/f"}
	// Every view of the registry, with a password in every shape it
	// reads (issue 31).
	viewed := map[string]bool{}
	for _, sc := range Registry().Schemes() {
		for _, tail := range []string{"/", "/g", "/g/1", "/db?w", "/1sel", "", "/pub/x;type=TEXT"} {
			s := sc.Name + "://u:" + secret + "@h" + tail
			if u, err := uri.Parse(s); err == nil && Check(u) == nil {
				if v, _ := ViewOf(u); v != nil {
					urls = append(urls, s)
					viewed[sc.Name] = true
				}
			}
		}
	}
	if len(viewed) < 12 {
		t.Errorf("views of a URL with a password: %v", viewed)
	}
	for _, s := range urls {
		v, err := ViewOf(uri.MustParse(s))
		if err != nil {
			t.Fatal(err)
		}
		// One redaction: the view's is the URI's, and writes the
		// placeholder its JSON writes.
		if r := v.Redacted(); r != v.URI().Redacted() || v.String() != r || !strings.Contains(r, ":"+redacted+"@") {
			t.Errorf("%s: Redacted %q, String %q, uri's %q", s, r, v.String(), v.URI().Redacted())
		}
		leaks := func(where string, out []byte) {
			t.Helper()
			if bytes.Contains(out, []byte("s3cr")) {
				t.Errorf("%s: %s shows the password: %s", s, where, out)
			}
		}
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		leaks("json.Marshal", j)
		j, _ = json.Marshal(struct{ URL View }{v})
		leaks("json.Marshal of a struct", j)
		j, _ = AppendJSON(nil, v.URI())
		leaks("AppendJSON", j)
		var log bytes.Buffer
		slog.New(slog.NewJSONHandler(&log, nil)).Info("fetch", "url", v)
		leaks("slog JSONHandler", log.Bytes())
		leaks("%v", []byte(fmt.Sprintf("%v %+v %#v", v, v, v)))
		// A URL with a password says so: "xxxxx", as Redacted writes.
		var m map[string]any
		if err := json.Unmarshal(j, &m); err != nil {
			t.Fatal(err)
		}
		if p, ok := m["password"]; ok && p != redacted || !ok && strings.HasPrefix(s, "ftp") {
			t.Errorf("%s: JSON password %v", s, p)
		}
		// And the secret is there for who asks.
		if pw, ok := v.(interface{ Password() (string, bool) }); ok {
			if p, _ := pw.Password(); p != "s3cr+t" && p != "" {
				t.Errorf("%s: Password() = %q", s, p)
			}
		}
	}
	v, _ := ParseFTP(uri.MustParse("ftp://u:" + secret + "@h/f"))
	if _, p := v.Login(); p != "s3cr+t" {
		t.Errorf("Login password %q", p)
	}
}

// tails follow a scheme name to make URLs of every shape the views
// read or refuse.
var tails = []string{"://h/p?q#f", "://u:p@h:21/a;type=i", "://h:99999/x", "://bad%20host/", "://%e2%98%83/",
	"://[::1]:8/x", "://h", ":", ":x", "://u@/", "://h/g/12", "://h/a@b", "isbn:0451450523", "x:y/z?+r#f",
	"://h/0sel%09search", "a@b.example?subject=hi", "<a@b>", "///c:/x", "://h/db?w", "://h/a%0D%0A", "://h:/",
	"://h:0080/", "://[fe80::1%25en0]/", "://h/%2A", "://h/*", "://h/g/x", "://h/0", "://h/1a%09b%09%2BASK%0D%0A"}

// TestOneVerdict: issue 31. There is one check of a scheme's rules:
// Registry().Check (each scheme's Validate) and Check agree on every
// URL of every registered scheme and of the corpora, and both are the
// error of the view (ViewOf). Every scheme with a view validates.
func TestOneVerdict(t *testing.T) {
	r := Registry()
	n, refused := 0, 0
	check := func(u uri.URI) {
		n++
		rerr, cerr := r.Check(u), Check(u)
		_, verr := ViewOf(u)
		if fmt.Sprint(rerr) != fmt.Sprint(cerr) || fmt.Sprint(cerr) != fmt.Sprint(verr) {
			t.Errorf("%s: Registry().Check %v, Check %v, ViewOf %v", u, rerr, cerr, verr)
		}
		if cerr != nil {
			refused++
		}
	}
	for _, s := range r.Schemes() {
		if s.View != nil && s.Validate == nil {
			t.Errorf("%s: a view without a Validate", s.Name)
		}
		for _, name := range []string{s.Name, strings.ToUpper(s.Name)} {
			for _, tail := range tails {
				if u, err := uri.Parse(name + tail); err == nil {
					check(u)
				}
			}
		}
	}
	for _, name := range testshared.CorpusNames {
		for _, line := range testshared.LoadCorpus(t, name).Lines {
			if u, err := uri.Parse(line); err == nil {
				check(u)
			}
		}
	}
	if refused == 0 || refused == n {
		t.Errorf("%d of %d URLs refused: the inputs do not test the verdict", refused, n)
	}
	t.Logf("%d URIs, %d refused", n, refused)
}

// TestAppendJSONIsViewJSON: issue 26. AppendJSON is ViewOf(u) and its
// MarshalJSON (http's writer is the one HTTP.MarshalJSON calls), for
// every scheme of the registry and every input form: the same bytes, the
// same error, which is Check's; "null" exactly when there is no view. A
// URN gives its object (it gave null).
func TestAppendJSONIsViewJSON(t *testing.T) {
	n, views := 0, 0
	check := func(u uri.URI) {
		n++
		got, err := AppendJSON(nil, u)
		v, verr := ViewOf(u)
		if cerr := Check(u); fmt.Sprint(err) != fmt.Sprint(verr) || fmt.Sprint(cerr) != fmt.Sprint(verr) {
			t.Errorf("%s: AppendJSON error %v, ViewOf error %v, Check %v", u, err, verr, cerr)
			return
		}
		if err != nil {
			return
		}
		if v == nil {
			if string(got) != "null" {
				t.Errorf("%s: AppendJSON %s without a view", u, got)
			}
			return
		}
		views++
		want, err := v.MarshalJSON()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s:\nAppendJSON  %s\nMarshalJSON %s (%v)", u, got, want, err)
		}
		if !json.Valid(got) {
			t.Errorf("%s: invalid JSON %s", u, got)
		}
	}
	for _, s := range Registry().Schemes() {
		for _, name := range []string{s.Name, strings.ToUpper(s.Name)} {
			for _, tail := range tails {
				if u, err := uri.Parse(name + tail); err == nil {
					check(u)
				}
			}
		}
	}
	for _, line := range testshared.LoadCorpus(t, "urns").Lines {
		if u, err := uri.Parse(line); err == nil {
			check(u)
		}
	}
	if v, _ := ViewOf(uri.MustParse("urn:isbn:0451450523")); v == nil {
		t.Error("no URN view")
	}
	t.Logf("%d URIs, %d with a view", n, views)
}

// TestHostName: issue 26. A host of a scheme that names an Internet
// host must name one: RFC 3986 3.2.2 allows any escape in a reg-name,
// but a decoded space, control or other forbidden domain code point of
// the URL Standard (3.5: "If asciiDomain contains a forbidden domain
// code point, domain-invalid-code-point validation error, return
// failure"), or octets that are not UTF-8, name nothing a client can
// look up. ErrHostName, at the escape, for every such scheme.
func TestHostName(t *testing.T) {
	for _, name := range []string{"http", "https", "ftp", "gopher", "telnet", "rlogin", "tn3270", "wais", "prospero", "nntp", "news"} {
		for _, tt := range []struct {
			host string
			off  int // -1: a host name
		}{
			{"bad%20host", 3}, {"a%00", 1}, {"a%2Fb", 1}, {"a%25", 1}, {"%FF", 0}, {"a%C3", 1},
			{"%e2%98%83", -1}, {"xn--n3h", -1}, {"a%2Db", -1}, {"[::1]", -1}, {"127.0.0.1", -1},
		} {
			s := name + "://" + tt.host + "/g/1"
			u := uri.MustParse(s)
			err := Check(u)
			var pe *uri.ParseError
			switch {
			case tt.off < 0 && errors.Is(err, ErrHostName):
				t.Errorf("%s: %v", s, err)
			case tt.off >= 0 && (!errors.As(err, &pe) || !errors.Is(err, ErrHostName) || pe.Offset != len(name)+3+tt.off || pe.Component != uri.ComponentHost):
				t.Errorf("%s: %v, want ErrHostName at %d", s, err, len(name)+3+tt.off)
			}
		}
	}
	// A scheme whose host is no Internet host's keeps its escapes.
	if err := Check(uri.MustParse("file://a%20b/x")); err != nil {
		t.Errorf("file: %v", err)
	}
}

// TestNNTPIgnoredPart: RFC 5538 2.2, "nntpURL = "nntp:" server "/"
// group [ "/" article-number ]": no query, no fragment. The plan sends
// GROUP and ARTICLE without them, and the view says so (issue 26: it
// dropped "?x#y" without a word).
func TestNNTPIgnoredPart(t *testing.T) {
	for _, tt := range []struct {
		url  string
		warn []Warning
	}{
		{"nntp://h/g/1?x#y", []Warning{WarnIgnoredPart}},
		{"nntp://h/g/1?", []Warning{WarnIgnoredPart}},
		{"nntp://h/g#y", []Warning{WarnIgnoredPart}},
		{"nntp://h:1190/g/1?x", []Warning{WarnNondefaultPort, WarnIgnoredPart}},
		{"nntp://h/g/1", nil},
	} {
		v, err := ParseNNTP(uri.MustParse(tt.url))
		if err != nil || fmt.Sprint(v.Warnings()) != fmt.Sprint(tt.warn) {
			t.Errorf("%s: warnings %v, %v; want %v", tt.url, v.Warnings(), err, tt.warn)
		}
		p, err := v.Plan(PlanOptions{})
		if err != nil || strings.Join(slices.Collect(p.Commands()), " | ") != "GROUP g"+map[bool]string{true: " | ARTICLE 1"}[v.Article() == 1] {
			t.Errorf("%s: plan %q, %v", tt.url, slices.Collect(p.Commands()), err)
		}
	}
}

// TestSetPortVerdict: issue 26. The Editor, like Parse, knows no scheme:
// RFC 3986 3.2.3 gives port = *DIGIT, so SetPort("99999") builds a
// valid URI reference. The http scheme cannot name that port (RFC 9293
// 3.1: a port is 16 bits; RFC 9110 4.2.1): Check refuses the result,
// with the error it gives the same URL parsed.
func TestSetPortVerdict(t *testing.T) {
	v, err := uri.MustParse("http://example.com/").Edit().SetPort("99999").URI()
	if err != nil || v.String() != "http://example.com:99999/" {
		t.Fatalf("SetPort: %q, %v", v, err)
	}
	err = Check(v)
	if !errors.Is(err, ErrPortRange) || fmt.Sprint(err) != fmt.Sprint(Check(uri.MustParse("http://example.com:99999/"))) {
		t.Errorf("Check of the edited URL: %v", err)
	}
	if err := Check(uri.MustParse("foo://example.com:99999/")); err != nil {
		t.Errorf("a scheme without rules: %v", err)
	}
}
