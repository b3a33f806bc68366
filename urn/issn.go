package urn

import "strings"

// The "issn" namespace: RFC 3044, "Using The ISSN (International Serial
// Standard Number) as URN". RFC 8254 (abstract) obsoletes RFC 3044 and
// moves it to Historic: the namespace is now described by the ISSN
// International Centre's registration template, the IANA registry's
// reference (Namespace.Reference); the rules below are still RFC 3044's.
//
// The NSS is an ISSN (ISO 3297), "NNNN-NNNC" (RFC 3044 section 5): eight
// characters, the last a check character computed modulo 11 that may be
// "X". Section 5's "Rules for Lexical Equivalence" make two spellings the
// same ISSN: "The hyphen between the 4th and the 5th digit can be
// omitted", and "if "x" is found it must be translated in upper case".
// The equivalence key writes the form section 5 displays, "two groups of
// four digits separated by a hyphen", with an upper-case "X", so
// urn:issn:0259000x and urn:ISSN:0259-000X have the key
// urn:issn:0259-000X.
//
// Examples from RFC 3044: URN:ISSN:0259-000X, URN:ISSN:1560-1560,
// urn:ISSN:1046-8188 (section 3.1).
var issnRules = rules{"RFC 3044", validateISSN, normalizeISSN}

func validateISSN(nss string) error {
	digits := nss
	switch {
	case len(nss) == 9 && nss[4] == '-':
		digits = nss[:4] + nss[5:]
	case len(nss) != 8:
		return nsError(`an ISSN is NNNN-NNNC or NNNNNNNC (RFC 3044 section 5)`)
	}
	sum := 0
	for i := range 8 {
		c := digits[i]
		var v int
		switch {
		case '0' <= c && c <= '9':
			v = int(c - '0')
		case (c == 'X' || c == 'x') && i == 7:
			v = 10
		default:
			return nsError("invalid character in ISSN")
		}
		sum += (8 - i) * v // weights 8 to 2, then 1 for the check character
	}
	if sum%11 != 0 {
		return nsError("ISSN check character does not match")
	}
	return nil
}

// normalizeISSN returns the hyphenated, upper-case form of a valid ISSN.
func normalizeISSN(nss string) string {
	nss = strings.ToUpper(nss)
	if len(nss) == 8 {
		return nss[:4] + "-" + nss[4:]
	}
	return nss
}
