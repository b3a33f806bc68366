#!/usr/bin/env bash
# Compares the host parser on long hosts (issue 32, item 6) with Node's
# URL (ada): whatwg.BenchmarkLongHost against scripts/bench-punycode/node.js
# on the same strings, hosts of 1 to 60 KB of distinct code points,
# "encode" (a Unicode host, Punycode-encoded), "decode" (its A-label
# beside "ß", decoded and checked) and "decode-rev" (the same for the
# code points in decreasing order). Usage:
#
#   scripts/bench-punycode.sh [ROUNDS] [MIN_MS]
#
# Each round runs Node, then the Go benchmark binary (built once), so
# that load on a shared machine hits both. Times are CPU time per parse
# (process.cpuUsage in Node, cpu-ns/op in Go); the table gives their
# medians and the median of the per-round ratios Node / Go. MIN_MS is
# the CPU time each job runs for, per round (default 200).
set -euo pipefail
cd "$(dirname "$0")/.."

rounds="${1:-5}"
min_ms="${2:-200}"
command -v node >/dev/null || { echo "bench-punycode.sh: no node on PATH" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/whatwg.test" ./whatwg
for i in $(seq "$rounds"); do
  node scripts/bench-punycode/node.js "$min_ms" | sed "s/^/round$i /"
  (cd whatwg && "$tmp/whatwg.test" -test.run '^$' -test.bench '^BenchmarkLongHost$' \
    -test.benchtime "${min_ms}ms" -test.count 1) | grep '^Benchmark' | sed "s/^/round$i /"
done | tee "$tmp/out" >&2

echo "| job | Node cpu ms | urikit cpu ms | Node / urikit |"
echo "|---|---:|---:|---:|"
awk '
  {
    round = $1; name = $2; sub(/-[0-9]+$/, "", name)
    for (i = 3; i < NF; i++) if ($(i+1) == "cpu-ns/op") v = $i
    node = (name ~ /\/node$/)
    sub(/\/node$/, "", name); sub(/^BenchmarkLongHost\//, "", name)
    if (node) n[name, round] = v; else g[name, round] = v
    names[name] = 1; rounds[round] = 1
  }
  function median(list,   a, k, i, j, t) {
    k = split(list, a, " ")
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  END {
    for (name in names) {
      ln = lg = lr = ""
      for (r in rounds) if ((name, r) in n && (name, r) in g) {
        ln = ln " " n[name, r]; lg = lg " " g[name, r]; lr = lr " " n[name, r] / g[name, r]
      }
      printf "| %s | %.3f | %.3f | %.1fx |\n", name, median(ln) / 1e6, median(lg) / 1e6, median(lr)
    }
  }' "$tmp/out" | sort -t/ -k1,1 -k2n
