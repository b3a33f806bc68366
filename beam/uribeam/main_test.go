package uribeam_test

import (
	"context"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
)

// TestMain runs the pipelines of the tests and examples on Prism, in
// process.
func TestMain(m *testing.M) { ptest.MainWithDefault(m, "prism") }

func beamRun(p *beam.Pipeline) error {
	_, err := beam.Run(context.Background(), "prism", p)
	return err
}
