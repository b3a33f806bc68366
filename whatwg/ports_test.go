package whatwg

import (
	"strconv"
	"testing"

	"github.com/urikit/urikit/uri"
)

// TestSpecialPortsAgreeWithRegistry: issue 31. The URL Standard's table
// of special schemes (its own fact, kept here for the parser's speed)
// gives each the default port the module's registry gives it
// (uri.DefaultRegistry, the one definition of the module's default
// ports): a parse elides exactly that port.
func TestSpecialPortsAgreeWithRegistry(t *testing.T) {
	for _, name := range []string{"http", "https", "ws", "wss", "ftp"} {
		want, ok := uri.DefaultPort(name)
		if got := kindOf(name).defaultPort(); !ok || got != want {
			t.Errorf("%s: the URL Standard's port %d, the registry's %d, %v", name, got, want, ok)
		}
		u, err := Parse(name + "://h:" + strconv.Itoa(want) + "/")
		if err != nil || u.Port() != "" {
			t.Errorf("%s: port %d kept: %q, %v", name, want, u.Port(), err)
		}
	}
	for _, name := range []string{"file", "gopher", "foo"} {
		if p := kindOf(name).defaultPort(); p != -1 {
			t.Errorf("%s: default port %d", name, p)
		}
	}
}
