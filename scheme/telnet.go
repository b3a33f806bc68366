package scheme

import (
	"strings"

	"github.com/urikit/urikit/uri"
)

// Telnet is the view of a telnet, rlogin or tn3270 URL (RFC 4248; RFC
// 6270; RFC 1738 3.8; the 1994 draft: "telnet://" login, login =
// [ user [ ":" password ] "@" ] hostport): an interactive session, so
// only where to connect and as whom.
type Telnet struct {
	ref              // the URL: String, Redacted and Format
	scheme           string
	end              endpoint
	user, password   string
	hasUser, hasPass bool
	warnings         []Warning
}

// ParseTelnet reads a telnet, rlogin or tn3270 URL. RFC 4248 2: "The
// URL may also end with a "/"": the path is empty or "/".
func ParseTelnet(u uri.URI) (Telnet, error) {
	if err := needHost(u, "telnet", "rlogin", "tn3270"); err != nil {
		return Telnet{}, err
	}
	if p := u.Path(); p != "" && p != "/" {
		return Telnet{}, fail(u, pathStart(u)+1, uri.ComponentPath, ErrSchemeSyntax)
	}
	if u.HasQuery() {
		return Telnet{}, fail(u, pathStart(u)+len(u.Path()), uri.ComponentQuery, ErrSchemeSyntax)
	}
	v := Telnet{scheme: strings.ToLower(u.Scheme())}
	def := ports.telnet
	switch v.scheme {
	case "rlogin":
		def = ports.rlogin
	case "tn3270":
		def = ports.tn3270
	}
	v.end = endpointOf(u, def)
	v.user, v.password, v.hasUser, v.hasPass = userinfo(u)
	v.warnings = v.end.portWarnings()
	if v.hasPass {
		v.warnings = append(v.warnings, WarnPassword)
	}
	// The user name and password are typed into the session's login
	// prompt: decoded, a CR or LF would end the line early.
	v.warnings = append(v.warnings, encodedControls(u.Userinfo())...)
	v.ref = ref{u}
	return v, nil
}

// Host returns the host, decoded.
func (v Telnet) Host() string { return v.end.host }

// Port returns the port the URL names, or -1.
func (v Telnet) Port() int { return v.end.port }

// DefaultPort returns 23 for telnet and tn3270, 513 for rlogin.
func (v Telnet) DefaultPort() int { return v.end.defPort }

// ConnectPort returns the port a client connects to (Endpoint).
func (v Telnet) ConnectPort() int { return v.end.connectPort() }

// User returns the user name, decoded, and whether there is one.
func (v Telnet) User() (string, bool) { return v.user, v.hasUser }

// Password returns the password, decoded, and whether there is one.
func (v Telnet) Password() (string, bool) { return v.password, v.hasPass }

// Warnings implements View.
func (v Telnet) Warnings() []Warning { return v.warnings }

// MarshalJSON writes the "scheme_data" object of `uri parse --json`,
// with the password redacted as in FTP.MarshalJSON.
func (v Telnet) MarshalJSON() ([]byte, error) {
	return done(newObj().Str("host", v.end.host).Int("port", v.end.port).Int("default_port", v.end.defPort).
		Opt("user", v.user, v.hasUser).Opt("password", redacted, v.hasPass).Strs("warnings", codes(v.warnings)))
}
