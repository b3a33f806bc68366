package surt_test

import (
	"errors"
	"fmt"

	"github.com/urikit/urikit/surt"
)

func ExampleKey() {
	k, err := surt.Key("http://archive.org/goo/?a=2&b&a=1")
	fmt.Println(k, err)
	k, _ = surt.Key("http://www.Example.com:80/Index.html?b=2&a=1#top")
	fmt.Println(k)
	k, _ = surt.Key("dns:archive.org") // archive records pass through
	fmt.Println(k)
	// Output:
	// org,archive)/goo?a=1&a=2&b <nil>
	// com,example)/index.html?a=1&b=2
	// dns:archive.org
}

func ExampleOptions_Key() {
	for _, o := range []surt.Options{
		{}, // pywb and Wayback
		{Form: surt.Heritrix},
		{Form: surt.SSURT, Profile: surt.None},
		{KeepWWW: true, KeepTrailingSlash: true},
		{Profile: surt.Google, Form: surt.Heritrix},
	} {
		k, _ := o.Key("http://www.archive.org:8080/goo/")
		fmt.Printf("%-40s %s\n", o, k)
	}
	// Output:
	// profile=ia form=urlkey                   org,archive:8080)/goo
	// profile=ia form=heritrix                 http://(org,archive,:8080)/goo
	// profile=none form=ssurt                  org,archive,www,//8080:http:/goo/
	// profile=ia form=urlkey keep-www keep-trailing-slash org,archive,www:8080)/goo/
	// profile=google form=heritrix             http://(org,archive,www,:8080)/goo/
}

func ExampleOptions_Key_www() {
	// internetarchive/surt issue 28: "www1355544.com" is no "com".
	for _, o := range []surt.Options{{}, {WWWTwoLabels: true}} {
		k, _ := o.Key("http://www1355544.com/")
		fmt.Println(k)
	}
	// Output:
	// com)/
	// com,www1355544)/
}

func ExampleOptions_AppendKey() {
	// Keying a stream: one buffer, no allocation per line.
	var buf []byte
	for _, line := range []string{"http://a.example/x/", "filedesc:crawl.arc.gz", "", "http://b.example:99999/"} {
		var err error
		n := len(buf)
		buf, err = surt.Options{}.AppendKey(buf, line)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		buf = append(buf, '\n')
		fmt.Print(string(buf[n:]))
	}
	// Output:
	// example,a)/x
	// filedesc:crawl.arc.gz
	// -
	// error: uri: port above 65535 at offset 17 in port of "http://b.example:99999/"
}

func ExampleCanonicalize() {
	for _, p := range surt.Profiles() {
		c, err := surt.Canonicalize("HTTP://www.Example.com:80/a/./b/../%7Ec/?b=2&a=1#top", p)
		fmt.Printf("%-17s %s %v\n", p, c, err)
	}
	// Output:
	// ia                http://example.com/a/~c?a=1&b=2 <nil>
	// google            http://www.example.com:80/a/~c/?b=2&a=1 <nil>
	// whatwg            http://www.example.com/a/%7Ec/?b=2&a=1#top <nil>
	// semantic-precise  http://www.example.com/a/~c/?a=1&b=2#top <nil>
	// aggressive        http://example.com/a/~c?a=1&b=2 <nil>
	// rfc3986           http://www.example.com/a/~c/?b=2&a=1#top <nil>
	// none              HTTP://www.Example.com:80/a/./b/../%7Ec/?b=2&a=1#top <nil>
}

func ExampleOptions_Canonicalize() {
	o := surt.Options{Profile: surt.Aggressive, KeepWWW: true}
	c, _ := o.Canonicalize("https://www.example.com/A/?sid=0123456789abcdef0123&B=2&a=1")
	fmt.Println(c)
	// Output:
	// http://www.example.com/a?a=1&b=2
}

func ExampleOptions_AppendCanonical() {
	b, err := surt.Options{Profile: surt.Google}.AppendCanonical([]byte("url: "), "http://host/%25%32%35")
	fmt.Println(string(b), err)
	// Output:
	// url: http://host/%25 <nil>
}

func ExampleParseSSURT() {
	o := surt.Options{Profile: surt.None, Form: surt.SSURT}
	k, _ := o.Key("http://user:pass@foo.example.org:81/path?query#frag")
	fmt.Println(k)
	u, err := surt.ParseSSURT(k)
	fmt.Println(u, err)
	// Output:
	// org,example,foo,//81:http@user:pass:/path?query#frag
	// http://user:pass@foo.example.org:81/path?query#frag <nil>
}

func ExampleParseProfile() {
	p, err := surt.ParseProfile("semantic_precise")
	fmt.Println(p, err)
	_, err = surt.ParseProfile("browser")
	fmt.Println(errors.Is(err, surt.ErrProfile))
	fmt.Println(err)
	// Output:
	// semantic-precise <nil>
	// true
	// surt: unknown canonicalization profile "browser" (want one of ia, google, whatwg, semantic-precise, aggressive, rfc3986, none)
}

func ExampleProfiles() {
	fmt.Println(surt.Profiles())
	// Output:
	// [ia google whatwg semantic-precise aggressive rfc3986 none]
}

func ExampleProfile_String() {
	fmt.Println(surt.IA, surt.SemanticPrecise)
	// Output:
	// ia semantic-precise
}

func ExampleForm_String() {
	fmt.Println(surt.URLKey, surt.Heritrix, surt.SSURT)
	// Output:
	// urlkey heritrix ssurt
}

func ExampleOptions_String() {
	fmt.Println(surt.Options{Profile: surt.Aggressive, Form: surt.SSURT, KeepWWW: true})
	// Output:
	// profile=aggressive form=ssurt keep-www
}

func ExampleProfileError() {
	_, err := surt.ParseProfile("nope")
	var pe *surt.ProfileError
	fmt.Println(errors.As(err, &pe), pe.Name)
	// Output:
	// true nope
}

func ExampleSite() {
	for _, h := range []string{"www.example.co.uk", "a.b.github.io", "www.食狮.公司.cn", "co.uk"} {
		s, ok := surt.Site(h)
		fmt.Println(s, ok)
	}
	// Output:
	// example.co.uk true
	// b.github.io true
	// 食狮.公司.cn true
	//  false
}

func ExampleSiteICANN() {
	s, ok := surt.SiteICANN("a.b.github.io")
	fmt.Println(s, ok)
	// Output:
	// github.io true
}

func ExamplePublicSuffix() {
	fmt.Println(surt.PublicSuffix("a.b.github.io"))
	fmt.Println(surt.PublicSuffix("www.example.co.uk"))
	fmt.Println(surt.PublicSuffix("intranet.local"))
	// Output:
	// github.io false
	// co.uk true
	// local false
}

func ExamplePublicSuffixICANN() {
	fmt.Println(surt.PublicSuffixICANN("a.b.github.io"))
	// Output:
	// io
}
