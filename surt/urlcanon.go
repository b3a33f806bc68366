package surt

// The SemanticPrecise and Aggressive profiles: iipc/urlcanon's
// semantic_precise and aggressive canonicalizers (python/urlcanon/canon.py
// at 842afd4, its steps in their order; the Java version has the same
// steps). semantic_precise, step by step:
//
//   - remove_leading_trailing_junk, remove_tabs_and_newlines: as the URL
//     Standard (split.go);
//   - default_scheme_http: an input without a scheme is an http URL;
//   - lowercase_scheme;
//   - elide_default_port: the default port of a special scheme (ftp 21,
//     gopher 70, http 80, https 443, ws 80, wss 443) is removed; the
//     special schemes are the URL Standard's plus gopher, the list of
//     the URL Standard when urlcanon was written;
//   - clean_up_userinfo: an empty password loses its ":", then an empty
//     userinfo its "@";
//   - pct_decode_repeatedly_except_query: every component but the query
//     is percent-decoded repeatedly;
//   - reparse_host, normalize_ip_address: an IPv4 address in the URL
//     Standard's forms is written in dotted decimal, an IPv6 literal in
//     its canonical text;
//   - fix_host_dots: leading, trailing and doubled dots of the host go;
//   - punycode_special_host: the host of a special scheme is converted to
//     ASCII with UTS #46 (which also lowercases it);
//   - remove_userinfo;
//   - less_dumb_pct_encode: bytes <= 0x20, >= 0x7F, "#" and "%" are
//     escaped in every component, and "?" in the path;
//   - less_dumb_pct_recode_query: each key and value of the query is
//     decoded repeatedly, then escaped as above plus "&" and "=";
//   - two_slashes: a file URL always has an authority, maybe empty;
//   - fix_backslashes, leading_slash, normalize_path_dots,
//     collapse_consecutive_slashes, empty_path_to_slash: for a special
//     scheme "\" is "/", the path starts with "/", its dot segments are
//     resolved and its runs of slashes made one; for other schemes only
//     the dot segments of a path that starts with "/" are resolved;
//   - alpha_reorder_query: the "&"-separated parameters are sorted as
//     byte strings.
//
// aggressive is semantic_precise, then:
//
//   - remove_fragment;
//   - https_to_http;
//   - strip_www: a leading "www." or "wwwN." goes (Options.KeepWWW,
//     Options.WWWTwoLabels);
//   - lowercase_path, lowercase_query;
//   - strip_session_ids_from_query: jsessionid, sessionid, phpsessid,
//     sid, aspsessionid and cfid/cftoken parameters (QUERY_SESSIONID_RE,
//     session.go);
//   - strip_session_ids_from_path: ASP.NET "(id)/" in a path ending in
//     ".aspx", a final ";jsessionid=" with 32 letters or digits;
//   - strip_trailing_slash_unless_empty (Options.KeepTrailingSlash);
//   - remove_redundant_ampersands_from_query,
//     omit_question_mark_if_query_empty;
//   - alpha_reorder_query again, after the lowercasing.
//
// As in the other profiles, the host, port and path escape the
// delimiters a decoded component may hold (see escape.go).
func (st *state) semanticPrecise() {
	p := &st.p
	p.lower(p.scheme)
	scheme := p.get(p.scheme)
	sp := special(scheme) || string(scheme) == "gopher"
	if string(scheme) == "file" {
		// two_slashes: a file URL always has an authority, maybe empty;
		// file is special for the path rules.
		sp = true
		if !p.host.ok {
			p.host = span{p.path.i, p.path.i, true}
		}
	}
	if p.port.ok {
		if def, ok := urlcanonDefaultPort(scheme); ok && string(p.get(p.port)) == def {
			p.port.ok = false
		}
	}
	if p.pass.ok && p.pass.len() == 0 {
		p.pass.ok = false
		if p.user.len() == 0 {
			p.user.ok = false
		}
	}
	p.unescapeAll(&p.host)
	p.unescapeAll(&p.port)
	p.unescapeAll(&p.path)
	p.unescapeAll(&p.frag)
	p.user.ok, p.pass.ok = false, false
	if p.host.ok {
		p.semanticHost(sp)
		if sp && string(scheme) != "file" {
			for p.emptyAuthority() && p.promoteSegment() {
				p.unescapeAll(&p.host)
				p.semanticHost(sp)
			}
		}
	}
	p.escape(&p.port, portSet)
	p.escape(&p.path, pathSet)
	p.escape(&p.frag, googleSet)
	if p.query.ok {
		st.recodeQueryTokens()
	}
	if sp {
		b := p.get(p.path)
		for k, c := range b {
			if c == '\\' {
				b[k] = '/'
			}
		}
		p.dotPath(true) // also adds the leading slash and makes "" "/"
	} else if b := p.get(p.path); len(b) > 0 && b[0] == '/' {
		p.dotPath(false)
	}
	if p.query.ok {
		st.sortQueryBytes()
	}
}

// semanticHost applies reparse_host, normalize_ip_address, fix_host_dots,
// punycode_special_host and the escaping to a decoded host.
//
// The IPv4 test comes after the dots are fixed (urlcanon tests first), so
// that ".0" is the address 0.0.0.0 at once rather than on a second
// canonicalization.
func (p *parts) semanticHost(sp bool) {
	if p.normalizeIPv6(&p.host) {
		return
	}
	p.fixDots(&p.host)
	if sp {
		p.toASCII(&p.host)
		p.fixDots(&p.host) // UTS #46 maps "。" to "."
		p.lower(p.host)
	}
	if v, ok := parseIPv4(p.get(p.host), true); ok {
		p.set(&p.host, maxIPv4, func(dst, _ []byte) []byte { return appendIPv4(dst, v) })
		return
	}
	p.escape(&p.host, hostSetBS)
}

// portSet escapes in a port what would end it when read again.
var portSet = newSet("#%/?@:\\[]")

// urlcanonDefaultPort is urlcanon's SPECIAL_SCHEMES table.
func urlcanonDefaultPort(scheme []byte) (string, bool) {
	switch string(scheme) {
	case "ftp":
		return "21", true
	case "gopher":
		return "70", true
	case "http", "ws":
		return "80", true
	case "https", "wss":
		return "443", true
	}
	return "", false
}

// aggressive applies the steps aggressive adds to semantic_precise.
func (st *state) aggressive(o *Options) {
	p := &st.p
	p.frag.ok = false
	if p.isScheme("https") {
		p.setString(&p.scheme, "http")
	}
	if p.host.ok {
		p.stripWWWThenIP(o, false)
	}
	p.lower(p.path)
	if p.query.ok {
		p.lower(p.query)
		st.stripURLCanonQuerySessions()
	}
	p.stripURLCanonPathSessions()
	if !o.KeepTrailingSlash {
		p.stripTrailingSlash()
	}
	if p.query.ok {
		st.dropEmptyParams()
		st.sortQueryBytes()
		// The lowercasing may have moved a cfid next to a cftoken.
		st.stripURLCanonQuerySessions()
		if p.query.len() == 0 {
			p.query.ok = false
		}
	}
}
