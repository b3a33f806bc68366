package extract

import (
	"strings"
	"unicode/utf8"
)

// angle reads "<...>" from its "<". Appendix E: "extra whitespace
// (spaces, linebreaks, tabs, etc.) may need to be added to break long
// URIs across lines. The whitespace should be ignored when extracting
// the URI", and "Using <> angle brackets around each URI is especially
// recommended as a delimiting style for URIs that contain whitespace".
// So the brackets wrap a URI when their content, whitespace removed, is
// one URI, and the content opens with one: after optional whitespace
// and "URL:" ("with or without a trailing space"), a scheme, ":" and
// more before the first whitespace. Otherwise the "<" is text (an HTML
// tag, "<see http://x/ for details>", a "<" never closed, a blank line
// inside) and the scan goes on after it.
func (s *Scanner) angle() {
	a := s.off
	text := s.text[:0]
	hyphen := -1 // offset in text after which a line-end hyphen was removed in Alt
	inSpace, breaks, opened := false, 0, false
	k := a + 1
scan:
	for k-a <= int64(s.o.MaxLen) {
		r, n, ok := s.runeAt(a, k)
		if !ok {
			break
		}
		switch {
		case r == '>':
			if s.angleMatch(string(text), a, k+1, hyphen) {
				s.text = text
				s.off = k + 1
				return
			}
			break scan
		case r == '<' || r == utf8.RuneError:
			// Another "<": the first was text; invalid UTF-8 cannot be
			// in a URI.
			break scan
		case isSpace(r):
			if !inSpace {
				inSpace, breaks = true, 0
				if !opened && len(text) > 0 {
					if opened = opensURI(text); !opened && !(len(text) == 4 && strings.EqualFold(string(text), "URL:")) {
						break scan // prose in brackets
					}
				}
			}
			if r == '\n' {
				if breaks++; breaks > 1 {
					break scan // a blank line: the paragraph ended
				}
				if len(text) > 0 && text[len(text)-1] == '-' {
					hyphen = len(text) - 1
				}
			}
		default:
			inSpace = false
			text = append(text, s.slice(k, k+int64(n))...)
		}
		k += int64(n)
	}
	s.text = text
	s.off = a + 1
}

// opensURI reports whether text, the first word in "<...>" (after
// "URL:"), opens a URI: a scheme, ":" and at least one more character.
func opensURI(text []byte) bool {
	if len(text) > 4 && strings.EqualFold(string(text[:4]), "URL:") {
		text = text[4:]
	}
	if len(text) == 0 || class[text[0]]&cAlpha == 0 {
		return false
	}
	j := 1
	for j < len(text) && class[text[j]]&cScheme != 0 {
		j++
	}
	return j+1 < len(text) && text[j] == ':'
}

// angleMatch checks the content of "<...>" (from a to end) and queues
// the match.
func (s *Scanner) angleMatch(text string, a, end int64, hyphen int) bool {
	raw := string(s.slice(a, end))
	if s.found(text, raw, a, end, Angle, hyphen, true) {
		return true
	}
	if !s.o.Abbrev {
		return false
	}
	// Appendix F inside brackets: "<www.w3.org/Addressing/>".
	text, _ = stripURLPrefix(text)
	prefix := abbrevPrefix(text)
	if prefix == "" {
		return false
	}
	m, ok := s.check(prefix+text, raw, a, end, Angle, -1, false)
	if ok {
		m.Abbrev = true
		s.pending = append(s.pending, m)
	}
	return ok
}

// quote reads '"..."' from its '"': the content is a URI if all of it
// is one; otherwise its URIs are found as in running text.
func (s *Scanner) quote() {
	q := s.off
	k := q + 1
	for k-(q+1) <= int64(s.o.MaxLen) {
		r, n, ok := s.runeAt(q, k)
		if !ok {
			s.off = k
			s.tokens(string(s.slice(q+1, k)), q+1)
			return
		}
		if r == '"' {
			text := string(s.slice(q+1, k))
			s.off = k + 1
			if !s.found(text, string(s.slice(q, k+1)), q, k+1, Quote, -1, false) {
				s.tokens(text, q+1)
			}
			return
		}
		if isStop(r) {
			s.off = k
			s.tokens(string(s.slice(q+1, k)), q+1)
			return
		}
		k += int64(n)
	}
	s.off = k
	s.skipToStop()
}

// trimEnd returns the end of the URI that starts at text[i]: the end of
// text, less trailing punctuation and unbalanced closing brackets. The
// brackets are counted once, so that a long run of ")" costs its length.
func trimEnd(text string, i int) int {
	end := len(text)
	counted := false
	var open, close [2]int // "(" and "["
	for end > i {
		switch c := text[end-1]; c {
		case '.', ',', ';', ':', '!', '?', '\'':
			end--
			continue
		case ')', ']':
			if !counted {
				counted = true
				for _, b := range []byte(text[i:end]) {
					switch b {
					case '(':
						open[0]++
					case ')':
						close[0]++
					case '[':
						open[1]++
					case ']':
						close[1]++
					}
				}
			}
			k := 0
			if c == ']' {
				k = 1
			}
			if open[k] < close[k] {
				close[k]--
				end--
				continue
			}
		}
		break
	}
	return end
}

// leadingPunct returns the offset of the first character of text that
// is not an opening bracket or quote.
func leadingPunct(text string) int {
	i := 0
	for i < len(text) && class[text[i]]&cOpen != 0 {
		i++
	}
	return i
}

func stripURLPrefix(s string) (string, bool) {
	if len(s) >= 4 && strings.EqualFold(s[:4], "URL:") {
		return s[4:], true
	}
	return s, false
}
