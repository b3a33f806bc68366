package surt

import (
	"slices"
	"sync"
	"unsafe"

	"github.com/urikit/urikit/internal/chars"
)

// The canonicalizers work on a URL split into components, each a span of
// one buffer. A step that changes a component rewrites it in place, in
// the buffer, moving what follows it when it grows; a step that changes
// nothing moves nothing. The buffer comes from a pool, so that a key
// costs no allocation once the pool is warm.
//
//	buf: [scheme:][//][user][:pass][@][host][:port][path][?query][#frag]
//	      ^scheme      ^user        ^host   ^port   ^path  ^query  ^frag
//
// Rewriting in place keeps one version of each component, however many
// steps change it, so that a hostile URL of megabytes costs its input
// and its canonical form, not a copy per step (issue 26).
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
	scheme, user, pass, host, port, path, query, frag span
}

func (p *parts) get(s span) []byte { return p.buf[s.i:s.j] }

// set rewrites the component *s in place: f appends to dst the new text
// of the component, given its current text src, which is at most grow
// bytes longer. set makes that room first: it moves src and what follows
// it grow bytes to the right (and the spans there with it), so that f
// writes over src from its start while it reads src ahead of what it
// writes. f must keep that order: after reading k bytes of src it has
// written at most k+grow (an escape written for each escaped byte read,
// a "/" before the first segment...). What room f leaves unused stays
// between the component and the next, read by no span.
//
// The buffer grows once for a step, to what the step needs: grown by
// append's quarters it would cost several times a long URL.
func (p *parts) set(s *span, grow int, f func(dst, src []byte) []byte) {
	i, n, end := int(s.i), s.len(), len(p.buf)
	if grow > 0 {
		if cap(p.buf)-end < grow {
			p.buf = slices.Grow(p.buf, grow)
		}
		p.buf = p.buf[:end+grow]
		copy(p.buf[i+grow:], p.buf[i:end])
		for _, q := range p.spans() {
			if q != s && q.i >= s.j {
				q.i += int32(grow)
				q.j += int32(grow)
			}
		}
	}
	out := f(p.buf[:i], p.buf[i+grow:i+grow+n])
	if len(out) > i+n+grow || unsafe.SliceData(out) != unsafe.SliceData(p.buf) {
		// A bug of f: it wrote over what it had still to read.
		panic("surt: a rewrite outgrew its room")
	}
	s.j = int32(len(out))
}

// spans lists the components, for set to move those after a component.
func (p *parts) spans() [8]*span {
	return [8]*span{&p.scheme, &p.user, &p.pass, &p.host, &p.port, &p.path, &p.query, &p.frag}
}

// room is the spare capacity split leaves at the end of the buffer, for
// the steps that lengthen a component by a few bytes (a "/" before a
// path, an IPv4 address written in full, "/." before "//"), so that they
// do not grow a long URL's buffer.
const room = 128

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
	st.p = parts{buf: st.p.buf[:0]}
	st.params = st.params[:0]
	return st
}

// putState returns st to the pool unless a hostile input made its buffers
// large: a pool must not pin megabytes for the next small URL.
func putState(st *state) {
	if cap(st.p.buf) > 64<<10 || cap(st.params) > 4096 {
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
