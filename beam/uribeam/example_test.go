package uribeam_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/urikit/urikit/beam/uribeam"
)

func init() {
	register.Function2x1(pairString)
	register.Function2x1(countString)
	register.Function1x1(classString)
	register.Function1x1(foundString)
	register.Function1x1(deadString)
}

// The formatting of the examples' elements.
func pairString(k, v string) string        { return k + " <- " + v }
func countString(k string, n int64) string { return fmt.Sprintf("%s %d", k, n) }
func classString(c uribeam.Class) string   { return c.String() }
func foundString(f uribeam.Found) string {
	return fmt.Sprintf("%s %d %s", filepath.Base(f.File), f.Offset, f.URI)
}
func deadString(d uribeam.DeadLetter) string { return d.JSON() }

// collect runs the pipeline p on Prism, in process, and returns the
// elements of the string PCollections cols, sorted (a PCollection has
// no order), by name.
func collect(p *beam.Pipeline, s beam.Scope, cols map[string]beam.PCollection) (map[string][]string, error) {
	dir, err := os.MkdirTemp("", "uribeam-test")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	for n, c := range cols {
		uribeam.WriteShards(s, filepath.Join(dir, n), 1, c)
	}
	if _, err := beam.Run(context.Background(), "prism", p); err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for n := range cols {
		b, err := os.ReadFile(uribeam.ShardName(filepath.Join(dir, n), 0, 1))
		if err != nil {
			return nil, err
		}
		var lines []string
		if len(b) > 0 {
			lines = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		}
		slices.Sort(lines)
		out[n] = lines
	}
	return out, nil
}

// show prints what collect returns, each PCollection under its name.
func show(p *beam.Pipeline, s beam.Scope, cols map[string]beam.PCollection) {
	out, err := collect(p, s, cols)
	if err != nil {
		panic(err)
	}
	for _, n := range slices.Sorted(maps.Keys(out)) {
		fmt.Println(n + ":")
		for _, l := range out[n] {
			fmt.Println("  " + l)
		}
	}
}

func ExampleParse() {
	p, s := beam.NewPipelineWithRoot()
	lines := beam.Create(s, "http://example.com/a b", "foo://example.com:8042/over/there?name=ferret#nose", "urn:x")
	refs, dead := uribeam.Parse(s, lines)
	show(p, s, map[string]beam.PCollection{"refs": refs, "dead": beam.ParDo(s, deadString, dead)})
	// Output:
	// dead:
	//   {"input":"http://example.com/a b","error":"invalid character ' ' in path","offset":20}
	//   {"input":"urn:x","error":"unexpected end of input in NID","offset":5}
	// refs:
	//   foo://example.com:8042/over/there?name=ferret#nose
}

func ExampleNormalize() {
	p, s := beam.NewPipelineWithRoot()
	lines := beam.Create(s, "HTTP://Example.COM:80/a/./b/../%7Ec", "mailto:Joe@Example.ORG", "URN:ISBN:0-395-36341-1")
	normal, _ := uribeam.Normalize(s, lines)
	show(p, s, map[string]beam.PCollection{"normal": normal})
	// Output:
	// normal:
	//   http://example.com/a/~c
	//   mailto:Joe@example.org
	//   urn:isbn:0-395-36341-1
}

func ExampleKey() {
	p, s := beam.NewPipelineWithRoot()
	lines := beam.Create(s, "http://example.com", "urn:example:a123,z456?+r#f")
	keyed, _ := uribeam.Key(s, lines)
	show(p, s, map[string]beam.PCollection{"keys": beam.ParDo(s, pairString, keyed)})
	// Output:
	// keys:
	//   http://example.com/ <- http://example.com
	//   urn:example:a123,z456 <- urn:example:a123,z456?+r#f
}

func ExampleDedupe() {
	p, s := beam.NewPipelineWithRoot()
	lines := beam.Create(s, "http://example.com/", "HTTP://EXAMPLE.COM:80", "http://example.com/%7e", "http://example.com/~", "http://a b")
	classes, dead := uribeam.Dedupe(s, lines)
	show(p, s, map[string]beam.PCollection{"classes": beam.ParDo(s, classString, classes), "dead": beam.ParDo(s, deadString, dead)})
	// Output:
	// classes:
	//   http://example.com/	2	HTTP://EXAMPLE.COM:80
	//   http://example.com/~	2	http://example.com/%7e
	// dead:
	//   {"input":"http://a b","error":"invalid character ' ' in host","offset":8}
}

// Dedupe's classes, written into shards in bounded memory, through
// files beside them.
func ExampleWriteDedupe() {
	dir, _ := os.MkdirTemp("", "dedupe")
	defer os.RemoveAll(dir)
	p, s := beam.NewPipelineWithRoot()
	lines := beam.Create(s, "http://example.com/", "HTTP://EXAMPLE.COM:80", "http://example.com/%7e", "http://example.com/~", "http://a b")
	out := filepath.Join(dir, "d")
	dead, counts := uribeam.WriteDedupe(s, lines, out, 2)
	uribeam.WriteCounts(s, uribeam.CountsPath(out), "dedupe", "", counts,
		uribeam.CountLines(s, beam.ParDo(s, deadString, dead), uribeam.CountDead))
	if _, err := beam.Run(context.Background(), "prism", p); err != nil {
		panic(err)
	}
	for i := range 2 {
		b, _ := os.ReadFile(uribeam.ShardName(out, i, 2))
		lines := strings.FieldsFunc(string(b), func(r rune) bool { return r == '\n' })
		slices.Sort(lines)
		fmt.Printf("%s: %q\n", filepath.Base(uribeam.ShardName(out, i, 2)), lines)
	}
	c, _ := uribeam.ReadCounts(context.Background(), uribeam.CountsPath(out))
	fmt.Printf("out %d, dead %d, output lines %d\n", c.Out, c.Dead, c.OutputLines)
	// Output:
	// d-00000-of-00002: ["http://example.com/\t2\tHTTP://EXAMPLE.COM:80" "http://example.com/~\t2\thttp://example.com/%7e"]
	// d-00001-of-00002: []
	// out 4, dead 1, output lines 2
}

func ExampleHosts() {
	p, s := beam.NewPipelineWithRoot()
	lines := beam.Create(s, "http://Example.com/a", "https://example.com:8443/", "http://[0:0::1]/", "mailto:a@example.com", "/relative")
	counts, dead := uribeam.Hosts(s, lines)
	show(p, s, map[string]beam.PCollection{"hosts": beam.ParDo(s, countString, counts), "dead": beam.ParDo(s, deadString, dead)})
	// Output:
	// dead:
	//   {"input":"/relative","error":"no host: the reference has no authority component (RFC 3986 3.2)","offset":-1}
	//   {"input":"mailto:a@example.com","error":"no host: the reference has no authority component (RFC 3986 3.2)","offset":-1}
	// hosts:
	//   [::1] 1
	//   example.com 2
}

func ExampleURNKeys() {
	p, s := beam.NewPipelineWithRoot()
	lines := beam.Create(s, "URN:ISBN:0-395-36341-1", "urn:isbn:0395363411", "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6", "http://example.com/")
	keyed, dead := uribeam.URNKeys(s, lines)
	show(p, s, map[string]beam.PCollection{"keys": beam.ParDo(s, pairString, keyed), "dead": beam.ParDo(s, deadString, dead)})
	// Output:
	// dead:
	//   {"input":"http://example.com/","error":"scheme is not \"urn\" in scheme","offset":0}
	// keys:
	//   urn:isbn:0395363411 <- URN:ISBN:0-395-36341-1
	//   urn:isbn:0395363411 <- urn:isbn:0395363411
	//   urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6 <- urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6
}

func ExampleExtract() {
	dir, _ := os.MkdirTemp("", "extract")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "mail.txt"), []byte("See <URL:ftp://ftp.example.org/pub/> or http://example.com/x.\n"), 0o644)
	p, s := beam.NewPipelineWithRoot()
	found, _, _ := uribeam.Extract(s, filepath.Join(dir, "*.txt"), uribeam.ReadOptions{})
	show(p, s, map[string]beam.PCollection{"found": beam.ParDo(s, foundString, found)})
	// Output:
	// found:
	//   mail.txt 4 ftp://ftp.example.org/pub/
	//   mail.txt 40 http://example.com/x
}

func ExampleLinks() {
	dir, _ := os.MkdirTemp("", "links")
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "docs"), 0o755)
	os.WriteFile(filepath.Join(dir, "docs", "a.html"), []byte(`<a href="b.html">b</a> <a href="../c/">c</a>`), 0o644)
	var m uribeam.Mapping
	m.Add(dir+"/", "https://example.com/site/")
	p, s := beam.NewPipelineWithRoot()
	links, _, _ := uribeam.Links(s, filepath.Join(dir, "docs", "*.html"), &m, uribeam.ReadOptions{})
	show(p, s, map[string]beam.PCollection{"links": beam.ParDo(s, pairString, links)})
	// Output:
	// links:
	//   https://example.com/site/docs/a.html <- https://example.com/site/c/
	//   https://example.com/site/docs/a.html <- https://example.com/site/docs/b.html
}

func ExampleMapping_Retrieval() {
	var m uribeam.Mapping
	m.Add("/crawl/", "https://example.com/")
	m.Add("/crawl/blog/", "https://blog.example.com/")
	for _, path := range []string{"/crawl/a b.html", "/crawl/blog/2026/post.html"} {
		u, _ := m.Retrieval(path)
		fmt.Println(u)
	}
	// Output:
	// https://example.com/a%20b.html
	// https://blog.example.com/2026/post.html
}

func ExampleDeadLetter_JSON() {
	d := uribeam.DeadLetter{Input: "http://a b", Offset: 8, Error: "invalid character ' ' in host"}
	fmt.Println(d.JSON())
	// Output:
	// {"input":"http://a b","error":"invalid character ' ' in host","offset":8}
}

func ExampleReadLines() {
	dir, _ := os.MkdirTemp("", "lines")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "urls.txt"), []byte("HTTP://Example.com\r\nhttp://example.com/\nhttp://example.com/%7e\n"), 0o644)
	p, s := beam.NewPipelineWithRoot()
	lines, _, _ := uribeam.ReadLines(s, filepath.Join(dir, "*.txt"), uribeam.ReadOptions{})
	classes, _ := uribeam.Dedupe(s, lines)
	show(p, s, map[string]beam.PCollection{"classes": beam.ParDo(s, classString, classes)})
	// Output:
	// classes:
	//   http://example.com/	2	HTTP://Example.com
	//   http://example.com/~	1	http://example.com/%7e
}

// A job's counts: every line read is in the output or a dead letter.
func ExampleWriteCounts() {
	dir, _ := os.MkdirTemp("", "counts")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "urls.txt"), []byte("HTTP://Example.com\nhttp://a b\n\n"), 0o644)
	p, s := beam.NewPipelineWithRoot()
	lines, _, read := uribeam.ReadLines(s, filepath.Join(dir, "*.txt"), uribeam.ReadOptions{})
	normal, dead := uribeam.Normalize(s, lines)
	out := filepath.Join(dir, "n")
	uribeam.WriteCounts(s, uribeam.CountsPath(out), "normalize", filepath.Join(dir, "*.txt"), read,
		uribeam.CountLines(s, normal, uribeam.CountOut, uribeam.CountOutputLines),
		uribeam.CountLines(s, beam.ParDo(s, deadString, dead), uribeam.CountDead, uribeam.CountDeadLetters))
	if _, err := beam.Run(context.Background(), "prism", p); err != nil {
		panic(err)
	}
	c, err := uribeam.ReadCounts(context.Background(), uribeam.CountsPath(out))
	fmt.Println(c, err, c.Check())
	// Output:
	// 1 files, 3 records in: 2 out, 1 dead; 2 output lines, 1 dead letters <nil> <nil>
}

func ExampleWriteShards() {
	dir, _ := os.MkdirTemp("", "shards")
	defer os.RemoveAll(dir)
	p, s := beam.NewPipelineWithRoot()
	uribeam.WriteShards(s, filepath.Join(dir, "out"), 3, beam.Create(s, "a", "b", "c", "d"))
	if _, err := beam.Run(context.Background(), "prism", p); err != nil {
		panic(err)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "out-*"))
	for _, n := range names {
		fmt.Println(filepath.Base(n))
	}
	// Output:
	// out-00000-of-00003
	// out-00001-of-00003
	// out-00002-of-00003
}
