//go:build dataflow

package main

// The Dataflow runner, and the Google Cloud clients it alone needs
// (google.golang.org/api/dataflow/v1b3): built with -tags dataflow.
import _ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"

func init() { withDataflow = true }
