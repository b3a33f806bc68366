package testshared

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLibraryRequiresLittle: a program that imports only the library
// packages gets golang.org/x/net, x/text and x/sys in its module graph
// and nothing else (issue 22): the resolver, Beam and the peers compared
// with live in modules of their own. x/sys (its package cpu, which tells
// internal/chars whether the machine has AVX-512) was in the graph
// before it was required, as a requirement of x/net.
func TestLibraryRequiresLittle(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(TestdataDir(), "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	var req []string
	in := false
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "require (":
			in = true
		case in && l == ")":
			in = false
		case in && l != "":
			req = append(req, strings.Fields(l)[0])
		case strings.HasPrefix(l, "require "):
			req = append(req, strings.Fields(l)[1])
		}
	}
	slices.Sort(req)
	if want := []string{"golang.org/x/net", "golang.org/x/sys", "golang.org/x/text"}; !slices.Equal(req, want) {
		t.Errorf("go.mod requires %v, want only %v", req, want)
	}
}
