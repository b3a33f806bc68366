package uri_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/urikit/urikit/uri"
)

// ipv6Candidates generates IPv6 text forms, valid ones and near misses:
// 0 to 9 groups, a "::" (or ":::") at every position or none, leading
// and trailing colons, and an IPv4 tail in good and bad shapes.
func ipv6Candidates() []string {
	tails := []string{"1", "ffff", "1.2.3.4", "255.255.255.255", "1.2.3", "256.1.1.1", "01.2.3.4", "1.2.3.4.5", "1.2.3.", "12345"}
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for n := 0; n <= 9; n++ {
		for _, tail := range tails {
			for dbl := -1; dbl <= n; dbl++ {
				for _, sep := range []string{"::", ":::"} {
					if dbl < 0 && sep != "::" {
						continue
					}
					var b strings.Builder
					for g := 0; g < n; g++ {
						if g == dbl {
							b.WriteString(sep)
						} else if g > 0 {
							b.WriteByte(':')
						}
						if g == n-1 {
							b.WriteString(tail)
						} else {
							b.WriteString([]string{"1", "ab", "0", "abcd"}[g%4])
						}
					}
					if dbl == n {
						b.WriteString(sep)
					}
					x := b.String()
					add(x)
					add(":" + x)
					add(x + ":")
				}
			}
		}
	}
	// Random mixtures of the same pieces.
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"1", "a", "ab", "abc", "abcd", "12345", "g", ":", ":", ":", "::", ".", "1.2.3.4", "0", "00", "255", "256", "%25", "%", "]"}
	for range 4000 {
		var b strings.Builder
		for k := r.IntN(12); k >= 0; k-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		add(b.String())
	}
	return out
}

// TestIPv6AgainstABNF checks the IPv6 state machine against a direct
// implementation of the nine alternatives of RFC 3986 3.2.2 IPv6address:
// the verdict, the host kind and the error offset.
func TestIPv6AgainstABNF(t *testing.T) {
	t.Parallel() // long and CPU-bound; not a timing test (issue 7: a fast go test ./...)
	g := newRFC3986Grammar(false)
	o := newGrammarOracle(uri.Options{})
	cands := ipv6Candidates()
	valid, fails := 0, 0
	for _, x := range cands {
		ok := abnfMatch(g.IPv6address, x, false)
		in := "//[" + x + "]"
		u, err := uri.Parse(in)
		switch {
		case ok && err != nil:
			t.Errorf("Parse(%q): %v; IPv6address matches %q", in, err, x)
			fails++
		case ok && u.HostKind() != uri.IPv6:
			t.Errorf("Parse(%q).HostKind() = %v, want ipv6", in, u.HostKind())
			fails++
		case ok:
			valid++
		case err == nil:
			t.Errorf("Parse(%q) succeeded; %q is not an IPv6address", in, x)
			fails++
		default:
			var pe *uri.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q): %T", in, err)
			}
			if want := o.offset(in); pe.Offset != want {
				t.Errorf("Parse(%q): offset %d (%v), oracle %d", in, pe.Offset, err, want)
				fails++
			}
		}
		if fails > 20 {
			t.FailNow()
		}
	}
	t.Logf("%d candidates, %d valid IPv6 addresses", len(cands), valid)
	if valid < 100 {
		t.Errorf("only %d valid candidates: the generator is broken", valid)
	}
}

// TestIPv6Examples: the text forms of RFC 4291 2.2 and RFC 3986 3.2.2.
func TestIPv6Examples(t *testing.T) {
	for _, tt := range []struct {
		host string
		ok   bool
	}{
		{"[ABCD:EF01:2345:6789:ABCD:EF01:2345:6789]", true}, // RFC 4291 2.2 form 1
		{"[2001:DB8:0:0:8:800:200C:417A]", true},            // RFC 4291 2.2 form 1
		{"[2001:DB8::8:800:200C:417A]", true},               // RFC 4291 2.2 form 2
		{"[FF01::101]", true},                               // RFC 4291 2.2 form 2
		{"[::1]", true},                                     // RFC 4291 2.2 form 2
		{"[::]", true},                                      // RFC 4291 2.2 form 2
		{"[0:0:0:0:0:0:13.1.68.3]", true},                   // RFC 4291 2.2 form 3
		{"[::FFFF:129.144.52.38]", true},                    // RFC 4291 2.2 form 3
		{"[::13.1.68.3]", true},                             // RFC 4291 2.2 form 3
		{"[2001:db8::7]", true},                             // RFC 3986 1.1.2
		{"[2001:DB8::8:800:200C:417A:1:2]", false},          // 9 groups with "::"
		{"[::13.1.68.03]", false},                           // RFC 3986 3.2.2: dec-octet has no leading zero
		{"[::256.1.68.3]", false},                           // dec-octet above 255
		{"[1::2::3]", false},                                // RFC 4291 2.2: "::" at most once
		{"[12345::]", false},                                // h16 is 1*4HEXDIG
		{"[fe80::1%25en0]", false},                          // RFC 6874: zone only with AllowZoneID
	} {
		u, err := uri.Parse("http://" + tt.host + "/")
		if (err == nil) != tt.ok {
			t.Errorf("Parse(http://%s/): err = %v, want ok=%v", tt.host, err, tt.ok)
			continue
		}
		if tt.ok && (u.Host() != tt.host || u.HostKind() != uri.IPv6) {
			t.Errorf("Parse(http://%s/): host %q kind %v", tt.host, u.Host(), u.HostKind())
		}
	}
}

// TestZoneID: RFC 6874 section 2 and its examples, with and without
// AllowZoneID.
func TestZoneID(t *testing.T) {
	for _, tt := range []struct {
		in       string
		strict   int // offset in strict mode (-1: valid)
		zone     int // offset with AllowZoneID (-1: valid)
		hostname string
	}{
		{"http://[fe80::a%25en1]", 15, -1, "fe80::a%en1"},             // RFC 6874 section 2
		{"http://[fe80::1%25eth0]/", 15, -1, "fe80::1%eth0"},          // RFC 6874 section 2 (form)
		{"http://[fe80::a%en1]", 15, 16, ""},                          // RFC 6874 section 2: "%" must be "%25"
		{"http://[fe80::a%25]", 15, 18, ""},                           // ZoneID = 1*( unreserved / pct-encoded )
		{"http://[fe80::a%25en%31]", 15, -1, "fe80::a%en1"},           // ZoneID may be pct-encoded
		{"http://[fe80::a%25en/1]", 15, 20, ""},                       // "/" is not in ZoneID
		{"http://[v1.a%25en1]", 12, 12, ""},                           // IPvFuture has no zone
		{"http://[fe80::a%25%]", 15, 19, ""},                          // bad pct-encoding in the zone
		{"http://[fe80::1%251]:80/p", 15, -1, "fe80::1%1"},            // RFC 6874 section 2 (numeric zone)
		{"http://[fe80::1.2.3.4%25x]", 21, -1, "fe80::1.2.3.4%x"},     // IPv6addrz = IPv6address "%25" ZoneID
		{"http://[1:2:3:4:5:6:7:8%25x]", 23, -1, "1:2:3:4:5:6:7:8%x"}, // full form with zone
		{"http://[::%25x]", 10, -1, "::%x"},                           // shortest address with zone
		{"http://[fe80::a%25en1", 15, 21, ""},                         // missing "]"
	} {
		for _, m := range []struct {
			mode uri.Options
			want int
		}{{uri.Options{}, tt.strict}, {uri.Options{AllowZoneID: true}, tt.zone}} {
			u, err := uri.ParseWith(tt.in, m.mode)
			if m.want < 0 {
				if err != nil {
					t.Errorf("ParseWith(%q, %v): %v", tt.in, m.mode, err)
				} else if u.Hostname() != tt.hostname || u.HostKind() != uri.IPv6 {
					t.Errorf("ParseWith(%q, %v): Hostname %q kind %v, want %q", tt.in, m.mode, u.Hostname(), u.HostKind(), tt.hostname)
				}
				continue
			}
			var pe *uri.ParseError
			if !errors.As(err, &pe) || pe.Offset != m.want || pe.Component != uri.ComponentHost {
				t.Errorf("ParseWith(%q, %v) = %v, want an error at %d in host", tt.in, m.mode, err, m.want)
			}
			if m.mode == (uri.Options{}) && pe != nil && tt.in[pe.Offset] == '%' && !strings.Contains(tt.in, "[v") && !errors.Is(err, uri.ErrZoneID) {
				t.Errorf("ParseWith(%q) = %v, want ErrZoneID", tt.in, err)
			}
		}
	}
}

// TestIPv4DecOctet: every dotted quad with octets 0-999 and leading zeros
// in one position is IPv4 exactly when RFC 3986 3.2.2 dec-octet says so;
// otherwise it is still a valid reg-name.
func TestIPv4DecOctet(t *testing.T) {
	g := newRFC3986Grammar(false)
	for v := 0; v < 1000; v++ {
		for _, octet := range []string{fmt.Sprint(v), fmt.Sprintf("0%d", v), fmt.Sprintf("%03d", v)} {
			for pos := 0; pos < 4; pos++ {
				parts := []string{"1", "2", "3", "4"}
				parts[pos] = octet
				h := strings.Join(parts, ".")
				u, err := uri.Parse("//" + h)
				if err != nil {
					t.Fatalf("Parse(//%s): %v", h, err)
				}
				want := uri.RegName
				if abnfMatch(g.IPv4address, h, false) {
					want = uri.IPv4
				}
				if u.HostKind() != want {
					t.Fatalf("Parse(//%s).HostKind() = %v, want %v", h, u.HostKind(), want)
				}
			}
		}
	}
	for _, tt := range []struct {
		host string
		kind uri.HostKind
	}{
		{"192.0.2.16", uri.IPv4},         // RFC 3986 1.1.2
		{"1.2.3", uri.RegName},           // RFC 3986 7.4: not four parts
		{"1.2.3.4.5", uri.RegName},       // RFC 3986 3.2.2: reg-name then
		{"0x7f.1", uri.RegName},          // RFC 3986 7.4: no hexadecimal form
		{"1.2.3.4.", uri.RegName},        // trailing dot: reg-name
		{"www.example.com", uri.RegName}, // RFC 3986 3.2.2
		{"", uri.RegName},                // RFC 3986 3.2.2: empty reg-name
		{"example.com%2E", uri.RegName},  // RFC 3986 3.2.2: pct-encoded in reg-name
		{"255.255.255.255", uri.IPv4},    // dec-octet "25" %x30-35
		{"256.255.255.255", uri.RegName}, // above 255
		{"01.02.03.04", uri.RegName},     // leading zeros
		{"0.0.0.0", uri.IPv4},            // DIGIT
	} {
		u, err := uri.Parse("http://" + tt.host + "/")
		if err != nil || u.HostKind() != tt.kind || u.Host() != tt.host {
			t.Errorf("Parse(http://%s/) = host %q kind %v, %v; want kind %v", tt.host, u.Host(), u.HostKind(), err, tt.kind)
		}
	}
}

// TestIPvFuture: RFC 3986 3.2.2 IPvFuture.
func TestIPvFuture(t *testing.T) {
	for _, tt := range []struct {
		in  string
		off int // -1: valid
	}{
		{"http://[v7.x]/", -1},               // issue 2 (net/url rejects it)
		{"http://[vF.addr]", -1},             // uriparser test.cpp
		{"http://[V0.a]", -1},                // RFC 5234 2.3: "v" is case-insensitive; oxiri
		{"http://[v9.123.abc;456.def]/", -1}, // network-uri uri001
		{"http://[v1.:]", -1},                // ":" is allowed
		{"http://[v7.]/", 11},                // 1*( unreserved / sub-delims / ":" )
		{"http://[v.a]", 9},                  // 1*HEXDIG
		{"http://[vz]", 9},                   // oxiri invalid list
		{"http://[v11]", 11},                 // oxiri invalid list: "." required
		{"http://[v1.@]", 11},                // "@" is not allowed
		{"http://[v1.%01]", 11},              // no pct-encoded in IPvFuture
		{"http://[v1.a", 12},                 // missing "]"
	} {
		u, err := uri.Parse(tt.in)
		if tt.off < 0 {
			if err != nil || u.HostKind() != uri.IPvFuture {
				t.Errorf("Parse(%q) = kind %v, %v", tt.in, u.HostKind(), err)
			}
			continue
		}
		var pe *uri.ParseError
		if !errors.As(err, &pe) || pe.Offset != tt.off || !errors.Is(err, uri.ErrInvalidIPLiteral) && !errors.Is(err, uri.ErrUnexpectedEnd) {
			t.Errorf("Parse(%q) = %v, want an IP literal error at %d", tt.in, err, tt.off)
		}
	}
}
