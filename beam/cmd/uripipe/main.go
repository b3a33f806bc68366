// Command uripipe runs urikit's URL and link jobs as Apache Beam
// pipelines: in process on the Prism runner by default, or on Flink,
// Spark, Google Cloud Dataflow or any portable job server with
// --runner. The Dataflow runner is built in only with -tags dataflow:
// the other runners share Beam's worker harness, and the Dataflow one
// adds its API client to the first build (BENCHMARKS.md).
//
//	uripipe normalize|dedupe|hosts|extract|links|cdxj --input GLOB --output PREFIX
//	        [--runner prism|flink|spark|dataflow|universal] [--shards N]
//	        [--map PATHPREFIX=URLPREFIX]... [Beam's flags]
//
// Every job writes text shards PREFIX-SSSSS-of-NNNNN (through
// temporary files PREFIX-tmp-*, removed at the end), and its dead
// letters (inputs it could not use) into PREFIX-errors-SSSSS-of-NNNNN,
// one JSON object a line: {"input", "error", "offset"} for a line, with
// "file" for a file or a WARC record. It counts every record it reads
// into PREFIX-counts.json (uribeam.Counts: in = out + dead + skipped),
// and reports them on standard error at the end; while it runs, on a
// terminal, a progress line. Run "uripipe help" for the jobs.
//
// Exit status: 0 when the pipeline succeeded (invalid inputs are data,
// not failures), 1 when it failed or its counts do not add up, 2 for a
// usage error (an --input that matches no file is one).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/urikit/urikit/beam/uribeam"
)

func init() {
	register.Function1x1(deadJSON)
	register.Function2x1(hostLine)
	register.Function2x1(linkLine)
	register.Function1x1(foundLine)
	register.Function2x2(hostRecords)
}

// The lines that a host count stands for, "out".
func hostRecords(_ string, n int64) (string, int64) { return uribeam.CountOut, n }

// The formatting of each job's output lines.
func deadJSON(d uribeam.DeadLetter) string { return d.JSON() }
func hostLine(h string, n int64) string    { return h + "\t" + strconv.FormatInt(n, 10) }
func linkLine(page, link string) string    { return page + "\t" + link }
func foundLine(f uribeam.Found) string     { return f.String() }

// jobs are the job names, "|" around each.
const jobs = "|normalize|dedupe|hosts|extract|links|cdxj|"

func isJob(name string) bool { return strings.Contains(jobs, "|"+name+"|") }

func isHelp(a string) bool { return a == "help" || a == "-h" || a == "-help" || a == "--help" }

// isWorker reports whether a runner started the binary as its own
// worker, with flags and no job ("--worker --id=...").
func isWorker(args []string) bool {
	return len(args) > 0 && strings.HasPrefix(args[0], "-") && !isHelp(args[0])
}

// usageError reports a usage error and returns 2.
func usageError(w io.Writer, msg string) int {
	fmt.Fprintf(w, "uripipe: %s\nRun 'uripipe help' for usage.\n", msg)
	return 2
}

const usage = `Usage: uripipe JOB --input GLOB --output PREFIX [FLAGS] [BEAM FLAGS]

Runs one of urikit's jobs as an Apache Beam pipeline: in process on the
Prism runner by default, or on Flink, Spark, Dataflow or a portable job
server with --runner (prism, flink, spark, dataflow or universal).

Jobs (the output, one line each, in PREFIX-SSSSS-of-NNNNN):
  normalize  URI lines to their normal form, as "uri normalize" prints it
  dedupe     URI lines to classes of equivalence: KEY<TAB>COUNT<TAB>REPR,
             REPR the smallest input of the class in byte order
  hosts      URI lines to HOST<TAB>COUNT, the hosts of their normal forms
             as written there ("uri get '{:host}'"), percent-encoded
  extract    the URIs in text files, .gz files and the text records of
             WARC files: FILE<TAB>OFFSET<TAB>URI
  links      the links of HTML files and of the HTML records of WARC files,
             resolved against their base: PAGE<TAB>LINK
  cdxj       a CDXJ index of WARC files (every input file is read as one),
             as webrecorder's cdxj-indexer and pywb write it: SURT
             TIMESTAMP {"url",...}, sorted byte-wise; shard i holds the
             i-th range of lines, so the shards in name order are one
             sorted index

Flags:
  --input GLOB     the input files (local paths, gs://...; quote the glob);
                   local paths, here and in --output and --map, are
                   made absolute, for workers in other directories
  --output PREFIX  where the shards go
  --shards N       how many output shards (default 1)
  --by host|site|site:icann
                   hosts: count hosts (default), or their registrable
                   domains under the whole Public Suffix List (site) or
                   its ICANN section (site:icann); a host without one (an
                   IP address, a public suffix) is its own site
  --post-append    cdxj: fold the method and body of a POST or PUT request
                   into the key of its response, as pywb indexes
                   (default true; --post-append=false: cdxj-indexer's
                   default)
  --map P=U        links: a file whose path starts with P was retrieved
                   from U followed by the rest of its path (repeatable;
                   the longest P wins; without one, its file: URL)
  --max-record-size N
                   the largest record: a line, or a WARC record's block
                   or decoded payload (default 64M; K, M, G suffixes);
                   a larger one is a dead letter
  --runner R       prism (default), flink, spark, dataflow (a uripipe built
                   with -tags dataflow) or universal

Input files that start with a gzip member are decompressed, every member,
whatever their name; files named *.warc or *.warc.gz are read record by
record. Inputs that cannot be used (lines that are not URI references,
hosts: lines without a host, unreadable files, damaged WARC records) go to
PREFIX-errors-SSSSS-of-NNNNN, one JSON object a line:
{"input","error","offset"}, with "file" for a file or a record, and
"input_hex" when the input is not UTF-8.

Every record read is counted, in PREFIX-counts.json and on standard error
at the end: "in" = "out" + "dead" + the "skipped" (WARC records of a kind
the job does not read, by kind); "dead_letters" = "dead" + "read_errors"
(files not read to their end) + "link_errors" (links: unresolvable links).

Exit status: 0 when the pipeline succeeded, 1 when it failed or its counts
do not add up, 2 for a usage error or an --input that matches no file.
Beam's own flags (--endpoint, --environment_type,
--project, --region, --temp_location, ...) are listed by "uripipe help
beam".
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// mapFlag collects the --map flags.
type mapFlag struct{ m *uribeam.Mapping }

func (f mapFlag) String() string { return "" }
func (f mapFlag) Set(v string) error {
	p, u, ok := strings.Cut(v, "=")
	if !ok || p == "" {
		return errors.New("want PATHPREFIX=URLPREFIX")
	}
	p, err := absLocal(p)
	if err != nil {
		return err
	}
	return f.m.Add(p, u)
}

// absLocal returns a local path (one without a "scheme://", as Beam's
// file systems tell them apart) made absolute, a final separator kept;
// other paths as they are. The workers of a runner other than Prism in
// process run in other processes, in other directories: a relative
// path would name other files there.
func absLocal(p string) (string, error) {
	if strings.Index(p, "://") > 0 {
		return p, nil
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if strings.HasSuffix(p, string(filepath.Separator)) && !strings.HasSuffix(abs, string(filepath.Separator)) {
		abs += string(filepath.Separator)
	}
	return abs, nil
}

// sizeFlag is a size in bytes, with an optional K, M or G (binary).
type sizeFlag struct{ n *int64 }

func (f sizeFlag) String() string {
	if f.n == nil {
		return ""
	}
	return strconv.FormatInt(*f.n, 10)
}

func (f sizeFlag) Set(v string) error {
	shift := 0
	switch strings.ToUpper(v[len(v)-min(len(v), 1):]) {
	case "K":
		shift = 10
	case "M":
		shift = 20
	case "G":
		shift = 30
	}
	if shift > 0 {
		v = v[:len(v)-1]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 1 || n > 1<<40>>shift {
		return errors.New("want a positive size in bytes, with K, M or G")
	}
	*f.n = n << shift
	return nil
}

var (
	input     = flag.String("input", "", "the input files (a glob)")
	output    = flag.String("output", "", "the prefix of the output shards")
	shards    = flag.Int("shards", 1, "how many output shards")
	by        = flag.String("by", "host", "hosts: host, site or site:icann")
	postApp   = flag.Bool("post-append", true, "cdxj: fold POST and PUT bodies into the keys")
	fmap      = &uribeam.Mapping{}
	maxRecord = new(int64)
)

func init() {
	flag.Var(mapFlag{fmap}, "map", "PATHPREFIX=URLPREFIX: the retrieval URL of the files under PATHPREFIX (repeatable)")
	*maxRecord = uribeam.DefaultMaxRecord
	flag.Var(sizeFlag{maxRecord}, "max-record-size", "the largest record: a line, or a WARC record's block or decoded payload (K, M, G)")
}

// run is the whole command; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	flag.CommandLine.SetOutput(stderr)
	flag.CommandLine.Init("uripipe", flag.ContinueOnError)
	if isWorker(args) {
		// A runner starts the binary as its own worker (--worker ...):
		// beam.Init runs the harness and exits.
		if err := flag.CommandLine.Parse(args); err != nil {
			return 2
		}
		dieWithParent()
		beam.Init()
		return usageError(stderr, "a job name must come first")
	}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	if isHelp(args[0]) {
		if len(args) > 1 && args[1] == "beam" {
			flag.CommandLine.SetOutput(stdout)
			flag.PrintDefaults()
			return 0
		}
		fmt.Fprint(stdout, usage)
		return 0
	}
	job := args[0]
	if !isJob(job) {
		return usageError(stderr, fmt.Sprintf("unknown job %q (want %s)", job, strings.Trim(jobs, "|")))
	}
	// The flag package prints its errors too: the message below says it.
	flag.CommandLine.Usage = func() {}
	flag.CommandLine.SetOutput(io.Discard)
	if err := flag.CommandLine.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return 0
		}
		return usageError(stderr, err.Error())
	}
	switch {
	case flag.NArg() > 0:
		return usageError(stderr, fmt.Sprintf("unexpected argument %q", flag.Arg(0)))
	case *input == "":
		return usageError(stderr, "flag --input is required")
	case *output == "":
		return usageError(stderr, "flag --output is required")
	case *shards < 1:
		return usageError(stderr, "flag --shards must be at least 1")
	case fmap.Len() > 0 && job != "links":
		return usageError(stderr, "flag --map is for links only")
	case *by != "host" && *by != "site" && *by != "site:icann":
		return usageError(stderr, fmt.Sprintf("flag --by: want host, site or site:icann, not %q", *by))
	case *by != "host" && job != "hosts":
		return usageError(stderr, "flag --by is for hosts only")
	case !*postApp && job != "cdxj":
		return usageError(stderr, "flag --post-append is for cdxj only")
	}
	if msg := checkRunner(runner()); msg != "" {
		return usageError(stderr, "flag --runner: "+msg)
	}
	var err error
	if *input, err = absLocal(*input); err == nil {
		*output, err = absLocal(*output)
	}
	if err != nil {
		return usageError(stderr, err.Error())
	}
	ctx := context.Background()
	if code := checkInput(ctx, stderr, *input); code != 0 {
		return code
	}
	beam.Init()

	p, s := beam.NewPipelineWithRoot()
	build(s, job, *input, *output, *shards, fmap, uribeam.ReadOptions{MaxRecord: *maxRecord}, jobOptions{by: *by, postAppend: *postApp})
	stop := progress(stderr, job)
	_, err = beam.Run(ctx, runner(), p)
	stop()
	if err != nil {
		fmt.Fprintf(stderr, "uripipe %s: %v\n", job, err)
		return 1
	}
	return report(ctx, stderr, job, *output)
}

// checkInput makes an input glob that matches no file a usage error,
// before a pipeline is built: a mistyped input is not an empty answer.
func checkInput(ctx context.Context, stderr io.Writer, glob string) int {
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return usageError(stderr, "flag --input: "+err.Error())
	}
	defer fs.Close()
	files, err := fs.List(ctx, glob)
	if err != nil {
		fmt.Fprintf(stderr, "uripipe: flag --input: %v\n", err)
		return 1
	}
	if len(files) == 0 {
		return usageError(stderr, fmt.Sprintf("flag --input: no file matches %q", glob))
	}
	return 0
}

// report prints the job's counts on standard error, and returns 1 when
// they cannot be read or do not add up.
func report(ctx context.Context, stderr io.Writer, job, out string) int {
	path := uribeam.CountsPath(out)
	c, err := uribeam.ReadCounts(ctx, path)
	if err == nil {
		err = c.Check()
	}
	if err != nil {
		fmt.Fprintf(stderr, "uripipe %s: counts (%s): %v\n", job, path, err)
		return 1
	}
	fmt.Fprintf(stderr, "uripipe %s: %v (%s)\n", job, c, path)
	return 0
}

// progress writes a progress line on stderr every second while the job
// runs, when stderr is a terminal and the readers run in this process
// (Prism, in process); the function it returns stops it.
func progress(stderr io.Writer, job string) func() {
	f, ok := stderr.(*os.File)
	if !ok {
		return func() {}
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return func() {}
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		start := time.Now()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		shown := false
		for {
			select {
			case <-done:
				if shown {
					fmt.Fprint(f, "\r\033[K")
				}
				return
			case now := <-tick.C:
				files, records := uribeam.Progress()
				if files == 0 {
					continue
				}
				rate := float64(records) / now.Sub(start).Seconds()
				fmt.Fprintf(f, "\r\033[Kuripipe %s: %d files, %d records read, %.0f records/s", job, files, records, rate)
				shown = true
			}
		}
	}()
	return func() { close(done); <-stopped }
}

// jobOptions are the flags of one job: --by (hosts), --post-append
// (cdxj).
type jobOptions struct {
	by         string
	postAppend bool
}

// build adds the job's transforms to s, and the counting of its
// records into PREFIX-counts.json.
func build(s beam.Scope, job, in, out string, n int, m *uribeam.Mapping, o uribeam.ReadOptions, jo jobOptions) {
	var res, dead, readDead beam.PCollection
	var counts []beam.PCollection
	switch job {
	case "normalize", "dedupe", "hosts":
		var lines, read beam.PCollection
		lines, readDead, read = uribeam.ReadLines(s, in, o)
		counts = append(counts, read)
		switch job {
		case "normalize":
			res, dead = uribeam.Normalize(s, lines)
			counts = append(counts, uribeam.CountLines(s, res, uribeam.CountOut))
		case "dedupe":
			// Written in bounded memory, through files: its output
			// lines and their counts come from WriteDedupe.
			var written beam.PCollection
			dead, written = uribeam.WriteDedupe(s, lines, out, n)
			counts = append(counts, written)
		case "hosts":
			var hosts beam.PCollection
			if jo.by == "host" {
				hosts, dead = uribeam.Hosts(s, lines)
			} else {
				hosts, dead = uribeam.Sites(s, lines, jo.by == "site:icann")
			}
			res = beam.ParDo(s, hostLine, hosts)
			counts = append(counts, beam.ParDo(s, hostRecords, hosts))
		}
		dead = beam.ParDo(s, deadJSON, dead)
		counts = append(counts, uribeam.CountLines(s, dead, uribeam.CountDead))
	case "extract":
		var found, fileCounts beam.PCollection
		found, readDead, fileCounts = uribeam.Extract(s, in, o)
		res = beam.ParDo(s, foundLine, found)
		counts = append(counts, fileCounts)
	case "links":
		var links, fileCounts beam.PCollection
		links, readDead, fileCounts = uribeam.Links(s, in, m, o)
		res = beam.ParDo(s, linkLine, links)
		counts = append(counts, fileCounts)
	case "cdxj":
		var fileCounts beam.PCollection
		res, readDead, fileCounts = uribeam.CDXJ(s, in, o, uribeam.CDXJOptions{PostAppend: jo.postAppend})
		counts = append(counts, fileCounts)
	}
	readDead = beam.ParDo(s, deadJSON, readDead)
	if dead.IsValid() {
		readDead = beam.Flatten(s, dead, readDead)
	}
	if res.IsValid() {
		counts = append(counts, uribeam.CountLines(s, res, uribeam.CountOutputLines))
		if job == "cdxj" {
			uribeam.WriteSortedShards(s, out, n, 0, res)
		} else {
			uribeam.WriteShards(s, out, n, res)
		}
	}
	counts = append(counts, uribeam.CountLines(s, readDead, uribeam.CountDeadLetters))
	uribeam.WriteShards(s.Scope("errors"), out+"-errors", n, readDead)
	uribeam.WriteCounts(s, uribeam.CountsPath(out), job, in, counts...)
}
