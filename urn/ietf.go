package urn

import (
	"slices"
	"strings"

	"github.com/urikit/urikit/internal/chars"
)

// The "ietf" namespace: RFC 2648, "A URN Namespace for IETF Documents"
// (updated by RFC 6924, which puts the sub-namespaces in an IANA
// registry), and the "params" sub-namespace of RFC 3553, "An IETF URN
// Sub-namespace for Registered Protocol Parameters".
//
// RFC 2648 section 2 ("Declaration of structure") gives
//
//	NSS       = rfc-nss / fyi-nss / std-nss / bcp-nss / draft-nss / mtg-nss / other-nss
//	rfc-nss   = "rfc:" 1*DIGIT
//	fyi-nss   = "fyi:" 1*DIGIT
//	std-nss   = "std:" 1*DIGIT
//	bcp-nss   = "bcp:" 1*DIGIT
//	draft-nss = "id:" string
//	mtg-nss   = "mtg:" string
//	other-nss = string   ; a prefix other than those above
//	string    = 1*(DIGIT / ALPHA / "-")
//
// and its rules for lexical equivalence make the whole URN
// case-insensitive; those rules are applied to the RFC 2648
// sub-namespaces.
//
// RFC 3553 section 4 adds
//
//	urn:ietf:params:<class>:<class-specific-string>
//
// where <class> is registered with IANA ("IETF URN Sub-namespace for
// Registered Protocol Parameter Identifiers") and the rest is defined by
// the class's registration; the class alone ("urn:ietf:params:oauth") is
// also in use as a registry entry. Since the class-specific strings are
// compared as written by their users (XML namespace names, for one), no
// extra equivalence is applied under "params".
//
// Examples: urn:ietf:rfc:2648, urn:ietf:std:50, urn:ietf:id:ietf-urn-ietf-06,
// urn:ietf:mtg:41-urn (RFC 2648), urn:ietf:params:xml:ns:xmpp-session.
var ietfRules = rules{"RFC 2648, RFC 3553", validateIETF, normalizeIETF}

// ParamsClasses returns the classes of the urn:ietf:params sub-namespace
// (RFC 3553) as transcribed from the IANA registry "IETF URN
// Sub-namespace for Registered Protocol Parameter Identifiers"; the
// transcription may lag the live registry. The slice is the caller's.
func ParamsClasses() []string { return slices.Clone(paramsClasses[:]) }

var paramsClasses = [...]string{
	"acme", "cpim-headers", "ecml", "geopriv", "imdn", "jmap",
	"netconf", "oauth", "restconf", "rtp-hdrext", "scim", "xml",
}

func validateIETF(nss string) error {
	sub, rest, hasRest := strings.Cut(nss, ":")
	switch strings.ToLower(sub) {
	case "rfc", "fyi", "std", "bcp":
		if !hasRest || rest == "" || strings.Trim(rest, "0123456789") != "" {
			return nsError(quote(sub+":") + " is followed by a number (RFC 2648)")
		}
	case "id", "mtg":
		if !hasRest || !isLDHString(rest) {
			return nsError(quote(sub+":") + " is followed by letters, digits and hyphens (RFC 2648)")
		}
	case "params":
		class, _, _ := strings.Cut(rest, ":")
		if !hasRest || !isLDHString(class) {
			return nsError(`"params:" is followed by a registered class (RFC 3553)`)
		}
	default:
		if hasRest || !isLDHString(sub) {
			return nsError("unknown IETF sub-namespace " + quote(sub))
		}
	}
	return nil
}

func normalizeIETF(nss string) string {
	if len(nss) >= 7 && strings.EqualFold(nss[:7], "params:") {
		return "params:" + nss[7:]
	}
	return lowerOutsidePct(nss)
}

// isLDHString reports whether s is 1*(DIGIT / ALPHA / "-").
func isLDHString(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !chars.Is(s[i], alnum) && s[i] != '-' {
			return false
		}
	}
	return true
}

// IsParamsClass reports whether class is a registered class of the
// urn:ietf:params sub-namespace (RFC 3553), as far as ParamsClasses knows.
func IsParamsClass(class string) bool {
	for _, c := range paramsClasses {
		if strings.EqualFold(c, class) {
			return true
		}
	}
	return false
}
