package uribeam

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The fields of a CDXJ line are the values that webrecorder's
// cdxj-indexer reads from a record through warcio, and it reads header
// fields its own way, which the lines must follow byte for byte. This
// file holds that reading and the JSON writer of Python's json.dumps
// the lines are written with.

// A field is one "Name: value" of a header block.
type field struct{ name, value string }

// headerFields reads the fields of a header block as warcio does
// (statusandheaders.py): lines end at LF; each loses its trailing
// whitespace; a field is name ":" value, the name without trailing
// blanks and the value without leading whitespace; a line that starts
// with a space or a tab continues the value before it, appended as it
// is; a line without ":" is dropped, with its continuations; the first
// empty line ends the block. The first line (status line, request
// line, WARC version) is returned apart, trimmed at its end, with the
// offset in b after the empty line, and whether there was one (else
// the end is len(b)).
func headerFields(b []byte) (first string, fields []field, end int, complete bool) {
	first, i, ok := nextLine(b, 0)
	if first == "" {
		return first, nil, i, ok
	}
	line, i, ok := nextLine(b, i)
	for line != "" {
		name, value, colon := strings.Cut(line, ":")
		name = strings.TrimRight(name, " \t")
		value = strings.TrimLeft(value, pyWhitespace)
		var next string
		next, i, ok = nextLine(b, i)
		if next != "" && (next[0] == ' ' || next[0] == '\t') {
			var v strings.Builder // continuations: linear, however many
			v.WriteString(value)
			for next != "" && (next[0] == ' ' || next[0] == '\t') {
				v.WriteString(next)
				next, i, ok = nextLine(b, i)
			}
			value = v.String()
		}
		if colon {
			fields = append(fields, field{name, value})
		}
		line = next
	}
	return first, fields, i, ok
}

// pyWhitespace is what Python's str.strip() removes of an ASCII or
// Latin-1 line: the ASCII whitespace and the information separators.
const pyWhitespace = " \t\n\r\v\f\x1c\x1d\x1e\x1f"

// nextLine returns the line of b at i without its trailing whitespace,
// and the offset after it; false at the end of b.
func nextLine(b []byte, i int) (string, int, bool) {
	if i >= len(b) {
		return "", len(b), false
	}
	end := len(b)
	if j := bytes.IndexByte(b[i:], '\n'); j >= 0 {
		end = i + j + 1
	}
	return strings.TrimRight(string(b[i:end]), pyWhitespace), end, true
}

// get returns the value of the first field of that name, without case,
// and whether there is one.
func get(fields []field, name string) (string, bool) {
	for _, f := range fields {
		if strings.EqualFold(f.name, name) {
			return f.value, true
		}
	}
	return "", false
}

// appendPyString appends s as Python's json.dumps writes a str (with
// ensure_ascii, its default): '"' and '\' escaped, the control
// characters as \n, \r, \t, \b, \f or \u00XX, every character past
// ASCII as \uXXXX (a surrogate pair past U+FFFF), in lower case hex. A
// header value is a str decoded from UTF-8 when it is valid, else from
// Latin-1 (warcio's decode_header): s is read the same way.
func appendPyString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	u4 := func(b []byte, r rune) []byte {
		return append(b, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
	}
	latin1 := !utf8.ValidString(s)
	b = append(b, '"')
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf && !latin1 {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		i += n
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r == '\b':
			b = append(b, '\\', 'b')
		case r == '\f':
			b = append(b, '\\', 'f')
		case r < 0x20:
			b = u4(b, r)
		case r < utf8.RuneSelf:
			b = append(b, byte(r))
		case r > 0xFFFF:
			r -= 0x10000
			b = u4(u4(b, 0xD800+r>>10), 0xDC00+r&0x3FF)
		default:
			b = u4(b, r)
		}
	}
	return append(b, '"')
}

// timestamp14 returns the 14-digit timestamp (YYYYMMDDhhmmss) of a
// WARC-Date as warcio's iso_date_to_timestamp reads it: the runs of
// digits between other characters, three to seven of them (year,
// month, day, then hour, minute, second and a fraction that is
// dropped), a valid date and time (WARC 1.1 section 5.4: W3C-ISO8601,
// "2016-09-19T17:20:24Z", or with a fraction of a second). It reports
// false for anything else.
func timestamp14(date string) (string, bool) {
	var n [7]int
	k := 0
	for _, part := range strings.FieldsFunc(date, func(r rune) bool { return r < '0' || r > '9' }) {
		if k == len(n) {
			return "", false
		}
		if k < 6 {
			v, err := strconv.Atoi(part)
			if err != nil || len(part) > 9 {
				return "", false
			}
			n[k] = v
		}
		k++
	}
	// Python's datetime: year 1-9999, its month and day, 0-23:0-59:0-59.
	days := [13]int{0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	leap := n[0]%4 == 0 && (n[0]%100 != 0 || n[0]%400 == 0)
	if k < 3 || n[0] < 1 || n[0] > 9999 || n[1] < 1 || n[1] > 12 || n[2] < 1 || n[2] > days[n[1]] ||
		n[1] == 2 && n[2] == 29 && !leap || n[3] > 23 || n[4] > 59 || n[5] > 59 {
		return "", false
	}
	b := make([]byte, 0, 14)
	b = appendPadded(b, n[0], 4)
	for _, v := range n[1:6] {
		b = appendPadded(b, v, 2)
	}
	return string(b), true
}

func appendPadded(b []byte, v, width int) []byte {
	s := strconv.Itoa(v)
	for range width - len(s) {
		b = append(b, '0')
	}
	return append(b, s...)
}
