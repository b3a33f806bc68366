// Command uripipe runs urikit's URL and link jobs as Apache Beam
// pipelines: in process on the Prism runner by default, or on Flink,
// Spark, Google Cloud Dataflow or any portable job server with
// --runner.
//
//	uripipe normalize|dedupe|hosts|extract|links --input GLOB --output PREFIX
//	        [--runner prism|flink|spark|dataflow|universal] [--shards N]
//	        [--map PATHPREFIX=URLPREFIX]... [Beam's flags]
//
// Every job writes text shards PREFIX-SSSSS-of-NNNNN (through
// temporary files PREFIX-tmp-*, removed at the end), and its dead
// letters (inputs it could not use) into PREFIX-errors-SSSSS-of-NNNNN,
// one JSON object a line: {"input", "error", "offset"} for a line, with
// "file" for a file or a WARC record. Run "uripipe help" for the jobs.
//
// Exit status: 0 when the pipeline succeeded (invalid inputs are data,
// not failures), 1 when it failed, 2 for a usage error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/urikit/urikit/beam/uribeam"
)

func init() {
	register.Function1x1(deadJSON)
	register.Function1x1(classLine)
	register.Function2x1(hostLine)
	register.Function2x1(linkLine)
	register.Function1x1(foundLine)
}

// The formatting of each job's output lines.
func deadJSON(d uribeam.DeadLetter) string { return d.JSON() }
func classLine(c uribeam.Class) string     { return c.String() }
func hostLine(h string, n int64) string    { return h + "\t" + strconv.FormatInt(n, 10) }
func linkLine(page, link string) string    { return page + "\t" + link }
func foundLine(f uribeam.Found) string     { return f.String() }

// jobs are the job names, "|" around each.
const jobs = "|normalize|dedupe|hosts|extract|links|"

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

// runners are the values of --runner, "|" around each.
const runners = "|prism|flink|spark|dataflow|universal|"

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

Flags:
  --input GLOB     the input files (local paths, gs://...; quote the glob)
  --output PREFIX  where the shards go
  --shards N       how many output shards (default 1)
  --map P=U        links: a file whose path starts with P was retrieved
                   from U followed by the rest of its path (repeatable;
                   the longest P wins; without one, its file: URL)
  --runner R       prism (default), flink, spark, dataflow or universal

Inputs that cannot be used (lines that are not URI references, unreadable
files or WARC records) go to PREFIX-errors-SSSSS-of-NNNNN, one JSON object
a line: {"input","error","offset"}, with "file" for a file or a record.

Exit status: 0 when the pipeline succeeded, 1 when it failed, 2 for a
usage error. Beam's own flags (--endpoint, --environment_type,
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
	return f.m.Add(p, u)
}

var (
	input  = flag.String("input", "", "the input files (a glob)")
	output = flag.String("output", "", "the prefix of the output shards")
	shards = flag.Int("shards", 1, "how many output shards")
	fmap   = &uribeam.Mapping{}
)

func init() {
	flag.Var(mapFlag{fmap}, "map", "PATHPREFIX=URLPREFIX: the retrieval URL of the files under PATHPREFIX (repeatable)")
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
	}
	if r := flag.Lookup("runner"); r != nil && r.Value.String() != "" && !strings.Contains(runners, "|"+r.Value.String()+"|") {
		return usageError(stderr, fmt.Sprintf("flag --runner: want prism, flink, spark, dataflow or universal, not %q", r.Value.String()))
	}
	beam.Init()

	p, s := beam.NewPipelineWithRoot()
	build(s, job, *input, *output, *shards, fmap)
	if err := beamx.Run(context.Background(), p); err != nil {
		fmt.Fprintf(stderr, "uripipe %s: %v\n", job, err)
		return 1
	}
	return 0
}

// build adds the job's transforms to s.
func build(s beam.Scope, job, in, out string, n int, m *uribeam.Mapping) {
	var res, dead beam.PCollection
	switch job {
	case "normalize":
		res, dead = uribeam.Normalize(s, uribeam.ReadLines(s, in))
	case "dedupe":
		var classes beam.PCollection
		classes, dead = uribeam.Dedupe(s, uribeam.ReadLines(s, in))
		res = beam.ParDo(s, classLine, classes)
	case "hosts":
		var counts beam.PCollection
		counts, dead = uribeam.Hosts(s, uribeam.ReadLines(s, in))
		res = beam.ParDo(s, hostLine, counts)
	case "extract":
		var found beam.PCollection
		found, dead = uribeam.Extract(s, in)
		res = beam.ParDo(s, foundLine, found)
	case "links":
		var links beam.PCollection
		links, dead = uribeam.Links(s, in, m)
		res = beam.ParDo(s, linkLine, links)
	}
	uribeam.WriteShards(s, out, n, res)
	uribeam.WriteShards(s.Scope("errors"), out+"-errors", n, beam.ParDo(s, deadJSON, dead))
}
