#!/usr/bin/env bash
# Runs the uri benchmarks on the full corpora and prints a table of medians
# with the ratio of each peer to urikit. Usage:
#
#   scripts/bench.sh [COUNT] [BENCHTIME] [BENCH-REGEXP]
#
# COUNT defaults to 5, BENCHTIME to 1s, BENCH-REGEXP to the benchmarks of
# uri/bench_test.go.
# The corpora come from $URIKIT_SHARED/corpora/urls (default ../shared next
# to the repository); URIKIT_BENCH_URLS and URIKIT_BENCH_FILES override
# them. The raw benchmark lines are kept in bench.out (or $BENCH_OUT) for
# benchstat, which this script does not need.
set -euo pipefail
cd "$(dirname "$0")/.."

count="${1:-5}"
benchtime="${2:-1s}"
pattern="${3:-^Benchmark(Parse|ParseInspect|String|Resolve|ResolveString|Normalize)$}"
out="${BENCH_OUT:-bench.out}"

if [ -z "${URIKIT_SHARED:-}" ] && [ -d ../shared ]; then
  URIKIT_SHARED="$(cd ../shared && pwd)"
fi
if [ -z "${URIKIT_SHARED:-}" ]; then
  echo "bench.sh: URIKIT_SHARED is not set; the benchmarks would run on the small samples" >&2
  exit 2
fi
export URIKIT_SHARED

# The test binary is built once and run COUNT times with -test.count=1, so
# that the runs of urikit and of its peers interleave: on a shared machine a
# burst of load then hits both sides of a ratio instead of one.
bin="$(mktemp -d)/uri.test"
trap 'rm -rf "$(dirname "$bin")"' EXIT
go test -c -o "$bin" ./uri
{
  echo "# $(go version)"
  echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //') ($(nproc 2>/dev/null || echo '?') cores)"
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# scripts/bench.sh $count $benchtime '$pattern'"
} >"$out"
for _ in $(seq "$count"); do
  (cd uri && "$bin" -test.run '^$' -test.bench "$pattern" -test.benchtime="$benchtime" -test.count=1 -test.benchmem)
done | grep '^Benchmark' | tee -a "$out" >&2

# Median per benchmark, then one row per benchmark with the ratio of the
# peer's time to urikit's in the same group ("3.00x": urikit takes a third
# of the time), by wall time (ns/op) and by process CPU time (cpu-ns/op,
# steadier when other processes load the machine). allocs/op is the exact
# (fractional) count.
awk '
function median(list,    a, n, i, j, t) {
  n = split(list, a, " ")
  for (i = 2; i <= n; i++) {
    t = a[i] + 0
    for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]
    a[j + 1] = t
  }
  if (n % 2) return a[(n + 1) / 2]
  return (a[n / 2] + a[n / 2 + 1]) / 2
}
/^# / { print; next }
/^Benchmark/ {
  name = $1
  sub(/-[0-9]+$/, "", name)
  for (i = 3; i < NF; i++) {
    if ($(i + 1) == "ns/op") ns[name] = ns[name] " " $i
    if ($(i + 1) == "cpu-ns/op") cpu[name] = cpu[name] " " $i
    if ($(i + 1) == "B/op") by[name] = by[name] " " $i
    if ($(i + 1) == "exact-allocs/op") al[name] = al[name] " " $i
  }
  if (!(name in seen)) { seen[name] = 1; order[++n] = name }
}
END {
  printf "\n| benchmark | ns/op | cpu-ns/op | B/op | allocs/op | faster by (ns) | faster by (cpu) |\n"
  printf "|---|---:|---:|---:|---:|---:|---:|\n"
  for (k = 1; k <= n; k++) {
    name = order[k]
    m = median(ns[name]); c = median(cpu[name])
    group = name; sub(/\/[^\/]*$/, "", group)
    ref = group "/urikit"
    r1 = ""; r2 = ""
    if (name != ref && (ref in ns)) {
      r1 = sprintf("%.2fx", m / median(ns[ref]))
      r2 = sprintf("%.2fx", c / median(cpu[ref]))
    }
    printf "| %s | %.1f | %.1f | %d | %.3g | %s | %s |\n", name, m, c, median(by[name]), median(al[name]), r1, r2
  }
}' "$out"
