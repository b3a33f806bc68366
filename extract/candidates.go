package extract

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/urikit/urikit/scheme"
	"github.com/urikit/urikit/uri"
)

// step finds the next matches. It returns false at the end of the
// input (or record).
//
// Most text cannot hold a URI: only a token with a ":", a "<" or a '"'
// (and with Abbrev a token that starts with "w" or "f") can. step
// jumps from one such byte to the next with bytes.IndexByte, finds
// where the token around it starts, and hands that piece to forward,
// the exact scan. Where the start of the token is not certain (the
// token may go on from the line before, after a hyphen), forward scans
// the text from the last certain point, s.off: from there it reads the
// same as if it had scanned everything.
func (s *Scanner) step() bool {
	for s.head == len(s.pending) {
		lo := s.idx(s.off)
		if lo >= s.end {
			if s.final {
				return false
			}
			s.fill(lo)
			continue
		}
		if s.off < s.fwd {
			s.forward()
			continue
		}
		s.scan = max(s.scan, s.off)
		c := s.nextEvent()
		b := s.buf[:s.end]
		if c == len(b) {
			// No candidate in the data: the text read so far holds no
			// URI. Keep at most what a candidate needs.
			s.scan = s.base + int64(c)
			if s.final {
				s.off = s.scan
				return false
			}
			if c-lo > s.o.MaxLen+lookAhead {
				q := s.safePoint(lo, c)
				if q < 0 {
					s.fwd = s.scan // a long token: the exact scan skips it
					continue
				}
				s.off = s.base + int64(q)
			}
			s.fill(s.idx(s.off))
			continue
		}
		switch b[c] {
		case '<', '"':
			s.off = s.base + int64(c)
			s.forward()
		case ':':
			if t, ok := s.tokenStart(lo, c); ok {
				s.off = s.base + int64(t)
				s.forward()
			} else {
				s.fwd = s.base + int64(c) + 1
			}
		default: // "." with Abbrev
			p, ok := s.abbrevAt(lo, c)
			switch {
			case !ok:
				s.scan = s.base + int64(c) + 1
			case p < 0:
				s.fwd = s.base + int64(c) + 1
			default:
				s.off = s.base + int64(p)
				s.forward()
			}
		}
	}
	return true
}

// A needle is a byte step looks for.
type needle struct {
	c    byte
	at   int64 // offset of the next c from the last search on, or -1
	upTo int64 // with at == -1: the data before this offset holds no c
}

// nextEvent returns the index in buf of the first byte from s.scan on
// that may start a candidate, or s.end. Each needle remembers where it
// is, so that a byte is searched once for each.
func (s *Scanner) nextEvent() int {
	best := s.end
	for k := range s.needles {
		nd := &s.needles[k]
		if nd.at < s.scan {
			from := max(s.scan, nd.upTo)
			if j := bytes.IndexByte(s.buf[s.idx(from):s.end], nd.c); j >= 0 {
				nd.at = from + int64(j)
			} else {
				nd.at, nd.upTo = -1, s.base+int64(s.end)
			}
		}
		if nd.at >= 0 {
			best = min(best, s.idx(nd.at))
		}
	}
	return best
}

// resetNeedles forgets the needles' positions (offsets restart in a new
// record).
func (s *Scanner) resetNeedles() {
	s.needles = s.needles[:0]
	s.needles = append(s.needles, needle{c: ':'}, needle{c: '<'}, needle{c: '"'})
	if s.o.Abbrev {
		// Appendix F's "www." and "ftp." hosts: the dot is rarer in
		// prose than the letters.
		s.needles = append(s.needles, needle{c: '.'})
	}
	for k := range s.needles {
		s.needles[k].at = -1
	}
	s.scan, s.fwd = 0, 0
}

// tokenStart returns the start of the token that holds buf[c], when
// it is certain: after a stop character that is not the line break or
// indentation after a hyphen, or at lo, where nothing goes on from
// before.
func (s *Scanner) tokenStart(lo, c int) (int, bool) {
	b := s.buf[:c]
	k := c
	for k > lo {
		if x := b[k-1]; x < utf8.RuneSelf {
			if class[x]&cStop != 0 {
				break
			}
			k--
		} else {
			r, n := utf8.DecodeLastRune(b[lo:k])
			if isStop(r) {
				break
			}
			k -= n
		}
		if c-k > s.o.MaxLen {
			return 0, false // too long: the exact scan skips it
		}
	}
	if k > lo && afterHyphen(b[lo:k]) {
		return 0, false
	}
	return k, true
}

// safePoint returns the index of the last ASCII stop in buf[lo:end]
// after which no token goes on from before, looking back at most a
// candidate's length, or -1.
func (s *Scanner) safePoint(lo, end int) int {
	b := s.buf[:end]
	stop := max(lo, end-s.o.MaxLen-lookAhead)
	for k := end - 1; k >= stop; k-- {
		if class[b[k]]&cStop != 0 && !afterHyphen(b[lo:k+1]) {
			return k
		}
	}
	return -1
}

// forward reads the piece of text at s.off: a stop character, a
// wrapped candidate or a token, and queues its matches.
func (s *Scanner) forward() {
	c := s.buf[s.idx(s.off)]
	switch k := class[c]; {
	case k&cStop != 0:
		switch c {
		case '<':
			s.angle()
		case '"':
			s.quote()
		default:
			s.off++
		}
		return
	case k&cHigh != 0:
		r, n, _ := s.runeAt(s.off, s.off)
		if isStop(r) {
			s.off += int64(n)
			return
		}
	}
	s.token()
}

// token skips a token that cannot hold a URI, without copying it, and
// hands the others to bare.
func (s *Scanner) token() {
	t := s.idx(s.off)
	k := t
	colon := false
	for {
		if k >= s.end {
			if s.final || k-t > s.o.MaxLen {
				break
			}
			s.fill(t)
			k -= t
			t = s.idx(s.off) // the data may have moved
			k += t
			continue
		}
		c := s.buf[k]
		cl := class[c]
		if cl&(cStop|cColon|cHigh) == 0 {
			k++
			continue
		}
		if cl&cStop != 0 {
			break
		}
		if c == ':' {
			colon = true
			k++
			continue
		}
		r, n, _ := s.runeAt(s.off, s.off+int64(k-t))
		k -= t
		t = s.idx(s.off)
		k += t
		if isStop(r) {
			break
		}
		k += n
	}
	if colon || k-t > s.o.MaxLen || s.o.Abbrev && abbrevStart(s.buf[t:k]) ||
		k < s.end && k > t && s.buf[k-1] == '-' && (s.buf[k] == '\n' || s.buf[k] == '\r') {
		s.bare()
		return
	}
	s.off = s.base + int64(k)
}

// bare reads a token up to a stop character, going on after a hyphen
// that ends a line, and finds the URIs in it.
func (s *Scanner) bare() {
	t := s.off
	k := t
	for k-t <= int64(s.o.MaxLen) {
		r, n, ok := s.runeAt(t, k)
		if !ok {
			break
		}
		if !isStop(r) {
			k += int64(n)
			continue
		}
		if (r == '\n' || r == '\r') && k > t && s.buf[s.idx(k-1)] == '-' {
			if next, ok := s.join(t, k); ok {
				k = next
				continue
			}
		}
		break
	}
	if k-t > int64(s.o.MaxLen) {
		s.off = k
		s.skipToStop()
		return
	}
	s.off = k
	raw := s.slice(t, k)
	// Most tokens are words: only one with a ":" can hold a URI, or,
	// with Abbrev, one with a ".".
	if bytes.IndexByte(raw, ':') < 0 && (!s.o.Abbrev || bytes.IndexByte(raw, '.') < 0) {
		return
	}
	s.tokens(string(raw), t)
}

// skipToStop skips text up to the next stop character (after a
// candidate over MaxLen).
func (s *Scanner) skipToStop() {
	for {
		r, n, ok := s.runeAt(s.off, s.off)
		if !ok || isStop(r) {
			return
		}
		s.off += int64(n)
	}
}

// tokens finds the bare URIs in raw, text without stop characters
// (except the line breaks after hyphens of a bare token) that starts at
// input offset start.
func (s *Scanner) tokens(raw string, start int64) {
	// The text of the token without the line breaks after hyphens.
	text, bs := joinHyphens(raw)
	// Parse errors are looked for in an ASCII skeleton of the whole
	// token, made once: a non-ASCII character stands for a letter.
	skel := asciiSkeleton(text)
	fails := 0
	for i := 0; i < len(text); {
		st, j, ok := schemeAt(text, i)
		if !ok {
			if s.o.Abbrev && i == leadingPunct(text) {
				if k := s.abbrev(raw, text, bs, i, start); k > i {
					i = k
					continue
				}
			}
			i = max(i+1, j)
			for i < len(text) && isAlnum(text[i-1]) {
				i++ // a scheme starts after a non-alphanumeric
			}
			continue
		}
		i = st
		if j-i == 3 && strings.EqualFold(text[i:j], "url") {
			i = j + 1 // the prefix of the URL drafts
			continue
		}
		// The URI ends where the text stops being one ("https://a.example)[x]"
		// holds "https://a.example"), less trailing punctuation. The
		// parse stops at its error, so the work is the candidate's.
		end := len(text)
		if off := parseErrorOffset(skel[i:]); off >= 0 {
			end = i + off
		}
		end = trimEnd(text[:end], i)
		if end > j+1 {
			rs, re := bs.rawStart(i), bs.rawEnd(end)
			if s.found(text[i:end], raw[rs:re], start+int64(rs), start+int64(re), None, bs.hyphenIn(i, end), false) {
				i = end
				continue
			}
			// A candidate that fails costs up to the token's length: a
			// token of many ("http:/http:/...%z") is given up, so that
			// time stays linear in the input. Matches do not count: a
			// token of twelve URIs gives twelve.
			if fails++; fails == maxFails {
				return
			}
		}
		i = j + 1
	}
}

// maxFails bounds the failed candidates checked in one token (each
// check may read the rest of the token).
const maxFails = 8

// schemeAt reports whether a registered scheme and ":" start in the run
// of scheme characters at text[i], a letter at the start of a word, and
// returns where the scheme starts and the offset of the ":". A scheme
// starts with a letter (RFC 3986 3.1: scheme = ALPHA *( ALPHA / DIGIT /
// "+" / "-" / "." )) at the start of the run or after punctuation in it,
// and the longest registered name that ends at the ":" is the scheme:
// in "c.http://x", "can...http://x" and "git+https://x" the URI starts at
// "http" and "https" ("c.http" and "git+https" are not registered), in
// "ms-settings:x" at "ms"; a letter after a letter or digit starts none
// ("xhttp://x"). Without a match, the offset returned is the end of the
// run, where the caller goes on: every start in the run was tried.
func schemeAt(text string, i int) (start, colon int, ok bool) {
	if class[text[i]]&cAlpha == 0 {
		return 0, i, false
	}
	j := i + 1
	for j < len(text) && class[text[j]]&cScheme != 0 {
		j++
	}
	if j >= len(text) || text[j] != ':' {
		return 0, j, false
	}
	for k := i; k < j; k++ {
		if k > i && (class[text[k]]&cAlpha == 0 || isAlnum(text[k-1])) || j-k > maxSchemeLen {
			continue
		}
		var lower [maxSchemeLen]byte
		name := lower[:j-k]
		for x := range name {
			name[x] = text[k+x] | 0x20 // letters; digits and "+-." have the bit set
		}
		if string(name) == "url" || ianaSchemes[string(name)] {
			return k, j, true // "url" is the prefix of the URL drafts; the caller skips it
		}
	}
	return 0, j, false
}

// maxSchemeLen bounds the scheme names looked up (the longest registered
// one is shorter).
const maxSchemeLen = 40

// found checks a candidate and queues it; it reports whether it was a
// URI.
func (s *Scanner) found(text, raw string, start, end int64, wrapper Wrapper, hyphen int, anyScheme bool) bool {
	if wrapper == Angle {
		if t, ok := stripURLPrefix(text); ok {
			text = t
			if hyphen >= 0 {
				hyphen -= 4
			}
		}
	}
	m, ok := s.check(text, raw, start, end, wrapper, hyphen, anyScheme)
	if ok {
		s.pending = append(s.pending, m)
	}
	return ok
}

// check validates a candidate: a URI with a scheme (registered with
// IANA unless anyScheme), or an IRI mapped by Options.Map.
func (s *Scanner) check(text, raw string, start, end int64, wrapper Wrapper, hyphen int, anyScheme bool) (Match, bool) {
	m := Match{URI: text, Raw: raw, Start: start, End: end, Wrapper: wrapper}
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			m.IRI = true
			break
		}
	}
	var u uri.URI
	var err error
	switch {
	case m.IRI && s.o.Map != nil:
		if u, err = s.o.Map(text); err == nil {
			m.URI = u.String()
		}
	case m.IRI:
		u, err = uri.Parse(asciiSkeleton(text))
	default:
		u, err = uri.Parse(text)
	}
	if err != nil || !u.HasScheme() {
		return m, false
	}
	if !anyScheme && !ianaSchemes[strings.ToLower(u.Scheme())] {
		return m, false
	}
	// The rules of the scheme, as the uri command and Beam check them:
	// "http://" without a host is no URL (RFC 9110 4.2.1), nor is a
	// "urn:" that is not a URN.
	if scheme.Check(u) != nil {
		return m, false
	}
	if s.o.BothReadings && hyphen >= 0 && hyphen < len(text) {
		m.Alt = text[:hyphen] + text[hyphen+1:]
	}
	m.Line, m.Col = s.posAt(start)
	return m, true
}

// asciiSkeleton replaces each non-ASCII byte of s with a letter; s
// itself when it is ASCII.
func asciiSkeleton(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if b[i] >= utf8.RuneSelf {
			b[i] = 'a'
		}
	}
	return string(b)
}

// parseErrorOffset returns the offset of the first byte of s that no
// URI could have there, or -1.
func parseErrorOffset(s string) int {
	_, err := uri.Parse(s)
	if pe, ok := err.(*uri.ParseError); ok {
		return pe.Offset
	}
	return -1
}
