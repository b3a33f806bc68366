package urn

import (
	"errors"
	"fmt"
	"math"

	"github.com/urikit/urikit/internal/chars"
	"github.com/urikit/urikit/internal/urnerr"
	"github.com/urikit/urikit/uri"
)

// Component names the part of a URN (or of a URI) an error is about.
// The zero value, ComponentNone, is no part. It is uri.Component.
type Component = uri.Component

// The parts of a URN, in the order they appear.
const (
	ComponentNone   = uri.ComponentNone
	ComponentScheme = uri.ComponentScheme
	ComponentNID    = uri.ComponentNID
	ComponentNSS    = uri.ComponentNSS
	ComponentR      = uri.ComponentR
	ComponentQ      = uri.ComponentQ
	ComponentF      = uri.ComponentF
)

// Reasons a string fails to parse as a URN. A *ParseError wraps one of
// them, so callers can branch with errors.Is(err, urn.ErrInvalidNID).
// Those of the generic syntax are package uri's values under the same
// names: errors.Is(err, uri.ErrInvalidPercent) holds for a URN error
// too, and a caller that handles *uri.ParseError handles URN errors.
// Those of the URN syntax (the NID's rules, NUL, empty components,
// directives) are this package's alone.
var (
	ErrNotURN           = urnerr.NotURN
	ErrInvalidNID       = urnerr.InvalidNID
	ErrNIDTooShort      = urnerr.NIDTooShort
	ErrNIDTooLong       = urnerr.NIDTooLong
	ErrNIDHyphen        = urnerr.NIDHyphen
	ErrReservedNID      = urnerr.ReservedNID
	ErrInvalidCharacter = uri.ErrInvalidCharacter
	ErrInvalidPercent   = uri.ErrInvalidPercent
	ErrNUL              = urnerr.NUL
	ErrEmptyComponent   = urnerr.EmptyComponent
	ErrInvalidDirective = urnerr.InvalidDirective
	ErrUnexpectedEnd    = uri.ErrUnexpectedEnd
	ErrTooLong          = uri.ErrTooLong
)

// ParseError reports why and where a string is not a URN: the Input,
// the Offset of the first offending byte, the Component and the Reason.
// It is uri.ParseError, the one parse error type of the module.
//
// Offset is the length of the longest prefix of Input that can still
// begin a valid URN in the dialect parsed: the offset of the first byte
// that no valid URN could have there, or len(Input) when the input ends
// too early. So "urn:a:b" fails at 5 in RFC8141 (a one-character NID can
// not be followed by ":") and "urn:ab" at 6. Error gives a message such
// as `urn: invalid character '/' at offset 8 in NSS of "urn:foo:/x"`.
type ParseError = uri.ParseError

func fail(s string, off int, c Component, reason error) error {
	return uri.NewParseError(s, off, c, reason)
}

// Options are the settings of ParseWith. The zero value is RFC 8141,
// what Parse uses.
type Options struct {
	// Dialect is the URN grammar to follow.
	Dialect Dialect
}

// ErrInvalidOptions is the reason ParseWith fails on an unknown Dialect.
var ErrInvalidOptions = errors.New("urn: invalid options")

// Parse parses s as a URN in the syntax of RFC 8141 section 2:
//
//	namestring    = assigned-name [ rq-components ] [ "#" f-component ]
//	assigned-name = "urn" ":" NID ":" NSS
//	rq-components = [ "?+" r-component ] [ "?=" q-component ]
//
// The scheme and NID are case-insensitive. On success u.String() == s.
// Parse allocates nothing unless it fails, and runs in time linear in
// len(s).
func Parse(s string) (URN, error) { return parse(s, RFC8141) }

// ParseWith parses s with the grammar and settings o selects. It fails
// with ErrInvalidOptions on an unknown dialect.
func ParseWith(s string, o Options) (URN, error) {
	if !o.Dialect.valid() {
		return URN{}, fmt.Errorf("%w: unknown dialect %d", ErrInvalidOptions, o.Dialect)
	}
	return parse(s, o.Dialect)
}

func parse(s string, d Dialect) (URN, error) {
	if len(s) > math.MaxInt32 {
		return URN{}, fail(s, 0, ComponentNone, ErrTooLong)
	}
	// "urn" ":" with the scheme case-insensitive (RFC 3986 3.1); the
	// loop below finds the offset of what is wrong.
	if len(s) < 4 || s[0]|0x20 != 'u' || s[1]|0x20 != 'r' || s[2]|0x20 != 'n' || s[3] != ':' {
		return URN{}, failScheme(s)
	}
	i, err := parseNID(s, d)
	if err != nil {
		return URN{}, err
	}
	if (d == RFC8141 || d == Draft2015) && i+1 < len(s) && s[i+1] != '/' {
		// The common case: an NSS of pchar and "/" (not first) to the
		// end (RFC 8141 section 2). The result is built from registers:
		// writing it field by field into memory and copying it out cost
		// a quarter of the time (a stalled store forward, issue 18).
		if j := scanNSS(s, i+1); j == len(s) {
			return URN{s: s, nidEnd: int32(i), nssEnd: int32(j), dialect: d}, nil
		}
	}
	return parseAfterNID(s, d, i)
}

// parseAfterNID parses the rest of s, whose NID ends at the ":" at i,
// component by component: every case that the common case of parse
// leaves, and where each error is found.
func parseAfterNID(s string, d Dialect, i int) (URN, error) {
	u := URN{s: s, nidEnd: int32(i), dialect: d}
	i, err := u.parseNSS(i+1, d)
	if err != nil {
		return URN{}, err
	}
	u.nssEnd = int32(i)
	if i == len(s) {
		return u, nil // no components (an NSS with "%" triplets, RFC 2141, ...)
	}
	switch d {
	case RFC8141:
		err = u.parseComponents8141(i)
	case Draft2015:
		err = u.parseComponents2015(i)
	case Draft2012:
		err = u.parseComponents2012(i)
	default: // RFC2141 has no components; parseNSS ended at the end
	}
	if err != nil {
		return URN{}, err
	}
	return u, nil
}

// failScheme returns the error of an input that does not start with
// "urn:".
func failScheme(s string) error {
	for i := 0; i < 3; i++ {
		if i >= len(s) {
			return fail(s, i, ComponentScheme, ErrUnexpectedEnd)
		}
		if chars.Lower(s[i]) != "urn"[i] {
			return fail(s, i, ComponentScheme, ErrNotURN)
		}
	}
	if len(s) == 3 {
		return fail(s, 3, ComponentScheme, ErrUnexpectedEnd)
	}
	return fail(s, 3, ComponentScheme, ErrNotURN)
}

// MustParse is like Parse but panics on error. It is for URNs written in
// programs, such as package-level variables.
func MustParse(s string) URN {
	u, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

const alnum = chars.Alpha | chars.Digit

// ldh and nssPlain are the byte sets of the tight loops of parseNID
// (letters, digits, "-") and parseNSS (pchar and "/" of RFC 8141 and
// the 2015 draft), as plain tables: one load per byte.
var ldh, nssPlain = func() (l, n [256]bool) {
	for c := 0; c < 256; c++ {
		l[c] = chars.Is(byte(c), alnum) || c == '-'
		n[c] = chars.Is(byte(c), chars.PChar) || c == '/'
	}
	return l, n
}()

// nssStop is nssPlain inverted, as bytes: 1 for a byte that ends a run
// of plain NSS bytes. scanNSS ORs eight of them with one branch.
var nssStop = func() (t [256]uint8) {
	for c := range t {
		if !nssPlain[c] {
			t[c] = 1
		}
	}
	return t
}()

// scanNSS returns the offset of the first byte at or after i that is not
// a pchar or "/" (or len(s)): the loop where a URN parse spends most of
// its time, eight bytes at a time, then one at a time.
func scanNSS(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		t := s[i : i+8]
		if nssStop[t[0]]|nssStop[t[1]]|nssStop[t[2]]|nssStop[t[3]]|
			nssStop[t[4]]|nssStop[t[5]]|nssStop[t[6]]|nssStop[t[7]] != 0 {
			break
		}
	}
	for i < len(s) && nssPlain[s[i]] {
		i++
	}
	return i
}

// parseNID scans the NID that starts at offset 4 and returns the offset of
// the ":" that ends it.
//
// RFC 8141 section 2, the 2015 draft section 3 and the 2012 draft section
// 2.1 all say
//
//	NID = (alphanum) 0*30(ldh) (alphanum)
//
// The 2012 draft's Appendix B instead writes
// ( ALPHA / DIGIT ) 1*31( ALPHA / DIGIT / "-" ), which allows a trailing
// hyphen; the appendix calls itself informative and defers to the
// sections, and the draft's change log (D.6) says the new rule "prohibits
// a trailing hyphen", so section 2.1 is followed here.
//
// RFC 2141 section 2 says
//
//	<NID> ::= <let-num> [ 1,31<let-num-hyp> ]
//
// (1 to 32 characters, a trailing hyphen allowed). RFC 2141 section 2.1
// and the 2012 draft section 2.1 reserve the NID "urn".
func parseNID(s string, d Dialect) (int, error) {
	const start = 4
	i := start
	if i >= len(s) {
		return 0, fail(s, i, ComponentNID, ErrUnexpectedEnd)
	}
	if !chars.Is(s[i], alnum) {
		return 0, fail(s, i, ComponentNID, ErrInvalidNID)
	}
	i++
	// The common case in one tight loop: letters, digits and hyphens up
	// to the ":", within 32 characters; the checks below find the
	// offset of what is wrong otherwise.
	if end := min(len(s), start+33); true {
		j := i
		for j < end && ldh[s[j]] {
			j++
		}
		if j < end && s[j] == ':' && j-start <= 32 && (j-start < 32 || s[j-1] != '-') {
			i = j
		}
	}
	for ; i < len(s); i++ {
		c := s[i]
		n := i - start // characters before c
		if c == ':' {
			break
		}
		if !chars.Is(c, alnum) && c != '-' {
			return 0, fail(s, i, ComponentNID, ErrInvalidNID)
		}
		if n == 32 {
			return 0, fail(s, i, ComponentNID, ErrNIDTooLong)
		}
		if n == 31 && c == '-' && d != RFC2141 {
			// The 32nd character would have to be the last and so
			// alphanumeric.
			return 0, fail(s, i, ComponentNID, ErrNIDHyphen)
		}
	}
	if i >= len(s) {
		return 0, fail(s, i, ComponentNID, ErrUnexpectedEnd)
	}
	n := i - start
	if d != RFC2141 {
		if n < 2 {
			return 0, fail(s, i, ComponentNID, ErrNIDTooShort)
		}
		if s[i-1] == '-' {
			return 0, fail(s, i, ComponentNID, ErrNIDHyphen)
		}
	}
	if (d == Draft2012 || d == RFC2141) && n == 3 &&
		chars.Lower(s[4]) == 'u' && chars.Lower(s[5]) == 'r' && chars.Lower(s[6]) == 'n' {
		return 0, fail(s, i, ComponentNID, ErrReservedNID)
	}
	return i, nil
}

// pct checks the pct-encoded triplet at s[i] (s[i] == '%') and returns
// the offset after it.
//
//	pct-encoded = "%" HEXDIG HEXDIG
//
// A "%00" sets the NUL warning, or fails in Draft2012 (2012 draft section
// 2.5.3: "It MUST NOT be used in URNs, in either unencoded or
// percent-encoded form"). Since "%0" may still become "%01", the offset of
// that failure is the second "0".
func (u *URN) pct(i int, c Component) (int, error) {
	s := u.s
	if off := chars.PctError(s, i); off >= 0 {
		return 0, fail(s, off, c, ErrInvalidPercent)
	}
	if s[i+1] == '0' && s[i+2] == '0' {
		if u.dialect == Draft2012 {
			return 0, fail(s, i+2, c, ErrNUL)
		}
		u.flags |= hasNUL
	}
	return i + 3, nil
}

// parseNSS scans the NSS from offset i and returns the offset after it:
// the first "?" or "#", or the end of s.
//
//	NSS = pchar *(pchar / "/")          ; RFC 8141 section 2, 2015 draft section 3
//	NSS = 1*pchar                       ; 2012 draft section 2.2
//	<NSS> ::= 1*<URN chars>             ; RFC 2141 section 2.2
//	<URN chars> ::= <trans> | "%" <hex> <hex>
//
// RFC 2141's <trans> includes <reserved> = "%" / "/" / "?" / "#"; the 2012
// draft's Appendix C explains why "%" outside a triplet was an ambiguity
// and is dropped. "/" is kept (RFC 2141 section 2.3.2 only asks namespaces
// not to use it), and "?" and "#", the delimiters of the query and
// fragment that RFC 2141 URNs do not have, are rejected.
func (u *URN) parseNSS(i int, d Dialect) (int, error) {
	s := u.s
	start := i
	class := chars.PChar
	if d == RFC2141 {
		class = chars.URNNSS2141
	}
	if (d == RFC8141 || d == Draft2015) && i < len(s) && s[i] != '/' {
		// The common case in one tight loop: a run of pchar and "/"
		// (not first), ended by "?", "#", the end, or a "%" triplet.
		for {
			i = scanNSS(s, i)
			if i >= len(s) || s[i] != '%' {
				break
			}
			var err error
			if i, err = u.pct(i, ComponentNSS); err != nil {
				return 0, err
			}
		}
		if i == len(s) && i > start {
			return i, nil
		}
		if i > start && (s[i] == '?' || s[i] == '#') {
			return i, nil
		}
	}
	for i < len(s) {
		c := s[i]
		switch {
		case chars.Is(c, class):
			i++
		case c == '%':
			var err error
			if i, err = u.pct(i, ComponentNSS); err != nil {
				return 0, err
			}
		case c == '/' && i > start && (d == RFC8141 || d == Draft2015):
			i++
		case (c == '?' || c == '#') && i > start && d != RFC2141:
			return i, nil
		default:
			return 0, fail(s, i, ComponentNSS, ErrInvalidCharacter)
		}
	}
	if i == start {
		return 0, fail(s, i, ComponentNSS, ErrUnexpectedEnd)
	}
	return i, nil
}

// scanComponent scans a component that starts with a pchar and continues
// with pchar / "/" / "?" from offset i, and returns the offset where it
// ends: the end of s, a "#", or (when stop is not 0) the first "?"
// followed by stop.
//
//	r-component = pchar *( pchar / "/" / "?" )
//	q-component = pchar *( pchar / "/" / "?" )
func (u *URN) scanComponent(i int, c Component, stop byte) (int, error) {
	s := u.s
	start := i
	for i < len(s) {
		b := s[i]
		switch {
		case chars.Is(b, chars.PChar):
			i++
		case b == '%':
			var err error
			if i, err = u.pct(i, c); err != nil {
				return 0, err
			}
		case b == '#' && i > start:
			return i, nil
		case b == '?' && stop != 0 && i > start && i+1 < len(s) && s[i+1] == stop:
			// The first "?=" (RFC 8141 2.3.1) or "??" (2015 draft
			// 3.3.1) ends the component, as the prose says: the
			// grammar alone is ambiguous.
			return i, nil
		case (b == '/' || b == '?') && i > start:
			i++
		default:
			return 0, fail(s, i, c, ErrInvalidCharacter)
		}
	}
	if i == start {
		return 0, fail(s, i, c, ErrUnexpectedEnd)
	}
	return i, nil
}

// parseFragment scans "#" f-component from offset i (s[i] == '#') to the
// end of s.
//
//	f-component = fragment
//	fragment    = *( pchar / "/" / "?" )      ; RFC 3986 section 3.5
func (u *URN) parseFragment(i int) error {
	s := u.s
	u.flags |= hasF
	i++
	u.fStart = int32(i)
	for i < len(s) {
		b := s[i]
		switch {
		case chars.Is(b, chars.QueryFrag):
			i++
		case b == '%':
			var err error
			if i, err = u.pct(i, ComponentF); err != nil {
				return err
			}
		default:
			return fail(s, i, ComponentF, ErrInvalidCharacter)
		}
	}
	return nil
}

// parseComponents8141 scans what follows the NSS in RFC 8141 (section 2):
//
//	[ "?+" r-component ] [ "?=" q-component ] [ "#" f-component ]
//
// Section 2.3.1 says the r-component is terminated by "?=" or "#", so the
// first "?=" after "?+" starts the q-component; "?" may otherwise appear
// inside both components. A "?" after the NSS not followed by "+" or "="
// is a syntax error (section 2).
func (u *URN) parseComponents8141(i int) error {
	s := u.s
	var err error
	if i+1 < len(s) && s[i] == '?' && s[i+1] == '+' {
		u.flags |= hasR
		u.rStart = int32(i + 2)
		if i, err = u.scanComponent(i+2, ComponentR, '='); err != nil {
			return err
		}
		u.rEnd = int32(i)
	}
	if i < len(s) && s[i] == '?' {
		if i+1 >= len(s) {
			return fail(s, i+1, ComponentQ, ErrUnexpectedEnd)
		}
		if s[i+1] != '=' {
			// Only reachable without an r-component: "?" must be
			// followed by "+" or "=".
			return fail(s, i+1, ComponentQ, ErrInvalidCharacter)
		}
		u.flags |= hasQ
		u.qStart = int32(i + 2)
		if i, err = u.scanComponent(i+2, ComponentQ, 0); err != nil {
			return err
		}
		u.qEnd = int32(i)
	}
	if i < len(s) {
		return u.parseFragment(i)
	}
	return nil
}

// parseComponents2015 scans what follows the NSS in the 2015 draft
// (section 3):
//
//	[ "?" q-component ] [ "??" r-component ] [ "#" f-component ]
//
// Section 3.3.1 says the q-component is terminated by "??", so the first
// "??" after the q-component's first character starts the r-component;
// "a?q???r" is therefore invalid (the r-component "?r" does not start with
// a pchar).
func (u *URN) parseComponents2015(i int) error {
	s := u.s
	var err error
	if i < len(s) && s[i] == '?' && !(i+1 < len(s) && s[i+1] == '?') {
		u.flags |= hasQ
		u.qStart = int32(i + 1)
		if i, err = u.scanComponent(i+1, ComponentQ, '?'); err != nil {
			return err
		}
		u.qEnd = int32(i)
	}
	if i < len(s) && s[i] == '?' {
		// Only "??" can be here: a q-component ends at "??" or "#".
		u.flags |= hasR
		u.rStart = int32(i + 2)
		if i, err = u.scanComponent(i+2, ComponentR, 0); err != nil {
			return err
		}
		u.rEnd = int32(i)
	}
	if i < len(s) {
		return u.parseFragment(i)
	}
	return nil
}

// parseComponents2012 scans what follows the NSS in the 2012 draft
// (section 2 and 2.3):
//
//	[ "?" urn-query ] [ "#" fragment ]
//	urn-query = directive *( "&" directive )
//	directive = keywd "=" value
//	keywd     = ALPHA *( ["-"] (ALPHA / DIGIT) )
//	value     = *v-pchar
//	v-pchar   = unreserved / pct-encoded / v-subdels
//	v-subdels = "!" / "$" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
//	          / ":" / "@" / "/" / "?"
func (u *URN) parseComponents2012(i int) error {
	s := u.s
	if i < len(s) && s[i] == '?' {
		u.flags |= hasQ
		i++
		u.qStart = int32(i)
		for {
			// keywd
			if i >= len(s) {
				return fail(s, i, ComponentQ, ErrUnexpectedEnd)
			}
			if !chars.Is(s[i], chars.Alpha) {
				return fail(s, i, ComponentQ, ErrInvalidDirective)
			}
			i++
			for i < len(s) && s[i] != '=' {
				if s[i] == '-' {
					i++
					if i >= len(s) {
						return fail(s, i, ComponentQ, ErrUnexpectedEnd)
					}
				}
				if !chars.Is(s[i], alnum) {
					return fail(s, i, ComponentQ, ErrInvalidDirective)
				}
				i++
			}
			if i >= len(s) {
				return fail(s, i, ComponentQ, ErrUnexpectedEnd)
			}
			i++ // "="
			// value
			for i < len(s) && s[i] != '&' && s[i] != '#' {
				c := s[i]
				switch {
				case c == '%':
					var err error
					if i, err = u.pct(i, ComponentQ); err != nil {
						return err
					}
				case chars.Is(c, chars.QueryFrag):
					i++
				default:
					return fail(s, i, ComponentQ, ErrInvalidCharacter)
				}
			}
			if i < len(s) && s[i] == '&' {
				i++
				continue
			}
			break
		}
		u.qEnd = int32(i)
	}
	if i < len(s) {
		return u.parseFragment(i)
	}
	return nil
}
