package surt

import (
	"errors"

	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/whatwg"
)

// ErrEmpty is the error of an input that is empty or only spaces and
// controls: it names no URL to canonicalize.
var ErrEmpty = errors.New("surt: empty URL")

// canonicalize fills st.p with the canonical components of s under o.
func (st *state) canonicalize(s string, o *Options) error {
	p := &st.p
	switch o.Profile {
	case IA, Google:
		ia := o.Profile == IA
		f := splitDefaultHTTP | splitHTTPOnly
		if ia {
			f |= splitMultiProto
		}
		if blank(s) {
			return ErrEmpty
		}
		prefix := p.split(s, f)
		if !p.checkPort() {
			return portError(s, p, prefix)
		}
		if ia {
			// The IA rules drop the userinfo and the default port; they
			// go first, so that the host rules see the authority as it
			// will be written.
			p.iaAuthority()
		}
		p.google(ia)
		if ia {
			st.ia(o)
		}
		p.fixPathStart()
	case SemanticPrecise, Aggressive:
		if blank(s) {
			return ErrEmpty
		}
		p.split(s, splitDefaultHTTP|splitBackslash|splitGopher)
		st.semanticPrecise()
		if o.Profile == Aggressive {
			st.aggressive(o)
		}
		p.fixPathStart()
	case WHATWG:
		u, err := whatwg.Parse(s)
		if err != nil {
			return err
		}
		p.fromWHATWG(u)
	case RFC3986, None:
		u, err := uri.Parse(s)
		if err != nil {
			return err
		}
		if !u.HasScheme() {
			return uri.NewParseError(s, 0, uri.ComponentScheme, errNoScheme)
		}
		if o.Profile == RFC3986 {
			u = u.Normalize()
		}
		p.fromURI(u)
	default:
		return &ProfileError{Name: o.Profile.String()}
	}
	return nil
}

// fixPathStart writes "/." before a path that starts with "//" in a URL
// without an authority, as the URL Standard's serializer does (4.5 step
// 2.2): a path that the rules made so ("x:/.//a", "x:%2F%2Fa") would read
// back as an authority.
func (p *parts) fixPathStart() {
	if b := p.get(p.path); !p.host.ok && len(b) >= 2 && b[0] == '/' && b[1] == '/' {
		p.set(&p.path, 2, func(dst, src []byte) []byte { return append(append(dst, '/', '.'), src...) })
	}
}

var errNoScheme = errors.New("a key needs an absolute URI")

// blank reports whether s holds only C0 controls and spaces.
func blank(s string) bool {
	for k := 0; k < len(s); k++ {
		if !junk(s[k]) {
			return false
		}
	}
	return true
}

// fromWHATWG loads the components of a URL Standard URL.
func (p *parts) fromWHATWG(u whatwg.URL) {
	p.setString(&p.scheme, u.Scheme())
	if u.HasHost() {
		user, pass := u.Username(), u.Password()
		if user != "" || pass != "" {
			p.setString(&p.user, user)
			if pass != "" {
				p.setString(&p.pass, pass)
			}
		}
		p.setString(&p.host, u.Hostname())
		if port := u.Port(); port != "" {
			p.setString(&p.port, port)
		}
	}
	path := u.Pathname()
	if !u.HasHost() && !u.HasOpaquePath() && len(path) > 1 && path[0] == '/' && path[1] == '/' {
		// The URL Standard's serializer writes "/." before such a path,
		// so that it does not read as an authority (4.5 step 2.2).
		p.setString(&p.path, "/."+path)
	} else {
		p.setString(&p.path, path)
	}
	if u.HasQuery() {
		p.setString(&p.query, u.Query())
	}
	if u.HasFragment() {
		p.setString(&p.frag, u.Fragment())
	}
}

// fromURI loads the components of an RFC 3986 URI.
func (p *parts) fromURI(u uri.URI) {
	p.setString(&p.scheme, u.Scheme())
	if u.HasAuthority() {
		if user, ok := u.User(); ok {
			p.setString(&p.user, user)
			if pass, ok := u.Password(); ok {
				p.setString(&p.pass, pass)
			}
		}
		p.setString(&p.host, u.Host())
		if u.HasPort() {
			p.setString(&p.port, u.Port())
		}
	}
	p.setString(&p.path, u.Path())
	if u.HasQuery() {
		p.setString(&p.query, u.Query())
	}
	if u.HasFragment() {
		p.setString(&p.frag, u.Fragment())
	}
}

// appendURL appends the canonical URL: scheme ":" ["//" [userinfo "@"]
// host [":" port]] path ["?" query] ["#" fragment].
func (p *parts) appendURL(dst []byte) []byte {
	dst = append(dst, p.get(p.scheme)...)
	dst = append(dst, ':')
	if p.host.ok {
		dst = append(dst, '/', '/')
		dst = p.appendUserinfo(dst)
		dst = append(dst, p.get(p.host)...)
		if p.port.ok {
			dst = append(dst, ':')
			dst = append(dst, p.get(p.port)...)
		}
	}
	return p.appendRest(dst)
}

func (p *parts) appendUserinfo(dst []byte) []byte {
	if p.user.ok {
		dst = append(dst, p.get(p.user)...)
		if p.pass.ok {
			dst = append(dst, ':')
			dst = append(dst, p.get(p.pass)...)
		}
		dst = append(dst, '@')
	}
	return dst
}

// appendRest appends path, query and fragment.
func (p *parts) appendRest(dst []byte) []byte {
	dst = append(dst, p.get(p.path)...)
	if p.query.ok {
		dst = append(dst, '?')
		dst = append(dst, p.get(p.query)...)
	}
	if p.frag.ok {
		dst = append(dst, '#')
		dst = append(dst, p.get(p.frag)...)
	}
	return dst
}
