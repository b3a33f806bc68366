//go:build !unix

package uri_test

// processCPU returns -1: the process CPU time is read only on Unix.
func processCPU() int64 { return -1 }
