package uri_test

import (
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/urikit/urikit/uri"
)

func ExampleEscape() {
	fmt.Println(uri.Escape("a/b c?", uri.SegmentSet))
	fmt.Println(uri.Escape("a/b c?", uri.PathSet))
	fmt.Println(uri.Escape("k=v&x", uri.QueryValueSet))
	// Output:
	// a%2Fb%20c%3F
	// a/b%20c%3F
	// k%3Dv%26x
}

func ExampleSetByName() {
	set, _ := uri.SetByName("fragment")
	fmt.Println(uri.Escape("top#1", set))
	// Output: top%231
}

func ExampleNewSet() {
	fmt.Println(uri.Escape("a-b.c", uri.NewSet("abc")))
	// Output: a%2Db%2Ec
}

func ExampleUnescape() {
	s, err := uri.Unescape("caf%C3%A9+bar")
	fmt.Println(s, err)
	_, err = uri.Unescape("100%")
	fmt.Println(err)
	// Output:
	// café+bar <nil>
	// uri: malformed percent-encoding at offset 4 of "100%"
}

func ExampleNormalizeEscapes() {
	fmt.Println(uri.NormalizeEscapes("%7euser/%7bx%7d"))
	// Output: ~user/%7Bx%7D
}

func ExampleURI_Normalize() {
	u := uri.MustParse("HTTP://www.Example.COM:80/a/./b/../%63/%7bx%7d?#")
	fmt.Println(u.Normalize())
	// Output: http://www.example.com/a/c/%7Bx%7D?#
}

func ExampleEqual() {
	a := uri.MustParse("http://example.com")
	b := uri.MustParse("http://example.com:80/")
	c := uri.MustParse("http://example.com/?")
	fmt.Println(uri.Equal(a, b), uri.Equal(a, c))
	// Output: true false
}

func ExampleURI_Key() {
	seen := map[string]bool{}
	for _, s := range []string{"http://a/%7Ex", "HTTP://A/~x", "http://a:80/~x", "http://a/~y"} {
		seen[uri.MustParse(s).Key()] = true
	}
	fmt.Println(len(seen))
	// Output: 2
}

func ExampleDefaultPort() {
	fmt.Println(uri.DefaultPort("HTTPS"))
	fmt.Println(uri.DefaultPort("urn"))
	// Output:
	// 443 true
	// 0 false
}

func ExampleEditor() {
	// The zero Editor builds a reference from decoded parts.
	var e uri.Editor
	var q uri.Params
	q.Add("q", "x&y")
	q.Add("q", "z")
	u, err := e.SetScheme("https").
		SetUser("me@example.org").
		SetHost("example.com").
		AppendSegment("a/b").
		AppendSegment("c d").
		SetParams(q).
		SetFragment("sec#2").
		URI()
	fmt.Println(u, err)
	fmt.Println(u.DecodedUserinfo())
	// Output:
	// https://me%40example.org@example.com/a%2Fb/c%20d?q=x%26y&q=z#sec%232 <nil>
	// me@example.org
}

func ExampleURI_QueryParams() {
	u := uri.MustParse("http://a/?b=2&a=1&b=x%26y&flag")
	for i, p := range u.QueryParams().All() {
		fmt.Println(i, p.RawKey(), p.Value(), p.HasValue())
	}
	fmt.Println(u.QueryParams().Values("b"))
	// Output:
	// 0 b 2 true
	// 1 a 1 true
	// 2 b x&y true
	// 3 flag  false
	// [2 x&y]
}

func ExampleParams_Get() {
	p := uri.MustParse("http://a/?q=hello+world%21&empty=").QueryParams()
	fmt.Printf("%q %q %q\n", p.Get("q"), p.Get("empty"), p.Get("none"))
	_, ok := p.Lookup("empty")
	q, _ := p.Lookup("q")
	fmt.Println(ok, q.RawValue())
	// Output:
	// "hello world!" "" ""
	// true hello+world%21
}

func ExampleURI_SearchKeywords() {
	u := uri.MustParse("http://info.example/index?uniform+resource+locators")
	fmt.Println(u.SearchKeywords())
	// Output: [uniform resource locators]
}

func ExampleURI_MarshalText() {
	b, _ := json.Marshal(map[string]uri.URI{"u": uri.MustParse("foo://a/b?#")})
	fmt.Println(string(b))
	var v map[string]uri.URI
	err := json.Unmarshal([]byte(`{"u":"http://u@s@h/"}`), &v)
	fmt.Println(err)
	// Output:
	// {"u":"foo://a/b?#"}
	// uri: invalid character '@' at offset 10 in host of "http://u@s@h/"
}

func ExampleURI_URL() {
	v, _ := uri.MustParse("foo://a/b?q#").URL()
	fmt.Println(v) // net/url cannot keep the empty fragment
	u, _ := uri.FromURL(v)
	fmt.Println(u)
	// Output:
	// foo://a/b?q
	// foo://a/b?q
}

func ExampleFromURL() {
	v, _ := url.Parse("http://a/{x}")
	u, err := uri.FromURL(v) // net/url has re-encoded the braces
	fmt.Println(u, err)
	// Output: http://a/%7Bx%7D <nil>
}

func ExampleURI_UnmarshalText() {
	var u uri.URI
	fmt.Println(u.UnmarshalText([]byte("http://a/b?#")), u.HasFragment())
	// Output: <nil> true
}

func ExampleParseParams() {
	p := uri.ParseParams("a=1&a=2")
	fmt.Println(p.Len(), p.Values("a"))
	// Output: 2 [1 2]
}
