package extract

import (
	"bytes"
	"io"
	"sort"
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
	Start, End int64  // byte offsets in the input (with Options.Records, in the record)
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
	// Records reads the input as records separated by NUL bytes (as
	// "find -print0" writes them): no URI spans a NUL, Scan returns
	// false at the end of each record and NextRecord moves to the next;
	// offsets, lines and columns count from the start of the record.
	Records bool
}

// A Scanner reads text and finds its URIs, one Scan at a time.
//
// It reads the input into one buffer and scans it as bytes: the text
// between candidates is skipped with a table per byte, and only a token
// that holds a ":" (or, with Abbrev, starts like "www." or "ftp.")
// is looked at closely. The buffer holds a candidate at most (MaxLen
// and a little), so memory is constant; input is read only when a
// decision needs more of it, so that a Scanner on a pipe reports a URI
// as soon as the text after it is there.
type Scanner struct {
	r     io.Reader
	o     Options
	buf   []byte
	max   int   // the size buf may grow to
	grow  bool  // the last read filled buf
	n     int   // end of the data in buf
	end   int   // end of the data the scan may use (n)
	base  int64 // input offset of buf[0]
	off   int64 // input offset of the next byte to scan
	final bool  // no data beyond end will come
	eof   bool  // the reader has no more data
	begun bool  // the first record has begun
	err   error
	empty int // reads in a row that returned nothing

	// Lines are counted lazily, up to lnOff: only a match needs them.
	lnOff, lnStart int64
	line           int

	// The jump over text without candidates (step).
	needles []needle
	scan    int64 // the bytes before this offset were looked for candidates
	fwd     int64 // the exact scan goes on up to here

	pending []Match
	head    int // next match of pending to hand out
	m       Match
	text    []byte // the content of <...>, reused
}

// lookAhead is how far past MaxLen a decision may look (the start of
// the line after a hyphen, a rune's last bytes).
const lookAhead = 128

// NewScanner returns a Scanner reading r.
func NewScanner(r io.Reader, o Options) *Scanner {
	if o.MaxLen <= 0 {
		o.MaxLen = 64 << 10
	}
	// At most twice what one candidate may need, so that moving the kept
	// data to the front copies at most as much as a read brings. The
	// buffer starts small and grows when reads fill it: a short text
	// costs little, a long one is read in large blocks.
	size := max(2*(o.MaxLen+lookAhead), 64<<10)
	s := &Scanner{r: r, o: o, buf: make([]byte, 4<<10), max: size, line: 1}
	s.resetNeedles()
	return s
}

// Match returns the match of the last Scan that returned true.
func (s *Scanner) Match() Match { return s.m }

// Err returns the first read error other than io.EOF.
func (s *Scanner) Err() error { return s.err }

// Scan finds the next URI; it returns false at the end of the input.
func (s *Scanner) Scan() bool {
	s.begun = true
	if s.head == len(s.pending) {
		s.pending, s.head = s.pending[:0], 0
		if !s.step() {
			return false
		}
	}
	s.m = s.pending[s.head]
	s.head++
	return true
}

// fill reads more input into buf, keeping buf[keep:] (keep is an
// index); the data may move to the front of buf, which changes base.
func (s *Scanner) fill(keep int) {
	if s.final {
		return
	}
	if keep > 0 && len(s.buf)-s.n < len(s.buf)/2 {
		s.countLines(keep)
		copy(s.buf, s.buf[keep:s.n])
		s.n -= keep
		s.base += int64(keep)
	}
	if len(s.buf) < s.max && (s.grow || s.n > len(s.buf)/2) || s.n == len(s.buf) {
		// The last read filled the buffer, or a candidate needs more.
		// (The buffer is never full at its largest: a candidate needs
		// less than half of it.)
		b := make([]byte, max(min(2*len(s.buf), s.max), s.n+1))
		copy(b, s.buf[:s.n])
		s.buf = b
	}
	k, err := s.r.Read(s.buf[s.n:])
	s.grow = s.n+k == len(s.buf)
	s.n += k
	switch {
	case err == io.EOF:
		s.eof = true
	case err != nil:
		s.err, s.eof = err, true
	case k == 0:
		if s.empty++; s.empty >= 100 {
			s.err, s.eof = io.ErrNoProgress, true
		}
	default:
		s.empty = 0
	}
	s.setEnd(s.n - k)
}

// setEnd sets the end of the data the scan may use, looking for the
// end of the record from index from on.
func (s *Scanner) setEnd(from int) {
	s.end, s.final = s.n, s.eof
	if s.o.Records {
		if i := bytes.IndexByte(s.buf[from:s.n], 0); i >= 0 {
			s.end, s.final = from+i, true
		}
	}
}

// NextRecord moves to the next record and reports whether there is
// one; the first call starts the first record, which always exists.
// With Options.Records unset the input is one record. The matches of
// the current record that Scan has not returned are skipped.
//
// A NUL at the end of the input ends the last record: it does not start
// an empty one.
func (s *Scanner) NextRecord() bool {
	if !s.begun {
		s.begun = true
		return true
	}
	s.pending, s.head = s.pending[:0], 0
	for !s.final {
		s.off = s.base + int64(s.end)
		s.fill(s.end)
	}
	if !s.o.Records || s.end == s.n {
		return false // the input ended
	}
	next := s.end + 1
	// Offsets restart after the NUL.
	s.base, s.off = -int64(next), 0
	s.line, s.lnOff, s.lnStart = 1, 0, 0
	s.resetNeedles()
	s.setEnd(next)
	for !s.final && s.end == next {
		s.fill(next)
		next = s.idx(0)
	}
	return s.end > next || s.end < s.n
}

// idx returns the index in buf of input offset off.
func (s *Scanner) idx(off int64) int { return int(off - s.base) }

// at returns the byte at input offset off, reading as needed and
// keeping the data from offset keep; false past the end of the input.
func (s *Scanner) at(keep, off int64) (byte, bool) {
	for {
		if j := s.idx(off); j < s.end {
			return s.buf[j], true
		}
		if s.final {
			return 0, false
		}
		s.fill(s.idx(keep))
	}
}

// runeAt decodes the rune at input offset off (an invalid byte as
// utf8.RuneError of size 1), keeping the data from keep.
func (s *Scanner) runeAt(keep, off int64) (rune, int, bool) {
	c, ok := s.at(keep, off)
	if !ok {
		return 0, 0, false
	}
	if c < utf8.RuneSelf {
		return rune(c), 1, true
	}
	for !utf8.FullRune(s.buf[s.idx(off):s.end]) && !s.final {
		s.fill(s.idx(keep))
	}
	r, n := utf8.DecodeRune(s.buf[s.idx(off):s.end])
	return r, n, true
}

// slice returns the input between offsets from and to, which are in buf.
func (s *Scanner) slice(from, to int64) []byte { return s.buf[s.idx(from):s.idx(to)] }

// countLines counts the line breaks before index j that are not yet
// counted.
func (s *Scanner) countLines(j int) {
	k := s.idx(s.lnOff)
	if k >= j {
		return
	}
	b := s.buf[k:j]
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			break
		}
		s.line++
		s.lnStart = s.base + int64(j-len(b)+i+1)
		b = b[i+1:]
	}
	s.lnOff = s.base + int64(j)
}

// posAt returns the line and column of input offset off, which is in
// buf and not before an offset asked earlier.
func (s *Scanner) posAt(off int64) (line, col int) {
	s.countLines(s.idx(off))
	return s.line, int(off-s.lnStart) + 1
}

// Byte classes.
const (
	cStop   = 1 << iota // ends a bare URI: whitespace, controls, " < > \ ^ ` { | }
	cSpace              // ASCII whitespace, dropped inside <>
	cColon              // ":"
	cHigh               // the first byte of a non-ASCII character
	cAlpha              // a letter
	cScheme             // a letter, digit, "+", "-" or "."
	cAlnum              // a letter or digit
	cOpen               // an opening bracket or quote before a URI: ( [ { '
)

var class [256]uint8

func init() {
	for c := 0; c < 256; c++ {
		var k uint8
		switch {
		case c <= ' ' || c == 0x7F || strings.IndexByte("\"<>\\^`{|}", byte(c)) >= 0:
			k |= cStop
		case c == ':':
			k |= cColon
		case c >= utf8.RuneSelf:
			k |= cHigh
		}
		if c == ' ' || '\t' <= c && c <= '\r' {
			k |= cSpace
		}
		if 'a' <= c|0x20 && c|0x20 <= 'z' {
			k |= cAlpha | cScheme | cAlnum
		}
		if '0' <= c && c <= '9' {
			k |= cAlnum
		}
		if strings.IndexByte("([{'", byte(c)) >= 0 {
			k |= cOpen
		}
		if '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.' {
			k |= cScheme
		}
		class[c] = k
	}
}

// isSpace: the whitespace that ends a bare URI and is dropped inside <>.
func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return class[r]&cSpace != 0
	}
	return r == 0x85 || r == 0xA0 || r == 0x1680 || 0x2000 <= r && r <= 0x200A || r == 0x2028 || r == 0x2029 || r == 0x202F || r == 0x205F || r == 0x3000
}

// isStop reports whether r ends a bare URI: whitespace, the characters
// RFC 3986 (and the 1998 draft's "unwise" and "delims") exclude,
// bidirectional formatting characters, Unicode quotation marks and
// brackets, and invalid UTF-8.
func isStop(r rune) bool {
	if r < utf8.RuneSelf {
		return class[r]&cStop != 0
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

func isAlnum(c byte) bool { return class[c]&cAlnum != 0 }

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

// found checks a candidate and queues it; it reports whether it was a
// URI.
func (s *Scanner) found(text, raw string, start, end int64, wrapper string, hyphen int, anyScheme bool) bool {
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
func (s *Scanner) check(text, raw string, start, end int64, wrapper string, hyphen int, anyScheme bool) (Match, bool) {
	m := Match{URI: text, Raw: raw, Start: start, End: end, Wrapper: wrapper}
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
