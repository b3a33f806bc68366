package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"unsafe"

	"github.com/urikit/urikit/internal/jsonstr"
)

// readBufSize is the size of the blocks inputs are read in: large, so
// that a big file costs few reads, and lines are handed out in place.
const readBufSize = 1 << 20

// inputSource hands out the inputs of a run: each argument, then each line
// of each file ("-" is stdin); or, when there are neither, each line of
// stdin. It keeps its progress in the struct, so that when fn panics on
// an input, the next call of each goes on with the input after it: the
// loop recovers from a panic once per panic, not once per input.
type inputSource struct {
	args, files []string
	stdin       io.Reader
	pos         inputPos
	arg         int           // arguments handed out
	file        int           // sources opened
	br          *bufio.Reader // the source being read, or nil
	f           *os.File      // its file, to close, or nil
	src         string        // its name in errors
}

// each calls fn for every input not yet handed out. fn returns false to
// stop (the output cannot be written). idle, when not nil, is called
// whenever every byte read so far from standard input has been handed
// to fn, just before a read that may block: a caller that buffers its
// output flushes it there, so that a program talking to the command
// through pipes gets each answer at once, while a large file is still
// written in large blocks. It returns the first read error, naming the
// file.
//
// The string fn gets for a line points into the read buffer and is
// valid only until fn returns: fn must copy what it keeps.
func (in *inputSource) each(fn func(string) bool, idle func()) error {
	for in.arg < len(in.args) {
		in.arg++
		in.pos = inputPos{"argument", in.arg}
		if !fn(in.args[in.arg-1]) {
			return nil
		}
	}
	sources := in.files
	if len(sources) == 0 {
		if len(in.args) > 0 {
			return nil
		}
		sources = []string{"-"}
	}
	for {
		if in.br == nil {
			if in.file == len(sources) {
				return nil
			}
			name := sources[in.file]
			in.file++
			r := in.stdin
			in.src, in.pos = "standard input", inputPos{"standard input", 0}
			if name != "-" {
				f, err := os.Open(name)
				if err != nil {
					return err
				}
				r, in.f = f, f
				in.src, in.pos = name, inputPos{name, 0}
			}
			in.br = bufio.NewReaderSize(r, readBufSize)
		}
		wait := idle
		if in.f != nil {
			wait = nil // a file does not block
		}
		stopped, err := eachLine(in.br, &in.pos.line, fn, wait)
		in.close()
		if err != nil {
			return fmt.Errorf("reading %s: %w", in.src, err)
		}
		if stopped {
			return nil
		}
	}
}

// close closes the file being read, if any.
func (in *inputSource) close() {
	if in.f != nil {
		in.f.Close()
	}
	in.br, in.f = nil, nil
}

// inputPos is where the current input comes from: the name of its
// source and its line there (its place among the arguments).
type inputPos struct {
	src  string // "argument", "standard input" or a file name
	line int
}

// String writes the position as error messages give it:
// "urls.txt:4", "standard input:4", "argument 2".
func (p inputPos) String() string {
	if p.src == "argument" {
		return fmt.Sprintf("argument %d", p.line)
	}
	return fmt.Sprintf("%s:%d", p.src, p.line)
}

// eachLine calls fn for every line br has left, and says whether fn
// asked to stop. Every line is one input, the empty line included (the
// empty string is a valid URI reference); a final "\r" is dropped; a
// stream that ends with "\n" has no empty line after it. Lines are
// handed out in place in the read buffer; a line longer than the buffer
// is gathered in a second one, so memory stays proportional to the
// longest line. A line is consumed, and counted in lineNo, before fn
// gets it.
func eachLine(br *bufio.Reader, lineNo *int, fn func(string) bool, idle func()) (stopped bool, err error) {
	var long []byte
	for {
		if idle != nil && br.Buffered() == 0 {
			idle()
		}
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				long = append(jsonstr.Grow(long, len(line)), line...) // doubling
			}
			line = long
		}
		if len(line) == 0 && err != nil {
			if err == io.EOF {
				return false, nil
			}
			return false, err
		}
		n := len(line)
		if n > 0 && line[n-1] == '\n' {
			n--
		}
		if n > 0 && line[n-1] == '\r' {
			n--
		}
		*lineNo++
		if !fn(unsafe.String(unsafe.SliceData(line), n)) {
			return true, nil
		}
		if err != nil {
			if err == io.EOF {
				return false, nil
			}
			return false, err
		}
	}
}
