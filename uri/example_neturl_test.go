package uri_test

import (
	"errors"
	"fmt"

	"github.com/urikit/urikit/uri"
)

func ExampleURI_HostPort() {
	u := uri.MustParse("https://me@[2001:db8::7]:8443/x")
	fmt.Println(u.HostPort())
	fmt.Println(u.Host())
	fmt.Println(u.Hostname())
	// Output:
	// [2001:db8::7]:8443
	// [2001:db8::7]
	// 2001:db8::7
}

func ExampleURI_Addr() {
	a, ok := uri.MustParse("http://192.0.2.1:8080/").Addr()
	fmt.Println(a, ok, a.Is4())
	_, ok = uri.MustParse("http://example.com/").Addr()
	fmt.Println(ok)
	// Output:
	// 192.0.2.1 true true
	// false
}

func ExampleURI_Redacted() {
	fmt.Println(uri.MustParse("ftp://anonymous:secret@ftp.example/pub").Redacted())
	// Output: ftp://anonymous:xxxxx@ftp.example/pub
}

func ExampleURI_IsAbs() {
	u := uri.MustParse("http://a/b#f")
	fmt.Println(u.IsAbs(), u.IsAbsoluteURI(), u.WithoutFragment().IsAbsoluteURI())
	// Output: true false true
}

func ExampleURI_IsAbsoluteURI() {
	fmt.Println(uri.MustParse("http://a/b?q").IsAbsoluteURI(), uri.MustParse("//a/b").IsAbsoluteURI())
	// Output: true false
}

func ExampleNewParseError() {
	err := uri.NewParseError("http://a/{", 9, uri.ComponentPath, uri.ErrInvalidCharacter)
	fmt.Println(err)
	fmt.Println(errors.Is(err, uri.ErrInvalidCharacter))
	// Output:
	// uri: invalid character '{' at offset 9 in path of "http://a/{"
	// true
}

func ExampleResolveError() {
	base := uri.MustParse("http://a/b/c")
	_, err := base.Relativize(uri.MustParse("http://a/x/../y"))
	var re *uri.ResolveError
	fmt.Println(errors.As(err, &re), re.Op, re.Offset, errors.Is(err, uri.ErrUnreachable))
	// Output: true relativize 11 true
}
