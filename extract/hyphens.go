package extract

import (
	"sort"
	"strings"
)

// afterHyphen reports whether b ends with a hyphen and whitespace (line
// breaks, spaces, tabs): the token after it may be the rest of the one
// before.
func afterHyphen(b []byte) bool {
	k := len(b)
	for k > 0 && (b[k-1] == ' ' || b[k-1] == '\t' || b[k-1] == '\n' || b[k-1] == '\r') {
		k--
	}
	return k < len(b) && k > 0 && b[k-1] == '-'
}

// join decides whether the token that starts at t goes on after the
// line break at k that follows a hyphen, and returns where. Appendix E:
// "the interpreter of a URI containing a line break immediately after a
// hyphen should ignore all unescaped whitespace around the line break".
// It does not when the next line starts with a stop character or
// starts a URI of its own ("http://a.example/-" then
// "http://b.example/" are two URIs), or when the continuation would
// start past MaxLen.
func (s *Scanner) join(t, k int64) (int64, bool) {
	if c, _ := s.at(t, k); c == '\r' {
		k++
		if c, ok := s.at(t, k); !ok || c != '\n' {
			return 0, false
		}
	}
	k++
	for {
		if k-t > int64(s.o.MaxLen) {
			return 0, false
		}
		c, ok := s.at(t, k)
		if !ok {
			return 0, false
		}
		if c != ' ' && c != '\t' {
			break
		}
		k++
	}
	if r, _, _ := s.runeAt(t, k); isStop(r) || s.startsURI(t, k) {
		return 0, false
	}
	return k, true
}

// startsURI reports whether the text at offset k starts a URI: after
// opening brackets or quotes and punctuation, a registered scheme and
// ":" (or "URL:"), or with Abbrev "www." or "ftp.".
func (s *Scanner) startsURI(t, k int64) bool {
	var b [64]byte
	n := 0
	for n < len(b) {
		c, ok := s.at(t, k+int64(n))
		if !ok || class[c]&(cStop|cHigh) != 0 {
			break
		}
		b[n] = c
		n++
	}
	text := string(b[:n])
	i := leadingPunct(text)
	for i < len(text) && (text[i] == '+' || text[i] == '-' || text[i] == '.') {
		i++
	}
	if i == len(text) {
		return false
	}
	if _, _, ok := schemeAt(text, i); ok {
		return true
	}
	return s.o.Abbrev && abbrevStart([]byte(text))
}

// A lineJoin is a line break after a hyphen removed from a token.
type lineJoin struct {
	hyphen int // offset in the text of the hyphen
	at     int // offset in the text after the break
	shift  int // bytes of raw removed up to and including this break
}

type lineJoins []lineJoin

// joinHyphens removes from raw the line breaks (and the indentation
// after them) that follow a hyphen, and returns the text and the
// breaks.
func joinHyphens(raw string) (string, lineJoins) {
	if strings.IndexByte(raw, '\n') < 0 {
		return raw, nil
	}
	var b strings.Builder
	var js lineJoins
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '\r' || c == '\n' {
			k := i
			for k+1 < len(raw) && (raw[k+1] == ' ' || raw[k+1] == '\t' || raw[k+1] == '\n') {
				k++
			}
			shift := k - i + 1
			if len(js) > 0 {
				shift += js[len(js)-1].shift
			}
			js = append(js, lineJoin{hyphen: b.Len() - 1, at: b.Len(), shift: shift})
			i = k
			continue
		}
		b.WriteByte(c)
	}
	return b.String(), js
}

// rawStart maps offset k of the joined text to raw, after a break at k.
func (js lineJoins) rawStart(k int) int {
	n := sort.Search(len(js), func(x int) bool { return js[x].at > k })
	if n == 0 {
		return k
	}
	return k + js[n-1].shift
}

// rawEnd maps offset k of the joined text to raw, before a break at k.
func (js lineJoins) rawEnd(k int) int {
	n := sort.Search(len(js), func(x int) bool { return js[x].at >= k })
	if n == 0 {
		return k
	}
	return k + js[n-1].shift
}

// hyphenIn returns the offset in [i, j) of text of a hyphen that ended
// a line, relative to i, or -1.
func (js lineJoins) hyphenIn(i, j int) int {
	n := sort.Search(len(js), func(x int) bool { return js[x].hyphen >= i })
	if n < len(js) && js[n].hyphen < j-1 {
		return js[n].hyphen - i
	}
	return -1
}
