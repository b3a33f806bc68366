// Command warcgen writes a synthetic crawl as a .warc.gz file, one
// gzip member a record, for the benchmark and the differential test of
// "uripipe cdxj" against cdxj-indexer (scripts/bench-cdxj.sh). It is
// deterministic: the same seed and size give the same bytes.
//
// The crawl has the shapes a CDXJ indexer meets: a warcinfo record;
// GET requests and their HTML responses (some gzip-coded, some chunked,
// some without a WARC-Payload-Digest, so that it is computed); POST
// requests with form, JSON, multipart, text and binary bodies; revisit
// records with and without HTTP headers; metadata records (warc-fields,
// skipped, and JSON, indexed); resource records; dns: responses; URLs
// with upper case, "www", session ids, unsorted queries and non-ASCII
// characters.
//
//	go run ./scripts/warcgen -size 100M -seed 1 -o crawl.warc.gz
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"encoding/base32"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	size := flag.String("size", "10M", "the size of the file, about (K, M, G)")
	seed := flag.Uint64("seed", 1, "the seed of the generator")
	out := flag.String("o", "", "the output file (default stdout)")
	flag.Parse()
	n, err := parseSize(*size)
	if err != nil {
		fmt.Fprintln(os.Stderr, "warcgen:", err)
		os.Exit(2)
	}
	var w io.Writer = os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "warcgen:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	g := &gen{r: rand.New(rand.NewPCG(*seed, 28)), t: time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)}
	c := &counter{w: w}
	if err := g.crawl(c, n); err != nil {
		fmt.Fprintln(os.Stderr, "warcgen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "warcgen: %d records, %d bytes\n", g.records, c.n)
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch strings.ToUpper(s[len(s)-min(len(s), 1):]) {
	case "K":
		mult = 1 << 10
	case "M":
		mult = 1 << 20
	case "G":
		mult = 1 << 30
	}
	if mult > 1 {
		s = s[:len(s)-1]
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 1 {
		return 0, fmt.Errorf("size %q: want a positive number with K, M or G", s)
	}
	return v * mult, nil
}

type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

type gen struct {
	r       *rand.Rand
	t       time.Time
	records int
	id      int
}

// record writes one record as a gzip member of its own.
func (g *gen) record(w io.Writer, typ, target, ctype string, block []byte, extra ...string) (string, error) {
	g.id++
	g.records++
	g.t = g.t.Add(time.Duration(g.r.IntN(5000)) * time.Millisecond)
	id := fmt.Sprintf("<urn:uuid:%08x-0000-4000-8000-%012d>", g.r.Uint32(), g.id)
	var h strings.Builder
	h.WriteString("WARC/1.1\r\nWARC-Type: " + typ + "\r\nWARC-Record-ID: " + id + "\r\n")
	date := g.t.Format("2006-01-02T15:04:05Z")
	if g.id%7 == 0 {
		date = g.t.Format("2006-01-02T15:04:05.000000Z") // WARC 1.1: a fraction of a second
	}
	h.WriteString("WARC-Date: " + date + "\r\n")
	if target != "" {
		h.WriteString("WARC-Target-URI: " + target + "\r\n")
	}
	for _, e := range extra {
		h.WriteString(e + "\r\n")
	}
	h.WriteString("Content-Type: " + ctype + "\r\nContent-Length: " + strconv.Itoa(len(block)) + "\r\n\r\n")
	z, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
	io.WriteString(z, h.String())
	z.Write(block)
	io.WriteString(z, "\r\n\r\n")
	return id, z.Close()
}

func digest(b []byte) string {
	s := sha1.Sum(b)
	return "WARC-Payload-Digest: sha1:" + base32.StdEncoding.EncodeToString(s[:])
}

var hosts = []string{"example.com", "www.example.org", "WWW2.Example.net", "blog.example.co.uk", "a.b.github.io", "xn--bcher-kva.example", "192.0.2.7", "news.example.com:8080"}
var words = strings.Fields("archive crawl capture replay index key host query path page site link form data web record")

func (g *gen) url() string {
	h := hosts[g.r.IntN(len(hosts))]
	scheme := "http"
	if g.r.IntN(2) == 0 {
		scheme = "https"
	}
	var p strings.Builder
	for range 1 + g.r.IntN(4) {
		p.WriteString("/" + words[g.r.IntN(len(words))])
	}
	switch g.r.IntN(8) {
	case 0:
		p.WriteString("/")
	case 1:
		p.WriteString("?b=" + strconv.Itoa(g.r.IntN(100)) + "&a=" + words[g.r.IntN(len(words))])
	case 2:
		p.WriteString(";jsessionid=0123456789ABCDEF0123456789ABCDEF?x=1")
	case 3:
		p.WriteString("/Caf%C3%A9?q=%E2%9C%93")
	case 4:
		p.WriteString("/caf\u00e9")
	}
	return scheme + "://" + h + p.String()
}

func (g *gen) html() []byte {
	var b bytes.Buffer
	b.WriteString("<!doctype html><html><head><title>page</title></head><body>\n")
	for range 20 + g.r.IntN(150) {
		fmt.Fprintf(&b, "<p>%s %s <a href=\"%s\">%s</a></p>\n", words[g.r.IntN(len(words))], words[g.r.IntN(len(words))], g.url(), words[g.r.IntN(len(words))])
	}
	b.WriteString("</body></html>\n")
	return b.Bytes()
}

func httpResponse(status string, fields []string, body []byte) []byte {
	return append([]byte("HTTP/1.1 "+status+"\r\n"+strings.Join(fields, "\r\n")+"\r\n\r\n"), body...)
}

func chunked(b []byte) []byte {
	var out bytes.Buffer
	for len(b) > 0 {
		n := min(len(b), 1000)
		fmt.Fprintf(&out, "%x\r\n", n)
		out.Write(b[:n])
		out.WriteString("\r\n")
		b = b[n:]
	}
	out.WriteString("0\r\n\r\n")
	return out.Bytes()
}

func gzipped(b []byte) []byte {
	var out bytes.Buffer
	z := gzip.NewWriter(&out)
	z.Write(b)
	z.Close()
	return out.Bytes()
}

// postBody returns a POST body and its Content-Type.
func (g *gen) postBody() ([]byte, string) {
	w := func() string { return words[g.r.IntN(len(words))] }
	switch g.r.IntN(5) {
	case 0:
		return []byte("q=" + w() + "+" + w() + "&page=" + strconv.Itoa(g.r.IntN(9)) + "&x=%2F" + w()), "application/x-www-form-urlencoded"
	case 1:
		return []byte(`{"query": "` + w() + `", "n": ` + strconv.Itoa(g.r.IntN(99)) + `, "f": 1.5, "ok": true, "tags": ["` + w() + `", "` + w() + `"], "o": {"query": null}}`), "application/json"
	case 2:
		b := "--BOUNDARY\r\nContent-Disposition: form-data; name=\"field\"\r\n\r\n" + w() + " " + w() + "\r\n--BOUNDARY\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.txt\"\r\nContent-Type: text/plain\r\n\r\n" + w() + "^\r\n--BOUNDARY--\r\n"
		return []byte(b), "multipart/form-data; boundary=BOUNDARY"
	case 3:
		return []byte(`{"plain": "` + w() + `"}`), "text/plain;charset=UTF-8"
	}
	b := make([]byte, 16+g.r.IntN(64))
	for i := range b {
		b[i] = byte(g.r.IntN(256))
	}
	return b, "application/octet-stream"
}

func (g *gen) crawl(w io.Writer, size int64) error {
	c := w.(*counter)
	if _, err := g.record(w, "warcinfo", "", "application/warc-fields", []byte("software: warcgen\r\nformat: WARC File Format 1.1\r\n")); err != nil {
		return err
	}
	for c.n < size {
		u := g.url()
		switch k := g.r.IntN(20); {
		case k < 12: // a GET and its response
			reqID, err := g.record(w, "request", u, "application/http;msgtype=request", []byte("GET / HTTP/1.1\r\nHost: example\r\nUser-Agent: warcgen\r\n\r\n"))
			if err != nil {
				return err
			}
			body := g.html()
			fields := []string{"Content-Type: text/html; charset=utf-8", "Server: warcgen"}
			switch g.r.IntN(4) {
			case 0:
				body = gzipped(body)
				fields = append(fields, "Content-Encoding: gzip")
			case 1:
				body = chunked(body)
				fields = append(fields, "Transfer-Encoding: chunked")
			}
			var extra []string
			if g.r.IntN(5) > 0 {
				extra = append(extra, digest(body))
			}
			extra = append(extra, "WARC-Concurrent-To: "+reqID)
			status := []string{"200 OK", "200 OK", "200 OK", "301 Moved Permanently", "404 Not Found"}[g.r.IntN(5)]
			if _, err := g.record(w, "response", u, "application/http;msgtype=response", httpResponse(status, fields, body), extra...); err != nil {
				return err
			}
		case k < 14: // a POST, its response after it
			body, ctype := g.postBody()
			reqID, err := g.record(w, "request", u, "application/http;msgtype=request",
				append([]byte("POST /p HTTP/1.1\r\nHost: example\r\nContent-Type: "+ctype+"\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"), body...))
			if err != nil {
				return err
			}
			resp := []byte(`{"ok": true}`)
			if _, err := g.record(w, "response", u, "application/http;msgtype=response", httpResponse("200 OK", []string{"Content-Type: application/json"}, resp), digest(resp), "WARC-Concurrent-To: "+reqID); err != nil {
				return err
			}
		case k < 16: // a revisit
			block := httpResponse("200 OK", []string{"Content-Type: text/html"}, nil)
			if g.r.IntN(3) == 0 {
				block = nil
			}
			if _, err := g.record(w, "revisit", u, "application/http;msgtype=response", block,
				"WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest", "WARC-Payload-Digest: sha1:UZY6ND6CCHXETFVJD2MSS7ZENMWF7KQ2"); err != nil {
				return err
			}
		case k < 17: // metadata: warc-fields (skipped) or JSON (indexed)
			if _, err := g.record(w, "metadata", u, "application/warc-fields", []byte("outlink: "+g.url()+"\r\n")); err != nil {
				return err
			}
			if _, err := g.record(w, "metadata", u, "application/json", []byte(`{"outlinks": 3}`)); err != nil {
				return err
			}
		case k < 18: // a resource
			b := []byte("text of " + u + "\n")
			if _, err := g.record(w, "resource", u, "text/plain; charset=utf-8", b); err != nil {
				return err
			}
		default: // a DNS lookup
			b := []byte(g.t.Format("20060102150405") + "\nexample.com. 60 IN A 192.0.2.1\n")
			if _, err := g.record(w, "response", "dns:example.com", "text/dns", b, digest(b)); err != nil {
				return err
			}
		}
	}
	return nil
}
