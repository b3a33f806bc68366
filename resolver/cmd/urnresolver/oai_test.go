package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// harvestPL harvests a repository with HTTP::OAI (Debian's
// libhttp-oai-perl), the Perl harvester libraries use: ListIdentifiers
// in pages, following the resumption tokens, from a date when given. It
// prints the first response's responseDate, then one line per header:
// identifier, datestamp, and "deleted" or "active".
const harvestPL = `use strict; use warnings;
use HTTP::OAI;
my ($base, $from) = @ARGV;
my $h = HTTP::OAI::Harvester->new(baseURL => $base);
my %args = (metadataPrefix => 'oai_dc');
$args{from} = $from if defined $from;
my @out;
my $r = $h->ListIdentifiers(%args, onRecord => sub {
	my $hd = shift;
	push @out, join("\t", $hd->identifier, $hd->datestamp, ($hd->is_deleted ? "deleted" : "active"));
});
die "error: " . $r->message . "\n" if $r->is_error;
print "responseDate\t", $r->responseDate, "\n";
print "$_\n" for @out;
`

// harvestHTTPOAI runs harvestPL against base and returns the first
// responseDate and the headers, by identifier, failing on a repeat.
func harvestHTTPOAI(t *testing.T, dir, base, from string) (string, map[string][2]string, int) {
	t.Helper()
	script := filepath.Join(dir, "harvest.pl")
	if err := os.WriteFile(script, []byte(harvestPL), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{script, base}
	if from != "" {
		args = append(args, from)
	}
	cmd := exec.Command("perl", args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("HTTP::OAI harvest of %s: %v\n%s", base, err, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	date, ok := strings.CutPrefix(lines[0], "responseDate\t")
	if !ok {
		t.Fatalf("harvest output starts %q", lines[0])
	}
	got := map[string][2]string{}
	n := 0
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) != 3 {
			t.Fatalf("harvest line %q", l)
		}
		if _, dup := got[f[0]]; dup {
			t.Errorf("%s harvested twice", f[0])
		}
		got[f[0]] = [2]string{f[1], f[2]}
		n++
	}
	return date, got, n
}

// TestOAIHarvestHTTPOAI harvests 10,000 records with HTTP::OAI in pages
// of 200 while 100 writes change, deactivate and reactivate records
// between the pages (a proxy in front of the server makes them before
// it passes on a resumption): the harvest holds each record once, as
// many as the database; the next incremental harvest, from the first
// response's responseDate, holds every record written, in its state in
// the database.
func TestOAIHarvestHTTPOAI(t *testing.T) {
	if err := exec.Command("perl", "-MHTTP::OAI", "-e", "1").Run(); err != nil {
		t.Skip("no HTTP::OAI (apt-get install libhttp-oai-perl; scripts/resolver-testenv.sh installs it): the harvest by a real harvester is not run")
	}
	forEachDB(t, func(t *testing.T, dir, dsn string) {
		env := cleanEnv()
		const n, writes = 10000, 100
		urn := func(i int) string { return fmt.Sprintf("urn:nbn:no-harvest-%05d", i) }
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, `{"urn":%q,"urls":["https://example.org/%d"],"metadata":{"title":"Record %d"}}`+"\n", urn(i), i, i)
		}
		file := filepath.Join(dir, "records.jsonl")
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, errOut := runCmd(t, dir, env, "", "import", "--db", dsn, file); code != 0 {
			t.Fatalf("import: %d %s", code, errOut)
		}
		code, tok, errOut := runCmd(t, dir, env, "", "token", "create", "--db", dsn, "--namespace", "nbn")
		if code != 0 {
			t.Fatalf("token: %s", errOut)
		}
		tok = strings.TrimSpace(tok)
		s := startServer(t, dir, env, "--db", dsn, "--write-rate", "-1", "--oai-page-size", "200")
		target, _ := url.Parse(s.url)

		// The writes, between pages: a record changed, deactivated or
		// reactivated, picked by a seeded generator.
		rng := rand.New(rand.NewPCG(30, 2))
		gone := map[int]bool{}
		written := map[string]bool{}
		var mu sync.Mutex
		done, pages := 0, 0
		write := func() {
			i := rng.IntN(n)
			var code int
			var body string
			switch {
			case gone[i]:
				code, _, body = request(t, "DELETE", s.url+"/admin/deactivations/"+urn(i), tok, "", "")
				gone[i] = false
			case rng.IntN(3) == 0:
				code, _, body = request(t, "DELETE", s.url+"/admin/records/"+urn(i), tok, "application/json", `{"reason":"harvest test"}`)
				gone[i] = true
			default:
				code, _, body = request(t, "PUT", s.url+"/admin/records/"+urn(i), tok, "application/json",
					fmt.Sprintf(`{"urls":["https://changed.example/%d"],"metadata":{"title":"Changed %d"}}`, done, done))
			}
			if code/100 != 2 {
				t.Errorf("write %d to %s: %d %s", done, urn(i), code, body)
			}
			written[urn(i)] = true
			done++
		}
		proxy := httputil.NewSingleHostReverseProxy(target)
		front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/oai" && r.URL.Query().Has("resumptionToken") {
				mu.Lock()
				pages++
				for k := 0; k < 3 && done < writes; k++ {
					write()
				}
				mu.Unlock()
			}
			proxy.ServeHTTP(w, r)
		}))
		defer front.Close()

		start := time.Now()
		date, got, sent := harvestHTTPOAI(t, dir, front.URL+"/oai", "")
		took := time.Since(start)
		if done != writes {
			t.Fatalf("%d writes during the harvest, want %d (%d resumptions)", done, writes, pages)
		}
		db := openTestDB(t, dsn)
		count, err := db.Count(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if sent != count || len(got) != count || count != n {
			t.Errorf("harvested %d headers (%d distinct), the database holds %d records, %d imported", sent, len(got), count, n)
		}
		for i := 0; i < n; i++ {
			if _, ok := got[urn(i)]; !ok {
				t.Errorf("%s not harvested", urn(i))
			}
		}

		// The next incremental harvest holds every record written, as
		// it is now.
		_, next, _ := harvestHTTPOAI(t, dir, s.url+"/oai", date)
		deleted := 0
		for id := range written {
			h, ok := next[id]
			if !ok {
				t.Errorf("%s, written during the harvest, is not in the next one from %s", id, date)
				continue
			}
			code, _, _ := request(t, "GET", s.url+"/uri-res/N2L?"+id, "", "", "")
			if want := map[bool]string{true: "deleted", false: "active"}[code == http.StatusGone]; h[1] != want {
				t.Errorf("%s: next harvest says %s, the database %s", id, h[1], want)
			}
			if h[1] == "deleted" {
				deleted++
			}
		}
		t.Logf("HTTP::OAI harvested %d records in %d pages in %v with %d writes between pages (%d records written, %d deactivated at the end); the next harvest from %s holds %d",
			sent, pages+1, took.Round(time.Millisecond), done, len(written), deleted, date, len(next))
	})
}

// TestHarvestCommand: urnresolver harvest's exit statuses: 2 for a
// usage error, 1 with a message when the source cannot be harvested,
// nothing stored.
func TestHarvestCommand(t *testing.T) {
	dir := t.TempDir()
	env := cleanEnv("HOME=" + filepath.Join(dir, "home"))
	db := filepath.Join(dir, "mirror.db")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"harvest", "--db", db}, 2, "want one URL argument"},
		{[]string{"harvest", "--db", db, "--full", "--from", "2026-01-02", "http://127.0.0.1:1/oai"}, 2, "exclude each other"},
		{[]string{"harvest", "--db", db, "http://127.0.0.1:1/oai"}, 1, "the harvest is incomplete: the 0 pages before stay stored"},
		{[]string{"harvest", "--db", db, "--from", "yesterday", "http://127.0.0.1:1/oai"}, 1, "not a UTC datestamp"},
		{[]string{"harvest", "--db", db, "http://127.0.0.1:1/oai?verb=Identify"}, 1, "not an OAI-PMH base URL"},
	} {
		code, _, stderr := runCmd(t, dir, env, "", c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %s\nwant %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}
