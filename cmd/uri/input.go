package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"unsafe"

	"github.com/urikit/urikit/internal/jsonstr"
)

// readBufSize is the size of the blocks inputs are read in: large, so
// that a big file costs few reads, and lines are handed out in place.
const readBufSize = 1 << 20

// eachInput calls fn for every input: each argument, then each line of
// each file ("-" is stdin); or, when there are neither, each line of
// stdin. fn returns false to stop (the output cannot be written). idle,
// when not nil, is called whenever every byte read so far has been
// handed to fn, just before a read that may block: a caller that
// buffers its output flushes it there, so that a program talking to the
// command through pipes gets each answer at once, while a large file is
// still written in large blocks. It returns the first read error,
// naming the file.
//
// The string fn gets for a line points into the read buffer and is
// valid only until fn returns: fn must copy what it keeps.
func eachInput(args, files []string, stdin io.Reader, pos *inputPos, fn func(string) bool, idle func()) error {
	for i, a := range args {
		*pos = inputPos{"argument", i + 1}
		if !fn(a) {
			return nil
		}
	}
	if len(files) == 0 {
		if len(args) > 0 {
			return nil
		}
		*pos = inputPos{"standard input", 0}
		if err := eachLine(stdin, &pos.line, fn, idle); err != nil {
			return fmt.Errorf("reading standard input: %w", err)
		}
		return nil
	}
	for _, name := range files {
		if name == "-" {
			*pos = inputPos{"standard input", 0}
			if err := eachLine(stdin, &pos.line, fn, idle); err != nil {
				return fmt.Errorf("reading standard input: %w", err)
			}
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		*pos = inputPos{name, 0}
		err = eachLine(f, &pos.line, fn, nil)
		f.Close()
		if err != nil {
			return fmt.Errorf("reading %s: %w", name, err)
		}
	}
	return nil
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

// errStop ends eachLine when fn asks to stop.
var errStop = errors.New("stop")

// eachLine calls fn for every line of r. Every line is one input, the
// empty line included (the empty string is a valid URI reference); a
// final "\r" is dropped; a stream that ends with "\n" has no empty line
// after it. Lines are handed out in place in the read buffer; a line
// longer than the buffer is gathered in a second one, so memory stays
// proportional to the longest line.
func eachLine(r io.Reader, lineNo *int, fn func(string) bool, idle func()) error {
	br := bufio.NewReaderSize(r, readBufSize)
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
				return nil
			}
			return err
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
			return nil
		}
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}
