package surt

// The IA profile: the Internet Archive's default canonicalization, as
// internetarchive/surt's surt.surt() applies it (DefaultIAURLCanonicalizer:
// GoogleURLCanonicalizer, then IAURLCanonicalizer with its default
// switches), which is what pywb and cdxj-indexer write, and as
// webarchive-commons' AggressiveIAURLCanonicalizer (BasicURLCanonicalizer,
// then IAURLCanonicalizer with AggressiveIACanonicalizerRules), which
// Wayback writes. Where the two disagree this package follows surt, the
// key of pywb's CDXJ; the package doc lists the differences.
//
// First the Google rules (google.go), with two readings of surt:
//
//   - "http://https://host/" is "https://host/" (handyurl.parse's
//     _RE_MULTIPLE_PROTOCOLS);
//   - a host of digits only is a 32-bit number masked to its low 32 bits,
//     a dotted decimal or dotted octal host is what inet_aton reads,
//     hexadecimal is not an address (attemptIPFormats).
//
// Then IAURLCanonicalizer, switch by switch (CanonicalizerConstants):
//
//   - HOST_LOWERCASE: the host is lowercased (done by the Google rules);
//   - HOST_MASSAGE: leading "www." or "wwwN." labels are removed
//     (massageHost, ^www\d*\.; "www2foo.com" stays); Options.KeepWWW and
//     Options.WWWTwoLabels change this;
//   - AUTH_STRIP_USER, AUTH_STRIP_PASS: the userinfo is removed;
//   - PORT_STRIP_DEFAULT: port 80 of http and 443 of https are removed
//     (getDefaultPort);
//   - PATH_LOWERCASE: the path is lowercased, escapes too ("%C3" is
//     "%c3");
//   - PATH_STRIP_SESSION_ID: ASP.NET session ids "(id)/" are removed
//     (stripPathSessionID, session.go);
//   - PATH_STRIP_TRAILING_SLASH_UNLESS_EMPTY: a final "/" of a path other
//     than "/" is removed; Options.KeepTrailingSlash keeps it;
//   - QUERY_STRIP_SESSION_ID: jsessionid, phpsessid, sid, aspsessionid
//     and cfid/cftoken parameters are removed (stripQuerySessionID);
//   - QUERY_LOWERCASE: the query is lowercased;
//   - QUERY_ALPHA_REORDER: the parameters are sorted by key, then value
//     (alphaReorderQuery);
//   - QUERY_STRIP_EMPTY: an empty query, "?" alone, is removed;
//   - HASH_STRIP: the fragment is removed (done by the Google rules).
func (st *state) ia(o *Options) {
	p := &st.p
	if p.host.ok {
		p.stripWWWThenIP(o, true)
	}
	p.lower(p.path)
	p.stripIAPathSessions()
	if !o.KeepTrailingSlash {
		p.stripTrailingSlash()
	}
	if p.query.ok {
		cfid := st.stripIAQuerySessions()
		p.lower(p.query)
		st.sortQueryIA()
		if cfid {
			// The sort may have put a cfid next to a cftoken: strip again
			// (the order stays sorted but for an empty last parameter),
			// sort again.
			st.stripIAQuerySessions()
			st.sortQueryIA()
		}
		if p.query.len() == 0 {
			p.query.ok = false
		}
	}
}

// iaAuthority applies AUTH_STRIP_USER, AUTH_STRIP_PASS and
// PORT_STRIP_DEFAULT. The scheme is compared without case.
func (p *parts) iaAuthority() {
	p.user.ok, p.pass.ok = false, false
	if p.port.ok {
		scheme := lowerScheme(p.get(p.scheme))
		if port := string(p.get(p.port)); port == "80" && string(scheme) == "http" || port == "443" && string(scheme) == "https" {
			p.port.ok = false
		}
	}
}

// stripWWWThenIP strips "www" labels and reads what is left as an IPv4
// address again ("www1.000" is 0.0.0.0), so that the canonical host is
// final.
func (p *parts) stripWWWThenIP(o *Options, ia bool) {
	i := p.host.i
	p.stripWWW(o)
	if p.host.i == i {
		return
	}
	var v uint32
	var ok bool
	if ia {
		v, ok = parseIPv4IA(p.get(p.host))
	} else {
		v, ok = parseIPv4(p.get(p.host), true)
	}
	if ok {
		p.set(&p.host, maxIPv4, func(dst, _ []byte) []byte { return appendIPv4(dst, v) })
	}
}

// stripWWW removes leading "www" and "wwwN" labels (^www\d*\.), unless
// KeepWWW; with WWWTwoLabels, only while at least two labels follow.
// webarchive-commons' massageHost removes them while there are
// ("www.www.example.com" is "example.com"); surt's and urlcanon's remove
// one, which leaves a canonical form that is not a fixed point.
func (p *parts) stripWWW(o *Options) {
	if o.KeepWWW {
		return
	}
	// A loop, not a call per label: a host of a million "www." labels
	// would take a goroutine stack of its length many times over.
	for {
		h := p.get(p.host)
		if len(h) < 4 || h[0] != 'w' || h[1] != 'w' || h[2] != 'w' {
			return
		}
		k := 3
		for k < len(h) && '0' <= h[k] && h[k] <= '9' {
			k++
		}
		if k+1 >= len(h) || h[k] != '.' {
			return
		}
		k++
		if o.WWWTwoLabels && indexByte(h[k:], '.') < 0 {
			return
		}
		p.host.i += int32(k)
	}
}
