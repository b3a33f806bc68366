package iri

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/urikit/urikit/uri"
	"golang.org/x/net/idna"
	"golang.org/x/text/secure/precis"
)

// What ToIRI may show decoded. RFC 3987 3.2 step 4 re-encodes the
// characters "that are not appropriate according to sections 2.2, 4.1,
// and 6.1"; 6.1 b names the look-alikes (full-width Latin, half-width
// Katakana, look-alikes of space, delims and unwise) without listing
// them, so the tables below come from the Unicode properties and the
// PRECIS derived properties that define such sets, never from a list
// of our own.

// hiddenTables are the code points that show nothing, or change how
// their neighbours show: Default_Ignorable_Code_Point (UAX #44: its
// Other_ part, the format characters Cf and the variation selectors;
// Cf holds the bidi controls of RFC 3987 4.1, the joiners and U+200B
// ZERO WIDTH SPACE), Bidi_Control and Join_Control by name, the white
// space and separators (6.1 b, "look-alikes of space"), and the
// controls, private-use characters (a glyph that depends on the font)
// and surrogates.
var hiddenTables = []*unicode.RangeTable{
	unicode.Other_Default_Ignorable_Code_Point,
	unicode.Cf,
	unicode.Variation_Selector,
	unicode.Bidi_Control,
	unicode.Join_Control,
	unicode.White_Space,
	unicode.Zs, unicode.Zl, unicode.Zp,
	unicode.Cc, unicode.Co, unicode.Cs,
}

// identifierChars is the IdentifierClass of PRECIS (RFC 8264 4.2, the
// table of golang.org/x/text/secure/precis): letters, digits and marks
// that have no compatibility decomposition. It leaves out what UTS #39
// section 3.1 restricts in identifiers and RFC 3987 6.1 b warns about:
// symbols and punctuation (U+3002 IDEOGRAPHIC FULL STOP, U+2215
// DIVISION SLASH, U+2236 RATIO look like ".", "/" and ":"), spaces,
// and every character whose NFKC form differs (full-width Latin,
// half-width Katakana, ligatures, U+2024 ONE DOT LEADER).
var identifierChars = precis.UsernameCasePreserved.Allowed()

// recommendedScripts are the scripts of UTS #31 Table 5 (Recommended
// Scripts), with Common and Inherited: UTS #39 3.1 gives the characters
// of the other scripts (Excluded, Limited Use: Cherokee letters that
// look like Latin ones, for instance) Identifier_Status=Restricted.
var recommendedScripts = []*unicode.RangeTable{
	unicode.Common, unicode.Inherited,
	unicode.Latin, unicode.Greek, unicode.Cyrillic, unicode.Armenian,
	unicode.Hebrew, unicode.Arabic, unicode.Thaana, unicode.Devanagari,
	unicode.Bengali, unicode.Gurmukhi, unicode.Gujarati, unicode.Oriya,
	unicode.Tamil, unicode.Telugu, unicode.Kannada, unicode.Malayalam,
	unicode.Sinhala, unicode.Thai, unicode.Lao, unicode.Tibetan,
	unicode.Myanmar, unicode.Georgian, unicode.Hangul, unicode.Ethiopic,
	unicode.Khmer, unicode.Hiragana, unicode.Katakana, unicode.Bopomofo,
	unicode.Han,
}

// Indexes into recommendedScripts of the scripts that UTS #39 5.2
// ("Highly Restrictive") lets Latin mix with.
const (
	scriptCommon    = 0
	scriptInherited = 1
	scriptLatin     = 2
	scriptHangul    = 24
	scriptHiragana  = 27
	scriptKatakana  = 28
	scriptBopomofo  = 29
	scriptHan       = 30
)

// displayable reports whether ToIRI may show r decoded: r is a ucschar
// (RFC 3987 2.2), shows something, is an identifier character of a
// recommended script, and, when it is a combining mark, follows a
// character decoded with it (afterDecoded): a mark on an ASCII
// character could turn a delimiter into a look-alike ("/" with U+0338
// COMBINING LONG SOLIDUS OVERLAY).
func displayable(r rune, afterDecoded bool) bool {
	if !isUcschar(r) || unicode.In(r, hiddenTables...) || !identifierChars.Contains(r) {
		return false
	}
	if !afterDecoded && unicode.Is(unicode.M, r) {
		return false
	}
	return unicode.In(r, recommendedScripts...)
}

// scriptOf returns the index in recommendedScripts of r's script, or -1.
func scriptOf(r rune) int {
	for i, t := range recommendedScripts {
		if unicode.Is(t, r) {
			return i
		}
	}
	return -1
}

// safeLabel reports whether the host label l (decoded, with its
// non-ASCII characters) may be shown: every non-ASCII character is
// displayable, and its scripts are one of the sets UTS #39 5.2 allows
// at the restriction level "Highly Restrictive": a single script, or
// Latin with Han and Hiragana and Katakana, with Han and Bopomofo, or
// with Han and Hangul. So "pаypal" (a Cyrillic "а" among Latin
// letters) stays in its A-label form.
func safeLabel(l string) bool {
	var scripts uint64
	after := false
	for _, r := range l {
		if r >= utf8.RuneSelf && !displayable(r, after) {
			return false
		}
		after = r >= utf8.RuneSelf
		if r < utf8.RuneSelf && !isLetter(byte(r)) {
			continue
		}
		if sc := scriptOf(r); sc > scriptInherited {
			scripts |= 1 << sc
		}
	}
	const (
		japanese = 1<<scriptLatin | 1<<scriptHan | 1<<scriptHiragana | 1<<scriptKatakana
		chinese  = 1<<scriptLatin | 1<<scriptHan | 1<<scriptBopomofo
		korean   = 1<<scriptLatin | 1<<scriptHan | 1<<scriptHangul
	)
	return scripts&(scripts-1) == 0 || scripts&^japanese == 0 || scripts&^chinese == 0 || scripts&^korean == 0
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isUnreserved reports whether c is in RFC 3986 2.3's unreserved.
func isUnreserved(c byte) bool {
	return isLetter(c) || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// maxIDNHost bounds, in bytes of UTF-8, the hosts that go through
// IDNA. A DNS name is at most 255 octets (RFC 1034 3.1), so no longer
// Unicode name has an A-label form, while IDNA's mapping and Punycode
// cost more than a linear pass (Punycode O(n log n) in a label's code
// points): the bound keeps ToURI, ToIRI and Repair linear on hostile
// input.
const maxIDNHost = 1024

// maxALabel is the longest A-label (RFC 5890 2.3.2.1: a label is at
// most 63 octets); a longer "xn--" label is shown as it is.
const maxALabel = 63

// displayHost returns the reg-name host h (percent-encoded, as in a
// URI) for display. An A-label of a DNS host is shown in Unicode (UTS
// #46 ToUnicode, RFC 3987 3.2.1's last paragraph) and percent-encoded
// UTF-8 is decoded, label by label, when the label is safe to show
// (safeLabel) and the IDNA round trip is exact: the Unicode label maps
// back to the same A-label, and ToUnicode of that A-label is the label
// itself, so that a character that UTS #46 maps to another ("。" to
// ".", "Ａ" to "a") stays encoded. When the whole host, as ToURI would
// convert it, does not come back to the same labels (such as a "_" that
// ToASCII refuses), no label is shown in Unicode. Escapes of unreserved
// characters other than "." are decoded in every case.
func displayHost(h string, dns bool) string {
	ascii := decodeUnreserved(h)
	if len(h) > 3*maxIDNHost || strings.IndexByte(h, '%') < 0 && (!dns || !hasACE(h)) {
		return ascii
	}
	var b strings.Builder
	b.Grow(len(h))
	unicodeShown := false
	for i, l := range strings.Split(h, ".") {
		if i > 0 {
			b.WriteByte('.')
		}
		if d, ok := displayLabel(l, dns); ok {
			b.WriteString(d)
			unicodeShown = true
			continue
		}
		b.WriteString(decodeUnreserved(l))
	}
	out := b.String()
	if !unicodeShown {
		return ascii
	}
	if dns && !sameHost(out, h) {
		return ascii
	}
	return out
}

// displayLabel returns the Unicode form of the label l for display, or
// false to keep l in its ASCII form.
func displayLabel(l string, dns bool) (string, bool) {
	if strings.IndexByte(l, '%') < 0 {
		if !dns || !isACE(l) || len(l) > maxALabel {
			return "", false
		}
		u, err := idna.Lookup.ToUnicode(l)
		if err != nil || u == l || !safeLabel(u) {
			return "", false
		}
		if a, err := toASCII(u); err != nil || !strings.EqualFold(a, l) {
			return "", false
		}
		return u, true
	}
	d, err := uri.Unescape(l)
	if err != nil || isASCII(d) || !utf8.ValidString(d) {
		return "", false
	}
	// Only the escapes of non-ASCII characters and of unreserved ones
	// (not ".", which would split the label) may go.
	for i := 0; i < len(d); i++ {
		if c := d[i]; c < utf8.RuneSelf && (!isUnreserved(c) || c == '.') {
			return "", false
		}
	}
	if !safeLabel(d) {
		return "", false
	}
	if dns {
		a, err := toASCII(d)
		if err != nil {
			return "", false
		}
		if u, err := idna.Lookup.ToUnicode(a); err != nil || u != d {
			return "", false
		}
	}
	return d, true
}

// sameHost reports whether ToURI would map the displayed host shown
// back to the labels of h: each label either the same ASCII label (up
// to case) or the A-label whose ToUnicode is the decoded label.
func sameHost(shown, h string) bool {
	a, err := toASCIIHost(shown)
	if err != nil {
		return false
	}
	al, hl := strings.Split(a, "."), strings.Split(h, ".")
	if len(al) != len(hl) {
		return false
	}
	for i, l := range hl {
		d, err := uri.Unescape(l)
		if err != nil {
			return false
		}
		if isASCII(d) {
			if !strings.EqualFold(al[i], d) {
				return false
			}
			continue
		}
		if u, err := idna.Lookup.ToUnicode(al[i]); err != nil || u != d {
			return false
		}
	}
	return true
}

// hasACE reports whether h holds a label that starts with the ACE
// prefix "xn--" (RFC 5890 2.3.2.5), in any case.
func hasACE(h string) bool {
	for l := range strings.SplitSeq(h, ".") {
		if isACE(l) {
			return true
		}
	}
	return false
}

func isACE(l string) bool { return len(l) >= 4 && strings.EqualFold(l[:4], "xn--") }

// decodeUnreserved decodes the escapes of unreserved characters in h
// (RFC 3986 6.2.2.2), except "%2E": a "." would change the labels of a
// host and the segments of a path.
func decodeUnreserved(h string) string {
	if strings.IndexByte(h, '%') < 0 {
		return h
	}
	var b strings.Builder
	b.Grow(len(h))
	for i := 0; i < len(h); i++ {
		if h[i] == '%' && i+2 < len(h) {
			if c := unhex(h[i+1])<<4 | unhex(h[i+2]); isUnreserved(c) && c != '.' {
				b.WriteByte(c)
				i += 2
				continue
			}
		}
		b.WriteByte(h[i])
	}
	return b.String()
}
