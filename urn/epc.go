package urn

import (
	"strings"

	"github.com/urikit/urikit/internal/chars"
)

// The "epc" namespace: RFC 5134, "A Uniform Resource Name Namespace for
// the EPCglobal Electronic Product Code (EPC) and Related Standards".
// Section 2 ("Declaration of structure"): "The 'epc' namespace is a set of
// sub-namespaces that can be extended in the future", with
//
//	EPC-URN     = "urn:epc:" sub-ns-name ":" sub-ns
//	sub-ns-name = let-num [ 1*let-num-hyp ]
//	sub-ns      = 1*<URN chars>
//	let-num     = upper / lower / number
//	let-num-hyp = upper / lower / number / "-"
//
// (<URN chars> is RFC 2141's, see rfc2141.go). Every NSS must match this
// generic rule, so a sub-namespace this package does not know is
// accepted. The sub-namespaces of the EPC Tag Data Standard that it
// knows are checked more strictly: "id", "tag", "pat", "idpat" and
// "class" hold a scheme name (a sub-ns-name, such as "sgtin" or
// "sgtin-96"), ":" and a body; "raw" holds a length in bits, "." and a
// value. "The entire URN is case-sensitive" (section 2, "Rules for
// Lexical Equivalence"): there are no extra equivalences, and the known
// sub-namespace names are compared as written.
//
// Examples: urn:epc:id:sgtin:900100.0003456.1234567 (RFC 5134 section 2),
// urn:epc:tag:sgtin-96:3.0614141.112345.400.
var epcRules = rules{"RFC 5134", validateEPC, nil}

// epcName reports whether s is a sub-ns-name: let-num [ 1*let-num-hyp ].
func epcName(s string) bool {
	if s == "" || !chars.Is(s[0], chars.Alpha|chars.Digit) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !chars.Is(s[i], chars.Alpha|chars.Digit) && s[i] != '-' {
			return false
		}
	}
	return true
}

// rfc2141Chars reports whether s is 1*<URN chars> of RFC 2141 section 2.2
// (the "?" and "#" of <reserved> cannot occur in an NSS).
func rfc2141Chars(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch {
		case isRFC2141Trans(s[i]) || s[i] == '/':
		case pctAt(s, i):
			i += 2
		default:
			return false
		}
	}
	return true
}

func validateEPC(nss string) error {
	sub, rest, ok := strings.Cut(nss, ":")
	if !ok || !epcName(sub) {
		return nsError(`an EPC URN is a sub-namespace name (letters, digits, "-"), ":" and more (RFC 5134 section 2)`)
	}
	if !rfc2141Chars(rest) {
		return nsError(`the sub-namespace part of an EPC URN is 1*<URN chars> of RFC 2141 (RFC 5134 section 2)`)
	}
	switch sub {
	case "id", "tag", "pat", "idpat", "class":
		scheme, body, ok := strings.Cut(rest, ":")
		if !ok || !epcName(scheme) || body == "" {
			return nsError(`an EPC URN under "` + sub + `:" is a scheme name, ":" and a body (EPC Tag Data Standard)`)
		}
	case "raw":
		bits, value, ok := strings.Cut(rest, ".")
		if !ok || bits == "" || strings.Trim(bits, "0123456789") != "" || value == "" {
			return nsError(`an EPC URN under "raw:" is a length in bits, "." and a value (EPC Tag Data Standard)`)
		}
	}
	return nil
}
