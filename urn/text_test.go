package urn

import (
	"encoding/json"
	"errors"
	"testing"
)

// Issue 7, defect 6: a URN encoded to {} in JSON. It is text now, both
// ways, exactly as written, components included; a bad URN is a
// *ParseError with its offset and leaves the value unchanged.
func TestTextMarshaling(t *testing.T) {
	for _, s := range []string{"urn:isbn:0-395-36341-1", "URN:Example:a%2c?+r?=q#f", "urn:example:a?=b"} {
		b, err := json.Marshal(struct{ U URN }{MustParse(s)})
		if err != nil || string(b) != `{"U":`+quoteJSON(s)+`}` {
			t.Errorf("json.Marshal(%q) = %s, %v", s, b, err)
			continue
		}
		var v struct{ U URN }
		if err := json.Unmarshal(b, &v); err != nil || v.U.String() != s || !Equal(v.U, MustParse(s)) {
			t.Errorf("JSON round trip of %q gave %q, %v", s, v.U, err)
		}
	}
	u := MustParse("urn:example:kept")
	err := u.UnmarshalText([]byte("urn:a:b"))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Offset != 5 || u.String() != "urn:example:kept" {
		t.Errorf("UnmarshalText(urn:a:b) = %v (offset %v), value %q", err, pe, u)
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
