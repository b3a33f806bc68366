package scheme

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/urikit/urikit/uri"
)

// view returns the JSON of the registry's view of s, decoded.
func viewJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	v, err := registry.View(uri.MustParse(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	j, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	var m map[string]any
	if err := json.Unmarshal(j, &m); err != nil {
		t.Fatalf("%s: %s: %v", s, j, err)
	}
	return m
}

// keysOf returns the keys of the JSON object j in their order.
func keysOf(t *testing.T, v any) []string {
	t.Helper()
	j, _ := json.Marshal(v)
	dec := json.NewDecoder(strings.NewReader(string(j)))
	dec.Token() // {
	var keys []string
	depth := 0
	for dec.More() || depth > 0 {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		switch tok {
		case json.Delim('['), json.Delim('{'):
			depth++
			continue
		case json.Delim(']'), json.Delim('}'):
			depth--
			continue
		}
		if depth == 0 {
			keys = append(keys, tok.(string))
			// skip the value
			if t2, _ := dec.Token(); t2 == json.Delim('[') || t2 == json.Delim('{') {
				depth++
			}
		}
	}
	return keys
}

// TestJSONKeys: the exact interface of issue 8, the keys of each view
// in order.
func TestJSONKeys(t *testing.T) {
	tests := []struct {
		url  string
		keys string
	}{
		{"http://a/", "host port default_port request_target absolute_form host_header search_words warnings"},
		{"ftp://a/", "host port default_port user password login_user login_password cwd file typecode transfer_type listing list_command warnings"},
		{"gopher://a/", "host port default_port item_type selector search gopher_plus gplus_kind gplus_view gplus_language gplus_attributes warnings"},
		{"mailto:a@b", "to cc subject body hfields warnings"},
		{"news:a.b", "kind newsgroup message_id server warnings"},
		{"nntp://h/a/1", "host port default_port newsgroup article warnings"},
		{"telnet://h/", "host port default_port user password warnings"},
		{"rlogin://h", "host port default_port user password warnings"},
		{"tn3270://h", "host port default_port user password warnings"},
		{"wais://h/db", "host port default_port form database search wtype wpath warnings"},
		{"prospero://h/x", "host port default_port hsoname version attributes fields warnings"},
		{"file:///x", "host path local windows_path"},
		{"mid:a@b", "message_id content_id"},
		{"cid:a@b", "message_id content_id"},
	}
	for _, tt := range tests {
		v, err := registry.View(uri.MustParse(tt.url))
		if err != nil {
			t.Errorf("%s: %v", tt.url, err)
			continue
		}
		if got := strings.Join(keysOf(t, v), " "); got != tt.keys {
			t.Errorf("%s: keys\n got %s\nwant %s", tt.url, got, tt.keys)
		}
	}
}

func TestHTTP(t *testing.T) {
	tests := []struct {
		url  string
		want map[string]any
	}{
		// RFC 9112 3.2.1: "/" for an empty path; the fragment is never sent.
		{"http://www.example.org", map[string]any{"host": "www.example.org", "port": nil, "default_port": 80.0,
			"request_target": "/", "absolute_form": "http://www.example.org/", "host_header": "www.example.org",
			"search_words": nil, "warnings": []any{}}},
		// RFC 9112 3.2.1's example: http://www.example.org/where?q=now
		{"http://www.example.org/where?q=now#frag", map[string]any{"host": "www.example.org", "port": nil, "default_port": 80.0,
			"request_target": "/where?q=now", "absolute_form": "http://www.example.org/where?q=now", "host_header": "www.example.org",
			"search_words": nil, "warnings": []any{}}}, // a form's query, no search (issue 16)
		// The 1993 draft: "http://host/path?search", words split at "+".
		{"https://u:p@[::1]:8443/s?a+b%2Bc", map[string]any{"host": "::1", "port": 8443.0, "default_port": 443.0,
			"request_target": "/s?a+b%2Bc", "absolute_form": "https://[::1]:8443/s?a+b%2Bc", "host_header": "[::1]:8443",
			"search_words": []any{"a", "b+c"}, "warnings": []any{"nondefault-port", "password"}}},
		{"http://a:25/", map[string]any{"host": "a", "port": 25.0, "default_port": 80.0, "request_target": "/",
			"absolute_form": "http://a:25/", "host_header": "a:25", "search_words": nil,
			"warnings": []any{"nondefault-port", "reserved-port"}}},
	}
	for _, tt := range tests {
		if got := viewJSON(t, tt.url); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %v\nwant %v", tt.url, got, tt.want)
		}
	}
	// RFC 9110 4.2.1: "A recipient that processes such a URI reference
	// MUST reject it as invalid."
	for _, s := range []string{"http:///x", "http:x", "https://u@/"} {
		_, err := ParseHTTP(uri.MustParse(s))
		var pe *uri.ParseError
		if !errors.As(err, &pe) || pe.Component != uri.ComponentHost {
			t.Errorf("%s: %v, want a *ParseError in the host", s, err)
		}
	}
}

func TestFTP(t *testing.T) {
	tests := []struct {
		url, plan string
	}{
		// RFC 1738 3.2.2: "ftp://myname@host.dom/%2Fetc/motd" "would
		// result in a CWD /etc and then a RETR motd"...
		{"ftp://myname@host.dom/%2Fetc/motd", "USER myname | PASS <ask> | CWD /etc | TYPE I | RETR motd"},
		// ...differs from "ftp://myname@host.dom/etc/motd", which "would
		// CWD etc and then RETR motd"...
		{"ftp://myname@host.dom/etc/motd", "USER myname | PASS <ask> | CWD etc | TYPE I | RETR motd"},
		// ..."ftp://myname@host.dom//etc/motd" "would result in a "CWD "
		// with a null argument".
		{"ftp://myname@host.dom//etc/motd", "USER myname | PASS <ask> | CWD  | CWD etc | TYPE I | RETR motd"},
		// RFC 1738 3.2.1: anonymous with the user's mail address when no
		// user is given; "ftp://@host.com/" has an empty user name.
		{"ftp://host.com/", "USER anonymous | PASS <email> | TYPE A | LIST"},
		{"ftp://@host.com/", "USER  | PASS <ask> | TYPE A | LIST"},
		{"ftp://u:p@h/a/b;type=a", "USER u | PASS p | CWD a | TYPE A | RETR b"},
		{"ftp://h/dir;TYPE=D", "USER anonymous | PASS <email> | TYPE A | NLST dir"},
		{"ftp://h/x;type=i", "USER anonymous | PASS <email> | TYPE I | RETR x"},
		// The 1994 draft's ftptype = A formcode | E formcode | I | L digits.
		{"ftp://h/x;type=AN", "USER anonymous | PASS <email> | TYPE A N | RETR x"},
		{"ftp://h/x;type=l8", "USER anonymous | PASS <email> | TYPE L 8 | RETR x"},
		// A "%2F" stays inside its segment; "%20" is decoded.
		{"ftp://h/a%2Fb/my%20file", "USER anonymous | PASS <email> | CWD a/b | TYPE I | RETR my file"},
	}
	for _, tt := range tests {
		v, err := ParseFTP(uri.MustParse(tt.url))
		if err != nil {
			t.Errorf("%s: %v", tt.url, err)
			continue
		}
		p, err := v.Plan(PlanOptions{})
		if err != nil {
			t.Errorf("%s: %v", tt.url, err)
			continue
		}
		if got := strings.Join(slices.Collect(p.Commands()), " | "); got != tt.plan || p.Port != 21 {
			t.Errorf("%s:\n got %s (port %d)\nwant %s", tt.url, got, p.Port, tt.plan)
		}
	}
	v, _ := ParseFTP(uri.MustParse("ftp://h/f"))
	if p, _ := v.Plan(PlanOptions{Email: "me@example.com"}); slices.Collect(p.Commands())[1] != "PASS me@example.com" {
		t.Errorf("PlanOptions.Email: %v", slices.Collect(p.Commands()))
	}
	// RFC 1738 section 6: an encoded CR LF is never decoded and sent.
	for _, s := range []string{"ftp://h/a%0D%0ADELE%20x/f", "ftp://u%0A@h/f", "ftp://h/f%00", "ftp://u:p%0d@h/"} {
		v, err := ParseFTP(uri.MustParse(s))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		_, err = v.Plan(PlanOptions{})
		var re *RefusedError
		if !errors.As(err, &re) || re.Offset < 0 || re.Offset >= len(s) || s[re.Offset] != '%' {
			t.Errorf("%s: Plan = %v, want a *RefusedError at the escape", s, err)
		}
	}
	for _, s := range []string{"ftp://h/a;type=x", "ftp://h/a?q", "ftp:/a", "ftp:///a"} {
		if _, err := ParseFTP(uri.MustParse(s)); err == nil {
			t.Errorf("%s: no error", s)
		}
	}
	got := viewJSON(t, "ftp://u:p%40w@h:2121/d%20e/f;type=a")
	want := map[string]any{"host": "h", "port": 2121.0, "default_port": 21.0, "user": "u", "password": "xxxxx",
		"login_user": "u", "login_password": "xxxxx", "cwd": []any{"d e"}, "file": "f", "typecode": "a",
		"transfer_type": "A", "listing": false, "list_command": nil, "warnings": []any{"nondefault-port", "password"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ftp JSON:\n got %v\nwant %v", got, want)
	}
}

func TestGopher(t *testing.T) {
	tests := []struct {
		url     string
		typ     byte
		sel     string
		request string
	}{
		// The 1994 draft's examples ("host [port]" written "host").
		{"gopher://host/0a_gopher_selector", '0', "a_gopher_selector", "a_gopher_selector\r\n"},
		{"gopher://host/7a_gopher_selector%09foobar", '7', "a_gopher_selector", "a_gopher_selector\tfoobar\r\n"},
		{"gopher://host/0a_gopher_selector%09%09some_gplus_stuff", '0', "a_gopher_selector", "a_gopher_selector\tsome_gplus_stuff\r\n"},
		// "a_gopher_selector<tab>!<cr><lf>"
		{"gopher://host/0a_gopher_selector%09%09!", '0', "a_gopher_selector", "a_gopher_selector\t!\r\n"},
		// "a_gopher_selector<tab>+application/postscript Es_ES<cr><lf>"
		{"gopher://host/0a_gopher_selector%09%09+application/postscript%20Es_ES", '0', "a_gopher_selector", "a_gopher_selector\t+application/postscript Es_ES\r\n"},
		// "a_gopher_selector<tab>!+ABSTRACT +SMELL<cr><lf>"
		{"gopher://host/0a_gopher_selector%09%09!+ABSTRACT%20+SMELL", '0', "a_gopher_selector", "a_gopher_selector\t!+ABSTRACT +SMELL\r\n"},
		// The filled-in +ASK form: "a_gopher_selector<tab>+<tab>1<cr><lf>
		// +-1<cr><lf> ask_item1_value<cr><lf> ask_item2_value<cr><lf> .<cr><lf>"
		{"gopher://host/0a_gopher_selector%09%09+%091%0D%0A+-1%0D%0Aask_item1_value%0D%0Aask_item2_value%0D%0A.%0D%0A", '0', "a_gopher_selector",
			"a_gopher_selector\t+\t1\r\n+-1\r\nask_item1_value\r\nask_item2_value\r\n.\r\n"},
		// A selector may begin with a copy of the type character.
		{"gopher://host/00file", '0', "0file", "0file\r\n"},
		// RFC 4266 2.1 / RFC 1738 3.4: no type means "1", the top.
		{"gopher://host", '1', "", "\r\n"},
		{"gopher://host/", '1', "", "\r\n"},
	}
	for _, tt := range tests {
		v, err := ParseGopher(uri.MustParse(tt.url))
		if err != nil {
			t.Errorf("%s: %v", tt.url, err)
			continue
		}
		p, err := v.Plan(PlanOptions{AskData: true}) // the +ASK example needs it (issue 20)
		if err != nil {
			t.Errorf("%s: %v", tt.url, err)
			continue
		}
		if v.ItemType() != tt.typ || v.Selector() != tt.sel || string(p.Request) != tt.request || p.Port != 70 {
			t.Errorf("%s: type %c selector %q request %q port %d", tt.url, v.ItemType(), v.Selector(), p.Request, p.Port)
		}
	}
	// RFC 1738 section 6: the gopher-to-SMTP attack. curl decodes these
	// and sends them; a plan refuses.
	for _, s := range []string{
		"gopher://mail.example:25/_HELO%20x%0D%0AMAIL%20FROM:a@b%0D%0A",
		"gopher://h/7sel%09q%0Amore",
		"gopher://h/0sel%00",
		"gopher://h/0sel%09%09+%0D%0Ax",
		"gopher://h/0sel%09%09+%091%0D%0Anot-an-ask-block",
	} {
		v, err := ParseGopher(uri.MustParse(s))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		_, err = v.Plan(PlanOptions{})
		var re *RefusedError
		if !errors.As(err, &re) || re.Offset < 0 || re.Offset >= len(s) {
			t.Errorf("%s: Plan = %v, want a *RefusedError inside the URL", s, err)
		}
		if len(v.Warnings()) == 0 {
			t.Errorf("%s: no warning", s)
		}
	}
	got := viewJSON(t, "gopher://h/0sel%09%09+application/postscript%20Es_ES")
	if got["gplus_kind"] != "view" || got["gplus_view"] != "application/postscript" || got["gplus_language"] != "Es_ES" || got["search"] != "" {
		t.Errorf("gopher+ view: %v", got)
	}
	got = viewJSON(t, "gopher://h/1%3F")
	if got["item_type"] != "1" || got["selector"] != "?" {
		t.Errorf("%v", got)
	}
	got = viewJSON(t, "gopher://h/0s%09%09$+ABSTRACT")
	if got["gplus_kind"] != "directory-attributes" || !reflect.DeepEqual(got["gplus_attributes"], []any{"+ABSTRACT"}) {
		t.Errorf("%v", got)
	}
}

func TestOtherViews(t *testing.T) {
	tests := []struct {
		url  string
		want map[string]any
	}{
		// RFC 6068 6.1 examples.
		{"mailto:chris@example.com", map[string]any{"to": []any{"chris@example.com"}, "cc": []any{}, "subject": nil, "body": nil, "hfields": []any{}, "warnings": []any{}}},
		{"mailto:infobot@example.com?subject=current-issue", map[string]any{"to": []any{"infobot@example.com"}, "cc": []any{}, "subject": "current-issue", "body": nil,
			"hfields": []any{[]any{"subject", "current-issue"}}, "warnings": []any{}}},
		{"mailto:joe@example.com?cc=bob@example.com&body=hello", map[string]any{"to": []any{"joe@example.com"}, "cc": []any{"bob@example.com"}, "subject": nil, "body": "hello",
			"hfields": []any{[]any{"cc", "bob@example.com"}, []any{"body", "hello"}}, "warnings": []any{}}},
		{"mailto:?to=addr1@an.example,addr2@an.example", map[string]any{"to": []any{"addr1@an.example", "addr2@an.example"}, "cc": []any{}, "subject": nil, "body": nil,
			"hfields": []any{[]any{"to", "addr1@an.example,addr2@an.example"}}, "warnings": []any{}}},
		// RFC 6068 6.2: "gorby%25kremvax@example.com"; the 1994 draft: "%" is "%25".
		{"mailto:gorby%25kremvax@example.com", map[string]any{"to": []any{"gorby%kremvax@example.com"}, "cc": []any{}, "subject": nil, "body": nil, "hfields": []any{}, "warnings": []any{}}},
		// RFC 6068 7: a CR LF in a header field value.
		{"mailto:a@b?subject=x%0D%0ABcc:c@d", map[string]any{"to": []any{"a@b"}, "cc": []any{}, "subject": "x\r\nBcc:c@d", "body": nil,
			"hfields": []any{[]any{"subject", "x\r\nBcc:c@d"}}, "warnings": []any{"encoded-crlf"}}},
		// RFC 3986 1.1.2; RFC 5538 2.1; the 1994 draft: "@" marks an article.
		{"news:comp.infosystems.www.servers.unix", map[string]any{"kind": "group", "newsgroup": "comp.infosystems.www.servers.unix", "message_id": nil, "server": nil, "warnings": []any{}}},
		{"news:*", map[string]any{"kind": "all", "newsgroup": nil, "message_id": nil, "server": nil, "warnings": []any{}}},
		{"news:p0ue1la8d@example.org", map[string]any{"kind": "article", "newsgroup": nil, "message_id": "p0ue1la8d@example.org", "server": nil, "warnings": []any{}}},
		{"news://news.server.example/example.group.this", map[string]any{"kind": "group", "newsgroup": "example.group.this", "message_id": nil, "server": "news.server.example", "warnings": []any{}}},
		// RFC 5538 2.2; the 1994 grammar "nntp:" group "/" digits.
		{"nntp://news.server.example/example.group.this/12345", map[string]any{"host": "news.server.example", "port": nil, "default_port": 119.0, "newsgroup": "example.group.this", "article": 12345.0, "warnings": []any{}}},
		{"nntp:alt.test/7", map[string]any{"host": nil, "port": nil, "default_port": 119.0, "newsgroup": "alt.test", "article": 7.0, "warnings": []any{}}},
		// RFC 3986 1.1.2; RFC 4248 2.
		{"telnet://192.0.2.16:80/", map[string]any{"host": "192.0.2.16", "port": 80.0, "default_port": 23.0, "user": nil, "password": nil, "warnings": []any{"nondefault-port", "reserved-port"}}},
		{"telnet://joe:pw%0D%0Asu@h", map[string]any{"host": "h", "port": nil, "default_port": 23.0, "user": "joe", "password": "xxxxx", "warnings": []any{"password", "encoded-crlf"}}},
		{"rlogin://u@h", map[string]any{"host": "h", "port": nil, "default_port": 513.0, "user": "u", "password": nil, "warnings": []any{}}},
		// RFC 4156 2; the 1994 grammar waisindex and waisdoc.
		{"wais://h:210/db?a+b", map[string]any{"host": "h", "port": 210.0, "default_port": 210.0, "form": "search", "database": "db", "search": "a+b", "wtype": nil, "wpath": nil, "warnings": []any{}}},
		{"wais://h/db/TEXT/d%20oc", map[string]any{"host": "h", "port": nil, "default_port": 210.0, "form": "document", "database": "db", "search": nil, "wtype": "TEXT", "wpath": "d oc", "warnings": []any{}}},
		// RFC 4157 2 (";field=value"); the 1994 draft's "%00" version.
		{"prospero://h/pub/x;type=TEXT", map[string]any{"host": "h", "port": nil, "default_port": 1525.0, "hsoname": "pub/x", "version": nil, "attributes": []any{}, "fields": []any{[]any{"type", "TEXT"}}, "warnings": []any{}}},
		{"prospero://h/pub/x%0012%00a1", map[string]any{"host": "h", "port": nil, "default_port": 1525.0, "hsoname": "pub/x", "version": "12", "attributes": []any{"a1"}, "fields": []any{}, "warnings": []any{}}},
		// RFC 8089 2, Appendix B and E.2.
		{"file:///path/to/file", map[string]any{"host": "", "path": "/path/to/file", "local": true, "windows_path": nil}},
		{"file:/path/to/file", map[string]any{"host": nil, "path": "/path/to/file", "local": true, "windows_path": nil}},
		{"file://host.example.com/path/to/file", map[string]any{"host": "host.example.com", "path": "/path/to/file", "local": false, "windows_path": `\\host.example.com\path\to\file`}}, // E.3.1
		{"file://localhost/etc/fstab", map[string]any{"host": "localhost", "path": "/etc/fstab", "local": true, "windows_path": nil}},
		{"file:///c:/path/to/file", map[string]any{"host": "", "path": "/c:/path/to/file", "local": true, "windows_path": `c:\path\to\file`}},
		{"file:c:/path/to/file", map[string]any{"host": nil, "path": "c:/path/to/file", "local": true, "windows_path": `c:\path\to\file`}},
		{"file:///c%7C/path", map[string]any{"host": "", "path": "/c|/path", "local": true, "windows_path": `c:\path`}},
		{"file://server/c:/x", map[string]any{"host": "server", "path": "/c:/x", "local": false, "windows_path": `\\server\c:\x`}},
		// RFC 2392 2's examples.
		{"mid:960830.1639@XIson.com/partA.960830.1639@XIson.com", map[string]any{"message_id": "960830.1639@XIson.com", "content_id": "partA.960830.1639@XIson.com"}},
		{"cid:foo4%25foo1@bar.net", map[string]any{"message_id": nil, "content_id": "foo4%foo1@bar.net"}},
	}
	for _, tt := range tests {
		if got := viewJSON(t, tt.url); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %v\nwant %v", tt.url, got, tt.want)
		}
	}
	for _, s := range []string{"news:", "news:a/b", "nntp:group", "nntp://h/g/x", "telnet://h/path", "wais://h/", "wais://h/db/x", "mid:", "mid:a/", "mailto://h/x", "prospero://h/x;=v"} {
		if _, err := registry.View(uri.MustParse(s)); err == nil {
			t.Errorf("%s: no error", s)
		}
	}
}

func TestStripPrefix(t *testing.T) {
	// The 1994 draft: "the whole string must start with a constant
	// prefix "URL:""; the 1998 draft Appendix E: "<URL:http://...>".
	for _, tt := range []struct {
		in, out string
		ok      bool
	}{
		{"URL:ftp://foo.bar/x", "ftp://foo.bar/x", true},
		{"url:http://a/", "http://a/", true},
		{"http://a/", "http://a/", false},
		{"URL", "URL", false},
	} {
		if out, ok := StripPrefix(tt.in); out != tt.out || ok != tt.ok {
			t.Errorf("StripPrefix(%q) = %q, %v", tt.in, out, ok)
		}
	}
}

// TestEquivalence: the schemes' equivalence rules are uri.Equal's
// (RFC 3986 6.2.3), and scheme.Registry agrees.
func TestEquivalence(t *testing.T) {
	tests := []struct {
		a, b  string
		equal bool
	}{
		{"http://a", "http://a:80/", true},              // RFC 9110 4.2.3
		{"ftp://h:21/x", "ftp://h/x", true},             // RFC 1738 3.2
		{"gopher://h", "gopher://h:70/1", true},         // RFC 4266 2.1
		{"gopher://h/", "gopher://h/0", false},          // another type
		{"nntp://h:119/g", "nntp://h/g", true},          // RFC 5538 2.2
		{"telnet://h:23/", "telnet://h/", true},         // RFC 4248 2
		{"rlogin://h:513", "rlogin://h", true},          // rlogin's port
		{"wais://h:210/db", "wais://h/db", true},        // RFC 4156 2
		{"prospero://h:1525/x", "prospero://h/x", true}, // RFC 4157 2
		{"mailto:A@EXAMPLE.COM", "mailto:A@example.com", true},
		{"mailto:A@example.com", "mailto:a@example.com", false},
		{"file://localhost/x", "file:///x", true},              // RFC 8089 2
		{"ftp://h/x;type=A", "ftp://h/x;type=a", true},         // RFC 1738 3.2.2, the typecode's case
		{"ftp://h/X;type=a", "ftp://h/x;type=a", false},        // the name keeps its case
		{"telnet://h/", "telnet://h", true},                    // RFC 4248 2: "may also end with a "/""
		{"tn3270://h:23/", "tn3270://h", true},                 // RFC 6270 2
		{"mailto:a@b?Subject=x", "mailto:a@b?subject=x", true}, // RFC 6068 2: header field names
		{"mailto:a@b?subject=X", "mailto:a@b?subject=x", false},
		{"file://other/x", "file:///x", false},
	}
	for _, tt := range tests {
		a, b := uri.MustParse(tt.a), uri.MustParse(tt.b)
		if got := uri.Equal(a, b); got != tt.equal {
			t.Errorf("uri.Equal(%q, %q) = %v", tt.a, tt.b, got)
		}
		if got := registry.Equal(a, b); got != tt.equal {
			t.Errorf("Registry().Equal(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}

// TestHTTPJSONEveryForm: the JSON of an http or https URL (its writer
// has a path for URLs whose parts stand in their text as they are sent,
// and one for the others) is, byte for byte, the view's accessors
// encoded in order, for every combination of the scheme's case,
// userinfo, host kind, port, path, query and fragment.
func TestHTTPJSONEveryForm(t *testing.T) {
	enc := func(v any) string {
		var b strings.Builder
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false)
		if err := e.Encode(v); err != nil {
			t.Fatal(err)
		}
		return strings.TrimSuffix(b.String(), "\n")
	}
	n := 0
	for _, scheme := range []string{"http", "https", "HTTP", "Https"} {
		for _, ui := range []string{"", "u@", "u:p@", "@"} {
			for _, host := range []string{"a", "www.example.com", "EX.com", "ex%41mple.com", "192.0.2.1", "[::1]", "[fe80::1%25en0]", "[v1.x]", ""} {
				for _, port := range []string{"", ":", ":80", ":443", ":8080", ":25"} {
					for _, path := range []string{"", "/", "/a/b", "/%22x"} {
						for _, query := range []string{"", "?", "?a=b", "?w1+w2", "?%0A+x"} {
							for _, frag := range []string{"", "#", "#f"} {
								s := scheme + "://" + ui + host + port + path + query + frag
								u, err := uri.ParseWith(s, uri.Options{AllowZoneID: true})
								if err != nil {
									continue
								}
								v, verr := ParseHTTP(u)
								got, err := AppendJSON(nil, u)
								if (err != nil) != (verr != nil) {
									t.Fatalf("%s: AppendJSON error %v, ParseHTTP error %v", s, err, verr)
								}
								if err != nil {
									continue
								}
								var port any
								if v.Port() >= 0 {
									port = v.Port()
								}
								words := v.SearchWords()
								want := `{"host":` + enc(v.Host()) + `,"port":` + enc(port) + `,"default_port":` + enc(v.DefaultPort()) +
									`,"request_target":` + enc(v.RequestTarget()) + `,"absolute_form":` + enc(v.AbsoluteForm()) +
									`,"host_header":` + enc(v.HostHeader()) + `,"search_words":` + enc(words) +
									`,"warnings":` + enc(append([]Warning{}, v.Warnings()...)) + `}`
								if string(got) != want {
									t.Fatalf("%s:\n got %s\nwant %s", s, got, want)
								}
								n++
							}
						}
					}
				}
			}
		}
	}
	if n < 5000 {
		t.Fatalf("only %d URLs tried", n)
	}
}

// TestAppendJSONAgrees: the fast path of AppendJSON for http and https
// writes exactly what HTTP.MarshalJSON writes.
func TestAppendJSONAgrees(t *testing.T) {
	for _, s := range []string{"http://a", "HTTPS://u:p@[::1]:8443/s?a+b%2Bc#f", "http://a:25/?", "http://%61b/x?%22q%5C",
		"https://h:443/p?a+%0A", "http:///x", "http://h:/", "hTTp://x.y/a/b/c?d=e&f=g+h"} {
		u := uri.MustParse(s)
		got, err := AppendJSON(nil, u)
		v, verr := ParseHTTP(u)
		if (err != nil) != (verr != nil) {
			t.Errorf("%s: AppendJSON error %v, ParseHTTP error %v", s, err, verr)
			continue
		}
		if err != nil {
			continue
		}
		want, _ := v.MarshalJSON()
		if string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", s, got, want)
		}
	}
}
