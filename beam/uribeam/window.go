package uribeam

import (
	"bytes"
	"io"
)

// A window reads a stream through a buffer that holds the bytes from a
// mark on: a reader can look ahead of its position and go back to any
// byte at or after the mark. The WARC scanner needs both: a record's
// end is known only from the bytes that follow it, and after a damaged
// record it searches the bytes it already read for the next one. It is
// also an io.ByteReader, so that a gzip reader over it reads exactly
// the bytes of one member, no further.
type window struct {
	r    io.Reader
	buf  []byte
	base int64 // the stream offset of buf[0]
	pos  int   // the next byte to read, in buf
	keep int   // bytes before buf[keep] may be dropped; keep <= pos
	err  error // io.EOF or the reader's failure, once it came
	// hold, when positive, bounds the bytes held before pos: a reader
	// that marks once and reads on (gzip through a member) must not
	// make the window hold the whole stream.
	hold int
}

func newWindow(r io.Reader) *window { return &window{r: r} }

// reset makes w read r from offset base on, keeping its buffer.
func (w *window) reset(r io.Reader, base int64) {
	*w = window{r: r, buf: w.buf[:0], base: base, hold: w.hold}
}

// off returns the stream offset of the next byte.
func (w *window) off() int64 { return w.base + int64(w.pos) }

// mark lets the bytes before the next one be dropped.
func (w *window) mark() { w.keep = w.pos }

// seek moves to the offset o, which must be held (at or after the mark,
// at most the end of what was read).
func (w *window) seek(o int64) {
	w.pos = int(o - w.base)
	if w.pos < w.keep {
		panic("uribeam: window seek before its mark")
	}
}

// fill reads more of the stream into the buffer; it reports whether it
// could.
func (w *window) fill() bool {
	if w.err != nil {
		return false
	}
	if w.hold > 0 && w.pos-w.keep > w.hold {
		w.keep = w.pos - w.hold
	}
	if w.keep > 0 && (len(w.buf) == cap(w.buf) || w.keep >= len(w.buf)/2) {
		n := copy(w.buf, w.buf[w.keep:])
		w.base += int64(w.keep)
		w.pos -= w.keep
		w.keep = 0
		w.buf = w.buf[:n]
	}
	if cap(w.buf)-len(w.buf) < 4096 {
		nb := make([]byte, len(w.buf), max(2*cap(w.buf), 64<<10))
		copy(nb, w.buf)
		w.buf = nb
	}
	n, err := w.r.Read(w.buf[len(w.buf):cap(w.buf)])
	w.buf = w.buf[:len(w.buf)+n]
	if err != nil {
		w.err = err
	}
	return n > 0 || err == nil
}

// peekAt returns up to n bytes from the held offset o on, fewer only at
// the end of the stream or after a failure (then w.err says which).
func (w *window) peekAt(o int64, n int) []byte {
	for w.base+int64(len(w.buf)) < o+int64(n) && w.fill() {
	}
	i := o - w.base
	if i >= int64(len(w.buf)) {
		return nil
	}
	return w.buf[i:min(int64(len(w.buf)), i+int64(n))]
}

// peek returns up to n bytes from the position on.
func (w *window) peek(n int) []byte { return w.peekAt(w.off(), n) }

// skip reads and drops n bytes from the position on, holding none of
// them; it returns how many there were.
func (w *window) skip(n int64) int64 {
	var done int64
	for done < n {
		if w.pos == len(w.buf) {
			w.mark()
			if !w.fill() {
				break
			}
			continue
		}
		k := min(int64(len(w.buf)-w.pos), n-done)
		w.pos += int(k)
		done += k
	}
	w.mark()
	return done
}

// index returns the offset of the first sep at or after the held offset
// o and before limit (limit < 0: no limit), reading as needed; or -1.
// The bytes it passes stay held.
func (w *window) index(o int64, sep []byte, limit int64) int64 {
	from := o
	for {
		i := int(from - w.base)
		if j := bytes.Index(w.buf[i:], sep); j >= 0 {
			if at := from + int64(j); limit < 0 || at < limit {
				return at
			}
			return -1
		}
		from = max(from, w.base+int64(len(w.buf)-len(sep)+1))
		if limit >= 0 && from >= limit || !w.fill() {
			return -1
		}
	}
}

// Read and ReadByte read from the position on.
func (w *window) Read(p []byte) (int, error) {
	for w.pos == len(w.buf) {
		if !w.fill() {
			return 0, w.err
		}
	}
	n := copy(p, w.buf[w.pos:])
	w.pos += n
	return n, nil
}

func (w *window) ReadByte() (byte, error) {
	for w.pos == len(w.buf) {
		if !w.fill() {
			return 0, w.err
		}
	}
	w.pos++
	return w.buf[w.pos-1], nil
}
