package surt

import "strconv"

// parseIPv4 reads a host as an IPv4 address in any of the forms that
// inet_aton and the URL Standard accept (URL Standard 4.3, IPv4 parser;
// Safe Browsing: "any legal IP-address encoding, including octal, hex,
// and fewer than four components"): one to four dot-separated numbers,
// each decimal, octal with a leading "0" or hexadecimal with "0x", the
// last filling the remaining bytes ("10.0.258" is 10.0.1.2), and one
// trailing dot allowed. hex false refuses hexadecimal numbers. Anything
// else, an empty or out-of-range number among them, is not an IPv4
// address: the host stays a name.
func parseIPv4(h []byte, hex bool) (uint32, bool) {
	if len(h) > 0 && h[len(h)-1] == '.' {
		h = h[:len(h)-1]
	}
	if len(h) == 0 {
		return 0, false
	}
	var nums [4]uint64
	n := 0
	for start := 0; start <= len(h); {
		end := start
		for end < len(h) && h[end] != '.' {
			end++
		}
		if n == 4 {
			return 0, false
		}
		v, ok := ipv4Number(h[start:end], hex)
		if !ok {
			return 0, false
		}
		nums[n] = v
		n++
		start = end + 1
	}
	for k := 0; k < n-1; k++ {
		if nums[k] > 255 {
			return 0, false
		}
	}
	if nums[n-1] >= 1<<(8*(5-n)) {
		return 0, false
	}
	v := nums[n-1]
	for k := 0; k < n-1; k++ {
		v += nums[k] << (8 * (3 - k))
	}
	return uint32(v), true
}

// ipv4Number reads one number of an IPv4 address; values above 2^32
// saturate, which every range check then refuses.
func ipv4Number(s []byte, hex bool) (uint64, bool) {
	if len(s) == 0 {
		return 0, false
	}
	base := uint64(10)
	switch {
	case len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		if !hex {
			return 0, false
		}
		base, s = 16, s[2:]
		if len(s) == 0 { // "0x" is 0 (URL Standard, inet_aton)
			return 0, true
		}
	case len(s) >= 2 && s[0] == '0':
		base, s = 8, s[1:]
	}
	var v uint64
	for _, c := range s {
		var d uint64
		switch {
		case '0' <= c && c <= '9':
			d = uint64(c - '0')
		case 'a' <= c && c <= 'f':
			d = uint64(c-'a') + 10
		case 'A' <= c && c <= 'F':
			d = uint64(c-'A') + 10
		default:
			return 0, false
		}
		if d >= base {
			return 0, false
		}
		if v < 1<<33 {
			v = v*base + d
		}
	}
	return v, true
}

// parseIPv4IA reads a host as surt's GoogleURLCanonicalizer.attemptIPFormats
// does (internetarchive/surt, the IA profile's anchor): a host of decimal
// digits only is a 32-bit number, masked to its low 32 bits ("to
// workaround issue with liveweb arc files": "39024579298" is
// 22.11.210.226); a host that looks like dotted decimal or dotted octal
// (its regular expressions DECIMAL_IP and OCTAL_IP: digits and dots, no
// "0x") is what inet_aton makes of it; nothing else is an address.
func parseIPv4IA(h []byte) (uint32, bool) {
	if len(h) == 0 {
		return 0, false
	}
	digits := true
	for _, c := range h {
		if c < '0' || c > '9' {
			digits = false
			break
		}
	}
	if digits {
		var v uint32
		for _, c := range h {
			v = v*10 + uint32(c-'0') // wraps: the mask of surt
		}
		return v, true
	}
	// DECIMAL_IP ^([1-9][0-9]*)(\.[0-9]+){0,3}$ and
	// OCTAL_IP ^(0[0-7]*)(\.[0-7]+){0,3}$: both are digits and at most
	// three dots, none leading, trailing or doubled.
	dots := 0
	for k, c := range h {
		if c == '.' {
			if k == 0 || k == len(h)-1 || h[k-1] == '.' {
				return 0, false
			}
			if dots++; dots > 3 {
				return 0, false
			}
		} else if c < '0' || c > '9' {
			return 0, false
		}
	}
	if h[0] == '0' {
		for _, c := range h {
			if c == '8' || c == '9' {
				return 0, false
			}
		}
	}
	return parseIPv4(h, false)
}

// maxIPv4 is the longest dotted decimal address.
const maxIPv4 = len("255.255.255.255")

// appendIPv4 appends v in dotted decimal.
func appendIPv4(dst []byte, v uint32) []byte {
	for k := 3; k >= 0; k-- {
		dst = strconv.AppendUint(dst, uint64(v>>(8*k)&0xff), 10)
		if k > 0 {
			dst = append(dst, '.')
		}
	}
	return dst
}
