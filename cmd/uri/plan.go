package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/urikit/urikit/internal/jsonstr"
	"github.com/urikit/urikit/scheme"
)

var planCommand = &command{
	name:     "plan",
	summary:  "print what a client sends to fetch each URL (gopher, ftp, http)",
	synopsis: "[--email ADDR] [--proxy] [--ask-data] [--zone-id] [--repair] [--json] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut | repairs,
	flags: []flagSpec{
		{long: "email", arg: "ADDR", help: "the mail address sent as the password of an anonymous FTP\nlogin (RFC 1738 3.2.1); without it, \"<email>\"",
			example: "uri plan --email me@example.com ftp://ftp.example.com/pub/file.txt"},
		{long: "proxy", help: "the HTTP request a client sends to a proxy (absolute form)",
			example: "uri plan --proxy http://example.com/a?b"},
		{long: "ask-data", help: "send the data block of a filled-in Gopher+ +ASK form (its\nlines end in a decoded CR LF), to port 70 only; without it\nsuch a URL is refused",
			example: "uri plan --ask-data 'gopher://h/0s%09%09+%091%0D%0A+-1%0D%0Av%0D%0A.%0D%0A'"},
		withExample(flagZone, "uri plan --zone-id 'http://[fe80::1%25en0]:8080/'"),
	},
	about: `Print the bytes a client sends to fetch what each URL names, from the
rules of its scheme (package scheme, Plan): for gopher the request line
(the selector, a TAB and the search, a TAB and the Gopher+ string, CR LF);
for ftp the control commands (USER, PASS, one CWD per directory, TYPE,
RETR or NLST/LIST; data-connection commands left out); for http and
https the request line and Host header of a GET.

A percent-encoded CR, LF or NUL that a client would decode into a
protocol line makes the plan refuse the URL: it is never decoded and
sent (RFC 1738 section 6, the seeds' security sections). The one
exception is the data block of a filled-in Gopher+ +ASK form, sent
with --ask-data to port 70 only. A port above 65535, an NNTP group
that is not a newsgroup name (RFC 3977) and an nntp URL without a
server are refused too. An IPv6 zone identifier (--zone-id) is where
the client connects, and is removed from the HTTP request (RFC 6874
section 4).

--email must hold no space and no control character: it is sent as a
protocol line (a usage error otherwise).
`,
	output: `Plain output, one line per input: gopher and http, the request; ftp
and nntp, the commands joined by " | " (a command with an empty
argument keeps its space: "CWD "). TAB, CR, LF and \ are written \t, \r,
\n and \\, a "|" inside a command \|, and every other control or
non-printing byte as \xHH (a non-printing character as \uHHHH), so that
the line is the plan and nothing else. A refused
URL prints <refused> and fails (exit status 1); a URL of a scheme
without a plan fails with an error line.

JSON: {"input", "scheme", "connect": {"host", "port"}, "request",
"commands", "refused", "reason", "warnings"}, with null for what does not
apply.
`,
	start: func(c *call) (each, error) {
		opts := scheme.PlanOptions{Email: c.str("email", ""), Proxy: c.has("proxy"), AskData: c.has("ask-data")}
		if err := opts.Check(); err != nil {
			return nil, usagef("flag --email: %v", err)
		}
		c.opts.AllowZoneID = c.has("zone-id")
		return func(in string) (result, error) {
			u, changes, err := c.parseURI(in)
			if err != nil {
				return nil, err
			}
			v, err := c.reg.View(u)
			if err != nil {
				return nil, withRepairs(err, changes)
			}
			pl, ok := v.(scheme.Planner)
			if !ok {
				return nil, withRepairs(errors.New("no client plan for the scheme "+strings.ToLower(u.Scheme())), changes)
			}
			p, err := pl.Plan(opts)
			var refused *scheme.RefusedError
			if err != nil && !errors.As(err, &refused) {
				return nil, withRepairs(err, changes)
			}
			if refused != nil {
				err = errRefused // refused, with what a client would do
			}
			return c.plan(planResult{
				scheme: strings.ToLower(u.Scheme()),
				p:      p,
				// The request as a string, not copied: it is
				// megabytes for a long URL, and nothing changes it.
				req:      unsafe.String(unsafe.SliceData(p.Request), len(p.Request)),
				refused:  refused,
				warnings: pl.Warnings(),
				repairs:  changes,
			}), err
		}, nil
	},
}

// appendPlanEscaped appends s with every byte that could make the line
// say something else escaped: "\\", TAB, CR and LF as \\, \t, \r and \n;
// other controls, DEL and bytes of invalid UTF-8 (0xFF, the Telnet IAC
// of an FTP control connection) as \xHH; a character that does not
// print (a bidi control, a zero-width space) as \uHHHH or \UHHHHHHHH;
// and, when sep is set, "|" as \| so that " | " only separates commands.
func appendPlanEscaped(b []byte, s string, sep bool) []byte {
	b = jsonstr.Grow(b, len(s)+len(s)/2)
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\\':
				b = append(b, `\\`...)
			case c == '\t':
				b = append(b, `\t`...)
			case c == '\r':
				b = append(b, `\r`...)
			case c == '\n':
				b = append(b, `\n`...)
			case c == '|' && sep:
				b = append(b, `\|`...)
			case c < ' ' || c == 0x7f:
				b = append(b, '\\', 'x', hex[c>>4], hex[c&15])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(b, '\\', 'x', hex[c>>4], hex[c&15])
		case !strconv.IsPrint(r):
			if r > 0xffff {
				b = append(b, `\U`...)
				b = append(b, fmt.Sprintf("%08x", r)...)
			} else {
				b = append(b, `\u`...)
				b = append(b, fmt.Sprintf("%04x", r)...)
			}
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return b
}
