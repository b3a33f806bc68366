package scheme

import (
	"iter"
	"slices"
	"strings"

	"github.com/urikit/urikit/uri"
)

// Prospero is the view of a prospero URL (RFC 4157; RFC 1738 3.11; the
// 1994 draft):
//
//	prosperolink = "prospero://" hostport "/" hsoname [ "%00" version [ attributes ] ]   ; 1994 draft
//	prosperourl  = "prospero://" host [ ":" port ] "/" hsoname *( ";" field "=" value ) ; RFC 1738
//
// The 1994 draft separates the version "by the characters "%00"
// (percent zero zero), this being an escaped string terminator (null)";
// the attributes follow, each after its own "%00" here.
type Prospero struct {
	ref              // the URL: String, Redacted and Format
	end              endpoint
	hsoname, version string
	hasVersion       bool
	// attrs (the attributes, after their first "%00") and params (the
	// ";field=value" pairs, after their first ";") are as written,
	// split and decoded when asked: a million fields cost their text,
	// not a string (16 bytes) or a pair (32) each (issue 26).
	attrs, params string
	hasAttrs      bool
	warnings      []Warning
}

// ParseProspero reads a prospero URL.
func ParseProspero(u uri.URI) (Prospero, error) {
	if err := needHost(u, "prospero"); err != nil {
		return Prospero{}, err
	}
	v := Prospero{end: endpointOf(u, ports.prospero)}
	v.warnings = v.end.portWarnings()
	p := strings.TrimPrefix(u.Path(), "/")
	// RFC 1738 3.11: ";field=value" pairs after the hsoname.
	p, params, _ := strings.Cut(p, ";")
	for f := range strings.SplitSeq(params, ";") {
		if name, _, ok := strings.Cut(f, "="); params != "" && (!ok || name == "") {
			return Prospero{}, fail(u, pathStart(u)+1+len(p)+1, uri.ComponentPath, ErrSchemeSyntax)
		}
	}
	v.params = params
	// The hsoname, version and attributes are separated by "%00".
	name, rest, hasVersion := strings.Cut(p, "%00")
	v.hsoname = decode(name)
	if hasVersion {
		version, attrs, hasAttrs := strings.Cut(rest, "%00")
		v.version, v.hasVersion = decode(version), true
		v.attrs, v.hasAttrs = attrs, hasAttrs
	}
	v.ref = ref{u}
	return v, nil
}

// Host returns the host, decoded.
func (v Prospero) Host() string { return v.end.host }

// Port returns the port the URL names, or -1.
func (v Prospero) Port() int { return v.end.port }

// DefaultPort returns 1525 (RFC 4157 2).
func (v Prospero) DefaultPort() int { return v.end.defPort }

// ConnectPort returns the port a client connects to (Endpoint).
func (v Prospero) ConnectPort() int { return v.end.connectPort() }

// HSOName returns the host-specific object name, decoded.
func (v Prospero) HSOName() string { return v.hsoname }

// Version returns the version of the 1994 form, and whether there is one.
func (v Prospero) Version() (string, bool) { return v.version, v.hasVersion }

// Attributes returns the attributes of the 1994 form.
func (v Prospero) Attributes() []string {
	if !v.hasAttrs {
		return nil
	}
	return slices.Collect(v.attributeSeq())
}

// attributeSeq yields the attributes Attributes returns, without
// collecting them.
func (v Prospero) attributeSeq() iter.Seq[string] {
	return func(yield func(string) bool) {
		if !v.hasAttrs {
			return
		}
		for a := range strings.SplitSeq(v.attrs, "%00") {
			if !yield(decode(a)) {
				return
			}
		}
	}
}

// Fields returns the ";field=value" pairs of RFC 1738, decoded.
func (v Prospero) Fields() [][2]string {
	if v.params == "" {
		return nil
	}
	fs := make([][2]string, 0, strings.Count(v.params, ";")+1)
	for name, val := range v.fieldSeq() {
		fs = append(fs, [2]string{name, val})
	}
	return fs
}

// fieldSeq yields the fields Fields returns, without collecting them.
func (v Prospero) fieldSeq() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		if v.params == "" {
			return
		}
		for f := range strings.SplitSeq(v.params, ";") {
			name, val, _ := strings.Cut(f, "=")
			if !yield(decode(name), decode(val)) {
				return
			}
		}
	}
}

// Warnings implements View.
func (v Prospero) Warnings() []Warning { return v.warnings }

// MarshalJSON writes the "scheme_data" object of `uri parse --json`.
func (v Prospero) MarshalJSON() ([]byte, error) { return v.appendJSON(nil, nil), nil }

func (v Prospero) appendJSON(b []byte, flush func([]byte) []byte) []byte {
	return newObjOn(b, flush).Str("host", v.end.host).Int("port", v.end.port).Int("default_port", v.end.defPort).
		Str("hsoname", v.hsoname).Opt("version", v.version, v.hasVersion).
		StrSeq("attributes", v.attributeSeq()).PairSeq("fields", v.fieldSeq()).Strs("warnings", codes(v.warnings)).Close().B
}
