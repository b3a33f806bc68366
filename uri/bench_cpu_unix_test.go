//go:build unix

package uri_test

import "syscall"

// processCPU returns the CPU time (user and system) the test process has
// used so far, in nanoseconds, or -1 when it cannot be read. Unlike wall
// time it does not grow while other processes hold the CPUs.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
