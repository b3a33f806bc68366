package uri

import (
	"cmp"
	"slices"
	"strings"

	"github.com/urikit/urikit/internal/glob"
)

// The edits of a query. Each returns a new Params and leaves p as it
// is; the pairs an edit does not touch keep their text byte for byte,
// and an edit that changes nothing returns p itself. Pairs are joined
// with "&" (so empty pieces such as the one in "a&&b" are dropped once
// the query is rewritten). New keys and values are percent-encoded with
// QueryValueSet, so that they read back as given through Param.Key and
// Param.Value.

// ErrBadPattern reports a malformed glob pattern given to Params.Trim
// or Params.Keep: an unclosed "[" or a "\" at the end.
var ErrBadPattern = glob.ErrBadPattern

// pair returns the text of a new key=value pair.
func pair(key, value string) string {
	return Escape(key, QueryValueSet) + "=" + Escape(value, QueryValueSet)
}

// Add returns p with the pair key=value added at the end.
func (p Params) Add(key, value string) Params {
	if p.raw == "" {
		return Params{raw: pair(key, value)}
	}
	return Params{raw: p.raw + "&" + pair(key, value)}
}

// Set returns p with key=value in place of the first pair whose decoded
// key is key, and without the other pairs of that key; or with the pair
// added at the end when there is none.
func (p Params) Set(key, value string) Params {
	var b strings.Builder
	done := false
	for _, q := range p.All() {
		if keyIs(q.RawKey(), key, false) {
			if done {
				continue
			}
			done = true
			appendPiece(&b, pair(key, value))
			continue
		}
		appendPiece(&b, q.raw)
	}
	if !done {
		return p.Add(key, value)
	}
	return Params{raw: b.String()}
}

// Del returns p without the pairs whose decoded key is key.
func (p Params) Del(key string) Params {
	return p.DeleteFunc(func(q Param) bool { return keyIs(q.RawKey(), key, false) })
}

// DeleteFunc returns p without the pairs for which del returns true.
func (p Params) DeleteFunc(del func(Param) bool) Params {
	var b strings.Builder
	changed := false
	for _, q := range p.All() {
		if del(q) {
			changed = true
			continue
		}
		appendPiece(&b, q.raw)
	}
	if !changed {
		return p
	}
	return Params{raw: b.String()}
}

// Trim returns p without the pairs whose decoded key matches the shell
// wildcard pattern ("utm_*" removes the tracking parameters utm_source,
// utm_medium, ...). In the pattern "*" matches any text, "?" one
// character, "[...]" one character of a set ("[!...]" its complement),
// and "\" quotes the next character; a malformed pattern returns
// ErrBadPattern.
func (p Params) Trim(pattern string) (Params, error) {
	if err := glob.Check(pattern); err != nil {
		return p, err
	}
	return p.DeleteFunc(func(q Param) bool { return glob.Match(pattern, q.Key()) }), nil
}

// Keep returns p with only the pairs whose decoded key matches the shell
// wildcard pattern (see Trim).
func (p Params) Keep(pattern string) (Params, error) {
	if err := glob.Check(pattern); err != nil {
		return p, err
	}
	return p.DeleteFunc(func(q Param) bool { return !glob.Match(pattern, q.Key()) }), nil
}

// Sort returns p with its pairs sorted by decoded key, then by decoded
// value, comparing bytes; the sort is stable, so pairs that compare
// equal keep their order.
func (p Params) Sort() Params {
	var qs []Param
	for _, q := range p.All() {
		qs = append(qs, q)
	}
	sorted := slices.IsSortedFunc(qs, compareParams)
	if sorted {
		return p
	}
	slices.SortStableFunc(qs, compareParams)
	var b strings.Builder
	for _, q := range qs {
		appendPiece(&b, q.raw)
	}
	return Params{raw: b.String()}
}

func compareParams(a, b Param) int {
	return cmp.Or(strings.Compare(a.Key(), b.Key()), strings.Compare(a.Value(), b.Value()))
}

func appendPiece(b *strings.Builder, piece string) {
	if b.Len() > 0 {
		b.WriteByte('&')
	}
	b.WriteString(piece)
}
