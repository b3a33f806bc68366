package urn

import (
	"errors"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/runenames"

	"github.com/urikit/urikit/internal/chars"
)

// ErrNotUTF8 is returned by FromNative for a native identifier that is not
// valid UTF-8.
var ErrNotUTF8 = errors.New("native identifier is not valid UTF-8")

// EncodeNSS translates a native identifier into the canonical NSS form of
// RFC 8141 section 2.2 (and the 2012 draft section 2.2): every character
// outside pchar is encoded in UTF-8 and each of its octets
// percent-encoded with uppercase hexadecimal digits. That includes "/",
// "?", "#", "[", "]" and "%" itself, which pchar does not hold, so
// EncodeNSS(x) never needs namespace knowledge to be decoded back. s must
// be valid UTF-8; invalid bytes are encoded as they are.
func EncodeNSS(s string) string {
	n := nssEscapes(s)
	if n == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2*n)
	writeNSS(&b, s, n)
	return b.String()
}

// nssEscapes returns how many bytes of s EncodeNSS percent-encodes.
func nssEscapes(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if !chars.Is(s[i], chars.PChar) {
			n++
		}
	}
	return n
}

// writeNSS writes s to b with its n bytes that are not pchar
// percent-encoded, in one buffer sized by the caller: a native name of
// 8 MB of "%" is a 24 MB URN, made once, not grown and copied (issue
// 26).
func writeNSS(b *strings.Builder, s string, n int) {
	if n == 0 {
		b.WriteString(s)
		return
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if chars.Is(c, chars.PChar) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(chars.UpperHex[c>>4])
		b.WriteByte(chars.UpperHex[c&15])
	}
}

// FromNative builds the URN "urn:" nid ":" EncodeNSS(s). It fails when
// nid is not a valid RFC 8141 NID, when s is empty, or when s is not valid
// UTF-8. As RFC 8141 section 2.2 warns, namespaces may define their own
// canonicalization of native names: FromNative only does the generic
// encoding every namespace shares.
func FromNative(nid, s string) (URN, error) {
	if !utf8.ValidString(s) {
		return URN{}, ErrNotUTF8
	}
	n := nssEscapes(s)
	var b strings.Builder
	b.Grow(len("urn:") + len(nid) + 1 + len(s) + 2*n)
	b.WriteString("urn:")
	b.WriteString(nid)
	b.WriteByte(':')
	writeNSS(&b, s, n)
	return Parse(b.String())
}

// DisplayForm is a URN as shown to people: percent-encoded UTF-8 decoded
// where that cannot change meaning, and what a reader should be warned of.
type DisplayForm struct {
	// Text is the URN with every percent-encoded sequence that is a
	// printable non-ASCII character decoded.
	Text string
	// Scripts lists the Unicode scripts of the letters of the NSS, in the
	// order they first appear.
	Scripts []string
	// MixedScript is set when the NSS mixes letters of more than one
	// script, as in the sixth example of RFC 8141 section 3.2, where
	// U+0430 CYRILLIC SMALL LETTER A stands among Latin letters.
	MixedScript bool
	// Warnings describes each distinct letter of a script other than
	// the NSS's main one, by code point and name, with the number of
	// times it occurs: one warning per kind of letter, not per letter.
	Warnings []string
}

// Display returns the display form of u that RFC 8141 section 4.4 and the
// 2012 draft section 4 allow applications to show, alongside the
// canonical form they must also offer.
//
// Only percent-encoded octets that form a printable non-ASCII character
// are decoded. Encoded ASCII stays encoded, because a namespace may give
// "," and "%2C" different meanings (2012 draft sections 2.5.2 and 4), and
// so do invalid UTF-8, control and format characters (such as bidi
// controls) and white space, which a reader could not see or tell apart.
func (u URN) Display() DisplayForm {
	var d DisplayForm
	if u.s == "" {
		return d
	}
	var b strings.Builder
	b.WriteString(u.s[:u.nidEnd+1])
	rest := u.s[u.nidEnd+1:]
	nssLen := int(u.nssEnd - u.nidEnd - 1)
	var letters letterTally
	for i := 0; i < len(rest); {
		if rest[i] != '%' {
			if i < nssLen {
				if chars.Is(rest[i], chars.Alpha) {
					letters.add(rune(rest[i]))
				}
			}
			b.WriteByte(rest[i])
			i++
			continue
		}
		// Decode the run of pct-encoded octets that starts here.
		j := i
		var buf []byte
		for j+2 < len(rest) && rest[j] == '%' {
			buf = append(buf, byte(chars.Unhex(rest[j+1])<<4|chars.Unhex(rest[j+2])))
			j += 3
		}
		k := 0 // octets of buf consumed
		for k < len(buf) {
			r, size := utf8.DecodeRune(buf[k:])
			if r >= utf8.RuneSelf && r != utf8.RuneError && unicode.IsGraphic(r) && !unicode.IsSpace(r) &&
				!unicode.Is(unicode.Cf, r) {
				if i+3*k < nssLen && unicode.IsLetter(r) {
					letters.add(r)
				}
				b.WriteRune(r)
			} else {
				if r == utf8.RuneError {
					size = 1
				}
				b.WriteString(rest[i+3*k : i+3*(k+size)])
			}
			k += size
		}
		i = j
	}
	d.Text = b.String()
	d.judge(&letters)
	return d
}

// scripts are the scripts Display tells apart; letters of others are
// grouped as "Other".
var scripts = []struct {
	name  string
	table *unicode.RangeTable
}{
	{"Latin", unicode.Latin}, {"Cyrillic", unicode.Cyrillic}, {"Greek", unicode.Greek},
	{"Armenian", unicode.Armenian}, {"Hebrew", unicode.Hebrew}, {"Arabic", unicode.Arabic},
	{"Han", unicode.Han}, {"Hiragana", unicode.Hiragana}, {"Katakana", unicode.Katakana},
	{"Hangul", unicode.Hangul}, {"Devanagari", unicode.Devanagari}, {"Thai", unicode.Thai},
	{"Georgian", unicode.Georgian}, {"Cherokee", unicode.Cherokee},
}

// scriptOf returns the name of r's script among scripts, or "Other".
func scriptOf(r rune) string {
	for _, s := range scripts {
		if unicode.Is(s.table, r) {
			return s.name
		}
	}
	return "Other"
}

// letterTally counts the letters of an NSS as Display meets them, in
// constant memory per distinct letter: ASCII letters in an array, the
// others in a map, with the order of first appearance kept.
type letterTally struct {
	ascii [128]int
	other map[rune]int
	order []rune // distinct letters, in order of first appearance
}

func (t *letterTally) add(r rune) {
	if r < utf8.RuneSelf {
		if t.ascii[r] == 0 {
			t.order = append(t.order, r)
		}
		t.ascii[r]++
		return
	}
	if t.other == nil {
		t.other = map[rune]int{}
	}
	if t.other[r] == 0 {
		t.order = append(t.order, r)
	}
	t.other[r]++
}

func (t *letterTally) count(r rune) int {
	if r < utf8.RuneSelf {
		return t.ascii[r]
	}
	return t.other[r]
}

// judge fills Scripts, MixedScript and Warnings from the letters of the
// NSS: when several scripts mix, every letter outside the most frequent
// script (Latin on a tie) is a possible look-alike. It warns once per
// distinct letter, with its count, in the order the letters first appear:
// one warning per occurrence made the output of a long NSS grow with the
// input many times over (issue 7, defect 1).
func (d *DisplayForm) judge(t *letterTally) {
	count := map[string]int{}
	scriptOfLetter := make([]string, len(t.order))
	for i, r := range t.order {
		name := scriptOf(r)
		scriptOfLetter[i] = name
		if count[name] == 0 {
			d.Scripts = append(d.Scripts, name)
		}
		count[name] += t.count(r)
	}
	d.MixedScript = len(d.Scripts) > 1
	if !d.MixedScript {
		return
	}
	major := d.Scripts[0]
	for _, name := range d.Scripts {
		if count[name] > count[major] || (count[name] == count[major] && name == "Latin") {
			major = name
		}
	}
	for i, r := range t.order {
		name := scriptOfLetter[i]
		if name == major {
			continue
		}
		times := "once"
		if n := t.count(r); n > 1 {
			times = strconv.Itoa(n) + " times"
		}
		d.Warnings = append(d.Warnings, "U+"+hex4(r)+" "+runenames.Name(r)+" ("+name+") among "+major+" letters, "+times)
	}
}

func hex4(r rune) string {
	const digits = "0123456789ABCDEF"
	var b [8]byte
	n := 0
	for shift := 20; shift >= 0; shift -= 4 {
		v := (r >> uint(shift)) & 15
		if v == 0 && n == 0 && shift > 12 {
			continue
		}
		b[n] = digits[v]
		n++
	}
	return string(b[:n])
}
