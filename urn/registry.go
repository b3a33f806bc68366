package urn

import (
	"sort"

	"github.com/urikit/urikit/internal/chars"
)

// Namespace describes a registered URN namespace. For the namespaces this
// package implements, it also knows the namespace's syntax and the extra
// lexical equivalences its registration defines.
type Namespace struct {
	// NID is the namespace identifier, in lowercase.
	NID string
	// Reference names the registration document, as in "RFC 3187".
	Reference string

	validate  func(nss string) error  // nil: no syntax beyond RFC 8141
	normalize func(nss string) string // nil: no extra equivalence
}

// Implemented reports whether the package knows the namespace's syntax
// or its equivalence rules, rather than only its registration.
func (n Namespace) Implemented() bool { return n.validate != nil || n.normalize != nil }

// Validate checks nss against the namespace's syntax. nss is the NSS as
// it appears in a URN, percent-encoding included. Validate returns nil
// when the namespace defines no syntax this package checks.
func (n Namespace) Validate(nss string) error {
	if n.validate == nil {
		return nil
	}
	if err := n.validate(upperPct(nss)); err != nil {
		return &NamespaceError{NID: n.NID, NSS: nss, Reference: n.Reference, Reason: err.Error()}
	}
	return nil
}

// NamespaceError reports an NSS that breaks its namespace's syntax.
type NamespaceError struct {
	NID       string
	NSS       string
	Reference string // the registration document
	Reason    string
}

// Error returns a message such as
// `urn:isbn: "0-395-36341-2": check digit is 2, want 1 (RFC 3187)`.
func (e *NamespaceError) Error() string {
	return "urn:" + e.NID + ": " + quote(e.NSS) + ": " + e.Reason + " (" + e.Reference + ")"
}

func quote(s string) string { return `"` + s + `"` }

// ValidateNamespace checks u's NSS against the syntax its namespace's
// registration defines. It returns nil for namespaces this package does
// not implement: they get the generic rules only.
func (u URN) ValidateNamespace() error {
	ns, ok := Lookup(u.NID())
	if !ok {
		return nil
	}
	return ns.Validate(u.NSS())
}

// Lookup returns the registered namespace nid names (case-insensitively).
func Lookup(nid string) (Namespace, bool) {
	if len(nid) > 32 {
		return Namespace{}, false
	}
	var buf [32]byte
	for i := 0; i < len(nid); i++ {
		buf[i] = chars.Lower(nid[i])
	}
	ns, ok := registry[string(buf[:len(nid)])]
	return ns, ok
}

// Namespaces returns every namespace of the table, sorted by NID.
func Namespaces() []Namespace {
	out := make([]Namespace, 0, len(registry))
	for _, ns := range registry {
		out = append(out, ns)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].NID < out[j].NID })
	return out
}

// registry is the table of registered formal namespaces: the NIDs of the
// IANA "Uniform Resource Names (URN) Namespaces" registry
// (https://www.iana.org/assignments/urn-namespaces/), transcribed with the
// document each registration points to. The transcription is of the
// formal namespaces known at the time of writing and may lag the live
// registry; the informal ones (urn-1 ... urn-7) are recognised by
// ClassifyNID instead. The namespaces this package implements add their
// rules in init functions of the files named after them.
var registry = func() map[string]Namespace {
	m := make(map[string]Namespace)
	for _, e := range [...][2]string{
		{"3gpp", "3GPP TS 23.003 (RFC 5279)"},
		{"3gpp2", "3GPP2 (RFC 8464)"},
		{"adid", "Ad-ID"},
		{"alert", "RFC 7462"},
		{"bbf", "Broadband Forum"},
		{"broadband-forum-org", "RFC 6289"},
		{"cablelabs", "RFC 6289"},
		{"ccsds", "CCSDS"},
		{"cgi", "CGI"},
		{"clei", "RFC 4152"},
		{"ddi", "DDI Alliance"},
		{"dev", "RFC 9039"},
		{"dgiwg", "DGIWG"},
		{"dslforum-org", "RFC 6289"},
		{"dvb", "RFC 7354"},
		{"ebu", "EBU"},
		{"eidr", "EIDR"},
		{"epc", "RFC 5134"},
		{"epcglobal", "RFC 5134"},
		{"etsi", "ETSI"},
		{"eurosystem", "Eurosystem"},
		{"example", "RFC 6963"},
		{"fdc", "FDC"},
		{"fipa", "RFC 3616"},
		{"geant", "GEANT"},
		{"globus", "Globus"},
		{"gsma", "GSMA"},
		{"hbbtv", "HbbTV"},
		{"ieee", "RFC 8069"},
		{"ietf", "RFC 2648"},
		{"iptc", "RFC 3937"},
		{"isan", "RFC 4246"},
		{"isbn", "RFC 3187 (RFC 8254)"},
		{"iso", "RFC 5141"},
		{"issn", "RFC 3044 (RFC 8254)"},
		{"ivis", "IVIS"},
		{"liberty", "Liberty Alliance"},
		{"mace", "RFC 3613"},
		{"mef", "MEF"},
		{"mpeg", "RFC 3614"},
		{"mrn", "IALA"},
		{"nato", "NATO"},
		{"nbn", "RFC 8458"},
		{"nena", "RFC 6061"},
		{"newsml", "RFC 3085"},
		{"nfc", "RFC 4729"},
		{"nzl", "RFC 4350"},
		{"oasis", "RFC 3121"},
		{"ogc", "RFC 5165"},
		{"ogf", "RFC 6453"},
		{"oid", "RFC 3061"},
		{"oipf", "RFC 6893"},
		{"oma", "RFC 4358"},
		{"pin", "RFC 3043"},
		{"publicid", "RFC 3151"},
		{"reso", "RESO"},
		{"s1000d", "RFC 4688"},
		{"schac", "RFC 6338"},
		{"service", "RFC 5031"},
		{"smpte", "RFC 5119"},
		{"swift", "RFC 3615"},
		{"tva", "RFC 4195"},
		{"uci", "RFC 4179"},
		{"ucode", "RFC 6588"},
		{"uuid", "RFC 4122 (RFC 9562)"},
		{"web3d", "RFC 3541"},
		{"xmlorg", "RFC 3120"},
		{"xmpp", "RFC 4854"},
	} {
		m[e[0]] = Namespace{NID: e[0], Reference: e[1]}
	}
	return m
}()

// implement attaches syntax and equivalence rules to a registered
// namespace.
func implement(nid, ref string, validate func(string) error, normalize func(string) string) {
	registry[nid] = Namespace{NID: nid, Reference: ref, validate: validate, normalize: normalize}
}

type nsError string

func (e nsError) Error() string { return string(e) }

// lowerOutsidePct lowercases the ASCII letters of s that are not the
// hexadecimal digits of a pct-encoded triplet.
func lowerOutsidePct(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		if b[i] == '%' {
			i += 2
			continue
		}
		b[i] = chars.Lower(b[i])
	}
	return string(b)
}
