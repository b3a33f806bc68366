package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// dieWithParent makes the worker end with the process that started it.
// Beam's worker harness, once its runner has closed the control
// stream, does not exit but waits to be killed (as a container's
// process is); the SDK's worker pool kills the boot loader, the
// worker's parent, when the runner stops the worker, and without this
// the worker would be left sleeping, one a job.
func dieWithParent() {
	ppid := os.Getppid()
	if unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL), 0, 0, 0) == nil && os.Getppid() != ppid {
		os.Exit(1) // the parent died before the signal was asked for
	}
}
