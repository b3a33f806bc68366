package resolver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
)

// otherDSN is a second database of the kind dsn is.
func otherDSN(t *testing.T, dsn string) string {
	if IsPostgres(dsn) {
		return postgresDSN(t)
	}
	return filepath.Join(t.TempDir(), "harvester.db")
}

// checkSum fails unless every harvested record is counted once.
func checkSum(t *testing.T, what string, r HarvestResult) {
	t.Helper()
	if sum := r.Created + r.Updated + r.Reactivated + r.Deleted + r.Unchanged + len(r.Refused); sum != r.Records {
		t.Errorf("%s: %d records, counted %d: %+v", what, r.Records, sum, r)
	}
}

// changedSince counts the source's records whose datestamp is at or
// after from: what a harvest from it is sent.
func changedSince(t *testing.T, st *Store, from string) int {
	t.Helper()
	f, e := parseOAITime("from", from)
	if e != nil {
		t.Fatal(e)
	}
	hs, err := st.db.Harvest(context.Background(), store.HarvestQuery{AfterChanged: -1 << 62, HasFrom: true, From: f.first(), Limit: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	return len(hs)
}

// TestHarvest harvests one live resolver's /oai into another, on each
// store: the records with their locations and titles, a deleted one as
// a deactivation, local synonyms and metadata kept, a URN deactivated
// here by an admin refused; then, after changes at the source, an
// incremental harvest fetches only what changed since the first (and
// what changed in the first harvest's last second, which the
// datestamps' granularity cannot tell apart), and a third run fetches
// nothing new.
func TestHarvest(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		src := newEnv(t, dsn, Config{OAI: OAIConfig{PageSize: 7}})
		stok := src.token("nbn", "isbn")
		for i := 1; i <= 30; i++ {
			urls := []string{fmt.Sprintf("https://nb.example/%d", i)}
			if i%3 == 0 {
				urls = append(urls, fmt.Sprintf("https://mirror.example/%d", i))
			}
			src.mustPut(stok, fmt.Sprintf("urn:nbn:no-%d", i), Record{URLs: urls, Metadata: json.RawMessage(fmt.Sprintf(`{"title":"Bok %d","pages":%d}`, i, i))})
		}
		for _, isbn := range []string{"978-3-16-148410-0", "978-0-306-40615-7", "978-1-4028-9462-6"} {
			src.mustPut(stok, "urn:isbn:"+isbn, Record{URLs: []string{"https://books.example/" + isbn}})
		}
		del := func(e *testEnv, tok, urn string) {
			t.Helper()
			if r := e.do("DELETE", "/admin/records/"+urn, map[string]string{"Authorization": "Bearer " + tok}, ""); r.code != 204 {
				t.Fatalf("DELETE %s: %d %s", urn, r.code, r.body)
			}
		}
		del(src, stok, "urn:nbn:no-5")

		// The source's records were written an hour ago: the first
		// harvest's responseDate is then later than all of them, so
		// that the second harvest is sent exactly what changed since.
		if err := src.store.db.AgeChanges(ctx, time.Hour); err != nil {
			t.Fatal(err)
		}
		dst := newEnv(t, otherDSN(t, dsn), Config{})
		dtok := dst.token("nbn", "isbn")
		dst.mustPut(dtok, "urn:nbn:no-3", Record{URLs: []string{"https://old.example/3"}, Synonyms: []string{"urn:isbn:978-0-306-40615-7"},
			Metadata: json.RawMessage(`{"title":"Old","shelf":"A1"}`)})
		dst.mustPut(dtok, "urn:nbn:no-4", Record{URLs: []string{"https://old.example/4"}})
		del(dst, dtok, "urn:nbn:no-4")

		base := src.url + "/oai"
		harvest := func(o HarvestOptions) HarvestResult {
			t.Helper()
			o.Audit = AuditEntry{At: time.Now().UTC(), Actor: "test", Client: "local"}
			r, err := Harvest(ctx, dst.store, base, o)
			if err != nil {
				t.Fatalf("Harvest: %v (%+v)", err, r)
			}
			checkSum(t, "harvest", r)
			return r
		}
		r1 := harvest(HarvestOptions{})
		if r1.From != "" || r1.Records != 33 || r1.Pages != 5 || r1.Created != 30 || r1.Updated != 1 || r1.Deleted != 1 || len(r1.Refused) != 1 || r1.Next == "" {
			t.Fatalf("first harvest: %+v, want 33 records in 5 pages: 30 created, no-3 updated, no-5 deleted, no-4 refused", r1)
		}
		if !strings.Contains(r1.Refused[0].Identifier, "no-4") || !strings.Contains(r1.Refused[0].Reason, "deactivated here") {
			t.Errorf("refusal: %+v", r1.Refused[0])
		}
		for i := 1; i <= 30; i++ {
			urn := fmt.Sprintf("urn:nbn:no-%d", i)
			rec, err := dst.store.db.Record(ctx, urn)
			switch {
			case err != nil:
				t.Fatalf("%s: %v", urn, err)
			case i == 4:
				if rec.Deactivated == nil || rec.URLs[0] != "https://old.example/4" {
					t.Errorf("%s, deactivated here, changed: %+v", urn, rec)
				}
			case i == 5:
				if rec.Deactivated == nil || !strings.HasPrefix(rec.Deactivated.Reason, harvestReason(base)+" (") {
					t.Errorf("%s, deleted at the source: %+v", urn, rec)
				}
			default:
				want := fmt.Sprintf("https://nb.example/%d", i)
				if rec.Deactivated != nil || rec.URLs[0] != want || len(rec.URLs) != 1+btoi(i%3 == 0) || titleOf(rec.Metadata) != fmt.Sprintf("Bok %d", i) {
					t.Errorf("%s: %+v", urn, rec)
				}
			}
		}
		if rec, _ := dst.store.db.Record(ctx, "urn:nbn:no-3"); rec.Metadata != `{"shelf":"A1","title":"Bok 3"}` || len(rec.Synonyms) != 1 {
			t.Errorf("no-3 lost what only this resolver had: %+v", rec)
		}
		if r := dst.get("/uri-res/N2L?urn:nbn:no-5"); r.code != 410 {
			t.Errorf("N2L of the deleted no-5: %d", r.code)
		}
		if from, ok, err := dst.store.db.HarvestFrom(ctx, base); err != nil || !ok || from != r1.Next {
			t.Errorf("stored from %q %v %v, want %q", from, ok, err, r1.Next)
		}

		// Changes at the source: one updated, one new, one deleted, one
		// reactivated.
		src.mustPut(stok, "urn:nbn:no-1", Record{URLs: []string{"https://new.example/1"}, Metadata: json.RawMessage(`{"title":"Bok 1, ny"}`)})
		src.mustPut(stok, "urn:nbn:no-31", Record{URLs: []string{"https://nb.example/31"}})
		del(src, stok, "urn:nbn:no-2")
		if r := src.do("DELETE", "/admin/deactivations/urn:nbn:no-5", map[string]string{"Authorization": "Bearer " + stok}, ""); r.code != 200 {
			t.Fatalf("reactivate no-5: %d %s", r.code, r.body)
		}
		sent := changedSince(t, src.store, r1.Next)
		r2 := harvest(HarvestOptions{})
		if r2.From != r1.Next || r2.Records != sent || r2.Created != 1 || r2.Updated != 1 || r2.Deleted != 1 || r2.Reactivated != 1 {
			t.Fatalf("second harvest: %+v, want from %s: %d records, 1 created, updated, deleted, reactivated", r2, r1.Next, sent)
		}
		if sent != 4 || r2.Unchanged != 0 {
			t.Errorf("second harvest: %d records sent, %d unchanged; want the 4 changed only", sent, r2.Unchanged)
		}
		for target, want := range map[string]int{"/uri-res/N2L?urn:nbn:no-1": 303, "/uri-res/N2L?urn:nbn:no-31": 303, "/uri-res/N2L?urn:nbn:no-2": 410, "/uri-res/N2L?urn:nbn:no-5": 303} {
			if r := dst.get(target); r.code != want {
				t.Errorf("after the second harvest, %s: %d, want %d", target, r.code, want)
			}
		}
		if r := dst.get("/uri-res/N2L?urn:nbn:no-1"); r.header.Get("Location") != "https://new.example/1" {
			t.Errorf("no-1 Location %q", r.header.Get("Location"))
		}
		sent = changedSince(t, src.store, r2.Next)
		r3 := harvest(HarvestOptions{})
		if r3.From != r2.Next || r3.Records != sent || r3.Created+r3.Updated+r3.Deleted+r3.Reactivated != 0 {
			t.Errorf("third harvest, nothing changed: %+v (%d sent)", r3, sent)
		}
		// A full harvest sends everything again, and changes nothing.
		r4 := harvest(HarvestOptions{Full: true})
		if r4.Records != 34 || r4.Created+r4.Updated+r4.Deleted+r4.Reactivated != 0 || r4.Unchanged != 33 {
			t.Errorf("full harvest: %+v", r4)
		}
		// A set: only its records, and its own place to start from.
		r5 := harvest(HarvestOptions{Set: "isbn"})
		if r5.Source != base+" set=isbn" || r5.From != "" || r5.Records != 3 || r5.Unchanged != 3 {
			t.Errorf("harvest of the set isbn: %+v", r5)
		}
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestHarvestFaults: what a harvest does when its source fails: a page
// that fails keeps the pages before it and leaves where the next harvest
// starts, which then stores the rest (the first pages' records
// unchanged); a 503 with Retry-After is waited out; a cut response, a
// refused token, a token that comes back, a response that is not
// OAI-PMH are errors that say so.
func TestHarvestFaults(t *testing.T) {
	ctx := context.Background()
	src := newEnv(t, filepath.Join(t.TempDir(), "src.db"), Config{OAI: OAIConfig{PageSize: 5}})
	tok := src.token("nbn")
	for i := 1; i <= 23; i++ {
		src.mustPut(tok, fmt.Sprintf("urn:nbn:no-%d", i), Record{URLs: []string{fmt.Sprintf("https://nb.example/%d", i)}})
	}
	target, _ := url.Parse(src.url)
	// proxy passes requests to the source, letting fault change the
	// n-th (from 1) request or its response.
	proxy := func(fault func(n int, w http.ResponseWriter, r *http.Request) bool) (string, *atomic.Int32) {
		var n atomic.Int32
		rp := httputil.NewSingleHostReverseProxy(target)
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !fault(int(n.Add(1)), w, r) {
				rp.ServeHTTP(w, r)
			}
		}))
		t.Cleanup(hs.Close)
		return hs.URL + "/oai", &n
	}
	dst := openTestStore(t, filepath.Join(t.TempDir(), "dst.db"))
	o := HarvestOptions{Audit: AuditEntry{At: time.Now().UTC(), Actor: "test", Client: "local"}}

	// Request 1 is Identify, 2 the first page, 3 the second.
	failing, _ := proxy(func(n int, w http.ResponseWriter, r *http.Request) bool {
		if n == 3 {
			http.Error(w, "boom", http.StatusInternalServerError)
			return true
		}
		return false
	})
	r, err := Harvest(ctx, dst, failing, o)
	if err == nil || !strings.Contains(err.Error(), "500") || r.Pages != 1 || r.Created != 5 || r.Next != "" {
		t.Fatalf("a harvest whose second page fails: %v %+v", err, r)
	}
	if _, ok, _ := dst.db.HarvestFrom(ctx, failing); ok {
		t.Error("an incomplete harvest moved where the next one starts")
	}
	// Retry-After: waited out, then the rest.
	retried, n := proxy(func(n int, w http.ResponseWriter, r *http.Request) bool {
		if n == 2 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusServiceUnavailable)
			return true
		}
		return false
	})
	r, err = Harvest(ctx, dst, retried, o)
	if err != nil || r.Records != 23 || r.Created != 18 || r.Unchanged != 5 || n.Load() != 7 {
		t.Fatalf("the harvest after it, through a 503: %v %+v, %d requests", err, r, n.Load())
	}
	if c, _ := dst.db.Count(ctx); c != 23 {
		t.Errorf("%d records stored, want 23", c)
	}
	for name, fault := range map[string]struct {
		f    func(n int, w http.ResponseWriter, r *http.Request) bool
		want string
	}{
		"cut": {func(n int, w http.ResponseWriter, r *http.Request) bool {
			if n == 2 {
				w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-01-02T00:00:00Z</responseDate><ListRecords><record>`))
				return true
			}
			return false
		}, "not an OAI-PMH document"},
		"bad token": {func(n int, w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Query().Has("resumptionToken") {
				r.URL.RawQuery = "verb=ListRecords&resumptionToken=forged"
			}
			return false
		}, `"badResumptionToken"`},
		"html": {func(n int, w http.ResponseWriter, r *http.Request) bool {
			w.Write([]byte("<html><body>maintenance</body></html>"))
			return true
		}, "not an OAI-PMH document"},
	} {
		u, _ := proxy(fault.f)
		if _, err := Harvest(ctx, dst, u, HarvestOptions{Full: true}); err == nil || !strings.Contains(err.Error(), fault.want) {
			t.Errorf("%s: %v, want %s", name, err, fault.want)
		}
	}
	for _, bad := range []string{"ftp://x/oai", "http:///oai", "http://x/oai?verb=Identify", "http://u:p@x/oai", "x/oai"} {
		if _, err := Harvest(ctx, dst, bad, o); err == nil || !strings.Contains(err.Error(), "base URL") {
			t.Errorf("Harvest(%q): %v", bad, err)
		}
	}
}

// TestHarvestMapping harvests a repository that is not this resolver: oai:
// identifiers with the URN among the dc:identifiers, day granularity, a
// record without metadata, one whose URN is not valid, a location of a
// scheme not allowed, and a token that comes back.
func TestHarvestMapping(t *testing.T) {
	ctx := context.Background()
	var froms []string
	page := func(body string) string {
		return `<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-03-04T05:06:07Z</responseDate><request>x</request>` + body + `</OAI-PMH>`
	}
	const dc = `<metadata><oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">`
	loop := false
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		switch {
		case q.Get("verb") == "Identify":
			w.Write([]byte(page(`<Identify><granularity>YYYY-MM-DD</granularity><deletedRecord>transient</deletedRecord></Identify>`)))
		case q.Has("resumptionToken") && !loop:
			w.Write([]byte(page(`<ListRecords><record><header status="deleted"><identifier>urn:nbn:cz:aba001-000002</identifier><datestamp>2026-03-01</datestamp></header></record><resumptionToken/></ListRecords>`)))
		case q.Has("resumptionToken") || q.Get("verb") == "ListRecords":
			froms = append(froms, q.Get("from"))
			w.Write([]byte(page(`<ListRecords>
<record><header><identifier>oai:cz:1</identifier><datestamp>2026-03-01</datestamp></header>` + dc + `
<dc:title> Kniha </dc:title><dc:title>second title</dc:title><dc:identifier>isbn 80-85892-96-7</dc:identifier><dc:identifier>urn:nbn:cz:aba001-000001</dc:identifier>
<dc:identifier>javascript:alert(1)</dc:identifier><dc:identifier>https://kramerius.example/1</dc:identifier><dc:identifier>URN:NBN:cz:aba001-000001</dc:identifier></oai_dc:dc></metadata></record>
<record><header><identifier>oai:cz:3</identifier><datestamp>2026-03-01</datestamp></header></record>
<record><header><identifier>urn:bad urn</identifier><datestamp>2026-03-01</datestamp></header>` + dc + `</oai_dc:dc></metadata></record>
<resumptionToken>t1</resumptionToken></ListRecords>`)))
		}
	}))
	defer hs.Close()
	dst := openTestStore(t, filepath.Join(t.TempDir(), "dst.db"))
	base := hs.URL + "/oai"
	r, err := Harvest(ctx, dst, base, HarvestOptions{From: "2026-01-02T03:04:05Z"})
	if err != nil {
		t.Fatal(err)
	}
	checkSum(t, "mapping", r)
	if r.Records != 4 || r.Created != 1 || r.Deleted != 1 || len(r.Refused) != 2 || r.Next != "2026-03-04" || froms[0] != "2026-01-02" {
		t.Fatalf("%+v, from %q", r, froms)
	}
	rec, err := dst.db.Record(ctx, "urn:nbn:cz:aba001-000001")
	if err != nil || rec.URN != "urn:nbn:cz:aba001-000001" || strings.Join(rec.URLs, " ") != "https://kramerius.example/1" || rec.Metadata != `{"title":"Kniha"}` {
		t.Errorf("oai:cz:1 stored as %+v %v", rec, err)
	}
	if rec, err := dst.db.Record(ctx, "urn:nbn:cz:aba001-000002"); err != nil || rec.Deactivated == nil || len(rec.URLs) != 0 ||
		rec.Deactivated.Reason != harvestReason(base)+" (2026-03-01)" {
		t.Errorf("a deleted record never seen here: %+v %v", rec, err)
	}
	for i, want := range []string{"no oai_dc metadata", "identifier: "} {
		if !strings.Contains(r.Refused[i].Reason, want) {
			t.Errorf("refusal %d: %v", i, r.Refused[i])
		}
	}
	loop = true
	if _, err := Harvest(ctx, dst, base, HarvestOptions{}); err == nil || !strings.Contains(err.Error(), "came twice") {
		t.Errorf("a token that comes back: %v", err)
	}
	if froms[1] != "2026-03-04" {
		t.Errorf("the second harvest asked from %q, want the first's responseDate in the day granularity", froms[1])
	}
}
