package iri

import (
	"errors"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/urikit/urikit/internal/uts46"
)

// Errors of the DNS length limits of a non-ASCII name.
var (
	ErrNameTooLong  = errors.New("name longer than 253 characters (RFC 1034 3.1)")
	ErrLabelTooLong = errors.New("label longer than 63 characters (RFC 1034 3.1)")
)

// HostToASCII returns the form DNS needs of the host name h: each label
// of a non-ASCII name through IDNA's ToASCII (UTS #46 with the options
// of the Lookup profile of golang.org/x/net/idna: "bücher.example" is
// "xn--bcher-kva.example"), an ASCII name lowercased as that profile
// does. It is what RFC 3986 3.2.2 asks of a URI producer ("provide these
// registered names in the IDNA encoding"), and what Editor.SetHost of
// package uri leaves to this package.
//
// The DNS length limits are checked first, on code points: an A-label
// has at least one character per code point of its U-label, so a label
// over 63 code points or a name over 253 cannot fit (RFC 1034 3.1, RFC
// 5890 2.3.2.1), and IDNA never works on a name that cannot be one.
func HostToASCII(h string) (string, error) {
	if utf8.RuneCountInString(h) > 253 {
		return "", ErrNameTooLong
	}
	for label := range strings.SplitSeq(h, ".") {
		if utf8.RuneCountInString(label) > 63 {
			return "", ErrLabelTooLong
		}
	}
	return toASCII(h)
}

// toASCII is UTS #46 ToASCII with the options of x/net/idna's Lookup
// profile (nontransitional, STD3 rules, CheckHyphens, CheckJoiners,
// CheckBidi), through internal/uts46: the same result as
// idna.Lookup.ToASCII, but an "xn--" label that is empty or holds a
// non-ASCII code point is an error (UTS #46 section 4 step 4), and
// Punycode takes O(n log n) time.
func toASCII(h string) (string, error) {
	b, err := uts46.AppendToASCII(nil, idna.Lookup, h)
	if err != nil {
		return "", err
	}
	return string(b), nil
}
