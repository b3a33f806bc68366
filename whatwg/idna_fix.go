package whatwg

type uts46FixKind uint8

const (
	fixMap         uts46FixKind = iota // mapped (or ignored: to is "")
	fixDisallowed                      // disallowed
	fixUnsupported                     // valid in the newer table, unknown to x/net's
)

type uts46Fix struct {
	lo, hi rune
	kind   uts46FixKind
	to     string
}

// fixUTS46 brings s up to the IDNA Mapping Table of uts46Version before
// x/net/idna maps it with its older tables: it applies the newer
// mappings (and ignored code points) and reports false for a code point
// the newer table disallows or that x/net cannot handle. Only domains
// with non-ASCII code points come here.
func fixUTS46(s string) (string, bool) {
	var b []byte
	last := 0
	for i, r := range s {
		if r < 0x80 {
			continue
		}
		k := searchFix(r)
		if k < 0 {
			continue
		}
		f := &uts46Fixes[k]
		if f.kind != fixMap {
			return "", false
		}
		if b == nil {
			b = make([]byte, 0, len(s)+8)
		}
		b = append(b, s[last:i]...)
		b = append(b, f.to...)
		last = i + len(string(r))
	}
	if b == nil {
		return s, true
	}
	return string(append(b, s[last:]...)), true
}

// searchFix returns the index of the entry of uts46Fixes holding r, or -1.
func searchFix(r rune) int {
	lo, hi := 0, len(uts46Fixes)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if uts46Fixes[m].hi < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(uts46Fixes) && uts46Fixes[lo].lo <= r {
		return lo
	}
	return -1
}
