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
	if isDrive(p) {
		w := string(p[0]) + ":" + strings.ReplaceAll(p[2:], "/", `\`)
		if len(p) == 2 {
			w += `\`
		}
		if !v.local {
			w = `\\` + v.host + `\` + w
		}
		v.windowsPath = w
	}
	return v, nil
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
// no host, an empty one, or "localhost" (RFC 8089 2).
func (v File) Local() bool { return v.local }

// WindowsPath returns the path as Windows writes it ("C:\dir\file"),
// or "" when the path has no drive letter.
func (v File) WindowsPath() string { return v.windowsPath }

// Warnings implements View: a file URL has none.
func (v File) Warnings() []Warning { return nil }

// MarshalJSON writes the "scheme_data" object of `uri parse --json`.
func (v File) MarshalJSON() ([]byte, error) {
	return newObj().opt("host", v.host, v.hasHost).str("path", v.path).boolean("local", v.local).
		opt("windows_path", v.windowsPath, v.windowsPath != "").done()
}
