package uri_test

import (
	"testing"

	"github.com/urikit/urikit/uri"
)

// TestSchemeEquivalence: the scheme-based rules of RFC 3986 6.2.3 that
// DefaultRegistry holds, each both ways (issue 16, items 1 and 2).
func TestSchemeEquivalence(t *testing.T) {
	tests := []struct {
		a, b  string
		equal bool
	}{
		// RFC 6068 2: "<mailto:addr1@an.example,addr2@an.example> is
		// equivalent to <mailto:?to=addr1@an.example,addr2@an.example>
		// is equivalent to <mailto:addr1@an.example?to=addr2@an.example>".
		{"mailto:addr1@an.example,addr2@an.example", "mailto:?to=addr1@an.example,addr2@an.example", true},
		{"mailto:addr1@an.example,addr2@an.example", "mailto:addr1@an.example?to=addr2@an.example", true},
		{"mailto:?to=addr1@an.example,addr2@an.example", "mailto:addr1@an.example?to=addr2@an.example", true},
		{"mailto:?to=a@x&to=b@x", "mailto:a@x,b@x", true},
		{"mailto:?TO=a@X", "mailto:a@x", true}, // the hfname and the domain without case
		{"mailto:a@x?to=b@x&subject=s", "mailto:a@x,b@x?subject=s", true},
		{"mailto:a@x?subject=s&to=b@x", "mailto:a@x,b@x?subject=s", true},
		{"mailto:?to=&subject=s", "mailto:?subject=s", true}, // an empty to names nobody
		{"mailto:a@x,b@x", "mailto:b@x,a@x", false},          // the order of the recipients is kept
		{"mailto:a@x?cc=b@x", "mailto:a@x,b@x", false},       // cc is not to
		{"mailto:a@x?to=b@x", "mailto:a@x", false},
		{"mailto:?to=a%3Fb@x", "mailto:a%3Fb@x", true},
		// RFC 6068 2: "<hfname> is case-insensitive, but <hfvalue> in
		// general is case-sensitive".
		{"mailto:a@b?Subject=x", "mailto:a@b?subject=x", true},
		{"mailto:a@b?subject=X", "mailto:a@b?subject=x", false},
		// The domain without case, the local part with it; a quoted
		// local part with an "@" keeps its case too.
		{"mailto:Joe@Example.COM", "mailto:Joe@example.com", true},
		{"mailto:%22A@B%22@X.ORG", "mailto:%22A@B%22@x.org", true},
		{"mailto:%22A@B%22@x.org", "mailto:%22a@b%22@x.org", false},
		// RFC 4266 2.1: "Within the <gopher-path>, no characters are
		// reserved"; the client sends the decoded selector.
		{"gopher://h/1a%2Fb", "gopher://h/1a/b", true},
		{"gopher://h/0%3Bx", "gopher://h/0;x", true},
		{"gopher://h/%31", "gopher://h/1", true},
		{"gopher://h/1a?b", "gopher://h/1a%3Fb", true},
		{"gopher://h/7s%09q%2Bw", "gopher://h/7s%09q+w", true},
		{"gopher://h/1a%2Fb", "gopher://h/1a%2Fc", false},
		{"gopher://h/0a%09b", "gopher://h/0a%20b", false}, // the separator is no space
		{"gopher://h/0a%20b", "gopher://h/0a+b", false},
		{"gopher://h", "gopher://h:70/1", true}, // RFC 4266 2.1: the default type
		{"gopher://h/", "gopher://h/0", false},
		// RFC 1738 3.2.2 (and the 1994 draft's ftptype "A" | "I" | "D" |
		// "a" | "i" | "d"): the typecode in either case.
		{"ftp://h/x;type=A", "ftp://h/x;type=a", true},
		{"ftp://h/X;type=a", "ftp://h/x;type=a", false},
		{"ftp://h/x;type=a", "ftp://h/x;type=i", false},
		// RFC 4248 2: "The URL may also end with a "/"".
		{"telnet://h/", "telnet://h", true},
		{"rlogin://u@h:513/", "rlogin://u@h", true},
		{"tn3270://h/", "tn3270://h:23", true},
		{"telnet://h/", "telnet://h2", false},
	}
	for _, tt := range tests {
		a, b := uri.MustParse(tt.a), uri.MustParse(tt.b)
		if got := uri.Equal(a, b); got != tt.equal {
			t.Errorf("Equal(%q, %q) = %v (keys %q, %q)", tt.a, tt.b, got, a.Key(), b.Key())
		}
		for _, u := range []uri.URI{a, b} {
			// Normalize keeps a valid URI and is idempotent.
			n := u.Normalize()
			if _, err := uri.Parse(n.String()); err != nil || n.Normalize().String() != n.String() {
				t.Errorf("Normalize(%q) = %q, again %q, %v", u, n, n.Normalize(), err)
			}
		}
	}
}
