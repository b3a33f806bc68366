package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// metric returns the value of the line "name value" of the server's
// /metrics, or -1 when there is none.
func metric(t testing.TB, s *server, name string) float64 {
	t.Helper()
	code, _, body := request(t, http.MethodGet, s.url+"/metrics", "", "", "")
	if code != 200 {
		t.Fatalf("/metrics: %d", code)
	}
	for _, l := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(l, name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("/metrics: %q", l)
			}
			return f
		}
	}
	return -1
}

// waitMetric polls /metrics until name has the value want; the deadline
// only keeps a broken build from hanging. A value past want (in the
// direction from the first one read) fails at once.
func waitMetric(t testing.TB, s *server, name string, want float64) {
	t.Helper()
	first := metric(t, s, name)
	deadline := time.Now().Add(60 * time.Second)
	for {
		v := metric(t, s, name)
		if v == want {
			return
		}
		if (first < want && v > want) || (first > want && v < want) {
			t.Fatalf("%s went from %v to %v, past %v", name, first, v, want)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s is %v after 60 s, want %v", name, v, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Issue 29, as an operator runs it: serve with no flags preloads its
// answers, and "urnresolver token create" and "urnresolver import"
// beside it (other processes on the same database) leave in its cache
// every answer they do not change.
func TestServeCacheBesideOtherProcesses(t *testing.T) {
	forEachDB(t, func(t *testing.T, dir, dsn string) {
		env := cleanEnv()
		const n = 500
		var b strings.Builder
		b.WriteString("urn,url\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "urn:example:r%d,https://r.example/%d\n", i, i)
		}
		all := filepath.Join(dir, "all.csv")
		os.WriteFile(all, []byte(b.String()), 0o644)
		if code, _, e := runCmd(t, dir, env, "", "import", "--db", dsn, all); code != 0 {
			t.Fatalf("import: %d %s", code, e)
		}
		s := startServer(t, dir, env, "--db", dsn)
		waitMetric(t, s, "urnresolver_cache_entries", n)
		// The preload logs when it returns, after its last answer is in.
		for deadline := time.Now().Add(60 * time.Second); !strings.Contains(s.stderr.String(), "answer cache preloaded"); {
			if time.Now().After(deadline) {
				t.Fatalf("no preload in the log:\n%s", s.stderr)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if code, _, e := runCmd(t, dir, env, "", "token", "create", "--db", dsn, "--namespace", "example"); code != 0 {
			t.Fatalf("token create: %d %s", code, e)
		}
		b.Reset()
		b.WriteString("urn,url\n")
		const changed = 10
		for i := 0; i < changed; i++ {
			fmt.Fprintf(&b, "urn:example:r%d,https://changed.example/%d\n", i*13, i*13)
		}
		some := filepath.Join(dir, "some.csv")
		os.WriteFile(some, []byte(b.String()), 0o644)
		if code, _, e := runCmd(t, dir, env, "", "import", "--db", dsn, some); code != 0 {
			t.Fatalf("import: %d %s", code, e)
		}
		waitMetric(t, s, "urnresolver_cache_entries", n-changed)
		if v := metric(t, s, "urnresolver_cache_current"); v != 1 {
			t.Errorf("urnresolver_cache_current %v", v)
		}
		hits0 := metric(t, s, `urnresolver_cache_lookups_total{result="hit"}`)
		for i := 0; i < n; i++ {
			want := fmt.Sprintf("https://r.example/%d", i)
			if i%13 == 0 && i/13 < changed {
				want = fmt.Sprintf("https://changed.example/%d", i)
			}
			code, h, _ := request(t, http.MethodGet, fmt.Sprintf("%s/uri-res/N2L?urn:example:r%d", s.url, i), "", "", "")
			if code != 303 || h.Get("Location") != want {
				t.Fatalf("r%d: %d %q, want %q", i, code, h.Get("Location"), want)
			}
		}
		if hits := metric(t, s, `urnresolver_cache_lookups_total{result="hit"}`) - hits0; hits != n-changed {
			t.Errorf("%v of the %d unchanged answers came from the cache", hits, n-changed)
		}
	})
}
