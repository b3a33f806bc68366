package uri

import (
	"errors"
	"sort"
	"strings"
	"unsafe"
)

// DotPolicy chooses what Resolve2396 does with ".." segments that would
// climb above the root of the base path, the error case of step 6g of the
// 1998 draft's section 5.2, which allows three behaviours.
type DotPolicy uint8

const (
	// KeepDots retains the excess ".." segments in the resolved path, as
	// the draft's Appendix C.2 shows: "../../../g" against
	// "http://a/b/c/d;p?q" gives "http://a/../g".
	KeepDots DotPolicy = iota
	// DropDots removes the excess ".." segments ("discarding relative
	// levels above the root"): "../../../g" gives "http://a/g".
	DropDots
	// RejectDots makes Resolve2396 fail with an error wrapping
	// ErrAboveRoot ("avoiding traversal of the reference").
	RejectDots
)

// ErrAboveRoot is the reason Resolve2396 fails under RejectDots: the
// merged path still begins with ".." segments after step 6 of the 1998
// draft's section 5.2.
var ErrAboveRoot = errors.New("uri: reference climbs above the root of the base path")

// dotMode selects how assemble treats the path it writes.
type dotMode uint8

const (
	dotsAsIs dotMode = iota // the path is taken as written
	dots3986                // RFC 3986 5.2.4 remove_dot_segments
	dots2396                // the 1998 draft's 5.2 step 6 c-g
)

// Resolve resolves the reference ref against the base URI u with the
// algorithm of RFC 3986 section 5.2 (5.2.2 transform references, 5.2.3
// merge paths, 5.2.4 remove dot segments, 5.3 component recomposition),
// in its strict form: a reference with a scheme is absolute, so "http:g"
// stays "http:g". The base's fragment is ignored (section 5.1).
//
// The result is built directly: its string and component offsets are
// written in one pass and cost one allocation (none when the result is
// ref or u itself). Where a literal recomposition would be read back
// differently, the path is prefixed so that it is not: a path that begins
// with "//" without an authority is written "/.//..." (the uriparser bug
// "scheme:" + "/..//x" = "scheme://x" cannot happen), and a scheme-less,
// authority-less path whose first segment has a colon is written
// "./a:b". So ParseWith(r.String(), r.Grammar()) always returns r.
//
// The base should be an absolute URI. When it has no scheme (a relative
// base, as when composing two relative references) the same algorithm is
// applied literally: the result has no scheme, and remove_dot_segments
// drops ".." segments that climb above the start of a relative path
// ("../a" + "b" gives "a/b"; "a" + ".." gives "").
//
// The result keeps the grammar (Grammar) of the base, except when its
// authority comes from ref: then it has ref's grammar, because the
// authority's sub-components were split by that grammar.
func (u URI) Resolve(ref URI) URI {
	if ref.flags&hasScheme != 0 {
		// T = R, with remove_dot_segments(R.path).
		if !hasDotSegment(ref.Path()) {
			return ref
		}
		r, _ := assemble(ref, ref, ref.flags&hasAuthority != 0, "", ref.Path(), dots3986, KeepDots, ref, ref, ref.flags&grammar2396)
		return r
	}
	g := u.flags & grammar2396
	if ref.flags&hasAuthority != 0 {
		r, _ := assemble(u, ref, true, "", ref.Path(), dots3986, KeepDots, ref, ref, ref.flags&grammar2396)
		return r
	}
	p := ref.Path()
	if p == "" {
		if ref.flags&hasQuery == 0 {
			// Same document: the base without its fragment, plus the
			// reference's fragment.
			return u.withFragmentOf(ref)
		}
		r, _ := assemble(u, u, u.flags&hasAuthority != 0, "", u.Path(), dotsAsIs, KeepDots, ref, ref, g)
		return r
	}
	if p[0] == '/' {
		r, _ := assemble(u, u, u.flags&hasAuthority != 0, "", p, dots3986, KeepDots, ref, ref, g)
		return r
	}
	r, _ := assemble(u, u, u.flags&hasAuthority != 0, u.mergeDir(), p, dots3986, KeepDots, ref, ref, g)
	return r
}

// Resolve2396 resolves ref against the base u with the algorithm of the
// 1998 draft's section 5.2 (draft-fielding-uri-syntax-02, the text of
// RFC 2396), reproducing every result of its Appendix C:
//
//   - step 2: an empty reference, or a bare fragment, is the current
//     document: the base without its fragment, plus ref's fragment;
//   - step 3: a reference with a scheme is taken as it is ("http:g");
//   - step 4: a network-path reference keeps its path as written;
//   - step 5: an absolute path is taken as written ("/./g" gives
//     "http://a/./g");
//   - step 6: otherwise the base path up to its last "/" and the
//     reference path are merged, even when the reference path is empty
//     ("?y" gives "http://a/b/c/?y"), then "." segments and
//     "segment/.." pairs are removed (6 c-f, done here with a segment
//     stack in one pass), and p decides about ".." segments left at the
//     start (6g).
//
// The policy p applies to step 6 only. Under RejectDots the error wraps
// ErrAboveRoot. One deviation from the letter of step 6a: a base with an
// authority and an empty path merges as "/" (as RFC 3986 5.2.3 says),
// since "http://a" + "g" would otherwise give "http://ag", another host.
// The result is written so that it re-parses into the same components,
// as for Resolve, and keeps the base's grammar in the same way.
func (u URI) Resolve2396(ref URI, p DotPolicy) (URI, error) {
	// Step 2.
	if ref.flags&(hasScheme|hasAuthority|hasQuery) == 0 && ref.pathStart == ref.pathEnd {
		return u.withFragmentOf(ref), nil
	}
	// Step 3.
	if ref.flags&hasScheme != 0 {
		return ref, nil
	}
	// Step 4.
	if ref.flags&hasAuthority != 0 {
		return assemble(u, ref, true, "", ref.Path(), dotsAsIs, p, ref, ref, ref.flags&grammar2396)
	}
	g := u.flags & grammar2396
	path := ref.Path()
	// Step 5.
	if path != "" && path[0] == '/' {
		return assemble(u, u, u.flags&hasAuthority != 0, "", path, dotsAsIs, p, ref, ref, g)
	}
	// Step 6.
	return assemble(u, u, u.flags&hasAuthority != 0, u.mergeDir(), path, dots2396, p, ref, ref, g)
}

// mergeDir returns the part of u's path that a relative-path reference
// is appended to (RFC 3986 5.2.3): "/" for an authority with an empty
// path, otherwise the path up to and including its last "/".
func (u URI) mergeDir() string {
	p := u.Path()
	if p == "" && u.flags&hasAuthority != 0 {
		return "/"
	}
	return p[:strings.LastIndexByte(p, '/')+1]
}

// withFragmentOf returns u without its fragment, plus the fragment of
// ref if it has one.
func (u URI) withFragmentOf(ref URI) URI {
	base := u.WithoutFragment()
	if ref.flags&hasFragment == 0 {
		return base
	}
	f := ref.s[ref.queryEnd:] // "#" fragment
	if base.s == "" {
		v := ref
		v.flags = ref.flags&hasFragment | base.flags&grammar2396
		v.schemeEnd, v.hostStart, v.hostEnd, v.pathStart, v.pathEnd = 0, 0, 0, 0, 0
		v.hostKind = NoHost
		return v
	}
	b := make([]byte, 0, len(base.s)+len(f))
	b = append(b, base.s...)
	b = append(b, f...)
	base.s = unsafe.String(unsafe.SliceData(b), len(b))
	base.flags |= hasFragment
	return base
}

// assemble writes the result of a resolution (RFC 3986 5.3, the 1998
// draft's step 7): the scheme of sch (when it has one), the authority of
// auth (when useAuth), the path dir+path processed as dm says, the query
// of q and the fragment of f. It allocates the result string once and
// computes its offsets as it writes, so the result is never re-parsed.
func assemble(sch, auth URI, useAuth bool, dir, path string, dm dotMode, p DotPolicy, q, f URI, g flags) (URI, error) {
	var r URI
	r.flags = g
	n := len(dir) + len(path) + 2
	hasSch := sch.flags&hasScheme != 0
	if hasSch {
		n += int(sch.schemeEnd) + 1
	}
	authority := ""
	if useAuth {
		authority = auth.Authority()
		n += 2 + len(authority)
	}
	query, frag := "", ""
	if q.flags&hasQuery != 0 {
		query = q.s[q.pathEnd:q.queryEnd] // with its "?"
		n += len(query)
	}
	if f.flags&hasFragment != 0 {
		frag = f.s[f.queryEnd:] // with its "#"
		n += len(frag)
	}
	b := make([]byte, 0, n)
	if hasSch {
		b = append(b, sch.s[:sch.schemeEnd+1]...)
		r.schemeEnd = sch.schemeEnd
		r.flags |= hasScheme
	}
	if useAuth {
		b = append(b, '/', '/')
		a := int32(len(b))
		d := a - auth.authStart()
		b = append(b, authority...)
		r.flags |= hasAuthority | auth.flags&(hasUserinfo|hasPort)
		r.hostStart = auth.hostStart + d
		r.hostEnd = auth.hostEnd + d
		r.hostKind = auth.hostKind
	} else {
		r.hostStart, r.hostEnd = int32(len(b)), int32(len(b))
	}
	p0 := len(b)
	b = append(b, dir...)
	b = append(b, path...)
	switch dm {
	case dots3986:
		b = b[:p0+removeDotSegmentsInPlace(b[p0:])]
	case dots2396:
		m, err := mergeSegments2396(b[p0:], p)
		if err != nil {
			return URI{}, err
		}
		b = b[:p0+m]
	}
	if !useAuth {
		// Keep the path from being read back as something else (a
		// path after an authority needs nothing, and is the usual case).
		if pre := reparsePrefix(b[p0:], hasSch, false, false); pre != "" {
			b = insertAt(b, p0, pre)
		}
	}
	r.pathStart = int32(p0)
	r.pathEnd = int32(len(b))
	if query != "" {
		b = append(b, query...)
		r.flags |= hasQuery
	}
	r.queryEnd = int32(len(b))
	if frag != "" {
		b = append(b, frag...)
		r.flags |= hasFragment
	}
	if len(b) > 0 {
		// b is never written again: hand its bytes to the string, as
		// strings.Builder does, instead of copying them.
		r.s = unsafe.String(unsafe.SliceData(b), len(b))
	}
	return r, nil
}

// insertAt inserts s at b[i], within b's capacity (assemble reserves 2
// spare bytes).
func insertAt(b []byte, i int, s string) []byte {
	n := len(b)
	b = b[:n+len(s)]
	copy(b[i+len(s):], b[i:n])
	copy(b[i:], s)
	return b
}

// Relativize returns the shortest reference r such that
// u.Resolve(r).String() == target.String(), and true; or false when no
// reference resolves to target against u.
//
// When the schemes differ, the only candidate is target itself (it is
// absolute, and resolves to itself unless its path has dot segments).
// A target whose path has "." or ".." segments is reachable only through
// a reference that keeps the base's path (an empty, query-only or
// fragment-only reference), since every other resolution removes them;
// otherwise there is none and Relativize reports false. Among references
// of equal length, the one that keeps more of the base is preferred
// ("#f" over "?q#f", a relative path over an absolute one).
func (u URI) Relativize(target URI) (URI, bool) {
	return relativize(u, target, false, func(b, r URI) (URI, error) { return b.Resolve(r), nil })
}

// Relativize2396 is Relativize for Resolve2396 with KeepDots: it returns
// the shortest reference r such that u.Resolve2396(r, KeepDots) gives
// target, and true, or false when there is none. Under the 1998 draft a
// query-only reference replaces the base's last segment too, so the
// answer often differs from Relativize's ("d?y" rather than "?y").
func (u URI) Relativize2396(target URI) (URI, bool) {
	return relativize(u, target, true, func(b, r URI) (URI, error) { return b.Resolve2396(r, KeepDots) })
}

// relativize generates the candidate references, from the most to the
// least dependent on the base, and returns the shortest one that
// resolves to target. Checking each candidate by resolving it makes the
// answer right by construction, whatever corner of the algorithm (dot
// segments, empty paths, colons, "//") the target falls into.
func relativize(base, target URI, draft bool, resolve func(b, r URI) (URI, error)) (URI, bool) {
	t := target.s
	var cands []string
	add := func(parts ...string) {
		cands = append(cands, strings.Join(parts, ""))
	}
	sameScheme := base.HasScheme() == target.HasScheme() && base.Scheme() == target.Scheme()
	if sameScheme {
		rest := t[target.authStart()-2:] // target without "scheme:"
		if !target.HasScheme() {
			rest = t
		}
		sameAuth := base.HasAuthority() == target.HasAuthority() && base.Authority() == target.Authority()
		if sameAuth {
			tp, bp := target.Path(), base.Path()
			tail := t[target.pathEnd:] // "?" query "#" fragment
			if tp == bp && target.HasQuery() == base.HasQuery() && target.Query() == base.Query() {
				add(t[target.queryEnd:])
			}
			if target.HasQuery() {
				// Same path under RFC 3986; the base's directory under
				// the 1998 draft, which merges.
				add(tail)
			}
			relativePaths(base, target, tail, draft, add)
			if tp != "" && tp[0] == '/' {
				add(reparsePrefix(tp, false, false, false) + t[target.pathStart:])
			}
		}
		add(reparsePrefix(target.Path(), false, target.HasAuthority(), false) + rest)
	}
	add(t)
	sort.SliceStable(cands, func(i, j int) bool { return len(cands[i]) < len(cands[j]) })
	mode := target.Grammar() | AllowZoneID
	for i, c := range cands {
		if i > 0 && c == cands[i-1] {
			continue
		}
		ref, err := ParseWith(c, mode)
		if err != nil {
			continue
		}
		res, err := resolve(base, ref)
		if err == nil && res.s == t {
			return ref, true
		}
	}
	return URI{}, false
}

// relativePaths adds the relative-path candidates for the target path tp
// followed by tail: "../" as many times as the base's directory has
// segments below the longest common directory, then the rest of tp.
// draft selects the 1998 draft's treatment of the directory's dots.
func relativePaths(base, target URI, tail string, draft bool, add func(...string)) {
	// Compare the path as resolution produced it, before the prefix
	// that keeps it from re-parsing differently ("./a:b", "/.//a").
	tp := stripReparsePrefix(target.Path(), target.HasScheme(), target.HasAuthority())
	dir := base.mergeDir()
	if hasDotSegment(dir) {
		// The merge removes the directory's own dot segments too.
		b := []byte(dir)
		n := 0
		if draft {
			n, _ = mergeSegments2396(b, KeepDots)
		} else {
			n = removeDotSegmentsInPlace(b)
		}
		dir = string(b[:n])
	}
	// k: the longest prefix of dir ending in "/" (or empty) that is a
	// prefix of tp.
	k := 0
	for i := 0; i < len(dir) && i < len(tp) && dir[i] == tp[i]; i++ {
		if dir[i] == '/' {
			k = i + 1
		}
	}
	ups := strings.Count(dir[k:], "/")
	rest := tp[k:]
	up := strings.Repeat("../", ups)
	if rest == "" {
		if ups > 0 {
			add(up[:len(up)-1], tail)
		} else {
			add(".", tail)
		}
		add(up, "./", tail)
		return
	}
	if ups == 0 {
		// rest is a relative path: it must not read as an absolute
		// one, nor its first segment as a scheme.
		up = reparsePrefix(rest, false, false, true)
	}
	add(up, rest, tail)
}
