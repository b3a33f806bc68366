package extract

import (
	"bufio"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/urikit/urikit/scheme"
	"github.com/urikit/urikit/uri"
)

// Wrappers of a Match.
const (
	Angle = "angle" // <...> or <URL:...>
	Quote = "quote" // "..."
	None  = "none"  // a bare URI
)

// A Match is one URI found in the text.
type Match struct {
	URI        string // the URI: wrapper, "URL:" prefix and inner whitespace removed; completed for an abbreviated URL
	Raw        string // the source text, exactly: input[Start:End]
	Start, End int64  // byte offsets in the input
	Line, Col  int    // of Start, from 1; Col counts bytes
	Wrapper    string // Angle, Quote or None
	Abbrev     bool   // an abbreviated URL of Appendix F
	IRI        bool   // the text held non-ASCII characters
	Alt        string // with BothReadings: the URI without a hyphen that ended a line, or ""
}

// Options select what a Scanner reports.
type Options struct {
	// Abbrev finds the abbreviated URLs of Appendix F.
	Abbrev bool
	// BothReadings sets Match.Alt for a URI broken after a hyphen.
	BothReadings bool
	// Map, when not nil, maps text with non-ASCII characters (an IRI)
	// to the URI reported; iri.ToURI is the usual one. Without it such
	// text is reported as found, when it is a valid IRI in shape.
	Map func(string) (string, error)
	// MaxLen bounds the length of a candidate (default 64 KiB): longer
	// runs of text without a delimiter are skipped, so that memory stays
	// constant whatever the input.
	MaxLen int
}

// A Scanner reads text and finds its URIs, one Scan at a time.
type Scanner struct {
	r    *bufio.Reader
	o    Options
	off  int64 // offset of the next rune to read
	line int   // line of the next rune
	col  int   // column (bytes, from 1) of the next rune
	err  error

	pending []Match
	m       Match
	buf     []byte // the token being read, reused
	// a pushed-back rune
	back     rune
	backSize int
	hasBack  bool
}

// NewScanner returns a Scanner reading r.
func NewScanner(r io.Reader, o Options) *Scanner {
	if o.MaxLen <= 0 {
		o.MaxLen = 64 << 10
	}
	return &Scanner{r: bufio.NewReaderSize(r, 64<<10), o: o, line: 1, col: 1}
}

// Match returns the match of the last Scan that returned true.
func (s *Scanner) Match() Match { return s.m }

// Err returns the first read error other than io.EOF.
func (s *Scanner) Err() error { return s.err }

// pos is a position in the input.
type pos struct {
	off       int64
	line, col int
}

func (s *Scanner) here() pos { return pos{s.off, s.line, s.col} }

// next reads one rune (an invalid byte as utf8.RuneError of size 1).
func (s *Scanner) next() (rune, int, bool) {
	var r rune
	var n int
	if s.hasBack {
		r, n, s.hasBack = s.back, s.backSize, false
	} else {
		var err error
		r, n, err = s.r.ReadRune()
		if err != nil {
			if err != io.EOF && s.err == nil {
				s.err = err
			}
			return 0, 0, false
		}
	}
	s.off += int64(n)
	if r == '\n' {
		s.line, s.col = s.line+1, 1
	} else {
		s.col += n
	}
	return r, n, true
}

// unread pushes r back (one rune at most), restoring the position.
func (s *Scanner) unread(r rune, n int, p pos) {
	s.back, s.backSize, s.hasBack = r, n, true
	s.off, s.line, s.col = p.off, p.line, p.col
}

// Scan finds the next URI; it returns false at the end of the input.
func (s *Scanner) Scan() bool {
	for len(s.pending) == 0 {
		if !s.step() {
			return false
		}
	}
	s.m = s.pending[0]
	s.pending = s.pending[1:]
	return true
}

// isSpace: the whitespace that ends a bare URI and is dropped inside <>.
func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v' || r == 0x85 || r == 0xA0 ||
		r == 0x1680 || 0x2000 <= r && r <= 0x200A || r == 0x2028 || r == 0x2029 || r == 0x202F || r == 0x205F || r == 0x3000
}

// isStop reports whether r ends a bare URI: whitespace, the characters
// RFC 3986 (and the 1998 draft's "unwise" and "delims") exclude,
// bidirectional formatting characters, Unicode quotation marks and
// brackets.
func isStop(r rune) bool {
	if r < utf8.RuneSelf {
		return r <= ' ' || r == 0x7F || strings.IndexByte("\"<>\\^`{|}", byte(r)) >= 0
	}
	switch {
	case isSpace(r):
		return true
	case r == 0x200E || r == 0x200F || 0x202A <= r && r <= 0x202E || 0x2066 <= r && r <= 0x2069 || r == 0x061C:
		return true // bidi controls
	case 0x2018 <= r && r <= 0x201F, r == 0xAB, r == 0xBB, r == 0x2039, r == 0x203A:
		return true // quotation marks
	case 0x3008 <= r && r <= 0x3011, 0x3014 <= r && r <= 0x301B, r == 0xFF08, r == 0xFF09, r == 0xFF3B, r == 0xFF3D, r == 0xFF5B, r == 0xFF5D, r == 0xFF62, r == 0xFF63:
		return true // CJK and fullwidth brackets
	case r == utf8.RuneError:
		return true
	}
	return false
}

// step reads the next piece of text (a wrapped candidate or a token) and
// queues the matches in it. It returns false at the end of the input.
func (s *Scanner) step() bool {
	start := s.here()
	r, n, ok := s.next()
	if !ok {
		return false
	}
	switch {
	case r == '<':
		s.angle(start)
	case r == '"':
		s.quote(start)
	case isStop(r):
	default:
		s.unread(r, n, start)
		s.bare()
	}
	return true
}

// angle reads "<...>" after its "<" at start.
func (s *Scanner) angle(start pos) {
	var raw, text []byte
	raw = append(raw, '<')
	hyphen := -1 // offset in text after which a line-end hyphen was removed in Alt
	for len(raw) <= s.o.MaxLen {
		p := s.here()
		r, n, ok := s.next()
		if !ok {
			return
		}
		switch {
		case r == '>':
			raw = append(raw, '>')
			s.found(string(text), string(raw), start, s.here(), Angle, hyphen, true)
			return
		case r == '<' || r == utf8.RuneError:
			// Another "<": the first was text; invalid UTF-8 cannot be
			// in a URI.
			s.unread(r, n, p)
			return
		case isSpace(r):
			if r == '\n' && len(text) > 0 && text[len(text)-1] == '-' {
				hyphen = len(text) - 1
			}
			raw = utf8.AppendRune(raw, r)
		default:
			raw = utf8.AppendRune(raw, r)
			text = utf8.AppendRune(text, r)
		}
	}
	s.skipToStop()
}

// quote reads '"..."' after its '"' at start: the content is a URI if
// all of it is one; otherwise its URIs are found as in running text.
func (s *Scanner) quote(start pos) {
	var text []byte
	cstart := s.here()
	for len(text) <= s.o.MaxLen {
		p := s.here()
		r, n, ok := s.next()
		if !ok {
			s.tokens(string(text), cstart, false)
			return
		}
		if r == '"' {
			if !s.found(string(text), `"`+string(text)+`"`, start, s.here(), Quote, -1, false) {
				s.tokens(string(text), cstart, false)
			}
			return
		}
		if isStop(r) {
			s.unread(r, n, p)
			s.tokens(string(text), cstart, false)
			return
		}
		text = utf8.AppendRune(text, r)
	}
	s.skipToStop()
}

// bare reads a token up to a stop character, going on after a hyphen
// that ends a line.
func (s *Scanner) bare() {
	start := s.here()
	raw := s.buf[:0]
	defer func() { s.buf = raw[:0] }()
	for len(raw) <= s.o.MaxLen {
		p := s.here()
		r, n, ok := s.next()
		if !ok {
			break
		}
		if isStop(r) {
			if r == '\n' && len(raw) > 0 && raw[len(raw)-1] == '-' && s.continues(&raw) {
				continue
			}
			if r == '\r' && len(raw) > 0 && raw[len(raw)-1] == '-' {
				raw = append(raw, '\r')
				if s.continues(&raw) {
					continue
				}
				raw = raw[:len(raw)-1]
			}
			s.unread(r, n, p)
			break
		}
		raw = utf8.AppendRune(raw, r)
	}
	if len(raw) > s.o.MaxLen {
		s.skipToStop()
		return
	}
	// Most tokens are words: only one with a ":" can hold a URI, or,
	// with Abbrev, one with a ".".
	if bytesIndex(raw, ':') < 0 && (!s.o.Abbrev || bytesIndex(raw, '.') < 0) {
		return
	}
	s.tokens(string(raw), start, true)
}

func bytesIndex(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// continues reads, after a line-end hyphen, the line break and the
// whitespace that follows; it reports whether a URI character follows
// (and appends what it read to raw), or puts back what it read.
func (s *Scanner) continues(raw *[]byte) bool {
	if (*raw)[len(*raw)-1] != '\r' {
		*raw = append(*raw, '\n')
	} else {
		p := s.here()
		r, n, ok := s.next()
		if !ok || r != '\n' {
			if ok {
				s.unread(r, n, p)
			}
			return false
		}
		*raw = append(*raw, '\n')
	}
	for {
		p := s.here()
		r, n, ok := s.next()
		if !ok {
			return false
		}
		if r == ' ' || r == '\t' {
			*raw = append(*raw, byte(r))
			continue
		}
		s.unread(r, n, p)
		return !isStop(r)
	}
}

// skipToStop skips text up to the next stop character (after a
// candidate over MaxLen).
func (s *Scanner) skipToStop() {
	for {
		p := s.here()
		r, n, ok := s.next()
		if !ok {
			return
		}
		if isStop(r) {
			s.unread(r, n, p)
			return
		}
	}
}

// tokens finds the bare URIs in raw, text without stop characters
// (except the line breaks after hyphens of a bare token) that starts at
// p.
func (s *Scanner) tokens(raw string, p pos, bare bool) {
	// The text of the token without the line breaks after hyphens.
	text, hyphenAt := joinHyphens(raw)
	tries := 0
	for i := 0; i < len(text); {
		if tries == maxTries {
			// A candidate costs up to the token's length to check: a
			// token of many failed candidates ("http:/http:/...%z") is
			// given up, so that time stays linear in the input.
			return
		}
		j, ok := schemeAt(text, i)
		if !ok {
			if s.o.Abbrev && i == leadingPunct(text) {
				if k := s.abbrev(raw, text, i, p); k > i {
					i = k
					continue
				}
			}
			i++
			for i < len(text) && isAlnum(text[i-1]) {
				i++ // a scheme starts after a non-alphanumeric
			}
			continue
		}
		tries++
		end := trimEnd(text, i)
		if end <= j+1 {
			i = j + 1
			continue
		}
		cand := text[i:end]
		if strings.HasPrefix(strings.ToLower(cand), "url:") {
			i += 4
			continue
		}
		rs, re := rawRange(raw, hyphenAt, i, end)
		if s.found(cand, raw[rs:re], advance(p, raw[:rs]), advance(p, raw[:re]), None, hyphenIn(hyphenAt, i, end), false) {
			i = end
			continue
		}
		// The URI ends where the text stops being one: retry with the
		// longest prefix that parses ("https://a.example)[x]" holds
		// "https://a.example").
		if off := parseErrorOffset(cand); off > j+1-i {
			end = trimEnd(text[:i+off], i)
			if end > j+1 {
				rs, re = rawRange(raw, hyphenAt, i, end)
				if s.found(text[i:end], raw[rs:re], advance(p, raw[:rs]), advance(p, raw[:re]), None, hyphenIn(hyphenAt, i, end), false) {
					i = end
					continue
				}
			}
		}
		i = j + 1
	}
}

// maxTries bounds the candidates checked in one token (each check may
// read the rest of the token).
const maxTries = 8

// joinHyphens removes from raw the line breaks (and the indentation
// after them) that follow a hyphen, and returns the text and, for each
// removed break, the offset in text of the hyphen.
func joinHyphens(raw string) (string, []int) {
	if strings.IndexByte(raw, '\n') < 0 {
		return raw, nil
	}
	var b strings.Builder
	var at []int
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '\r' || c == '\n' {
			if c == '\n' {
				at = append(at, b.Len()-1)
			}
			for i+1 < len(raw) && (raw[i+1] == ' ' || raw[i+1] == '\t' || raw[i+1] == '\n') {
				i++
			}
			continue
		}
		b.WriteByte(c)
	}
	return b.String(), at
}

// rawRange maps the range [i, j) of the joined text to raw.
func rawRange(raw string, hyphenAt []int, i, j int) (int, int) {
	if hyphenAt == nil {
		return i, j
	}
	m := func(k int) int {
		// Walk raw, counting text bytes.
		t := 0
		for r := 0; r < len(raw); r++ {
			if t == k {
				return r
			}
			c := raw[r]
			if c == '\r' || c == '\n' {
				for r+1 < len(raw) && (raw[r+1] == ' ' || raw[r+1] == '\t' || raw[r+1] == '\n') {
					r++
				}
				continue
			}
			t++
		}
		return len(raw)
	}
	return m(i), m(j)
}

// hyphenIn returns the offset in [i, j) of text of a hyphen that ended
// a line, relative to i, or -1.
func hyphenIn(at []int, i, j int) int {
	for _, h := range at {
		if h >= i && h < j-1 {
			return h - i
		}
	}
	return -1
}

func advance(p pos, text string) pos {
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			p.line, p.col = p.line+1, 1
		} else {
			p.col++
		}
		p.off++
	}
	return p
}

func isAlnum(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9'
}

// schemeAt reports whether text[i:] starts with a registered scheme and
// ":", and returns the offset of the ":".
func schemeAt(text string, i int) (int, bool) {
	if i > 0 && (isAlnum(text[i-1]) || text[i-1] == '+' || text[i-1] == '-' || text[i-1] == '.') {
		return 0, false
	}
	if !('a' <= text[i]|0x20 && text[i]|0x20 <= 'z') {
		return 0, false
	}
	j := i + 1
	for j < len(text) && j-i <= 40 && (isAlnum(text[j]) || text[j] == '+' || text[j] == '-' || text[j] == '.') {
		j++
	}
	if j >= len(text) || text[j] != ':' {
		return 0, false
	}
	name := strings.ToLower(text[i:j])
	if name == "url" {
		return j, true // the prefix; the caller skips it
	}
	return j, ianaSchemes[name]
}

// trimEnd returns the end of the URI that starts at text[i]: the token's
// end, less trailing punctuation and unbalanced closing brackets.
func trimEnd(text string, i int) int {
	end := len(text)
	for end > i {
		switch c := text[end-1]; c {
		case '.', ',', ';', ':', '!', '?', '\'':
			end--
			continue
		case ')':
			if strings.Count(text[i:end], "(") < strings.Count(text[i:end], ")") {
				end--
				continue
			}
		case ']':
			if strings.Count(text[i:end], "[") < strings.Count(text[i:end], "]") {
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
	for i < len(text) && strings.IndexByte("([{'", text[i]) >= 0 {
		i++
	}
	return i
}

// abbrev finds an abbreviated URL of Appendix F at text[i] and returns
// the offset after it, or i.
func (s *Scanner) abbrev(raw, text string, i int, p pos) int {
	rest := strings.ToLower(text[i:])
	prefix := ""
	switch {
	case strings.HasPrefix(rest, "www."):
		prefix = "http://"
	case strings.HasPrefix(rest, "ftp"):
		k := 3
		for k < len(rest) && '0' <= rest[k] && rest[k] <= '9' {
			k++
		}
		if k < len(rest) && rest[k] == '.' {
			prefix = "ftp://"
		}
	}
	if prefix == "" {
		return i
	}
	end := trimEnd(text, i)
	cand := text[i:end]
	host := cand
	if k := strings.IndexAny(host, "/?#:"); k >= 0 {
		host = host[:k]
	}
	if strings.Count(host, ".") < 2 || strings.HasSuffix(host, ".") || strings.Contains(host, "@") || strings.Contains(cand, "@") && !strings.Contains(cand, "/") {
		return i // a host with a dot after the prefix, and not a mail address
	}
	rs, re := rawRange(raw, nil, i, end)
	m, ok := s.check(prefix+cand, raw[rs:re], advance(p, raw[:rs]), advance(p, raw[:re]), None, -1, false)
	if !ok {
		return i
	}
	m.Abbrev = true
	s.pending = append(s.pending, m)
	return end
}

// found checks a candidate and queues it; it reports whether it was a
// URI.
func (s *Scanner) found(text, raw string, start, end pos, wrapper string, hyphen int, anyScheme bool) bool {
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

func stripURLPrefix(s string) (string, bool) {
	if len(s) >= 4 && strings.EqualFold(s[:4], "URL:") {
		return s[4:], true
	}
	return s, false
}

// check validates a candidate: a URI with a scheme (registered with
// IANA unless anyScheme), or an IRI mapped by Options.Map.
func (s *Scanner) check(text, raw string, start, end pos, wrapper string, hyphen int, anyScheme bool) (Match, bool) {
	m := Match{URI: text, Raw: raw, Start: start.off, End: end.off, Line: start.line, Col: start.col, Wrapper: wrapper}
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			m.IRI = true
			break
		}
	}
	probe := text
	if m.IRI {
		if s.o.Map != nil {
			u, err := s.o.Map(text)
			if err != nil {
				return m, false
			}
			m.URI, probe = u, u
		} else {
			probe = asciiSkeleton(text)
		}
	}
	u, err := uri.Parse(probe)
	if err != nil || !u.HasScheme() {
		return m, false
	}
	if !anyScheme && !ianaSchemes[strings.ToLower(u.Scheme())] {
		return m, false
	}
	// The rules of the scheme: "http://" without a host is no URL
	// (RFC 9110 4.2.1), nor is a "urn:" that is not a URN.
	if _, err := scheme.ViewOf(u); err != nil {
		return m, false
	}
	if s.o.BothReadings && hyphen >= 0 && hyphen < len(text) {
		m.Alt = text[:hyphen] + text[hyphen+1:]
	}
	return m, true
}

func asciiSkeleton(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= utf8.RuneSelf {
			b[i] = 'a'
		}
	}
	return string(b)
}

// parseErrorOffset returns the offset of the first byte of s that no
// URI could have there, or -1.
func parseErrorOffset(s string) int {
	_, err := uri.Parse(asciiSkeleton(s))
	if pe, ok := err.(*uri.ParseError); ok {
		return pe.Offset
	}
	return -1
}
