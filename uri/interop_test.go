package uri

import (
	"encoding/json"
	"errors"
	"net/url"
	"testing"
)

func TestTextMarshaling(t *testing.T) {
	// issue 2: exact round trip, empty query and fragment kept.
	for _, s := range []string{"foo://a/b?#", "http://[v7.x]/", "", "#d"} {
		b, err := json.Marshal(struct{ U URI }{MustParse(s)})
		if err != nil {
			t.Fatal(err)
		}
		var v struct{ U URI }
		if err := json.Unmarshal(b, &v); err != nil || v.U.String() != s {
			t.Errorf("%q: JSON round trip gave %q, %v", s, v.U, err)
		}
	}
	// issue 2: "http://u@s@h/" fails at offset 10; UnmarshalText is strict.
	var u URI
	err := u.UnmarshalText([]byte("http://u@s@h/"))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Offset != 10 {
		t.Errorf("UnmarshalText error %v, want offset 10", err)
	}
}

func TestURLConversion(t *testing.T) {
	tests := []struct {
		in, want string // want: the reference after URL() and FromURL
	}{
		{"http://a/b?c#d", "http://a/b?c#d"},
		{"foo://a/b?", "foo://a/b?"},         // net/url keeps an empty query (ForceQuery)
		{"foo://a/b#", "foo://a/b"},          // issue 2: net/url loses an empty fragment
		{"http://a/b%2Fc", "http://a/b%2Fc"}, // RawPath keeps the encoded "/"
	}
	for _, tt := range tests {
		v, err := MustParse(tt.in).URL()
		if err != nil {
			t.Errorf("%q: URL: %v", tt.in, err)
			continue
		}
		u, err := FromURL(v)
		if err != nil || u.String() != tt.want {
			t.Errorf("%q: FromURL(URL()) = %q, %v; want %q", tt.in, u, err, tt.want)
		}
	}
	// issue 2: net/url rejects valid IPvFuture literals.
	if _, err := MustParse("http://[v7.x]/").URL(); err == nil {
		t.Log("net/url now accepts IPvFuture")
	}
	// issue 2: net/url accepts "http://a/{x}" and writes it back encoded.
	v, err := url.Parse("http://a/{x}")
	if err != nil {
		t.Fatal(err)
	}
	if u, err := FromURL(v); err != nil || u.String() != "http://a/%7Bx%7D" {
		t.Errorf("FromURL(%q) = %q, %v", v, u, err)
	}
	// issue 2: net/url accepts "http://a]/", RFC 3986 does not.
	if v, err = url.Parse("http://a]/"); err != nil {
		t.Skipf("net/url now rejects http://a]/: %v", err)
	}
	if _, err := FromURL(v); err == nil {
		t.Errorf("FromURL(%q) accepted a non-RFC 3986 URL", v)
	}
}
