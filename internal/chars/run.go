package chars

import "math/bits"

// A RunSet is a class of the table (its Class) with the subset of it
// that Skip tests eight bytes at a time: the ASCII letters of both cases
// and two ranges of ASCII bytes, the bytes a component is mostly made
// of. Skip tests the other bytes of the class one at a time with the
// table, so the subset decides only the speed, never the result.
//
// A range [lo, hi] is kept as the two words whose sums with a word of
// ASCII bytes carry into each byte's high bit when that byte is >= lo,
// and when it is > hi. The letters are one range of the bytes with bit
// 0x20 set ("A"-"Z" fall in "a"-"z", and nothing else does).
type RunSet struct {
	lo1, hi1, lo2, hi2 uint64
	class              Class
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// runSet returns the RunSet of class c whose fast subset is the letters
// and the ranges r[0]-r[1] and r[2]-r[3], after checking that the subset
// is in c.
func runSet(c Class, r [4]byte) RunSet {
	for b := 0; b < 256; b++ {
		if b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || r[0] <= byte(b) && byte(b) <= r[1] || r[2] <= byte(b) && byte(b) <= r[3] {
			if !Is(byte(b), c) {
				panic("chars: a RunSet's fast bytes must be in its class")
			}
		}
	}
	return RunSet{
		lsb * uint64(0x80-r[0]), lsb * uint64(0x7F-r[1]),
		lsb * uint64(0x80-r[2]), lsb * uint64(0x7F-r[3]),
		c,
	}
}

var (
	// SchemeRun is Scheme; letters, digits, "-" and "." are fast.
	SchemeRun = runSet(Scheme, [4]byte{'0', '9', '-', '.'})
	// HostRun is RegName; letters, digits, "-" and "." are fast.
	HostRun = runSet(RegName, [4]byte{'0', '9', '-', '.'})
	// PathRun is PathChar; letters, digits, "&'()*+,-./:;" and "_" are
	// fast.
	PathRun = runSet(PathChar, [4]byte{'&', ';', '_', '_'})
	// QueryRun is QueryFrag; letters, digits, "&'()*+,-./:;" and "="
	// are fast.
	QueryRun = runSet(QueryFrag, [4]byte{'&', ';', '=', '='})
)

// stops returns the word whose byte k has its high bit set when byte k
// of w (the little-endian word of 8 bytes of input) is not a fast byte
// of r.
func (r *RunSet) stops(w uint64) uint64 {
	// Clear the high bits, so that no sum carries from a byte into the
	// next; a byte that had it (not ASCII) is a stop whatever its sums.
	v := w &^ msb
	l := v | lsb*0x20
	// In a range, the first sum has carried into the high bit and the
	// second has not; below it neither has, above it both have.
	in := ((l + lsb*(0x80-'a')) ^ (l + lsb*(0x7F-'z'))) | ((v + r.lo1) ^ (v + r.hi1)) | ((v + r.lo2) ^ (v + r.hi2))
	return (^in | w) & msb
}

// load returns the first 8 bytes of s as a little-endian word (one
// 8-byte load).
func load(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// Skip returns the offset of the first byte of s at or after i that is
// not in r's class, or len(s). It reads eight bytes at a time, testing
// only the bytes outside the fast subset through the table.
func Skip(s string, i int, r *RunSet) int {
	n := len(s)
	for i <= n-8 {
		m := r.stops(load(s[i:]))
		if m == 0 {
			i += 8
			continue
		}
		i += bits.TrailingZeros64(m) >> 3
		if !Is(s[i], r.class) {
			return i
		}
		i++
	}
	if n >= 8 && i < n {
		// The last 8 bytes, of which the first 8-(n-i) are already
		// known to be in the class: shifted out.
		m := r.stops(load(s[n-8:])) >> (8 * (i - (n - 8)))
		if m == 0 {
			return n
		}
		i += bits.TrailingZeros64(m) >> 3
	}
	for i < n && Is(s[i], r.class) {
		i++
	}
	return i
}

// IndexUpper returns the offset of the first ASCII uppercase letter of
// s, or -1, reading eight bytes at a time: a lowercasing copies the runs
// between them at once (a host or a scheme is most often one run).
func IndexUpper(s string) int {
	i := 0
	for ; i <= len(s)-8; i += 8 {
		if m := uppers(load(s[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return i
		}
	}
	return -1
}

// uppers returns the word whose byte k has its high bit set when byte k
// of w (a little-endian word of 8 bytes) is an ASCII uppercase letter:
// with the high bits cleared no sum carries into the next byte; the
// first sum carries into the high bit from "A" up, the second from
// past "Z" up; a byte that had the high bit is not ASCII.
func uppers(w uint64) uint64 {
	v := w &^ msb
	return (v + lsb*(0x80-'A')) &^ (v + lsb*(0x80-'Z'-1)) &^ w & msb
}

// IndexPair returns the offset of the first byte b of s that follows a
// byte a (the "." of "/." in a path), or -1. It reads eight bytes at a
// time: a short string costs no call, and a pair is rare where it is
// looked for.
func IndexPair(s string, a, b byte) int {
	n := len(s)
	prev := uint64(0) // the high bit of byte 0 set when the byte before the word is a
	i := 0
	for ; i <= n-8; i += 8 {
		w := load(s[i:])
		if m := equal(w, b) & (equal(w, a)<<8 | prev); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		prev = 0
		if s[i+7] == a {
			prev = 0x80
		}
	}
	if n >= 8 && i < n {
		// The last 8 bytes, of which the first 8-(n-i) are already
		// tested: shifted out.
		w := load(s[n-8:])
		if n > 8 && s[n-9] == a {
			prev = 0x80
		} else {
			prev = 0
		}
		if m := (equal(w, b) & (equal(w, a)<<8 | prev)) >> (8 * (i - (n - 8))); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		return -1
	}
	for i = max(i, 1); i < n; i++ {
		if s[i] == b && s[i-1] == a {
			return i
		}
	}
	return -1
}

// LastIndexByte returns the offset of the last byte c of s, or -1, as
// strings.LastIndexByte does, reading eight bytes at a time from the end
// (the directory of a path ends at its last "/", often a file name or
// more back).
func LastIndexByte(s string, c byte) int {
	i := len(s)
	for ; i >= 8; i -= 8 {
		if m := equal(load(s[i-8:]), c); m != 0 {
			return i - 8 + (63-bits.LeadingZeros64(m))>>3
		}
	}
	for i--; i >= 0 && s[i] != c; i-- {
	}
	return i
}

// equal returns the word whose byte k has its high bit set when byte k
// of w is c, and no other bit: the bytes of w^c that are not zero set
// the high bit of a sum that cannot carry into the next byte.
func equal(w uint64, c byte) uint64 {
	v := w ^ lsb*uint64(c)
	return ^((v&^msb + (msb - lsb)) | v) & msb
}
