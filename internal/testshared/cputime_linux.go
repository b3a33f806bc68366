package testshared

import (
	"syscall"
	"time"
	"unsafe"
)

// CPUTime returns the CPU time the process has used, with the
// nanosecond resolution of CLOCK_PROCESS_CPUTIME_ID (getrusage gives
// only microseconds).
func CPUTime() time.Duration {
	const clockProcessCPUTimeID = 2
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return rusageCPU()
	}
	return time.Duration(ts.Nano())
}
