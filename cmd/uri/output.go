package main

import (
	"bufio"
	"encoding/hex"
	"errors"
	"io"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/urikit/urikit/internal/jsonstr"
	"github.com/urikit/urikit/iri"
	"github.com/urikit/urikit/surt"
	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/urn"
	"github.com/urikit/urikit/whatwg"
)

// writer writes the output of one run: one line per input (or none,
// for check), plain or JSON Lines. A command builds the current line
// with the methods below; the loop hands it to a large buffer once the
// input is done. Writing stops at the first error, which close reports.
type writer struct {
	w    *bufio.Writer
	json bool
	in   string // the current input
	// B holds the lines not yet written out, the current one from mark
	// on; JSON objects are written with the module's one JSON writer.
	jsonstr.Object
	mark int
	// holdLines keeps each line whole in B until it ends (spill does
	// nothing): --skip-errors may move a refused input's output to
	// standard error.
	holdLines bool
	// spilled says that spill wrote out part of the current line.
	spilled bool
	err     error
	// repairHint adds to the error of a non-ASCII byte that --repair
	// would turn it into a URI (the commands that take --repair).
	repairHint bool
	// repairs are the changes --repair made to the current input,
	// written as "repairs" at the end of its JSON object.
	repairs []iri.Change
	// spillFunc is spill for a library that writes into B
	// (scheme.AppendJSONFlush): made once, not a closure per line.
	spillFunc func([]byte) []byte
}

func newWriter(w io.Writer, json bool) *writer {
	wr := &writer{w: bufio.NewWriterSize(w, 256<<10), json: json}
	wr.spillFunc = func(b []byte) []byte {
		wr.B = b
		wr.spill()
		return wr.B
	}
	return wr
}

// The lines are built in B one after the other, the current one from
// mark on, and B goes out when it holds a block's worth: each byte of
// output is copied once, not into a line and then into a buffer (the
// output of parse --json is nine times its input).

// blockSize is how much output B gathers before it is written.
const blockSize = 256 << 10

// line returns the current line, from mark on.
func (w *writer) current() []byte { return w.B[w.mark:] }

// dropLine drops what the current line holds so far.
func (w *writer) dropLine() { w.B = w.B[:w.mark] }

// flushLine ends the current line; false means that writing failed and
// the run should stop.
func (w *writer) flushLine() bool {
	if len(w.B) >= blockSize {
		w.writeOut()
	}
	w.mark = len(w.B)
	return w.err == nil
}

// spill writes B out when it holds more than a block, the current line
// included, which from then on cannot be dropped: a command calls it
// only once the current input has succeeded, between the parts of a
// long line (parse --json of a 10 MB URI), so that the line is never
// held whole: memory stays within a few times the input (issue 20).
func (w *writer) spill() {
	if len(w.B) > blockSize && !w.holdLines {
		w.writeOut()
		w.spilled = true
	}
}

// writeOut hands B to the buffered writer.
func (w *writer) writeOut() {
	if w.err == nil && len(w.B) > 0 {
		_, w.err = w.w.Write(w.B)
	}
	w.B, w.mark = w.B[:0], 0
}

// flush writes everything out (when the input may block).
func (w *writer) flush() {
	w.writeOut()
	if w.err == nil {
		w.err = w.w.Flush()
	}
}

// close flushes and returns the first write error.
func (w *writer) close() error {
	w.flush()
	return w.err
}

// result is what one input gave; the loop writes it, plain or JSON, as
// the type says. The results below are those of most subcommands; a
// subcommand with its own form of output has its own result type.
type result interface{ write(w *writer) }

// render is the result of a subcommand whose output has a form of its
// own (plan, urn parse, urn show, the URL Standard's getters): the
// function that writes it, which only the loop calls.
type render func(w *writer)

func (r render) write(w *writer) { r(w) }

// The results of most subcommands. Each input's result is written
// before the next input is read, so a call keeps one box of each kind
// and hands out a pointer to it: a result costs no allocation (an
// interface holding a string or a URI by value would cost one per
// input).
type boxes struct {
	text       textResult
	components componentsResult
	edited     editedResult
	warnings   warningsResult
	filled     filledResult
}

// textResult is one string: plain, the line; JSON, {"input", "result"}.
type textResult struct{ s string }

func (r *textResult) write(w *writer) { w.result(r.s) }

// text returns the result that is s.
func (c *call) text(s string) result { c.box.text.s = s; return &c.box.text }

// componentsResult is a parsed URI: plain "scheme=S ... path=P ...";
// JSON, every component and its scheme data (uri parse).
type componentsResult struct{ u uri.URI }

func (r *componentsResult) write(w *writer) { w.components(r.u) }

// components returns the result that shows u's components.
func (c *call) components(u uri.URI) result { c.box.components.u = u; return &c.box.components }

// editedResult is a URI a subcommand made: plain, the URI; JSON, its
// components as parse gives them.
type editedResult struct{ u uri.URI }

func (r *editedResult) write(w *writer) {
	if w.json {
		w.components(r.u)
		return
	}
	w.line(r.u.String())
}

// edited returns the result that is the URI u a subcommand made.
func (c *call) edited(u uri.URI) result { c.box.edited.u = u; return &c.box.edited }

// warningsResult is the warnings of a valid input (check --warn):
// plain, "INPUT<TAB>warning: W" per warning; JSON, {"input",
// "warnings"}; nothing without warnings.
type warningsResult struct{ ws, details []string }

func (r *warningsResult) write(w *writer) { w.warnings(r.ws, r.details) }

// warnings returns the result that is the warnings ws (codes), with the
// details plain output adds to each, if any.
func (c *call) warnings(ws []string, details ...[]string) result {
	c.box.warnings = warningsResult{ws: ws}
	if len(details) > 0 {
		c.box.warnings.details = details[0]
	}
	return &c.box.warnings
}

// filledResult is a template filled in for a URI (uri get).
type filledResult struct {
	c *call
	t *template
	u uri.URI
}

func (r *filledResult) write(w *writer) { r.t.write(r.c, w, r.u) }

// filled returns the result that is t filled in for u.
func (c *call) filled(t *template, u uri.URI) result {
	c.box.filled = filledResult{c, t, u}
	return &c.box.filled
}

// line appends a plain output line, its control characters escaped
// (appendPlain).
func (w *writer) line(s string) {
	w.plain(s)
	w.B = append(w.B, '\n')
}

// plain appends s escaped for plain output (appendPlain) a block at a
// time, spilling between blocks: a line of megabytes of controls is
// four times as long escaped, and is never held whole.
func (w *writer) plain(s string) {
	for len(s) > blockSize/4 {
		n := blockSize / 4
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++ // a C1 control (0xC2 0x80...) is escaped whole
		}
		w.B = appendPlain(w.B, s[:n])
		s = s[n:]
		w.spill()
	}
	w.B = appendPlain(w.B, s)
}

// raw appends s as it is (a serialized URL: no control), a block at a
// time, spilling between blocks.
func (w *writer) raw(s string) {
	for len(s) > blockSize {
		w.B = append(w.B, s[:blockSize]...)
		s = s[blockSize:]
		w.spill()
	}
	w.B = append(w.B, s...)
}

// appendPlain appends s for plain output: one input gives one line, and
// nothing an input holds may drive a terminal. A line break is written
// \n or \r, every other C0 control but TAB, DEL and the C1 controls
// \xNN (\u0085 for a C1 control, which is two bytes in UTF-8). JSON
// output keeps the real string.
func appendPlain(b []byte, s string) []byte {
	b = jsonstr.Grow(b, len(s)+1)
	for i := 0; i < len(s); i++ {
		if plainEscape[s[i]] != 0 && (s[i] != 0xc2 || i+1 < len(s) && s[i+1] < 0xa0 && s[i+1] >= 0x80) {
			return appendEscaped(append(b, s[:i]...), s[i:])
		}
	}
	return append(b, s...)
}

func appendEscaped(b []byte, s string) []byte {
	b = jsonstr.Grow(b, len(s)+len(s)/2)
	// An escape is up to 6 bytes (\u0085): room for them all at once
	// (doubling), not a quarter more at a time.
	if n := len(s) * 6; n > cap(b)-len(b) {
		b = jsonstr.Grow(b, n)
	}
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
	w.longStr("result", s)
	w.end()
}

// begin starts the JSON object of the current input: {"input": ...,
// with "input_hex" when the input is not valid UTF-8 (JSON would show
// U+FFFD in its place, and the line could not be matched back).
func (w *writer) begin() {
	w.Open()
	w.longStr("input", w.in)
	if !utf8.ValidString(w.in) {
		w.Key("input_hex")
		w.B = append(w.B, '"')
		for s := w.in; len(s) > 0; {
			n := min(len(s), blockSize/2)
			w.B = hex.AppendEncode(jsonstr.Grow(w.B, 2*n), []byte(s[:n]))
			s = s[n:]
			w.spill()
		}
		w.B = append(w.B, '"')
	}
}

// longOpt is longStr, or null when s is undefined.
func (w *writer) longOpt(name, s string, defined bool) {
	if !defined {
		w.Null(name)
		return
	}
	w.longStr(name, s)
}

// longStr writes a string member that may be long (an input of
// megabytes, six times as long once its controls are escaped) a block
// at a time, spilling between blocks: the JSON of a result is written
// once the input is done, so the line is never dropped after.
func (w *writer) longStr(name, s string) {
	w.Key(name)
	w.longValue(s)
}

// longValue writes s as a JSON string, a block at a time (longStr).
func (w *writer) longValue(s string) {
	if len(s) <= blockSize {
		w.B = jsonstr.Append(w.B, s)
		return
	}
	w.B = append(w.B, '"')
	for len(s) > 0 {
		n := min(len(s), blockSize/8)
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++ // a block ends at a character's start
		}
		w.B = jsonstr.AppendEscaped(w.B, s[:n])
		s = s[n:]
		w.spill()
	}
	w.B = append(w.B, '"')
}

// end closes the JSON object and its line, with the "repairs" of the
// input when --repair changed it.
func (w *writer) end() {
	if w.repairs != nil {
		w.Key("repairs")
		w.B = append(w.B, '[')
		for i, r := range w.repairs {
			if i > 0 {
				w.B = append(w.B, ',')
			}
			w.B = append(w.B, `{"offset":`...)
			w.B = strconv.AppendInt(w.B, int64(r.Offset), 10)
			w.B = append(w.B, `,"from":`...)
			w.longValue(r.From)
			w.B = append(w.B, `,"to":`...)
			w.longValue(r.To)
			w.B = append(w.B, '}')
			w.spill()
		}
		w.B = append(w.B, ']')
	}
	w.B = append(w.B, '}', '\n')
}

// appendSafe appends key (`,"name":`) and s as a JSON string, or null
// when s is undefined; s must need no escaping (a parsed reference
// needs none: TestParsedIsJSONSafe).
func appendSafe(b []byte, key, s string, defined bool) []byte {
	b = jsonstr.Grow(b, len(key)+len(s)+2)
	b = append(b, key...)
	if !defined {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// failure writes the line of a failed input: plain "error: OFFSET:
// REASON" ("INPUT<TAB>error: ..." when withInput), or JSON {"input",
// "error", "offset"}. Whatever the command had begun writing for the
// input is dropped.
func (w *writer) failure(in string, err error, withInput bool) {
	off, reason := describe(in, err)
	w.dropLine()
	if w.repairHint && off >= 0 && off < len(in) && in[off] >= 0x80 && errors.Is(err, uri.ErrInvalidCharacter) {
		// Pasted text and IDN hosts: say what turns it into a URI.
		reason += " (an IRI: use --repair or uri iri-to-uri)"
	}
	if w.json {
		w.begin()
		w.Str("error", reason)
		w.Int("offset", off)
		w.end()
		return
	}
	if withInput {
		w.plain(in)
		w.B = append(w.B, '\t')
	}
	w.errorLine(off, reason)
}

// errorLine appends the plain "error: OFFSET: REASON" line, the offset
// left out when it is negative.
func (w *writer) errorLine(off int, reason string) {
	w.B = append(w.B, "error: "...)
	if off >= 0 {
		w.B = strconv.AppendInt(w.B, int64(off), 10)
		w.B = append(w.B, ':', ' ')
	}
	w.B = append(w.B, reason...)
	w.B = append(w.B, '\n')
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
	if errors.Is(err, surt.ErrEmpty) {
		// The whole line is read and no URL began: the end is to blame.
		return len(in), "no URL: the line is empty or only spaces and controls"
	}
	return -1, err.Error()
}

// appendJSONString appends s to b as a JSON string (internal/jsonstr).
func appendJSONString(b []byte, s string) []byte { return jsonstr.Append(b, s) }

// keyResult is a key or a canonical URL that package surt appended to b
// (uri surt, uri canon): plain, the line; JSON, {"input", "result"}. The
// command keeps one and reuses b, so that a key costs no allocation.
type keyResult struct{ b []byte }

func (r *keyResult) write(w *writer) {
	// b is valid until the next input; result copies it.
	w.result(unsafe.String(unsafe.SliceData(r.b), len(r.b)))
}
