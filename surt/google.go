package surt

import (
	"net/netip"

	"github.com/urikit/urikit/whatwg"
)

// The Google profile: Safe Browsing's canonicalization (Google Safe
// Browsing API v4, "URLs and Hashing", section Canonicalization; the same
// text as the v2 developer's guide that webarchive-commons'
// BasicURLCanonicalizer and internetarchive/surt's GoogleURLCanonicalizer
// implement). Rule by rule:
//
//  1. Leading and trailing spaces are removed, and every TAB, CR and LF
//     ("First, remove tab (0x09), CR (0x0d), and LF (0x0a) characters
//     from the URL"; the examples "  http://www.google.com/  " and
//     "http://www.google.com/foo\tbar\rbaz\n2"). See split.go.
//  2. An input without a scheme is an http URL (example "www.google.com/"
//     -> "http://www.google.com/").
//  3. The fragment is removed ("if the URL ends in a fragment, remove the
//     fragment").
//  4. Every component is percent-decoded repeatedly ("repeatedly
//     percent-unescape the URL until it has no more percent-escapes").
//  5. The host: IDN labels to Punycode ("If the URL uses an
//     internationalized domain name (IDN), the client should convert the
//     URL to the ASCII Punycode representation"; UTS #46 as the URL
//     Standard applies it); leading and trailing dots removed and runs
//     of dots made one; an IPv4 address in any form, octal, hexadecimal
//     or with fewer than four parts, normalized to four decimal numbers;
//     lowercased.
//  6. The path: "/./" and "/../" resolved, then runs of slashes made one
//     (not in the query); an empty path is "/" ("The URL must include a
//     path component"). The resolution is that of surt and
//     webarchive-commons (appendSurtPath), which keeps a ".." above the
//     root and ends "/a/b/.." without a slash, where the document is
//     silent.
//  7. The port must be a number (webarchive-commons fails on another);
//     leading zeros go. The scheme is lowercased (RFC 3986 3.1; the
//     document is silent).
//  8. "In the URL, percent-escape all characters that are <= ASCII 32,
//     >= 127, "#", or "%". The escapes should use uppercase hex
//     characters." urikit also escapes the delimiters a decoded
//     component now holds ("?" in a path, "/", "?", "@", ":" in a host
//     or userinfo), so that the canonical URL reads back into the same
//     components (see the package doc).
//
// The IA profile runs these rules first, with surt's reading of IPv4
// addresses (parseIPv4IA) and the "http://https://" clean-up.
func (p *parts) google(ia bool) *parts {
	if p.scheme.ok {
		p.lower(p.scheme)
	}
	p.frag.ok = false
	if p.user.ok {
		p.recode(&p.user, userSet)
	}
	if p.pass.ok {
		p.recode(&p.pass, passSet)
	}
	sp := p.isScheme("http") || p.isScheme("https")
	if p.host.ok {
		p.googleHost(ia)
		for sp && p.emptyAuthority() && p.promoteSegment() {
			p.googleHost(ia)
		}
	}
	p.unescapeAll(&p.path)
	// surt normalizes the path of a URL with a host only ("file:///./a"
	// keeps its dot). An http URL whose host stayed empty has no path
	// segment left (promoteSegment took it), only slashes, which become
	// the "/" that the splitter reads back from "http:///" (split.go,
	// step 8); without a path ("http://") it stays without, as in surt.
	if p.host.ok && (p.host.len() > 0 || sp && p.path.len() > 0) {
		p.surtPath()
	}
	p.escape(&p.path, pathSet)
	if p.query.ok {
		p.recode(&p.query, googleSet)
	}
	return p
}

// emptyAuthority reports whether the authority is defined and written
// as nothing: "http:///a".
func (p *parts) emptyAuthority() bool {
	return p.host.ok && p.host.len() == 0 && !p.user.ok && !p.port.ok
}

// promoteSegment makes the first segment of the path the host. After a
// special scheme the splitter reads any run of slashes before the host,
// as a browser does, so a host that the rules emptied ("http://.../a",
// "http://%2e/a") would read back as the first path segment: it is made
// so now, and the canonical form reads back as itself. It reports false
// when the path has no segment.
func (p *parts) promoteSegment() bool {
	b := p.get(p.path)
	k := 0
	for k < len(b) && b[k] == '/' {
		k++
	}
	if k == len(b) {
		return false
	}
	e := k
	for e < len(b) && b[e] != '/' {
		e++
	}
	p.host = span{p.path.i + int32(k), p.path.i + int32(e), true}
	p.path.i += int32(e)
	return true
}

// googleHost applies rule 5 to the host.
func (p *parts) googleHost(ia bool) {
	p.unescapeAll(&p.host)
	if isIPLiteral(p.get(p.host)) {
		p.lower(p.host)
		p.escape(&p.host, literalSet)
		return
	}
	p.toASCII(&p.host)
	p.fixDots(&p.host)
	h := p.get(p.host)
	var v uint32
	var ok bool
	if ia {
		v, ok = parseIPv4IA(h)
	} else {
		v, ok = parseIPv4(h, true)
	}
	if ok {
		p.set(&p.host, maxIPv4, func(dst, _ []byte) []byte { return appendIPv4(dst, v) })
		return
	}
	p.lower(p.host)
	p.escape(&p.host, hostSet)
	if ia {
		// IAURLCanonicalizer lowercases the host again after the Google
		// rules escaped it: "%C3%83" is "%c3%83".
		p.lower(p.host)
	}
}

// literalSet escapes in an IP literal "[...]" what hostSet does, except
// the colons of the address and the brackets, which isIPLiteral allows
// only at its ends.
var literalSet = newSet("#%/?@")

// isIPLiteral reports whether h is "[" ... "]" with no other bracket, the
// shape of RFC 3986's IP-literal.
func isIPLiteral(h []byte) bool {
	if len(h) < 2 || h[0] != '[' || h[len(h)-1] != ']' {
		return false
	}
	for _, c := range h[1 : len(h)-1] {
		if c == '[' || c == ']' {
			return false
		}
	}
	return true
}

// fixDots removes leading and trailing dots and makes runs of dots one
// (Safe Browsing: "Remove all leading and trailing dots. Replace
// consecutive dots with a single dot.").
func (p *parts) fixDots(s *span) {
	h := p.get(*s)
	bad := len(h) > 0 && (h[0] == '.' || h[len(h)-1] == '.')
	for k := 1; !bad && k < len(h); k++ {
		bad = h[k] == '.' && h[k-1] == '.'
	}
	if !bad {
		return
	}
	p.set(s, 0, func(dst, src []byte) []byte {
		base := len(dst)
		for k, c := range src {
			if c == '.' && (len(dst) == base || k+1 < len(src) && src[k+1] == '.') {
				continue
			}
			dst = append(dst, c)
		}
		if len(dst) > base && dst[len(dst)-1] == '.' {
			dst = dst[:len(dst)-1]
		}
		return dst
	})
}

// toASCII converts a host with non-ASCII bytes to its ASCII form with
// the URL Standard's host parser (UTS #46 ToASCII, package whatwg). A
// host that it refuses, or that holds a delimiter the parser would read
// as the end of the host, stays as it is, as in surt and
// webarchive-commons, whose IDN conversion may fail too.
func (p *parts) toASCII(s *span) {
	h := p.get(*s)
	ascii := true
	for _, c := range h {
		if c >= 0x80 {
			ascii = false
		}
		switch c {
		case '/', '?', '#', '@', ':', '\\', '[', ']', '%':
			return
		}
	}
	if ascii || len(h) == 0 {
		return
	}
	u, err := whatwg.Parse("http://" + string(h) + "/")
	if err != nil || !u.HasHost() {
		return
	}
	p.setString(s, u.Hostname())
}

// normalizeIPv6 writes a valid IPv6 literal in its RFC 5952 text form
// (urlcanon's normalize_ip_address through Python's ipaddress).
func (p *parts) normalizeIPv6(s *span) bool {
	h := p.get(*s)
	if !isIPLiteral(h) {
		return false
	}
	a, err := netip.ParseAddr(string(h[1 : len(h)-1]))
	if err != nil || !a.Is6() || a.Zone() != "" {
		return false
	}
	p.set(s, len("[]")+len("ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255"), func(dst, _ []byte) []byte {
		dst = append(dst, '[')
		dst = a.AppendTo(dst)
		return append(dst, ']')
	})
	return true
}

// checkPort validates a port of digits and drops its leading zeros (the
// archive tools read it as an integer). It reports false for a port that
// is not a number up to 65535.
func (p *parts) checkPort() bool {
	if !p.port.ok {
		return true
	}
	b := p.get(p.port)
	for len(b) > 0 && b[len(b)-1] == ':' { // surt strips the colons that end the authority
		b = b[:len(b)-1]
		p.port.j--
	}
	if len(b) == 0 {
		p.port.ok = false // "host:" is the host (surt, Common Crawl)
		return true
	}
	v := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
		if v = v*10 + int(c-'0'); v > 65535 {
			return false
		}
	}
	k := 0
	for k < len(b)-1 && b[k] == '0' {
		k++
	}
	p.port.i += int32(k)
	return true
}
