package main

import (
	"fmt"
	"io"
	"os"

	"github.com/urikit/urikit/extract"
	"github.com/urikit/urikit/iri"
)

var extractCommand = &command{
	name:     "extract",
	summary:  "find the URIs in running text (the 1998 draft's Appendix E)",
	synopsis: "[--abbrev] [--json] [-z] [FILE...]",
	traits:   jsonOut,
	files:    true,
	flags: []flagSpec{
		{long: "abbrev", help: "also find abbreviated URLs (Appendix F): \"www.\" and a host\nwith a dot as http://, \"ftp.\" hosts as ftp://",
			example: "uri extract --abbrev notes.txt"},
		{long: "null", short: 'z', help: "input records are separated by NUL; print one JSON line per\nrecord, {\"record\": N, \"matches\": [...]}, an empty array for\na record without a URI",
			example: "uri extract -z records.bin"},
	},
	about: `Find the URIs in the text of each FILE (standard input without files, or
for "-"), as the 1998 draft's Appendix E reads them: "<...>" and
"<URL:...>" wrap one URI, whitespace and line breaks inside them ignored
(brackets around anything else, such as an HTML tag, prose or a "<" never
closed, are text); double quotes wrap one URI; a bare URI needs a scheme
registered with IANA and ends at whitespace, at " < > \ ^ ` + "`" + ` { | }, at
bidi controls and Unicode quotes or brackets; trailing . , ; : ! ? ' and
unbalanced ) or ] are the text's. A hyphen at a line end is kept and the
URI goes on after the break, unless the next line starts a URI. Text with non-ASCII characters (an IRI) is mapped to a
URI (RFC 3987 3.1). Memory stays constant whatever the input.
`,
	output: `Plain output: one URI per line, as found (wrapper, "URL:" and inner
whitespace removed; an abbreviated URL completed). JSON, one object per
URI: {"uri", "raw", "start", "end", "line", "col", "wrapper", "abbrev",
"iri"}, start and end the byte offsets in the input (per file), raw the
exact source text, wrapper "angle", "quote" or "none".
`,
	exit: "0 when a URI was found, 1 when none was, 2 for a usage error or when\nreading or writing fails.\n",
	whole: func(c *call) int {
		o := extract.Options{Abbrev: c.has("abbrev"), Map: iri.ToURI}
		w := newWriter(c.stdout, c.json)
		c.out = w
		files := c.params
		if len(files) == 0 {
			files = []string{"-"}
		}
		found := false
		for _, name := range files {
			r := c.stdin
			if name != "-" {
				f, err := os.Open(name)
				if err != nil {
					fmt.Fprintf(c.stderr, "uri extract: %v\n", err)
					return 2
				}
				defer f.Close()
				r = f
			}
			r = idleReader{r, w}
			var err error
			if c.has("null") {
				err = extractRecords(w, r, o, &found)
			} else {
				s := extract.NewScanner(r, o)
				for s.Scan() {
					found = true
					write(w, matchResult{s.Match()})
					if !w.flushLine() {
						break
					}
				}
				err = s.Err()
			}
			if err != nil {
				fmt.Fprintf(c.stderr, "uri extract: reading %s: %v\n", name, err)
				return 2
			}
		}
		if err := w.close(); err != nil {
			fmt.Fprintf(c.stderr, "uri extract: writing standard output: %v\n", err)
			return 2
		}
		if !found {
			return 1
		}
		return 0
	},
}

// extractRecords reads NUL-separated records and writes one line per
// record, with one Scanner for the whole stream.
func extractRecords(w *writer, r io.Reader, o extract.Options, found *bool) error {
	o.Records = true
	s := extract.NewScanner(r, o)
	for n := 0; s.NextRecord(); n++ {
		write(w, recordResult{n, s, found})
		if !w.flushLine() {
			return nil
		}
	}
	return s.Err()
}

// idleReader flushes the output before each read of the input, so that
// what was found is written before the command waits for more text
// ("tail -f log | uri extract" prints each URI as its line arrives).
// The Scanner reads only when it needs more, and in large blocks when
// the input is a file.
type idleReader struct {
	r io.Reader
	w *writer
}

func (ir idleReader) Read(p []byte) (int, error) {
	ir.w.flush()
	return ir.r.Read(p)
}
