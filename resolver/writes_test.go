package resolver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/urikit/urikit/internal/testshared"
)

// Issue 23.2: "every URN a write names (the record, its synonyms,
// anything else) must be inside the token's scope; a test for each write
// path and each service that reads synonyms." A synonym binding answers
// for both of its URNs (RFC 2483 section 4.7), so a token for nbn:no-
// that may bind an ISBN would speak for the ISBN's namespace.
func TestTenantIsolation(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{})
		nbn := e.token("nbn:no-")
		both := e.token("nbn:no-", "isbn:978")
		const isbn = "urn:isbn:9780262033848"
		body := `{"urn":"urn:nbn:no-1","urls":["https://nb.example/1"],"synonyms":["urn:nbn:no-2","` + isbn + `"]}`
		jsonl := func(tok string) map[string]string {
			return map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/jsonl"}
		}
		hdr := func(tok string) map[string]string {
			return map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/json"}
		}

		// Refused on every write path, with the synonym named.
		for _, w := range []struct{ method, target string }{{"POST", "/admin/records"}, {"PUT", "/admin/records/urn:nbn:no-1"}} {
			r := e.do(w.method, w.target, hdr(nbn), body)
			if r.code != 403 {
				t.Fatalf("%s %s with a foreign synonym: %d %s", w.method, w.target, r.code, r.body)
			}
			if p := problemOf(t, r); p.Field != "synonyms[1]" || p.Pointer != "#/synonyms/1" || !strings.Contains(p.Detail, isbn) {
				t.Errorf("%s: field %q pointer %q detail %q", w.method, p.Field, p.Pointer, p.Detail)
			}
		}
		r := e.do("POST", "/admin/import", jsonl(nbn), body+"\n")
		var res ImportResult
		if err := json.Unmarshal([]byte(r.body), &res); err != nil || r.code != 200 {
			t.Fatalf("import: %d %s", r.code, r.body)
		}
		if res.Lines != 0 || len(res.Refused) != 1 || !strings.Contains(res.Refused[0].Reason, "synonyms[1]: token") ||
			len(res.RefusedRecords) != 1 || res.RefusedRecords[0].URN != "urn:nbn:no-1" {
			t.Fatalf("import with a foreign synonym: %+v", res)
		}
		if n := e.count(); n != 0 {
			t.Fatalf("%d records stored by refused writes", n)
		}

		// No service that reads synonyms answers for the ISBN.
		for _, c := range []struct {
			target string
			code   int
			body   string
		}{
			{"/uri-res/N2Ns?" + isbn, 404, ""},
			{"/uri-res/N2N?" + isbn, 404, ""},
			{"/uri-res/I=I?urn:nbn:no-1&" + isbn, 200, "false"},
			{"/?urn=" + isbn, 404, ""},
		} {
			if r := e.get(c.target); r.code != c.code || (c.body != "" && r.body != c.body) || strings.Contains(r.body, "no-1") {
				t.Errorf("%s after refused writes: %d %q", c.target, r.code, truncate(r.body, 200))
			}
		}

		// A token whose scopes cover both URNs may bind them; then the
		// services answer for both sides.
		if r := e.do("PUT", "/admin/records/urn:nbn:no-1", hdr(both), body); r.code != 201 {
			t.Fatalf("PUT by a token of both scopes: %d %s", r.code, r.body)
		}
		for _, c := range []struct {
			target string
			code   int
			body   string
		}{
			{"/uri-res/N2N?" + isbn, 200, "urn:nbn:no-1\r\n"},
			{"/uri-res/I=I?urn:nbn:no-1&" + isbn, 200, "true"},
		} {
			if r := e.get(c.target); r.code != c.code || r.body != c.body {
				t.Errorf("%s: %d %q, want %d %q", c.target, r.code, r.body, c.code, c.body)
			}
		}
		if r := e.get("/?urn=" + isbn); r.code != 200 || !strings.Contains(r.body, "urn:nbn:no-1") {
			t.Errorf("page of the ISBN: %d", r.code)
		}
		// The import path accepts the same with that token.
		r = e.do("POST", "/admin/import", jsonl(both), strings.Replace(body, "no-1", "no-3", 1)+"\n")
		if r.code != 200 || !strings.Contains(r.body, `"lines":1`) {
			t.Fatalf("import by a token of both scopes: %d %s", r.code, r.body)
		}
	})
}

// strictCases are bodies that encoding/json would store changed or
// resolve silently, and which issue 23.3 requires refused on both write
// paths: "JSON bodies and JSONL lines decoded with exact member names,
// unknown and duplicate members refused, invalid UTF-8 and lone
// surrogates refused (400 problem+json naming the field, nothing
// stored)". RFC 8259 section 8.1: JSON text "MUST be encoded using
// UTF-8"; section 4: names "SHOULD be unique"; section 8.2: a lone
// surrogate's behaviour is unpredictable.
var strictCases = []struct {
	name, body     string
	field, pointer string // "" when accepted
}{
	{"invalid UTF-8 in metadata", `{"urn":"urn:example:a","metadata":{"title":"B` + "\xff" + `k"}}`, "metadata.title", "#/metadata/title"},
	{"invalid UTF-8 in a name", `{"urn":"urn:example:a","metadata":{"t` + "\xc3" + `":"x"}}`, "metadata", "#/metadata"},
	{"invalid UTF-8 in a location", `{"urn":"urn:example:a","urls":["https://a.example/` + "\xed\xa0\x80" + `"]}`, "urls[0]", "#/urls/0"},
	{"lone high surrogate", `{"urn":"urn:example:a","metadata":{"t":"\ud800"}}`, "metadata.t", "#/metadata/t"},
	{"lone low surrogate", `{"urn":"urn:example:a","metadata":{"t":"x\udc00"}}`, "metadata.t", "#/metadata/t"},
	{"high surrogate then not low", `{"urn":"urn:example:a","metadata":{"t":"\ud800\u0041"}}`, "metadata.t", "#/metadata/t"},
	{"duplicate metadata member", `{"urn":"urn:example:a","metadata":{"a":1,"a":2}}`, "metadata.a", "#/metadata/a"},
	{"duplicate by escape", `{"urn":"urn:example:a","metadata":{"a":1,"\u0061":2}}`, "metadata.a", "#/metadata/a"},
	{"duplicate deep", `{"urn":"urn:example:a","metadata":{"x":[{"k/~":1,"k/~":2}]}}`, "metadata.x[0].k/~", "#/metadata/x/0/k~1~0"},
	{"duplicate top-level member", `{"urn":"urn:example:a","urls":["https://a.example/"],"urls":["https://b.example/"]}`, "urls", "#/urls"},
	{"member name in another case", `{"urn":"urn:example:a","urls":["https://a.example/"],"URLS":["https://b.example/"]}`, "URLS", "#/URLS"},
	{"Urn", `{"Urn":"urn:example:a"}`, "Urn", "#/Urn"},
	{"unknown member", `{"urn":"urn:example:a","color":"red"}`, "color", "#/color"},
	{"control character", `{"urn":"urn:example:a","metadata":{"t":"a` + "\x01" + `"}}`, "metadata.t", "#/metadata/t"},
	// Accepted: the same rules do not refuse what is well-formed.
	{"surrogate pair", `{"urn":"urn:example:a","metadata":{"t":"\ud83d\ude00 \u00e9 é"}}`, "", ""},
	{"same name in two objects", `{"urn":"urn:example:a","metadata":{"a":{"a":1},"b":{"a":2}}}`, "", ""},
	{"exact names", `{"urn":"urn:example:a","urls":["https://a.example/"],"metadata":null,"synonyms":[]}`, "", ""},
}

func TestStrictInput(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{})
		tok := e.token("example")
		h := map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/json"}
		hl := map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/jsonl"}
		for _, c := range strictCases {
			// The admin API.
			r := e.do("PUT", "/admin/records/urn:example:a", h, c.body)
			if c.field == "" {
				// The accepted cases come last: a record is not
				// deleted, only deactivated, so they replace it.
				if r.code != 200 && r.code != 201 {
					t.Errorf("%s: PUT %d %s", c.name, r.code, r.body)
				}
				continue
			}
			if r.code != 400 {
				t.Errorf("%s: PUT %d %s", c.name, r.code, r.body)
			} else if p := problemOf(t, r); p.Field != c.field || p.Pointer != c.pointer || !strings.HasSuffix(p.Type, "#invalid-body") {
				t.Errorf("%s: field %q pointer %q type %q, want %q %q", c.name, p.Field, p.Pointer, p.Type, c.field, c.pointer)
			}
			// The JSON Lines import, over HTTP and so through Import.
			r = e.do("POST", "/admin/import", hl, `{"urn":"urn:example:ok","urls":["https://ok.example/"]}`+"\n"+c.body+"\n")
			var res ImportResult
			if err := json.Unmarshal([]byte(r.body), &res); err != nil || r.code != 200 {
				t.Fatalf("%s: import %d %s", c.name, r.code, r.body)
			}
			if len(res.Refused) != 1 || res.Refused[0].Line != 2 || !strings.HasPrefix(res.Refused[0].Reason, c.field+": ") || res.Lines != 1 {
				t.Errorf("%s: import %+v", c.name, res)
			}
			if exists(t, e.store, "urn:example:a") {
				t.Fatalf("%s: stored", c.name)
			}
		}
	})
}

// TestCheckJSONGrammar checks that checkJSON accepts exactly the JSON
// texts of RFC 8259 (encoding/json's Valid agrees on texts without the
// strict refusals), both ways.
func TestCheckJSONGrammar(t *testing.T) {
	for _, s := range []string{
		`0`, `-0`, `1.5e+10`, `-12.0E-3`, `"x"`, `[]`, `{}`, `[1,[2,{"a":null}]]`, ` {"a" : true , "b":false} `,
		`01`, `1.`, `.5`, `1e`, `+1`, `-`, `[1,]`, `{"a":1,}`, `{"a"}`, `{a:1}`, `tru`, `nul`, `"\x"`, `"\u12"`, `"abc`, `[`, `1 2`, ``, `"\u00zz"`,
		"\"\t\"", `"\/\b\f\n\r\t\\\""`,
	} {
		got := checkJSON([]byte(s), nil) == nil
		if want := json.Valid([]byte(s)); got != want {
			t.Errorf("checkJSON(%q) accepts %v, encoding/json %v", s, got, want)
		}
	}
	// Nesting is bounded, so the scanner's recursion is.
	deep := strings.Repeat("[", maxJSONDepth+2) + strings.Repeat("]", maxJSONDepth+2)
	if err := checkJSON([]byte(deep), nil); err == nil || !strings.Contains(err.reason, "nested deeper") {
		t.Errorf("deep nesting: %v", err)
	}
}

// TestCheckJSONLinear: the scanner is linear in its input, for long
// strings, many members and many escapes.
func TestCheckJSONLinear(t *testing.T) {
	testshared.CheckLinearN(t, "checkJSON members", 2000, func(n int) []byte {
		var b strings.Builder
		b.WriteString(`{"urn":"urn:example:a","metadata":{`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"m%d":"\u00e9\ud83d\ude00 %d"`, i, i)
		}
		b.WriteString("}}")
		return []byte(b.String())
	}, func(b []byte) {
		if err := checkJSON(b, recordMembers); err != nil {
			panic(err)
		}
	})
}

// Issue 23.3, CSV: "the CSV import refuses invalid UTF-8 and repeated
// header columns on the line they occur".
func TestStrictCSV(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		st := openTestStore(t, dsn)
		for _, c := range []struct{ name, in, err string }{
			{"repeated column", "urn,url,title,title\nurn:example:a,https://a.example/,A,B\n", `line 1: column 4 of the header repeats "title" (column 3)`},
			{"repeated urn in another case", "urn,url,URN\n", `line 1: column 3 of the header repeats "URN" (column 1)`},
			{"invalid UTF-8 in the header", "urn,url,t\xffitle\n", "line 1: column 3 of the header: invalid UTF-8 (byte 0xFF at offset 1)"},
		} {
			_, err := importString(t, st, FormatCSV, c.in)
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want %q", c.name, err, c.err)
			}
		}
		// Distinct names are fine, and so are names differing in case
		// (they are distinct JSON members).
		res, err := importString(t, st, FormatCSV, "urn,url,title,Title\nurn:example:z,https://z.example/,a,b\n")
		if err != nil || res.Lines != 1 {
			t.Fatalf("distinct columns: %+v %v", res, err)
		}
		res, err = importString(t, st, FormatCSV, "urn,url,title\n"+
			"urn:example:a,https://a.example/1,Good\n"+ // 2
			"urn:example:b,https://b.example/,B\xe9d\n"+ // 3: Latin-1, not UTF-8
			"urn:example:c,https://c.example/,\xef\xbf\xbd is fine\n") // 4: U+FFFD itself is valid UTF-8
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Refused) != 1 || res.Refused[0].String() != "3: column 3 (title): invalid UTF-8 (byte 0xE9 at offset 1)" || res.Lines != 2 {
			t.Fatalf("%+v", res)
		}
		if exists(t, st, "urn:example:b") {
			t.Fatal("a row with invalid UTF-8 was stored")
		}
	})
}

// Issue 23.4: "an import stores each record (all rows of one URN in a
// file) whole or refuses it whole, and reports which" — in one batch, and
// across the batches an import writes in its transaction, where the
// record stored before the import must come back as it was.
func TestImportWholeRecords(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		st := openTestStore(t, dsn)
		ctx := context.Background()
		// Before: m has one location and a title.
		if _, err := importString(t, st, FormatCSV, "urn,url,title\nurn:example:m,https://old.example/,Old\n"); err != nil {
			t.Fatal(err)
		}
		before, _ := st.db.Record(ctx, "urn:example:m")

		var b strings.Builder
		b.WriteString("urn,url,title\n")
		b.WriteString("urn:example:m,https://new.example/1,New\n")  // line 2
		b.WriteString("urn:example:keep,https://keep.example/,K\n") // line 3
		for i := 0; i < flushSize+5; i++ {                          // past a batch: m is written in the transaction
			fmt.Fprintf(&b, "urn:example:f%d,https://f.example/%d,\n", i, i)
		}
		badLine := 4 + flushSize + 5
		b.WriteString("urn:example:m,ftp://mirror.example/1,\n") // refused: m refused whole
		b.WriteString("urn:example:m,https://new.example/3,\n")  // after: not stored either
		b.WriteString("urn:example:n,https://n.example/1,\n")    // n: refused on its second row,
		b.WriteString("urn:example:n,https://n.example/bad#f,\n")
		res, err := importString(t, st, FormatCSV, b.String())
		if err != nil {
			t.Fatal(err)
		}
		if len(res.RefusedRecords) != 2 {
			t.Fatalf("refused records %+v", res.RefusedRecords)
		}
		m, n := res.RefusedRecords[0], res.RefusedRecords[1]
		if m.URN != "urn:example:m" || m.Line != badLine || m.Dropped != 1 || !strings.Contains(m.Reason, "urls[0]") ||
			n.URN != "urn:example:n" || n.Line != badLine+3 || n.Dropped != 1 {
			t.Errorf("refused records %+v", res.RefusedRecords)
		}
		if len(res.Refused) != 3 || res.Refused[1].Line != badLine+1 || !strings.Contains(res.Refused[1].Reason, "refused whole") {
			t.Errorf("refused %+v", res.Refused)
		}
		if res.Records != flushSize+6 || res.Lines != flushSize+6 {
			t.Errorf("records %d lines %d", res.Records, res.Lines)
		}
		after, err := st.db.Record(ctx, "urn:example:m")
		if err != nil || strings.Join(after.URLs, " ") != "https://old.example/" || after.Metadata != `{"title":"Old"}` ||
			!after.Updated.Equal(before.Updated) || !after.Created.Equal(before.Created) {
			t.Errorf("m after its refusal: %+v %v, want as before %+v", after, err, before)
		}
		if _, err := st.db.Record(ctx, "urn:example:n"); !errors.Is(err, ErrNotFound) {
			t.Errorf("n stored: %v", err)
		}
		if k, err := st.db.Record(ctx, "urn:example:keep"); err != nil || len(k.URLs) != 1 {
			t.Errorf("keep: %+v %v", k, err)
		}
		// A record whose every row is valid is stored whole.
		res, err = Import(ctx, st, strings.NewReader("urn,url\nurn:example:w,https://w.example/1\nurn:example:w,https://w.example/2\n"), FormatCSV,
			ImportOptions{Audit: AuditEntry{At: time.Now()}})
		if w, _ := st.db.Record(ctx, "urn:example:w"); err != nil || len(res.RefusedRecords) != 0 || len(w.URLs) != 2 {
			t.Errorf("w: %+v %v", w, err)
		}
	})
}
