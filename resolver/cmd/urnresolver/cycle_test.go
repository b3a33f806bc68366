package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Issue 29.3, "No successor cycle, ever": concurrent deactivations X->Y
// and Y->X both succeeded on PostgreSQL (13 of 100 tries), and N2L then
// redirected round the loop. Here two servers share one database, as an
// operator runs them behind a balancer, and each try sends the n
// deactivations of a cycle (X->Y, Y->X; X->Y, Y->Z, Z->X) at once, over
// HTTP, spread over the servers. Whatever the order the database commits
// them in, the last one would close the cycle, so exactly n-1 succeed,
// the other is refused (409, bad-successor), and no chain in the
// database leads back to where it started.
func TestNoSuccessorCycle(t *testing.T) {
	const tries = 200
	forEachDB(t, func(t *testing.T, dir, dsn string) {
		tok := crashToken(t, dsn)
		servers := []*server{
			startServer(t, dir, cleanEnv(), "--db", dsn, "--write-rate", "-1"),
			startServer(t, dir, cleanEnv(), "--db", dsn, "--write-rate", "-1"),
		}
		client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
		defer client.CloseIdleConnections()
		do := func(method, url, ctype, body string) (int, string) {
			req, err := http.NewRequest(method, url, strings.NewReader(body))
			if err != nil {
				t.Error(err)
				return 0, ""
			}
			req.Header.Set("Authorization", "Bearer "+tok)
			if ctype != "" {
				req.Header.Set("Content-Type", ctype)
			}
			code, _, b, err := send(client, req)
			if err != nil {
				t.Error(err) // from the goroutines too: not Fatal
			}
			return code, b
		}
		urn := func(n, try, i int) string { return fmt.Sprintf("urn:example:c%d-%d-%d", n, try, i) }
		lengths := []int{2, 3}
		var jsonl strings.Builder
		for _, n := range lengths {
			for try := range tries {
				for i := range n {
					fmt.Fprintf(&jsonl, `{"urn":%q,"urls":["https://a.example/%d/%d/%d"]}`+"\n", urn(n, try, i), n, try, i)
				}
			}
		}
		if code, body := do("POST", servers[0].url+"/admin/import", "application/jsonl", jsonl.String()); code != 200 {
			t.Fatalf("import: %d %s", code, body)
		}
		for _, n := range lengths {
			var cycles, badCounts int
			for try := range tries {
				start := make(chan struct{})
				codes := make([]int, n)
				var wg sync.WaitGroup
				for i := range n {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						url := servers[i%len(servers)].url + "/admin/deactivations/" + urn(n, try, i)
						code, body := do("PUT", url, "application/json", `{"successor":"`+urn(n, try, (i+1)%n)+`"}`)
						if code != 204 && (code != 409 || !strings.Contains(body, "#bad-successor") || !strings.Contains(body, "leads back")) {
							t.Errorf("%s -> %s: %d %s", urn(n, try, i), urn(n, try, (i+1)%n), code, body)
						}
						codes[i] = code
					}()
				}
				close(start)
				wg.Wait()
				ok := 0
				for _, c := range codes {
					if c == 204 {
						ok++
					}
				}
				if ok != n-1 {
					badCounts++
				}
				// Follow the successors in the database from the first
				// URN: a cycle comes back within n steps.
				next, steps := urn(n, try, 0), 0
				for next != "" && steps <= n {
					code, body := do("GET", servers[1].url+"/admin/records/"+next, "", "")
					var rec struct{ Successor string }
					if code != 200 || json.Unmarshal([]byte(body), &rec) != nil {
						t.Fatalf("GET %s: %d %s", next, code, body)
					}
					next, steps = rec.Successor, steps+1
				}
				if next != "" {
					cycles++
				}
			}
			t.Logf("%d-cycles: %d of %d tries closed a cycle; %d tries with other than %d of %d deactivations stored", n, cycles, tries, badCounts, n-1, n)
			if cycles != 0 || badCounts != 0 {
				t.Errorf("%d-cycles: %d cycles and %d tries with other than %d of %d deactivations stored, in %d tries", n, cycles, badCounts, n-1, n, tries)
			}
		}
	})
}
