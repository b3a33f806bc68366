package resolver

import (
	"strings"
	"testing"
)

// Issue 17: "on a miss the page says what was looked up (the canonical
// form and the lookup key), that nothing is known, and no resolution
// links; input without urn: that is a bare ISBN, ISSN, UUID or NBN gets
// a 'did you mean urn:isbn:...' link; the record's title is its heading".
func TestLookupPageForLibrarians(t *testing.T) {
	e := newEnv(t, t.TempDir()+"/db", Config{})
	tok := e.token("isbn", "nbn")
	e.mustPut(tok, "urn:isbn:978-0-262-03384-8", Record{URLs: []string{"https://mitpress.example/clrs"},
		Metadata: []byte(`{"title":"Introduction to <Algorithms>","edition":"3"}`)})
	e.mustPut(tok, "urn:nbn:de:101:1-2", Record{URLs: []string{"https://d-nb.example/1"}, Metadata: []byte(`{"title":7}`)})

	// A miss.
	r := e.get("/?urn=URN:ISBN:978-3-16-148410-0")
	for _, want := range []string{
		`<h2><code>urn:isbn:978-3-16-148410-0</code></h2>`,
		"Nothing is known about this URN here",
		"<h3>What was looked up</h3>",
		"<dt>Canonical form (RFC 8141 section 3.1)</dt><dd><code>urn:isbn:978-3-16-148410-0</code></dd>",
		"<dt>Lookup key, with the namespace's rules</dt><dd><code>urn:isbn:9783161484100</code></dd>",
	} {
		if !strings.Contains(r.body, want) {
			t.Errorf("miss: page lacks %q", want)
		}
	}
	for _, not := range []string{"resolves to this record", `id="services"`, `href="/uri-res/`} {
		if strings.Contains(r.body, not) {
			t.Errorf("miss: page has %q", not)
		}
	}
	if r.code != 404 {
		t.Errorf("miss: %d", r.code)
	}

	// A hit: the title is the heading, escaped, the URN under it.
	r = e.get("/?urn=urn:isbn:9780262033848")
	for _, want := range []string{
		"<h2>Introduction to &lt;Algorithms&gt;</h2>",
		`<p class="urn"><code>urn:isbn:978-0-262-03384-8</code></p>`,
		"resolves to this record", `id="services"`,
	} {
		if !strings.Contains(r.body, want) {
			t.Errorf("hit: page lacks %q", want)
		}
	}
	// A title that is not a string is not a heading.
	if r = e.get("/?urn=urn:nbn:de:101:1-2"); !strings.Contains(r.body, "<h2><code>urn:nbn:de:101:1-2</code></h2>") {
		t.Errorf("non-string title: %s", r.body)
	}

	// Bare identifiers: a suggestion when the URN it makes is valid in
	// its namespace, none otherwise.
	for _, c := range []struct{ in, want string }{
		{"9780262033848", "urn:isbn:9780262033848"},
		{"978-0-262-03384-8", "urn:isbn:978-0-262-03384-8"},
		{"ISBN 0-395-36341-1", "urn:isbn:0-395-36341-1"},
		{"isbn:9780262033848", "urn:isbn:9780262033848"},
		{"0317-8471", "urn:issn:0317-8471"},
		{"ISSN 0317-8471", "urn:issn:0317-8471"},
		{"f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"},
		{"nbn:de:101:1-2", "urn:nbn:de:101:1-2"},
		{"9780262033849", ""}, // wrong check digit
		{"0317-8472", ""},     // wrong check digit
		{"12345678", ""},
		{"hello world", ""},
		{"f81d4fae-7dec-11d0-a765-00a0c91e6bfg", ""},
	} {
		r := e.get("/?urn=" + strings.ReplaceAll(c.in, " ", "+"))
		has := strings.Contains(r.body, `id="suggest"`)
		if c.want == "" {
			if has {
				t.Errorf("%q: suggests, want nothing", c.in)
			}
			continue
		}
		href := `/?urn=` + strings.ReplaceAll(c.want, ":", "%3a")
		if !strings.Contains(r.body, `Did you mean <a href="`+href+`"><code>`+c.want+`</code></a>?`) {
			t.Errorf("%q: no suggestion of %s", c.in, c.want)
		}
		if got := (Dialects{}).Suggest(c.in); got != c.want {
			t.Errorf("Suggest(%q) = %q", c.in, got)
		}
	}
	// The resolution services say it too.
	if p := problemOf(t, e.get("/uri-res/N2L?9780262033848")); !strings.HasSuffix(p.Detail, "; did you mean urn:isbn:9780262033848?") {
		t.Errorf("N2L detail %q", p.Detail)
	}
	if p := problemOf(t, e.get("/9780262033848")); !strings.Contains(p.Detail, "did you mean /urn:isbn:9780262033848?") {
		t.Errorf("path detail %q", p.Detail)
	}
}
