// Package chars holds the character classes of the URI grammars as one
// 256-entry table of bit flags, shared by packages uri and urn.
//
// Each class is named after the ABNF rule it implements; the sources are
// RFC 3986 Appendix A and the 1998 draft (draft-fielding-uri-syntax-02,
// later RFC 2396) Appendix A.
package chars

// Class is a set of character classes, one bit each.
type Class uint32

const (
	// Alpha is ALPHA (RFC 5234 B.1).
	Alpha Class = 1 << iota
	// Digit is DIGIT.
	Digit
	// Hex is HEXDIG, both cases.
	Hex
	// Unreserved is RFC 3986 2.3: ALPHA / DIGIT / "-" / "." / "_" / "~".
	Unreserved
	// SubDelim is RFC 3986 2.2 sub-delims: "!" "$" "&" "'" "(" ")" "*" "+" "," ";" "=".
	SubDelim
	// GenDelim is RFC 3986 2.2 gen-delims: ":" "/" "?" "#" "[" "]" "@".
	GenDelim
	// Scheme is the tail of RFC 3986 3.1 scheme: ALPHA / DIGIT / "+" / "-" / ".".
	Scheme
	// PChar is RFC 3986 3.3 pchar without pct-encoded: unreserved / sub-delims / ":" / "@".
	PChar
	// PathChar is a byte of an RFC 3986 3.3 path: pchar / "/", without
	// pct-encoded.
	PathChar
	// QueryFrag is RFC 3986 3.4/3.5: pchar / "/" / "?" without pct-encoded.
	QueryFrag
	// UserInfo is RFC 3986 3.2.1: unreserved / sub-delims / ":" without pct-encoded.
	UserInfo
	// RegName is RFC 3986 3.2.2 reg-name: unreserved / sub-delims without pct-encoded.
	RegName
	// FutureTail is the tail of RFC 3986 3.2.2 IPvFuture: unreserved / sub-delims / ":".
	FutureTail

	// Unreserved2396 is the 1998 draft's unreserved: alphanum / mark.
	Unreserved2396
	// Reserved2396 is the 1998 draft's reserved: ";" "/" "?" ":" "@" "&" "=" "+" "$" ",".
	Reserved2396
	// Uric2396 is the 1998 draft's uric without escaped: reserved / unreserved.
	Uric2396
	// PChar2396 is the 1998 draft's pchar without escaped:
	// unreserved / ":" / "@" / "&" / "=" / "+" / "$" / ",".
	PChar2396

	// URNNSS is RFC 2141's <trans> without "%" (the NSS characters):
	// upper / lower / number / other / reserved, where other is
	// "(" ")" "+" "," "-" "." ":" "=" "@" ";" "$" "_" "!" "*" "'" and
	// reserved is "%" "/" "?" "#".  Only "/" of reserved is kept here:
	// "%" is checked as a triplet and "?" "#" are delimiters.
	URNNSS2141
)

// table maps every byte to its classes. Bytes 0x80-0xFF belong to none.
var table = func() (t [256]Class) {
	set := func(c Class, s string) {
		for i := 0; i < len(s); i++ {
			t[s[i]] |= c
		}
	}
	for b := 'a'; b <= 'z'; b++ {
		t[b] |= Alpha
		t[b-'a'+'A'] |= Alpha
	}
	for b := '0'; b <= '9'; b++ {
		t[b] |= Digit | Hex
	}
	set(Hex, "abcdefABCDEF")
	const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	set(Unreserved, alnum+"-._~")
	set(SubDelim, "!$&'()*+,;=")
	set(GenDelim, ":/?#[]@")
	set(Scheme, alnum+"+-.")
	set(PChar, alnum+"-._~"+"!$&'()*+,;="+":@")
	set(PathChar, alnum+"-._~"+"!$&'()*+,;="+":@"+"/")
	set(QueryFrag, alnum+"-._~"+"!$&'()*+,;="+":@"+"/?")
	set(UserInfo, alnum+"-._~"+"!$&'()*+,;="+":")
	set(RegName, alnum+"-._~"+"!$&'()*+,;=")
	set(FutureTail, alnum+"-._~"+"!$&'()*+,;="+":")

	const mark = "-_.!~*'()"
	set(Unreserved2396, alnum+mark)
	set(Reserved2396, ";/?:@&=+$,")
	set(Uric2396, alnum+mark+";/?:@&=+$,")
	set(PChar2396, alnum+mark+":@&=+$,")
	set(URNNSS2141, alnum+"()+,-.:=@;$_!*'"+"/")
	return t
}()

// Is reports whether b belongs to any class in c.
func Is(b byte, c Class) bool { return table[b]&c != 0 }

// Unhex returns the value of the hexadecimal digit b, or -1.
func Unhex(b byte) int {
	switch {
	case '0' <= b && b <= '9':
		return int(b - '0')
	case 'a' <= b && b <= 'f':
		return int(b - 'a' + 10)
	case 'A' <= b && b <= 'F':
		return int(b - 'A' + 10)
	}
	return -1
}

// UpperHex is the digit set used when writing percent-encoded octets:
// RFC 3986 2.1 says producers should use uppercase hexadecimal digits.
const UpperHex = "0123456789ABCDEF"

// IsHTTP reports whether s is the scheme "http" or "https" in any case,
// the schemes of most URLs, which packages uri and scheme find without
// a map. (Each byte compared is a letter, so setting its 0x20 bit
// lowercases it and no other byte gives the same.)
func IsHTTP(s string) bool {
	return (len(s) == 4 || len(s) == 5 && s[4]|0x20 == 's') &&
		s[0]|0x20 == 'h' && s[1]|0x20 == 't' && s[2]|0x20 == 't' && s[3]|0x20 == 'p'
}

// Lower returns the ASCII lowercase of b.
func Lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// Upper returns the ASCII uppercase of b.
func Upper(b byte) byte {
	if 'a' <= b && b <= 'z' {
		return b - ('a' - 'A')
	}
	return b
}

// PctError reports where s[i:] fails to start a pct-encoded triplet
// ("%" HEXDIG HEXDIG): the offset of the first offending byte, which is
// len(s) when the input ends inside the triplet. It returns -1 when s[i:]
// starts with a valid triplet. s[i] must be '%'.
func PctError(s string, i int) int {
	if i+1 >= len(s) {
		return len(s)
	}
	if Unhex(s[i+1]) < 0 {
		return i + 1
	}
	if i+2 >= len(s) {
		return len(s)
	}
	if Unhex(s[i+2]) < 0 {
		return i + 2
	}
	return -1
}
