package main

import (
	"bytes"
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
