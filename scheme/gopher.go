package scheme

import (
	"strconv"
	"strings"

	"github.com/urikit/urikit/uri"
)

// Gopher is the view of a gopher URL (RFC 4266; RFC 1738 3.4; the 1994
// URL draft's "Gopher" section, which gives the Gopher+ forms):
//
//	gopher://<host>:<port>/<gophertype><selector>%09<search>%09<gopher+_string>
type Gopher struct {
	ref                       // the URL: String, Redacted and Format
	end                       endpoint
	itemType                  byte
	selector, search, gplus   string
	hasSearch, hasGplus       bool
	rawSel, rawSearch, rawGpl string
	selOff, searchOff, gplOff int
	warnings                  []Warning
}

// ParseGopher reads a gopher URL. The item type is the first character
// of the path after "/", "1" (a directory) when there is none (RFC 4266
// 2.1; RFC 1738 3.4: "if <gophertype> is omitted... 1").
func ParseGopher(u uri.URI) (Gopher, error) {
	if err := needHost(u, "gopher"); err != nil {
		return Gopher{}, err
	}
	v := Gopher{ref: ref{u}, end: endpointOf(u, ports.gopher), itemType: '1'}
	path := u.Path()
	base := pathStart(u)
	// RFC 4266 2.1 (and RFC 1738 3.4): the "?" of a search is written
	// %09 in gopher URLs; a "?" left as it is belongs to the selector
	// of older clients, so it is read back into the selector here.
	if u.HasQuery() {
		path += "?" + u.Query()
	}
	if len(path) > 1 {
		if path[1] == '%' {
			// An encoded type character.
			d := decode(path[1:4])
			v.itemType = d[0]
			path, base = path[4:], base+4
		} else {
			v.itemType = path[1]
			path, base = path[2:], base+2
		}
	} else {
		path, base = "", base+len(path)
	}
	// The parts are separated by an encoded TAB, found in the raw text.
	// Only the first two separate: the Gopher+ string keeps its own
	// encoded TABs (the +ASK data block), so it is cut, not split.
	sel, rest, hasSearch := strings.Cut(path, "%09")
	v.rawSel, v.selOff = sel, base
	v.selector = decode(sel)
	if hasSearch {
		search, gpl, hasGplus := strings.Cut(rest, "%09")
		v.hasSearch = true
		v.rawSearch, v.searchOff = search, base+len(sel)+3
		v.search = decode(search)
		if hasGplus {
			v.hasGplus = true
			v.rawGpl, v.gplOff = gpl, v.searchOff+len(search)+3
			v.gplus = decode(gpl)
		}
	}
	v.warnings = append(v.end.portWarnings(), encodedControls(v.rawSel, v.rawSearch, v.rawGpl)...)
	return v, nil
}

// Host, Port and DefaultPort (70) are where a client connects.
func (v Gopher) Host() string { return v.end.host }

// Port returns the port the URL names, or -1.
func (v Gopher) Port() int { return v.end.port }

// DefaultPort returns 70 (RFC 4266 2.1), the registry's.
func (v Gopher) DefaultPort() int { return v.end.defPort }

// ConnectPort returns the port a client connects to (Endpoint).
func (v Gopher) ConnectPort() int { return v.end.connectPort() }

// ItemType returns the Gopher item type character ('1' by default).
func (v Gopher) ItemType() byte { return v.itemType }

// Selector returns the selector string, decoded. It may start with the
// type character again (the 1994 draft: "some gopher selector strings
// begin with a copy of the gopher type character").
func (v Gopher) Selector() string { return v.selector }

// Search returns the search string, decoded, and whether there is one.
func (v Gopher) Search() (string, bool) { return v.search, v.hasSearch }

// GopherPlus returns the Gopher+ string, decoded, and whether there is
// one.
func (v Gopher) GopherPlus() (string, bool) { return v.gplus, v.hasGplus }

// The kinds of a Gopher+ string (the 1994 draft's summary).
const (
	GplusItem       = "item"                 // "+": the default view
	GplusView       = "view"                 // "+view_name[ language_name]"
	GplusAttributes = "attributes"           // "!": attributes of the item
	GplusDirAttrs   = "directory-attributes" // "$": attributes of every item of a directory
	GplusAsk        = "ask"                  // "?": an item with a +ASK form
)

// GplusKind returns the kind of the Gopher+ string, or "" without one
// (or for a string of another form).
func (v Gopher) GplusKind() string {
	if !v.hasGplus || v.gplus == "" {
		return ""
	}
	cmd, _, _ := strings.Cut(v.gplus, "\t")
	if cmd == "" {
		return ""
	}
	switch cmd[0] {
	case '+':
		if len(cmd) > 1 {
			return GplusView
		}
		return GplusItem
	case '!':
		return GplusAttributes
	case '$':
		return GplusDirAttrs
	case '?':
		return GplusAsk
	}
	return ""
}

// GplusView returns the view name and language of a "+view lang"
// string ("+application/postscript%20Es_ES").
func (v Gopher) GplusView() (view, language string) {
	if v.GplusKind() != GplusView {
		return "", ""
	}
	cmd, _, _ := strings.Cut(v.gplus[1:], "\t")
	view, language, _ = strings.Cut(cmd, " ")
	return view, language
}

// GplusAttributes returns the attribute names of a "!" or "$" string
// ("!+ABSTRACT%20+SMELL"), or nil for all of them.
func (v Gopher) GplusAttributes() []string {
	if k := v.GplusKind(); k != GplusAttributes && k != GplusDirAttrs {
		return nil
	}
	cmd, _, _ := strings.Cut(v.gplus[1:], "\t")
	return strings.Fields(cmd)
}

// Warnings implements View.
func (v Gopher) Warnings() []Warning { return v.warnings }

// Plan returns the bytes a Gopher client sends (RFC 1436 4; the 1994
// draft): the selector, a TAB and the search string when there is one,
// a TAB and the Gopher+ string when there is one, and CR LF. A Gopher+
// string with a filled-in +ASK form ("+%091%0D%0A+-1%0D%0A...%0D%0A.%0D%0A")
// ends with its data block, which is sent as the draft shows only when
// o.AskData is set and the port is 70.
//
// Any other percent-encoded CR, LF or NUL is refused, and so is a host
// that decodes to one: decoded into the request line it would end it,
// and what follows would reach the server as another command (RFC 1738
// section 6: the gopher-to-SMTP attack).
func (v Gopher) Plan(o PlanOptions) (Plan, error) {
	if err := refuseHost(v.u); err != nil {
		return Plan{}, err
	}
	if off, what := controlIn(v.rawSel); off >= 0 {
		return Plan{}, refuse(v.u, v.selOff, off, what, "selector")
	}
	if off, what := controlIn(v.rawSearch); off >= 0 {
		return Plan{}, refuse(v.u, v.searchOff, off, what, "search string")
	}
	var b strings.Builder
	b.WriteString(v.selector)
	if v.hasSearch && (v.search != "" || !v.hasGplus) {
		b.WriteString("\t" + v.search)
	}
	if v.hasGplus {
		cmd, block, hasBlock := strings.Cut(v.gplus, "\t")
		rawCmd, _, _ := strings.Cut(v.rawGpl, "%09")
		if off, what := controlIn(rawCmd); off >= 0 {
			return Plan{}, refuse(v.u, v.gplOff, off, what, "Gopher+ string")
		}
		b.WriteString("\t" + cmd)
		if hasBlock {
			rawBlock := v.rawGpl[len(rawCmd):]
			off, what := controlIn(rawBlock)
			if off < 0 {
				off, what = 0, "a TAB"
			}
			base := v.gplOff + len(rawCmd)
			switch {
			case !askBlock(block):
				return Plan{}, refuse(v.u, base, off, what, "Gopher+ string outside a +ASK data block")
			case !o.AskData:
				return Plan{}, refuse(v.u, base, off, what, "+ASK data block (sent only with PlanOptions.AskData)")
			case v.end.connectPort() != v.end.defPort:
				return Plan{}, refuse(v.u, base, off, what, "+ASK data block to a port other than "+strconv.Itoa(v.end.defPort))
			}
			b.WriteString("\t" + block)
			return v.plan(b.String()), nil
		}
	}
	b.WriteString("\r\n")
	return v.plan(b.String()), nil
}

func (v Gopher) plan(req string) Plan {
	return Plan{Scheme: "gopher", Host: v.end.host, Port: v.end.connectPort(), Request: []byte(req)}
}

// askBlock reports whether s is the data block of a filled-in +ASK form
// as the 1994 draft writes it: "1" CRLF "+-1" CRLF, lines ending in
// CRLF, and "." CRLF, with no other CR, LF or NUL.
func askBlock(s string) bool {
	rest, ok := strings.CutPrefix(s, "1\r\n+-1\r\n")
	if !ok || !strings.HasSuffix(rest, ".\r\n") || strings.IndexByte(rest, 0) >= 0 {
		return false
	}
	for _, line := range strings.SplitAfter(rest, "\r\n") {
		if line == "" {
			continue
		}
		body := strings.TrimSuffix(line, "\r\n")
		if len(body) == len(line) || strings.ContainsAny(body, "\r\n\t") {
			return false
		}
	}
	return true
}

// MarshalJSON writes the "scheme_data" object of `uri parse --json`.
func (v Gopher) MarshalJSON() ([]byte, error) {
	view, lang := v.GplusView()
	kind := v.GplusKind()
	attrs := v.GplusAttributes()
	if attrs == nil {
		attrs = []string{}
	}
	return done(newObj().Str("host", v.end.host).Int("port", v.end.port).Int("default_port", v.end.defPort).
		Str("item_type", string(v.itemType)).Str("selector", v.selector).Opt("search", v.search, v.hasSearch).
		Opt("gopher_plus", v.gplus, v.hasGplus).Opt("gplus_kind", kind, kind != "").
		Opt("gplus_view", view, kind == GplusView).Opt("gplus_language", lang, lang != "").
		Strs("gplus_attributes", attrs).Strs("warnings", codes(v.warnings)))
}
