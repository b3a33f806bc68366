package urn

import (
	"errors"
	"strings"
	"testing"
)

// The 2015 draft, section 6 (RFC 8141 section 5).
func TestClassifyNID(t *testing.T) {
	tests := []struct {
		nid  string
		want NIDClass
	}{
		{"isbn", NIDFormal},
		{"example", NIDFormal},
		{"3gpp", NIDFormal},
		{"urn-7", NIDInformal},           // 6.2 example
		{"urn-1234", NIDInformal},        // 6.2
		{"URN-10", NIDInformal},          // case-insensitive
		{"urn-0", NIDMalformedInformal},  // DigitNonZero
		{"urn-07", NIDMalformedInformal}, // no leading zeros
		{"urn-s", NIDMalformedInformal},  // digits only
		{"urn-1a", NIDMalformedInformal},
		{"urn", NIDReservedURN}, // RFC 2141 2.1, 2012 draft 2.1
		{"URN", NIDReservedURN},
		{"de", NIDCountryCode}, // 6.1 rule 3 and last paragraph
		{"FI", NIDCountryCode},
		{"10", NIDTooShort}, // 6.1 rule 3
		{"a1", NIDTooShort},
		{"de-bvb", NIDCountryCodePrefix},      // 6.1 rule 4
		{"xn--abc", NIDTwoLetterDoubleHyphen}, // 6.1 rule 5
		{"ab--c", NIDTwoLetterDoubleHyphen},   // 6.1 rule 5
		{"X-foo", NIDExperimental},            // 6.1 rule 6
		{"x-foo", NIDExperimental},
		{"1-foo", NIDFormal},
		{"urnx", NIDFormal},
		{"a", NIDInvalid},
		{"ab-", NIDInvalid},
		{"a_b", NIDInvalid},
		{strings.Repeat("a", 33), NIDInvalid},
	}
	for _, tt := range tests {
		c := ClassifyNID(tt.nid)
		if c.Class != tt.want {
			t.Errorf("ClassifyNID(%q) = %v, want %v", tt.nid, c.Class, tt.want)
		}
		if c.Class.Valid() != (tt.want == NIDFormal || tt.want == NIDInformal) {
			t.Errorf("%v.Valid() wrong", c.Class)
		}
		if c.Class.Rule() == "" || !strings.Contains(c.String(), tt.nid) {
			t.Errorf("ClassifyNID(%q) = %q has no rule", tt.nid, c)
		}
	}
}

func TestCheckNID(t *testing.T) {
	tests := []struct {
		nid    string
		off    int
		reason error
	}{
		{"isbn", -1, nil},
		{"example", -1, nil},
		{"a-b", -1, nil},
		{"urn", -1, nil},                             // reserved by registration (ClassifyNID), not the grammar
		{"a", 1, ErrNIDTooShort},                     // RFC 8141 2: at least 2 characters
		{"-ab", 0, ErrInvalidNID},                    // starts with alphanum
		{"ab-", 3, ErrNIDHyphen},                     // ends with alphanum
		{"a_b", 1, ErrInvalidNID},                    // ldh only
		{strings.Repeat("a", 33), 32, ErrNIDTooLong}, // at most 32
		{"", 0, ErrInvalidNID},
	}
	for _, tt := range tests {
		err := CheckNID(tt.nid)
		var pe *ParseError
		if tt.reason == nil {
			if err != nil {
				t.Errorf("CheckNID(%q) = %v", tt.nid, err)
			}
			continue
		}
		if !errors.As(err, &pe) || pe.Input != tt.nid || pe.Component != ComponentNID || !errors.Is(err, tt.reason) || pe.Offset != tt.off {
			t.Errorf("CheckNID(%q) = %v, want %v at %d", tt.nid, err, tt.reason, tt.off)
		}
	}
}
