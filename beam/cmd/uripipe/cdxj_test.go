package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urikit/urikit/beam/uribeam"
	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/surt"
)

// TestCDXJAgreesWithCDXJIndexer: over cdxj-indexer's test WARCs, the
// shards of uripipe cdxj, concatenated in the order of their names, are
// the lines of cdxj-indexer's tests (expected.txt), sorted byte-wise;
// with --post-append (the default) and without.
func TestCDXJAgreesWithCDXJIndexer(t *testing.T) {
	want := map[bool][]string{}
	files := map[bool]map[string]bool{true: {}, false: {}}
	post := false
	for _, l := range testshared.Lines(t, "conformance", "cdxj-indexer", "expected.txt") {
		if f, ok := strings.CutPrefix(l, "## "); ok {
			fields := strings.Fields(f)
			post = len(fields) == 3
			files[post][fields[1]] = true
			continue
		}
		if !strings.HasPrefix(l, "#") {
			want[post] = append(want[post], l)
		}
	}
	dir := t.TempDir()
	for _, post := range []bool{true, false} {
		in := filepath.Join(dir, "in"+strconv.FormatBool(post))
		os.MkdirAll(in, 0o755)
		for f := range files[post] {
			b, err := os.ReadFile(testshared.Path(t, "conformance", "cdxj-indexer", f))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(in, f), b, 0o644)
		}
		out := filepath.Join(dir, "out", strconv.FormatBool(post))
		job(t, "cdxj", "--input", filepath.Join(in, "*"), "--output", out, "--shards", "3", "--post-append="+strconv.FormatBool(post))
		got := shardLines(t, out, 3)
		w := slices.Sorted(slices.Values(want[post]))
		if !slices.Equal(got, w) {
			t.Errorf("--post-append=%v: the shards hold\n%s\nwant\n%s", post, strings.Join(got, "\n"), strings.Join(w, "\n"))
		}
		c := checkCounts(t, "cdxj", out, 3, -1)
		if c.Dead != 0 || c.Out != int64(len(w)) || c.Skipped["request"] == 0 {
			t.Errorf("--post-append=%v: counts %v", post, c)
		}
	}
}

// A cdxjCase is a record of the damaged crawl of TestCDXJConservation:
// its bytes, and what uripipe cdxj must make of it: "out", "dead" (with
// a part of the reason) or the kind it is skipped as.
type cdxjCase struct {
	rec  []byte
	what string
	why  string
}

// withField adds a field to the header of a record.
func withField(rec []byte, f string) []byte {
	return bytes.Replace(rec, []byte("\r\nContent-Type: "), []byte("\r\n"+f+"\r\nContent-Type: "), 1)
}

// TestCDXJConservation runs cdxj over a crawl as crawlers and disks
// damage it, a .warc.gz (a record a gzip member, but for two records
// sharing one) and a .warc, and checks that every record is accounted
// for, by kind, in the counts and the shards: indexed, a dead letter
// at its file and offset with the reason, or skipped by type; that the
// records after each damaged one are indexed; and that the offset and
// length of every line address exactly its record in the file.
func TestCDXJConservation(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.MkdirAll(in, 0o755)
	html := func(i, lie int) []byte {
		return warcRecord(i, "response", "http://example.com/"+strconv.Itoa(i), msgResponse, httpResponse("text/html; charset=utf-8", "<p>page "+strconv.Itoa(i)), lie)
	}
	big := strings.Repeat("<p>big</p>", (64<<10+1000)/10)
	post := warcRecord(30, "request", "http://example.com/form", "application/http;msgtype=request",
		"POST /form HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 9\r\n\r\nb=2&a=%31", 0)
	postResp := withField(warcRecord(31, "response", "http://example.com/form", msgResponse, httpResponse("text/html", "thanks"), 0),
		"WARC-Concurrent-To: <urn:uuid:00000000-0000-4000-8000-000000000030>")
	gzCases := []cdxjCase{
		{rec: warcRecord(1, "warcinfo", "", "application/warc-fields", "software: urikit\r\n", 0), what: "warcinfo"},
		{rec: html(2, 0), what: "out"},
		{rec: warcRecord(3, "request", "http://example.com/2", "application/http;msgtype=request", "GET /2 HTTP/1.1\r\nHost: example.com\r\n\r\n", 0), what: "request"},
		{rec: html(4, 10), what: "dead", why: "but the gzip member ends"},
		{rec: html(5, 0), what: "out"},
		{rec: html(6, 0), what: "dead", why: "gzip member: "}, // cut short below
		{rec: html(7, 0), what: "out"},
		{rec: bytes.Replace(html(8, 0), []byte("2026-11-25T12:00:00Z"), []byte("2026-02-30T12:00:00Z"), 1), what: "dead", why: `WARC-Date "2026-02-30T12:00:00Z" is not a date`},
		{rec: append(html(9, 0), html(10, 0)...), what: "dead", why: "shares its gzip member"}, // and so does 10
		{rec: withField(warcRecord(11, "response", "http://example.com/big", msgResponse, httpResponse("text/html", big), 0), "WARC-Payload-Digest: sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), what: "out"},
		{rec: warcRecord(12, "response", "http://example.com/big2", msgResponse, httpResponse("text/html", big), 0), what: "dead", why: "without a WARC-Payload-Digest"},
		{rec: warcRecord(13, "revisit", "http://example.com/2", msgResponse, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n", 0), what: "out"},
		{rec: warcRecord(14, "metadata", "http://example.com/2", "application/warc-fields", "outlink: http://example.com/x\r\n", 0), what: "metadata application/warc-fields"},
		{rec: warcRecord(15, "metadata", "http://example.com/2", "application/json", `{"a": 1}`, 0), what: "out"},
		{rec: warcRecord(16, "resource", "file:///notes.txt", "text/plain", "notes", 0), what: "out"},
		{rec: warcRecord(17, "response", "dns:example.com", "text/dns", "20261125120000\nexample.com. 60 IN A 192.0.2.1\n", 0), what: "out"},
		{rec: warcRecord(18, "continuation", "http://example.com/big", "application/http", "rest", 0), what: "continuation"},
		{rec: warcRecord(19, "Response", "http://example.com/19", msgResponse, httpResponse("text/html", "x"), 0), what: "unknown type"},
		{rec: post, what: "request"},
		{rec: postResp, what: "out"},
	}
	plainCases := []cdxjCase{
		{rec: html(20, 0), what: "out"},
		{rec: html(21, -5), what: "dead", why: "does not end the record"},
		{rec: html(22, 0), what: "out"},
	}
	var gzFile []byte
	var gzAt []int64
	for i, c := range gzCases {
		gzAt = append(gzAt, int64(len(gzFile)))
		m := gzipMembers(c.rec, 1)
		if c.why == "gzip member: " {
			m = m[:len(m)/2]
		}
		gzFile = append(gzFile, m...)
		if c.why == "shares its gzip member" {
			gzCases = slices.Insert(gzCases, i+1, cdxjCase{what: "dead", why: c.why})
			gzAt = append(gzAt, gzAt[i])
		}
	}
	var plain []byte
	var plainAt []int64
	for _, c := range plainCases {
		plainAt = append(plainAt, int64(len(plain)))
		plain = append(plain, c.rec...)
	}
	gzPath, plainPath := filepath.Join(in, "c.warc.gz"), filepath.Join(in, "p.warc")
	os.WriteFile(gzPath, gzFile, 0o644)
	os.WriteFile(plainPath, plain, 0o644)

	out := filepath.Join(dir, "out", "c")
	job(t, "cdxj", "--input", filepath.Join(in, "*"), "--output", out, "--shards", "2", "--max-record-size", "64K")
	want := uribeam.Counts{Job: "cdxj", Files: 2, Skipped: map[string]int64{}}
	var wantDead, wantOut []string
	for file, cases := range map[string][]cdxjCase{gzPath: gzCases, plainPath: plainCases} {
		at := gzAt
		if file == plainPath {
			at = plainAt
		}
		for i, c := range cases {
			want.In++
			where := file + "@" + strconv.FormatInt(at[i], 10)
			switch c.what {
			case "out":
				want.Out++
				wantOut = append(wantOut, filepath.Base(file)+"@"+strconv.FormatInt(at[i], 10))
			case "dead":
				want.Dead++
				wantDead = append(wantDead, where+" "+c.why)
			default:
				want.Skipped[c.what]++
			}
		}
	}
	c := checkCounts(t, "cdxj", out, 2, int(want.In))
	c.OutputLines, c.DeadLetters, c.Input = 0, 0, ""
	if fmt.Sprint(c) != fmt.Sprint(want) {
		t.Errorf("counts\n%v\nwant\n%v", c, want)
	}
	var dead []string
	for _, l := range shardLines(t, out+"-errors", 2) {
		var d struct {
			File   string
			Offset int64
			Error  string
		}
		json.Unmarshal([]byte(l), &d)
		where := d.File + "@" + strconv.FormatInt(d.Offset, 10)
		for _, w := range wantDead {
			if wat, why, _ := strings.Cut(w, " "); wat == where && strings.Contains(d.Error, why) {
				d.Error = why
			}
		}
		dead = append(dead, where+" "+d.Error)
	}
	sameMultiset(t, "cdxj dead letters", dead, wantDead)

	// Every line: sorted; its offset and length cut exactly its record
	// out of the file; its key is the SURT of its url.
	lines := shardLines(t, out, 2)
	if !slices.IsSorted(lines) {
		t.Errorf("the shards concatenated are not sorted:\n%s", strings.Join(lines, "\n"))
	}
	files := map[string][]byte{"c.warc.gz": gzFile, "p.warc": plain}
	var got []string
	var folded bool
	for _, l := range lines {
		key, rest, _ := strings.Cut(l, " ")
		_, js, _ := strings.Cut(rest, " ")
		var f map[string]string
		if err := json.Unmarshal([]byte(strings.Replace(js, `"requestBody": null`, `"requestBody": ""`, 1)), &f); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		got = append(got, f["filename"]+"@"+f["offset"])
		off, _ := strconv.Atoi(f["offset"])
		n, _ := strconv.Atoi(f["length"])
		b := files[f["filename"]]
		if off+n > len(b) {
			t.Errorf("%q: past the end of the file", l)
			continue
		}
		rec := b[off : off+n]
		if f["filename"] == "c.warc.gz" {
			z, err := gzip.NewReader(bytes.NewReader(rec))
			if err != nil {
				t.Errorf("%q: %v", l, err)
				continue
			}
			z.Multistream(false)
			if rec, err = io.ReadAll(z); err != nil {
				t.Errorf("%q: the member at offset, length %d: %v", l, n, err)
			}
			rec = bytes.TrimSuffix(rec, []byte("\r\n\r\n"))
		}
		if url, ok := f["url"]; ok && !bytes.Contains(rec, []byte("WARC-Target-URI: "+url+"\r\n")) ||
			!bytes.HasPrefix(rec, []byte("WARC/1.1\r\n")) || bytes.Count(rec, []byte("WARC/1.1\r\n")) != 1 {
			t.Errorf("%q: offset and length address %q", l, rec[:min(len(rec), 200)])
		}
		if k, err := surt.Key(f["url"]); err == nil && k != key && f["method"] == "" {
			t.Errorf("%q: key %q, want %q", l, key, k)
		}
		if f["method"] == "POST" {
			folded = key == "com,example)/form?__wb_method=post&a=1&b=2" && f["requestBody"] == "b=2&a=1"
		}
	}
	sameMultiset(t, "cdxj records indexed", got, wantOut)
	if !folded {
		t.Errorf("the POST body was not folded into its response's key:\n%s", strings.Join(lines, "\n"))
	}
}

// TestHostsBySite: hosts --by site and --by site:icann count the
// registrable domains of the hosts that hosts counts, under the whole
// Public Suffix List and its ICANN section; a host without one is its
// own site. Every line is counted once, as by hosts.
func TestHostsBySite(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	os.WriteFile(in, []byte(strings.Join([]string{
		"http://www.example.co.uk/a", "https://shop.example.co.uk/", "http://EXAMPLE.CO.UK",
		"https://a.b.github.io/x", "https://c.github.io/", "https://github.io/",
		"http://192.0.2.1/", "http://[2001:db8::1]/", "http://localhost:8080/", "http://co.uk/",
		"http://www.%E2%98%83.example.com/", "http://xn--bcher-kva.example.com/",
		"mailto:joe@example.org", "not a uri", "",
	}, "\n")+"\n"), 0o644)
	for _, by := range []string{"site", "site:icann"} {
		want := map[string]int{
			"site": 0, "example.co.uk": 3, "192.0.2.1": 1, "[2001:db8::1]": 1, "localhost": 1, "co.uk": 1,
			"example.com": 2,
		}
		if by == "site" {
			want["b.github.io"], want["c.github.io"], want["github.io"] = 1, 1, 1
		} else {
			want["github.io"] = 3
		}
		delete(want, "site")
		out := filepath.Join(dir, "out", by)
		job(t, "hosts", "--by", by, "--input", in, "--output", out)
		got := map[string]int{}
		for _, l := range shardLines(t, out, 1) {
			h, n, _ := strings.Cut(l, "\t")
			got[h], _ = strconv.Atoi(n)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("--by %s: %v\nwant %v", by, got, want)
		}
		c := checkCounts(t, "hosts", out, 1, 15)
		if c.Dead != 3 {
			t.Errorf("--by %s: %d dead letters, want 3 (no host, not a URI, the empty reference)", by, c.Dead)
		}
	}
	for _, args := range [][]string{
		{"hosts", "--by", "domain"},
		{"normalize", "--by", "site"},
		{"links", "--post-append=false"},
	} {
		code, stderr := runCommand(append(args, "--input", in, "--output", filepath.Join(dir, "x"))...)
		if code != 2 || !strings.Contains(stderr, "flag --") {
			t.Errorf("uripipe %q: exit %d, want 2\n%s", args, code, stderr)
		}
	}
}
