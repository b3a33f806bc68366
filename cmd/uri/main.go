// Command uri parses, checks, edits, resolves, normalizes, compares and
// percent-encodes URI references (RFC 3986, and the 1998 draft that
// became RFC 2396 with --rfc 2396), reads what the classic schemes mean
// and what a client sends for them, finds URIs in text and HTML, maps
// IRIs, and does the same for URNs ("uri urn ...").
//
// Every subcommand runs on the same framework (cli.go): flags anywhere
// among the arguments, inputs from the arguments, from --file or from
// standard input, one output line per input (JSON Lines with --json),
// the same error lines and exit statuses. Run "uri help" for the list
// of subcommands and "uri help SUBCOMMAND" for the details of one.
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
const version = "v0.2.0-dev"

// commands returns the subcommands in the order "uri help" lists them.
func commands() []*command {
	return []*command{
		parseCommand, checkCommand, resolveCommand, relativizeCommand,
		normalizeCommand, equalCommand, getCommand, surtCommand, canonCommand, editCommand, planCommand, extractCommand, linksCommand, baseCommand, iriToURICommand, uriToIRICommand,
		encodeCommand, decodeCommand,
		urnParseCommand, urnCheckCommand, urnNormalizeCommand, urnKeyCommand,
		urnEqualCommand, urnEncodeCommand, urnShowCommand,
	}
}

// lookup returns the command named by the first words of args ("parse",
// or "urn" and "parse") and how many words it took.
func lookup(args []string) (*command, int) {
	for _, c := range commands() {
		words := strings.Fields(c.name)
		if len(args) >= len(words) && strings.Join(args[:len(words)], " ") == c.name {
			return c, len(words)
		}
	}
	return nil, 0
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command: args are the arguments after the program
// name. It returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, mainUsage(""))
		return 2
	}
	switch name := args[0]; name {
	case "help", "-h", "-help", "--help":
		if name != "help" || len(args) == 1 {
			fmt.Fprint(stdout, mainUsage(""))
			return 0
		}
		words := strings.Fields(strings.Join(args[1:], " "))
		if len(words) == 1 && words[0] == "urn" {
			fmt.Fprint(stdout, mainUsage("urn"))
			return 0
		}
		c, n := lookup(words)
		if c == nil || n != len(words) {
			return mainError(stderr, fmt.Sprintf("unknown subcommand %q", strings.Join(args[1:], " ")))
		}
		fmt.Fprint(stdout, c.help())
		return 0
	case "-version", "--version", "version":
		if len(args) > 1 {
			return mainError(stderr, "--version takes no arguments")
		}
		fmt.Fprintf(stdout, "uri (urikit) %s\n", buildVersion())
		return 0
	case "urn":
		if len(args) == 1 {
			fmt.Fprint(stderr, mainUsage("urn"))
			return 2
		}
		switch args[1] {
		case "help", "-h", "-help", "--help":
			return run(append([]string{"help", "urn"}, args[2:]...), stdin, stdout, stderr)
		}
	}
	c, n := lookup(args)
	if c == nil {
		return mainError(stderr, fmt.Sprintf("unknown subcommand %q", strings.Join(args[:min(len(args), 2)], " ")))
	}
	return c.exec(args[n:], stdin, stdout, stderr)
}

// mainError reports a usage error of the command line as a whole.
func mainError(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "uri: %s\nRun 'uri help' for usage.\n", msg)
	return 2
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

// mainUsage returns the help of "uri" (group "") or of "uri urn".
func mainUsage(group string) string {
	var b strings.Builder
	if group == "urn" {
		b.WriteString(`Usage: uri urn SUBCOMMAND [FLAGS] [INPUT...]

URNs per RFC 8141, or the 2015 draft, the 2012 draft or RFC 2141 with
--dialect. The subcommands work as every other: see "uri help".

Subcommands:
`)
	} else {
		b.WriteString(`uri parses, checks, edits, resolves, normalizes, compares and
percent-encodes URI references: the generic syntax of RFC 3986, and that
of the 1998 draft that became RFC 2396 (draft-fielding-uri-syntax-02) with
--rfc 2396. It reads what the classic schemes of the URL drafts mean and
what a client sends for them (plan), finds URIs in text (extract) and in
HTML (links, base), maps IRIs (RFC 3987), and handles URNs (RFC 8141 and
its drafts) with "uri urn".

Usage:
  uri SUBCOMMAND [FLAGS] [INPUT...]
  uri help [SUBCOMMAND]
  uri --version

Subcommands:
`)
	}
	for _, c := range commands() {
		if strings.HasPrefix(c.name, "urn ") != (group == "urn") && group == "urn" {
			continue
		}
		fmt.Fprintf(&b, "  %-15s %s\n", c.name, c.summary)
	}
	if group == "urn" {
		return b.String()
	}
	b.WriteString(`
Flags may come anywhere among the arguments; "--" ends them (an input
that starts with "-" comes after "--").

Inputs: the arguments, then the lines of each -f/--file FILE; without
either, the lines of standard input, streaming in constant memory. Every
line is one input, the empty line included; a final "\r" is dropped.

Output: one line per input, in order; with --json, one JSON object per
line (JSON Lines). A failed input prints "error: OFFSET: REASON" (JSON:
{"input", "error", "offset"}) and processing goes on.

Exit status: 0 when every input succeeded, 1 when any failed, 2 for a
usage error or when reading an input or writing the output fails. The
equal subcommands exit 0 when their two arguments are equivalent, 1 when
not, 2 when either is invalid. Exit status 3 means a bug of the command
on an input (its line says "error: internal error: ..."; the other inputs
are processed as usual).

Run "uri help SUBCOMMAND" for the inputs, flags and output of one.
`)
	return b.String()
}
