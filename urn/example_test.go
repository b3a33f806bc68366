package urn_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/urn"
)

func ExampleParse() {
	u, err := urn.Parse("URN:example:a123,z456?+CCResolve:cc=uk?=lang=en#chapter1")
	if err != nil {
		panic(err)
	}
	r, _ := u.RComponent()
	q, _ := u.QComponent()
	f, _ := u.FComponent()
	fmt.Println(u.NID(), u.NSS())
	fmt.Println(r, q, f)
	// Output:
	// example a123,z456
	// CCResolve:cc=uk lang=en chapter1
}

func ExampleParse_error() {
	_, err := urn.Parse("urn:example:a/b?c")
	var pe *urn.ParseError
	if errors.As(err, &pe) {
		fmt.Println(pe.Offset, pe.Component, errors.Is(err, urn.ErrInvalidCharacter))
	}
	fmt.Println(err)
	// Output:
	// 16 q-component true
	// urn: invalid character 'c' at offset 16 in q-component of "urn:example:a/b?c"
}

func ExampleMustParse() {
	u := urn.MustParse("urn:isbn:0-395-36341-1")
	fmt.Println(u.NID())
	// Output: isbn
}

func ExampleParseWith_dialects() {
	// The 2015 draft puts "?" q-component before "??" r-component.
	u, _ := urn.ParseWith("urn:example:weather?op=map??CCResolve:cc=uk", urn.Options{Dialect: urn.Draft2015})
	q, _ := u.QComponent()
	r, _ := u.RComponent()
	fmt.Println(q, "|", r)

	// The 2012 draft has query directives.
	v, _ := urn.ParseWith("URN:ISBN:0-395-36341-1?s=I2L&c=ToC", urn.Options{Dialect: urn.Draft2012})
	for _, d := range v.Directives() {
		fmt.Println(d.Keyword, d.Value)
	}

	// RFC 2141 has no "&" in the NSS.
	_, err := urn.ParseWith("urn:a:b&c", urn.Options{Dialect: urn.RFC2141})
	fmt.Println(err)
	// Output:
	// op=map | CCResolve:cc=uk
	// s I2L
	// c ToC
	// urn: invalid character '&' at offset 7 in NSS of "urn:a:b&c"
}

func ExampleDialectByName() {
	d, ok := urn.DialectByName("draft2012")
	fmt.Println(d, ok, d == urn.Draft2012)
	// Output: draft2012 true true
}

func ExampleURN_Key() {
	// RFC 8141 section 3.2.
	for _, s := range []string{"URN:EXAMPLE:a123%2cz456?=xyz", "urn:example:a123,z456#789"} {
		fmt.Println(urn.MustParse(s).Key())
	}
	// Output:
	// urn:example:a123%2Cz456
	// urn:example:a123,z456
}

func ExampleURN_KeyWith() {
	u := urn.MustParse("URN:ISBN:0-395-36341-1")
	fmt.Println(u.KeyWith(urn.NamespaceRules))
	v, _ := urn.ParseWith("urn:foo:a123,456?x=y&c=ToC", urn.Options{Dialect: urn.Draft2012})
	fmt.Println(v.KeyWith(0))             // 2012 draft step 5a
	fmt.Println(v.KeyWith(urn.KeepQuery)) // step 5b
	// Output:
	// urn:isbn:0395363411
	// urn:foo:a123,456
	// urn:foo:a123,456?c=ToC&x=y
}

func ExampleEqual() {
	a := urn.MustParse("urn:example:a123,z456")
	fmt.Println(urn.Equal(a, urn.MustParse("URN:EXAMPLE:a123,z456?+abc")))
	fmt.Println(urn.Equal(a, urn.MustParse("urn:example:A123,z456")))
	fmt.Println(urn.Equal(a, urn.MustParse("urn:example:a123%2Cz456")))
	// Output:
	// true
	// false
	// false
}

func ExampleEqualWith() {
	a := urn.MustParse("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6")
	b := urn.MustParse("urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6")
	fmt.Println(urn.Equal(a, b), urn.EqualWith(a, b, urn.NamespaceRules))
	// Output: false true
}

func ExampleParseWith() {
	u, err := urn.ParseWith("urn:foo:a123,456?s=I2L", urn.Options{Dialect: urn.Draft2012})
	fmt.Println(u.Service())
	fmt.Println(err)
	_, err = urn.ParseWith("urn:foo:a", urn.Options{Dialect: 9})
	fmt.Println(err)
	// Output:
	// I2L true
	// <nil>
	// urn: invalid options: unknown dialect 9
}

func ExampleScheme() {
	r := uri.MustRegistry(uri.DefaultRegistry().With(urn.Scheme(urn.Options{})))
	fmt.Println(r.Check(uri.MustParse("urn:a:b")))
	v, _ := r.View(uri.MustParse("urn:Example:x?=q"))
	fmt.Println(v.(urn.URN).NID())
	// Output:
	// urn: namespace identifier shorter than 2 characters at offset 5 in NID of "urn:a:b"
	// Example
}

func ExampleURN_MarshalText() {
	var v struct{ ID urn.URN }
	err := json.Unmarshal([]byte(`{"ID": "urn:isbn:0-395-36341-1"}`), &v)
	fmt.Println(v.ID.NID(), err)
	b, _ := json.Marshal(v)
	fmt.Println(string(b))
	// Output:
	// isbn <nil>
	// {"ID":"urn:isbn:0-395-36341-1"}
}

func ExampleURN_Normalize() {
	fmt.Println(urn.MustParse("uRn:Foo:%c3%a9?+r").Normalize())
	// Output: urn:foo:%C3%A9?+r
}

func ExampleClassifyNID() {
	for _, nid := range []string{"isbn", "urn-7", "urn-07", "de", "xn--abc", "X-foo"} {
		c := urn.ClassifyNID(nid)
		fmt.Println(nid, c.Class, c.Class.Valid())
	}
	// Output:
	// isbn formal true
	// urn-7 informal true
	// urn-07 malformed-informal false
	// de country-code false
	// xn--abc a-label-prefix false
	// X-foo experimental false
}

func ExampleFromNative() {
	u, _ := urn.FromNative("example", "а123,z456/1?") // a Cyrillic а
	fmt.Println(u)
	// Output: urn:example:%D0%B0123,z456%2F1%3F
}

func ExampleEncodeNSS() {
	fmt.Println(urn.EncodeNSS("Bjørnson #1"))
	// Output: Bj%C3%B8rnson%20%231
}

func ExampleURN_Display() {
	d := urn.MustParse("urn:example:%D0%B0123,z456").Display()
	fmt.Println(d.Text, d.MixedScript)
	fmt.Println(d.Warnings[0])
	// Output:
	// urn:example:а123,z456 true
	// U+0430 CYRILLIC SMALL LETTER A (Cyrillic) among Latin letters, once
}

func ExampleLookup() {
	ns, ok := urn.Lookup("ISBN")
	fmt.Println(ns.NID, ok, ns.Implemented())
	fmt.Println(ns.Reference, "/", ns.Rules)
	fmt.Println(ns.Validate("0-395-36341-2"))
	// Output:
	// isbn true true
	// International ISBN Agency / RFC 3187
	// urn:isbn: "0-395-36341-2": ISBN-10 check digit does not match (RFC 3187)
}

func ExampleNamespaces() {
	n := 0
	for _, ns := range urn.Namespaces() {
		if ns.Implemented() {
			n++
		}
	}
	fmt.Println(n)
	// Output: 9
}

func ExampleURN_ValidateNamespace() {
	fmt.Println(urn.MustParse("urn:oid:1.3.6.1").ValidateNamespace())
	fmt.Println(urn.MustParse("urn:oid:1.3.06.1").ValidateNamespace())
	// Output:
	// <nil>
	// urn:oid: "1.3.06.1": arc with a leading zero in OID (RFC 3061)
}

func ExampleURN_Directives() {
	u, _ := urn.ParseWith("urn:foo:a?s=I2L&s=I2R&c=ToC", urn.Options{Dialect: urn.Draft2012})
	for _, d := range u.Directives() {
		fmt.Println(d.Keyword, d.Value, d.Ignored)
	}
	_, ok := u.Service()
	fmt.Println(ok)
	// Output:
	// s I2L true
	// s I2R true
	// c ToC false
	// false
}

func ExampleURN_Service() {
	u, _ := urn.ParseWith("urn:isbn:0-395-36341-1?s=I2L&c=ToC", urn.Options{Dialect: urn.Draft2012})
	s, _ := u.Service()
	c, _ := u.ResourceComponent()
	fmt.Println(s, urn.IsServiceDesignator(s), c)
	// Output: I2L true ToC
}

func ExampleURN_HasNUL() {
	u := urn.MustParse("urn:example:a%00")
	fmt.Println(u.HasNUL())
	_, err := urn.ParseWith("urn:example:a%00", urn.Options{Dialect: urn.Draft2012})
	fmt.Println(err)
	// Output:
	// true
	// urn: NUL octet at offset 15 in NSS of "urn:example:a%00"
}

func ExampleIsParamsClass() {
	fmt.Println(urn.IsParamsClass("xml"), urn.IsParamsClass("nope"))
	// Output: true false
}

func ExampleCheckNID() {
	fmt.Println(urn.CheckNID("isbn"))
	fmt.Println(urn.CheckNID("ab-"))
	// Output:
	// <nil>
	// urn: namespace identifier ends with a hyphen at offset 3 in NID of "ab-"
}

func ExampleCheckDigit() {
	d, ok, err := urn.CheckDigit("urn:nbn:de:gbv:089-332175294")
	fmt.Println(string(d), ok, err)
	fmt.Println(urn.MustParse("urn:nbn:de:gbv:089-3321752946").ValidateNamespace())
	// Output:
	// 5 true <nil>
	// urn:nbn: "de:gbv:089-3321752946": check digit is 6, want 5 (the DNB's URN check digit, computed over the whole URN) (RFC 8458)
}
