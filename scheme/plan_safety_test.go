package scheme

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/urikit/urikit/uri"
)

// planOf parses s (with zone identifiers allowed) and returns its plan.
func planOf(t *testing.T, s string, o PlanOptions) (Plan, error) {
	t.Helper()
	u, err := uri.ParseWith(s, uri.Options{AllowZoneID: true})
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	v, err := registry.View(u)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v.(Planner).Plan(o)
}

// TestPlanAskData: RFC 1738 section 6, "a URL that names a port other
// than the default may cause a client to send data to another
// service" (the Gopher to SMTP example: "the use of ports other than
// the default ports should be viewed with care"); the 1994 draft's +ASK
// data block is the one place where a gopher URL carries CR LF, so it is
// planned only on request (PlanOptions.AskData) and only to port 70
// (issue 20, item 1).
func TestPlanAskData(t *testing.T) {
	const ask = "/0x%09%09+%091%0D%0A+-1%0D%0Av%0D%0A.%0D%0A"
	const smtp = "gopher://mail.example:25/0x%09%09+%091%0D%0A+-1%0D%0AHELO%20a%0D%0AMAIL%20FROM:%3Ca@b%3E%0D%0ADATA%0D%0A.%0D%0A"
	tests := []struct {
		url     string
		askData bool
		request string // "" when refused
		offset  int    // of the refusal
	}{
		{"gopher://h" + ask, true, "x\t+\t1\r\n+-1\r\nv\r\n.\r\n", 0},
		{"gopher://h:70" + ask, true, "x\t+\t1\r\n+-1\r\nv\r\n.\r\n", 0},
		{"gopher://h" + ask, false, "", 24},     // not asked for: refused at its first %0D
		{"gopher://h:7070" + ask, true, "", 29}, // another port
		{smtp, false, "", 38},                   // issue 20's reproducer
		{smtp, true, "", 38},                    // port 25: never
		{"gopher://h:25/0x%0D%0AQUIT", true, "", 16},
	}
	for _, tt := range tests {
		p, err := planOf(t, tt.url, PlanOptions{AskData: tt.askData})
		if tt.request != "" {
			if err != nil || string(p.Request) != tt.request || p.Port != 70 {
				t.Errorf("%s (AskData %v): %q port %d, %v", tt.url, tt.askData, p.Request, p.Port, err)
			}
			continue
		}
		var re *RefusedError
		if !errors.As(err, &re) || re.URL != tt.url || re.Offset != tt.offset || p.Request != nil {
			t.Errorf("%s (AskData %v): %q, %v; want refused at %d", tt.url, tt.askData, p.Request, err, tt.offset)
		}
	}
}

// TestPlanEmail: the email is the argument of PASS (RFC 1738 3.2.1),
// a Telnet line of RFC 959 ending in CR LF: a CR, LF, NUL or space in
// it would end the command or split it (issue 20, item 2).
func TestPlanEmail(t *testing.T) {
	for _, tt := range []struct {
		email string
		ok    bool
	}{
		{"", true},
		{"me@example.com", true},
		{"jörg@example.de", true}, // RFC 6531 addresses are UTF-8
		{"me@x\r\nDELE important", false},
		{"me@x\n", false},
		{"me\x00@x", false},
		{"me @x", false},
		{"me@x\t", false},
		{"me@x\x7f", false},
		{"me@x\xff", false}, // not UTF-8 (a Telnet IAC on the wire)
	} {
		err := PlanOptions{Email: tt.email}.Check()
		if (err == nil) != tt.ok || err != nil && !errors.Is(err, ErrEmail) {
			t.Errorf("Check(%q) = %v", tt.email, err)
		}
		p, err := planOf(t, "ftp://h/f", PlanOptions{Email: tt.email})
		if (err == nil) != tt.ok {
			t.Errorf("Plan with email %q: %v", tt.email, err)
		}
		if tt.ok && tt.email != "" && slices.Collect(p.Commands())[1] != "PASS "+tt.email {
			t.Errorf("Plan with email %q: %q", tt.email, slices.Collect(p.Commands()))
		}
	}
}

// TestPortRange: RFC 9293 3.1, a port is a 16-bit number; RFC 3986
// 3.2.3 lets a URI write any digits, so the URI is valid but the views
// that connect refuse it rather than plan the default port (issue 20,
// item 3).
func TestPortRange(t *testing.T) {
	for _, s := range []string{"http://h:65536/", "https://h:99999999999999999999/", "ftp://h:65536/f",
		"gopher://h:70000/", "nntp://h:65536/g/1", "news://h:65536/g", "telnet://h:65536", "wais://h:65536/db",
		"prospero://h:65536/x"} {
		u := uri.MustParse(s)
		_, err := registry.View(u)
		var pe *uri.ParseError
		if !errors.As(err, &pe) || !errors.Is(err, ErrPortRange) || pe.Component != uri.ComponentPort || pe.Offset != strings.LastIndex(s, ":")+1 {
			t.Errorf("%s: %v, want ErrPortRange at the port", s, err)
		}
		if _, err := AppendJSON(nil, u); !errors.Is(err, ErrPortRange) {
			t.Errorf("AppendJSON(%s): %v", s, err)
		}
	}
	for _, s := range []string{"http://h:65535/", "ftp://h:0/f", "http://h:/", "nntp://h:00119/g/1"} {
		if _, err := registry.View(uri.MustParse(s)); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
}

// TestPlanHosts: a host that decodes to CR, LF or NUL is refused in
// every plan, as RFC 1738 section 6 refuses them elsewhere (issue 20,
// item 4), with the offset of the escape in the URL. A registered name
// that holds one names no host (the URL Standard's forbidden domain code
// points, ErrHostName): the view refuses it already (issue 26); in a
// zone identifier, the plan does.
func TestPlanHosts(t *testing.T) {
	for _, tt := range []struct {
		url    string
		offset int
	}{
		{"ftp://h%0D%0Ax/f", 7},
		{"ftp://u:p@h%00/f", 11},
		{"gopher://h%0A/1", 10},
		{"nntp://h%0Dx/g/1", 8},
		{"http://h%0A/", 8},
	} {
		_, err := registry.View(uri.MustParse(tt.url))
		var pe *uri.ParseError
		if !errors.As(err, &pe) || !errors.Is(err, ErrHostName) || pe.Offset != tt.offset || pe.Component != uri.ComponentHost {
			t.Errorf("%s: %v; want ErrHostName at %d", tt.url, err, tt.offset)
		}
	}
	const zone = "http://[fe80::1%25%0A]/" // a zone identifier decodes too
	p, err := planOf(t, zone, PlanOptions{})
	var re *RefusedError
	if !errors.As(err, &re) || re.URL != zone || re.Offset != 18 || p.Host != "" {
		t.Errorf("%s: host %q, %v; want refused at 18", zone, p.Host, err)
	}
}

// TestPlanNNTP: RFC 3977 9.8, "newsgroup-name = 1*wildmat-exact" with
// "wildmat-exact = %x22-29 / %x2B / %x2D-3E / %x40-5A / %x5E-7E /
// UTF8-non-ascii"; RFC 5538 2.2, "nntp://server/group/number": a plan
// needs a server (issue 20, item 4).
func TestPlanNNTP(t *testing.T) {
	for _, tt := range []struct {
		url  string
		cmds string // "" when refused
		off  int
	}{
		{"nntp://h/comp.lang.go/7", "GROUP comp.lang.go | ARTICLE 7", 0},
		{"nntp://h/de.alt.%C3%BCbung/1", "GROUP de.alt.übung | ARTICLE 1", 0},
		{"nntp://h/a%2Bb", "GROUP a+b", 0},
		{"nntp://h/a%20b/1", "", 10},
		{"nntp://h/a%0D%0AQUIT/1", "", 10},
		{"nntp://h/a%09b/1", "", 10},
		{"nntp://h/ab!c/1", "", 11},
		{"nntp://h/a*/1", "", 10},
		{"nntp://h/a,b/1", "", 10},
		{"nntp://h/a%5Bb/1", "", 10},
		{"nntp://h/a%FFb/1", "", 10}, // not UTF-8
		{"nntp:g/1", "", 5},
	} {
		p, err := planOf(t, tt.url, PlanOptions{})
		if tt.cmds != "" {
			if err != nil || strings.Join(slices.Collect(p.Commands()), " | ") != tt.cmds {
				t.Errorf("%s: %q, %v", tt.url, slices.Collect(p.Commands()), err)
			}
			continue
		}
		var re *RefusedError
		if !errors.As(err, &re) || re.URL != tt.url || re.Offset != tt.off || p.HasCommands() {
			t.Errorf("%s: %q, %v; want refused at %d", tt.url, slices.Collect(p.Commands()), err, tt.off)
		}
	}
}

// TestPlanZoneID: RFC 6874 section 4, "An HTTP client, proxy, or other
// intermediary MUST remove any ZoneID attached to an outgoing URI, as it
// has only local significance at the sending host" (issue 20, item 6).
// The client still connects with it.
func TestPlanZoneID(t *testing.T) {
	for _, tt := range []struct {
		url   string
		proxy bool
		host  string
		req   string
	}{
		{"http://[fe80::1%25en0]:8080/x", false, "fe80::1%en0", "GET /x HTTP/1.1\r\nHost: [fe80::1]:8080\r\n"},
		{"http://[fe80::1%25en0]/x?q", true, "fe80::1%en0", "GET http://[fe80::1]/x?q HTTP/1.1\r\nHost: [fe80::1]\r\n"},
		{"http://[fe80::1%25%65n0]/", false, "fe80::1%en0", "GET / HTTP/1.1\r\nHost: [fe80::1]\r\n"},
		{"http://[fe80::1]/", false, "fe80::1", "GET / HTTP/1.1\r\nHost: [fe80::1]\r\n"},
	} {
		p, err := planOf(t, tt.url, PlanOptions{Proxy: tt.proxy})
		if err != nil || p.Host != tt.host || string(p.Request) != tt.req {
			t.Errorf("%s: host %q request %q, %v", tt.url, p.Host, p.Request, err)
		}
		u, _ := uri.ParseWith(tt.url, uri.Options{AllowZoneID: true})
		v, _ := ParseHTTP(u)
		if strings.Contains(v.HostHeader()+v.AbsoluteForm(), "%25") {
			t.Errorf("%s: %s %s", tt.url, v.HostHeader(), v.AbsoluteForm())
		}
		j, _ := AppendJSON(nil, u)
		m, _ := v.MarshalJSON()
		if string(j) != string(m) || strings.Contains(string(j), `"host_header":"[fe80::1%25`) {
			t.Errorf("%s: JSON %s / %s", tt.url, j, m)
		}
	}
}
