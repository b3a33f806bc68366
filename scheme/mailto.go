package scheme

import (
	"strings"

	"github.com/urikit/urikit/uri"
)

// Mailto is the view of a mailto URL (RFC 6068; the drafts' "mailto"
// section, an RFC 822 addr-spec):
//
//	mailtoURI = "mailto:" [ to ] [ hfields ]
//	to        = addr-spec *("," addr-spec )
//	hfields   = "?" hfield *( "&" hfield )
//	hfield    = hfname "=" hfvalue
type Mailto struct {
	ref            // the URL: String, Redacted and Format
	to, cc         []string
	subject, body  string
	hasSubj, hasBd bool
	hfields        [][2]string
	warnings       []Warning
}

// ParseMailto reads a mailto URL by the grammar of RFC 6068 section 2:
// each address of the path an addr-spec once decoded (a local part, "@",
// a domain without empty labels), the query hfields of hfname "="
// hfvalue with no second "?" and no "=" in a value (both are written
// %3F and %3D), and the value of a "to", "cc" or "bcc" hfield an address
// list. A URL that breaks it is still a valid URI reference; the view
// returns a *uri.ParseError whose reason is one of ErrMailAddress,
// ErrMailAddressList, ErrMailHfield and ErrMailQuestion, all
// ErrSchemeSyntax. A "/" in an hfvalue, which RFC 3986 allows in a query
// and whose meaning is plain, is accepted.
//
// RFC 6068 section 7 (and 3): a mail client writes the header fields of
// the URL into a message, so a CR or LF decoded into any of them could
// add header fields (a "Bcc:"). An address cannot hold one (it would not
// be an addr-spec); a percent-encoded CR or LF in a header field name or
// value gives WarnEncodedCRLF (in the body it is a line break, RFC 6068
// 5), a NUL anywhere WarnEncodedNUL; and HeaderFields gives a CR, LF or
// NUL back percent-encoded inside a name, never decoded.
func ParseMailto(u uri.URI) (Mailto, error) {
	if err := checkScheme(u, "mailto"); err != nil {
		return Mailto{}, err
	}
	if u.HasAuthority() {
		return Mailto{}, fail(u, len(u.Scheme())+1, uri.ComponentPath, ErrSchemeSyntax)
	}
	var v Mailto
	var lines, nuls controlScan // raw parts where a decoded CR/LF, NUL, matters
	// RFC 6068 2: to = addr-spec *("," addr-spec), each percent-decoded
	// (a "%" of a gatewayed address is "%25", as the 1994 draft says).
	base := pathStart(u)
	if p := u.Path(); p != "" {
		off := base
		v.to = make([]string, 0, strings.Count(p, ",")+1) // sized once: no regrowth on long lists
		for a := range strings.SplitSeq(p, ",") {
			if bad := checkAddrSpec(a); bad >= 0 {
				return Mailto{}, fail(u, off+bad, uri.ComponentPath, ErrMailAddress)
			}
			v.to = append(v.to, decode(a))
			off += len(a) + 1
		}
	}
	if u.HasQuery() {
		q := u.Query()
		qbase := base + len(u.Path()) + 1
		if i := strings.IndexByte(q, '?'); i >= 0 {
			return Mailto{}, fail(u, qbase+i, uri.ComponentQuery, ErrMailQuestion)
		}
		n := strings.Count(q, "&") + 1 // sized once: no regrowth on long queries
		v.hfields = make([][2]string, 0, n)
		off := qbase
		for hf := range strings.SplitSeq(q, "&") {
			hfOff := off
			off += len(hf) + 1
			rn, rv, ok := strings.Cut(hf, "=")
			if !ok {
				return Mailto{}, fail(u, hfOff+len(hf), uri.ComponentQuery, ErrMailHfield)
			}
			if i := strings.IndexByte(rv, '='); i >= 0 {
				return Mailto{}, fail(u, hfOff+len(rn)+1+i, uri.ComponentQuery, ErrMailHfield)
			}
			name := decodeLine(rn)
			lines.add(rn)
			// RFC 6068 2: header field names are case-insensitive;
			// "to" adds addresses, "body" is the body (6068 2: "the
			// special <hfname> "body""), other fields are headers.
			lname := strings.ToLower(name)
			val := decode(rv)
			switch lname {
			case "to", "cc", "bcc":
				list, bad := addressList(decodeWithOffsets(rv))
				if bad >= 0 {
					return Mailto{}, fail(u, hfOff+len(rn)+1+bad, uri.ComponentQuery, ErrMailAddressList)
				}
				// The first list is kept as it is, not copied.
				switch {
				case lname == "to" && v.to == nil:
					v.to = list
				case lname == "to":
					v.to = append(v.to, list...)
				case lname == "cc" && v.cc == nil:
					v.cc = list
				case lname == "cc":
					v.cc = append(v.cc, list...)
				}
			case "subject":
				if !v.hasSubj {
					v.subject, v.hasSubj = val, true
				}
			case "body":
				if !v.hasBd {
					v.body, v.hasBd = val, true
				}
				nuls.add(rv)
				v.hfields = append(v.hfields, [2]string{name, val})
				continue
			}
			v.hfields = append(v.hfields, [2]string{name, val})
			lines.add(rv)
		}
	}
	v.warnings = lines.warnings()
	if nuls.nul && !lines.nul {
		v.warnings = append(v.warnings, WarnEncodedNUL)
	}
	v.ref = ref{u}
	return v, nil
}

// decodeLine decodes a header field name, which a mail client writes at
// the start of a header line, keeping a CR, LF or NUL percent-encoded
// (RFC 6068 section 7): decoded, it would end the line.
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

// To returns the recipients: the addresses of the path and the
// mailboxes of "to" header fields, decoded.
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
// a CR, LF or NUL stays percent-encoded in a name (the value of "to",
// "cc" and "bcc", an address list, holds none).
func (v Mailto) HeaderFields() [][2]string { return v.hfields }

// Warnings implements View.
func (v Mailto) Warnings() []Warning { return v.warnings }

// MarshalJSON writes the "scheme_data" object of `uri parse --json`.
func (v Mailto) MarshalJSON() ([]byte, error) {
	return done(newObj().Strs("to", orEmpty(v.to)).Strs("cc", orEmpty(v.cc)).
		Opt("subject", v.subject, v.hasSubj).Opt("body", v.body, v.hasBd).
		Pairs("hfields", v.hfields).Strs("warnings", codes(v.warnings)))
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
