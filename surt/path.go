package surt

// appendDotPath appends the path src with its dot segments resolved
// (RFC 3986 5.2.4: "." is dropped, ".." drops the segment before it and
// never climbs above the root) and, with collapse, its runs of slashes
// made one (Safe Browsing, Canonicalization of the path: "Resolve the
// sequences "/../" and "/./" in the path ... Replace runs of consecutive
// slashes with a single slash character"; urlcanon's
// collapse_consecutive_slashes). src starts with "/" or is empty; the
// result starts with "/". A path that ended in a dot segment ends in a
// slash, as in RFC 3986 ("/a/b/.." is "/a/").
//
// The output holds "/" and then each kept segment followed by "/"; a ".."
// cuts the output back to the slash before its last segment, so every
// byte is written and cut at most once.
func appendDotPath(dst, src []byte, collapse bool) []byte {
	base := len(dst)
	dst = append(dst, '/')
	keptLast := false // the last segment was a name: drop the final "/"
	i := 0
	if len(src) > 0 && src[0] == '/' {
		i = 1
	}
	for i <= len(src) {
		j := i
		for j < len(src) && src[j] != '/' {
			j++
		}
		seg, last := src[i:j], j >= len(src)
		keptLast = false
		switch {
		case len(seg) == 0:
			if !collapse && !last {
				dst = append(dst, '/')
			}
		case len(seg) == 1 && seg[0] == '.':
		case len(seg) == 2 && seg[0] == '.' && seg[1] == '.':
			if n := len(dst); n-base > 1 {
				k := n - 2
				for k > base && dst[k] != '/' {
					k--
				}
				dst = dst[:k+1]
			}
		default:
			dst = append(dst, seg...)
			dst = append(dst, '/')
			keptLast = last
		}
		i = j + 1
	}
	if keptLast {
		dst = dst[:len(dst)-1]
	}
	return dst
}

// needsDotPath reports whether appendDotPath would change path: it has a
// dot segment, an empty segment that collapse would drop, or no leading
// slash.
func needsDotPath(path []byte, collapse bool) bool {
	if len(path) == 0 || path[0] != '/' {
		return true
	}
	for i := 1; i <= len(path); {
		j := i
		for j < len(path) && path[j] != '/' {
			j++
		}
		seg := path[i:j]
		switch {
		case len(seg) == 0:
			if collapse && j < len(path) {
				return true
			}
		case len(seg) == 1 && seg[0] == '.', len(seg) == 2 && seg[0] == '.' && seg[1] == '.':
			return true
		}
		i = j + 1
	}
	return false
}

// dotPath resolves the dot segments of the path component and, with
// collapse, then makes its runs of slashes one: the dot segments first,
// an empty segment counting as one ("/a/b//.." is "/a/b/"), as urlcanon's
// normalize_path_dots then collapse_consecutive_slashes.
func (p *parts) dotPath(collapse bool) {
	if needsDotPath(p.get(p.path), false) {
		p.set(&p.path, 1, func(dst, src []byte) []byte { return appendDotPath(dst, src, false) })
	}
	if collapse {
		b := p.get(p.path)
		w := 0
		for r, c := range b {
			if c == '/' && r > 0 && b[r-1] == '/' {
				continue
			}
			b[w] = c
			w++
		}
		p.path.j = p.path.i + int32(w)
	}
}

// appendSurtPath appends the path src normalized as the archive tools
// normalize it (BasicURLCanonicalizer.normalizePath of webarchive-commons
// and surt's port of it), which is Safe Browsing's rule read literally:
// first the dot segments, an empty segment counting as a segment ("/a//.."
// is "/a/"), then the runs of slashes made one. Two readings differ from
// RFC 3986 5.2.4: a ".." with no segment before it is kept as a segment
// ("/../a" stays "/../a", "TODO: leave it? let's do for now..."), and a
// path that ends in a dot segment does not end in a slash ("/a/b/.." is
// "/a", "/a/." is "/a"). src starts with "/" (the text before its first
// slash is dropped) or is empty, which gives "/".
//
// The kept segments are written each followed by "/", so that a ".."
// cuts back to the slash before the last one; a final pass makes the runs
// of slashes one and drops the slash after the last segment unless that
// segment is empty.
func appendSurtPath(dst, src []byte) []byte {
	base := len(dst)
	dst = append(dst, '/')
	i := len(src) // no segment when src has no slash
	if k := indexByte(src, '/'); k >= 0 {
		i = k + 1
	}
	for i <= len(src) && len(src) > 0 {
		j := i
		for j < len(src) && src[j] != '/' {
			j++
		}
		seg := src[i:j]
		switch {
		case len(seg) == 1 && seg[0] == '.':
		case len(seg) == 2 && seg[0] == '.' && seg[1] == '.' && len(dst)-base > 1:
			k := len(dst) - 2
			for k > base && dst[k] != '/' {
				k--
			}
			dst = dst[:k+1]
		default:
			dst = append(dst, seg...)
			dst = append(dst, '/')
		}
		i = j + 1
	}
	// Collapse the runs of slashes; keep a final one only after an empty
	// last segment, which shows as a doubled final slash.
	n := len(dst)
	lastEmpty := n-base >= 2 && dst[n-2] == '/'
	w := base + 1
	for r := base + 1; r < n; r++ {
		if dst[r] == '/' && dst[w-1] == '/' {
			continue
		}
		dst[w] = dst[r]
		w++
	}
	dst = dst[:w]
	if !lastEmpty && w-base > 1 {
		dst = dst[:w-1]
	}
	return dst
}

func indexByte(b []byte, c byte) int {
	for k, x := range b {
		if x == c {
			return k
		}
	}
	return -1
}

// surtPath normalizes the path component with appendSurtPath when that
// changes it.
func (p *parts) surtPath() {
	b := p.get(p.path)
	if len(b) > 0 && b[0] == '/' && !needsDotPath(b, true) {
		return
	}
	p.set(&p.path, 1, appendSurtPath)
}

// stripTrailingSlash drops the final "/" of a path other than "/"
// (webarchive-commons PATH_STRIP_TRAILING_SLASH_UNLESS_EMPTY; urlcanon's
// strip_trailing_slash_unless_empty). The tools drop one; in a path whose
// runs of slashes were not collapsed (no host, or urlcanon's non-special
// schemes) that leaves one that a second canonicalization drops, so here
// every final slash goes, down to "/".
func (p *parts) stripTrailingSlash() {
	for p.path.len() > 1 && p.buf[p.path.j-1] == '/' {
		p.path.j--
	}
}
