package uri_test

import (
	"fmt"
	"net/url"

	"github.com/urikit/urikit/uri"
)

func ExampleURI_Edit() {
	u := uri.MustParse("http://example.com/docs?utm_source=mail&page=2#top")
	p := u.QueryParams()
	p.Trim("utm_*")
	v, err := u.Edit().
		SetScheme("https").
		SetPort("8443").
		AppendSegment("a b").
		SetParams(p).
		Clear(uri.PartFragment).
		URI()
	fmt.Println(v, err)
	// Output: https://example.com:8443/docs/a%20b?page=2 <nil>
}

func ExampleEditor_AppendSegment() {
	// ".." is a segment as any other: appended, not applied. A reader
	// of the path (Resolve, Normalize, a server) climbs up with it
	// (RFC 3986 5.2.4); url.URL.JoinPath applies it at once, to a path
	// that never climbs above "/". Either way a segment from a user
	// can be ".." and climb: check it when that matters.
	u := uri.MustParse("http://example.com/a/b")
	v, _ := u.Edit().AppendSegment("..").URI()
	fmt.Println(v)
	fmt.Println(v.Normalize())
	j, _ := url.Parse(u.String())
	fmt.Println(j.JoinPath(".."))
	// Output:
	// http://example.com/a/b/..
	// http://example.com/a/
	// http://example.com/a
}

func ExampleEditor_SetRaw() {
	u := uri.MustParse("http://example.com/")
	_, err := u.Edit().SetRaw(uri.PartQuery, "a=1#b").URI()
	fmt.Println(err)
	v, _ := u.Edit().SetRaw(uri.PartQuery, "a=%20").URI()
	fmt.Println(v)
	// Output:
	// uri: edit: invalid component "a=1#b": invalid character '#' at offset 3 in query
	// http://example.com/?a=%20
}

func ExampleEditor_URI() {
	// A path set after an authority gets its "/" (RFC 3986 3.3); a
	// path starting with "//" without one gets "/." (5.2.4's note).
	a, _ := uri.MustParse("http://example.com").Edit().SetPath("x").URI()
	b, _ := uri.MustParse("http://example.com//x").Edit().Clear(uri.PartHost).URI()
	fmt.Println(a)
	fmt.Println(b)
	// Output:
	// http://example.com/x
	// http:/.//x
}

func ExampleURI_User() {
	u := uri.MustParse("ftp://anonymous:me%40example.com@ftp.example.com/")
	user, _ := u.User()
	pw, ok := u.Password()
	fmt.Println(user, pw, ok)
	// Output: anonymous me%40example.com true
}

func ExampleURI_Password() {
	for _, s := range []string{"http://u@a/", "http://u:@a/"} {
		pw, ok := uri.MustParse(s).Password()
		fmt.Printf("%q %v\n", pw, ok)
	}
	// Output:
	// "" false
	// "" true
}

func ExampleParams_Trim() {
	p := uri.ParseParams("id=7&utm_source=news&utm_medium=mail&ref=x")
	err := p.Trim("utm_*")
	fmt.Println(p.Encode(), err)
	// Output: id=7&ref=x <nil>
}

func ExampleParams_Keep() {
	p := uri.ParseParams("id=7&utm_source=news&page=2")
	p.Keep("[ip]*")
	fmt.Println(p.Encode())
	// Output: id=7&page=2
}

func ExampleParams_Sort() {
	p := uri.ParseParams("b=2&a=2&a=1&c")
	p.Sort()
	fmt.Println(p.Encode())
	// Output: a=1&a=2&b=2&c
}

func ExampleParams_Set() {
	p := uri.ParseParams("q=go&page=1&page=2")
	p.Set("page", "3")
	p.Set("lang", "en")
	fmt.Println(p.Encode())
	// Output: q=go&page=3&lang=en
}

func ExampleParams_Replace() {
	p := uri.ParseParams("q=go&page=1")
	fmt.Println(p.Replace("page", "2"), p.Replace("lang", "en"), p.Encode())
	// Output: true false q=go&page=2
}

func ExampleParams_WithSeparator() {
	p := uri.ParseParams("search=fool;page=5").WithSeparator(';')
	p.Del("search")
	p.Add("lang", "en;us")
	fmt.Println(p.Encode(), p.Get("lang"))
	// Output: page=5;lang=en%3Bus en;us
}

func ExampleParams_Add() {
	p := uri.ParseParams("q=go")
	p.Add("lang", "en us")
	fmt.Println(p.Encode())
	// Output: q=go&lang=en%20us
}

func ExampleParams_Del() {
	p := uri.ParseParams("a=1&b=2&a=3")
	p.Del("a")
	fmt.Println(p.Encode())
	// Output: b=2
}

func ExampleParams_DeleteFunc() {
	p := uri.ParseParams("a=1&b=&c")
	p.DeleteFunc(func(q uri.Param) bool { return q.Value() == "" })
	fmt.Println(p.Encode())
	// Output: a=1
}

func ExamplePart() {
	// The Editor's parts are the components with text of their own;
	// the authority and a URN's NID are not among them, and
	// e.Clear(uri.ComponentNID) does not compile.
	e := uri.MustParse("https://user@example.com:8443/a?q#f").Edit()
	for p := uri.PartScheme; p <= uri.PartFragment; p++ {
		s, ok := e.Part(p)
		fmt.Printf("%s=%q %v\n", p, s, ok)
	}
	// Output:
	// scheme="https" true
	// userinfo="user" true
	// host="example.com" true
	// port="8443" true
	// path="/a" true
	// query="q" true
	// fragment="f" true
}
