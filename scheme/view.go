package scheme

import (
	"errors"
	"fmt"
	"iter"
	"strings"
	"unicode/utf8"

	"github.com/urikit/urikit/internal/chars"
	"github.com/urikit/urikit/internal/jsonstr"
	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/urn"
)

// Warning is the code of something in a URL that a client, or a person
// reviewing the URL, should know before using it: the URL is valid, but
// the drafts' security sections (RFC 1738 section 6) advise care.
// Views report warnings in the order of the constants below.
type Warning string

// The warning codes, in the order a view reports them.
const (
	// WarnNondefaultPort: the URL names a port other than the
	// scheme's default (RFC 1738 section 6: a client should be careful
	// of a URL that directs it to a port other than the default).
	WarnNondefaultPort Warning = "nondefault-port"
	// WarnReservedPort: the port is below 1024 and is not the scheme's
	// default, so the URL may direct the client to another service.
	WarnReservedPort Warning = "reserved-port"
	// WarnPassword: the URL carries a password (RFC 3986 section 3.2.1
	// deprecates "user:password"; RFC 1738 section 6).
	WarnPassword Warning = "password"
	// WarnEncodedCRLF: a percent-encoded CR or LF in a part that a
	// client decodes into a protocol line (RFC 1738 section 6).
	WarnEncodedCRLF Warning = "encoded-crlf"
	// WarnEncodedNUL: a percent-encoded NUL in such a part (and in a
	// URN, where RFC 2141 2.4 says it should never be used).
	WarnEncodedNUL Warning = "encoded-nul"
	// WarnReservedNID: a URN whose NID is not formal or informal (RFC
	// 8141 5.1: "X-", two letters, "urn-" not followed by a number...).
	WarnReservedNID Warning = "reserved-nid"
	// WarnIgnoredPart: a query or a fragment that the scheme's URLs do
	// not have (RFC 5538 2.2: "nntp://server/group/number", neither):
	// a client has nowhere to send it, and its plan leaves it out.
	WarnIgnoredPart Warning = "ignored-part"
)

// View is the typed reading of a URI of one scheme, as ViewOf returns
// it: every view of this package satisfies it, URNs included (URN).
type View interface {
	// Warnings returns the view's warning codes, in the order of the
	// Warn constants, or nil.
	Warnings() []Warning
	// MarshalJSON writes the view as the "scheme_data" object of `uri
	// parse --json`.
	MarshalJSON() ([]byte, error)
	// URI returns the URL the view reads.
	URI() uri.URI
	// Redacted returns the URL with its password replaced by "xxxxx";
	// String returns the same, and so does every fmt verb: printing a
	// view never shows a password.
	Redacted() string
	String() string
}

// Endpoint is a View of a scheme whose URLs name a host to connect to
// (http, https, ftp, gopher, news with a server, nntp, telnet, rlogin,
// tn3270, wais, prospero). Every one follows the same port convention:
// Port is the port the URL writes, or -1 when it writes none or an
// empty one ("h:"); DefaultPort is the scheme's; ConnectPort is where a
// client connects, Port or else DefaultPort (Plan.Port). A port above
// 65535 is an error of the view (ErrPortRange), so 0 <= ConnectPort <=
// 65535.
type Endpoint interface {
	View
	// Host returns the host, percent-decoded, without the brackets of
	// an IP literal ("" for a URL without one).
	Host() string
	Port() int
	DefaultPort() int
	ConnectPort() int
}

// Message returns what the warning means, with the rule it comes from.
func (w Warning) Message() string {
	switch w {
	case WarnNondefaultPort:
		return "the URL names a port other than the scheme's default (RFC 1738 section 6)"
	case WarnReservedPort:
		return "the port is below 1024 and not the scheme's default: another service may listen there (RFC 1738 section 6)"
	case WarnPassword:
		return "the URL carries a password (RFC 3986 3.2.1 deprecates \"user:password\")"
	case WarnEncodedCRLF:
		return "a percent-encoded CR or LF that a client decodes into a protocol line or a mail header (RFC 1738 section 6, RFC 6068 section 7)"
	case WarnEncodedNUL:
		return "a percent-encoded NUL that a client decodes into a protocol line (RFC 1738 section 6; RFC 2141 2.4 for URNs)"
	case WarnReservedNID:
		return "the URN's NID is not one that may be assigned: experimental, reserved or malformed (RFC 8141 5.1)"
	case WarnIgnoredPart:
		return "a query or fragment the scheme's URLs do not have: a client ignores it, and the plan does not send it (RFC 5538 2.2 for nntp)"
	}
	return string(w)
}

// PlanOptions are what a client knows that a URL does not say.
type PlanOptions struct {
	// Email is the user's mail address, sent as the password of an
	// anonymous FTP login (RFC 1738 section 3.2.1). Empty means the
	// plan writes the placeholder "<email>". It must hold no space and
	// no control character (Check): it becomes a protocol line.
	Email string
	// Proxy asks for the request a client sends to a proxy (the
	// absolute form of an HTTP request-target).
	Proxy bool
	// AskData lets a gopher plan send the data block of a filled-in
	// Gopher+ +ASK form, the only place where a URL's decoded CR LF
	// may reach the wire (the 1994 draft's "+%091%0D%0A+-1%0D%0A..."),
	// and only to port 70: the same bytes sent to another port are
	// the gopher-to-SMTP attack of RFC 1738 section 6. Without it such
	// a URL is refused like any other decoded CR or LF.
	AskData bool
}

// ErrEmail: PlanOptions.Email holds a space or a control character
// (CR, LF and NUL among them), which would end the PASS command and
// start another (RFC 959 5.3.1, RFC 1738 section 6).
var ErrEmail = errors.New("the email holds a space or a control character")

// Check reports whether o can be used in a plan: an Email with a space,
// a control character or invalid UTF-8 gives an error that wraps
// ErrEmail.
func (o PlanOptions) Check() error {
	for i := 0; i < len(o.Email); i++ {
		if c := o.Email[i]; c <= ' ' || c == 0x7f {
			return fmt.Errorf("%w (byte 0x%02x at offset %d)", ErrEmail, c, i)
		}
	}
	if !utf8.ValidString(o.Email) {
		return fmt.Errorf("%w (invalid UTF-8)", ErrEmail)
	}
	return nil
}

// Plan is what a client sends to fetch what a URL names.
type Plan struct {
	// Scheme is the URL's scheme, in lowercase.
	Scheme string
	// Host and Port are where the client connects.
	Host string
	Port int
	// Request is the bytes a client sends at once (gopher, http), or
	// nil for a protocol of commands.
	Request []byte
	// commands holds the control commands a client sends in order
	// (ftp, nntp), each followed by "\n" (a command holds no CR, LF or
	// NUL: the plan refuses them), or "" for a protocol that sends a
	// Request.
	commands string
}

// HasCommands reports whether the protocol is one of control commands
// (ftp, nntp), which Commands yields, rather than a Request.
func (p Plan) HasCommands() bool { return p.commands != "" }

// Commands yields the control commands a client sends in order (ftp,
// nntp), without line ends; nothing for a protocol that sends a
// Request. The commands are substrings of one string: a path of a
// million directories costs the text of its CWD commands, not a string
// (and its 16-byte header) per command (issue 26).
func (p Plan) Commands() iter.Seq[string] {
	return func(yield func(string) bool) {
		for s := p.commands; s != ""; {
			i := strings.IndexByte(s, '\n')
			if !yield(s[:i]) {
				return
			}
			s = s[i+1:]
		}
	}
}

// Planner is a View of a scheme with a client protocol.
type Planner interface {
	View
	// Plan returns what a client sends, or a *RefusedError when the
	// URL would make the client send something it must not.
	Plan(o PlanOptions) (Plan, error)
}

// RefusedError says why a Plan refuses a URL: a percent-encoded CR, LF
// or NUL that would be decoded into a protocol line (RFC 1738 section
// 6), which a client must never send, or a part the protocol cannot
// carry as written (a space in an NNTP group name, an nntp URL without
// a server).
type RefusedError struct {
	URL    string // the URL, as written
	Offset int    // byte offset in URL of the offending escape
	Reason string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("refused: %s at offset %d", e.Reason, e.Offset)
}

// ViewOf returns the view of u by its scheme (a Gopher for "gopher:", a
// URN for "urn:", ...): nil and nil when the scheme has no view in this
// package, or the error that keeps u from having one (Check).
func ViewOf(u uri.URI) (View, error) {
	v, err := registry.View(u)
	if err != nil || v == nil {
		return nil, err
	}
	switch v := v.(type) {
	case View:
		return v, nil
	case urn.URN:
		return URN{URN: v, u: u}, nil
	}
	return nil, nil
}

// Check returns the error that keeps u's view (ViewOf) from reading u,
// or nil: the rules of the scheme beyond the generic syntax, which `uri
// parse --json` reports as "scheme_error" and `uri check` as a failure
// (an http URL without a host, RFC 9110 4.2.1; a port above 65535; a
// news URL without a group; ...). A scheme without a view has no such
// rules here. It is Registry().Check, whose Validate of each scheme is
// its view's error; http and https, most of the URLs of a crawl, are
// checked without the registry's lookup and without building the view.
func Check(u uri.URI) error {
	if chars.IsHTTP(u.Scheme()) {
		return checkHTTP(u)
	}
	return registry.Check(u)
}

// checkHTTP is ParseHTTP's error without the view: the Validate of http
// and https.
func checkHTTP(u uri.URI) error {
	if h := u.Host(); h != "" && !u.HasPort() && strings.IndexByte(h, '%') < 0 {
		return nil // the common case: a host name (so an authority), no port
	}
	return needHost(u, "http", "https")
}

// AppendJSON appends the JSON of u's view (the "scheme_data" of `uri
// parse --json`) to b: what ViewOf(u)'s MarshalJSON writes, or null when
// u's scheme has no View in this package. When the view cannot read u,
// b is returned as it was with the view's error (Check's). http and
// https, most of the URLs of a crawl, are written without building the
// view, by the writer HTTP.MarshalJSON itself calls, so that a pipeline
// pays little for them.
func AppendJSON(b []byte, u uri.URI) ([]byte, error) {
	return AppendJSONFlush(b, u, nil)
}

// AppendJSONFlush is AppendJSON for a line written out as it is made:
// flush, when not nil, is called in the middle of a long list (a mailto
// URL of a million header fields, an ftp path of a million directories)
// whenever b holds more than 64 KiB; it writes b out and returns the
// buffer to go on with, so that the object is never held whole (issue
// 26). It is called only once the view has read u: when AppendJSONFlush
// returns an error, nothing was flushed.
func AppendJSONFlush(b []byte, u uri.URI, flush func([]byte) []byte) ([]byte, error) {
	if chars.IsHTTP(u.Scheme()) {
		return appendHTTPJSON(b, u, flush)
	}
	v, err := ViewOf(u)
	if err != nil {
		return b, err
	}
	if v == nil {
		return append(b, "null"...), nil
	}
	if a, ok := v.(jsonAppender); ok {
		return a.appendJSON(b, flush), nil
	}
	j, err := v.MarshalJSON()
	if err != nil {
		return b, err
	}
	return append(jsonstr.Grow(b, len(j)), j...), nil
}
