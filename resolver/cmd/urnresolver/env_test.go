package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Issue 29.5: "URNRESOLVER_DB= (set, empty) fails with 'empty database
// path' where an empty XDG_DATA_HOME is treated as unset". An empty
// variable means unset, for every variable the command reads: each kind
// of flag keeps its default when its variable is empty, and takes the
// value when it is not.
func TestEmptyEnvironmentIsUnset(t *testing.T) {
	for _, c := range []struct {
		flag, value string
		get         func(*flagValues) string
		def, set    string
	}{
		{"db", "/srv/urn.db", func(v *flagValues) string { return *v.db }, "default.db", "/srv/urn.db"},
		{"write-rate", "5", func(v *flagValues) string { return fmt.Sprint(*v.rate) }, "20", "5"},
		{"write-burst", "7", func(v *flagValues) string { return fmt.Sprint(*v.burst) }, "40", "7"},
		{"cache-max-age", "2m", func(v *flagValues) string { return v.age.String() }, "1m0s", "2m0s"},
		{"access-log", "true", func(v *flagValues) string { return fmt.Sprint(*v.access) }, "false", "true"},
		{"schemes", "http,ftp", func(v *flagValues) string { return v.schemes.String() }, "", "http,ftp"},
	} {
		env := envName(c.flag)
		for _, tc := range []struct {
			set  bool
			val  string
			want string
		}{
			{false, "", c.def},     // unset
			{true, "", c.def},      // set, empty: the same
			{true, c.value, c.set}, // set
		} {
			if tc.set {
				t.Setenv(env, tc.val)
			} else {
				t.Setenv(env, "x") // restored after the test
				os.Unsetenv(env)
			}
			fs, v := testFlags()
			if code := parseFlags(fs, nil, io.Discard); code != -1 {
				t.Errorf("%s=%q (set %v): exit %d", env, tc.val, tc.set, code)
				continue
			}
			if got := c.get(v); got != tc.want {
				t.Errorf("%s=%q (set %v): --%s is %q, want %q", env, tc.val, tc.set, c.flag, got, tc.want)
			}
			os.Unsetenv(env)
		}
	}
	// XDG_DATA_HOME, read for the default database.
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, xdg := range []string{"", "relative"} {
		t.Setenv("XDG_DATA_HOME", xdg)
		if got, want := defaultDB(), filepath.Join(home, ".local", "share", "urikit", "urnresolver.db"); got != want {
			t.Errorf("XDG_DATA_HOME=%q: default database %s, want %s", xdg, got, want)
		}
	}
}

type flagValues struct {
	db      *string
	rate    *float64
	burst   *int
	age     *time.Duration
	access  *bool
	schemes *listFlag
}

func testFlags() (*flag.FlagSet, *flagValues) {
	fs := newFlags("test", io.Discard)
	v := &flagValues{
		db:     fs.String("db", "default.db", ""),
		rate:   fs.Float64("write-rate", 20, ""),
		burst:  fs.Int("write-burst", 40, ""),
		age:    fs.Duration("cache-max-age", time.Minute, ""),
		access: fs.Bool("access-log", false, ""),
	}
	v.schemes = &listFlag{}
	fs.Var(v.schemes, "schemes", "")
	return fs, v
}

// Every variable of every command, set empty at once, changes nothing:
// each command runs as it does with none set, on the default database
// in $HOME/.local/share (XDG_DATA_HOME empty too). The variables are the
// flags each command's help lists, so that a new flag is covered.
func TestEmptyEnvironmentEveryCommand(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	db := filepath.Join(home, ".local", "share", "urikit", "urnresolver.db")
	csv := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(csv, []byte("urn,url\nurn:example:e,https://e.example/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := func(args ...string) []string {
		env := cleanEnv("HOME="+home, "XDG_DATA_HOME=")
		_, stdout, stderr := runCmd(t, dir, cleanEnv(), "", slices.Concat(args, []string{"-h"})...)
		help := stdout + stderr
		n := 0
		for _, line := range strings.Split(help, "\n") {
			if name, ok := strings.CutPrefix(line, "  -"); ok {
				name, _, _ = strings.Cut(name, " ")
				name, _, _ = strings.Cut(name, "\t")
				env = append(env, envName(name)+"=")
				n++
			}
		}
		if n == 0 {
			t.Fatalf("%q: no flags in its help:\n%s", args, help)
		}
		return env
	}
	for _, c := range []struct {
		args   []string // the command; its flags are those of args[:cmdLen]
		cmdLen int
		want   string // in stdout
	}{
		{[]string{"migrate"}, 1, ""},
		{[]string{"token", "create", "--namespace", "example"}, 2, "urt_"},
		{[]string{"token", "list"}, 2, "example"},
		{[]string{"import", "-v", csv}, 1, "1 lines stored"},
		{[]string{"backup", filepath.Join(dir, "backup.db")}, 1, ""},
	} {
		code, out, errOut := runCmd(t, dir, empty(c.args[:c.cmdLen]...), "", c.args...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("%q with every variable empty: exit %d, stdout %q, stderr %q", c.args, code, out, errOut)
		}
	}
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("the default database was not used: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "backup.db")); err != nil {
		t.Fatalf("no backup: %v", err)
	}
	s := startServer(t, dir, empty("serve"))
	if !strings.Contains(s.stdout.String(), "db="+db+" ") {
		t.Errorf("serve with every variable empty: %q", s.stdout)
	}
	if code, _, body := request(t, "GET", s.url+"/uri-res/N2L?urn:example:e", "", "", ""); code != 303 {
		t.Errorf("serve did not open the default database: %d %s", code, body)
	}
	if code := s.stop(); code != 0 {
		t.Errorf("exit %d", code)
	}
}
