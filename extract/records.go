package extract

import (
	"bytes"
	"io"
	"unicode/utf8"
)

// fill reads more input into buf, keeping buf[keep:] (keep is an
// index); the data may move to the front of buf, which changes base.
func (s *Scanner) fill(keep int) {
	if s.final {
		return
	}
	if keep > 0 && len(s.buf)-s.n < len(s.buf)/2 {
		s.countLines(keep)
		copy(s.buf, s.buf[keep:s.n])
		s.n -= keep
		s.base += int64(keep)
	}
	if len(s.buf) < s.max && (s.grow || s.n > len(s.buf)/2) || s.n == len(s.buf) {
		// The last read filled the buffer, or a candidate needs more.
		// (The buffer is never full at its largest: a candidate needs
		// less than half of it.)
		b := make([]byte, max(min(2*len(s.buf), s.max), s.n+1))
		copy(b, s.buf[:s.n])
		s.buf = b
	}
	k, err := s.r.Read(s.buf[s.n:])
	s.grow = s.n+k == len(s.buf)
	s.n += k
	switch {
	case err == io.EOF:
		s.eof = true
	case err != nil:
		s.err, s.eof = err, true
	case k == 0:
		if s.empty++; s.empty >= 100 {
			s.err, s.eof = io.ErrNoProgress, true
		}
	default:
		s.empty = 0
	}
	s.setEnd(s.n - k)
}

// setEnd sets the end of the data the scan may use, looking for the
// end of the record from index from on.
func (s *Scanner) setEnd(from int) {
	s.end, s.final = s.n, s.eof
	if s.o.Records {
		if i := bytes.IndexByte(s.buf[from:s.n], 0); i >= 0 {
			s.end, s.final = from+i, true
		}
	}
}

// NextRecord moves to the next record and reports whether there is
// one; the first call starts the first record, which always exists.
// With Options.Records unset the input is one record. The matches of
// the current record that Scan has not returned are skipped.
//
// A NUL at the end of the input ends the last record: it does not start
// an empty one.
func (s *Scanner) NextRecord() bool {
	if !s.begun {
		s.begun = true
		return true
	}
	s.pending, s.head = s.pending[:0], 0
	for !s.final {
		s.off = s.base + int64(s.end)
		s.fill(s.end)
	}
	if !s.o.Records || s.end == s.n {
		return false // the input ended
	}
	next := s.end + 1
	// Offsets restart after the NUL.
	s.base, s.off = -int64(next), 0
	s.line, s.lnOff, s.lnStart = 1, 0, 0
	s.resetNeedles()
	s.setEnd(next)
	for !s.final && s.end == next {
		s.fill(next)
		next = s.idx(0)
	}
	return s.end > next || s.end < s.n
}

// idx returns the index in buf of input offset off.
func (s *Scanner) idx(off int64) int { return int(off - s.base) }

// at returns the byte at input offset off, reading as needed and
// keeping the data from offset keep; false past the end of the input.
func (s *Scanner) at(keep, off int64) (byte, bool) {
	for {
		if j := s.idx(off); j < s.end {
			return s.buf[j], true
		}
		if s.final {
			return 0, false
		}
		s.fill(s.idx(keep))
	}
}

// runeAt decodes the rune at input offset off (an invalid byte as
// utf8.RuneError of size 1), keeping the data from keep.
func (s *Scanner) runeAt(keep, off int64) (rune, int, bool) {
	c, ok := s.at(keep, off)
	if !ok {
		return 0, 0, false
	}
	if c < utf8.RuneSelf {
		return rune(c), 1, true
	}
	for !utf8.FullRune(s.buf[s.idx(off):s.end]) && !s.final {
		s.fill(s.idx(keep))
	}
	r, n := utf8.DecodeRune(s.buf[s.idx(off):s.end])
	return r, n, true
}

// slice returns the input between offsets from and to, which are in buf.
func (s *Scanner) slice(from, to int64) []byte { return s.buf[s.idx(from):s.idx(to)] }

// countLines counts the line breaks before index j that are not yet
// counted.
func (s *Scanner) countLines(j int) {
	k := s.idx(s.lnOff)
	if k >= j {
		return
	}
	b := s.buf[k:j]
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			break
		}
		s.line++
		s.lnStart = s.base + int64(j-len(b)+i+1)
		b = b[i+1:]
	}
	s.lnOff = s.base + int64(j)
}

// posAt returns the line and column of input offset off, which is in
// buf and not before an offset asked earlier.
func (s *Scanner) posAt(off int64) (line, col int) {
	s.countLines(s.idx(off))
	return s.line, int(off-s.lnStart) + 1
}
