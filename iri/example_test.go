package iri_test

import (
	"fmt"

	"github.com/urikit/urikit/iri"
)

func ExampleToURI() {
	s, _ := iri.ToURI("https://例え.jp/résumé?q=ü")
	fmt.Println(s)
	// Output: https://xn--r8jz45g.jp/r%C3%A9sum%C3%A9?q=%C3%BC
}

func ExampleToIRI() {
	for _, u := range []string{
		"http://www.example.org/D%C3%BCrst",
		"https://xn--mnchen-3ya.de/%7Euser",
		"//google%E3%80%82com",        // U+3002 would read as "."
		"http://%E2%80%8Bgoogle.com/", // a zero-width space
		"https://xn--pypal-4ve.com/",  // a Cyrillic letter among Latin ones
	} {
		s, _ := iri.ToIRI(u)
		fmt.Println(s)
	}
	// Output:
	// http://www.example.org/Dürst
	// https://münchen.de/~user
	// //google%E3%80%82com
	// http://%E2%80%8Bgoogle.com/
	// https://xn--pypal-4ve.com/
}

func ExampleParse() {
	u, err := iri.Parse("http://résumé.example.org/")
	fmt.Println(u.Host(), err)
	// Output: xn--rsum-bpad.example.org <nil>
}

func ExampleRepair() {
	u, changes, _ := iri.Repair(` <http://example.com/my page.html> `)
	fmt.Println(u)
	for _, c := range changes {
		fmt.Printf("%d %q -> %q\n", c.Offset, c.From, c.To)
	}
	// Output:
	// http://example.com/my%20page.html
	// 0 " " -> ""
	// 1 "<" -> ""
	// 23 " " -> "%20"
	// 33 ">" -> ""
	// 34 " " -> ""
}
