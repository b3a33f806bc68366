package surt

import (
	"sync"

	"github.com/urikit/urikit/internal/chars"
	"github.com/urikit/urikit/internal/jsonstr"
)

// The canonicalizers work on a URL split into components, each a span of
// one buffer. A step that changes a component appends the new text to the
// buffer and moves the span there; a step that changes nothing moves
// nothing. The buffer and the scratch slices come from a pool, so that a
// key costs no allocation once the pool is warm.
//
//	buf: [input as cleaned ...][rewritten path][rewritten query] ...
//	      ^scheme ^host ^port                 ^path           ^query
//
// A component is defined or not (ok), independently of being empty: "?"
// is an empty query, no "?" is none. For the userinfo, user.ok says
// whether there is an "@", pass.ok whether there is a ":" inside it; for
// the authority, host.ok says whether there is one ("//"), port.ok
// whether a ":" follows the host.

// span is the component buf[i:j], defined when ok.
type span struct {
	i, j int32
	ok   bool
}

func (s span) len() int { return int(s.j - s.i) }

// parts is a URL split into components.
type parts struct {
	buf                                               []byte
	scratch                                           []byte // set's, for long components
	scheme, user, pass, host, port, path, query, frag span
}

func (p *parts) get(s span) []byte { return p.buf[s.i:s.j] }

// set makes *s the text f appends to the buffer, given the component's
// current text. f reads src while it appends: src is an earlier part of
// the same buffer, which an append never overwrites (if the buffer moves,
// src still reads the old array).
//
// A long component at the end of the buffer (a hostile URL of megabytes:
// rewritten once, it is there) is rewritten into the scratch buffer and
// copied back over its old text, so that the buffer holds one version of
// it, not one per step: memory stays a few times the input (issue 26).
// No other span can lose bytes: spans never share bytes, so only empty
// ones may start at or after s.i.
func (p *parts) set(s *span, f func(dst, src []byte) []byte) {
	src := p.buf[s.i:s.j]
	// Room for the usual rewrite (a few escapes) at once, doubling the
	// buffer when it grows: append grows a large slice by a quarter at a
	// time, which costs five times the buffer on one long URL.
	room := len(src) + len(src)/4 + 8
	if len(src) >= longComponent && int(s.j) == len(p.buf) {
		p.scratch = f(jsonstr.Grow(p.scratch[:0], room), src)
		p.buf = append(jsonstr.Grow(p.buf[:s.i], len(p.scratch)), p.scratch...)
		s.j = s.i + int32(len(p.scratch))
		return
	}
	p.buf = jsonstr.Grow(p.buf, room)
	start := len(p.buf)
	p.buf = f(p.buf, src)
	s.i, s.j = int32(start), int32(len(p.buf))
}

// longComponent is the length from which set rewrites a component in
// place: an extra copy, paid only where it saves megabytes.
const longComponent = 4 << 10

// size returns the length of the components and of the delimiters any
// form may write between them: what a key or the URL needs at most.
func (p *parts) size() int {
	return p.scheme.len() + p.user.len() + p.pass.len() + p.host.len() + p.port.len() +
		p.path.len() + p.query.len() + p.frag.len() + 16
}

// setString makes *s the defined component v.
func (p *parts) setString(s *span, v string) {
	start := len(p.buf)
	p.buf = append(p.buf, v...)
	*s = span{int32(start), int32(len(p.buf)), true}
}

// lower lowercases the ASCII letters of a component in place: a
// component's bytes belong to it alone (spans never share bytes that a
// step could write).
func (p *parts) lower(s span) {
	b := p.buf[s.i:s.j]
	for k, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[k] = c + 'a' - 'A'
		}
	}
}

func (p *parts) isScheme(name string) bool {
	return string(p.get(p.scheme)) == name
}

// special reports whether the scheme is one of the URL Standard's special
// schemes with a host (section 4.1 minus file), which the lax splitter
// reads as a browser does: any run of slashes before the host.
func special(scheme []byte) bool {
	switch string(scheme) {
	case "http", "https", "ws", "wss", "ftp":
		return true
	}
	return false
}

// state is what one canonicalization needs, pooled.
type state struct {
	p      parts
	params []param // query parameters being sorted
}

// param is one "&"-separated parameter of a query: buf[i:j], whose key
// ends at eq (eq == j when there is no "=").
type param struct{ i, eq, j int32 }

var statePool = sync.Pool{New: func() any { return &state{p: parts{buf: make([]byte, 0, 512)}} }}

func getState() *state {
	st := statePool.Get().(*state)
	st.p = parts{buf: st.p.buf[:0], scratch: st.p.scratch[:0]}
	st.params = st.params[:0]
	return st
}

// putState returns st to the pool unless a hostile input made its buffers
// large: a pool must not pin megabytes for the next small URL.
func putState(st *state) {
	if cap(st.p.buf) > 64<<10 || cap(st.p.scratch) > 64<<10 || cap(st.params) > 4096 {
		return
	}
	statePool.Put(st)
}

// appendLower appends src lowercased (ASCII).
func appendLower(dst, src []byte) []byte {
	for _, c := range src {
		dst = append(dst, chars.Lower(c))
	}
	return dst
}
