package uri

import "strings"

// Redacted returns u as a string with the password replaced by "xxxxx",
// as url.URL.Redacted does, for logs and messages: a URI with a password
// in its userinfo (deprecated by RFC 3986 3.2.1, still met) never shows
// it. Without a password it returns u.String().
func (u URI) Redacted() string {
	if _, ok := u.Password(); !ok {
		return u.s
	}
	user, _, _ := strings.Cut(u.Userinfo(), ":")
	return u.s[:u.authStart()] + user + ":xxxxx" + u.s[u.hostStart()-1:]
}

// User returns the user name part of the userinfo as written: the text
// before its first ":" (RFC 3986 3.2.1), and whether u has a userinfo
// at all ("http://@a/" has an empty user name, "http://a/" none).
// Decode it with Unescape.
func (u URI) User() (string, bool) {
	if u.flags()&hasUserinfo == 0 {
		return "", false
	}
	user, _, _ := strings.Cut(u.Userinfo(), ":")
	return user, true
}

// Password returns the text after the first ":" of the userinfo as
// written, and whether there is such a ":" ("http://u:@a/" has an empty
// password, "http://u@a/" none). RFC 3986 3.2.1 deprecates passwords in
// URIs; they are read here so that a tool can find and remove them.
func (u URI) Password() (string, bool) {
	if u.flags()&hasUserinfo == 0 {
		return "", false
	}
	_, pw, ok := strings.Cut(u.Userinfo(), ":")
	return pw, ok
}
