package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/urikit/urikit/resolver/internal/store"
)

// TestExportImportRoundTrip fills a database through the admin API
// (locations, metadata, synonyms, deactivations with and without a
// successor, a chain of successors, a reactivation), exports it, imports
// the export into an empty database and exports that: the two exports
// are the same bytes, and every record is stored the same in both
// databases, times and deactivations included.
func TestExportImportRoundTrip(t *testing.T) {
	forEachDB(t, func(t *testing.T, dir, dsn string) {
		env := cleanEnv()
		code, tok, errOut := runCmd(t, dir, env, "", "token", "create", "--db", dsn, "--namespace", "nbn", "--namespace", "isbn")
		if code != 0 {
			t.Fatal(errOut)
		}
		tok = strings.TrimSpace(tok)
		s := startServer(t, dir, env, "--db", dsn, "--write-rate", "-1")
		put := func(urn, body string) {
			t.Helper()
			if code, _, b := request(t, "PUT", s.url+"/admin/records/"+urn, tok, "application/json", body); code/100 != 2 {
				t.Fatalf("PUT %s: %d %s", urn, code, b)
			}
		}
		del := func(urn, body string) {
			t.Helper()
			if code, _, b := request(t, "DELETE", s.url+"/admin/records/"+urn, tok, "application/json", body); code != 204 {
				t.Fatalf("DELETE %s: %d %s", urn, code, b)
			}
		}
		for i := 0; i < 2500; i += 250 {
			// Enough records for several pages of the export.
			var b strings.Builder
			for j := i; j < i+250; j++ {
				fmt.Fprintf(&b, `{"urn":"urn:nbn:no-bulk-%04d","urls":["https://nb.example/bulk/%d"]}`+"\n", j, j)
			}
			if code, _, body := request(t, "POST", s.url+"/admin/import", tok, "application/jsonl", b.String()); code != 200 {
				t.Fatalf("import: %d %s", code, body)
			}
		}
		put("urn:nbn:no-1", `{"urls":["https://nb.example/1","https://mirror.example/1?a=1&b=%3C2%3E"],"metadata":{"title":"Bok & <ting> — ære","year":1999,"tags":["a","b"]},"synonyms":["urn:isbn:978-3-16-148410-0"]}`)
		put("urn:nbn:no-2", `{"urls":[]}`)
		put("urn:nbn:no-3", `{"urls":["https://nb.example/3"]}`)
		put("urn:nbn:no-4", `{"urls":["https://nb.example/4"]}`)
		put("urn:isbn:978-3-16-148410-0", `{"urls":["https://books.example/1"]}`)
		del("urn:nbn:no-3", `{"reason":"merged","successor":"urn:nbn:no-4"}`)
		del("urn:nbn:no-2", `{"reason":"withdrawn","successor":"urn:nbn:no-3"}`) // a chain: 2 -> 3 -> 4
		del("urn:nbn:no-bulk-0007", "")
		del("urn:nbn:no-bulk-0008", `{"reason":"replaced","successor":"urn:nbn:no-1"}`)
		del("urn:nbn:no-bulk-0009", "")
		if code, _, b := request(t, "DELETE", s.url+"/admin/deactivations/urn:nbn:no-bulk-0009", tok, "", ""); code != 200 {
			t.Fatalf("reactivate: %d %s", code, b)
		}

		export := func(dsn string) string {
			t.Helper()
			code, out, errOut := runCmd(t, dir, env, "", "export", "--db", dsn)
			if code != 0 {
				t.Fatalf("export: %d %s", code, errOut)
			}
			return out
		}
		first := export(dsn)
		file := filepath.Join(dir, "export.jsonl")
		if err := os.WriteFile(file, []byte(first), 0o644); err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(dir, "copy.db")
		if strings.HasPrefix(dsn, "postgres") {
			target = postgresDSN(t)
		}
		if code, out, errOut := runCmd(t, dir, env, "", "import", "--db", target, "-v", file); code != 0 {
			t.Fatalf("import of the export: %d %s %s", code, out, errOut)
		}
		second := export(target)
		if first != second {
			t.Errorf("the export of the copy differs from the export it was made from:\n%s\n---\n%s", truncateText(first, 3000), truncateText(second, 3000))
		}
		if n := strings.Count(first, "\n"); n != 2500+5+2 {
			t.Errorf("export of %d lines, want 2,507 (header, 2,505 records, end)", n)
		}

		// Record by record, as the stores hold them.
		src, dst := openTestDB(t, dsn), openTestDB(t, target)
		ctx := context.Background()
		var keys []string
		if err := src.Export(ctx, func(e store.Exported) error { keys = append(keys, e.Key); return nil }); err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			a, errA := src.Record(ctx, k)
			b, errB := dst.Record(ctx, k)
			if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
				t.Errorf("%s:\n source %+v %v\n copy   %+v %v", k, a, errA, b, errB)
			}
		}
		// The copy resolves as the source: the chain of successors and
		// the synonym.
		s2 := startServer(t, dir, env, "--db", target)
		for _, q := range []string{"/uri-res/N2L?urn:nbn:no-2", "/uri-res/N2L?urn:nbn:no-3", "/uri-res/N2Ns?urn:isbn:978-3-16-148410-0", "/uri-res/N2C?urn:nbn:no-bulk-0007"} {
			c1, h1, b1 := request(t, "GET", s.url+q, "", "", "")
			c2, h2, b2 := request(t, "GET", s2.url+q, "", "", "")
			if c1 != c2 || h1.Get("Location") != h2.Get("Location") || b1 != b2 {
				t.Errorf("%s: source %d %s %s, copy %d %s %s", q, c1, h1.Get("Location"), b1, c2, h2.Get("Location"), b2)
			}
		}

		// A second import of the same export stores nothing: every URN
		// has its record.
		code, _, errOut = runCmd(t, dir, env, "", "import", "--db", target, file)
		if n := strings.Count(errOut, "record refused whole (line"); code != 1 || n != 2505 || !strings.Contains(errOut, "a record is stored under this URN") {
			t.Errorf("second import: exit %d, %d records refused\n%s", code, n, truncateText(errOut, 500))
		}
		// An export cut off is refused whole.
		cut := filepath.Join(dir, "cut.jsonl")
		os.WriteFile(cut, []byte(first[:len(first)/2]), 0o644)
		empty := filepath.Join(dir, "empty.db")
		if strings.HasPrefix(dsn, "postgres") {
			empty = postgresDSN(t)
		}
		code, _, errOut = runCmd(t, dir, env, "", "import", "--db", empty, cut)
		if code != 1 || !strings.Contains(errOut, "truncated") || !strings.Contains(errOut, "nothing stored") {
			t.Errorf("import of a cut export: exit %d %s", code, errOut)
		}
		if n, err := openTestDB(t, empty).Count(ctx); err != nil || n != 0 {
			t.Errorf("a cut export stored %d records (%v)", n, err)
		}
		// Without its successor's record, a deactivation is refused
		// whole, and so is the one whose chain runs through it.
		var lines []string
		for _, l := range strings.Split(first, "\n") {
			if !strings.Contains(l, `"urn":"urn:nbn:no-4"`) {
				lines = append(lines, l)
			}
		}
		lines[len(lines)-2] = strings.Replace(lines[len(lines)-2], `"records":2505`, `"records":2504`, 1)
		broken := filepath.Join(dir, "broken.jsonl")
		os.WriteFile(broken, []byte(strings.Join(lines, "\n")), 0o644)
		other := filepath.Join(dir, "other.db")
		if strings.HasPrefix(dsn, "postgres") {
			other = postgresDSN(t)
		}
		code, _, errOut = runCmd(t, dir, env, "", "import", "--db", other, broken)
		if code != 1 || !strings.Contains(errOut, "urn:nbn:no-3: record refused whole") || !strings.Contains(errOut, "urn:nbn:no-2: record refused whole") {
			t.Errorf("import without a successor: exit %d %s", code, errOut)
		}
		if n, _ := openTestDB(t, other).Count(ctx); n != 2505-3 {
			t.Errorf("%d records stored, want 2,502", n)
		}
	})
}

func truncateText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
