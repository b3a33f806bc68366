package uri

import (
	"strings"

	"github.com/urikit/urikit/internal/chars"
)

// Set is a set of bytes that Escape leaves as they are; every other byte
// is percent-encoded. "%" is never in a Set: it always starts a triplet
// (RFC 3986 2.4), so Escape always encodes it.
//
// The predefined sets follow the ABNF of RFC 3986 Appendix A, each without
// pct-encoded (which Escape produces) and without the delimiters that
// would end the component.
type Set struct{ bits [4]uint64 }

// Contains reports whether Escape leaves b as it is.
func (s *Set) Contains(b byte) bool { return s.bits[b>>6]&(1<<(b&63)) != 0 }

func (s *Set) add(b byte) {
	if b != '%' {
		s.bits[b>>6] |= 1 << (b & 63)
	}
}

// NewSet returns the set of the bytes of allowed, without "%".
func NewSet(allowed string) *Set {
	s := new(Set)
	for i := 0; i < len(allowed); i++ {
		s.add(allowed[i])
	}
	return s
}

// classSet returns the set of the bytes in class c, plus extra, minus
// the bytes of minus.
func classSet(c chars.Class, extra, minus string) *Set {
	s := new(Set)
	for b := 0; b < 256; b++ {
		if chars.Is(byte(b), c) {
			s.add(byte(b))
		}
	}
	for i := 0; i < len(extra); i++ {
		s.add(extra[i])
	}
	for i := 0; i < len(minus); i++ {
		b := minus[i]
		s.bits[b>>6] &^= 1 << (b & 63)
	}
	return s
}

// The sets of the components of RFC 3986 (section 3 and Appendix A).
var (
	// UserinfoSet is userinfo: unreserved / sub-delims / ":" (3.2.1).
	// Escape a user name with it after removing ":" from it, or use
	// Editor.SetUser, which encodes the ":" of a user name.
	UserinfoSet = classSet(chars.UserInfo, "", "")
	// HostSet is reg-name: unreserved / sub-delims (3.2.2).
	HostSet = classSet(chars.RegName, "", "")
	// SegmentSet is a path segment: pchar, that is unreserved /
	// sub-delims / ":" / "@" (3.3). It has no "/", so a segment stays one.
	SegmentSet = classSet(chars.PChar, "", "")
	// PathSet is a path: pchar / "/" (3.3).
	PathSet = classSet(chars.PChar, "/", "")
	// QuerySet is query: pchar / "/" / "?" (3.4).
	QuerySet = classSet(chars.QueryFrag, "", "")
	// FragmentSet is fragment: pchar / "/" / "?" (3.5).
	FragmentSet = classSet(chars.QueryFrag, "", "")
	// QueryValueSet is QuerySet without "&", "=", "+" and ";", so that
	// an escaped key or value cannot break the key=value&... structure
	// that forms use, nor be read as a space by a form decoder. ";" is
	// encoded too, as url.QueryEscape does: servers that still split
	// pairs at ";" (HTML 4.01 B.2.2) would see two pairs, and
	// url.ParseQuery drops a pair holding one (golang/go#25192).
	QueryValueSet = classSet(chars.QueryFrag, "", "&=+;")
	// unreservedSet is RFC 3986 2.3 unreserved, used for a nil *Set.
	unreservedSet = classSet(chars.Unreserved, "", "")
)

// SetByName returns the predefined set called name: "userinfo", "host",
// "segment", "path", "query", "fragment" or "query-value".
func SetByName(name string) (*Set, bool) {
	switch name {
	case "userinfo":
		return UserinfoSet, true
	case "host":
		return HostSet, true
	case "segment":
		return SegmentSet, true
	case "path":
		return PathSet, true
	case "query":
		return QuerySet, true
	case "fragment":
		return FragmentSet, true
	case "query-value":
		return QueryValueSet, true
	}
	return nil, false
}

// Escape percent-encodes every byte of s that is not in set, writing
// "%" and two uppercase hexadecimal digits (RFC 3986 2.1). A nil set is
// the unreserved characters of RFC 3986 2.3, which are safe in every
// component. Escape returns s itself, without allocating, when nothing
// needs encoding. Escape works on bytes: a UTF-8 character becomes one
// triplet per byte, as RFC 3986 2.5 recommends.
func Escape(s string, set *Set) string {
	if set == nil {
		set = unreservedSet
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if !set.Contains(s[i]) {
			n++
		}
	}
	if n == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if set.Contains(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(chars.UpperHex[c>>4])
		b.WriteByte(chars.UpperHex[c&15])
	}
	return b.String()
}

// Unescape decodes every percent-encoded triplet of s (RFC 3986 2.1) and
// leaves other bytes as they are; "+" stays "+" (see Param.FormValue for
// the form convention). On a malformed triplet it returns a *ParseError
// wrapping ErrInvalidPercent whose Offset is the first offending byte
// (len(s) when s ends inside the triplet) and whose Component is zero. Unescape returns s
// itself, without allocating, when it has no "%".
func Unescape(s string) (string, error) {
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return s, nil
	}
	for j := i; j < len(s); j++ {
		if s[j] == '%' {
			if e := chars.PctError(s, j); e >= 0 {
				return "", &ParseError{Input: s, Offset: e, Reason: ErrInvalidPercent}
			}
			j += 2
		}
	}
	return unescapeValid(s), nil
}

// NormalizeEscapes applies the percent-encoding normalization of RFC 3986
// 6.2.2.1 and 6.2.2.2 to s: the hexadecimal digits of every triplet
// become uppercase, and triplets that encode an unreserved character
// (2.3: ALPHA, DIGIT, "-", ".", "_", "~") are decoded. Other bytes are
// left alone; a "%" that does not start a valid triplet is left as it is,
// so the function never fails (Parse rejects such input anyway), and a
// triplet that would join such a "%" into a new triplet once decoded
// stays encoded: "%%32%65" is left as it is, not turned into "%2e". So
// NormalizeEscapes(NormalizeEscapes(s)) == NormalizeEscapes(s) for every
// string s.
// NormalizeEscapes returns s itself, without allocating, when nothing
// changes.
func NormalizeEscapes(s string) string {
	w := lazyBuf{orig: s}
	w.normEscapes(s, chars.Unreserved, false)
	return w.String()
}

// lazyBuf writes a string that is expected to equal orig: while it does,
// it only counts, and it allocates at the first byte that differs. So a
// normalization that changes nothing allocates nothing.
type lazyBuf struct {
	orig  string
	n     int    // bytes written
	b     []byte // nil while the output is orig[:n]
	stray int    // 1 + the output offset of the last stray "%" written, 0 for none
}

// at returns the output byte at offset i < w.n.
func (w *lazyBuf) at(i int) byte {
	if w.b == nil {
		return w.orig[i]
	}
	return w.b[i]
}

// joinsStray reports whether writing the hexadecimal digit d next would
// complete a triplet with a stray "%" already written: the output ends
// with that "%", or with it and one hexadecimal digit.
func (w *lazyBuf) joinsStray() bool {
	switch w.stray {
	case 0:
		return false
	case w.n: // the "%" is the last byte written
		return true
	case w.n - 1:
		return chars.Is(w.at(w.n-1), chars.Hex)
	}
	return false
}

func (w *lazyBuf) diverge(extra int) {
	w.b = make([]byte, w.n, len(w.orig)+extra+16)
	copy(w.b, w.orig[:w.n])
}

func (w *lazyBuf) writeByte(c byte) {
	if w.b == nil {
		if w.n < len(w.orig) && w.orig[w.n] == c {
			w.n++
			return
		}
		w.diverge(1)
	}
	w.b = append(w.b, c)
	w.n++
}

func (w *lazyBuf) writeString(x string) {
	if w.b == nil {
		if w.n+len(x) <= len(w.orig) && w.orig[w.n:w.n+len(x)] == x {
			w.n += len(x)
			return
		}
		w.diverge(len(x))
	}
	w.b = append(w.b, x...)
	w.n += len(x)
}

// changed reports whether the output differs from orig (so far, or
// because it is shorter).
func (w *lazyBuf) changed() bool { return w.b != nil || w.n != len(w.orig) }

func (w *lazyBuf) String() string {
	if w.b == nil {
		return w.orig[:w.n]
	}
	return string(w.b)
}

// normEscapes writes s with its triplets normalized: uppercase hex, and
// triplets of bytes in class unres decoded. With lower, ASCII letters
// outside triplets (and decoded ones) are lowercased, as for a host.
func (w *lazyBuf) normEscapes(s string, unres chars.Class, lower bool) {
	for i := 0; i < len(s); i++ {
		// Copy the run up to the next "%" at once.
		j := strings.IndexByte(s[i:], '%')
		if j < 0 {
			j = len(s) - i
		}
		if lower {
			w.writeLower(s[i : i+j])
		} else {
			w.writeString(s[i : i+j])
		}
		if i += j; i == len(s) {
			return
		}
		if chars.PctError(s, i) < 0 {
			d := byte(chars.Unhex(s[i+1])<<4 | chars.Unhex(s[i+2]))
			// A decoded hexadecimal digit right after a stray "%" would
			// make a new triplet ("%%32%65" would become "%2e", and a
			// second pass "."): such a triplet stays encoded, so the
			// normalization is idempotent on every string (issue 7,
			// defect 4).
			if chars.Is(d, unres) && !(chars.Is(d, chars.Hex) && w.joinsStray()) {
				if lower {
					d = chars.Lower(d)
				}
				w.writeByte(d)
			} else {
				w.writeByte('%')
				w.writeByte(chars.Upper(s[i+1]))
				w.writeByte(chars.Upper(s[i+2]))
			}
			i += 2
			continue
		}
		w.writeByte('%')
		w.stray = w.n // 1 + its offset
	}
}

// writeLower writes s in ASCII lowercase: each run without an uppercase
// letter at once (a host or a scheme is most often all of one run).
func (w *lazyBuf) writeLower(s string) {
	for {
		j := chars.IndexUpper(s)
		if j < 0 {
			w.writeString(s)
			return
		}
		w.writeString(s[:j])
		w.writeByte(s[j] + ('a' - 'A'))
		s = s[j+1:]
	}
}

// normEscapesString returns s normalized as normEscapes writes it,
// allocating only when it changes.
func normEscapesString(s string, unres chars.Class, lower bool) string {
	w := lazyBuf{orig: s}
	w.normEscapes(s, unres, lower)
	return w.String()
}
