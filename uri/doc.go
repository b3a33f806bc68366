// Package uri parses, resolves, normalizes and compares URI references
// exactly as the generic syntax says: RFC 3986 (STD 66), and the grammar
// of the 1998 draft that became RFC 2396 as a mode.
//
// Parse turns a string into a URI, a small immutable value that keeps the
// input and the offsets of its components. Reading a component slices the
// input; parsing allocates nothing, and String gives back the input byte
// for byte. Undefined and empty components stay distinct: "foo://a/b?#"
// has an empty query and an empty fragment, "foo://a/b" has neither
// (HasQuery, HasFragment).
//
//	u, err := uri.Parse("foo://example.com:8042/over/there?name=ferret#nose")
//	if err != nil {
//		return err // a *uri.ParseError with the offset of the first bad byte
//	}
//	fmt.Println(u.Scheme(), u.Host(), u.Port(), u.Path(), u.Query(), u.Fragment())
//
// # What is implemented
//
//   - Parse: the complete grammar of RFC 3986 Appendix A (sections 3
//     and 4.1-4.3): scheme; authority with userinfo, host (IP-literal with
//     every IPv6address text form and IPvFuture, IPv4address with its
//     dec-octet rules, reg-name; see HostKind) and port; the five path
//     forms; query; fragment.
//   - Accessors, under one naming rule: X returns the component as
//     written (Scheme, Userinfo, Host, Port, Path, Query, Fragment, and
//     HostPort, the authority without its userinfo), DecodedX returns it
//     percent-decoded (DecodedPath, DecodedQuery, DecodedFragment,
//     DecodedHost, DecodedUserinfo; section 2.1), HasX says whether it is
//     defined at all (an empty query is not an absent one). Hostname,
//     Addr, User, Password, PortNumber and Segments read inside a
//     component; Redacted hides a password.
//   - Resolve, Relativize: reference resolution of RFC 3986 section 5.2
//     (strict: a reference with a scheme is absolute), and its inverse.
//     Resolve2396 and Relativize2396 follow the 1998 draft's section 5.2,
//     with its three policies for excess ".." segments (DotPolicy).
//     A Resolver resolves the many references of one base with the
//     base's work done once, into a caller's buffer (AppendResolve)
//     without allocating.
//   - Normalize, Equal, Key: the comparison ladder of RFC 3986 section
//     6.2.2 (case, percent-encoding, dot segments) and 6.2.3 (default
//     ports, DefaultPort), with the rules of each scheme (Registry).
//   - Escape, Unescape, NormalizeEscapes: percent-encoding per component
//     (section 2.1, 2.4), with the component sets UserinfoSet, PathSet,
//     QuerySet, ... or NewSet.
//   - QueryParams: the key=value view of a query in order, decoded as
//     forms decode it, and its edits (Add, Set, Replace, Del, Trim and
//     Keep by shell glob, Sort), which change it in place like url.Values
//     and keep untouched pairs byte for byte.
//   - Editor (URI.Edit, or the zero Editor to build from parts): set,
//     clear and append components, decoded or as written, every result
//     valid by construction (RFC 3986 5.3). FromURL and URL convert to
//     and from net/url.
//   - Scheme and Registry: what a scheme adds to the generic syntax
//     (default port, equivalence, validation, a typed view);
//     DefaultRegistry holds the equivalence rules Equal applies.
//
// # Modes
//
// ParseWith takes Options: a Grammar and AllowZoneID. RFC3986 (the
// default, what Parse uses) is strict RFC 3986. AllowZoneID adds the IPv6 zone identifiers of RFC 6874
// ("http://[fe80::1%25en0]/"), which RFC 3986 does not have. RFC2396 is the
// grammar of the 1998 draft's Appendix A: no IP literals ("[" and "]" are
// "unwise"), "scheme:" followed by any uric string, and an authority that
// is either a server (userinfo, hostname or IPv4address, port) or, when
// it is not one, a registry-based name kept whole as the host. In every
// mode the component split is that of the Appendix B regular expression
// ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))? .
//
// # Errors
//
// A failed parse returns a *ParseError with the input, the component and
// a reason (ErrInvalidCharacter, ErrInvalidPercent, ErrInvalidPort, ...,
// usable with errors.Is). Its Offset is exact: the length of the longest
// prefix of the input that is still the beginning of some valid URI
// reference. So "http://u@s@h/" fails at 10 (the second "@"), "#a#b" at 2,
// and "http://a:b/" at 10, not 9, because "http://a:b" could still have
// become "http://a:b@h". When the whole input is such a prefix (as "%4"
// is), Offset is its length and the reason ErrUnexpectedEnd. Time is
// linear in the input, and no input makes the package panic.
//
// ParseError is the one parse error of the module: package urn returns
// it too, with the same reasons (urn.ErrInvalidPercent is
// ErrInvalidPercent). What fails for valid input has its own type:
// *ResolveError (Resolve2396 under RejectDots, Relativize) and
// *BuildError (an Editor given a part that cannot be in a URI).
//
// # Coming from net/url
//
// A URI is an immutable value read with methods, not a struct of fields;
// it keeps the input byte for byte (String returns it) where url.URL
// re-serializes; and Parse is strict where url.Parse accepts almost
// anything. Each net/url call and its counterpart here:
//
//	net/url                          uri                                  difference, and why
//	url.Parse(s)                     Parse(s)                             strict RFC 3986; the error has the offset
//	url.ParseRequestURI(s)           Parse(s), then IsAbs or Path         one parser; the caller says what it needs
//	u.Scheme                         u.Scheme()                           as written: "HTTP" stays "HTTP" (Normalize lowercases)
//	u.Opaque                         u.Path() without HasAuthority        RFC 3986 has no opaque part
//	u.User.Username(), .Password()   u.User(), u.Password()               as written, with ok flags; DecodedUserinfo decodes
//	u.Host                           u.HostPort()                         Host() leaves the port out, as Hostname does
//	u.Hostname()                     u.Hostname(), u.DecodedHost()        Hostname() as written: "%e2%98%83" stays (net/url decodes it); DecodedHost decodes; Addr() for IP hosts
//	u.Port()                         u.Port(), u.PortNumber()             HasPort tells ":" with an empty port from none
//	u.Path, u.EscapedPath()          u.DecodedPath(), u.Path()            X is as written, DecodedX decoded: the raw form is the default
//	u.RawQuery, u.Query()            u.Query(), u.QueryParams()           Params keeps order and duplicates (a view, not a map)
//	u.Fragment, u.EscapedFragment()  u.DecodedFragment(), u.Fragment()    as for the path
//	u.ForceQuery, u.OmitHost         u.HasQuery(), u.HasAuthority()       undefined and empty are distinct for every component
//	u.IsAbs()                        u.IsAbs()                            IsAbsoluteURI is RFC 3986 4.3's (no fragment either)
//	u.ResolveReference(r)            u.Resolve(r)                         RFC 3986 5.2 exactly: "?y", "#s" and "" keep the base's path as written, dots too (5.2.2)
//	u.JoinPath(elem...)              u.Edit().AppendSegment(e).URI()      a "/" in an element is encoded, not a separator
//	u.JoinPath("..")                 AppendSegment("..")                  appended, not applied: "/a/b/.." (Normalize: "/a/"; JoinPath: "/a")
//	u.RequestURI()                   scheme's HTTP view, RequestTarget()  the request line is the http scheme's business
//	u.Redacted()                     u.Redacted()                         the same "xxxxx"
//	u.String()                       u.String()                           the input itself, never re-encoded
//	u.MarshalBinary()                u.MarshalText()                      text, as a URI is
//	&url.URL{...} literal            var e Editor; e.SetScheme(...)...    parts are encoded as their component needs
//	url.User, url.UserPassword       Editor.SetUser, SetPassword          ":" and "@" in a name are encoded
//	url.ParseQuery(s)                ParseParams(s)                       never fails: a bad "%" stays as written, ";" is data (net/url drops the pair)
//	v.Get, Set, Add, Del, Has        p.Get, Set, Add, Del, Has            the same in-place edits; Set keeps the pair's place
//	v.Encode()                       p.Encode()                           pairs in their order, untouched ones as written; ";" is "%3B" in both
//	url.PathEscape(s)                Escape(s, SegmentSet)                one function, a Set per component
//	url.QueryEscape(s)               Escape(s, QueryValueSet)             a space is "%20", never "+"
//	url.PathUnescape, QueryUnescape  Unescape; Param.Key and Value        "+" is a space only inside query pairs
//	*url.Error                       *ParseError                          Input, Offset, Component, Reason (errors.Is)
//	(none)                           Normalize, Equal, Key                RFC 3986 6.2 with each scheme's rules
//	url.URL <-> URI                  FromURL(u), u.URL()                  for code that must hand a *url.URL on
package uri
