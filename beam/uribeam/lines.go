package uribeam

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/urikit/urikit/internal/jsonstr"
	"github.com/urikit/urikit/scheme"
	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/urn"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*DeadLetter)(nil)).Elem())
	// Functions, not structs, where a DoFn has no state: registering a
	// struct DoFn instantiates Beam's generic wrappers for every form of
	// its lifecycle methods, thousands of functions to compile each.
	register.Function3x0(parseFn)
	register.Function3x0(normalizeFn)
	register.Function3x0(keyFn)
	register.Function3x0(hostFn)
	register.Function3x0(urnKeyFn)
	register.Function2x1(hostCount)
	register.Function1x2(oneOf)
	register.Emitter1[string]()
	register.Emitter2[string, string]()
	register.Emitter1[DeadLetter]()
}

// registry holds every scheme rule of the module: the same registry the
// uri command uses, so that both check and normalize alike.
var registry = scheme.Registry()

// A DeadLetter is an input that a transform could not use, and why: a
// line that is not a URI reference, a URN that breaks its namespace's
// rules, a file or a WARC record that cannot be read.
type DeadLetter struct {
	File   string // the file, for Extract and Links; "" for lines
	Offset int64  // in Input, the first byte to blame; for a file, the offset of the record; -1 when no byte is to blame
	Input  string // the line; "" for a file
	Error  string // the reason
}

// JSON returns the dead letter as one JSON object, as "uri normalize
// --json" writes a failed input: {"input", "error", "offset"}, with
// "input_hex" when the input is not UTF-8, and "file" first for a file.
func (d DeadLetter) JSON() string {
	b := make([]byte, 0, len(d.Input)+len(d.Error)+48)
	b = append(b, '{')
	if d.File != "" {
		b = append(b, `"file":`...)
		b = jsonstr.Append(b, d.File)
		b = append(b, ',')
	}
	b = append(b, `"input":`...)
	b = jsonstr.Append(b, d.Input)
	if !utf8.ValidString(d.Input) {
		b = append(b, `,"input_hex":"`...)
		const hex = "0123456789abcdef"
		for i := 0; i < len(d.Input); i++ {
			b = append(b, hex[d.Input[i]>>4], hex[d.Input[i]&15])
		}
		b = append(b, '"')
	}
	b = append(b, `,"error":`...)
	b = jsonstr.Append(b, d.Error)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, d.Offset, 10)
	b = append(b, '}')
	return string(b)
}

// deadLine returns the dead letter of the line in and its error err:
// the offset and reason the uri command prints, given once.
func deadLine(in string, err error) DeadLetter {
	var pe *uri.ParseError // urn.ParseError is the same type
	if errors.As(err, &pe) {
		if pe.Input != in {
			return DeadLetter{Input: in, Offset: -1, Error: pe.Detail() + " of " + strconv.Quote(pe.Input)}
		}
		return DeadLetter{Input: in, Offset: int64(pe.Offset), Error: pe.Detail()}
	}
	var ne *urn.NamespaceError
	if errors.As(err, &ne) {
		return DeadLetter{Input: in, Offset: int64(ne.Offset), Error: ne.Error()}
	}
	return DeadLetter{Input: in, Offset: -1, Error: err.Error()}
}

// parseLine reads one line as the uri command does: a final "\r" is
// dropped, the generic grammar of RFC 3986, then the rules of the
// line's scheme as scheme.Check applies them, the check of the uri
// command's every subcommand (a "urn:" line must be an RFC 8141 URN, an
// http URL needs a host and a port below 65536, ...): one verdict per
// input, whichever tool reads it.
func parseLine(line string) (string, uri.URI, error) {
	line = strings.TrimSuffix(line, "\r")
	u, err := uri.Parse(line)
	if err == nil {
		err = scheme.Check(u)
	}
	return line, u, err
}

func parseFn(line string, ok func(string), bad func(DeadLetter)) {
	in, _, err := parseLine(line)
	if err != nil {
		bad(deadLine(in, err))
		return
	}
	ok(in)
}

// Parse splits lines (a PCollection of string) into the valid URI
// references, as written, and a DeadLetter for every other line, with
// the byte offset and reason of its first error.
func Parse(s beam.Scope, lines beam.PCollection) (refs, dead beam.PCollection) {
	s = s.Scope("uribeam.Parse")
	return beam.ParDo2(s, parseFn, lines)
}

func normalizeFn(line string, ok func(string), bad func(DeadLetter)) {
	in, u, err := parseLine(line)
	if err != nil {
		bad(deadLine(in, err))
		return
	}
	ok(registry.Normalize(u).String())
}

// Normalize returns the normal form of every valid line (RFC 3986 6.2.2
// and 6.2.3 with the rules of its scheme, RFC 8141 3.1 for a URN), what
// "uri normalize" prints, and a DeadLetter for every other line.
func Normalize(s beam.Scope, lines beam.PCollection) (normal, dead beam.PCollection) {
	s = s.Scope("uribeam.Normalize")
	return beam.ParDo2(s, normalizeFn, lines)
}

func keyFn(line string, ok func(string, string), bad func(DeadLetter)) {
	in, u, err := parseLine(line)
	if err != nil {
		bad(deadLine(in, err))
		return
	}
	ok(registry.Key(u), in)
}

// Key returns, for every valid line, the pair of its equivalence key
// (uri.Registry.Key under scheme.Registry: two lines are equivalent
// exactly when their keys are equal) and the line: a PCollection of
// KV<string, string>. Invalid lines are dead letters.
func Key(s beam.Scope, lines beam.PCollection) (keyed, dead beam.PCollection) {
	s = s.Scope("uribeam.Key")
	return beam.ParDo2(s, keyFn, lines)
}

func hostFn(line string, ok func(string), bad func(DeadLetter)) {
	in, u, err := parseLine(line)
	if err != nil {
		bad(deadLine(in, err))
		return
	}
	n := registry.Normalize(u)
	switch {
	case n.Host() != "":
		ok(n.Host())
	case !n.HasAuthority():
		bad(DeadLetter{Input: in, Offset: -1, Error: ErrNoAuthority.Error()})
	default:
		bad(DeadLetter{Input: in, Offset: -1, Error: ErrEmptyHost.Error()})
	}
}

// The reasons of Hosts for a valid line that has no host to count.
var (
	ErrNoAuthority = errors.New("no host: the reference has no authority component (RFC 3986 3.2)")
	ErrEmptyHost   = errors.New("no host: the host is empty (RFC 3986 3.2.2)")
)

func oneOf(h string) (string, int64) { return h, 1 }

func hostCount(a, b int64) int64 { return a + b }

// Hosts counts the hosts of the normal forms of the valid lines (an
// IP-literal with its brackets, as uri.URI.Host gives it): a PCollection
// of KV<string, int64>. A line without a host, or with an empty one
// (file:///etc/hosts), is a dead letter whose error is ErrNoAuthority's
// or ErrEmptyHost's text; so is an invalid line, with its own reason.
func Hosts(s beam.Scope, lines beam.PCollection) (counts, dead beam.PCollection) {
	s = s.Scope("uribeam.Hosts")
	hosts, dead := beam.ParDo2(s, hostFn, lines)
	return beam.CombinePerKey(s, hostCount, beam.ParDo(s, oneOf, hosts)), dead
}

func urnKeyFn(line string, ok func(string, string), bad func(DeadLetter)) {
	in := strings.TrimSuffix(line, "\r")
	u, err := urn.Parse(in)
	if err != nil {
		bad(deadLine(in, err))
		return
	}
	ok(u.KeyWith(urn.NamespaceRules), in)
}

// URNKeys returns, for every line that is a URN of RFC 8141, the pair
// of its equivalence key and the line, as "uri urn key
// --namespace-rules" prints it: a PCollection of KV<string, string>.
// The key is that of RFC 8141 section 3.1 with the lexical equivalence
// of the URN's namespace applied (isbn, issn, uuid, ...) when the NSS
// keeps the namespace's syntax, the generic key otherwise. Other lines
// are dead letters.
func URNKeys(s beam.Scope, lines beam.PCollection) (keyed, dead beam.PCollection) {
	s = s.Scope("uribeam.URNKeys")
	return beam.ParDo2(s, urnKeyFn, lines)
}
