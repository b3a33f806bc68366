package resolver

import (
	"fmt"
	"sort"
	"strings"
)

// Service is a resolution service of RFC 2483 section 4, as RFC 2169
// section 3 encodes it over HTTP. The zero value is no service.
type Service uint8

// The services this resolver answers. RFC 2169 names them N2x ("URN to
// x"), RFC 2483 and the 2012 draft (section 9.2.2) I2x ("URI to x"); both
// spellings select the same service.
const (
	NoService Service = iota
	N2L               // URN to URL: a redirect to the first location (RFC 2169 3.1)
	N2Ls              // URN to URLs: text/uri-list (RFC 2169 3.2)
	N2R               // URN to resource: a redirect to where it lives (RFC 2169 3.3)
	N2Rs              // URN to resources: 300 Multiple Choices (RFC 2169 3.4)
	N2C               // URN to URC: the record's metadata (RFC 2169 3.5)
	N2Cs              // URN to URCs: the same, as a list of one
	N2N               // URN to URN: the first synonym (RFC 2483 4.7)
	N2Ns              // URN to URNs: the synonyms (RFC 2169 3.6)
	NeqN              // N=N / I=I: are two URNs the same? (RFC 2483 4.9)
	L2N               // URL to URN: the first URN located there
	L2Ns              // URL to URNs (RFC 2169 3.7)
	numServices
)

var serviceNames = [numServices]string{
	NoService: "", N2L: "N2L", N2Ls: "N2Ls", N2R: "N2R", N2Rs: "N2Rs",
	N2C: "N2C", N2Cs: "N2Cs", N2N: "N2N", N2Ns: "N2Ns", NeqN: "N=N",
	L2N: "L2N", L2Ns: "L2Ns",
}

// serviceByName holds every accepted spelling. Service designators are
// tokens and compare case-sensitively (2012 draft section 2.3), so only
// the spellings of the documents are accepted: RFC 2169's, the 2012
// draft's registry (section 9.2.2), and RFC 2483's mnemonics, which write
// the plural "S" in uppercase for three of them (sections 4.2, 4.6, 4.8).
var serviceByName = map[string]Service{
	"N2L": N2L, "N2Ls": N2Ls, "N2R": N2R, "N2Rs": N2Rs, "N2C": N2C, "N2Cs": N2Cs,
	"N2N": N2N, "N2Ns": N2Ns, "N=N": NeqN, "L2N": L2N, "L2Ns": L2Ns,
	"I2L": N2L, "I2Ls": N2Ls, "I2R": N2R, "I2Rs": N2Rs, "I2C": N2C, "I2Cs": N2Cs,
	"I2N": N2N, "I2Ns": N2Ns, "I=I": NeqN,
	"I2LS": N2Ls, "I2CS": N2Cs, "I2NS": N2Ns,
}

// ServiceByName returns the service a designator names, in any of the
// spellings of RFC 2169, RFC 2483 and the 2012 draft.
func ServiceByName(name string) (Service, bool) {
	s, ok := serviceByName[name]
	return s, ok
}

// ServiceNames returns every accepted designator, sorted.
func ServiceNames() []string {
	names := make([]string, 0, len(serviceByName))
	for n := range serviceByName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// String returns the RFC 2169 name of the service, as in "N2Ls".
func (s Service) String() string {
	if s < numServices {
		return serviceNames[s]
	}
	return fmt.Sprintf("Service(%d)", uint8(s))
}

// takesURL reports whether the service's operand is a URL, not a URN.
func (s Service) takesURL() bool { return s == L2N || s == L2Ns }

// ParseServiceDefaults reads per-namespace default services, as in
// "nbn=N2Ls,isbn=N2C". A namespace without one defaults to N2L.
func ParseServiceDefaults(spec string) (map[string]Service, error) {
	m := map[string]Service{}
	for _, f := range strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == ' ' }) {
		nid, name, ok := strings.Cut(f, "=")
		if !ok || nid == "" {
			return nil, fmt.Errorf("default service %q: want NID=SERVICE", f)
		}
		s, ok := ServiceByName(name)
		if !ok || s.takesURL() || s == NeqN {
			return nil, fmt.Errorf("default service %q: %q is not a one-URN service", f, name)
		}
		m[strings.ToLower(nid)] = s
	}
	return m, nil
}
