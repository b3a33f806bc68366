package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/urikit/urikit/iri"
	"github.com/urikit/urikit/scheme"
	"github.com/urikit/urikit/uri"
)

// The one framework every subcommand runs on: its flags are declared as
// flagSpecs and parsed anywhere among the arguments; its inputs are read
// by one loop (arguments, then --file, else standard input); its output
// is written by one writer (plain lines or JSON Lines); failures print
// one error line; help is generated from the declarations; exit status
// is 0, 1 (an input failed), 2 (usage, reading or writing) or 3 (a
// panic on an input, caught: see loop).

// A command is a subcommand, "parse" or "urn parse".
type command struct {
	name     string // as typed after "uri"
	summary  string // one line for "uri help"
	synopsis string // what follows "uri NAME" in the usage line
	about    string // what it does, for its help
	output   string // what it prints, for its help
	exit     string // its exit status, when not the usual
	traits   trait
	flags    []flagSpec
	// params names the arguments taken before the inputs (TEMPLATE),
	// or all of them when the command has no inputs (equal A B).
	params []string
	// start checks the flags and parameters and returns the function
	// that handles one input. An error from start is a usage error.
	start func(c *call) (each, error)
	// whole runs a command without inputs (equal) and returns the exit
	// status.
	whole func(c *call) int
	// files says that a whole command takes any number of FILE
	// arguments (extract) rather than exactly params.
	files bool
}

// each handles one input and returns what it gave: a result, which the
// loop writes (plain or JSON), or the input's error, whose line the loop
// writes. It never writes itself. A nil result prints nothing (a valid
// input to check). errRefused with a result is a failure that has an
// output of its own (a refused plan).
type each func(in string) (result, error)

// trait selects the flags a command shares with others.
type trait uint8

const (
	inputs    trait = 1 << iota // reads inputs: -f/--file, standard input
	jsonOut                     // --json
	grammar                     // --rfc, --zone-id
	failsOnly                   // prints failures only (check): the error line starts with the input
	repairs                     // --repair: inputs repaired (package iri) before parsing
)

// flagSpec declares a flag.
type flagSpec struct {
	long    string // name without "--"
	short   byte   // one-letter name, or 0
	arg     string // the value's name in help; "" for a boolean flag
	repeat  bool   // may be given several times
	help    string // what it does (may span lines)
	example string // one command line using it
}

// The flags shared through traits.
var (
	flagJSON = flagSpec{long: "json", help: "print one JSON object per input (JSON Lines)"}
	flagFile = flagSpec{long: "file", short: 'f', arg: "FILE", repeat: true,
		help: "read inputs from FILE, one per line (\"-\" is standard input);\nmay be repeated; arguments come first"}
	flagRFC = flagSpec{long: "rfc", arg: "3986|2396",
		help: "the grammar: RFC 3986 Appendix A (the default), or the\n1998 draft that became RFC 2396"}
	flagRepair = flagSpec{long: "repair",
		help: "repair each input as people paste it before using it (spaces,\nline breaks, quotes, <>, [], \\ in paths, non-ASCII, IDN hosts;\npackage iri); a valid URI is never changed; JSON adds\n\"repairs\": [{\"offset\", \"from\", \"to\"}]"}
	flagSkip = flagSpec{long: "skip-errors",
		help: "write the error line of a failed input to standard error, with\nwhere the input came from (\"urls.txt:4: \"), and nothing to\nstandard output, so that a pipeline counts only results; the\nexit status is still 1"}
	flagDocument = flagSpec{long: "file", short: 'f', arg: "FILE", repeat: true,
		help: "read the document FILE (\"-\" is standard input), as a FILE\nargument does"}
	flagZone = flagSpec{long: "zone-id",
		help: "accept an IPv6 zone identifier (\"[fe80::1%25en0]\", RFC 6874)"}
)

// allFlags returns the command's flags, shared ones included, in the
// order its help lists them.
func (cmd *command) allFlags() []flagSpec {
	var fs []flagSpec
	for _, f := range cmd.flags {
		if !strings.HasPrefix(f.example, "uri "+cmd.name+" ") {
			v := ""
			if f.arg != "" {
				v = " " + cmd.exampleValue(f.arg)
			}
			f.example = cmd.exampleFor("--" + f.long + v)
		}
		fs = append(fs, f)
	}
	if cmd.traits&jsonOut != 0 {
		fs = append(fs, withExample(flagJSON, cmd.exampleFor("--json")))
	}
	if cmd.traits&grammar != 0 {
		fs = append(fs, withExample(flagRFC, cmd.exampleFor("--rfc 2396")), withExample(flagZone, cmd.exampleFor("--zone-id")))
	}
	if cmd.traits&repairs != 0 {
		ex := "uri " + cmd.name + " --repair " + cmd.fixedArgs() + "' https://例え.jp/my page.html'"
		if cmd.whole != nil { // equal A B
			ex = "uri " + cmd.name + " --repair 'https://例え.jp/my page.html' 'https://xn--r8jz45g.jp/my%20page.html'"
		}
		fs = append(fs, withExample(flagRepair, ex))
	}
	if cmd.traits&inputs != 0 {
		list := "urls.txt"
		switch {
		case cmd.name == "urn encode":
			list = "ids.txt" // native identifiers
		case cmd.isURN():
			list = "urns.txt"
		}
		fs = append(fs, withExample(flagFile, "uri "+cmd.name+" "+cmd.fixedArgs()+"-f "+list))
		fs = append(fs, withExample(flagSkip, "uri "+cmd.name+" --skip-errors "+cmd.fixedArgs()+"-f "+list))
	}
	if cmd.files {
		fs = append(fs, withExample(flagDocument, "uri "+cmd.name+" "+cmd.fixedArgs()+"-f "+cmd.exampleDocument()))
	}
	return fs
}

// The examples of the help texts name these files, which a test creates
// before it runs every example: urls.txt, urns.txt, ids.txt (native
// identifiers), page.html (an HTML document) and notes.txt (text with
// URIs).

func (cmd *command) isURN() bool { return strings.HasPrefix(cmd.name, "urn ") }

// exampleDocument is the document the examples of a command that reads
// documents name.
func (cmd *command) exampleDocument() string {
	if cmd.name == "extract" {
		return "notes.txt"
	}
	return "page.html"
}

func withExample(f flagSpec, ex string) flagSpec { f.example = ex; return f }

// fixedArgs returns the example values of the flags and parameters the
// command needs, for the examples of the shared flags.
func (cmd *command) fixedArgs() string {
	s := ""
	for _, f := range cmd.flags {
		if strings.HasPrefix(f.help, "(required)") {
			s += "--" + f.long + " " + cmd.exampleValue(f.arg) + " "
		}
	}
	for _, p := range cmd.params {
		s += cmd.exampleValue(p) + " "
	}
	return s
}

// exampleFor returns an example command line using the shared flag f.
func (cmd *command) exampleFor(f string) string {
	in := "'http://a/b?c#d'"
	switch {
	case cmd.name == "urn encode":
		in = "0-395-36341-1"
	case cmd.isURN():
		in = "'urn:example:a123,z456'"
	case cmd.files:
		in = cmd.exampleDocument()
	}
	if cmd.traits&inputs == 0 && !cmd.files {
		in = ""
	}
	return strings.TrimSpace("uri " + cmd.name + " " + f + " " + cmd.fixedArgs() + in)
}

// exampleValue is a value for a flag argument or parameter in examples.
func (cmd *command) exampleValue(name string) string {
	switch name {
	case "BASE":
		return "http://a/b/c/d"
	case "A":
		if cmd.isURN() {
			return "URN:EXAMPLE:a123"
		}
		return "HTTP://a:80/"
	case "B":
		if cmd.isURN() {
			return "urn:example:a123"
		}
		return "http://a/"
	case "TEMPLATE":
		return "'{host}'"
	case "RETRIEVAL":
		return "https://example.com/docs/"
	case "COMPONENT":
		return "path"
	case "NID":
		return "isbn"
	case "D":
		return "draft2015"
	}
	return strings.ToLower(name)
}

// call is one run of a command: its parsed flags and parameters, and
// what they select.
type call struct {
	cmd    *command
	vals   map[string][]string // flag values by long name ("true" for a boolean)
	params []string
	args   []string // the inputs given as arguments
	files  []string
	json   bool
	opts   uri.Options
	reg    uri.Registry
	out    *writer
	repair bool // --repair
	// pos is where the current input comes from (loop), for a note
	// about it on standard error.
	pos    *inputPos
	box    boxes // the results handed to the loop, one of each kind
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// has reports whether the flag was given.
func (c *call) has(long string) bool { return len(c.vals[long]) > 0 }

// str returns the flag's last value, or def.
func (c *call) str(long, def string) string {
	if v := c.vals[long]; len(v) > 0 {
		return v[len(v)-1]
	}
	return def
}

// errRefused is what a command's each returns, with a result, for an
// input that failed but has an output to show (plan's "<refused>").
var errRefused = errors.New("failed; the result says why")

// usageError is the error of a command line that cannot run.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// parseArgs parses the arguments that follow the command's name: flags
// anywhere, "--" ending them, and the rest as parameters and inputs.
func (cmd *command) parseArgs(args []string) (c *call, help bool, err error) {
	c = &call{cmd: cmd, vals: map[string][]string{}}
	specs := cmd.allFlags()
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "h" || name == "help" {
			return nil, true, nil
		}
		f := lookupFlag(specs, name, a)
		if f == nil {
			return nil, false, usagef("unknown flag %s", displayFlag(a, name))
		}
		shown := "--" + f.long
		if f.arg == "" {
			if hasVal {
				switch val {
				case "true":
				case "false":
					delete(c.vals, f.long)
					continue
				default:
					return nil, false, usagef("flag %s takes no value", shown)
				}
			}
			c.vals[f.long] = []string{"true"}
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, false, usagef("flag %s needs a value (%s)", shown, f.arg)
			}
			i++
			val = args[i]
		}
		if len(c.vals[f.long]) > 0 && !f.repeat {
			return nil, false, usagef("flag %s given twice", shown)
		}
		c.vals[f.long] = append(c.vals[f.long], val)
	}
	c.json = c.has("json")
	c.repair = c.has("repair")
	if cmd.traits&grammar != 0 {
		g, err := uri.ParseGrammar(c.str("rfc", "3986"))
		if err != nil {
			return nil, false, usagef("flag --rfc: want 3986 or 2396, not %q", c.str("rfc", ""))
		}
		c.opts.Grammar = g
		c.opts.AllowZoneID = c.has("zone-id")
		if c.opts.AllowZoneID && c.opts.Grammar == uri.RFC2396 {
			return nil, false, usagef("flag --zone-id: the RFC 2396 grammar has no IP literals")
		}
	}
	if cmd.whole != nil {
		if !cmd.files && len(pos) != len(cmd.params) {
			return nil, false, usagef("want %d arguments (%s), have %d", len(cmd.params), strings.Join(cmd.params, " "), len(pos))
		}
		// -f FILE names a document as a FILE argument does.
		c.params = append(pos, c.vals["file"]...)
		return c, false, nil
	}
	if len(pos) < len(cmd.params) {
		return nil, false, usagef("missing %s", cmd.params[len(pos)])
	}
	c.params, c.args = pos[:len(cmd.params)], pos[len(cmd.params):]
	c.files = c.vals["file"]
	return c, false, nil
}

// lookupFlag returns the spec that name (as written in arg) selects: a
// long name after "-" or "--", or a one-letter name after "-".
func lookupFlag(specs []flagSpec, name, arg string) *flagSpec {
	for i := range specs {
		f := &specs[i]
		if f.long == name || (f.short != 0 && len(name) == 1 && name[0] == f.short && !strings.HasPrefix(arg, "--")) {
			return f
		}
	}
	return nil
}

// displayFlag writes an unknown flag the way help writes flags.
func displayFlag(arg, name string) string {
	if len(name) == 1 && !strings.HasPrefix(arg, "--") {
		return "-" + name
	}
	return "--" + name
}

// registry is every scheme rule of the module: the command asks the
// library, and holds no scheme logic itself.
var registry = scheme.Registry()

// parseURI parses in with the call's grammar, after repairing it when
// --repair is given, and checks it against the rules of its scheme
// (scheme.Check: a "urn:" URI must be a URN of RFC 8141, an http URL
// needs a host name and a port below 65536, ...). Every subcommand that
// reads URIs reads them here, so that one input gets one verdict from
// all of them. The rules are checked once per input, here; only a new
// URI (the result of edit) is checked again. It returns the repairs
// --repair made (nil when it changed nothing), which go in the result;
// an input repaired and then refused has them in its error (a
// *repairedError).
func (c *call) parseURI(in string) (uri.URI, []iri.Change, error) {
	if c.repair {
		u, changes, err := c.parseRef(in)
		if err == nil && u.HasScheme() {
			err = withRepairs(scheme.Check(u), changes)
		}
		return u, changes, err
	}
	// Without --repair, parseRef's steps in line.
	u, err := uri.ParseWith(in, c.opts)
	if err == nil && u.HasScheme() { // a relative reference has no scheme's rules
		err = scheme.Check(u)
	}
	return u, nil, err
}

// parseRef parses in with the call's grammar, after repairing it when
// --repair is given (repaired).
func (c *call) parseRef(in string) (uri.URI, []iri.Change, error) {
	in, changes, err := c.repaired(in)
	if err != nil {
		return uri.URI{}, nil, err
	}
	u, err := uri.ParseWith(in, c.opts)
	return u, changes, withRepairs(err, changes)
}

// repaired returns in repaired by iri.Repair when --repair is given,
// and the repairs (nil when it changed nothing); else in itself.
func (c *call) repaired(in string) (string, []iri.Change, error) {
	if !c.repair {
		return in, nil, nil
	}
	u, changes, err := iri.Repair(in)
	if err != nil || changes == nil {
		return in, nil, err
	}
	return u.String(), changes, nil
}

// repairedError is the error of an input that --repair changed before
// it failed: its JSON line says what was repaired.
type repairedError struct {
	err     error
	repairs []iri.Change
}

func (e *repairedError) Error() string { return e.err.Error() }
func (e *repairedError) Unwrap() error { return e.err }

// withRepairs returns err with the repairs made to its input, if any.
func withRepairs(err error, changes []iri.Change) error {
	if err == nil || changes == nil {
		return err
	}
	return &repairedError{err, changes}
}

// exec runs the command with the arguments after its name and returns
// the exit status.
func (cmd *command) exec(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, help, err := cmd.parseArgs(args)
	if help {
		io.WriteString(stdout, cmd.help())
		return 0
	}
	if err != nil {
		return cmd.usage(stderr, err.Error())
	}
	c.stdin, c.stdout, c.stderr = stdin, stdout, stderr
	c.reg = registry
	if cmd.whole != nil {
		return c.runWhole(cmd.whole)
	}
	fn, err := cmd.start(c)
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) {
			return cmd.usage(stderr, ue.msg)
		}
		fmt.Fprintf(stderr, "uri %s: %v\n", cmd.name, err)
		return 2
	}
	c.noteFileArgs()
	return c.loop(fn)
}

// noteFileArgs warns, once, when an input argument names an existing
// file: "uri check urls.txt" checks the string "urls.txt" (a valid
// relative reference), which is rarely what was meant.
func (c *call) noteFileArgs() {
	for _, a := range c.args {
		if strings.ContainsAny(a, ":?#") {
			continue
		}
		if fi, err := os.Stat(a); err == nil && fi.Mode().IsRegular() {
			fmt.Fprintf(c.stderr, "uri %s: note: the argument %q is read as an input, not as a file; use -f %s to read the file\n", c.cmd.name, a, a)
			return
		}
	}
}

// usage reports a usage error of the command and returns 2.
func (cmd *command) usage(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "uri %s: %s\nRun 'uri help %s' for usage.\n", cmd.name, msg, cmd.name)
	return 2
}

// loop reads every input, hands it to fn, and writes its output or its
// error line. It returns 0 when every input succeeded, 1 when any
// failed, 2 when reading an input or writing the output failed, and 3
// when fn or the writing of its result panicked on an input (a bug).
//
// A panic costs that input alone: its line so far is dropped, the lines
// of the inputs before it are written out at once (whatever happens
// next, they reach standard output), it gets the error line "error:
// internal error: ...", its stack goes to standard error (the first
// one), and the inputs after it go on. The recover is paid once per
// panic, not once per input: a deferred call per input costs check
// about a tenth of its speed, and so would writing each line out as it
// ends (a write per input on a pipe).
func (c *call) loop(fn each) int {
	w := newWriter(c.stdout, c.json)
	w.repairHint = c.cmd.traits&repairs != 0
	c.out = w
	failsOnly := c.cmd.traits&failsOnly != 0
	failed, internal := false, false
	var skipped *writer // --skip-errors: the error lines, on standard error
	if c.has("skip-errors") {
		w.holdLines = true
		skipped = newWriter(c.stderr, false)
		skipped.repairHint = w.repairHint
		defer skipped.close()
	}
	flush := func() {
		w.flush()
		if skipped != nil {
			skipped.flush()
		}
	}
	src := &inputSource{args: c.args, files: c.files, stdin: c.stdin}
	defer src.close()
	c.pos = &src.pos
	fail := func(in string, err error) {
		failed = true
		switch {
		case skipped != nil:
			// The error line (or the output of a refused input) goes
			// to standard error after where the input came from.
			msg := w.current()
			if err != errRefused {
				skipped.failure(in, err, failsOnly) // plain, even with --json
				msg = skipped.current()
			}
			skipped.replaceLine("uri "+c.cmd.name+": "+src.pos.String()+": ", msg)
			w.dropLine()
			skipped.flushLine()
		case err != errRefused:
			w.failure(in, err, failsOnly)
		}
	}
	busy := false // fn or the writing of its result is running
	one := func(in string) bool {
		busy, w.spilled = true, false
		w.in = in
		res, err := fn(in)
		if res != nil && (err == nil || err == errRefused) {
			write(w, res)
		}
		if err != nil {
			fail(in, err)
		}
		busy = false
		return w.flushLine()
	}
	var readErr error
	for {
		v, stack := recovered(func() { readErr = src.each(one, flush) }, !internal)
		if stack == nil {
			break
		}
		internal = true
		w.dropLine()
		if w.spilled {
			// Part of the line is out already (a line of more than a
			// block): end it, so that the error line stands alone.
			w.endSpilled()
		}
		flush()
		err := &internalError{v}
		fmt.Fprintf(c.stderr, "uri %s: %s: %v\n", c.cmd.name, src.pos, err)
		c.stderr.Write(stack)
		if !busy {
			break // in the reading itself: the stream cannot go on
		}
		busy = false
		fail(w.in, err)
		if !w.flushLine() {
			break
		}
	}
	writeErr := w.close()
	switch {
	case internal:
		return 3
	case writeErr != nil:
		fmt.Fprintf(c.stderr, "uri %s: writing standard output: %v\n", c.cmd.name, writeErr)
		return 2
	case readErr != nil:
		fmt.Fprintf(c.stderr, "uri %s: %v\n", c.cmd.name, readErr)
		return 2
	case failed:
		return 1
	}
	return 0
}

// recovered runs f and returns the value of a panic in f, and a non-nil
// stack (the panic's, when withStack is set) when there was one.
func recovered(f func(), withStack bool) (v any, stack []byte) {
	defer func() {
		if v = recover(); v != nil {
			stack = []byte{}
			if withStack {
				stack = debug.Stack()
			}
		}
	}()
	f()
	return nil, nil
}

// exitInternal is what the help says of exit status 3.
const exitInternal = `3 when the command hit a bug of its own (it says so on standard
error): the lines already made are written; an input read one at a
time gets the line "error: internal error: ..." and the others are
processed as usual.
`

// internalError is the error of an input on which the command panicked.
type internalError struct{ v any }

func (e *internalError) Error() string {
	return fmt.Sprintf("internal error: %v (a bug in uri: please report it with this input)", e.v)
}

// runWhole runs a command that reads its inputs itself (extract, links,
// the equal commands). A panic ends it, since the stream it reads cannot
// be resumed, but not before the lines already made for what came
// before are written out: exit status 3, as in loop.
func (c *call) runWhole(whole func(*call) int) (code int) {
	defer func() {
		if v := recover(); v != nil {
			if c.out != nil {
				c.out.dropLine()
				c.out.flush()
			}
			fmt.Fprintf(c.stderr, "uri %s: %v\n", c.cmd.name, &internalError{v})
			c.stderr.Write(debug.Stack())
			code = 3
		}
	}()
	return whole(c)
}

// help returns the command's help text, made from its declarations.
func (cmd *command) help() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: uri %s %s\n\n", cmd.name, cmd.synopsis)
	b.WriteString(cmd.about)
	if cmd.traits&inputs != 0 {
		b.WriteString(`
Inputs are the arguments, then the lines of each --file; without either,
the lines of standard input. Every line is one input, the empty line
included (the empty string is a valid URI reference); a final "\r" is
dropped. Memory stays constant whatever the length of the stream.
`)
	}
	b.WriteString("\nFlags (anywhere among the arguments; \"--\" ends them):\n")
	for _, f := range cmd.allFlags() {
		name := "--" + f.long
		if f.short != 0 {
			name = "-" + string(f.short) + ", " + name
		}
		if f.arg != "" {
			name += " " + f.arg
		}
		lines := strings.Split(f.help, "\n")
		if len(name) > 18 {
			fmt.Fprintf(&b, "  %s\n", name)
			name = ""
		}
		for i, l := range lines {
			if i == 0 {
				fmt.Fprintf(&b, "  %-18s %s\n", name, l)
			} else {
				fmt.Fprintf(&b, "  %-18s %s\n", "", l)
			}
		}
		if f.example != "" {
			fmt.Fprintf(&b, "  %-18s   e.g. %s\n", "", f.example)
		}
	}
	fmt.Fprintf(&b, "  %-18s %s\n", "-h, --help", "print this help")
	if cmd.output != "" {
		b.WriteString("\n" + cmd.output)
	}
	if cmd.traits&inputs != 0 {
		errLine := `"error: OFFSET: REASON"`
		if cmd.traits&failsOnly != 0 {
			errLine = `"INPUT<TAB>error: OFFSET: REASON"`
		}
		fmt.Fprintf(&b, `
A failed input prints %s (JSON: {"input", "error",
"offset"}) and processing goes on. OFFSET is the byte offset of the first
offending byte: the length of the longest prefix of the input that still
begins some valid string; it is left out (JSON null) when no byte is to
blame. An input that is not valid UTF-8 also gets "input_hex" in JSON.
`, errLine)
	}
	b.WriteString("\nExit status: ")
	if cmd.exit != "" {
		b.WriteString(cmd.exit)
	} else {
		b.WriteString("0 when every input succeeded, 1 when any failed, 2 for a usage\nerror or when reading an input or writing the output fails.\n")
	}
	b.WriteString(exitInternal)
	return b.String()
}
