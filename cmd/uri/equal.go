package main

import "fmt"

var equalCommand = &command{
	name:     "equal",
	summary:  "tell whether two URI references are equivalent",
	synopsis: "[--json] [--rfc 3986|2396] [--zone-id] A B",
	traits:   jsonOut | grammar | repairs,
	params:   []string{"A", "B"},
	about: `Tell whether A and B are equivalent: whether their keys are the same
string (see "uri help normalize"), as RFC 3986 6.2.2 and 6.2.3 compare,
with the rules of each scheme: two "urn:" URIs are compared as RFC 8141
section 3 says ("urn" and the NID without case, percent-encoding case
aside, nothing decoded, the r-, q- and f-components ignored). equal takes
exactly two arguments and never reads standard input.
`,
	output: `Output: "equal" or "not equal"; JSON {"a", "b", "equal", "key_a", "key_b"}.
`,
	exit: `0 when A and B are equivalent, 1 when they are not, 2 when
either is invalid ("uri equal: INPUT: error: OFFSET: REASON" on standard
error, nothing on standard output) or for a usage error.
`,
	whole: func(c *call) int {
		var keys [2]string
		for i, in := range c.params {
			u, _, err := c.parseURI(in)
			if err != nil {
				return c.invalidArg(in, err)
			}
			keys[i] = c.reg.Key(u)
		}
		return c.printEqual(keys[0] == keys[1], keys)
	},
}

// invalidArg reports an invalid argument of an equal subcommand on
// standard error and returns 2.
func (c *call) invalidArg(in string, err error) int {
	w := newWriter(c.stderr, false)
	w.repairHint = c.cmd.traits&repairs != 0
	w.failure(in, err, false)
	fmt.Fprintf(c.stderr, "uri %s: %q: %s", c.cmd.name, in, w.current())
	return 2
}

// printEqual writes the verdict of an equal subcommand and returns its
// exit status: 0 when equal, 1 when not, 2 when it cannot be written.
func (c *call) printEqual(eq bool, keys [2]string) int {
	w := newWriter(c.stdout, c.json)
	write(w, equalResult{c.params[0], c.params[1], eq, keys})
	w.flushLine()
	if err := w.close(); err != nil {
		fmt.Fprintf(c.stderr, "uri %s: writing standard output: %v\n", c.cmd.name, err)
		return 2
	}
	if eq {
		return 0
	}
	return 1
}
