package whatwg

import (
	"slices"
	"unsafe"
)

// writer builds the serialization of a URL. While the output is a
// prefix of the (preprocessed) input, it holds only that prefix's
// length: a URL already in serialized form is its own output and costs
// no allocation. At the first byte that differs it copies the prefix
// into one buffer, sized for the input, and appends from there on.
type writer struct {
	in  string // the preprocessed input
	buf []byte // the output, once it differs from a prefix of in
	n   int    // the output's length while buf is nil
}

func (w *writer) len() int {
	if w.buf != nil {
		return len(w.buf)
	}
	return w.n
}

// spill copies the output into a buffer of its own. The buffer has
// room for the rest of the input with its likely percent-encoding (two
// more bytes for each non-ASCII byte, control or space): a long
// non-ASCII path triples, and appending to a large slice grows it by a
// quarter at a time, which would allocate about five times the output.
func (w *writer) spill() {
	enc := 0
	for i := w.n; i < len(w.in); i++ {
		if c := w.in[i]; c >= 0x80 || c <= ' ' {
			enc++
		}
	}
	w.buf = make([]byte, w.n, max(len(w.in)+len(w.in)/4+2*enc+16, 32))
	copy(w.buf, w.in[:w.n])
}

// reserve makes room for extra bytes beyond what spill plans for, the
// percent-encoding of ASCII bytes (8 MB of "@" in a userinfo is written
// as 24 MB), so that a long component is written into one buffer, not
// one that grows by a quarter at a time and leaves each old one behind.
func (w *writer) reserve(extra int) {
	if extra == 0 {
		return
	}
	if w.buf == nil {
		w.spill()
	}
	w.buf = slices.Grow(w.buf, cap(w.buf)-len(w.buf)+extra)
}

// str appends s.
func (w *writer) str(s string) {
	if w.buf == nil {
		if len(s) <= len(w.in)-w.n && w.in[w.n:w.n+len(s)] == s {
			w.n += len(s)
			return
		}
		w.spill()
	}
	w.buf = append(w.buf, s...)
}

// copyIn appends w.in[i:j]: when the output is the input up to i, it
// only moves the end.
func (w *writer) copyIn(i, j int) {
	if w.buf == nil && i == w.n {
		w.n = j
		return
	}
	w.str(w.in[i:j])
}

// byte appends c.
func (w *writer) byte(c byte) {
	if w.buf == nil {
		if w.n < len(w.in) && w.in[w.n] == c {
			w.n++
			return
		}
		w.spill()
	}
	w.buf = append(w.buf, c)
}

// pct appends the percent-encoding of c ("%2F").
func (w *writer) pct(c byte) {
	w.byte('%')
	w.byte(upperhex[c>>4])
	w.byte(upperhex[c&15])
}

// at returns the output byte at i.
func (w *writer) at(i int) byte {
	if w.buf != nil {
		return w.buf[i]
	}
	return w.in[i]
}

// from returns the output from i on (valid until the next append).
func (w *writer) from(i int) string {
	if w.buf != nil {
		return unsafe.String(unsafe.SliceData(w.buf[i:]), len(w.buf)-i)
	}
	return w.in[i:w.n]
}

// set replaces the output byte at i with c.
func (w *writer) set(i int, c byte) {
	if w.at(i) == c {
		return
	}
	if w.buf == nil {
		w.spill()
	}
	w.buf[i] = c
}

// truncate cuts the output to n bytes; a prefix of the input stays one.
func (w *writer) truncate(n int) {
	if w.buf != nil {
		w.buf = w.buf[:n]
		return
	}
	w.n = n
}

// insert inserts s at i.
func (w *writer) insert(i int, s string) {
	if w.buf == nil {
		w.spill()
	}
	w.buf = append(w.buf, s...)
	copy(w.buf[i+len(s):], w.buf[i:])
	copy(w.buf[i:], s)
}

// remove removes n bytes at i.
func (w *writer) remove(i, n int) {
	if w.buf == nil {
		w.spill()
	}
	w.buf = append(w.buf[:i], w.buf[i+n:]...)
}

// string returns the output. The buffer is never written again, so the
// string can share it (as strings.Builder does).
func (w *writer) string() string {
	if w.buf == nil {
		return w.in[:w.n]
	}
	return unsafe.String(unsafe.SliceData(w.buf), len(w.buf))
}

// bytes appends b.
func (w *writer) bytes(b []byte) {
	if w.buf == nil {
		if len(b) <= len(w.in)-w.n && w.in[w.n:w.n+len(b)] == string(b) {
			w.n += len(b)
			return
		}
		w.spill()
	}
	w.buf = append(w.buf, b...)
}
