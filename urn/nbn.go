package urn

import "github.com/urikit/urikit/internal/chars"

// The "nbn" namespace: RFC 8458, "Using National Bibliography Numbers as
// Uniform Resource Names" (obsoletes RFC 3188). Section 4.2 gives the NSS
// grammar:
//
//	nbn-nss     = prefix "-" nbn-string
//	prefix      = iso-cc *( ":" subspc )
//	            ; The entire prefix is case insensitive.
//	iso-cc      = 2ALPHA
//	subspc      = 1*(ALPHA / DIGIT)
//	nbn-string  = path-rootless
//
// Sub-namespace codes "MUST NOT contain any colons or hyphens" (section
// 4.3), so the prefix ends at the first "-". Section 4.3's lexical
// equivalence converts "all characters in the prefix (country code and
// its optional sub-divisions) to a single case"; the NBN string keeps
// its case ("parsers therefore MUST treat these as case sensitive",
// section 4.2). The key lowercases the prefix.
//
// Examples from RFC 8458 section 4.3: URN:NBN:fi-fe201003181510,
// urn:nbn:ch:bel-9039, urn:nbn:se:uu:diva-3475, urn:nbn:hu-3006.
// URN:NBN:fi-fe19981001 is RFC 8254 section 3's example (and RFC 3188's).
var nbnRules = rules{"RFC 8458", validateNBN, normalizeNBN}

// nbnPrefixEnd returns the length of the prefix of nss: the offset of its
// first "-", or -1 when there is none.
func nbnPrefixEnd(nss string) int {
	for i := 0; i < len(nss); i++ {
		if nss[i] == '-' {
			return i
		}
	}
	return -1
}

func validateNBN(nss string) error {
	end := nbnPrefixEnd(nss)
	if end < 0 {
		return nsError(`an NBN is a prefix, "-" and the NBN string (RFC 8458 section 4.2)`)
	}
	prefix, nbn := nss[:end], nss[end+1:]
	if len(prefix) < 2 || !chars.Is(prefix[0], chars.Alpha) || !chars.Is(prefix[1], chars.Alpha) ||
		(len(prefix) > 2 && prefix[2] != ':') {
		return nsError(`an NBN prefix starts with an ISO 3166-1 alpha-2 country code (RFC 8458 section 4.2)`)
	}
	start := 3
	for i := 3; i <= len(prefix); i++ {
		if i < len(prefix) && prefix[i] != ':' {
			if !chars.Is(prefix[i], chars.Alpha|chars.Digit) {
				return nsError(`an NBN sub-namespace code is letters and digits (RFC 8458 section 4.2: subspc = 1*(ALPHA / DIGIT))`)
			}
			continue
		}
		if i == start && len(prefix) > 2 {
			return nsError(`empty NBN sub-namespace code (RFC 8458 section 4.2: subspc = 1*(ALPHA / DIGIT))`)
		}
		start = i + 1
	}
	// nbn-string = path-rootless = segment-nz *( "/" segment ) (RFC 3986
	// section 3.3): not empty, and not starting with "/".
	if nbn == "" || nbn[0] == '/' {
		return nsError(`an NBN string is a path-rootless: not empty, not starting with "/" (RFC 8458 section 4.2)`)
	}
	for i := 0; i < len(nbn); i++ {
		switch c := nbn[i]; {
		case c == '%':
			if i+2 >= len(nbn) || !chars.Is(nbn[i+1], chars.Hex) || !chars.Is(nbn[i+2], chars.Hex) {
				return nsError(`"%" not followed by two hexadecimal digits in NBN string`)
			}
			i += 2
		case c == '/' || chars.Is(c, chars.PChar):
		default:
			return nsError("invalid character " + quote(string(c)) + " in NBN string (RFC 8458 section 4.2: path-rootless)")
		}
	}
	return nil
}

// normalizeNBN lowercases the prefix of a valid NBN, up to its first "-".
func normalizeNBN(nss string) string {
	end := nbnPrefixEnd(nss)
	if end < 0 {
		return nss
	}
	lower := true
	for i := range end {
		if chars.Lower(nss[i]) != nss[i] {
			lower = false
			break
		}
	}
	if lower {
		return nss
	}
	b := []byte(nss)
	for i := range end {
		b[i] = chars.Lower(b[i])
	}
	return string(b)
}
