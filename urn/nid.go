package urn

import (
	"errors"

	"github.com/urikit/urikit/internal/chars"
)

// NIDClass is the kind of a namespace identifier, after section 6 of the
// 2015 draft (RFC 8141 section 5): formal and informal NIDs are the two
// valid kinds; the others are forms that the draft reserves or refuses.
type NIDClass uint8

const (
	// NIDFormal is a NID that breaks none of the rules of section 6.1 for
	// formal namespaces (whether it is registered is Lookup's question).
	NIDFormal NIDClass = iota
	// NIDInformal is "urn-" followed by a number without leading zeros
	// (section 6.2: InformalNamespaceName = "urn-" Number).
	NIDInformal
	// NIDReservedURN is the NID "urn", reserved so that it is not
	// confused with the scheme (RFC 2141 section 2.1, 2012 draft section
	// 2.1).
	NIDReservedURN
	// NIDMalformedInformal starts with "urn-" but is not followed by a
	// number without leading zeros: "urn-" is reserved for informal
	// namespaces (section 6.1 rule 2) and section 6.2 fixes their form.
	NIDMalformedInformal
	// NIDCountryCode is two letters, reserved for NIDs based on ISO 3166-1
	// alpha-2 country codes (section 6.1, last paragraph, and rule 3).
	NIDCountryCode
	// NIDCountryCodePrefix is two letters and "-" followed by more,
	// reserved for national registrations (section 6.1 rule 4).
	NIDCountryCodePrefix
	// NIDTwoLetterDoubleHyphen is two letters followed by "--", as the
	// "xn--" of DNS A-labels (section 6.1 rule 5, RFC 5890).
	NIDTwoLetterDoubleHyphen
	// NIDExperimental starts with "X-", the experimental namespaces of
	// RFC 3406 that RFC 6648 retired (section 6.1 rule 6).
	NIDExperimental
	// NIDTooShort is two characters that are not both letters: formal
	// NIDs must be more than two characters long (section 6.1 rule 3).
	NIDTooShort
	// NIDInvalid is not a NID at all under RFC 8141's grammar.
	NIDInvalid
)

var nidClassNames = [...]string{
	NIDFormal:                "formal",
	NIDInformal:              "informal",
	NIDReservedURN:           "reserved",
	NIDMalformedInformal:     "malformed-informal",
	NIDCountryCode:           "country-code",
	NIDCountryCodePrefix:     "country-code-prefix",
	NIDTwoLetterDoubleHyphen: "a-label-prefix",
	NIDExperimental:          "experimental",
	NIDTooShort:              "too-short",
	NIDInvalid:               "invalid",
}

var nidClassRules = [...]string{
	NIDFormal:                "2015 draft section 6.1 (RFC 8141 section 5.1): formal NID",
	NIDInformal:              `2015 draft section 6.2 (RFC 8141 section 5.2): "urn-" Number`,
	NIDReservedURN:           `RFC 2141 section 2.1 and 2012 draft section 2.1: the NID "urn" is reserved`,
	NIDMalformedInformal:     `2015 draft sections 6.1 rule 2 and 6.2: "urn-" must be followed by a number without leading zeros`,
	NIDCountryCode:           "2015 draft section 6.1 rule 3: two-letter NIDs are reserved for ISO 3166-1 country codes",
	NIDCountryCodePrefix:     `2015 draft section 6.1 rule 4: ALPHA ALPHA "-" is reserved for country-code namespaces`,
	NIDTwoLetterDoubleHyphen: `2015 draft section 6.1 rule 5: two letters and "--" (as "xn--") are reserved for A-labels`,
	NIDExperimental:          `2015 draft section 6.1 rule 6: "X-" was the experimental prefix of RFC 3406`,
	NIDTooShort:              "2015 draft section 6.1 rule 3: a formal NID must be more than two characters long",
	NIDInvalid:               `RFC 8141 section 2: NID = (alphanum) 0*30(ldh) (alphanum)`,
}

// String returns the class's short name, as in "informal".
func (c NIDClass) String() string {
	if int(c) < len(nidClassNames) {
		return nidClassNames[c]
	}
	return "unknown"
}

// Valid reports whether c is a kind of NID that may be assigned: formal
// or informal.
func (c NIDClass) Valid() bool { return c == NIDFormal || c == NIDInformal }

// Rule returns the rule that puts a NID in class c, citing its section.
func (c NIDClass) Rule() string {
	if int(c) < len(nidClassRules) {
		return nidClassRules[c]
	}
	return ""
}

// NIDClassification is the result of ClassifyNID.
type NIDClassification struct {
	NID   string
	Class NIDClass
}

// String returns the NID, its class and the rule, as in
// `"xn--abc" is a-label-prefix (2015 draft section 6.1 rule 5: ...)`.
func (c NIDClassification) String() string {
	return `"` + c.NID + `" is ` + c.Class.String() + " (" + c.Class.Rule() + ")"
}

// ClassifyNID classifies nid according to section 6 of the 2015 draft
// (RFC 8141 section 5). The comparison is case-insensitive.
func ClassifyNID(nid string) NIDClassification {
	return NIDClassification{NID: nid, Class: classifyNID(nid)}
}

func classifyNID(nid string) NIDClass {
	if !validNID8141(nid) {
		return NIDInvalid
	}
	lower := func(i int) byte { return chars.Lower(nid[i]) }
	isAlpha := func(i int) bool { return i < len(nid) && chars.Is(nid[i], chars.Alpha) }
	switch {
	case len(nid) == 3 && lower(0) == 'u' && lower(1) == 'r' && lower(2) == 'n':
		return NIDReservedURN
	case len(nid) >= 4 && lower(0) == 'u' && lower(1) == 'r' && lower(2) == 'n' && nid[3] == '-':
		// Number = DigitNonZero 0*Digit
		num := nid[4:]
		if len(num) == 0 || num[0] == '0' {
			return NIDMalformedInformal
		}
		for i := 0; i < len(num); i++ {
			if !chars.Is(num[i], chars.Digit) {
				return NIDMalformedInformal
			}
		}
		return NIDInformal
	case len(nid) == 2 && isAlpha(0) && isAlpha(1):
		return NIDCountryCode
	case len(nid) <= 2:
		return NIDTooShort
	case isAlpha(0) && isAlpha(1) && nid[2] == '-' && len(nid) > 3 && nid[3] == '-':
		return NIDTwoLetterDoubleHyphen
	case isAlpha(0) && isAlpha(1) && nid[2] == '-':
		return NIDCountryCodePrefix
	case lower(0) == 'x' && nid[1] == '-':
		return NIDExperimental
	}
	return NIDFormal
}

// validNID8141 reports whether nid matches
// NID = (alphanum) 0*30(ldh) (alphanum).
func validNID8141(nid string) bool {
	if len(nid) < 2 || len(nid) > 32 {
		return false
	}
	if !chars.Is(nid[0], alnum) || !chars.Is(nid[len(nid)-1], alnum) {
		return false
	}
	for i := 1; i < len(nid)-1; i++ {
		if !chars.Is(nid[i], alnum) && nid[i] != '-' {
			return false
		}
	}
	return true
}

// CheckNID reports whether nid can be the NID of an RFC 8141 URN (the
// grammar of section 2: 2 to 32 letters, digits and hyphens, starting
// and ending with a letter or digit; "urn" is reserved by registration,
// which ClassifyNID reports, not by the grammar): nil, or the
// *ParseError of the URN "urn:" nid ":x" with its Input and Offset
// moved to nid itself.
func CheckNID(nid string) error {
	_, err := Parse("urn:" + nid + ":x")
	var pe *ParseError
	if !errors.As(err, &pe) {
		return err
	}
	off := min(max(pe.Offset-4, 0), len(nid))
	return &ParseError{Input: nid, Offset: off, Component: ComponentNID, Reason: pe.Reason}
}
