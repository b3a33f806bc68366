package uri

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/urikit/urikit/internal/chars"
	"github.com/urikit/urikit/internal/glob"
)

// The edits of a query, which change the Params in place as those of
// url.Values do. Pairs an edit does not touch keep their text byte for
// byte; pairs are joined with the view's separator (so empty pieces such
// as the one in "a&&b" are dropped once the query is rewritten). New keys
// and values are percent-encoded with QueryValueSet (which encodes "&",
// "=", "+", ";" and the space), so that they read back as given through
// Param.Key and Param.Value, whatever the separator, and through
// url.ParseQuery with "&".

// ErrBadPattern reports a malformed glob pattern given to Params.Trim
// or Params.Keep: an unclosed "[" or a "\" at the end.
var ErrBadPattern = glob.ErrBadPattern

// pair returns the text of a new key=value pair.
func (p *Params) pair(key, value string) string {
	k, v := Escape(key, QueryValueSet), Escape(value, QueryValueSet)
	if sep := p.Separator(); sep != '&' {
		// QueryValueSet leaves the other delimiters as they are.
		k, v = escapeByte(k, sep), escapeByte(v, sep)
	}
	return k + "=" + v
}

// escapeByte percent-encodes every c in s.
func escapeByte(s string, c byte) string {
	if strings.IndexByte(s, c) < 0 {
		return s
	}
	return strings.ReplaceAll(s, string(c), "%"+string(chars.UpperHex[c>>4])+string(chars.UpperHex[c&15]))
}

// Add adds the pair key=value at the end.
func (p *Params) Add(key, value string) {
	if p.raw == "" {
		p.raw = p.pair(key, value)
		return
	}
	p.raw = p.raw + string(p.Separator()) + p.pair(key, value)
}

// Set puts key=value in place of the first pair whose decoded key is key
// and removes the other pairs of that key, or adds the pair at the end
// when there is none: url.Values.Set, but in place, so the order of the
// query is kept (trurl's --replace-append).
func (p *Params) Set(key, value string) {
	if !p.Replace(key, value) {
		p.Add(key, value)
	}
}

// Replace puts key=value in place of the first pair whose decoded key is
// key and removes the other pairs of that key, as Set does; but when
// there is no such pair it changes nothing and returns false (trurl's
// --replace).
func (p *Params) Replace(key, value string) bool {
	var b strings.Builder
	done := false
	for _, q := range p.All() {
		if keyIs(q.RawKey(), key) {
			if done {
				continue
			}
			done = true
			p.appendPiece(&b, p.pair(key, value))
			continue
		}
		p.appendPiece(&b, q.raw)
	}
	if done {
		p.raw = b.String()
	}
	return done
}

// Del removes the pairs whose decoded key is key.
func (p *Params) Del(key string) {
	p.DeleteFunc(func(q Param) bool { return keyIs(q.RawKey(), key) })
}

// DeleteFunc removes the pairs for which del returns true.
func (p *Params) DeleteFunc(del func(Param) bool) {
	if p.raw == "" {
		return // no pair (most URLs: no query)
	}
	var b strings.Builder
	changed := false
	for _, q := range p.All() {
		if del(q) {
			changed = true
			continue
		}
		p.appendPiece(&b, q.raw)
	}
	if changed {
		p.raw = b.String()
	}
}

// Trim removes the pairs whose decoded key matches the shell wildcard
// pattern ("utm_*" removes the tracking parameters utm_source,
// utm_medium, ...). In the pattern "*" matches any text, "?" one
// character, "[...]" one character of a set ("[!...]" its complement),
// and "\" quotes the next character; a malformed pattern returns
// ErrBadPattern and changes nothing.
func (p *Params) Trim(pattern string) error {
	if err := glob.Check(pattern); err != nil {
		return err
	}
	p.DeleteFunc(func(q Param) bool { return glob.Match(pattern, q.Key()) })
	return nil
}

// Keep keeps only the pairs whose decoded key matches the shell wildcard
// pattern (see Trim).
func (p *Params) Keep(pattern string) error {
	if err := glob.Check(pattern); err != nil {
		return err
	}
	p.DeleteFunc(func(q Param) bool { return !glob.Match(pattern, q.Key()) })
	return nil
}

// Sort sorts the pairs by decoded key, then by decoded value, comparing
// bytes; the sort is stable, so pairs that compare equal keep their
// order. It compares the pairs where they are written, decoding as it
// goes, and holds one offset per pair: a hostile query (millions of
// pairs, each "%41" or one byte long) costs O(n log n) comparisons and
// at most about 3 times its length in memory.
func (p *Params) Sort() {
	// Most queries are sorted already: one pass that allocates nothing.
	var prev Param
	n, sorted := 0, true
	for i, q := range p.All() {
		if i > 0 && compareParams(prev, q) > 0 {
			sorted = false
		}
		prev, n = q, i+1
	}
	if sorted {
		return
	}
	if uint64(len(p.raw)) <= math.MaxUint32 {
		p.raw = sortPieces[uint32](p.raw, p.Separator(), n)
	} else {
		p.raw = sortPieces[uint64](p.raw, p.Separator(), n)
	}
}

// sortPieces returns the n non-empty pieces of raw, separated by sep,
// sorted with compareParams and joined with sep. It sorts the offsets
// where the pieces start (4 bytes each when raw is shorter than 4 GiB);
// the offset breaks ties, which keeps the sort stable.
func sortPieces[T uint32 | uint64](raw string, sep byte, n int) string {
	starts := make([]T, 0, n)
	for i := 0; i < len(raw); i++ {
		if raw[i] != sep && (i == 0 || raw[i-1] == sep) {
			starts = append(starts, T(i))
		}
	}
	piece := func(start T) Param {
		s := raw[start:]
		if i := strings.IndexByte(s, sep); i >= 0 {
			s = s[:i]
		}
		return Param{raw: s, eq: strings.IndexByte(s, '=')}
	}
	slices.SortFunc(starts, func(a, b T) int {
		return cmp.Or(compareParams(piece(a), piece(b)), cmp.Compare(a, b))
	})
	var b strings.Builder
	b.Grow(len(raw))
	for i, start := range starts {
		if i > 0 {
			b.WriteByte(sep)
		}
		b.WriteString(piece(start).raw)
	}
	return b.String()
}

// compareParams orders pairs by decoded key, then decoded value, without
// decoding them into new strings.
func compareParams(a, b Param) int {
	return cmp.Or(compareLoose(a.RawKey(), b.RawKey()), compareLoose(a.RawValue(), b.RawValue()))
}

// compareLoose compares the form decodings of a and b (those of
// unescapeLoose), decoding one byte at a time.
func compareLoose(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		var c, d byte
		c, i = looseByte(a, i, true)
		d, j = looseByte(b, j, true)
		if c != d {
			return cmp.Compare(c, d)
		}
	}
	// At most one of them has bytes left: that one is the greater.
	return cmp.Compare(len(a)-i, len(b)-j)
}

func (p *Params) appendPiece(b *strings.Builder, piece string) {
	if b.Len() > 0 {
		b.WriteByte(p.Separator())
	}
	b.WriteString(piece)
}
