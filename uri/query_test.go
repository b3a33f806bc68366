package uri

import (
	"slices"
	"testing"
)

type normPair struct {
	rawKey, rawValue, key, value string
	hasValue                     bool
}

func TestQueryParams(t *testing.T) {
	tests := []struct {
		in   string
		want []normPair
	}{
		// golang/go#29985: order and duplicates must survive (request signing).
		{"http://a/?b=2&a=1&b=3", []normPair{
			{"b", "2", "b", "2", true}, {"a", "1", "a", "1", true}, {"b", "3", "b", "3", true}}},
		// RFC 3986 2.1: triplets decode; "+" has no meaning in RFC 3986.
		{"http://a/?k%20ey=v%26al+ue", []normPair{{"k%20ey", "v%26al+ue", "k ey", "v&al+ue", true}}},
		// "=" present with an empty value vs absent.
		{"?a=&b", []normPair{{"a", "", "a", "", true}, {"b", "", "b", "", false}}},
		// Only the first "=" splits (HTML form decoding does the same).
		{"?a=b=c", []normPair{{"a", "b=c", "a", "b=c", true}}},
		// ";" is not a separator (documented; golang/go#25192 removed it from net/url).
		{"?a=1;b=2", []normPair{{"a", "1;b=2", "a", "1;b=2", true}}},
		// Empty pieces are skipped, as the HTML form decoding does.
		{"?&a=1&&", []normPair{{"a", "1", "a", "1", true}}},
		{"http://a/", nil},
		{"http://a/?", nil},
	}
	for _, tt := range tests {
		u := MustParse(tt.in)
		var got []normPair
		for i, p := range u.QueryParams().All() {
			if i != len(got) {
				t.Errorf("%q: index %d, want %d", tt.in, i, len(got))
			}
			got = append(got, normPair{p.RawKey(), p.RawValue(), p.Key(), p.Value(), p.HasValue()})
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: pairs %+v, want %+v", tt.in, got, tt.want)
		}
		if n := u.QueryParams().Len(); n != len(tt.want) {
			t.Errorf("%q: Len = %d", tt.in, n)
		}
		if r := u.QueryParams().Raw(); r != u.Query() {
			t.Errorf("%q: Raw = %q", tt.in, r)
		}
	}
}

func TestQueryLookup(t *testing.T) {
	p := MustParse("http://a/?b=2&a=1&b=3&c%3D=x&s=a+b%2Bc&a+b=form").QueryParams()
	if v, ok := p.Get("b"); !ok || v != "2" { // first value wins
		t.Errorf(`Get("b") = %q, %v`, v, ok)
	}
	if vs := p.Values("b"); !slices.Equal(vs, []string{"2", "3"}) {
		t.Errorf(`Values("b") = %q`, vs)
	}
	if v, ok := p.Get("c="); !ok || v != "x" { // keys compare decoded
		t.Errorf(`Get("c=") = %q, %v`, v, ok)
	}
	if _, ok := p.Get("z"); ok {
		t.Error(`Get("z") found`)
	}
	if v, _ := p.Get("s"); v != "a+b+c" { // RFC 3986: "+" is data
		t.Errorf(`Get("s") = %q`, v)
	}
	// application/x-www-form-urlencoded (HTML): "+" is a space.
	if v, ok := p.FormGet("s"); !ok || v != "a b+c" {
		t.Errorf(`FormGet("s") = %q`, v)
	}
	if v, ok := p.FormGet("a b"); !ok || v != "form" {
		t.Errorf(`FormGet("a b") = %q, %v`, v, ok)
	}
	if q, ok := p.Lookup("a"); !ok || q.Raw() != "a=1" || q.FormKey() != "a" || q.FormValue() != "1" {
		t.Errorf(`Lookup("a") = %+v`, q)
	}
	if n := testing.AllocsPerRun(100, func() {
		for range p.All() {
		}
		p.Lookup("b")
	}); n != 0 {
		t.Errorf("iteration and Lookup: %v allocs", n)
	}
	if got := ParseParams("x=%zz").Values("x"); !slices.Equal(got, []string{"%zz"}) {
		t.Errorf("malformed triplet: %q", got)
	}
}

func TestSearchKeywords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"http://info.cern.ch/hypertext/Index?www+uri", []string{"www", "uri"}}, // 1993 URL draft: search = xalphas [ + search ]
		{"wais://host/db?one", []string{"one"}},                                 // 1994 URL draft: wais database ? search
		{"http://a/?c%2B%2B+lang%20x", []string{"c++", "lang x"}},               // escapes decoded per keyword
		{"http://a/?", nil},
		{"http://a/", nil},
	}
	for _, tt := range tests {
		if got := MustParse(tt.in).SearchKeywords(); !slices.Equal(got, tt.want) {
			t.Errorf("SearchKeywords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
