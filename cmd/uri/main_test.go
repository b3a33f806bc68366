package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/scheme"
	"github.com/urikit/urikit/uri"
)

// uriCmd runs the command in-process with stdin and returns its standard
// output, standard error and exit status.
func uriCmd(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), code
}

// jsonLines decodes JSON Lines output into one map per line, checking
// that every line is one JSON object.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for _, line := range strings.SplitAfter(out, "\n") {
		if line == "" {
			continue
		}
		if !strings.HasSuffix(line, "\n") {
			t.Fatalf("output line %q does not end with a newline", line)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("output line %q is not a JSON object: %v", line, err)
		}
		objs = append(objs, m)
	}
	return objs
}

// null marks an undefined component in the expected JSON objects.
var null any = nil

// parseFields builds the expected JSON object of parse.
func parseFields(in string, scheme, userinfo, host, hostType, port any, path string, query, fragment any) map[string]any {
	return map[string]any{
		"input": in, "scheme": scheme, "userinfo": userinfo, "host": host,
		"host_type": hostType, "port": port, "path": path, "query": query,
		"fragment": fragment,
	}
}

func TestParseJSON(t *testing.T) {
	tests := []map[string]any{
		// RFC 3986 3 (the example of the components)
		parseFields("foo://example.com:8042/over/there?name=ferret#nose", "foo", null, "example.com", "reg-name", "8042", "/over/there", "name=ferret", "nose"),
		parseFields("urn:example:animal:ferret:nose", "urn", null, null, null, null, "example:animal:ferret:nose", null, null),
		// RFC 3986 1.1.2
		parseFields("ftp://ftp.is.co.za/rfc/rfc1808.txt", "ftp", null, "ftp.is.co.za", "reg-name", null, "/rfc/rfc1808.txt", null, null),
		parseFields("ldap://[2001:db8::7]/c=GB?objectClass?one", "ldap", null, "[2001:db8::7]", "ipv6", null, "/c=GB", "objectClass?one", null),
		parseFields("mailto:John.Doe@example.com", "mailto", null, null, null, null, "John.Doe@example.com", null, null),
		parseFields("tel:+1-816-555-1212", "tel", null, null, null, null, "+1-816-555-1212", null, null),
		parseFields("telnet://192.0.2.16:80/", "telnet", null, "192.0.2.16", "ipv4", "80", "/", null, null),
		// issue 2: undefined and empty components differ
		parseFields("foo://a/b?#", "foo", null, "a", "reg-name", null, "/b", "", ""),
		parseFields("foo://a/b", "foo", null, "a", "reg-name", null, "/b", null, null),
		// RFC 3986 3.2.3: the port may be empty; 3.2.1 userinfo; 3.2.2 empty reg-name
		parseFields("http://u:p@a:/", "http", "u:p", "a", "reg-name", "", "/", null, null),
		parseFields("file:///etc/hosts", "file", null, "", "reg-name", null, "/etc/hosts", null, null),
		parseFields("http://@a", "http", "", "a", "reg-name", null, "", null, null),
		// issue 2: IPvFuture literals are valid (RFC 3986 3.2.2)
		parseFields("http://[v7.x]/", "http", null, "[v7.x]", "ipvfuture", null, "/", null, null),
		// RFC 3986 4.2: relative references; 4.4 the empty reference
		parseFields("//g", null, null, "g", "reg-name", null, "", null, null),
		parseFields("../g?y#s", null, null, null, null, null, "../g", "y", "s"),
		parseFields("", null, null, null, null, null, "", null, null),
		parseFields("#", null, null, null, null, null, "", null, ""),
		// JSON without HTML escaping (RFC 8259 needs none)
		parseFields("?a&b", null, null, null, null, null, "", "a&b", null),
	}
	for _, want := range tests {
		in := want["input"].(string)
		out, errOut, code := uriCmd(t, "", "parse", "--json", "--", in)
		if code != 0 || errOut != "" {
			t.Errorf("parse --json %q: exit %d, stderr %q", in, code, errOut)
			continue
		}
		got := jsonLines(t, out)
		if len(got) == 1 {
			delete(got[0], "scheme_data") // TestSchemeData
			delete(got[0], "params")      // TestParseJSONParams
		}
		if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
			t.Errorf("parse --json %q:\n got %s\nwant %v", in, out, want)
		}
	}
}

// TestParseJSONParams: "params" is the query as key=value pairs in
// order, decoded as HTML forms decode them (issue 17), null without a
// query and [] for an empty one.
func TestParseJSONParams(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://a/?q=a+b%21&x&y=1&q=2", `[["q","a b!"],["x",""],["y","1"],["q","2"]]`},
		{"http://a/?k%3D=%26&&", `[["k=","&"]]`},
		{"http://a/?", `[]`},
		{"http://a/", `null`},
		{"?%22=%5C", `[["\"","\\"]]`},
	}
	for _, tt := range tests {
		out, _, code := uriCmd(t, "", "parse", "--json", "--", tt.in)
		if _, after, ok := strings.Cut(out, `"params":`); code != 0 || !ok || !strings.HasPrefix(after, tt.want+`,"scheme_data"`) {
			t.Errorf("parse --json %q: %s, want params %s", tt.in, out, tt.want)
		}
	}
}

// TestParseJSONExact checks the exact bytes of one line: key order,
// null and "" written as such, no spaces, no HTML escaping.
func TestParseJSONExact(t *testing.T) {
	// RFC 3986 3: "foo://a/b?#" has an empty query and fragment (issue 2)
	out, _, _ := uriCmd(t, "", "parse", "--json", "foo://a/b?#", "//x<&>")
	want := `{"input":"foo://a/b?#","scheme":"foo","userinfo":null,"host":"a","host_type":"reg-name","port":null,"path":"/b","query":"","fragment":"","params":[],"scheme_data":null}` + "\n" +
		`{"input":"//x<&>","error":"invalid character '<' in host","offset":3}` + "\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestParsePlain(t *testing.T) {
	tests := []struct{ in, want string }{
		// RFC 3986 3
		{"foo://example.com:8042/over/there?name=ferret#nose", "scheme=foo host=example.com host_type=reg-name port=8042 path=/over/there query=name=ferret fragment=nose"},
		// issue 2: empty components are written "KEY=", undefined ones left out
		{"foo://a/b?#", "scheme=foo host=a host_type=reg-name path=/b query= fragment="},
		{"foo://a/b", "scheme=foo host=a host_type=reg-name path=/b"},
		// RFC 3986 3.2.1, 3.2.3
		{"http://u@[::1]:/", "scheme=http userinfo=u host=[::1] host_type=ipv6 port= path=/"},
		// RFC 3986 4.4
		{"", "path="},
	}
	for _, tt := range tests {
		out, _, code := uriCmd(t, "", "parse", tt.in)
		if code != 0 || out != tt.want+"\n" {
			t.Errorf("parse %q = %q, exit %d; want %q, exit 0", tt.in, out, code, tt.want)
		}
	}
}

// TestErrorOffsets checks the byte offsets of failures, plain and JSON,
// for every subcommand that parses.
func TestErrorOffsets(t *testing.T) {
	tests := []struct {
		in     string
		offset int
	}{
		{"http://u@s@h/", 10}, // issue 2: the second "@"
		{"#a#b", 2},           // issue 2
		{"http://a/{x}", 9},   // STYLE.md: "{" is not a pchar (RFC 3986 3.3)
		{"http://a]/", 8},     // issue 2: net/url accepts it
		{"http://a:8x/", 11},  // RFC 3986 3.2.3 port = *DIGIT, but "a:8x" may be a userinfo (3.2.1) until "/"
		{"a b", 1},            // RFC 3986 2: no space in a URI
		{"%4", 2},             // RFC 3986 2.1: the input ends inside a triplet
		{"urn:a:b", 5},        // RFC 8141 2: an NID has 2 to 32 characters
		{"urn:example:", 12},  // RFC 8141 2: NSS = pchar *(pchar / "/")
	}
	for _, tt := range tests {
		for _, sub := range [][]string{{"parse"}, {"normalize"}} {
			args := append(append([]string{}, sub...), "--", tt.in)
			out, _, code := uriCmd(t, "", args...)
			prefix := "error: " + itoa(tt.offset) + ": "
			if code != 1 || !strings.HasPrefix(out, prefix) || strings.Count(out, "\n") != 1 {
				t.Errorf("%v = %q, exit %d; want %q..., exit 1", args, out, code, prefix)
			}
			args = append(append(append([]string{}, sub...), "--json"), "--", tt.in)
			out, _, code = uriCmd(t, "", args...)
			objs := jsonLines(t, out)
			if code != 1 || len(objs) != 1 || objs[0]["input"] != tt.in ||
				objs[0]["offset"] != float64(tt.offset) || objs[0]["error"] == nil || len(objs[0]) != 3 {
				t.Errorf("%v = %q, exit %d; want offset %d, exit 1", args, out, code, tt.offset)
			}
		}
		// check: "INPUT<TAB>error: OFFSET: REASON"
		out, _, code := uriCmd(t, tt.in+"\n", "check")
		prefix := tt.in + "\terror: " + itoa(tt.offset) + ": "
		if code != 1 || !strings.HasPrefix(out, prefix) || strings.Count(out, "\n") != 1 {
			t.Errorf("check %q = %q, exit %d; want %q..., exit 1", tt.in, out, code, prefix)
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestErrorReason checks that the reason is the parse error's message
// without the quoted input.
func TestErrorReason(t *testing.T) {
	out, _, _ := uriCmd(t, "", "parse", "http://a/{x}")
	// STYLE.md gives this message for this input.
	if want := "error: 9: invalid character '{' in path\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

// TestStdin covers the reading of inputs from standard input: one input
// per line, the empty line included, a final "\r" dropped (issue 2,
// section 3).
func TestStdin(t *testing.T) {
	tests := []struct {
		name, stdin string
		inputs      []string
	}{
		{"no input", "", nil},
		{"one line", "http://a/\n", []string{"http://a/"}},
		{"no final newline", "http://a/", []string{"http://a/"}},
		{"empty line", "\n", []string{""}},
		{"empty lines kept", "a\n\nb\n\n", []string{"a", "", "b", ""}},
		{"CRLF", "http://a/\r\nb\r\n", []string{"http://a/", "b"}},
		{"CR without LF at the end", "a\r", []string{"a"}},
		{"one CR dropped only", "a\r\r\n", []string{"a\r"}},
		{"CR inside kept", "a\rb\n", []string{"a\rb"}},
		{"long line", "/" + strings.Repeat("a", 200000) + "\n/b\n", []string{"/" + strings.Repeat("a", 200000), "/b"}},
	}
	for _, tt := range tests {
		out, _, _ := uriCmd(t, tt.stdin, "parse", "--json")
		objs := jsonLines(t, out)
		var got []string
		for _, o := range objs {
			got = append(got, o["input"].(string))
		}
		if !reflect.DeepEqual(got, tt.inputs) {
			t.Errorf("%s: inputs %q, want %q", tt.name, got, tt.inputs)
		}
	}
}

// TestExitStatus checks 0 when every input succeeds and 1 when any fails,
// with processing going on after a failure and one line per input.
func TestExitStatus(t *testing.T) {
	tests := []struct {
		args        []string
		stdin       string
		code, lines int
	}{
		{[]string{"parse"}, "http://a/\n\n/b\n", 0, 3},
		{[]string{"parse"}, "http://a/\n{\n/b\n", 1, 3},          // RFC 3986 3.3: "{" not a pchar
		{[]string{"parse", "--json"}, "{\nhttp://a/\n}\n", 1, 3}, // idem
		{[]string{"check"}, "http://a/\n\n/b\n", 0, 0},
		{[]string{"check"}, "http://a/\n{\n/b\n}\n", 1, 2},
		{[]string{"check", "--json"}, "{\n/b\n", 1, 1},
		{[]string{"normalize"}, "http://a/\n%zz\n", 1, 2}, // RFC 3986 2.1
		{[]string{"decode"}, "a%20b\n%zz\n%41\n", 1, 3},   // RFC 3986 2.1
		{[]string{"encode", "--component", "path"}, "a b\n\n", 0, 2},
		{[]string{"resolve", "--base", "http://a/b/c/d;p?q"}, "g\n{\n", 1, 2},
		{[]string{"relativize", "--base", "http://a/b/c/d;p?q"}, "http://a/b/c/g\n{\n", 1, 2},
	}
	for _, tt := range tests {
		out, errOut, code := uriCmd(t, tt.stdin, tt.args...)
		if code != tt.code || strings.Count(out, "\n") != tt.lines || errOut != "" {
			t.Errorf("%v <<< %q: exit %d, %d lines (%q), stderr %q; want exit %d, %d lines",
				tt.args, tt.stdin, code, strings.Count(out, "\n"), out, errOut, tt.code, tt.lines)
		}
	}
}

// TestRFC2396Grammar checks that --rfc 2396 selects the 1998 draft's
// grammar.
func TestRFC2396Grammar(t *testing.T) {
	// 1998 draft Appendix B: the regular expression's breakdown.
	out, _, code := uriCmd(t, "", "parse", "--json", "--rfc", "2396", "http://www.ics.uci.edu/pub/ietf/uri/#Related")
	want := parseFields("http://www.ics.uci.edu/pub/ietf/uri/#Related", "http", null, "www.ics.uci.edu", "reg-name", null, "/pub/ietf/uri/", null, "Related")
	objs := jsonLines(t, out)
	for _, o := range objs {
		delete(o, "scheme_data")
		delete(o, "params")
	}
	if code != 0 || len(objs) != 1 || !reflect.DeepEqual(objs[0], want) {
		t.Errorf("parse --rfc 2396: got %s, exit %d", out, code)
	}
	// The 1998 draft has no IP literals (RFC 2732 came later); RFC 3986
	// 3.2.2 has them.
	if _, _, code := uriCmd(t, "", "check", "--rfc", "2396", "http://[::1]/"); code != 1 {
		t.Errorf("check --rfc 2396 http://[::1]/: exit %d, want 1", code)
	}
	if _, _, code := uriCmd(t, "", "check", "--rfc", "3986", "http://[::1]/"); code != 0 {
		t.Errorf("check --rfc 3986 http://[::1]/: exit %d, want 0", code)
	}
	// RFC 6874: zone identifiers only with --zone-id.
	if _, _, code := uriCmd(t, "", "check", "http://[fe80::1%25en0]/"); code != 1 {
		t.Errorf("check zone ID: exit %d, want 1", code)
	}
	if _, _, code := uriCmd(t, "", "check", "--zone-id", "http://[fe80::1%25en0]/"); code != 0 {
		t.Errorf("check --zone-id zone ID: exit %d, want 0", code)
	}
}

// TestResolve3986 runs every example of RFC 3986 section 5.4.
func TestResolve3986(t *testing.T) {
	const base = "http://a/b/c/d;p?q"
	tests := []struct{ ref, want string }{
		// RFC 3986 5.4.1
		{"g:h", "g:h"},
		{"g", "http://a/b/c/g"},
		{"./g", "http://a/b/c/g"},
		{"g/", "http://a/b/c/g/"},
		{"/g", "http://a/g"},
		{"//g", "http://g"},
		{"?y", "http://a/b/c/d;p?y"},
		{"g?y", "http://a/b/c/g?y"},
		{"#s", "http://a/b/c/d;p?q#s"},
		{"g#s", "http://a/b/c/g#s"},
		{"g?y#s", "http://a/b/c/g?y#s"},
		{";x", "http://a/b/c/;x"},
		{"g;x", "http://a/b/c/g;x"},
		{"g;x?y#s", "http://a/b/c/g;x?y#s"},
		{"", "http://a/b/c/d;p?q"},
		{".", "http://a/b/c/"},
		{"./", "http://a/b/c/"},
		{"..", "http://a/b/"},
		{"../", "http://a/b/"},
		{"../g", "http://a/b/g"},
		{"../..", "http://a/"},
		{"../../", "http://a/"},
		{"../../g", "http://a/g"},
		// RFC 3986 5.4.2
		{"../../../g", "http://a/g"},
		{"../../../../g", "http://a/g"},
		{"/./g", "http://a/g"},
		{"/../g", "http://a/g"},
		{"g.", "http://a/b/c/g."},
		{".g", "http://a/b/c/.g"},
		{"g..", "http://a/b/c/g.."},
		{"..g", "http://a/b/c/..g"},
		{"./../g", "http://a/b/g"},
		{"./g/.", "http://a/b/c/g/"},
		{"g/./h", "http://a/b/c/g/h"},
		{"g/../h", "http://a/b/c/h"},
		{"g;x=1/./y", "http://a/b/c/g;x=1/y"},
		{"g;x=1/../y", "http://a/b/c/y"},
		{"g?y/./x", "http://a/b/c/g?y/./x"},
		{"g?y/../x", "http://a/b/c/g?y/../x"},
		{"g#s/./x", "http://a/b/c/g#s/./x"},
		{"g#s/../x", "http://a/b/c/g#s/../x"},
		{"http:g", "http:g"},
	}
	var stdin, want strings.Builder
	var jsonWant []map[string]any
	for _, tt := range tests {
		stdin.WriteString(tt.ref + "\n")
		want.WriteString(tt.want + "\n")
		jsonWant = append(jsonWant, map[string]any{"input": tt.ref, "result": tt.want})
	}
	out, errOut, code := uriCmd(t, stdin.String(), "resolve", "--base", base)
	if code != 0 || out != want.String() {
		t.Errorf("resolve: exit %d, stderr %q\n got:\n%s\nwant:\n%s", code, errOut, out, want.String())
	}
	out, _, code = uriCmd(t, stdin.String(), "resolve", "--json", "--base", base)
	if got := jsonLines(t, out); code != 0 || !reflect.DeepEqual(got, jsonWant) {
		t.Errorf("resolve --json: exit %d\n got:\n%s", code, out)
	}
	// Arguments rather than stdin; "--rfc 3986" is the default.
	out, _, code = uriCmd(t, "", "resolve", "--rfc", "3986", "--base", base, "../../../g", "g")
	if code != 0 || out != "http://a/g\nhttp://a/b/c/g\n" {
		t.Errorf("resolve args: %q, exit %d", out, code)
	}
}

// TestResolve2396 runs every example of the 1998 draft's Appendix C with
// --rfc 2396, and its three choices for excess "..".
// draft1998Base and draft1998Examples are the resolution examples of the
// 1998 draft's Appendix C (C.1 normal, C.2 abnormal), with its base.
const draft1998Base = "http://a/b/c/d;p?q"

var draft1998Examples = []struct{ ref, want string }{
	// 1998 draft C.1
	{"g:h", "g:h"},
	{"g", "http://a/b/c/g"},
	{"./g", "http://a/b/c/g"},
	{"g/", "http://a/b/c/g/"},
	{"/g", "http://a/g"},
	{"//g", "http://g"},
	{"?y", "http://a/b/c/?y"},
	{"g?y", "http://a/b/c/g?y"},
	{"#s", "http://a/b/c/d;p?q#s"}, // (current document)#s, issue 2
	{"g#s", "http://a/b/c/g#s"},
	{"g?y#s", "http://a/b/c/g?y#s"},
	{";x", "http://a/b/c/;x"},
	{"g;x", "http://a/b/c/g;x"},
	{"g;x?y#s", "http://a/b/c/g;x?y#s"},
	{".", "http://a/b/c/"},
	{"./", "http://a/b/c/"},
	{"..", "http://a/b/"},
	{"../", "http://a/b/"},
	{"../g", "http://a/b/g"},
	{"../..", "http://a/"},
	{"../../", "http://a/"},
	{"../../g", "http://a/g"},
	// 1998 draft C.2
	{"", "http://a/b/c/d;p?q"}, // (current document), issue 2
	{"../../../g", "http://a/../g"},
	{"../../../../g", "http://a/../../g"},
	{"/./g", "http://a/./g"},
	{"/../g", "http://a/../g"},
	{"g.", "http://a/b/c/g."},
	{".g", "http://a/b/c/.g"},
	{"g..", "http://a/b/c/g.."},
	{"..g", "http://a/b/c/..g"},
	{"./../g", "http://a/b/g"},
	{"./g/.", "http://a/b/c/g/"},
	{"g/./h", "http://a/b/c/g/h"},
	{"g/../h", "http://a/b/c/h"},
	{"g;x=1/./y", "http://a/b/c/g;x=1/y"},
	{"g;x=1/../y", "http://a/b/c/y"},
	{"g?y/./x", "http://a/b/c/g?y/./x"},
	{"g?y/../x", "http://a/b/c/g?y/../x"},
	{"g#s/./x", "http://a/b/c/g#s/./x"},
	{"g#s/../x", "http://a/b/c/g#s/../x"},
	{"http:g", "http:g"},
	{"http:", "http:"},
}

func TestResolve2396(t *testing.T) {
	const base = draft1998Base
	tests := draft1998Examples
	for _, tt := range tests {
		out, errOut, code := uriCmd(t, "", "resolve", "--base", base, "--rfc", "2396", "--", tt.ref)
		if code != 0 || out != tt.want+"\n" {
			t.Errorf("resolve --rfc 2396 %q = %q, exit %d, stderr %q; want %q", tt.ref, out, code, errOut, tt.want)
		}
	}
	// 1998 draft C.2: "some implementations strip leading relative
	// symbolic elements", giving http://a/g; or the resolution fails.
	out, _, code := uriCmd(t, "", "resolve", "--base", base, "--rfc", "2396", "--dots", "drop", "../../../g", "../../../../g")
	if code != 0 || out != "http://a/g\nhttp://a/g\n" {
		t.Errorf("--dots drop: %q, exit %d", out, code)
	}
	// The base's directory "/b/c/" has two segments, so the third ".."
	// (offset 6) is the one above the root.
	out, _, code = uriCmd(t, "", "resolve", "--base", base, "--rfc", "2396", "--dots", "reject", "../../../g", "../g", "./g/../../../../x")
	if code != 1 || !strings.HasPrefix(out, "error: 6: ") || !strings.HasSuffix(out, "\nhttp://a/b/g\nerror: 13: \"..\" above the root of the base path\n") {
		t.Errorf("--dots reject: %q, exit %d", out, code)
	}
	out, _, code = uriCmd(t, "", "resolve", "--base", base, "--rfc", "2396", "--dots", "keep", "../../../g")
	if code != 0 || out != "http://a/../g\n" {
		t.Errorf("--dots keep: %q, exit %d", out, code)
	}
}

// TestRelativize checks that relativize inverts resolve on the targets of
// RFC 3986 5.4.1 and the 1998 draft's C.1, and is never longer than the
// references those examples use.
func TestRelativize(t *testing.T) {
	const base = "http://a/b/c/d;p?q"
	tests := []struct{ ref, target string }{
		// RFC 3986 5.4.1
		{"g", "http://a/b/c/g"},
		{"g/", "http://a/b/c/g/"},
		{"/g", "http://a/g"},
		{"//g", "http://g"},
		{"?y", "http://a/b/c/d;p?y"},
		{"g?y", "http://a/b/c/g?y"},
		{"#s", "http://a/b/c/d;p?q#s"},
		{"g#s", "http://a/b/c/g#s"},
		{";x", "http://a/b/c/;x"},
		{"g;x?y#s", "http://a/b/c/g;x?y#s"},
		{"", "http://a/b/c/d;p?q"},
		{"../", "http://a/b/"},
		{"../g", "http://a/b/g"},
		{"g:h", "g:h"},
	}
	for _, rfc := range []string{"3986", "2396"} {
		for _, tt := range tests {
			if rfc == "2396" && tt.ref == "?y" {
				continue // the draft resolves "?y" differently (C.1)
			}
			out, errOut, code := uriCmd(t, "", "relativize", "--rfc", rfc, "--base", base, "--", tt.target)
			ref := strings.TrimSuffix(out, "\n")
			if code != 0 || len(ref) > len(tt.ref) {
				t.Errorf("relativize --rfc %s %q = %q, exit %d, stderr %q; want at most %d bytes",
					rfc, tt.target, out, code, errOut, len(tt.ref))
				continue
			}
			back, _, _ := uriCmd(t, "", "resolve", "--rfc", rfc, "--base", base, "--", ref)
			if back != tt.target+"\n" {
				t.Errorf("--rfc %s: %q relativizes to %q, which resolves to %q", rfc, tt.target, ref, back)
			}
		}
	}
	out, _, code := uriCmd(t, "", "relativize", "--json", "--base", base, "http://a/b/c/d;p?q#s")
	// RFC 3986 5.4.1: "#s" is the only reference of two bytes that
	// resolves there, and no shorter one does.
	if want := `{"input":"http://a/b/c/d;p?q#s","result":"#s"}` + "\n"; code != 0 || out != want {
		t.Errorf("relativize --json: %q, exit %d; want %q", out, code, want)
	}
}

// TestNormalize checks the examples of RFC 3986 section 6.2.
func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"HTTP://www.EXAMPLE.com/", "http://www.example.com/"},              // RFC 3986 6.2.2.1
		{"eXAMPLE://a/./b/../b/%63/%7bfoo%7d", "example://a/b/c/%7Bfoo%7D"}, // RFC 3986 6.2.2
		{"http://example.com", "http://example.com/"},                       // RFC 3986 6.2.3
		{"http://example.com:/", "http://example.com/"},                     // RFC 3986 6.2.3
		{"http://example.com:80/", "http://example.com/"},                   // RFC 3986 6.2.3
		{"http://example.com/?#", "http://example.com/?#"},                  // issue 2: empty delimiters kept
		{"URN:EXAMPLE:a123%2cz456", "urn:example:a123%2Cz456"},              // RFC 8141 3.1
		{"urn:example:a123,z456?+abc#F", "urn:example:a123,z456?+abc#F"},    // RFC 8141 3.1: components kept
		{"urn:example:%7e", "urn:example:%7E"},                              // RFC 8141 3.1: no decoding
		{"mailto:John.Doe@Example.COM", "mailto:John.Doe@example.com"},      // RFC 6068 2: the domain is a DNS name (6.2.3 scheme-based)
		{"http://[2001:DB8::7]/", "http://[2001:db8::7]/"},                  // RFC 3986 6.2.2.1: host
		{"ftp://a:21/x", "ftp://a/x"},                                       // RFC 3986 6.2.3
		{"", ""},                                                            // RFC 3986 4.4
	}
	for _, tt := range tests {
		out, errOut, code := uriCmd(t, "", "normalize", "--", tt.in)
		if code != 0 || out != tt.want+"\n" {
			t.Errorf("normalize %q = %q, exit %d, stderr %q; want %q", tt.in, out, code, errOut, tt.want)
		}
		out, _, code = uriCmd(t, tt.in+"\n", "normalize", "--json")
		want := map[string]any{"input": tt.in, "result": tt.want}
		if got := jsonLines(t, out); code != 0 || len(got) != 1 || !reflect.DeepEqual(got[0], want) {
			t.Errorf("normalize --json %q = %q, exit %d", tt.in, out, code)
		}
	}
}

// TestEqual checks the exit status and output of equal.
func TestEqual(t *testing.T) {
	tests := []struct {
		a, b string
		code int
	}{
		{"example://a/b/c/%7Bfoo%7D", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d", 0}, // RFC 3986 6.2.2
		{"http://example.com", "http://example.com:80/", 0},                    // RFC 3986 6.2.3
		{"http://example.com:/", "http://example.com/", 0},                     // RFC 3986 6.2.3
		{"http://example.com/a", "http://example.com/A", 1},                    // RFC 3986 6.2.2.1: path case matters
		{"http://a/b?", "http://a/b", 1},                                       // issue 2: empty query kept
		// RFC 8141 3.2
		{"URN:example:a123,z456", "urn:example:a123,z456", 0},
		{"urn:example:a123,z456", "urn:EXAMPLE:a123,z456", 0},
		{"urn:example:a123,z456?+abc", "urn:example:a123,z456", 0},
		{"urn:example:a123,z456?=xyz", "urn:example:a123,z456", 0},
		{"urn:example:a123,z456#789", "URN:example:a123,z456", 0},
		{"urn:example:a123,z456/foo", "urn:example:a123,z456/bar", 1},
		{"urn:example:a123,z456/foo", "urn:example:a123,z456", 1},
		{"urn:example:a123%2Cz456", "URN:EXAMPLE:a123%2cz456", 0},
		{"urn:example:a123%2Cz456", "urn:example:a123,z456", 1},
		{"urn:example:A123,z456", "urn:example:a123,z456", 1},
		{"urn:example:a123,Z456", "urn:example:a123,z456", 1},
		// Invalid inputs: issue 2, RFC 8141 2
		{"http://u@s@h/", "http://a/", 2},
		{"http://a/", "#a#b", 2},
		{"urn:a:b", "urn:a:b", 2},
	}
	for _, tt := range tests {
		out, errOut, code := uriCmd(t, "", "equal", "--", tt.a, tt.b)
		want := map[int]string{0: "equal\n", 1: "not equal\n", 2: ""}[tt.code]
		if code != tt.code || out != want || (code == 2) != (errOut != "") {
			t.Errorf("equal %q %q = %q, exit %d, stderr %q; want %q, exit %d", tt.a, tt.b, out, code, errOut, want, tt.code)
		}
	}
	// The offset of the invalid input is on stderr (issue 2: offset 10).
	_, errOut, _ := uriCmd(t, "", "equal", "http://a/", "http://u@s@h/")
	if !strings.Contains(errOut, `"http://u@s@h/"`) || !strings.Contains(errOut, "error: 10: ") {
		t.Errorf("equal stderr %q: want the input and its offset 10", errOut)
	}
	out, _, code := uriCmd(t, "", "equal", "--json", "HTTP://a", "http://a/") // RFC 3986 6.2.3
	if want := `{"a":"HTTP://a","b":"http://a/","equal":true,"key_a":"http://a/","key_b":"http://a/"}` + "\n"; code != 0 || out != want {
		t.Errorf("equal --json = %q, exit %d; want %q", out, code, want)
	}
}

// TestParseURN checks that a "urn:" input must be a URN (RFC 8141).
func TestParseURN(t *testing.T) {
	tests := []struct {
		in     string
		offset int // -1: valid
	}{
		{"urn:example:a123,z456", -1},          // RFC 8141 3.2
		{"URN:EXAMPLE:a123,z456?+abc#789", -1}, // RFC 8141 3.2
		{"urn:a:b", 5},                         // RFC 8141 2: NID of 2 characters at least
		{"uRn:ex-:x", 7},                       // RFC 8141 2: NID ends with alphanum
		{"urn:example:", 12},                   // RFC 8141 2: NSS not empty
		{"urn:example:a?+", 15},                // RFC 8141 2: r-component not empty
		{"urns:a:b", -1},                       // another scheme
	}
	for _, tt := range tests {
		out, _, code := uriCmd(t, "", "parse", "--json", tt.in)
		objs := jsonLines(t, out)
		if len(objs) != 1 {
			t.Fatalf("parse %q: %q", tt.in, out)
		}
		if tt.offset < 0 {
			if code != 0 || objs[0]["error"] != nil || objs[0]["path"] == nil {
				t.Errorf("parse %q = %q, exit %d; want success", tt.in, out, code)
			}
			continue
		}
		if code != 1 || objs[0]["offset"] != float64(tt.offset) {
			t.Errorf("parse %q = %q, exit %d; want offset %d, exit 1", tt.in, out, code, tt.offset)
		}
	}
}

func TestEncode(t *testing.T) {
	tests := []struct{ component, in, want string }{
		{"path", "a b", "a%20b"},              // RFC 3986 2.1: space is not allowed
		{"path", "/a/b c", "/a/b%20c"},        // RFC 3986 3.3: "/" separates segments
		{"segment", "a/b", "a%2Fb"},           // RFC 3986 3.3: segment = *pchar
		{"segment", "a:b@c", "a:b@c"},         // RFC 3986 3.3: ":" and "@" are pchar
		{"query", "a b?/", "a%20b?/"},         // RFC 3986 3.4: "/" and "?" allowed
		{"query", "#", "%23"},                 // RFC 3986 3.4: "#" ends the query
		{"fragment", "a#b", "a%23b"},          // RFC 3986 3.5
		{"userinfo", "u@h", "u%40h"},          // RFC 3986 3.2.1: "@" ends the userinfo
		{"host", "a/b", "a%2Fb"},              // RFC 3986 3.2.2: reg-name
		{"query-value", "a&b=c", "a%26b%3Dc"}, // issue 2: key=value pairs
		{"path", "é", "%C3%A9"},               // RFC 3986 2.5: UTF-8, uppercase hex (2.1)
		{"path", "100%", "100%25"},            // RFC 3986 2.4: "%" always encoded
		{"path", "", ""},                      // the empty input
		{"path", "-._~AZaz09", "-._~AZaz09"},  // RFC 3986 2.3: unreserved
	}
	for _, tt := range tests {
		out, errOut, code := uriCmd(t, tt.in+"\n", "encode", "--component", tt.component)
		if code != 0 || out != tt.want+"\n" {
			t.Errorf("encode --component %s %q = %q, exit %d, stderr %q; want %q", tt.component, tt.in, out, code, errOut, tt.want)
		}
		out, _, code = uriCmd(t, "", "encode", "--json", "--component", tt.component, "--", tt.in)
		want := map[string]any{"input": tt.in, "result": tt.want}
		if got := jsonLines(t, out); code != 0 || len(got) != 1 || !reflect.DeepEqual(got[0], want) {
			t.Errorf("encode --json %q = %q, exit %d", tt.in, out, code)
		}
	}
}

func TestDecode(t *testing.T) {
	tests := []struct {
		in, want string
		offset   int // -1: success
	}{
		{"%7Euser", "~user", -1}, // RFC 3986 2.3
		{"a%2Fb", "a/b", -1},     // RFC 3986 2.1
		{"%c3%A9", "é", -1},      // RFC 3986 2.1: either case
		{"a+b", "a+b", -1},       // RFC 3986 2.1: only triplets are decoded
		{"", "", -1},             // the empty input
		{"%zz", "", 1},           // RFC 3986 2.1: "%" HEXDIG HEXDIG
		{"ab%4g", "", 4},         // idem
		{"ab%4", "", 4},          // idem: the input ends inside the triplet
		{"%", "", 1},             // idem
		{"%41%", "A", 4},         // idem
	}
	for _, tt := range tests {
		out, _, code := uriCmd(t, "", "decode", "--", tt.in)
		if tt.offset < 0 {
			if code != 0 || out != tt.want+"\n" {
				t.Errorf("decode %q = %q, exit %d; want %q", tt.in, out, code, tt.want)
			}
		} else if prefix := "error: " + itoa(tt.offset) + ": "; code != 1 || !strings.HasPrefix(out, prefix) {
			t.Errorf("decode %q = %q, exit %d; want %q..., exit 1", tt.in, out, code, prefix)
		}
		out, _, _ = uriCmd(t, "", "decode", "--json", "--", tt.in)
		objs := jsonLines(t, out)
		want := map[string]any{"input": tt.in, "result": tt.want}
		if tt.offset >= 0 {
			want = map[string]any{"input": tt.in, "offset": float64(tt.offset), "error": objs[0]["error"]}
		}
		if len(objs) != 1 || !reflect.DeepEqual(objs[0], want) || (tt.offset >= 0 && objs[0]["error"] == nil) {
			t.Errorf("decode --json %q = %q; want %v", tt.in, out, want)
		}
	}
}

// TestUsageErrors checks that usage errors exit 2 with a message on
// stderr and nothing on stdout.
func TestUsageErrors(t *testing.T) {
	tests := [][]string{
		{},
		{"frobnicate"},
		{"parse", "--frob"},
		{"parse", "--rfc", "1808"},
		{"parse", "--rfc"},
		{"check", "--json=maybe"},
		{"resolve", "g"},
		{"resolve", "--base", "/b/c", "g"}, // RFC 3986 5.1: a base has a scheme
		{"resolve", "--base", "http://u@s@h/", "g"}, // issue 2: invalid
		{"resolve", "--base", "http://a/", "--dots", "drop", "g"},
		{"resolve", "--base", "http://a/", "--rfc", "2396", "--dots", "up", "g"},
		{"relativize", "http://a/"},
		{"relativize", "--base", "b", "http://a/"},
		{"equal", "a"},
		{"equal", "a", "b", "c"},
		{"equal"},
		{"encode", "a"},
		{"encode", "--component", "scheme", "a"},
		{"decode", "--rfc", "3986", "a"}, // decode knows no grammar
		{"help", "frobnicate"},
		{"help", "parse", "check"},
		{"--version", "x"},
	}
	for _, args := range tests {
		out, errOut, code := uriCmd(t, "http://a/\n", args...)
		if code != 2 || out != "" || errOut == "" {
			t.Errorf("uri %q: exit %d, stdout %q, stderr %q; want exit 2, a message on stderr", args, code, out, errOut)
		}
	}
}

func TestHelp(t *testing.T) {
	out, _, code := uriCmd(t, "", "help")
	if code != 0 {
		t.Errorf("help: exit %d", code)
	}
	for _, c := range commands() {
		if !strings.Contains(out, "\n  "+c.name+" ") {
			t.Errorf("help does not list %s:\n%s", c.name, out)
		}
		sub, errOut, code := uriCmd(t, "", "help", c.name)
		if code != 0 || sub == "" || errOut != "" {
			t.Errorf("help %s: exit %d, stderr %q", c.name, code, errOut)
		}
		if c.name == "urn" {
			continue
		}
		for _, want := range []string{"Usage: uri " + c.name, "Exit status", "--json"} {
			if !strings.Contains(sub, want) {
				t.Errorf("help %s does not say %q", c.name, want)
			}
		}
		h, _, code := uriCmd(t, "", append(strings.Fields(c.name), "-h")...)
		if code != 0 || h != sub {
			t.Errorf("%s -h: exit %d, output differs from help %s", c.name, code, c.name)
		}
		// Issue 6: the help lists every flag, each with one example.
		flags := sub[strings.Index(sub, "\nFlags"):]
		for _, f := range c.allFlags() {
			i := strings.Index(flags, "--"+f.long)
			if i < 0 {
				t.Errorf("help %s does not list --%s", c.name, f.long)
				continue
			}
			if j := strings.Index(flags[i:], "e.g. uri "+c.name+" "); j < 0 || strings.Count(flags[i:i+j], "\n  -") > 0 {
				t.Errorf("help %s: --%s has no example", c.name, f.long)
			}
		}
	}
	for _, args := range [][]string{{"--help"}, {"-h"}} {
		if h, _, code := uriCmd(t, "", args...); code != 0 || h != out {
			t.Errorf("uri %s: exit %d, output differs from uri help", args[0], code)
		}
	}
	out, _, code = uriCmd(t, "", "--version")
	if code != 0 || !strings.HasPrefix(out, "uri (urikit) ") || strings.Count(out, "\n") != 1 || len(out) < len("uri (urikit) x\n") {
		t.Errorf("--version = %q, exit %d", out, code)
	}
}

// TestFlagsAfterSubcommand checks that flags are read after the
// subcommand name, in any order, and that an input may start with "-"
// after "--".
func TestFlagsAfterSubcommand(t *testing.T) {
	out, _, code := uriCmd(t, "", "resolve", "--json", "--base=http://a/b/c/d;p?q", "-rfc=3986", "g")
	if want := `{"input":"g","result":"http://a/b/c/g"}` + "\n"; code != 0 || out != want { // RFC 3986 5.4.1
		t.Errorf("got %q, exit %d; want %q", out, code, want)
	}
	out, _, code = uriCmd(t, "", "parse", "--", "-a") // RFC 3986 4.2: "-a" is a relative-path reference
	if code != 0 || out != "path=-a\n" {
		t.Errorf("parse -- -a = %q, exit %d", out, code)
	}
}

// TestFlagsAnywhere: issue 6 item 1. Flags come before or after the
// inputs; "--" ends them; a flag error names the flag as the help
// writes it and exits 2.
func TestFlagsAnywhere(t *testing.T) {
	tests := []struct {
		args []string
		out  string
	}{
		{[]string{"parse", "foo://a/b", "--json"}, `{"input":"foo://a/b","scheme":"foo","userinfo":null,"host":"a","host_type":"reg-name","port":null,"path":"/b","query":null,"fragment":null,"params":null,"scheme_data":null}` + "\n"},
		{[]string{"resolve", "c", "--base", "http://a/b"}, "http://a/c\n"}, // RFC 3986 5.2.3
		{[]string{"resolve", "c", "--base=http://a/b", "d"}, "http://a/c\nhttp://a/d\n"},
		{[]string{"urn", "key", "URN:Foo:a", "--json"}, `{"input":"URN:Foo:a","result":"urn:foo:a"}` + "\n"},
		{[]string{"normalize", "--", "--json"}, "--json\n"}, // after "--", an input
	}
	for _, tt := range tests {
		out, errOut, code := uriCmd(t, "", tt.args...)
		if code != 0 || out != tt.out {
			t.Errorf("uri %q = %q, exit %d, stderr %q; want %q", tt.args, out, code, errOut, tt.out)
		}
	}
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"parse", "x", "-rfc", "9"}, `flag --rfc: want 3986 or 2396, not "9"`},
		{[]string{"parse", "--bogus"}, "unknown flag --bogus"},
		{[]string{"parse", "-q"}, "unknown flag -q"},
		{[]string{"resolve", "x"}, "flag --base is required"},
		{[]string{"resolve", "--base"}, "flag --base needs a value (BASE)"},
		{[]string{"parse", "--json=maybe"}, "flag --json takes no value"},
		{[]string{"encode", "--component", "path", "--component", "query"}, "flag --component given twice"},
		{[]string{"urn", "key", "--query", "keep", "urn:ab:c"}, "flag --query keep needs --dialect draft2012"},
	} {
		out, errOut, code := uriCmd(t, "", tt.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tt.msg) {
			t.Errorf("uri %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.args, code, out, errOut, tt.msg)
		}
	}
}

// TestFiles: issue 6 item 2. -f/--file read one input per line; "-" is
// standard input; they may be repeated and come after the arguments.
func TestFiles(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	b := filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("http://a/\n{x}\r\n"), 0o644)
	os.WriteFile(b, []byte("/b"), 0o644)
	out, _, code := uriCmd(t, "from-stdin\n", "normalize", "HTTP://Z", "-f", a, "--file", "-", "--file="+b)
	if want := "http://z/\nhttp://a/\nerror: 0: invalid character '{' in path\nfrom-stdin\n/b\n"; code != 1 || out != want {
		t.Errorf("got %q, exit %d; want %q", out, code, want)
	}
	out, errOut, code := uriCmd(t, "", "check", "-f", filepath.Join(dir, "missing.txt"))
	if code != 2 || out != "" || !strings.Contains(errOut, "missing.txt") {
		t.Errorf("missing file: %q, %q, exit %d", out, errOut, code)
	}
}

// TestWriteError: issue 6 item 6. A failed write ends with exit 2 and
// a message.
func TestWriteError(t *testing.T) {
	for _, args := range [][]string{{"urn", "key", "urn:ab:c"}, {"parse", "x"}, {"equal", "a", "a"}} {
		var errOut bytes.Buffer
		code := run(args, strings.NewReader(""), failingWriter{}, &errOut)
		if code != 2 || !strings.Contains(errOut.String(), "writing standard output") {
			t.Errorf("uri %q to a failing writer: exit %d, stderr %q", args, code, errOut.String())
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestRelativizeUnreachable checks the failure of a target that no
// reference reaches: resolution removes dot segments (RFC 3986 5.2.4), so
// a target that keeps one is reached only from a base with the same path.
func TestRelativizeUnreachable(t *testing.T) {
	out, _, code := uriCmd(t, "", "relativize", "--json", "--base", "http://a/b", "http://a/x/../c")
	objs := jsonLines(t, out)
	if code != 1 || len(objs) != 1 || objs[0]["offset"] != float64(11) {
		t.Errorf("relativize a target with \"..\" at offset 11: %q, exit %d", out, code)
	}
}

// TestJSONString compares appendJSONString with encoding/json, the peer,
// with HTML escaping off.
func TestJSONString(t *testing.T) {
	inputs := []string{
		"", "a", `"`, `\`, "<>&", "\x00\x01\x1f\x7f", "\t\n\r\b\f", "é€😀",
		"\xff", "a\xc3", "\xc3\x28", "\xed\xa0\x80", "\u2028\u2029", "\ufffd", "x\xf0\x9f\x98y",
	}
	for _, s := range inputs {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		got := string(appendJSONString(nil, s)) + "\n"
		if got != want.String() {
			t.Errorf("appendJSONString(%q) = %s, encoding/json gives %s", s, got, want.String())
		}
	}
}

// TestStreaming checks that each answer is written as soon as its line is
// read, before the next line arrives, so that a program can use the
// command as a coprocess through pipes.
func TestStreaming(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int)
	go func() {
		done <- run([]string{"normalize"}, inR, outW, io.Discard)
		outW.Close()
	}()
	lines := bufio.NewReader(outR)
	// RFC 3986 6.2.2.1 and 6.2.3
	for _, tt := range []struct{ in, want string }{
		{"HTTP://A", "http://a/"},
		{"http://a:80/b", "http://a/b"},
	} {
		if _, err := io.WriteString(inW, tt.in+"\n"); err != nil {
			t.Fatal(err)
		}
		got := make(chan string)
		go func() {
			s, _ := lines.ReadString('\n')
			got <- s
		}()
		select {
		case s := <-got:
			if s != tt.want+"\n" {
				t.Errorf("normalize %q = %q, want %q", tt.in, s, tt.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer to %q before the next line: output not flushed", tt.in)
		}
	}
	inW.Close()
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
}

// TestRFC2396Normalize checks normalize and equal with --rfc 2396, where
// the 1998 draft's section 6 applies: scheme and hostname compare
// without case and a default port equals none, and nothing else is said
// equivalent (its Appendix C.2 resolution keeps "/./g").
func TestRFC2396Normalize(t *testing.T) {
	// 1998 draft 6: <http://www.XEROX.com> is equivalent to <http://www.xerox.com>
	if _, _, code := uriCmd(t, "", "equal", "--rfc", "2396", "http://www.XEROX.com", "http://www.xerox.com"); code != 0 {
		t.Errorf("equal --rfc 2396 XEROX: exit %d, want 0", code)
	}
	// 1998 draft 6 (default port elided) and C.2 (dot segments kept)
	out, _, code := uriCmd(t, "", "normalize", "--rfc", "2396", "HTTP://A:80/./g")
	if code != 0 || out != "http://a/./g\n" {
		t.Errorf("normalize --rfc 2396 = %q, exit %d; want %q", out, code, "http://a/./g")
	}
	if _, _, code := uriCmd(t, "", "equal", "--rfc", "2396", "http://a/./g", "http://a/g"); code != 1 {
		t.Errorf("equal --rfc 2396 http://a/./g http://a/g: exit %d, want 1", code)
	}
}

// TestEqualAgreesWithLibrary: issue 11. "uri equal" gives uri.Equal's
// answer on every input of the corpora: the command holds no scheme
// logic of its own.
func TestEqualAgreesWithLibrary(t *testing.T) {
	for _, name := range testshared.CorpusNames {
		c := testshared.LoadCorpus(t, name)
		lines := c.Lines
		if len(lines) > 2000 {
			lines = lines[:2000] // the command runs once per pair
		}
		prev := ""
		for _, s := range lines {
			a, err := uri.Parse(s)
			if err != nil || scheme.Check(a) != nil { // what the command refuses
				continue
			}
			for _, o := range []string{prev, strings.ToUpper(s[:min(len(s), 6)]) + s[min(len(s), 6):], strings.Replace(s, "a", "%61", 1)} {
				b, err := uri.Parse(o)
				if err != nil || scheme.Check(b) != nil {
					continue
				}
				want := 1
				if uri.Equal(a, b) {
					want = 0
				}
				if _, errOut, code := uriCmd(t, "", "equal", "--", s, o); code != want {
					t.Errorf("uri equal %q %q: exit %d, uri.Equal says %d (%s)", s, o, code, want, errOut)
				}
			}
			prev = s
		}
	}
}

// TestParsedIsJSONSafe: the fast path of parse --json writes a parsed
// reference into JSON without escaping, which is right only if every
// string the strict parsers accept is printable ASCII without '"' and
// '\\' (RFC 3986 2; the 1998 draft's 2.4.3 excludes them too). Every
// byte value, at every place of a few shapes, in both grammars.
func TestParsedIsJSONSafe(t *testing.T) {
	shapes := []string{"%s", "http://a/%s", "http://%s/", "http://u%s@h/", "http://[%s]/", "http://h:%s/", "?%s", "#%s", "a:%s", "//%s", "http://[fe80::1%%25%s]/"}
	for _, shape := range shapes {
		for c := 0; c < 256; c++ {
			s := fmt.Sprintf(shape, string([]byte{byte(c)}))
			for _, o := range []uri.Options{{}, {Grammar: uri.RFC2396}, {AllowZoneID: true}} {
				if u, err := uri.ParseWith(s, o); err == nil && !jsonSafe(u.String()) {
					t.Errorf("%q parses (%v) but needs JSON escaping", s, o)
				}
			}
		}
	}
	for _, name := range testshared.CorpusNames {
		for _, l := range testshared.LoadCorpus(t, name).Lines {
			if u, err := uri.Parse(l); err == nil && !jsonSafe(u.String()) {
				t.Errorf("%q parses but needs JSON escaping", l)
			}
		}
	}
}

// jsonSafe reports whether s is printable ASCII without '"' and '\\'.
func jsonSafe(s string) bool {
	for _, c := range []byte(s) {
		if safeJSON[c] == 0 {
			return false
		}
	}
	return true
}

// safeJSON marks the bytes a JSON string holds as they are.
var safeJSON = func() (t [256]uint8) {
	for c := 0x20; c < 0x7f; c++ {
		if c != '"' && c != '\\' {
			t[c] = 1
		}
	}
	return t
}()

// TestSkipErrors: --skip-errors sends each failed input's error line to
// standard error with where it came from, and nothing to standard
// output; the exit status still says 1 (issue 17).
func TestSkipErrors(t *testing.T) {
	out, errOut, code := uriCmd(t, "http://a/\nhttp://b c/\n\n", "normalize", "--skip-errors")
	if code != 1 || out != "http://a/\n\n" || errOut != "uri normalize: standard input:2: error: 8: invalid character ' ' in host\n" {
		t.Errorf("normalize --skip-errors: %q %q exit %d", out, errOut, code)
	}
	out, errOut, code = uriCmd(t, "", "parse", "--json", "--skip-errors", "x", "http://a b")
	if code != 1 || strings.Count(out, "\n") != 1 || errOut != "uri parse: argument 2: error: 8: invalid character ' ' in host\n" {
		t.Errorf("parse --json --skip-errors: %q %q exit %d", out, errOut, code)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "p.html")
	os.WriteFile(page, []byte(`<a href="http://[bad">x</a><a href=ok>y</a>`), 0o644)
	out, errOut, code = uriCmd(t, "", "links", "--skip-errors", "--url", "http://a/", page)
	if code != 1 || out != "http://a/ok\n" || !strings.HasPrefix(errOut, "uri links: "+page+": error: line 1: ") {
		t.Errorf("links --skip-errors: %q %q exit %d", out, errOut, code)
	}
}

// TestLongLineJSON: a line of megabytes is written a block at a time
// (longStr, spill), and the JSON still says exactly the input: blocks
// end at character starts, escapes are whole.
func TestLongLineJSON(t *testing.T) {
	in := strings.Repeat("é\x00a\"\\€", 200_000) // 2.2 MB, not a URI
	out, _, code := uriCmd(t, in+"\n", "parse", "--json")
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil || code != 1 {
		t.Fatalf("exit %d, %v", code, err)
	}
	if m["input"] != in {
		t.Errorf("the input read back differs (%d bytes, want %d)", len(m["input"].(string)), len(in))
	}
	bad := strings.Repeat("a\xffb", 400_000) // invalid UTF-8: input_hex
	out, _, _ = uriCmd(t, bad+"\n", "parse", "--json")
	if err := json.Unmarshal([]byte(out), &m); err != nil || m["input_hex"] != hex.EncodeToString([]byte(bad)) {
		t.Errorf("input_hex of a 1.2 MB line: %v", err)
	}
	valid := "http://a/" + strings.Repeat("%41", 400_000) + "?" + strings.Repeat("a=b&", 100_000)
	out, _, code = uriCmd(t, valid+"\n", "parse", "--json")
	if err := json.Unmarshal([]byte(out), &m); err != nil || code != 0 || m["input"] != valid || len(m["params"].([]any)) != 100_000 {
		t.Errorf("a 1.6 MB URI: exit %d, %v", code, err)
	}
}

// TestLongLinePlain: the input echoed in a failure line is escaped a
// block at a time, and a C1 control astride two blocks is still escaped.
func TestLongLinePlain(t *testing.T) {
	for _, pad := range []int{0, 1, 2, 3} {
		in := strings.Repeat("a", blockSize/4-1+pad) + "\u0085 \x00" + strings.Repeat("\x1b", blockSize)
		out, _, code := uriCmd(t, in+"\n", "check")
		if code != 1 || strings.Count(out, "\n") != 1 || strings.ContainsAny(out, "\x00\x1b") || strings.Contains(out, "\u0085") ||
			!strings.Contains(out, `\u0085 \x00\x1b`) {
			t.Errorf("pad %d: exit %d, %d lines, raw controls %v", pad, code, strings.Count(out, "\n"), strings.ContainsAny(out, "\x00\x1b\u0085"))
		}
	}
}
