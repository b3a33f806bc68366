package uri_test

import (
	"errors"
	"fmt"
	"slices"

	"github.com/urikit/urikit/uri"
)

func ExampleParse() {
	u, err := uri.Parse("foo://example.com:8042/over/there?name=ferret#nose")
	if err != nil {
		panic(err)
	}
	fmt.Println(u.Scheme(), u.Host(), u.Port(), u.Path(), u.Query(), u.Fragment())
	// Output: foo example.com 8042 /over/there name=ferret nose
}

func ExampleParse_undefinedVersusEmpty() {
	for _, s := range []string{"foo://a/b?#", "foo://a/b"} {
		u, _ := uri.Parse(s)
		fmt.Printf("%-12s query %q defined=%v, fragment %q defined=%v\n", s, u.Query(), u.HasQuery(), u.Fragment(), u.HasFragment())
	}
	// Output:
	// foo://a/b?#  query "" defined=true, fragment "" defined=true
	// foo://a/b    query "" defined=false, fragment "" defined=false
}

func ExampleParse_error() {
	_, err := uri.Parse("http://a/{x}")
	fmt.Println(err)
	// Output: uri: invalid character '{' at offset 9 in path of "http://a/{x}"
}

func ExampleParseWith() {
	// The 1998 draft: "[" is unwise there, and an authority that is not
	// a server is a registry-based name.
	_, err := uri.ParseWith("http://[::1]/", uri.Options{Grammar: uri.RFC2396})
	fmt.Println(err)
	u, _ := uri.ParseWith("http://a:b/", uri.Options{Grammar: uri.RFC2396})
	fmt.Printf("host %q, port defined: %v\n", u.Host(), u.HasPort())
	// RFC 6874 zone identifiers are an option.
	u, err = uri.ParseWith("http://[fe80::a%25en1]/", uri.Options{AllowZoneID: true})
	fmt.Println(u.Hostname(), err)
	// Output:
	// uri: invalid character '[' at offset 7 in authority of "http://[::1]/"
	// host "a:b", port defined: false
	// fe80::a%en1 <nil>
}

func ExampleMustParse() {
	base := uri.MustParse("http://a/b/c/d;p?q")
	fmt.Println(base.Path(), base.IsAbsoluteURI())
	// Output: /b/c/d;p true
}

func ExampleURI_Host() {
	for _, s := range []string{"ldap://[2001:db8::7]/c=GB", "telnet://192.0.2.16:80/", "http://www.ietf.org/", "http://[v7.x]/", "mailto:a@b"} {
		u := uri.MustParse(s)
		fmt.Printf("%q %q %q\n", u.Host(), u.Hostname(), u.HostKind())
	}
	// Output:
	// "[2001:db8::7]" "2001:db8::7" "ipv6"
	// "192.0.2.16" "192.0.2.16" "ipv4"
	// "www.ietf.org" "www.ietf.org" "reg-name"
	// "[v7.x]" "v7.x" "ipvfuture"
	// "" "" ""
}

func ExampleURI_PortNumber() {
	for _, s := range []string{"http://h:8080/", "http://h:/", "http://h/", "http://h:99999/"} {
		u := uri.MustParse(s)
		n, ok := u.PortNumber()
		fmt.Printf("%q defined=%v number=%d ok=%v\n", u.Port(), u.HasPort(), n, ok)
	}
	// Output:
	// "8080" defined=true number=8080 ok=true
	// "" defined=true number=0 ok=false
	// "" defined=false number=0 ok=false
	// "99999" defined=true number=0 ok=false
}

func ExampleURI_Userinfo() {
	u := uri.MustParse("ftp://anonymous:me%40example.com@ftp.example.com/")
	fmt.Println(u.Userinfo())
	fmt.Println(u.DecodedUserinfo())
	// Output:
	// anonymous:me%40example.com
	// anonymous:me@example.com
}

func ExampleURI_Segments() {
	u := uri.MustParse("http://a/b%2Fc/d/")
	fmt.Printf("%q\n", slices.Collect(u.Segments()))
	fmt.Println(u.DecodedPath())
	// Output:
	// ["b%2Fc" "d" ""]
	// /b/c/d/
}

func ExampleURI_WithoutFragment() {
	u := uri.MustParse("http://a/b?q#frag")
	fmt.Println(u.WithoutFragment(), u.Fragment(), u.DecodedQuery())
	// Output: http://a/b?q frag q
}

func ExampleParseError() {
	_, err := uri.Parse("http://u@s@h/")
	var pe *uri.ParseError
	if errors.As(err, &pe) {
		fmt.Println(pe.Offset, pe.Component, pe.Input[:pe.Offset])
		fmt.Println(pe.Message())
	}
	fmt.Println(errors.Is(err, uri.ErrInvalidCharacter))

	_, err = uri.Parse("%4g")
	fmt.Println(errors.Is(err, uri.ErrInvalidPercent))
	// Output:
	// 10 host http://u@s
	// invalid character '@' at offset 10 in host
	// true
	// true
}
