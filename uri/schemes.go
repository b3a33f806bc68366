package uri

import (
	"strings"

	"github.com/urikit/urikit/internal/chars"
)

// DefaultRegistry returns the rules of the schemes this package knows,
// the ones Normalize, Equal, Key and DefaultPort apply: default ports
// and the "/" of an empty http path (RFC 3986 6.2.3), and the
// equivalence of URNs (RFC 8141 section 3). Packages urn and scheme
// return registries that add validation and typed views to the same
// rules (urn.Scheme, scheme.Registry).
//
// The registry is an immutable value; With makes a changed copy.
func DefaultRegistry() Registry { return defaultRegistry }

var defaultRegistry = MustRegistry(NewRegistry(standardSchemes()...))

// standardSchemes lists what this package knows of each scheme. Default
// ports: the scheme's RFC where it names one, else the IANA Service Name
// and Transport Protocol Port Number Registry. (The 1994 URL draft in
// the seeds names ftp, gopher, http, nntp, telnet, wais and prospero,
// but the copy we have does not carry the numbers; RFC 1738, its
// published form, does.)
func standardSchemes() []Scheme {
	return []Scheme{
		{Name: "http", DefaultPort: 80, EmptyPathIsRoot: true},   // RFC 9110 4.2.1, 4.2.3 (and RFC 1738 3.3)
		{Name: "https", DefaultPort: 443, EmptyPathIsRoot: true}, // RFC 9110 4.2.2, 4.2.3
		{Name: "ws", DefaultPort: 80, EmptyPathIsRoot: true},     // RFC 6455 3: resource-name is "/" for an empty path
		{Name: "wss", DefaultPort: 443, EmptyPathIsRoot: true},   // RFC 6455 3
		{Name: "coap", DefaultPort: 5683, EmptyPathIsRoot: true}, // RFC 7252 6.1, 6.3
		{Name: "coaps", DefaultPort: 5684, EmptyPathIsRoot: true},
		{Name: "ftp", DefaultPort: 21, Normalize: normalizeFTP},           // RFC 1738 3.2
		{Name: "gopher", DefaultPort: 70, Normalize: normalizeGopher},     // RFC 4266 2.1 (RFC 1738 3.4)
		{Name: "telnet", DefaultPort: 23, Normalize: normalizeSession},    // RFC 4248 2 (RFC 1738 3.8)
		{Name: "nntp", DefaultPort: 119},                                  // RFC 5538 2.2 (RFC 1738 3.7)
		{Name: "news", DefaultPort: 119},                                  // RFC 5538 2.1
		{Name: "snews", DefaultPort: 563},                                 // RFC 5538 2.1 (historic, IANA "nntps")
		{Name: "wais", DefaultPort: 210},                                  // RFC 4156 2 (RFC 1738 3.9)
		{Name: "prospero", DefaultPort: 1525},                             // RFC 4157 2 (RFC 1738 3.11)
		{Name: "tn3270", DefaultPort: 23, Normalize: normalizeSession},    // RFC 6270 2
		{Name: "rlogin", DefaultPort: 513, Normalize: normalizeSession},   // IANA port registry, service "login"
		{Name: "rtsp", DefaultPort: 554},                                  // RFC 7826 19.2 (RFC 2326 3.2)
		{Name: "rtsps", DefaultPort: 322},                                 // RFC 7826 19.2
		{Name: "ldap", DefaultPort: 389},                                  // RFC 4516 2
		{Name: "ldaps", DefaultPort: 636},                                 // IANA port registry, service "ldaps"
		{Name: "imap", DefaultPort: 143},                                  // RFC 5092 3
		{Name: "pop", DefaultPort: 110},                                   // RFC 2384 3
		{Name: "sip", DefaultPort: 5060},                                  // RFC 3261 19.1.2
		{Name: "sips", DefaultPort: 5061},                                 // RFC 3261 19.1.2
		{Name: "ipp", DefaultPort: 631},                                   // RFC 3510 4
		{Name: "ipps", DefaultPort: 631},                                  // RFC 7472 4.2
		{Name: "nfs", DefaultPort: 2049},                                  // RFC 2224 2
		{Name: "rsync", DefaultPort: 873},                                 // RFC 5781 2
		{Name: "vnc", DefaultPort: 5900},                                  // RFC 7869 2
		{Name: "dns", DefaultPort: 53},                                    // RFC 4501 2
		{Name: "urn", Opaque: true, Normalize: normalizeURN, Key: keyURN}, // RFC 8141 section 3
		{Name: "mailto", Normalize: normalizeMailto},                      // RFC 6068 2
		{Name: "file", Normalize: normalizeFile},                          // RFC 8089 2
	}
}

// DefaultPort returns the default port of scheme, compared without
// regard to case, in the DefaultRegistry.
func DefaultPort(scheme string) (int, bool) { return defaultRegistry.DefaultPort(scheme) }

// normalizeURN is the URN case rule of RFC 8141 section 3.1 on a URI
// whose scheme and percent-encoding case are already normal: the NID
// (the path up to its first ":") in lowercase. Nothing is decoded: "the
// NSS... percent-encoded characters MUST NOT be decoded" for equivalence.
func normalizeURN(v URI) URI {
	p := v.Path()
	nid, _, _ := strings.Cut(p, ":")
	for i := 0; i < len(nid); i++ {
		if c := nid[i]; 'A' <= c && c <= 'Z' {
			b := []byte(v.s)
			for j := int(v.pathStart()) + i; j < int(v.pathStart())+len(nid); j++ {
				b[j] = chars.Lower(b[j])
			}
			v.s = string(b)
			return v
		}
	}
	return v
}

// keyURN is the URN equivalence key of RFC 8141 section 3: the
// assigned-name alone, since "the r-component, q-component, and
// f-component are not taken into account" (in every dialect, the query
// and fragment of the URI hold them).
func keyURN(v URI) string { return v.s[:v.pathEnd()] }

// normalizeGopher writes the default item type and the gopher path
// decoded:
//
//   - a gopher URL without a type (an empty path, or "/") names the top
//     directory, type "1" (RFC 4266 2.1; RFC 1738 3.4), so "gopher://h",
//     "gopher://h/" and "gopher://h/1" are equivalent;
//   - RFC 4266 2.1, "Within the <gopher-path>, no characters are
//     reserved": the client sends the decoded selector, so an octet and
//     its percent-encoding ask for the same item ("%2F" and "/"). Every
//     triplet that decodes to a character a path may hold is decoded; the
//     others stay encoded ("%09", the separator of the search and Gopher+
//     strings, among them). A "?" is part of the selector for the gopher
//     view (RFC 4266 2.1 writes the search after "%09"), so a query joins
//     the path as "%3F".
func normalizeGopher(v URI) URI {
	if v.flags()&hasAuthority == 0 || v.Path() == "" && v.HasQuery() {
		return v
	}
	p := v.Path()
	if v.HasQuery() {
		p += "%3F" + strings.ReplaceAll(v.Query(), "?", "%3F")
	}
	if p == "" || p == "/" {
		p = "/1"
	}
	var b []byte
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '%' && i+2 < len(p) {
			d := unhex(p[i+1])<<4 | unhex(p[i+2])
			if chars.Is(d, chars.PathChar) {
				if b == nil {
					b = append(make([]byte, 0, len(p)), p[:i]...)
				}
				b = append(b, d)
				i += 2
				continue
			}
		}
		if b != nil {
			b = append(b, c)
		}
	}
	if b != nil {
		p = string(b)
	}
	if p == v.Path() && !v.HasQuery() {
		return v
	}
	r, err := v.Edit().SetRaw(PartPath, p).Clear(PartQuery).URI()
	if err != nil {
		return v
	}
	return r
}

// normalizeMailto writes a mailto URI's recipients one way and its
// header field names in lowercase:
//
//   - RFC 6068 2, "it is syntactically valid to specify both <to> and an
//     <hfname> whose value is "to"": <mailto:addr1@an.example,addr2@an.example>
//     "is equivalent to" <mailto:?to=addr1@an.example,addr2@an.example>
//     "is equivalent to" <mailto:addr1@an.example?to=addr2@an.example>.
//     The values of the "to" hfields join the path, in order, and leave
//     the query (which goes when nothing else is left in it).
//   - The domain of each address is a DNS name (RFC 6068 2, RFC 5322
//     3.4.1), compared without regard to case (RFC 4343): lowercased; the
//     local part is left as it is, since only its host may interpret it.
//   - Header field names are case-insensitive (RFC 6068 2, RFC 5322 2.2).
func normalizeMailto(v URI) URI {
	v = lowerHfnames(v)
	v = mailtoToInPath(v)
	p := v.Path()
	var b []byte
	// The domain follows the last "@" of each address (a quoted local
	// part may hold one, percent-encoded or not).
	for start := 0; start < len(p); {
		end := strings.IndexByte(p[start:], ',')
		if end < 0 {
			end = len(p)
		} else {
			end += start
		}
		at := strings.LastIndexByte(p[start:end], '@')
		for i := start + at + 1; at >= 0 && i < end; i++ {
			switch c := p[i]; {
			case c == '%':
				i += 2 // a triplet, already in upper case
			case 'A' <= c && c <= 'Z':
				if b == nil {
					b = []byte(p)
				}
				b[i] = c + ('a' - 'A')
			}
		}
		start = end + 1
	}
	if b == nil {
		return v
	}
	r, err := v.Edit().SetRaw(PartPath, string(b)).URI()
	if err != nil {
		return v
	}
	return r
}

// mailtoToInPath moves the values of the "to" hfields of v (their names
// already in lowercase) to the end of its path, "," between addresses.
// A "?" of a value, which a path cannot hold, is written "%3F"; a path
// that would start with "//" (an authority) starts with "%2F/".
func mailtoToInPath(v URI) URI {
	if !v.HasQuery() || v.HasAuthority() {
		return v
	}
	q := v.Query()
	if !strings.HasPrefix(q, "to=") && !strings.Contains(q, "&to=") {
		return v
	}
	var path, rest strings.Builder
	path.Grow(len(v.Path()) + len(q))
	path.WriteString(v.Path())
	for hf := range strings.SplitSeq(q, "&") {
		val, ok := strings.CutPrefix(hf, "to=")
		if !ok {
			if rest.Len() > 0 {
				rest.WriteByte('&')
			}
			rest.WriteString(hf)
			continue
		}
		if val == "" {
			continue
		}
		if path.Len() > 0 {
			path.WriteByte(',')
		}
		path.WriteString(strings.ReplaceAll(val, "?", "%3F"))
	}
	p := path.String()
	if strings.HasPrefix(p, "//") {
		p = "%2F" + p[1:]
	}
	e := v.Edit().SetRaw(PartPath, p)
	if rest.Len() == 0 {
		e = e.Clear(PartQuery)
	} else {
		e = e.SetRaw(PartQuery, rest.String())
	}
	r, err := e.URI()
	if err != nil {
		return v
	}
	return r
}

// normalizeFile makes the host "localhost" empty: RFC 8089 2 says both
// mean "the machine from which the URI is being interpreted", so
// "file://localhost/etc" and "file:///etc" are equivalent.
func normalizeFile(v URI) URI {
	if v.flags()&hasAuthority == 0 || !strings.EqualFold(v.Host(), "localhost") || v.HasUserinfo() || v.HasPort() {
		return v
	}
	r, err := v.Edit().SetRaw(PartHost, "").URI()
	if err != nil {
		return v
	}
	return r
}

// normalizeFTP writes the typecode of ";type=" in lowercase: RFC 1738
// 3.2.2's "a", "i" and "d" and the 1994 draft's forms are letters
// compared without regard to case ("type=A" is "type=a").
func normalizeFTP(v URI) URI {
	p := v.Path()
	i := strings.LastIndex(p, ";")
	if i < 0 || strings.IndexByte(p[i:], '/') >= 0 {
		return v
	}
	param := p[i+1:]
	name, val, ok := strings.Cut(param, "=")
	if !ok || !strings.EqualFold(name, "type") {
		return v
	}
	lower := strings.ToLower(param)
	if lower == param || strings.IndexByte(val, '%') >= 0 {
		return v
	}
	r, err := v.Edit().SetRaw(PartPath, p[:i+1]+lower).URI()
	if err != nil {
		return v
	}
	return r
}

// normalizeSession drops the "/" that may end a telnet, rlogin or
// tn3270 URL: RFC 4248 2, "The URL may also end with a "/"", names the
// same session as the URL without it.
func normalizeSession(v URI) URI {
	if v.flags()&hasAuthority == 0 || v.Path() != "/" || v.HasQuery() {
		return v
	}
	r, err := v.Edit().SetRaw(PartPath, "").URI()
	if err != nil {
		return v
	}
	return r
}

// lowerHfnames lowercases the hfname of each hfield of a mailto query.
func lowerHfnames(v URI) URI {
	q := v.Query()
	var b []byte
	name := true
	for i := 0; i < len(q); i++ {
		switch c := q[i]; {
		case c == '&':
			name = true
		case c == '=':
			name = false
		case c == '%':
			i += 2
		case name && 'A' <= c && c <= 'Z':
			if b == nil {
				b = []byte(q)
			}
			b[i] = c + ('a' - 'A')
		}
	}
	if b == nil {
		return v
	}
	r, err := v.Edit().SetRaw(PartQuery, string(b)).URI()
	if err != nil {
		return v
	}
	return r
}
