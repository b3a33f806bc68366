package urn

import "github.com/urikit/urikit/internal/chars"

// The "nbn" namespace: RFC 8458, "Using National Bibliography Numbers as
// Uniform Resource Names" (obsoletes RFC 3188). The NSS starts with the
// ISO 3166-1 alpha-2 code of the country whose national library assigns
// the number, followed by ":" (a sub-namespace, as in "de:bvb:19-146642")
// or "-" (as in "fi-fe19981001"), and the number. Country codes are not
// case-sensitive, so the code is compared in lowercase.
//
// Examples: URN:NBN:fi-fe19981001 (RFC 8458), urn:nbn:de:bvb:19-146642.
var nbnRules = rules{"RFC 8458", validateNBN, normalizeNBN}

func validateNBN(nss string) error {
	if len(nss) < 4 || !chars.Is(nss[0], chars.Alpha) || !chars.Is(nss[1], chars.Alpha) ||
		(nss[2] != ':' && nss[2] != '-') {
		return nsError(`an NBN starts with an ISO 3166 country code and ":" or "-"`)
	}
	return nil
}

func normalizeNBN(nss string) string {
	if len(nss) < 2 || (chars.Lower(nss[0]) == nss[0] && chars.Lower(nss[1]) == nss[1]) {
		return nss
	}
	return string([]byte{chars.Lower(nss[0]), chars.Lower(nss[1])}) + nss[2:]
}
