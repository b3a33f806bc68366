package uri

import (
	"errors"
	"strconv"
	"unsafe"

	"github.com/urikit/urikit/internal/chars"
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
	// levels above the root"): "../../../g" gives "http://a/g". RFC 3986
	// 5.2.4 always does this.
	DropDots
	// RejectDots makes Resolve2396 fail with a *ResolveError wrapping
	// ErrAboveRoot at the offset of the first excess "..".
	RejectDots
)

// ErrAboveRoot is the reason Resolve2396 fails under RejectDots: the
// merged path still begins with ".." segments after step 6 of the 1998
// draft's section 5.2.
var ErrAboveRoot = errors.New(`".." above the root of the base path`)

// ResolveError reports why Resolve2396 (under RejectDots) or Relativize
// has no result for references that are valid: no byte of the input is
// wrong, so it is not a ParseError, but one dot segment is the cause,
// and Offset points at it in Input.
type ResolveError struct {
	Op     string // "resolve" or "relativize"
	Input  string // the reference, base or target that holds the segment
	Offset int    // the offset of the dot segment in Input
	Reason error  // ErrAboveRoot or ErrUnreachable
}

// Error returns a message such as
// `uri: resolve: ".." above the root of the base path at offset 6 of "../../g"`.
func (e *ResolveError) Error() string {
	return "uri: " + e.Op + ": " + e.Reason.Error() + " at offset " + strconv.Itoa(e.Offset) + " of " + window(e.Input, e.Offset)
}

// Unwrap returns the reason.
func (e *ResolveError) Unwrap() error { return e.Reason }

// part is one component of a resolution's target T (RFC 3986 5.2.2):
// its text without its delimiter, and whether it is defined.
type part struct {
	s  string
	ok bool
}

// target is T of RFC 3986 5.2.2 (and of the 1998 draft's 5.2) before it
// is written: the components taken from the base or the reference, and
// how its path is to be finished.
type target struct {
	scheme, query, fragment part
	auth                    *URI   // the URI whose authority T takes, or nil
	dir, path               string // T.path = dir + path (5.2.3 merge; dir is "" unless merged)
	dots                    bool   // remove_dot_segments applies to the path
	under                   DotPolicy
	literal                 bool  // RFC 3986 5.2.4 to the letter (see removeDots)
	grammar                 flags // grammar2396 or 0
}

// schemeOf, queryOf and fragmentOf return u's component as a part.
func schemeOf(u *URI) part   { return part{u.Scheme(), u.flags()&hasScheme != 0} }
func queryOf(u *URI) part    { return part{u.Query(), u.flags()&hasQuery != 0} }
func fragmentOf(u *URI) part { return part{u.Fragment(), u.flags()&hasFragment != 0} }

// Resolve resolves the reference ref against the base URI u with the
// algorithm of RFC 3986 section 5.2 (5.2.2 transform references, 5.2.3
// merge paths, 5.2.4 remove dot segments, 5.3 component recomposition),
// in its strict form: a reference with a scheme is absolute, so "http:g"
// stays "http:g". The base's fragment is ignored (section 5.1).
//
// Dot segments are removed from a merged path (5.2.3, 5.2.4), so those
// of the base go once a reference with a path is merged with it
// ("http://a/b/./c" with "g" gives "http://a/b/g"). A reference without
// a path ("?y", "#s", "") takes the base's path as written (5.2.2: "if
// (R.path == "") then T.path = Base.path"), dots included:
// "http://a/b/c/.." with "?y" gives "http://a/b/c/..?y", where net/url's
// ResolveReference gives "http://a/b/?y". Normalize removes them.
//
// The result is written once, its offsets computed as it is written: one
// allocation of the result's size, none when the result is ref, u
// without its fragment, or the start of u (a link to the site's root,
// to the page's directory, to the page itself), whose text it shares.
// A Resolver resolves many references against one base with no
// allocation. Where a literal recomposition would be read back
// differently, the path is prefixed so that it is not: a path that
// begins with "//" without an authority is written "/.//..." (the
// uriparser bug "scheme:" + "/..//x" = "scheme://x" cannot happen), and
// a scheme-less, authority-less path whose first segment has a colon is
// written "./a:b". So
// ParseWith(r.String(), Options{Grammar: r.Grammar()}) always returns r.
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
func (u URI) Resolve(ref URI) (t URI) {
	// Small enough to be inlined: the result is written in place, in
	// the caller's variable.
	u.resolve(&ref, &t)
	return t
}

// resolve is Resolve, writing its result through t.
func (u *URI) resolve(ref, t *URI) {
	// Shortcuts for the results that are u or ref as they are.
	switch {
	case ref.flags()&hasScheme != 0 && !hasDotSegment(ref.path()):
		*t = *ref
		return
	case isEmptyRef(ref):
		*t = u.WithoutFragment()
		return
	}
	var d baseDir
	if !u.resolveJoin(ref, &d, t) {
		u.resolveWrite(ref, &d, t)
	}
}

// baseDir is a base's directory, the part of its path a relative path
// is merged with (mergeDir), and whether it has a dot segment: found
// once per Resolver, and at most once per call of URI.Resolve.
type baseDir struct {
	dir   string
	dots  bool
	known bool
}

// find sets d to u's directory.
func (d *baseDir) find(u *URI) {
	d.dir = u.mergeDir()
	d.dots = hasDotSegment(d.dir)
	d.known = true
}

// resolveWrite is Resolve for the references that resolveJoin leaves,
// with the Resolver's code (appendResolved), the base's directory found
// only if a relative path needs it. A result that fits is written on
// the stack and copied into a string of its exact size. It is a function
// of its own so that Resolve's frame does not hold the buffer.
func (u *URI) resolveWrite(ref *URI, d *baseDir, t *URI) {
	n := int(u.queryEnd()) + len(ref.s) + 2
	if n <= resolveStack {
		var buf [resolveStack]byte
		b := appendResolved(buf[:0], u, d, ref, t)
		t.s = shareOrCopy(b, u.s)
		return
	}
	b := appendResolved(make([]byte, 0, n), u, d, ref, t)
	// b is never written again: hand its bytes to the string, as
	// strings.Builder does, instead of copying them.
	t.s = unsafe.String(unsafe.SliceData(b), len(b))
}

// resolveJoin writes through t the results of Resolve that are the
// start of the base u followed by the reference as written, with
// nothing to remove or insert: a reference with an authority (after u's scheme), or, on a
// base with an authority, one with an empty path (after u's path or
// query), an absolute path (after u's authority) or a relative path
// (after u's directory, or "/" when u's path is empty), with no dot
// segment in the path the result takes. That is how most links of a
// page read. The text is u.s[:m] ["/"] ref.s: its size is known before
// it is written, so it takes one allocation of exactly that size, or
// none when the result is the start of u.s or ref itself. It reports
// false, having written nothing, for the other references (and sets d
// when it found u's directory).
func (u *URI) resolveJoin(ref *URI, d *baseDir, t *URI) bool {
	var m int32       // the length of the start of u the result takes
	slash := int32(0) // 1 when "/" comes between u.s[:m] and ref.s
	switch {
	case ref.flags()&hasScheme != 0:
		return false
	case ref.flags()&hasAuthority != 0:
		// T is R with Base.scheme (RFC 3986 5.2.2).
		if hasDotSegment(ref.path()) {
			return false
		}
		*t = *ref
		if u.flags()&hasScheme != 0 {
			m = u.schemeEnd() + 1
			t.takeScheme(u, m)
		}
	case u.flags()&hasAuthority == 0:
		// A path after no authority may need a prefix (reparsePrefix).
		return false
	default:
		// T takes Base's scheme and authority; R has neither, so its
		// path starts at 0.
		p := ref.path()
		switch {
		case p == "" && ref.flags()&hasQuery == 0:
			// Base's path and query, R's fragment.
			m = u.queryEnd()
		case p == "":
			// Base's path, R's query.
			m = u.pathEnd()
		case p[0] == '/':
			if hasDotSegment(p) {
				return false
			}
			m = u.pathStart()
		default:
			// 5.2.3: Base's directory (mergeDir: "/" for an empty
			// path, which the result gets as the "/" between), then
			// R's path. The directory is kept for resolveWrite when
			// R's path has a dot segment.
			d.find(u)
			if d.dots || hasDotSegment(p) {
				return false
			}
			m = u.pathStart() + int32(len(d.dir))
			if u.pathStart() == u.pathEnd() {
				m, slash = u.pathStart(), 1
			}
		}
		*t = *u
		t.clearFlags(hasFragment)
		if p != "" || ref.flags()&hasQuery != 0 {
			t.clearFlags(hasQuery)
			t.setPath(u.pathStart(), m+slash+ref.pathEnd())
		}
	}
	at := m + slash // where ref.s begins in T
	t.setQueryEnd(at + ref.queryEnd())
	t.setFlags(ref.flags() & (hasQuery | hasFragment))
	// The text, shared with u when it is the start of u (its last
	// byte compared first: most results are not).
	if n := int(at) + len(ref.s); n <= len(u.s) && (slash == 0 || u.s[m] == '/') && u.s[n-1] == ref.s[len(ref.s)-1] && u.s[at:n] == ref.s {
		t.s = u.s[:n]
	} else if m == 0 {
		t.s = ref.s // a network-path reference against a base without scheme
	} else {
		b := make([]byte, n)
		copy(b, u.s[:m])
		b[m] = '/' // written over by ref.s unless slash
		copy(b[at:], ref.s)
		// b is never written again: hand its bytes to the string.
		t.s = unsafe.String(&b[0], n)
	}
	return true
}

// resolveStack is the longest result Resolve writes on the stack.
const resolveStack = 256

// shareOrCopy returns b as a string: the start of base when b is one
// ("/", "../", "?q" with the base's query: the links of a page to its
// site's root or to itself), which costs no allocation, and a copy of b
// otherwise.
func shareOrCopy(b []byte, base string) string {
	if isStartOf(b, base) {
		return base[:len(b)]
	}
	return string(b)
}

// isStartOf reports whether b is the start of s, comparing its last
// byte first: most results differ from the base at their end.
func isStartOf(b []byte, s string) bool {
	n := len(b)
	return n <= len(s) && (n == 0 || s[n-1] == b[n-1]) && s[:n] == string(b)
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
//     "segment/.." pairs are removed (6 c-f, with the package's segment
//     stack), and p decides about ".." segments left at the start (6g).
//
// The policy p applies to step 6 only. Under RejectDots the error is a
// *ResolveError wrapping ErrAboveRoot whose Offset is that of the first
// excess ".." in ref (or in u, when the excess comes from the base's own
// path: its Input then says which). One deviation from the letter of
// step 6a: a base with an authority and an empty path merges as "/" (as
// RFC 3986 5.2.3 says), since "http://a" + "g" would otherwise give
// "http://ag", another host. The result is written so that it re-parses
// into the same components, as for Resolve, and keeps the base's grammar
// in the same way.
func (u URI) Resolve2396(ref URI, p DotPolicy) (URI, error) {
	// Step 2.
	if ref.flags()&(hasScheme|hasAuthority|hasQuery) == 0 && ref.pathStart() == ref.pathEnd() {
		return u.withFragmentOf(ref), nil
	}
	// Step 3.
	if ref.flags()&hasScheme != 0 {
		return ref, nil
	}
	t := target{scheme: schemeOf(&u), query: queryOf(&ref), fragment: fragmentOf(&ref), grammar: u.flags() & grammar2396}
	switch path := ref.path(); {
	case ref.flags()&hasAuthority != 0: // step 4
		t.auth, t.path = &ref, path
		t.grammar = ref.flags() & grammar2396
	case path != "" && path[0] == '/': // step 5
		t.auth, t.path = u.authority(), path
	default: // step 6
		t.auth = u.authority()
		t.dir, t.path, t.dots, t.under = u.mergeDir(), path, true, p
	}
	r, excess := t.recompose()
	if excess >= 0 {
		// The offset is in the merged path dir+path.
		if excess >= len(t.dir) {
			return URI{}, &ResolveError{Op: "resolve", Input: ref.s, Offset: int(ref.pathStart()) + excess - len(t.dir), Reason: ErrAboveRoot}
		}
		return URI{}, &ResolveError{Op: "resolve", Input: u.s, Offset: int(u.pathStart()) + excess, Reason: ErrAboveRoot}
	}
	return r, nil
}

// authority returns &u when u has an authority, and nil otherwise.
func (u *URI) authority() *URI {
	if u.flags()&hasAuthority == 0 {
		return nil
	}
	return u
}

// mergeDir returns the part of u's path that a relative-path reference
// is appended to (RFC 3986 5.2.3): "/" for an authority with an empty
// path, otherwise the path up to and including its last "/".
func (u *URI) mergeDir() string {
	p := u.path()
	if p == "" && u.flags()&hasAuthority != 0 {
		return "/"
	}
	return p[:chars.LastIndexByte(p, '/')+1]
}

// withFragmentOf returns u without its fragment, plus the fragment of
// ref if it has one: the current document (RFC 3986 5.2.2 with an empty
// reference path and no query; the 1998 draft's step 2).
func (u URI) withFragmentOf(ref URI) URI {
	if ref.flags()&hasFragment == 0 {
		return u.WithoutFragment()
	}
	t := target{scheme: schemeOf(&u), auth: u.authority(), path: u.Path(), query: queryOf(&u), fragment: fragmentOf(&ref), grammar: u.flags() & grammar2396}
	r, _ := t.recompose()
	return r
}

// recompose writes T as RFC 3986 5.3 says, finishing its path on the
// way (merge, dot segments, the prefix that keeps it a path), into one
// allocation, and computes the offsets of the result as it writes. It
// returns the offset in dir+path of the first ".." above the root, or
// -1; under RejectDots the URI is then not written.
//
//	result = ""
//	if defined(T.scheme) then append T.scheme ":"
//	if defined(T.authority) then append "//" T.authority
//	append T.path
//	if defined(T.query) then append "?" T.query
//	if defined(T.fragment) then append "#" T.fragment
func (t *target) recompose() (URI, int) {
	var r fields
	r.flags = t.grammar
	authority := ""
	if t.auth != nil {
		authority = t.auth.Authority()
	}
	// Room for every part, their delimiters, and the 2 bytes of a
	// re-parse prefix ("./" or "/.").
	n := len(t.scheme.s) + 1 + 2 + len(authority) + len(t.dir) + len(t.path) + 2 + 1 + len(t.query.s) + 1 + len(t.fragment.s)
	b := make([]byte, 0, n)
	if t.scheme.ok {
		b = append(b, t.scheme.s...)
		r.schemeEnd = int32(len(b))
		r.flags |= hasScheme
		b = append(b, ':')
	}
	if t.auth != nil {
		b = append(b, '/', '/')
		d := int32(len(b)) - t.auth.authStart()
		b = append(b, authority...)
		r.flags |= hasAuthority | t.auth.flags()&(hasUserinfo|hasPort)
		r.hostStart = t.auth.hostStart() + d
		r.hostEnd = t.auth.hostEnd() + d
		r.hostKind = t.auth.hostKind()
	} else {
		r.hostStart, r.hostEnd = int32(len(b)), int32(len(b))
	}
	p0 := len(b)
	b = append(b, t.dir...)
	b = append(b, t.path...)
	excess := -1
	if t.dots && (hasDotSegment(t.path) || hasDotSegment(t.dir)) {
		var m int
		m, excess = removeDots(b[p0:], t.under, t.literal)
		if m < 0 {
			return URI{}, excess
		}
		b = b[:p0+m]
	}
	if t.auth == nil {
		// Keep the path from being read back as something else (a
		// path after an authority needs nothing, and is the usual case).
		if pre := reparsePrefix(b[p0:], t.scheme.ok, false, false); pre != "" {
			b = insertAt(b, p0, pre)
		}
	}
	r.pathStart = int32(p0)
	r.pathEnd = int32(len(b))
	if t.query.ok {
		b = append(b, '?')
		b = append(b, t.query.s...)
		r.flags |= hasQuery
	}
	r.queryEnd = int32(len(b))
	if t.fragment.ok {
		b = append(b, '#')
		b = append(b, t.fragment.s...)
		r.flags |= hasFragment
	}
	if len(b) > 0 {
		// b is never written again: hand its bytes to the string, as
		// strings.Builder does, instead of copying them.
		r.s = unsafe.String(unsafe.SliceData(b), len(b))
	}
	if t.under != RejectDots {
		return r.pack(), -1
	}
	return r.pack(), excess
}

// insertAt inserts s at b[i], within b's capacity (recompose reserves 2
// spare bytes).
func insertAt(b []byte, i int, s string) []byte {
	n := len(b)
	b = b[:n+len(s)]
	copy(b[i+len(s):], b[i:n])
	copy(b[i:], s)
	return b
}
