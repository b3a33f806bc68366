package urn

import "github.com/urikit/urikit/internal/chars"

// URN is a parsed URN: the input string plus the offsets of its parts. It
// is a small immutable value, comparable with ==, and copying it copies no
// bytes. Accessors slice the original string.
//
// The zero URN is not a valid URN: IsZero reports true, String returns ""
// and every accessor returns the empty string and false.
type URN struct {
	s       string
	nidEnd  int32 // s[4:nidEnd] is the NID; s[nidEnd] is ':'
	nssEnd  int32 // s[nidEnd+1:nssEnd] is the NSS
	rStart  int32 // r-component s[rStart:rEnd] when flags&hasR
	rEnd    int32
	qStart  int32 // q-component (the query in Draft2012) s[qStart:qEnd] when flags&hasQ
	qEnd    int32
	fStart  int32 // f-component s[fStart:] when flags&hasF
	flags   uint8
	dialect Dialect
}

const (
	hasR uint8 = 1 << iota
	hasQ
	hasF
	hasNUL // a "%00" somewhere (a warning; an error in Draft2012)
)

// IsZero reports whether u is the zero URN, the result of a failed parse.
func (u URN) IsZero() bool { return u.s == "" }

// String returns the URN exactly as it was parsed.
func (u URN) String() string { return u.s }

// Dialect returns the grammar u was parsed with.
func (u URN) Dialect() Dialect { return u.dialect }

// Scheme returns the scheme as written: "urn" in any case.
func (u URN) Scheme() string {
	if u.s == "" {
		return ""
	}
	return u.s[:3]
}

// NID returns the namespace identifier as written (NIDs compare
// case-insensitively; see Key).
func (u URN) NID() string {
	if u.s == "" {
		return ""
	}
	return u.s[4:u.nidEnd]
}

// NSS returns the namespace specific string as written, percent-encoding
// included.
func (u URN) NSS() string {
	if u.s == "" {
		return ""
	}
	return u.s[u.nidEnd+1 : u.nssEnd]
}

// AssignedName returns "urn:" NID ":" NSS as written, without the
// optional components (RFC 8141 section 2, assigned-name).
func (u URN) AssignedName() string { return u.s[:u.nssEnd] }

// DecodedNSS returns the NSS with its percent-encoded octets decoded. The
// result may hold any octet, including bytes that are not UTF-8; for a
// form meant for people, see Display.
func (u URN) DecodedNSS() string { return unescape(u.NSS()) }

// RComponent returns the r-component without its "?+" ("??" in
// Draft2015) and whether the URN has one.
func (u URN) RComponent() (string, bool) {
	if u.flags&hasR == 0 {
		return "", false
	}
	return u.s[u.rStart:u.rEnd], true
}

// QComponent returns the q-component without its "?=" ("?" in Draft2015
// and Draft2012, where it is the query) and whether the URN has one.
func (u URN) QComponent() (string, bool) {
	if u.flags&hasQ == 0 {
		return "", false
	}
	return u.s[u.qStart:u.qEnd], true
}

// FComponent returns the f-component (the fragment) without its "#" and
// whether the URN has one. A present but empty f-component returns
// "", true.
func (u URN) FComponent() (string, bool) {
	if u.flags&hasF == 0 {
		return "", false
	}
	return u.s[u.fStart:], true
}

// HasNUL reports whether u holds a percent-encoded NUL octet ("%00").
// RFC 2141 section 2.4 says it should never be used and the 2012 draft
// (section 2.5.3) forbids it, so Draft2012 rejects it; the other dialects
// accept it and report it here as a warning.
func (u URN) HasNUL() bool { return u.flags&hasNUL != 0 }

// Warnings returns the problems that do not make u invalid in its dialect
// but that a careful producer avoids; nil when there are none.
func (u URN) Warnings() []string {
	var w []string
	if u.HasNUL() {
		w = append(w, "percent-encoded NUL octet (%00): RFC 2141 section 2.4 says never to use it")
	}
	if c := ClassifyNID(u.NID()); !c.Class.Valid() {
		w = append(w, "NID "+c.String())
	}
	return w
}

// unescape decodes every pct-encoded triplet of s, which must be valid.
func unescape(s string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			n++
		}
	}
	if n == 0 {
		return s
	}
	b := make([]byte, 0, len(s)-2*n)
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			b = append(b, byte(chars.Unhex(s[i+1])<<4|chars.Unhex(s[i+2])))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}
