package resolver

import (
	"fmt"
	"strings"
	"testing"
)

// Issue 30.5: the lookup page shows a record's registrar, and a
// deactivated record's chain of successors, bounded, each a link with
// its state.
func TestLookupPageRegistrarAndSuccessors(t *testing.T) {
	e := newRegistrarEnv(t, t.TempDir()+"/db", [3]string{"aba001", "nbn:cz:aba001-", "resolver,reserved"})
	tok := e.toks["aba001"]
	var urns []string
	for range maxChain + 3 {
		urns = append(urns, e.mint("aba001", `{"urls":["https://k.example/"]}`))
	}
	// urns[0] -> urns[1] -> ... -> urns[maxChain+2], each deactivated
	// with the next as its successor, the last one active.
	for i := len(urns) - 2; i >= 0; i-- {
		body := fmt.Sprintf(`{"reason":"new edition","successor":%q}`, urns[i+1])
		if r := e.do("DELETE", "/admin/records/"+urns[i], map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/json"}, body); r.code != 204 {
			t.Fatalf("deactivate %s: %d %s", urns[i], r.code, r.body)
		}
	}

	// The active end: its registrar, no chain.
	r := e.get("/?urn=" + urns[len(urns)-1])
	if r.code != 200 || !strings.Contains(r.body, `<p id="registrar">Registered by registrar <code>aba001</code>, whose prefix is <code>urn:nbn:cz:aba001-</code> (modes: resolver, reserved).</p>`) {
		t.Errorf("active record: %d, registrar missing:\n%s", r.code, r.body)
	}
	if strings.Contains(r.body, `id="successors"`) {
		t.Error("an active record shows successors")
	}

	// Two steps before the end: the chain to it, both links.
	r = e.get("/?urn=" + urns[len(urns)-3])
	want := fmt.Sprintf(`<ol id="successors"><li class="former"><a href="%s"><code>%s</code></a> — deactivated</li><li class="active"><a href="%s"><code>%s</code></a> — active</li></ol>`,
		pageHref(urns[len(urns)-2]), urns[len(urns)-2], pageHref(urns[len(urns)-1]), urns[len(urns)-1])
	if r.code != 410 || !strings.Contains(r.body, want) {
		t.Errorf("chain of two: %d, want %s in\n%s", r.code, want, r.body)
	}
	if !strings.Contains(r.body, `id="registrar"`) {
		t.Error("a deactivated record lacks its registrar")
	}

	// The start: maxChain links, then "and further".
	r = e.get("/?urn=" + urns[0])
	if n := strings.Count(r.body, `<li class="former">`); n != maxChain {
		t.Errorf("%d links shown, want %d", n, maxChain)
	}
	if !strings.Contains(r.body, `<li class="more">… and further successors</li>`) || strings.Contains(r.body, urns[maxChain+1]+"</code>") {
		t.Errorf("the chain is not cut at %d:\n%s", maxChain, r.body)
	}
	for i := 1; i <= maxChain; i++ {
		if !strings.Contains(r.body, `<a href="`+pageHref(urns[i])+`">`) {
			t.Errorf("link %d (%s) missing", i, urns[i])
		}
	}

	// A URN under the prefix that has no record: whose it would be.
	r = e.get("/?urn=urn:nbn:cz:aba001-999999")
	if r.code != 404 || !strings.Contains(r.body, `of registrar <code>aba001</code>, which has not registered it`) {
		t.Errorf("unregistered URN: %d\n%s", r.code, r.body)
	}
	// No registrar: nothing about one.
	lib := e.token("example")
	e.mustPut(lib, "urn:example:plain", Record{URLs: []string{"https://p.example/"}})
	if r := e.get("/?urn=urn:example:plain"); strings.Contains(r.body, `id="registrar"`) {
		t.Error("a record of no registrar shows one")
	}
}

// pageHref is the page's link to the lookup of u, as html/template
// escapes it in a query (these URNs need only their colons escaped).
func pageHref(u string) string { return "/?urn=" + strings.ReplaceAll(u, ":", "%3a") }
