package resolver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
)

func importString(t *testing.T, st *Store, f Format, in string) (ImportResult, error) {
	t.Helper()
	return Import(context.Background(), st, strings.NewReader(in), f, ImportOptions{
		Audit: AuditEntry{At: time.Now(), Actor: "test", Client: "local"}, Source: "test",
	})
}

func TestImportCSV(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		st := openTestStore(t, dsn)
		in := "\ufeffurn,url,title\n" + // line 1, with a byte order mark
			"urn:example:a,https://a.example/1,First\n" + // 2
			"URN:EXAMPLE:a,https://a.example/2,\n" + // 3: same URN, second location
			"urn:x:bad,https://x.example/,\n" + // 4: invalid URN
			"urn:example:b,javascript:alert(1),\n" + // 5: invalid location
			"urn:example:b,https://b.example/,\"two\nlines\"\n" + // 6-7: a quoted line break
			"urn:example:a,https://a.example/3,Third\n" + // 8: a comes back
			"urn:example:c,,Only metadata\n" + // 9
			"urn:example:d,https://d.example/,x,extra\n" + // 10: more columns than the header
			"urn:example:e,\"bad\"quote,\n" // 11: malformed CSV
		res, err := importString(t, st, FormatCSV, in)
		if err != nil {
			t.Fatal(err)
		}
		var refused []string
		for _, r := range res.Refused {
			refused = append(refused, r.String())
		}
		// b's line 5 refuses b whole: its line 6 is not stored either.
		wantLines := []int{4, 5, 6, 10, 11}
		if len(res.Refused) != len(wantLines) {
			t.Fatalf("refused %q, want lines %v", refused, wantLines)
		}
		for i, l := range wantLines {
			if res.Refused[i].Line != l {
				t.Errorf("refused %q, want lines %v", refused, wantLines)
			}
		}
		if !strings.Contains(refused[0], "4: urn: ") || !strings.Contains(refused[1], "5: urls[0]: ") ||
			!strings.Contains(refused[2], "6: not stored: the record of urn:example:b is refused whole (line 5)") {
			t.Errorf("reasons %q", refused)
		}
		if res.Lines != 4 || res.Records != 2 {
			t.Errorf("lines %d records %d, want 4 and 2", res.Lines, res.Records)
		}
		if len(res.RefusedRecords) != 2 || res.RefusedRecords[0].URN != "urn:example:b" || res.RefusedRecords[0].Line != 5 ||
			res.RefusedRecords[1].URN != "urn:example:d" || res.RefusedRecords[1].Line != 10 {
			t.Errorf("refused records %+v", res.RefusedRecords)
		}
		a, err := st.db.Record(context.Background(), "urn:example:a")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(a.URLs, " ") != "https://a.example/1 https://a.example/2 https://a.example/3" {
			t.Errorf("a's URLs %q: the rows' order", a.URLs)
		}
		if a.Metadata != `{"title":"Third"}` {
			t.Errorf("a's metadata %s: the later row's value wins", a.Metadata)
		}
		if _, err := st.db.Record(context.Background(), "urn:example:b"); !errors.Is(err, ErrNotFound) {
			t.Errorf("b, refused whole, is stored: %v", err)
		}
		c, _ := st.db.Record(context.Background(), "urn:example:c")
		if len(c.URLs) != 0 || c.Metadata != `{"title":"Only metadata"}` {
			t.Errorf("c %+v", c)
		}
		// The import is in the audit log, with its hash.
		entries, _ := st.db.Audit(context.Background(), 1)
		if len(entries) != 1 || entries[0].Action != "import" || !strings.Contains(entries[0].Detail, res.SHA256) {
			t.Errorf("audit %+v", entries)
		}
	})
}

func TestImportCSVHeader(t *testing.T) {
	st := openTestStore(t, t.TempDir()+"/db")
	for _, in := range []string{"", "url,urn\nhttps://a.example/,urn:example:a\n", "urn\n", "name,url\n"} {
		if _, err := importString(t, st, FormatCSV, in); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

func TestImportJSONL(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		st := openTestStore(t, dsn)
		// Stored before: the import replaces it.
		if _, err := importString(t, st, FormatJSONL, `{"urn":"urn:example:old","urls":["https://old.example/"],"metadata":{"a":1}}`); err != nil {
			t.Fatal(err)
		}
		in := `{"urn":"urn:example:a","urls":["https://a.example/1","https://a.example/2"],"metadata":{"t":"A"},"synonyms":["urn:example:alias"]}` + "\n" +
			"\n" + // 2: blank, skipped
			`{"urn":"urn:example:old","urls":["https://new.example/"]}` + "\n" +
			`{"urn":"urn:example:b","urls":["https://b.example/"],"colour":"red"}` + "\n" + // 4: unknown member
			`not json` + "\n" + // 5
			`["urn:example:c"]` + "\n" + // 6
			`{"urn":"urn:example:d"} {"urn":"urn:example:e"}` + "\n" + // 7
			`{"urn":"urn:example:f","urls":["https://f.example/"],"metadata":"x"}` + "\n" + // 8
			`{"urn":"urn:example:g","urls":["https://g.example/"]}` // 9, no final newline
		res, err := importString(t, st, FormatJSONL, in)
		if err != nil {
			t.Fatal(err)
		}
		var lines []int
		for _, r := range res.Refused {
			lines = append(lines, r.Line)
		}
		if fmt.Sprint(lines) != "[4 5 6 7 8]" || res.Lines != 3 {
			t.Fatalf("refused %+v, stored %d", res.Refused, res.Lines)
		}
		old, _ := st.db.Record(context.Background(), "urn:example:old")
		if len(old.URLs) != 1 || old.URLs[0] != "https://new.example/" || old.Metadata != "{}" {
			t.Fatalf("old %+v: want replaced", old)
		}
		l, _ := st.db.Lookup(context.Background(), "urn:example:alias", store.NeedSynonyms)
		syns := l.Synonyms
		if len(syns) != 1 || syns[0] != "urn:example:a" {
			t.Fatalf("synonyms of the alias %q", syns)
		}
	})
}

// TestImportAcrossBatches makes a URN come back after its first batch
// was written: it is merged, not replaced.
func TestImportAcrossBatches(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		st := openTestStore(t, dsn)
		var b strings.Builder
		b.WriteString("urn,url\n")
		n := flushSize*2 + 10
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "urn:example:%d,https://x.example/%d\n", i, i)
		}
		b.WriteString("urn:example:0,https://x.example/again\n")
		res, err := importString(t, st, FormatCSV, b.String())
		if err != nil || len(res.Refused) != 0 || res.Records != n || res.Lines != n+1 {
			t.Fatalf("%+v %v", res, err)
		}
		rec, _ := st.db.Record(context.Background(), "urn:example:0")
		if strings.Join(rec.URLs, " ") != "https://x.example/0 https://x.example/again" {
			t.Fatalf("%q", rec.URLs)
		}
		if c, _ := st.db.Count(context.Background()); c != n {
			t.Fatalf("count %d", c)
		}
	})
}

func TestImportLimits(t *testing.T) {
	st := openTestStore(t, t.TempDir()+"/db")
	// A line over the limit: nothing stored.
	in := `{"urn":"urn:example:a"}` + "\n" + `{"urn":"urn:example:b","metadata":{"x":"` + strings.Repeat("y", 300) + `"}}` + "\n"
	_, err := Import(context.Background(), st, strings.NewReader(in), FormatJSONL, ImportOptions{Limits: Limits{LineBytes: 200}})
	if !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("err %v", err)
	}
	if c, _ := st.db.Count(context.Background()); c != 0 {
		t.Fatalf("%d records stored", c)
	}
	// Locations of one URN beyond the limit, counted over the import.
	var b strings.Builder
	b.WriteString("urn,url\n")
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&b, "urn:example:m,https://x.example/%d\n", i)
	}
	res, err := Import(context.Background(), st, strings.NewReader(b.String()), FormatCSV, ImportOptions{Limits: Limits{URLs: 3}})
	if err != nil || len(res.Refused) != 2 || res.Refused[0].Line != 5 || !strings.Contains(res.Refused[0].Reason, "more than 3 locations") ||
		len(res.RefusedRecords) != 1 || res.RefusedRecords[0].Dropped != 3 || res.Lines != 0 {
		t.Fatalf("%+v %v", res, err)
	}
	if c, _ := st.db.Count(context.Background()); c != 0 {
		t.Fatalf("%d records stored: the record over the limit is refused whole", c)
	}
}

// cancelAfter is a reader that cancels the import's context once it has
// given n bytes: a stand-in for a client that goes away mid-import.
type cancelAfter struct {
	r      io.Reader
	n      int
	cancel func()
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	if c.n <= 0 {
		c.cancel()
		return 0, context.Canceled
	}
	if len(p) > c.n {
		p = p[:c.n]
	}
	n, err := c.r.Read(p)
	c.n -= n
	return n, err
}

func TestImportIsOneTransaction(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		st := openTestStore(t, dsn)
		var b strings.Builder
		for i := 0; i < 3*flushSize; i++ {
			fmt.Fprintf(&b, `{"urn":"urn:example:%d","urls":["https://x.example/%d"]}`+"\n", i, i)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		// Cut after about two batches were written in the transaction.
		r := &cancelAfter{r: strings.NewReader(b.String()), n: b.Len() * 3 / 4, cancel: cancel}
		if _, err := Import(ctx, st, r, FormatJSONL, ImportOptions{}); err == nil {
			t.Fatal("no error")
		}
		if c, _ := st.db.Count(context.Background()); c != 0 {
			t.Fatalf("%d records visible after an aborted import", c)
		}
	})
}

func TestImportOverHTTP(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{})
		tok := e.token("example")
		h := map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/jsonl"}
		in := `{"urn":"urn:example:1","urls":["https://x.example/1"]}` + "\n" +
			`{"urn":"urn:isbn:0-395-36341-1","urls":["https://x.example/2"]}` + "\n" + // out of the token's scope
			`{"urn":"urn:example:3","urls":["https://x.example/3"]}` + "\n"
		r := e.do("POST", "/admin/import", h, in)
		var res ImportResult
		if err := json.Unmarshal([]byte(r.body), &res); err != nil || r.code != 200 {
			t.Fatalf("%d %s", r.code, r.body)
		}
		if res.Lines != 2 || len(res.Refused) != 1 || res.Refused[0].Line != 2 || !strings.Contains(res.Refused[0].Reason, "may write example only") {
			t.Fatalf("%+v", res)
		}
		if e.count() != 2 {
			t.Fatalf("%d records", e.count())
		}
		h["Content-Type"] = "text/csv; charset=utf-8"
		r = e.do("POST", "/admin/import", h, "urn,url\nurn:example:4,https://x.example/4\n")
		if r.code != 200 || e.count() != 3 {
			t.Fatalf("CSV import %d %s", r.code, r.body)
		}
		h["Content-Type"] = "application/json"
		if r = e.do("POST", "/admin/import", h, "{}"); r.code != 415 {
			t.Fatalf("JSON import %d", r.code)
		}
	})
}

func TestFormats(t *testing.T) {
	for name, want := range map[string]Format{"a.csv": FormatCSV, "A.CSV": FormatCSV, "x.jsonl": FormatJSONL, "x.ndjson": FormatJSONL, "x.json": FormatUnknown, "csv": FormatUnknown} {
		if got := FormatOfFile(name); got != want {
			t.Errorf("FormatOfFile(%q) = %v", name, got)
		}
	}
	for ct, want := range map[string]Format{"text/csv": FormatCSV, "text/csv; header=present": FormatCSV, "application/jsonl": FormatJSONL,
		"application/x-ndjson": FormatJSONL, "application/json": FormatUnknown, "": FormatUnknown, "text/csv;;": FormatUnknown} {
		if got := FormatOfMediaType(ct); got != want {
			t.Errorf("FormatOfMediaType(%q) = %v", ct, got)
		}
	}
}
