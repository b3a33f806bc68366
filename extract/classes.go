package extract

import (
	"strings"
	"unicode/utf8"
)

// Byte classes.
const (
	cStop   = 1 << iota // ends a bare URI: whitespace, controls, " < > \ ^ ` { | }
	cSpace              // ASCII whitespace, dropped inside <>
	cColon              // ":"
	cHigh               // the first byte of a non-ASCII character
	cAlpha              // a letter
	cScheme             // a letter, digit, "+", "-" or "."
	cAlnum              // a letter or digit
	cOpen               // an opening bracket or quote before a URI: ( [ { '
)

var class [256]uint8

func init() {
	for c := 0; c < 256; c++ {
		var k uint8
		switch {
		case c <= ' ' || c == 0x7F || strings.IndexByte("\"<>\\^`{|}", byte(c)) >= 0:
			k |= cStop
		case c == ':':
			k |= cColon
		case c >= utf8.RuneSelf:
			k |= cHigh
		}
		if c == ' ' || '\t' <= c && c <= '\r' {
			k |= cSpace
		}
		if 'a' <= c|0x20 && c|0x20 <= 'z' {
			k |= cAlpha | cScheme | cAlnum
		}
		if '0' <= c && c <= '9' {
			k |= cAlnum
		}
		if strings.IndexByte("([{'", byte(c)) >= 0 {
			k |= cOpen
		}
		if '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.' {
			k |= cScheme
		}
		class[c] = k
	}
}

// isSpace: the whitespace that ends a bare URI and is dropped inside <>.
func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return class[r]&cSpace != 0
	}
	return r == 0x85 || r == 0xA0 || r == 0x1680 || 0x2000 <= r && r <= 0x200A || r == 0x2028 || r == 0x2029 || r == 0x202F || r == 0x205F || r == 0x3000
}

// isStop reports whether r ends a bare URI: whitespace, the characters
// RFC 3986 (and the 1998 draft's "unwise" and "delims") exclude,
// bidirectional formatting characters, Unicode quotation marks and
// brackets, and invalid UTF-8.
func isStop(r rune) bool {
	if r < utf8.RuneSelf {
		return class[r]&cStop != 0
	}
	switch {
	case isSpace(r):
		return true
	case r == 0x200E || r == 0x200F || 0x202A <= r && r <= 0x202E || 0x2066 <= r && r <= 0x2069 || r == 0x061C:
		return true // bidi controls
	case 0x2018 <= r && r <= 0x201F, r == 0xAB, r == 0xBB, r == 0x2039, r == 0x203A:
		return true // quotation marks
	case 0x3008 <= r && r <= 0x3011, 0x3014 <= r && r <= 0x301B, r == 0xFF08, r == 0xFF09, r == 0xFF3B, r == 0xFF3D, r == 0xFF5B, r == 0xFF5D, r == 0xFF62, r == 0xFF63:
		return true // CJK and fullwidth brackets
	case r == utf8.RuneError:
		return true
	}
	return false
}

func isAlnum(c byte) bool { return class[c]&cAlnum != 0 }
