package uri

import (
	"errors"
	"sort"
	"strings"
)

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
func (u URI) Relativize(target URI) (URI, error) {
	return relativize(u, target, false, func(b, r URI) (URI, error) { return b.Resolve(r), nil })
}

// Relativize2396 is Relativize for Resolve2396 with KeepDots: it returns
// the shortest reference r such that u.Resolve2396(r, KeepDots) gives
// target, and true, or false when there is none. Under the 1998 draft a
// query-only reference replaces the base's last segment too, so the
// answer often differs from Relativize's ("d?y" rather than "?y").
func (u URI) Relativize2396(target URI) (URI, error) {
	return relativize(u, target, true, func(b, r URI) (URI, error) { return b.Resolve2396(r, KeepDots) })
}

// relativize generates the candidate references, from the most to the
// least dependent on the base, and returns the shortest one that
// resolves to target. Checking each candidate by resolving it makes the
// answer right by construction, whatever corner of the algorithm (dot
// segments, empty paths, colons, "//") the target falls into.
func relativize(base, target URI, draft bool, resolve func(b, r URI) (URI, error)) (URI, error) {
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
			tail := t[target.pathEnd():] // "?" query "#" fragment
			if tp == bp && target.HasQuery() == base.HasQuery() && target.Query() == base.Query() {
				add(t[target.queryEnd():])
			}
			if target.HasQuery() {
				// Same path under RFC 3986; the base's directory under
				// the 1998 draft, which merges.
				add(tail)
			}
			relativePaths(base, target, tail, draft, add)
			if tp != "" && tp[0] == '/' {
				add(reparsePrefix(tp, false, false, false) + t[target.pathStart():])
			}
		}
		add(reparsePrefix(target.Path(), false, target.HasAuthority(), false) + rest)
	}
	add(t)
	sort.SliceStable(cands, func(i, j int) bool { return len(cands[i]) < len(cands[j]) })
	opts := Options{Grammar: target.Grammar(), AllowZoneID: target.Grammar() == RFC3986}
	for i, c := range cands {
		if i > 0 && c == cands[i-1] {
			continue
		}
		ref, err := ParseWith(c, opts)
		if err != nil {
			continue
		}
		res, err := resolve(base, ref)
		if err == nil && res.s == t {
			return ref, nil
		}
	}
	// The target itself is always a candidate and resolves to itself
	// unless its path has a dot segment, so there is one to point at.
	return URI{}, &ResolveError{Op: "relativize", Input: target.s, Offset: int(target.pathStart()) + firstDotSegment(target.Path()), Reason: ErrUnreachable}
}

// ErrUnreachable is the reason Relativize fails: no reference resolves
// to a target whose path has a "." or ".." segment, except one that
// keeps the base's path, and that one did not reach it.
var ErrUnreachable = errors.New("no reference resolves to a target with a dot segment")

// firstDotSegment returns the offset in path of its first "." or ".."
// segment, or 0.
func firstDotSegment(path string) int {
	for i := 0; i <= len(path); {
		j := strings.IndexByte(path[i:], '/')
		if j < 0 {
			j = len(path) - i
		}
		if seg := path[i : i+j]; seg == "." || seg == ".." {
			return i
		}
		i += j + 1
	}
	return 0
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
		under := DropDots
		if draft {
			under = KeepDots
		}
		n, _ := removeDots(b, under, !draft)
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
