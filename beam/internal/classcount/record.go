package classcount

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Records are the sums of keys written one after another into a file,
// as uribeam.DedupeFiles spills them instead of shuffling them:
//
//	uvarint(count) uvarint(len(key)) key uvarint(m) [min]
//
// m is 0 when the smallest input is the key itself (a line already in
// its normal form, the common case of URL lists), so that it is not
// written twice; else m is len(min)+1 and min follows.

// AppendRecord appends the record of key's sum s to b.
func AppendRecord(b []byte, key string, s Sum) []byte {
	b = binary.AppendUvarint(b, uint64(s.Count))
	b = binary.AppendUvarint(b, uint64(len(key)))
	b = append(b, key...)
	if s.Min == key {
		return binary.AppendUvarint(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(s.Min))+1)
	return append(b, s.Min...)
}

// ErrCorrupt: a file of records ends inside a record, or holds a count
// of 0, which no record has.
var ErrCorrupt = errors.New("classcount: corrupt records")

// A Reader reads records.
type Reader struct {
	r        *bufio.Reader
	off      int64 // of the record being read
	n        int64 // bytes read
	key, min []byte
	num      [binary.MaxVarintLen64]byte
}

// NewReader returns a Reader of the records of r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10)}
}

// Next returns the next record: its key, its smallest input (the same
// slice as key when they are equal) and its count, in slices that are
// valid until the next call; io.EOF after the last record, ErrCorrupt
// (with the offset of the record) when the records end inside one or a
// count is 0, or the error of the underlying reader.
func (r *Reader) Next() (key, min []byte, count int64, err error) {
	r.off = r.n
	c, err := r.uvarint()
	if err == io.EOF {
		return nil, nil, 0, io.EOF
	}
	if err == nil && c == 0 {
		err = ErrCorrupt
	}
	var n, m uint64
	if err == nil {
		n, err = r.uvarint()
	}
	if err == nil {
		r.key, err = r.field(r.key[:0], n)
	}
	if err == nil {
		m, err = r.uvarint()
	}
	min = r.key
	if err == nil && m > 0 {
		r.min, err = r.field(r.min[:0], m-1)
		min = r.min
	}
	if err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			err = ErrCorrupt
		}
		return nil, nil, 0, fmt.Errorf("record at byte %d: %w", r.off, err)
	}
	return r.key, min, int64(c), nil
}

func (r *Reader) uvarint() (uint64, error) {
	v, err := binary.ReadUvarint(r.r)
	if err == nil {
		// The offsets are for error messages: a record written by
		// AppendRecord has the shortest form of each number.
		r.n += int64(binary.PutUvarint(r.num[:], v))
	}
	return v, err
}

// field appends n bytes to b. A length larger than what follows costs
// no more memory than what follows: b grows as the bytes arrive.
func (r *Reader) field(b []byte, n uint64) ([]byte, error) {
	r.n += int64(n)
	for rest := n; rest > 0; {
		p, err := r.r.Peek(int(min(rest, uint64(r.r.Size()))))
		b = append(b, p...)
		r.r.Discard(len(p))
		rest -= uint64(len(p))
		if err != nil {
			return b, err
		}
	}
	return b, nil
}
