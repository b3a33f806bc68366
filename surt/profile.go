package surt

import (
	"errors"
	"strconv"
	"strings"
)

// Profile is a canonicalization profile: the rules that decide which
// URLs share a key. Each profile is the published rule set of a tool or
// document, documented rule by rule where it is implemented (ia.go,
// google.go, urlcanon.go) with its source. The zero Profile is IA, the
// profile of Wayback and pywb keys.
type Profile uint8

const (
	// IA is the Internet Archive's default: Safe Browsing's rules as
	// internetarchive/surt implements them (GoogleURLCanonicalizer), then
	// IAURLCanonicalizer's: lowercase, "www"/"wwwN." stripped, userinfo,
	// default port, session ids and fragment dropped, trailing slash
	// dropped, query sorted, empty "?" dropped. It is surt.surt()'s
	// DefaultIAURLCanonicalizer, which pywb and cdxj-indexer use, and
	// webarchive-commons' AggressiveIAURLCanonicalizer, which Wayback uses.
	IA Profile = iota
	// Google is Safe Browsing's canonicalization (Google Safe Browsing
	// API v4, "URLs and Hashing", section Canonicalization).
	Google
	// WHATWG is the URL Standard's basic URL parser and serializer: the
	// URL a browser makes of the input (package whatwg).
	WHATWG
	// SemanticPrecise is iipc/urlcanon's semantic_precise: WHATWG's
	// normalizations plus repeated percent-decoding and re-encoding,
	// host dot clean-up, collapsed slashes, userinfo removed and the
	// query sorted, the fragment kept.
	SemanticPrecise
	// Aggressive is iipc/urlcanon's aggressive: SemanticPrecise without
	// the fragment, plus https as http, "www" stripped, path and query
	// lowercased, session ids and the trailing slash dropped.
	Aggressive
	// RFC3986 is package uri's normalization (RFC 3986 sections 6.2.2
	// and 6.2.3, uri.URI.Normalize); the input must be an RFC 3986 URI.
	RFC3986
	// None leaves the URI as written; the input must be an RFC 3986 URI.
	// It is for keys of URLs that are canonical already.
	None
)

var profileNames = [...]string{
	IA:              "ia",
	Google:          "google",
	WHATWG:          "whatwg",
	SemanticPrecise: "semantic-precise",
	Aggressive:      "aggressive",
	RFC3986:         "rfc3986",
	None:            "none",
}

// Profiles lists every profile, in the order of the constants.
func Profiles() []Profile {
	ps := make([]Profile, len(profileNames))
	for k := range ps {
		ps[k] = Profile(k)
	}
	return ps
}

// String returns the profile's name as ParseProfile reads it: "ia",
// "google", "whatwg", "semantic-precise", "aggressive", "rfc3986",
// "none".
func (p Profile) String() string {
	if int(p) < len(profileNames) {
		return profileNames[p]
	}
	return "profile(" + strconv.Itoa(int(p)) + ")"
}

// ErrProfile is the reason of ParseProfile's error.
var ErrProfile = errors.New("unknown canonicalization profile")

// ParseProfile returns the profile called name (its String), compared
// without case; "semantic_precise" (urlcanon's spelling) is accepted
// too.
func ParseProfile(name string) (Profile, error) {
	n := strings.ReplaceAll(strings.ToLower(name), "_", "-")
	for k, s := range profileNames {
		if s == n {
			return Profile(k), nil
		}
	}
	return 0, &ProfileError{Name: name}
}

// ProfileError reports a profile name that ParseProfile does not know.
type ProfileError struct{ Name string }

func (e *ProfileError) Error() string {
	return "surt: unknown canonicalization profile " + strconv.Quote(e.Name) +
		" (want one of " + strings.Join(profileNames[:], ", ") + ")"
}

// Unwrap makes errors.Is(err, ErrProfile) true.
func (e *ProfileError) Unwrap() error { return ErrProfile }

// Form is the text of a key.
type Form uint8

const (
	// URLKey is the key of Wayback and pywb CDX lines, surt.surt()'s
	// default: the scheme dropped, the host reversed into comma-separated
	// labels and closed by ")": "http://www.archive.org/goo/?b&a" is
	// "org,archive)/goo?a&b".
	URLKey Form = iota
	// Heritrix is the SURT form of the Heritrix crawler (SURT.java of
	// webarchive-commons): the scheme kept, the authority in
	// parentheses, each host label followed by a comma, then the port
	// and the userinfo: "http://(org,archive,)/goo?a&b".
	Heritrix
	// SSURT is urlcanon's reversible SSURT (ssurt.rst): the reversed host
	// first, then "//", the port, the scheme and the userinfo:
	// "org,example,foo,//81:http@user:pass:/path?q#f". ParseSSURT turns
	// it back into the URL.
	SSURT
)

var formNames = [...]string{URLKey: "urlkey", Heritrix: "heritrix", SSURT: "ssurt"}

// String returns "urlkey", "heritrix" or "ssurt".
func (f Form) String() string {
	if int(f) < len(formNames) {
		return formNames[f]
	}
	return "form(" + strconv.Itoa(int(f)) + ")"
}

// Options choose the profile, the form of the key and the switches that
// archives ask of their canonicalizer. The zero Options are pywb's and
// Wayback's: the IA profile and the URLKey form.
type Options struct {
	Profile Profile
	Form    Form

	// KeepWWW keeps a leading "www" or "wwwN" label that the IA and
	// Aggressive profiles strip, so that www.example.com and example.com,
	// or www2 and www, keep apart (pywb issue 943).
	KeepWWW bool

	// WWWTwoLabels strips the "www"/"wwwN" label only when at least two
	// labels follow it: www.example.com is example.com, but
	// www1355544.com stays itself instead of becoming "com"
	// (internetarchive/surt issue 28).
	WWWTwoLabels bool

	// KeepTrailingSlash keeps the final "/" of a path that the IA and
	// Aggressive profiles drop, so that /dir/ and /dir keep apart
	// (ipwb issue 104).
	KeepTrailingSlash bool

	// TrailingComma ends the host of a URLKey with a comma, as
	// surt.surt(trailing_comma=True) does: "org,archive,)/". The Heritrix
	// and SSURT forms always have it.
	TrailingComma bool
}

// String returns the options in a form for logs and --json output, as
// "profile=ia form=urlkey keep-www".
func (o Options) String() string {
	var b strings.Builder
	b.WriteString("profile=" + o.Profile.String() + " form=" + o.Form.String())
	for _, f := range [...]struct {
		on   bool
		name string
	}{
		{o.KeepWWW, "keep-www"},
		{o.WWWTwoLabels, "www-two-labels"},
		{o.KeepTrailingSlash, "keep-trailing-slash"},
		{o.TrailingComma, "trailing-comma"},
	} {
		if f.on {
			b.WriteString(" " + f.name)
		}
	}
	return b.String()
}
