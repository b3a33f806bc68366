package main

import (
	"encoding/json"
	"io"
	"testing"

	"github.com/urikit/urikit/internal/jsonstr"
	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
)

// TestParseJSONShortAndLong: the line uri parse --json writes in one run
// for a short clean input (componentsResult.writeJSON) is byte for byte
// the one it writes member by member for any URI (writeLongJSON), over
// both corpora and every combination of the components' forms (each
// scheme with a view, hosts of every kind, empty and missing parts,
// escapes, queries of pairs and of search words), in both grammars and
// with zone identifiers; and it is JSON.
func TestParseJSONShortAndLong(t *testing.T) {
	var inputs []string
	for _, name := range []string{"kasztp", "node_files"} {
		inputs = append(inputs, testshared.LoadCorpus(t, name).Lines...)
	}
	for _, scheme := range []string{"http:", "HTTPS:", "ftp:", "gopher:", "mailto:", "news:", "nntp:", "telnet:", "wais:", "file:", "urn:", "foo:", ""} {
		for _, auth := range []string{"", "//", "//a", "//u:p@EX.com:8080", "//@h:", "//[::1]:80", "//[fe80::1%25en0]", "//[v1.x]", "//192.0.2.1", "//ex%41mple.com"} {
			for _, path := range []string{"", "/", "/a/b", "isbn:0451450523", "a@b.example", "/%22x%5C"} {
				for _, query := range []string{"", "?", "?a=b&c=%00+d", "?w1+w2", "?to=x@y&subject=%E2%80%A8"} {
					for _, frag := range []string{"", "#", "#f"} {
						inputs = append(inputs, scheme+auth+path+query+frag)
					}
				}
			}
		}
	}
	short := 0
	w1, w2 := newWriter(io.Discard, true), newWriter(io.Discard, true)
	for _, opts := range []uri.Options{{}, {AllowZoneID: true}, {Grammar: uri.RFC2396}} {
		for _, in := range inputs {
			u, err := uri.ParseWith(in, opts)
			if err != nil {
				continue
			}
			r := componentsResult{u: u}
			w1.B, w2.B = w1.B[:0], w2.B[:0]
			w1.in, w2.in = in, in
			r.writeJSON(w1)
			r.writeLongJSON(w2)
			if string(w1.B) != string(w2.B) {
				t.Fatalf("%q (%+v):\n short %s\n  long %s", in, opts, w1.B, w2.B)
			}
			if !json.Valid(w1.B) {
				t.Fatalf("%q: not JSON: %s", in, w1.B)
			}
			if jsonstr.NeedsNoEscape(in) {
				short++
			}
		}
	}
	if short < 1000 {
		t.Fatalf("only %d inputs took the short path", short)
	}
}
