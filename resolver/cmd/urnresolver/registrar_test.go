package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urikit/urikit/urn"
)

// Issue 30.1, as it is to be done: 8 clients at once mint 2,000 URNs
// over HTTP from a running urnresolver serve, with reservations among
// them, on each store. No URN is given twice, every number from 1 up is
// given exactly once (minted or reserved: no gap but the reservations),
// the database holds exactly the minted records, and every URN, under
// urn:nbn:de, ends with the check digit the DNB's algorithm gives.
func TestMintParallelClients(t *testing.T) {
	forEachDB(t, func(t *testing.T, dir, dsn string) {
		env := cleanEnv("HOME="+dir, "XDG_DATA_HOME=")
		if code, _, stderr := runCmd(t, dir, env, "", "registrar", "add", "dnb0001", "--prefix", "nbn:de:0001-",
			"--mode", "resolver", "--mode", "reserved", "--db", dsn); code != 0 {
			t.Fatalf("registrar add: %d %s", code, stderr)
		}
		code, tok, stderr := runCmd(t, dir, env, "", "token", "create", "--registrar", "dnb0001", "--db", dsn)
		if code != 0 {
			t.Fatalf("token create: %d %s", code, stderr)
		}
		tok = strings.TrimSpace(tok)
		s := startServer(t, dir, env, "--db", dsn, "--write-rate", "-1")

		const clients, mints, every, block = 8, 2000, 25, 3
		type got struct {
			urn, url string // url: the location a minted record was sent with
			reserved bool
		}
		results := make(chan got, 2*mints)
		var wg sync.WaitGroup
		start := time.Now()
		for c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				client := &http.Client{Timeout: 60 * time.Second}
				post := func(path, ctype, body string) (int, string) {
					req, _ := http.NewRequest("POST", s.url+path, strings.NewReader(body))
					req.Header.Set("Authorization", "Bearer "+tok)
					if ctype != "" {
						req.Header.Set("Content-Type", ctype)
					}
					code, _, b, err := send(client, req)
					if err != nil {
						t.Errorf("client %d: %v", c, err)
					}
					return code, b
				}
				for i := range mints / clients {
					url := fmt.Sprintf("https://repo.example/%d/%d", c, i)
					code, body := post("/admin/registrars/dnb0001/urns", "application/json", `{"urls":["`+url+`"]}`)
					var rec struct{ URN string }
					if code != 201 || json.Unmarshal([]byte(body), &rec) != nil {
						t.Errorf("client %d mint %d: %d %s", c, i, code, body)
						return
					}
					results <- got{urn: rec.URN, url: url}
					if i%every == every-1 {
						code, body := post(fmt.Sprintf("/admin/registrars/dnb0001/reservations?count=%d", block), "", "")
						var ans struct{ URNs []string }
						if code != 201 || json.Unmarshal([]byte(body), &ans) != nil || len(ans.URNs) != block {
							t.Errorf("client %d reserve: %d %s", c, code, body)
							return
						}
						for _, u := range ans.URNs {
							results <- got{urn: u, reserved: true}
						}
					}
				}
			}()
		}
		wg.Wait()
		elapsed := time.Since(start)
		close(results)
		if t.Failed() {
			return
		}
		byNumber := map[int]got{}
		minted := 0
		for g := range results {
			if err := urn.MustParse(g.urn).ValidateNamespace(); err != nil {
				t.Errorf("%s: %v", g.urn, err)
			}
			d, ok, err := urn.CheckDigit(g.urn[:len(g.urn)-1])
			if !ok || err != nil || d != g.urn[len(g.urn)-1] {
				t.Errorf("%s: check digit %q %v %v", g.urn, d, ok, err)
			}
			var n int
			if _, err := fmt.Sscanf(strings.TrimPrefix(g.urn, "urn:nbn:de:0001-"), "%06d", &n); err != nil {
				t.Fatalf("%s: %v", g.urn, err)
			}
			if prev, dup := byNumber[n]; dup {
				t.Errorf("number %d given twice: %s and %s", n, prev.urn, g.urn)
			}
			byNumber[n] = g
			if !g.reserved {
				minted++
			}
		}
		reservedWant := mints / every * block
		if minted != mints || len(byNumber) != mints+reservedWant {
			t.Fatalf("%d minted, %d numbers; want %d and %d", minted, len(byNumber), mints, mints+reservedWant)
		}
		for n := 1; n <= len(byNumber); n++ {
			if _, ok := byNumber[n]; !ok {
				t.Errorf("number %d was never given: a gap", n)
			}
		}
		// The database holds the minted records, each with what its
		// client sent, and nothing else: no reserved URN has a record.
		db := openTestDB(t, dsn)
		stored := map[string]string{}
		for after := ""; ; {
			keys, answers, err := db.FirstPage(context.Background(), after, 500)
			if err != nil {
				t.Fatal(err)
			}
			if len(keys) == 0 {
				break
			}
			for _, a := range answers {
				stored[a.URN] = strings.Join(a.URLs, " ")
			}
			after = keys[len(keys)-1]
		}
		if len(stored) != mints {
			t.Errorf("the database holds %d records, want %d", len(stored), mints)
		}
		for _, g := range byNumber {
			if url, ok := stored[g.urn]; g.reserved == ok || url != g.url {
				t.Errorf("%s (reserved %v): stored %v with %q, want %q", g.urn, g.reserved, ok, url, g.url)
			}
		}
		reg, err := db.Registrar(context.Background(), "dnb0001")
		if err != nil || reg.Next != int64(len(byNumber)+1) || reg.Reserved != reservedWant {
			t.Errorf("registrar after: %+v %v", reg, err)
		}
		t.Logf("%s: %d URNs minted and %d reserved by %d clients in %v (%.0f mints/s)", db.Kind(), mints, reservedWant, clients,
			elapsed.Round(time.Millisecond), float64(mints)/elapsed.Seconds())
	})
}

// The registrar command: add, list, show, and its errors, as a user
// runs them; a token of a registrar writes only its prefix.
func TestRegistrarCommand(t *testing.T) {
	dir := t.TempDir()
	env := cleanEnv("HOME="+dir, "XDG_DATA_HOME=")
	db := dir + "/r.db"
	tests := []struct {
		args   []string
		code   int
		stdout string // a part of it
		stderr string
	}{
		{[]string{"registrar", "add", "aba001", "--prefix", "nbn:cz:aba001-", "--mode", "resolver,reserved"}, 0, "aba001\tnbn:cz:aba001-\tresolver,reserved\tnext 1\treserved 0", ""},
		{[]string{"registrar", "add", "--mode", "registrar", "boa001", "--prefix", "nbn:cz:boa001-", "--json"}, 0, `"code":"boa001","prefix":"nbn:cz:boa001-","modes":["registrar"]`, ""},
		{[]string{"registrar", "add", "aba001", "--prefix", "nbn:cz:x-", "--mode", "resolver"}, 1, "", "exists"},
		{[]string{"registrar", "add", "inner", "--prefix", "nbn:cz:aba001-1", "--mode", "resolver"}, 1, "", "overlaps"},
		{[]string{"registrar", "add", "ABA", "--prefix", "nbn:cz:aba-", "--mode", "resolver"}, 2, "", "invalid character 'A'"},
		{[]string{"registrar", "add", "c", "--prefix", "nbn:cz:c-", "--mode", "sometimes"}, 2, "", `mode "sometimes"`},
		{[]string{"registrar", "add", "c", "--prefix", "nbn:cz:c"}, 2, "", "--prefix and --mode are required"},
		{[]string{"registrar", "add", "c", "--prefix", "isbn:978-3-", "--mode", "resolver"}, 2, "", "would assign urn:isbn:978-3-000001 first"},
		{[]string{"registrar", "add"}, 2, "", "want one CODE"},
		{[]string{"registrar", "list"}, 0, "boa001\tnbn:cz:boa001-\tregistrar", ""},
		{[]string{"registrar", "show", "aba001", "--json"}, 0, `"code":"aba001"`, ""},
		{[]string{"registrar", "show", "nope"}, 1, "", `no registrar "nope"`},
		{[]string{"registrar", "frob"}, 2, "", "unknown subcommand"},
		{[]string{"token", "create", "--registrar", "nope"}, 1, "", `no registrar "nope"`},
		{[]string{"token", "create", "--registrar", "aba001", "--namespace", "nbn"}, 2, "", "exclude each other"},
		{[]string{"token", "create", "--registrar", "aba001"}, 0, "urt_", "of registrar aba001 may write nbn:cz:aba001-"},
		{[]string{"token", "list", "--json"}, 0, `"registrar":"aba001"`, ""},
	}
	for _, tt := range tests {
		code, stdout, stderr := runCmd(t, dir, env, "", append(tt.args, "--db", db)...)
		if code != tt.code || !strings.Contains(stdout, tt.stdout) || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("urnresolver %s: %d\nstdout %q\nstderr %q\nwant %d, %q, %q", strings.Join(tt.args, " "), code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
		}
	}
	if code, stdout, _ := runCmd(t, dir, env, "", "help", "registrar"); code != 0 || !strings.Contains(stdout, "urnresolver registrar add CODE --prefix") {
		t.Errorf("help registrar: %d %s", code, stdout)
	}
}
