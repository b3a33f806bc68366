package main

import (
	"errors"
	"strings"

	"github.com/urikit/urikit/scheme"
)

var planCommand = &command{
	name:     "plan",
	summary:  "print what a client sends to fetch each URL (gopher, ftp, http)",
	synopsis: "[--email ADDR] [--proxy] [--json] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut | repairs,
	flags: []flagSpec{
		{long: "email", arg: "ADDR", help: "the mail address sent as the password of an anonymous FTP\nlogin (RFC 1738 3.2.1); without it, \"<email>\"",
			example: "uri plan --email me@example.com ftp://ftp.example.com/pub/file.txt"},
		{long: "proxy", help: "the HTTP request a client sends to a proxy (absolute form)",
			example: "uri plan --proxy http://example.com/a?b"},
	},
	about: `Print the bytes a client sends to fetch what each URL names, from the
rules of its scheme (package scheme, Plan): for gopher the request line
(the selector, a TAB and the search, a TAB and the Gopher+ string, CR LF);
for ftp the control commands (USER, PASS, one CWD per directory, TYPE,
RETR or NLST/LIST; data-connection commands left out); for http and
https the request line and Host header of a GET.

A percent-encoded CR, LF or NUL that a client would decode into a
protocol line makes the plan refuse the URL: it is never decoded and
sent (RFC 1738 section 6, the seeds' security sections).
`,
	output: `Plain output, one line per input: gopher and http, the request with
\t, \r, \n and \\ written as escapes; ftp, the commands joined by " | "
(a command with an empty argument keeps its space: "CWD "). A refused
URL prints <refused> and fails (exit status 1); a URL of a scheme
without a plan fails with an error line.

JSON: {"input", "scheme", "connect": {"host", "port"}, "request",
"commands", "refused", "reason", "warnings"}, with null for what does not
apply.
`,
	start: func(c *call) (each, error) {
		opts := scheme.PlanOptions{Email: c.str("email", ""), Proxy: c.has("proxy")}
		return func(in string) error {
			u, err := c.parseURI(in)
			if err != nil {
				return err
			}
			v, err := c.reg.View(u)
			if err != nil {
				return err
			}
			pl, ok := v.(scheme.Planner)
			if !ok {
				return errors.New("no client plan for the scheme " + strings.ToLower(u.Scheme()))
			}
			p, err := pl.Plan(opts)
			var refused *scheme.RefusedError
			if err != nil && !errors.As(err, &refused) {
				return err
			}
			w := c.out
			if !w.json {
				switch {
				case refused != nil:
					w.line("<refused>")
					return errWritten
				case p.Commands != nil:
					w.line(strings.Join(p.Commands, " | "))
				default:
					w.line(requestEscapes.Replace(string(p.Request)))
				}
				return nil
			}
			w.begin()
			w.str("scheme", strings.ToLower(u.Scheme()))
			if refused != nil {
				w.raw("connect", []byte("null"))
			} else {
				w.key("connect")
				w.b = append(w.b, '{')
				w.first = true
				w.str("host", p.Host)
				w.num("port", p.Port)
				w.b = append(w.b, '}')
				w.first = false
			}
			w.opt("request", string(p.Request), p.Request != nil)
			if p.Commands != nil {
				w.strs("commands", p.Commands)
			} else {
				w.raw("commands", []byte("null"))
			}
			w.boolean("refused", refused != nil)
			if refused != nil {
				w.str("reason", refused.Error())
			} else {
				w.raw("reason", []byte("null"))
			}
			var ws []string
			for _, x := range pl.Warnings() {
				ws = append(ws, string(x))
			}
			w.strs("warnings", ws)
			w.end()
			if refused != nil {
				return errWritten
			}
			return nil
		}, nil
	},
}

// requestEscapes writes a request's control characters as escapes, so
// that it fits one output line.
var requestEscapes = strings.NewReplacer("\\", `\\`, "\t", `\t`, "\r", `\r`, "\n", `\n`)
