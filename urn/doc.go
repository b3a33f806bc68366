// Package urn parses, compares and builds Uniform Resource Names: URIs of
// the "urn" scheme, "urn:" NID ":" NSS, that name things independently of
// where they are.
//
// Parse implements RFC 8141 (sections 2 and 3); ParseWith also reads,
// by its Options' Dialect, the 2015 draft that became it (draft-ietf-urnbis-rfc2141bis-urn-14,
// with "?" q-component before "??" r-component), the 2012 draft
// (draft-ietf-urnbis-rfc2141bis-urn-03, with query directives such as
// "s=I2L&c=ToC") and RFC 2141. A URN is a small immutable value that
// slices its input; Parse allocates nothing.
//
//	u, err := urn.Parse("URN:ISBN:0-395-36341-1?=lang=en")
//	if err != nil {
//		return err
//	}
//	fmt.Println(u.NID(), u.NSS()) // ISBN 0-395-36341-1
//	fmt.Println(u.Key())          // urn:isbn:0-395-36341-1
//
// Equivalence follows RFC 8141 section 3 (Key, Equal) and the 2012
// draft's section 5 with its variants 5a and 5b (KeyWith, KeepQuery);
// NamespaceRules adds the equivalences of the namespaces in the registry
// table (Lookup): isbn, issn, uuid, oid, ietf and urn:ietf:params, nbn,
// example, xmpp and epc. ClassifyNID sorts NIDs as section 6 of the 2015
// draft does (formal, informal, reserved forms). FromNative and EncodeNSS
// turn native identifiers into URNs (RFC 8141 section 2.2); Display gives
// the form for people and flags mixed-script look-alikes.
//
// Errors are *uri.ParseError (urn.ParseError is the same type) with the
// reasons of package uri under the same names, so one errors.Is or
// errors.As handles URI and URN failures alike; a URN that breaks its
// namespace's rules gives a *NamespaceError (ValidateNamespace). A
// generic URI processor applies the URN rules to "urn:" URIs through
// the scheme registry (uri.Equal and uri.Key do).
package urn
