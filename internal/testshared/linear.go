package testshared

import (
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"
)

// The linearity checks below measure cost without trusting the wall
// clock: on a shared machine a run can be descheduled for tens of
// milliseconds, which is what made the earlier 1 MB/2 MB timings flake.
// They use the CPU time of the process (see cputime_*.go), which does
// not grow while other processes hold the CPUs, and the bytes the run
// allocates, which do not depend on the machine at all. Sizes differ by
// a factor of 8, so that a linear run costs about 8 times as much and a
// quadratic one 64 times: a limit of 24 leaves a factor of 3 to noise on
// one side and of 2.7 to the smallest quadratic on the other.
//
// One run of a fast function on a small input can take tens of
// microseconds, the order of a page fault storm, a cache refill or a
// timer interrupt: a ratio of two such measurements is noise (a 40 µs
// run at n against 3 ms at 8n failed one run in four on a loaded
// machine). Every measurement therefore repeats the run until it has
// used at least MinWork of CPU and reports the cost per run.

// Scale is the factor between the two input sizes of CheckLinearN.
const Scale = 8

// LinearLimit is the largest cost ratio between the two sizes that
// counts as linear.
const LinearLimit = 24

// MinWork is the least CPU time one measurement of CheckLinearN spends:
// a run that is cheaper is repeated until the repetitions together
// reach it.
const MinWork = 10 * time.Millisecond

// CheckLinear is CheckLinearN with n = 256 KiB (inputs of 256 KiB and
// 2 MiB).
func CheckLinear[T any](tb testing.TB, name string, gen func(n int) T, run func(T)) {
	tb.Helper()
	CheckLinearN(tb, name, 256<<10, gen, run)
}

// CheckLinearN checks that run costs time and memory linear in the size
// of its input. It builds the inputs gen(n) and gen(Scale*n) (the
// building is not measured) and measures them in interleaved rounds,
// each measurement repeating the run until it has used MinWork of CPU,
// keeping the cheapest cost per run of each, so that a busy machine or
// a collection that happens to start during one run does not count. It reports an error,
// under name, when the large input costs more than LinearLimit times the
// small one in CPU time (plus 2 ms for constant costs) or in allocated
// bytes (plus 1 MiB). A ratio over the limit is measured again, twice,
// before it fails: noise does not repeat, a quadratic path does. The
// input is a type parameter so that parsing can stay outside the
// measured part.
func CheckLinearN[T any](tb testing.TB, name string, n int, gen func(n int) T, run func(T)) {
	tb.Helper()
	small, large := gen(n), gen(Scale*n)
	var cs, cl cost
	for attempt := 0; attempt < 3; attempt++ {
		cs, cl = measurePair(small, large, run)
		if cl.cpu <= LinearLimit*cs.cpu+2*time.Millisecond && cl.bytes <= LinearLimit*cs.bytes+1<<20 {
			tb.Logf("%-12s n=%d: CPU %v / %v, allocated %d / %d bytes", name, n, cs.cpu, cl.cpu, cs.bytes, cl.bytes)
			return
		}
	}
	tb.Errorf("%s: not linear: n=%d costs CPU %v and %d bytes, %dn costs CPU %v and %d bytes (limit %dx)",
		name, n, cs.cpu, cs.bytes, Scale, cl.cpu, cl.bytes, LinearLimit)
}

// cost is what one run used.
type cost struct {
	cpu   time.Duration
	bytes uint64
}

func (c *cost) keepMin(d cost) {
	if c.cpu == 0 || d.cpu < c.cpu {
		c.cpu = d.cpu
	}
	if c.bytes == 0 || d.bytes < c.bytes {
		c.bytes = d.bytes
	}
}

// measurePair measures small and large in three interleaved rounds
// (each measurement already averages MinWork of runs) and returns the
// cheapest cost of each. Measurements are made one at a time (the
// collector setting is the process's, and parallel tests would time
// each other).
func measurePair[T any](small, large T, run func(T)) (cs, cl cost) {
	measuring.Lock()
	defer measuring.Unlock()
	for range 3 {
		cs.keepMin(measure(small, run))
		cl.keepMin(measure(large, run))
	}
	return cs, cl
}

// measuring is held by the measurement under way.
var measuring sync.Mutex

// measure returns the cost of one run of in, the CPU time and the
// allocated bytes of repeated runs (see repeat) divided by their number.
// One run before them, not measured, does what a first run does once.
// The collector is off while they run, so that every run takes fresh
// memory from the system, as a large run does anyway: with it on, the
// many runs of the small input reuse the memory that each collection
// frees, while a run of a few megabytes, measured once, faults all of
// its memory in, and the ratio counted page faults (a 2 MB reference
// resolved in 65-70 times the CPU of a 256 KB one, TestResolveLinear
// and TestResolverLinear, 2 full runs of the uri tests in 8 on a loaded
// machine).
func measure[T any](in T, run func(T)) cost {
	run(in)
	var m0, m1 runtime.MemStats
	runtime.GC()
	gc := debug.SetGCPercent(-1)
	defer func() {
		debug.SetGCPercent(gc)
		runtime.GC()
	}()
	runtime.ReadMemStats(&m0)
	cpu, reps := repeat(func() { run(in) })
	runtime.ReadMemStats(&m1)
	return cost{cpu: max(cpu, time.Nanosecond), bytes: (m1.TotalAlloc-m0.TotalAlloc)/uint64(reps) + 1}
}

// repeat calls fn until the calls have used MinWork of CPU and returns
// the CPU time per call and the number of calls.
func repeat(fn func()) (perCall time.Duration, calls int) {
	c0 := CPUTime()
	var spent time.Duration
	for spent < MinWork {
		fn()
		calls++
		spent = CPUTime() - c0
	}
	return spent / time.Duration(calls), calls
}

// CheckFast checks that run, on one input, costs at most limit times
// what ref costs on a reference input of similar size: a ratio in one
// process, in CPU time, the cheapest of three interleaved rounds, measured
// again before it fails. It times one call of each, not MinWork of them
// as CheckLinearN does: it runs on hundreds of inputs, and allows 2 ms
// beyond its ratio. It is for inputs that must not be much slower than
// an ordinary one of their size (a hostile line against a plain
// one), where a linear check would need a generator.
func CheckFast(tb testing.TB, name string, limit float64, ref, run func()) {
	tb.Helper()
	var best, bestRef time.Duration
	for attempt := 0; attempt < 3; attempt++ {
		best, bestRef = 1<<62, 1<<62
		for range 3 {
			c0 := CPUTime()
			ref()
			c1 := CPUTime()
			run()
			c2 := CPUTime()
			bestRef, best = min(bestRef, c1-c0), min(best, c2-c1)
		}
		if float64(best) <= limit*float64(bestRef)+float64(2*time.Millisecond) {
			return
		}
	}
	tb.Errorf("%s: CPU %v against %v for the reference (limit %gx)", name, best, bestRef, limit)
}

// BenchLoop calls fn for each index below n in turn, one per benchmark
// iteration, and reports cpu-ns/op: the CPU time of the process per
// iteration, which other processes on a busy machine do not inflate.
func BenchLoop(b *testing.B, n int, fn func(i int)) {
	b.ReportAllocs()
	i := 0
	c0 := CPUTime()
	for b.Loop() {
		fn(i)
		if i++; i == n {
			i = 0
		}
	}
	b.ReportMetric(float64(CPUTime()-c0)/float64(b.N), "cpu-ns/op")
}
