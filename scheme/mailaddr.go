package scheme

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// The errors of the mailto grammar (RFC 6068 section 2): each is also
// ErrSchemeSyntax (errors.Is holds for both).
var (
	// ErrMailAddress: a part that must be an addr-spec ("local-part
	// "@" domain", RFC 6068 2 with RFC 5322 3.4.1) is not one: no local
	// part, an empty domain label ("a@b..c"), a character neither atext
	// nor quoted, no "@".
	ErrMailAddress = fmt.Errorf("%w: not an addr-spec (RFC 6068 2)", ErrSchemeSyntax)
	// ErrMailAddressList: the value of a "to", "cc" or "bcc" hfield is
	// not an address list (RFC 5322 3.4: mailboxes separated by ",").
	ErrMailAddressList = fmt.Errorf("%w: not an address list (RFC 5322 3.4)", ErrSchemeSyntax)
	// ErrMailHfield: an hfield is not hfname "=" hfvalue (RFC 6068 2):
	// a missing "=", or an "=" in the value, which "[has] to be escaped
	// (as ... "%3D" ...) when not serving as [a delimiter]".
	ErrMailHfield = fmt.Errorf("%w: not an hfield (RFC 6068 2: hfname \"=\" hfvalue)", ErrSchemeSyntax)
	// ErrMailQuestion: a second "?" (RFC 6068 6.1 marks
	// "mailto:joe@example.com?cc=bob@example.com?body=hello" "WRONG!").
	ErrMailQuestion = fmt.Errorf("%w: a second \"?\" (RFC 6068 6.1: \"?\" is %%3F)", ErrSchemeSyntax)
)

// decoded is a percent-decoded part and the raw part, so that an error
// points into the URL.
type decoded struct {
	b   []byte
	raw string
}

func decodeWithOffsets(raw string) decoded {
	d := decoded{b: make([]byte, 0, len(raw)), raw: raw}
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '%' && i+2 < len(raw) {
			c, i = unhex(raw[i+1])<<4|unhex(raw[i+2]), i+2
		}
		d.b = append(d.b, c)
	}
	return d
}

// rawAt returns the raw offset of the decoded octet i (the length of
// the raw part past the end). It reads the raw part again up to i, which
// an error does once, rather than keep an offset (8 bytes) per octet.
func (d decoded) rawAt(i int) int {
	if i >= len(d.b) {
		return len(d.raw)
	}
	at := 0
	for range i {
		if d.raw[at] == '%' && at+2 < len(d.raw) {
			at += 3
		} else {
			at++
		}
	}
	return at
}

// The character classes of RFC 5322 3.2.3 and 3.4.1 (and RFC 6068 2's
// dtext-no-obs); octets from 0x80 are UTF-8 (RFC 6532 3.2, RFC 6068 2
// items 4 and 5), checked as a whole elsewhere.
func isAtext(c byte) bool {
	switch {
	case 'a' <= c|0x20 && c|0x20 <= 'z', '0' <= c && c <= '9', c >= 0x80:
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '/', '=', '?', '^', '_', '`', '{', '|', '}', '~':
		return true
	}
	return false
}

// isQtext: %d33 / %d35-91 / %d93-126, and space and tab inside the
// quotes (the FWS of quoted-string without its CRLF).
func isQtext(c byte) bool {
	return c == ' ' || c == '\t' || c == 33 || 35 <= c && c <= 91 || 93 <= c && c <= 126 || c >= 0x80
}

func isDtext(c byte) bool { return 33 <= c && c <= 90 || 94 <= c && c <= 126 || c >= 0x80 }

// dotAtom scans dot-atom-text = 1*atext *("." 1*atext) at i and returns
// its end, or the offset of the octet that breaks it and false.
func dotAtom(b []byte, i int) (int, bool) {
	for {
		start := i
		for i < len(b) && isAtext(b[i]) {
			i++
		}
		if i == start {
			return i, false // an empty label: "", ".a", "a..b", "a."
		}
		if i == len(b) || b[i] != '.' {
			return i, true
		}
		i++
	}
}

// quotedString scans quoted-string at i (b[i] is '"').
func quotedString(b []byte, i int) (int, bool) {
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1, true
		case c == '\\':
			// quoted-pair = "\" (VCHAR / WSP)
			if i+1 >= len(b) || !(b[i+1] == ' ' || b[i+1] == '\t' || 33 <= b[i+1] && b[i+1] <= 126 || b[i+1] >= 0x80) {
				return i + 1, false
			}
			i++
		case !isQtext(c):
			return i, false
		}
	}
	return i, false
}

// addrSpec scans addr-spec = local-part "@" domain at i, local-part =
// dot-atom-text / quoted-string, domain = dot-atom-text / "["
// *dtext-no-obs "]" (RFC 6068 2: no comments, no whitespace around the
// parts, no obsolete forms).
func addrSpec(b []byte, i int) (int, bool) {
	var ok bool
	if i < len(b) && b[i] == '"' {
		i, ok = quotedString(b, i)
	} else {
		i, ok = dotAtom(b, i)
	}
	if !ok {
		return i, false
	}
	if i >= len(b) || b[i] != '@' {
		return i, false
	}
	i++
	if i < len(b) && b[i] == '[' {
		for i++; i < len(b) && isDtext(b[i]); i++ {
		}
		if i >= len(b) || b[i] != ']' {
			return i, false
		}
		return i + 1, true
	}
	return dotAtom(b, i)
}

// checkAddrSpec returns the raw offset of what keeps raw (an address of
// the "to" of a mailto path, as written) from being an addr-spec once
// decoded, or -1.
func checkAddrSpec(raw string) int {
	d := decodeWithOffsets(raw)
	end, ok := addrSpec(d.b, 0)
	if !ok || end != len(d.b) {
		return d.rawAt(end)
	}
	if i := invalidUTF8(d.b); i >= 0 {
		return d.rawAt(i)
	}
	return -1
}

// invalidUTF8 returns the offset of the first octet of b that is not
// part of valid UTF-8, or -1.
func invalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

func skipWSP(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return i
}

// mailbox scans a mailbox of RFC 5322 3.4 at i: an addr-spec, or a
// name-addr, [display-name] "<" addr-spec ">", the display-name a phrase
// of atoms (dots allowed, as RFC 5322 4.1's obs-phrase) and quoted
// strings; whitespace around, no comments.
func mailbox(b []byte, i int) (int, bool) {
	i = skipWSP(b, i)
	if end, ok := addrSpec(b, i); ok {
		return skipWSP(b, end), true
	}
	words := 0
	for i < len(b) && b[i] != '<' {
		var ok bool
		start := i
		if b[i] == '"' {
			i, ok = quotedString(b, i)
		} else {
			for i < len(b) && (isAtext(b[i]) || b[i] == '.') {
				i++
			}
			ok = i > start
		}
		if !ok {
			return i, false
		}
		words++
		i = skipWSP(b, i)
	}
	if i >= len(b) {
		return i, false
	}
	end, ok := addrSpec(b, i+1)
	if !ok {
		return end, false
	}
	if end >= len(b) || b[end] != '>' {
		return end, false
	}
	return skipWSP(b, end+1), true
}

// mailboxes walks the decoded value d of a "to", "cc" or "bcc" hfield,
// an address list (RFC 5322 3.4, without groups and comments; an empty
// value is an empty list), calling yield, when not nil, with each mailbox,
// trailing whitespace trimmed, until it returns false. It returns the
// raw offset of the first octet that breaks the list, or -1; the view
// checks a list without yield when it reads the URL, and yields the
// mailboxes of a list it has checked when asked (Mailto.To), so that a
// list of a million addresses costs no string per address until then.
func mailboxes(d decoded, yield func(string) bool) int {
	b := d.b
	if len(skipWSPs(b)) == 0 {
		return -1
	}
	for i := 0; ; {
		start := skipWSP(b, i)
		end, ok := mailbox(b, i)
		if !ok {
			return d.rawAt(end)
		}
		if yield != nil && !yield(string(bytes.TrimRight(b[start:end], " \t"))) {
			return -1
		}
		if end == len(b) {
			if j := invalidUTF8(b); j >= 0 {
				return d.rawAt(j)
			}
			return -1
		}
		if b[end] != ',' {
			return d.rawAt(end)
		}
		i = end + 1
	}
}

func skipWSPs(b []byte) []byte { return b[skipWSP(b, 0):] }
