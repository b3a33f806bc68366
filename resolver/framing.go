package resolver

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
)

// RFC 9112 section 6.3: "If a message is received with both a
// Transfer-Encoding and a Content-Length header field, the
// Transfer-Encoding overrides the Content-Length. Such a message might
// indicate an attempt to perform request smuggling ... A server MAY
// reject a request that contains both ... Regardless, the server MUST
// close the connection after responding to such a request".
//
// net/http follows Transfer-Encoding and deletes the Content-Length before
// a handler sees the request, and keeps the connection open. So the
// framing of each connection is followed here, beside net/http's own
// parser: a listener wrapper reads the bytes net/http reads, finds each
// request head and its body's end, and marks the index of the first
// request that has both fields; the handler, told the connection through
// the request context, answers that request 400 and closes.

// GuardFraming makes hs refuse, with 400 and a closed connection, any
// request that carries both Content-Length and Transfer-Encoding (RFC
// 9112 section 6.3), which net/http would otherwise serve and keep the
// connection for. It sets hs.ConnContext (calling any one set before)
// and returns the listener to pass to hs.Serve. hs.Handler must be a
// *Server or reach one.
func GuardFraming(hs *http.Server, ln net.Listener) net.Listener {
	prev := hs.ConnContext
	hs.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		if prev != nil {
			ctx = prev(ctx, c)
		}
		if g, ok := c.(*guardedConn); ok {
			ctx = context.WithValue(ctx, guardKey{}, g)
		}
		return ctx
	}
	return &guardListener{ln}
}

type guardKey struct{}

type guardListener struct{ net.Listener }

func (l *guardListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	g := &guardedConn{Conn: c}
	g.bad.Store(-1)
	return g, nil
}

// guardedConn follows the HTTP/1.1 framing of the bytes read from it
// (RFC 9112 sections 6 and 7.1).
type guardedConn struct {
	net.Conn
	mu     sync.Mutex
	f      framer
	bad    atomic.Int64 // index of the first request with both fields; -1 none
	served atomic.Int64 // requests handed to the handler
}

func (g *guardedConn) Read(p []byte) (int, error) {
	n, err := g.Conn.Read(p)
	if n > 0 {
		g.mu.Lock()
		if g.bad.Load() < 0 {
			if i := g.f.feed(p[:n]); i >= 0 {
				g.bad.Store(int64(i))
			}
		}
		g.mu.Unlock()
	}
	return n, err
}

// smuggled reports whether the request r is one GuardFraming must refuse.
// It counts the requests of the connection, so it is called once per
// request, first thing.
func smuggled(r *http.Request) bool {
	g, ok := r.Context().Value(guardKey{}).(*guardedConn)
	if !ok {
		return false
	}
	i := g.served.Add(1) - 1
	b := g.bad.Load()
	return b >= 0 && i >= b
}

// framer is the state machine of request framing. It needs no more than
// a line of state: a head line is only looked at up to maxFramerLine
// bytes, which covers the two fields it looks for.
type framer struct {
	state    uint8
	line     []byte // the current line, up to maxFramerLine bytes
	requests int    // heads seen
	http10   bool
	cl       int64 // Content-Length, -1 when absent
	te, both bool
	remain   int64 // body or chunk bytes still to skip
}

const maxFramerLine = 256

const (
	fRequestLine = iota // waiting for the first line of a head
	fHead               // reading header lines
	fBody               // skipping remain bytes of a Content-Length body
	fChunkSize          // reading a chunk-size line
	fChunkData          // skipping remain bytes of chunk data, then CRLF
	fTrailer            // reading trailer lines until an empty one
	fUnknown            // lost track (a malformed message net/http refuses)
)

// feed consumes bytes and returns the index of a request whose head had
// both fields, or -1.
func (f *framer) feed(p []byte) int {
	for len(p) > 0 {
		switch f.state {
		case fUnknown:
			return -1
		case fBody, fChunkData:
			k := int64(len(p))
			if k > f.remain {
				k = f.remain
			}
			f.remain -= k
			p = p[k:]
			if f.remain == 0 {
				if f.state == fBody {
					f.state = fRequestLine
				} else {
					f.state = fChunkSize // the CRLF after the data reads as an empty line, skipped there
				}
			}
			continue
		}
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if room := maxFramerLine - len(f.line); room > 0 {
			f.line = append(f.line, chunk[:min(room, len(chunk))]...)
		}
		if i < 0 {
			return -1
		}
		p = p[i+1:]
		line := bytes.TrimSuffix(f.line, []byte{'\r'})
		if bad := f.endLine(line); bad >= 0 {
			return bad
		}
		f.line = f.line[:0]
	}
	return -1
}

// endLine handles one complete line.
func (f *framer) endLine(line []byte) int {
	switch f.state {
	case fRequestLine:
		if len(line) == 0 {
			return -1 // RFC 9112 section 2.2: empty lines before a request line are ignored
		}
		f.state = fHead
		f.requests++
		f.cl, f.te, f.both = -1, false, false
		f.http10 = bytes.HasSuffix(line, []byte("HTTP/1.0"))
	case fHead:
		if len(line) > 0 {
			name, value, ok := bytes.Cut(line, []byte{':'})
			if !ok {
				return -1
			}
			value = bytes.TrimSpace(value)
			switch {
			case bytes.EqualFold(name, []byte("Content-Length")):
				n, err := strconv.ParseInt(string(value), 10, 64)
				if err != nil || n < 0 {
					n = 0
				}
				f.cl = n
				if f.te {
					f.both = true
				}
			case bytes.EqualFold(name, []byte("Transfer-Encoding")):
				f.te = true
				if f.cl >= 0 {
					f.both = true
				}
			}
			return -1
		}
		// End of the head.
		if f.both {
			return f.requests - 1
		}
		switch {
		case f.te && !f.http10:
			f.state = fChunkSize
		case f.cl > 0:
			f.state, f.remain = fBody, f.cl
		default:
			f.state = fRequestLine
		}
	case fChunkSize:
		if len(line) == 0 {
			return -1 // the CRLF ending chunk data
		}
		hexpart, _, _ := bytes.Cut(line, []byte{';'})
		n, err := strconv.ParseInt(string(bytes.TrimSpace(hexpart)), 16, 64)
		switch {
		case err != nil || n < 0:
			f.state = fUnknown
		case n == 0:
			f.state = fTrailer
		default:
			f.state, f.remain = fChunkData, n
		}
	case fTrailer:
		if len(line) == 0 {
			f.state = fRequestLine
		}
	}
	return -1
}
