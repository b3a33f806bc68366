//go:build unix && !linux

package testshared

import "time"

// CPUTime returns the CPU time the process has used.
func CPUTime() time.Duration { return rusageCPU() }
