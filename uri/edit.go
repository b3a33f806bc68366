package uri

import (
	"errors"
	"strings"

	"github.com/urikit/urikit/internal/chars"
)

// Editor changes the components of a URI reference and makes the
// result, valid by construction: start one with URI.Edit, change parts,
// and call URI. The zero Editor edits the empty reference, so it builds
// a URI from parts:
//
//	var e uri.Editor
//	u, err := e.SetScheme("https").SetHost("example.com").SetPath("/a b").URI()
//
// One convention says whether a component is there: a Set method
// defines it (an empty string gives an empty component: SetQuery("")
// writes "?"), Clear makes it undefined.
//
// The Set methods take decoded text and percent-encode what the
// component needs, so that no input can break the structure (a "/" in
// a segment, a "#" in a query, an "@" or ":" in a user name come out
// encoded and read back through the decoded accessors); SetRaw takes
// text as written and
// checks that it is valid in its component. Clear makes a component
// undefined, which is not the same as empty ("http://a/?" has an empty
// query, "http://a/" none). Components that are not changed keep their
// text byte for byte.
//
// When the parts would not read back as themselves, URI recomposes the
// reference the way RFC 3986 5.3 does and repairs what the grammar
// needs: a path after an authority gets a leading "/" (3.3); a path
// starting with "//" without an authority gets "/." in front (as in
// the note of 5.2.4), so that it cannot read as one; a relative path
// whose first segment holds a ":" gets "./" in front (4.2).
//
// Raw and decoded setters mix: SetUser keeps a password SetRawPassword
// gave, AppendSegment a path SetRaw gave. So URI checks every part an
// edit made against its component's grammar, whichever setter made it,
// and refuses a result whose components do not all read back as the
// editor holds them: no composition of edits moves text from one
// component to another (a user name "evil.example#" cannot become a
// host).
//
// The methods return the Editor, so calls chain. The first error (a
// bad scheme, host or port, or raw text that is not valid in its
// component) is kept, later calls do nothing, and URI returns it.
type Editor struct {
	orig  URI
	dirty bool // a part was set or cleared
	part  [numParts]string
	has   [numParts]bool
	// changed marks the parts whose text an edit made. URI checks each
	// against its component's grammar, whichever setter made it: a
	// decoded setter can keep text a raw one gave (SetUser keeps the
	// password, AppendSegment the path, SetParams any Params), so a flag
	// that only raw setters raise is lost by the next decoded one.
	changed [numParts]bool
	opts    Options
	err     error
}

// The parts of an Editor.
const (
	partScheme = iota
	partUserinfo
	partHost
	partPort
	partPath
	partQuery
	partFragment
	numParts
)

// partOf maps a Component to its part, or -1.
func partOf(c Component) int {
	switch c {
	case ComponentScheme:
		return partScheme
	case ComponentUserinfo:
		return partUserinfo
	case ComponentHost:
		return partHost
	case ComponentPort:
		return partPort
	case ComponentPath:
		return partPath
	case ComponentQuery:
		return partQuery
	case ComponentFragment:
		return partFragment
	}
	return -1
}

var componentOf = [numParts]Component{ComponentScheme, ComponentUserinfo, ComponentHost,
	ComponentPort, ComponentPath, ComponentQuery, ComponentFragment}

// Part names a component an Editor holds as text of its own, for
// SetRaw, Clear and Part: one of the seven components of a URI
// reference (RFC 3986 section 3) that the grammar gives text. It is a
// type of its own, not a Component, so that a component an Editor has
// no part for (the authority, which is userinfo, host and port; a
// URN's NID or NSS, which package urn parses) is refused by the
// compiler: e.Clear(uri.PartNID) does not build. The zero Part
// names none, and an Editor refuses it.
type Part uint8

// The parts of an Editor, in the order they are written.
const (
	PartScheme Part = iota + 1
	PartUserinfo
	PartHost
	PartPort
	PartPath
	PartQuery
	PartFragment
)

// index returns p's index in the Editor's arrays, or -1 for a value
// that names no part.
func (p Part) index() int {
	if p < PartScheme || p > PartFragment {
		return -1
	}
	return int(p - PartScheme)
}

// Component returns the component p names (ComponentHost for PartHost),
// or ComponentNone for a value that names no part.
func (p Part) Component() Component {
	if i := p.index(); i >= 0 {
		return componentOf[i]
	}
	return ComponentNone
}

// String returns the name of p's component ("host"), or "" for a value
// that names no part.
func (p Part) String() string { return p.Component().String() }

// ErrBuildComponent is the reason of an Editor's error about text given
// as written (SetRaw) that is not valid in its component, or about a
// Component that has no part of its own.
var ErrBuildComponent = errors.New("invalid component")

// Edit returns an Editor holding u's components, in u's grammar.
func (u URI) Edit() *Editor {
	e := new(Editor)
	e.Reset(u)
	return e
}

// Reset makes e an Editor of u, as u.Edit does, so that a loop can
// edit many URIs with one Editor.
func (e *Editor) Reset(u URI) {
	// Field by field: a whole Editor built and copied in cost uri edit
	// a tenth of its time.
	f := u.flags()
	host := u.Host()
	e.orig, e.dirty, e.err = u, false, nil
	e.opts = Options{Grammar: u.Grammar(), AllowZoneID: strings.IndexByte(host, '%') >= 0 && strings.Contains(host, "%25")}
	e.part[partScheme], e.has[partScheme] = u.Scheme(), f&hasScheme != 0
	e.part[partUserinfo], e.has[partUserinfo] = u.Userinfo(), f&hasUserinfo != 0
	e.part[partHost], e.has[partHost] = host, f&hasAuthority != 0
	e.part[partPort], e.has[partPort] = u.Port(), f&hasPort != 0
	e.part[partPath], e.has[partPath] = u.s[u.pathStart():u.pathEnd()], true
	e.part[partQuery], e.has[partQuery] = u.Query(), f&hasQuery != 0
	e.part[partFragment], e.has[partFragment] = u.Fragment(), f&hasFragment != 0
	e.changed = [numParts]bool{}
}

func (e *Editor) fail(c Component, value string, reason, cause error) *Editor {
	if e.err == nil {
		e.err = buildError(c, value, reason, cause)
	}
	return e
}

func (e *Editor) set(p int, s string) *Editor {
	if e.err == nil {
		e.dirty = true
		e.part[p], e.has[p], e.changed[p] = s, true, true
		if p == partUserinfo || p == partPort {
			e.has[partHost] = true // they need an authority
		}
	}
	return e
}

// SetScheme sets the scheme (RFC 3986 3.1: a letter, then letters,
// digits, "+", "-" or ".").
func (e *Editor) SetScheme(s string) *Editor {
	if !isScheme(s) {
		return e.fail(ComponentScheme, s, ErrBuildScheme, nil)
	}
	return e.set(partScheme, s)
}

// SetUserinfo sets the whole userinfo from decoded text; its first ":"
// stays the separator of user and password, other delimiters are
// encoded.
func (e *Editor) SetUserinfo(s string) *Editor {
	return e.set(partUserinfo, Escape(s, UserinfoSet))
}

// SetUser sets the user name (decoded; a ":" in it is encoded), keeping
// the password.
func (e *Editor) SetUser(s string) *Editor {
	v := Escape(s, userSet)
	if _, pw, ok := strings.Cut(e.part[partUserinfo], ":"); ok && e.has[partUserinfo] {
		v += ":" + pw
	}
	return e.set(partUserinfo, v)
}

// SetPassword sets the password (decoded), keeping the user name (an
// empty one when there was no userinfo).
func (e *Editor) SetPassword(s string) *Editor {
	user, _, _ := strings.Cut(e.part[partUserinfo], ":")
	if !e.has[partUserinfo] {
		user = ""
	}
	return e.set(partUserinfo, user+":"+Escape(s, UserinfoSet))
}

// SetRawUser sets the user name as written, keeping the password as it
// stands: URI fails when s is not valid userinfo or holds a ":" (which
// would start the password; write "%3A").
func (e *Editor) SetRawUser(s string) *Editor {
	if strings.IndexByte(s, ':') >= 0 {
		return e.fail(ComponentUserinfo, s, ErrBuildComponent, fail(s, strings.IndexByte(s, ':'), ComponentUserinfo, ErrInvalidCharacter))
	}
	v := s
	if _, pw, ok := strings.Cut(e.part[partUserinfo], ":"); ok && e.has[partUserinfo] {
		v += ":" + pw
	}
	return e.SetRaw(PartUserinfo, v)
}

// SetRawPassword sets the password as written, keeping the user name
// (an empty one when there was no userinfo): URI fails when s is not
// valid userinfo.
func (e *Editor) SetRawPassword(s string) *Editor {
	user, _, _ := strings.Cut(e.part[partUserinfo], ":")
	if !e.has[partUserinfo] {
		user = ""
	}
	return e.SetRaw(PartUserinfo, user+":"+s)
}

// ClearPassword removes the password and its ":", keeping the user name.
func (e *Editor) ClearPassword() *Editor {
	if e.has[partUserinfo] {
		user, _, _ := strings.Cut(e.part[partUserinfo], ":")
		e.set(partUserinfo, user)
	}
	return e
}

// SetHost sets the host from decoded text: an IPv6 address with or
// without brackets (a zone "%en0" is written "%25en0" as RFC 6874
// says), a bracketed IPvFuture literal, an IPv4 address, or a name,
// percent-encoded as a reg-name (a non-ASCII name as its UTF-8 octets,
// RFC 3986 3.2.2; iri.HostToASCII gives the IDNA form DNS needs).
// SetHost("") gives an empty authority, as in "file:///etc".
func (e *Editor) SetHost(h string) *Editor {
	if e.err != nil {
		return e
	}
	v, zone, err := buildHost(h)
	if err != nil {
		return e.fail(ComponentHost, h, ErrBuildHost, err)
	}
	if zone {
		e.opts.AllowZoneID = true
	}
	return e.set(partHost, v)
}

// SetPort sets the port, decimal digits; "" removes it (the port is
// then undefined, and the scheme's default applies). Any digits are a
// port here, "99999" too, as Parse reads them: RFC 3986 3.2.3 gives
// port = *DIGIT and leaves the rest to the scheme, and the Editor, like
// Parse, knows no scheme. A scheme may allow fewer: no TCP port is above
// 65535 (RFC 9293 3.1), so an http URL cannot name one; package
// scheme's Check applies such rules to the result, as uri edit does, and
// the command gives such a result the verdict uri check gives it.
func (e *Editor) SetPort(port string) *Editor {
	if port == "" {
		return e.Clear(PartPort)
	}
	for i := 0; i < len(port); i++ {
		if !chars.Is(port[i], chars.Digit) {
			return e.fail(ComponentPort, port, ErrBuildPort, nil)
		}
	}
	return e.set(partPort, port)
}

// SetPath sets the path from decoded text, "/" separating segments.
func (e *Editor) SetPath(s string) *Editor { return e.set(partPath, Escape(s, PathSet)) }

// AppendSegment adds one segment (decoded; a "/" in it is encoded) at
// the end of the path: after its last "/", or after a new one.
func (e *Editor) AppendSegment(seg string) *Editor {
	p := e.part[partPath]
	if p != "" && !strings.HasSuffix(p, "/") || p == "" && e.has[partHost] {
		p += "/"
	}
	return e.set(partPath, p+Escape(seg, SegmentSet))
}

// SetQuery sets the query from decoded text ("" makes it empty, not
// undefined; see Clear).
func (e *Editor) SetQuery(s string) *Editor { return e.set(partQuery, Escape(s, QuerySet)) }

// SetParams sets the query to p's text. A Params without any text
// removes the query, so that dropping every pair drops the "?" too;
// when p's text is the query's, nothing changes. The text is checked as
// SetRaw's is (a Params from ParseParams holds any text): URI fails
// when it is not a valid query.
func (e *Editor) SetParams(p Params) *Editor {
	if e.err != nil || p.raw == e.part[partQuery] && (e.has[partQuery] || p.raw == "") {
		return e
	}
	if p.raw == "" {
		return e.Clear(PartQuery)
	}
	return e.set(partQuery, p.raw)
}

// Part returns part p as it stands in the editor, as written, and
// whether it is defined (the host is defined when there is an
// authority). It returns "" and false for a value that names no part.
func (e *Editor) Part(p Part) (string, bool) {
	i := p.index()
	if i < 0 {
		return "", false
	}
	return e.part[i], e.has[i]
}

// Params returns the key=value view of the query as it stands.
func (e *Editor) Params() Params { return Params{raw: e.part[partQuery]} }

// SetFragment sets the fragment from decoded text.
func (e *Editor) SetFragment(s string) *Editor { return e.set(partFragment, Escape(s, FragmentSet)) }

// SetRaw sets part p to s as written. URI fails when s is not valid
// there, with a *ParseError under the *BuildError giving the offset in
// s.
func (e *Editor) SetRaw(pt Part, s string) *Editor {
	p := pt.index()
	if p < 0 {
		return e.fail(ComponentNone, s, ErrBuildComponent, nil)
	}
	if p == partHost && strings.HasPrefix(s, "[") && strings.Contains(s, "%25") {
		e.opts.AllowZoneID = true
	}
	// An empty port is valid (RFC 3986 3.2.3) and kept as written.
	return e.set(p, s)
}

// Clear makes part p undefined. Clearing the host removes the whole
// authority (userinfo, host and port); clearing the path makes it
// empty (a path is always defined).
func (e *Editor) Clear(pt Part) *Editor {
	p := pt.index()
	if p < 0 {
		return e.fail(ComponentNone, "", ErrBuildComponent, nil)
	}
	if e.err != nil {
		return e
	}
	e.dirty = true
	e.part[p], e.has[p], e.changed[p] = "", p == partPath, false
	if p == partHost {
		for _, q := range []int{partUserinfo, partPort} {
			e.part[q], e.has[q], e.changed[q] = "", false, false
		}
	}
	return e
}

// URI returns the edited reference, or the first error of the edits: a
// *BuildError naming the component at fault.
func (e *Editor) URI() (URI, error) {
	if e.err != nil {
		return URI{}, e.err
	}
	if !e.dirty {
		return e.orig, nil
	}
	// Every part an edit made is checked against its component's grammar
	// before the parts are joined: "evil.example#" as a user name would
	// otherwise end the authority and forge the host.
	for p := range numParts {
		if e.changed[p] {
			if err := checkRaw(p, e.part[p], e.opts.AllowZoneID); err != nil {
				return URI{}, buildError(componentOf[p], e.part[p], ErrBuildComponent, err)
			}
		}
	}
	auth := e.has[partHost]
	path := e.part[partPath]
	repair := ""
	switch {
	case auth && path != "" && path[0] != '/':
		repair = "/"
	case !auth && strings.HasPrefix(path, "//"):
		repair = "/."
	case !auth && !e.has[partScheme]:
		first, _, _ := strings.Cut(path, "/")
		if strings.IndexByte(first, ':') >= 0 {
			repair = "./"
		}
	}
	var b strings.Builder
	n := len(repair) + 6
	for p := range numParts {
		n += len(e.part[p])
	}
	b.Grow(n)
	var start [numParts]int
	if e.has[partScheme] {
		b.WriteString(e.part[partScheme])
		b.WriteByte(':')
	}
	if auth {
		b.WriteString("//")
		start[partUserinfo] = b.Len()
		if e.has[partUserinfo] {
			b.WriteString(e.part[partUserinfo])
			b.WriteByte('@')
		}
		start[partHost] = b.Len()
		b.WriteString(e.part[partHost])
		if e.has[partPort] {
			b.WriteByte(':')
			start[partPort] = b.Len()
			b.WriteString(e.part[partPort])
		}
	}
	b.WriteString(repair)
	start[partPath] = b.Len()
	b.WriteString(path)
	if e.has[partQuery] {
		b.WriteByte('?')
		start[partQuery] = b.Len()
		b.WriteString(e.part[partQuery])
	}
	if e.has[partFragment] {
		b.WriteByte('#')
		start[partFragment] = b.Len()
		b.WriteString(e.part[partFragment])
	}
	s := b.String()
	u, err := ParseWith(s, e.opts)
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) {
			return URI{}, err
		}
		// Blame the part that holds the offending byte, whatever
		// component the parser thought it was in.
		p := partOf(pe.Component)
		if p < 0 {
			p = partPath
		}
		for q := range numParts {
			if e.has[q] && start[q] <= pe.Offset && pe.Offset < start[q]+len(e.part[q]) {
				p = q
				break
			}
		}
		off := min(max(pe.Offset-start[p], 0), len(e.part[p]))
		return URI{}, buildError(componentOf[p], e.part[p], ErrBuildComponent,
			fail(e.part[p], off, componentOf[p], pe.Reason))
	}
	// Every part must read back as itself, defined or not, so that no
	// composition of edits can move text from one component to another.
	gotPath, repaired := strings.CutPrefix(u.Path(), repair)
	got := [numParts]string{u.Scheme(), u.Userinfo(), u.Host(), u.Port(), gotPath, u.Query(), u.Fragment()}
	gotHas := [numParts]bool{u.HasScheme(), u.HasUserinfo(), u.HasAuthority(), u.HasPort(), true, u.HasQuery(), u.HasFragment()}
	for p := range numParts {
		// A path is always defined (the zero Editor's too).
		if gotHas[p] != (e.has[p] || p == partPath) || got[p] != e.part[p] || p == partPath && !repaired {
			n := 0
			for n < len(got[p]) && n < len(e.part[p]) && got[p][n] == e.part[p][n] {
				n++
			}
			return URI{}, buildError(componentOf[p], e.part[p], ErrBuildComponent,
				fail(e.part[p], n, componentOf[p], ErrInvalidCharacter))
		}
	}
	return u, nil
}

// rawClass is the characters each part may hold as written, besides
// percent-encoded octets (RFC 3986 Appendix A).
var rawClass = [numParts]chars.Class{
	partScheme:   chars.Scheme,
	partUserinfo: chars.UserInfo,
	partHost:     chars.RegName,
	partPort:     chars.Digit,
	partPath:     chars.PChar,
	partQuery:    chars.QueryFrag,
	partFragment: chars.QueryFrag,
}

// checkRaw checks text given as written for part p, and returns a
// *ParseError with the offset in s of the first byte that cannot be
// there.
func checkRaw(p int, s string, zoneID bool) error {
	c := componentOf[p]
	switch {
	case p == partScheme && (s == "" || !chars.Is(s[0], chars.Alpha)):
		return fail(s, 0, c, ErrInvalidCharacter)
	case p == partHost && strings.HasPrefix(s, "["):
		j, _, err := parseIPLiteral(s, 0, zoneID)
		if err != nil {
			return err
		}
		if j != len(s) {
			return fail(s, j, c, ErrInvalidCharacter)
		}
		return nil
	}
	pct := p != partScheme && p != partPort
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case chars.Is(b, rawClass[p]), b == '/' && p == partPath:
		case b == '%' && pct:
			for k := 1; k <= 2; k++ {
				if i+k >= len(s) || unhex(s[i+k]) >= 16 {
					return fail(s, i+k, c, ErrInvalidPercent)
				}
			}
			i += 2
		default:
			return fail(s, i, c, ErrInvalidCharacter)
		}
	}
	return nil
}
