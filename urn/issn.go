package urn

import "strings"

// The "issn" namespace: RFC 3044, "Using The ISSN (International Serial
// Standard Number) as URN". RFC 8254 (abstract) obsoletes RFC 3044 and
// moves it to Historic: the namespace is now described by the ISSN
// International Centre's registration template, the IANA registry's
// reference (Namespace.Reference). The NSS is an ISSN
// (ISO 3297): two groups of four characters separated by a hyphen, the
// last one a check character computed modulo 11 that may be "X"; its case
// does not count for equivalence.
//
// Examples from RFC 3044: URN:ISSN:0259-000X, URN:ISSN:1560-1560.
var issnRules = rules{"RFC 3044", validateISSN, strings.ToUpper}

func validateISSN(nss string) error {
	if len(nss) != 9 || nss[4] != '-' {
		return nsError(`an ISSN is NNNN-NNNC`)
	}
	sum := 0
	for i, w := 0, 8; i < 9; i++ {
		if i == 4 {
			continue
		}
		c := nss[i]
		var v int
		switch {
		case '0' <= c && c <= '9':
			v = int(c - '0')
		case (c == 'X' || c == 'x') && i == 8:
			v = 10
		default:
			return nsError("invalid character in ISSN")
		}
		if i == 8 {
			w = 1
		}
		sum += w * v
		w--
	}
	if sum%11 != 0 {
		return nsError("ISSN check character does not match")
	}
	return nil
}
