package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"unicode/utf8"
)

// eachInput calls fn for every input: each argument, or, when there are
// none, each line of stdin. Every line is one input, the empty line
// included (the empty string is a valid URI reference); a final "\r" is
// dropped. Lines are read one at a time, so memory stays constant
// whatever the size of the stream. It returns the first read error.
func eachInput(args []string, stdin io.Reader, fn func(string)) error {
	return eachInputIdle(args, stdin, fn, nil)
}

// eachInputIdle is eachInput with a hook: idle, when not nil, is called
// whenever every byte read so far from stdin has been handed to fn, that
// is, just before a read that may block. A caller that buffers its
// output flushes it there, so that a program talking to the command
// through pipes (one line in, one line out) gets each answer at once,
// while a large file is still written in large blocks.
func eachInputIdle(args []string, stdin io.Reader, fn func(string), idle func()) error {
	if len(args) > 0 {
		for _, a := range args {
			fn(a)
		}
		return nil
	}
	r := bufio.NewReaderSize(stdin, 64<<10)
	var long []byte // reused for lines longer than the buffer
	for {
		if idle != nil && r.Buffered() == 0 {
			idle()
		}
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = r.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if len(line) == 0 && err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		// A line is "text\n", "text\r\n", or the text after the last
		// "\n" of the stream; only the last line can lack its "\n", and
		// a stream that ends with "\n" has no empty line after it.
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		fn(string(line))
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// jsonLine writes v as one line of JSON Lines output, without the HTML
// escaping of encoding/json ("<", ">" and "&" stay as they are).
func jsonLine(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only programming errors reach this: every value we marshal is
		// made of strings, numbers, booleans and nulls.
		panic(err)
	}
}

// appendJSONString appends s to b as a JSON string, as encoding/json
// does with SetEscapeHTML(false): control characters, '"' and '\\' are
// escaped, invalid UTF-8 becomes U+FFFD, and U+2028 and U+2029 are
// escaped so that the output is also valid JavaScript. JSON cannot
// carry arbitrary bytes; plain output does.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
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
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
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
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&15])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendJSONKey appends `,"name":` (or `"name":` when first) to b.
func appendJSONKey(b []byte, name string, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, name...)
	return append(b, '"', ':')
}

// appendJSONOptional appends s as a JSON string when defined, else null.
func appendJSONOptional(b []byte, s string, defined bool) []byte {
	if !defined {
		return append(b, "null"...)
	}
	return appendJSONString(b, s)
}

// appendJSONInt appends n, or null when n is negative.
func appendJSONInt(b []byte, n int) []byte {
	if n < 0 {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(n), 10)
}
