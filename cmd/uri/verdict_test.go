package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/scheme"
	"github.com/urikit/urikit/uri"
)

// verdictInputs returns the inputs of the one-verdict property: every
// stride-th line of the corpora (URLs, URNs; all the open-redirect
// payloads) and hostile
// variants made from parts: big and odd ports, hosts that name nothing
// (an escaped space, NUL, "/", bytes that are not UTF-8), empty hosts,
// userinfo, IPv6 and IPvFuture literals and zone identifiers, percent
// forms, for schemes with rules and without, in both cases.
func verdictInputs(t testing.TB, stride int) []string {
	var in []string
	for _, name := range testshared.CorpusNames {
		for i, s := range testshared.LoadCorpus(t, name).Lines {
			if i%stride == 0 {
				in = append(in, s)
			}
		}
	}
	// The open-redirect payloads, when the shared directory is there.
	adv, _ := filepath.Glob(filepath.Join(os.Getenv(testshared.EnvVar), "corpora", "adversarial", "*.txt"))
	for _, f := range adv {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, strings.Split(string(b), "\n")...)
	}
	schemes := []string{"http", "HTTPS", "ftp", "gopher", "news", "nntp", "telnet", "wais", "prospero", "mailto", "urn", "file", "mid", "foo"}
	users := []string{"", "u@", "u:p@", ":@", "u%40:p%3A@", "%00@"}
	hosts := []string{"", "h", "bad%20host", "a%00b", "%e2%98%83", "%FF", "a%2Fb", "a%25", "127.0.0.1", "[::1]",
		"[fe80::1%25en0]", "[v1.x]", "xn--n3h", "a%zz", "%41"}
	ports := []string{"", ":", ":80", ":0", ":65535", ":65536", ":99999", ":007", ":99999999999999999999", ":x"}
	tails := []string{"/", "/g/1", "/p?q#f", "/a%0D%0Ab", "?x#y", "/d;type=a"}
	for _, s := range schemes {
		for _, u := range users {
			for _, h := range hosts {
				for _, p := range ports {
					in = append(in, s+"://"+u+h+p+tails[len(in)%len(tails)])
				}
			}
		}
		for _, rest := range []string{"", ":", "x", "a@b", "isbn:0451450523", "isbn:", "//", "/x", "a%00b", "g/1?x#y"} {
			in = append(in, s+":"+rest)
		}
	}
	// The scheme-less: relative references (no scheme, no rules).
	in = append(in, "//bad%20host/", "//h:99999/", "/p?q", "", "a:b:c")
	// Lines are inputs: no line break inside one.
	for i, s := range in {
		in[i] = strings.NewReplacer("\n", "", "\r", "").Replace(s)
	}
	return in
}

// oneVerdict lists the subcommands of the property, each with an
// operation that keeps the input's meaning.
var oneVerdict = [][]string{
	{"check"}, {"parse"}, {"normalize"}, {"edit", "--trim", "query=utm_*"}, {"get", "{host}"},
}

// verdicts returns what a subcommand made of each input: "" when it
// accepted it, else "error: OFFSET: REASON".
func verdicts(t *testing.T, in []string, args ...string) map[string]string {
	t.Helper()
	out, errOut, _ := uriCmd(t, strings.Join(in, "\n")+"\n", append(args, "--json")...)
	if errOut != "" {
		t.Fatalf("%v: %s", args, errOut)
	}
	v := map[string]string{}
	objs := jsonLines(t, out)
	if args[0] != "check" && len(objs) != len(in) {
		t.Fatalf("%v: %d results for %d inputs", args, len(objs), len(in))
	}
	for _, o := range objs {
		s := o["input"].(string)
		if e, ok := o["error"]; ok {
			v[s] = fmt.Sprintf("error: %v: %v", o["offset"], e)
		} else if _, seen := v[s]; !seen {
			v[s] = ""
		}
	}
	return v
}

// TestOneVerdict: issue 26. An input is accepted by every subcommand
// that reads URIs (check, parse, normalize, edit, get: the generic
// syntax and the rules of its scheme, scheme.Check) or refused by all
// of them with the same error, with and without --repair. Before, uri
// check refused "http://example.com:99999/" that the others accepted.
// Every 16th line of the corpora here (FuzzOneVerdict goes further).
func TestOneVerdict(t *testing.T) {
	in := verdictInputs(t, 16)
	for _, repair := range []bool{false, true} {
		var extra []string
		if repair {
			extra = []string{"--repair"}
		}
		cmds := oneVerdict
		all := make([]map[string]string, len(cmds))
		for i, c := range cmds {
			all[i] = verdicts(t, in, append(c, extra...)...)
		}
		refused, bad := 0, 0
		for _, s := range in {
			want := all[0][s] // check prints only failures
			if want != "" {
				refused++
			}
			for i, c := range cmds[1:] {
				if got := all[i+1][s]; got != want && bad < 20 {
					bad++
					t.Errorf("repair=%v %q: check says %q, %s says %q", repair, s, want, c[0], got)
				}
			}
			if repair {
				continue
			}
			// The verdict is the library's: uri.Parse and scheme.Check.
			u, err := uri.Parse(s)
			if err == nil {
				err = scheme.Check(u)
			}
			if (err == nil) != (want == "") && bad < 20 {
				bad++
				t.Errorf("%q: the command says %q, the library %v", s, want, err)
			}
		}
		t.Logf("repair=%v: %d inputs, %d refused by all", repair, len(in), refused)
	}
}

// FuzzOneVerdict: the property of TestOneVerdict on any input line,
// seeded with some of its inputs.
func FuzzOneVerdict(f *testing.F) {
	for i, s := range verdictInputs(f, 1000) {
		if i%256 == 0 {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\r\n") {
			return // one line is one input
		}
		for _, extra := range [][]string{nil, {"--repair"}} {
			var first string
			for i, c := range oneVerdict {
				v := verdicts(t, []string{s}, append(c, extra...)...)[s]
				if i == 0 {
					first = v
				} else if v != first {
					t.Fatalf("%q %v: check says %q, %s says %q", s, extra, first, c[0], v)
				}
			}
		}
	})
}

// TestEncodeHostNote: issue 26. A non-ASCII host without --idna is no
// failure (RFC 3986 3.2.2: percent-encoded UTF-8 is a reg-name): its
// result on standard output, exit status 0, and the note on standard
// error after where the input came from, as every line about one input
// there says (--skip-errors). With --idna, a host UTS #46 refuses is a
// failure: with --skip-errors, its error line on standard error after
// its place, nothing on standard output, exit status 1.
func TestEncodeHostNote(t *testing.T) {
	for _, skip := range []bool{false, true} {
		args := []string{"encode", "--component", "host"}
		if skip {
			args = append(args, "--skip-errors")
		}
		out, errOut, code := uriCmd(t, "x\nmünchen\nköln\n", args...)
		if out != "x\nm%C3%BCnchen\nk%C3%B6ln\n" || code != 0 ||
			!strings.HasPrefix(errOut, `uri encode: standard input:2: note: "münchen" is not ASCII`) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: %q exit %d, stderr %q", args, out, code, errOut)
		}
	}
	out, errOut, code := uriCmd(t, "a b.dé\nmünchen.de\n", "encode", "--component", "host", "--idna", "--skip-errors")
	if out != "xn--mnchen-3ya.de\n" || code != 1 || !strings.HasPrefix(errOut, "uri encode: standard input:1: error: ") {
		t.Errorf("--idna --skip-errors: %q exit %d, stderr %q", out, code, errOut)
	}
}

// TestPlanNNTPWarns: uri plan and uri check --warn say what the nntp
// plan leaves out (RFC 5538 2.2; issue 26).
func TestPlanNNTPWarns(t *testing.T) {
	out, _, code := uriCmd(t, "", "plan", "--json", "nntp://h/g/1?x#y")
	o := jsonLines(t, out)
	if code != 0 || len(o) != 1 || fmt.Sprint(o[0]["warnings"]) != "[ignored-part]" || fmt.Sprint(o[0]["commands"]) != "[GROUP g ARTICLE 1]" {
		t.Errorf("plan --json: %s exit %d", out, code)
	}
	if out, _, code := uriCmd(t, "", "check", "--warn", "nntp://h/g/1?x#y"); out != "nntp://h/g/1?x#y\twarning: ignored-part\n" || code != 0 {
		t.Errorf("check --warn: %q exit %d", out, code)
	}
}

// TestEditPortVerdict: issue 26. "--set port=99999" on an http URL gives
// what uri check says of the result: refused, port above 65535; on a
// scheme without rules, accepted (RFC 3986 3.2.3: port = *DIGIT).
func TestEditPortVerdict(t *testing.T) {
	_, _, code := uriCmd(t, "", "check", "http://a:99999/")
	out, _, ecode := uriCmd(t, "", "edit", "--set", "port=99999", "http://a/")
	if code != 1 || ecode != 1 || out != `error: port above 65535 in port of "http://a:99999/"`+"\n" {
		t.Errorf("edit --set port=99999: %q exit %d (check exit %d)", out, ecode, code)
	}
	if out, _, code := uriCmd(t, "", "edit", "--set", "port=99999", "foo://a/"); out != "foo://a:99999/\n" || code != 0 {
		t.Errorf("edit foo: %q exit %d", out, code)
	}
}

// TestResolveBaseDotsCommand: RFC 3986 5.2.2, a reference without a
// path takes the base's path as written (issue 26).
func TestResolveBaseDotsCommand(t *testing.T) {
	out, _, code := uriCmd(t, "", "resolve", "--base", "http://a/b/c/..", "?y", "g")
	if out != "http://a/b/c/..?y\nhttp://a/b/c/g\n" || code != 0 {
		t.Errorf("resolve: %q exit %d", out, code)
	}
}
