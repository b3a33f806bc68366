package main

import (
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/scheme"
	"github.com/urikit/urikit/uri"
)

// trurlExamples are the documented examples of curl's trurl (trurl.md,
// github.com/curl/trurl at f748e9b7797b7987f934b785a4bbf8819fb110ba) for
// the operations uri get and uri edit share with it, where RFC 3986
// gives trurl's answer. Each is written with our flags; the trurl
// command line is quoted.
var trurlExamples = []struct {
	trurl string
	args  []string
	want  string
}{
	{`trurl http://hello -s path="pony"`, []string{"edit", "--set", "path=pony", "http://hello"}, "http://hello/pony"},
	{`trurl http://hello -s path="/pony"`, []string{"edit", "--set", "path=/pony", "http://hello"}, "http://hello/pony"},
	{`trurl http://twelve/three?hello --append path=four`, []string{"edit", "--append", "path=four", "http://twelve/three?hello"}, "http://twelve/three/four?hello"},
	{`trurl "http://alpha/?one=real&two=fake&three=alsoreal" --sort-query`, []string{"edit", "--sort-query", "http://alpha/?one=real&two=fake&three=alsoreal"}, "http://alpha/?one=real&three=alsoreal&two=fake"},
	{`trurl http://horse?elephant -g '{query}'`, []string{"get", "{query}", "http://horse?elephant"}, "elephant"},
	{`trurl http://horse#elephant -g '{fragment}'`, []string{"get", "{fragment}", "http://horse#elephant"}, "elephant"},
	{`trurl https://user%3a%40:secret@odd/ -g '{user}'`, []string{"get", "{user}", "https://user%3a%40:secret@odd/"}, "user:@"},
	{`trurl https://user:secr%65t@odd/ -g '{password}'`, []string{"get", "{password}", "https://user:secr%65t@odd/"}, "secret"},
	{`trurl https://odd/ -g '{scheme}'`, []string{"get", "{scheme}", "https://odd/"}, "https"},
	{`trurl --url https://curl.se/we/are.html --redirect ../here.html`, []string{"edit", "--redirect", "../here.html", "https://curl.se/we/are.html"}, "https://curl.se/here.html"},
	// These differ from trurl's text only by the empty path, which
	// trurl writes "/" and we keep as it is (see trurlDifferences):
	// the inputs here have the "/".
	{`trurl http://host?name=hello --append query=search=life`, []string{"edit", "--append", "query=search=life", "http://host/?name=hello"}, "http://host/?name=hello&search=life"},
	{`trurl 'https://example.com?a12=hej&a23=moo&b12=foo' --qtrim 'a*'`, []string{"edit", "--trim", "query=a*", "https://example.com/?a12=hej&a23=moo&b12=foo"}, "https://example.com/?b12=foo"},
	{`trurl "http://horse#elephant" -s "fragment=#zebra"`, []string{"edit", "--set", "fragment=#zebra", "http://horse/#elephant"}, "http://horse/#%23zebra"},
	{`trurl http:/a --default-port`, []string{"edit", "--default-port", "http://a/"}, "http://a:80/"},
	{`trurl http:/a:80`, []string{"edit", "--no-default-port", "http://a:80/"}, "http://a/"},
	{`trurl http://åäö/ --punycode`, []string{"edit", "--set", "host=åäö", "http://x/"}, "http://xn--4cab6c/"},
}

// trurlDifferences are trurl's documented examples where we give
// another answer on purpose, and why.
var trurlDifferences = []struct {
	trurl, trurlSays string
	args             []string
	want, why        string
}{
	{`trurl http://host?name=hello --append query=search=life`, "http://host/?name=hello&search=life",
		[]string{"edit", "--append", "query=search=life", "http://host?name=hello"}, "http://host?name=hello&search=life",
		"an untouched component keeps its text: the empty path stays empty (RFC 3986 6.2.3 makes it equivalent to \"/\" for http; uri normalize writes it)"},
	{`trurl http://horse?elephant -s "query=?elephant"`, "http://horse/?%3felephant",
		[]string{"edit", "--set", "query=?elephant", "http://horse/?elephant"}, "http://horse/??elephant",
		"\"?\" is allowed in a query (RFC 3986 3.4) and is not encoded; an encoding we write is upper case (2.1)"},
	{`trurl ftps://example.com:2021/p%61th -g '{url}'`, "ftps://example.com:2021/path",
		[]string{"get", "{url}", "ftps://example.com:2021/p%61th"}, "ftps://example.com:2021/p%61th",
		"{url} is the reference as written; uri normalize gives the normal form"},
	{`trurl http://hej/one/../two/../three/./four`, "http://hej/three/four",
		[]string{"edit", "--set", "fragment=x", "http://hej/one/../two/../three/./four"}, "http://hej/one/../two/../three/./four#x",
		"edit changes only what it is asked to; dot segments are removed by uri normalize (RFC 3986 6.2.2.3)"},
	{`trurl http:/a --default-port`, "http://a:80/",
		[]string{"edit", "--default-port", "http:/a"}, `error: 5: the scheme needs an authority ("//host") in host`,
		"\"http:/a\" has no authority in RFC 3986 (3.2: it starts with \"//\"), so it is no http URL (RFC 9110 4.2.1) and there is no port to write; trurl guesses one"},
}

func TestTrurlExamples(t *testing.T) {
	for _, tt := range trurlExamples {
		out, errOut, code := uriCmd(t, "", tt.args...)
		if code != 0 || out != tt.want+"\n" {
			t.Errorf("%s\n  uri %s = %q (exit %d, %s), want %q", tt.trurl, strings.Join(tt.args, " "), out, code, errOut, tt.want)
		}
	}
	for _, tt := range trurlDifferences {
		out, errOut, code := uriCmd(t, "", tt.args...)
		wantCode := 0
		if strings.HasPrefix(tt.want, "error: ") {
			wantCode = 1
		}
		if code != wantCode || out != tt.want+"\n" || tt.want == tt.trurlSays {
			t.Errorf("%s (trurl: %s)\n  uri %s = %q (exit %d, %s), want %q: %s", tt.trurl, tt.trurlSays, strings.Join(tt.args, " "), out, code, errOut, tt.want, tt.why)
		}
	}
}

func TestGet(t *testing.T) {
	const in = "https://us%65r:p%40ss@Example.COM:8443/a%20b/c?x=1+2&utm_source=m&x=3&e=%0A#fr%61g"
	tests := []struct{ tmpl, want string }{
		{"{scheme}|{user}|{password}|{userinfo}|{host}|{port}", "https|user|p@ss|user:p@ss|Example.COM|8443"},
		{"{path}|{query}|{fragment}", "/a b/c|x=1+2&utm_source=m&x=3&e=\\n|frag"},
		{"{:user}|{:password}|{:userinfo}|{:path}|{:query}|{:fragment}", "us%65r|p%40ss|us%65r:p%40ss|/a%20b/c|x=1+2&utm_source=m&x=3&e=%0A|fr%61g"},
		{"{query:x}|{query-all:x}|{query:nope}|{query:e}", "1 2|1 2 3||\\n"},
		{"{url}", in},
		{"{default:port}", "8443"},
		{"{{{host}}}", "{Example.COM}"},
		{"host={host} ", "host=Example.COM "},
	}
	for _, tt := range tests {
		out, errOut, code := uriCmd(t, "", "get", tt.tmpl, in)
		if code != 0 || out != tt.want+"\n" {
			t.Errorf("get %q = %q (exit %d, %s), want %q", tt.tmpl, out, code, errOut, tt.want)
		}
	}
	// Undefined components give "", the scheme's default port fills in.
	out, _, _ := uriCmd(t, "", "get", "[{user}][{port}][{query}][{fragment}][{default:port}]", "http://a/")
	if out != "[][][][][80]\n" {
		t.Errorf("undefined: %q", out)
	}
	out, _, _ = uriCmd(t, "", "get", "[{host}][{default:port}]", "mailto:a@b")
	if out != "[][]\n" {
		t.Errorf("no authority: %q", out)
	}
}

func TestGetJSON(t *testing.T) {
	out, _, code := uriCmd(t, "", "get", "--json", "{host}:{port} {query:a} {query:b} {host}", "http://h/?a=1")
	objs := jsonLines(t, out)
	want := map[string]any{"input": "http://h/?a=1", "host": "h", "port": nil, "query:a": "1", "query:b": nil}
	if code != 0 || len(objs) != 1 || !reflect.DeepEqual(objs[0], want) {
		t.Errorf("get --json = %s, want %v", out, want)
	}
	// The keys in the template's order, once each.
	if !strings.HasPrefix(out, `{"input":"http://h/?a=1","host":"h","port":null,"query:a":"1","query:b":null}`) {
		t.Errorf("get --json key order: %s", out)
	}
}

func TestGetErrors(t *testing.T) {
	for _, tmpl := range []string{"{nope}", "{", "a}b", "{:url}", "{:default:port}"} {
		_, errOut, code := uriCmd(t, "", "get", tmpl, "http://a/")
		if code != 2 || !strings.Contains(errOut, "template") {
			t.Errorf("get %q: exit %d, %q; want a usage error about the template", tmpl, code, errOut)
		}
	}
	out, _, code := uriCmd(t, "", "get", "{host}", "http://a b/", "http://ok/")
	if code != 1 || !strings.HasPrefix(out, "error: 8: ") || !strings.HasSuffix(out, "\nok\n") {
		t.Errorf("failed input: exit %d, %q", code, out)
	}
	// Files and grammar flags are shared.
	out, _, code = uriCmd(t, "http://a/\nhttp://b/\n", "get", "{host}", "-f", "-")
	if code != 0 || out != "a\nb\n" {
		t.Errorf("get -f -: %q", out)
	}
	out, _, code = uriCmd(t, "", "get", "{host}", "--zone-id", "http://[fe80::1%25en0]/")
	if code != 0 || out != "[fe80::1%en0]\n" {
		t.Errorf("get --zone-id: %q %d", out, code)
	}
	out, _, code = uriCmd(t, "", "get", "--rfc", "2396", "{host}", "http://a_b/")
	if code != 0 || out != "a_b\n" {
		t.Errorf("get --rfc 2396: %q %d", out, code)
	}
}

func TestEdit(t *testing.T) {
	tests := []struct {
		args []string
		in   string
		want string
	}{
		{[]string{"--set", "scheme=https"}, "http://a/", "https://a/"},
		{[]string{"--set", "user=me you"}, "http://a/", "http://me%20you@a/"},
		{[]string{"--set", "password=s:e"}, "http://me@a/", "http://me:s:e@a/"},
		{[]string{"--set", "userinfo=a:b"}, "http://a/", "http://a:b@a/"},
		{[]string{"--set", "user:=m%65"}, "http://u:p@a/", "http://m%65:p@a/"},
		{[]string{"--set", "password:=%70"}, "http://u@a/", "http://u:%70@a/"},
		{[]string{"--set", "host=EXAMPLE.org"}, "http://a/", "http://EXAMPLE.org/"},
		{[]string{"--set", "host=::1"}, "http://a/", "http://[::1]/"},
		{[]string{"--set", "port=8080"}, "http://a/", "http://a:8080/"},
		{[]string{"--set", "port="}, "http://a:8080/", "http://a/"},
		{[]string{"--set", "path=/a b"}, "http://a/x", "http://a/a%20b"},
		{[]string{"--set", "path:=/a%20b"}, "http://a/x", "http://a/a%20b"},
		{[]string{"--set", "query="}, "http://a/", "http://a/?"},
		{[]string{"--set", "query=a b"}, "http://a/", "http://a/?a%20b"},
		{[]string{"--set", "query:=a=%20"}, "http://a/", "http://a/?a=%20"},
		{[]string{"--set", "fragment=x y"}, "http://a/", "http://a/#x%20y"},
		{[]string{"--set", "fragment:=%7E"}, "http://a/", "http://a/#%7E"},
		{[]string{"--clear", "port"}, "http://a:1/", "http://a/"},
		{[]string{"--clear", "query"}, "http://a/?", "http://a/"},
		{[]string{"--clear", "password"}, "http://u:p@a/", "http://u@a/"},
		{[]string{"--clear", "user"}, "http://u:p@a/", "http://a/"},
		// RFC 9110 4.2.1: an http URL without a host is invalid, so
		// the edit fails rather than print one.
		{[]string{"--clear", "host"}, "http://u@a:1/p", `error: the scheme needs an authority ("//host") in host of "http:/p"`},
		{[]string{"--clear", "host"}, "foo://u@a:1/p", "foo:/p"},
		{[]string{"--append", "path=a/b"}, "http://a/x/", "http://a/x/a%2Fb"},
		{[]string{"--append", "query=k=v w"}, "http://a/?a=1", "http://a/?a=1&k=v%20w"},
		{[]string{"--append", "query=k"}, "http://a/", "http://a/?k="},
		{[]string{"--trim", "query=utm_*"}, "http://a/?utm_source=x&id=1&utm_medium=y", "http://a/?id=1"},
		{[]string{"--trim", "query=utm_*", "--trim", "query=fbclid"}, "http://a/?fbclid=1&utm_a=2", "http://a/"},
		{[]string{"--keep", "query=id"}, "http://a/?utm_source=x&id=1", "http://a/?id=1"},
		{[]string{"--sort-query"}, "http://a/?b=1&a=2&a=1", "http://a/?a=1&a=2&b=1"},
		{[]string{"--default-port"}, "https://a/", "https://a:443/"},
		{[]string{"--default-port"}, "https://a:/", "https://a:443/"},
		{[]string{"--default-port"}, "https://a:8443/", "https://a:8443/"},
		{[]string{"--default-port"}, "foo://a/", "foo://a/"},
		{[]string{"--no-default-port"}, "https://a:443/", "https://a/"},
		{[]string{"--no-default-port"}, "https://a:8443/", "https://a:8443/"},
		// RFC 9110 10.2.2: "If the Location value provided in a 3xx
		// (Redirection) response does not have a fragment component, a
		// user agent MUST process the redirection as if the value
		// inherits the fragment component of the URI reference used to
		// generate the target URI".
		{[]string{"--redirect", "/x?y"}, "http://a/b/c?q#f", "http://a/x?y#f"},
		{[]string{"--redirect", "/x?y#g"}, "http://a/b/c?q#f", "http://a/x?y#g"},
		// The 1998 draft's Appendix C.2: "../../../g" = "http://a/../g",
		// as uri resolve --rfc 2396 gives; --dots drop strips the ".."
		// as "some implementations" do.
		{[]string{"--redirect", "../../../g", "--rfc", "2396"}, "http://a/b/c", "http://a/../../g"},
		{[]string{"--redirect", "../../../g", "--rfc", "2396", "--dots", "drop"}, "http://a/b/c", "http://a/g"},
		{[]string{"--redirect", "../../../g", "--rfc", "2396", "--dots", "reject"}, "http://a/b/c", `error: ".." above the root of the base path of "../../../g"`},
		{[]string{"--redirect", "../../../g"}, "http://a/b/c", "http://a/g"}, // RFC 3986 5.2.4 always drops them
		{[]string{"--redirect", "ftp://f/x", "--allow-any-scheme"}, "http://a/b", "ftp://f/x"},
		// The trims and keeps apply before the appends (issue 17).
		{[]string{"--trim", "query=page", "--append", "query=page=4"}, "http://a/?x=1&page=3&y=2", "http://a/?x=1&y=2&page=4"},
		{[]string{"--replace", "query=page=4"}, "http://a/?x=1&page=3&y=2&page=5", "http://a/?x=1&page=4&y=2"},
		{[]string{"--replace", "query=page=4"}, "http://a/?x=1", "http://a/?x=1&page=4"},
		// A ";" in a value is encoded, as url.Values.Encode does: Go's
		// url.ParseQuery drops a pair holding one, and servers that split
		// at ";" (HTML 4.01 B.2.2) would see two pairs.
		{[]string{"--replace", "query=next=/home;admin"}, "http://a/?next=1", "http://a/?next=/home%3Badmin"},
		{[]string{"--append", "query=a;b=c;d"}, "http://a/?x=1;y", "http://a/?x=1;y&a%3Bb=c%3Bd"},
		{[]string{"--query-separator", ";", "--trim", "query=search"}, "https://curl.se?search=fool;page=5", "https://curl.se?page=5"},
		{[]string{"--redirect", "#g"}, "http://a/b#f", "http://a/b#g"},
		// The order is fixed: --set before --append, --trim before
		// --sort-query, whatever the command line says.
		{[]string{"--append", "query=z=1", "--set", "query=b=2"}, "http://a/", "http://a/?b=2&z=1"},
		{[]string{"--sort-query", "--trim", "query=b"}, "http://a/?c&b&a", "http://a/?a&c"},
		// Repairs of RFC 3986 5.3.
		{[]string{"--set", "path=x"}, "http://a", "http://a/x"},
		{[]string{"--set", "path=//x"}, "foo:y", "foo:/.//x"},
		{[]string{"--set", "path=a:b"}, "x/y", "./a:b"},
		// An input on which trurl 0.16.1 --qtrim crashes (SIGSEGV):
		// pairs with an empty key.
		{[]string{"--trim", "query=utm_*"}, "https://web.wm.edu/wmcar/Danvilledig/index.htm?&amp;=&amp;svr=www", "https://web.wm.edu/wmcar/Danvilledig/index.htm?&amp;=&amp;svr=www"},
		{[]string{"--trim", "query=amp;"}, "https://a/?&amp;=&amp;svr=www", "https://a/?amp;svr=www"},
		// Untouched components keep their text.
		{[]string{"--set", "port=1"}, "HTTP://%41@A/%7e?%7E#%7e", "HTTP://%41@A:1/%7e?%7E#%7e"},
	}
	for _, tt := range tests {
		args := append(append([]string{"edit"}, tt.args...), tt.in)
		out, errOut, code := uriCmd(t, "", args...)
		wantCode := 0
		if strings.HasPrefix(tt.want, "error: ") {
			wantCode = 1
		}
		if code != wantCode || out != tt.want+"\n" {
			t.Errorf("uri %s = %q (exit %d, %s), want %q", strings.Join(args, " "), out, code, errOut, tt.want)
		}
	}
}

func TestEditErrors(t *testing.T) {
	usage := [][]string{
		{"--set", "nope=1"},
		{"--set", "port"},
		{"--set", "port=x"},
		{"--set", "scheme=1a"},
		{"--set", "host=1::2::3"},
		{"--set", "query:=a#b"},
		{"--set", "user:=a:b"},
		{"--clear", "nope"},
		{"--append", "fragment=x"},
		{"--trim", "path=x"},
		{"--trim", "query=[a"},
		{"--keep", "x"},
		{"--default-port", "--no-default-port"},
		{"--redirect", "a b"},
		{"--dots", "drop"},
		{"--dots", "drop", "--redirect", "x"}, // RFC 3986 has no choice to make
		{"--dots", "up", "--redirect", "x", "--rfc", "2396"},
	}
	for _, args := range usage {
		all := append(append([]string{"edit"}, args...), "http://a/")
		out, errOut, code := uriCmd(t, "", all...)
		if code != 2 || out != "" || !strings.Contains(errOut, "uri edit: ") {
			t.Errorf("uri %s: exit %d, %q, %q; want a usage error", strings.Join(all, " "), code, out, errOut)
		}
	}
	// RFC 9110 10.2.2 and 4.2.1: a client follows only to http(s) with a host.
	for _, loc := range []string{"javascript:alert(1)", "ftp://f/x", "http:///x", "http:x"} {
		out, _, code := uriCmd(t, "", "edit", "--redirect", loc, "http://a/b")
		if code != 1 || !strings.HasPrefix(out, "error: --redirect: the result") {
			t.Errorf("--redirect %s: %q, exit %d", loc, out, code)
		}
	}
	// --new builds from the operations alone.
	if out, _, code := uriCmd(t, "", "edit", "--new", "--set", "scheme=ftp", "--set", "host=example.com", "--set", "path=/a b"); code != 0 || out != "ftp://example.com/a%20b\n" {
		t.Errorf("--new: %q, exit %d", out, code)
	}
	// Per input: an invalid input, a redirect against a relative one.
	out, _, code := uriCmd(t, "", "edit", "--redirect", "x", "a/b", "http://a b/", "http://a/b")
	if code != 1 || out != "error: --redirect needs an input with a scheme (RFC 3986 5.1)\nerror: 8: invalid character ' ' in host\nhttp://a/x\n" {
		t.Errorf("per-input errors: exit %d, %q", code, out)
	}
}

// TestEditMixedUserinfo: a user name or password given as written
// (COMPONENT:=VALUE) must be valid userinfo (RFC 3986 3.2.1: userinfo =
// *( unreserved / pct-encoded / sub-delims / ":" )) whatever the other
// --set does; the error names the userinfo and the offset of the byte.
// These printed "http://evil.example#:x@good.example/p" (host
// evil.example), panicked, and blamed the port.
func TestEditMixedUserinfo(t *testing.T) {
	tests := []struct {
		args []string
		in   string
		want string
	}{
		{[]string{"--set", "user:=evil.example#", "--set", "password=x"}, "http://good.example/p",
			`invalid component "evil.example#:x": invalid character '#' at offset 12 in userinfo`},
		{[]string{"--set", "password=x", "--set", "user:=evil.example#"}, "http://good.example/p",
			`invalid component "evil.example#:x": invalid character '#' at offset 12 in userinfo`},
		{[]string{"--set", "password:=?", "--set", "user=x"}, "a:b",
			`invalid component "x:?": invalid character '?' at offset 2 in userinfo`},
		{[]string{"--set", "password:=x/evil", "--set", "user=u"}, "http://h/",
			`invalid component "u:x/evil": invalid character '/' at offset 3 in userinfo`},
	}
	for _, tt := range tests {
		args := append(append([]string{"edit"}, tt.args...), tt.in)
		out, errOut, code := uriCmd(t, "", args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("uri %s: exit %d, %q, %q; want a usage error %q", strings.Join(args, " "), code, out, errOut, tt.want)
		}
	}
	// Decoded values are encoded: the host stays good.example.
	out, _, code := uriCmd(t, "", "edit", "--set", "user=evil.example#", "--set", "password:=x", "http://good.example/p")
	if code != 0 || out != "http://evil.example%23:x@good.example/p\n" {
		t.Errorf("decoded user: exit %d, %q", code, out)
	}
}

// TestEditRedirect2396: edit --redirect with --rfc 2396 follows the
// draft's section 5.2 as uri resolve does: every example of its Appendix
// C whose target is an http URL with a host (the only ones a client
// follows, RFC 9110 10.2.2) gives the draft's answer, "../../../g" =
// "http://a/../g" included.
func TestEditRedirect2396(t *testing.T) {
	n := 0
	for _, tt := range draft1998Examples {
		if !strings.HasPrefix(tt.want, "http://") {
			continue
		}
		n++
		out, errOut, code := uriCmd(t, "", "edit", "--rfc", "2396", "--redirect", tt.ref, "--", draft1998Base)
		if code != 0 || out != tt.want+"\n" {
			t.Errorf("edit --rfc 2396 --redirect %q %s = %q, exit %d, %s; want %q", tt.ref, draft1998Base, out, code, errOut, tt.want)
		}
	}
	if n < 30 {
		t.Errorf("only %d examples", n)
	}
}

func TestEditJSON(t *testing.T) {
	out, _, code := uriCmd(t, "", "edit", "--json", "--set", "port=81", "-f", "-", "--rfc", "3986", "--zone-id")
	if code != 0 || out != "" {
		t.Errorf("no input: %q", out)
	}
	out, _, code = uriCmd(t, "http://[fe80::1%25en0]/p?q\n", "edit", "--json", "--set", "port=81", "-f", "-", "--zone-id")
	objs := jsonLines(t, out)
	for _, o := range objs {
		delete(o, "scheme_data")
		delete(o, "params")
	}
	want := parseFields("http://[fe80::1%25en0]/p?q", "http", nil, "[fe80::1%25en0]", "ipv6", "81", "/p", "q", nil)
	if code != 0 || len(objs) != 1 || !reflect.DeepEqual(objs[0], want) {
		t.Errorf("edit --json = %s", out)
	}
}

// TestEditCommandProperty: random edit command lines over the corpora;
// every output line parses, and components the operations do not touch
// keep their text.
func TestEditCommandProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	type opset struct {
		args    []string
		touched string // components that may change
	}
	ops := []opset{
		{[]string{"--set", "port=8080"}, "host port"},
		{[]string{"--set", "path=/a b"}, "path"},
		{[]string{"--set", "fragment=#"}, "fragment"},
		{[]string{"--clear", "fragment"}, "fragment"},
		{[]string{"--trim", "query=utm_*"}, "query"},
		{[]string{"--sort-query"}, "query"},
		{[]string{"--append", "query=a=b"}, "query"},
		{[]string{"--append", "path=x"}, "path"},
		{[]string{"--no-default-port"}, "port"},
		{[]string{"--set", "user=u"}, "host userinfo"},
	}
	var lines []string
	for _, name := range testshared.CorpusNames {
		c := testshared.LoadCorpus(t, name)
		for i, l := range c.Lines {
			if (!c.Full || i%50 == 0) && !strings.ContainsAny(l, "\r\n") {
				lines = append(lines, l)
			}
		}
	}
	input := strings.Join(lines, "\n") + "\n"
	for round := range 6 {
		var args []string
		touched := ""
		for range 1 + rng.IntN(3) {
			o := ops[rng.IntN(len(ops))]
			args = append(args, o.args...)
			touched += " " + o.touched
		}
		out, errOut, _ := uriCmd(t, input, append([]string{"edit"}, args...)...)
		if errOut != "" {
			t.Fatalf("round %d: %s", round, errOut)
		}
		got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(got) != len(lines) {
			t.Fatalf("round %d: %d output lines for %d inputs", round, len(got), len(lines))
		}
		for i, g := range got {
			u, err := uri.Parse(lines[i])
			if err != nil || scheme.Check(u) != nil { // not a URL of its scheme ("https://") either
				if !strings.HasPrefix(g, "error: ") {
					t.Fatalf("%q: want an error line, got %q", lines[i], g)
				}
				continue
			}
			if i := strings.LastIndex(g, ` of "`); strings.HasPrefix(g, "error: ") && i >= 0 {
				// The edit broke the rules of the scheme (a URN whose
				// NID holds a "/"): the result must parse and fail them.
				r, err := strconv.Unquote(g[i+4:])
				if v, perr := uri.Parse(r); err != nil || perr != nil || scheme.Check(v) == nil {
					t.Fatalf("edit %v of %q: %q, but the result follows its scheme's rules", args, lines[i], g)
				}
				continue
			}
			v, err := uri.Parse(g)
			if err != nil || scheme.Check(v) != nil {
				t.Fatalf("edit %v of %q printed %q, which does not parse or breaks its scheme's rules: %v", args, lines[i], g, err)
			}
			same := func(name, a, b string) {
				if !strings.Contains(touched, name) && a != b {
					t.Fatalf("edit %v of %q: untouched %s changed %q -> %q", args, lines[i], name, a, b)
				}
			}
			same("scheme", u.Scheme(), v.Scheme())
			same("userinfo", u.Userinfo(), v.Userinfo())
			same("host", u.Host(), v.Host())
			same("port", u.Port(), v.Port())
			if !strings.Contains(touched, "host") {
				same("path", u.Path(), v.Path())
			}
			same("query", u.Query(), v.Query())
			same("fragment", u.Fragment(), v.Fragment())
		}
	}
}

// TestFileArgumentNote: "uri check urls.txt" checks the string, and says
// on standard error how to read the file instead (issue 6).
func TestFileArgumentNote(t *testing.T) {
	dir := t.TempDir()
	name := dir + "/urls.txt"
	if err := os.WriteFile(name, []byte("http://a b/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := uriCmd(t, "", "check", name)
	if code != 0 || out != "" || !strings.Contains(errOut, "use -f "+name) {
		t.Errorf("check FILE: exit %d, %q, %q", code, out, errOut)
	}
	out, errOut, code = uriCmd(t, "", "check", "-f", name)
	if code != 1 || !strings.Contains(out, "invalid character") || errOut != "" {
		t.Errorf("check -f FILE: exit %d, %q, %q", code, out, errOut)
	}
}
