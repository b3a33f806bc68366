package scheme

import (
	"slices"
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
//
// RFC 6068 section 7 (and 3): a mail client writes the addresses and
// header fields of the URL into a message, so a CR or LF decoded into
// any of them could add header fields (a "Bcc:"). Every decoded part is
// checked: a percent-encoded CR or LF in an address, a header field
// name or a header field value gives WarnEncodedCRLF (in the body it is
// a line break, RFC 6068 5), a NUL anywhere WarnEncodedNUL; and the
// accessors give such a CR, LF or NUL back percent-encoded inside an
// address or a header field name, never decoded.
func ParseMailto(u uri.URI) (Mailto, error) {
	if err := checkScheme(u, "mailto"); err != nil {
		return Mailto{}, err
	}
	if u.HasAuthority() {
		return Mailto{}, fail(u, len(u.Scheme())+1, uri.ComponentPath, ErrSchemeSyntax)
	}
	var v Mailto
	var lines, nuls []string // raw parts where a decoded CR/LF, NUL, matters
	// RFC 6068 2: to = addr-spec *("," addr-spec), each percent-decoded
	// (a "%" of a gatewayed address is "%25", as the 1994 draft says).
	if p := u.Path(); p != "" {
		lines = append(lines, p)
		for a := range strings.SplitSeq(p, ",") {
			if a != "" {
				v.to = append(v.to, decodeLine(a))
			}
		}
	}
	if u.HasQuery() {
		for q := range strings.SplitSeq(u.Query(), "&") {
			if q == "" {
				continue
			}
			rn, rv, _ := strings.Cut(q, "=")
			name := decodeLine(rn)
			lines = append(lines, rn)
			// RFC 6068 2: header field names are case-insensitive;
			// "to" adds addresses, "body" is the body (6068 2: "the
			// special <hfname> "body""), other fields are headers.
			lname := strings.ToLower(name)
			val := decode(rv)
			switch lname {
			case "to", "cc", "bcc":
				val = decodeLine(rv) // an address list
			}
			v.hfields = append(v.hfields, [2]string{name, val})
			switch lname {
			case "to":
				v.to = append(v.to, splitAddrs(val)...)
			case "cc":
				v.cc = append(v.cc, splitAddrs(val)...)
			case "subject":
				if !v.hasSubj {
					v.subject, v.hasSubj = val, true
				}
			case "body":
				if !v.hasBd {
					v.body, v.hasBd = val, true
				}
				nuls = append(nuls, rv)
				continue
			}
			lines = append(lines, rv)
		}
	}
	v.warnings = encodedControls(lines...)
	if len(nuls) > 0 && !slices.Contains(v.warnings, WarnEncodedNUL) {
		for _, w := range encodedControls(nuls...) {
			if w == WarnEncodedNUL {
				v.warnings = append(v.warnings, w)
			}
		}
	}
	return v, nil
}

// decodeLine decodes a part that a mail client writes into a header
// line (an address, a header field name), keeping a CR, LF or NUL
// percent-encoded (RFC 6068 section 7): decoded, it would end the line.
func decodeLine(raw string) string {
	d := decode(raw)
	if !strings.ContainsAny(d, "\r\n\x00") {
		return d
	}
	var b strings.Builder
	for i := 0; i < len(d); i++ {
		switch c := d[i]; c {
		case '\r':
			b.WriteString("%0D")
		case '\n':
			b.WriteString("%0A")
		case 0:
			b.WriteString("%00")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
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
// header fields, decoded (a CR, LF or NUL stays percent-encoded).
func (v Mailto) To() []string { return v.to }

// Cc returns the addresses of "cc" header fields.
func (v Mailto) Cc() []string { return v.cc }

// Subject returns the first "subject" field, decoded, and whether
// there is one.
func (v Mailto) Subject() (string, bool) { return v.subject, v.hasSubj }

// Body returns the first "body" field, decoded, and whether there is
// one.
func (v Mailto) Body() (string, bool) { return v.body, v.hasBd }

// HeaderFields returns every hfield as [name, value], decoded, in order;
// a CR, LF or NUL stays percent-encoded in a name and in the value of
// "to", "cc" and "bcc" (address lists).
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
