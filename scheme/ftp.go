package scheme

import (
	"iter"
	"slices"
	"strings"

	"github.com/urikit/urikit/uri"
)

// FTP is the view of an ftp URL (RFC 1738 3.2; the 1993 and 1994 URL
// drafts' "ftp" sections):
//
//	ftp://<user>:<password>@<host>:<port>/<cwd1>/<cwd2>/.../<cwdN>/<name>;type=<typecode>
type FTP struct {
	ref              // the URL: String, Redacted and Format
	end              endpoint
	user, password   string
	hasUser, hasPass bool
	rawDir           string // the raw directory segments, each followed by "/"
	dirOff           int    // offset of rawDir in the URL
	file, rawFile    string
	typecode         string // lower case: a, i, d, or a 1994 form (an, et, l8), or ""
	warnings         []Warning
	rawUser, rawPass string
}

// The login of the anonymous convention (RFC 1738 3.2.1): "If no user
// name or password is supplied and one is requested by the FTP server,
// the conventions for "anonymous" FTP are to be used": the user
// "anonymous" and the user's mail address as the password.
const (
	AnonymousUser = "anonymous"
	// EmailPlaceholder stands for the user's mail address in a view
	// and in a plan made without PlanOptions.Email.
	EmailPlaceholder = "<email>"
	// AskPlaceholder stands for a password the client must ask the
	// user for: a user name without a password (RFC 1738 3.2.1).
	AskPlaceholder = "<ask>"
)

// ParseFTP reads an ftp URL.
func ParseFTP(u uri.URI) (FTP, error) {
	if err := needHost(u, "ftp"); err != nil {
		return FTP{}, err
	}
	// RFC 1738 3.2: the url-path has no query; a "?" would be an
	// encoded part of a name ("%3F").
	if u.HasQuery() {
		return FTP{}, fail(u, pathStart(u)+len(u.Path()), uri.ComponentQuery, ErrSchemeSyntax)
	}
	v := FTP{ref: ref{u}, end: endpointOf(u, ports.ftp)}
	v.rawUser, _ = u.User()
	v.rawPass, _ = u.Password()
	v.user, v.password, v.hasUser, v.hasPass = userinfo(u)
	path := u.Path()
	base := pathStart(u)
	if path != "" {
		path, base = path[1:], base+1 // the "/" between host and url-path
	}
	// The directory segments are kept as one string and split when
	// used: a path of a million one-letter segments costs nothing more
	// to view or check than its text.
	i := strings.LastIndexByte(path, '/') + 1
	v.rawDir, v.dirOff = path[:i], base
	last := path[i:]
	// ";type=" ends the last segment (RFC 1738 3.2.2; the 1994 draft's
	// BNF: ftptype = "A" | "I" | "D" | "a" | "i" | "d").
	if i := strings.LastIndex(last, ";"); i >= 0 {
		param := last[i+1:]
		name, val, _ := strings.Cut(param, "=")
		if !strings.EqualFold(name, "type") || !validTypecode(val) {
			return FTP{}, fail(u, base+len(path)-len(last)+i+1, uri.ComponentPath, ErrSchemeSyntax)
		}
		v.typecode = strings.ToLower(val)
		last = last[:i]
	}
	v.rawFile, v.file = last, decode(last)
	v.warnings = v.end.portWarnings()
	if v.hasPass {
		v.warnings = append(v.warnings, WarnPassword)
	}
	v.warnings = append(v.warnings, encodedControls(v.rawUser, v.rawPass, v.rawDir, last)...)
	return v, nil
}

// validTypecode reports whether t is a typecode of RFC 1738 3.2.2
// ("a", "i" or "d") or of the 1994 draft's grammar (ftptype = "A"
// formcode | "E" formcode | "I" | "L" digits, formcode = "N" | "T" |
// "C"), the letters in either case.
func validTypecode(t string) bool {
	if t == "" {
		return false
	}
	switch t[0] | 0x20 {
	case 'i', 'd':
		return len(t) == 1
	case 'a', 'e':
		return len(t) == 1 || len(t) == 2 && strings.ContainsRune("ntcNTC", rune(t[1]))
	case 'l':
		if len(t) < 2 {
			return false
		}
		for _, c := range t[1:] {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	return false
}

// Host returns the host, decoded.
func (v FTP) Host() string { return v.end.host }

// Port returns the port the URL names, or -1.
func (v FTP) Port() int { return v.end.port }

// DefaultPort returns 21 (RFC 1738 3.2), the registry's.
func (v FTP) DefaultPort() int { return v.end.defPort }

// ConnectPort returns the port a client connects to (Endpoint).
func (v FTP) ConnectPort() int { return v.end.connectPort() }

// User returns the user name, decoded, and whether the URL has one
// ("ftp://@host/" has an empty one, which is not an absent one).
func (v FTP) User() (string, bool) { return v.user, v.hasUser }

// Password returns the password, decoded, and whether the URL has one.
func (v FTP) Password() (string, bool) { return v.password, v.hasPass }

// Login returns the user and password a client logs in with: the URL's,
// "anonymous" and EmailPlaceholder when it names no user (RFC 1738
// 3.2.1), or AskPlaceholder as the password when it names a user
// without one.
func (v FTP) Login() (user, password string) {
	switch {
	case !v.hasUser:
		return AnonymousUser, EmailPlaceholder
	case !v.hasPass:
		return v.user, AskPlaceholder
	}
	return v.user, v.password
}

// Cwd returns the directory segments, decoded, each one a CWD command
// (RFC 1738 3.2.2: "each of the <cwd> elements is to be supplied,
// sequentially, as the argument to a CWD command").
func (v FTP) Cwd() []string {
	if v.rawDir == "" {
		return nil
	}
	cwd := make([]string, 0, strings.Count(v.rawDir, "/"))
	for d := range v.dirs() {
		cwd = append(cwd, d)
	}
	return cwd
}

// dirs yields the directory segments, decoded (a "%2F" stays inside
// its segment).
func (v FTP) dirs() iter.Seq[string] {
	return func(yield func(string) bool) {
		for s := v.rawDir; s != ""; {
			i := strings.IndexByte(s, '/')
			if !yield(decode(s[:i])) {
				return
			}
			s = s[i+1:]
		}
	}
}

// File returns the name of the file, decoded ("" for a directory).
func (v FTP) File() string { return v.file }

// Typecode returns the type from ";type=" in lower case ("a", "i", "d",
// or a form of the 1994 draft such as "an" or "l8"), or "".
func (v FTP) Typecode() string { return v.typecode }

// Listing reports whether the URL names a directory listing: a type of
// "d", or an empty name (a path ending in "/", or none).
func (v FTP) Listing() bool { return v.typecode == "d" || v.file == "" }

// TransferType returns the argument of the TYPE command a client sends
// (RFC 959 4.1.2): "A" for ASCII (type a, and every listing), "I" for
// image (type i, and a file without a type, which clients fetch as
// binary), and the 1994 forms as RFC 959 writes them ("A N", "E T",
// "L 8").
func (v FTP) TransferType() string {
	switch {
	case v.Listing():
		return "A"
	case v.typecode == "":
		return "I"
	case len(v.typecode) > 1:
		return strings.ToUpper(v.typecode[:1]) + " " + strings.ToUpper(v.typecode[1:])
	}
	return strings.ToUpper(v.typecode)
}

// ListCommand returns "NLST" for ";type=d" (RFC 1738 3.2.2: the name is
// "interpreted as a file directory" listed with NLST), "LIST" for a
// path ending in "/", or "" when the URL names a file.
func (v FTP) ListCommand() string {
	switch {
	case v.typecode == "d":
		return "NLST"
	case v.file == "":
		return "LIST"
	}
	return ""
}

// Warnings implements View.
func (v FTP) Warnings() []Warning { return v.warnings }

// Plan returns the FTP control commands of RFC 959 a client sends:
// USER, PASS, one CWD per directory segment, TYPE, then RETR of the
// file or NLST/LIST. Data-connection commands (PASV, PORT, ...) are left
// out. A percent-encoded CR, LF or NUL in any part (the host included)
// is refused: decoded, it would end the command and start another (RFC
// 1738 section 6). o.Email must pass o.Check.
func (v FTP) Plan(o PlanOptions) (Plan, error) {
	if err := o.Check(); err != nil {
		return Plan{}, err
	}
	if err := refuseHost(v.u); err != nil {
		return Plan{}, err
	}
	for _, p := range []struct {
		raw, where string
		base       int
	}{
		{v.rawUser, "user name", hostStart(v.u) - len(v.u.Userinfo()) - 1},
		{v.rawPass, "password", hostStart(v.u) - len(v.rawPass) - 1},
	} {
		if off, what := controlIn(p.raw); off >= 0 {
			return Plan{}, refuse(v.u, p.base, off, what, p.where)
		}
	}
	// The directories and the file are one run of the URL's path.
	if off, what := controlIn(v.u.String()[v.dirOff : v.dirOff+len(v.rawDir)+len(v.rawFile)]); off >= 0 {
		return Plan{}, refuse(v.u, v.dirOff, off, what, "path")
	}
	user, pass := v.Login()
	if pass == EmailPlaceholder && o.Email != "" {
		pass = o.Email
	}
	// The commands are one string, each ending in "\n": the text of a
	// path of a million directories is copied once, with no string per
	// CWD command.
	n := strings.Count(v.rawDir, "/")
	lc := v.ListCommand()
	var b strings.Builder
	b.Grow(len("USER \nPASS \nTYPE \nNLST \n") + len(user) + len(pass) + len(v.rawDir) + 4*n + len(v.file) + 1)
	line := func(cmd, arg string) {
		b.WriteString(cmd)
		b.WriteString(arg)
		b.WriteByte('\n')
	}
	line("USER ", user)
	line("PASS ", pass)
	for d := range v.dirs() {
		line("CWD ", d)
	}
	line("TYPE ", v.TransferType())
	switch {
	case lc == "NLST" && v.file != "":
		line("NLST ", v.file)
	case lc != "":
		line(lc, "")
	default:
		line("RETR ", v.file)
	}
	return Plan{Scheme: "ftp", Host: v.end.host, Port: v.end.connectPort(), commands: b.String()}, nil
}

// MarshalJSON writes the "scheme_data" object of `uri parse --json`,
// with a password of the URL as Redacted writes it, "xxxxx", in
// "password" and "login_password": JSON goes to logs (log/slog's
// JSONHandler, json.Marshal of a struct holding a view) as %v does, and
// the secret is had only by asking for it (Password, Login, Plan).
func (v FTP) MarshalJSON() ([]byte, error) { return v.appendJSON(nil, nil), nil }

func (v FTP) appendJSON(b []byte, flush func([]byte) []byte) []byte {
	lu, lp := v.Login()
	if v.hasUser && v.hasPass {
		lp = redacted
	}
	tc := v.typecode
	if flush == nil {
		// Each directory is written as a quoted string and a comma.
		b = slices.Grow(b, 320+len(v.rawDir)+2*strings.Count(v.rawDir, "/")+len(v.u.Host())+len(v.user)+2*len(v.file))
	}
	return newObjOn(b, flush).Str("host", v.end.host).Int("port", v.end.port).Int("default_port", v.end.defPort).
		Opt("user", v.user, v.hasUser).Opt("password", redacted, v.hasPass).
		Str("login_user", lu).Str("login_password", lp).StrSeq("cwd", v.dirs()).
		Opt("file", v.file, v.file != "").Opt("typecode", tc, tc != "").Str("transfer_type", v.TransferType()).
		Bool("listing", v.Listing()).Opt("list_command", v.ListCommand(), v.ListCommand() != "").
		Strs("warnings", codes(v.warnings)).Close().B
}
