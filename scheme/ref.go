package scheme

import (
	"fmt"

	"github.com/urikit/urikit/uri"
)

// ref is the URL a view reads, embedded in every view so that printing
// a view prints the URL with its password redacted (issue 22): a view
// holds the password decoded too, and %v of a struct would print both.
type ref struct{ u uri.URI }

// URI returns the URL the view reads, as written (password included).
func (r ref) URI() uri.URI { return r.u }

// Redacted returns the URL with the password of its userinfo, if any,
// replaced by "xxxxx": uri.URI.Redacted, the one redaction of the
// module, as net/url's URL.Redacted does. It is what a log line or an
// error message may show.
func (r ref) Redacted() string { return r.u.Redacted() }

// redacted stands for a password where a view's JSON writes one (the
// "password" members of FTP and Telnet): the text uri.URI.Redacted puts
// in the password's place, so that the JSON and String agree.
const redacted = "xxxxx"

// String returns Redacted: a view prints as its URL, without password.
func (r ref) String() string { return r.Redacted() }

// Format prints Redacted with any verb and flags, as a string would be
// printed (%v, %s, %q, %x, %#v...): no verb shows the password.
func (r ref) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, fmt.FormatString(f, verb), r.Redacted())
}
