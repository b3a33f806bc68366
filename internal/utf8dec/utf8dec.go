// Package utf8dec is the UTF-8 decoder of the Encoding Standard, which
// the URL Standard's application/x-www-form-urlencoded parser uses:
// invalid UTF-8 becomes U+FFFD, one for each error.
package utf8dec

import "unicode/utf8"

// String is "UTF-8 decode without BOM" of the Encoding Standard
// (section 6, with the UTF-8 decoder of section 8.1.1): each error is
// one U+FFFD, an error being a byte that cannot start a sequence, or a
// sequence cut short (its bytes so far: a "maximal subpart" of the
// Unicode Standard, section 3.9). strings.ToValidUTF8 gives one U+FFFD
// for a whole run of errors, utf8.DecodeRune one for each byte.
func String(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+len(s)/2)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || size > 1 {
			b = append(b, s[i:i+size]...)
			i += size
			continue
		}
		b = append(b, "\uFFFD"...)
		i += maximalSubpart(s[i:])
	}
	return string(b)
}

// maximalSubpart returns the length of the error at the start of s, a
// sequence that is not valid UTF-8: 1 for a byte that cannot start one
// (0x80 to 0xC1, 0xF5 to 0xFF), else the lead byte and the continuation
// bytes that the decoder of the Encoding Standard takes before the one
// it refuses or the end. The second byte's range depends on the first
// (no overlong form, no surrogate, nothing past U+10FFFF).
func maximalSubpart(s string) int {
	c := s[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case 0xC2 <= c && c <= 0xDF:
		need = 1
	case 0xE0 <= c && c <= 0xEF:
		need = 2
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
	case 0xF0 <= c && c <= 0xF4:
		need = 3
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
	default:
		return 1
	}
	n := 1
	for ; n <= need && n < len(s); n++ {
		if s[n] < lo || s[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return n
}
