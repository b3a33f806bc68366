package scheme

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
)

// TestSearchWords: the 1993 draft's "http://host/path?search", search =
// xalphas [ "+" search ]: words joined by "+". A query with "=" or "&"
// is a form's name=value pairs, not a search, so there are no words
// (JSON null), as Perl's URI query_keywords reads it (issue 16, item 3).
func TestSearchWords(t *testing.T) {
	for _, tt := range []struct {
		url   string
		words []string
	}{
		{"http://h/s?a+b%2Bc", []string{"a", "b+c"}},
		{"http://h/s?word", []string{"word"}},
		{"https://h/?a%3Db", []string{"a=b"}}, // an escaped "=" is part of a word
		{"http://h/s?q=now", nil},
		{"https://h/s?a&b", nil},
		{"https://h/s?a+b&c", nil},
		{"https://h/s?utm_source=x", nil},
		{"http://h/s?", nil},
		{"http://h/s", nil},
	} {
		u := uri.MustParse(tt.url)
		v, err := ParseHTTP(u)
		if err != nil || !slices.Equal(v.SearchWords(), tt.words) {
			t.Errorf("%s: %q, %v", tt.url, v.SearchWords(), err)
		}
		var want any
		if tt.words != nil {
			w := []any{}
			for _, x := range tt.words {
				w = append(w, x)
			}
			want = w
		}
		if got := viewJSON(t, tt.url)["search_words"]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: JSON search_words %v", tt.url, got)
		}
		j, _ := AppendJSON(nil, u)
		m, _ := v.MarshalJSON()
		if string(j) != string(m) {
			t.Errorf("%s: AppendJSON %s, MarshalJSON %s", tt.url, j, m)
		}
	}
}

// TestFileUNC: RFC 8089 E.3.1, "\\host.example.com\Share\path\to\file.txt
// would be transformed into the URI: file://host.example.com/Share/path/to/file.txt",
// read the other way; and E.3.2, "file:////host.example.com/path/to/file"
// and "file://///host.example.com/path/to/file", which "further limits
// the definition of a "local file URI"" (issue 16, item 4).
func TestFileUNC(t *testing.T) {
	for _, tt := range []struct {
		url, windows string
		local        bool
	}{
		{"file://host.example.com/Share/path/to/file.txt", `\\host.example.com\Share\path\to\file.txt`, false},
		{"file://host.example.com/Share", `\\host.example.com\Share`, false},
		{"file://h/a%20b/c", `\\h\a b\c`, false},
		{"file:////host.example.com/path/to/file", `\\host.example.com\path\to\file`, false},
		{"file://///host.example.com/path/to/file", `\\host.example.com\path\to\file`, false},
		{"file://server/c:/x", `\\server\c:\x`, false},
		// Not UNC strings: a local host, no share.
		{"file://localhost/Share/x", "", true},
		{"file:///Share/x", "", true},
		{"file://host.example.com/", "", false},
		{"file://host.example.com", "", false},
		{"file:////host.example.com", "", true},
		{"file:///c:/x", `c:\x`, true},
	} {
		v, err := ParseFile(uri.MustParse(tt.url))
		if err != nil || v.WindowsPath() != tt.windows || v.Local() != tt.local {
			t.Errorf("%s: windows %q local %v, %v; want %q %v", tt.url, v.WindowsPath(), v.Local(), err, tt.windows, tt.local)
		}
	}
}

// TestMailtoLinear: every input shape of the mailto grammar costs time
// and memory linear in its length.
func TestMailtoLinear(t *testing.T) {
	for _, shape := range []struct{ name, head, unit string }{
		{"addresses", "mailto:", "a@b.c,"},
		{"to fields", "mailto:?", "to=a@b&"},
		{"to list", "mailto:?to=", "J%20D%20%3Ca@b%3E,"},
		{"quoted", "mailto:?to=", "%22a,b"},
		{"domain literal", "mailto:?to=a@%5B", ",,"},
		{"hfields", "mailto:a@b?", "x=1&"},
		{"phrase", "mailto:?to=", "a.b%20"},
	} {
		testshared.CheckLinearN(t, "mailto "+shape.name, 16<<10, func(n int) uri.URI {
			return uri.MustParse(shape.head + strings.Repeat(shape.unit, n/len(shape.unit)) + "x@y")
		}, func(u uri.URI) {
			ParseMailto(u)
			u.Key()
		})
	}
	testshared.CheckLinearN(t, "gopher key", 16<<10, func(n int) uri.URI {
		return uri.MustParse("gopher://h/1" + strings.Repeat("%2Fa%09", n/6) + "?b")
	}, func(u uri.URI) { u.Key() })
}
