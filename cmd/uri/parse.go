package main

import "io"

var parseCommand = &command{
	name:    "parse",
	summary: "split each input into its components",
	help:    parseHelp,
	run:     runParse,
}

func runParse(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o := newOptions("parse", parseHelp, true)
	args, code, done := o.parse(args, stdout, stderr)
	if done {
		return code
	}
	mode := o.mode()
	return o.loop(args, stdin, stdout, stderr, func(in string) (result, error) {
		u, err := parseURI(in, mode)
		return result{out: outComponents, u: u}, err
	})
}

const parseHelp = `Usage: uri parse [--json] [--rfc 3986|2396] [--zone-id] [INPUT...]

Parse each input as a URI reference (an absolute URI or a relative
reference) and print its components. Inputs are the arguments or, when
there are none, the lines of standard input (the empty line is an input;
a final "\r" is dropped).

A "urn:" input (scheme in any case) must also be a URN of RFC 8141; when
it is not, the URN error and its offset are reported.

Flags:
  --json        print JSON Lines
  --rfc 3986    the grammar of RFC 3986 Appendix A (the default)
  --rfc 2396    the grammar of the 1998 draft that became RFC 2396
  --zone-id     accept an IPv6 zone identifier ("[fe80::1%25en0]", RFC 6874)

Plain output, one line per input: the defined components as KEY=VALUE
separated by spaces, in this order:
  scheme=S userinfo=U host=H host_type=T port=P path=P query=Q fragment=F
An undefined component is left out; an empty one is written "KEY=" (so
"foo://a/b?#" prints "... path=/b query= fragment=", and "foo://a/b" has
no query and no fragment). The path is always there, possibly empty.
Values are as written (not decoded); a valid URI holds no space.
host_type is ipv4, ipv6, ipvfuture or reg-name; host keeps the brackets
of an IP literal.

JSON output, one object per input:
  {"input", "scheme", "userinfo", "host", "host_type", "port", "path",
   "query", "fragment"}
with null for an undefined component and "" for an empty one (host and
host_type are null without an authority; path is never null).

A failed input prints "error: OFFSET: REASON" (JSON: {"input", "error",
"offset"}), where OFFSET is the byte offset of the first offending byte,
and processing goes on.

Exit status: 0 when every input parsed, 1 when any failed, 2 for a usage
error.
`
