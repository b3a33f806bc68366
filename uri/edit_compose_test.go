package uri_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"strings"
	"testing"

	"github.com/urikit/urikit/uri"
)

// The composition property of the Editor: whatever setters run, in
// whatever order, URI either fails or gives a reference whose every
// component reads back as the setters left it (a raw value byte for
// byte, a decoded one through Unescape), which uri.Parse reads with the
// same components (the same host above all), and it never panics. Each
// step is checked on the editor's parts (Editor.Part): the setter's own
// component as it says, every other one unchanged. At the end, URI must
// succeed exactly when every part is valid in its component's grammar
// (RFC 3986 Appendix A), and an error must name the first invalid part
// and the offset of its first invalid byte.

// The components of an editor, in the order of a reference.
const (
	cScheme = iota
	cUserinfo
	cHost
	cPort
	cPath
	cQuery
	cFragment
	numComps
)

var composeComps = [numComps]uri.Part{uri.PartScheme, uri.PartUserinfo, uri.PartHost,
	uri.PartPort, uri.PartPath, uri.PartQuery, uri.PartFragment}

// editParts is what the editor holds: the text of each component and
// whether it is defined.
type editParts struct {
	text [numComps]string
	has  [numComps]bool
}

func partsOf(e *uri.Editor) editParts {
	var p editParts
	for i, c := range composeComps {
		p.text[i], p.has[i] = e.Part(c)
	}
	p.has[cPath] = true // a path is always there, empty or not
	return p
}

// composeOp is one setter. apply runs it with the value v (and the key
// k of the Params operations); want says what it must leave, given the
// parts before and after, or an empty string when it did.
type composeOp struct {
	name  string
	apply func(e *uri.Editor, v, k string)
	// refuses reports whether the setter refuses v itself: the Editor
	// keeps that error, and later setters do nothing. mayRefuse, when
	// set, says that it may refuse v so or take it.
	refuses   func(v string) (uri.Component, error)
	mayRefuse func(v string) bool
	want      func(before, after editParts, v, k string) string
}

// The grammar of RFC 3986 Appendix A, written for the test from the
// ABNF: the characters each component holds besides pct-encoded.
const (
	abnfUnreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
	abnfSubDelims  = "!$&'()*+,;="
	abnfUserinfo   = abnfUnreserved + abnfSubDelims + ":"         // 3.2.1
	abnfRegName    = abnfUnreserved + abnfSubDelims               // 3.2.2
	abnfPath       = abnfUnreserved + abnfSubDelims + ":@" + "/"  // 3.3 (segments and "/")
	abnfQueryFrag  = abnfUnreserved + abnfSubDelims + ":@" + "/?" // 3.4, 3.5
)

func isHex(b byte) bool { return strings.IndexByte("0123456789ABCDEFabcdef", b) >= 0 }

// validPrefix returns the length of the longest prefix of s made of
// bytes of class and pct-encoded triplets.
func validPrefix(s, class string) int { return prefixOf(s, class, true) }

// prefixOf returns the length of the longest prefix of s made of bytes
// of class, and of pct-encoded triplets when pct is set.
func prefixOf(s, class string, pct bool) int {
	for i := 0; i < len(s); {
		switch {
		case strings.IndexByte(class, s[i]) >= 0:
			i++
		case pct && s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			i += 3
		default:
			return i
		}
	}
	return len(s)
}

// schemeValid: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) (3.1).
func schemeValid(s string) int {
	if s == "" || !strings.ContainsRune(abnfUnreserved[:52], rune(s[0])) {
		return 0
	}
	return 1 + prefixOf(s[1:], abnfUnreserved[:62]+"+-.", false)
}

// portValid: port = *DIGIT (3.2.3).
func portValid(s string) int { return prefixOf(s, "0123456789", false) }

// portBeyond reports whether s is digits beyond 65535, the largest TCP
// port: RFC 3986 3.2.3 leaves the range to the scheme, and the library
// may refuse such a port (issue 26 asks for one verdict) or keep it.
func portBeyond(s string) bool {
	s = strings.TrimLeft(s, "0")
	return portValid(s) == len(s) && (len(s) > 5 || len(s) == 5 && s > "65535")
}

// ipLiteralValid: IP-literal = "[" ( IPv6address / IPvFuture ) "]"
// (3.2.2), with an RFC 6874 zone ("%25" 1*( unreserved / pct-encoded )).
func ipLiteralValid(s string) bool {
	inner, ok := strings.CutPrefix(s, "[")
	if inner, ok = strings.CutSuffix(inner, "]"); !ok {
		return false
	}
	if len(inner) > 0 && (inner[0] == 'v' || inner[0] == 'V') {
		// IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
		hex, rest, ok := strings.Cut(inner[1:], ".")
		return ok && hex != "" && prefixOf(hex, "0123456789ABCDEFabcdef", false) == len(hex) &&
			rest != "" && prefixOf(rest, abnfUserinfo, false) == len(rest)
	}
	addr, zone, hasZone := strings.Cut(inner, "%25")
	if hasZone && (zone == "" || validPrefix(zone, abnfUnreserved) != len(zone)) {
		return false
	}
	a, err := netip.ParseAddr(addr)
	return err == nil && a.Is6() && a.Zone() == ""
}

// firstInvalid returns the first defined part, in the order of a
// reference, that is not valid in its component, and the length of its
// longest valid prefix (-1 for an IP literal); ok is false when every
// part is valid.
func firstInvalid(p editParts) (comp, valid int, ok bool) {
	for c := range numComps {
		s := p.text[c]
		if !p.has[c] {
			continue
		}
		n := len(s)
		switch c {
		case cScheme:
			if n = schemeValid(s); s == "" {
				n = -1 // defined and empty: no byte to point at
			}
		case cUserinfo:
			n = validPrefix(s, abnfUserinfo)
		case cHost:
			if strings.HasPrefix(s, "[") {
				if !ipLiteralValid(s) {
					return c, -1, true
				}
			} else {
				n = validPrefix(s, abnfRegName)
			}
		case cPort:
			n = portValid(s)
		case cPath:
			n = validPrefix(s, abnfPath)
		default:
			n = validPrefix(s, abnfQueryFrag)
		}
		if n != len(s) {
			return c, n, true
		}
	}
	return 0, 0, false
}

// decodesTo reports whether s is valid text of a component (class) that
// decodes to v.
func decodesTo(s, class, v string) bool {
	d, err := uri.Unescape(s)
	return err == nil && d == v && validPrefix(s, class) == len(s)
}

// same reports the components, other than those in except, that differ
// between before and after.
func same(before, after editParts, except ...int) string {
	for c := range numComps {
		if !containsInt(except, c) && (before.text[c] != after.text[c] || before.has[c] != after.has[c]) {
			return fmt.Sprintf("%v changed from %q (%v) to %q (%v)", composeComps[c], before.text[c], before.has[c], after.text[c], after.has[c])
		}
	}
	return ""
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if x == y {
			return true
		}
	}
	return false
}

// userinfoWant checks a userinfo after a setter of one of its halves:
// the user half (before the first ":") and the password half, each
// either kept from before or set (raw: as written; decoded: decoding to
// the value).
func userinfoWant(before, after editParts, user, password func(got string, had bool) bool, wantColon int) string {
	if msg := same(before, after, cUserinfo, cHost); msg != "" {
		return msg
	}
	if !after.has[cUserinfo] || !after.has[cHost] || after.text[cHost] != before.text[cHost] {
		return "no userinfo, or the host changed"
	}
	u, pw, colon := strings.Cut(after.text[cUserinfo], ":")
	switch {
	case wantColon == 1 && !colon, wantColon == 0 && colon:
		return fmt.Sprintf("userinfo %q: the password's \":\" (want %d)", after.text[cUserinfo], wantColon)
	case !user(u, true):
		return fmt.Sprintf("user %q", u)
	case colon && !password(pw, true):
		return fmt.Sprintf("password %q", pw)
	}
	return ""
}

// keptUser and keptPassword say that a half is the one before.
func keptUser(before editParts) func(string, bool) bool {
	bu, _, _ := strings.Cut(before.text[cUserinfo], ":")
	if !before.has[cUserinfo] {
		bu = ""
	}
	return func(got string, _ bool) bool { return got == bu }
}

func keptPassword(before editParts) (func(string, bool) bool, int) {
	_, bpw, colon := strings.Cut(before.text[cUserinfo], ":")
	if !before.has[cUserinfo] {
		colon = false
	}
	want := 0
	if colon {
		want = 1
	}
	return func(got string, _ bool) bool { return got == bpw }, want
}

// setWant is the want of a setter of one whole component: defined,
// text that passes ok, the rest unchanged but the host's definedness
// when also is cHost.
func setWant(c int, ok func(text string) bool, also ...int) func(before, after editParts, v, k string) string {
	return func(before, after editParts, v, k string) string {
		if msg := same(before, after, append(also, c)...); msg != "" {
			return msg
		}
		for _, a := range also {
			if a == cHost && (!after.has[cHost] || after.text[cHost] != before.text[cHost]) {
				return "the host changed or is undefined"
			}
		}
		if !after.has[c] || !ok(after.text[c]) {
			return fmt.Sprintf("%v is %q (%v)", composeComps[c], after.text[c], after.has[c])
		}
		return ""
	}
}

// clearWant is the want of Clear(c).
func clearWant(c int) func(before, after editParts, v, k string) string {
	return func(before, after editParts, v, k string) string {
		also := []int{c}
		if c == cHost {
			also = append(also, cUserinfo, cPort)
		}
		if msg := same(before, after, also...); msg != "" {
			return msg
		}
		for _, a := range also {
			if after.text[a] != "" || after.has[a] != (a == cPath) {
				return fmt.Sprintf("%v still %q (%v)", composeComps[a], after.text[a], after.has[a])
			}
		}
		return ""
	}
}

func noRefusal(string) (uri.Component, error) { return 0, nil }

// pairs returns the raw pairs of a query whose decoded key is not key.
func pairsBut(q, key string) []string {
	var out []string
	for _, p := range uri.ParseParams(q).All() {
		if p.Key() != key {
			out = append(out, p.Raw())
		}
	}
	return out
}

// queryAfterParams checks the query after a Params edit that gives
// text: defined when it has text, as before when it did not change.
func queryAfterParams(before, after editParts) string {
	if msg := same(before, after, cQuery); msg != "" {
		return msg
	}
	switch {
	case after.text[cQuery] == before.text[cQuery]:
		if after.has[cQuery] != before.has[cQuery] {
			return "an unchanged query changed its definedness"
		}
	case after.has[cQuery] != (after.text[cQuery] != ""):
		return fmt.Sprintf("query %q defined: %v", after.text[cQuery], after.has[cQuery])
	}
	return ""
}

var composeOps = func() []composeOp {
	ops := []composeOp{
		{name: "SetScheme", apply: func(e *uri.Editor, v, _ string) { e.SetScheme(v) },
			refuses: func(v string) (uri.Component, error) {
				if schemeValid(v) != len(v) || v == "" {
					return uri.ComponentScheme, uri.ErrBuildScheme
				}
				return 0, nil
			},
			want: func(b, a editParts, v, k string) string {
				return setWant(cScheme, func(s string) bool { return s == v })(b, a, v, k)
			}},
		{name: "SetUserinfo", apply: func(e *uri.Editor, v, _ string) { e.SetUserinfo(v) }, refuses: noRefusal,
			want: func(b, a editParts, v, k string) string {
				return setWant(cUserinfo, func(s string) bool { return decodesTo(s, abnfUserinfo, v) }, cHost)(b, a, v, k)
			}},
		{name: "SetUser", apply: func(e *uri.Editor, v, _ string) { e.SetUser(v) }, refuses: noRefusal,
			want: func(b, a editParts, v, k string) string {
				pw, colon := keptPassword(b)
				return userinfoWant(b, a, func(s string, _ bool) bool { return decodesTo(s, abnfRegName, v) }, pw, colon)
			}},
		{name: "SetPassword", apply: func(e *uri.Editor, v, _ string) { e.SetPassword(v) }, refuses: noRefusal,
			want: func(b, a editParts, v, k string) string {
				return userinfoWant(b, a, keptUser(b), func(s string, _ bool) bool { return decodesTo(s, abnfUserinfo, v) }, 1)
			}},
		{name: "SetRawUser", apply: func(e *uri.Editor, v, _ string) { e.SetRawUser(v) },
			refuses: func(v string) (uri.Component, error) {
				if strings.IndexByte(v, ':') >= 0 {
					return uri.ComponentUserinfo, uri.ErrBuildComponent
				}
				return 0, nil
			},
			want: func(b, a editParts, v, k string) string {
				pw, colon := keptPassword(b)
				return userinfoWant(b, a, func(s string, _ bool) bool { return s == v }, pw, colon)
			}},
		{name: "SetRawPassword", apply: func(e *uri.Editor, v, _ string) { e.SetRawPassword(v) }, refuses: noRefusal,
			want: func(b, a editParts, v, k string) string {
				// The password is all after the first ":", so a ":" in v is its own.
				if msg := userinfoWant(b, a, keptUser(b), func(string, bool) bool { return true }, 1); msg != "" {
					return msg
				}
				if _, pw, _ := strings.Cut(a.text[cUserinfo], ":"); pw != v {
					return fmt.Sprintf("password %q", pw)
				}
				return ""
			}},
		{name: "ClearPassword", apply: func(e *uri.Editor, _, _ string) { e.ClearPassword() }, refuses: noRefusal,
			want: func(b, a editParts, v, k string) string {
				if !b.has[cUserinfo] {
					return same(b, a)
				}
				return userinfoWant(b, a, keptUser(b), nil, 0)
			}},
		{name: "SetHost", apply: func(e *uri.Editor, v, _ string) { e.SetHost(v) },
			refuses: func(v string) (uri.Component, error) {
				bad := false
				switch {
				case strings.HasPrefix(v, "["):
					bad = !ipLiteralValid(v)
				case strings.IndexByte(v, ':') >= 0:
					addr, zone, hasZone := strings.Cut(v, "%")
					a, err := netip.ParseAddr(addr)
					bad = err != nil || !a.Is6() || hasZone && zone == ""
				}
				if bad {
					return uri.ComponentHost, uri.ErrBuildHost
				}
				return 0, nil
			},
			want: func(b, a editParts, v, k string) string {
				return setWant(cHost, func(s string) bool {
					switch {
					case strings.HasPrefix(v, "["):
						return s == v
					case strings.IndexByte(v, ':') >= 0:
						inner, ok := strings.CutPrefix(s, "[")
						inner, ok2 := strings.CutSuffix(inner, "]")
						d, err := uri.Unescape(inner)
						return ok && ok2 && err == nil && d == v && ipLiteralValid(s)
					}
					return decodesTo(s, abnfRegName, v)
				})(b, a, v, k)
			}},
		{name: "SetPort", apply: func(e *uri.Editor, v, _ string) { e.SetPort(v) },
			refuses: func(v string) (uri.Component, error) {
				if portValid(v) != len(v) {
					return uri.ComponentPort, uri.ErrBuildPort
				}
				return 0, nil
			},
			mayRefuse: portBeyond,
			want: func(b, a editParts, v, k string) string {
				if v == "" {
					return clearWant(cPort)(b, a, v, k)
				}
				return setWant(cPort, func(s string) bool { return s == v }, cHost)(b, a, v, k)
			}},
		{name: "SetPath", apply: func(e *uri.Editor, v, _ string) { e.SetPath(v) }, refuses: noRefusal,
			want: func(b, a editParts, v, k string) string {
				return setWant(cPath, func(s string) bool { return decodesTo(s, abnfPath, v) })(b, a, v, k)
			}},
		{name: "AppendSegment", apply: func(e *uri.Editor, v, _ string) { e.AppendSegment(v) }, refuses: noRefusal,
			want: func(b, a editParts, v, k string) string {
				// After the path's last "/", or after a new one (none
				// before the first segment of an empty path without an
				// authority).
				pre := b.text[cPath]
				if pre != "" && !strings.HasSuffix(pre, "/") || pre == "" && b.has[cHost] {
					pre += "/"
				}
				return setWant(cPath, func(s string) bool {
					seg, ok := strings.CutPrefix(s, pre)
					return ok && strings.IndexByte(seg, '/') < 0 && decodesTo(seg, abnfPath, v)
				})(b, a, v, k)
			}},
		{name: "SetQuery", apply: func(e *uri.Editor, v, _ string) { e.SetQuery(v) }, refuses: noRefusal,
			want: func(b, a editParts, v, k string) string {
				return setWant(cQuery, func(s string) bool { return decodesTo(s, abnfQueryFrag, v) })(b, a, v, k)
			}},
		{name: "SetFragment", apply: func(e *uri.Editor, v, _ string) { e.SetFragment(v) }, refuses: noRefusal,
			want: func(b, a editParts, v, k string) string {
				return setWant(cFragment, func(s string) bool { return decodesTo(s, abnfQueryFrag, v) })(b, a, v, k)
			}},
		{name: "Params.Add", apply: func(e *uri.Editor, v, k string) {
			p := e.Params()
			p.Add(k, v)
			e.SetParams(p)
		}, refuses: noRefusal,
			want: func(b, a editParts, v, k string) string {
				if msg := queryAfterParams(b, a); msg != "" {
					return msg
				}
				// The pairs before, then k=v.
				var last uri.Param
				n := 0
				for _, p := range uri.ParseParams(a.text[cQuery]).All() {
					last = p
					n++
				}
				if n != uri.ParseParams(b.text[cQuery]).Len()+1 || last.Key() != k || last.Value() != v ||
					!strings.HasPrefix(a.text[cQuery], b.text[cQuery]) || validPrefix(last.Raw(), abnfQueryFrag) != len(last.Raw()) {
					return fmt.Sprintf("query %q after Add(%q, %q) to %q", a.text[cQuery], k, v, b.text[cQuery])
				}
				return ""
			}},
		{name: "Params.Set", apply: func(e *uri.Editor, v, k string) {
			p := e.Params()
			p.Set(k, v)
			e.SetParams(p)
		}, refuses: noRefusal,
			want: func(b, a editParts, v, k string) string {
				if msg := queryAfterParams(b, a); msg != "" {
					return msg
				}
				// The other pairs as they were, in order, and k=v once.
				after := uri.ParseParams(a.text[cQuery])
				if vs := after.Values(k); len(vs) != 1 || vs[0] != v ||
					fmt.Sprint(pairsBut(a.text[cQuery], k)) != fmt.Sprint(pairsBut(b.text[cQuery], k)) {
					return fmt.Sprintf("query %q after Set(%q, %q) to %q", a.text[cQuery], k, v, b.text[cQuery])
				}
				return ""
			}},
		{name: "Params.Del", apply: func(e *uri.Editor, _, k string) {
			p := e.Params()
			p.Del(k)
			e.SetParams(p)
		}, refuses: noRefusal,
			want: func(b, a editParts, v, k string) string {
				if msg := queryAfterParams(b, a); msg != "" {
					return msg
				}
				if uri.ParseParams(a.text[cQuery]).Has(k) ||
					fmt.Sprint(pairsBut(a.text[cQuery], k)) != fmt.Sprint(pairsBut(b.text[cQuery], k)) {
					return fmt.Sprintf("query %q after Del(%q) of %q", a.text[cQuery], k, b.text[cQuery])
				}
				return ""
			}},
		{name: "SetParams(ParseParams)", apply: func(e *uri.Editor, v, _ string) { e.SetParams(uri.ParseParams(v)) }, refuses: noRefusal,
			want: func(b, a editParts, v, k string) string {
				if msg := queryAfterParams(b, a); msg != "" {
					return msg
				}
				if a.text[cQuery] != v {
					return fmt.Sprintf("query %q, want %q", a.text[cQuery], v)
				}
				return ""
			}},
	}
	for c, comp := range composeComps {
		var also []int
		if c == cUserinfo || c == cPort {
			also = []int{cHost}
		}
		ops = append(ops, composeOp{name: "SetRaw(" + comp.String() + ")",
			apply:   func(e *uri.Editor, v, _ string) { e.SetRaw(comp, v) },
			refuses: noRefusal,
			want: func(b, a editParts, v, k string) string {
				return setWant(c, func(s string) bool { return s == v }, also...)(b, a, v, k)
			}})
		ops = append(ops, composeOp{name: "Clear(" + comp.String() + ")",
			apply:   func(e *uri.Editor, _, _ string) { e.Clear(comp) },
			refuses: noRefusal,
			want:    clearWant(c)})
	}
	return ops
}()

// composeValues are the values the setters get: the delimiters of
// RFC 3986 2.2, "%" alone, malformed and well-formed triplets, text
// that would forge a component, hosts of every kind, and non-ASCII.
var composeValues = []string{
	"", "x", "a b", "@", ":", "/", "?", "#", "[", "]", "%", "%41", "%2F", "%zz", "%4", "a%", "+", "=", "&", ";",
	"evil.example#", "evil.example/", "u:p@h", "a@b", "a:b", "//x", "/a/b", "..", "x?y#z", "k=v&a=b",
	"é", "例", "[::1]", "::1", "fe80::1%en0", "[fe80::1%25en0]", "[v7.x]", "[::1", "1.2.3.4", "8080", "0", "99999",
	"http", "a+b.c-d", "1x",
}

// composeBases are the references edited: http with every component,
// a URN, relative references, an opaque one, an IPv6 host, the empty
// reference.
var composeBases = []string{
	"http://u:p@good.example:8080/a/b?k=v&x=1#f",
	"urn:isbn:0451450523",
	"../a/b?q",
	"//h/p",
	"a:b",
	"http://[::1]:80/p?q#f",
	"",
}

// checkComposition runs the steps on an editor of base and checks the
// property; it returns a description of the first failure, or "".
func checkComposition(base uri.URI, steps []composeStep) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprintf("panic: %v", r)
		}
	}()
	e := base.Edit()
	var stickyComp uri.Component
	var stickyReason error
	for _, s := range steps {
		op := composeOps[s.op]
		before := partsOf(e)
		op.apply(e, s.v, s.k)
		after := partsOf(e)
		if stickyReason != nil {
			if m := same(before, after); m != "" {
				return fmt.Sprintf("%s after an error: %s", op.name, m)
			}
			continue
		}
		if c, reason := op.refuses(s.v); reason != nil {
			if m := same(before, after); m != "" {
				return fmt.Sprintf("%s(%q) refused but changed: %s", op.name, s.v, m)
			}
			stickyComp, stickyReason = c, reason
			continue
		}
		if op.mayRefuse != nil && op.mayRefuse(s.v) && same(before, after) == "" {
			if _, err := e.URI(); errors.Is(err, uri.ErrBuildPort) {
				stickyComp, stickyReason = uri.ComponentPort, uri.ErrBuildPort
				continue
			}
		}
		if m := op.want(before, after, s.v, s.k); m != "" {
			return fmt.Sprintf("%s(%q, %q): %s", op.name, s.v, s.k, m)
		}
	}
	final := partsOf(e)
	u, err := e.URI()
	if stickyReason != nil {
		var be *uri.BuildError
		if !errors.As(err, &be) || be.Component != stickyComp || !errors.Is(err, stickyReason) {
			return fmt.Sprintf("want the setter's error (%v, %v), got %q, %v", stickyComp, stickyReason, u, err)
		}
		return ""
	}
	bad, valid, invalid := firstInvalid(final)
	if err != nil {
		var be *uri.BuildError
		var pe *uri.ParseError
		switch {
		case !errors.As(err, &be):
			return fmt.Sprintf("untyped error %v", err)
		case final.has[cPort] && portBeyond(final.text[cPort]) && be.Component == uri.ComponentPort &&
			(!invalid || bad >= cPort):
			// A port the library may refuse (see portBeyond), the
			// first part it finds at fault.
		case !invalid:
			return fmt.Sprintf("error %v, but every part is valid: %q", err, final.text)
		case be.Component != composeComps[bad].Component() || !errors.Is(err, uri.ErrBuildComponent):
			return fmt.Sprintf("error %v names %v, but the first invalid part is %v %q", err, be.Component, composeComps[bad], final.text[bad])
		case valid >= 0 && (!errors.As(err, &pe) || pe.Offset < valid || pe.Offset > valid+2):
			return fmt.Sprintf("error %v: want the offset of the first invalid byte, %d, in %q", err, valid, final.text[bad])
		}
		return ""
	}
	if invalid {
		return fmt.Sprintf("%v %q is invalid, but URI gave %q", composeComps[bad], final.text[bad], u)
	}
	// Every component as the editor holds it; the path with the repair
	// RFC 3986 5.3 and 4.2 need, when it needs one.
	got := editParts{
		text: [numComps]string{u.Scheme(), u.Userinfo(), u.Host(), u.Port(), u.Path(), u.Query(), u.Fragment()},
		has:  [numComps]bool{u.HasScheme(), u.HasUserinfo(), u.HasAuthority(), u.HasPort(), true, u.HasQuery(), u.HasFragment()},
	}
	path, repair := final.text[cPath], ""
	first, _, _ := strings.Cut(path, "/")
	switch {
	case final.has[cHost] && path != "" && path[0] != '/':
		repair = "/"
	case !final.has[cHost] && strings.HasPrefix(path, "//"):
		repair = "/."
	case !final.has[cHost] && !final.has[cScheme] && strings.IndexByte(first, ':') >= 0:
		repair = "./"
	}
	final.text[cPath] = repair + path
	if m := same(final, got); m != "" {
		return fmt.Sprintf("the result %q does not read back: %s", u, m)
	}
	// A reader that has only the text sees the same components.
	r, err := uri.ParseWith(u.String(), uri.Options{AllowZoneID: strings.Contains(u.Host(), "%25")})
	if err != nil {
		return fmt.Sprintf("the result %q does not parse: %v", u, err)
	}
	again := editParts{
		text: [numComps]string{r.Scheme(), r.Userinfo(), r.Host(), r.Port(), r.Path(), r.Query(), r.Fragment()},
		has:  [numComps]bool{r.HasScheme(), r.HasUserinfo(), r.HasAuthority(), r.HasPort(), true, r.HasQuery(), r.HasFragment()},
	}
	if m := same(got, again); m != "" {
		return fmt.Sprintf("the result %q parses otherwise: %s", u, m)
	}
	return ""
}

type composeStep struct {
	op   int
	v, k string
}

func describeSteps(base string, steps []composeStep) string {
	var b strings.Builder
	fmt.Fprintf(&b, "uri.MustParse(%q).Edit()", base)
	for _, s := range steps {
		fmt.Fprintf(&b, ".%s(v=%q k=%q)", composeOps[s.op].name, s.v, s.k)
	}
	return b.String()
}

// TestEditorCompose runs every ordered pair of setters with every value
// of the first (the second's value turning), and every ordered triple
// of setters with values drawn at random, on every base.
func TestEditorCompose(t *testing.T) {
	nOps, nVals := len(composeOps), len(composeValues)
	val := func(i int) string { return composeValues[i%nVals] }
	rng := rand.New(rand.NewPCG(26, 1))
	n, fails := 0, 0
	check := func(base string, steps ...composeStep) {
		n++
		if msg := checkComposition(uri.MustParse(base), steps); msg != "" {
			if fails++; fails <= 10 {
				t.Errorf("%s: %s", describeSteps(base, steps), msg)
			}
		}
	}
	for bi, base := range composeBases {
		for a := range nOps {
			for b := range nOps {
				for i := range nVals {
					j := i*7 + a + b + bi
					check(base, composeStep{a, val(i), val(j)}, composeStep{b, val(j + 1), val(i + 3)})
				}
				for c := range nOps {
					check(base,
						composeStep{a, val(rng.IntN(nVals)), val(rng.IntN(nVals))},
						composeStep{b, val(rng.IntN(nVals)), val(rng.IntN(nVals))},
						composeStep{c, val(rng.IntN(nVals)), val(rng.IntN(nVals))})
				}
			}
		}
	}
	if fails > 0 {
		t.Errorf("%d of %d compositions failed", fails, n)
	}
	t.Logf("%d compositions of %d setters and %d values on %d bases", n, nOps, nVals, len(composeBases))
}

// FuzzEditorCompose: the property of TestEditorCompose on any valid
// base, with up to 6 setters chosen by prog and values from a, b, c.
func FuzzEditorCompose(f *testing.F) {
	for i, base := range composeBases {
		f.Add(base, []byte{byte(i), byte(i * 7), byte(i * 13)}, "evil.example#", "x", "?")
	}
	f.Add("http://good.example/p", []byte{4, 3}, "evil.example#", "x", "")
	f.Fuzz(func(t *testing.T, base string, prog []byte, a, b, c string) {
		u, err := uri.ParseWith(base, uri.Options{AllowZoneID: true})
		if err != nil || len(prog) > 6 {
			return
		}
		vals := [3]string{a, b, c}
		steps := make([]composeStep, len(prog))
		for i, p := range prog {
			op := int(p) % len(composeOps)
			steps[i] = composeStep{op, vals[(int(p)/len(composeOps))%3], vals[(int(p)/len(composeOps)+1)%3]}
		}
		if msg := checkComposition(u, steps); msg != "" {
			t.Fatalf("%s: %s", describeSteps(base, steps), msg)
		}
	})
}
