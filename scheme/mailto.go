package scheme

import (
	"iter"
	"slices"
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
	ref // the URL: String, Redacted and Format
	// The addresses and header fields are read from the URL when asked
	// (To, Cc, HeaderFields): a million of them cost their text, not a
	// string (16 bytes) or a pair (32) each (issue 26).
	subject, body  string
	hasSubj, hasBd bool
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
		for a := range strings.SplitSeq(p, ",") {
			if bad := checkAddrSpec(a); bad >= 0 {
				return Mailto{}, fail(u, off+bad, uri.ComponentPath, ErrMailAddress)
			}
			off += len(a) + 1
		}
	}
	if u.HasQuery() {
		q := u.Query()
		qbase := base + len(u.Path()) + 1
		if i := strings.IndexByte(q, '?'); i >= 0 {
			return Mailto{}, fail(u, qbase+i, uri.ComponentQuery, ErrMailQuestion)
		}
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
			lname := specialHfield(name)
			switch lname {
			case "to", "cc", "bcc":
				if bad := mailboxes(decodeWithOffsets(rv), nil); bad >= 0 {
					return Mailto{}, fail(u, hfOff+len(rn)+1+bad, uri.ComponentQuery, ErrMailAddressList)
				}
			case "subject":
				if !v.hasSubj {
					v.subject, v.hasSubj = decode(rv), true
				}
			case "body":
				if !v.hasBd {
					v.body, v.hasBd = decode(rv), true
				}
				nuls.add(rv)
				continue
			}
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

// specialHfield returns the name of RFC 6068 the header field name is,
// in any case ("to", "cc", "bcc", "subject" or "body"), or "": the
// fields the view reads, found without a lowercase copy of every name.
func specialHfield(name string) string {
	for _, s := range [...]string{"to", "cc", "bcc", "subject", "body"} {
		if strings.EqualFold(name, s) {
			return s
		}
	}
	return ""
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
func (v Mailto) To() []string { return slices.Collect(v.addresses("to")) }

// Cc returns the addresses of "cc" header fields.
func (v Mailto) Cc() []string { return slices.Collect(v.addresses("cc")) }

// addresses yields the addresses To (field "to") or Cc (field "cc")
// returns, without collecting them: those of the path for "to", then
// the mailboxes of each header field of that name.
func (v Mailto) addresses(field string) iter.Seq[string] {
	return func(yield func(string) bool) {
		if p := v.u.Path(); field == "to" && p != "" {
			for a := range strings.SplitSeq(p, ",") {
				if !yield(decode(a)) {
					return
				}
			}
		}
		if !v.u.HasQuery() {
			return
		}
		for hf := range strings.SplitSeq(v.u.Query(), "&") {
			rn, rv, _ := strings.Cut(hf, "=")
			if specialHfield(decodeLine(rn)) != field {
				continue
			}
			stop := false
			mailboxes(decodeWithOffsets(rv), func(m string) bool {
				stop = !yield(m)
				return !stop
			})
			if stop {
				return
			}
		}
	}
}

// Subject returns the first "subject" field, decoded, and whether
// there is one.
func (v Mailto) Subject() (string, bool) { return v.subject, v.hasSubj }

// Body returns the first "body" field, decoded, and whether there is
// one.
func (v Mailto) Body() (string, bool) { return v.body, v.hasBd }

// HeaderFields returns every hfield as [name, value], decoded, in order;
// a CR, LF or NUL stays percent-encoded in a name (the value of "to",
// "cc" and "bcc", an address list, holds none).
func (v Mailto) HeaderFields() [][2]string {
	if !v.u.HasQuery() {
		return nil
	}
	hfs := make([][2]string, 0, strings.Count(v.u.Query(), "&")+1)
	for name, val := range v.hfieldSeq() {
		hfs = append(hfs, [2]string{name, val})
	}
	return hfs
}

// hfieldSeq yields the fields HeaderFields returns, without collecting
// them.
func (v Mailto) hfieldSeq() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		if !v.u.HasQuery() {
			return
		}
		for hf := range strings.SplitSeq(v.u.Query(), "&") {
			rn, rv, _ := strings.Cut(hf, "=")
			if !yield(decodeLine(rn), decode(rv)) {
				return
			}
		}
	}
}

// Warnings implements View.
func (v Mailto) Warnings() []Warning { return v.warnings }

// MarshalJSON writes the "scheme_data" object of `uri parse --json`.
func (v Mailto) MarshalJSON() ([]byte, error) { return v.appendJSON(nil, nil), nil }

func (v Mailto) appendJSON(b []byte, flush func([]byte) []byte) []byte {
	return newObjOn(b, flush).StrSeq("to", v.addresses("to")).StrSeq("cc", v.addresses("cc")).
		Opt("subject", v.subject, v.hasSubj).Opt("body", v.body, v.hasBd).
		PairSeq("hfields", v.hfieldSeq()).Strs("warnings", codes(v.warnings)).Close().B
}
