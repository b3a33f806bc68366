package uri

import "unsafe"

// A Resolver resolves references against one base URI, as Resolve does
// (RFC 3986 5.2), with the work that depends only on the base done once:
// the base without its fragment (5.1), the directory a relative path is
// merged into (5.2.3) and whether that directory holds dot segments.
// It is for the many links of one document: make one per base (or
// Reset one), then resolve each reference with AppendResolve, which
// writes the result's text into the caller's buffer and allocates
// nothing, or with Resolve, which returns a URI.
//
// Every result is byte for byte what Resolve returns. The zero Resolver
// resolves against the empty reference, as Resolve does on the zero URI.
//
// AppendResolve only reads the Resolver, so goroutines may share one;
// Resolve and Reset change it and need a Resolver of their own.
type Resolver struct {
	base  URI     // the base without its fragment
	dir   baseDir // the base's directory, always known
	block []byte  // where Resolve writes its results, append only
}

// NewResolver returns a Resolver for the base URI. The base should be an
// absolute URI (RFC 3986 5.1); its fragment is ignored.
func NewResolver(base URI) *Resolver {
	r := new(Resolver)
	r.Reset(base)
	return r
}

// Reset makes r resolve against base, keeping the memory of its earlier
// results for the next ones (results already returned stay valid).
func (r *Resolver) Reset(base URI) {
	r.base = base.WithoutFragment()
	r.dir.find(&r.base)
}

// Base returns the base URI without its fragment.
func (r *Resolver) Base() URI { return r.base }

// AppendResolve appends the text of the base resolved with ref (what
// r.Base().Resolve(ref).String() returns) to dst and returns the
// extended buffer. It allocates nothing when dst has room for the
// result: at most len(r.Base().String()) + len(ref.String()) + 2 bytes.
func (r *Resolver) AppendResolve(dst []byte, ref URI) []byte {
	// A copy of the directory: a zero Resolver's is found on use, and
	// goroutines that share r must not write it.
	var t URI
	d := r.dir
	return appendResolved(dst, &r.base, &d, &ref, &t)
}

// Resolve writes its results into blocks that double from
// firstBlock bytes to blockSize (one allocation for about fifty results
// of the size of a web link): a Resolver made for one page with a few
// links holds little memory.
const (
	firstBlock = 256
	blockSize  = 4096
)

// Resolve returns the base resolved with ref, as r.Base().Resolve(ref)
// does, but writes its text into a block of memory the Resolver shares
// among its results instead of allocating each: one allocation for many
// results. Results are never written over: a URI that Resolve returned
// stays as it is whatever r does next. The cost is that a result keeps
// its whole block (up to 4 KiB, or the result's size if larger) in
// memory while it is referenced; a program that keeps a few results out of
// many should keep copies (URI.Resolve) or use AppendResolve.
//
// A result that is ref itself (a URI with no dot segment in its path)
// or the base itself (the empty reference) is returned without writing,
// and one that is the start of the base shares its text.
func (r *Resolver) Resolve(ref URI) (u URI) {
	// Inlined, as URI.Resolve is: the result is written in place.
	r.resolve(&ref, &u)
	return u
}

// resolve is Resolve, writing its result through u.
func (r *Resolver) resolve(ref, u *URI) {
	if ref.flags()&hasScheme != 0 && !hasDotSegment(ref.path()) {
		*u = *ref
		return
	}
	if isEmptyRef(ref) {
		*u = r.base
		return
	}
	need := len(r.base.s) + len(ref.s) + 2
	if cap(r.block)-len(r.block) < need {
		r.block = make([]byte, 0, max(min(2*cap(r.block), blockSize), firstBlock, need))
	}
	start := len(r.block)
	b := appendResolved(r.block, &r.base, &r.dir, ref, u)
	r.block = b
	if n := len(b) - start; n > 0 {
		if isStartOf(b[start:], r.base.s) {
			// The start of the base, shared: the block takes it back.
			u.s = r.base.s[:n]
			r.block = b[:start]
			return
		}
		// The bytes b[start:] are never written again: later results
		// are appended after them or go into a new block.
		u.s = unsafe.String(&b[start], n)
	}
}

// isEmptyRef reports whether ref is the empty reference "" (RFC 3986
// 4.4, the current document without its fragment).
func isEmptyRef(ref *URI) bool {
	return ref.flags()&(hasScheme|hasAuthority|hasQuery|hasFragment) == 0 && ref.pathStart() == ref.pathEnd()
}

// appendResolved appends the text of T, the base b resolved with ref
// (RFC 3986 5.2.2 and the recomposition of 5.3), to dst, returns it and
// sets *t to T's components; their offsets count from len(dst) on entry
// and t.s is left empty. b's fragment, if any, is ignored (5.1). d is
// b's directory, found here if d.known is false and a relative path
// needs it. dst is extended by at most len(b.s) + len(ref.s) + 2 bytes.
// T is written through t, in place.
//
// Each case of 5.2.2 copies the text it takes from the base or the
// reference whole, delimiters included, rather than component by
// component: the base's scheme and authority are b.s[:pathStart],
// and the query and fragment of T, when they come from the reference,
// are ref.s[pathEnd:]. Only a path with a dot segment, or one merged
// with the base's directory, is built (appendPathTail).
func appendResolved(dst []byte, b *URI, d *baseDir, ref, t *URI) []byte {
	start := len(dst)
	switch {
	case ref.flags()&hasScheme != 0:
		// T is R with remove_dot_segments(R.path).
		*t = *ref
		t.s = ""
		k := indexDotSegment(ref.path())
		if k < 0 {
			return append(dst, ref.s...)
		}
		dst = append(dst, ref.s[:ref.pathStart()]...)
		return appendPathTail(dst, start, t, "", false, ref, k)

	case ref.flags()&hasAuthority != 0:
		// T.scheme = Base.scheme, the rest from R: the base is replaced
		// from its authority on.
		*t = *ref
		t.s = ""
		if b.flags()&hasScheme != 0 {
			dst = append(dst, b.s[:b.schemeEnd()+1]...)
			t.takeScheme(b, int32(len(dst)-start))
		}
		k := indexDotSegment(ref.path())
		if k < 0 {
			return append(dst, ref.s...)
		}
		dst = append(dst, ref.s[:ref.pathStart()]...)
		return appendPathTail(dst, start, t, "", false, ref, k)

	case ref.pathStart() == ref.pathEnd():
		// An empty path: the base up to its path, or up to its query
		// when R has no query, then what R has.
		*t = *b
		t.s = ""
		t.clearFlags(hasFragment)
		if ref.flags()&hasQuery != 0 {
			dst = append(dst, b.s[:b.pathEnd()]...)
			t.clearFlags(hasQuery)
		} else {
			dst = append(dst, b.s[:b.queryEnd()]...)
		}
		dst = append(dst, ref.s...)
		t.setQueryEnd(int32(len(dst)-start) - int32(len(ref.s)) + ref.queryEnd())
		t.setFlags(ref.flags() & (hasQuery | hasFragment))
		return dst
	}
	// A path: T takes the base's scheme and authority, and R's path
	// (merged with the base's directory when relative), query and
	// fragment.
	*t = *b
	t.s = ""
	t.clearFlags(hasQuery | hasFragment)
	dst = append(dst, b.s[:b.pathStart()]...)
	p := ref.path()
	if p[0] == '/' {
		return appendPathTail(dst, start, t, "", false, ref, indexDotSegment(p))
	}
	if !d.known {
		d.find(b)
	}
	return appendPathTail(dst, start, t, d.dir, d.dots, ref, indexDotSegment(p))
}

// appendPathTail finishes T, whose scheme and authority t holds and dst
// ends with: it appends dir + ref's path with its dot segments removed
// (RFC 3986 5.2.4), in one pass from k, the offset in ref's path of its
// first dot segment (or -1), when dir has none (dirDots false); then the
// prefix that keeps the path from being read back as an authority or a
// scheme (see Resolve); then ref's query and fragment as written.
func appendPathTail(dst []byte, start int, t *URI, dir string, dirDots bool, ref *URI, k int) []byte {
	p0 := len(dst)
	dst = append(dst, dir...)
	switch {
	case k < 0 && !dirDots:
		dst = append(dst, ref.s[ref.pathStart():ref.pathEnd()]...)
	default:
		from := 0 // where the segment stack starts: before it all is clean
		if !dirDots {
			from = len(dst) - p0 + k
		}
		dst = append(dst, ref.s[ref.pathStart():ref.pathEnd()]...)
		n, _ := removeDotsFrom(dst[p0:], from, DropDots, true)
		dst = dst[:p0+n]
	}
	// Without an authority, t (the base or ref) holds no host or port
	// length: its host is at pathStart, wherever that is.
	if t.flags()&hasAuthority == 0 {
		if pre := reparsePrefix(dst[p0:], t.flags()&hasScheme != 0, false, false); pre != "" {
			n := len(dst)
			dst = append(dst, pre...)
			copy(dst[p0+len(pre):], dst[p0:n])
			copy(dst[p0:], pre)
		}
	}
	pathEnd := int32(len(dst) - start)
	t.setPath(int32(p0-start), pathEnd)
	dst = append(dst, ref.s[ref.pathEnd():]...)
	t.setQueryEnd(pathEnd + ref.queryEnd() - ref.pathEnd())
	t.setFlags(ref.flags() & (hasQuery | hasFragment))
	return dst
}
