package resolver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
)

// Issue 23, "Persistent means persistent": "A deleted record becomes a
// deactivation: the URN answers 410 Gone with the reason and date (N2C
// shows them, the page says so), it is never reported as unknown, and
// only an explicit reactivation by a token of its scope brings it back;
// a record may name its successor URN, and N2L of a deactivated URN with
// a successor redirects there." RFC 9110 section 15.5.11: 410 Gone means
// "access to the target resource is no longer available at the origin
// server and that this condition is likely to be permanent".
func TestPersistence(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{})
		tok := e.token("example")
		other := e.token("example:other-")
		hdr := func(tok string) map[string]string {
			return map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/json"}
		}
		h := hdr(tok)
		e.mustPut(tok, "urn:example:old", Record{URLs: []string{"https://a.example/old", "https://b.example/old"},
			Metadata: json.RawMessage(`{"title":"Old"}`), Synonyms: []string{"urn:example:alias"}})
		e.mustPut(tok, "urn:example:new", Record{URLs: []string{"https://a.example/new"}})
		e.mustPut(tok, "urn:example:c", Record{URLs: []string{"https://a.example/c"}})
		e.mustPut(tok, "urn:example:other-1", Record{URLs: []string{"https://a.example/o"}})

		// Refused deactivations change nothing.
		for _, c := range []struct {
			name, tok, target, body string
			code                    int
			field                   string
		}{
			{"a token of another scope", other, "/admin/records/urn:example:old", ``, 403, "urn"},
			{"a successor outside the token's scope", other, "/admin/records/urn:example:other-1", `{"successor":"urn:example:new"}`, 403, "successor"},
			{"the URN as its own successor", tok, "/admin/records/urn:example:old", `{"successor":"URN:EXAMPLE:old"}`, 400, "successor"},
			{"an invalid successor", tok, "/admin/records/urn:example:old", `{"successor":"urn:x:y"}`, 400, "successor"},
			{"a successor with a q-component", tok, "/admin/records/urn:example:old", `{"successor":"urn:example:new?=a"}`, 400, "successor"},
			{"an unknown member", tok, "/admin/deactivations/urn:example:old", `{"reason":"x","Reason":"y"}`, 400, "Reason"},
			{"a reason over the limit", tok, "/admin/deactivations/urn:example:old", `{"reason":"` + strings.Repeat("x", maxReason+1) + `"}`, 413, "reason"},
			{"no record", tok, "/admin/records/urn:example:none", ``, 404, ""},
		} {
			method := "DELETE"
			if strings.HasPrefix(c.target, "/admin/deactivations/") {
				method = "PUT"
			}
			r := e.do(method, c.target, hdr(c.tok), c.body)
			if r.code != c.code {
				t.Fatalf("%s: %d %s", c.name, r.code, r.body)
			}
			if p := problemOf(t, r); p.Field != c.field {
				t.Errorf("%s: field %q, want %q", c.name, p.Field, c.field)
			}
		}
		if r := e.get("/uri-res/N2L?urn:example:old"); r.code != 303 || r.header.Get("Location") != "https://a.example/old" {
			t.Fatalf("after refused deactivations: %d %q", r.code, r.header.Get("Location"))
		}

		before := time.Now().UTC().Truncate(time.Second)
		r := e.do("DELETE", "/admin/records/URN:EXAMPLE:old", h, `{"reason":"withdrawn by the publisher","successor":"URN:example:new"}`)
		if r.code != 204 {
			t.Fatalf("DELETE with a reason and successor: %d %s", r.code, r.body)
		}
		if r := e.do("PUT", "/admin/deactivations/urn:example:c", h, `{"reason":"a duplicate of urn:example:new"}`); r.code != 204 {
			t.Fatalf("PUT /admin/deactivations: %d %s", r.code, r.body)
		}

		// N2L and N2R of a URN with a successor redirect to the
		// successor's resolution, with the q-component carried; from
		// there to its location.
		for _, c := range []struct{ target, code, loc string }{
			{"/uri-res/N2L?urn:example:old", "303", "/uri-res/N2L?urn:example:new"},
			{"/uri-res/I2L?urn:EXAMPLE:old", "303", "/uri-res/N2L?urn:example:new"},
			{"/uri-res/N2L?urn:example:old?=page=2", "303", "/uri-res/N2L?urn:example:new?=page=2"},
			{"/uri-res/N2R?urn:example:old", "302", "/uri-res/N2R?urn:example:new"},
			{"/urn:example:old", "303", "/uri-res/N2L?urn:example:new"},
		} {
			r := e.get(c.target)
			if got := r.header.Get("Location"); strings.TrimSpace(c.code) != itoa(r.code) || got != c.loc {
				t.Errorf("%s: %d %q, want %s %q", c.target, r.code, got, c.code, c.loc)
			}
		}
		if r := e.get("/uri-res/N2L?urn:example:new?=page=2"); r.code != 303 || r.header.Get("Location") != "https://a.example/new?page=2" {
			t.Errorf("the successor: %d %q", r.code, r.header.Get("Location"))
		}

		// Every other service answers 410 Gone with the date, the
		// reason and the successor: never 404, never a location.
		gone := func(target, reason, successor string) {
			t.Helper()
			r := e.get(target)
			if r.code != 410 {
				t.Errorf("%s: %d %s, want 410", target, r.code, truncate(r.body, 300))
				return
			}
			p := problemOf(t, r)
			at, err := time.Parse(time.RFC3339, p.Deactivated)
			if !strings.HasSuffix(p.Type, "#gone") || err != nil || at.Before(before) || p.Reason != reason || p.Successor != successor ||
				!strings.Contains(p.Detail, reason) || strings.Contains(r.body, "https://a.example") {
				t.Errorf("%s: %s", target, r.body)
			}
		}
		for _, target := range []string{
			"/uri-res/N2Ls?urn:example:old", "/uri-res/N2Rs?urn:example:old", "/uri-res/N2N?urn:example:old",
			"/uri-res/N2Ns?urn:example:old", "/urn:example:old?+s=N2Ls", "/urn:example:old?+s=N2Ns",
		} {
			gone(target, "withdrawn by the publisher", "urn:example:new")
		}
		for _, target := range []string{"/uri-res/N2L?urn:example:c", "/uri-res/N2R?urn:example:c", "/urn:example:c", "/uri-res/N2Ls?urn:example:c"} {
			gone(target, "a duplicate of urn:example:new", "")
		}

		// N2C shows the record as it was, with the date and reason, 410.
		r = e.get("/uri-res/N2C?urn:example:old")
		var c urc
		if err := json.Unmarshal([]byte(r.body), &c); err != nil || r.code != 410 || r.header.Get("Content-Type") != "application/json" ||
			c.Reason != "withdrawn by the publisher" || c.Successor != "urn:example:new" || c.Deactivated == "" ||
			len(c.URLs) != 2 || string(c.Metadata) != `{"title":"Old"}` {
			t.Errorf("N2C: %d %s", r.code, r.body)
		}
		if r := e.get("/uri-res/N2Cs?urn:example:c"); r.code != 410 || !strings.Contains(r.body, `"reason":"a duplicate of urn:example:new"`) {
			t.Errorf("N2Cs: %d %s", r.code, r.body)
		}
		r = e.do("GET", "/uri-res/N2C?urn:example:old", map[string]string{"Accept": "text/plain"}, "")
		if r.code != 410 || !strings.Contains(r.body, "\r\ndeactivated: 20") || !strings.Contains(r.body, "\r\nreason: withdrawn by the publisher\r\n") ||
			!strings.Contains(r.body, "\r\nsuccessor: urn:example:new\r\n") {
			t.Errorf("N2C text/plain: %d %s", r.code, r.body)
		}
		// The page says so, and links the successor.
		r = e.get("/?urn=urn:example:old")
		if r.code != 410 || !strings.Contains(r.body, "This URN was deactivated on") || !strings.Contains(r.body, "withdrawn by the publisher") ||
			!strings.Contains(r.body, `id="successor"`) || !strings.Contains(r.body, `href="/?urn=urn%3aexample%3anew"`) ||
			strings.Contains(r.body, `href="https://a.example/old"`) {
			t.Errorf("page: %d %s", r.code, r.body[strings.Index(r.body, "<div id=\"result\""):])
		}
		if r := e.get("/?urn=urn:example:c"); r.code != 410 || strings.Contains(r.body, `id="successor"`) {
			t.Errorf("page without successor: %d", r.code)
		}
		// The admin API shows it.
		r = e.get("/admin/records/urn:example:old")
		if r.code != 200 || !strings.Contains(r.body, `"reason":"withdrawn by the publisher","successor":"urn:example:new"`) {
			t.Errorf("GET /admin/records: %d %s", r.code, r.body)
		}
		// A location no longer offers the deactivated URN; the synonym
		// binding, a fact about names, stays.
		if r := e.get("/uri-res/L2Ns?https://a.example/old"); r.code != 200 || strings.Contains(r.body, "urn:example:old") {
			t.Errorf("L2Ns of a deactivated URN's location: %d %s", r.code, r.body)
		}
		if r := e.get("/uri-res/L2N?https://a.example/old"); r.code != 404 {
			t.Errorf("L2N of a deactivated URN's location: %d %s", r.code, r.body)
		}
		if r := e.get("/uri-res/I=I?urn:example:old&urn:example:alias"); r.body != "true" {
			t.Errorf("I=I: %d %s", r.code, r.body)
		}

		// Writes to a deactivated URN are refused on every path, and the
		// record stays as it was.
		if r := e.put(tok, "urn:example:old", Record{URLs: []string{"https://evil.example/"}}); r.code != 409 || !strings.HasSuffix(problemOf(t, r).Type, "#gone") {
			t.Errorf("PUT: %d %s", r.code, r.body)
		}
		if r := e.do("POST", "/admin/records", h, `{"urn":"URN:EXAMPLE:old","urls":["https://evil.example/"]}`); r.code != 409 || !strings.HasSuffix(problemOf(t, r).Type, "#gone") {
			t.Errorf("POST: %d %s", r.code, r.body)
		}
		r = e.do("POST", "/admin/import", map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "text/csv"},
			"urn,url\nurn:example:fresh,https://a.example/f\nurn:example:old,https://evil.example/1\nurn:example:old,https://evil.example/2\n")
		var res ImportResult
		if err := json.Unmarshal([]byte(r.body), &res); err != nil || r.code != 200 || res.Lines != 1 || len(res.RefusedRecords) != 1 ||
			res.RefusedRecords[0].URN != "urn:example:old" || res.RefusedRecords[0].Line != 3 || res.RefusedRecords[0].Dropped != 1 ||
			len(res.Refused) != 1 || !strings.Contains(res.Refused[0].Reason, "deactivated") {
			t.Errorf("import: %d %s", r.code, r.body)
		}
		if r := e.get("/uri-res/N2C?urn:example:old"); r.code != 410 || strings.Contains(r.body, "evil") {
			t.Errorf("after refused writes: %d %s", r.code, r.body)
		}

		// A second deactivation changes the reason, not the date.
		if r := e.do("PUT", "/admin/deactivations/urn:example:c", h, `{"reason":"merged"}`); r.code != 204 {
			t.Fatalf("second deactivation: %d %s", r.code, r.body)
		}
		rec, err := e.store.db.Record(context.Background(), "urn:example:c")
		if err != nil || rec.Deactivated == nil || rec.Deactivated.Reason != "merged" || rec.Deactivated.At.Before(before) {
			t.Fatalf("after a second deactivation: %+v %v", rec.Deactivated, err)
		}
		// A successor chain that leads back is refused: old -> new, so
		// new -> c -> old would be a cycle once c -> old.
		if r := e.do("PUT", "/admin/deactivations/urn:example:c", h, `{"successor":"urn:example:old"}`); r.code != 204 {
			t.Fatalf("c -> old: %d %s", r.code, r.body)
		}
		r = e.do("DELETE", "/admin/records/urn:example:new", h, `{"successor":"urn:example:c"}`)
		if r.code != 409 || problemOf(t, r).Field != "successor" {
			t.Fatalf("a successor cycle: %d %s", r.code, r.body)
		}
		if r := e.get("/uri-res/N2L?urn:example:new"); r.code != 303 {
			t.Fatalf("the refused cycle deactivated: %d", r.code)
		}

		// Only a reactivation by a token of its scope brings it back.
		for _, c := range []struct {
			tok, target string
			code        int
		}{
			{other, "urn:example:old", 403},
			{"", "urn:example:old", 401},
			{tok, "urn:example:none", 404},
			{tok, "urn:example:new", 409},
		} {
			hh := hdr(c.tok)
			if c.tok == "" {
				hh = nil
			}
			if r := e.do("DELETE", "/admin/deactivations/"+c.target, hh, ""); r.code != c.code {
				t.Errorf("reactivate %s: %d %s, want %d", c.target, r.code, r.body, c.code)
			}
		}
		if r := e.get("/uri-res/N2L?urn:example:old"); r.code != 303 || r.header.Get("Location") != "/uri-res/N2L?urn:example:new" {
			t.Fatalf("after refused reactivations: %d", r.code)
		}
		r = e.do("DELETE", "/admin/deactivations/urn:example:old", h, "")
		if r.code != 200 || strings.Contains(r.body, "deactivated") || !strings.Contains(r.body, "https://a.example/old") {
			t.Fatalf("reactivate: %d %s", r.code, r.body)
		}
		if r := e.get("/uri-res/N2L?urn:example:old"); r.code != 303 || r.header.Get("Location") != "https://a.example/old" {
			t.Errorf("N2L after reactivation: %d %q", r.code, r.header.Get("Location"))
		}
		if r := e.get("/uri-res/N2C?urn:example:old"); r.code != 200 || strings.Contains(r.body, "deactivated") || !strings.Contains(r.body, `"synonyms":["urn:example:alias"]`) {
			t.Errorf("N2C after reactivation: %d %s", r.code, r.body)
		}
		if r := e.get("/?urn=urn:example:old"); r.code != 200 || strings.Contains(r.body, "deactivated") {
			t.Errorf("page after reactivation: %d", r.code)
		}
		if r := e.put(tok, "urn:example:old", Record{URLs: []string{"https://c.example/old"}}); r.code != 200 {
			t.Errorf("PUT after reactivation: %d %s", r.code, r.body)
		}

		entries, _ := e.store.db.Audit(context.Background(), 20)
		var actions []string
		for _, a := range entries {
			actions = append(actions, a.Action)
		}
		for _, want := range []string{"delete", "deactivate", "reactivate"} {
			if !strings.Contains(strings.Join(actions, " "), want) {
				t.Errorf("no %q in the audit log %q", want, actions)
			}
		}
	})
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// Issue 29.3: "a successor with no record is accepted (the chain ends in
// 404)": a successor must have a record, and so must every URN along
// the chain of successors from it; the refusal is a 409 of type
// bad-successor that names the URN, and changes nothing.
func TestSuccessorMustExist(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{})
		tok := e.token("example")
		h := map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/json"}
		for _, u := range []string{"x", "y", "z"} {
			e.mustPut(tok, "urn:example:"+u, Record{URLs: []string{"https://a.example/" + u}})
		}
		for _, c := range []struct {
			name, method, target, body, want string
		}{
			{"no record", "DELETE", "/admin/records/urn:example:x", `{"successor":"urn:example:none"}`, "urn:example:none has no record"},
			{"no record, on the deactivation path", "PUT", "/admin/deactivations/urn:example:x", `{"successor":"URN:EXAMPLE:none"}`, "has no record"},
		} {
			r := e.do(c.method, c.target, h, c.body)
			p := problemOf(t, r)
			if r.code != 409 || !strings.HasSuffix(p.Type, "#bad-successor") || p.Field != "successor" || !strings.Contains(p.Detail, c.want) {
				t.Errorf("%s: %d %s", c.name, r.code, r.body)
			}
		}
		if r := e.get("/uri-res/N2L?urn:example:x"); r.code != 303 || r.header.Get("Location") != "https://a.example/x" {
			t.Fatalf("a refused successor deactivated x: %d %q", r.code, r.header.Get("Location"))
		}
		// A chain that ends at an active record, or at a record
		// deactivated without a successor, is accepted.
		if r := e.do("DELETE", "/admin/records/urn:example:z", h, `{"reason":"withdrawn"}`); r.code != 204 {
			t.Fatalf("z: %d %s", r.code, r.body)
		}
		if r := e.do("DELETE", "/admin/records/urn:example:x", h, `{"successor":"urn:example:z"}`); r.code != 204 {
			t.Fatalf("x -> z (deactivated, no successor): %d %s", r.code, r.body)
		}
		if r := e.get("/uri-res/N2L?urn:example:x"); r.code != 303 || r.header.Get("Location") != "/uri-res/N2L?urn:example:z" {
			t.Fatalf("x -> z: %d %q", r.code, r.header.Get("Location"))
		}
		if r := e.get("/uri-res/N2L?urn:example:z"); r.code != 410 {
			t.Fatalf("z: %d", r.code)
		}
	})
}

// The 409 of a refused successor says which URN of the chain is at
// fault: the successor itself, one further along the chain without a
// record (data older than the check; the store's
// TestSuccessorChainToNowhere makes one), or a cycle.
func TestSuccessorProblem(t *testing.T) {
	for _, c := range []struct {
		err  store.SuccessorError
		want string
	}{
		{store.SuccessorError{URN: "urn:example:x", Successor: "urn:example:none", At: "urn:example:none", Err: ErrNoSuccessor},
			"successor: urn:example:none has no record; register it first (PUT /admin/records/urn:example:none)"},
		{store.SuccessorError{URN: "urn:example:x", Successor: "urn:example:y", At: "urn:example:none", Err: ErrNoSuccessor},
			"the chain of successors from urn:example:y reaches urn:example:none, which has no record"},
		{store.SuccessorError{URN: "urn:example:x", Successor: "urn:example:y", At: "urn:example:x", Err: ErrSuccessorCycle},
			"successor: urn:example:y leads back to urn:example:x"},
	} {
		p := successorProblem(&c.err)
		if p.Status != 409 || !strings.HasSuffix(p.Type, "#bad-successor") || p.Field != "successor" || !strings.Contains(p.Detail, c.want) {
			t.Errorf("%v: %+v", c.err.Error(), p)
		}
	}
}

// Issue 29.3: "a deactivated URN is still listed as a synonym". The
// resolution services offer only active URNs as synonyms, in both
// directions (N2N, N2Ns, N2C's synonyms, the page); the admin API shows
// the record as written, and I=I still holds (a deactivated URN still
// names what it named). Reactivation lists it again.
func TestDeactivatedSynonymsNotListed(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{})
		tok := e.token("example")
		h := map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/json"}
		e.mustPut(tok, "urn:example:a", Record{URLs: []string{"https://a.example/"}, Synonyms: []string{"urn:example:s", "urn:example:norec", "urn:example:t"}})
		e.mustPut(tok, "urn:example:s", Record{URLs: []string{"https://s.example/"}})
		e.mustPut(tok, "urn:example:t", Record{URLs: []string{"https://t.example/"}})
		e.mustPut(tok, "urn:example:b", Record{URLs: []string{"https://b.example/"}, Synonyms: []string{"urn:example:s"}})
		e.mustPut(tok, "urn:example:c", Record{URLs: []string{"https://c.example/"}, Synonyms: []string{"urn:example:s"}})
		check := func(when string, want map[string]string) {
			t.Helper()
			for target, body := range want {
				if _, urn, ok := strings.Cut(target, "N2Ns?"); ok {
					body = "# " + urn + "\r\n" + body // text/uri-list names its subject
				}
				if r := e.get(target); r.code != 200 || r.body != body {
					t.Errorf("%s: %s: %d %q, want %q", when, target, r.code, r.body, body)
				}
			}
		}
		check("all active", map[string]string{
			"/uri-res/N2Ns?urn:example:a": "urn:example:s\r\nurn:example:norec\r\nurn:example:t\r\n",
			"/uri-res/N2Ns?urn:example:s": "urn:example:a\r\nurn:example:b\r\nurn:example:c\r\n",
		})
		for _, u := range []string{"s", "b"} {
			if r := e.do("DELETE", "/admin/records/urn:example:"+u, h, ``); r.code != 204 {
				t.Fatalf("deactivate %s: %d %s", u, r.code, r.body)
			}
		}
		check("s and b deactivated", map[string]string{
			"/uri-res/N2Ns?urn:example:a":              "urn:example:norec\r\nurn:example:t\r\n", // a lists s: left out
			"/uri-res/N2Ns?urn:example:c":              "",                                       // c lists s: left out
			"/uri-res/I=I?urn:example:a&urn:example:s": "true",
		})
		if r := e.get("/uri-res/N2N?urn:example:c"); r.code != 404 {
			t.Errorf("N2N of c, whose one synonym is deactivated: %d %s", r.code, r.body)
		}
		if r := e.get("/uri-res/N2C?urn:example:a"); r.code != 200 || !strings.Contains(r.body, `"synonyms":["urn:example:norec","urn:example:t"]`) {
			t.Errorf("N2C of a: %d %s", r.code, r.body)
		}
		if r := e.get("/?urn=urn:example:a"); r.code != 200 || strings.Contains(r.body, "urn:example:s<") || !strings.Contains(r.body, "urn:example:t") {
			t.Errorf("page of a lists a deactivated synonym: %d", r.code)
		}
		if r := e.get("/admin/records/urn:example:a"); r.code != 200 || !strings.Contains(r.body, `"synonyms":["urn:example:s","urn:example:norec","urn:example:t"]`) {
			t.Errorf("the admin API shows the record as written: %d %s", r.code, r.body)
		}
		// An N2Ns of the active t: a lists it, and a is active.
		check("t", map[string]string{"/uri-res/N2Ns?urn:example:t": "urn:example:a\r\n"})
		if r := e.do("DELETE", "/admin/deactivations/urn:example:s", h, ``); r.code != 200 {
			t.Fatalf("reactivate s: %d %s", r.code, r.body)
		}
		check("s reactivated", map[string]string{
			"/uri-res/N2Ns?urn:example:a": "urn:example:s\r\nurn:example:norec\r\nurn:example:t\r\n",
			"/uri-res/N2Ns?urn:example:s": "urn:example:a\r\nurn:example:c\r\n", // b still deactivated
		})
	})
}

// Issue 29.5: the README's deactivation examples sent curl's default
// form type and got 415 titled "The request body is not a valid record".
// A 415 has its own type, its title names no kind of body, and its
// detail says which body the path takes and what was sent.
func TestUnsupportedMediaType(t *testing.T) {
	e := newEnv(t, t.TempDir()+"/db", Config{})
	tok := e.token("example")
	e.mustPut(tok, "urn:example:a", Record{URLs: []string{"https://a.example/"}})
	form := map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/x-www-form-urlencoded"}
	for _, c := range []struct{ method, target, body, what string }{
		{"DELETE", "/admin/records/urn:example:a", `{"reason":"r"}`, "a deactivation is application/json"},
		{"PUT", "/admin/deactivations/urn:example:a", `{"reason":"r"}`, "a deactivation is application/json"},
		{"PUT", "/admin/records/urn:example:a", `{}`, "a record is application/json"},
		{"POST", "/admin/records", `{"urn":"urn:example:b"}`, "a record is application/json"},
		{"POST", "/admin/import", "urn,url\n", "an import is text/csv"},
	} {
		r := e.do(c.method, c.target, form, c.body)
		p := problemOf(t, r)
		if r.code != 415 || !strings.HasSuffix(p.Type, "#unsupported-media-type") || strings.Contains(p.Title, "record") ||
			!strings.Contains(p.Detail, c.what) || !strings.Contains(p.Detail, "application/x-www-form-urlencoded") {
			t.Errorf("%s %s: %d %s", c.method, c.target, r.code, r.body)
		}
	}
	if r := e.get("/uri-res/N2L?urn:example:a"); r.code != 303 {
		t.Errorf("a refused deactivation was stored: %d", r.code)
	}
}
