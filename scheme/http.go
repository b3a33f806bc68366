package scheme

import (
	"strconv"
	"strings"

	"github.com/urikit/urikit/internal/httpjson"
	"github.com/urikit/urikit/internal/jsonstr"
	"github.com/urikit/urikit/uri"
)

// HTTP is the view of an http or https URL (RFC 9110 4.2; the 1993 URL
// draft's "http" section): where a client connects and what it asks for.
type HTTP struct {
	ref             // the URL: String, Redacted and Format
	scheme   string // lowercase
	end      endpoint
	target   string
	warnings []Warning
}

// ParseHTTP reads an http or https URL. RFC 9110 4.2.1: "A sender MUST
// NOT generate an "http" URI with an empty host identifier. A recipient
// that processes such a URI reference MUST reject it as invalid."
func ParseHTTP(u uri.URI) (HTTP, error) {
	if err := needHost(u, "http", "https"); err != nil {
		return HTTP{}, err
	}
	v := HTTP{ref: ref{u}, scheme: strings.ToLower(u.Scheme())}
	def := ports.http
	if v.scheme == "https" {
		def = ports.https
	}
	v.end = endpointOf(u, def)
	// RFC 9112 3.2.1: origin-form = absolute-path [ "?" query ], and
	// "If the target URI's path component is empty, the client MUST
	// send "/" as the path within the origin-form". The fragment is
	// never sent (RFC 9110 4.2.5).
	v.target = u.Path()
	if v.target == "" {
		v.target = "/"
	}
	if u.HasQuery() {
		v.target += "?" + u.Query()
	}
	v.warnings = append(v.end.portWarnings(), userinfoWarnings(u)...)
	return v, nil
}

// userinfoWarnings warns about a password: RFC 9110 4.2.4 says a
// sender MUST NOT generate userinfo in http URIs; RFC 3986 3.2.1
// deprecates passwords everywhere.
func userinfoWarnings(u uri.URI) []Warning {
	if _, ok := u.Password(); ok {
		return []Warning{WarnPassword}
	}
	return nil
}

// Host returns the host, decoded, without the brackets of an IPv6
// literal: what a client resolves and connects to.
func (v HTTP) Host() string { return v.end.host }

// Port returns the port the URL names, or -1.
func (v HTTP) Port() int { return v.end.port }

// DefaultPort returns 80 for http and 443 for https.
func (v HTTP) DefaultPort() int { return v.end.defPort }

// ConnectPort returns the port a client connects to (Endpoint).
func (v HTTP) ConnectPort() int { return v.end.connectPort() }

// RequestTarget returns the origin-form request-target: the path ("/"
// when empty) and the query, never the fragment (RFC 9112 3.2.1).
func (v HTTP) RequestTarget() string { return v.target }

// AbsoluteForm returns the absolute-form request-target a client sends
// to a proxy (RFC 9112 3.2.2): scheme, authority without userinfo,
// path and query.
func (v HTTP) AbsoluteForm() string { return v.scheme + "://" + v.HostHeader() + v.target }

// HostHeader returns the Host header field value (RFC 9110 7.2): the
// authority without userinfo and without the zone identifier of an
// IPv6 literal (RFC 6874 section 4: "An HTTP client, proxy, or other
// intermediary MUST remove any ZoneID attached to an outgoing URI"),
// the port as written.
func (v HTTP) HostHeader() string {
	return string(appendHostHeader(make([]byte, 0, len(v.u.Host())+1+len(v.u.Port())), v.u))
}

// SearchWords returns the "+"-separated search words of the 1993
// draft's "http://host/path?search", decoded, or nil: without a query,
// with an empty one, or with a query holding "=" or "&", which is not a
// search but a form's name=value pairs.
//
// The 1993 draft: "http://host/path?search", the search words separated
// by "+" (search = xalphas [ "+" search ]). A query with "=" or "&" is a
// form's, not a search (as Perl's URI query_keywords reads it): no
// words. They are split when asked for, not when the view is made: a
// query of n "+" holds n+1 words, 16 bytes each, that a check or a plan
// never reads.
func (v HTTP) SearchWords() []string {
	if !httpjson.IsSearch(v.u.Query()) {
		return nil
	}
	return v.u.SearchKeywords()
}

// Warnings implements View.
func (v HTTP) Warnings() []Warning { return v.warnings }

// Plan returns the request line and Host header of a GET (RFC 9112
// 3), with the absolute form when o.Proxy is set. The request-target is
// sent as written, never decoded, so no escape can break the line; a
// host whose decoded name holds a CR, LF or NUL is refused. The zone
// identifier of an IPv6 literal stays in Plan.Host, where the client
// connects, and is removed from what it sends (RFC 6874 section 4).
func (v HTTP) Plan(o PlanOptions) (Plan, error) {
	if err := refuseHost(v.u); err != nil {
		return Plan{}, err
	}
	// Built at its size: a long URL is copied once, the absolute form
	// (AbsoluteForm) written in place.
	hostHeader := len(v.u.Host()) + 1 + len(v.u.Port())
	size := len("GET  HTTP/1.1\r\nHost: \r\n") + len(v.target) + hostHeader
	if o.Proxy {
		size += len(v.scheme) + len("://") + hostHeader
	}
	req := make([]byte, 0, size)
	req = append(req, "GET "...)
	if o.Proxy {
		req = append(req, v.scheme...)
		req = append(req, "://"...)
		req = appendHostHeader(req, v.u)
	}
	req = append(req, v.target...)
	req = append(req, " HTTP/1.1\r\nHost: "...)
	req = appendHostHeader(req, v.u)
	req = append(req, "\r\n"...)
	return Plan{Scheme: v.scheme, Host: v.end.host, Port: v.end.connectPort(), Request: req}, nil
}

// MarshalJSON writes the "scheme_data" object of `uri parse --json`
// (appendHTTPJSON: the one writer of it, which AppendJSON calls too).
func (v HTTP) MarshalJSON() ([]byte, error) { return appendHTTPJSON(nil, v.u, nil) }

// appendHTTPJSON writes HTTP.MarshalJSON without the HTTP value,
// straight from u's components (the parts of a valid URI
// need no JSON escaping; decoded ones go through appendJSONString).
// With flush (AppendJSONFlush), a long URL's parts are written a block
// at a time and flushed: the target comes twice, and a repaired URL can
// be three times its input (issue 26).
func appendHTTPJSON(b []byte, u uri.URI, flush func([]byte) []byte) ([]byte, error) {
	// Each accessor of u is read once.
	s, sch, h, kind := u.String(), u.Scheme(), u.Host(), u.HostKind()
	path, query, hasQuery := u.Path(), u.Query(), u.HasQuery()
	hasUserinfo, hasFragment, hasPortText := u.HasUserinfo(), u.HasFragment(), u.HasPort()
	if kind == uri.RegName && !hasUserinfo && !hasPortText && !hasFragment && len(s) <= jsonstr.FlushSize {
		// Most URLs: a host name, no port, no warning.
		if v, ok := httpjson.AppendName(b, s, sch, h, path, query, hasQuery); ok {
			return v, nil
		}
	}
	port, hasPort, portText := 0, false, ""
	if hasPortText {
		portText = u.Port()
		port, hasPort = u.PortNumber()
	}
	escaped := strings.IndexByte(h, '%') >= 0
	if kind == uri.NoHost || h == "" || !hasPort && portText != "" || escaped {
		if err := needHost(u, "http", "https"); err != nil {
			return b, err
		}
	}
	def, defText, noPort := ports.http, httpjson.HTTPDefault, httpjson.HTTPNoPort
	if len(sch) == 5 {
		def, defText, noPort = ports.https, httpjson.HTTPSDefault, httpjson.HTTPSNoPort
	}
	long := flush != nil && len(s) > jsonstr.FlushSize
	search := httpjson.IsSearch(query)
	if !long {
		// One growth for the whole object: the host comes three
		// times, the request target twice and the search words once
		// more, so a long URL would otherwise copy b (the caller's
		// whole line, for uri parse --json) at every doubling.
		n := 3*len(s) + 200
		if search {
			n += 3 * strings.Count(query, "+")
		}
		b = jsonstr.Grow(b, n)
	}
	// (The constants are cut to 16 bytes at most where that spares a
	// call: the compiler copies those inline.)
	switch {
	case escaped:
		b = append(b, `{"host":`...)
		b = appendJSONString(b, decode(u.Hostname()))
	case kind == uri.IPv6 || kind == uri.IPvFuture:
		b = append(b, `{"host":"`...)
		b = append(b, h[1:len(h)-1]...) // without the brackets (Hostname)
		b = append(b, '"')
	default:
		b = append(b, `{"host":"`...)
		b = append(b, h...)
		b = append(b, '"')
	}
	if hasPort {
		b = append(b, `,"port":`...)
		b = strconv.AppendInt(b, int64(port), 10)
		b = append(b, defText...)
	} else {
		b = append(b, noPort...)
	}
	switch {
	case !long && !escaped && !hasUserinfo && !hasFragment && path != "" &&
		!(hasPortText && portText == "") && (sch == "http" || sch == "https"):
		// Most URLs: the text is the absolute form, its scheme in
		// lowercase, without userinfo and fragment, with a path; the
		// request target ends it, and the Host header is what comes
		// between "://" and the target (no zone identifier, no empty
		// port).
		b = httpjson.AppendAsIs(b, s, sch, path, query, hasQuery)
	case long:
		// Each part is written again, a block at a time (b is
		// flushed between them).
		b = appendTargetFlush(b, u, flush)
		b = append(b, `","absolute_form":"`...)
		b = appendLowerScheme(b, u)
		b = appendHostHeaderFlush(b, u, flush)
		b = appendTargetFlush(b, u, flush)
		b = append(b, `","host_header":"`...)
		b = appendHostHeaderFlush(b, u, flush)
	default:
		// Each part is made once and copied where it appears again.
		t0 := len(b)
		b = appendTarget(b, u)
		t1 := len(b)
		b = append(b, `","absolute_form":"`...)
		b = appendLowerScheme(b, u)
		h0 := len(b)
		b = appendHostHeader(b, u)
		h1 := len(b)
		b = append(b, b[t0:t1]...)
		b = append(b, `","host_header":"`...)
		b = append(b, b[h0:h1]...)
	}
	switch {
	case search:
		b = append(b, `","search_words":[`...)
		// SplitSeq, not Split: a query of n "+" holds n+1 words.
		i := 0
		for w := range strings.SplitSeq(query, "+") {
			if i > 0 {
				b = append(b, ',')
			}
			i++
			b = appendJSONString(b, decode(w))
			if long && len(b) > jsonstr.FlushSize {
				b = flush(b)
			}
		}
		b = append(b, ']')
	case !hasPort && !hasUserinfo: // no warning
		b = append(b, `","search_words"`...)
		b = append(b, `:null,"warnings"`...)
		return append(b, `:[]}`...), nil
	default:
		b = append(b, `","search_words":null`...)
	}
	b = append(b, `,"warnings":[`...)
	n := 0
	warn := func(w Warning) {
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(b, '"')
		b = append(b, w...)
		b = append(b, '"')
	}
	if hasPort && port != def {
		warn(WarnNondefaultPort)
		if port < 1024 {
			warn(WarnReservedPort)
		}
	}
	if _, ok := u.Password(); ok {
		warn(WarnPassword)
	}
	return append(b, "]}"...), nil
}

func appendTarget(b []byte, u uri.URI) []byte { return appendTargetFlush(b, u, nil) }

// appendLowerScheme appends "http://" or "https://" as u names it.
func appendLowerScheme(b []byte, u uri.URI) []byte {
	if len(u.Scheme()) == 5 { // "https" in any case
		return append(b, "https://"...)
	}
	return append(b, "http://"...)
}

// appendHostHeader appends the Host header value of u: its host
// without a zone identifier (RFC 6874 section 4), and its port.
func appendHostHeader(b []byte, u uri.URI) []byte {
	return appendHostHeaderFlush(b, u, nil)
}

// appendHostHeaderFlush is appendHostHeader writing a long host a block
// at a time, flushed between blocks (flush not nil).
func appendHostHeaderFlush(b []byte, u uri.URI, flush func([]byte) []byte) []byte {
	h := u.Host()
	if u.HostKind() == uri.IPv6 {
		if i := strings.Index(h, "%25"); i >= 0 {
			h = h[:i] + "]"
		}
	}
	b = appendFlush(b, h, flush)
	if u.HasPort() && u.Port() != "" {
		b = append(b, ':')
		b = appendFlush(b, u.Port(), flush)
	}
	return b
}

// appendTargetFlush is appendTarget writing a long path or query a
// block at a time, flushed between blocks.
func appendTargetFlush(b []byte, u uri.URI, flush func([]byte) []byte) []byte {
	if p := u.Path(); p == "" {
		b = append(b, '/')
	} else {
		b = appendFlush(b, p, flush)
	}
	if u.HasQuery() {
		b = append(b, '?')
		b = appendFlush(b, u.Query(), flush)
	}
	return b
}

// appendFlush appends s to b, and with flush, a block at a time,
// flushing b between blocks.
func appendFlush(b []byte, s string, flush func([]byte) []byte) []byte {
	for flush != nil && len(s) > jsonstr.FlushSize {
		b = flush(append(b, s[:jsonstr.FlushSize]...))
		s = s[jsonstr.FlushSize:]
	}
	return append(b, s...)
}
