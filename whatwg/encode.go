package whatwg

import (
	"unicode/utf8"

	"github.com/urikit/urikit/internal/chars"
)

// Byte classes: one table, a bit per percent-encode set of the URL
// Standard (section 1.3, "Percent-encoded bytes"), and a bit for the
// ASCII bytes that are not URL code points (section 4.3, "URL
// writing"), whose presence is an invalid-URL-unit validation error.
// Every byte from 0x80 up is in every set: the sets hold every code
// point above U+007E, and UTF-8 encodes those as bytes 0x80-0xFF.
const (
	setC0           uint32 = 1 << iota // C0 control percent-encode set
	setFragment                        // fragment percent-encode set
	setQuery                           // query percent-encode set
	setSpecialQuery                    // special-query percent-encode set
	setPath                            // path percent-encode set
	setUserinfo                        // userinfo percent-encode set
	setComponent                       // component percent-encode set
	setForm                            // application/x-www-form-urlencoded percent-encode set
	notURLUnit                         // an ASCII byte that is not a URL code point, nor '%'
	forbiddenHost                      // forbidden host code point
	forbiddenDomain                    // forbidden domain code point
	isSlash                            // '/'
	isBackslash                        // '\\'
	isQuestion                         // '?'
	isHash                             // '#'
	isPercent                          // '%'
	spaceStop                          // ' ', where the opaque path state stops
)

var class = func() (t [256]uint32) {
	for c := 0; c < 256; c++ {
		var m uint32
		if c < 0x20 || c > 0x7e {
			m |= setC0
		}
		if m&setC0 != 0 || isAny(c, ` "<>`+"`") {
			m |= setFragment
		}
		if m&setC0 != 0 || isAny(c, ` "#<>`) {
			m |= setQuery
		}
		if m&setQuery != 0 || c == '\'' {
			m |= setSpecialQuery
		}
		if m&setQuery != 0 || isAny(c, "?^`{}") {
			m |= setPath
		}
		if m&setPath != 0 || isAny(c, "/:;=@[\\]|") {
			m |= setUserinfo
		}
		if m&setUserinfo != 0 || isAny(c, "$%&+,") {
			m |= setComponent
		}
		if m&setComponent != 0 || isAny(c, "!'()~") {
			m |= setForm
		}
		if c < 0x80 && !isURLUnitASCII(byte(c)) && c != '%' {
			m |= notURLUnit
		}
		if isAny(c, "\x00\t\n\r #/:<>?@[\\]^|") {
			m |= forbiddenHost
		}
		if m&forbiddenHost != 0 || c < 0x20 || c == '%' || c == 0x7f {
			m |= forbiddenDomain
		}
		switch c {
		case '/':
			m |= isSlash
		case '\\':
			m |= isBackslash
		case '?':
			m |= isQuestion
		case '#':
			m |= isHash
		case '%':
			m |= isPercent
		case ' ':
			m |= spaceStop
		}
		t[c] = m
	}
	return t
}()

func isAny(c int, set string) bool {
	for i := 0; i < len(set); i++ {
		if int(set[i]) == c {
			return true
		}
	}
	return false
}

// isURLUnitASCII reports whether the ASCII byte c is a URL code point:
// ASCII alphanumeric or one of !$&'()*+,-./:;=?@_~.
func isURLUnitASCII(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || isAny(int(c), "!$&'()*+,-./:;=?@_~")
}

// isURLUnitRune reports whether the non-ASCII code point r is a URL code
// point: from U+00A0 to U+10FFFD, neither a surrogate nor a noncharacter.
func isURLUnitRune(r rune) bool {
	if r < 0xa0 || r > 0x10fffd || 0xd800 <= r && r <= 0xdfff {
		return false
	}
	if 0xfdd0 <= r && r <= 0xfdef || r&0xfffe == 0xfffe {
		return false
	}
	return true
}

const upperhex = "0123456789ABCDEF"

func isHex(c byte) bool { return chars.Is(c, chars.Hex) }

// unhex returns the value of the hexadecimal digit c (0 for a byte
// that is none: callers check first).
func unhex(c byte) byte { return byte(max(chars.Unhex(c), 0)) }

// validPercent reports whether s[i] == '%' starts a percent-encoded
// byte: '%' and two ASCII hex digits.
func validPercent(s string, i int) bool {
	return i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
}

// encode appends s to the output up to its first byte in stop, UTF-8
// percent-encoding the code points in set (section 1.3), and returns
// the offset of that byte (len(s) when there is none). With check it
// records the invalid-URL-unit validation errors of what it reads: code
// points that are not URL code points, and '%' not followed by two hex
// digits. A byte sequence that is not valid UTF-8 is read as U+FFFD, as
// a browser does when it turns a string into a USVString.
// countASCIIIn counts the ASCII bytes of s in set: each is written as
// three.
func countASCIIIn(s string, set uint32) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < utf8.RuneSelf && class[c]&set != 0 {
			n++
		}
	}
	return n
}

func (p *parser) encode(s string, set, stop uint32, check bool) int {
	w := &p.w
	watch := set | stop
	if check {
		watch |= notURLUnit | isPercent
	}
	start, i := 0, 0
	for i < len(s) {
		c := s[i]
		m := class[c]
		if m&watch == 0 {
			i++
			continue
		}
		if m&stop != 0 {
			break
		}
		if c < utf8.RuneSelf {
			if check && m&(notURLUnit|isPercent) != 0 && (c != '%' || !validPercent(s, i)) {
				p.errs.add(InvalidURLUnit)
			}
			if m&set == 0 {
				i++
				continue
			}
			w.str(s[start:i])
			w.pct(c)
			i++
			start = i
			continue
		}
		w.str(s[start:i])
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			w.str("%EF%BF%BD")
		} else {
			if check && !isURLUnitRune(r) {
				p.errs.add(InvalidURLUnit)
			}
			for k := i; k < i+n; k++ {
				w.pct(s[k])
			}
		}
		i += n
		start = i
	}
	w.str(s[start:i])
	return i
}

// appendEncoded appends s to b with the bytes of set percent-encoded,
// U+0020 as '+' when plus is set (the form encoding); invalid UTF-8 is
// read as U+FFFD.
func appendEncoded(b []byte, s string, set uint32, plus bool) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' && plus {
			b = append(b, '+')
			i++
			continue
		}
		if class[c]&set == 0 {
			b = append(b, c)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, '%', upperhex[c>>4], upperhex[c&15])
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, "%EF%BF%BD"...)
		} else {
			for k := i; k < i+n; k++ {
				b = append(b, '%', upperhex[s[k]>>4], upperhex[s[k]&15])
			}
		}
		i += n
	}
	return b
}

// percentDecode returns the percent-decoding of s (section 1.3): a
// '%' not followed by two hex digits stays as it is.
func percentDecode(s string) string {
	i := 0
	for i < len(s) && !(s[i] == '%' && validPercent(s, i)) {
		i++
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		if s[i] == '%' && validPercent(s, i) {
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}
