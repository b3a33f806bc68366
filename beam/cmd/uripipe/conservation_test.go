package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urikit/urikit/beam/uribeam"
)

// checkCounts checks the counts file of a job against the shards it
// wrote, and returns it. The counts add up (in = out + dead + skipped;
// dead_letters = dead + read_errors + link_errors); output_lines and
// dead_letters are the lines of the output and errors shards; in is the
// number of records the test wrote (-1: not known). For the jobs over
// lines, the shards alone account for every line: the lines they stand
// for (normalize: one a line, dedupe and hosts: the COUNT column) and
// the dead letters add up to the lines read.
func checkCounts(t *testing.T, job, out string, n, in int) uribeam.Counts {
	t.Helper()
	c, err := uribeam.ReadCounts(context.Background(), uribeam.CountsPath(out))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Check(); err != nil {
		t.Errorf("%s: %v", job, err)
	}
	res, dead := shardLines(t, out, n), shardLines(t, out+"-errors", n)
	if c.Job != job || c.OutputLines != int64(len(res)) || c.DeadLetters != int64(len(dead)) {
		t.Errorf("%s: counts %+v, but %d output lines and %d dead letters written", job, c, len(res), len(dead))
	}
	if in >= 0 && c.In != int64(in) {
		t.Errorf("%s: %d records in, want %d", job, c.In, in)
	}
	stand := int64(len(res)) // the lines the output stands for
	switch job {
	case "dedupe", "hosts":
		stand = 0
		for _, l := range res {
			f := strings.Split(l, "\t") // KEY COUNT REPR, HOST COUNT
			k, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatalf("%s: output line %q", job, l)
			}
			stand += k
		}
		fallthrough
	case "normalize":
		if stand != c.Out {
			t.Errorf("%s: the output stands for %d lines, the counts say %d out", job, stand, c.Out)
		}
		if in >= 0 && stand+int64(len(dead))-c.ReadErrors != int64(in) {
			t.Errorf("%s: the shards account for %d lines and %d dead letters, of %d lines", job, stand, len(dead), in)
		}
	}
	return c
}

// warcRecord returns a WARC 1.1 record (section 4) of the type with the
// block, whose Content-Length says len(block)+lie.
func warcRecord(i int, typ, target, ctype, block string, lie int) []byte {
	h := "WARC/1.1\r\nWARC-Type: " + typ + "\r\n" +
		"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-" + fmt.Sprintf("%012d", i) + ">\r\n" +
		"WARC-Date: 2026-11-25T12:00:00Z\r\n"
	if target != "" {
		h += "WARC-Target-URI: " + target + "\r\n"
	}
	if typ == "revisit" {
		// Section 6.7.2: the profile, and the digest of the payload.
		h += "WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest\r\n" +
			"WARC-Payload-Digest: sha1:UZY6ND6CCHXETFVJD2MSS7ZENMWF7KQ2\r\n"
	}
	return []byte(h + "Content-Type: " + ctype + "\r\nContent-Length: " + strconv.Itoa(len(block)+lie) + "\r\n\r\n" + block + "\r\n\r\n")
}

// httpResponse returns an HTTP response as a response record holds it.
func httpResponse(ctype, body string, fields ...string) string {
	h := "HTTP/1.1 200 OK\r\nContent-Type: " + ctype + "\r\n"
	for _, f := range fields {
		h += f + "\r\n"
	}
	return h + "\r\n" + body
}

const msgResponse = "application/http;msgtype=response"

// A crawlRecord is a record of the damaged crawl, and what each job must
// make of it: "out", "dead" or the kind it is skipped as; and for a dead
// record, a part of the reason.
type crawlRecord struct {
	rec            []byte
	links, extract string
	why            string
	target         string
}

// TestConservation runs links and extract over a crawl as crawlers and
// disks damage it (WARC 1.1 sections 4, 5.3, 6; Annex D), with plain and
// gzipped files beside it, and checks that every record is accounted
// for, by kind, in the counts file and in the shards: processed, a dead
// letter at its file and offset with the reason, or skipped by type;
// and that the records after each damaged one are read.
func TestConservation(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.MkdirAll(in, 0o755)
	page := func(i int) string {
		return `<p>page ` + strconv.Itoa(i) + ` <a href="/next/` + strconv.Itoa(i) + `">next</a>`
	}
	html := func(i int, lie int) []byte {
		return warcRecord(i, "response", "http://example.com/"+strconv.Itoa(i), msgResponse, httpResponse("text/html", page(i)), lie)
	}
	const max = 64 << 10
	var bomb bytes.Buffer
	z := gzip.NewWriter(&bomb)
	z.Write(bytes.Repeat([]byte("<p>"), 1<<20/3))
	z.Close()
	big := strings.Repeat("<p>big</p>", (max+1000)/10)
	plainWARC := []crawlRecord{
		{rec: html(1, 0), links: "out", extract: "response html"},
		{rec: html(2, 10), links: "dead", extract: "dead", why: "WARC: Content-Length " + strconv.Itoa(len(httpResponse("text/html", page(2)))+10) + " does not end the record"},
		{rec: html(3, 0), links: "out", extract: "response html"},
		{rec: html(4, -5), links: "dead", extract: "dead", why: "WARC: Content-Length " + strconv.Itoa(len(httpResponse("text/html", page(4)))-5) + " does not end the record"},
		{rec: html(5, 0), links: "out", extract: "response html"},
		{rec: warcRecord(6, "response", "http://example.com/6.txt", msgResponse, httpResponse("text/plain", "see http://six.example/"), 0), links: "response text", extract: "out"},
	}
	gzWARC := []crawlRecord{
		{rec: warcRecord(10, "warcinfo", "", "application/warc-fields", "software: urikit\r\n", 0), links: "warcinfo", extract: "warcinfo"},
		{rec: html(11, 0), links: "out", extract: "response html"},
		{rec: html(12, 0), links: "dead", extract: "dead", why: "gzip member: "}, // its member cut short
		{rec: html(13, 0), links: "out", extract: "response html"},
		{rec: warcRecord(14, "revisit", "http://example.com/11", msgResponse, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n", 0), links: "revisit", extract: "revisit"},
		{rec: warcRecord(15, "request", "http://example.com/11", "application/http;msgtype=request", "GET /11 HTTP/1.1\r\nHost: example.com\r\n\r\n", 0), links: "request", extract: "request"},
		{rec: warcRecord(16, "metadata", "http://example.com/11", "application/warc-fields", "outlink: http://example.com/x\r\n", 0), links: "metadata", extract: "metadata"},
		{rec: warcRecord(17, "response", "http://example.com/i.png", msgResponse, httpResponse("image/png", "\x89PNG\r\n"), 0), links: "response image/*", extract: "response image/*"},
		{rec: warcRecord(18, "response", "http://example.com/bomb", msgResponse, httpResponse("text/html", bomb.String(), "Content-Encoding: gzip"), 0),
			links: "dead", extract: "response html", why: "WARC record: the payload decodes to more than 65536 bytes"},
		{rec: warcRecord(19, "response", "http://example.com/big", msgResponse, httpResponse("text/html", big), 0),
			links: "dead", extract: "response html", why: "WARC record: a record of " + strconv.Itoa(len(httpResponse("text/html", big))) + " bytes, over the limit of 65536"},
		{rec: warcRecord(20, "response", "http://example.com/big.png", msgResponse, httpResponse("image/png", big), 0), links: "response image/*", extract: "response image/*"},
		{rec: warcRecord(21, "resource", "file:///notes.txt", "text/plain", "notes: https://notes.example/", 0), links: "resource text", extract: "out"},
		{rec: warcRecord(22, "response", "dns:example.com", "text/dns", "20261125120000\nexample.com. 60 IN A 192.0.2.1\n", 0), links: "response (not HTTP)", extract: "response (not HTTP)"},
	}
	var plain []byte
	var plainAt []int64
	for _, r := range plainWARC {
		plainAt = append(plainAt, int64(len(plain)))
		plain = append(plain, r.rec...)
	}
	var gzFile []byte
	var gzAt []int64
	for i, r := range gzWARC {
		gzAt = append(gzAt, int64(len(gzFile)))
		m := gzipMembers(r.rec, 1)
		if i == 2 {
			m = m[:len(m)/2]
		}
		gzFile = append(gzFile, m...)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(in, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	files := map[string][]crawlRecord{write("d1.warc", plain): plainWARC, write("d2.warc.gz", gzFile): gzWARC}
	at := map[string][]int64{filepath.Join(in, "d1.warc"): plainAt, filepath.Join(in, "d2.warc.gz"): gzAt}
	// Plain files are one document each: HTML for links, text for
	// extract; gzipped, in one member or several.
	write("p.html", []byte(`<a href="http://plain.example/">p</a>`))
	write("q.txt.gz", gzipMembers([]byte("see http://q.example/\n"), 1))
	write("r.txt", gzipMembers([]byte("see http://r.example/ and <a href=x>x</a>\n"), 3))
	const plainFiles = 3

	runJob := job
	for _, job := range []string{"links", "extract"} {
		out := filepath.Join(dir, "out", job)
		jobArgs := []string{job, "--input", filepath.Join(in, "*"), "--output", out, "--max-record-size", "64K"}
		if job == "links" {
			jobArgs = append(jobArgs, "--map", in+"/=https://plain.example/")
		}
		runJob(t, jobArgs...)
		want := uribeam.Counts{Job: job, Files: 2 + plainFiles, In: plainFiles, Out: plainFiles, Skipped: map[string]int64{}}
		var wantDead, wantDocs []string
		for file, recs := range files {
			for i, r := range recs {
				what := r.links
				if job == "extract" {
					what = r.extract
				}
				want.In++
				where := file + "@" + strconv.FormatInt(at[file][i], 10)
				switch what {
				case "out":
					want.Out++
					wantDocs = append(wantDocs, where)
				case "dead":
					want.Dead++
					wantDead = append(wantDead, where+" "+r.why)
				default:
					want.Skipped[what]++
				}
			}
		}
		c := checkCounts(t, job, out, 1, int(want.In))
		c.OutputLines, c.DeadLetters, c.Input = 0, 0, ""
		if fmt.Sprint(c) != fmt.Sprint(want) || c.Job != job || c.ReadErrors != 0 || c.LinkErrors != 0 {
			t.Errorf("%s: counts\n%v\nwant\n%v", job, c, want)
		}
		// Every dead letter is a record at its file and offset, with why.
		var dead []string
		for _, l := range shardLines(t, out+"-errors", 1) {
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
		sameMultiset(t, job+" dead letters", dead, wantDead)
		// The documents read: each WARC document has a link or a URI.
		docs := map[string]bool{}
		for _, l := range shardLines(t, out, 1) {
			f, _, _ := strings.Cut(l, "\t")
			if job == "links" {
				for file, recs := range files {
					for i, r := range recs {
						if bytes.Contains(r.rec, []byte("WARC-Target-URI: "+f+"\r\n")) {
							f = file + "@" + strconv.FormatInt(at[file][i], 10)
						}
					}
				}
			}
			if strings.Contains(f, "@") {
				docs[f] = true
			}
		}
		sameMultiset(t, job+" WARC documents read", slices.Collect(maps.Keys(docs)), wantDocs)
	}
}
