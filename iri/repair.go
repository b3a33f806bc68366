package iri

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/urikit/urikit/internal/chars"
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
//   - a tab, and a line break (CR, LF) with the spaces and tabs around
//     it, are removed: Appendix E, "extra whitespace (spaces,
//     linebreaks, tabs, etc.) may need to be added to break long URIs
//     across lines. The whitespace should be ignored"; a space on its
//     own is percent-encoded, as in a file name;
//   - a "\" before the query is a "/" (as Windows paths and browsers
//     write it); after it, "%5C";
//   - a space, the other controls and the characters RFC 3986 excludes
//     (`"<>^{|}` and the backquote, a "\" after the path, and "[" and
//     "]" except around an IP literal: the draft's section 2.4.3 lists
//     them all as "unwise" or "delims") are percent-encoded;
//   - a "%" not followed by two hexadecimal digits becomes "%25";
//   - non-ASCII text is mapped as ToURI does: an IDN host through UTS
//     #46 ToASCII, other characters (and bytes that are not UTF-8) as
//     percent-encoded UTF-8.
//
// It fails when even the repaired text is not a URI reference (such as
// "http://a:port/"), with a *uri.ParseError at the offset of the input
// that the error comes from: the strict parse's error (uri.Parse of s)
// when the repairs left the byte it names alone, so that a repair never
// changes the reason an input is refused. It fails with the strict
// parse's error too when the host of a scheme whose host is a DNS name
// (one with a default port, or a reference without a scheme) would
// still name no host once repaired: an escaped space, control or other
// forbidden domain code point of the URL Standard, as in "http://bad
// host/" (chars.BadHostName; scheme.ErrHostName).
//
// Each change is listed on its own (a removed run of whitespace, an
// encoded character, the converted host) unless there are more than
// 64 + len(s)/16 of them: then changes that touch are listed as one,
// and if that is still too many, changes at most 8 bytes apart too
// (From and To then hold the unchanged bytes between them). So Repair
// takes time linear in the length of s and memory within a few times
// that length, whatever s holds.
func Repair(s string) (uri.URI, []Change, error) {
	u, strict := uri.Parse(s)
	if strict == nil {
		return u, nil, nil
	}
	r := newRepairer(s)
	if err := r.convertHost(); err != nil {
		return uri.URI{}, nil, err
	}
	out := r.output()
	u, err := uri.Parse(out)
	if err != nil {
		// A repair never changes the reason an input is refused: when
		// the byte the strict parse stopped at is one the repairs left
		// alone, its error stands ("http://[::1/" lacks its "]"; with
		// its "[" escaped it would seem to have a bad port instead).
		// Otherwise the repairs mended that byte, and the error is the
		// next one, at the offset of the input it comes from.
		var pe, spe *uri.ParseError
		if errors.As(strict, &spe) && !r.changed(spe.Offset) {
			return uri.URI{}, nil, strict
		}
		if errors.As(err, &pe) {
			pe.Input, pe.Offset = s, r.inputOffset(pe.Offset)
		}
		return uri.URI{}, nil, err
	}
	if r.dnsHost && u.HostKind() == uri.RegName && chars.BadHostName(u.Host()) >= 0 {
		// An escaped space or control in a DNS host is no repair:
		// the host still names nothing ("http://bad host/").
		return uri.URI{}, nil, strict
	}
	return u, r.changes(out), nil
}

// A piece is a run of the input and what Repair makes of it.
type piece struct {
	in, end int     // s[in:end]
	op      pieceOp // what becomes of it
	to      string  // the replacement, for opReplace
}

type pieceOp uint8

const (
	opKeep    pieceOp = iota // copied
	opDrop                   // removed
	opReplace                // replaced by to
	opEscape                 // every byte percent-encoded
)

// outLen returns the length of the piece in the output.
func (p piece) outLen() int {
	switch p.op {
	case opKeep:
		return p.end - p.in
	case opReplace:
		return len(p.to)
	case opEscape:
		return 3 * (p.end - p.in)
	}
	return 0
}

// repairer holds what Repair learns of the structure of its input
// before it walks it: the scan is done once, and each walk over the
// pieces (size, output, changes) is a straight loop.
type repairer struct {
	s            string
	lead, trail  int  // the content is s[lead:trail], whitespace and wrapper removed
	wrapped      bool // a wrapper of <> or "" at lead-1 and trail
	query        int  // the first "?" or "#" of the content, or trail
	ipOpen       int  // the "[" and "]" of an IP literal, or -1
	ipClose      int
	hs, he       int    // the host, or hs == he
	dnsHost      bool   // the host names a host in the DNS (see dnsHost)
	host         string // its A-label form when it is converted, or ""
	hostReplaced bool
}

// unwise are the ASCII characters Repair percent-encodes besides the
// controls, the space, "[" and "]" (RFC 3986 excludes them all; the
// 1998 draft, 2.4.3, lists them among "delims" and "unwise").
const unwise = "\"<>\\^`{|}"

func newRepairer(s string) *repairer {
	r := &repairer{s: s, ipOpen: -1, ipClose: -1}
	start, end := 0, len(s)
	for start < end && isSpace(s[start]) {
		start++
	}
	for end > start && isSpace(s[end-1]) {
		end--
	}
	if end-start >= 2 && (s[start] == '<' && s[end-1] == '>' || s[start] == '"' && s[end-1] == '"') {
		r.wrapped = true
		start, end = start+1, end-1
	}
	r.lead, r.trail = start, end
	r.query = end
	if i := strings.IndexAny(s[start:end], "?#"); i >= 0 {
		r.query = start + i
	}
	r.scanStructure()
	return r
}

// skip returns the first offset at or after i that is not whitespace
// Repair removes (a tab, or a run of whitespace with a line break).
func (r *repairer) skip(i int) int {
	for i < r.trail && isInnerSpace(r.s[i]) {
		j, lineBreak := r.wsRun(i, r.trail)
		if lineBreak {
			i = j
			continue
		}
		for i < j && r.s[i] == '\t' {
			i++
		}
		if i < j {
			return i // a space, which stays (percent-encoded)
		}
	}
	return i
}

// wsRun returns the end of the run of spaces, tabs, CRs and LFs that
// starts at i (before end), and whether it holds a line break.
func (r *repairer) wsRun(i, end int) (int, bool) {
	lineBreak := false
	for ; i < end && isInnerSpace(r.s[i]); i++ {
		if r.s[i] == '\r' || r.s[i] == '\n' {
			lineBreak = true
		}
	}
	return i, lineBreak
}

func isInnerSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// scanStructure finds the scheme, the host and an IP literal of the
// content as Repair will write it (removed whitespace skipped, "\"
// before the query read as "/").
func (r *repairer) scanStructure() {
	s := r.s
	p := r.skip(r.lead)
	// scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
	var name [16]byte // enough for every scheme with a default port
	n, hasScheme := 0, false
	if p < r.query && isLetter(s[p]) {
		q := p
		for q < r.query && (isLetter(s[q]) || '0' <= s[q] && s[q] <= '9' || s[q] == '+' || s[q] == '-' || s[q] == '.') {
			if n < len(name) {
				name[n] = s[q] | 0x20
			}
			n++
			q = r.skip(q + 1)
		}
		if q < r.query && s[q] == ':' {
			hasScheme = true
			p = r.skip(q + 1)
		}
	}
	if !hasScheme {
		p = r.skip(r.lead)
	}
	// "//" authority, each "/" possibly written "\".
	if !(p < r.query && isSlash(s[p])) {
		return
	}
	p2 := r.skip(p + 1)
	if !(p2 < r.query && isSlash(s[p2])) {
		return
	}
	a := p2 + 1
	ae := a
	for ae < r.trail && !isSlash(s[ae]) && s[ae] != '?' && s[ae] != '#' {
		ae++
	}
	hs := a
	if at := strings.LastIndexByte(s[a:ae], '@'); at >= 0 {
		hs = a + at + 1
	}
	hs = r.skip(hs)
	he := hs
	if hs < ae && s[hs] == '[' {
		if c := strings.IndexByte(s[hs:ae], ']'); c >= 0 {
			r.ipOpen, r.ipClose = hs, hs+c
			he = hs + c + 1
		}
	} else if c := strings.IndexByte(s[hs:ae], ':'); c >= 0 {
		he = hs + c
	} else {
		he = ae
	}
	r.hs, r.he = hs, he
	if r.ipOpen >= 0 {
		return
	}
	if !hasScheme {
		r.dnsHost = true
	} else if n <= len(name) {
		_, r.dnsHost = uri.DefaultPort(string(name[:n]))
	}
}

func isSlash(c byte) bool { return c == '/' || c == '\\' }

// convertHost maps a non-ASCII DNS host to its A-label form (UTS #46
// ToASCII, as ToURI does), after the ASCII repairs of its bytes.
func (r *repairer) convertHost() error {
	h := r.s[r.hs:r.he]
	if !r.dnsHost || isASCII(h) {
		return nil
	}
	if len(h) > 4*maxIDNHost {
		return hostError(r.s, r.hs, errHostTooLong)
	}
	var b strings.Builder
	r.walkRange(r.hs, r.he, func(p piece) {
		if p.op == opEscape && p.s(r)[0] >= utf8.RuneSelf {
			p.op = opKeep // the characters themselves go to IDNA
		}
		p.write(&b, r)
	})
	a, err := toASCIIHost(b.String())
	if err != nil {
		return hostError(r.s, r.hs, err)
	}
	r.host, r.hostReplaced = a, true
	return nil
}

func (p piece) s(r *repairer) string { return r.s[p.in:p.end] }

// write appends the output of p to b.
func (p piece) write(b *strings.Builder, r *repairer) {
	switch p.op {
	case opKeep:
		b.WriteString(r.s[p.in:p.end])
	case opReplace:
		b.WriteString(p.to)
	case opEscape:
		for i := p.in; i < p.end; i++ {
			c := r.s[i]
			b.WriteByte('%')
			b.WriteByte(chars.UpperHex[c>>4])
			b.WriteByte(chars.UpperHex[c&15])
		}
	}
}

// walk calls f for each piece of the input, in order.
func (r *repairer) walk(f func(piece)) {
	s := r.s
	lead := r.lead
	if r.wrapped {
		lead--
	}
	if lead > 0 {
		f(piece{in: 0, end: lead, op: opDrop})
	}
	if r.wrapped {
		f(piece{in: lead, end: lead + 1, op: opDrop})
	}
	if r.hostReplaced {
		r.walkRange(r.lead, r.hs, f)
		f(piece{in: r.hs, end: r.he, op: opReplace, to: r.host})
		r.walkRange(r.he, r.trail, f)
	} else {
		r.walkRange(r.lead, r.trail, f)
	}
	trail := r.trail
	if r.wrapped {
		f(piece{in: trail, end: trail + 1, op: opDrop})
		trail++
	}
	if trail < len(s) {
		f(piece{in: trail, end: len(s), op: opDrop})
	}
}

// walkRange calls f for each piece of the content s[i:end].
func (r *repairer) walkRange(i, end int, f func(piece)) {
	s := r.s
	for i < end {
		// A run of bytes that stay.
		j := i
		for j < end && !r.needsRepair(j) {
			j++
		}
		if j > i {
			f(piece{in: i, end: j, op: opKeep})
			i = j
			continue
		}
		c := s[i]
		if isInnerSpace(c) {
			j, lineBreak := r.wsRun(i, end)
			if lineBreak {
				f(piece{in: i, end: j, op: opDrop})
				i = j
				continue
			}
			for ; i < j; i++ {
				if s[i] == '\t' {
					f(piece{in: i, end: i + 1, op: opDrop})
				} else {
					f(piece{in: i, end: i + 1, op: opReplace, to: "%20"})
				}
			}
			continue
		}
		switch {
		case c == '\\' && i < r.query:
			f(piece{in: i, end: i + 1, op: opReplace, to: "/"})
		case c == '%':
			f(piece{in: i, end: i + 1, op: opReplace, to: "%25"})
		case c >= utf8.RuneSelf:
			_, n := utf8.DecodeRuneInString(s[i:end])
			f(piece{in: i, end: i + n, op: opEscape})
			i += n
			continue
		default:
			f(piece{in: i, end: i + 1, op: opEscape})
		}
		i++
	}
}

// needsRepair reports whether the byte at i changes.
func (r *repairer) needsRepair(i int) bool {
	s := r.s
	c := s[i]
	switch {
	case c >= utf8.RuneSelf || c <= ' ' || c == 0x7F:
		return true
	case c == '%':
		return !(i+2 < r.trail && ishex(s[i+1]) && ishex(s[i+2]))
	case c == '[' || c == ']':
		return i != r.ipOpen && i != r.ipClose
	}
	return strings.IndexByte(unwise, c) >= 0
}

// output returns the repaired text, allocated once at its exact size.
func (r *repairer) output() string {
	n := 0
	r.walk(func(p piece) { n += p.outLen() })
	var b strings.Builder
	b.Grow(n)
	r.walk(func(p piece) { p.write(&b, r) })
	return b.String()
}

// changed reports whether the repairs change the input byte at k.
func (r *repairer) changed(k int) bool {
	ch := false
	r.walk(func(p piece) {
		if p.in <= k && k < p.end && p.op != opKeep {
			ch = true
		}
	})
	return ch
}

// inputOffset returns the offset of the input that the output byte at
// k comes from (the end of the last piece written for k == len(out)).
func (r *repairer) inputOffset(k int) int {
	off, in, done := 0, 0, false
	r.walk(func(p piece) {
		n := p.outLen()
		switch {
		case done || n == 0:
		case k >= off+n:
			in = p.end
		case p.op == opKeep:
			in, done = p.in+k-off, true
		default:
			in, done = p.in, true
		}
		off += n
	})
	return in
}

// The change list stays within a few times the size of the input: a
// Change takes 40 bytes, so an input that needs a change at every other
// byte would need 20 times its size. Past maxChanges changes, those
// that touch are listed as one; if that is still too many, so are those
// at most mergeGap unchanged bytes apart, which leaves at most one
// Change per mergeGap+1 bytes of input.
const mergeGap = 8

func maxChanges(n int) int { return 64 + n/16 }

// changes lists the changes of the walk, with To sliced from out (so
// that no change allocates), merged as maxChanges says.
func (r *repairer) changes(out string) []Change {
	// Count the changes at each level of merging, in one walk.
	var each, touching, near int
	last := -1
	r.walk(func(p piece) {
		if p.op == opKeep {
			return
		}
		each++
		if last < 0 || p.in > last {
			touching++
		}
		if last < 0 || p.in-last > mergeGap {
			near++
		}
		last = p.end
	})
	limit := maxChanges(len(r.s))
	gap, n := -1, each
	switch {
	case each <= limit:
	case touching <= limit:
		gap, n = 0, touching
	default:
		gap, n = mergeGap, near
	}
	list := make([]Change, 0, n)
	off, lastOut := 0, 0
	last = -1
	r.walk(func(p piece) {
		n := p.outLen()
		if p.op != opKeep {
			if last >= 0 && gap >= 0 && p.in-last <= gap {
				c := &list[len(list)-1]
				c.From, c.To = r.s[c.Offset:p.end], out[lastOut:off+n]
			} else {
				list = append(list, Change{Offset: p.in, From: r.s[p.in:p.end], To: out[off : off+n]})
				lastOut = off
			}
			last = p.end
		}
		off += n
	})
	return list
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

func ishex(c byte) bool { return chars.Is(c, chars.Hex) }
