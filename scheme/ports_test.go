package scheme_test

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/urikit/urikit/scheme"
	"github.com/urikit/urikit/uri"
)

// endpointOf returns an Endpoint view of a URL of the scheme name, built
// from a few shapes every such scheme reads (a host, a host and a
// group or database, a host and a path), and the URL without its port.
func endpointOf(t *testing.T, name, port string) (scheme.Endpoint, bool) {
	t.Helper()
	for _, rest := range []string{"/", "/g", "/g/1", ""} {
		u, err := uri.Parse(name + "://h.example" + port + rest)
		if err != nil {
			continue
		}
		if v, err := scheme.ViewOf(u); err == nil {
			e, ok := v.(scheme.Endpoint)
			return e, ok
		}
	}
	return nil, false
}

// TestDefaultPortsFromRegistry: issue 31, one definition of each default
// port. Every scheme of the registry is read back: a view that names a
// host to connect to (Endpoint) takes its default port from the
// scheme's registry entry, in DefaultPort, ConnectPort, its warnings
// and its JSON; and every scheme with a default port and a view has
// such a view.
func TestDefaultPortsFromRegistry(t *testing.T) {
	r := scheme.Registry()
	endpoints := 0
	for _, s := range r.Schemes() {
		if s.View == nil {
			continue
		}
		def, hasDef := r.DefaultPort(s.Name)
		if d2, ok := uri.DefaultPort(s.Name); d2 != def || ok != hasDef {
			t.Errorf("%s: scheme.Registry's default port %d, %v; uri.DefaultPort %d, %v", s.Name, def, hasDef, d2, ok)
		}
		e, ok := endpointOf(t, s.Name, "")
		if !ok {
			if hasDef {
				t.Errorf("%s: default port %d in the registry but no Endpoint view", s.Name, def)
			}
			continue
		}
		endpoints++
		if !hasDef {
			t.Errorf("%s: an Endpoint view, but no default port in the registry", s.Name)
			continue
		}
		if e.DefaultPort() != def || e.ConnectPort() != def || e.Port() != -1 {
			t.Errorf("%s: DefaultPort %d, ConnectPort %d, Port %d; registry %d", s.Name, e.DefaultPort(), e.ConnectPort(), e.Port(), def)
		}
		var j map[string]any
		b, err := json.Marshal(e)
		if err != nil || json.Unmarshal(b, &j) != nil {
			t.Fatalf("%s: JSON %s, %v", s.Name, b, err)
		}
		// news and snews write the server alone ("server"): their JSON
		// has no port members.
		if got, ok := j["default_port"]; ok || s.Name != "news" && s.Name != "snews" {
			if n, _ := got.(float64); int(n) != def {
				t.Errorf("%s: JSON default_port %v, registry %d", s.Name, got, def)
			}
		}
		// The default port written is no warning; another one is.
		if e, ok := endpointOf(t, s.Name, ":"+strconv.Itoa(def)); !ok || slices.Contains(e.Warnings(), scheme.WarnNondefaultPort) || e.Port() != def {
			t.Errorf("%s: with port %d: %v", s.Name, def, e)
		}
		if e, ok := endpointOf(t, s.Name, ":"+strconv.Itoa(def+1)); !ok || !slices.Contains(e.Warnings(), scheme.WarnNondefaultPort) || e.ConnectPort() != def+1 {
			t.Errorf("%s: with port %d: no nondefault-port warning", s.Name, def+1)
		}
	}
	if endpoints < 12 { // http, https, ftp, gopher, news, snews, nntp, telnet, rlogin, tn3270, wais, prospero
		t.Errorf("%d schemes with an Endpoint view, want 12 or more", endpoints)
	}
}
