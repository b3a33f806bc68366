package resolver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// encoding/json lets through, changed or silently resolved, what a
// registry must not store: invalid UTF-8 (replaced by U+FFFD, or kept raw
// in a RawMessage), lone surrogates such as "\ud800" (replaced), duplicate
// member names (the last wins) and member names in another case ("URLS"
// fills URLs). RFC 8259 section 8.1 requires UTF-8, section 4 says names
// "SHOULD be unique" and that duplicates make behaviour unpredictable, and
// section 8.2 calls a lone surrogate's effect unpredictable. So every
// record body and JSON Lines line is scanned first by checkJSON, which
// refuses all of these with the member's path and byte offset; only then
// does encoding/json decode it.

// maxJSONDepth bounds the nesting of a record, so that the scanner's
// recursion is bounded too.
const maxJSONDepth = 64

// jsonError is a refusal of checkJSON: the member it is in, as a field
// name ("metadata.title", "urls[2]") and as a JSON Pointer, and why.
type jsonError struct {
	field, pointer string
	offset         int
	reason         string
}

func (e *jsonError) Error() string {
	where := e.field
	if where == "" {
		where = "body"
	}
	return fmt.Sprintf("%s: %s at byte offset %d", where, e.reason, e.offset)
}

// fieldError turns e into the FieldError of a refused record.
func (e *jsonError) fieldError() *FieldError {
	return &FieldError{Field: e.field, Pointer: e.pointer, Reason: fmt.Sprintf("%s at byte offset %d", e.reason, e.offset)}
}

// jsonScanner walks one JSON text.
type jsonScanner struct {
	b   []byte
	i   int
	top map[string]bool // the member names allowed at the top level; nil: any
}

// checkJSON checks that b is exactly one JSON value (RFC 8259) in UTF-8,
// without lone surrogates, without duplicate member names in any object,
// and, when top is not nil, an object whose member names are all in top,
// compared exactly.
func checkJSON(b []byte, top map[string]bool) *jsonError {
	s := &jsonScanner{b: b, top: top}
	s.space()
	if top != nil && (s.i >= len(b) || b[s.i] != '{') {
		return s.fail(nil, "want a JSON object")
	}
	if err := s.value(nil, 0); err != nil {
		return err
	}
	s.space()
	if s.i < len(b) {
		return s.fail(nil, "more than one JSON value")
	}
	return nil
}

func (s *jsonScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// fail reports reason at the scanner's offset, in the member path.
func (s *jsonScanner) fail(path []string, reason string) *jsonError {
	e := &jsonError{offset: s.i, reason: reason}
	var f strings.Builder
	p := []byte{'#'}
	for _, seg := range path {
		if seg != "" && seg[0] == '[' {
			f.WriteString(seg)
			p = append(p, '/')
			p = append(p, seg[1:len(seg)-1]...)
			continue
		}
		if f.Len() > 0 {
			f.WriteByte('.')
		}
		f.WriteString(strings.ToValidUTF8(seg, "\uFFFD"))
		p = append(p, '/')
		p = appendPointerToken(p, seg)
	}
	e.field = f.String()
	if len(path) > 0 {
		e.pointer = string(p)
	}
	return e
}

// appendPointerToken appends a reference token of a JSON Pointer in its
// URI fragment form (RFC 6901 sections 3 and 6): "~" and "/" escaped as
// "~0" and "~1", then bytes outside the fragment's characters
// percent-encoded.
func appendPointerToken(p []byte, seg string) []byte {
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		switch {
		case c == '~':
			p = append(p, '~', '0')
		case c == '/':
			p = append(p, '~', '1')
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			strings.IndexByte("-._!$&'()*+,;=:@?", c) >= 0:
			p = append(p, c)
		default:
			p = append(p, '%', "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&15])
		}
	}
	return p
}

func (s *jsonScanner) value(path []string, depth int) *jsonError {
	if depth > maxJSONDepth {
		return s.fail(path, fmt.Sprintf("nested deeper than %d levels", maxJSONDepth))
	}
	if s.i >= len(s.b) {
		return s.fail(path, "unexpected end of JSON")
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return s.object(path, depth)
	case c == '[':
		return s.array(path, depth)
	case c == '"':
		_, err := s.str(path)
		return err
	case c == '-' || ('0' <= c && c <= '9'):
		return s.number(path)
	case c == 't':
		return s.literal(path, "true")
	case c == 'f':
		return s.literal(path, "false")
	case c == 'n':
		return s.literal(path, "null")
	}
	return s.fail(path, fmt.Sprintf("unexpected character %q", rune(s.b[s.i])))
}

func (s *jsonScanner) literal(path []string, lit string) *jsonError {
	if !bytes.HasPrefix(s.b[s.i:], []byte(lit)) {
		return s.fail(path, "invalid literal (want true, false or null)")
	}
	s.i += len(lit)
	return nil
}

// number checks RFC 8259 section 6's grammar:
// [ "-" ] ( "0" / 1-9 *DIGIT ) [ "." 1*DIGIT ] [ ( "e" / "E" ) [ "+" / "-" ] 1*DIGIT ].
func (s *jsonScanner) number(path []string) *jsonError {
	b := s.b
	if b[s.i] == '-' {
		s.i++
	}
	digits := func() int {
		n := 0
		for s.i < len(b) && '0' <= b[s.i] && b[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	switch {
	case s.i < len(b) && b[s.i] == '0':
		s.i++
	case digits() == 0:
		return s.fail(path, "invalid number")
	}
	if s.i < len(b) && b[s.i] == '.' {
		s.i++
		if digits() == 0 {
			return s.fail(path, "invalid number: no digit after the decimal point")
		}
	}
	if s.i < len(b) && (b[s.i] == 'e' || b[s.i] == 'E') {
		s.i++
		if s.i < len(b) && (b[s.i] == '+' || b[s.i] == '-') {
			s.i++
		}
		if digits() == 0 {
			return s.fail(path, "invalid number: no digit in the exponent")
		}
	}
	return nil
}

// str checks a string and returns its decoded value. It refuses control
// characters (RFC 8259 section 7), invalid UTF-8 (section 8.1), unknown
// escapes, and a \u escape of a surrogate that is not half of a pair
// (section 7: a character outside the BMP is "a 12-character sequence,
// encoding the UTF-16 surrogate pair").
func (s *jsonScanner) str(path []string) (string, *jsonError) {
	b := s.b
	s.i++ // opening quote
	var out []byte
	start := s.i
	for {
		if s.i >= len(b) {
			return "", s.fail(path, "unterminated string")
		}
		c := b[s.i]
		switch {
		case c == '"':
			out = append(out, b[start:s.i]...)
			s.i++
			return string(out), nil
		case c < 0x20:
			return "", s.fail(path, fmt.Sprintf("control character U+%04X in a string (escape it)", c))
		case c == '\\':
			out = append(out, b[start:s.i]...)
			r, err := s.escape(path)
			if err != nil {
				return "", err
			}
			out = utf8.AppendRune(out, r)
			start = s.i
		case c < utf8.RuneSelf:
			s.i++
		default:
			r, size := utf8.DecodeRune(b[s.i:])
			if r == utf8.RuneError && size <= 1 {
				return "", s.fail(path, fmt.Sprintf("invalid UTF-8 (byte 0x%02X)", c))
			}
			s.i += size
		}
	}
}

// escape reads one escape sequence at s.i (the backslash) and returns the
// character it stands for.
func (s *jsonScanner) escape(path []string) (rune, *jsonError) {
	b := s.b
	if s.i+1 >= len(b) {
		return 0, s.fail(path, "unterminated escape")
	}
	s.i += 2
	switch b[s.i-1] {
	case '"':
		return '"', nil
	case '\\':
		return '\\', nil
	case '/':
		return '/', nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
	default:
		s.i -= 2
		return 0, s.fail(path, fmt.Sprintf("invalid escape \\%c", b[s.i+1]))
	}
	at := s.i - 2
	r, ok := s.hex4()
	if !ok {
		s.i = at
		return 0, s.fail(path, "invalid \\u escape (want four hexadecimal digits)")
	}
	switch {
	case 0xDC00 <= r && r <= 0xDFFF:
		s.i = at
		return 0, s.fail(path, fmt.Sprintf("lone surrogate \\u%04X", r))
	case 0xD800 <= r && r <= 0xDBFF:
		if s.i+1 < len(b) && b[s.i] == '\\' && b[s.i+1] == 'u' {
			s.i += 2
			lo, ok := s.hex4()
			if ok && 0xDC00 <= lo && lo <= 0xDFFF {
				return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), nil
			}
		}
		s.i = at
		return 0, s.fail(path, fmt.Sprintf("lone surrogate \\u%04X", r))
	}
	return r, nil
}

func (s *jsonScanner) hex4() (rune, bool) {
	if s.i+4 > len(s.b) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(s.b[s.i:s.i+4]), 16, 16)
	if err != nil {
		return 0, false
	}
	s.i += 4
	return rune(v), true
}

func (s *jsonScanner) object(path []string, depth int) *jsonError {
	s.i++ // {
	seen := map[string]bool{}
	s.space()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return nil
	}
	for {
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return s.fail(path, "want a member name (a string)")
		}
		at := s.i
		name, err := s.str(path)
		if err != nil {
			return err
		}
		member := append(path[:len(path):len(path)], name)
		if seen[name] {
			s.i = at
			return s.fail(member, "duplicate member name "+strconv.Quote(name)+" (RFC 8259 section 4)")
		}
		seen[name] = true
		if depth == 0 && s.top != nil && !s.top[name] {
			s.i = at
			return s.fail(member, "unknown member "+strconv.Quote(name)+" (member names are compared exactly)")
		}
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return s.fail(member, "want \":\" after the member name")
		}
		s.i++
		s.space()
		if err := s.value(member, depth+1); err != nil {
			return err
		}
		s.space()
		if s.i >= len(s.b) {
			return s.fail(path, "unterminated object")
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			return nil
		default:
			return s.fail(path, "want \",\" or \"}\" after a member")
		}
	}
}

func (s *jsonScanner) array(path []string, depth int) *jsonError {
	s.i++ // [
	s.space()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return nil
	}
	for n := 0; ; n++ {
		s.space()
		if err := s.value(append(path[:len(path):len(path)], "["+strconv.Itoa(n)+"]"), depth+1); err != nil {
			return err
		}
		s.space()
		if s.i >= len(s.b) {
			return s.fail(path, "unterminated array")
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case ']':
			s.i++
			return nil
		default:
			return s.fail(path, "want \",\" or \"]\" after an element")
		}
	}
}

// recordMembers are the member names of a Record, as JSON writes them.
var recordMembers = map[string]bool{"urn": true, "urls": true, "metadata": true, "synonyms": true}

// decodeRecord decodes a record from one JSON text, strictly: checkJSON
// first, then encoding/json for the members' types. On failure it returns
// what it could read of the record too (its URN, if any), so that an
// import can refuse the rest of that record's lines.
func decodeRecord(b []byte) (Record, *FieldError) {
	var rec Record
	if je := checkJSON(b, recordMembers); je != nil {
		// Lenient decoding only to learn which record the line was.
		var partial struct {
			URN string `json:"urn"`
		}
		if json.Unmarshal(b, &partial) == nil && utf8.ValidString(partial.URN) {
			rec.URN = partial.URN
		}
		return rec, je.fieldError()
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		fe := &FieldError{Reason: "not a record: " + jsonReason(err)}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			fe.Field, fe.Pointer = te.Field, pointerOf(te.Field)
		}
		return Record{URN: rec.URN}, fe
	}
	return rec, nil
}
