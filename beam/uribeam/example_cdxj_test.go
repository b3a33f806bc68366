package uribeam_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/urikit/urikit/beam/uribeam"
)

func ExampleCDXJ() {
	dir, _ := os.MkdirTemp("", "cdxj")
	defer os.RemoveAll(dir)
	block := "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>hello"
	rec := "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n" +
		"WARC-Date: 2026-11-27T12:00:00Z\r\nWARC-Target-URI: http://www.Example.com/a?b=2&a=1\r\n" +
		"Content-Type: application/http;msgtype=response\r\nContent-Length: " + fmt.Sprint(len(block)) + "\r\n\r\n" + block + "\r\n\r\n"
	os.WriteFile(filepath.Join(dir, "crawl.warc"), []byte(rec), 0o644)
	p, s := beam.NewPipelineWithRoot()
	lines, _, _ := uribeam.CDXJ(s, filepath.Join(dir, "*.warc"), uribeam.ReadOptions{}, uribeam.CDXJOptions{PostAppend: true})
	show(p, s, map[string]beam.PCollection{"cdxj": lines})
	// Output:
	// cdxj:
	//   com,example)/a?a=1&b=2 20261127120000 {"url": "http://www.Example.com/a?b=2&a=1", "mime": "text/html", "status": "200", "digest": "sha1:6VMT7HTE2K745SIQUUYG3CKPEJVFD5GH", "length": "318", "offset": "0", "filename": "crawl.warc"}
}

func ExampleSites() {
	p, s := beam.NewPipelineWithRoot()
	lines := beam.Create(s, "http://www.example.co.uk/", "https://shop.example.co.uk/a", "https://a.b.github.io/", "http://192.0.2.1/")
	counts, _ := uribeam.Sites(s, lines, false)
	icann, _ := uribeam.Sites(s, lines, true)
	show(p, s, map[string]beam.PCollection{"sites": beam.ParDo(s, countString, counts), "icann": beam.ParDo(s, countString, icann)})
	// Output:
	// icann:
	//   192.0.2.1 1
	//   example.co.uk 2
	//   github.io 1
	// sites:
	//   192.0.2.1 1
	//   b.github.io 1
	//   example.co.uk 2
}

func ExampleWriteSortedShards() {
	dir, _ := os.MkdirTemp("", "sorted")
	defer os.RemoveAll(dir)
	p, s := beam.NewPipelineWithRoot()
	uribeam.WriteSortedShards(s, filepath.Join(dir, "out"), 2, 0, beam.Create(s, "org,b)/", "com,a)/ x", "com,a)/", "net,c)/"))
	if _, err := beam.Run(context.Background(), "prism", p); err != nil {
		panic(err)
	}
	for i := range 2 {
		b, _ := os.ReadFile(uribeam.ShardName(filepath.Join(dir, "out"), i, 2))
		fmt.Printf("shard %d:\n%s", i, b)
	}
	// Output:
	// shard 0:
	// com,a)/
	// com,a)/ x
	// shard 1:
	// net,c)/
	// org,b)/
}
