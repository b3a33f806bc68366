package whatwg

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// The web-platform-tests of the URL Standard (url/resources, BSD-3-Clause;
// testdata/conformance/whatwg, see testdata/README.md). Every case must
// pass: a case that fails and is not in wptKnown fails the test, and so
// does a case in wptKnown that passes.

// wptKnown lists the cases we knowingly fail, by file and input, with
// the reason. It is empty: the standard is implemented in full.
var wptKnown = map[string]string{}

type wptURLCase struct {
	Input        string  `json:"input"`
	Base         *string `json:"base"`
	Failure      bool    `json:"failure"`
	RelativeTo   string  `json:"relativeTo"`
	Href         string  `json:"href"`
	Origin       *string `json:"origin"`
	Protocol     string  `json:"protocol"`
	Username     string  `json:"username"`
	Password     string  `json:"password"`
	Host         string  `json:"host"`
	Hostname     string  `json:"hostname"`
	Port         string  `json:"port"`
	Pathname     string  `json:"pathname"`
	Search       string  `json:"search"`
	SearchParams *string `json:"searchParams"`
	Hash         string  `json:"hash"`
}

// readWPT returns the objects of a WPT file, skipping its comment strings.
func readWPT[T any](t *testing.T, name string) []T {
	t.Helper()
	var raw []json.RawMessage
	testshared.ReadJSON(t, &raw, "conformance", "whatwg", name)
	var out []T
	for _, r := range raw {
		if len(r) > 0 && r[0] == '"' {
			continue
		}
		var v T
		if err := json.Unmarshal(r, &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, v)
	}
	return out
}

// wptCheck records a case's verdict against wptKnown.
type wptCheck struct {
	t      *testing.T
	file   string
	n, bad int
}

func (c *wptCheck) verdict(key string, problems []string) {
	c.n++
	reason, known := wptKnown[c.file+"\x00"+key]
	switch {
	case len(problems) > 0 && !known:
		c.bad++
		c.t.Errorf("%s %q:\n\t%s", c.file, key, strings.Join(problems, "\n\t"))
	case len(problems) == 0 && known:
		c.t.Errorf("%s %q passes but is listed as known (%s)", c.file, key, reason)
	}
}

func (c *wptCheck) done() {
	c.t.Logf("%s: %d cases, %d unexpected failures", c.file, c.n, c.bad)
}

// parseWith is the API URL parser: the base parsed first.
func parseWith(input string, base *string) (URL, error) {
	if base == nil {
		return Parse(input)
	}
	b, err := Parse(*base)
	if err != nil {
		return URL{}, err
	}
	return ParseRef(b, input)
}

// fields compares the getters of u with want.
func fields(u URL, want map[string]string) []string {
	got := map[string]string{
		"href": u.Href(), "origin": u.Origin(), "protocol": u.Protocol(),
		"username": u.Username(), "password": u.Password(), "host": u.Host(),
		"hostname": u.Hostname(), "port": u.Port(), "pathname": u.Pathname(),
		"search": u.Search(), "hash": u.Hash(),
	}
	var problems []string
	for _, k := range []string{"href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"} {
		w, ok := want[k]
		if ok && got[k] != w {
			problems = append(problems, fmt.Sprintf("%s = %q, want %q", k, got[k], w))
		}
	}
	return problems
}

func TestWPTURLTestData(t *testing.T) {
	cases := readWPT[wptURLCase](t, "urltestdata.json")
	c := &wptCheck{t: t, file: "urltestdata.json"}
	nonOpaque := MustParse("http://example.org/foo/bar")
	for _, tc := range cases {
		key := tc.Input
		if tc.Base != nil {
			key += " against " + *tc.Base
		}
		var problems []string
		u, err := parseWith(tc.Input, tc.Base)
		switch {
		case tc.Failure && err == nil:
			problems = append(problems, "parsed as "+u.Href()+", want failure")
		case tc.Failure && tc.Base == nil && tc.RelativeTo == "":
			// A failure without a base is a failure with any base too
			// (failure.html). relativeTo marks the inputs that a base can
			// rescue, which the WPT leave out of its base-relative checks.
			if v, err := ParseRef(nonOpaque, tc.Input); err == nil {
				problems = append(problems, "parses against "+nonOpaque.Href()+" as "+v.Href()+", want failure")
			}
		case tc.Failure:
		case err != nil:
			problems = append(problems, "failed: "+err.Error())
		default:
			want := map[string]string{
				"href": tc.Href, "protocol": tc.Protocol, "username": tc.Username,
				"password": tc.Password, "host": tc.Host, "hostname": tc.Hostname, "port": tc.Port,
				"pathname": tc.Pathname, "search": tc.Search, "hash": tc.Hash,
			}
			if tc.Origin != nil {
				want["origin"] = *tc.Origin
			}
			problems = fields(u, want)
			if tc.SearchParams != nil {
				if got := u.SearchParams().String(); got != *tc.SearchParams {
					problems = append(problems, fmt.Sprintf("searchParams = %q, want %q", got, *tc.SearchParams))
				}
			}
		}
		c.verdict(key, problems)
	}
	c.done()
}

type wptToASCIICase struct {
	Input  string  `json:"input"`
	Output *string `json:"output"`
}

// TestWPTToASCII runs toascii.json as the WPT's toascii.window.js does:
// the input as the host of "https://INPUT/x", and through the host and
// hostname setters.
func TestWPTToASCII(t *testing.T) {
	cases := readWPT[wptToASCIICase](t, "toascii.json")
	c := &wptCheck{t: t, file: "toascii.json"}
	for _, tc := range cases {
		var problems []string
		u, err := Parse("https://" + tc.Input + "/x")
		if tc.Output == nil {
			if err == nil {
				problems = append(problems, "parsed with host "+u.Host()+", want failure")
			}
		} else if err != nil {
			problems = append(problems, "failed: "+err.Error())
		} else {
			if u.Host() != *tc.Output || u.Hostname() != *tc.Output || u.Pathname() != "/x" || u.Href() != "https://"+*tc.Output+"/x" {
				problems = append(problems, fmt.Sprintf("host %q href %q, want host %q", u.Host(), u.Href(), *tc.Output))
			}
		}
		for _, setter := range []string{"host", "hostname"} {
			base := MustParse("https://x/x")
			var got URL
			if setter == "host" {
				got = base.SetHost(tc.Input)
			} else {
				got = base.SetHostname(tc.Input)
			}
			want := "x"
			if tc.Output != nil {
				want = *tc.Output
			}
			if got.Hostname() != want {
				problems = append(problems, fmt.Sprintf("%s setter: hostname %q, want %q", setter, got.Hostname(), want))
			}
		}
		c.verdict(tc.Input, problems)
	}
	c.done()
}

type wptPercentCase struct {
	Input  string            `json:"input"`
	Output map[string]string `json:"output"`
}

// TestWPTPercentEncoding runs percent-encoding.json as the WPT's
// percent-encoding.window.js does for UTF-8: the input in the query and
// the fragment of a special URL. The other encodings of the file are
// those of a document's character set, which reach the query only
// through HTML; this package, like new URL(), always uses UTF-8.
func TestWPTPercentEncoding(t *testing.T) {
	cases := readWPT[wptPercentCase](t, "percent-encoding.json")
	c := &wptCheck{t: t, file: "percent-encoding.json"}
	for _, tc := range cases {
		var problems []string
		want := tc.Output["utf-8"]
		u, err := Parse("https://doesnotmatter.invalid/?" + tc.Input + "#" + tc.Input)
		if err != nil {
			problems = append(problems, "failed: "+err.Error())
		} else {
			if u.Search() != "?"+want {
				problems = append(problems, fmt.Sprintf("search %q, want %q", u.Search(), "?"+want))
			}
			if u.Hash() != "#"+want {
				problems = append(problems, fmt.Sprintf("hash %q, want %q", u.Hash(), "#"+want))
			}
		}
		c.verdict(tc.Input, problems)
	}
	c.done()
}

type wptSetterCase struct {
	Href     string            `json:"href"`
	NewValue string            `json:"new_value"`
	Expected map[string]string `json:"expected"`
}

// TestWPTSetters runs setters_tests.json: each setter on the URL of
// href, then the getters the case lists.
func TestWPTSetters(t *testing.T) {
	var data map[string]json.RawMessage
	testshared.ReadJSON(t, &data, "conformance", "whatwg", "setters_tests.json")
	c := &wptCheck{t: t, file: "setters_tests.json"}
	setters := map[string]func(URL, string) URL{
		"protocol": URL.SetProtocol, "username": URL.SetUsername, "password": URL.SetPassword,
		"host": URL.SetHost, "hostname": URL.SetHostname, "port": URL.SetPort,
		"pathname": URL.SetPathname, "search": URL.SetSearch, "hash": URL.SetHash,
		"href": func(u URL, v string) URL {
			if n, err := u.SetHref(v); err == nil {
				return n
			}
			return u
		},
	}
	for attr, raw := range data {
		if attr == "comment" {
			continue
		}
		set := setters[attr]
		if set == nil {
			t.Errorf("no setter for %q", attr)
			continue
		}
		var cases []wptSetterCase
		if err := json.Unmarshal(raw, &cases); err != nil {
			t.Fatal(err)
		}
		for _, tc := range cases {
			key := attr + " " + tc.Href + " := " + tc.NewValue
			u, err := Parse(tc.Href)
			if err != nil {
				c.verdict(key, []string{"href failed: " + err.Error()})
				continue
			}
			got := set(u, tc.NewValue)
			problems := fields(got, tc.Expected)
			// The result must be what parsing its href gives.
			if again, err := Parse(got.Href()); err != nil || again.Href() != got.Href() {
				problems = append(problems, fmt.Sprintf("href %q does not parse back: %v", got.Href(), err))
			}
			c.verdict(key, problems)
		}
	}
	c.done()
}
