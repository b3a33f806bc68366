package surt

import (
	"slices"

	"github.com/urikit/urikit/internal/chars"
	"github.com/urikit/urikit/uri"
)

// The lax splitter reads any string as a URL the way the archive tools
// read the lines of a crawl log: it never fails. It is the splitter of
// surt's handyurl.parse and webarchive-commons' URLParser (both an
// RFC 2396 Appendix B regular expression after some clean-up), with the
// URL Standard's reading of the slashes after a special scheme, which is
// what those tools approximate with their special cases
// ("http:////////////////www.vikings.com", "http:foo.com").
//
//  1. Leading and trailing C0 controls and spaces are removed (URL
//     Standard 4.4 step 1; surt strips ASCII white space, Java's trim
//     every byte up to 0x20).
//  2. Every TAB, LF and CR is removed (Safe Browsing, Canonicalization:
//     "remove tab (0x09), CR (0x0d), and LF (0x0a) characters from the
//     URL"; the URL Standard does the same).
//  3. With splitDefaultHTTP, an input without a scheme is read as if it
//     began with "http://" (Safe Browsing's example "www.google.com/";
//     surt's addDefaultSchemeIfNeeded). A scheme is RFC 3986's
//     ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) before a ":", so
//     "localhost:8080/" has the scheme "localhost", as in surt.
//  4. With splitMultiProto, "http://https://host/" is read as
//     "https://host/" (surt's _RE_MULTIPLE_PROTOCOLS, "From Tymm").
//  5. After a special scheme (http, https, ws, wss, ftp; with
//     splitHTTPOnly http and https only, as surt's "http:////host" rule)
//     any run of slashes, and of backslashes with splitBackslash, leads
//     to the authority; after any other scheme only "//" does (RFC 3986
//     3.2).
//  6. The authority ends at "/", "?" or "#" (and "\" with
//     splitBackslash); the userinfo ends at its last "@", the user at
//     the first ":" in it; the host is an IP literal "[...]" or runs to
//     the first ":", after which comes the port.
//  7. The path runs to "?" or "#", the query to "#", the fragment to
//     the end.
//  8. After a special scheme, slashes that no authority follows are read
//     as surt's handyurl.parse reads them (its "http:////" rule after an
//     RFC 2396 split): "//" is an empty authority, so "http://" has no
//     path, and the slashes beyond it, or a single "/", are the path "/":
//     "http:///" and "http:/" have the path "/". A host that the rules
//     empty ("http://./") leaves that path, and the canonical "http:///"
//     must read back so.
type splitFlags uint8

const (
	splitDefaultHTTP splitFlags = 1 << iota
	splitMultiProto
	splitBackslash
	splitHTTPOnly // only http and https read slashes as special (surt)
	splitGopher   // gopher reads them so too (urlcanon's SPECIAL_SCHEMES)
)

// reserveSet is the bytes split makes room to escape.
var reserveSet = func() *byteSet {
	s := newSet("%[]@:")
	for _, c := range "\t\n\r " { // removed, or at the ends only
		s[c>>5] &^= 1 << (c & 31)
	}
	return s
}()

// junk reports whether c is a C0 control or space (URL Standard's
// "leading and trailing C0 control or space").
func junk(c byte) bool { return c <= 0x20 }

// split fills p from s. It returns the number of bytes it put before the
// cleaned input ("http://" of step 3), for error offsets.
func (p *parts) split(s string, f splitFlags) int {
	lo, hi := 0, len(s)
	for lo < hi && junk(s[lo]) {
		lo++
	}
	for hi > lo && junk(s[hi-1]) {
		hi--
	}
	s = s[lo:hi]
	// At once: a long URL grows the buffer once, to what the escapes of
	// its bytes that every profile escapes will make of it (non-ASCII and
	// controls, "%", and what a userinfo, host or port escapes: brackets,
	// "@", ":"); then the rewrites in place need no other. Room left
	// unwritten is never touched, so it costs no resident memory.
	// A short URL is not counted: an escape or two grow its buffer at no
	// cost that matters, and the pass would cost every URL of a crawl.
	reserve := 0
	if len(s) >= 4<<10 {
		reserve = 2 * countEscape(s, reserveSet)
	}
	p.buf = slices.Grow(p.buf, len(s)+len("http://")+room+reserve)
	for k := 0; k < len(s); k++ {
		if c := s[k]; c != '\t' && c != '\n' && c != '\r' {
			p.buf = append(p.buf, c)
		}
	}
	prefix := 0
	if f&splitDefaultHTTP != 0 && schemeEnd(p.buf) < 0 {
		const h = "http://"
		m := len(p.buf)
		p.buf = append(p.buf, h...)
		copy(p.buf[len(h):], p.buf[:m])
		copy(p.buf, h)
		prefix = len(h)
	}
	b := p.buf
	n := int32(len(b))
	var i int32
	if e := schemeEnd(b); e >= 0 {
		p.scheme = span{0, int32(e), true}
		i = int32(e) + 1
	}
	ls := lowerScheme(b[p.scheme.i:p.scheme.j])
	sp := special(ls)
	if f&splitHTTPOnly != 0 {
		sp = string(ls) == "http" || string(ls) == "https"
	}
	if f&splitGopher != 0 && string(ls) == "gopher" {
		sp = true
	}
	if f&splitMultiProto != 0 {
		// Drop "http://" (or "https://") while another follows it.
		for sp && i+2 <= n && b[i] == '/' && b[i+1] == '/' {
			j := i + 2
			e := schemeEnd(b[j:])
			if e < 0 {
				break
			}
			inner := lowerScheme(b[j : j+int32(e)])
			if string(inner) != "http" && string(inner) != "https" ||
				!hasPrefixAt(b, j+int32(e)+1, "//") {
				break
			}
			p.scheme = span{j, j + int32(e), true}
			i = j + int32(e) + 1
		}
	}
	bs := f&splitBackslash != 0 && sp
	isSlash := func(c byte) bool { return c == '/' || bs && c == '\\' }
	if sp {
		run := i
		for i < n && isSlash(b[i]) {
			i++
		}
		run = i - run
		p.authority(i, n, bs)
		i = p.host.j
		if p.port.ok {
			i = p.port.j
		}
		if p.host.len() == 0 && !p.user.ok && !p.port.ok && run != 0 && run != 2 {
			// No authority follows the slashes ("http:///", "http:/?q"):
			// the slashes but the "//" of an authority are the path,
			// which is "/" (step 8).
			i--
		}
	} else if hasPrefixAt(b, i, "//") {
		p.authority(i+2, n, false)
		i = p.host.j
		if p.port.ok {
			i = p.port.j
		}
	}
	j := i
	for j < n && b[j] != '?' && b[j] != '#' {
		j++
	}
	p.path = span{i, j, true}
	if j < n && b[j] == '?' {
		k := j + 1
		for k < n && b[k] != '#' {
			k++
		}
		p.query = span{j + 1, k, true}
		j = k
	}
	if j < n && b[j] == '#' {
		p.frag = span{j + 1, n, true}
	}
	return prefix
}

// authority reads the authority that starts at i: userinfo, host, port.
func (p *parts) authority(i, n int32, backslash bool) {
	b := p.buf
	end := i
	for end < n {
		c := b[end]
		if c == '/' || c == '?' || c == '#' || backslash && c == '\\' {
			break
		}
		end++
	}
	h := i
	for k := end - 1; k >= i; k-- {
		if b[k] == '@' {
			p.user = span{i, k, true}
			for c := i; c < k; c++ {
				if b[c] == ':' {
					p.user.j = c
					p.pass = span{c + 1, k, true}
					break
				}
			}
			h = k + 1
			break
		}
	}
	he := h
	if h < end && b[h] == '[' {
		for he < end && b[he] != ']' {
			he++
		}
		if he < end {
			he++
		}
	}
	for he < end && b[he] != ':' {
		he++
	}
	p.host = span{h, he, true}
	if he < end {
		p.port = span{he + 1, end, true}
	}
}

// schemeEnd returns the index of the ":" that ends an RFC 3986 scheme at
// the start of s, or -1.
func schemeEnd[T string | []byte](s T) int {
	if len(s) == 0 || !chars.Is(s[0], chars.Alpha) {
		return -1
	}
	for k := 1; k < len(s); k++ {
		switch c := s[k]; {
		case c == ':':
			return k
		case !chars.Is(c, chars.Scheme):
			return -1
		}
	}
	return -1
}

func hasPrefixAt(b []byte, i int32, pre string) bool {
	return int(i)+len(pre) <= len(b) && string(b[i:int(i)+len(pre)]) == pre
}

// lowerScheme returns a scheme lowercased, without allocating for the
// common schemes, which are written in lowercase anyway.
func lowerScheme(s []byte) []byte {
	for _, c := range s {
		if 'A' <= c && c <= 'Z' {
			return appendLower(make([]byte, 0, len(s)), s)
		}
	}
	return s
}

// inputOffset maps an offset in the cleaned buffer back to the input:
// it undoes the prefix, the leading junk and the removed TABs and
// newlines, so that an error points at the byte the user wrote.
func inputOffset(s string, off, prefix int) int {
	off -= prefix
	k := 0
	for k < len(s) && junk(s[k]) {
		k++
	}
	for ; k < len(s) && off > 0; k++ {
		if c := s[k]; c != '\t' && c != '\n' && c != '\r' {
			off--
		}
	}
	for k < len(s) && (s[k] == '\t' || s[k] == '\n' || s[k] == '\r') {
		k++
	}
	return k
}

// portError is the error of a port that is not a number of at most
// 65535, at the first offending byte.
func portError(in string, p *parts, prefix int) error {
	b := p.get(p.port)
	k := 0
	for k < len(b) && '0' <= b[k] && b[k] <= '9' {
		k++
	}
	var reason error = uri.ErrInvalidPort
	if k == len(b) { // all digits: too large; point at its first digit
		k, reason = 0, portRangeError{}
	}
	return uri.NewParseError(in, inputOffset(in, int(p.port.i)+k, prefix), uri.ComponentPort, reason)
}

// portRangeError is the reason of a port of digits above 65535 (surt's
// "Port out of range"); errors.Is matches it with uri.ErrInvalidPort.
type portRangeError struct{}

func (portRangeError) Error() string        { return "port above 65535" }
func (portRangeError) Is(target error) bool { return target == uri.ErrInvalidPort }
