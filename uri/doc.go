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
//     forms; query; fragment. Accessors return each component as written
//     (Scheme, Userinfo, Host, Port, Path, Segments, Query, Fragment) or
//     decoded (DecodedPath, ...; section 2.1).
//   - Resolve, Relativize: reference resolution of RFC 3986 section 5.2
//     (strict: a reference with a scheme is absolute), and its inverse.
//     Resolve2396 and Relativize2396 follow the 1998 draft's section 5.2,
//     with its three policies for excess ".." segments (DotPolicy).
//   - Normalize, Equal, Key: the comparison ladder of RFC 3986 section
//     6.2.2 (case, percent-encoding, dot segments) and 6.2.3 (default
//     ports, DefaultPort).
//   - Escape, Unescape, NormalizeEscapes: percent-encoding per component
//     (section 2.1, 2.4), with the component sets UserinfoSet, PathSet,
//     QuerySet, ... or NewSet.
//   - QueryParams: the key=value view of a query in order, raw and
//     decoded, and its edits (Add, Set, Del, Trim and Keep by shell
//     glob, Sort) that keep untouched pairs byte for byte. Builder: a
//     URI from decoded parts. URI.Edit: an Editor that changes the
//     components of a URI (decoded or as written), every result valid
//     by construction (RFC 3986 5.3). User and Password split the
//     userinfo. FromURL and URL convert to and from net/url.
//   - Scheme and Registry: what a scheme adds to the generic syntax
//     (default port, equivalence, validation, a typed view);
//     DefaultRegistry holds the equivalence rules Equal applies.
//
// # Modes
//
// ParseWith takes a Mode. RFC3986 (the default, what Parse uses) is strict
// RFC 3986. AllowZoneID adds the IPv6 zone identifiers of RFC 6874
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
package uri
