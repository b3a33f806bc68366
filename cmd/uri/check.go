package main

import "io"

var checkCommand = &command{
	name:    "check",
	summary: "print the inputs that are not URI references, and why",
	help:    checkHelp,
	run:     runCheck,
}

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o := newOptions("check", checkHelp, true)
	o.failuresOnly = true
	args, code, done := o.parse(args, stdout, stderr)
	if done {
		return code
	}
	mode := o.mode()
	return o.loop(args, stdin, stdout, stderr, func(in string) (result, error) {
		_, err := parseURI(in, mode)
		return result{}, err
	})
}

const checkHelp = `Usage: uri check [--json] [--rfc 3986|2396] [--zone-id] [INPUT...]

Check that each input is a URI reference and print only the failures.
Inputs are the arguments or, when there are none, the lines of standard
input (the empty line is an input; a final "\r" is dropped). Memory stays
constant whatever the length of the stream.

A "urn:" input (scheme in any case) must also be a URN of RFC 8141, as
with parse.

Flags:
  --json        print JSON Lines
  --rfc 3986    the grammar of RFC 3986 Appendix A (the default)
  --rfc 2396    the grammar of the 1998 draft that became RFC 2396
  --zone-id     accept an IPv6 zone identifier ("[fe80::1%25en0]", RFC 6874)

Plain output, one line per failed input:
  INPUT<TAB>error: OFFSET: REASON
where OFFSET is the byte offset of the first offending byte and REASON
says what is wrong and in which component. REASON holds no tab, so the
line splits at its last tab even when the input holds one.

JSON output, one object per failed input: {"input", "error", "offset"}.

Nothing is printed for a valid input.

Exit status: 0 when every input is valid, 1 when any is not, 2 for a
usage error.
`
