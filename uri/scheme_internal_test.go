package uri

import "testing"

// TestRegistryLookupHTTP checks the shortcut of Lookup for http and
// https against the map it is taken from: every name of up to 5 bytes
// that differs from "http" or "https" by case or by one byte, in a
// registry with both, with one, and with neither.
func TestRegistryLookupHTTP(t *testing.T) {
	httpS := Scheme{Name: "http", DefaultPort: 80, EmptyPathIsRoot: true}
	httpsS := Scheme{Name: "https", DefaultPort: 443, EmptyPathIsRoot: true}
	other := Scheme{Name: "htt", DefaultPort: 1}
	regs := map[string]Registry{
		"both":    MustRegistry(NewRegistry(httpS, httpsS, other)),
		"http":    MustRegistry(NewRegistry(httpS, other)),
		"https":   MustRegistry(NewRegistry(httpsS)),
		"neither": MustRegistry(NewRegistry(other)),
		"zero":    {},
		"default": DefaultRegistry(),
	}
	var names []string
	for _, base := range []string{"http", "https"} {
		// Every case of every byte, and every byte value in each place.
		for mask := 0; mask < 1<<len(base); mask++ {
			b := []byte(base)
			for i := range b {
				if mask>>i&1 != 0 {
					b[i] -= 'a' - 'A'
				}
			}
			names = append(names, string(b))
		}
		for i := range len(base) + 1 {
			for c := 0; c < 256; c++ {
				b := []byte(base)
				if i < len(b) {
					b[i] = byte(c)
				} else {
					b = append(b, byte(c))
				}
				names = append(names, string(b))
			}
		}
	}
	for rn, r := range regs {
		for _, name := range names {
			got, ok := r.Lookup(name)
			want, wok := r.m[lowerScheme(name)]
			if ok != wok || got.Name != want.Name || got.DefaultPort != want.DefaultPort {
				t.Errorf("%s registry: Lookup(%q) = %q, %v; want %q, %v", rn, name, got.Name, ok, want.Name, wok)
			}
		}
	}
}
