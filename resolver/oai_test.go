package resolver

import (
	"context"
	"encoding/xml"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// oaiDoc is an OAI-PMH response as the tests read it.
type oaiDoc struct {
	ResponseDate string `xml:"responseDate"`
	Request      struct {
		Attrs []xml.Attr `xml:",any,attr"`
		URL   string     `xml:",chardata"`
	} `xml:"request"`
	Errors []struct {
		Code string `xml:"code,attr"`
		Text string `xml:",chardata"`
	} `xml:"error"`
	Identify *struct {
		Name          string `xml:"repositoryName"`
		BaseURL       string `xml:"baseURL"`
		Earliest      string `xml:"earliestDatestamp"`
		DeletedRecord string `xml:"deletedRecord"`
		Granularity   string `xml:"granularity"`
	} `xml:"Identify"`
	Formats []string  `xml:"ListMetadataFormats>metadataFormat>metadataPrefix"`
	Sets    []string  `xml:"ListSets>set>setSpec"`
	Record  *oaiRec   `xml:"GetRecord>record"`
	Records []oaiRec  `xml:"ListRecords>record"`
	Headers []oaiHead `xml:"ListIdentifiers>header"`
	Token   *struct {
		Cursor string `xml:"cursor,attr"`
		Value  string `xml:",chardata"`
	} `xml:"ListRecords>resumptionToken"`
	IDToken *struct {
		Cursor string `xml:"cursor,attr"`
		Value  string `xml:",chardata"`
	} `xml:"ListIdentifiers>resumptionToken"`
}

type oaiHead struct {
	Status     string   `xml:"status,attr"`
	Identifier string   `xml:"identifier"`
	Datestamp  string   `xml:"datestamp"`
	Sets       []string `xml:"setSpec"`
}

type oaiRec struct {
	Header oaiHead `xml:"header"`
	DC     *struct {
		Titles      []string `xml:"title"`
		Identifiers []string `xml:"identifier"`
		Dates       []string `xml:"date"`
	} `xml:"metadata>dc"`
}

func (d oaiDoc) codes() []string {
	var out []string
	for _, e := range d.Errors {
		out = append(out, e.Code)
	}
	return out
}

// heads returns the headers of a list, ListRecords' or ListIdentifiers'.
func (d oaiDoc) heads() []oaiHead {
	out := slices.Clone(d.Headers)
	for _, r := range d.Records {
		out = append(out, r.Header)
	}
	return out
}

func (d oaiDoc) token() string {
	if d.Token != nil {
		return d.Token.Value
	}
	if d.IDToken != nil {
		return d.IDToken.Value
	}
	return ""
}

// oaiSchema validates responses against the OAI-PMH 2.0 schema and the
// oai_dc schema (testdata/oai) with xmllint, when it is installed.
type oaiSchema struct{ driver string }

func newOAISchema(t testing.TB) *oaiSchema {
	t.Helper()
	if _, err := exec.LookPath("xmllint"); err != nil {
		t.Log("no xmllint installed (apt-get install libxml2-utils; scripts/resolver-testenv.sh installs it): responses are not checked against the OAI-PMH schema")
		return nil
	}
	dir := t.TempDir()
	for _, f := range []string{"OAI-PMH.xsd", "oai_dc.xsd", "simpledc20021212.xsd"} {
		b, err := os.ReadFile(filepath.Join("testdata", "oai", f))
		if err != nil {
			t.Fatal(err)
		}
		// The Dublin Core schema imports the XML namespace's schema from
		// the W3C; xmllint runs without the network, with xml:lang
		// declared here.
		b = []byte(strings.ReplaceAll(string(b), "http://www.w3.org/2001/03/xml.xsd", "xml.xsd"))
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"xml.xsd": `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.w3.org/XML/1998/namespace">
  <xs:attribute name="lang" type="xs:language"/>
</xs:schema>
`,
		"driver.xsd": `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:x-urikit:oai-test">
  <xs:import namespace="http://www.openarchives.org/OAI/2.0/" schemaLocation="OAI-PMH.xsd"/>
  <xs:import namespace="http://www.openarchives.org/OAI/2.0/oai_dc/" schemaLocation="oai_dc.xsd"/>
</xs:schema>
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return &oaiSchema{driver: filepath.Join(dir, "driver.xsd")}
}

// check validates body, failing the test with xmllint's message.
func (s *oaiSchema) check(t testing.TB, what, body string) {
	t.Helper()
	if s == nil {
		return
	}
	f := filepath.Join(filepath.Dir(s.driver), "response.xml")
	if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("xmllint", "--noout", "--nonet", "--schema", s.driver, f).CombinedOutput()
	if err != nil {
		t.Errorf("%s: not valid against the OAI-PMH schema: %v\n%s\n%s", what, err, out, truncate(body, 2000))
	}
}

// oai sends an OAI-PMH request (GET, or POST with the arguments as a
// form body) and decodes the response, checked against the schema.
func (e *testEnv) oai(schema *oaiSchema, method, args string) (oaiDoc, string) {
	e.t.Helper()
	var r response
	if method == "POST" {
		r = e.do("POST", "/oai", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, args)
	} else {
		r = e.get("/oai?" + args)
	}
	if r.code != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/xml") {
		e.t.Fatalf("%s /oai?%s: %d %s %s", method, args, r.code, r.header.Get("Content-Type"), r.body)
	}
	schema.check(e.t, method+" "+args, r.body)
	var d oaiDoc
	if err := xml.Unmarshal([]byte(r.body), &d); err != nil {
		e.t.Fatalf("%s: %v\n%s", args, err, r.body)
	}
	return d, r.body
}

// TestOAIVerbs runs every verb, and every error condition of OAI-PMH
// section 3.6, by GET and by POST, each response valid against the
// schema.
func TestOAIVerbs(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{})
		schema := newOAISchema(t)
		tok := e.token("nbn", "isbn")

		// An empty repository has no sets (section 3.6, noSetHierarchy)
		// and no record.
		for _, m := range []string{"GET", "POST"} {
			if d, _ := e.oai(schema, m, "verb=ListSets"); !slices.Equal(d.codes(), []string{"noSetHierarchy"}) {
				t.Errorf("%s ListSets of an empty repository: %v", m, d.codes())
			}
			if d, _ := e.oai(schema, m, "verb=ListRecords&metadataPrefix=oai_dc"); !slices.Equal(d.codes(), []string{"noRecordsMatch"}) {
				t.Errorf("%s ListRecords of an empty repository: %v", m, d.codes())
			}
		}

		e.mustPut(tok, "urn:nbn:no-1", Record{URLs: []string{"https://nb.example/1", "https://mirror.example/1"}, Metadata: []byte(`{"title":"Bok & <ting>\u0001"}`)})
		e.mustPut(tok, "urn:nbn:no-2", Record{URLs: []string{"https://nb.example/2"}})
		e.mustPut(tok, "urn:isbn:978-3-16-148410-0", Record{URLs: []string{"https://books.example/b"}})
		if r := e.do("DELETE", "/admin/records/urn:nbn:no-2", map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/json"},
			`{"reason":"withdrawn"}`); r.code != 204 {
			t.Fatalf("DELETE: %d %s", r.code, r.body)
		}
		ids, _ := e.oai(schema, "GET", "verb=ListIdentifiers&metadataPrefix=oai_dc")

		for _, m := range []string{"GET", "POST"} {
			d, _ := e.oai(schema, m, "verb=Identify")
			if d.Identify == nil || d.Identify.DeletedRecord != "persistent" || d.Identify.Granularity != "YYYY-MM-DDThh:mm:ssZ" ||
				d.Identify.BaseURL != e.url+"/oai" || d.Request.URL != e.url+"/oai" {
				t.Errorf("%s Identify: %+v request %q", m, d.Identify, d.Request.URL)
			}
			d, _ = e.oai(schema, m, "verb=ListMetadataFormats")
			if !slices.Equal(d.Formats, []string{"oai_dc"}) {
				t.Errorf("%s ListMetadataFormats: %v %v", m, d.Formats, d.codes())
			}
			d, _ = e.oai(schema, m, "verb=ListMetadataFormats&identifier=urn:nbn:no-1")
			if !slices.Equal(d.Formats, []string{"oai_dc"}) {
				t.Errorf("%s ListMetadataFormats of an item: %v %v", m, d.Formats, d.codes())
			}
			d, _ = e.oai(schema, m, "verb=ListSets")
			if !slices.Equal(d.Sets, []string{"isbn", "nbn"}) {
				t.Errorf("%s ListSets: %v %v", m, d.Sets, d.codes())
			}
			// Any lexically equivalent form of the URN finds the record.
			d, _ = e.oai(schema, m, "verb=GetRecord&metadataPrefix=oai_dc&identifier=URN:NBN:no-1")
			if d.Record == nil || d.Record.Header.Identifier != "urn:nbn:no-1" || d.Record.DC == nil ||
				!slices.Equal(d.Record.DC.Titles, []string{"Bok & <ting>\uFFFD"}) ||
				!slices.Equal(d.Record.DC.Identifiers, []string{"urn:nbn:no-1", "https://nb.example/1", "https://mirror.example/1"}) ||
				!slices.Equal(d.Record.Header.Sets, []string{"nbn"}) || len(d.Record.DC.Dates) != 1 {
				t.Errorf("%s GetRecord: %+v %v", m, d.Record, d.codes())
			}
			// A deactivated record is a deleted one: its header only.
			d, _ = e.oai(schema, m, "verb=GetRecord&metadataPrefix=oai_dc&identifier=urn:nbn:no-2")
			if d.Record == nil || d.Record.Header.Status != "deleted" || d.Record.DC != nil {
				t.Errorf("%s GetRecord of a deactivated record: %+v %v", m, d.Record, d.codes())
			}
			d, _ = e.oai(schema, m, "verb=ListRecords&metadataPrefix=oai_dc&set=nbn")
			if h := d.heads(); len(h) != 2 || h[0].Identifier != "urn:nbn:no-1" || h[1].Status != "deleted" || d.token() != "" {
				t.Errorf("%s ListRecords set=nbn: %+v %v", m, h, d.codes())
			}
			// The request element echoes the arguments.
			if len(d.Request.Attrs) != 3 {
				t.Errorf("%s request attributes %v", m, d.Request.Attrs)
			}
		}
		if len(ids.heads()) != 3 {
			t.Errorf("ListIdentifiers: %+v", ids.heads())
		}

		day := time.Now().UTC().Format(time.DateOnly)
		tomorrow := time.Now().UTC().AddDate(0, 0, 2).Format(time.DateOnly)
		// A server of the same store with pages of one record.
		srv1, err := New(Config{Store: e.store, OAI: OAIConfig{PageSize: 1}})
		if err != nil {
			t.Fatal(err)
		}
		hs1 := httptest.NewServer(srv1)
		t.Cleanup(hs1.Close)
		e1 := &testEnv{t: t, store: e.store, srv: srv1, http: hs1, url: hs1.URL}
		listTok := func(verb string) string {
			d, _ := e1.oai(schema, "GET", "verb="+verb+"&metadataPrefix=oai_dc")
			if d.token() == "" {
				t.Fatalf("%s of 3 records with pages of 1: no token", verb)
			}
			return d.token()
		}
		recTok, idsTok := listTok("ListRecords"), listTok("ListIdentifiers")
		for _, c := range []struct{ args, want string }{
			{"", "badVerb"},
			{"verb=", "badVerb"},
			{"verb=ListThings", "badVerb"},
			{"verb=Identify&verb=Identify", "badVerb"},
			{"verb=Identify&set=nbn", "badArgument"},
			{"verb=ListRecords", "badArgument"},
			{"verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=oai_dc", "badArgument"},
			{"verb=ListRecords&metadataPrefix=oai_dc&from=yesterday", "badArgument"},
			{"verb=ListRecords&metadataPrefix=oai_dc&from=2026-01-02T00:00:00.5Z", "badArgument"},
			{"verb=ListRecords&metadataPrefix=oai_dc&from=" + day + "&until=" + day + "T23:59:59Z", "badArgument"},
			{"verb=ListRecords&metadataPrefix=oai_dc&from=" + tomorrow + "&until=" + day, "badArgument"},
			{"verb=ListRecords&metadataPrefix=oai_dc&set=not%20a%20set", "badArgument"},
			{"verb=ListRecords&metadataPrefix=oai_dc&resumptionToken=" + recTok, "badArgument"},
			{"verb=ListRecords&metadataPrefix=oai_dc%", "badArgument"},
			{"verb=GetRecord&identifier=urn:nbn:no-1", "badArgument"},
			{"verb=ListRecords&metadataPrefix=marc21", "cannotDisseminateFormat"},
			{"verb=ListIdentifiers&metadataPrefix=marc21", "cannotDisseminateFormat"},
			{"verb=GetRecord&identifier=urn:nbn:no-1&metadataPrefix=marc21", "cannotDisseminateFormat"},
			{"verb=GetRecord&identifier=urn:nbn:no-404&metadataPrefix=oai_dc", "idDoesNotExist"},
			{"verb=GetRecord&identifier=oai:example.org:1&metadataPrefix=oai_dc", "idDoesNotExist"},
			{"verb=ListMetadataFormats&identifier=urn:nbn:no-404", "idDoesNotExist"},
			{"verb=ListMetadataFormats&identifier=urn:nbn:no-2", "noMetadataFormats"},
			{"verb=ListRecords&metadataPrefix=oai_dc&set=uuid", "noRecordsMatch"},
			{"verb=ListRecords&metadataPrefix=oai_dc&set=nbn:aba001", "noRecordsMatch"},
			{"verb=ListRecords&metadataPrefix=oai_dc&from=" + tomorrow, "noRecordsMatch"},
			{"verb=ListIdentifiers&metadataPrefix=oai_dc&until=2001-01-01", "noRecordsMatch"},
			{"verb=ListRecords&resumptionToken=xyz", "badResumptionToken"},
			{"verb=ListRecords&resumptionToken=", "badResumptionToken"},
			{"verb=ListRecords&resumptionToken=" + idsTok, "badResumptionToken"},
			{"verb=ListIdentifiers&resumptionToken=" + recTok, "badResumptionToken"},
			{"verb=ListRecords&resumptionToken=" + recTok + "x", "badResumptionToken"},
			{"verb=ListSets&resumptionToken=" + recTok, "badResumptionToken"},
		} {
			for _, m := range []string{"GET", "POST"} {
				d, _ := e.oai(schema, m, c.args)
				if !slices.Contains(d.codes(), c.want) {
					t.Errorf("%s %q: errors %v, want %s", m, c.args, d.codes(), c.want)
				}
				// Section 3.2: no attributes in the request element after
				// badVerb or badArgument.
				if (c.want == "badVerb" || c.want == "badArgument") && len(d.Request.Attrs) != 0 {
					t.Errorf("%s %q: request attributes %v", m, c.args, d.Request.Attrs)
				}
			}
		}
		// A token resumes; the same token twice gives the same page.
		d1, _ := e1.oai(schema, "GET", "verb=ListRecords&resumptionToken="+url.QueryEscape(recTok))
		d2, _ := e1.oai(schema, "POST", "verb=ListRecords&resumptionToken="+url.QueryEscape(recTok))
		if len(d1.heads()) != 1 || !reflect.DeepEqual(d1.heads()[0], d2.heads()[0]) || d1.Token.Cursor != "1" {
			t.Errorf("resumed: %+v / %+v", d1.heads(), d2.heads())
		}

		// Not the protocol's methods or body types.
		if r := e.do("PUT", "/oai", nil, ""); r.code != 405 || r.header.Get("Allow") != "GET, HEAD, POST" {
			t.Errorf("PUT /oai: %d %v", r.code, r.header)
		}
		if r := e.do("POST", "/oai", map[string]string{"Content-Type": "application/json"}, `{"verb":"Identify"}`); r.code != 415 {
			t.Errorf("POST /oai JSON: %d", r.code)
		}
		if r := e.do("POST", "/oai?verb=Identify", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "verb=Identify"); !strings.Contains(r.body, `code="badArgument"`) {
			t.Errorf("POST with arguments in the URL too: %s", r.body)
		}
	})
}

// oaiHarvest pages through a list with its tokens, calling between(i)
// before the request of page i+1 (i from 1), and returns the headers and
// the first response's responseDate.
func (e *testEnv) oaiHarvest(schema *oaiSchema, args string, between func(page int)) ([]oaiHead, string) {
	e.t.Helper()
	verb, _, _ := strings.Cut(strings.TrimPrefix(args, "verb="), "&")
	d, _ := e.oai(schema, "GET", args)
	if slices.Equal(d.codes(), []string{"noRecordsMatch"}) {
		return nil, d.ResponseDate
	}
	if d.Errors != nil {
		e.t.Fatalf("%s: %v", args, d.codes())
	}
	heads, date := d.heads(), d.ResponseDate
	for page := 1; d.token() != ""; page++ {
		if between != nil {
			between(page)
		}
		d, _ = e.oai(schema, "GET", "verb="+verb+"&resumptionToken="+url.QueryEscape(d.token()))
		if d.Errors != nil {
			e.t.Fatalf("page %d: %v", page+1, d.codes())
		}
		if d.ResponseDate != date {
			// Every page has the list's horizon as its date.
			e.t.Errorf("page %d: responseDate %s, the first page's %s", page+1, d.ResponseDate, date)
		}
		heads = append(heads, d.heads()...)
	}
	return heads, date
}

// TestOAIHarvestDuringWrites pages through the repository while records
// are changed, deactivated and created between the pages: a complete
// harvest (no from) sends every record that existed throughout exactly
// once, and no record twice; a harvest from a date sends every record
// unchanged since exactly once; and the incremental harvest from the
// first one's responseDate sends every record changed during it, in
// its last state.
func TestOAIHarvestDuringWrites(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{OAI: OAIConfig{PageSize: 7}})
		tok := e.token("nbn")
		const n = 120
		urn := func(i int) string { return fmt.Sprintf("urn:nbn:no-%04d", i) }
		var body strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&body, `{"urn":%q,"urls":["https://nb.example/%d"]}`+"\n", urn(i), i)
		}
		if r := e.do("POST", "/admin/import", map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/jsonl"}, body.String()); r.code != 200 {
			t.Fatalf("import: %d %s", r.code, r.body)
		}
		for _, mode := range []string{"complete", "from"} {
			t.Run(mode, func(t *testing.T) {
				args := "verb=ListIdentifiers&metadataPrefix=oai_dc"
				if mode == "from" {
					args += "&from=2000-01-01T00:00:00Z"
				}
				// The records every write touches, ahead of the cursor and
				// behind it: changed, deactivated, created.
				touched := map[string]bool{}
				created := 0
				between := func(page int) {
					// Page p holds records 7(p-1) to 7p-1 of the first ones:
					// one in the page after next, one in the last page.
					if i := (page+1)*7 + 3; i < n {
						e.mustPut(tok, urn(i), Record{URLs: []string{fmt.Sprintf("https://changed.example/%d", page)}})
						touched[urn(i)] = true
					}
					behind := urn((page-1)*7 + 1)
					e.mustPut(tok, behind, Record{URLs: []string{fmt.Sprintf("https://changed.example/b%d", page)}})
					touched[behind] = true
					if i := (page + 2) * 7; page%3 == 0 && i < n {
						gone := urn(i)
						if r := e.do("DELETE", "/admin/records/"+gone, map[string]string{"Authorization": "Bearer " + tok}, ""); r.code != 204 && r.code != 409 {
							t.Fatalf("DELETE %s: %d %s", gone, r.code, r.body)
						}
						touched[gone] = true
					}
					if page%4 == 0 {
						c := fmt.Sprintf("urn:nbn:no-%s-%d", mode, page)
						e.mustPut(tok, c, Record{URLs: []string{"https://new.example/"}})
						touched[c] = true
						created++
					}
				}
				before := e.count()
				heads, date := e.oaiHarvest(nil, args, between)
				seen := map[string]int{}
				for _, h := range heads {
					seen[h.Identifier]++
				}
				for id, k := range seen {
					if k > 1 {
						t.Errorf("%s sent %d times", id, k)
					}
				}
				for i := 0; i < n; i++ {
					if seen[urn(i)] == 0 && (mode == "complete" || !touched[urn(i)]) {
						t.Errorf("%s never sent", urn(i))
					}
				}
				if mode == "complete" && len(heads) < before {
					t.Errorf("%d records sent, %d existed throughout", len(heads), before)
				}
				// The next incremental harvest brings every change.
				next, _ := e.oaiHarvest(nil, "verb=ListIdentifiers&metadataPrefix=oai_dc&from="+date, nil)
				last := map[string]oaiHead{}
				for _, h := range next {
					last[h.Identifier] = h
				}
				for id := range touched {
					h, ok := last[id]
					if !ok {
						t.Errorf("%s, changed during the harvest, is not in the next one from %s", id, date)
						continue
					}
					d, _ := e.oai(nil, "GET", "verb=GetRecord&metadataPrefix=oai_dc&identifier="+id)
					if !reflect.DeepEqual(d.Record.Header, h) {
						t.Errorf("%s: next harvest sends %+v, the record is %+v", id, h, d.Record.Header)
					}
				}
				t.Logf("%s: %d pages, %d records sent (%d before, %d after), %d touched, next harvest %d", mode,
					(len(heads)+6)/7, len(heads), before, e.count(), len(touched), len(next))
			})
		}
	})
}

// TestChangeTimesOrdered: change times follow the order of commits,
// and a horizon falls between the writes before it and those after.
func TestChangeTimesOrdered(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{})
		tok := e.token("nbn")
		ctx := context.Background()
		var last time.Time
		for i := 0; i < 20; i++ {
			e.mustPut(tok, "urn:nbn:no-1", Record{URLs: []string{fmt.Sprintf("https://nb.example/%d", i)}})
			h, err := e.store.db.HarvestOne(ctx, "urn:nbn:no-1")
			if err != nil {
				t.Fatal(err)
			}
			hz, err := e.store.db.Horizon(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !h.Changed.After(last) || hz.Before(h.Changed) {
				t.Fatalf("write %d: changed %v after the horizon %v before it, horizon %v", i, h.Changed, last, hz)
			}
			last = hz
		}
	})
}

// TestOAIRegistrarSets: every registrar is a set within its namespace's
// ("nbn:aba001"), holding the records under its prefix, paged like any
// list; each record's header names both sets; a registrar without
// records, an unknown one, or one under another namespace match none.
func TestOAIRegistrarSets(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		e := newEnv(t, dsn, Config{OAI: OAIConfig{PageSize: 2}})
		schema := newOAISchema(t)
		a := AuditEntry{At: time.Now().UTC(), Actor: "test", Client: "local"}
		for _, r := range [][2]string{{"aba001", "nbn:cz:aba001-"}, {"gbv089", "nbn:de:gbv:089-"}} {
			if _, err := e.store.AddRegistrar(ctx, r[0], r[1], []string{"registrar"}, a); err != nil {
				t.Fatal(err)
			}
		}
		csv := "urn,url\nurn:nbn:cz:aba001-000001,https://k.example/1\nurn:nbn:cz:aba001-000002,https://k.example/2\n" +
			"URN:NBN:CZ:ABA001-000003,https://k.example/3\nurn:nbn:cz:xyz001-000001,https://x.example/1\nurn:nbn:no-1,https://nb.example/1\n"
		if res, err := Import(ctx, e.store, strings.NewReader(csv), FormatCSV, ImportOptions{Audit: a}); err != nil || len(res.Refused) != 0 {
			t.Fatalf("import: %v %+v", err, res)
		}
		d, _ := e.oai(schema, "GET", "verb=ListSets")
		if got := strings.Join(d.Sets, " "); got != "nbn nbn:aba001 nbn:gbv089" {
			t.Errorf("ListSets: %s", got)
		}
		for _, spec := range []string{"nbn:aba001", "NBN:ABA001"} {
			var ids []string
			args := "verb=ListIdentifiers&metadataPrefix=oai_dc&set=" + spec
			for pages := 0; ; pages++ {
				if pages > 3 {
					t.Fatal("more pages than records")
				}
				d, _ := e.oai(schema, "GET", args)
				if len(d.Errors) != 0 {
					t.Fatalf("%s: %v", args, d.codes())
				}
				for _, h := range d.Headers {
					ids = append(ids, h.Identifier)
					if strings.Join(h.Sets, " ") != "nbn nbn:aba001" {
						t.Errorf("%s: sets %v", h.Identifier, h.Sets)
					}
				}
				if d.token() == "" {
					break
				}
				args = "verb=ListIdentifiers&resumptionToken=" + url.QueryEscape(d.token())
			}
			if got := strings.Join(ids, " "); got != "urn:nbn:cz:aba001-000001 urn:nbn:cz:aba001-000002 urn:nbn:CZ:ABA001-000003" {
				t.Errorf("set %s: %s", spec, got)
			}
		}
		d, _ = e.oai(schema, "GET", "verb=GetRecord&metadataPrefix=oai_dc&identifier=urn:nbn:no-1")
		if d.Record == nil || strings.Join(d.Record.Header.Sets, " ") != "nbn" {
			t.Errorf("GetRecord of a URN of no registrar: %+v", d.Record)
		}
		for _, spec := range []string{"nbn:gbv089", "nbn:nope", "isbn:aba001", "nbn:aba001:x"} {
			d, _ := e.oai(schema, "GET", "verb=ListRecords&metadataPrefix=oai_dc&set="+spec)
			if strings.Join(d.codes(), " ") != "noRecordsMatch" {
				t.Errorf("set %s: %v", spec, d.codes())
			}
		}
	})
}
