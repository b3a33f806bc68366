package iri

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/urikit/urikit/internal/chars"

	"github.com/urikit/urikit/uri"
)

// Reasons of the errors of this package, wrapped in *uri.ParseError.
var (
	ErrInvalidUTF8    = errors.New("invalid UTF-8")
	ErrNotUcschar     = errors.New("character not allowed in an IRI (RFC 3987 2.2 ucschar)")
	ErrPrivateUse     = errors.New("private-use character outside the query (RFC 3987 2.2 iprivate)")
	ErrHostConversion = errors.New("host cannot be converted to an A-label (UTS #46 ToASCII)")
)

// isUcschar reports whether r is in RFC 3987's ucschar.
//
//	ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF
//	        / %x10000-1FFFD / %x20000-2FFFD / ... / %xD0000-DFFFD
//	        / %xE1000-EFFFD
func isUcschar(r rune) bool {
	switch {
	case r < 0xA0:
		return false
	case r <= 0xD7FF:
		return true
	case r < 0xF900:
		return false
	case r <= 0xFDCF:
		return true
	case r < 0xFDF0:
		return false
	case r <= 0xFFEF:
		return true
	case r < 0x10000 || r > 0xEFFFD:
		return false
	case r&0xFFFF > 0xFFFD:
		return false // the noncharacters at the end of each plane
	case r >= 0xE0000:
		return r >= 0xE1000
	}
	return true
}

// isIprivate reports whether r is in iprivate = %xE000-F8FF /
// %xF0000-FFFFD / %x100000-10FFFD.
func isIprivate(r rune) bool {
	return 0xE000 <= r && r <= 0xF8FF || 0xF0000 <= r && r <= 0xFFFFD || 0x100000 <= r && r <= 0x10FFFD
}

// skeleton returns s with every non-ASCII byte replaced by "a": the
// same length, the same component boundaries, and a string the URI
// grammar can check (ucschar sits where unreserved characters may).
func skeleton(s string) string {
	var b strings.Builder // one copy, none for ASCII
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			if b.Cap() == 0 {
				b.Grow(len(s))
			}
			b.WriteString(s[start:i])
			b.WriteByte('a')
			start = i + 1
		}
	}
	if b.Cap() == 0 {
		return s
	}
	b.WriteString(s[start:])
	return b.String()
}

// Parse checks s against the IRI grammar of RFC 3987 (IRI-reference) and
// returns the URI reference it maps to: it is ToURI, under the name a
// reader of package uri looks for.
func Parse(s string) (uri.URI, error) { return ToURI(s) }

// parts checks s as an IRI reference and returns its skeleton parse.
func parts(s string) (uri.URI, error) {
	sk, err := uri.Parse(skeleton(s))
	if err != nil {
		var pe *uri.ParseError
		if errors.As(err, &pe) {
			pe.Input = s
		}
		return uri.URI{}, err
	}
	qs, qe := queryRange(sk)
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return uri.URI{}, &uri.ParseError{Input: s, Offset: i, Component: componentAt(sk, i), Reason: ErrInvalidUTF8}
		case isUcschar(r):
		case isIprivate(r):
			if i < qs || i >= qe {
				return uri.URI{}, &uri.ParseError{Input: s, Offset: i, Component: componentAt(sk, i), Reason: ErrPrivateUse}
			}
		default:
			return uri.URI{}, &uri.ParseError{Input: s, Offset: i, Component: componentAt(sk, i), Reason: ErrNotUcschar}
		}
		i += n
	}
	return sk, nil
}

// queryRange returns the offsets of u's query, or an empty range.
func queryRange(u uri.URI) (int, int) {
	if !u.HasQuery() {
		return 0, 0
	}
	end := len(u.String())
	if u.HasFragment() {
		end -= len(u.Fragment()) + 1
	}
	return end - len(u.Query()), end
}

// hostRange returns the offsets of u's host, or an empty range.
func hostRange(u uri.URI) (int, int) {
	if !u.HasAuthority() {
		return 0, 0
	}
	start := len(u.Scheme())
	if u.HasScheme() {
		start++
	}
	start += 2
	if u.HasUserinfo() {
		start += len(u.Userinfo()) + 1
	}
	return start, start + len(u.Host())
}

func componentAt(u uri.URI, i int) uri.Component {
	if hs, he := hostRange(u); i >= hs && i < he {
		return uri.ComponentHost
	}
	if qs, qe := queryRange(u); i >= qs && i < qe {
		return uri.ComponentQuery
	}
	if u.HasFragment() && i > len(u.String())-len(u.Fragment())-1 {
		return uri.ComponentFragment
	}
	return uri.ComponentPath
}

// dnsHost reports whether the host of u names a host in the DNS, so that
// a non-ASCII name goes through IDNA: a registered name of a scheme
// with a default port (a network protocol), or of a relative reference.
func dnsHost(u uri.URI) bool {
	if u.HostKind() != uri.RegName {
		return false
	}
	if !u.HasScheme() {
		return true
	}
	_, ok := uri.DefaultPort(u.Scheme())
	return ok
}

// ToURI maps the IRI reference s to a URI reference (RFC 3987 3.1),
// parsed, as every function of the module that makes a URI returns it;
// String gives its text. A URI reference is returned as it is.
func ToURI(s string) (uri.URI, error) {
	if isASCII(s) {
		return uri.Parse(s)
	}
	sk, err := parts(s)
	if err != nil {
		return uri.URI{}, err
	}
	// The host's A-label form first, then the output at its exact size.
	hs, he := hostRange(sk)
	host, convert := "", he > hs && dnsHost(sk) && !isASCII(s[hs:he])
	if convert {
		if host, err = toASCIIHost(s[hs:he]); err != nil {
			return uri.URI{}, hostError(s, hs, err)
		}
	}
	size := len(s)
	for i := 0; i < len(s); i++ {
		if convert && i == hs {
			size += len(host) - (he - hs)
			i = he - 1
		} else if s[i] >= utf8.RuneSelf {
			size += 2
		}
	}
	var b strings.Builder
	b.Grow(size)
	for i := 0; i < len(s); i++ {
		if convert && i == hs {
			b.WriteString(host)
			i = he - 1
			continue
		}
		writeByte(&b, s[i])
	}
	return uri.Parse(b.String())
}

// hostError is the error of a host at offset off of s that cannot be
// converted: ErrHostConversion, with the cause after a colon.
func hostError(s string, off int, cause error) error {
	return &uri.ParseError{Input: s, Offset: off, Component: uri.ComponentHost, Reason: fmt.Errorf("%w: %v", ErrHostConversion, cause)}
}

// errHostTooLong is the cause of ErrHostConversion for a host longer
// than maxIDNHost.
var errHostTooLong = errors.New("host too long for the DNS")

// toASCIIHost converts a host with non-ASCII characters (and maybe
// percent-encoded UTF-8) to its A-label form; a host longer than
// maxIDNHost bytes fails (no DNS name is that long).
func toASCIIHost(h string) (string, error) {
	if strings.IndexByte(h, '%') >= 0 {
		d, err := uri.Unescape(h)
		if err != nil {
			return "", err
		}
		h = d
	}
	if len(h) > maxIDNHost {
		return "", errHostTooLong
	}
	return toASCII(h)
}

func writeByte(b *strings.Builder, c byte) {
	const hex = "0123456789ABCDEF"
	if c < utf8.RuneSelf {
		b.WriteByte(c)
		return
	}
	b.WriteByte('%')
	b.WriteByte(hex[c>>4])
	b.WriteByte(hex[c&15])
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// ToIRI maps the URI reference s to an IRI for display (RFC 3987 3.2):
//
//   - escapes of unreserved characters (RFC 3986 2.3) are decoded, as
//     step 2 asks ("%7E" shows "~"), except "%2E" in the path and the
//     host, where a "." would make a dot segment or a new label;
//   - in a path, a query and a fragment, percent-encoded UTF-8 is
//     decoded unless the character hides or passes for another (step
//     4, sections 2.2, 4.1 and 6.1; Chromium's display unescaping is
//     the model): symbols, emoji and the letters of every script show
//     ("♥", "✓", "𐌀");
//   - in a host, a userinfo and the domains of a mailto address (RFC
//     6068 2, where "the considerations for <reg-name>" apply), a label
//     is shown decoded only when UTS #39 finds no spoof in it (see
//     below); in a host whose scheme names hosts in the DNS (as for
//     ToURI), an A-label ("xn--...") is shown in Unicode (UTS #46
//     ToUnicode) under the same rules, when ToURI maps it back to the
//     same A-label.
//
// What stays encoded everywhere: escapes of reserved and other ASCII
// characters, invalid UTF-8, and the characters that hide or pass for
// others: the default-ignorable code points (U+200B ZERO WIDTH SPACE,
// the joiners, the variation selectors), the bidirectional formatting
// characters of RFC 3987 4.1, white space and U+2800 BRAILLE PATTERN
// BLANK, controls, private-use and unassigned characters, the lock
// emoji (they pass for the browser's padlock), compatibility characters
// (full-width Latin, half-width Katakana: 6.1 b), the symbols that UTS
// #39 confuses with a space or a delimiter (U+2215 DIVISION SLASH), and
// a combining mark that does not follow a decoded character.
//
// What stays encoded in a host label (safeLabel): any character that
// UTS #39 3.1 does not allow in identifiers (Identifier_Status), an
// overlay mark (U+0338), a mix of scripts beyond what UTS #39 5.2 calls
// Highly Restrictive (a Cyrillic letter among Latin ones), a label that
// is a whole-script confusable with Latin (UTS #39 4: "аррӏе", all
// Cyrillic, reads "apple") or whose skeleton reads as an ASCII label,
// mixed decimal systems, and the contextual characters of RFC 5892
// Appendix A out of their context ("・" alone).
//
// So ToURI(ToIRI(s)) is equivalent to s for every URI reference s: the
// same after percent-encoding normalization (RFC 3986 6.2.2.2), with an
// IDN label and its A-label equivalent (RFC 3987 5.3.3) only when
// ToUnicode of the A-label is exactly the decoded label.
func ToIRI(s string) (string, error) {
	u, err := uri.Parse(s)
	if err != nil {
		return "", err
	}
	hs, he := hostRange(u)
	mode := hostPlain
	if dnsHost(u) {
		mode = hostDNS
	}
	mailto := strings.EqualFold(u.Scheme(), "mailto")
	if strings.IndexByte(s, '%') < 0 && !(mode == hostDNS && hasACE(s[hs:he])) {
		return s, nil
	}
	pe := len(s)
	if u.HasFragment() {
		pe -= len(u.Fragment()) + 1
	}
	qe := pe
	if u.HasQuery() {
		pe -= len(u.Query()) + 1
	}
	ps := pe - len(u.Path())
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	if u.HasUserinfo() {
		us := hs - len(u.Userinfo()) - 1
		writeDisplay(&b, s[:us], false)
		writeAuthorityText(&b, s[us:hs-1])
		at = hs - 1
	}
	if u.HostKind() == uri.RegName {
		writeDisplay(&b, s[at:hs], false)
		b.WriteString(displayHost(s[hs:he], mode))
		at = he
	}
	writeDisplay(&b, s[at:ps], false)
	if mailto {
		// RFC 6068 2: the path is a list of addresses, and the query's
		// "to", "cc" and "bcc" fields too; their domains are hosts.
		writeMailAddrs(&b, s[ps:pe])
		if u.HasQuery() {
			b.WriteByte('?')
			writeMailQuery(&b, s[pe+1:qe])
		}
		writeDisplay(&b, s[qe:], false)
		return b.String(), nil
	}
	writeDisplay(&b, s[ps:pe], true)
	writeDisplay(&b, s[pe:], false)
	return b.String(), nil
}

// writeDisplay writes s, a part of a valid URI reference, with the
// escapes that ToIRI decodes decoded; path tells that s is a path,
// where "%2E" stays.
func writeDisplay(b *strings.Builder, s string, path bool) {
	after := false // the previous character was decoded from UTF-8
	for i := 0; i < len(s); {
		if s[i] != '%' {
			b.WriteByte(s[i])
			after = false
			i++
			continue
		}
		c := unhex(s[i+1])<<4 | unhex(s[i+2])
		if c < utf8.RuneSelf {
			if isUnreserved(c) && !(path && c == '.') {
				b.WriteByte(c)
			} else {
				b.WriteString(s[i : i+3])
			}
			after = false
			i += 3
			continue
		}
		// Gather the octets of a run of triplets that starts a UTF-8
		// sequence, and decode one character.
		n := utf8SeqLen(c)
		var buf [4]byte
		ok := n >= 2 && i+3*n <= len(s)
		for k := 0; ok && k < n; k++ {
			j := i + 3*k
			if s[j] != '%' {
				ok = false
				break
			}
			buf[k] = unhex(s[j+1])<<4 | unhex(s[j+2])
		}
		if ok {
			r, size := utf8.DecodeRune(buf[:n])
			ok = size == n && r != utf8.RuneError && displayable(r, after)
			if ok {
				b.WriteRune(r)
				after = true
				i += 3 * n
				continue
			}
		}
		b.WriteString(s[i : i+3])
		after = false
		i += 3
	}
}

// unhex returns the value of the hexadecimal digit c (0 for a byte
// that is none: callers check first).
func unhex(c byte) byte { return byte(max(chars.Unhex(c), 0)) }

// utf8SeqLen returns the length of the UTF-8 sequence that c starts,
// or 0.
func utf8SeqLen(c byte) int {
	switch {
	case c&0xE0 == 0xC0:
		return 2
	case c&0xF0 == 0xE0:
		return 3
	case c&0xF8 == 0xF0:
		return 4
	}
	return 0
}
