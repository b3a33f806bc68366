package main

import (
	"io"
	"runtime"
	"strings"
	"testing"
)

// TestLongLineMemory: a command form on one long line costs memory
// linear in it and a few times its size (issue 26, "Memory on one huge
// line": scripts/reliability.sh found these forms at 11 to 66 times an
// 8 MB line in resident memory). Each row runs the command in process
// on a 1 MiB input written to io.Discard and bounds the bytes it
// allocates per input byte: before is what the row allocated when the
// script found it, limit what it may allocate now (what it allocates,
// with a margin). (The time of every form on these shapes, at two
// sizes, is the script's; their libraries have CheckLinearN tests.)
func TestLongLineMemory(t *testing.T) {
	const n = 1 << 20
	line := func(head, unit, tail string) func(n int) string {
		return func(n int) string {
			return head + strings.Repeat(unit, (n-len(head)-len(tail))/len(unit)) + tail + "\n"
		}
	}
	for _, tt := range []struct {
		form   string
		input  func(n int) string
		before float64 // bytes allocated per input byte before the fix
		limit  float64
	}{
		// The views held a string or a [name, value] pair per element
		// and their JSON was built whole, then copied into the line.
		{"parse --json", line("mailto:a@b?", "x=1&", "y=2"), 25.7, 3.5},
		{"parse --json", line("prospero://h/a", ";a=b", ""), 25.5, 3.5},
		{"parse --json", line("mailto:?to=", "a@b,", "x@y"), 22, 8.5},
		{"check", line("mailto:a@b?", "x=1&", "y=2"), 9.3, 2},
		{"edit --json --sort-query", line("mailto:a@b?", "x=1&", "y=2"), 33.7, 3.5},
		// One string per CWD command (the plan: 30x in resident memory).
		{"plan", line("ftp://h/", "a/", "f"), 31.9, 7},
		{"plan --json", line("ftp://h/", "a/", "f"), 34.8, 7},
		// Results and their JSON appended whole, a quarter more at a
		// time: the escaped NULs of decode, the getters of whatwg, a
		// repaired URI three times its input, a proxy request that
		// holds the host twice.
		{"decode --json", line("", "\x00", ""), 31, 7.5},
		{"decode", line("", "\x00", ""), 22.4, 7.5},
		{"get --json {url}{fragment}{query-all:a}", line("http://a/?", "a=b&", ""), 28, 4},
		{"parse --whatwg --json", line("http://a/", "中文", ""), 20.4, 6.5},
		{"parse --whatwg", line("http://a/", "é", ""), 18.6, 6.5},
		{"parse --repair --json", line("http://a/", "%", ""), 16.2, 10.5},
		{"urn encode --json --nid example", line("", "%", ""), 16.3, 10},
		{"plan --proxy", line("http://", "a", "/"), 13.5, 9},
		{"iri-to-uri --json", line("http://a/", "中文", ""), 10.1, 7},
		// A URN's view writes the URN and its NSS: twice a URN that
		// repair makes three times its input.
		{"parse --repair --json", line("urn:example:", "aéЖ中α1-", ""), 21.3, 8},
		// An error about the result (an nntp group cannot take a
		// segment) quoted the whole result three times; now a window.
		{"edit --set fragment=x --append path=y", line("nntp://h/", "a.", "b/1"), 15.3, 9},
		// An href is read three times as long (a NUL is U+FFFD) and was
		// resolved nine times (%EF%BF%BD); over 2 MiB it is no longer
		// resolved (htmldoc.MaxLinkBytes).
		{"links --json --url http://r/", func(n int) string {
			return `<a href="` + strings.Repeat("\x00", n-20) + `">x</a>`
		}, 71.2, 20},
		// The keys of issue 28 (package surt): its buffers grew by
		// quarters, each step of a profile appended a new copy of the
		// component, the query's empty parameters were split and joined
		// again. A URL of escapes is three times as long canonical.
		// Then each component was rewritten in place, its room counted
		// first, the parameters checked as they are read.
		{"surt", line("http://a/", "a/", ""), 8.3, 5},
		{"surt", line("http://a/", "%25", ""), 16, 6},
		{"surt", line("http://a/", "é", ""), 13.6, 9.5},
		{"surt --json", line("http://a/?", "&", ""), 19.3, 8.5},
		{"surt --with-scheme --profile google", line("http://", "@", "a/"), 20.7, 14},
		{"surt --ssurt --json --profile aggressive", line("http://a/?", "b=1&", ""), 36, 5},
		{"surt --ssurt --json --profile aggressive", line("http://a/?", "sid=0123456789abcdef0123456789abcdef&", ""), 10.4, 4},
		{"canon --profile semantic-precise", line("http://a/?", "%", ""), 22.1, 13},
		{"surt --with-scheme --profile google", line("http://", "a.", "com/"), 12.3, 5},
		{"canon --profile whatwg --json", line("http://a/", "中文", ""), 11.1, 9.5},
		{"canon --profile semantic-precise", line("http://a/", "x/../", ""), 6.3, 3},
		{"get --json {site}{site:icann}{suffix}", line("http://", "a.", "co.uk/"), 1.8, 3},
	} {
		args := strings.Fields(tt.form)
		runForm := func(in string) {
			if code := run(args, strings.NewReader(in), io.Discard, io.Discard); code > 1 {
				t.Fatalf("uri %s: exit %d", tt.form, code)
			}
		}
		in := tt.input(n)
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		runForm(in)
		runtime.ReadMemStats(&m1)
		if got := float64(m1.TotalAlloc-m0.TotalAlloc) / float64(len(in)); got > tt.limit {
			t.Errorf("uri %s on %.20q...: allocated %.1f times the input of %d bytes, limit %g (it was %g)",
				tt.form, in, got, len(in), tt.limit, tt.before)
		}
	}
}
