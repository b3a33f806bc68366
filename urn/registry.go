package urn

import (
	"sort"
	"strings"

	"github.com/urikit/urikit/internal/chars"
)

// Namespace describes a registered URN namespace. For the namespaces this
// package implements, it also knows the namespace's syntax and the extra
// lexical equivalences its registration defines.
type Namespace struct {
	// NID is the namespace identifier, in lowercase.
	NID string
	// Informal reports an informal namespace ("urn-" Number, RFC 8141
	// section 5.2); the others are formal.
	Informal bool
	// Reference is the registry's reference for the registration, as in
	// "RFC 3061" or "International ISBN Agency"; several are joined by
	// ", ". It is empty where this package's transcription has none (the
	// namespaces registered after 2021, and the informal ones).
	Reference string
	// Template names the registry's registration template, if it lists
	// one, as in "isbn-template".
	Template string
	// Rules names the document whose syntax and equivalence rules this
	// package implements for the namespace, as in "RFC 3187"; it is
	// empty unless Implemented.
	Rules string

	validate  func(nss string) error  // nil: no syntax beyond RFC 8141
	normalize func(nss string) string // nil: no extra equivalence
	// check is what Validate checks beyond the syntax (a check digit):
	// it never decides equivalence, so a URN whose check digit is wrong
	// has the same key as one whose digit is right.
	check func(nss string) error
}

// Implemented reports whether the package knows the namespace's syntax
// or its equivalence rules, rather than only its registration.
func (n Namespace) Implemented() bool { return n.validate != nil || n.normalize != nil }

// Validate checks nss against the namespace's syntax and the checks its
// assigners define beyond it (the check digit of urn:nbn:de). nss is the
// NSS as it appears in a URN, percent-encoding included. Validate
// returns nil when the namespace defines no syntax this package checks.
func (n Namespace) Validate(nss string) error {
	if n.validate == nil {
		return nil
	}
	err := n.validate(upperPct(nss))
	if err == nil && n.check != nil {
		err = n.check(upperPct(nss))
	}
	if err != nil {
		return &NamespaceError{NID: n.NID, NSS: nss, Reference: n.Rules, Reason: err.Error()}
	}
	return nil
}

// NamespaceError reports an NSS that breaks its namespace's syntax.
type NamespaceError struct {
	NID       string
	NSS       string
	Reference string // the document whose rules the NSS breaks (Namespace.Rules)
	Reason    string
	// Offset is the offset of the NSS in the URN, for the errors of
	// URN.ValidateNamespace; 0 for Namespace.Validate, which sees the
	// NSS alone.
	Offset int
}

// Error returns a message such as
// `urn:isbn: "0-395-36341-2": check digit is 2, want 1 (RFC 3187)`.
func (e *NamespaceError) Error() string {
	msg := "urn:" + e.NID + ": " + quote(e.NSS) + ": " + e.Reason
	if strings.Contains(e.Reason, e.Reference) { // the reason cites a section of it already
		return msg
	}
	return msg + " (" + e.Reference + ")"
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
	err := ns.Validate(u.NSS())
	if e, ok := err.(*NamespaceError); ok {
		e.Offset = int(u.nidEnd) + 1
	}
	return err
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

// Namespaces returns every namespace of the table, formal and informal,
// sorted by NID.
func Namespaces() []Namespace {
	out := make([]Namespace, 0, len(registry))
	for _, ns := range registry {
		out = append(out, ns)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].NID < out[j].NID })
	return out
}

// The IANA "Uniform Resource Names (URN) Namespaces" registry
// (https://www.iana.org/assignments/urn-namespaces/), transcribed as
// facts. The NIDs, formal and informal, are those of the registry as
// updated 2026-05-28 (IANA URN Namespaces registry, updated 2026-05-28).
// The reference and template columns come from the registry's 2021 CSV
// export, so the 26 formal namespaces registered since then (c2pa ...
// wmo) have neither here. The informal NIDs are listed by name only.
// TestRegistryMatchesIANA checks the NIDs against a copy of the registry
// when URIKIT_SHARED is set. The namespaces this package implements add
// their rules in the init functions of the files named after them.

// formalNamespaces lists the formal NIDs: NID, reference, template.
var formalNamespaces = [...][3]string{
	{"3gpp", "RFC 5279", ""},
	{"3gpp2", "RFC 8464", "3gpp2-template"},
	{"adid", "RFC 8107", ""},
	{"alert", "RFC 7462", ""},
	{"bbf", "RFC 8057", ""},
	{"broadband-forum-org", "RFC 8057", ""},
	{"c2pa", "", ""},
	{"cablelabs", "RFC 6289", ""},
	{"ccsds", "RFC 7738", ""},
	{"cdx", "", ""},
	{"cgi", "RFC 5138", ""},
	{"clei", "RFC 4152", ""},
	{"csa", "", ""},
	{"cta", "", ""},
	{"ddi", "draft-urn-ddi-00", ""},
	{"dev", "RFC 9039", "dev-template"},
	{"dgiwg", "RFC 6288", ""},
	{"doi", "", ""},
	{"dslforum-org", "RFC 8057", ""},
	{"dvb", "RFC 5328, RFC 7354", ""},
	{"ebu", "RFC 5174", ""},
	{"eic", "", ""},
	{"eidr", "RFC 7972", ""},
	{"epc", "RFC 5134", ""},
	{"epcglobal", "RFC 5134", ""},
	{"etsi", "RFC 8515", "etsi-template"},
	{"eurosystem", "RFC 7207", ""},
	{"example", "RFC 6963", ""},
	{"fdc", "RFC 4198", ""},
	{"fipa", "RFC 3616", ""},
	{"gdr", "", ""},
	{"gdst", "", ""},
	{"geant", "RFC 4926", ""},
	{"globus", "RFC 7853", ""},
	{"gsma", "RFC 7254", ""},
	{"gvat", "", ""},
	{"hbbtv", "RFC 7528", ""},
	{"ieee", "RFC 8069", ""},
	{"ietf", "RFC 2648", ""},
	{"iptc", "RFC 3937", ""},
	{"isan", "RFC 4246", ""},
	{"isbn", "International ISBN Agency", "isbn-template"},
	{"iso", "RFC 5141", ""},
	{"isni", "", ""},
	{"issn", "ISSN International Centre", "issn-template"},
	{"itu", "International Telecommunications Union (ITU)", "itu-template"},
	{"ivis", "RFC 4617", ""},
	{"knx", "", ""},
	{"lei", "", ""},
	{"lex", "", ""},
	{"liberty", "RFC 3622", ""},
	{"mace", "RFC 3613", ""},
	{"mef", "RFC 7818", ""},
	{"meta", "", ""},
	{"mpeg", "RFC 3614", ""},
	{"mrn", "International Association of Marine Aids to Navigation and Lighthouse Authorities (IALA)", "mrn-template"},
	{"nan", "", ""},
	{"nato", "RFC 7467", ""},
	{"nbn", "RFC 8458", "nbn-template"},
	{"nena", "RFC 6061", ""},
	{"newsml", "RFC 3085", ""},
	{"nfc", "RFC 4729", ""},
	{"nfi", "", ""},
	{"nzl", "RFC 4350", ""},
	{"oasis", "RFC 3121", ""},
	{"ogc", "RFC 5165", ""},
	{"ogf", "RFC 6453", ""},
	{"oid", "RFC 3061", ""},
	{"oipf", "RFC 6893", ""},
	{"oma", "RFC 4358", ""},
	{"onem2m", "", ""},
	{"onf", "Open Networking Foundation", "onf-template"},
	{"pin", "RFC 3043", ""},
	{"pno", "", ""},
	{"publicid", "RFC 3151", ""},
	{"pwid", "", ""},
	{"reso", "Real Estate Standards Organization (RESO)", "reso-template"},
	{"s1000d", "RFC 4688", ""},
	{"said", "", ""},
	{"schac", "RFC 6338", ""},
	{"service", "RFC 5031", ""},
	{"smpte", "RFC 5119", ""},
	{"stalwart", "", ""},
	{"swift", "RFC 3615", ""},
	{"thread", "", ""},
	{"trivore", "", ""},
	{"tva", "RFC 4195", ""},
	{"uci", "RFC 4179", ""},
	{"ucode", "RFC 6588, RFC Errata 3188, RFC Errata 3189", ""},
	{"uic", "", ""},
	{"uuid", "RFC 4122", ""},
	{"web3d", "RFC 3541", ""},
	{"wfa", "", ""},
	{"wmo", "", ""},
	{"xmlorg", "RFC 3120", ""},
	{"xmpp", "RFC 4854", ""},
}

// informalNamespaces lists the informal NIDs ("urn-" Number, RFC 8141
// section 5.2) registered with IANA.
var informalNamespaces = [...]string{
	"urn-1", "urn-2", "urn-3", "urn-4", "urn-5", "urn-6", "urn-7", "urn-8",
}

// rules are the syntax and equivalence rules of a namespace this
// package implements, each in the file named after the namespace.
type rules struct {
	source    string // the document they come from
	validate  func(nss string) error
	normalize func(nss string) string
}

// implemented maps the NIDs whose rules this package implements to them.
var implemented = map[string]rules{
	"epc":     epcRules,
	"example": exampleRules,
	"ietf":    ietfRules,
	"isbn":    isbnRules,
	"issn":    issnRules,
	"nbn":     nbnRules,
	"oid":     oidRules,
	"uuid":    uuidRules,
	"xmpp":    xmppRules,
}

// checks maps the NIDs with checks beyond their syntax to them.
var checks = map[string]func(nss string) error{
	"nbn": checkNBN,
}

// registry maps each registered NID, in lowercase, to its namespace. It
// is built once from the tables above and never written again.
var registry = func() map[string]Namespace {
	m := make(map[string]Namespace, len(formalNamespaces)+len(informalNamespaces))
	for _, e := range formalNamespaces {
		ns := Namespace{NID: e[0], Reference: e[1], Template: e[2]}
		if r, ok := implemented[e[0]]; ok {
			ns.Rules, ns.validate, ns.normalize, ns.check = r.source, r.validate, r.normalize, checks[e[0]]
		}
		m[e[0]] = ns
	}
	for _, nid := range informalNamespaces {
		m[nid] = Namespace{NID: nid, Informal: true}
	}
	return m
}()

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
