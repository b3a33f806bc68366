package uri_test

import (
	"errors"
	"testing"

	"github.com/urikit/urikit/uri"
)

// FuzzParse checks, in every mode, the properties a parse must have:
//
//   - no panic; an error is a *ParseError for this input with an Offset
//     within [0, len(s)];
//   - on success, the round trip (String() == s), the component split of
//     the Appendix B regular expression, and sub-components that rebuild
//     the authority;
//   - on failure, the offset's own definition: s[:Offset] is the beginning
//     of a valid reference, so it parses, or fails exactly at its end with
//     ErrUnexpectedEnd; s[:Offset+1] is not, so it fails at Offset; and
//     every shorter prefix s[:k] is viable too, so it parses or fails at k
//     with ErrUnexpectedEnd;
//   - for short inputs in RFC 3986 mode, agreement with the ABNF oracle
//     (verdict and offset).
//
// The seed corpus is in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	for _, tt := range ptSpecExamples {
		f.Add(tt.in)
	}
	for _, tt := range ptErrorTable {
		f.Add(tt.in)
	}
	oracles := map[uri.Options]grammarOracle{
		uri.Options{}:                  newGrammarOracle(uri.Options{}),
		uri.Options{AllowZoneID: true}: newGrammarOracle(uri.Options{AllowZoneID: true}),
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, mode := range []uri.Options{{}, {AllowZoneID: true}, {Grammar: uri.RFC2396}} {
			if ptCheckProperties(t, s, mode) {
				if o, ok := oracles[mode]; ok && len(s) <= 12 && !o.valid(s) {
					t.Errorf("ParseWith(%q, %v) succeeded; the ABNF rejects it", s, mode)
				}
				continue
			}
			_, err := uri.ParseWith(s, mode)
			var pe *uri.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("ParseWith(%q, %v) = %v, not a *ParseError", s, mode, err)
			}
			_ = pe.Error()
			off := pe.Offset
			if errors.Is(err, uri.ErrUnexpectedEnd) != (off == len(s)) {
				t.Errorf("ParseWith(%q, %v) = %v: ErrUnexpectedEnd exactly when the offset is the length", s, mode, err)
			}
			ptCheckViablePrefix(t, s[:off], mode)
			if off < len(s) {
				_, err := uri.ParseWith(s[:off+1], mode)
				if !errors.As(err, &pe) || pe.Offset != off {
					t.Errorf("ParseWith(%q, %v) fails at %d, but its prefix %q gives %v", s, mode, off, s[:off+1], err)
				}
			}
			step := 1
			if off > 64 {
				step = off / 64
			}
			for k := 0; k < off; k += step {
				ptCheckViablePrefix(t, s[:k], mode)
			}
			if o, ok := oracles[mode]; ok && len(s) <= 12 {
				if o.valid(s) {
					t.Errorf("ParseWith(%q, %v) = %v; the ABNF accepts it", s, mode, err)
				} else if want := o.offset(s); want != off {
					t.Errorf("ParseWith(%q, %v) fails at %d, oracle at %d", s, mode, off, want)
				}
			}
		}
	})
}

// ptCheckViablePrefix: p is the beginning of some valid reference, so it
// parses, or fails at its very end for lack of input.
func ptCheckViablePrefix(t *testing.T, p string, mode uri.Options) {
	t.Helper()
	_, err := uri.ParseWith(p, mode)
	if err == nil {
		return
	}
	var pe *uri.ParseError
	if !errors.As(err, &pe) || pe.Offset != len(p) || !errors.Is(err, uri.ErrUnexpectedEnd) {
		t.Errorf("ParseWith(%q, %v) = %v; a viable prefix may only end too early", p, mode, err)
	}
}
