package main

import (
	"fmt"
	"io"

	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/urn"
)

var equalCommand = &command{
	name:    "equal",
	summary: "tell whether two URI references are equivalent",
	help:    equalHelp,
	run:     runEqual,
}

func runEqual(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o := newOptions("equal", equalHelp, true)
	args, code, done := o.parse(args, stdout, stderr)
	if done {
		return code
	}
	if len(args) != 2 {
		return o.usageError(stderr, fmt.Sprintf("want 2 arguments, have %d", len(args)))
	}
	mode := o.mode()
	var u [2]uri.URI
	for i, in := range args {
		var err error
		if u[i], err = parseURI(in, mode); err != nil {
			fmt.Fprintf(stderr, "uri equal: %q: %s", in, appendFailure(nil, in, err, false, false))
			return 2
		}
	}
	eq, err := equivalent(u[0], u[1])
	if err != nil {
		// Unreachable: parseURI has checked the URNs.
		fmt.Fprintf(stderr, "uri equal: %v\n", err)
		return 2
	}
	if o.json {
		var b []byte
		b = appendJSONKey(append(b, '{'), "a", true)
		b = appendJSONString(b, args[0])
		b = appendJSONKey(b, "b", false)
		b = appendJSONString(b, args[1])
		b = appendJSONKey(b, "equal", false)
		b = fmt.Appendf(b, "%t}\n", eq)
		stdout.Write(b)
	} else if eq {
		fmt.Fprintln(stdout, "equal")
	} else {
		fmt.Fprintln(stdout, "not equal")
	}
	if eq {
		return 0
	}
	return 1
}

// equivalent compares two URI references: by URN equivalence (RFC 8141
// section 3) when both are URNs, and by their normal forms otherwise. A
// URN and another URI never compare equal: their schemes differ.
func equivalent(a, b uri.URI) (bool, error) {
	if isURN(a) && isURN(b) {
		return urn.Equal(a.String(), b.String())
	}
	return uri.Equal(a, b), nil
}

const equalHelp = `Usage: uri equal [--json] [--rfc 3986|2396] [--zone-id] A B

Tell whether A and B are equivalent: whether their normal forms (see
"uri help normalize") are the same string, as RFC 3986 6.2.2 and 6.2.3
compare. Two "urn:" URIs (scheme in any case) are compared by the URN
equivalence of RFC 8141 section 3 instead ("urn" and the NID compare
case-insensitively, percent-encoding case-insensitively, and the r-, q-
and f-components are ignored).

equal takes exactly two arguments and never reads standard input.

Flags:
  --json        print {"a": A, "b": B, "equal": true|false}
  --rfc 3986    the grammar of RFC 3986 Appendix A (the default)
  --rfc 2396    the grammar of the 1998 draft that became RFC 2396
  --zone-id     accept an IPv6 zone identifier ("[fe80::1%25en0]", RFC 6874)

Output: "equal" or "not equal".

Exit status: 0 when A and B are equivalent, 1 when they are not, 2 when
either is invalid ("uri equal: INPUT: error: OFFSET: REASON" on standard
error, nothing on standard output) or for a usage error.
`
