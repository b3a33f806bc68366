package resolver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
	"github.com/urikit/urikit/urn"
)

// registrarEnv is a server with registrars, added through the admin API
// with a token of the national library (scope nbn), and a token of each.
type registrarEnv struct {
	*testEnv
	lib  string            // the library's token: no registrar, scope nbn
	toks map[string]string // registrar code -> its token
}

func newRegistrarEnv(t *testing.T, dsn string, regs ...[3]string) *registrarEnv {
	t.Helper()
	e := &registrarEnv{testEnv: newEnv(t, dsn, Config{}), toks: map[string]string{}}
	e.lib = e.token("nbn")
	for _, r := range regs {
		modes, _ := json.Marshal(strings.Split(r[2], ","))
		body := fmt.Sprintf(`{"code":%q,"prefix":%q,"modes":%s}`, r[0], r[1], modes)
		if res := e.post(e.lib, "/admin/registrars", "application/json", body); res.code != 201 || res.header.Get("Location") != "/admin/registrars/"+r[0] {
			t.Fatalf("add registrar %s: %d %s", r[0], res.code, res.body)
		}
		secret, tok, err := e.store.CreateRegistrarToken(context.Background(), r[0], "test", AuditEntry{At: time.Now(), Actor: "test", Client: "local"})
		if err != nil {
			t.Fatal(err)
		}
		if tok.Registrar != r[0] || len(tok.Scopes) != 1 || tok.Scopes[0].String() != r[1] {
			t.Fatalf("token of %s: %+v", r[0], tok)
		}
		e.toks[r[0]] = secret
	}
	return e
}

func (e *registrarEnv) post(tok, target, ctype, body string) response {
	e.t.Helper()
	h := map[string]string{"Content-Type": ctype}
	if tok != "" {
		h["Authorization"] = "Bearer " + tok
	}
	return e.do("POST", target, h, body)
}

// mint mints a record for registrar code and returns its URN.
func (e *registrarEnv) mint(code, body string) string {
	e.t.Helper()
	r := e.post(e.toks[code], "/admin/registrars/"+code+"/urns", "application/json", body)
	var rec Record
	if r.code != 201 || json.Unmarshal([]byte(r.body), &rec) != nil || r.header.Get("Location") != "/admin/records/"+rec.URN {
		e.t.Fatalf("mint for %s: %d %s (Location %q)", code, r.code, r.body, r.header.Get("Location"))
	}
	return rec.URN
}

func (e *registrarEnv) reserve(code, query string) (int, []string, string) {
	e.t.Helper()
	r := e.post(e.toks[code], "/admin/registrars/"+code+"/reservations?"+query, "", "")
	var ans reservationAnswer
	if r.code == 201 {
		if err := json.Unmarshal([]byte(r.body), &ans); err != nil {
			e.t.Fatal(err)
		}
	}
	return r.code, ans.URNs, r.body
}

func wantProblem(t *testing.T, what string, r response, code int, typ, detail string) {
	t.Helper()
	if r.code != code {
		t.Errorf("%s: %d %s, want %d %s", what, r.code, r.body, code, typ)
		return
	}
	p := problemOf(t, r)
	if p.Type != ProblemBase+typ || !strings.Contains(p.Detail, detail) {
		t.Errorf("%s: %s %q, want %s with %q", what, p.Type, p.Detail, typ, detail)
	}
}

// Issue 30.1: each mode of a registrar, and the registrars' rules on
// every write, on both stores.
func TestRegistrarModes(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newRegistrarEnv(t, dsn,
			[3]string{"aba001", "nbn:cz:aba001-", "resolver,reserved"},
			[3]string{"boa001", "nbn:cz:boa001-", "registrar"},
			[3]string{"dnb1", "nbn:de:0001-", "resolver"})
		rec := `{"urls":["https://kramerius.example/1"],"metadata":{"title":"Babička"}}`

		// resolver: the next numbers, in order.
		for i := 1; i <= 3; i++ {
			if got, want := e.mint("aba001", rec), fmt.Sprintf("urn:nbn:cz:aba001-%06d", i); got != want {
				t.Fatalf("mint %d: %s, want %s", i, got, want)
			}
		}
		if r := e.get("/uri-res/N2L?urn:nbn:cz:aba001-000002"); r.code != 303 || r.header.Get("Location") != "https://kramerius.example/1" {
			t.Errorf("N2L of a minted URN: %d %s", r.code, r.header.Get("Location"))
		}
		// A number is never given twice, even after its URN is deactivated.
		if r := e.do("DELETE", "/admin/records/urn:nbn:cz:aba001-000003", map[string]string{"Authorization": "Bearer " + e.toks["aba001"]}, ""); r.code != 204 {
			t.Fatalf("deactivate: %d %s", r.code, r.body)
		}
		if got := e.mint("aba001", rec); got != "urn:nbn:cz:aba001-000004" {
			t.Errorf("mint after a deactivation: %s, want urn:nbn:cz:aba001-000004", got)
		}

		// reserved: a block, registered later by the registrar only.
		code, urns, body := e.reserve("aba001", "count=3&expires=2999-01-01T00:00:00Z")
		if code != 201 || strings.Join(urns, " ") != "urn:nbn:cz:aba001-000005 urn:nbn:cz:aba001-000006 urn:nbn:cz:aba001-000007" {
			t.Fatalf("reserve: %d %s", code, body)
		}
		if got := e.mint("aba001", rec); got != "urn:nbn:cz:aba001-000008" {
			t.Errorf("mint after a reservation: %s, want urn:nbn:cz:aba001-000008", got)
		}
		// By another registrar, or the library: refused.
		wantProblem(t, "reserved URN by the library", e.put(e.lib, "urn:nbn:cz:aba001-000005", Record{URLs: []string{"https://x.example/"}}),
			403, "not-registrar", "registrar aba001")
		wantProblem(t, "reserved URN by another registrar", e.put(e.toks["boa001"], "urn:nbn:cz:aba001-000005", Record{URLs: []string{"https://x.example/"}}),
			403, "forbidden", "")
		// By the registrar: with PUT, and with POST .../urns naming it.
		if r := e.put(e.toks["aba001"], "urn:nbn:cz:aba001-000005", Record{URLs: []string{"https://x.example/5"}}); r.code != 201 {
			t.Errorf("reserved URN by its registrar: %d %s", r.code, r.body)
		}
		if r := e.post(e.toks["aba001"], "/admin/registrars/aba001/urns", "application/json",
			`{"urn":"urn:nbn:cz:aba001-000006","urls":["https://x.example/6"]}`); r.code != 201 || r.header.Get("Location") != "/admin/records/urn:nbn:cz:aba001-000006" {
			t.Errorf("reserved URN by POST: %d %s", r.code, r.body)
		}
		// Not one that is not reserved: mode registrar is not aba001's.
		wantProblem(t, "own choice without mode registrar", e.put(e.toks["aba001"], "urn:nbn:cz:aba001-000099", Record{URLs: []string{"https://x.example/"}}),
			409, "registrar-mode", "needs mode registrar")
		// Once registered, the record is the registrar's to replace, and
		// the library's too (its scope covers it): only new URNs are
		// the registrar's alone.
		if r := e.put(e.lib, "urn:nbn:cz:aba001-000005", Record{URLs: []string{"https://x.example/5b"}}); r.code != 200 {
			t.Errorf("replace by the library: %d %s", r.code, r.body)
		}
		if got := e.count(); got != 7 {
			t.Errorf("%d records, want 7", got)
		}

		// An expired reservation: the store is asked directly, as the
		// API refuses an expiry in the past.
		a := AuditEntry{At: time.Now().UTC(), Actor: "test", Client: "local"}
		res, err := e.store.db.Reserve(context.Background(), "aba001", 1, time.Now().Add(-time.Hour), func(prefix string, n int64) (store.Target, error) {
			u, _ := mintedURN(prefix, n)
			nm, _ := e.srv.v.parseAssigned("urn", u)
			return store.Target{Key: nm.Key(), URN: nm.Canonical()}, nil
		}, a)
		if err != nil || len(res) != 1 || res[0].URN != "urn:nbn:cz:aba001-000009" {
			t.Fatalf("expired reservation: %v %v", res, err)
		}
		wantProblem(t, "expired reservation", e.put(e.toks["aba001"], res[0].URN, Record{URLs: []string{"https://x.example/"}}),
			409, "registrar-mode", "the reservation has expired")

		// registrar: its own choice within its prefix, not outside it.
		if r := e.put(e.toks["boa001"], "urn:nbn:cz:boa001-mzk-1234", Record{URLs: []string{"https://x.example/b"}}); r.code != 201 {
			t.Errorf("own choice: %d %s", r.code, r.body)
		}
		wantProblem(t, "outside the prefix", e.put(e.toks["boa001"], "urn:nbn:cz:boa002-1", Record{URLs: []string{"https://x.example/b"}}),
			403, "forbidden", "nbn:cz:boa001-")
		wantProblem(t, "mint without mode resolver", e.post(e.toks["boa001"], "/admin/registrars/boa001/urns", "application/json", rec),
			409, "registrar-mode", "minting needs mode resolver")
		if code, _, body := e.reserve("boa001", "count=1"); code != 409 || !strings.Contains(body, "reserving needs mode reserved") {
			t.Errorf("reserve without mode reserved: %d %s", code, body)
		}
		wantProblem(t, "mint for another registrar", e.post(e.toks["boa001"], "/admin/registrars/aba001/urns", "application/json", rec),
			403, "not-registrar", "only a token of registrar aba001")
		wantProblem(t, "mint by the library", e.post(e.lib, "/admin/registrars/aba001/urns", "application/json", rec),
			403, "not-registrar", "token create --registrar aba001")
		wantProblem(t, "mint for no registrar", e.post(e.toks["aba001"], "/admin/registrars/zzz/urns", "application/json", rec),
			403, "not-registrar", "")
		wantProblem(t, "mint with a bad body", e.post(e.toks["aba001"], "/admin/registrars/aba001/urns", "application/json", `{"urls":["ftp://x"]}`),
			400, "invalid-url", "")

		// Check digits: minted under urn:nbn:de, and verified on writes.
		for i := 0; i < 3; i++ {
			u := e.mint("dnb1", rec)
			d, ok, err := urn.CheckDigit(u[:len(u)-1])
			if !ok || err != nil || d != u[len(u)-1] || !strings.HasPrefix(u, fmt.Sprintf("urn:nbn:de:0001-%06d", i+1)) {
				t.Errorf("minted %s: check digit %q %v %v", u, d, ok, err)
			}
			if err := urn.MustParse(u).ValidateNamespace(); err != nil {
				t.Errorf("minted %s: %v", u, err)
			}
		}
		wantProblem(t, "wrong check digit", e.put(e.lib, "urn:nbn:de:gbv:089-3321752946", Record{URLs: []string{"https://x.example/"}}),
			400, "invalid-body", "check digit is 6, want 5")
		wantProblem(t, "wrong check digit of a synonym", e.put(e.lib, "urn:nbn:de:gbv:089-3321752945", Record{URLs: []string{"https://x.example/"},
			Synonyms: []string{"urn:nbn:de:101-2012121201"}}), 400, "invalid-body", "check digit is 1, want 0")
		if r := e.put(e.lib, "urn:nbn:de:gbv:089-3321752945", Record{URLs: []string{"https://x.example/"}}); r.code != 201 {
			t.Errorf("a published DNB URN: %d %s", r.code, r.body)
		}

		// The registrars as the API shows them.
		r := e.get("/admin/registrars/aba001")
		var reg Registrar
		if r.code != 200 || json.Unmarshal([]byte(r.body), &reg) != nil || reg.Next != 10 || reg.Reserved != 1 || strings.Join(reg.Modes, ",") != "resolver,reserved" {
			t.Errorf("GET registrar: %d %s", r.code, r.body)
		}
		var regs []Registrar
		if r := e.get("/admin/registrars"); r.code != 200 || json.Unmarshal([]byte(r.body), &regs) != nil || len(regs) != 3 || regs[0].Code != "aba001" {
			t.Errorf("GET registrars: %d %s", r.code, r.body)
		}
		wantProblem(t, "no registrar", e.get("/admin/registrars/nope"), 404, "no-such-registrar", `"nope"`)

		// The audit log has each mint, with the registrar.
		entries, err := e.store.db.Audit(context.Background(), 100)
		if err != nil {
			t.Fatal(err)
		}
		mints := 0
		for _, a := range entries {
			if a.Action == "mint" && strings.Contains(a.Detail, `"registrar":"`) {
				mints++
			}
		}
		if mints != 8 {
			t.Errorf("%d mints audited, want 8", mints)
		}
	})
}

// A number whose URN has a record already (the registrar's own choice
// ahead of the counter) is passed over: minting never overwrites.
func TestMintPassesOverTakenNumbers(t *testing.T) {
	e := newRegistrarEnv(t, t.TempDir()+"/db", [3]string{"abc001", "nbn:cz:abc001-", "resolver,registrar"})
	for _, n := range []int{2, 3} {
		e.mustPut(e.toks["abc001"], fmt.Sprintf("urn:nbn:cz:abc001-%06d", n), Record{URLs: []string{"https://own.example/"}})
	}
	var got []string
	for range 3 {
		got = append(got, e.mint("abc001", `{"urls":["https://minted.example/"]}`))
	}
	if want := "urn:nbn:cz:abc001-000001 urn:nbn:cz:abc001-000004 urn:nbn:cz:abc001-000005"; strings.Join(got, " ") != want {
		t.Errorf("minted %v, want %s", got, want)
	}
	for _, u := range []string{"urn:nbn:cz:abc001-000002", "urn:nbn:cz:abc001-000003"} {
		if r := e.get("/uri-res/N2L?" + u); r.header.Get("Location") != "https://own.example/" {
			t.Errorf("%s was overwritten: %s", u, r.header.Get("Location"))
		}
	}
}

// Adding registrars: the rules of codes, prefixes and modes, who may,
// and overlapping prefixes, on both stores.
func TestAddRegistrar(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newRegistrarEnv(t, dsn, [3]string{"aba001", "nbn:cz:aba001-", "resolver"})
		cz := e.token("nbn:cz:")
		fi := e.token("nbn:fi-")
		add := func(tok, body string) response {
			return e.post(tok, "/admin/registrars", "application/json", body)
		}
		tests := []struct {
			tok, body string
			code      int
			typ       string
			detail    string
		}{
			{cz, `{"code":"xyz002","prefix":"nbn:cz:xyz002-","modes":["registrar","reserved"]}`, 201, "", ""},
			{cz, `{"code":"aba001","prefix":"nbn:cz:other-","modes":["registrar"]}`, 409, "registrar-conflict", ""},
			{cz, `{"code":"inner","prefix":"nbn:cz:aba001-9","modes":["registrar"]}`, 409, "registrar-conflict", ""},
			{cz, `{"code":"outer","prefix":"nbn:cz:ab","modes":["registrar"]}`, 409, "registrar-conflict", ""},
			{cz, `{"code":"Aba002","prefix":"nbn:cz:aba002-","modes":["registrar"]}`, 400, "invalid-body", "invalid character 'A' at offset 0"},
			{cz, `{"code":"","prefix":"nbn:cz:aba002-","modes":["registrar"]}`, 400, "invalid-body", "code"},
			{cz, `{"code":"aba002","prefix":"nbn","modes":["registrar"]}`, 400, "invalid-body", "not all of it"},
			{cz, `{"code":"aba002","prefix":"nbn:cz:aba002-","modes":["everything"]}`, 400, "invalid-body", `mode "everything"`},
			{cz, `{"code":"aba002","prefix":"nbn:cz:aba002-","modes":[]}`, 400, "invalid-body", "needs a mode"},
			{cz, `{"code":"aba002","prefix":"nbn:cz:aba002","modes":["resolver"]}`, 400, "invalid-body", "would assign urn:nbn:cz:aba002000001 first"},
			{cz, `{"code":"aba002","prefix":"nbn:cz:aba002-","modes":["resolver"],"extra":1}`, 400, "invalid-body", "extra"},
			{fi, `{"code":"aba002","prefix":"nbn:cz:aba002-","modes":["resolver"]}`, 403, "forbidden", ""},
			{e.toks["aba001"], `{"code":"aba002","prefix":"nbn:cz:aba001-x","modes":["resolver"]}`, 403, "forbidden", ""},
			{"", `{"code":"aba002","prefix":"nbn:cz:aba002-","modes":["resolver"]}`, 401, "unauthorized", ""},
		}
		for _, tt := range tests {
			r := add(tt.tok, tt.body)
			if tt.code == 201 {
				if r.code != 201 {
					t.Errorf("%s: %d %s", tt.body, r.code, r.body)
				}
				continue
			}
			wantProblem(t, tt.body, r, tt.code, tt.typ, tt.detail)
		}
		// The routes' other methods.
		for _, tt := range []struct{ method, target, allow string }{
			{"DELETE", "/admin/registrars", "GET, HEAD, POST"},
			{"POST", "/admin/registrars/aba001", "GET, HEAD"},
			{"GET", "/admin/registrars/aba001/urns", "POST"},
			{"PUT", "/admin/registrars/aba001/reservations", "POST"},
		} {
			if r := e.do(tt.method, tt.target, nil, ""); r.code != 405 || r.header.Get("Allow") != tt.allow {
				t.Errorf("%s %s: %d Allow %q", tt.method, tt.target, r.code, r.header.Get("Allow"))
			}
		}
		// Reservation parameters.
		for _, q := range []string{"", "count=0", "count=10001", "count=x", "count=1&expires=tomorrow", "count=1&expires=2001-01-01T00:00:00Z"} {
			if code, _, body := e.reserve("aba001", q); code != 400 {
				t.Errorf("reserve ?%s: %d %s", q, code, body)
			}
		}
	})
}

// An import through the admin API follows the registrars' rules too; the
// command's (Import without a token) is the operator's.
func TestImportFollowsRegistrars(t *testing.T) {
	e := newRegistrarEnv(t, t.TempDir()+"/db",
		[3]string{"aba001", "nbn:cz:aba001-", "resolver,reserved"},
		[3]string{"boa001", "nbn:cz:boa001-", "registrar"})
	_, urns, _ := e.reserve("aba001", "count=1")
	e.mint("aba001", `{"urls":["https://minted.example/"]}`)
	csv := func(lines ...string) string { return "urn,url\n" + strings.Join(lines, "\n") + "\n" }
	imp := func(tok, body string) ImportResult {
		t.Helper()
		r := e.post(tok, "/admin/import", "text/csv", body)
		var res ImportResult
		if r.code != 200 || json.Unmarshal([]byte(r.body), &res) != nil {
			t.Fatalf("import: %d %s", r.code, r.body)
		}
		return res
	}
	// The library's token: outside the registrars' prefixes, and the
	// records that exist, yes; new URNs under a prefix, no.
	res := imp(e.lib, csv("urn:nbn:cz:x-1,https://a.example/", "urn:nbn:cz:aba001-000002,https://a.example/2",
		"urn:nbn:cz:aba001-000003,https://a.example/3", "urn:nbn:cz:boa001-a,https://a.example/b"))
	if res.Records != 2 || len(res.RefusedRecords) != 2 || !strings.Contains(res.RefusedRecords[0].Reason, "registrar aba001") ||
		!strings.Contains(res.RefusedRecords[1].Reason, "registrar boa001") {
		t.Errorf("library's import: %+v", res)
	}
	// boa001's own choice, yes; aba001's reserved URN by aba001, no:
	// it is registered by itself.
	if res := imp(e.toks["boa001"], csv("urn:nbn:cz:boa001-a,https://a.example/b", "urn:nbn:cz:boa001-b,https://a.example/b")); res.Records != 2 || len(res.Refused) != 0 {
		t.Errorf("boa001's import: %+v", res)
	}
	if res := imp(e.toks["aba001"], csv(urns[0]+",https://a.example/r")); res.Records != 0 || len(res.RefusedRecords) != 1 || !strings.Contains(res.Refused[0].Reason, "registrar") {
		t.Errorf("aba001's import of its reserved URN: %+v", res)
	}
	// The command's import writes anywhere.
	importCSV(t, e.store, "urn:nbn:cz:aba001-000050,https://op.example/")
	if !exists(t, e.store, "urn:nbn:cz:aba001-000050") {
		t.Error("the command's import was refused")
	}
}

// Issue 30.1's concurrency promise in process, on both stores: writers
// minting and reserving at once get distinct numbers, and the numbers
// are dense (cmd/urnresolver's TestMintParallelClients does the same
// over HTTP against urnresolver serve, with 2,000 URNs).
func TestMintConcurrent(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newRegistrarEnv(t, dsn, [3]string{"par001", "nbn:cz:par001-", "resolver,reserved"})
		const clients, each = 4, 25
		var mu sync.Mutex
		seen := map[string]string{}
		var wg sync.WaitGroup
		for c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range each {
					var got []string
					if i%10 == 9 {
						code, urns, body := e.reserve("par001", "count=2")
						if code != 201 {
							t.Errorf("reserve: %d %s", code, body)
							return
						}
						got = urns
					} else {
						r := e.post(e.toks["par001"], "/admin/registrars/par001/urns", "application/json", `{"urls":["https://p.example/"]}`)
						var rec Record
						if r.code != 201 || json.Unmarshal([]byte(r.body), &rec) != nil {
							t.Errorf("mint: %d %s", r.code, r.body)
							return
						}
						got = []string{rec.URN}
					}
					mu.Lock()
					for _, u := range got {
						if prev, dup := seen[u]; dup {
							t.Errorf("%s given twice (client %d, and %s)", u, c, prev)
						}
						seen[u] = fmt.Sprint("client ", c)
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		want := clients * (each - each/10 + 2*(each/10))
		if len(seen) != want {
			t.Fatalf("%d URNs, want %d", len(seen), want)
		}
		for n := 1; n <= want; n++ {
			if _, ok := seen[fmt.Sprintf("urn:nbn:cz:par001-%06d", n)]; !ok {
				t.Errorf("number %d was not given", n)
			}
		}
	})
}

// The store's errors carry what the problems say.
func TestRegistrarErrors(t *testing.T) {
	err := error(&RegistrarError{URN: "urn:nbn:cz:a-1", Registrar: "a", Err: ErrOtherRegistrar})
	if !errors.Is(err, ErrOtherRegistrar) || !strings.Contains(err.Error(), "registrar a") {
		t.Errorf("%v", err)
	}
	if _, err := ParseModes("resolver,resolver,registrar"); err != nil {
		t.Error(err)
	}
	if m, _ := ParseModes("resolver resolver"); len(m) != 1 {
		t.Errorf("modes %v", m)
	}
}

// The DNB's check digit is verified on every write that names a URN of
// urn:nbn:de: each way of writing one refuses it with a wrong last
// digit, saying which digit it wants, and stores nothing; and takes it
// with the right one (so that the refusal was the digit's).
func TestCheckDigitOnEveryWrite(t *testing.T) {
	e := newRegistrarEnv(t, t.TempDir()+"/db", [3]string{"gbv089", "nbn:de:gbv:089-", "resolver,registrar"})
	gbv := e.toks["gbv089"]
	// urnOf returns URN n under the registrar's prefix with its check
	// digit, or with another one.
	urnOf := func(n int, wrong bool) string {
		head := fmt.Sprintf("urn:nbn:de:gbv:089-3321%04d", n)
		d, ok, err := urn.CheckDigit(head)
		if !ok || err != nil {
			t.Fatalf("CheckDigit(%s): %v %v", head, ok, err)
		}
		if wrong {
			d = '0' + (d-'0'+1)%10
		}
		return head + string(d)
	}
	rec := func(u string) string { return `{"urn":"` + u + `","urls":["https://gbv.example/"]}` }
	auth := map[string]string{"Authorization": "Bearer " + gbv, "Content-Type": "application/json"}
	writes := []struct {
		name  string
		write func(u string) string // what the client gets
	}{
		{"PUT /admin/records", func(u string) string { return e.put(gbv, u, Record{URLs: []string{"https://gbv.example/"}}).body }},
		{"POST /admin/records", func(u string) string { return e.post(gbv, "/admin/records", "application/json", rec(u)).body }},
		{"POST /admin/registrars/CODE/urns", func(u string) string {
			return e.post(gbv, "/admin/registrars/gbv089/urns", "application/json", rec(u)).body
		}},
		{"POST /admin/import", func(u string) string {
			return e.post(gbv, "/admin/import", "text/csv", "urn,url\n"+u+",https://gbv.example/\n").body
		}},
		{"the command's import", func(u string) string {
			res, err := Import(context.Background(), e.store, strings.NewReader("urn,url\n"+u+",https://gbv.example/\n"), FormatCSV, ImportOptions{})
			return fmt.Sprint(res, err)
		}},
	}
	n := 0
	for _, w := range writes {
		n++
		bad, good := urnOf(n, true), urnOf(n, false)
		want := fmt.Sprintf("check digit is %c, want %c", bad[len(bad)-1], good[len(good)-1])
		if got := w.write(bad); !strings.Contains(got, want) || exists(t, e.store, strings.ToLower(bad)) {
			t.Errorf("%s of %s: %s; want a refusal with %q", w.name, bad, got, want)
		}
		if got := w.write(good); strings.Contains(got, "check digit") || !exists(t, e.store, strings.ToLower(good)) {
			t.Errorf("%s of %s: %s; want it stored", w.name, good, got)
		}
	}
	// A synonym, and a successor, are URNs a write names too.
	holder := urnOf(90, false)
	for _, c := range []struct{ name, method, target, body string }{
		{"a synonym", "PUT", "/admin/records/" + holder, `{"urls":["https://gbv.example/"],"synonyms":["` + urnOf(91, true) + `"]}`},
		{"a successor", "DELETE", "/admin/records/" + urnOf(1, false), `{"reason":"moved","successor":"` + urnOf(92, true) + `"}`},
		{"a successor's change", "PUT", "/admin/deactivations/" + urnOf(2, false), `{"successor":"` + urnOf(93, true) + `"}`},
	} {
		r := e.do(c.method, c.target, auth, c.body)
		if r.code != 400 || !strings.Contains(r.body, "check digit is") {
			t.Errorf("%s with a wrong check digit: %d %s", c.name, r.code, r.body)
		}
	}
	if exists(t, e.store, strings.ToLower(holder)) {
		t.Errorf("%s was stored with a synonym whose check digit is wrong", holder)
	}
}
