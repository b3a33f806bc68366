package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urikit/urikit/resolver"
	"github.com/urikit/urikit/resolver/internal/store/storetest"
)

// The crash tests kill the server with SIGKILL in the middle of writing,
// start it again on the same database, and check the two promises of the
// store: every write that was acknowledged (a 2xx answer) is there, and
// nothing half-written is visible (a record is all of one write or
// absent; an import is all there or not at all).

func crashToken(t *testing.T, dsn string) string {
	t.Helper()
	st := openTestStore(t, dsn)
	sc, _ := resolver.ParseScope("example")
	tok, _, err := st.CreateToken(context.Background(), []resolver.Scope{sc}, "crash test", resolver.AuditEntry{At: time.Now(), Actor: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// inTransaction reports, within bounded time, that the server has an
// open transaction that has written: on SQLite the WAL grows past its
// size at start; on PostgreSQL a backend holds a transaction ID.
func waitWriting(t *testing.T, dsn string, walStart int64) bool {
	t.Helper()
	for i := 0; i < 200; i++ {
		if resolver.IsPostgres(dsn) {
			if n, err := storetest.Writing(dsn); err == nil && n > 0 {
				return true
			}
		} else if fi, err := os.Stat(dsn + "-wal"); err == nil && fi.Size() > walStart+256<<10 {
			return true
		}
		time.Sleep(25 * time.Millisecond)
	}
	return false
}

func walSize(dsn string) int64 {
	if fi, err := os.Stat(dsn + "-wal"); err == nil {
		return fi.Size()
	}
	return 0
}

func TestCrashDuringImport(t *testing.T) {
	forEachDB(t, func(t *testing.T, dir, dsn string) {
		tok := crashToken(t, dsn)
		s := startServer(t, dir, cleanEnv(), "--db", dsn)

		// A first import is acknowledged before the crash.
		var first strings.Builder
		for i := 0; i < 3000; i++ {
			fmt.Fprintf(&first, `{"urn":"urn:example:done-%d","urls":["https://x.example/done/%d/a","https://x.example/done/%d/b"]}`+"\n", i, i, i)
		}
		code, _, body := request(t, "POST", s.url+"/admin/import", tok, "application/jsonl", first.String())
		if code != 200 || !strings.Contains(body, `"lines":3000`) {
			t.Fatalf("first import: %d %s", code, body)
		}

		// The second streams, and the server dies in its middle.
		walStart := walSize(dsn)
		pr, pw := io.Pipe()
		req, _ := http.NewRequest("POST", s.url+"/admin/import", pr)
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/jsonl")
		answered := make(chan int, 1)
		go func() {
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				answered <- 0
				return
			}
			resp.Body.Close()
			answered <- resp.StatusCode
		}()
		writerDone := make(chan struct{})
		var sent atomic.Int64
		go func() {
			defer close(writerDone)
			for i := 0; i < 1_000_000; i++ {
				sent.Store(int64(i))
				line := fmt.Sprintf(`{"urn":"urn:example:half-%d","urls":["https://x.example/half/%d"]}`+"\n", i, i)
				if _, err := io.WriteString(pw, line); err != nil {
					return // the server is gone
				}
			}
			pw.Close()
		}()
		if !waitWriting(t, dsn, walStart) {
			t.Fatal("the import did not start writing within 5 s")
		}
		s.kill()
		pw.CloseWithError(io.ErrUnexpectedEOF)
		<-writerDone
		if c := <-answered; c == 200 {
			t.Fatal("the interrupted import was acknowledged")
		}
		t.Logf("killed with the import's transaction open, %d lines streamed", sent.Load())

		s2 := startServer(t, dir, cleanEnv(), "--db", dsn)
		st := openTestDB(t, dsn)
		ctx := context.Background()
		n, err := st.Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n != 3000 {
			t.Fatalf("%d records after the crash, want the 3000 of the acknowledged import and none of the other", n)
		}
		for _, i := range []int{0, 1234, 2999} {
			rec, err := st.Record(ctx, fmt.Sprintf("urn:example:done-%d", i))
			if err != nil || len(rec.URLs) != 2 {
				t.Fatalf("done-%d: %+v %v", i, rec, err)
			}
		}
		// The restarted server serves them.
		code, h, _ := request(t, "GET", s2.url+"/uri-res/N2L?urn:example:done-42", "", "", "")
		if code != 303 || h.Get("Location") != "https://x.example/done/42/a" {
			t.Fatalf("after restart: %d %q", code, h.Get("Location"))
		}
		// The audit log holds the acknowledged import and not the other.
		entries, _ := st.Audit(ctx, 100)
		imports := 0
		for _, e := range entries {
			if e.Action == "import" {
				imports++
			}
		}
		if imports != 1 {
			t.Fatalf("%d imports in the audit log, want 1", imports)
		}
	})
}

func TestCrashDuringConcurrentWrites(t *testing.T) {
	forEachDB(t, func(t *testing.T, dir, dsn string) {
		tok := crashToken(t, dsn)
		s := startServer(t, dir, cleanEnv(), "--db", dsn, "--write-rate", "-1")

		const writers, keys = 8, 40
		// version v of record k: three locations that all carry v, so
		// that a record mixing two writes is visible as such.
		put := func(url string, k, v int) int {
			rec := map[string]any{"urls": []string{
				fmt.Sprintf("https://x.example/%d/v%d/a", k, v), fmt.Sprintf("https://x.example/%d/v%d/b", k, v), fmt.Sprintf("https://x.example/%d/v%d/c", k, v)},
				"metadata": map[string]int{"v": v}}
			b, _ := json.Marshal(rec)
			req, _ := http.NewRequest("PUT", fmt.Sprintf("%s/admin/records/urn:example:w-%d", url, k), strings.NewReader(string(b)))
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return 0
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			return resp.StatusCode
		}
		var mu sync.Mutex
		acked := map[int]int{} // key -> highest acknowledged version
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for v := 1; ; v++ {
					for k := w; k < keys; k += writers {
						select {
						case <-stop:
							return
						default:
						}
						code := put(s.url, k, v)
						if code == 0 {
							return // the server is gone
						}
						if code != 200 && code != 201 {
							t.Errorf("PUT w-%d v%d: %d", k, v, code)
							return
						}
						mu.Lock()
						if v > acked[k] {
							acked[k] = v
						}
						mu.Unlock()
					}
				}
			}(w)
		}
		// Let writes pile up, then kill while they are in flight.
		for i := 0; i < 200; i++ {
			mu.Lock()
			n := 0
			for _, v := range acked {
				n += v
			}
			mu.Unlock()
			if n >= 150 {
				break
			}
			time.Sleep(25 * time.Millisecond)
		}
		s.kill()
		close(stop)
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		if len(acked) == 0 {
			t.Fatal("no write was acknowledged before the kill")
		}

		startServer(t, dir, cleanEnv(), "--db", dsn)
		st := openTestDB(t, dsn)
		ctx := context.Background()
		total := 0
		for k := 0; k < keys; k++ {
			rec, err := st.Record(ctx, fmt.Sprintf("urn:example:w-%d", k))
			if err == resolver.ErrNotFound {
				if acked[k] > 0 {
					t.Errorf("w-%d: acknowledged version %d lost", k, acked[k])
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			var meta struct{ V int }
			json.Unmarshal([]byte(rec.Metadata), &meta)
			if len(rec.URLs) != 3 {
				t.Errorf("w-%d: %d locations, half-written: %q", k, len(rec.URLs), rec.URLs)
				continue
			}
			for i, suffix := range []string{"a", "b", "c"} {
				want := fmt.Sprintf("https://x.example/%d/v%d/%s", k, meta.V, suffix)
				if rec.URLs[i] != want {
					t.Errorf("w-%d: location %d is %q, want %q (metadata says v%d): a mixed record", k, i, rec.URLs[i], want, meta.V)
				}
			}
			// At most one write per key was in flight at the kill, so
			// the stored version is the last acknowledged one or the
			// one after it (committed, answer lost).
			if meta.V != acked[k] && meta.V != acked[k]+1 {
				t.Errorf("w-%d: stored v%d, last acknowledged v%d", k, meta.V, acked[k])
			}
			total += acked[k]
		}
		t.Logf("%d acknowledged writes over %d keys checked after SIGKILL", total, len(acked))
	})
}
