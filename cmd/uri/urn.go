package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urikit/urikit/urn"
)

func init() {
	urnCommand = &command{
		name:    "urn",
		summary: "parse, check, compare and build URNs (RFC 8141 and its drafts)",
		help:    urnUsage,
		run:     runURN,
	}
}

const urnUsage = `Usage: uri urn COMMAND [FLAGS] [INPUT...]

URNs per RFC 8141, or the 2015 draft, the 2012 draft or RFC 2141 with
--dialect. Inputs are the arguments or, when there are none, one per line
from standard input. Flags come before the inputs; "--" ends them.
A failed input prints "error: OFFSET: REASON" (JSON: {"input", "error",
"offset"}) and processing goes on; the exit status is then 1.

Commands:
  parse      print the parts of each URN (nid, nss, r, q, f, nid_class)
  check      report whether each input is a valid URN
  normalize  print the canonical form, components kept
  key        print the equivalence key
  equal A B  exit 0 if A and B are equivalent, 1 if not, 2 if invalid
  encode     turn native identifiers into URNs (--nid required)
  show       print the display form, flagging mixed-script look-alikes

Flags (where they apply):
  --dialect rfc8141|draft2015|draft2012|rfc2141   grammar (default rfc8141)
  --json                                           JSON Lines output
  --namespace-rules                                namespace-specific rules
  --query drop|keep                                2012 draft step 5a or 5b
  --nid NID                                        namespace for encode
`

// runURN runs "uri urn ..." and returns the exit status: 0 on success, 1
// when an input failed, 2 on a usage error.
func runURN(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, urnUsage)
		return 2
	}
	cmd, args := args[0], args[1:]
	c := &urnCmd{name: cmd, stdout: stdout, stderr: stderr}
	fs := flag.NewFlagSet("uri urn "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, urnUsage) }
	dialect := "rfc8141"
	query := "drop"
	switch cmd {
	case "parse", "check", "normalize", "key", "equal", "show":
		fs.StringVar(&dialect, "dialect", dialect, "grammar: rfc8141, draft2015, draft2012 or rfc2141")
	case "encode":
		fs.StringVar(&c.nid, "nid", "", "namespace identifier of the URNs to build")
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, urnUsage)
		return 0
	default:
		return usageError(stderr, "uri urn", fmt.Sprintf("unknown command %q", cmd), "urn")
	}
	fs.BoolVar(&c.json, "json", false, "write JSON Lines")
	switch cmd {
	case "check", "key", "equal":
		fs.BoolVar(&c.nsRules, "namespace-rules", false, "apply namespace-specific rules")
	}
	switch cmd {
	case "key", "equal":
		fs.StringVar(&query, "query", query, "drop (2012 draft step 5a) or keep (step 5b)")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	inputs := fs.Args()
	d, ok := urn.DialectByName(strings.ToLower(dialect))
	if !ok {
		return usageError(stderr, "uri urn "+cmd, fmt.Sprintf("unknown dialect %q (want rfc8141, draft2015, draft2012 or rfc2141)", dialect), "urn")
	}
	c.dialect = d
	switch query {
	case "drop":
	case "keep":
		c.equiv |= urn.KeepQuery
	default:
		return usageError(stderr, "uri urn "+cmd, fmt.Sprintf("--query is drop or keep, not %q", query), "urn")
	}
	if c.nsRules {
		c.equiv |= urn.NamespaceRules
	}

	if cmd == "equal" {
		return c.equal(inputs)
	}
	if cmd == "encode" {
		if c.nid == "" {
			return usageError(stderr, "uri urn encode", "--nid is required", "urn")
		}
		if _, err := urn.Parse("urn:" + c.nid + ":x"); err != nil {
			return usageError(stderr, "uri urn encode", fmt.Sprintf("invalid NID %q", c.nid), "urn")
		}
	}
	run := map[string]func(string){
		"parse":     c.parse,
		"check":     c.check,
		"normalize": c.normalize,
		"key":       c.key,
		"encode":    c.encode,
		"show":      c.show,
	}[cmd]
	if err := eachInput(inputs, stdin, run); err != nil {
		fmt.Fprintf(stderr, "uri urn %s: %v\n", cmd, err)
		return 1
	}
	if c.failed {
		return 1
	}
	return 0
}

type urnCmd struct {
	name    string
	dialect urn.Dialect
	json    bool
	nsRules bool
	equiv   urn.Equivalence
	nid     string
	failed  bool
	stdout  io.Writer
	stderr  io.Writer
}

// fail reports err for input in the output stream and marks the run as
// failed.
func (c *urnCmd) fail(input string, err error) {
	c.failed = true
	off, msg := errorParts(err)
	if c.json {
		jsonLine(c.stdout, struct {
			Input  string `json:"input"`
			Error  string `json:"error"`
			Offset int    `json:"offset"`
		}{input, msg, off})
		return
	}
	fmt.Fprintf(c.stdout, "error: %d: %s\n", off, msg)
}

// errorParts returns the offset and message of a parse or namespace
// error.
func errorParts(err error) (int, string) {
	var pe *urn.ParseError
	if errors.As(err, &pe) {
		return pe.Offset, pe.Reason.Error() + " in " + pe.Component.String()
	}
	return 0, err.Error()
}

func (c *urnCmd) parseInput(s string) (urn.URN, bool) {
	u, err := urn.ParseDialect(s, c.dialect)
	if err != nil {
		c.fail(s, err)
		return u, false
	}
	return u, true
}

func strPtr(s string, ok bool) *string {
	if !ok {
		return nil
	}
	return &s
}

type directiveJSON struct {
	Keyword string `json:"keyword"`
	Value   string `json:"value"`
	Ignored bool   `json:"ignored"`
}

func (c *urnCmd) parse(s string) {
	u, ok := c.parseInput(s)
	if !ok {
		return
	}
	r, q, f := strPtr(u.RComponent()), strPtr(u.QComponent()), strPtr(u.FComponent())
	class := urn.ClassifyNID(u.NID()).Class.String()
	var dirs []directiveJSON
	for _, d := range u.Directives() {
		dirs = append(dirs, directiveJSON{d.Keyword, d.Value, d.Ignored})
	}
	if c.json {
		v := struct {
			Input      string  `json:"input"`
			NID        string  `json:"nid"`
			NSS        string  `json:"nss"`
			R          *string `json:"r"`
			Q          *string `json:"q"`
			F          *string `json:"f"`
			NIDClass   string  `json:"nid_class"`
			Directives any     `json:"directives,omitempty"`
		}{s, u.NID(), u.NSS(), r, q, f, class, nil}
		if c.dialect == urn.Draft2012 {
			if dirs == nil {
				v.Directives = json.RawMessage("null")
			} else {
				v.Directives = dirs
			}
		}
		jsonLine(c.stdout, v)
		return
	}
	var b strings.Builder
	b.WriteString("nid=" + u.NID() + "\tnss=" + u.NSS())
	for _, p := range []struct {
		name string
		v    *string
	}{{"r", r}, {"q", q}, {"f", f}} {
		if p.v != nil {
			b.WriteString("\t" + p.name + "=" + *p.v)
		}
	}
	b.WriteString("\tnid_class=" + class)
	for _, d := range dirs {
		b.WriteString("\tdirective=" + d.Keyword + "=" + d.Value)
		if d.Ignored {
			b.WriteString(" (ignored: repeated)")
		}
	}
	fmt.Fprintln(c.stdout, b.String())
}

func (c *urnCmd) check(s string) {
	u, ok := c.parseInput(s)
	if !ok {
		return
	}
	if c.nsRules {
		if err := u.ValidateNamespace(); err != nil {
			c.failed = true
			off := len(u.Scheme()) + 1 + len(u.NID()) + 1 // the NSS
			if c.json {
				jsonLine(c.stdout, struct {
					Input  string `json:"input"`
					Error  string `json:"error"`
					Offset int    `json:"offset"`
				}{s, err.Error(), off})
			} else {
				fmt.Fprintf(c.stdout, "error: %d: %s\n", off, err)
			}
			return
		}
	}
	var warnings []string
	warnings = append(warnings, u.Warnings()...)
	if c.json {
		jsonLine(c.stdout, struct {
			Input    string   `json:"input"`
			OK       bool     `json:"ok"`
			Warnings []string `json:"warnings,omitempty"`
		}{s, true, warnings})
		return
	}
	line := "ok"
	for _, w := range warnings {
		line += "\twarning: " + w
	}
	fmt.Fprintln(c.stdout, line)
}

func (c *urnCmd) normalize(s string) {
	u, ok := c.parseInput(s)
	if !ok {
		return
	}
	n := u.Normalize().String()
	if c.json {
		jsonLine(c.stdout, struct {
			Input      string `json:"input"`
			Normalized string `json:"normalized"`
		}{s, n})
		return
	}
	fmt.Fprintln(c.stdout, n)
}

func (c *urnCmd) key(s string) {
	u, ok := c.parseInput(s)
	if !ok {
		return
	}
	k := u.KeyWith(c.equiv)
	if c.json {
		jsonLine(c.stdout, struct {
			Input string `json:"input"`
			Key   string `json:"key"`
		}{s, k})
		return
	}
	fmt.Fprintln(c.stdout, k)
}

func (c *urnCmd) encode(s string) {
	u, err := urn.FromNative(c.nid, s)
	if err != nil {
		c.fail(s, err)
		return
	}
	if c.json {
		jsonLine(c.stdout, struct {
			Input string `json:"input"`
			URN   string `json:"urn"`
		}{s, u.String()})
		return
	}
	fmt.Fprintln(c.stdout, u.String())
}

func (c *urnCmd) show(s string) {
	u, ok := c.parseInput(s)
	if !ok {
		return
	}
	d := u.Display()
	if c.json {
		jsonLine(c.stdout, struct {
			Input       string   `json:"input"`
			Display     string   `json:"display"`
			Scripts     []string `json:"scripts"`
			MixedScript bool     `json:"mixed_script"`
			Warnings    []string `json:"warnings"`
		}{s, d.Text, d.Scripts, d.MixedScript, d.Warnings})
		return
	}
	line := d.Text
	for _, w := range d.Warnings {
		line += "\twarning: " + w
	}
	fmt.Fprintln(c.stdout, line)
}

// equal compares exactly two URNs: exit 0 when equivalent, 1 when not, 2
// when either is invalid or the arguments are wrong.
func (c *urnCmd) equal(args []string) int {
	if len(args) != 2 {
		return usageError(c.stderr, "uri urn equal", "want exactly two URNs, got "+strconv.Itoa(len(args)), "urn")
	}
	a, errA := urn.ParseDialect(args[0], c.dialect)
	b, errB := urn.ParseDialect(args[1], c.dialect)
	if errA != nil || errB != nil {
		for i, err := range []error{errA, errB} {
			if err != nil {
				c.fail(args[i], err)
			}
		}
		return 2
	}
	eq := a.EqualWith(b, c.equiv)
	if c.json {
		jsonLine(c.stdout, struct {
			A     string `json:"a"`
			B     string `json:"b"`
			Equal bool   `json:"equal"`
			KeyA  string `json:"key_a"`
			KeyB  string `json:"key_b"`
		}{args[0], args[1], eq, a.KeyWith(c.equiv), b.KeyWith(c.equiv)})
	} else if eq {
		fmt.Fprintln(c.stdout, "equal")
	} else {
		fmt.Fprintln(c.stdout, "not equal")
	}
	if eq {
		return 0
	}
	return 1
}
