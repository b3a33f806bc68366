// Package testshared holds the helpers the tests of this module share:
// access to the external test data, and a check that a function runs in
// linear time.
//
// External data lives in two places. The files with a permissive licence
// (the conformance suites of oxiri, network-uri, iri-string and go-urn,
// the WHATWG URL tests, the IANA registries, the small corpora) are
// committed under testdata/ at the root of the module, in the layout of
// the shared directory (testdata/conformance/..., testdata/corpora/...;
// testdata/README.md names each source, commit and licence), so a fresh
// clone runs them. The others (uriparser's LGPL test extracts, the large
// benchmark corpora) are read from the directory named by the
// environment variable URIKIT_SHARED. Every accessor looks in testdata/
// first, then in $URIKIT_SHARED, and skips the calling test (tb.Skip)
// when the file is in neither, so that `go test ./...` passes without
// the shared data.
//
// It is used only by _test.go files.
package testshared

import (
	"bufio"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// EnvVar is the environment variable naming the shared directory.
const EnvVar = "URIKIT_SHARED"

// TestdataDir returns the testdata directory at the root of the module,
// where the permissively licensed external data is committed.
func TestdataDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}

// committed returns the path of elem under TestdataDir when it exists.
func committed(elem ...string) (string, bool) {
	p := filepath.Join(append([]string{TestdataDir()}, elem...)...)
	_, err := os.Stat(p)
	return p, err == nil
}

// Path returns the path of the file or directory elem (joined with
// filepath.Join), as in Path(t, "conformance", "rfc3986", "x.json"): the
// committed copy under testdata/ when there is one, else the one under
// $URIKIT_SHARED. It skips the test when neither exists.
func Path(tb testing.TB, elem ...string) string {
	tb.Helper()
	if p, ok := committed(elem...); ok {
		return p
	}
	dir := os.Getenv(EnvVar)
	if dir == "" {
		tb.Skipf("%s is not committed under testdata (copyleft or large: see testdata/README.md) and %s is not set", filepath.Join(elem...), EnvVar)
	}
	p := filepath.Join(append([]string{dir}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("%s: %v", EnvVar, err)
	}
	return p
}

// ReadJSON decodes the shared JSON file elem into v. It skips the test
// as Path does and fails it when the file is not valid JSON for v.
func ReadJSON(tb testing.TB, v any, elem ...string) {
	tb.Helper()
	decodeJSON(tb, Path(tb, elem...), v)
}

// OptionalJSON is ReadJSON for one of several files a test reads: when
// the file is neither committed under testdata/ nor under $URIKIT_SHARED
// (a copyleft suite without the shared directory), it logs that and
// returns false instead of skipping the whole test, so the committed
// suites still run. It fails the test on invalid JSON.
func OptionalJSON(tb testing.TB, v any, elem ...string) bool {
	tb.Helper()
	if p, ok := committed(elem...); ok {
		decodeJSON(tb, p, v)
		return true
	}
	dir := os.Getenv(EnvVar)
	if dir == "" {
		tb.Logf("skipping %s: not committed under testdata (copyleft: see testdata/README.md) and %s is not set", filepath.Join(elem...), EnvVar)
		return false
	}
	p := filepath.Join(append([]string{dir}, elem...)...)
	if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
		tb.Logf("skipping %s: %v", filepath.Join(elem...), err)
		return false
	}
	decodeJSON(tb, p, v)
	return true
}

func decodeJSON(tb testing.TB, path string, v any) {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		tb.Fatalf("%s: %v", filepath.Base(path), err)
	}
}

// Lines returns the non-empty lines of the text file elem (committed or
// shared, as Path finds it), each without its line ending ("\n" or
// "\r\n"). It skips the test as Path does. A byte-order mark at the
// start is kept.
func Lines(tb testing.TB, elem ...string) []string {
	tb.Helper()
	return FileLines(tb, Path(tb, elem...))
}

// FileLines returns the non-empty lines of the text file at path (shared
// or not, as a sample under testdata/), each without its line ending. It
// skips the test when the file cannot be opened and fails it on a read
// error or a line longer than 16 MiB.
func FileLines(tb testing.TB, path string) []string {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Skipf("%v", err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if line := strings.TrimRight(sc.Text(), "\r"); line != "" {
			lines = append(lines, line)
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return lines
}
