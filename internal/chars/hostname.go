package chars

import "unicode/utf8"

// forbiddenDomain marks the URL Standard's forbidden domain code points
// (section 3.2): the forbidden host code points (NUL, TAB, LF, CR,
// space, "#", "/", ":", "<", ">", "?", "@", "[", "\", "]", "^", "|"),
// the other C0 controls, "%" and DEL.
var forbiddenDomain = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	for _, c := range []byte(" #%/:<>?@[\\]^|\x7f") {
		t[c] = true
	}
	return t
}()

// BadHostName returns the offset in raw, a reg-name as written in a
// valid URI, of the first octet or triplet that keeps it from naming a
// host: a percent-encoded octet that decodes to a forbidden domain code
// point of the URL Standard (a space, a control, "%", "/", ...), which
// no browser resolves and no DNS name holds, or the first octet of a
// run that is not UTF-8 once decoded (RFC 3986 3.2.2: a non-ASCII
// registered name is percent-encoded UTF-8). It returns -1 for a host
// name. A reg-name without "%" is one: its other octets are unreserved
// or sub-delims, none of them forbidden.
func BadHostName(raw string) int {
	need, start := 0, 0 // continuation octets still due, and where their sequence started
	lo, hi := byte(0x80), byte(0xBF)
	for i := 0; i < len(raw); i++ {
		c, at := raw[i], i
		if c == '%' && i+2 < len(raw) {
			c = byte(Unhex(raw[i+1])<<4 | Unhex(raw[i+2]))
			i += 2
		}
		if need > 0 {
			if c < lo || c > hi {
				return start
			}
			need, lo, hi = need-1, 0x80, 0xBF
			continue
		}
		start = at
		switch {
		case c < utf8.RuneSelf:
			if forbiddenDomain[c] {
				return at
			}
		case 0xC2 <= c && c <= 0xDF:
			need = 1
		case c == 0xE0:
			need, lo = 2, 0xA0 // no overlong form
		case 0xE1 <= c && c <= 0xEF:
			need = 2
			if c == 0xED {
				hi = 0x9F // no surrogate
			}
		case c == 0xF0:
			need, lo = 3, 0x90
		case 0xF1 <= c && c <= 0xF4:
			need = 3
			if c == 0xF4 {
				hi = 0x8F // nothing above U+10FFFF
			}
		default:
			return at
		}
	}
	if need > 0 {
		return start
	}
	return -1
}
