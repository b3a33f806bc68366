package iri

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/urikit/urikit/uri"
)

// A Change is one change Repair made: at byte Offset of the input, the
// text From became To.
type Change struct {
	Offset   int
	From, To string
}

// Repair turns s, as people paste it, into a valid URI reference, and
// lists each change. A valid URI reference is returned unchanged with no
// repairs. The changes, in order:
//
//   - surrounding whitespace, and a wrapper of angle brackets or double
//     quotes (the 1998 draft, Appendix E: "These wrappers do not form
//     part of the URI"), are removed;
//   - a "\" before the query is a "/" (as Windows paths and browsers
//     write it); after it, "%5C";
//   - a space and the characters RFC 3986 excludes (`"<>^{|}` and the
//     backquote, a "\" after the path, controls) are percent-encoded;
//   - a "%" not followed by two hexadecimal digits becomes "%25";
//   - non-ASCII text is mapped as ToURI does: an IDN host through UTS
//     #46 ToASCII, other characters as percent-encoded UTF-8.
//
// It fails when even the repaired text is not a URI reference (such as
// "http://a:port/"), with the error of the repaired text.
func Repair(s string) (uri.URI, []Change, error) {
	if u, err := uri.Parse(s); err == nil {
		return u, nil, nil
	}
	var reps []Change
	start, end := 0, len(s)
	for start < end && isSpace(s[start]) {
		start++
	}
	for end > start && isSpace(s[end-1]) {
		end--
	}
	if start > 0 {
		reps = append(reps, Change{Offset: 0, From: s[:start], To: ""})
	}
	var tail []Change
	if end < len(s) {
		tail = append(tail, Change{Offset: end, From: s[end:], To: ""})
	}
	if end-start >= 2 && (s[start] == '<' && s[end-1] == '>' || s[start] == '"' && s[end-1] == '"') {
		reps = append(reps, Change{Offset: start, From: s[start : start+1], To: ""})
		tail = append([]Change{{Offset: end - 1, From: s[end-1 : end], To: ""}}, tail...)
		start, end = start+1, end-1
	}
	// ASCII repairs, keeping for every output byte its input offset.
	var b []byte
	var off []int
	inPath := true
	for i := start; i < end; i++ {
		c := s[i]
		to := ""
		switch {
		case c == '?' || c == '#':
			inPath = false
		case c == '\\' && inPath:
			to = "/"
		case c == '%' && !(i+2 < end && ishex(s[i+1]) && ishex(s[i+2])):
			to = "%25"
		case c < 0x20 || c == 0x7F || c == ' ' || strings.IndexByte("\"<>\\^`{|}", c) >= 0:
			to = pct(c)
		}
		if to == "" {
			b = append(b, c)
			off = append(off, i)
			continue
		}
		reps = append(reps, Change{Offset: i, From: s[i : i+1], To: to})
		for k := 0; k < len(to); k++ {
			b = append(b, to[k])
			off = append(off, i)
		}
	}
	t := string(b)
	if !isASCII(t) {
		var err error
		if t, reps, err = repairNonASCII(s, t, off, reps); err != nil {
			return uri.URI{}, nil, err
		}
	}
	u, err := uri.Parse(t)
	if err != nil {
		return uri.URI{}, nil, err
	}
	reps = append(reps, tail...)
	sortRepairs(reps)
	return u, reps, nil
}

// repairNonASCII maps the non-ASCII text of t (whose byte k came from
// input offset off[k]) as ToURI does, recording the repairs.
func repairNonASCII(s, t string, off []int, reps []Change) (string, []Change, error) {
	sk, err := uri.Parse(skeleton(t))
	if err != nil {
		var pe *uri.ParseError
		if ok := asParseError(err, &pe); ok && pe.Offset < len(off) {
			pe.Input, pe.Offset = s, off[pe.Offset]
		}
		return "", nil, err
	}
	hs, he := hostRange(sk)
	var b strings.Builder
	for i := 0; i < len(t); {
		if i == hs && he > hs && dnsHost(sk) && !isASCII(t[hs:he]) {
			h, err := toASCIIHost(t[hs:he])
			if err != nil {
				return "", nil, &uri.ParseError{Input: s, Offset: off[hs], Component: uri.ComponentHost, Reason: ErrHostConversion}
			}
			reps = append(reps, Change{Offset: off[hs], From: s[off[hs] : off[he-1]+1], To: h})
			b.WriteString(h)
			i = he
			continue
		}
		if t[i] < utf8.RuneSelf {
			b.WriteByte(t[i])
			i++
			continue
		}
		_, n := utf8.DecodeRuneInString(t[i:])
		var enc strings.Builder
		for k := 0; k < n; k++ {
			writeByte(&enc, t[i+k])
		}
		reps = append(reps, Change{Offset: off[i], From: t[i : i+n], To: enc.String()})
		b.WriteString(enc.String())
		i += n
	}
	return b.String(), reps, nil
}

func asParseError(err error, pe **uri.ParseError) bool {
	e, ok := err.(*uri.ParseError)
	if ok {
		*pe = e
	}
	return ok
}

// sortRepairs orders the changes by offset, keeping the order of
// changes at the same offset (a wrapper and what it wraps).
func sortRepairs(r []Change) {
	slices.SortStableFunc(r, func(a, b Change) int { return cmp.Compare(a.Offset, b.Offset) })
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

func ishex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func pct(c byte) string {
	const hex = "0123456789ABCDEF"
	return string([]byte{'%', hex[c>>4], hex[c&15]})
}
