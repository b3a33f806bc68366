package main

import (
	"fmt"
	"strings"

	"github.com/urikit/urikit/scheme"
	"github.com/urikit/urikit/urn"
)

// The "uri urn ..." subcommands: commands of the same framework as the
// others, with the URN flags below.

var (
	flagDialect = flagSpec{long: "dialect", arg: "D", help: "the grammar: rfc8141 (the default), draft2015, draft2012 or\nrfc2141",
		example: "uri urn parse --dialect draft2012 'urn:isbn:0-395-36341-1?s=I2L'"}
	flagNSRules = flagSpec{long: "namespace-rules", help: "also apply the syntax and equivalence rules of the URN's\nnamespace (isbn, issn, uuid, oid, ietf, nbn, ...)"}
	flagQuery   = flagSpec{long: "query", arg: "drop|keep", help: "with --dialect draft2012: drop the query (step 5a of its\nsection 5, the default) or keep its directives, sorted (5b);\nin the other dialects the query never counts (RFC 8141 3)",
		example: "uri urn key --dialect draft2012 --query keep 'urn:foo:a?s=I2L&c=ToC'"}
	flagWarn = flagSpec{long: "warn", help: "also print the warnings of valid inputs (a %00, a NID that\nis not a formal or informal one)"}
)

// urnOptions reads --dialect.
func (c *call) urnOptions() (urn.Options, error) {
	d, ok := urn.DialectByName(strings.ToLower(c.str("dialect", "rfc8141")))
	if !ok {
		return urn.Options{}, usagef("flag --dialect: want rfc8141, draft2015, draft2012 or rfc2141, not %q", c.str("dialect", ""))
	}
	return urn.Options{Dialect: d}, nil
}

// equivalence reads --namespace-rules and --query.
func (c *call) equivalence(o urn.Options) (urn.Equivalence, error) {
	var e urn.Equivalence
	if c.has("namespace-rules") {
		e |= urn.NamespaceRules
	}
	switch q := c.str("query", "drop"); q {
	case "drop":
	case "keep":
		if o.Dialect != urn.Draft2012 {
			return 0, usagef("flag --query keep needs --dialect draft2012: in %s the q-component never counts for equivalence (RFC 8141 section 3)", o.Dialect)
		}
		e |= urn.KeepQuery
	default:
		return 0, usagef("flag --query: want drop or keep, not %q", q)
	}
	return e, nil
}

// urnEach returns the each of a URN subcommand that parses its input
// in the selected dialect and hands the URN to fn.
func urnEach(c *call, fn func(u urn.URN) (result, error)) (each, error) {
	o, err := c.urnOptions()
	if err != nil {
		return nil, err
	}
	return func(in string) (result, error) {
		u, err := urn.ParseWith(in, o)
		if err != nil {
			return nil, err
		}
		return fn(u)
	}, nil
}

var urnParseCommand = &command{
	name:     "urn parse",
	summary:  "print the parts of each URN",
	synopsis: "[--dialect D] [--json] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut,
	flags:    []flagSpec{flagDialect},
	about: `Parse each input as a URN and print its parts: the NID and NSS as
written, the r-, q- and f-components (RFC 8141 section 2), the class of
the NID (formal, informal, or why it is neither: RFC 8141 section 5), and
with --dialect draft2012 the directives of the query (section 2.3).
`,
	output: `Plain output, one line per input, KEY=VALUE separated by spaces as parse
prints them (undefined components left out):
  nid=N nss=S r=R q=Q f=F nid_class=C directive=K=V ignored_directive=K=V
A directive is "ignored" when its registered keyword is repeated (2012
draft section 2.3). JSON: {"input", "nid", "nss", "r", "q", "f",
"nid_class"}, null for an undefined component, and with draft2012
"directives": [{"keyword", "value", "ignored"}] (null without a query).
`,
	start: func(c *call) (each, error) {
		o, err := c.urnOptions()
		if err != nil {
			return nil, err
		}
		draft2012 := o.Dialect == urn.Draft2012 // --dialect compares without case
		return urnEach(c, func(u urn.URN) (result, error) {
			return c.urnParts(u, draft2012), nil
		})
	},
}

var urnCheckCommand = &command{
	name:     "urn check",
	summary:  "print the inputs that are not URNs, and why",
	synopsis: "[--dialect D] [--namespace-rules] [--warn] [--json] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut | failsOnly,
	flags: []flagSpec{flagDialect,
		withExample(flagNSRules, "uri urn check --namespace-rules urn:isbn:0-395-36341-1"),
		withExample(flagWarn, "uri urn check --warn urn:X-foo:bar")},
	about: `Check that each input is a URN and print only the failures (and, with
--warn, the warnings of valid inputs), as check does for URIs.
`,
	output: `Plain output, one line per failed input:
  INPUT<TAB>error: OFFSET: REASON
and with --warn one line per warning of a valid input:
  INPUT<TAB>warning: CODE: DETAIL
with the codes of "uri check --warn" (encoded-nul, reserved-nid) and
what they mean for this URN.
JSON: {"input", "error", "offset"} per failure, {"input", "warnings"} per
valid input with warnings.
`,
	start: func(c *call) (each, error) {
		rules, warn := c.has("namespace-rules"), c.has("warn")
		return urnEach(c, func(u urn.URN) (result, error) {
			if rules {
				if err := u.ValidateNamespace(); err != nil {
					return nil, err
				}
			}
			if warn {
				// The codes of check --warn: one vocabulary for every
				// scheme (scheme.Warning), URNs included.
				return c.warnings((scheme.URN{URN: u}).Warnings(), u.Warnings(), nil), nil
			}
			return nil, nil
		})
	},
}

var urnNormalizeCommand = &command{
	name:     "urn normalize",
	summary:  "print the canonical form of each URN, components kept",
	synopsis: "[--dialect D] [--json] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut,
	flags:    []flagSpec{flagDialect},
	about: `Print the canonical form of each URN: "urn" and the NID in lowercase,
percent-encoding in uppercase hexadecimal everywhere (RFC 8141 section
3.1; the 2012 draft's section 5 steps 1 to 3). Nothing is decoded or
reordered, and the components are kept.
`,
	output: `Output: the canonical form, one line per input; JSON {"input", "result"}.
`,
	start: func(c *call) (each, error) {
		return urnEach(c, func(u urn.URN) (result, error) {
			return c.text(u.Normalize().String()), nil
		})
	},
}

var urnKeyCommand = &command{
	name:     "urn key",
	summary:  "print the equivalence key of each URN",
	synopsis: "[--dialect D] [--namespace-rules] [--query drop|keep] [--json] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut,
	flags:    []flagSpec{flagDialect, withExample(flagNSRules, "uri urn key --namespace-rules URN:ISBN:0-395-36341-1"), flagQuery},
	about: `Print the equivalence key of each URN (RFC 8141 section 3.1): two URNs
are equivalent exactly when their keys are equal, so the key dedups a
list. The r-, q- and f-components are left out.
`,
	output: `Output: the key, one line per input; JSON {"input", "result"}.
`,
	start: func(c *call) (each, error) {
		o, err := c.urnOptions()
		if err != nil {
			return nil, err
		}
		e, err := c.equivalence(o)
		if err != nil {
			return nil, err
		}
		return urnEach(c, func(u urn.URN) (result, error) {
			// A key under the namespace's rules exists only for a URN
			// that follows them: what "urn check --namespace-rules"
			// refuses has none.
			if e&urn.NamespaceRules != 0 {
				if err := u.ValidateNamespace(); err != nil {
					return nil, err
				}
			}
			return c.text(u.KeyWith(e)), nil
		})
	},
}

var urnEqualCommand = &command{
	name:     "urn equal",
	summary:  "tell whether two URNs are equivalent",
	synopsis: "[--dialect D] [--namespace-rules] [--query drop|keep] [--json] A B",
	traits:   jsonOut,
	params:   []string{"A", "B"},
	flags: []flagSpec{flagDialect, withExample(flagNSRules, "uri urn equal --namespace-rules urn:isbn:0395363411 URN:ISBN:0-395-36341-1"),
		withExample(flagQuery, "uri urn equal --dialect draft2012 --query keep 'urn:foo:a?s=I2L&c=ToC' 'urn:foo:a?c=ToC&s=I2L'")},
	about: `Tell whether the URNs A and B are equivalent (RFC 8141 section 3, or the
2012 draft's section 5 with --dialect draft2012).
`,
	output: `Output: "equal" or "not equal"; JSON {"a", "b", "equal", "key_a", "key_b"}.
`,
	exit: `0 when A and B are equivalent, 1 when they are not, 2 when
either is invalid or for a usage error.
`,
	whole: func(c *call) int {
		o, err := c.urnOptions()
		if err == nil {
			var e urn.Equivalence
			if e, err = c.equivalence(o); err == nil {
				var keys [2]string
				for i, in := range c.params {
					u, err := urn.ParseWith(in, o)
					if err == nil && e&urn.NamespaceRules != 0 {
						err = u.ValidateNamespace()
					}
					if err != nil {
						return c.invalidArg(in, err)
					}
					keys[i] = u.KeyWith(e)
				}
				return c.printEqual(keys[0] == keys[1], keys)
			}
		}
		return c.cmd.usage(c.stderr, err.Error())
	},
}

var urnEncodeCommand = &command{
	name:     "urn encode",
	summary:  "turn native identifiers into URNs",
	synopsis: "--nid NID [--json] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut,
	flags: []flagSpec{{long: "nid", arg: "NID", help: "(required) the namespace identifier of the URNs to build",
		example: "uri urn encode --nid example 'a b/ü'"}},
	about: `Turn each input, a native identifier, into the URN "urn:" NID ":" NSS,
percent-encoding what the NSS cannot hold (RFC 8141 section 2.2). The
input must be valid UTF-8.
`,
	output: `Output: the URN, one line per input; JSON {"input", "result"}.
`,
	start: func(c *call) (each, error) {
		nid := c.str("nid", "")
		if nid == "" {
			return nil, usagef("flag --nid is required")
		}
		if err := urn.CheckNID(nid); err != nil {
			_, reason := describe(nid, err)
			return nil, usagef("flag --nid: invalid NID %q: %s", nid, reason)
		}
		return func(in string) (result, error) {
			if len(in) > 4 && strings.EqualFold(in[:4], "urn:") {
				if _, err := urn.Parse(in); err == nil {
					return nil, fmt.Errorf("the input is already a URN; give the native identifier (the NSS of %s), or use \"uri urn normalize\"", nid)
				}
			}
			u, err := urn.FromNative(nid, in)
			if err != nil {
				return nil, err
			}
			return c.text(u.String()), nil
		}, nil
	},
}

var urnShowCommand = &command{
	name:     "urn show",
	summary:  "print the display form of each URN, flagging look-alikes",
	synopsis: "[--dialect D] [--json] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut,
	flags:    []flagSpec{flagDialect},
	about: `Print each URN for people: percent-encoded UTF-8 decoded where that
cannot change its meaning, and a warning where letters of several scripts
mix, as in the look-alike example of RFC 8141 section 3.2: one warning
per kind of letter outside the main script, with the number of times it
occurs. Time and memory grow linearly with the input.
`,
	output: `Plain output: the display form, then "<TAB>warning: W" for each warning,
as in "U+0430 CYRILLIC SMALL LETTER A (Cyrillic) among Latin letters, 2 times".
JSON: {"input", "result", "scripts", "mixed_script", "warnings"}.
`,
	start: func(c *call) (each, error) {
		return urnEach(c, func(u urn.URN) (result, error) {
			return c.urnShow(u.Display()), nil
		})
	},
}
