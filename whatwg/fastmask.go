package whatwg

import (
	"math/bits"

	"github.com/urikit/urikit/internal/chars"
)

// The fast path for a URL of at most 64 bytes, where the CPU classifies
// all of its bytes at once (chars.Classifier in vector instructions).
// The word scans of parseFastWords branch where each component ends, at
// a place that differs from URL to URL and that a branch predictor
// cannot learn; here every component's end is a count of trailing zeros
// in a mask that has one bit per byte of s, and the only branches are
// on what is rare (a '%', a dot segment, a port, a query, a fragment, a
// host that needs its labels checked). It answers only yes: anything
// else goes on to parseFastWords, which gives the final answer, so that
// the two can never disagree on a URL this one takes (fastmask_test.go
// checks that they give the same URL).

// The index in the masks of chars.Classifier of each class of
// fastByte: the index of its bit (TestFastClassIndex).
const (
	mPath = iota
	mQuery
	mFrag
	mDigit
	mDot
	mHyphen
	mSlash
	mLDH
)

// fastClasses classifies bytes as fastByte does.
var fastClasses = chars.NewClassifier(func(b byte) uint8 { return fastByte[b] })

// parseFastMasks is parseFast for s of at most 64 bytes after the
// scheme (kind, of length se), from the masks of s (m[mPath] and so on).
// It reports true with *u set when s is a URL that parseFastWords
// takes, and false, leaving *u alone, when it does not know.
func parseFastMasks(s string, m *[8]uint64, kind schemeKind, se int, u *URL) bool {
	n := len(s)
	h := se + 3

	// The host, LDH bytes up to a '/' (a port, or another byte, is for
	// parseFastWords). The rules of scanFastHost on the masks: two dots
	// or hyphens in a row, ".-", "-." or a dot before a digit, with a
	// dot taken before the host and after it, send the host to
	// fastHostOK; it is shorter than 64 bytes.
	hl := bits.TrailingZeros64(^(m[mLDH] >> h))
	e := h + hl
	if hl == 0 || e >= n || s[e] != '/' {
		return false
	}
	host := (uint64(1)<<hl - 1) << h
	dot := m[mDot]&host | 1<<(h-1) | 1<<(e&63)
	dh := dot | m[mHyphen]&host
	if dh&(dh<<1)|dot<<1&m[mDigit]&host != 0 && !fastHostOK(s[h:e]) {
		return false
	}
	if kind == schemeFile && s[h:e] == "localhost" {
		return false
	}

	// The path, query and fragment: their plain bytes. A '%' is none: a
	// component stops there, and the URL is for parseFastWords, as is a
	// path with a '.' after a '/' (hasDotSegment).
	pl := bits.TrailingZeros64(^(m[mPath] >> (e & 63)))
	if m[mSlash]<<1&m[mDot]&((uint64(1)<<pl-1)<<(e&63)) != 0 {
		return false
	}
	i := e + pl
	fl, qs, fs := hasHost, n, n
	if i < n && s[i] == '?' {
		fl, qs = fl|hasQuery, i
		i++
		i += bits.TrailingZeros64(^(m[mQuery] >> i))
	}
	if i < n {
		if s[i] != '#' || m[mFrag]>>(i+1) != 1<<(n-i-1)-1 {
			return false
		}
		fl, fs = fl|hasFragment, i
		if fl&hasQuery == 0 {
			qs = i
		}
	}

	u.s = s
	u.schemeEnd, u.userEnd, u.hostStart, u.hostEnd = uint32(se), uint32(h), uint32(h), uint32(e)
	u.pathStart, u.queryStart, u.fragStart = uint32(e), uint32(qs), uint32(fs)
	u.port, u.flags, u.scheme, u.hostKind, u.errs = -1, fl, kind, Domain, 0
	return true
}
