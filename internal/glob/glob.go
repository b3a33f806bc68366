// Package glob matches strings against shell wildcard patterns, the
// patterns of a shell's case statement: "*" matches any text ("/"
// included, unlike path.Match, since a query key is not a file path),
// "?" one character, "[...]" one character of a set ("[a-z0-9]",
// "[!x]" or "[^x]" for its complement), and "\" quotes the character
// after it.
package glob

import (
	"errors"
	"unicode/utf8"
)

// ErrBadPattern reports a malformed pattern: an unclosed "[", or a "\"
// at the end.
var ErrBadPattern = errors.New("malformed glob pattern")

// Check reports whether pattern is well formed.
func Check(pattern string) error {
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '\\':
			if i+1 >= len(pattern) {
				return ErrBadPattern
			}
			i++
		case '[':
			_, _, end, err := class(pattern, i, 0)
			if err != nil {
				return err
			}
			i = end - 1
		}
	}
	return nil
}

// Match reports whether s matches pattern, which must be well formed
// (Check); a malformed pattern matches nothing. It backtracks to the
// last "*" only, so it runs in O(len(pattern) x len(s)) at worst.
func Match(pattern, s string) bool {
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		if p < len(pattern) {
			switch c := pattern[p]; c {
			case '*':
				star, mark = p, i
				p++
				continue
			case '?':
				_, n := utf8.DecodeRuneInString(s[i:])
				p, i = p+1, i+n
				continue
			case '[':
				r, n := utf8.DecodeRuneInString(s[i:])
				ok, neg, end, err := class(pattern, p, r)
				if err != nil {
					return false
				}
				if ok != neg {
					p, i = end, i+n
					continue
				}
			case '\\':
				if p+1 < len(pattern) && pattern[p+1] == s[i] {
					p, i = p+2, i+1
					continue
				}
			default:
				if c == s[i] {
					p, i = p+1, i+1
					continue
				}
			}
		}
		if star < 0 {
			return false
		}
		// Let the last "*" take one more byte and try again.
		mark++
		p, i = star+1, mark
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// class reads the bracket expression at pattern[p] ("[") and reports
// whether r is in its set, whether the set is negated, and the index
// after its "]".
func class(pattern string, p int, r rune) (in, neg bool, end int, err error) {
	i := p + 1
	if i < len(pattern) && (pattern[i] == '!' || pattern[i] == '^') {
		neg = true
		i++
	}
	first := true
	for {
		if i >= len(pattern) {
			return false, false, 0, ErrBadPattern
		}
		if pattern[i] == ']' && !first {
			return in, neg, i + 1, nil
		}
		first = false
		lo, n, err := classChar(pattern, i)
		if err != nil {
			return false, false, 0, err
		}
		i += n
		hi := lo
		if i+1 < len(pattern) && pattern[i] == '-' && pattern[i+1] != ']' {
			hi, n, err = classChar(pattern, i+1)
			if err != nil {
				return false, false, 0, err
			}
			i += 1 + n
		}
		if lo <= r && r <= hi {
			in = true
		}
	}
}

// classChar reads one character of a bracket expression, "\" quoting.
func classChar(pattern string, i int) (rune, int, error) {
	if pattern[i] == '\\' {
		if i+1 >= len(pattern) {
			return 0, 0, ErrBadPattern
		}
		r, n := utf8.DecodeRuneInString(pattern[i+1:])
		return r, n + 1, nil
	}
	r, n := utf8.DecodeRuneInString(pattern[i:])
	return r, n, nil
}
