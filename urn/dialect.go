package urn

// Dialect selects the URN grammar a string is parsed against. The zero
// value is RFC8141.
type Dialect uint8

const (
	// RFC8141 is the published URN syntax (RFC 8141 section 2):
	// "urn:" NID ":" NSS, then "?+" r-component, "?=" q-component,
	// "#" f-component, in that order.
	RFC8141 Dialect = iota

	// Draft2015 is draft-ietf-urnbis-rfc2141bis-urn-14 (November 2015)
	// section 3: the same NID and NSS as RFC 8141, but "?" q-component
	// comes first and "??" r-component second, then "#" f-component.
	Draft2015

	// Draft2012 is draft-ietf-urnbis-rfc2141bis-urn-03 (October 2012)
	// section 2: NSS = 1*pchar (no "/"), a query made of directives
	// keywd "=" value joined by "&" (section 2.3), a fragment, and no NUL
	// octet anywhere, literal or percent-encoded (section 2.5.3).
	Draft2012

	// RFC2141 is the original URN syntax (RFC 2141 section 2): a NID of 1
	// to 32 letters, digits and hyphens (a trailing hyphen allowed), an
	// NSS without "&" or "~", and no query or fragment.
	RFC2141
)

var dialectNames = [...]string{
	RFC8141:   "rfc8141",
	Draft2015: "draft2015",
	Draft2012: "draft2012",
	RFC2141:   "rfc2141",
}

// String returns the dialect's name, the one DialectByName reads:
// "rfc8141", "draft2015", "draft2012" or "rfc2141".
func (d Dialect) String() string {
	if int(d) < len(dialectNames) {
		return dialectNames[d]
	}
	return "dialect(" + string(rune('0'+d%10)) + ")"
}

// DialectByName returns the dialect whose String is name.
func DialectByName(name string) (Dialect, bool) {
	for d, n := range dialectNames {
		if n == name {
			return Dialect(d), true
		}
	}
	return 0, false
}

// valid reports whether d is one of the four dialects.
func (d Dialect) valid() bool { return int(d) < len(dialectNames) }
