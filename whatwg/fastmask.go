package whatwg

import "math/bits"

// The fast path for a URL of at most 64 bytes, where the CPU can
// classify all of its bytes at once (fastmask_amd64.s). The word scans
// of parseFastWords branch where each component ends, at a place that
// differs from URL to URL and that a branch predictor cannot learn;
// here every component's end is a count of trailing zeros in a mask
// that has one bit per byte of s, and the only branches are on what is
// rare (a '%', a dot segment, a port, a query, a fragment, a host that
// needs its labels checked). It answers only yes: anything else goes on
// to parseFastWords, which gives the final answer, so that the two can
// never disagree on a URL this one takes (fast_test.go checks that they
// give the same URL).

// fastMasks holds, for each class of fastByte, a mask with bit k set
// when s[k] is in the class (the field of bit b of fastByte at offset
// 8*b, as classify64 writes them), and the mask of the '%' bytes. The
// bits past the end of s are zero.
type fastMasks struct {
	path, query, frag, digit, dot, hyphen, slash, ldh uint64
	pct                                               uint64
}

// classifyGo is classify64 in Go, for s of at most 64 bytes: the twin
// the assembly is tested against.
func classifyGo(s string, m *fastMasks) {
	*m = fastMasks{}
	for k := 0; k < len(s) && k < 64; k++ {
		c, bit := fastByte[s[k]], uint64(1)<<k
		for b, f := range [...]*uint64{&m.path, &m.query, &m.frag, &m.digit, &m.dot, &m.hyphen, &m.slash, &m.ldh} {
			if c&(1<<b) != 0 {
				*f |= bit
			}
		}
		if s[k] == '%' {
			m.pct |= bit
		}
	}
}

// parseFastMasks is parseFast for s of at most 64 bytes after the
// scheme (kind, of length se), from the masks of s. It reports true
// with *u set when s is a URL that parseFastWords takes, and false,
// leaving *u alone, when it does not know.
func parseFastMasks(s string, m *fastMasks, kind schemeKind, se int, u *URL) bool {
	n := len(s)
	h := se + 3

	// The host, LDH bytes up to a '/' (a port, or another byte, is for
	// parseFastWords). The rules of scanFastHost on the masks: two dots
	// or hyphens in a row, ".-", "-." or a dot before a digit, with a
	// dot taken before the host and after it, send the host to
	// fastHostOK; it is shorter than 64 bytes.
	hl := bits.TrailingZeros64(^(m.ldh >> h))
	e := h + hl
	if hl == 0 || e >= n || s[e] != '/' {
		return false
	}
	host := (uint64(1)<<hl - 1) << h
	dot := m.dot&host | 1<<(h-1) | 1<<(e&63)
	dh := dot | m.hyphen&host
	if dh&(dh<<1)|dot<<1&m.digit&host != 0 && !fastHostOK(s[h:e]) {
		return false
	}
	if kind == schemeFile && s[h:e] == "localhost" {
		return false
	}

	// The path, plain bytes from the '/'; one with a '%' or with a '.'
	// after a '/' is for parseFastWords.
	pl := bits.TrailingZeros64(^((m.path | m.pct) >> (e & 63)))
	path := (uint64(1)<<pl - 1) << (e & 63)
	if (m.pct|m.slash<<1&m.dot)&path != 0 {
		return false
	}
	i := e + pl
	fl, qs, fs := hasHost, n, n
	if i < n && s[i] == '?' {
		fl, qs = fl|hasQuery, i
		i++
		ql := bits.TrailingZeros64(^((m.query | m.pct) >> i))
		if m.pct&((uint64(1)<<ql-1)<<i) != 0 {
			return false
		}
		i += ql
	}
	if i < n {
		if s[i] != '#' {
			return false
		}
		fl, fs = fl|hasFragment, i
		if fl&hasQuery == 0 {
			qs = i
		}
		i++
		if fm := (m.frag | m.pct) >> i; fm != 1<<(n-i)-1 || m.pct>>i != 0 {
			return false
		}
	}

	u.s = s
	u.schemeEnd, u.userEnd, u.hostStart, u.hostEnd = uint32(se), uint32(h), uint32(h), uint32(e)
	u.pathStart, u.queryStart, u.fragStart = uint32(e), uint32(qs), uint32(fs)
	u.port, u.flags, u.scheme, u.hostKind, u.errs = -1, fl, kind, Domain, 0
	return true
}
