package uri

import (
	"github.com/urikit/urikit/internal/chars"
)

// regNameKind classifies a host that matched reg-name: RFC 3986 3.2.2
// says a host that also matches IPv4address is an IPv4 address.
func regNameKind(h string) HostKind {
	// An IPv4address ends with a digit: most names are told apart by
	// their last byte.
	if h != "" && h[len(h)-1] <= '9' && isIPv4(h) {
		return IPv4
	}
	return RegName
}

// isIPv4 reports whether h matches
//
//	IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet
//	dec-octet   = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
//
// that is, four decimal numbers 0-255 without leading zeros.
func isIPv4(h string) bool {
	octets, i := 0, 0
	for octets < 4 {
		j, ok := decOctet(h, i)
		if !ok {
			return false
		}
		octets++
		i = j
		if octets < 4 {
			if i >= len(h) || h[i] != '.' {
				return false
			}
			i++
		}
	}
	return i == len(h)
}

// decOctet scans a dec-octet at h[i:] and returns the offset past it.
func decOctet(h string, i int) (int, bool) {
	v, j := 0, i
	for j < len(h) && j-i < 3 && chars.Is(h[j], chars.Digit) {
		if j > i && v == 0 {
			return 0, false // leading zero
		}
		v = v*10 + int(h[j]-'0')
		j++
	}
	if j == i || v > 255 {
		return 0, false
	}
	return j, true
}

// Why an IP literal is invalid: the reasons say what is wrong, as
// net/netip's errors do, and all match ErrInvalidIPLiteral.
const (
	ipFutureVersion  = ipLiteralError(`IPvFuture needs a hexadecimal version after "v"`)
	ipFutureDot      = ipLiteralError(`IPvFuture needs "." after its version`)
	ipFutureEmpty    = ipLiteralError(`IPvFuture address is empty`)
	ipFutureChar     = ipLiteralError(`invalid character in IPvFuture address`)
	ip6LeadingColon  = ipLiteralError(`IPv6 address starts with a single ":"`)
	ip6TrailingColon = ipLiteralError(`IPv6 address ends with a single ":"`)
	ip6LongGroup     = ipLiteralError(`IPv6 group has more than 4 hexadecimal digits`)
	ip6TooManyGroups = ipLiteralError(`IPv6 address has more than 8 groups`)
	ip6TooFewGroups  = ipLiteralError(`IPv6 address without "::" has fewer than 8 groups`)
	ip6DoubleColon   = ipLiteralError(`IPv6 address has more than one "::"`)
	ip6TripleColon   = ipLiteralError(`IPv6 address has ":::"`)
	ip6Char          = ipLiteralError(`invalid character in IPv6 address`)
	ip4Position      = ipLiteralError(`IPv4 part of an IPv6 address must be its last 32 bits`)
	ip4Empty         = ipLiteralError(`empty octet in IPv4 part`)
	ip4NotDecimal    = ipLiteralError(`non-decimal digit in IPv4 part`)
	ip4LeadingZero   = ipLiteralError(`octet with a leading zero in IPv4 part`)
	ip4Above255      = ipLiteralError(`octet above 255 in IPv4 part`)
	ip4Short         = ipLiteralError(`IPv4 part has fewer than 4 octets`)
	ipZoneEncoding   = ipLiteralError(`zone identifier must follow "%25" (RFC 6874)`)
	ipZoneEmpty      = ipLiteralError(`empty zone identifier`)
	ipMissingBracket = ipLiteralError(`want "]" after the address`)
)

// parseIPLiteral parses an IP-literal starting at s[i] == '[' and returns
// the offset past its "]".
//
//	IP-literal = "[" ( IPv6address / IPvFuture  ) "]"
//	IPvFuture  = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
//	IPv6addrz  = IPv6address "%25" ZoneID           ; RFC 6874
//	ZoneID     = 1*( unreserved / pct-encoded )
func parseIPLiteral(s string, i int, zoneID bool) (int, HostKind, error) {
	n := len(s)
	i++
	if i < n && (s[i] == 'v' || s[i] == 'V') {
		i++
		j := i
		for i < n && chars.Is(s[i], chars.Hex) {
			i++
		}
		if i == j {
			return 0, 0, fail(s, i, ComponentHost, ipFutureVersion)
		}
		if i >= n || s[i] != '.' {
			return 0, 0, fail(s, i, ComponentHost, ipFutureDot)
		}
		i++
		j = i
		for i < n && chars.Is(s[i], chars.FutureTail) {
			i++
		}
		switch {
		case i < n && s[i] == ']' && i > j:
			return i + 1, IPvFuture, nil
		case i == j:
			return 0, 0, fail(s, i, ComponentHost, ipFutureEmpty)
		}
		return 0, 0, fail(s, i, ComponentHost, ipFutureChar)
	}
	i, err := scanIPv6(s, i, zoneID)
	if err != nil {
		return 0, 0, err
	}
	return i, IPv6, nil
}

// scanIPv6 scans the IPv6address of RFC 3986 3.2.2 (and a zone, if
// zoneID allows it) from i up to and including the closing "]". It is a
// state machine rather than the nine alternatives of the ABNF so that it
// fails at the first byte after which no completion is valid:
//
//   - without "::", exactly 8 groups, the last two possibly an IPv4address;
//   - with one "::", at most 7 explicit groups (it stands for at least one);
//   - an h16 has 1 to 4 hex digits; an IPv4 part comes last and counts as 2.
func scanIPv6(s string, i int, zoneID bool) (int, error) {
	n := len(s)
	groups := 0  // completed groups
	run := 0     // hex digits of the current group
	colons := 0  // consecutive colons just read
	dbl := false // "::" seen
	bad := func(off int, why error) (int, error) { return 0, fail(s, off, ComponentHost, why) }
	for ; i < n; i++ {
		c := s[i]
		switch {
		case chars.Is(c, chars.Hex):
			switch {
			case colons == 1 && groups == 0:
				return bad(i, ip6LeadingColon) // a leading ":" must be "::"
			case run == 4:
				return bad(i, ip6LongGroup)
			case run == 0 && (dbl && groups >= 7 || groups >= 8):
				return bad(i, ip6TooManyGroups)
			}
			run++
			colons = 0
		case c == ':':
			switch {
			case run > 0:
				groups++
				run = 0
				colons = 1
				// Another group, or "::", must be able to follow.
				if dbl && groups > 6 || groups > 7 {
					return bad(i, ip6TooManyGroups)
				}
			case colons == 1 && !dbl:
				dbl = true
				colons = 2
			case colons == 0 && groups == 0 && !dbl:
				colons = 1 // leading colon
			case colons == 2:
				return bad(i, ip6TripleColon)
			default:
				return bad(i, ip6DoubleColon)
			}
		case c == '.':
			// The current group was the first dec-octet of an IPv4address,
			// which must come last and count as two groups.
			if run == 0 {
				return bad(i, ip4Empty)
			}
			if why := octetProblem(s[i-run : i]); why != nil {
				return bad(i, why)
			}
			if !ipv4Fits(groups, dbl) {
				return bad(i, ip4Position)
			}
			j, why := scanIPv4Tail(s, i+1)
			if why != nil {
				return bad(j, why)
			}
			return closeIPv6(s, j, zoneID)
		case c == ']' || c == '%':
			total := groups
			if run > 0 {
				total++
			}
			if colons == 1 {
				return bad(i, ip6TrailingColon)
			}
			if !dbl && total != 8 {
				return bad(i, ip6TooFewGroups)
			}
			return closeIPv6(s, i, zoneID)
		default:
			return bad(i, ip6Char)
		}
	}
	return bad(n, ErrUnexpectedEnd)
}

// octetProblem says why x, the digits before the first "." of an IPv4
// part, is not a dec-octet, or returns nil.
func octetProblem(x string) error {
	for i := 0; i < len(x); i++ {
		if !chars.Is(x[i], chars.Digit) {
			return ip4NotDecimal
		}
	}
	if j, ok := decOctet(x, 0); ok && j == len(x) {
		return nil
	}
	if len(x) > 1 && x[0] == '0' {
		return ip4LeadingZero
	}
	return ip4Above255
}

// ipv4Fits reports whether an IPv4address (two groups, last) may follow
// groups completed groups.
func ipv4Fits(groups int, dbl bool) bool {
	if dbl {
		return groups+2 <= 7
	}
	return groups == 6
}

// scanIPv4Tail scans the last three dec-octets of an IPv4address
// starting at i. It returns the offset past them, or the offset of the
// first offending byte and the reason.
func scanIPv4Tail(s string, i int) (int, error) {
	for octet := 1; octet < 4; octet++ {
		v, j := 0, i
		for j < len(s) && chars.Is(s[j], chars.Digit) {
			if j > i && v == 0 {
				return j, ip4LeadingZero
			}
			if v = v*10 + int(s[j]-'0'); v > 255 {
				return j, ip4Above255
			}
			j++
		}
		if j == i {
			if j < len(s) && (s[j] == ']' || s[j] == '.') {
				return j, ip4Empty
			}
			return j, ip6Char
		}
		i = j
		if octet < 3 {
			if i >= len(s) || s[i] != '.' {
				if i < len(s) && (s[i] == ']' || s[i] == '%') {
					return i, ip4Short
				}
				return i, ip6Char
			}
			i++
		}
	}
	return i, nil
}

// closeIPv6 reads an optional zone and the "]" at s[i].
func closeIPv6(s string, i int, zoneID bool) (int, error) {
	n := len(s)
	if i < n && s[i] == '%' {
		if !zoneID {
			return 0, fail(s, i, ComponentHost, ErrZoneID)
		}
		if i+1 >= n || s[i+1] != '2' {
			return 0, fail(s, i+1, ComponentHost, ipZoneEncoding)
		}
		if i+2 >= n || s[i+2] != '5' {
			return 0, fail(s, i+2, ComponentHost, ipZoneEncoding)
		}
		i += 3
		j := i
		for i < n {
			if chars.Is(s[i], chars.Unreserved) {
				i++
				continue
			}
			if s[i] == '%' {
				if e := chars.PctError(s, i); e >= 0 {
					return 0, fail(s, e, ComponentHost, ErrInvalidPercent)
				}
				i += 3
				continue
			}
			break
		}
		if i == j {
			return 0, fail(s, i, ComponentHost, ipZoneEmpty)
		}
	}
	if i >= n || s[i] != ']' {
		return 0, fail(s, i, ComponentHost, ipMissingBracket)
	}
	return i + 1, nil
}
