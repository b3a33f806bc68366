package urn

import "strings"

// The "epc" namespace: RFC 5134, "A Uniform Resource Name Namespace for
// the EPCglobal Electronic Product Code (EPC) and Related Standards". The
// NSS starts with one of the EPCglobal sub-namespaces defined by the EPC
// Tag Data Standard: "id" (pure identity), "tag" (tag encodings), "pat"
// and "idpat" (patterns), "raw", or "class"; then ":" and the rest. There
// are no extra equivalences.
//
// Examples: urn:epc:id:sgtin:0614141.112345.400,
// urn:epc:tag:sgtin-96:3.0614141.112345.400.
var epcRules = rules{"RFC 5134", validateEPC, nil}

func validateEPC(nss string) error {
	sub, rest, ok := strings.Cut(nss, ":")
	if !ok || rest == "" {
		return nsError(`an EPC URN is "id:", "tag:", "pat:", "idpat:", "raw:" or "class:" and more`)
	}
	switch sub {
	case "id", "tag", "pat", "idpat", "raw", "class":
		return nil
	}
	return nsError("unknown EPC sub-namespace " + quote(sub))
}
