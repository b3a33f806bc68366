package scheme

import (
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
	attributes       []string
	fields           [][2]string
	warnings         []Warning
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
	if params != "" {
		v.fields = make([][2]string, 0, strings.Count(params, ";")+1) // sized once
		for f := range strings.SplitSeq(params, ";") {
			name, val, ok := strings.Cut(f, "=")
			if !ok || name == "" {
				return Prospero{}, fail(u, pathStart(u)+1+len(p)+1, uri.ComponentPath, ErrSchemeSyntax)
			}
			v.fields = append(v.fields, [2]string{decode(name), decode(val)})
		}
	}
	// The hsoname, version and attributes are separated by "%00".
	name, rest, hasVersion := strings.Cut(p, "%00")
	v.hsoname = decode(name)
	if hasVersion {
		version, attrs, hasAttrs := strings.Cut(rest, "%00")
		v.version, v.hasVersion = decode(version), true
		if hasAttrs {
			v.attributes = make([]string, 0, strings.Count(attrs, "%00")+1)
			for a := range strings.SplitSeq(attrs, "%00") {
				v.attributes = append(v.attributes, decode(a))
			}
		}
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
func (v Prospero) Attributes() []string { return v.attributes }

// Fields returns the ";field=value" pairs of RFC 1738, decoded.
func (v Prospero) Fields() [][2]string { return v.fields }

// Warnings implements View.
func (v Prospero) Warnings() []Warning { return v.warnings }

// MarshalJSON writes the "scheme_data" object of `uri parse --json`.
func (v Prospero) MarshalJSON() ([]byte, error) {
	return done(newObj().Str("host", v.end.host).Int("port", v.end.port).Int("default_port", v.end.defPort).
		Str("hsoname", v.hsoname).Opt("version", v.version, v.hasVersion).
		Strs("attributes", orEmpty(v.attributes)).Pairs("fields", v.fields).Strs("warnings", codes(v.warnings)))
}
