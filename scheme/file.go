package scheme

import (
	"strings"

	"github.com/urikit/urikit/uri"
)

// File is the view of a file URL (RFC 8089; RFC 1738 3.10):
//
//	file-URI  = "file:" file-hier-part
//	file-hier-part = ( "//" auth-path ) / local-path
type File struct {
	ref         // the URL: String, Redacted and Format
	host        string
	hasHost     bool
	path        string
	local       bool
	windowsPath string
}

// ParseFile reads a file URL. RFC 8089 2: an empty host and the host
// "localhost" both mean the machine the URL is interpreted on; RFC 8089
// Appendix E.2 gives the DOS and Windows drive letters ("file:///c:/x",
// and "c|" of older clients).
func ParseFile(u uri.URI) (File, error) {
	if err := checkScheme(u, "file"); err != nil {
		return File{}, err
	}
	if u.HasQuery() {
		return File{}, fail(u, pathStart(u)+len(u.Path()), uri.ComponentQuery, ErrSchemeSyntax)
	}
	v := File{path: decode(u.Path())}
	if u.HasAuthority() {
		v.host, v.hasHost = decode(u.Hostname()), true
	}
	v.local = v.host == "" || strings.EqualFold(v.host, "localhost")
	p := v.path
	if len(p) >= 3 && p[0] == '/' && isDrive(p[1:]) {
		p = p[1:]
	}
	switch {
	case isDrive(p):
		w := string(p[0]) + ":" + strings.ReplaceAll(p[2:], "/", `\`)
		if len(p) == 2 {
			w += `\`
		}
		if !v.local {
			w = `\\` + v.host + `\` + w
		}
		v.windowsPath = w
	case !v.local:
		// RFC 8089 E.3.1: the host-name of a UNC string is the
		// authority, its share-name and object-names the path
		// ("\\host.example.com\Share\path\to\file.txt" is
		// "file://host.example.com/Share/path/to/file.txt").
		v.windowsPath = unc(v.host, strings.TrimPrefix(p, "/"))
	case v.hasHost && strings.HasPrefix(p, "//"):
		// RFC 8089 E.3.2: a whole UNC string in the path after an
		// empty authority, "file:////host.example.com/path/to/file",
		// or with an extra slash, "file://///host.example.com/path/to/file";
		// it "further limits the definition of a "local file URI" by
		// excluding any file URI with a path that encodes a UNC string".
		host, rest, _ := strings.Cut(strings.TrimPrefix(p[2:], "/"), "/")
		if w := unc(host, rest); w != "" {
			v.windowsPath, v.local = w, false
		}
	}
	v.ref = ref{u}
	return v, nil
}

// unc returns the UNC string \\host\share\objects of a host and a path
// ("share/objects"), or "" when either is empty: a UNC string names a
// share.
func unc(host, path string) string {
	if host == "" || path == "" {
		return ""
	}
	return `\\` + host + `\` + strings.ReplaceAll(path, "/", `\`)
}

// isDrive reports whether p starts with a drive letter, "c:" or "c|",
// followed by "/" or nothing.
func isDrive(p string) bool {
	return len(p) >= 2 && ('a' <= p[0]|0x20 && p[0]|0x20 <= 'z') && (p[1] == ':' || p[1] == '|') &&
		(len(p) == 2 || p[2] == '/')
}

// Host returns the host, decoded, and whether the URL has an authority.
func (v File) Host() (string, bool) { return v.host, v.hasHost }

// Path returns the path, decoded.
func (v File) Path() string { return v.path }

// Local reports whether the file is on the machine the URL is read on:
// no host, an empty one, or "localhost" (RFC 8089 2), and a path that is
// not a UNC string (RFC 8089 E.3.2).
func (v File) Local() bool { return v.local }

// WindowsPath returns the path as Windows writes it: "C:\dir\file" for a
// drive letter (RFC 8089 E.2), the UNC string "\\host\share\file" for a
// file on another host (RFC 8089 E.3.1, and E.3.2's
// "file:////host/share/file"), or "" otherwise.
func (v File) WindowsPath() string { return v.windowsPath }

// Warnings implements View: a file URL has none.
func (v File) Warnings() []Warning { return nil }

// MarshalJSON writes the "scheme_data" object of `uri parse --json`.
func (v File) MarshalJSON() ([]byte, error) {
	return done(newObj().Opt("host", v.host, v.hasHost).Str("path", v.path).Bool("local", v.local).
		Opt("windows_path", v.windowsPath, v.windowsPath != ""))
}
