package extract

import (
	"strings"
	"unicode/utf8"
)

// abbrevAt reports whether the "." at buf[c] ends the "www" or "ftp"
// and digits that start a token (after opening brackets or quotes), and
// returns the start of that token, or -1 when it is not certain.
func (s *Scanner) abbrevAt(lo, c int) (int, bool) {
	b := s.buf[:c]
	p := c
	for p > lo && '0' <= b[p-1] && b[p-1] <= '9' {
		p--
	}
	if p-3 < lo {
		return 0, false
	}
	switch x, y, z := b[p-3]|0x20, b[p-2]|0x20, b[p-1]|0x20; {
	case x == 'w' && y == 'w' && z == 'w' && p == c, x == 'f' && y == 't' && z == 'p':
		p -= 3
	default:
		return 0, false
	}
	for p > lo && class[b[p-1]]&cOpen != 0 {
		p--
	}
	if p == lo {
		return p, true
	}
	if x := b[p-1]; x < utf8.RuneSelf {
		if class[x]&cStop == 0 {
			return 0, false
		}
	} else if r, _ := utf8.DecodeLastRune(b[lo:p]); !isStop(r) {
		return 0, false
	}
	if afterHyphen(b[lo:p]) {
		return -1, true
	}
	return p, true
}

// abbrevStart reports whether a token may be an abbreviated URL of
// Appendix F: after opening brackets or quotes, "www." or "ftp",
// optional digits and ".".
func abbrevStart(b []byte) bool {
	i := 0
	for i < len(b) && class[b[i]]&cOpen != 0 {
		i++
	}
	b = b[i:]
	if len(b) >= 4 && b[0]|0x20 == 'w' && b[1]|0x20 == 'w' && b[2]|0x20 == 'w' && b[3] == '.' {
		return true
	}
	if len(b) < 4 || b[0]|0x20 != 'f' || b[1]|0x20 != 't' || b[2]|0x20 != 'p' {
		return false
	}
	k := 3
	for k < len(b) && '0' <= b[k] && b[k] <= '9' {
		k++
	}
	return k < len(b) && b[k] == '.'
}

// abbrevPrefix returns the scheme and "//" that complete cand, an
// abbreviated URL of Appendix F ("www." and a host with a dot as http,
// "ftp", optional digits and "." as ftp), or "".
func abbrevPrefix(cand string) string {
	prefix := ""
	switch {
	case len(cand) >= 4 && strings.EqualFold(cand[:4], "www."):
		prefix = "http://"
	case len(cand) >= 3 && strings.EqualFold(cand[:3], "ftp"):
		k := 3
		for k < len(cand) && '0' <= cand[k] && cand[k] <= '9' {
			k++
		}
		if k < len(cand) && cand[k] == '.' {
			prefix = "ftp://"
		}
	}
	if prefix == "" {
		return ""
	}
	host := cand
	if k := strings.IndexAny(host, "/?#:"); k >= 0 {
		host = host[:k]
	}
	if strings.Count(host, ".") < 2 || strings.HasSuffix(host, ".") || strings.Contains(host, "@") || strings.Contains(cand, "@") && !strings.Contains(cand, "/") {
		return "" // a host with a dot after the prefix, and not a mail address
	}
	return prefix
}

// abbrev finds an abbreviated URL of Appendix F at text[i] and returns
// the offset after it, or i.
func (s *Scanner) abbrev(raw, text string, js lineJoins, i int, start int64) int {
	end := trimEnd(text, i)
	cand := text[i:end]
	prefix := abbrevPrefix(cand)
	if prefix == "" {
		return i
	}
	hyphen := js.hyphenIn(i, end)
	if hyphen >= 0 {
		hyphen += len(prefix)
	}
	rs, re := js.rawStart(i), js.rawEnd(end)
	m, ok := s.check(prefix+cand, raw[rs:re], start+int64(rs), start+int64(re), None, hyphen, false)
	if !ok {
		return i
	}
	m.Abbrev = true
	s.pending = append(s.pending, m)
	return end
}
