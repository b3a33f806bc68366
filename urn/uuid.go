package urn

import "github.com/urikit/urikit/internal/chars"

// The "uuid" namespace: RFC 4122 section 3, now RFC 9562 section 4. The
// NSS is the string form of a UUID, 8-4-4-4-12 hexadecimal digits. RFC
// 4122 section 3 (rules for lexical equivalence) compares two UUIDs field
// by field as unsigned integers; in the fixed-width string form that is
// the same as comparing the hexadecimal digits without regard to case
// (upper-case digits are accepted on input), so they compare in lowercase.
//
// Example (RFC 9562 section 4): urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6.
var uuidRules = rules{"RFC 9562", validateUUID, lowerOutsidePct}

func validateUUID(nss string) error {
	if len(nss) != 36 {
		return nsError("a UUID is 36 characters long")
	}
	for i := 0; i < 36; i++ {
		switch i {
		case 8, 13, 18, 23:
			if nss[i] != '-' {
				return nsError("a UUID has hyphens at 8, 13, 18 and 23")
			}
		default:
			if !chars.Is(nss[i], chars.Hex) {
				return nsError("a UUID is made of hexadecimal digits")
			}
		}
	}
	return nil
}
