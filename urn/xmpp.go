package urn

import "github.com/urikit/urikit/internal/chars"

// The "xmpp" namespace: RFC 4854, "A Uniform Resource Name (URN)
// Namespace for Extensions to the Extensible Messaging and Presence
// Protocol (XMPP)". The NSS is a colon-separated hierarchy of names
// assigned by the XMPP Registrar, such as "tmp:example" or "jingle:1";
// this package checks that no level is empty and that no
// percent-encoding is used. There are no extra equivalences.
//
// Examples: urn:xmpp:tmp:example (RFC 4854), urn:xmpp:jingle:1.
var xmppRules = rules{"RFC 4854", validateXMPP, nil}

func validateXMPP(nss string) error {
	start := 0
	for i := 0; i <= len(nss); i++ {
		if i < len(nss) && nss[i] != ':' {
			if !chars.Is(nss[i], chars.Unreserved) {
				return nsError("an XMPP name is made of letters, digits, \"-\" \".\" \"_\" \"~\"")
			}
			continue
		}
		if i == start {
			return nsError("empty level in XMPP name")
		}
		start = i + 1
	}
	return nil
}
