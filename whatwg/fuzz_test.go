package whatwg

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// fuzzSeeds adds the inputs and bases of urltestdata.json.
func fuzzSeeds(f *testing.F, add func(in, base string)) {
	var raw []json.RawMessage
	p := filepath.Join(testshared.TestdataDir(), "conformance", "whatwg", "urltestdata.json")
	b, err := os.ReadFile(p)
	if err != nil {
		f.Fatal(err)
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		f.Fatal(err)
	}
	for _, r := range raw {
		var c wptURLCase
		if json.Unmarshal(r, &c) != nil {
			continue
		}
		base := "http://example.org/foo/bar"
		if c.Base != nil {
			base = *c.Base
		}
		add(c.Input, base)
	}
}

// checkURL asserts what every URL the parser returns must satisfy: the
// href parses back to itself (the standard's serializer and parser are
// idempotent), the getters slice the href consistently, and the setters
// given a getter's own value change nothing.
func checkURL(t *testing.T, u URL, from string) {
	t.Helper()
	h := u.Href()
	again, err := Parse(h)
	if err != nil {
		t.Fatalf("%q: href %q does not parse: %v", from, h, err)
	}
	if again.Href() != h {
		t.Fatalf("%q: href %q parses to %q", from, h, again.Href())
	}
	rebuilt := u.Protocol()
	if u.HasHost() {
		rebuilt += "//"
		if u.Username() != "" || u.Password() != "" {
			rebuilt += u.Username()
			if u.Password() != "" {
				rebuilt += ":" + u.Password()
			}
			rebuilt += "@"
		}
		rebuilt += u.Host()
	} else if !u.HasOpaquePath() && len(u.Pathname()) > 1 && u.Pathname()[:2] == "//" {
		rebuilt += "/."
	}
	rebuilt += u.Pathname()
	if u.HasQuery() {
		rebuilt += "?" + u.Query()
	}
	if u.HasFragment() {
		rebuilt += "#" + u.Fragment()
	}
	if rebuilt != h {
		t.Fatalf("%q: getters rebuild %q, href %q", from, rebuilt, h)
	}
	same := map[string]URL{
		"pathname": u.SetPathname(u.Pathname()),
		"search":   u.SetSearch(u.Search()),
		"hash":     u.SetHash(u.Hash()),
		"protocol": u.SetProtocol(u.Protocol()),
	}
	if u.HasHost() {
		// The host setter given "" gives a null host the empty host.
		same["host"] = u.SetHost(u.Host())
	}
	for name, v := range same {
		if v.Href() != h && !(name == "search" && u.Search() == "" && u.HasQuery()) && !(name == "hash" && u.Hash() == "" && u.HasFragment()) {
			t.Errorf("%q: %s setter with its own value gives %q, href %q", from, name, v.Href(), h)
		}
	}
}

// FuzzParse: no panic, and every URL the parser returns, with or
// without a base, satisfies checkURL.
func FuzzParse(f *testing.F) {
	fuzzSeeds(f, func(in, base string) { f.Add(in, base) })
	f.Fuzz(func(t *testing.T, in, base string) {
		if u, err := Parse(in); err == nil {
			checkURL(t, u, in)
		}
		b, err := Parse(base)
		if err != nil {
			return
		}
		if u, err := ParseRef(b, in); err == nil {
			checkURL(t, u, in)
		}
	})
}

// FuzzSetters: no panic, and every setter's result parses back to
// itself.
func FuzzSetters(f *testing.F) {
	fuzzSeeds(f, func(in, base string) { f.Add(base, in) })
	f.Fuzz(func(t *testing.T, href, v string) {
		u, err := Parse(href)
		if err != nil {
			return
		}
		for _, set := range []func(URL, string) URL{URL.SetProtocol, URL.SetUsername, URL.SetPassword,
			URL.SetHost, URL.SetHostname, URL.SetPort, URL.SetPathname, URL.SetSearch, URL.SetHash} {
			got := set(u, v)
			again, err := Parse(got.Href())
			if err != nil || again.Href() != got.Href() {
				t.Fatalf("%q := %q gives %q, which parses to %q, %v", href, v, got.Href(), again.Href(), err)
			}
		}
	})
}
