package whatwg

import (
	"sort"
	"strings"
	"unicode/utf16"

	"github.com/urikit/urikit/internal/utf8dec"
)

// Param is one name-value pair of a query read as
// application/x-www-form-urlencoded (section 5).
type Param struct {
	Name, Value string
}

// SearchParams is the list of a URLSearchParams object (section 6.2):
// the name-value pairs of a query, in order, decoded. Its methods are
// those of URLSearchParams; String is its serialization.
type SearchParams []Param

// ParseSearchParams is the URLSearchParams constructor given a string:
// a leading '?' is dropped, then the rest is read with the
// application/x-www-form-urlencoded string parser (section 5.1).
func ParseSearchParams(s string) SearchParams {
	return parseURLEncoded(strings.TrimPrefix(s, "?"))
}

// parseURLEncoded is the application/x-www-form-urlencoded parser: split
// on '&', empty sequences skipped, name and value split at the first
// '=', '+' read as a space, then percent-decoded and UTF-8 decoded
// without BOM (each error a U+FFFD: utf8dec.String).
func parseURLEncoded(s string) SearchParams {
	var out SearchParams
	for s != "" {
		var seq string
		seq, s, _ = strings.Cut(s, "&")
		if seq == "" {
			continue
		}
		name, value, _ := strings.Cut(seq, "=")
		out = append(out, Param{formDecode(name), formDecode(value)})
	}
	return out
}

func formDecode(s string) string {
	if strings.IndexByte(s, '+') >= 0 {
		s = strings.ReplaceAll(s, "+", " ")
	}
	return utf8dec.String(percentDecode(s))
}

// String is the application/x-www-form-urlencoded serializer (section
// 5.2): "name=value" pairs joined by '&', with every byte outside
// ASCII alphanumerics and "*-._" percent-encoded and U+0020 as '+'.
func (sp SearchParams) String() string {
	var b []byte
	for i, p := range sp {
		if i > 0 {
			b = append(b, '&')
		}
		b = appendEncoded(b, p.Name, setForm, true)
		b = append(b, '=')
		b = appendEncoded(b, p.Value, setForm, true)
	}
	return string(b)
}

// Size returns the number of pairs.
func (sp SearchParams) Size() int { return len(sp) }

// Get returns the value of the first pair named name, and false when
// there is none.
func (sp SearchParams) Get(name string) (string, bool) {
	for _, p := range sp {
		if p.Name == name {
			return p.Value, true
		}
	}
	return "", false
}

// GetAll returns the values of the pairs named name, in order.
func (sp SearchParams) GetAll(name string) []string {
	var vs []string
	for _, p := range sp {
		if p.Name == name {
			vs = append(vs, p.Value)
		}
	}
	return vs
}

// Has reports whether a pair is named name.
func (sp SearchParams) Has(name string) bool {
	_, ok := sp.Get(name)
	return ok
}

// HasValue reports whether a pair is named name and has value value
// (has(name, value)).
func (sp SearchParams) HasValue(name, value string) bool {
	for _, p := range sp {
		if p.Name == name && p.Value == value {
			return true
		}
	}
	return false
}

// Append returns the list with (name, value) added at the end.
func (sp SearchParams) Append(name, value string) SearchParams {
	return append(sp[:len(sp):len(sp)], Param{name, value})
}

// Delete returns the list without the pairs named name.
func (sp SearchParams) Delete(name string) SearchParams {
	var out SearchParams
	for _, p := range sp {
		if p.Name != name {
			out = append(out, p)
		}
	}
	return out
}

// DeleteValue returns the list without the pairs (name, value)
// (delete(name, value)).
func (sp SearchParams) DeleteValue(name, value string) SearchParams {
	var out SearchParams
	for _, p := range sp {
		if p.Name != name || p.Value != value {
			out = append(out, p)
		}
	}
	return out
}

// Set returns the list with the value of the first pair named name set
// to value and the other pairs of that name removed, or with (name,
// value) appended when there is none.
func (sp SearchParams) Set(name, value string) SearchParams {
	var out SearchParams
	found := false
	for _, p := range sp {
		if p.Name != name {
			out = append(out, p)
		} else if !found {
			found = true
			out = append(out, Param{name, value})
		}
	}
	if !found {
		out = append(out, Param{name, value})
	}
	return out
}

// Sort returns the list sorted by name, comparing code units of UTF-16
// as the standard does, stable for equal names.
func (sp SearchParams) Sort() SearchParams {
	out := append(SearchParams(nil), sp...)
	sort.SliceStable(out, func(i, j int) bool { return lessUTF16(out[i].Name, out[j].Name) })
	return out
}

// lessUTF16 compares a and b as sequences of UTF-16 code units.
func lessUTF16(a, b string) bool {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return ua[i] < ub[i]
		}
	}
	return len(ua) < len(ub)
}

// SearchParams returns the URL's query read as
// application/x-www-form-urlencoded (the searchParams attribute).
func (u URL) SearchParams() SearchParams { return parseURLEncoded(u.Query()) }

// SetSearchParams returns u with its query set to the serialization of
// sp, or null when that is empty (the URLSearchParams "update" steps).
func (u URL) SetSearchParams(sp SearchParams) URL {
	q := sp.String()
	r := u.record()
	r.hasQuery = q != ""
	r.query = q
	return r.url(u.errs)
}
