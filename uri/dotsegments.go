package uri

// Dot segments ("." and "..") and the paths that resolution and
// normalization write: removal by RFC 3986 5.2.4, by the 1998 draft's
// section 5.2 step 6, and for a relative path kept relative; and the
// prefix that keeps a written path from being read back as something
// else. Every function here is linear in the length of the path.

// hasDotSegment reports whether path has a "." or ".." segment.
func hasDotSegment(path string) bool {
	for i := 0; i < len(path); i++ {
		if path[i] != '.' || (i > 0 && path[i-1] != '/') {
			continue
		}
		j := i + 1
		if j < len(path) && path[j] == '.' {
			j++
		}
		if j == len(path) || path[j] == '/' {
			return true
		}
	}
	return false
}

// removeDotSegmentsInPlace applies RFC 3986 5.2.4 to the path in b, in
// place, and returns the length of the result. It follows the section's
// loop step by step: the input buffer is b[r:], the output buffer b[:w],
// and w <= r always holds, so writing never overtakes reading. Each step
// consumes input; rule C's removal of the last output segment scans only
// bytes it removes, so the whole is linear in len(b). The algorithm is
// read literally, also for a rootless path: "a/b/../../../e" gives "/e".
func removeDotSegmentsInPlace(b []byte) int {
	n := len(b)
	r, w := 0, 0
	for r < n {
		if b[r] == '.' {
			// A: a prefix "../" or "./" is removed.
			if r+1 < n && b[r+1] == '/' {
				r += 2
				continue
			}
			if r+2 < n && b[r+1] == '.' && b[r+2] == '/' {
				r += 3
				continue
			}
			// D: an input of "." or ".." is removed.
			if r+1 == n || (r+2 == n && b[r+1] == '.') {
				break
			}
		}
		if b[r] == '/' && r+1 < n && b[r+1] == '.' {
			// B: "/./" or a final "/." becomes "/".
			if r+2 == n {
				b[w] = '/'
				w++
				break
			}
			if b[r+2] == '/' {
				r += 2
				continue
			}
			// C: "/../" or a final "/.." becomes "/", and the last
			// output segment goes with its preceding "/".
			if b[r+2] == '.' && (r+3 == n || b[r+3] == '/') {
				w = max(lastSlash(b[:w]), 0)
				if r+3 == n {
					b[w] = '/'
					w++
					break
				}
				r += 3
				continue
			}
		}
		// E: move the first segment, with its leading "/", to the output.
		s := r
		if b[r] == '/' {
			r++
		}
		for r < n && b[r] != '/' {
			r++
		}
		if s != w {
			copy(b[w:], b[s:r])
		}
		w += r - s
	}
	return w
}

// removeDotSegments appends path to dst with its dot segments removed by
// RFC 3986 5.2.4 (see removeDotSegmentsInPlace).
func removeDotSegments(dst []byte, path string) []byte {
	start := len(dst)
	dst = append(dst, path...)
	return dst[:start+removeDotSegmentsInPlace(dst[start:])]
}

// lastSlash returns the index of the last "/" in b, or -1.
func lastSlash(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '/' {
			return i
		}
	}
	return -1
}

// mergeSegments2396 applies steps 6 c-g of the 1998 draft's section 5.2
// to the merged buffer b, in place, and returns the result's length. The
// draft describes string rewriting (remove every "./", a final ".", then
// the leftmost "<segment>/../" repeatedly, then a final "<segment>/..");
// it notes that a segment stack does the same, which is what this is:
// segments are pushed onto b[:w] each followed by "/", a "." is skipped,
// and ".." pops the top segment unless there is none or it is "..". A
// leading "/" is the root, not a segment ("/../g" keeps its "..", as
// Appendix C.2 shows). Excess ".." segments are those pushed onto an
// empty stack or onto "..": p keeps, drops or rejects them (step 6g).
func mergeSegments2396(b []byte, p DotPolicy) (int, error) {
	n := len(b)
	root := 0
	if n > 0 && b[0] == '/' {
		root = 1
	}
	r, w := root, root
	for r <= n {
		j := r
		for j < n && b[j] != '/' {
			j++
		}
		last := j == n
		seg := b[r:j]
		switch {
		case len(seg) == 1 && seg[0] == '.':
			// 6c removes "./"; 6d removes a final ".".
			r = j + 1
			continue
		case len(seg) == 2 && seg[0] == '.' && seg[1] == '.':
			if w > root {
				t := max(lastSlash(b[root:w-1])+1+root, root)
				if !(w-1-t == 2 && b[t] == '.' && b[t+1] == '.') {
					// 6e and 6f: "<segment>/../" and a final
					// "<segment>/.." are removed.
					w = t
					r = j + 1
					continue
				}
			}
			switch p {
			case DropDots:
				r = j + 1
				continue
			case RejectDots:
				return 0, ErrAboveRoot
			}
		}
		if last {
			copy(b[w:], seg)
			w += len(seg)
			break
		}
		copy(b[w:], b[r:j+1])
		w += j + 1 - r
		r = j + 1
	}
	return w, nil
}

// removeDotSegmentsRelative appends to dst the relative path (one that
// does not start with "/") without its dot segments, keeping the meaning
// it has against any base (RFC 3986 5.2.2 merges it, then removes dot
// segments): a ".." that has no segment before it to cancel is kept, a
// final "." or ".." leaves a trailing "/", and a path that vanishes
// becomes "./" (not "", which would mean the base itself, 5.2.2). That is
// the segment stack of the 1998 draft's step 6 with KeepDots
// (mergeSegments2396), plus the "/" after a final ".." it keeps.
func removeDotSegmentsRelative(dst []byte, path string) []byte {
	start := len(dst)
	dst = append(dst, path...)
	n, _ := mergeSegments2396(dst[start:], KeepDots)
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
