package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urikit/urikit/uri"
)

var resolveCommand = &command{
	name:    "resolve",
	summary: "resolve each reference against a base URI",
	help:    resolveHelp,
	run:     runResolve,
}

func runResolve(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o := newOptions("resolve", resolveHelp, true)
	var base baseFlag
	o.fs.Var(&base, "base", "")
	dots := dotsFlag{policy: uri.KeepDots}
	o.fs.Var(&dots, "dots", "")
	args, code, done := o.parse(args, stdout, stderr)
	if done {
		return code
	}
	mode := o.mode()
	if dots.set && mode&uri.RFC2396 == 0 {
		return o.usageError(stderr, "--dots applies to --rfc 2396 only")
	}
	b, code, ok := o.base(base, stderr)
	if !ok {
		return code
	}
	return o.loop(args, stdin, stdout, stderr, func(in string) (result, error) {
		ref, err := uri.ParseWith(in, mode)
		if err != nil {
			return result{}, err
		}
		if mode&uri.RFC2396 != 0 {
			t, err := b.Resolve2396(ref, dots.policy)
			if errors.Is(err, uri.ErrAboveRoot) {
				err = &refError{aboveRoot(b, ref), "\"..\" above the root of the base path", "path"}
			}
			return result{out: outResult, s: t.String()}, err
		}
		return result{out: outResult, s: b.Resolve(ref).String()}, nil
	})
}

// baseFlag is the value of --base.
type baseFlag struct {
	s   string
	set bool
}

func (f *baseFlag) String() string { return f.s }

func (f *baseFlag) Set(s string) error {
	f.s, f.set = s, true
	return nil
}

// base parses the --base of resolve and relativize: it must be given, be
// a URI reference in the selected grammar, and have a scheme (RFC 3986
// 5.1: a base URI is absolute). Otherwise it reports a usage error.
func (o *options) base(f baseFlag, stderr io.Writer) (b uri.URI, code int, ok bool) {
	if !f.set {
		return b, o.usageError(stderr, "--base is required"), false
	}
	b, err := uri.ParseWith(f.s, o.mode())
	if err != nil {
		off, reason := describe(err)
		return b, o.usageError(stderr, fmt.Sprintf("invalid base %q: error: %d: %s", f.s, off, reason)), false
	}
	if !b.HasScheme() {
		return b, o.usageError(stderr, fmt.Sprintf("invalid base %q: a base URI must have a scheme", f.s)), false
	}
	return b, 0, true
}

// dotsFlag is the value of --dots: keep, drop or reject.
type dotsFlag struct {
	policy uri.DotPolicy
	set    bool
}

var dotPolicies = map[string]uri.DotPolicy{
	"keep":   uri.KeepDots,
	"drop":   uri.DropDots,
	"reject": uri.RejectDots,
}

func (f *dotsFlag) String() string {
	for name, p := range dotPolicies {
		if p == f.policy {
			return name
		}
	}
	return ""
}

func (f *dotsFlag) Set(s string) error {
	p, ok := dotPolicies[strings.ToLower(s)]
	if !ok {
		return fmt.Errorf("want keep, drop or reject")
	}
	f.policy, f.set = p, true
	return nil
}

const resolveHelp = `Usage: uri resolve --base BASE [--json] [--rfc 3986|2396] [--dots keep|drop|reject]
                   [--zone-id] [REFERENCE...]

Resolve each reference against BASE and print the target URI. References
are the arguments or, when there are none, the lines of standard input
(the empty line is an input: it names the base without its fragment; a
final "\r" is dropped).

BASE must be a URI with a scheme (RFC 3986 5.1); its fragment is ignored.
A missing or invalid BASE is a usage error.

Flags:
  --base BASE   the base URI (required)
  --json        print JSON Lines
  --rfc 3986    RFC 3986 grammar and resolution (section 5.2-5.3), the default
  --rfc 2396    the 1998 draft's grammar and resolution (its section 5.2):
                "../../../g" against "http://a/b/c/d;p?q" gives
                "http://a/../g", as its Appendix C says
  --dots POLICY with --rfc 2396, what to do with a ".." that would go above
                the root, the three choices of the draft's Appendix C:
                keep (the default: keep it, "http://a/../g"),
                drop (remove it, "http://a/g"), reject (an error)
  --zone-id     accept an IPv6 zone identifier ("[fe80::1%25en0]", RFC 6874)

Output: the target URI, one line per reference; JSON {"input", "result"}.
A reference that does not parse (or whose ".." is rejected) prints
"error: OFFSET: REASON" (JSON: {"input", "error", "offset"}, offset null
when there is none) and processing goes on.

Exit status: 0 when every reference resolved, 1 when any failed, 2 for a
usage error.
`

// aboveRoot returns the offset in ref of the first ".." segment that
// climbs above the root when ref is merged with the path of base by the
// 1998 draft's section 5.2 step 6, or -1 when there is none in ref (the
// excess comes from the base's own path). Segments form a stack: "."
// is skipped, ".." pops a segment, and a ".." with nothing to pop is
// above the root (step 6g).
func aboveRoot(base, ref uri.URI) int {
	if ref.HasScheme() || ref.HasAuthority() {
		return -1 // a reference path that is not merged (step 4 or 5)
	}
	p := ref.Path() // starts at offset 0 of ref
	depth := 0
	// walk calls fn for each segment of path after its root "/", with
	// its offset; when withLast is false the segment after the last "/"
	// is left out (step 6a drops the base's last segment).
	walk := func(path string, withLast bool, fn func(seg string, off int) bool) bool {
		i := 0
		if strings.HasPrefix(path, "/") {
			i = 1
		}
		for i <= len(path) {
			j := strings.IndexByte(path[i:], '/')
			if j < 0 {
				if withLast && !fn(path[i:], i) {
					return false
				}
				break
			}
			if !fn(path[i:i+j], i) {
				return false
			}
			i += j + 1
		}
		return true
	}
	step := func(seg string, off int) bool {
		switch seg {
		case ".":
		case "..":
			if depth == 0 {
				return false
			}
			depth--
		default:
			depth++
		}
		return true
	}
	if !strings.HasPrefix(p, "/") {
		if !walk(base.Path(), false, step) {
			return -1
		}
	}
	off := -1
	walk(p, true, func(seg string, o int) bool {
		if !step(seg, o) {
			off = o
			return false
		}
		return true
	})
	return off
}
