package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Issue 23.6: "urnresolver backup --db DSN FILE (a consistent online
// copy of a SQLite database, WAL included ...) and the restore procedure
// in the README, tested: back up under writes, restore, every
// acknowledged record is there." Writers keep writing through the
// server while the backup runs; the restore is the README's: the backup
// file copied to a database path, a server started on it.
func TestBackupUnderWrites(t *testing.T) {
	dir := t.TempDir()
	dsn := filepath.Join(dir, "live.db")
	tok := crashToken(t, dsn)
	s := startServer(t, dir, cleanEnv(), "--db", dsn, "--write-rate", "-1")

	type ack struct {
		urn, loc string
		at       time.Time
	}
	var (
		mu    sync.Mutex
		acked []ack
		stop  atomic.Bool
		wg    sync.WaitGroup
		fails atomic.Int64
	)
	client := &http.Client{Timeout: 30 * time.Second}
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				urn := fmt.Sprintf("urn:example:w%d-%d", w, i)
				loc := fmt.Sprintf("https://b.example/%d/%d", w, i)
				body := fmt.Sprintf(`{"urls":[%q],"metadata":{"title":"w%d %d"}}`, loc, w, i)
				req, _ := http.NewRequest("PUT", s.url+"/admin/records/"+urn, strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+tok)
				req.Header.Set("Content-Type", "application/json")
				resp, err := client.Do(req)
				if err != nil {
					fails.Add(1)
					continue
				}
				resp.Body.Close()
				if resp.StatusCode == 201 {
					mu.Lock()
					acked = append(acked, ack{urn, loc, time.Now()})
					mu.Unlock()
				}
			}
		}(w)
	}
	for { // let the WAL hold committed writes not yet checkpointed
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= 100 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	before := append([]ack(nil), acked...)
	mu.Unlock()
	backup := filepath.Join(dir, "backup.db")
	code, out, errOut := runCmd(t, dir, cleanEnv(), "", "backup", "--db", dsn, backup)
	time.Sleep(100 * time.Millisecond) // writes go on after the backup
	stop.Store(true)
	wg.Wait()
	if code != 0 || out != "" || errOut != "" {
		t.Fatalf("backup: %d %q %q", code, out, errOut)
	}
	if fails.Load() > 0 {
		t.Fatalf("%d writes failed during the backup", fails.Load())
	}
	if code, _, _ := runCmd(t, dir, cleanEnv(), "", "backup", "--db", dsn, backup); code != 1 {
		t.Errorf("backup over an existing file: %d, want 1", code)
	}
	s.stop()

	// Restore, as the README says: copy the file to the database's path.
	restored := filepath.Join(t.TempDir(), "restored.db")
	b, err := os.ReadFile(backup)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(restored, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s = startServer(t, dir, cleanEnv(), "--db", restored)
	for _, a := range before {
		code, h, _ := request(t, "GET", s.url+"/uri-res/N2L?"+a.urn, "", "", "")
		if code != 303 || h.Get("Location") != a.loc {
			t.Fatalf("%s, acknowledged before the backup: %d %q after restore", a.urn, code, h.Get("Location"))
		}
	}
	n, _ := openTestDB(t, restored).Count(t.Context())
	if n < len(before) {
		t.Fatalf("%d records restored, %d acknowledged before the backup", n, len(before))
	}
	t.Logf("%d writes acknowledged before the backup, %d in it, %d in all", len(before), n, len(acked))
}

func TestBackupRefusesPostgres(t *testing.T) {
	code, _, errOut := runCmd(t, t.TempDir(), cleanEnv(), "", "backup", "--db", "postgres://u@127.0.0.1:1/x", "x.dump")
	if code != 2 || !strings.Contains(errOut, "pg_dump") {
		t.Fatalf("%d %q", code, errOut)
	}
}
