package main

import (
	"bytes"
	"html"
	"io"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// BenchmarkCommand runs subcommands in process over the kasztp corpus
// (real URLs, one per line) from standard input to io.Discard, so that
// MB/s is the command's throughput without the cost of a pipe.
// scripts/bench-cli.sh measures the built binary against cat and trurl.
func BenchmarkCommand(b *testing.B) {
	c := testshared.LoadCorpus(b, "kasztp")
	input := []byte(strings.Join(c.Lines, "\n") + "\n")
	for _, bc := range []struct {
		name string
		args []string
	}{
		{"check", []string{"check"}},
		{"parse", []string{"parse"}},
		{"parse-json", []string{"parse", "--json"}},
		{"normalize", []string{"normalize"}},
		{"get-host", []string{"get", "{host}"}},
		{"edit-trim", []string{"edit", "--trim", "query=utm_*"}},
		{"edit-set-port", []string{"edit", "--set", "port=8080"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(input)))
			b.ReportAllocs()
			for b.Loop() {
				run(bc.args, bytes.NewReader(input), io.Discard, io.Discard)
			}
		})
	}
}

// BenchmarkLinks runs "uri links" and "uri links --browser" in process
// over a generated page of 20,000 links (half the kasztp corpus's URLs,
// half relative references as pages write them, a base element first):
// the cost per link of RFC 3986 resolution and of the URL Standard's
// (issue 21: --browser at least 0.8x the speed). cpu-ns/link is the
// process's CPU time per link, which a loaded machine disturbs less
// than the wall clock.
func BenchmarkLinks(b *testing.B) {
	c := testshared.LoadCorpus(b, "kasztp")
	rel := []string{"../img/a.png", "guide/intro.html", "#top", "?page=3", "/docs/x.html", "./a/../b/c d", "//cdn.example/lib.js", "mailto:a@b.example"}
	var page strings.Builder
	page.WriteString(`<!doctype html><html><head><base href="https://example.com/docs/"></head><body>` + "\n")
	const n = 20000
	for i := range n {
		h := rel[i%len(rel)]
		if i%2 == 0 {
			h = c.Lines[(i/2)%len(c.Lines)]
		}
		page.WriteString(`<p><a href="` + html.EscapeString(h) + `">a link</a> and some text</p>` + "\n")
	}
	input := []byte(page.String())
	for _, bc := range []struct {
		name string
		args []string
	}{
		{"rfc3986", []string{"links", "--url", "https://example.com/"}},
		{"browser", []string{"links", "--browser", "--url", "https://example.com/"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(input)))
			b.ReportAllocs()
			c0 := testshared.CPUTime()
			for b.Loop() {
				run(bc.args, bytes.NewReader(input), io.Discard, io.Discard)
			}
			b.ReportMetric(float64(testshared.CPUTime()-c0)/float64(b.N*n), "cpu-ns/link")
		})
	}
}
