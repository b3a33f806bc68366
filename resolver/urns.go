package resolver

// This file is the resolver's only door into package urn: every call into
// it is here.

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/urikit/urikit/urn"
)

// parseDialect is the one call that names the dialect-selecting parser.
func parseDialect(s string, d urn.Dialect) (urn.URN, error) {
	return urn.ParseWith(s, urn.Options{Dialect: d})
}

// Name is a URN as the resolver sees it: the parsed value, its storage
// key, and the resolution directives it carries. The zero Name is invalid.
type Name struct {
	u   urn.URN
	key string
	// service is the "s" directive of a query that was read apart from
	// the URN (see ParseRequest); "" when there is none.
	service string
}

// Key returns the equivalence key the resolver stores records under:
// RFC 8141 section 3.1 plus the lexical equivalences of the URN's
// namespace registration (urn.NamespaceRules), so that every lexically
// equivalent form reaches the same record (RFC 2169 section 2 requires
// identical results for them).
func (n Name) Key() string { return n.key }

// GenericKey returns the RFC 8141 section 3.1 key without namespace rules.
func (n Name) GenericKey() string { return n.u.Key() }

// String returns the URN as it was written.
func (n Name) String() string { return n.u.String() }

// Canonical returns the assigned-name in normalized form (RFC 8141
// section 3.1: "urn" and NID lowercase, percent-encoding uppercase), the
// form the resolver shows and stores for people.
func (n Name) Canonical() string { return n.u.Normalize().AssignedName() }

// NID returns the namespace identifier in lowercase.
func (n Name) NID() string { return lowerASCII(n.u.NID()) }

// NSS returns the namespace specific string as written.
func (n Name) NSS() string { return n.u.NSS() }

// Dialect returns the name of the grammar the URN was parsed with.
func (n Name) Dialect() string { return n.u.Dialect().String() }

// HasComponents reports whether the URN carries an r-, q- or f-component
// (a query or fragment in the older dialects): none of them is part of
// an assigned name (RFC 8141 section 2; 2012 draft sections 2.3, 2.4).
func (n Name) HasComponents() bool {
	_, r := n.u.RComponent()
	_, q := n.u.QComponent()
	_, f := n.u.FComponent()
	return r || q || f
}

// QComponent returns the q-component that is to be copied into the query
// of the URL a URN resolves to (RFC 8141 section 2.3.2; 2015 draft
// 3.3.1). A 2012-draft query is not one: it holds directives addressed to
// the resolver (2012 draft section 2.3), so it is never copied.
func (n Name) QComponent() (string, bool) {
	if n.u.Dialect() == urn.Draft2012 {
		return "", false
	}
	return n.u.QComponent()
}

// RComponent returns the r-component, the part meant for the resolver
// (RFC 8141 section 2.3.1).
func (n Name) RComponent() (string, bool) { return n.u.RComponent() }

// FComponent returns the f-component. It never reaches a resolver from a
// conforming client (RFC 8141 section 2.3.3); the resolver ignores it.
func (n Name) FComponent() (string, bool) { return n.u.FComponent() }

// Service returns the resolution service the URN asks for: the "s"
// directive of a 2012-draft query (2012 draft section 2.3.1), or an "s"
// directive inside an RFC 8141 r-component ("?+s=I2Ls"). RFC 8141 leaves
// the r-component's syntax to future specifications; this resolver reads
// it with the 2012 draft's directive syntax, the only one published, so a
// repeated "s" is ignored in both places (2012 draft section 2.3).
func (n Name) Service() (string, bool) {
	if n.service != "" {
		return n.service, true
	}
	if s, ok := n.u.Service(); ok {
		return s, true
	}
	r, ok := n.u.RComponent()
	if !ok || r == "" {
		return "", false
	}
	return directiveService(r)
}

// directiveService reads r as a 2012-draft directive list and returns its
// "s" directive. It borrows the 2012 grammar by parsing a stand-in URN of
// the "example" namespace (RFC 6963) whose query is r.
func directiveService(r string) (string, bool) {
	v, err := parseDialect("urn:example:r?"+r, urn.Draft2012)
	if err != nil {
		return "", false
	}
	return v.Service()
}

// validDirectives reports whether q is a 2012-draft directive list.
func validDirectives(q string) bool {
	_, err := parseDialect("urn:example:r?"+q, urn.Draft2012)
	return err == nil
}

// Display returns the canonical assigned-name in the form for people
// (percent-encoded printable non-ASCII characters decoded), with a
// warning for each letter of a second script (RFC 8141 section 4.4).
func (n Name) Display() (text string, warnings []string) {
	v, err := parseDialect(n.Canonical(), n.u.Dialect())
	if err != nil { // cannot happen: a canonical assigned-name re-parses
		return n.Canonical(), nil
	}
	d := v.Display()
	return d.Text, d.Warnings
}

// Warnings returns what a careful producer of the URN avoids.
func (n Name) Warnings() []string { return n.u.Warnings() }

// ValidateNamespace checks the NSS against its namespace's registered
// syntax (for the namespaces package urn implements, such as the ISBN
// check digit); nil when it passes or the namespace defines none.
func (n Name) ValidateNamespace() error { return n.u.ValidateNamespace() }

// NameError reports why a string is not a URN: the parser's byte offset,
// the component and the reason.
type NameError struct {
	Input     string
	Offset    int
	Component string // "scheme", "NID", "NSS", "r-component", ...
	Reason    string // the parser's reason, with the offset and component
	Dialect   string
	err       error
}

func (e *NameError) Error() string {
	return fmt.Sprintf("invalid URN (%s): %s", e.Dialect, e.Reason)
}

// Unwrap returns the parser's error.
func (e *NameError) Unwrap() error { return e.err }

func nameError(s string, d urn.Dialect, err error) *NameError {
	ne := &NameError{Input: s, Dialect: d.String(), Reason: err.Error(), err: err}
	var pe *urn.ParseError
	if errors.As(err, &pe) {
		ne.Offset = pe.Offset
		ne.Component = pe.Component.String()
		ne.Reason = pe.Message()
	}
	return ne
}

// Dialects says which URN grammar each namespace is read with. The zero
// value reads every namespace as RFC 8141.
type Dialects struct {
	byNID map[string]urn.Dialect // lowercase NID
}

// ParseDialects reads a list such as "nbn=draft2012,isbn=rfc8141": NID
// "=" dialect pairs separated by commas or spaces. The dialect names are
// rfc8141, draft2015, draft2012 and rfc2141.
func ParseDialects(spec string) (Dialects, error) {
	var d Dialects
	for _, f := range strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == ' ' }) {
		nid, name, ok := strings.Cut(f, "=")
		if !ok || nid == "" {
			return Dialects{}, fmt.Errorf("dialect %q: want NID=DIALECT", f)
		}
		dia, ok := urn.DialectByName(strings.ToLower(name))
		if !ok {
			return Dialects{}, fmt.Errorf("dialect %q: unknown dialect %q (want rfc8141, draft2015, draft2012 or rfc2141)", f, name)
		}
		if d.byNID == nil {
			d.byNID = map[string]urn.Dialect{}
		}
		d.byNID[strings.ToLower(nid)] = dia
	}
	return d, nil
}

// String returns the list in the form ParseDialects reads, sorted by NID.
func (d Dialects) String() string {
	var parts []string
	for nid, dia := range d.byNID {
		parts = append(parts, nid+"="+dia.String())
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// For returns the name of the dialect used for namespace nid.
func (d Dialects) For(nid string) string { return d.dialect(nid).String() }

func (d Dialects) dialect(nid string) urn.Dialect {
	if d.byNID == nil {
		return urn.RFC8141
	}
	if dia, ok := d.byNID[nid]; ok {
		return dia
	}
	return d.byNID[lowerASCII(nid)]
}

// peekNID returns the NID of s if s starts like a URN, without parsing:
// the dialect to parse with depends on it.
func peekNID(s string) string {
	if len(s) < 4 || !strings.EqualFold(s[:4], "urn:") {
		return ""
	}
	rest := s[4:]
	if i := strings.IndexByte(rest, ':'); i >= 0 {
		return rest[:i]
	}
	return ""
}

// Parse parses s as a URN in the dialect of its namespace.
func (d Dialects) Parse(s string) (Name, error) {
	dia := d.dialect(peekNID(s))
	u, err := parseDialect(s, dia)
	if err != nil {
		return Name{}, nameError(s, dia, err)
	}
	return newName(s, u)
}

// newName refuses a percent-encoded NUL, which RFC 8141 admits but RFC
// 2141 section 2.4 says never to use and the 2012 draft section 2.5.3
// forbids: a resolver has no use for it, and many programs behind one
// would cut the name there.
func newName(s string, u urn.URN) (Name, error) {
	if u.HasNUL() {
		off := strings.Index(s, "%00")
		comp := "NSS"
		if off >= len(u.AssignedName()) {
			comp = "components"
		}
		return Name{}, &NameError{Input: s, Offset: off, Component: comp, Dialect: u.Dialect().String(),
			Reason: "percent-encoded NUL octet (%00) at offset " + strconv.Itoa(off) +
				": RFC 2141 section 2.4 says never to use it, the 2012 draft section 2.5.3 forbids it"}
	}
	return Name{u: u, key: u.KeyWith(urn.NamespaceRules)}, nil
}

// ParseRequest parses the URN of a resolution request. It is Parse, plus
// a fallback for the path form "GET /urn:...?s=I2Ls": when the namespace
// is read as RFC 8141 and the query is not an RFC 8141 one (it starts
// neither "?+" nor "?="), the string is read again as a 2012 draft URN,
// whose query holds directives (2012 draft section 2.3); and when that
// fails too (an NSS with "/", which the 2012 draft has not), the part
// before "?" is read as RFC 8141 and the query as directives on their
// own. The error reported is the one of the namespace's own dialect.
func (d Dialects) ParseRequest(s string) (Name, error) {
	dia := d.dialect(peekNID(s))
	u, err := parseDialect(s, dia)
	if err == nil {
		return newName(s, u)
	}
	if dia == urn.RFC8141 {
		if i := strings.IndexByte(s, '?'); i >= 0 && i+1 < len(s) && s[i+1] != '+' && s[i+1] != '=' {
			if v, err2 := parseDialect(s, urn.Draft2012); err2 == nil {
				return newName(s, v)
			}
			if v, err2 := parseDialect(s[:i], dia); err2 == nil {
				if svc, ok := directiveService(s[i+1:]); ok || validDirectives(s[i+1:]) {
					n, err3 := newName(s[:i], v)
					if err3 == nil {
						n.service = svc
						return n, nil
					}
				}
			}
		}
	}
	return Name{}, nameError(s, dia, err)
}

// mintedURN returns the URN the resolver assigns to number n under a
// registrar's prefix (as ParseScope reads it, "nbn:cz:aba001-"): the
// number in decimal, six digits at least, and the check digit its
// namespace defines, if any (urn.CheckDigit: urn:nbn:de).
func mintedURN(prefix string, n int64) (string, error) {
	s := fmt.Sprintf("urn:%s%06d", prefix, n)
	d, ok, err := urn.CheckDigit(s)
	if err != nil {
		return "", err
	}
	if ok {
		s += string(d)
	}
	return s, nil
}

// covers reports whether the scope covers every URN under the prefix
// of scope o.
func (s Scope) covers(o Scope) bool {
	return strings.HasPrefix(o.key, s.key) || strings.HasPrefix(o.generic, s.generic)
}

// Scope is what a token may write: a namespace and, optionally, a prefix
// of the NSS.
type Scope struct {
	NID    string // lowercase
	Prefix string // NSS prefix as given; "" for the whole namespace

	key, generic string // "urn:nid:prefix" as an equivalence key, with and without namespace rules
}

// ParseScope reads "nid" or "nid:nss-prefix", as in "nbn" or "nbn:no-".
func ParseScope(s string) (Scope, error) {
	nid, prefix, _ := strings.Cut(s, ":")
	c := urn.ClassifyNID(nid)
	if c.Class == urn.NIDInvalid || nid == "" {
		return Scope{}, fmt.Errorf("scope %q: %q is not a namespace identifier", s, nid)
	}
	sc := Scope{NID: lowerASCII(nid), Prefix: prefix}
	if prefix == "" {
		sc.key = "urn:" + sc.NID + ":"
		sc.generic = sc.key
		return sc, nil
	}
	u, err := parseDialect("urn:"+sc.NID+":"+prefix, urn.RFC8141)
	if err != nil {
		return Scope{}, fmt.Errorf("scope %q: NSS prefix: %v", s, err)
	}
	sc.key = u.KeyWith(urn.NamespaceRules)
	sc.generic = u.Key()
	return sc, nil
}

// String returns the scope as ParseScope reads it.
func (s Scope) String() string {
	if s.Prefix == "" {
		return s.NID
	}
	return s.NID + ":" + s.Prefix
}

// Allows reports whether the scope covers the URN n: its equivalence key,
// with or without namespace rules, starts with the scope's. Both are
// tried because a namespace's rules may not apply to a prefix (an ISBN
// prefix such as "978-3" is not an ISBN, so its hyphens stay).
func (s Scope) Allows(n Name) bool {
	return strings.HasPrefix(n.key, s.key) || strings.HasPrefix(n.u.Key(), s.generic)
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// namespaceRules names the document whose equivalence rules apply to
// namespace nid ("RFC 3187" for isbn), or "" when there are none.
func namespaceRules(nid string) string {
	if ns, ok := urn.Lookup(nid); ok && ns.Implemented() {
		return ns.Rules
	}
	return ""
}

// Suggest returns the URN a string that is not one most likely means,
// or "": a bare ISBN (RFC 3187), ISSN (RFC 8254), UUID (RFC 9562
// section 4) or NBN (RFC 8458) such as people paste from a catalogue, with
// or without its "ISBN " label, becomes urn:isbn:..., urn:issn:...,
// urn:uuid:... or urn:nbn:.... A suggestion is made only when the URN it
// makes passes its namespace's own rules (an ISBN's check digit), so
// that it is never a guess that leads nowhere.
func (d Dialects) Suggest(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 256 || len(s) < 4 || strings.EqualFold(s[:4], "urn:") {
		return ""
	}
	try := func(nid, nss string) string {
		n, err := d.Parse("urn:" + nid + ":" + nss)
		if err != nil || n.HasComponents() || n.ValidateNamespace() != nil {
			return ""
		}
		if _, ok := urn.Lookup(nid); !ok {
			return ""
		}
		return n.Canonical()
	}
	lower := strings.ToLower(s)
	for _, nid := range []string{"isbn", "issn", "nbn", "uuid"} {
		// A label: "ISBN 978-...", "ISBN: 978-...", "nbn:de:..." (an NBN
		// is written with its label, RFC 8458 section 2).
		if rest, ok := strings.CutPrefix(lower, nid); ok && rest != "" && (rest[0] == ':' || rest[0] == ' ') {
			return try(nid, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s[len(nid):]), ":")))
		}
	}
	digits, hexdigits, hyphens := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			digits++
			hexdigits++
		case c == 'X' || c == 'x':
			digits++ // a check digit of ISBN-10 or ISSN
		case 'a' <= c && c <= 'f', 'A' <= c && c <= 'F':
			hexdigits++
		case c == '-':
			hyphens++
		default:
			return ""
		}
	}
	switch {
	case len(s) == 36 && hyphens == 4 && hexdigits == 32:
		return try("uuid", s)
	case digits == 8 && len(s) == 9 && s[4] == '-':
		return try("issn", s)
	case digits == 10 || digits == 13:
		return try("isbn", s)
	}
	return ""
}
