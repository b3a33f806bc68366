package uri

import (
	"bytes"

	"github.com/urikit/urikit/internal/chars"
)

// Dot segments ("." and "..") and the paths that resolution and
// normalization write: one segment stack (removeDots) for RFC 3986
// 5.2.4, the 1998 draft's section 5.2 step 6 and a relative path kept
// relative; and the prefix that keeps a written path from being read
// back as something else. Every function here is linear in the length
// of the path.

// hasDotSegment reports whether path has a "." or ".." segment.
func hasDotSegment(path string) bool { return indexDotSegment(path) >= 0 }

// indexDotSegment returns the offset of the first "." or ".." segment
// of path, or -1. Only a "." at the start or after a "/" can begin one,
// and "/." is rare in a path ("index.html" has no dot segment to check).
func indexDotSegment(path string) int {
	i := 0
	if path == "" || path[0] != '.' {
		if i = chars.IndexPair(path, '/', '.'); i < 0 {
			return -1
		}
	}
	for {
		j := i + 1
		if j < len(path) && path[j] == '.' {
			j++
		}
		if j == len(path) || path[j] == '/' {
			return i
		}
		k := chars.IndexPair(path[j:], '/', '.')
		if k < 0 {
			return -1
		}
		i = j + k
	}
}

// removeDots is the one segment stack of the package: it removes the
// "." and ".." segments of the path in b, in place, and returns the
// length of the result and the offset in b of the first ".." that had
// no segment to remove ("above the root"), or -1. It serves RFC 3986
// 5.2.4 remove_dot_segments (for Resolve and Normalize), the 1998
// draft's section 5.2 steps 6c-6g (for Resolve2396), and the normalizer
// of relative references; they differ only in two settings:
//
//   - under: what a ".." with nothing to remove does (step 6g of the
//     draft allows all three): DropDots removes it, as RFC 3986 always
//     does; KeepDots keeps it ("http://a/../g"); RejectDots stops, and
//     removeDots returns n = -1 with the ".."'s offset.
//   - literal: RFC 3986 5.2.4 read to the letter for a rootless path
//     ("a/b" from a base like "foo:a/b"): its rule C writes "/" when it
//     removes a segment, so a rootless path whose every segment is
//     removed becomes rooted ("a/../b" gives "/b"). The draft's string
//     rewriting gives "b".
//
// The stack: a leading "/" is the root, not a segment. Each segment is
// pushed onto b[:w] followed by its "/"; "." is skipped; ".." pops the
// top segment unless the stack is empty or its top is a kept ".." (step
// 6e of the draft removes "<segment>/../" only where segment is not
// ".."). A final "." or ".." leaves the "/" of the segment before it,
// as both texts do ("/b/c/.." gives "/b/"). Writing never overtakes
// reading (w <= r), and a pop scans only the bytes it removes, so the
// whole is linear in len(b).
func removeDots(b []byte, under DotPolicy, literal bool) (n, excess int) {
	return removeDotsFrom(b, 0, under, literal)
}

// removeDotsFrom is removeDots on a path whose first from bytes are
// known to hold no dot segment and to end where a segment begins (from
// is 0, or b[from-1] is "/"): the stack starts full with them, so that
// a path is scanned once, by indexDotSegment up to from and by the
// stack after it.
func removeDotsFrom(b []byte, from int, under DotPolicy, literal bool) (n, excess int) {
	end := len(b)
	root := 0
	if end > 0 && b[0] == '/' {
		root = 1
	}
	r, w := max(root, from), max(root, from)
	excess = -1
	for r <= end {
		// The segment's end: segments are short, and a loop costs less
		// than a call per segment.
		j := r
		for j < end && b[j] != '/' {
			j++
		}
		seg := b[r:j]
		switch {
		case len(seg) == 1 && seg[0] == '.':
			r = j + 1
			continue
		case len(seg) == 2 && seg[0] == '.' && seg[1] == '.':
			if w > root {
				top := root + lastSlash(b[root:w-1]) + 1
				if !(w-1-top == 2 && b[top] == '.' && b[top+1] == '.') {
					w = top
					if w == 0 && literal {
						// RFC 3986 5.2.4 C: the "/" that replaced
						// "/../" starts the rest of the input. r > 0,
						// so b[0] is already read.
						b[0] = '/'
						w, root = 1, 1
					}
					r = j + 1
					continue
				}
			}
			if excess < 0 {
				excess = r
			}
			switch under {
			case DropDots:
				r = j + 1
				continue
			case RejectDots:
				return -1, excess
			}
		}
		if j == end {
			w += copy(b[w:], seg)
			break
		}
		if w != r {
			copy(b[w:], b[r:j+1])
		}
		w += j + 1 - r
		r = j + 1
	}
	return w, excess
}

// removeDotSegments appends path to dst with its dot segments removed by
// RFC 3986 5.2.4, read literally (see removeDots).
func removeDotSegments(dst []byte, path string) []byte {
	start := len(dst)
	dst = append(dst, path...)
	n, _ := removeDots(dst[start:], DropDots, true)
	return dst[:start+n]
}

// lastSlash returns the index of the last "/" in b, or -1.
func lastSlash(b []byte) int { return bytes.LastIndexByte(b, '/') }

// removeDotSegmentsRelative appends to dst the relative path (one that
// does not start with "/") without its dot segments, keeping the meaning
// it has against any base (RFC 3986 5.2.2 merges it, then removes dot
// segments): a ".." that has no segment before it to cancel is kept, a
// final "." or ".." leaves a trailing "/", and a path that vanishes
// becomes "./" (not "", which would mean the base itself, 5.2.2). That is
// the segment stack keeping excess "..", plus the "/" after a final ".."
// it keeps.
func removeDotSegmentsRelative(dst []byte, path string) []byte {
	start := len(dst)
	dst = append(dst, path...)
	n, _ := removeDots(dst[start:], KeepDots, false)
	dst = dst[:start+n]
	switch {
	case n == 0:
		return append(dst, "./"...)
	case n >= 2 && dst[len(dst)-1] == '.' && dst[len(dst)-2] == '.' && (n == 2 || dst[len(dst)-3] == '/'):
		return append(dst, '/')
	}
	return dst
}

// reparsePrefix returns what to write before path, in a URI that has a
// scheme or not and an authority or not, so that the URI is read back
// with the same components (RFC 3986 4.2, and 5.2.4's closing note on
// "//"):
//   - without an authority, "/." before a path that begins with "//",
//     which would read as an authority;
//   - without a scheme or an authority, "./" before a path whose first
//     segment has ":", which would read as a scheme;
//   - with relative (a relative-path reference that must stay one, as
//     Normalize keeps it), "./" before a path that begins with "/".
//
// Otherwise it returns "". stripReparsePrefix undoes it.
func reparsePrefix[P string | []byte](path P, scheme, authority, relative bool) string {
	switch {
	case authority:
		return ""
	case relative && len(path) > 0 && path[0] == '/':
		return "./"
	case len(path) >= 2 && path[0] == '/' && path[1] == '/':
		return "/."
	case !scheme && firstSegmentHasColon(path):
		return "./"
	}
	return ""
}

// stripReparsePrefix returns path without the prefix that reparsePrefix
// gives it (relative false) in a URI that has a scheme or not and an
// authority or not: the path as resolution produced it.
func stripReparsePrefix(path string, scheme, authority bool) string {
	switch {
	case authority:
	case len(path) >= 4 && path[:4] == "/.//":
		return path[2:]
	case !scheme && len(path) >= 2 && path[:2] == "./" && firstSegmentHasColon(path[2:]):
		return path[2:]
	}
	return path
}

// firstSegmentHasColon reports whether the first segment of p contains
// ':', which would make a scheme-less reference read as a scheme.
func firstSegmentHasColon[P string | []byte](p P) bool {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case ':':
			return true
		case '/':
			return false
		}
	}
	return false
}
