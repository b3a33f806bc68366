package main

import (
	"bufio"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/urikit/urikit/extract"
	"github.com/urikit/urikit/htmldoc"
	"github.com/urikit/urikit/internal/httpjson"
	"github.com/urikit/urikit/internal/jsonstr"
	"github.com/urikit/urikit/internal/quote"
	"github.com/urikit/urikit/iri"
	"github.com/urikit/urikit/scheme"
	"github.com/urikit/urikit/surt"
	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/urn"
	"github.com/urikit/urikit/whatwg"
)

// The output of the command: the writer, and the results of the
// subcommands with their two forms, plain and JSON. A subcommand
// returns a result, which is data; only the methods in this file write
// it, and JSON only through the module's one JSON writer
// (jsonstr.Object).

// writer writes the output of one run: one line per input (or none,
// for check), plain or JSON Lines. A result builds the current line
// with the methods below; the loop hands it to a large buffer once the
// input is done. Writing stops at the first error, which close reports.
type writer struct {
	w    *bufio.Writer
	json bool
	in   string // the current input
	// B holds the lines not yet written out, the current one from mark
	// on; JSON is written with the module's one JSON writer, whose
	// Flush is spill: a long string or array is written out a block at
	// a time.
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
}

func newWriter(w io.Writer, json bool) *writer {
	wr := &writer{w: bufio.NewWriterSize(w, 256<<10), json: json}
	// Made once, not a closure per line.
	wr.Flush = func(b []byte) []byte {
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

// current returns the current line, from mark on.
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

// endSpilled ends a line that spill wrote out in part and that cannot
// be dropped: what comes next stands on a line of its own.
func (w *writer) endSpilled() {
	w.B = append(w.B, '\n')
	w.mark = len(w.B)
}

// replaceLine makes the current line prefix and msg (which may be the
// current line itself).
func (w *writer) replaceLine(prefix string, msg []byte) {
	line := append([]byte(prefix), msg...)
	w.dropLine()
	w.B = append(w.B, line...)
}

// spill writes B out when it holds more than a block, the current line
// included, which from then on cannot be dropped: a result calls it
// (through jsonstr.Object's Flush, or itself) only once the current
// input has succeeded, between the parts of a long line (parse --json of
// a 10 MB URI), so that the line is never held whole: memory stays
// within a few times the input (issue 20).
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

// result is what one input gave (or, for the subcommands that read
// their inputs themselves, one line of their output): data that the
// loop writes in the form the flags ask for.
type result interface {
	// writeJSON writes the JSON line.
	writeJSON(w *writer)
	// writePlain writes the plain line (or lines).
	writePlain(w *writer)
}

// write writes r in the writer's form (a function of a type parameter,
// not a method: a result given by value is not boxed).
func write[R result](w *writer, r R) {
	if w.json {
		r.writeJSON(w)
	} else {
		r.writePlain(w)
	}
}

// The results of the subcommands that read inputs. Each input's result
// is written before the next input is read, so a call keeps one box of
// each kind and hands out a pointer to it: a result costs no allocation
// (an interface holding a string or a URI by value would cost one per
// input).
type boxes struct {
	text       textResult
	components componentsResult
	edited     editedResult
	warnings   warningsResult
	filled     filledResult
	plan       planResult
	urnParts   urnPartsResult
	urnShow    urnShowResult
	whatwg     whatwgResult
	refused    whatwgRefusal
}

// The JSON object of an input: {"input": ..., the result's members,
// "repairs" when --repair changed the input}.

// begin starts the JSON object of the current input: {"input": ...,
// with "input_hex" when the input is not valid UTF-8 (JSON would show
// U+FFFD in its place, and the line could not be matched back).
// It reports whether the input needed no escape (it is written as it
// is).
func (w *writer) begin() (clean bool) {
	w.Open()
	if jsonstr.NeedsNoEscape(w.in) { // most inputs: printable ASCII
		w.Part("input", w.in, true, true)
		return true
	}
	w.LongStr("input", w.in)
	if !utf8.ValidString(w.in) {
		w.Hex("input_hex", w.in)
	}
	return false
}

// end closes the JSON object and its line, with the "repairs" of the
// input when --repair changed it.
func (w *writer) end(repairs []iri.Change) {
	if repairs != nil {
		w.Array("repairs")
		for _, r := range repairs {
			w.Elem().Open().Int("offset", r.Offset).LongStr("from", r.From).LongStr("to", r.To).Close()
		}
		w.End()
	}
	w.Close()
	w.B = append(w.B, '\n')
}

// endLine closes a JSON object that is a line of its own (no input).
func (w *writer) endLine() {
	w.Close()
	w.B = append(w.B, '\n')
}

// textResult is one string: plain, the line; JSON, {"input", "result"}.
type textResult struct {
	s string
	// uri says that s is the text of a URI, which holds no control
	// character: plain output writes it without looking for one.
	uri     bool
	repairs []iri.Change
}

func (r *textResult) writePlain(w *writer) {
	if r.uri {
		w.raw(r.s)
	} else {
		w.plain(r.s)
	}
	w.B = append(w.B, '\n')
}

func (r *textResult) writeJSON(w *writer) {
	w.begin()
	w.LongStr("result", r.s)
	w.end(r.repairs)
}

// text returns the result that is s.
func (c *call) text(s string) result {
	c.box.text = textResult{s: s}
	return &c.box.text
}

// uriText returns the result that is u's text, made from an input
// --repair changed as repairs say (nil when it did not).
func (c *call) uriText(u uri.URI, repairs []iri.Change) result {
	c.box.text = textResult{s: u.String(), uri: true, repairs: repairs}
	return &c.box.text
}

// repairedText returns the result that is s, made from an input that
// --repair changed as repairs say.
func (c *call) repairedText(s string, repairs []iri.Change) result {
	c.box.text = textResult{s: s, repairs: repairs}
	return &c.box.text
}

// componentsResult is a parsed URI: plain "scheme=S ... path=P ...";
// JSON, every component and its scheme data (uri parse).
type componentsResult struct {
	u       uri.URI
	repairs []iri.Change
}

// writeJSON writes {"input", "scheme", "userinfo", "host", "host_type",
// "port", "path", "query", "fragment", "params", "scheme_data"}, null
// for an undefined component. Any part may be long (a repaired input, an
// edited URI): each is written a block at a time.
func (r *componentsResult) writeJSON(w *writer) {
	if r.repairs == nil && len(w.in) <= shortInput {
		var p parts
		var l lineScan
		if p.read(&r.u); sameString(p.s, w.in) && l.scan(p.s) {
			// Most inputs: a URI as it was read, short and clean.
			// Its line is written in one run on B, whole (nothing to
			// flush), from its "{" to its newline: the Object's state
			// is as the line before left it, and as this one would
			// leave it.
			w.B = appendShort(w.B, &p, &l, &r.u)
			return
		}
	}
	r.writeLongJSON(w)
}

// shortRoom is the room appendShort needs for a line of text s, but for
// a long list of "params" and a "scheme_data" other than http's: the
// members up to "params" and the padding of their last run (appendRun),
// then http's "scheme_data" and the line's end.
func shortRoom(s string) int {
	return 2*len(s) + 200 + len(constRun{}.b) + len(`,"scheme_data":`) + httpjson.NameSize(s) + len("}\n")
}

// appendShortParams appends "params" for appendShort.
func appendShortParams(b []byte, p *parts, l *lineScan, u *uri.URI) []byte {
	switch {
	case !p.hasQuery:
		return append(b, `,"params":null`...)
	case !l.has(classPct, p.queryAt, p.queryAt+len(p.query)) && !l.has(classPlus, p.queryAt, p.queryAt+len(p.query)):
		// The pairs are their decoded keys and values, and need no
		// escape: they are parts of the line.
		b = append(b, `,"params":[`...)
		for i, q := range uri.ParseParams(p.query).All() {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `["`...)
			b = append(b, q.RawKey()...)
			b = append(b, `","`...)
			b = append(b, q.RawValue()...)
			b = append(b, `"]`...)
		}
		return append(b, ']')
	}
	return appendParams(b, u, nil)
}

// sameString reports whether a and b are the same string in memory (a
// URI's text is the input it was parsed from, unless it was rebuilt): no
// call to compare their bytes.
func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// appendShort appends the JSON line of the URI u, whose parts p are,
// whose text is short (shortInput) and needs no escape, as l says, after
// one growth for the whole line but a long list of "params".
func appendShort(b []byte, p *parts, l *lineScan, u *uri.URI) []byte {
	b = jsonstr.Grow(b, shortRoom(p.s))
	b = appendShortParts(b, p)
	if !p.hasQuery && !p.hasFragment { // most of a crawl
		b = appendRun(b, &noQueryRun) // "query", "fragment" and "params": null
	} else {
		b = appendShortParams(appendShortTail(b, p), p, l, u)
	}
	// "scheme_data": an http URL with a host name, no port and no
	// userinfo (most of them) from the parts at hand
	// (httpjson.AppendName's checks, on the line's classes); any other
	// through package scheme.
	if p.kind == uri.RegName && !p.hasUserinfo && !p.hasPort && !p.hasFragment && httpjson.IsName(p.scheme, p.host, p.path) &&
		!l.has(classPct, p.hostAt, p.hostAt+len(p.host)) &&
		(p.query == "" || l.has(classPair, p.queryAt, p.queryAt+len(p.query))) { // not a search (httpjson.IsSearch)
		b = httpjson.AppendNameGrown(append(b, `,"scheme_data":`...), p.s, p.scheme, p.host, p.path, p.query, p.hasQuery)
		return append(b, '}', '\n')
	}
	return append(appendSchemeData(b, *u, nil), '}', '\n')
}

// writeLongJSON is writeJSON for any URI: a repaired input, an edited
// URI, a long one (each part a block at a time).
func (r *componentsResult) writeLongJSON(w *writer) {
	u := &r.u
	r.writeParts(w)
	w.B = appendParams(w.B, u, w.Flush)
	w.spill()
	w.B = appendSchemeData(w.B, *u, w.Flush)
	w.end(r.repairs)
}

// appendParams appends "params": the query's key=value pairs in order,
// each [name, value] decoded as HTML forms decode them ("+" is a space;
// uri.Params), or null when there is no query. A pair without "=" has
// the value "". With flush, a long list is written out between pairs.
func appendParams(b []byte, u *uri.URI, flush func([]byte) []byte) []byte {
	if !u.HasQuery() {
		return append(b, `,"params":null`...)
	}
	b = append(b, `,"params":[`...)
	for i, q := range u.QueryParams().All() {
		if flush != nil && len(b) > jsonstr.FlushSize {
			b = flush(b)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = jsonstr.Append(b, q.Key())
		b = append(b, ',')
		b = jsonstr.Append(b, q.Value())
		b = append(b, ']')
	}
	return append(b, ']')
}

// shortInput is the longest input whose components appendShortParts
// writes: far below jsonstr.FlushSize, so that no part is one that the
// writer would write a block at a time.
const shortInput = 4 << 10

// parts are the components of a URI, each read once.
type parts struct {
	s, scheme, userinfo, host, port, path, query, fragment string
	hostAt, queryAt                                        int // where host and query start in s
	kind                                                   uri.HostKind
	hasScheme, hasUserinfo, hasPort, hasQuery, hasFragment bool
}

// read sets p, the zero parts, to u's components with as few accessor
// calls as it can: the flags and most components follow
// from where the others end in u's text, which is [scheme ":"] ["//"
// [userinfo "@"] host [":" port]] path ["?" query] ["#" fragment].
func (p *parts) read(u *uri.URI) {
	// p is the zero parts: only what u has is set. Field by field: a
	// composite value built and then copied into *p stalls on loading
	// what was just stored, in other widths.
	s := u.String()
	p.s = s
	p.scheme = u.Scheme()
	p.hasScheme = p.scheme != "" // a scheme has a letter at least
	i := 0                       // where the authority or the path starts
	if p.hasScheme {
		i = len(p.scheme) + len(":")
	}
	p.kind = u.HostKind() // NoHost: no authority
	if p.kind != uri.NoHost {
		auth := u.Authority()
		p.host = auth
		i += len("//")
		p.hostAt = i
		if u.HasUserinfo() || u.HasPort() { // rare
			p.host = u.Host()
			p.userinfo, p.hasUserinfo = u.Userinfo(), u.HasUserinfo()
			p.port, p.hasPort = u.Port(), u.HasPort()
			if p.hasUserinfo {
				p.hostAt += len(p.userinfo) + len("@")
			}
		}
		i += len(auth)
	}
	p.path = u.Path()
	i += len(p.path) // where the path ends: "?", "#" or the end
	if i < len(s) && s[i] == '?' {
		p.query, p.hasQuery, p.queryAt = u.Query(), true, i+len("?")
		i = p.queryAt + len(p.query)
	}
	if i < len(s) { // "#": a query holds none
		p.fragment, p.hasFragment = s[i+len("#"):], true
	}
}

// A constRun is a constant of the JSON line of at most 48 bytes, padded to
// 48, that appendRun copies in one copy of that size, inline, on a b with
// 48 bytes of room: fewer stores than the appends of its pieces (the
// compiler copies a constant of at most 16 bytes inline, a longer one
// with a call).
type constRun struct {
	n int
	b [48]byte
}

func newRun(s string) (r constRun) {
	if r.n = copy(r.b[:], s); r.n < len(s) {
		panic("uri: the run " + strconv.Quote(s) + " is too long")
	}
	return r
}

// The runs of the most common lines: an http or https URL with a host
// name, no userinfo or port (appendShortParts), no query or fragment
// (appendShort).
var (
	httpHostRun    = newRun(`","scheme":"http","userinfo":null,"host":"`)
	httpsHostRun   = newRun(`","scheme":"https","userinfo":null,"host":"`)
	regNamePathRun = newRun(`","host_type":"reg-name","port":null,"path":"`)
	noQueryRun     = newRun(`","query":null,"fragment":null,"params":null`)
)

// appendRun appends r to b, which has room for 48 bytes more.
func appendRun(b []byte, r *constRun) []byte {
	m := len(b)
	copy(b[m:m+len(r.b)], r.b[:])
	return b[:m+r.n]
}

// appendShortParts appends "{", "input" and the members from "scheme" to
// "path" (appendShortTail writes "query" and "fragment") of the URI whose
// parts p are (writeParts), for a URI whose text needs no escape
// (lineScan.scan) and is short (shortInput), on a b with room for them
// (shortRoom): every component is a part of the text, so none needs an
// escape either. The constants are runs (appendRun) or short enough for
// the compiler to copy them inline.
func appendShortParts(b []byte, p *parts) []byte {
	b = append(b, `{"input":"`...)
	b = append(b, p.s...)
	if p.kind == uri.RegName && !p.hasUserinfo && !p.hasPort && (p.scheme == "http" || p.scheme == "https") {
		// Most of a crawl: two runs of constants, each in one copy.
		if len(p.scheme) == 4 {
			b = appendRun(b, &httpHostRun)
		} else {
			b = appendRun(b, &httpsHostRun)
		}
		b = append(b, p.host...)
		b = appendRun(b, &regNamePathRun)
		return append(b, p.path...)
	}
	switch {
	case p.scheme == "http": // most of a crawl: a constant, copied inline
		b = append(b, `","scheme":"`...)
		b = append(b, `http"`...)
	case p.scheme == "https":
		b = append(b, `","scheme":"`...)
		b = append(b, `https"`...)
	case p.hasScheme:
		b = append(b, `","scheme":"`...)
		b = append(b, p.scheme...)
		b = append(b, '"')
	default:
		b = append(b, `","scheme":null`...)
	}
	if p.hasUserinfo {
		b = append(b, `,"userinfo":"`...)
		b = append(b, p.userinfo...)
		b = append(b, '"')
	} else {
		b = append(b, `,"userinfo":null`...)
	}
	switch p.kind {
	case uri.NoHost: // no authority
		b = append(b, `,"host":null`...)
		b = append(b, `,"host_type":null`...)
	case uri.RegName:
		b = append(b, `,"host":"`...)
		b = append(b, p.host...)
		b = append(b, `","host_type":`...)
		b = append(b, `"reg-name"`...)
	default:
		b = append(b, `,"host":"`...)
		b = append(b, p.host...)
		b = append(b, `","host_type":"`...)
		b = append(b, p.kind.String()...)
		b = append(b, '"')
	}
	if p.hasPort {
		b = append(b, `,"port":"`...)
		b = append(b, p.port...)
		b = append(b, `","path":"`...)
	} else {
		b = append(b, `,"port":null`...)
		b = append(b, `,"path":"`...)
	}
	return append(b, p.path...)
}

// appendShortTail appends the members "query" and "fragment" after
// the path of appendShortParts.
func appendShortTail(b []byte, p *parts) []byte {
	if p.hasQuery {
		b = append(b, `","query":"`...)
		b = append(b, p.query...)
		b = append(b, '"')
	} else {
		b = append(b, `","query":null`...)
	}
	if p.hasFragment {
		b = append(b, `,"fragment":"`...)
		b = append(b, p.fragment...)
		return append(b, '"')
	}
	return append(b, `,"fragment":null`...)
}

// writeParts writes "input" and the members from "scheme" to
// "fragment" of any URI, a long part a block at a time.
func (r *componentsResult) writeParts(w *writer) {
	u := r.u
	// Every component is a part of u's text: when that needs no escape
	// (always, for a URI in either grammar: RFC 3986 2 and the 1998
	// draft's 2.4.3 allow no control, non-ASCII, '"' or '\\'), neither
	// does a component, and one scan of the text spares a scan of each.
	// u's text is most often the input itself, which begin has scanned.
	clean := w.begin()
	if !clean || u.String() != w.in {
		clean = jsonstr.NeedsNoEscape(u.String())
	}
	// The members are written on a copy of the writer's Object, on the
	// stack: a dozen stores of B into the heap cost parse --json a
	// tenth of its time (a write barrier each while the GC runs). Its
	// Flush takes B and gives it back, so the copy stays the whole
	// state until it is stored back.
	o := w.Object
	o.Part("scheme", u.Scheme(), u.HasScheme(), clean)
	o.Part("userinfo", u.Userinfo(), u.HasUserinfo(), clean)
	o.Part("host", u.Host(), u.HasAuthority(), clean)
	o.Part("host_type", u.HostKind().String(), u.HasAuthority(), true)
	o.Part("port", u.Port(), u.HasPort(), clean)
	o.Part("path", u.Path(), true, clean)
	o.Part("query", u.Query(), u.HasQuery(), clean)
	o.Part("fragment", u.Fragment(), u.HasFragment(), clean)
	w.Object = o
}

// appendSchemeData appends "scheme_data", the typed view of the URL's
// scheme (package scheme: http, ftp, gopher, mailto, urn, ...), or null
// for a scheme without one. The view reads every URL the command
// accepts (parseURI checked its rules, which are the view's); should it
// not, null and "scheme_error" with the reason say so rather than
// nothing. With flush, a long list in the view's JSON (a mailto URL of a
// million header fields) is written out a block at a time.
func appendSchemeData(b []byte, u uri.URI, flush func([]byte) []byte) []byte {
	mark := len(b)
	b, err := scheme.AppendJSONFlush(append(b, `,"scheme_data":`...), u, flush)
	if err != nil {
		// b is as it was: nothing was flushed.
		_, reason := describe(u.String(), err)
		return jsonstr.Append(append(b[:mark], `,"scheme_data":null,"scheme_error":`...), reason)
	}
	return b
}

// writePlain writes the defined components as KEY=VALUE, separated by
// spaces; a value a block at a time.
func (r *componentsResult) writePlain(w *writer) {
	u := r.u
	if u.HasScheme() {
		w.kv("scheme", u.Scheme())
	}
	if u.HasUserinfo() {
		w.kv("userinfo", u.Userinfo())
	}
	if u.HasAuthority() {
		w.kv("host", u.Host())
		w.kv("host_type", u.HostKind().String())
	}
	if u.HasPort() {
		w.kv("port", u.Port())
	}
	w.kv("path", u.Path())
	if u.HasQuery() {
		w.kv("query", u.Query())
	}
	if u.HasFragment() {
		w.kv("fragment", u.Fragment())
	}
	w.B = append(w.B, '\n')
}

// kv appends "KEY=VALUE" to a plain line of such pairs, after a space
// unless it is the first, the value as it is (a URI's component or a
// URL's getter: no control) a block at a time.
func (w *writer) kv(key, val string) {
	if len(w.B) > w.mark {
		w.B = append(w.B, ' ')
	}
	w.B = append(w.B, key...)
	w.B = append(w.B, '=')
	w.raw(val)
}

// editedResult is a URI a subcommand made: plain, the URI; JSON, its
// components as parse gives them.
type editedResult struct{ componentsResult }

func (r *editedResult) writePlain(w *writer) {
	w.raw(r.u.String())
	w.B = append(w.B, '\n')
}

// edited returns the result that is the URI u a subcommand made from an
// input --repair changed as repairs say.
func (c *call) edited(u uri.URI, repairs []iri.Change) result {
	c.box.edited = editedResult{componentsResult{u, repairs}}
	return &c.box.edited
}

// warningsResult is the warnings of a valid input (check --warn):
// plain, "INPUT<TAB>warning: W" per warning; JSON, {"input",
// "warnings"}; nothing without warnings.
//
// The codes are scheme.Warning's, one vocabulary for every scheme; the
// details, when there are any, say more in plain output ("reserved-nid:
// NID \"x-foo\" is experimental ...").
type warningsResult struct {
	ws      []scheme.Warning
	details []string
	repairs []iri.Change
}

// warnings returns the result that is the warnings ws, with the details
// plain output adds to each (nil for none), of an input --repair
// changed as repairs say.
func (c *call) warnings(ws []scheme.Warning, details []string, repairs []iri.Change) result {
	c.box.warnings = warningsResult{ws, details, repairs}
	return &c.box.warnings
}

func (r *warningsResult) writeJSON(w *writer) {
	if len(r.ws) == 0 {
		return
	}
	w.begin()
	w.Array("warnings")
	for _, x := range r.ws {
		w.Elem().Value(string(x))
	}
	w.End()
	w.end(r.repairs)
}

func (r *warningsResult) writePlain(w *writer) {
	for i, x := range r.ws {
		w.B = appendPlain(w.B, w.in)
		w.B = append(w.B, "\twarning: "...)
		w.B = append(w.B, x...)
		if i < len(r.details) && r.details[i] != "" {
			w.B = append(w.B, ": "...)
			w.plain(r.details[i])
		}
		w.B = append(w.B, '\n')
	}
}

// filledResult is a template filled in for a URI (uri get).
type filledResult struct {
	c       *call
	t       *template
	u       uri.URI
	repairs []iri.Change
}

// filled returns the result that is t filled in for u, parsed from an
// input --repair changed as repairs say.
func (c *call) filled(t *template, u uri.URI, repairs []iri.Change) result {
	c.box.filled = filledResult{c, t, u, repairs}
	return &c.box.filled
}

// writeJSON writes "input", then one member per placeholder, named as
// in the template, null where the placeholder is undefined; a value a
// block at a time.
func (r *filledResult) writeJSON(w *writer) {
	w.begin()
	for _, p := range r.t.keys {
		if v, ok := p.value(r.c, r.u); ok {
			w.AnyKey(p.name).LongValue(v)
		} else {
			w.AnyKey(p.name).NullValue()
		}
	}
	w.end(r.repairs)
}

// writePlain writes the template with its placeholders filled in,
// escaped as plain output is.
func (r *filledResult) writePlain(w *writer) {
	for _, p := range r.t.pieces {
		if p.kind == tLiteral {
			w.B = append(w.B, p.lit...)
			continue
		}
		v, _ := p.value(r.c, r.u)
		w.plain(v)
	}
	w.B = append(w.B, '\n')
}

// planResult is what a client sends for a URL (uri plan), or that it
// refuses it.
type planResult struct {
	scheme   string // lowercase
	p        scheme.Plan
	req      string // p.Request, not copied
	refused  *scheme.RefusedError
	warnings []scheme.Warning
	repairs  []iri.Change
}

// plan returns the result that is the plan p (or the refusal).
func (c *call) plan(r planResult) result {
	c.box.plan = r
	return &c.box.plan
}

// writePlain writes <refused>, the commands joined by " | ", or the
// request, escaped so that the line is the plan and nothing else.
func (r *planResult) writePlain(w *writer) {
	switch {
	case r.refused != nil:
		w.B = append(w.B, "<refused>"...)
	case r.p.HasCommands():
		// A command at a time, spilling: a path of a million
		// directories is four times as long as CWD commands.
		sep := ""
		for cmd := range r.p.Commands() {
			w.B = appendPlanEscaped(append(w.B, sep...), cmd, true)
			sep = " | "
			w.spill()
		}
	default:
		// A block at a time, spilling: a request holds a long host
		// twice.
		for s := r.req; len(s) > 0; {
			n := min(len(s), blockSize/4)
			for n < len(s) && !utf8.RuneStart(s[n]) {
				n++ // a character is escaped whole
			}
			w.B = appendPlanEscaped(w.B, s[:n], false)
			s = s[n:]
			w.spill()
		}
	}
	w.B = append(w.B, '\n')
}

// writeJSON writes {"input", "scheme", "connect": {"host", "port"},
// "request", "commands", "refused", "reason", "warnings"}, null for what
// does not apply.
func (r *planResult) writeJSON(w *writer) {
	w.begin()
	w.Str("scheme", r.scheme)
	if r.refused != nil {
		w.Null("connect")
	} else {
		w.Key("connect").Open().LongStr("host", r.p.Host).Int("port", r.p.Port).Close()
	}
	w.LongOpt("request", r.req, r.p.Request != nil)
	if r.p.HasCommands() {
		w.Array("commands")
		for cmd := range r.p.Commands() {
			w.Elem().LongValue(cmd)
		}
		w.End()
	} else {
		w.Null("commands")
	}
	w.Bool("refused", r.refused != nil)
	if r.refused != nil {
		w.Str("reason", r.refused.Error())
	} else {
		w.Null("reason")
	}
	w.Array("warnings")
	for _, x := range r.warnings {
		w.Elem().Value(string(x))
	}
	w.End()
	w.end(r.repairs)
}

// urnPartsResult is the parts of a URN (uri urn parse), with the
// directives of its query under the 2012 draft.
type urnPartsResult struct {
	u         urn.URN
	draft2012 bool
}

// urnParts returns the result that shows u's parts.
func (c *call) urnParts(u urn.URN, draft2012 bool) result {
	c.box.urnParts = urnPartsResult{u, draft2012}
	return &c.box.urnParts
}

// writeJSON writes {"input", "nid", "nss", "r", "q", "f", "nid_class"},
// with "directives" under the 2012 draft.
func (r *urnPartsResult) writeJSON(w *writer) {
	u := r.u
	rc, hasR := u.RComponent()
	q, hasQ := u.QComponent()
	f, hasF := u.FComponent()
	w.begin()
	w.Str("nid", u.NID())
	w.Str("nss", u.NSS())
	w.Opt("r", rc, hasR)
	w.Opt("q", q, hasQ)
	w.Opt("f", f, hasF)
	w.Str("nid_class", urn.ClassifyNID(u.NID()).Class.String())
	if r.draft2012 {
		if ds := u.Directives(); ds == nil {
			w.Null("directives")
		} else {
			w.Array("directives")
			for _, d := range ds {
				w.Elem().Open().Str("keyword", d.Keyword).Str("value", d.Value).Bool("ignored", d.Ignored).Close()
			}
			w.End()
		}
	}
	w.end(nil)
}

// writePlain writes "nid=N nss=S r=R q=Q f=F nid_class=C
// directive=K=V ...", appended to the line, never built with +=, so
// that a long input costs linear time (issue 7, defect 1).
func (r *urnPartsResult) writePlain(w *writer) {
	u := r.u
	w.kv("nid", u.NID())
	w.kv("nss", u.NSS())
	if rc, ok := u.RComponent(); ok {
		w.kv("r", rc)
	}
	if q, ok := u.QComponent(); ok {
		w.kv("q", q)
	}
	if f, ok := u.FComponent(); ok {
		w.kv("f", f)
	}
	w.kv("nid_class", urn.ClassifyNID(u.NID()).Class.String())
	for _, d := range u.Directives() {
		if d.Ignored {
			w.B = append(w.B, " ignored_directive="...)
		} else {
			w.B = append(w.B, " directive="...)
		}
		w.B = append(append(append(w.B, d.Keyword...), '='), d.Value...)
	}
	w.B = append(w.B, '\n')
}

// urnShowResult is the display form of a URN (uri urn show).
type urnShowResult struct{ d urn.DisplayForm }

// urnShow returns the result that is the display form d.
func (c *call) urnShow(d urn.DisplayForm) result {
	c.box.urnShow = urnShowResult{d}
	return &c.box.urnShow
}

// writeJSON writes {"input", "result", "scripts", "mixed_script",
// "warnings"}.
func (r *urnShowResult) writeJSON(w *writer) {
	w.begin()
	w.Str("result", r.d.Text)
	w.Strs("scripts", r.d.Scripts)
	w.Bool("mixed_script", r.d.MixedScript)
	w.Strs("warnings", r.d.Warnings)
	w.end(nil)
}

// writePlain writes the display form, then "<TAB>warning: W" for each
// warning.
func (r *urnShowResult) writePlain(w *writer) {
	w.B = append(w.B, r.d.Text...)
	for _, x := range r.d.Warnings {
		w.B = append(w.B, "\twarning: "...)
		w.B = append(w.B, x...)
	}
	w.B = append(w.B, '\n')
}

// whatwgResult is a URL the URL Standard's parser gave (parse
// --whatwg).
type whatwgResult struct{ u whatwg.URL }

// whatwgURL returns the result that shows the getters of u.
func (c *call) whatwgURL(u whatwg.URL) result {
	c.box.whatwg = whatwgResult{u}
	return &c.box.whatwg
}

// writeJSON writes {"input", "href", "origin", "protocol", "username",
// "password", "host", "hostname", "port", "pathname", "search", "hash",
// "errors"}: the getters of the standard's URL class, and the names of
// the validation errors.
func (r *whatwgResult) writeJSON(w *writer) {
	u := r.u
	w.begin()
	// Any of them may be as long as the input, or three times as long
	// percent-encoded: each is written a block at a time.
	w.LongStr("href", u.Href())
	w.LongStr("origin", u.Origin())
	w.Str("protocol", u.Protocol())
	w.LongStr("username", u.Username())
	w.LongStr("password", u.Password())
	w.LongStr("host", u.Host())
	w.LongStr("hostname", u.Hostname())
	w.Str("port", u.Port())
	w.LongStr("pathname", u.Pathname())
	w.LongStr("search", u.Search())
	w.LongStr("hash", u.Hash())
	w.Array("errors")
	for _, e := range u.Errors() {
		w.Elem().Value(e.String())
	}
	w.End()
	w.end(nil)
}

// writePlain writes "href=H origin=O ... errors=E1,E2" on one line.
func (r *whatwgResult) writePlain(w *writer) {
	u := r.u
	w.kv("href", u.Href())
	w.kv("origin", u.Origin())
	w.kv("protocol", u.Protocol())
	w.kv("username", u.Username())
	w.kv("password", u.Password())
	w.kv("host", u.Host())
	w.kv("hostname", u.Hostname())
	w.kv("port", u.Port())
	w.kv("pathname", u.Pathname())
	w.kv("search", u.Search())
	w.kv("hash", u.Hash())
	w.B = append(w.B, " errors="...)
	for i, e := range u.Errors() {
		if i > 0 {
			w.B = append(w.B, ',')
		}
		w.B = append(w.B, e.String()...)
	}
	w.B = append(w.B, '\n')
}

// whatwgRefusal is an input the URL Standard rejects: JSON {"input",
// "error"} with the name of the failing validation error, plain
// "error: OFFSET: NAME".
type whatwgRefusal struct{ err error }

// whatwgRefused returns the result that says err.
func (c *call) whatwgRefused(err error) result {
	c.box.refused = whatwgRefusal{err}
	return &c.box.refused
}

func (r *whatwgRefusal) name() (string, int) {
	if pe, ok := r.err.(*whatwg.ParseError); ok {
		return pe.Err.String(), pe.Offset
	}
	return r.err.Error(), -1
}

func (r *whatwgRefusal) writeJSON(w *writer) {
	name, _ := r.name()
	w.dropLine()
	w.begin()
	w.Str("error", name)
	w.end(nil)
}

func (r *whatwgRefusal) writePlain(w *writer) {
	name, off := r.name()
	w.dropLine()
	w.errorLine(off, name)
}

// equalResult is the verdict of an equal subcommand: plain "equal" or
// "not equal"; JSON {"a", "b", "equal", "key_a", "key_b"}.
type equalResult struct {
	a, b  string
	equal bool
	keys  [2]string
}

func (r equalResult) writeJSON(w *writer) {
	w.Open().Str("a", r.a).Str("b", r.b).Bool("equal", r.equal).Str("key_a", r.keys[0]).Str("key_b", r.keys[1])
	w.endLine()
}

func (r equalResult) writePlain(w *writer) {
	if r.equal {
		w.line("equal")
	} else {
		w.line("not equal")
	}
}

// matchResult is a URI found in text (uri extract): plain, the URI;
// JSON {"uri", "raw", "start", "end", "line", "col", "wrapper",
// "abbrev", "iri"}.
type matchResult struct{ m extract.Match }

func (r matchResult) writePlain(w *writer) { w.line(r.m.URI) }

func (r matchResult) writeJSON(w *writer) {
	w.match(r.m)
	w.B = append(w.B, '\n')
}

// match writes the JSON object of m, a line or an element.
func (w *writer) match(m extract.Match) {
	w.Open()
	w.Str("uri", m.URI)
	w.Str("raw", m.Raw)
	w.Int("start", int(m.Start))
	w.Int("end", int(m.End))
	w.Int("line", m.Line)
	w.Int("col", m.Col)
	w.Str("wrapper", m.Wrapper.String())
	w.Bool("abbrev", m.Abbrev)
	w.Bool("iri", m.IRI)
	w.Close()
}

// recordResult is the URIs found in one NUL-separated record (uri
// extract -z), written as the scanner finds them (a record may hold a
// million): {"record": N, "matches": [...]}, in plain output too. found
// is set when there is one.
type recordResult struct {
	n     int
	s     *extract.Scanner
	found *bool
}

func (r recordResult) writeJSON(w *writer) {
	w.Open().Int("record", r.n).Array("matches")
	for r.s.Scan() {
		*r.found = true
		w.Elem()
		w.match(r.s.Match())
	}
	w.End()
	w.endLine()
}

func (r recordResult) writePlain(w *writer) { r.writeJSON(w) }

// baseResult is the base URI of a document (uri base): plain, the URI;
// JSON {"base", "source"}.
type baseResult struct{ base, source string }

func (r baseResult) writePlain(w *writer) { w.line(r.base) }

func (r baseResult) writeJSON(w *writer) {
	w.Open().Str("base", r.base).Str("source", r.source)
	w.endLine()
}

// linkResult is a link of a document (uri links): its URI, or the error
// of a link that cannot be resolved.
type linkResult struct{ l htmldoc.Link }

// uri returns the link's URI, "" for a link that failed.
func (r linkResult) uri() string {
	switch {
	case r.l.Err != nil:
		return ""
	case !r.l.URL.IsZero():
		return r.l.URL.Href()
	}
	return r.l.URI.String()
}

// writePlain writes the URI, or "error: line N: REASON".
func (r linkResult) writePlain(w *writer) {
	l := r.l
	if l.Err == nil {
		w.line(r.uri())
		return
	}
	w.B = append(w.B, "error: line "...)
	w.B = strconv.AppendInt(w.B, int64(l.Line), 10)
	w.B = append(w.B, ": "...)
	w.B = append(w.B, strings.TrimPrefix(strings.TrimPrefix(l.Err.Error(), "uri: "), "whatwg: ")...)
	w.B = append(w.B, '\n')
}

// writeJSON writes {"uri", "ref", "element", "attr", "line", "active"},
// with "error" and "offset" (in ref) for a link that failed.
func (r linkResult) writeJSON(w *writer) {
	l := r.l
	w.Open()
	// The URI and the ref may be megabytes (an href of NULs is three
	// times as long read, nine times resolved): a block at a time.
	w.LongOpt("uri", r.uri(), l.Err == nil)
	w.LongStr("ref", l.Ref)
	w.Str("element", l.Element)
	w.Str("attr", l.Attr)
	w.Int("line", l.Line)
	w.Bool("active", l.Active)
	if l.Err != nil {
		off, reason := describe(l.Ref, l.Err)
		w.Str("error", reason)
		w.Int("offset", off)
	}
	w.endLine()
}

// text appends s to the line as it is (a prefix the command makes).
func (w *writer) text(s string) { w.B = append(w.B, s...) }

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

// raw appends s as it is (a URI or a serialized URL: no control), a
// block at a time, spilling between blocks.
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

// failure writes the line of a failed input: plain "error: OFFSET:
// REASON" ("INPUT<TAB>error: ..." when withInput), or JSON {"input",
// "error", "offset"}, with the "repairs" of an input --repair changed
// before it failed (a *repairedError). Whatever the command had begun
// writing for the input is dropped.
func (w *writer) failure(in string, err error, withInput bool) {
	off, reason := describe(in, err)
	w.dropLine()
	if w.repairHint && off >= 0 && off < len(in) && in[off] >= 0x80 && errors.Is(err, uri.ErrInvalidCharacter) {
		// Pasted text and IDN hosts: say what turns it into a URI.
		reason += " (an IRI: use --repair or uri iri-to-uri)"
	}
	if w.json {
		var repairs []iri.Change
		if re, ok := err.(*repairedError); ok {
			repairs = re.repairs
		}
		w.begin()
		w.Str("error", reason)
		w.Int("offset", off)
		w.end(repairs)
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
// base, or about no byte); the text the error is about is then quoted
// by quoteOther.
func describe(in string, err error) (offset int, reason string) {
	var pe *uri.ParseError // urn.ParseError is the same type
	if errors.As(err, &pe) {
		if pe.Input != in {
			return -1, pe.Detail() + " of " + quoteOther(pe.Input, pe.Offset)
		}
		return pe.Offset, pe.Detail()
	}
	var re *uri.ResolveError
	if errors.As(err, &re) {
		if re.Input != in {
			return -1, re.Reason.Error() + " of " + quoteOther(re.Input, re.Offset)
		}
		return re.Offset, re.Reason.Error()
	}
	var we *whatwg.ParseError
	if errors.As(err, &we) {
		if we.Input != in {
			return -1, we.Err.String() + " of " + quoteOther(we.Input, we.Offset)
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

// maxQuoted is the longest text other than the input that an error
// line quotes whole: a URL of any usual size (browsers stop at 2 MiB,
// but few real ones pass 2 KB).
const maxQuoted = 2048

// quoteOther quotes a text an error is about that is not the input line
// (an edit's result, a base): whole up to maxQuoted bytes, so that the
// user sees what was made; beyond, as parse errors quote their input, a
// window around offset (quote.Window), so that a megabyte of output does
// not make megabytes of message.
func quoteOther(s string, offset int) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	return quote.Window(s, offset)
}

// keyResult is a key or a canonical URL that package surt appended to b
// (uri surt, uri canon): a text result (textResult). The command keeps
// one and reuses b, so that a key costs no allocation.
type keyResult struct{ b []byte }

// text returns b as a string, not copied: it is valid until the next
// input, and written before.
func (r *keyResult) text() *textResult {
	return &textResult{s: unsafe.String(unsafe.SliceData(r.b), len(r.b))}
}

func (r *keyResult) writePlain(w *writer) { r.text().writePlain(w) }
func (r *keyResult) writeJSON(w *writer)  { r.text().writeJSON(w) }
