package iri

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/urikit/urikit/uri"
	"golang.org/x/net/idna"
	"golang.org/x/text/unicode/norm"
)

//go:generate go run ./internal/uts39gen -dir $UTS39_DATA -version 17.0.0

// What ToIRI may show decoded. RFC 3987 3.2 step 4 re-encodes the
// characters "that are not appropriate according to sections 2.2, 4.1,
// and 6.1", and leaves the choice to the implementation ("results may
// vary"). Two rules follow, one for the text of a reference (path,
// query, fragment), one for its authority (host, userinfo, and the
// domains of a mailto address), where a character decides where the
// reference leads.
//
// In the text the anchor is Chromium's display unescaping (its
// ShouldUnescapeCodePoint): decode, except what hides or imitates the
// browser's interface. The tables below come from Unicode properties
// and UTS #39 data, never from a list of our own.

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

// spoofsUI reports the two kinds of characters that Chromium keeps
// encoded beyond the hidden ones: U+2800 BRAILLE PATTERN BLANK, drawn
// as a space though not White_Space, and the lock emoji, which pass
// for the browser's own security indicator.
func spoofsUI(r rune) bool {
	return r == 0x2800 || r == 0x1F50F || r == 0x1F510 || r == 0x1F512 || r == 0x1F513
}

// displayable reports whether ToIRI may show r decoded in a path, a
// query or a fragment: r is a ucschar (RFC 3987 2.2), assigned, shows
// something (hiddenTables, spoofsUI), is not one of the look-alikes RFC
// 3987 6.1 b names (a compatibility character that NFKC changes, such
// as full-width Latin and half-width Katakana; a symbol or punctuation
// that UTS #39 confuses with a space or a delimiter, such as U+2215
// DIVISION SLASH), and, when it is a combining mark, follows a
// character decoded with it (afterDecoded): a mark on an ASCII
// character could turn a delimiter into a look-alike ("/" with U+0338
// COMBINING LONG SOLIDUS OVERLAY). Symbols, emoji and the letters of
// every script are shown ("♥", "✓", "𐌀"), as browsers show them.
func displayable(r rune, afterDecoded bool) bool {
	if !isUcschar(r) || !unicode.IsGraphic(r) || unicode.In(r, hiddenTables...) || spoofsUI(r) {
		return false
	}
	if unicode.Is(unicode.M, r) {
		if !afterDecoded {
			return false
		}
	} else if unicode.Is(delimLookalikes, r) && !unicode.In(r, unicode.L, unicode.N) {
		return false
	}
	var buf [utf8.UTFMax]byte
	return norm.NFKC.IsNormal(buf[:utf8.EncodeRune(buf[:], r)])
}

// recommendedScripts are the scripts of UTS #31 Table 5 (Recommended
// Scripts), with Common and Inherited: the scripts of the characters
// UTS #39 3.1 allows (Identifier_Status=Allowed) in identifiers.
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

// scriptOf returns the index in recommendedScripts of r's script, or -1.
func scriptOf(r rune) int {
	if r < utf8.RuneSelf {
		if isLetter(byte(r)) {
			return scriptLatin
		}
		return scriptCommon
	}
	for i, t := range recommendedScripts {
		if unicode.Is(t, r) {
			return i
		}
	}
	return -1
}

// safeLabel reports whether the host label l (decoded, with its
// non-ASCII characters) may be shown; a label that may not keeps its
// A-label or percent-encoded form. It applies UTS #39 (version
// uts39Version of its data) as a browser's IDN spoof checker does, at
// the restriction level "Highly Restrictive" (5.2):
//
//   - every non-ASCII character is Identifier_Status=Allowed (3.1),
//     which leaves out the default-ignorable, bidi, space, symbol and
//     compatibility characters and the scripts not recommended for
//     identifiers; a combining mark follows a non-ASCII character, and
//     no mark is an overlay (canonical combining class 1, such as
//     U+0338 COMBINING LONG SOLIDUS OVERLAY);
//   - the label's scripts are one of the sets 5.2 allows: a single
//     script, or Latin with Han and Hiragana and Katakana, with Han and
//     Bopomofo, or with Han and Hangul ("pаypal", a Cyrillic "а" among
//     Latin letters, is mixed-script); its letters belong to a script
//     (a label of Common and Inherited characters alone is refused), and
//     its digits to one decimal system (5.4, "mixed numbers");
//   - it is not a whole-script confusable with Latin (section 4): a
//     label of a single other script whose skeleton is Latin ("аррӏе",
//     all Cyrillic, reads "apple"), nor does its skeleton read as an
//     ASCII label ("ıd" is "id");
//   - a look-alike of a delimiter or "." ("ノ" is "/") sits between
//     characters of its own script, and the contextual rules of RFC
//     5892 Appendix A hold for U+00B7 MIDDLE DOT (A.3, between two
//     "l") and U+30FB KATAKANA MIDDLE DOT (A.7, with Hiragana, Katakana
//     or Han in the label: "・" alone reads as a dot).
func safeLabel(l string) bool {
	var scripts uint64
	after, ascii, kana, digits := false, true, false, rune(-1)
	prev := -1 // the script of the previous character
	for i, r := range l {
		sc := scriptOf(r)
		if r >= utf8.RuneSelf {
			ascii = false
			if sc < 0 || !unicode.Is(allowedIdent, r) || unicode.Is(unicode.M, r) && (!after || isOverlay(r)) {
				return false
			}
		}
		after = r >= utf8.RuneSelf
		if sc > scriptInherited {
			scripts |= 1 << sc
		}
		kana = kana || sc == scriptHiragana || sc == scriptKatakana || sc == scriptHan
		if unicode.Is(unicode.Nd, r) {
			if z := digitZero(r); digits < 0 {
				digits = z
			} else if digits != z {
				return false
			}
		}
		if r >= utf8.RuneSelf && unicode.Is(punctLookalikes, r) {
			// Both neighbours present, and of r's script.
			next, _ := utf8.DecodeRuneInString(l[i+utf8.RuneLen(r):])
			if i == 0 && i+utf8.RuneLen(r) == len(l) || i > 0 && prev != sc || i+utf8.RuneLen(r) < len(l) && scriptOf(next) != sc {
				return false
			}
		}
		if r == 0xB7 && (i == 0 || l[i-1] != 'l' || i+2 >= len(l) || l[i+2] != 'l') {
			return false
		}
		prev = sc
	}
	if ascii {
		return true
	}
	if strings.ContainsRune(l, 0x30FB) && !kana {
		return false
	}
	const (
		japanese = 1<<scriptLatin | 1<<scriptHan | 1<<scriptHiragana | 1<<scriptKatakana
		chinese  = 1<<scriptLatin | 1<<scriptHan | 1<<scriptBopomofo
		korean   = 1<<scriptLatin | 1<<scriptHan | 1<<scriptHangul
	)
	single := scripts&(scripts-1) == 0
	if scripts == 0 || !single && scripts&^japanese != 0 && scripts&^chinese != 0 && scripts&^korean != 0 {
		return false
	}
	return !confusableWithLatin(l, single && scripts != 1<<scriptLatin)
}

// confusableWithLatin reports whether the skeleton of l (UTS #39
// section 4: NFD, each character to its prototype, NFD) is made of
// ASCII letters and digits where l has other characters, or, when l is
// of a single script other than Latin (other), of Latin, Common and
// Inherited characters: then a Latin string with the same skeleton
// exists, and l is a whole-script confusable. The tables hold the
// characters whose prototype is such; the others keep their own
// script in the skeleton.
func confusableWithLatin(l string, other bool) bool {
	asciiLike, latinLike := true, other
	for _, r := range norm.NFD.String(l) {
		if r < utf8.RuneSelf || unicode.Is(asciiLookalikes, r) {
			continue
		}
		asciiLike = false
		if !unicode.In(r, latinLookalikes, unicode.Common, unicode.Inherited) {
			latinLike = false
		}
	}
	return asciiLike || latinLike
}

// isOverlay reports whether the combining mark r is drawn over its base
// (canonical combining class 1, Overlay): a stroke or slash through a
// letter makes it another letter or a delimiter.
func isOverlay(r rune) bool {
	var buf [utf8.UTFMax]byte
	return norm.NFD.Properties(buf[:utf8.EncodeRune(buf[:], r)]).CCC() == 1
}

// digitZero returns the digit zero of the decimal system of the digit r
// (General_Category Nd): the decimal digits of each system are ten
// consecutive code points from zero.
func digitZero(r rune) rune {
	z := r
	for k := 0; k < 9 && unicode.Is(unicode.Nd, z-1); k++ {
		z--
	}
	return z
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

// hostMode tells displayHost what kind of name a host is.
type hostMode int

const (
	hostPlain hostMode = iota // a reg-name of a scheme without DNS hosts
	hostDNS                   // a host in the DNS: IDNA applies both ways
	hostMail                  // a mailto domain: IDNA applies, but ToURI does not make A-labels (RFC 6068 2)
)

// displayHost returns the reg-name host h (percent-encoded, as in a
// URI) for display. An A-label of a DNS host is shown in Unicode (UTS
// #46 ToUnicode, RFC 3987 3.2.1's last paragraph) and percent-encoded
// UTF-8 is decoded, label by label, when the label is safe to show
// (safeLabel) and, for a DNS name, the IDNA round trip is exact: the
// Unicode label maps back to the same A-label, and ToUnicode of that
// A-label is the label itself, so that a character that UTS #46 maps
// to another ("。" to ".", "Ａ" to "a") stays encoded. When the whole
// host, as ToURI would convert it, does not come back to the same
// labels (such as a "_" that ToASCII refuses), no label is shown in
// Unicode. Escapes of unreserved characters other than "." are decoded
// in every case.
func displayHost(h string, mode hostMode) string {
	ascii := decodeUnreserved(h)
	if len(h) > 3*maxIDNHost || strings.IndexByte(h, '%') < 0 && (mode != hostDNS || !hasACE(h)) {
		return ascii
	}
	var b strings.Builder
	b.Grow(len(h))
	unicodeShown := false
	for i, l := range strings.Split(h, ".") {
		if i > 0 {
			b.WriteByte('.')
		}
		if d, ok := displayLabel(l, mode); ok {
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
	if mode != hostPlain && !sameHost(out, h) {
		return ascii
	}
	return out
}

// displayLabel returns the Unicode form of the label l for display, or
// false to keep l in its ASCII form.
func displayLabel(l string, mode hostMode) (string, bool) {
	if strings.IndexByte(l, '%') < 0 {
		if mode != hostDNS || !isACE(l) || len(l) > maxALabel {
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
	if mode != hostPlain {
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

// writeAuthorityText writes s, a userinfo or the local part of a mail
// address, for display: s is cut into words at every ASCII character
// other than an unreserved one or "%", and each word is decoded only
// as a host label would be (safeLabel): what reads as part of a host
// name is held to the rules of one.
func writeAuthorityText(b *strings.Builder, s string) {
	for len(s) > 0 {
		n := 0
		for n < len(s) && (s[n] == '%' || isUnreserved(s[n]) && s[n] != '.') {
			n++
		}
		if d, ok := displayLabel(s[:n], hostPlain); ok {
			b.WriteString(d)
		} else {
			b.WriteString(decodeUnreserved(s[:n]))
		}
		if n < len(s) {
			b.WriteByte(s[n])
			n++
		}
		s = s[n:]
	}
}

// writeMailAddrs writes s, a list of mail addresses separated by ","
// (RFC 6068 2: to = addr-spec *("," addr-spec)), for display: the
// domain after the last "@" of each is a host name ("The considerations
// for <reg-name> in [STD66] apply"), shown as displayHost shows one,
// and the local part is held to the same rules (writeAuthorityText).
func writeMailAddrs(b *strings.Builder, s string) {
	for i, addr := range strings.Split(s, ",") {
		if i > 0 {
			b.WriteByte(',')
		}
		at := strings.LastIndexByte(addr, '@')
		if at < 0 {
			writeAuthorityText(b, addr)
			continue
		}
		writeAuthorityText(b, addr[:at])
		b.WriteByte('@')
		b.WriteString(displayHost(addr[at+1:], hostMail))
	}
}

// writeMailQuery writes the query q of a mailto URI for display: the
// values of the "to", "cc" and "bcc" header fields are lists of
// addresses (writeMailAddrs), the others text.
func writeMailQuery(b *strings.Builder, q string) {
	for i, f := range strings.Split(q, "&") {
		if i > 0 {
			b.WriteByte('&')
		}
		name, value, ok := strings.Cut(f, "=")
		if n, err := uri.Unescape(name); ok && err == nil && (strings.EqualFold(n, "to") || strings.EqualFold(n, "cc") || strings.EqualFold(n, "bcc")) {
			writeDisplay(b, name, false)
			b.WriteByte('=')
			writeMailAddrs(b, value)
			continue
		}
		writeDisplay(b, f, false)
	}
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
