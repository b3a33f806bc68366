// Package uts46 is UTS #46 ToASCII (section 4.2) on top of
// golang.org/x/net/idna, with the Punycode of internal/punycode and the
// rules of UTS #46 section 4 that x/net/idna leaves out.
//
// x/net/idna maps, normalizes and validates (its ToUnicode, section 4
// "Processing"); this package converts the "xn--" labels of the input
// and encodes the non-ASCII labels of the result itself, because x/net's
// Punycode is quadratic (a host of 20,000 distinct code points took
// seconds) and decodes at most 1,023 code points, and because x/net lets
// an empty "xn--" label through (UTS #46 section 4 step 4: "If the label
// is empty, or if the label contains only ASCII code points, record
// that there was an error").
package uts46

import (
	"errors"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/urikit/urikit/internal/punycode"
)

// ErrACE is the error for an "xn--" label that UTS #46 section 4 step
// 4 refuses: with a non-ASCII code point, not Punycode, empty after the
// prefix, all ASCII once decoded, or decoded to a label with a code
// point that is not valid (section 4.1).
var ErrACE = errors.New("uts46: invalid xn-- label")

const acePrefix = "xn--"

// AppendToASCII appends to dst UTS #46 ToASCII of s with the options of
// the profile p and VerifyDnsLength false (the caller checks lengths):
// x/net's ToASCII, but in O(n log n) time in the length of a label and
// with the rules of section 4 step 4 on "xn--" labels.
//
// The labels of s that are "xn--" labels before any mapping (all ASCII,
// between ASCII dots) are decoded here, without x/net's length limit,
// and checked as step 4 asks: each decoded label must be one that
// mapping leaves as it is. The labels that become "xn--" labels only
// once mapped (such as "ｘｎ－－ｚｃａ") are x/net's to decode, once
// badMappedACE has refused those that x/net would wrongly take (empty,
// or with a non-ASCII code point: step 4.1).
func AppendToASCII(dst []byte, p *idna.Profile, s string) ([]byte, error) {
	sub, aces, err := decodeACE(p, s)
	if err != nil {
		return dst, err
	}
	u, err := p.ToUnicode(sub)
	if err != nil {
		return dst, err
	}
	for i := 0; ; {
		j := labelEnd(u, i)
		label := u[i:j]
		switch {
		case isASCII(label):
			dst = append(dst, label...)
		case len(aces) > 0 && label == aces[0].decoded:
			// A label decoded here, which mapping left as it was: RFC
			// 3492 6.2, "there is only one encoded string that can
			// represent a given sequence of integers", so it encodes to
			// the label it came from, in lowercase.
			dst = append(dst, acePrefix...)
			dst = append(dst, aces[0].puny...)
			aces = aces[1:]
		default:
			dst = append(dst, acePrefix...)
			if dst, err = punycode.AppendEncode(dst, label); err != nil {
				return dst, err
			}
		}
		if j == len(u) {
			if len(aces) > 0 {
				// Mapping changed a decoded label: it holds a code point
				// that is not valid, or is not in NFC (section 4.1,
				// criteria 1 and 6). The labels of u are those of the
				// domain in order, and no mapping gives a label with a
				// code point that mapping changes, so a decoded label
				// that mapping left as it was is matched above.
				return dst, ErrACE
			}
			return dst, nil
		}
		dst = append(dst, '.')
		i = j + 1
	}
}

// ace is a label that decodeACE decoded: its Punycode, lowercase and
// without the prefix, and what it decodes to.
type ace struct {
	puny, decoded string
}

// decodeACE returns s with each label that is all ASCII, between ASCII
// dots, and starts with "xn--" in any case replaced by its decoding,
// and those labels, in order; the other parts between ASCII dots must
// pass badMappedACE. It fails as UTS #46 section 4 step 4
// does: on a label that is not Punycode, is empty after the prefix, or
// decodes to ASCII only. (AppendToASCII refuses a decoded label that
// mapping changes.) A label that decodes to one starting with "xn--"
// stays as it is, for x/net to decode (it takes it, as ada does).
func decodeACE(p *idna.Profile, s string) (string, []ace, error) {
	var b []byte // the result, once a label is replaced
	var aces []ace
	var bounds []int // the decoded labels in b, as start, end pairs
	last := 0        // s[:last] is in b
	for i := 0; i < len(s); {
		j := labelEnd(s, i)
		label := s[i:j]
		if !isASCII(label) {
			if badMappedACE(p, label) {
				return "", nil, ErrACE
			}
		} else if len(label) >= 4 && strings.EqualFold(label[:4], acePrefix) {
			if len(label) == 4 {
				return "", nil, ErrACE
			}
			if b == nil {
				b = make([]byte, 0, len(s)+len(s)/2)
			}
			b = append(b, s[last:i]...)
			start := len(b)
			// Mapping lowercases the label before it is decoded.
			puny := label[4:]
			if hasUpper(puny) {
				puny = strings.ToLower(puny)
			}
			var err error
			b, err = punycode.AppendDecode(b, puny)
			if err != nil {
				return "", nil, ErrACE
			}
			d := b[start:]
			if isASCII(string(d)) {
				return "", nil, ErrACE
			}
			if len(d) >= 4 && string(d[:4]) == acePrefix {
				// Replaced, it would be decoded again: x/net decodes it.
				b = append(b[:start], label...)
				last = j
				i = j + 1
				continue
			}
			// That mapping leaves d as it is, AppendToASCII checks on
			// the result of the mapping of the whole domain.
			aces = append(aces, ace{puny: puny})
			bounds = append(bounds, start, len(b))
			last = j
		}
		i = j + 1
	}
	if b == nil {
		return s, nil, nil
	}
	sub := string(append(b, s[last:]...))
	for k := range aces {
		aces[k].decoded = sub[bounds[2*k]:bounds[2*k+1]]
	}
	return sub, aces, nil
}

// hyphens counts the code points of s that UTS #46 maps to a string
// with '-' in it: '-' itself, U+FE63 and U+FF0D (TestHyphenMappings
// checks the list against the whole mapping table of x/net/idna).
func hyphens(s string) int {
	return strings.Count(s, "-") + strings.Count(s, "\uFE63") + strings.Count(s, "\uFF0D")
}

// badMappedACE reports whether a label of s, a part of a domain between
// ASCII dots that has a non-ASCII code point, starts with "xn--" once
// mapped and is empty after the prefix or holds a non-ASCII code point:
// x/net/idna takes both (UTS #46 section 4 step 4 refuses them). It
// maps s code point by code point, which gives the labels x/net's
// mapping gives (normalization moves no dot and makes no non-ASCII
// code point ASCII), and runs only on a part with two code points that
// map to '-', without which no label of it can start with "xn--".
func badMappedACE(p *idna.Profile, s string) bool {
	if hyphens(s) < 2 {
		return false
	}
	var prefix [4]byte // the first bytes of the current label, mapped
	n := 0             // the mapped length of the current label
	nonASCII := false  // whether the current label has a non-ASCII byte
	bad := func() bool {
		return n >= 4 && string(prefix[:]) == acePrefix && (n == 4 || nonASCII)
	}
	var one [1]byte
	for _, r := range s {
		var m string
		if r < utf8.RuneSelf {
			one[0] = byte(r)
			if 'A' <= r && r <= 'Z' {
				one[0] += 'a' - 'A'
			}
			m = string(one[:])
		} else {
			m, _ = p.ToUnicode(string(r))
		}
		for i := 0; i < len(m); i++ {
			if m[i] == '.' {
				if bad() {
					return true
				}
				n, nonASCII = 0, false
				continue
			}
			if n < len(prefix) {
				prefix[n] = m[i]
			}
			n++
			nonASCII = nonASCII || m[i] >= utf8.RuneSelf
		}
	}
	return bad()
}

// labelEnd returns the end of the label of s that starts at i: the
// index of the next '.', or len(s).
func labelEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '.'); j >= 0 {
		return i + j
	}
	return len(s)
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
