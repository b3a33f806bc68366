package surt

import (
	"net/netip"
	"strings"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// Registrable domains and public suffixes, from the Public Suffix List
// compiled into golang.org/x/net/publicsuffix. The list has two sections:
// ICANN's (com, co.uk, the suffixes registries sell under) and the
// private one (blogspot.com, github.io: companies that give their users
// subdomains). Browsers use both, so that two users of github.io are two
// sites; Common Crawl publishes both groupings. Site and PublicSuffix use
// the whole list, SiteICANN and PublicSuffixICANN only ICANN's section.
//
// A host is compared as the list's test file says (publicsuffix/list
// tests/test_psl.txt): without case, its IDN labels in ASCII (UTS #46
// ToASCII) and given back in the form it came in; an empty host, a
// leading dot, an empty label, an IP address or a host that is itself a
// public suffix has no registrable domain.

// Site returns the registrable domain of host (its public suffix and one
// more label: "www.example.co.uk" is "example.co.uk", "a.b.github.io" is
// "b.github.io") under the whole list, and false when it has none.
func Site(host string) (string, bool) { return site(host, false) }

// SiteICANN is Site under the ICANN section of the list only:
// "a.b.github.io" is "github.io".
func SiteICANN(host string) (string, bool) { return site(host, true) }

// PublicSuffix returns the public suffix of host under the whole list and
// whether the rule that gave it is in the ICANN section; a host under no
// rule gets its last label (the list's default rule "*"), not ICANN. It
// returns "" for a host that is not a domain name (empty, an IP address,
// an empty label).
func PublicSuffix(host string) (suffix string, icann bool) {
	d, uni, ok := domainASCII(host)
	if !ok {
		return "", false
	}
	s, icann := publicsuffix.PublicSuffix(d)
	return unicodeIf(s, uni), icann
}

// PublicSuffixICANN returns the public suffix of host under the ICANN
// section of the list only: the longest ICANN rule that matches, or the
// last label.
func PublicSuffixICANN(host string) string {
	d, uni, ok := domainASCII(host)
	if !ok {
		return ""
	}
	return unicodeIf(icannSuffix(d), uni)
}

func site(host string, icannOnly bool) (string, bool) {
	d, uni, ok := domainASCII(host)
	if !ok {
		return "", false
	}
	var s string
	if icannOnly {
		s = icannSuffix(d)
	} else {
		s, _ = publicsuffix.PublicSuffix(d)
	}
	if len(s) >= len(d) {
		return "", false
	}
	// One more label than the suffix.
	k := strings.LastIndexByte(d[:len(d)-len(s)-1], '.')
	return unicodeIf(d[k+1:], uni), true
}

// icannSuffix returns the longest ICANN rule's suffix of d. The list's
// private rules sit below ICANN ones, so when the prevailing rule is
// private, the ICANN rule is the prevailing rule of the domain one label
// shorter than that private suffix.
func icannSuffix(d string) string {
	s := d
	for {
		ps, icann := publicsuffix.PublicSuffix(s)
		dot := strings.IndexByte(ps, '.')
		if icann || dot < 0 {
			return ps
		}
		s = ps[dot+1:]
	}
}

// domainASCII returns host lowercased with its IDN labels in ASCII,
// whether it had non-ASCII labels, and false when it is not a domain
// name the list can answer for.
func domainASCII(host string) (string, bool, bool) {
	if host == "" || host[0] == '.' || host[0] == '[' {
		return "", false, false
	}
	uni := false
	for k := 0; k < len(host); k++ {
		if host[k] >= 0x80 {
			uni = true
			break
		}
	}
	d := host
	if uni {
		a, err := idna.Lookup.ToASCII(host)
		if err != nil {
			return "", false, false
		}
		d = a
	} else {
		d = strings.ToLower(host)
	}
	d = strings.TrimSuffix(d, ".") // a fully qualified name: "example.com."
	if d == "" || strings.Contains(d, "..") || d[0] == '.' {
		return "", false, false
	}
	if _, err := netip.ParseAddr(d); err == nil {
		return "", false, false
	}
	return d, uni, true
}

// unicodeIf gives an ASCII domain back in Unicode when the host came so.
func unicodeIf(d string, uni bool) string {
	if !uni {
		return d
	}
	if u, err := idna.Lookup.ToUnicode(d); err == nil {
		return u
	}
	return d
}
