// Package punycode is Punycode (RFC 3492), the Bootstring encoding of
// IDNA's labels, in O(n log n) time for a label of n code points.
//
// RFC 3492's own algorithm (section 6.3) scans the whole label once for
// each distinct code point, and its decoder (section 6.2) inserts each
// code point into the middle of the output: both are quadratic, which
// for a host of 20,000 distinct code points (the URL Standard sets no
// length limit on hosts) means seconds. Here the encoder visits the
// code points in sorted order and asks a Fenwick tree how many smaller
// ones precede each; the decoder records its insertions and then places
// them from the last to the first, each in the free slot a Fenwick tree
// finds. Both give exactly what sections 6.2 and 6.3 give, overflow
// included (a delta past 2^31-1 is an error, as in x/net/idna and in
// JavaScript's punycode.js).
//
// O(n log n) is the bound: the encoder must know, for each code point,
// how many smaller ones come before it, which is counting inversions, and
// no practical method counts them in linear time.
package punycode

import (
	"errors"
	"math/bits"
	"slices"
	"strconv"
	"unicode/utf8"
)

// The Bootstring parameters for Punycode (RFC 3492 section 5).
const (
	base        = 36
	tmin        = 1
	tmax        = 26
	skew        = 38
	damp        = 700
	initialBias = 72
	initialN    = 128
	delimiter   = '-'
	// maxInt is the largest delta or code point the coder handles: that
	// of x/net/idna and punycode.js, 2^31-1 (section 6.4 asks for at
	// least 26 bits and for overflow to be detected).
	maxInt = 1<<31 - 1
)

// Errors of Encode and Decode, wrapped in an *Error.
var (
	// ErrOverflow: a delta or code point past 2^31-1 (section 6.4).
	ErrOverflow = errors.New("punycode: overflow")
	// ErrInvalid: a byte that is not a basic code point before the
	// last delimiter, or not a digit after it (section 6.2).
	ErrInvalid = errors.New("punycode: invalid character")
	// ErrTruncated: the input ends inside a variable-length integer.
	ErrTruncated = errors.New("punycode: truncated")
	// ErrCodePoint: a decoded value that is not a Unicode scalar value
	// (above U+10FFFF or a surrogate), or invalid UTF-8 to encode.
	ErrCodePoint = errors.New("punycode: not a Unicode scalar value")
)

// Error is a failure of Encode or Decode at byte Offset of the input.
type Error struct {
	Offset int
	Err    error
}

func (e *Error) Error() string {
	return e.Err.Error() + " at offset " + strconv.Itoa(e.Offset)
}

func (e *Error) Unwrap() error { return e.Err }

// AppendEncode appends to dst the Punycode encoding of the UTF-8 string
// s (without the "xn--" prefix): its basic code points, a delimiter if
// there are any, then the deltas of the others (section 6.3). It fails
// on invalid UTF-8 and on overflow.
func AppendEncode(dst []byte, s string) ([]byte, error) {
	// The basic code points, copied, and a key (value<<32 | index) for
	// each of the others, index counting code points.
	b, n := 0, 0 // basic code points, all code points
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			dst = append(dst, s[i])
			b++
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return dst, &Error{i, ErrCodePoint}
		}
		n++
		i += size
	}
	if b > 0 {
		dst = append(dst, delimiter)
	}
	if b == n {
		return dst, nil
	}
	var keyBuf [32]uint64
	var treeBuf [65]int32
	keys, done := keyBuf[:0], fenwick(treeBuf[:0])
	if n-b > len(keyBuf) {
		keys = make([]uint64, 0, n-b)
	}
	if n+1 > len(treeBuf) {
		done = make(fenwick, n+1)
	} else {
		done = treeBuf[:n+1]
	}
	// done counts, by index, the code points already handled: the basic
	// ones now, each value's own once its turn is over.
	j := 0
	for _, r := range s {
		if r < utf8.RuneSelf {
			done[j+1] = 1
		} else {
			keys = append(keys, uint64(r)<<32|uint64(j))
		}
		j++
	}
	done.init()
	slices.Sort(keys)
	// Digits per code point: one or two for neighbouring values.
	dst = slices.Grow(dst, 2*len(keys))

	cur, delta, bias, h := int64(initialN), int64(0), initialBias, b
	for k := 0; k < len(keys); {
		m := int64(keys[k] >> 32)
		// Section 6.3: "let delta = delta + (m - n) * (h + 1), fail on
		// overflow".
		delta += (m - cur) * int64(h+1)
		if delta > maxInt {
			return dst, overflowAt(s, int(uint32(keys[k])))
		}
		// Section 6.3's pass over the input for m: each code point
		// smaller than m adds one to delta, each equal to m writes it.
		// The smaller ones are the handled ones, which done counts.
		end := k
		before := 0 // handled code points before the last m
		for ; end < len(keys) && int64(keys[end]>>32) == m; end++ {
			at := done.prefix(int(uint32(keys[end])))
			delta += int64(at - before)
			if delta > maxInt {
				return dst, overflowAt(s, int(uint32(keys[end])))
			}
			dst = appendInt(dst, int(delta), bias)
			bias = adapt(int(delta), h+1, h == b)
			delta = 0
			h++
			before = at
		}
		// The handled code points after the last m, then "increment
		// delta and n" (the next add checks delta: the RFC does not
		// check it here).
		delta += int64(h-(end-k)-before) + 1
		for ; k < end; k++ {
			done.add(int(uint32(keys[k])), 1)
		}
		cur = m + 1
	}
	return dst, nil
}

// overflowAt is ErrOverflow at the code point of s with index j.
func overflowAt(s string, j int) error {
	for i := range s {
		if j == 0 {
			return &Error{i, ErrOverflow}
		}
		j--
	}
	return &Error{len(s), ErrOverflow}
}

// appendInt appends q as a generalized variable-length integer (section
// 3.3) with the thresholds of bias (section 6.3's inner loop).
func appendInt(dst []byte, q, bias int) []byte {
	for k := base; ; k += base {
		t := threshold(k, bias)
		if q < t {
			break
		}
		dst = append(dst, digit(t+(q-t)%(base-t)))
		q = (q - t) / (base - t)
	}
	return append(dst, digit(q))
}

// threshold is t(k) of section 6.2: clamped to tmin..tmax.
func threshold(k, bias int) int {
	switch {
	case k <= bias:
		return tmin
	case k >= bias+tmax:
		return tmax
	}
	return k - bias
}

// digit is the basic code point of a digit value (section 5): a-z for
// 0-25, 0-9 for 26-35, lowercase as section 6.3 suggests.
func digit(d int) byte {
	if d < 26 {
		return byte('a' + d)
	}
	return byte('0' + d - 26)
}

// digitValue is the value of the basic code point c as a digit, or -1.
var digitValue = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = int8(c-'a'), int8(c-'a')
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = int8(c - '0' + 26)
	}
	return t
}()

// adapt is the bias adaptation function (section 6.1).
func adapt(delta, numPoints int, first bool) int {
	if first {
		delta /= damp
	} else {
		delta /= 2
	}
	delta += delta / numPoints
	k := 0
	for delta > ((base-tmin)*tmax)/2 {
		delta /= base - tmin
		k += base
	}
	return k + (base-tmin+1)*delta/(delta+skew)
}

// AppendDecode appends to dst, in UTF-8, the code points the Punycode
// string s (without the "xn--" prefix) encodes (section 6.2): the basic
// code points before the last delimiter, then those its deltas insert.
// Digits may be in either case; a basic code point keeps its own. It
// fails on a byte out of place, a truncated integer, overflow, and a
// value that is not a Unicode scalar value.
func AppendDecode(dst []byte, s string) ([]byte, error) {
	b := 0 // the basic code points: s[:b]
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == delimiter {
			b = i
			break
		}
	}
	for i := 0; i < b; i++ {
		if s[i] >= utf8.RuneSelf {
			return dst, &Error{i, ErrInvalid}
		}
	}
	pos := 0
	if b > 0 {
		pos = b + 1
	}
	if pos == len(s) {
		return append(dst, s[:b]...), nil
	}

	// The insertions of section 6.2, as value<<32 | index: index is
	// where the value goes in the output as it is at that moment.
	// Each takes a digit or more: 2 or 3 for neighbouring values.
	var insBuf [32]uint64
	ins := insBuf[:0]
	if len(s)-pos > 2*len(insBuf) {
		ins = make([]uint64, 0, (len(s)-pos)/2)
	}
	ins, err := decodeInts(s, b, pos, ins)
	if err != nil {
		return dst, err
	}
	k := len(ins)

	if appendsOnly(ins, b) {
		// Each insertion went at the end (the code points after the
		// basic ones are in increasing order): they are in place.
		dst = append(dst, s[:b]...)
		for _, v := range ins {
			dst = utf8.AppendRune(dst, rune(v>>32))
		}
		return dst, nil
	}

	// Place the insertions from the last: the last one's index is its
	// place among all n slots; each earlier one's is its place among the
	// slots the later ones left free. The basic code points fill the
	// slots that remain, in order. The tree of free slots then holds
	// the output.
	n := b + k
	var treeBuf [65]int32
	free := fenwick(treeBuf[:0])
	if n+1 > len(treeBuf) {
		free = make(fenwick, n+1)
	} else {
		free = treeBuf[:n+1]
	}
	for j := 1; j <= n; j++ {
		free[j] = 1
	}
	free.init()
	for j := k - 1; j >= 0; j-- {
		at := free.take(int(uint32(ins[j])))
		ins[j] = ins[j]&^(1<<32-1) | uint64(at)
	}
	out := free[:n]
	for j := range out {
		out[j] = -1
	}
	need := b
	for _, v := range ins {
		out[uint32(v)] = int32(v >> 32)
		need += utf8.RuneLen(rune(v >> 32))
	}
	dst = slices.Grow(dst, need)
	c := 0
	for _, r := range out {
		if r < 0 {
			dst = append(dst, s[c])
			c++
			continue
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst, nil
}

// appendsOnly reports whether each insertion of ins went at the end of
// the output, after b basic code points.
func appendsOnly(ins []uint64, b int) bool {
	for j, v := range ins {
		if int(uint32(v)) != b+j {
			return false
		}
	}
	return true
}

// decodeInts runs the main loop of section 6.2 on s[pos:], b basic code
// points before, and appends to ins each insertion (value<<32 | index).
func decodeInts(s string, b, pos int, ins []uint64) ([]uint64, error) {
	i, cur, bias := 0, initialN, initialBias
	for pos < len(s) {
		old, w := i, 1
		for k := base; ; k += base {
			if pos == len(s) {
				return ins, &Error{pos, ErrTruncated}
			}
			d := int(digitValue[s[pos]])
			if d < 0 {
				return ins, &Error{pos, ErrInvalid}
			}
			pos++
			// i and w stay below 2^31, so the products fit in 64 bits.
			next := int64(i) + int64(d)*int64(w)
			if next > maxInt {
				return ins, &Error{pos - 1, ErrOverflow}
			}
			i = int(next)
			t := threshold(k, bias)
			if d < t {
				break
			}
			if int64(w)*int64(base-t) > maxInt {
				return ins, &Error{pos - 1, ErrOverflow}
			}
			w *= base - t
		}
		x := b + len(ins) + 1
		bias = adapt(i-old, x, old == 0)
		if i/x > maxInt-cur {
			return ins, &Error{pos - 1, ErrOverflow}
		}
		cur += i / x
		i %= x
		if cur > utf8.MaxRune || 0xD800 <= cur && cur <= 0xDFFF {
			return ins, &Error{pos - 1, ErrCodePoint}
		}
		ins = append(ins, uint64(cur)<<32|uint64(i))
		i++
	}
	return ins, nil
}

// fenwick is a binary indexed tree over positions 0..len-2 (slot 0 of
// the slice is unused), each holding 0 or 1.
type fenwick []int32

// init turns the counts at each index into the tree, in O(n).
func (f fenwick) init() {
	for i := 1; i < len(f); i++ {
		if j := i + i&-i; j < len(f) {
			f[j] += f[i]
		}
	}
}

// prefix returns the sum of positions 0..p-1.
func (f fenwick) prefix(p int) int {
	s := int32(0)
	for ; p > 0; p &= p - 1 {
		s += f[p]
	}
	return int(s)
}

// add adds v at position p.
func (f fenwick) add(p int, v int32) {
	for p++; p < len(f); p += p & -p {
		f[p] += v
	}
}

// take returns the position holding the (k+1)th one, k from 0, and
// sets it to zero: the smallest p with prefix(p+1) = k+1. There must be
// one. The descent passes through each node whose range holds p (a
// node it does not step past), and takes one from it on the way.
func (f fenwick) take(k int) int {
	p := 0
	rem := int32(k + 1)
	for step := 1 << (bits.Len(uint(len(f)-1)) - 1); step > 0; step >>= 1 {
		q := p + step
		if q >= len(f) {
			continue
		}
		if f[q] < rem {
			p = q
			rem -= f[q]
		} else {
			f[q]--
		}
	}
	return p
}
