package urn

import (
	"slices"
	"strings"
)

// Directive is one keywd "=" value pair of a query in the 2012 draft
// (section 2.3).
type Directive struct {
	Keyword string // case-sensitive, as all query directives (section 2.3)
	Value   string // as written, percent-encoding included
	// Ignored is set on every directive whose keyword is registered and
	// appears more than once: section 2.3 says such a keyword "MUST NOT
	// appear more than once" and that a resolver "MUST ignore all query
	// directives therein using the offending <keywd>(s)".
	Ignored bool
}

// Registered query keywords of the 2012 draft (section 9.2.1).
const (
	// KeywordService ("s") selects the URN resolution service (section 2.3.1).
	KeywordService = "s"
	// KeywordComponent ("c") names a component of a structured resource
	// (section 2.3.2).
	KeywordComponent = "c"
)

// serviceDesignators are the values of the "s" directive registered by
// the 2012 draft (section 9.2.2), derived from RFC 2483 section 4.
var serviceDesignators = [...]string{"I2L", "I2Ls", "I2R", "I2Rs", "I2C", "I2Cs", "I2N", "I2Ns", "I=I"}

// ServiceDesignators returns the values of the "s" directive registered
// by the 2012 draft (section 9.2.2, from RFC 2483 section 4), in the
// draft's order: I2L, I2Ls, I2R, I2Rs, I2C, I2Cs, I2N, I2Ns, I=I. The
// slice is the caller's.
func ServiceDesignators() []string { return slices.Clone(serviceDesignators[:]) }

// IsServiceDesignator reports whether v is one of ServiceDesignators.
// Designators are tokens and compare case-sensitively.
func IsServiceDesignator(v string) bool {
	for _, d := range serviceDesignators {
		if d == v {
			return true
		}
	}
	return false
}

// isRegisteredKeyword reports whether k is in the 2012 draft's URN Query
// Keywords sub-registry (section 9.2.1).
func isRegisteredKeyword(k string) bool { return k == KeywordService || k == KeywordComponent }

// Directives returns the directives of a Draft2012 URN's query in the
// order written, or nil when u has no query or was not parsed as
// Draft2012.
func (u URN) Directives() []Directive {
	q, ok := u.QComponent()
	if !ok || u.dialect != Draft2012 {
		return nil
	}
	parts := strings.Split(q, "&")
	ds := make([]Directive, len(parts))
	for i, p := range parts {
		k, v, _ := strings.Cut(p, "=")
		ds[i] = Directive{Keyword: k, Value: v}
	}
	for i := range ds {
		if !isRegisteredKeyword(ds[i].Keyword) {
			continue
		}
		for j := range ds {
			if j != i && ds[j].Keyword == ds[i].Keyword {
				ds[i].Ignored = true
				break
			}
		}
	}
	return ds
}

// Directive returns the value of the directive with keyword k in a
// Draft2012 URN's query. ok is false when there is none, or when k is
// registered and repeated, so that its directives are all ignored
// (section 2.3).
func (u URN) Directive(k string) (value string, ok bool) {
	for _, d := range u.Directives() {
		if d.Keyword == k {
			if d.Ignored {
				return "", false
			}
			return d.Value, true
		}
	}
	return "", false
}

// Service returns the value of the "s" directive (section 2.3.1), the
// resolution service asked for, such as "I2L".
func (u URN) Service() (string, bool) { return u.Directive(KeywordService) }

// ResourceComponent returns the value of the "c" directive (section
// 2.3.2), the component of a structured resource, such as "ToC".
func (u URN) ResourceComponent() (string, bool) { return u.Directive(KeywordComponent) }
