package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/surt"
	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/whatwg"
)

// The sources of the vectors below, as package surt's tests name them
// (surt/vectors_test.go, surt/urlcanon_test.go, surt/site_test.go).
const (
	srcSurt     = "internetarchive/surt tests/test_surt.py@432c897"
	srcWayback  = "iipc/webarchive-commons WaybackURLKeyMakerTest.java@e90e6c0"
	srcSSURT    = "iipc/urlcanon testdata/ssurt.json@842afd4 (testdata/surt/urlcanon.ssurt.json)"
	srcGoogle   = "iipc/urlcanon testdata/surt.json \"google\"@842afd4: Safe Browsing v4, URLs and Hashing"
	srcPrecise  = "iipc/urlcanon testdata/semantic_precise.json@842afd4"
	srcAggr     = "iipc/urlcanon testdata/aggressive.json@842afd4"
	srcDefIA    = "iipc/urlcanon testdata/surt.json \"Canonicalizer.DefaultIA\"@842afd4"
	srcURLStd   = "URL Standard, the examples of section 4.3 (URL writing) and the basic URL parser"
	srcPSL      = "publicsuffix/list tests/test_psl.txt@6ca11f5 (testdata/surt/psl.test_psl.txt)"
	srcPSLFile  = "publicsuffix/list public_suffix_list.dat: github.io is in the PRIVATE section"
	srcIssue28  = "internetarchive/surt issue 28: www1355544.com must not become com"
	srcPywb943  = "webrecorder/pywb issue 943: keep www and www2 apart"
	srcIpwb104  = "oduwsdl/ipwb issue 104: keep the trailing slash"
	srcSurtPort = "internetarchive/surt: a port that is not a number is a ValueError (surt TestPortErrors)"
)

// TestSurtVectors runs the anchors' vectors through "uri surt" and "uri
// canon", each flag combination a row, each row plain and with --json:
// the command gives the key the source gives, one line per input.
func TestSurtVectors(t *testing.T) {
	for _, v := range []struct {
		args      string
		in, want  string
		src       string
		errOffset int // for an error row (want "error"), the byte offset
	}{
		{"surt", "http://archive.org/goo/?a=2&b&a=1", "org,archive)/goo?a=1&a=2&b", srcSurt, 0},
		{"surt", "http://www.archive.org/", "org,archive)/", srcSurt, 0},
		{"surt", "http://archive.org/goo/?", "org,archive)/goo", srcSurt, 0},
		{"surt", "", "-", srcSurt, 0},
		{"surt", "filedesc:foo.arc.gz", "filedesc:foo.arc.gz", srcSurt, 0},
		{"surt", "warcinfo:foo.warc.gz", "warcinfo:foo.warc.gz", srcSurt, 0},
		{"surt", "dns:archive.org", "dns:archive.org", srcSurt, 0},
		{"surt", "http://192.168.1.254/info/", "254,1,168,192)/info", srcSurt, 0},
		{"surt", "https://34.203.211.192/robots.txt", "192,211,203,34)/robots.txt", srcWayback, 0},
		{"surt", "https://[2600:1f18:200d:fb00:2b74:867c:ab0c:150a]/robots.txt", "2600:1f18:200d:fb00:2b74:867c:ab0c:150a)/robots.txt", srcWayback, 0},
		{"surt", "http://archive.org/index.php?PHPSESSID=0123456789abcdefghijklemopqrstuv&action=profile;u=4221", "org,archive)/index.php?action=profile;u=4221", srcSurt, 0},
		{"surt --trailing-comma", "http://archive.org/goo/?a=2&b&a=1", "org,archive,)/goo?a=1&a=2&b", srcSurt, 0},
		{"surt --trailing-comma", "dns:archive.org", "dns:archive.org", srcSurt, 0},
		{"surt --keep-www", "http://www.example.com/", "com,example,www)/", srcSurt, 0},
		{"surt --keep-www", "http://www2.example.com/", "com,example,www2)/", srcPywb943, 0},
		{"surt --www-two-labels", "http://www1355544.com/", "com,www1355544)/", srcIssue28, 0},
		{"surt --www-two-labels", "http://www.example.com/", "com,example)/", srcIssue28, 0},
		{"surt --keep-trailing-slash", "http://archive.org/goo/", "org,archive)/goo/", srcIpwb104, 0},
		{"surt --with-scheme", "https://www.example.com/", "https://(com,example,)/", srcSurt, 0},
		{"surt --with-scheme", "ftp://www.example.com/", "ftp://(com,example,)/", srcSurt, 0},
		{"surt --with-scheme --keep-www", "http://www.example.com/", "http://(com,example,www,)/", srcSurt, 0},
		{"surt --with-scheme --trailing-comma", "http://www.example.com/", "http://(com,example,)/", srcSurt, 0},
		{"surt --with-scheme", "whois://whois.isoc.org.il/shaveh.co.il", "whois://(il,org,isoc,whois,)/shaveh.co.il", srcSurt, 0},
		{"surt --with-scheme", "mailto:foo@example.com", "mailto:foo@example.com", srcSurt, 0},
		{"surt --with-scheme", "dns:archive.org", "dns:archive.org", srcSurt, 0},
		{"surt --ssurt --profile none", "http://user:pass@foo.example.org:81/path?query#frag", "org,example,foo,//81:http@user:pass:/path?query#frag", srcSSURT, 0},
		{"surt --ssurt --profile none", "http://foo.example.org/path?query#frag", "org,example,foo,//http:/path?query#frag", srcSSURT, 0},
		{"surt --ssurt --profile none", "http://foo.example.org:81/path?query#frag", "org,example,foo,//81:http:/path?query#frag", srcSSURT, 0},
		{"surt --profile google --with-scheme", "http://host/%25%32%35", "http://(host,)/%25", srcGoogle, 0},
		{"surt --profile aggressive", "http://www12.foo.com/", "com,foo)/", srcAggr, 0},
		{"surt", "http://example.com:8x/", "error", srcSurtPort, 20},
		{"surt --with-scheme", "http://example.com:99999/", "error", srcSurtPort, 19},
		{"surt --profile whatwg", "https://ex ample.org/", "error", srcURLStd, 8},

		{"canon", "http://www.alexa.com/", "http://alexa.com/", srcDefIA, 0},
		{"canon --profile ia", "http://archive.org/index.html?b=b&a=b", "http://archive.org/index.html?a=b&b=b", srcDefIA, 0},
		{"canon --profile ia", "http://www34.archive.org/index.html?b=a&b=b&a=b", "http://archive.org/index.html?a=b&b=a&b=b", srcDefIA, 0},
		{"canon --profile ia --keep-www", "http://www34.archive.org/", "http://www34.archive.org/", srcPywb943, 0},
		{"canon --profile google", "http://host/%25%32%35", "http://host/%25", srcGoogle, 0},
		{"canon --profile google", "http://host/%%%25%32%35asd%%", "http://host/%25%25%25asd%25%25", srcGoogle, 0},
		{"canon --profile google", "http://%31%36%38%2e%31%38%38%2e%39%39%2e%32%36/%2E%73%65%63%75%72%65/%77%77%77%2E%65%62%61%79%2E%63%6F%6D/", "http://168.188.99.26/.secure/www.ebay.com/", srcGoogle, 0},
		{"canon --profile google", "http://www.gotaport.com:1234/", "http://www.gotaport.com:1234/", srcGoogle, 0},
		{"canon --profile semantic-precise", "  http://www.google.com/  ", "http://www.google.com/", srcPrecise, 0},
		{"canon --profile semantic_precise", "%20leadingspace.com/", "http://%20leadingspace.com/", srcPrecise, 0},
		{"canon --profile aggressive", "  https://www.google.com/  ", "http://google.com/", srcAggr, 0},
		{"canon --profile aggressive", "http://www.foo.com", "http://foo.com/", srcAggr, 0},
		{"canon --profile aggressive --keep-www", "http://www.foo.com", "http://www.foo.com/", srcPywb943, 0},
		{"canon --profile whatwg", "https:example.org", "https://example.org/", srcURLStd, 0},
		{"canon --profile whatwg", "https://////example.com///", "https://example.com///", srcURLStd, 0},
		{"canon --profile whatwg", "https://example.com/././foo", "https://example.com/foo", srcURLStd, 0},
		{"canon --profile whatwg", "https://example.com:demo", "error", srcURLStd, 20},
		{"canon --profile rfc3986", "HTTP://Example.COM:80/%7euser/a/./b/../c", "http://example.com/~user/a/c", "RFC 3986 6.2.2, 6.2.3", 0},
		{"canon --profile none", "HTTP://Example.COM:80/%7euser", "HTTP://Example.COM:80/%7euser", "package surt: None leaves the URI as written", 0},
		{"canon", "   ", "error", "package surt: ErrEmpty", 3},
	} {
		args := append(strings.Fields(v.args), "--", v.in)
		out, errOut, code := uriCmd(t, "", args...)
		if v.want == "error" {
			if code != 1 || !strings.HasPrefix(out, fmt.Sprintf("error: %d: ", v.errOffset)) || strings.Count(out, "\n") != 1 {
				t.Errorf("%s: uri %s %q = %q (exit %d, stderr %q), want one error line at offset %d", v.src, v.args, v.in, out, code, errOut, v.errOffset)
			}
		} else if out != v.want+"\n" || code != 0 {
			t.Errorf("%s: uri %s %q = %q (exit %d, stderr %q), want %q", v.src, v.args, v.in, out, code, errOut, v.want)
		}
		out, _, code = uriCmd(t, "", append([]string{args[0], "--json"}, args[1:]...)...)
		objs := jsonLines(t, out)
		if len(objs) != 1 || objs[0]["input"] != v.in {
			t.Errorf("%s: uri %s --json %q = %q, want one object with the input", v.src, v.args, v.in, out)
			continue
		}
		if v.want == "error" {
			if code != 1 || objs[0]["offset"] != float64(v.errOffset) || objs[0]["error"] == nil || objs[0]["result"] != nil {
				t.Errorf("%s: uri %s --json %q = %q (exit %d), want an error at offset %d", v.src, v.args, v.in, out, code, v.errOffset)
			}
		} else if objs[0]["result"] != v.want || len(objs[0]) != 2 || code != 0 {
			t.Errorf("%s: uri %s --json %q = %q (exit %d), want {\"input\", \"result\": %q}", v.src, v.args, v.in, out, code, v.want)
		}
	}
}

// keyInputs are lines of every kind for the flag matrices: URLs each
// profile reads, the records archives pass through, blank lines, ports
// that are not numbers, what only the lax profiles read (no scheme, a
// space in the host), bytes that are not UTF-8 and controls.
var keyInputs = []string{
	"http://www.Archive.org:80/goo/?b=2&a=1#top",
	"https://user:pass@foo.example.org:81/path?query#frag",
	"",
	" \t ",
	"http://b.example:99999/",
	"http://b.example:8x/",
	"dns:archive.org",
	"filedesc:foo.arc.gz",
	"warcinfo:foo.warc.gz\x01",
	"www.example.com/a/",
	"http://ex ample.org/",
	"http://\xff.example/\x01",
	"mailto:foo@example.com",
	"http://[2600:1f18::1]/robots.txt",
	"http://192.168.1.254/info/?jsessionid=0123456789abcdefghijklemopqrstuv",
	"HTTPS://www2.example.com/A/B/?SID=0123456789abcdef0123&x=1",
}

// anchorInputs returns keyInputs and the inputs of urlcanon's tables
// (vendored under testdata/surt), those that are one line each.
func anchorInputs(t *testing.T) []string {
	t.Helper()
	ins := append([]string(nil), keyInputs...)
	for _, f := range []string{"urlcanon.surt.json", "urlcanon.semantic_precise.json", "urlcanon.aggressive.json", "urlcanon.ssurt.json"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "surt", f))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var add func(m map[string]any)
		add = func(m map[string]any) {
			for k, v := range m {
				if sub, ok := v.(map[string]any); ok {
					add(sub)
					continue
				}
				if !strings.ContainsAny(k, "\r\n") {
					ins = append(ins, k)
				}
			}
		}
		add(m)
	}
	sort.Strings(ins[len(keyInputs):]) // a stable order, for messages
	if len(ins) < 200 {
		t.Fatalf("%d inputs from urlcanon's tables, want hundreds", len(ins))
	}
	return ins
}

// wantLine returns the plain line and the JSON object the command must
// write for in, given what the library gave (key, err): the key, or the
// error line with the offset and the component of the library's error.
func wantLine(t *testing.T, in, key string, err error) (plain string, obj map[string]any) {
	t.Helper()
	obj = map[string]any{"input": jsonRound(in)}
	if err == nil {
		obj["result"] = jsonRound(key)
		return string(appendPlain(nil, key)) + "\n", obj
	}
	var pe *uri.ParseError
	var we *whatwg.ParseError
	off, reason := -1, ""
	switch {
	case errors.As(err, &pe):
		off, reason = pe.Offset, pe.Detail()
		if !strings.Contains(reason, " in "+pe.Component.String()) {
			t.Errorf("%q: the reason %q does not name the component %s", in, reason, pe.Component)
		}
	case errors.As(err, &we):
		// The URL Standard blames no byte for some failures (no
		// scheme): no offset, as "uri normalize --whatwg" writes them.
		off, reason = we.Offset, we.Err.String()
		if off < 0 {
			obj["error"], obj["offset"] = reason, nil
			return "error: " + reason + "\n", obj
		}
	case errors.Is(err, surt.ErrEmpty):
		off, reason = len(in), "no URL: the line is empty or only spaces and controls"
	default:
		t.Fatalf("%q: an error the command cannot place: %v", in, err)
	}
	if off < 0 || off > len(in) {
		t.Errorf("%q: offset %d outside the input", in, off)
	}
	obj["error"], obj["offset"] = reason, float64(off)
	return fmt.Sprintf("error: %d: %s\n", off, reason), obj
}

// jsonRound returns s as it reads back from JSON (bytes that are not
// UTF-8 become U+FFFD).
func jsonRound(s string) string {
	b, _ := json.Marshal(s)
	var r string
	json.Unmarshal(b, &r)
	return r
}

// checkStream runs uri with args on the lines ins and checks that each
// input gives one line, the one the library's fn gives, plain and with
// --json, and the exit status (1 when any failed).
func checkStream(t *testing.T, args []string, ins []string, fn func(string) (string, error)) {
	t.Helper()
	stdin := strings.Join(ins, "\n") + "\n"
	wantPlain, wantObjs, failed := "", []map[string]any{}, false
	for _, in := range ins {
		k, err := fn(in)
		p, o := wantLine(t, in, k, err)
		wantPlain += p
		wantObjs = append(wantObjs, o)
		failed = failed || err != nil
	}
	wantCode := map[bool]int{false: 0, true: 1}[failed]
	out, errOut, code := uriCmd(t, stdin, args...)
	if code != wantCode || errOut != "" {
		t.Errorf("uri %s: exit %d, stderr %q; want exit %d", strings.Join(args, " "), code, errOut, wantCode)
	}
	if got, want := strings.Split(out, "\n"), strings.Split(wantPlain, "\n"); len(got) != len(want) {
		t.Errorf("uri %s: %d lines for %d inputs", strings.Join(args, " "), len(got)-1, len(ins))
	} else {
		for k := range got {
			if got[k] != want[k] {
				t.Errorf("uri %s: input %q: %q, want %q", strings.Join(args, " "), ins[k], got[k], want[k])
			}
		}
	}
	out, _, code = uriCmd(t, stdin, append(args, "--json")...)
	objs := jsonLines(t, out)
	if code != wantCode || len(objs) != len(ins) {
		t.Fatalf("uri %s --json: exit %d, %d objects for %d inputs", strings.Join(args, " "), code, len(objs), len(ins))
	}
	for k, o := range objs {
		delete(o, "input_hex") // inputhex_test.go tests it
		if fmt.Sprint(o) != fmt.Sprint(wantObjs[k]) {
			t.Errorf("uri %s --json: input %q: %v, want %v", strings.Join(args, " "), ins[k], o, wantObjs[k])
		}
	}
}

// TestSurtFlagMatrix runs "uri surt" with every combination of the form
// flags and --profile (the default and each profile), plain and
// --json, on every kind of line and the inputs of urlcanon's tables: each
// input gives the library's key or its error, one line each, in order.
// --with-scheme and --ssurt together are a usage error.
func TestSurtFlagMatrix(t *testing.T) {
	ins := anchorInputs(t)
	forms := []struct {
		flags []string
		form  surt.Form
	}{{nil, surt.URLKey}, {[]string{"--with-scheme"}, surt.Heritrix}, {[]string{"--ssurt"}, surt.SSURT}}
	profiles := []string{""} // the default, then each by name
	for _, p := range surt.Profiles() {
		profiles = append(profiles, p.String())
	}
	for _, f := range forms {
		for _, p := range profiles {
			args := append([]string{"surt"}, f.flags...)
			o := surt.Options{Form: f.form}
			if p != "" {
				args = append(args, "--profile", p)
				var err error
				if o.Profile, err = surt.ParseProfile(p); err != nil {
					t.Fatal(err)
				}
			}
			checkStream(t, args, ins, o.Key)
		}
	}
	// The switches, alone and together, under the profiles that have
	// the rules they switch.
	switches := []string{"--keep-www", "--www-two-labels", "--keep-trailing-slash", "--trailing-comma"}
	for mask := 1; mask < 1<<len(switches); mask++ {
		for _, p := range []string{"ia", "aggressive"} {
			args := []string{"surt", "--profile", p}
			o := surt.Options{}
			o.Profile, _ = surt.ParseProfile(p)
			for k, s := range switches {
				if mask&(1<<k) != 0 {
					args = append(args, s)
				}
			}
			o.KeepWWW, o.WWWTwoLabels = mask&1 != 0, mask&2 != 0
			o.KeepTrailingSlash, o.TrailingComma = mask&4 != 0, mask&8 != 0
			checkStream(t, args, keyInputs, o.Key)
		}
	}
	for _, args := range [][]string{
		{"surt", "--with-scheme", "--ssurt", "http://a/"},
		{"surt", "--profile", "browser", "http://a/"},
		{"surt", "--profile", "http://a/"},
		{"canon", "--profile", "IA2", "http://a/"},
		{"canon", "--with-scheme", "http://a/"},
		{"canon", "--trailing-comma", "http://a/"},
	} {
		out, errOut, code := uriCmd(t, "", args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "Run 'uri help "+args[0]+"'") {
			t.Errorf("uri %s: exit %d, stdout %q, stderr %q; want a usage error", strings.Join(args, " "), code, out, errOut)
		}
	}
}

// TestCanonFlagMatrix runs "uri canon" with every profile and every
// combination of its switches, plain and --json.
func TestCanonFlagMatrix(t *testing.T) {
	ins := anchorInputs(t)
	checkStream(t, []string{"canon"}, ins, surt.Options{}.Canonicalize) // the default, ia
	for _, p := range surt.Profiles() {
		args := []string{"canon", "--profile", p.String()}
		checkStream(t, args, ins, surt.Options{Profile: p}.Canonicalize)
		switches := []string{"--keep-www", "--www-two-labels", "--keep-trailing-slash"}
		for mask := 1; mask < 1<<len(switches); mask++ {
			a := append([]string(nil), args...)
			for k, s := range switches {
				if mask&(1<<k) != 0 {
					a = append(a, s)
				}
			}
			o := surt.Options{Profile: p, KeepWWW: mask&1 != 0, WWWTwoLabels: mask&2 != 0, KeepTrailingSlash: mask&4 != 0}
			checkStream(t, a, keyInputs, o.Canonicalize)
		}
	}
}

// TestSurtSkipErrors: with --skip-errors every input is accounted for,
// its key on standard output or its error, with where it came from, on
// standard error.
func TestSurtSkipErrors(t *testing.T) {
	stdin := strings.Join(keyInputs, "\n") + "\n"
	for _, args := range [][]string{{"surt", "--skip-errors"}, {"surt", "--ssurt", "--skip-errors"}, {"canon", "--profile", "whatwg", "--skip-errors"}} {
		out, errOut, code := uriCmd(t, stdin, args...)
		keys, errs := strings.Count(out, "\n"), strings.Count(errOut, "\n")
		if keys+errs != len(keyInputs) || errs == 0 || code != 1 {
			t.Errorf("uri %s: %d keys + %d errors for %d inputs, exit %d", strings.Join(args, " "), keys, errs, len(keyInputs), code)
		}
		for _, l := range strings.Split(strings.TrimSuffix(errOut, "\n"), "\n") {
			if !strings.HasPrefix(l, "uri "+args[0]+": standard input:") || !strings.Contains(l, ": error: ") {
				t.Errorf("uri %s: error line %q, want \"uri %s: standard input:N: error: OFFSET: REASON\"", strings.Join(args, " "), l, args[0])
			}
		}
	}
}

// TestGetSite runs the template names {site}, {site:icann}, {suffix} and
// {suffix:icann} on hosts of the Public Suffix List's test file and of
// its private section, plain and --json (null where there is none).
func TestGetSite(t *testing.T) {
	null := "<null>"
	for _, c := range []struct {
		src                                  string
		host                                 string
		site, siteICANN, suffix, suffixICANN string
	}{
		{srcPSL, "example.com", "example.com", "example.com", "com", "com"},
		{srcPSL, "b.example.com", "example.com", "example.com", "com", "com"},
		{srcPSL, "a.b.example.uk.com", "example.uk.com", "uk.com", "uk.com", "com"},
		{srcPSL, "www.xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn", "xn--55qx5d.cn", "xn--55qx5d.cn"},
		{srcPSL, "%E9%A3%9F%E7%8B%AE.%E5%85%AC%E5%8F%B8.cn", "食狮.公司.cn", "食狮.公司.cn", "公司.cn", "公司.cn"},
		{srcPSL, "WWW.EXAMPLE.COM", "example.com", "example.com", "com", "com"},
		{srcPSL, "uk.com", null, "uk.com", "uk.com", "com"},
		{srcPSL, "com", null, null, "com", "com"},
		{srcPSL, "example", null, null, "example", "example"},
		{srcPSL, "a.b.c.kobe.jp", "b.c.kobe.jp", "b.c.kobe.jp", "c.kobe.jp", "c.kobe.jp"},
		{srcPSL, "www.city.kobe.jp", "city.kobe.jp", "city.kobe.jp", "kobe.jp", "kobe.jp"},
		{srcPSLFile, "a.b.github.io", "b.github.io", "github.io", "github.io", "io"},
		{"RFC 3986 3.2.2: an IP literal is no domain", "[2001:db8::7]", null, null, null, null},
		{"RFC 3986 3.2.2: nor an IPv4 address", "192.0.2.16", null, null, null, null},
		{"RFC 3986 3.2.2: an empty reg-name", "", null, null, null, null},
	} {
		in := "http://" + c.host + "/x"
		if c.host == "" {
			in = "file:///x" // http needs a host
		}
		want := []string{c.site, c.siteICANN, c.suffix, c.suffixICANN}
		plain := make([]string, 4)
		for k, w := range want {
			if w != null {
				plain[k] = w
			}
		}
		out, errOut, code := uriCmd(t, "", "get", "{site}|{site:icann}|{suffix}|{suffix:icann}", in)
		if out != strings.Join(plain, "|")+"\n" || code != 0 {
			t.Errorf("%s: uri get {site}... %s = %q (exit %d, %q), want %q", c.src, in, out, code, errOut, strings.Join(plain, "|"))
		}
		out, _, _ = uriCmd(t, "", "get", "--json", "{site}{site:icann}{suffix}{suffix:icann}", in)
		objs := jsonLines(t, out)
		if len(objs) != 1 {
			t.Fatalf("uri get --json: %q", out)
		}
		for k, name := range []string{"site", "site:icann", "suffix", "suffix:icann"} {
			got, ok := objs[0][name]
			if !ok || (want[k] == null) != (got == nil) || (got != nil && got != want[k]) {
				t.Errorf("%s: uri get --json {%s} %s = %v, want %q", c.src, name, in, got, want[k])
			}
		}
	}
	// A URN has no host, and the raw forms do not exist.
	if out, _, _ := uriCmd(t, "", "get", "--json", "{site}", "urn:isbn:0-395-36341-1"); !strings.Contains(out, `"site":null`) {
		t.Errorf("uri get --json {site} of a URN: %q, want null", out)
	}
	for _, tmpl := range []string{"{:site}", "{:suffix:icann}", "{site:private}"} {
		if _, errOut, code := uriCmd(t, "", "get", tmpl, "http://a.example/"); code != 2 || !strings.Contains(errOut, "unknown placeholder") {
			t.Errorf("uri get %s: exit %d, %q; want a usage error", tmpl, code, errOut)
		}
	}
}

// TestSurtLinear: "uri surt" and "uri canon" take time linear in a line
// of the shapes that make canonicalizers quadratic (escapes of escapes,
// dot segments, runs of www labels and of session ids), as a command.
func TestSurtLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("linearity check: seconds of CPU")
	}
	const id32 = "0123456789abcdef0123456789abcdef"
	shapes := map[string]func(n int) string{
		"escapes":  func(n int) string { return "http://a/%" + strings.Repeat("25", n/2) + "\n" },
		"dotsegs":  func(n int) string { return "http://a/" + strings.Repeat("x/../", n/5) + "\n" },
		"www":      func(n int) string { return "http://" + strings.Repeat("www.", n/4) + "a.b/\n" },
		"sessions": func(n int) string { return "http://a/?" + strings.Repeat("sid="+id32+"&", n/37) + "\n" },
		"labels":   func(n int) string { return "http://" + strings.Repeat("a.", n/2) + "example.co.uk/\n" },
	}
	// Each form on the shapes its rules work on (package surt's
	// TestLinear runs every shape under the profiles).
	for _, c := range []struct{ form, shape string }{
		{"surt", "escapes"}, {"surt", "www"}, {"surt", "sessions"},
		{"surt --ssurt --profile aggressive", "sessions"}, {"surt --with-scheme", "labels"},
		{"canon --profile google", "escapes"}, {"canon --profile semantic-precise", "dotsegs"},
		{"get {site}{suffix:icann}", "labels"},
	} {
		args := strings.Fields(c.form)
		testshared.CheckLinearN(t, c.form+"/"+c.shape, 128<<10, shapes[c.shape], func(in string) {
			if _, errOut, code := uriCmd(t, in, args...); code != 0 {
				t.Fatalf("uri %s on %d bytes: exit %d, %q", c.form, len(in), code, errOut)
			}
		})
	}
}
