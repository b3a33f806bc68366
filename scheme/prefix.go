package scheme

import "strings"

// StripPrefix removes the "URL:" prefix that the 1994 URL draft asks
// for ("the whole string must start with a constant prefix "URL:"") and
// the 1998 draft's Appendix E still shows ("<URL:http://...>"), and
// reports whether there was one. The prefix is not part of the URL: a
// scheme is never called "URL". It is matched without regard to case,
// and surrounding spaces are left to the caller.
func StripPrefix(s string) (string, bool) {
	if len(s) >= 4 && strings.EqualFold(s[:4], "URL:") {
		return s[4:], true
	}
	return s, false
}
