package main

import (
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"

	// The runners that every uripipe has: Prism, in process, and the
	// portable job API (a job server: Prism's own, Flink's, Spark's).
	// They share Beam's worker harness, which brings the file systems
	// (local and gs://) and the Google Cloud clients it links in itself.
	// The Dataflow runner is built with -tags dataflow (dataflow.go).
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/exec/optimized"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"
)

// withDataflow is set when the Dataflow runner is built in.
var withDataflow bool

// runner returns the value of --runner, prism by default.
func runner() string {
	if *runners.Runner == "" {
		return "prism"
	}
	return *runners.Runner
}

// checkRunner returns why r cannot run here, or "".
func checkRunner(r string) string {
	switch {
	case r == "dataflow" && !withDataflow:
		return "this uripipe is built without the Dataflow runner: build it with -tags dataflow"
	case !strings.Contains("|prism|flink|spark|dataflow|universal|", "|"+r+"|"):
		return "want prism, flink, spark, dataflow or universal, not \"" + r + "\""
	}
	return ""
}
