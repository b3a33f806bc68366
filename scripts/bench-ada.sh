#!/usr/bin/env bash
# Compares parse + resolve + text of relative references against one base
# (uri.BenchmarkParseResolveOneBase, issue 18) with ada, the C++ WHATWG URL
# parser, on the same base and references (uri/testdata/resolve-refs.txt).
# Usage:
#
#   scripts/bench-ada.sh ADA_SOURCE_DIR [COUNT] [BENCHTIME]
#   BEFORE=REV scripts/bench-ada.sh ADA_SOURCE_DIR [COUNT] [BENCHTIME]
#
# With BEFORE, the uri test binary of commit REV (a git worktree in a
# temporary directory) runs its urikit variants in the same rounds, named
# before-Resolve and so on.
#
# ADA_SOURCE_DIR is a checkout of github.com/ada-url/ada (it must hold
# src/ada.cpp and include/ada.h); this script fetches nothing and nothing
# of ada is kept in this repository. The driver (scripts/bench-ada/driver.cpp)
# and the Go test binary are built once, then run COUNT times (default 6)
# in turn, so that load on a shared machine hits both; the script prints
# the medians of ns/op and cpu-ns/op and the median of each round's own
# ratio of ada's time to each variant's.
set -euo pipefail
cd "$(dirname "$0")/.."

ada="${1:?usage: scripts/bench-ada.sh ADA_SOURCE_DIR [COUNT] [BENCHTIME]}"
count="${2:-6}"
benchtime="${3:-1s}"
[ -f "$ada/src/ada.cpp" ] && [ -f "$ada/include/ada.h" ] || {
  echo "bench-ada.sh: $ada has no src/ada.cpp and include/ada.h" >&2
  exit 2
}

tmp="$(mktemp -d)"
trap 'git worktree remove --force "$tmp/before-src" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
${CXX:-g++} -O3 -DNDEBUG -std=c++20 -DADA_INCLUDE_URL_PATTERN=0 \
  -I "$ada/include" -I "$ada/src" \
  "$ada/src/ada.cpp" scripts/bench-ada/driver.cpp -o "$tmp/driver"
go test -c -o "$tmp/uri.test" ./uri
before="${BEFORE:-}"
if [ -n "$before" ]; then
  git worktree add --detach "$tmp/before-src" "$before" >/dev/null 2>&1 ||
    { echo "bench-ada.sh: cannot check out $before" >&2; exit 2; }
  (cd "$tmp/before-src" && go test -c -o "$tmp/before.test" ./uri)
fi

refs="uri/testdata/resolve-refs.txt"
secs="${benchtime%s}"
for i in $(seq "$count"); do
  echo "round $i"
  "$tmp/driver" "$refs" "$secs"
  (cd uri && "$tmp/uri.test" -test.run '^$' -test.bench '^BenchmarkParseResolveOneBase$' \
    -test.benchtime "$benchtime" -test.count 1)
  if [ -n "$before" ]; then
    # The urikit variants of the commit BEFORE, named "before-...".
    (cd uri && "$tmp/before.test" -test.run '^$' -test.bench '^BenchmarkParseResolveOneBase$/urikit-' \
      -test.benchtime "$benchtime" -test.count 1) | sed 's#/urikit-#/before-#'
  fi
done | tee "$tmp/out" | grep -E '^(round|Benchmark)' >&2

# Medians per benchmark of ns/op and cpu-ns/op, and the medians of each
# round's own ratio of ada's time to each one's.
echo "| implementation | ns/op | cpu-ns/op | ada / it (ns) | ada / it (cpu) |"
echo "|---|---:|---:|---:|---:|"
awk '
  /^round/ { r++ }
  /^Benchmark/ {
    name = $1; sub(/-[0-9]+$/, "", name); seen[name] = 1
    for (i = 3; i < NF; i++) {
      if ($(i+1) == "ns/op") { ns[name] = ns[name] " " $i; vn[r, name] = $i }
      if ($(i+1) == "cpu-ns/op") { cpu[name] = cpu[name] " " $i; vc[r, name] = $i }
    }
  }
  function median(list,   a, n, i, j, t) {
    n = split(list, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  END {
    a = "BenchmarkParseResolveOneBase/ada"
    for (k in seen) {
      rn = ""; rc = ""
      for (i = 1; i <= r; i++) {
        if (vn[i, k] > 0) rn = rn " " vn[i, a] / vn[i, k]
        if (vc[i, k] > 0) rc = rc " " vc[i, a] / vc[i, k]
      }
      printf "| %s | %.1f | %.1f | %.2fx | %.2fx |\n", k, median(ns[k]), median(cpu[k]), median(rn), median(rc)
    }
  }' "$tmp/out" | sort
