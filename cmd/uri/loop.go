package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/urn"
)

// options holds a subcommand's flag set and the flags that several
// subcommands share.
type options struct {
	name string // the subcommand's
	help string // the subcommand's help text
	fs   *flag.FlagSet
	json bool
	rfc  rfcFlag
	zone bool

	// failuresOnly makes loop print nothing for a successful input
	// (check), and the input itself on a failure line.
	failuresOnly bool
}

// newOptions returns the flag set of the subcommand name, whose help text
// is help, with --json, and with --rfc and --zone-id when grammar is true
// (the subcommands that parse URIs).
func newOptions(name, help string, grammar bool) *options {
	o := &options{name: name, help: help, fs: flag.NewFlagSet("uri "+name, flag.ContinueOnError)}
	o.fs.SetOutput(io.Discard) // errors are reported by parse
	o.fs.Usage = func() {}
	o.fs.BoolVar(&o.json, "json", false, "")
	if grammar {
		o.rfc = "3986"
		o.fs.Var(&o.rfc, "rfc", "")
		o.fs.BoolVar(&o.zone, "zone-id", false, "")
	}
	return o
}

// parse parses the flags in args. On -h it prints the help on stdout;
// on a bad flag it prints the error on stderr. done reports that the
// subcommand must stop and return code.
func (o *options) parse(args []string, stdout, stderr io.Writer) (rest []string, code int, done bool) {
	err := o.fs.Parse(args)
	if err == flag.ErrHelp {
		fmt.Fprint(stdout, o.help)
		return nil, 0, true
	}
	if err != nil {
		return nil, o.usageError(stderr, err.Error()), true
	}
	return o.fs.Args(), 0, false
}

// usageError reports a usage error of the subcommand and returns 2.
func (o *options) usageError(stderr io.Writer, msg string) int {
	return usageError(stderr, "uri "+o.name, msg, o.name)
}

// mode returns the parse mode that --rfc and --zone-id select.
func (o *options) mode() uri.Mode {
	m := uri.RFC3986
	if o.rfc == "2396" {
		m = uri.RFC2396
	}
	if o.zone {
		m |= uri.AllowZoneID
	}
	return m
}

// rfcFlag is the value of --rfc: "3986" or "2396".
type rfcFlag string

func (r *rfcFlag) String() string { return string(*r) }

func (r *rfcFlag) Set(s string) error {
	s = strings.TrimPrefix(strings.ToLower(s), "rfc")
	if s != "3986" && s != "2396" {
		return errors.New("want 3986 or 2396")
	}
	*r = rfcFlag(s)
	return nil
}

// output says what a successful input prints.
type output uint8

const (
	// outNothing prints nothing: check reports failures only.
	outNothing output = iota
	// outResult prints the result string; JSON {"input", "result"}.
	outResult
	// outComponents prints the components of a URI (parse).
	outComponents
)

// result is what one input gave.
type result struct {
	out output
	s   string  // the result, for outResult
	u   uri.URI // the URI, for outComponents
}

// loop is the one loop of every subcommand that takes inputs: it reads
// the inputs (args, or the lines of stdin), hands each to do, and writes
// the result or the failure of each on its own line, plain or JSON. It
// returns the exit status: 0 when every input succeeded, 1 when any
// failed, 2 when stdin or stdout failed.
//
// The output is buffered and flushed whenever the reading of stdin is
// about to block, so that a coprocess gets each answer as soon as its
// line is read, and a large file is still written in large blocks.
func (o *options) loop(args []string, stdin io.Reader, stdout, stderr io.Writer, do func(string) (result, error)) int {
	w := bufio.NewWriterSize(stdout, 64<<10)
	var b []byte
	failed := false
	readErr := eachInputIdle(args, stdin, func(in string) {
		r, err := do(in)
		b = b[:0]
		switch {
		case err != nil:
			failed = true
			b = appendFailure(b, in, err, o.json, o.failuresOnly)
		case r.out == outNothing:
			return
		case o.json:
			b = appendJSONResult(b, in, r)
		default:
			b = appendPlainResult(b, r)
		}
		w.Write(b)
	}, func() { w.Flush() })
	writeErr := w.Flush()
	switch {
	case readErr != nil:
		fmt.Fprintf(stderr, "uri %s: reading standard input: %v\n", o.name, readErr)
		return 2
	case writeErr != nil:
		fmt.Fprintf(stderr, "uri %s: writing standard output: %v\n", o.name, writeErr)
		return 2
	case failed:
		return 1
	}
	return 0
}

// appendPlainResult appends the plain output line of a successful input.
func appendPlainResult(b []byte, r result) []byte {
	if r.out == outResult {
		b = append(b, r.s...)
		return append(b, '\n')
	}
	// "scheme=S userinfo=U host=H host_type=T port=P path=P query=Q
	// fragment=F", undefined components left out. The path is always
	// there. Values are as written; a valid URI has no space in it, so
	// the line splits at spaces.
	u := r.u
	first := true
	sp := func(b []byte, key, val string) []byte {
		if !first {
			b = append(b, ' ')
		}
		first = false
		b = append(b, key...)
		b = append(b, '=')
		return append(b, val...)
	}
	if u.HasScheme() {
		b = sp(b, "scheme", u.Scheme())
	}
	if u.HasUserinfo() {
		b = sp(b, "userinfo", u.Userinfo())
	}
	if u.HasAuthority() {
		b = sp(b, "host", u.Host())
		b = sp(b, "host_type", u.HostKind().String())
	}
	if u.HasPort() {
		b = sp(b, "port", u.Port())
	}
	b = sp(b, "path", u.Path())
	if u.HasQuery() {
		b = sp(b, "query", u.Query())
	}
	if u.HasFragment() {
		b = sp(b, "fragment", u.Fragment())
	}
	return append(b, '\n')
}

// appendJSONResult appends the JSON line of a successful input.
func appendJSONResult(b []byte, in string, r result) []byte {
	b = appendJSONKey(append(b, '{'), "input", true)
	b = appendJSONString(b, in)
	if r.out == outResult {
		b = appendJSONKey(b, "result", false)
		b = appendJSONString(b, r.s)
		return append(b, '}', '\n')
	}
	u := r.u
	b = appendJSONKey(b, "scheme", false)
	b = appendJSONOptional(b, u.Scheme(), u.HasScheme())
	b = appendJSONKey(b, "userinfo", false)
	b = appendJSONOptional(b, u.Userinfo(), u.HasUserinfo())
	b = appendJSONKey(b, "host", false)
	b = appendJSONOptional(b, u.Host(), u.HasAuthority())
	b = appendJSONKey(b, "host_type", false)
	b = appendJSONOptional(b, u.HostKind().String(), u.HasAuthority())
	b = appendJSONKey(b, "port", false)
	b = appendJSONOptional(b, u.Port(), u.HasPort())
	b = appendJSONKey(b, "path", false)
	b = appendJSONString(b, u.Path())
	b = appendJSONKey(b, "query", false)
	b = appendJSONOptional(b, u.Query(), u.HasQuery())
	b = appendJSONKey(b, "fragment", false)
	b = appendJSONOptional(b, u.Fragment(), u.HasFragment())
	return append(b, '}', '\n')
}

// appendFailure appends the line of a failed input: plain
// "error: OFFSET: REASON" (check: "INPUT<TAB>error: OFFSET: REASON"), or
// JSON {"input", "error", "offset"}.
func appendFailure(b []byte, in string, err error, json, withInput bool) []byte {
	off, reason := describe(err)
	if json {
		b = appendJSONKey(append(b, '{'), "input", true)
		b = appendJSONString(b, in)
		b = appendJSONKey(b, "error", false)
		b = appendJSONString(b, reason)
		b = appendJSONKey(b, "offset", false)
		b = appendJSONInt(b, off)
		return append(b, '}', '\n')
	}
	if withInput {
		b = append(b, in...)
		b = append(b, '\t')
	}
	b = append(b, "error: "...)
	if off >= 0 {
		b = appendJSONInt(b, off)
		b = append(b, ':', ' ')
	}
	b = append(b, reason...)
	return append(b, '\n')
}

// describe returns the byte offset and the reason of a failure: the
// message of a parse error without its input ("invalid character '{' at
// offset 9 in path"). The offset is -1 when err carries none.
func describe(err error) (offset int, reason string) {
	var pe *uri.ParseError
	if errors.As(err, &pe) {
		msg := pe.Message()
		if pe.Component == 0 {
			// Unescape's errors belong to no component.
			msg = strings.TrimSuffix(msg, " in "+pe.Component.String())
		}
		return pe.Offset, msg
	}
	var ne *urn.ParseError
	if errors.As(err, &ne) {
		return ne.Offset, "URN: " + ne.Message()
	}
	var re *refError
	if errors.As(err, &re) {
		return re.offset, re.Error()
	}
	return -1, err.Error()
}

// refError is the failure of a valid reference that an operation cannot
// use (resolve --dots reject, relativize), at offset, or -1 when no byte
// of the input is to blame.
type refError struct {
	offset    int
	reason    string
	component string
}

func (e *refError) Error() string {
	if e.offset < 0 {
		return e.reason
	}
	return e.reason + " at offset " + strconv.Itoa(e.offset) + " in " + e.component
}

// parseURI parses in with mode and, when its scheme is "urn" (in any
// case), also checks it against the URN syntax of RFC 8141, whose error
// it returns (a URN is a URI whose path follows stricter rules).
func parseURI(in string, mode uri.Mode) (uri.URI, error) {
	u, err := uri.ParseWith(in, mode)
	if err != nil {
		return u, err
	}
	if isURN(u) {
		if _, err := urn.Parse(in); err != nil {
			return u, err
		}
	}
	return u, nil
}

// isURN reports whether u has the scheme "urn", compared
// case-insensitively (RFC 3986 3.1, RFC 8141 3.1).
func isURN(u uri.URI) bool { return strings.EqualFold(u.Scheme(), "urn") }
