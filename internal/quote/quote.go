// Package quote writes the input of a parse error into its message, for
// the ParseError types of packages uri (and so urn) and whatwg: one way
// to quote, so that a long input gives a short message everywhere and
// no message cuts a UTF-8 character in half.
package quote

import (
	"strconv"
	"unicode/utf8"
)

// WindowSize is the most bytes of the input that Window quotes, less
// the bytes of the characters cut at its ends.
const WindowSize = 64

// Window returns s quoted (strconv.Quote) when it is at most
// WindowSize bytes long; otherwise a window of WindowSize bytes around
// offset, with "…" marking each end that was cut, so that a megabyte of
// bad input does not make a megabyte of message. An offset outside s is
// taken as its nearest end.
//
// The window's ends move outwards to the start of a UTF-8 character, by
// at most utf8.UTFMax-1 bytes each: a character is quoted whole, never
// as the \x escapes of its halves, and a run of bytes that is not UTF-8
// (continuation bytes without a start) cannot widen the window.
func Window(s string, offset int) string {
	if len(s) <= WindowSize {
		return strconv.Quote(s)
	}
	lo, hi := bounds(s, offset)
	q := strconv.Quote(s[lo:hi])
	if lo > 0 {
		q = "…" + q
	}
	if hi < len(s) {
		q += "…"
	}
	return q
}

// bounds returns the window of s around offset that Window quotes.
func bounds(s string, offset int) (lo, hi int) {
	offset = max(0, min(offset, len(s)))
	lo = max(0, offset-WindowSize/2)
	hi = min(len(s), lo+WindowSize)
	lo = max(0, hi-WindowSize)
	for k := 0; k < utf8.UTFMax-1 && lo > 0 && !utf8.RuneStart(s[lo]); k++ {
		lo--
	}
	for k := 0; k < utf8.UTFMax-1 && hi < len(s) && !utf8.RuneStart(s[hi]); k++ {
		hi++
	}
	return lo, hi
}

// Byte writes b as 'c' when it is printable ASCII and as byte 0xHH
// otherwise: the offending byte of a message.
func Byte(b byte) string {
	const hex = "0123456789ABCDEF"
	if b >= 0x20 && b < 0x7f {
		return "'" + string(rune(b)) + "'"
	}
	return "byte 0x" + string(hex[b>>4]) + string(hex[b&15])
}
