package urn

// The "oid" namespace: RFC 3061, "A URN Namespace of Object Identifiers".
// The NSS is an OID in dotted decimal form:
//
//	oid    = number *( "." number )
//	number = DIGIT / ( LEADDIGIT 1*DIGIT )
//
// so no number has a leading zero. RFC 3061 defines no equivalence beyond
// the generic one.
//
// Example (RFC 3061): urn:oid:1.3.6.1.
var oidRules = rules{"RFC 3061", validateOID, nil}

func validateOID(nss string) error {
	start := 0
	for i := 0; i <= len(nss); i++ {
		if i < len(nss) && nss[i] != '.' {
			if nss[i] < '0' || nss[i] > '9' {
				return nsError("an OID is made of digits and dots")
			}
			continue
		}
		switch {
		case i == start:
			return nsError("empty arc in OID")
		case nss[start] == '0' && i-start > 1:
			return nsError("arc with a leading zero in OID")
		}
		start = i + 1
	}
	return nil
}
