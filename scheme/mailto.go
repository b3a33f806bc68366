package scheme

import (
	"strings"

	"github.com/urikit/urikit/uri"
)

// Mailto is the view of a mailto URL (RFC 6068; the drafts' "mailto"
// section, an RFC 822 addr-spec):
//
//	mailtoURI = "mailto:" [ to ] [ hfields ]
//	hfields   = "?" hfield *( "&" hfield )
//	hfield    = hfname "=" hfvalue
type Mailto struct {
	to, cc         []string
	subject, body  string
	hasSubj, hasBd bool
	hfields        [][2]string
	warnings       []Warning
}

// ParseMailto reads a mailto URL.
func ParseMailto(u uri.URI) (Mailto, error) {
	if err := checkScheme(u, "mailto"); err != nil {
		return Mailto{}, err
	}
	if u.HasAuthority() {
		return Mailto{}, fail(u, len(u.Scheme())+1, uri.ComponentPath, ErrSchemeSyntax)
	}
	var v Mailto
	// RFC 6068 2: to = addr-spec *("," addr-spec), each percent-decoded
	// (a "%" of a gatewayed address is "%25", as the 1994 draft says).
	if p := u.Path(); p != "" {
		for a := range strings.SplitSeq(p, ",") {
			if a != "" {
				v.to = append(v.to, decode(a))
			}
		}
	}
	var raws []string
	if u.HasQuery() {
		for q := range strings.SplitSeq(u.Query(), "&") {
			if q == "" {
				continue
			}
			rn, rv, _ := strings.Cut(q, "=")
			name, val := decode(rn), decode(rv)
			v.hfields = append(v.hfields, [2]string{name, val})
			// RFC 6068 2: header field names are case-insensitive;
			// "to" adds addresses, "body" is the body (6068 2: "the
			// special <hfname> "body""), other fields are headers.
			switch strings.ToLower(name) {
			case "to":
				v.to = append(v.to, splitAddrs(val)...)
			case "cc":
				v.cc = append(v.cc, splitAddrs(val)...)
			case "subject":
				if !v.hasSubj {
					v.subject, v.hasSubj = val, true
				}
				raws = append(raws, rv)
			case "body":
				if !v.hasBd {
					v.body, v.hasBd = val, true
				}
			default:
				raws = append(raws, rv)
			}
		}
	}
	// RFC 6068 7: a CR or LF in a header field value could add header
	// fields; in the body, %0D%0A is a line break (6068 5).
	v.warnings = encodedControls(raws...)
	return v, nil
}

func splitAddrs(s string) []string {
	var out []string
	for a := range strings.SplitSeq(s, ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// To returns the recipients: the addresses of the path and of "to"
// header fields, decoded.
func (v Mailto) To() []string { return v.to }

// Cc returns the addresses of "cc" header fields.
func (v Mailto) Cc() []string { return v.cc }

// Subject returns the first "subject" field, decoded, and whether
// there is one.
func (v Mailto) Subject() (string, bool) { return v.subject, v.hasSubj }

// Body returns the first "body" field, decoded, and whether there is
// one.
func (v Mailto) Body() (string, bool) { return v.body, v.hasBd }

// HeaderFields returns every hfield as [name, value], decoded, in order.
func (v Mailto) HeaderFields() [][2]string { return v.hfields }

// Warnings implements View.
func (v Mailto) Warnings() []Warning { return v.warnings }

// MarshalJSON writes the "scheme_data" object of `uri parse --json`.
func (v Mailto) MarshalJSON() ([]byte, error) {
	return newObj().strs("to", orEmpty(v.to)).strs("cc", orEmpty(v.cc)).
		opt("subject", v.subject, v.hasSubj).opt("body", v.body, v.hasBd).
		pairs("hfields", v.hfields).warnings(v.warnings).done()
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
