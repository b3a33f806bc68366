package main

import (
	"strings"

	"github.com/urikit/urikit/internal/chars"
	"github.com/urikit/urikit/internal/jsonstr"
)

// lineScan is what the short writer of parse --json (appendShort) asks
// of its line: whether every byte is written as it is in a JSON string,
// and whether a part holds a byte that changes the form of "params" or
// "scheme_data" (an escape in a host or a pair, a pair separator). A
// line of at most chars.MaxMasked bytes is classified once, by the
// vector code where there is one (scanMasked: 93% of the lines of a
// crawl), and each question is a mask; a longer one is scanned for
// escapes eight bytes at a time (jsonstr.NeedsNoEscape) and each
// question searches its part.
type lineScan struct {
	s      string
	masked bool      // m holds the classes of s's bytes
	m      [8]uint64 // bit i of m[k]: s[i] is in class k of lineClasses
}

// The classes of lineClasses.
const (
	classPlain = iota // written as is in a JSON string: printable ASCII other than '"' and '\\'
	classPct          // '%'
	classPlus         // '+', a space in a pair
	classPair         // '=' or '&', which make a query pairs rather than search words
)

// classBytes are the bytes of each class but classPlain, which a line
// too long to be classified searches for.
var classBytes = [...]string{classPct: "%", classPlus: "+", classPair: "=&"}

var lineClasses = chars.NewClassifier(func(b byte) uint8 {
	var k uint8
	if b >= 0x20 && b != '"' && b != '\\' { // b < 0x80: no class holds the others
		k |= 1 << classPlain
	}
	for c, set := range classBytes {
		if set != "" && strings.IndexByte(set, b) >= 0 {
			k |= 1 << c
		}
	}
	return k
})

// scanMasked says whether lines short enough are classified at once:
// only with the vector code (elsewhere Masks reads a byte at a time,
// slower than NeedsNoEscape). The tests run both ways.
var scanMasked = chars.Vector

// scan sets l to the line s and reports whether s needs no JSON escape:
// control characters, '"', '\\' and non-ASCII bytes need one.
func (l *lineScan) scan(s string) bool {
	l.s = s
	if l.masked = scanMasked && len(s) <= chars.MaxMasked; l.masked {
		lineClasses.Masks(s, &l.m)
		return l.m[classPlain] == lowBits(len(s))
	}
	return jsonstr.NeedsNoEscape(s)
}

// has reports whether s[i:j] holds a byte of class c.
func (l *lineScan) has(c, i, j int) bool {
	if l.masked {
		return l.m[c&7]>>(i&63)&lowBits(j-i) != 0 // i is 64 only when j is
	}
	return l.search(c, i, j)
}

// search is has for a line that was not classified (not inlined, so
// that has is).
//
//go:noinline
func (l *lineScan) search(c, i, j int) bool {
	return strings.IndexAny(l.s[i:j], classBytes[c]) >= 0
}

// lowBits returns a word of the n low bits set, 0 <= n <= 64.
func lowBits(n int) uint64 { return 1<<uint(n) - 1 }
