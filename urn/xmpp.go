package urn

import "github.com/urikit/urikit/internal/chars"

// The "xmpp" namespace: RFC 4854, "A Uniform Resource Name (URN)
// Namespace for Extensions to the Extensible Messaging and Presence
// Protocol (XMPP)". Section 2 ("Declaration of Syntactic Structure"):
// the NSS has the structure "{ShortName}:{SubName}", where "the
// "ShortName" is a required US-ASCII string that conforms to the URN
// syntax requirements (see RFC 2141)", the SubName is optional, and the
// XMPP Registrar "may also assign URNs in sub-trees below the level of
// the ShortName or SubName".
//
// So the NSS is a colon-separated hierarchy of names, none empty, each
// made of RFC 2141's characters: letters, digits and <other> but ":"
// (section 2.2: "( ) + , - . = @ ; $ _ ! * '"). A "%" escape is allowed
// only for the octets that RFC 2141 requires to be encoded: "%" "/" "?"
// "#" (section 2.3) and the excluded US-ASCII characters (section 2.4);
// "a character MUST NOT be "%"-encoded if the character is not a reserved
// character" (section 2.3.1), %00 is never used (section 2.4), and octets
// above 7F are not US-ASCII. There are no extra equivalences.
//
// Examples: urn:xmpp:tmp:example (RFC 4854), urn:xmpp:jingle:1,
// urn:xmpp:foo,bar.
var xmppRules = rules{"RFC 4854", validateXMPP, nil}

func validateXMPP(nss string) error {
	start := 0
	for i := 0; i <= len(nss); i++ {
		if i == len(nss) || nss[i] == ':' {
			if i == start {
				return nsError("empty level in XMPP name (RFC 4854 section 2)")
			}
			start = i + 1
			continue
		}
		c := nss[i]
		switch {
		case isRFC2141Trans(c):
		case c == '%':
			if !pctAt(nss, i) {
				return nsError(`"%" not followed by two hexadecimal digits in XMPP name (RFC 2141 section 2.3.1)`)
			}
			v := byte(chars.Unhex(nss[i+1])<<4 | chars.Unhex(nss[i+2]))
			if v == 0 || v >= 0x80 || isRFC2141Trans(v) {
				return nsError("needless or non-US-ASCII escape " + quote(nss[i:i+3]) + " in XMPP name (RFC 4854 section 2, RFC 2141 section 2.3.1)")
			}
			i += 2
		default:
			return nsError("invalid character " + quote(string(c)) + " in XMPP name: RFC 4854 section 2 allows RFC 2141's letters, digits and ( ) + , - . = @ ; $ _ ! * '")
		}
	}
	return nil
}
