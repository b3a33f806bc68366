package urn

import "github.com/urikit/urikit/internal/chars"

// The character set of RFC 2141 section 2.2, which the xmpp (RFC 4854)
// and epc (RFC 5134) registrations refer to:
//
//	<URN chars>   ::= <trans> | "%" <hex> <hex>
//	<trans>       ::= <upper> | <lower> | <number> | <other> | <reserved>
//	<other>       ::= "(" | ")" | "+" | "," | "-" | "." |
//	                  ":" | "=" | "@" | ";" | "$" |
//	                  "_" | "!" | "*" | "'"
//	<reserved>    ::= '%" | "/" | "?" | "#"

// isRFC2141Other reports whether c is in <other>.
func isRFC2141Other(c byte) bool {
	switch c {
	case '(', ')', '+', ',', '-', '.', ':', '=', '@', ';', '$', '_', '!', '*', '\'':
		return true
	}
	return false
}

// isRFC2141Trans reports whether c is a letter, a digit or in <other>:
// <trans> without <reserved>.
func isRFC2141Trans(c byte) bool {
	return chars.Is(c, chars.Alpha|chars.Digit) || isRFC2141Other(c)
}

// pctAt reports whether s[i:] starts with "%" and two hexadecimal digits.
func pctAt(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && chars.Is(s[i+1], chars.Hex) && chars.Is(s[i+2], chars.Hex)
}
