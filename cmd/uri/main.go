// Command uri parses, checks, resolves, normalizes, compares and
// percent-encodes URI references: the generic syntax of RFC 3986, and the
// 1998 draft that became RFC 2396 with --rfc 2396.
//
// Every subcommand but equal reads its inputs from its arguments or, when
// there are none, one per line from standard input, and writes one line
// per input (JSON Lines with --json). Run "uri help" for the list of
// subcommands and "uri help SUBCOMMAND" for the details of one.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// version is printed by --version when the binary carries no module
// version (a build from a source tree rather than "go install ...@v").
const version = "v0.1.0-dev"

// A command is a subcommand: its name, a one-line summary for "uri help",
// its full help text, and the function that runs it with the arguments
// that follow its name. run returns the exit status.
type command struct {
	name    string
	summary string
	help    string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// urnCommand is the "urn" subcommand, set by the init function of
// urn.go, which implements it.
var urnCommand *command

// commands returns the subcommands in the order "uri help" lists them.
func commands() []*command {
	list := []*command{
		parseCommand, checkCommand, resolveCommand, relativizeCommand,
		normalizeCommand, equalCommand, encodeCommand, decodeCommand,
	}
	if urnCommand != nil {
		list = append(list, urnCommand)
	}
	return list
}

func lookup(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return c
		}
	}
	return nil
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command: args are the arguments after the program
// name. It returns the exit status: 0 when every input succeeded, 1 when
// any failed, 2 for a usage error.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, mainUsage())
		return 2
	}
	switch name := args[0]; name {
	case "help", "-h", "-help", "--help":
		if name != "help" || len(args) == 1 {
			fmt.Fprint(stdout, mainUsage())
			return 0
		}
		if len(args) > 2 {
			return usageError(stderr, "uri help", "too many arguments", "")
		}
		c := lookup(args[1])
		if c == nil {
			return usageError(stderr, "uri help", fmt.Sprintf("unknown subcommand %q", args[1]), "")
		}
		if c.help == "" {
			// A subcommand that keeps its help itself prints it on -h.
			return c.run([]string{"-h"}, stdin, stdout, stderr)
		}
		fmt.Fprint(stdout, c.help)
		return 0
	case "-version", "--version", "version":
		if len(args) > 1 {
			return usageError(stderr, "uri "+name, "too many arguments", "")
		}
		fmt.Fprintf(stdout, "uri (urikit) %s\n", buildVersion())
		return 0
	}
	c := lookup(args[0])
	if c == nil {
		return usageError(stderr, "uri", fmt.Sprintf("unknown subcommand %q", args[0]), "")
	}
	return c.run(args[1:], stdin, stdout, stderr)
}

// buildVersion returns the module version the binary was built from, or
// the version constant for a development build.
func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			return v
		}
	}
	return version
}

// usageError prints "PREFIX: MSG" and a pointer to the help on stderr and
// returns 2, the exit status of a usage error. sub names the subcommand
// whose help to point to, or "" for the main help.
func usageError(stderr io.Writer, prefix, msg, sub string) int {
	help := "uri help"
	if sub != "" {
		help += " " + sub
	}
	fmt.Fprintf(stderr, "%s: %s\nRun '%s' for usage.\n", prefix, msg, help)
	return 2
}

func mainUsage() string {
	var b strings.Builder
	b.WriteString(`uri parses, checks, resolves, normalizes, compares and percent-encodes
URI references: the generic syntax of RFC 3986, and that of the 1998 draft
that became RFC 2396 (draft-fielding-uri-syntax-02) with --rfc 2396.

Usage:
  uri SUBCOMMAND [FLAGS] [INPUT...]
  uri help [SUBCOMMAND]
  uri --version

Subcommands:
`)
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-11s %s\n", c.name, c.summary)
	}
	b.WriteString(`
Flags follow the subcommand name and come before the inputs; "--" ends
them (an input may start with "-": "-a" is a relative reference).

Inputs: every subcommand except equal takes its inputs as arguments or,
when there are none, one per line from standard input, streaming in
constant memory. Every line is one input, the empty line included (the
empty string is a valid URI reference); a final "\r" is dropped.

Output: one line per input, in order; with --json, one JSON object per
line (JSON Lines). A failed input prints "error: OFFSET: REASON" (JSON:
{"input", "error", "offset"}) and processing goes on. OFFSET is the byte
offset of the first offending byte: the length of the longest prefix of
the input that still begins some valid URI reference.

Exit status: 0 when every input succeeded, 1 when any failed, 2 for a
usage error (or when standard input or output fails). equal exits 0 when
its two arguments are equivalent, 1 when not, 2 when either is invalid.

Run "uri help SUBCOMMAND" for the inputs, flags and output of one.
`)
	return b.String()
}
