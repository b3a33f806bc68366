package main

import (
	"io"

	"github.com/urikit/urikit/urn"
)

var normalizeCommand = &command{
	name:    "normalize",
	summary: "print the normal form of each URI reference",
	help:    normalizeHelp,
	run:     runNormalize,
}

func runNormalize(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o := newOptions("normalize", normalizeHelp, true)
	args, code, done := o.parse(args, stdout, stderr)
	if done {
		return code
	}
	mode := o.mode()
	return o.loop(args, stdin, stdout, stderr, func(in string) (result, error) {
		u, err := parseURI(in, mode)
		if err != nil {
			return result{}, err
		}
		if isURN(u) {
			s, err := urn.Normalize(in)
			return result{out: outResult, s: s}, err
		}
		return result{out: outResult, s: u.Normalize().String()}, nil
	})
}

const normalizeHelp = `Usage: uri normalize [--json] [--rfc 3986|2396] [--zone-id] [INPUT...]

Print the normal form of each input, the form that equal compares.
Inputs are the arguments or, when there are none, the lines of standard
input (the empty line is an input; a final "\r" is dropped).

The normal form follows RFC 3986 6.2.2 and 6.2.3: scheme and host in
lowercase, percent-encoding in uppercase hexadecimal, percent-encoded
unreserved characters decoded, dot segments removed; for the schemes
with a known default port (http 80, https 443, ftp 21, ...) an empty or
default port is dropped and an empty http(s) path becomes "/". Empty
query and fragment delimiters are kept. Normalizing twice changes
nothing.

With --rfc 2396 the 1998 draft's section 6 applies instead: scheme and
hostname in lowercase, an explicit default port dropped, escapes in
uppercase and escaped unreserved characters (alphanum and "-_.!~*'()")
decoded; dot segments and empty paths are left as they are, since that
draft does not make them equivalent (its resolution keeps "/./g").

A "urn:" input (scheme in any case) gets the URN normal form of RFC 8141
section 3.1 instead ("urn" and the NID in lowercase, percent-encoding in
uppercase) and must be a valid URN.

Flags:
  --json        print JSON Lines
  --rfc 3986    the grammar of RFC 3986 Appendix A (the default)
  --rfc 2396    the grammar of the 1998 draft that became RFC 2396
  --zone-id     accept an IPv6 zone identifier ("[fe80::1%25en0]", RFC 6874)

Output: the normal form, one line per input; JSON {"input", "result"}.
A failed input prints "error: OFFSET: REASON" (JSON: {"input", "error",
"offset"}) and processing goes on.

Exit status: 0 when every input was normalized, 1 when any failed, 2 for
a usage error.
`
