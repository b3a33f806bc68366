package main

import (
	"io"
	"strings"

	"github.com/urikit/urikit/uri"
)

var relativizeCommand = &command{
	name:    "relativize",
	summary: "print the shortest reference from a base URI to each target",
	help:    relativizeHelp,
	run:     runRelativize,
}

func runRelativize(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o := newOptions("relativize", relativizeHelp, true)
	var base baseFlag
	o.fs.Var(&base, "base", "")
	args, code, done := o.parse(args, stdout, stderr)
	if done {
		return code
	}
	mode := o.mode()
	b, code, ok := o.base(base, stderr)
	if !ok {
		return code
	}
	return o.loop(args, stdin, stdout, stderr, func(in string) (result, error) {
		t, err := uri.ParseWith(in, mode)
		if err != nil {
			return result{}, err
		}
		var ref uri.URI
		if mode&uri.RFC2396 != 0 {
			ref, ok = b.Relativize2396(t)
		} else {
			ref, ok = b.Relativize(t)
		}
		if !ok {
			return result{}, &refError{firstDotSegment(t), "no reference resolves to a target with a dot segment", "path"}
		}
		return result{out: outResult, s: ref.String()}, nil
	})
}

// firstDotSegment returns the offset in u of the first "." or ".."
// segment of its path, or -1. Resolution removes such segments (RFC 3986
// 5.2.4), so only a reference that keeps the base's path reaches a
// target that has them.
func firstDotSegment(u uri.URI) int {
	start := 0
	if u.HasScheme() {
		start += len(u.Scheme()) + 1
	}
	if u.HasAuthority() {
		start += 2 + len(u.Authority())
	}
	p := u.Path()
	for i := 0; i <= len(p); {
		j := strings.IndexByte(p[i:], '/')
		if j < 0 {
			j = len(p) - i
		}
		if seg := p[i : i+j]; seg == "." || seg == ".." {
			return start + i
		}
		i += j + 1
	}
	return -1
}

const relativizeHelp = `Usage: uri relativize --base BASE [--json] [--rfc 3986|2396] [--zone-id] [TARGET...]

For each target URI, print the shortest reference that resolves back to
the target against BASE ("uri resolve --base BASE" is its inverse, with
the same --rfc). Targets are the arguments or, when there are none, the
lines of standard input (the empty line is an input; a final "\r" is
dropped).

BASE must be a URI with a scheme (RFC 3986 5.1); its fragment is ignored.
A missing or invalid BASE is a usage error.

Flags:
  --base BASE   the base URI (required)
  --json        print JSON Lines
  --rfc 3986    RFC 3986 grammar and resolution, the default
  --rfc 2396    the 1998 draft's grammar and resolution
  --zone-id     accept an IPv6 zone identifier ("[fe80::1%25en0]", RFC 6874)

Output: the reference, one line per target; JSON {"input", "result"}.
A target that does not parse, or that no reference can reach from BASE,
prints "error: OFFSET: REASON" (JSON: {"input", "error", "offset"},
offset null when there is none) and processing goes on.

Exit status: 0 when every target was relativized, 1 when any failed, 2
for a usage error.
`
