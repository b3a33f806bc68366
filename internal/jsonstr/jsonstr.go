// Package jsonstr writes JSON strings without reflection, for the
// writers of the uri command and of package scheme, which build JSON
// lines in place.
package jsonstr

import (
	"encoding/hex"
	"iter"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Append appends s to b as a JSON string, as encoding/json
// does with SetEscapeHTML(false): control characters, '"' and '\\' are
// escaped, invalid UTF-8 becomes U+FFFD, and U+2028 and U+2029 are
// escaped so that the output is also valid JavaScript.
func Append(b []byte, s string) []byte {
	b = Grow(b, len(s)+2)
	b = append(b, '"')
	if NeedsNoEscape(s) {
		// The common case in the uri command (every part of a parsed
		// URI): one copy, after one scan eight bytes at a time.
		b = append(b, s...)
	} else {
		b = AppendEscaped(b, s)
	}
	return append(b, '"')
}

// NeedsNoEscape reports whether s is written as it is between the
// quotes of a JSON string: printable ASCII without '"' and '\\'.
func NeedsNoEscape(s string) bool {
	if len(s) < 8 {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
				return false
			}
		}
		return true
	}
	// The marks of the words are gathered and tested once every 32
	// bytes, and once at the end: most strings asked about need no
	// escape, and are short (a URI's text).
	var m uint64
	// The last bytes, in a word that overlaps the one before.
	m = marks(load64(s, len(s)-8))
	for ; len(s) >= 32; s = s[32:] {
		w := s[:32] // of a known length: no bounds check in the loads
		m |= marks(load64(w, 0)) | marks(load64(w, 8)) | marks(load64(w, 16)) | marks(load64(w, 24))
		if m&highs != 0 {
			return false
		}
	}
	for ; len(s) >= 8; s = s[8:] {
		m |= marks(load64(s, 0))
	}
	return m&highs == 0
}

// AppendEscaped is Append without the quotes: the escaped text of s, for
// a string written in parts.
func AppendEscaped(b []byte, s string) []byte {
	b = Grow(b, len(s))
	const hexDigits = "0123456789abcdef"
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time while none needs a look: most of what
		// the uri command writes is ASCII that needs no escape.
		for i+8 <= len(s) && !special(load64(s, i)) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&15])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(b, s[start:]...)
}

// load64 returns the eight bytes of s from i, little-endian (the
// compiler makes it one load).
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// special reports whether a byte of x needs a look: a control, '"',
// '\\' or a byte of a non-ASCII character.
func special(x uint64) bool { return marks(x)&highs != 0 }

// marks returns x with the high bit of a byte set when that byte, or
// one below it, needs a look (special): the high bits tell whether there
// is one, exactly; the other bits are noise. A byte below 0x20 or from
// 0x80 up has the high bit of (x - 0x20*ones) | x; a zero byte of y has
// that of (y - ones) &^ y, and y = x ^ ('"'*ones) is zero where x is '"'.
// A borrow carries into the byte above only from a byte that is itself
// marked.
func marks(x uint64) uint64 {
	q := x ^ ('"' * ones)
	bs := x ^ ('\\' * ones)
	return (x - 0x20*ones) | x | (q-ones)&^q | (bs-ones)&^bs
}

// Object appends JSON to B value by value, in the order the calls
// come: the one JSON writer of the uri command and of package scheme,
// which write objects whose keys have a fixed order (the exact
// interfaces of "uri parse --json" and its "scheme_data"). Names are
// constant ASCII keys, written as they are; string values are escaped
// (Append). The members of an object are written by the methods that
// take a name; the elements of an array (Array, Elem ... End) by Elem
// and a value method (Value, LongValue, Pair, Open ... Close). The
// methods return o, so calls chain.
type Object struct {
	B     []byte
	first bool // no member or element written yet in the open object or array
	// Flush, when not nil, is called between the elements of an array
	// and between the blocks of a long string whenever B holds more
	// than FlushSize bytes: it writes B out and returns the buffer to
	// go on with, so that an array of a million elements, or a string
	// of megabytes, is never held whole.
	Flush func([]byte) []byte
}

// FlushSize is how much an Object with a Flush holds before flushing.
const FlushSize = 64 << 10

// flush calls Flush when B holds more than FlushSize bytes.
func (o *Object) flush() {
	if o.Flush != nil && len(o.B) > FlushSize {
		o.B = o.Flush(o.B)
	}
}

// Open appends "{": an object, as a member's value (after Key), as an
// element (after Elem), or on its own.
func (o *Object) Open() *Object {
	o.B = append(o.B, '{')
	o.first = true
	return o
}

// Close appends "}". The object is then a member or an element of the
// one around it, which goes on after a comma.
func (o *Object) Close() *Object {
	o.B = append(o.B, '}')
	o.first = false
	return o
}

// Key appends `"name":`, after a comma unless it is the first member:
// a value method (Value, Open, ...) writes the member's value.
func (o *Object) Key(name string) *Object {
	b := o.B
	if !o.first {
		b = append(b, ',')
	}
	o.first = false
	b = append(b, '"')
	b = append(b, name...)
	o.B = append(b, '"', ':')
	return o
}

// AnyKey is Key for a name that is not a constant (a placeholder a
// user wrote): it is escaped as a string value is.
func (o *Object) AnyKey(name string) *Object {
	if !o.first {
		o.B = append(o.B, ',')
	}
	o.first = false
	o.B = Append(o.B, name)
	o.B = append(o.B, ':')
	return o
}

// Str appends a string member.
func (o *Object) Str(name, s string) *Object {
	return o.Key(name).Value(s)
}

// LongStr is Str for a string that may be megabytes: with a Flush, it
// is written a block at a time, flushed between blocks.
func (o *Object) LongStr(name, s string) *Object {
	return o.Key(name).LongValue(s)
}

// Part appends a string member, or null when it is not defined: as it
// is when clean says that s needs no escape (NeedsNoEscape), as the
// caller has checked on s or on a string s is a part of (every
// component of a URI is a part of its text), else escaped; a long s is
// written a block at a time, as LongStr. It is Str without the scan of
// each part, in one call: the uri command writes a dozen parts of each
// URI.
func (o *Object) Part(name, s string, defined, clean bool) *Object {
	if !clean || o.Flush != nil && len(s) > FlushSize {
		return o.LongOpt(name, s, defined)
	}
	b := Grow(o.B, len(name)+len(s)+8)
	if !o.first {
		b = append(b, ',')
	}
	o.first = false
	b = append(b, '"')
	b = append(b, name...)
	if !defined {
		o.B = append(b, `":null`...)
		return o
	}
	b = append(b, '"', ':', '"')
	b = append(b, s...)
	o.B = append(b, '"')
	return o
}

// Opt appends a string member, or null when it is not defined.
func (o *Object) Opt(name, s string, defined bool) *Object {
	if !defined {
		return o.Null(name)
	}
	return o.Str(name, s)
}

// LongOpt is LongStr, or null when s is not defined.
func (o *Object) LongOpt(name, s string, defined bool) *Object {
	if !defined {
		return o.Null(name)
	}
	return o.LongStr(name, s)
}

// Null appends a null member.
func (o *Object) Null(name string) *Object {
	o.Key(name)
	o.B = append(o.B, "null"...)
	return o
}

// Int appends an integer member, or null when n is negative.
func (o *Object) Int(name string, n int) *Object {
	if n < 0 {
		return o.Null(name)
	}
	o.Key(name)
	o.B = strconv.AppendInt(o.B, int64(n), 10)
	return o
}

// Bool appends a boolean member.
func (o *Object) Bool(name string, v bool) *Object {
	o.Key(name)
	o.B = strconv.AppendBool(o.B, v)
	return o
}

// Strs appends an array of strings, [] when empty.
func (o *Object) Strs(name string, ss []string) *Object {
	o.Array(name)
	for _, s := range ss {
		o.Elem().Value(s)
	}
	return o.End()
}

// StrSeq is Strs for the strings of an iterator, which it does not
// collect.
func (o *Object) StrSeq(name string, ss iter.Seq[string]) *Object {
	o.Array(name)
	for s := range ss {
		o.Elem().Value(s)
	}
	return o.End()
}

// PairSeq appends an array of [name, value] arrays, [] when empty, for
// the pairs of an iterator, which it does not collect.
func (o *Object) PairSeq(name string, ps iter.Seq2[string, string]) *Object {
	o.Array(name)
	for k, v := range ps {
		o.Elem().Pair(k, v)
	}
	return o.End()
}

// Raw appends a member whose value is already JSON.
func (o *Object) Raw(name string, v []byte) *Object {
	o.Key(name)
	o.B = append(o.B, v...)
	return o
}

// Hex appends a string member that is the hexadecimal of s (lowercase
// digits), a block at a time with a Flush, as LongStr.
func (o *Object) Hex(name, s string) *Object {
	o.Key(name)
	o.B = append(o.B, '"')
	for len(s) > 0 {
		n := min(len(s), FlushSize/2)
		o.B = hex.AppendEncode(Grow(o.B, 2*n), []byte(s[:n]))
		s = s[n:]
		o.flush()
	}
	o.B = append(o.B, '"')
	return o
}

// Array appends `"name":[`: the elements follow, each after Elem, and
// End closes it.
func (o *Object) Array(name string) *Object {
	o.Key(name)
	o.B = append(o.B, '[')
	o.first = true
	return o
}

// Elem starts an element of the open array: a comma unless it is the
// first. With a Flush, B may be written out first: an element is where
// a long array is cut.
func (o *Object) Elem() *Object {
	o.flush()
	if !o.first {
		o.B = append(o.B, ',')
	}
	o.first = false
	return o
}

// End appends "]", closing the array Array opened.
func (o *Object) End() *Object {
	o.B = append(o.B, ']')
	o.first = false
	return o
}

// Value appends s as a JSON string: the value of a member (after Key)
// or an element (after Elem).
func (o *Object) Value(s string) *Object {
	o.B = Append(o.B, s)
	return o
}

// LongValue is Value for a string that may be megabytes: with a Flush,
// it is written a block at a time, flushed between blocks.
func (o *Object) LongValue(s string) *Object {
	if o.Flush == nil || len(s) <= FlushSize {
		return o.Value(s)
	}
	o.B = append(o.B, '"')
	for len(s) > 0 {
		n := min(len(s), FlushSize)
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++ // a block ends at a character's start
		}
		o.B = AppendEscaped(o.B, s[:n])
		s = s[n:]
		o.flush()
	}
	o.B = append(o.B, '"')
	return o
}

// NullValue appends null, as a value.
func (o *Object) NullValue() *Object {
	o.B = append(o.B, "null"...)
	return o
}

// Pair appends the array [k, v] of two strings, as a value.
func (o *Object) Pair(k, v string) *Object {
	o.B = Grow(o.B, len(k)+len(v)+8)
	o.B = append(o.B, '[')
	o.B = Append(o.B, k)
	o.B = append(o.B, ',')
	o.B = Append(o.B, v)
	o.B = append(o.B, ']')
	return o
}

// Grow returns b with room for n more bytes. Past a few kilobytes (of n,
// or of b: a long array of short strings) it at least doubles b's
// capacity, where append grows a large slice by a
// quarter at a time: a line of output built from long strings then
// allocates about twice what it holds, not five times (the ~10x memory
// bound for every input shape, issue 20).
func Grow(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	return grow(b, n)
}

// grow is Grow when b has not the room (Grow is inlined, grow not).
func grow(b []byte, n int) []byte {
	if n < 4096 && cap(b) < 64<<10 {
		return slices.Grow(b, n)
	}
	return slices.Grow(b, max(n, cap(b)))
}
