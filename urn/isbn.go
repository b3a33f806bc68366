package urn

import (
	"strconv"
	"strings"
)

// The "isbn" namespace: RFC 3187, "Using International Standard Book
// Numbers as Uniform Resource Names". RFC 8254 (abstract) obsoletes RFC
// 3187 and moves it to Historic: the namespace is now described by the
// International ISBN Agency's registration template, which is the IANA
// registry's reference (Namespace.Reference); the rules below are still
// those of RFC 3187 plus the 13-digit form of ISO 2108 that the agency
// assigns since 2007. The NSS is an ISBN (ISO 2108): ten characters (nine digits and a check
// digit that may be "X") or thirteen digits starting 978 or 979, with
// optional hyphens between the groups. Hyphens only make an ISBN easier
// to read, so they do not count for equivalence, nor does the case of the
// check character "X".
//
// Examples: URN:ISBN:0-395-36341-1 (RFC 3187), urn:isbn:978-0-395-36341-6.
var isbnRules = rules{"RFC 3187", validateISBN, normalizeISBN}

func validateISBN(nss string) error {
	d := normalizeISBN(nss)
	if strings.HasPrefix(nss, "-") || strings.HasSuffix(nss, "-") || strings.Contains(nss, "--") {
		return nsError("misplaced hyphen")
	}
	switch len(d) {
	case 10:
		sum := 0
		for i := 0; i < 10; i++ {
			c := d[i]
			var v int
			switch {
			case '0' <= c && c <= '9':
				v = int(c - '0')
			case c == 'X' && i == 9:
				v = 10
			default:
				return nsError("invalid character " + strconv.QuoteRune(rune(c)) + " in ISBN-10")
			}
			sum += (10 - i) * v
		}
		if sum%11 != 0 {
			return nsError("ISBN-10 check digit does not match")
		}
	case 13:
		if !strings.HasPrefix(d, "978") && !strings.HasPrefix(d, "979") {
			return nsError("ISBN-13 must start with 978 or 979")
		}
		sum := 0
		for i := 0; i < 13; i++ {
			c := d[i]
			if c < '0' || c > '9' {
				return nsError("invalid character " + strconv.QuoteRune(rune(c)) + " in ISBN-13")
			}
			w := 1
			if i%2 == 1 {
				w = 3
			}
			sum += w * int(c-'0')
		}
		if sum%10 != 0 {
			return nsError("ISBN-13 check digit does not match")
		}
	default:
		return nsError("an ISBN has 10 or 13 digits, not " + strconv.Itoa(len(d)))
	}
	return nil
}

// normalizeISBN drops the hyphens and uppercases the check character.
func normalizeISBN(nss string) string {
	return strings.ToUpper(strings.ReplaceAll(nss, "-", ""))
}
