package whatwg

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/urikit/urikit/internal/uts46"
)

// The two runs of UTS #46 ToASCII the domain parser makes (section 3.3,
// "domain parser ToASCII"): CheckHyphens, UseSTD3ASCIIRules and
// VerifyDnsLength set to beStrict; CheckBidi and CheckJoiners true;
// Transitional_Processing false. MapForLookup gives the UTS #46 mapping
// and validity tables (and sets STD3 rules and label checks, which the
// options after it set back to what the standard asks).
var (
	lenientIDNA = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.Transitional(false),
		idna.CheckHyphens(false), idna.CheckJoiners(true), idna.StrictDomainName(false),
		idna.VerifyDNSLength(false))
	strictIDNA = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.Transitional(false),
		idna.CheckHyphens(true), idna.CheckJoiners(true), idna.StrictDomainName(true),
		idna.VerifyDNSLength(true))
)

// host runs the host parser (section 3.5) on s, with isOpaque when the
// URL is not special, and writes the host serializer's output (section
// 3.6). It returns the kind of host, or false on failure (p.fail set).
// off is the offset of s in p.in, for the error.
// pre, when not nil, is what scanLDH says of s, found by the caller's
// own pass.
func (p *parser) host(s string, special bool, off int, pre *ldhScan) (HostKind, bool) {
	if len(s) > 0 && s[0] == '[' {
		if len(s) < 2 || s[len(s)-1] != ']' {
			return 0, p.failAt(IPv6Unclosed, off)
		}
		a, e, ok := parseIPv6(s[1:len(s)-1], &p.errs)
		if !ok {
			return 0, p.failAt(e, off)
		}
		var buf [48]byte
		b := append(buf[:0], '[')
		b = appendIPv6(b, &a)
		b = append(b, ']')
		p.w.bytes(b)
		return IPv6, true
	}
	if !special {
		return p.opaqueHost(s, off)
	}
	domain := s
	if pre != nil && pre.ldh {
		// No '%' in an LDH host: the domain is s.
	} else if strings.IndexByte(s, '%') >= 0 {
		for i := 0; i < len(s); i++ {
			if s[i] == '%' && validPercent(s, i) {
				p.errs.add(DomainPercentEncoded)
				break
			}
		}
		domain = percentDecode(s)
	}
	// The domain parser (section 3.3), its result written in place.
	w := &p.w
	start := w.len()
	var sc ldhScan
	if pre != nil && domain == s {
		sc = *pre
	} else {
		sc.ldh, sc.strict, sc.numeric = scanLDH(domain)
	}
	if ldh, strict, numeric := sc.ldh, sc.strict, sc.numeric; ldh {
		// The common case, lowercase letters, digits, '-' and '.': the
		// domain is its own result, and one pass told what the strict
		// ToASCII and the ends-in-a-number checker need.
		if !strict && !strictOK(domain) {
			p.errs.add(DomainToASCII)
		}
		if !numeric {
			if pre != nil && domain == s {
				// s is p.in[off:]: nothing to compare.
				w.copyIn(off, off+len(s))
			} else {
				w.str(domain)
			}
			return Domain, true
		}
	}
	if isASCII(domain) {
		// An ASCII domain is lowercased whatever UTS #46 says of it; the
		// strict ToASCII only decides the validation error.
		p.writeLower(domain)
		if !strictASCIIOK(w.from(start)) && !strictOK(w.from(start)) {
			p.errs.add(DomainToASCII)
		}
	} else {
		if !p.unicodeToASCII(domain) {
			return 0, p.failAt(DomainToASCII, off)
		}
	}
	ascii := w.from(start)
	if ascii == "" {
		return 0, p.failAt(DomainToASCII, off)
	}
	for i := 0; i < len(ascii); i++ {
		if class[ascii[i]]&forbiddenDomain != 0 {
			return 0, p.failAt(DomainToASCII, off)
		}
	}
	if endsInNumber(ascii) {
		v, e, ok := parseIPv4(ascii, &p.errs)
		if !ok {
			return 0, p.failAt(e, off)
		}
		w.truncate(start)
		var buf [16]byte
		w.bytes(appendIPv4(buf[:0], v))
		return IPv4, true
	}
	return Domain, true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// unicodeToASCII is the domain parser for a domain with non-ASCII code
// points, its result written out: UTS #46 ToASCII with the lenient
// flags gives the result, and the strict one's failure is a
// domain-to-ASCII validation error. (Its own function, so that the
// buffer on its stack does not weigh on the host parser's.)
//
//go:noinline
func (p *parser) unicodeToASCII(domain string) bool {
	if !utf8.ValidString(domain) {
		// U+FFFD, which every ToASCII run refuses.
		p.errs.add(DomainToASCII)
		return false
	}
	fixed, ok := fixUTS46(domain)
	if !ok {
		p.errs.add(DomainToASCII)
		return false
	}
	var buf [256]byte
	r, err := uts46.AppendToASCII(buf[:0], lenientIDNA, fixed)
	if err != nil {
		p.errs.add(DomainToASCII)
		return false
	}
	// The strict run maps, decodes and encodes as the lenient one does:
	// when it succeeds, its result is r. A label or a domain too long
	// for the DNS is then its error, which spares encoding a long label
	// twice; on a result short enough, x/net/idna's ToASCII decides.
	if !dnsLengthOK(r) {
		p.errs.add(DomainToASCII)
	} else if _, err := strictIDNA.ToASCII(fixed); err != nil {
		p.errs.add(DomainToASCII)
	}
	p.w.bytes(r)
	return true
}

// dnsLengthOK reports whether the ASCII domain a passes UTS #46's
// VerifyDnsLength (section 4.2 step 4): 1 to 253 bytes without the root
// label and its dot, and every other label 1 to 63 bytes.
func dnsLengthOK(a []byte) bool {
	n := len(a)
	if n > 0 && a[n-1] == '.' {
		n--
	}
	if n < 1 || n > 253 {
		return false
	}
	start := 0
	for i := 0; i <= n; i++ {
		if i == n || a[i] == '.' {
			if l := i - start; l < 1 || l > 63 {
				return false
			}
			start = i + 1
		}
	}
	return true
}

// strictVerdicts remembers whether the strict ToASCII accepts an ASCII
// domain that strictASCIIOK cannot decide alone (a "xn--" label, an
// underscore): x/net/idna allocates, and such hosts recur in a stream.
// It stops growing at strictCacheMax entries, so hostile input cannot
// make it grow without bound.
var (
	strictVerdicts sync.Map // string → bool
	strictCount    atomic.Int64
)

const strictCacheMax = 4096

// strictOK reports whether the strict ToASCII accepts the ASCII domain s.
func strictOK(s string) bool {
	if v, ok := strictVerdicts.Load(s); ok {
		return v.(bool)
	}
	_, err := strictIDNA.ToASCII(s)
	if strictCount.Load() < strictCacheMax {
		strictCount.Add(1)
		strictVerdicts.Store(strings.Clone(s), err == nil)
	}
	return err == nil
}

// ldhScan is what scanLDH says of a host.
type ldhScan struct {
	ldh, strict, numeric bool
}

// ldhClass: 1 for a lowercase letter, 2 for a digit, 3 for '-', 4 for '.'.
var ldhClass = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = 1
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = 2
	}
	t['-'], t['.'] = 3, 4
	return t
}()

// scanLDH reports whether s is non-empty and made of lowercase letters,
// digits, '-' and '.' only; if so, whether strictASCIIOK holds for it,
// and whether it may end in a number (its last label, a trailing dot
// aside, is all digits or starts with "0x").
func scanLDH(s string) (ldh, strict, numeric bool) {
	if s == "" {
		return false, false, false
	}
	strict = len(s) <= 253
	start := 0
	digits := true
	for i := 0; i < len(s); i++ {
		k := ldhClass[s[i]]
		switch k {
		case 0:
			return false, false, false
		case 4:
			if !labelOK(s[start:i]) {
				strict = false
			}
			start = i + 1
			digits = true
			continue
		case 1, 3:
			digits = false
		}
	}
	last := s[start:]
	if last != "" && !labelOK(last) || last == "" && start == 0 {
		strict = false
	}
	if last == "" && start > 0 {
		// A trailing dot: the ends-in-a-number checker looks before it.
		prev := s[:start-1]
		last = prev[strings.LastIndexByte(prev, '.')+1:]
		digits = last != "" && strings.Trim(last, "0123456789") == ""
	}
	numeric = digits && last != "" || len(last) >= 2 && last[0] == '0' && last[1] == 'x'
	return true, strict, numeric
}

// labelOK: 1 to 63 bytes, no hyphen first or last, none in both the
// third and fourth places.
func labelOK(l string) bool {
	n := len(l)
	return n > 0 && n <= 63 && l[0] != '-' && l[n-1] != '-' && !(n >= 4 && l[2] == '-' && l[3] == '-')
}

// strictASCIIOK reports, for a lowercase ASCII domain, that the strict
// ToASCII surely succeeds on it: labels of 1 to 63 letters, digits and
// hyphens, no hyphen first or last or in both the third and fourth
// places (so no "xn--" label either), 253 bytes at most. When it says
// false, the strict ToASCII itself decides.
func strictASCIIOK(s string) bool {
	if len(s) == 0 || len(s) > 253 {
		return false
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '.' {
			c := s[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
			continue
		}
		n := i - start
		if n == 0 || n > 63 || s[start] == '-' || s[i-1] == '-' || n >= 4 && s[start+2] == '-' && s[start+3] == '-' {
			return false
		}
		start = i + 1
	}
	return true
}

// opaqueHost is the opaque-host parser (section 3.5).
func (p *parser) opaqueHost(s string, off int) (HostKind, bool) {
	for i := 0; i < len(s); i++ {
		if class[s[i]]&forbiddenHost != 0 {
			return 0, p.failAt(HostInvalidCodePoint, off+i)
		}
	}
	if s == "" {
		return EmptyHost, true
	}
	p.encode(s, setC0, 0, true)
	return OpaqueHost, true
}

// endsInNumber is the ends-in-a-number checker (section 3.5).
func endsInNumber(s string) bool {
	if strings.HasSuffix(s, ".") {
		s = s[:len(s)-1]
	}
	last := s[strings.LastIndexByte(s, '.')+1:]
	if last == "" {
		return false
	}
	digits := true
	for i := 0; i < len(last); i++ {
		if last[i] < '0' || last[i] > '9' {
			digits = false
			break
		}
	}
	if digits {
		return true
	}
	if len(last) >= 2 && last[0] == '0' && (last[1] == 'x' || last[1] == 'X') {
		for i := 2; i < len(last); i++ {
			if !isHex(last[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// parseIPv4 is the IPv4 parser (section 3.5).
func parseIPv4(s string, errs *errorSet) (uint32, ValidationError, bool) {
	if strings.HasSuffix(s, ".") {
		errs.add(IPv4EmptyPart)
		if len(s) > 1 {
			s = s[:len(s)-1]
		}
	}
	n := strings.Count(s, ".") + 1
	if n > 4 {
		errs.add(IPv4TooManyParts)
		return 0, IPv4TooManyParts, false
	}
	if n < 4 {
		errs.add(IPv4TooFewParts)
	}
	var nums [4]uint64
	for i := 0; i < n; i++ {
		part := s
		if k := strings.IndexByte(s, '.'); k >= 0 {
			part, s = s[:k], s[k+1:]
		}
		v, nonDecimal, ok := parseIPv4Number(part)
		if !ok {
			errs.add(IPv4NonNumericPart)
			return 0, IPv4NonNumericPart, false
		}
		if nonDecimal {
			errs.add(IPv4NonDecimalPart)
		}
		nums[i] = v
	}
	last := n - 1
	for i := 0; i <= last; i++ {
		if nums[i] > 255 {
			errs.add(IPv4OutOfRangePart)
			if i < last {
				return 0, IPv4OutOfRangePart, false
			}
		}
	}
	if nums[last] >= 1<<(8*(4-last)) {
		return 0, IPv4OutOfRangePart, false
	}
	v := nums[last]
	for i := 0; i < last; i++ {
		v += nums[i] << (8 * (3 - i))
	}
	return uint32(v), 0, true
}

// parseIPv4Number is the IPv4 number parser (section 3.5). Values above
// 2^32 are capped there: they fail the range checks all the same.
func parseIPv4Number(s string) (n uint64, nonDecimal, ok bool) {
	if s == "" {
		return 0, false, false
	}
	radix := uint64(10)
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		nonDecimal, radix, s = true, 16, s[2:]
	} else if len(s) >= 2 && s[0] == '0' {
		nonDecimal, radix, s = true, 8, s[1:]
	}
	if s == "" {
		return 0, true, true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d uint64
		switch {
		case '0' <= c && c <= '9':
			d = uint64(c - '0')
		case 'a' <= c && c <= 'f':
			d = uint64(c-'a') + 10
		case 'A' <= c && c <= 'F':
			d = uint64(c-'A') + 10
		default:
			return 0, false, false
		}
		if d >= radix {
			return 0, false, false
		}
		if n < 1<<40 {
			n = n*radix + d
		}
	}
	return n, nonDecimal, true
}

// appendIPv4 is the IPv4 serializer (section 3.6).
func appendIPv4(b []byte, v uint32) []byte {
	for i := 3; i >= 0; i-- {
		b = strconv.AppendUint(b, uint64(v>>(8*i)&0xff), 10)
		if i > 0 {
			b = append(b, '.')
		}
	}
	return b
}

// parseIPv6 is the IPv6 parser (section 3.5). It returns the address
// and, on failure, the validation error that ends it.
func parseIPv6(s string, errs *errorSet) ([8]uint16, ValidationError, bool) {
	var a [8]uint16
	fail := func(e ValidationError) ([8]uint16, ValidationError, bool) {
		errs.add(e)
		return a, e, false
	}
	piece, compress := 0, -1
	i := 0
	at := func(i int) int { // the code point at i, or -1 at the end
		if i < len(s) {
			return int(s[i])
		}
		return -1
	}
	if at(0) == ':' {
		if at(1) != ':' {
			return fail(IPv6InvalidCompression)
		}
		i += 2
		piece++
		compress = piece
	}
	for at(i) != -1 {
		if piece == 8 {
			return fail(IPv6TooManyPieces)
		}
		if at(i) == ':' {
			if compress != -1 {
				return fail(IPv6MultipleCompression)
			}
			i++
			piece++
			compress = piece
			continue
		}
		value, length := 0, 0
		for length < 4 && i < len(s) && isHex(s[i]) {
			value = value*16 + int(unhex(s[i]))
			i++
			length++
		}
		if at(i) == '.' {
			if length == 0 {
				return fail(IPv4InIPv6InvalidCodePoint)
			}
			i -= length
			if piece > 6 {
				return fail(IPv4InIPv6TooManyPieces)
			}
			seen := 0
			for at(i) != -1 {
				v := -1
				if seen > 0 {
					if at(i) == '.' && seen < 4 {
						i++
					} else {
						return fail(IPv4InIPv6InvalidCodePoint)
					}
				}
				if c := at(i); c < '0' || c > '9' {
					return fail(IPv4InIPv6InvalidCodePoint)
				}
				for c := at(i); '0' <= c && c <= '9'; c = at(i) {
					n := c - '0'
					switch v {
					case -1:
						v = n
					case 0:
						return fail(IPv4InIPv6InvalidCodePoint)
					default:
						v = v*10 + n
					}
					if v > 255 {
						return fail(IPv4InIPv6OutOfRangePart)
					}
					i++
				}
				a[piece] = a[piece]*0x100 + uint16(v)
				seen++
				if seen == 2 || seen == 4 {
					piece++
				}
			}
			if seen != 4 {
				return fail(IPv4InIPv6TooFewParts)
			}
			break
		} else if at(i) == ':' {
			i++
			if at(i) == -1 {
				return fail(IPv6InvalidCodePoint)
			}
		} else if at(i) != -1 {
			return fail(IPv6InvalidCodePoint)
		}
		if length > 1 && value < 1<<(4*(length-1)) {
			errs.add(IPv6PieceLeadingZero)
		}
		a[piece] = uint16(value)
		piece++
	}
	if compress != -1 {
		swaps := piece - compress
		piece = 7
		for piece != 0 && swaps > 0 {
			a[piece], a[compress+swaps-1] = a[compress+swaps-1], a[piece]
			piece--
			swaps--
		}
	} else if piece != 8 {
		return fail(IPv6TooFewPieces)
	}
	return a, 0, true
}

// appendIPv6 is the IPv6 serializer (section 3.6), without brackets.
func appendIPv6(b []byte, a *[8]uint16) []byte {
	// The compressed piece: the first longest run of two or more zeros.
	compress, best := -1, 1
	for i := 0; i < 8; {
		if a[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && a[j] == 0 {
			j++
		}
		if j-i > best {
			compress, best = i, j-i
		}
		i = j
	}
	for i := 0; i < 8; i++ {
		if i == compress {
			if i == 0 {
				b = append(b, "::"...)
			} else {
				b = append(b, ':')
			}
			i += best - 1
			continue
		}
		b = strconv.AppendUint(b, uint64(a[i]), 16)
		if i != 7 {
			b = append(b, ':')
		}
	}
	return b
}
