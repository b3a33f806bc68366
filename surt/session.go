package surt

// Session identifiers in paths and queries, as the two families of tools
// strip them. Both describe them with regular expressions; here each is
// a straight scan that finds what the expression matches, in linear time.

// foldEq reports whether b[i:] starts with the lowercase ASCII word w,
// without case.
func foldEq(b []byte, i int, w string) bool {
	if i < 0 || i+len(w) > len(b) {
		return false
	}
	for k := 0; k < len(w); k++ {
		c := b[i+k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[k] {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func allOf(b []byte, f func(byte) bool) bool {
	for _, c := range b {
		if !f(c) {
			return false
		}
	}
	return true
}

// iaSessionParam reports whether the parameter q is one of the query
// session identifiers of webarchive-commons' URLRegexTransformer
// (stripQuerySessionID, and surt's port of it), without case: jsessionid=,
// phpsessid= or sid= with 32 letters or digits, or "aspsessionid", 8
// letters, "=" and 24 letters.
func iaSessionParam(q []byte) bool {
	for _, w := range [...]string{"jsessionid=", "phpsessid=", "sid="} {
		if len(q) == len(w)+32 && foldEq(q, 0, w) && allOf(q[len(w):], isAlnum) {
			return true
		}
	}
	const asp = "aspsessionid"
	return len(q) == len(asp)+8+1+24 && foldEq(q, 0, asp) &&
		allOf(q[len(asp):len(asp)+8], isAlpha) && q[len(asp)+8] == '=' && allOf(q[len(asp)+9:], isAlpha)
}

// iaCFID reports whether a and b are ColdFusion's cfid=X and cftoken=Y,
// X and Y not empty (cfid=[^&]+&cftoken=[^&]+, without case).
func iaCFID(a, b []byte) bool {
	return len(a) > len("cfid=") && foldEq(a, 0, "cfid=") && len(b) > len("cftoken=") && foldEq(b, 0, "cftoken=")
}

// stripIAQuerySessions removes the session parameters of
// webarchive-commons' stripQuerySessionID: iaSessionParam and the pair
// cfid=X&cftoken=Y. As its expressions ^(.*)ID(?:&(.*))?$ do, an
// identifier goes with the "&" after it, and one that ends the query
// leaves the "&" before it ("one=two&jsessionid=X" is "one=two&"). The
// expressions remove only the last identifier of each kind, and also one
// inside a parameter ("xjsessionid=X"); here every parameter that is an
// identifier goes, which makes the result a fixed point (the package doc
// lists the difference). The pairs are found with a stack, so that one
// pass removes a pair that a removal or the sort made adjacent.
//
// It reports whether the query has a cfid parameter, which a sort may yet
// move next to a cftoken.
func (st *state) stripIAQuerySessions() (cfid bool) {
	if !anyParam(st.p.get(st.p.query), func(q []byte) bool { return iaSessionParam(q) || foldEq(q, 0, "cfid=") }) {
		return false // the common case, without a list of the parameters
	}
	st.splitParams()
	b := st.p.buf
	n := len(st.params)
	out := st.params[:0]
	changed := false
	for k := 0; k < n; k++ {
		pr := st.params[k]
		last := k == n-1
		cfid = cfid || foldEq(b[pr.i:pr.j], 0, "cfid=")
		if iaSessionParam(b[pr.i:pr.j]) {
			changed = true
			if last {
				out = append(out, param{pr.i, pr.i, pr.i})
			}
			continue
		}
		out = append(out, pr)
		if m := len(out); m >= 2 && iaCFID(b[out[m-2].i:out[m-2].j], b[out[m-1].i:out[m-1].j]) {
			out = out[:m-2]
			changed = true
			if last {
				out = append(out, param{pr.i, pr.i, pr.i})
			}
		}
	}
	st.params = out
	if changed {
		st.joinParams(false, true)
	}
	return cfid
}

// anyParam reports whether f holds for a parameter of the query q.
func anyParam(q []byte, f func([]byte) bool) bool {
	for i := 0; i <= len(q); {
		var pr param
		pr, i = nextParam(q, i)
		if f(q[pr.i:pr.j]) {
			return true
		}
	}
	return false
}

// stripIAPathSessions removes ASP.NET's cookieless session identifiers
// from a path as webarchive-commons' stripPathSessionID does, without
// case:
//
//	^(.*/)(\((?:[a-z]\([0-9a-z]{24}\))+\)/)([^\?]+\.aspx.*)$  "/(S(4hqa0555fwsecu455xqckv45))/mileg.aspx"
//	^(.*/)(\([0-9a-z]{24}\)/)([^\?]+\.aspx.*)$                  "/(4hqa0555fwsecu455xqckv45)/mileg.aspx"
//
// keeping the first and third groups: an identifier right after a "/"
// goes when ".aspx" follows it after at least one byte. The expressions
// remove the last such identifier of each kind; here every one goes, in
// one pass (the path holds no "?" here: it is escaped).
func (p *parts) stripIAPathSessions() {
	b := p.get(p.path)
	lastAspx := -1
	for k := len(b) - 5; k >= 0; k-- {
		if foldEq(b, k, ".aspx") {
			lastAspx = k
			break
		}
	}
	if lastAspx < 0 {
		return
	}
	start := len(p.buf)
	changed := false
	for k := 0; k < len(b); {
		if k > 0 && b[k-1] == '/' && b[k] == '(' {
			e := aspSessionEnd(b, k, true)
			if e < 0 {
				e = aspSessionEnd(b, k, false)
			}
			if e >= 0 && lastAspx >= e+1 {
				k, changed = e, true
				continue
			}
		}
		p.buf = append(p.buf, b[k])
		k++
	}
	if changed {
		p.path.i, p.path.j = int32(start), int32(len(p.buf))
	} else {
		p.buf = p.buf[:start]
	}
}

// urlcanonQuerySession reports whether the parameter q is one of
// urlcanon's QUERY_SESSIONID_RE identifiers (without case):
// jsessionid=[0-9a-z$]{10,}, sessionid=, phpsessid= and sid= with
// [0-9a-z]{16,}, aspsessionid[a-z]{8}=[0-9a-z]{16,}.
func urlcanonQuerySession(q []byte) bool {
	value := func(k, min int, dollar bool) bool {
		v := q[k:]
		return len(v) >= min && allOf(v, func(c byte) bool { return isAlnum(c) || dollar && c == '$' })
	}
	switch {
	case foldEq(q, 0, "jsessionid="):
		return value(len("jsessionid="), 10, true)
	case foldEq(q, 0, "sessionid="):
		return value(len("sessionid="), 16, false)
	case foldEq(q, 0, "phpsessid="):
		return value(len("phpsessid="), 16, false)
	case foldEq(q, 0, "sid="):
		return value(len("sid="), 16, false)
	case foldEq(q, 0, "aspsessionid"):
		k := len("aspsessionid")
		return len(q) > k+8 && allOf(q[k:k+8], isAlpha) && q[k+8] == '=' && value(k+9, 16, false)
	}
	return false
}

// urlcanonCFID reports whether a and b are cfid=[0-9]+ and
// cftoken=[0-9a-z-]+ (without case).
func urlcanonCFID(a, b []byte) bool {
	isDigit := func(c byte) bool { return '0' <= c && c <= '9' }
	isTok := func(c byte) bool { return isAlnum(c) || c == '-' }
	return foldEq(a, 0, "cfid=") && len(a) > 5 && allOf(a[5:], isDigit) &&
		foldEq(b, 0, "cftoken=") && len(b) > 8 && allOf(b[8:], isTok)
}

// stripURLCanonPathSessions removes, from a path that ends in ".aspx",
// every "(id)/" and "(X(id)...)/" that follows a "/" (urlcanon's
// ASPX_PATH_SESSIONID_RE), then a final ";jsessionid=" with 32 letters or
// digits (PATH_SESSIONID_RE). The path is lowercase here (aggressive
// lowercases it first), as the expressions, which have no (?i), expect.
func (p *parts) stripURLCanonPathSessions() {
	b := p.get(p.path)
	if n := len(b); n >= 5 && string(b[n-5:]) == ".aspx" {
		changed := false
		start := len(p.buf)
		for k := 0; k < len(b); {
			if k > 0 && b[k-1] == '/' && b[k] == '(' {
				if e := aspSessionEnd(b, k, false); e >= 0 {
					k, changed = e, true
					continue
				}
				if e := aspSessionEnd(b, k, true); e >= 0 {
					k, changed = e, true
					continue
				}
			}
			p.buf = append(p.buf, b[k])
			k++
		}
		if changed {
			p.path.i, p.path.j = int32(start), int32(len(p.buf))
		} else {
			p.buf = p.buf[:start]
		}
	}
	b = p.get(p.path)
	const w = ";jsessionid="
	if n := len(b); n >= len(w)+32 && string(b[n-32-len(w):n-32]) == w &&
		allOf(b[n-32:], func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' }) {
		p.path.j -= int32(len(w) + 32)
	}
}

// aspSessionEnd returns the end of "(X(id)Y(id)...)/" (nested) or
// "(id)/" at b[s:], id being 24 letters or digits, or -1.
func aspSessionEnd(b []byte, s int, nested bool) int {
	isID := func(k int) bool { return k+24 <= len(b) && allOf(b[k:k+24], isAlnum) }
	k := s + 1
	if nested {
		n := 0
		for k+27 <= len(b) && isAlpha(b[k]) && b[k+1] == '(' && isID(k+2) && b[k+26] == ')' {
			k += 27
			n++
		}
		if n == 0 {
			return -1
		}
	} else {
		if !isID(k) {
			return -1
		}
		k += 24
	}
	if k+1 < len(b) && b[k] == ')' && b[k+1] == '/' {
		return k + 2
	}
	return -1
}
