package extract_test

import (
	"fmt"
	"strings"

	"github.com/urikit/urikit/extract"
	"github.com/urikit/urikit/iri"
)

func ExampleNewScanner() {
	text := `Yes, Jim, I found it under "http://www.w3.org/Addressing/",
but you can probably pick it up from <ftp://ds.internic.
net/rfc/>.`
	s := extract.NewScanner(strings.NewReader(text), extract.Options{})
	for s.Scan() {
		m := s.Match()
		fmt.Println(m.URI, m.Wrapper, m.Line)
	}
	// Output:
	// http://www.w3.org/Addressing/ quote 1
	// ftp://ds.internic.net/rfc/ angle 2
}

func ExampleOptions() {
	text := "Visit www.w3.org/Addressing/ or <https://例え.jp/>."
	s := extract.NewScanner(strings.NewReader(text), extract.Options{Abbrev: true, Map: iri.ToURI})
	for s.Scan() {
		m := s.Match()
		fmt.Printf("%s %q abbrev=%v iri=%v\n", m.URI, m.Raw, m.Abbrev, m.IRI)
	}
	// Output:
	// http://www.w3.org/Addressing/ "www.w3.org/Addressing/" abbrev=true iri=false
	// https://xn--r8jz45g.jp/ "<https://例え.jp/>" abbrev=false iri=true
}

func ExampleScanner_Match() {
	s := extract.NewScanner(strings.NewReader("see http://example.com/long-\n  name.html"), extract.Options{BothReadings: true})
	for s.Scan() {
		fmt.Println(s.Match().URI)
		fmt.Println(s.Match().Alt)
	}
	// Output:
	// http://example.com/long-name.html
	// http://example.com/longname.html
}

func ExampleScanner_NextRecord() {
	// Records separated by NUL bytes, as "find -print0" writes them.
	text := "see http://a.example/\x00nothing\x00<ftp://b.example/f>"
	s := extract.NewScanner(strings.NewReader(text), extract.Options{Records: true})
	for n := 0; s.NextRecord(); n++ {
		fmt.Println("record", n)
		for s.Scan() {
			fmt.Println(" ", s.Match().URI, s.Match().Start)
		}
	}
	// Output:
	// record 0
	//   http://a.example/ 4
	// record 1
	// record 2
	//   ftp://b.example/f 0
}
