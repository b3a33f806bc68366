package extract

import (
	"io"

	"github.com/urikit/urikit/uri"
)

// Wrapper says how the text delimits a Match: its value is the name
// `uri extract --json` writes ("angle", "quote", "none").
type Wrapper string

// The wrappers of a Match.
const (
	Angle Wrapper = "angle" // <...> or <URL:...>
	Quote Wrapper = "quote" // "..."
	None  Wrapper = "none"  // a bare URI
)

// String returns the wrapper's name.
func (w Wrapper) String() string { return string(w) }

// A Match is one URI found in the text.
type Match struct {
	URI        string  // the URI: wrapper, "URL:" prefix and inner whitespace removed; completed for an abbreviated URL
	Raw        string  // the source text, exactly: input[Start:End]
	Start, End int64   // byte offsets in the input (with Options.Records, in the record)
	Line, Col  int     // of Start, from 1; Col counts bytes
	Wrapper    Wrapper // Angle, Quote or None
	Abbrev     bool    // an abbreviated URL of Appendix F
	IRI        bool    // the text held non-ASCII characters
	Alt        string  // with BothReadings: the URI without a hyphen that ended a line, or ""
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
	Map func(string) (uri.URI, error)
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
