package main

import (
	"bufio"
	"encoding/hex"
	"errors"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/urikit/urikit/internal/jsonstr"
	"github.com/urikit/urikit/iri"
	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/urn"
	"github.com/urikit/urikit/whatwg"
)

// writer writes the output of one run: one line per input (or none,
// for check), plain or JSON Lines. A command builds the current line
// with the methods below; the loop hands it to a large buffer once the
// input is done. Writing stops at the first error, which close reports.
type writer struct {
	w     *bufio.Writer
	json  bool
	in    string // the current input
	b     []byte // the current line(s)
	first bool   // no JSON field written yet in the current object
	err   error
	// repairHint adds to the error of a non-ASCII byte that --repair
	// would turn it into a URI (the commands that take --repair).
	repairHint bool
	// repairs are the changes --repair made to the current input,
	// written as "repairs" at the end of its JSON object.
	repairs []iri.Change
}

func newWriter(w io.Writer, json bool) *writer {
	return &writer{w: bufio.NewWriterSize(w, 256<<10), json: json}
}

// flushLine moves the current line to the buffer; false means that
// writing failed and the run should stop.
func (w *writer) flushLine() bool {
	if w.err == nil && len(w.b) > 0 {
		_, w.err = w.w.Write(w.b)
	}
	w.b = w.b[:0]
	return w.err == nil
}

// flush writes the buffer out (when the input may block).
func (w *writer) flush() {
	if w.err == nil {
		w.err = w.w.Flush()
	}
}

// close flushes and returns the first write error.
func (w *writer) close() error {
	w.flush()
	return w.err
}

// line appends a plain output line, its control characters escaped
// (appendPlain).
func (w *writer) line(s string) {
	w.b = appendPlain(w.b, s)
	w.b = append(w.b, '\n')
}

// appendPlain appends s for plain output: one input gives one line, and
// nothing an input holds may drive a terminal. A line break is written
// \n or \r, every other C0 control but TAB, DEL and the C1 controls
// \xNN (\u0085 for a C1 control, which is two bytes in UTF-8). JSON
// output keeps the real string.
func appendPlain(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if plainEscape[s[i]] != 0 && (s[i] != 0xc2 || i+1 < len(s) && s[i+1] < 0xa0 && s[i+1] >= 0x80) {
			return appendEscaped(append(b, s[:i]...), s[i:])
		}
	}
	return append(b, s...)
}

func appendEscaped(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case plainEscape[c] == 0:
			b = append(b, c)
		case c == 0xc2:
			if i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] < 0xa0 {
				b = append(b, `\u00`...)
				b = append(b, hexDigits[s[i+1]>>4], hexDigits[s[i+1]&15])
				i++
			} else {
				b = append(b, c)
			}
		default:
			b = append(b, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
		}
	}
	return b
}

// plainEscape marks the bytes appendPlain looks at: C0 but TAB, DEL,
// and 0xC2, the first byte of the C1 controls U+0080 to U+009F.
var plainEscape = func() (t [256]uint8) {
	for c := 0; c < 0x20; c++ {
		t[c] = 1
	}
	t['\t'] = 0
	t[0x7f], t[0xc2] = 1, 1
	return t
}()

// result writes the one result of an input: plain, the string; JSON,
// {"input", "result"}.
func (w *writer) result(s string) {
	if !w.json {
		w.line(s)
		return
	}
	w.begin()
	w.str("result", s)
	w.end()
}

// begin starts the JSON object of the current input: {"input": ...,
// with "input_hex" when the input is not valid UTF-8 (JSON would show
// U+FFFD in its place, and the line could not be matched back).
func (w *writer) begin() {
	w.b = append(w.b, '{')
	w.first = true
	w.str("input", w.in)
	if !utf8.ValidString(w.in) {
		w.str("input_hex", hex.EncodeToString([]byte(w.in)))
	}
}

// end closes the JSON object and its line, with the "repairs" of the
// input when --repair changed it.
func (w *writer) end() {
	if w.repairs != nil {
		w.key("repairs")
		w.b = append(w.b, '[')
		for i, r := range w.repairs {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.b = append(w.b, `{"offset":`...)
			w.b = strconv.AppendInt(w.b, int64(r.Offset), 10)
			w.b = append(w.b, `,"from":`...)
			w.b = appendJSONString(w.b, r.From)
			w.b = append(w.b, `,"to":`...)
			w.b = appendJSONString(w.b, r.To)
			w.b = append(w.b, '}')
		}
		w.b = append(w.b, ']')
	}
	w.b = append(w.b, '}', '\n')
}

// key appends `"name":` with its comma.
func (w *writer) key(name string) {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
	w.b = append(w.b, '"')
	w.b = append(w.b, name...)
	w.b = append(w.b, '"', ':')
}

// str appends a string field.
func (w *writer) str(name, s string) {
	w.key(name)
	w.b = appendJSONString(w.b, s)
}

// opt appends a string field, or null when it is undefined.
func (w *writer) opt(name, s string, defined bool) {
	w.key(name)
	if !defined {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = appendJSONString(w.b, s)
}

// appendSafe appends key (`,"name":`) and s as a JSON string, or null
// when s is undefined; s must need no escaping (jsonSafe).
func appendSafe(b []byte, key, s string, defined bool) []byte {
	b = append(b, key...)
	if !defined {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// jsonSafe reports whether s is printable ASCII without '"' and '\\'.
func jsonSafe(s string) bool {
	for _, c := range []byte(s) {
		if safeJSON[c] == 0 {
			return false
		}
	}
	return true
}

// safeJSON marks the bytes a JSON string holds as they are.
var safeJSON = func() (t [256]uint8) {
	for c := 0x20; c < 0x7f; c++ {
		if c != '"' && c != '\\' {
			t[c] = 1
		}
	}
	return t
}()

// num appends an integer field, or null when n is negative.
func (w *writer) num(name string, n int) {
	w.key(name)
	if n < 0 {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = strconv.AppendInt(w.b, int64(n), 10)
}

// boolean appends a boolean field.
func (w *writer) boolean(name string, v bool) {
	w.key(name)
	w.b = strconv.AppendBool(w.b, v)
}

// strs appends an array of strings, [] when empty.
func (w *writer) strs(name string, ss []string) {
	w.key(name)
	w.b = append(w.b, '[')
	for i, s := range ss {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = appendJSONString(w.b, s)
	}
	w.b = append(w.b, ']')
}

// raw appends a field whose value is already JSON.
func (w *writer) raw(name string, v []byte) {
	w.key(name)
	w.b = append(w.b, v...)
}

// failure writes the line of a failed input: plain "error: OFFSET:
// REASON" ("INPUT<TAB>error: ..." when withInput), or JSON {"input",
// "error", "offset"}. Whatever the command had begun writing for the
// input is dropped.
func (w *writer) failure(in string, err error, withInput bool) {
	off, reason := describe(in, err)
	if w.repairHint && off >= 0 && off < len(in) && in[off] >= 0x80 && errors.Is(err, uri.ErrInvalidCharacter) {
		// Pasted text and IDN hosts: say what turns it into a URI.
		reason += " (an IRI: use --repair or uri iri-to-uri)"
	}
	w.b = w.b[:0]
	if w.json {
		w.begin()
		w.str("error", reason)
		w.num("offset", off)
		w.end()
		return
	}
	if withInput {
		w.b = appendPlain(w.b, in)
		w.b = append(w.b, '\t')
	}
	w.b = append(w.b, "error: "...)
	if off >= 0 {
		w.b = strconv.AppendInt(w.b, int64(off), 10)
		w.b = append(w.b, ':', ' ')
	}
	w.b = append(w.b, reason...)
	w.b = append(w.b, '\n')
}

// describe returns the byte offset in the input in and the reason of a
// failure, the offset given once: "invalid character '{' in path". The
// offset is -1 when no byte of in is to blame (the error is about a
// base, or about no byte).
func describe(in string, err error) (offset int, reason string) {
	var pe *uri.ParseError // urn.ParseError is the same type
	if errors.As(err, &pe) {
		if pe.Input != in {
			return -1, pe.Detail() + " of " + strconv.Quote(pe.Input)
		}
		return pe.Offset, pe.Detail()
	}
	var re *uri.ResolveError
	if errors.As(err, &re) {
		if re.Input != in {
			return -1, re.Reason.Error() + " of " + strconv.Quote(re.Input)
		}
		return re.Offset, re.Reason.Error()
	}
	var we *whatwg.ParseError
	if errors.As(err, &we) {
		if we.Input != in {
			return -1, we.Err.String() + " of " + strconv.Quote(we.Input)
		}
		return we.Offset, we.Err.String()
	}
	var ne *urn.NamespaceError
	if errors.As(err, &ne) {
		return ne.Offset, ne.Error()
	}
	return -1, err.Error()
}

// appendJSONString appends s to b as a JSON string (internal/jsonstr).
func appendJSONString(b []byte, s string) []byte { return jsonstr.Append(b, s) }
