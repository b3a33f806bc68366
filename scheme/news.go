package scheme

import (
	"strconv"
	"strings"

	"github.com/urikit/urikit/internal/chars"

	"github.com/urikit/urikit/uri"
)

// News is the view of a news URL (RFC 5538 2.1; RFC 1738 3.6; the 1994
// draft's grammar "news:" groupart, groupart = "*" | group | article):
// a newsgroup, every group ("*"), or an article by its message-id,
// which "may be distinguished from a news group name by the presence of
// the commercial at "@" character". RFC 5538 adds a server:
// "news://server/group".
type News struct {
	ref                        // the URL: String, Redacted and Format
	kind, group, msgID, server string
	hasServer                  bool
	end                        endpoint
	warnings                   []Warning
}

// The kinds of a news URL.
const (
	NewsGroup   = "group"
	NewsAll     = "all"
	NewsArticle = "article"
)

// ParseNews reads a news URL.
func ParseNews(u uri.URI) (News, error) {
	if err := checkScheme(u, "news", "snews"); err != nil {
		return News{}, err
	}
	def := ports.news
	if strings.EqualFold(u.Scheme(), "snews") {
		def = ports.snews
	}
	v := News{end: endpoint{port: -1, defPort: def}}
	p := u.Path()
	base := pathStart(u)
	if u.HasAuthority() {
		if err := checkHostPort(u); err != nil {
			return News{}, err
		}
		v.server, v.hasServer = decode(u.Hostname()), true
		v.end = endpointOf(u, def)
		v.warnings = v.end.portWarnings()
		if strings.HasPrefix(p, "/") {
			p, base = p[1:], base+1
		}
	}
	switch {
	case p == "*":
		v.kind = NewsAll
	case strings.Contains(p, "@") || strings.Contains(p, "%40"):
		v.kind, v.msgID = NewsArticle, decode(strings.TrimSuffix(strings.TrimPrefix(p, "<"), ">"))
	case p == "":
		if !v.hasServer {
			return News{}, fail(u, base, uri.ComponentPath, ErrSchemeSyntax)
		}
		v.kind = NewsAll // RFC 5538 2.1: an empty path lists the groups
	default:
		if strings.ContainsAny(p, "/?") {
			return News{}, fail(u, base+strings.IndexAny(p, "/?"), uri.ComponentPath, ErrSchemeSyntax)
		}
		v.kind, v.group = NewsGroup, decode(p)
	}
	v.ref = ref{u}
	return v, nil
}

// Kind returns NewsGroup, NewsAll or NewsArticle.
func (v News) Kind() string { return v.kind }

// Newsgroup returns the group name of a group URL.
func (v News) Newsgroup() string { return v.group }

// MessageID returns the message-id of an article URL, without "<>".
func (v News) MessageID() string { return v.msgID }

// Server returns the news server, and whether the URL names one.
func (v News) Server() (string, bool) { return v.server, v.hasServer }

// Host returns the server, decoded, or "" (Endpoint).
func (v News) Host() string { return v.end.host }

// Port returns the port the URL names, or -1.
func (v News) Port() int { return v.end.port }

// DefaultPort returns 119 for news, 563 for snews (RFC 5538 2.1).
func (v News) DefaultPort() int { return v.end.defPort }

// ConnectPort returns the port a client connects to (Endpoint).
func (v News) ConnectPort() int { return v.end.connectPort() }

// Warnings implements View.
func (v News) Warnings() []Warning { return v.warnings }

// MarshalJSON writes the "scheme_data" object of `uri parse --json`.
func (v News) MarshalJSON() ([]byte, error) {
	return done(newObj().Str("kind", v.kind).Opt("newsgroup", v.group, v.kind == NewsGroup).
		Opt("message_id", v.msgID, v.kind == NewsArticle).Opt("server", v.server, v.hasServer).
		Strs("warnings", codes(v.warnings)))
}

// NNTP is the view of an nntp URL (RFC 5538 2.2; RFC 1738 3.7):
// "nntp://server:port/group/article-number", or the 1994 draft's form
// without a server, "nntp:" group "/" digits.
type NNTP struct {
	ref       // the URL: String, Redacted and Format
	end       endpoint
	hasServer bool
	group     string
	rawGroup  string
	groupOff  int
	article   int
	warnings  []Warning
}

// ParseNNTP reads an nntp URL.
func ParseNNTP(u uri.URI) (NNTP, error) {
	if err := checkScheme(u, "nntp"); err != nil {
		return NNTP{}, err
	}
	v := NNTP{ref: ref{u}, article: -1}
	p := u.Path()
	base := pathStart(u)
	if u.HasAuthority() {
		if err := checkHostPort(u); err != nil {
			return NNTP{}, err
		}
		v.end, v.hasServer = endpointOf(u, ports.nntp), true
		v.warnings = v.end.portWarnings()
		if strings.HasPrefix(p, "/") {
			p, base = p[1:], base+1
		}
	} else {
		v.end = endpoint{port: -1, defPort: ports.nntp}
	}
	group, num, hasNum := strings.Cut(p, "/")
	if group == "" {
		return NNTP{}, fail(u, base, uri.ComponentPath, ErrSchemeSyntax)
	}
	v.group, v.rawGroup, v.groupOff = decode(group), group, base
	if hasNum {
		n, err := strconv.Atoi(num)
		if err != nil || n < 0 || strings.ContainsAny(num, "+-") {
			return NNTP{}, fail(u, base+len(group)+1, uri.ComponentPath, ErrSchemeSyntax)
		}
		v.article = n
	} else if !v.hasServer {
		// The 1994 grammar: nntp: group "/" digits.
		return NNTP{}, fail(u, base+len(p), uri.ComponentPath, ErrSchemeSyntax)
	}
	if u.HasQuery() || u.HasFragment() {
		// RFC 5538 2.2 has neither: GROUP and ARTICLE carry none of
		// it, and a client that drops it says so.
		v.warnings = append(v.warnings, WarnIgnoredPart)
	}
	return v, nil
}

// Host returns the server, decoded ("" for the 1994 form without one).
func (v NNTP) Host() string { return v.end.host }

// Port returns the port the URL names, or -1.
func (v NNTP) Port() int { return v.end.port }

// DefaultPort returns 119 (RFC 5538 2.2), the registry's.
func (v NNTP) DefaultPort() int { return v.end.defPort }

// ConnectPort returns the port a client connects to (Endpoint).
func (v NNTP) ConnectPort() int { return v.end.connectPort() }

// Newsgroup returns the group, decoded.
func (v NNTP) Newsgroup() string { return v.group }

// Article returns the article number, or -1.
func (v NNTP) Article() int { return v.article }

// Warnings implements View.
func (v NNTP) Warnings() []Warning { return v.warnings }

// Plan returns the NNTP commands of RFC 3977 a client sends: GROUP, and
// ARTICLE with the number when there is one. The group name is decoded
// and must be a newsgroup-name of RFC 3977 9.8 (1*wildmat-exact: no
// space, no control, none of ! * , ? [ \ ]), or the plan is refused: a
// space would make two arguments, a CR or LF another command (RFC 1738
// section 6). A URL without a server (the 1994 form "nntp:group/1") has
// nowhere to connect and is refused too (RFC 5538 2.2). A query or a
// fragment is not sent: the view warns of it (WarnIgnoredPart).
func (v NNTP) Plan(PlanOptions) (Plan, error) {
	if !v.hasServer {
		return Plan{}, &RefusedError{URL: v.u.String(), Offset: len(v.u.Scheme()) + 1,
			Reason: "no server to connect to (RFC 5538 2.2: nntp://server/group/number)"}
	}
	if err := refuseHost(v.u); err != nil {
		return Plan{}, err
	}
	if off, what := controlIn(v.rawGroup); off >= 0 {
		return Plan{}, refuse(v.u, v.groupOff, off, what, "newsgroup")
	}
	if off := badGroupByte(v.rawGroup); off >= 0 {
		return Plan{}, &RefusedError{URL: v.u.String(), Offset: v.groupOff + off,
			Reason: "the newsgroup is not a newsgroup-name of RFC 3977 9.8 (no space, control, or ! * , ? [ \\ ])"}
	}
	var cmds string
	if v.article >= 0 {
		cmds = "GROUP " + v.group + "\nARTICLE " + strconv.Itoa(v.article) + "\n"
	} else {
		cmds = "GROUP " + v.group + "\n"
	}
	return Plan{Scheme: "nntp", Host: v.end.host, Port: v.end.connectPort(), commands: cmds}, nil
}

// badGroupByte returns the offset in raw (a group as written in the
// URL) of the first octet that, decoded, is not a wildmat-exact of RFC
// 3977 9.8 ("%x22-29 / %x2B / %x2D-3E / %x40-5A / %x5E-7E /
// UTF8-non-ascii"), or -1.
func badGroupByte(raw string) int {
	for i := 0; i < len(raw); i++ {
		c, at := raw[i], i
		if c == '%' && i+2 < len(raw) {
			c, i = unhex(raw[i+1])<<4|unhex(raw[i+2]), i+2
		}
		if c < 0x80 && !wildmatExact(c) {
			return at
		}
	}
	// The UTF-8 check on the decoded octets; an offset into the raw part
	// is computed only for an error.
	d := decodeWithOffsets(raw)
	if i := invalidUTF8(d.b); i >= 0 {
		return d.rawAt(i)
	}
	return -1
}

// wildmatExact reports whether the ASCII octet c is a wildmat-exact.
func wildmatExact(c byte) bool {
	return 0x22 <= c && c <= 0x29 || c == 0x2b || 0x2d <= c && c <= 0x3e ||
		0x40 <= c && c <= 0x5a || 0x5e <= c && c <= 0x7e
}

// unhex returns the value of the hexadecimal digit c (0 for a byte
// that is none: callers check first).
func unhex(c byte) byte { return byte(max(chars.Unhex(c), 0)) }

// MarshalJSON writes the "scheme_data" object of `uri parse --json`.
func (v NNTP) MarshalJSON() ([]byte, error) {
	return done(newObj().Opt("host", v.end.host, v.hasServer).Int("port", v.end.port).Int("default_port", v.end.defPort).
		Str("newsgroup", v.group).Int("article", v.article).Strs("warnings", codes(v.warnings)))
}
