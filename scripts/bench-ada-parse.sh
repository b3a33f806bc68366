#!/usr/bin/env bash
# Compares whatwg.Parse and uri.Parse (whatwg.BenchmarkParse, issue 21)
# with ada, the C++ WHATWG URL parser, on every line of the kasztp and
# node_files corpora: parse with no base and take the href. Usage:
#
#   URIKIT_SHARED=/path/to/shared scripts/bench-ada-parse.sh ADA_SOURCE_DIR [COUNT] [BENCHTIME]
#   BEFORE=REV URIKIT_SHARED=... scripts/bench-ada-parse.sh ADA_SOURCE_DIR [COUNT] [BENCHTIME]
#
# With BEFORE, the whatwg test binary of commit REV (a git worktree in a
# temporary directory) runs whatwg.Parse and uri.Parse in the same
# rounds, and a second table gives, for each, REV's time over this
# tree's, and ada's over each.
#
# ADA_SOURCE_DIR is a checkout of github.com/ada-url/ada (it must hold
# src/ada.cpp and include/ada.h); this script fetches nothing and nothing
# of ada is kept in this repository. The driver (scripts/bench-ada/driver.cpp
# --parse) and the whatwg test binary are built once, then run COUNT times
# (default 6) in turn, so that load on a shared machine hits all three.
# The script prints, per corpus, the medians of cpu-ns/op (the process's
# CPU time per URL; a loaded machine distorts the wall clock far more) and
# the medians of each round's own ratio ada / whatwg, whatwg / uri and
# ada / uri.
set -euo pipefail
cd "$(dirname "$0")/.."

ada="${1:?usage: scripts/bench-ada-parse.sh ADA_SOURCE_DIR [COUNT] [BENCHTIME]}"
count="${2:-6}"
benchtime="${3:-1s}"
[ -f "$ada/src/ada.cpp" ] && [ -f "$ada/include/ada.h" ] || {
  echo "bench-ada-parse.sh: $ada has no src/ada.cpp and include/ada.h" >&2
  exit 2
}
shared="$(cd "${URIKIT_SHARED:?set URIKIT_SHARED to the shared data directory}" && pwd)"
export URIKIT_SHARED="$shared"
corpora="kasztp node_files"
for c in $corpora; do
  [ -f "$shared/corpora/urls/$c.txt" ] || { echo "bench-ada-parse.sh: no $shared/corpora/urls/$c.txt" >&2; exit 2; }
done

tmp="$(mktemp -d)"
trap 'git worktree remove --force "$tmp/before-src" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
${CXX:-g++} -O3 -DNDEBUG -std=c++20 -DADA_INCLUDE_URL_PATTERN=0 \
  -I "$ada/include" -I "$ada/src" \
  "$ada/src/ada.cpp" scripts/bench-ada/driver.cpp -o "$tmp/driver"
go test -c -o "$tmp/whatwg.test" ./whatwg
before="${BEFORE:-}"
if [ -n "$before" ]; then
  git worktree add --detach "$tmp/before-src" "$before" >/dev/null 2>&1 ||
    { echo "bench-ada-parse.sh: cannot check out $before" >&2; exit 2; }
  (cd "$tmp/before-src" && go test -c -o "$tmp/before.test" ./whatwg)
fi

secs="${benchtime%s}"
for i in $(seq "$count"); do
  echo "round $i"
  for c in $corpora; do
    "$tmp/driver" --parse "$c" "$shared/corpora/urls/$c.txt" "$secs"
  done
  (cd whatwg && "$tmp/whatwg.test" -test.run '^$' \
    -test.bench '^BenchmarkParse$/^(kasztp|node_files)$/^(whatwg|uri)$' \
    -test.benchtime "$benchtime" -test.count 1)
  if [ -n "$before" ]; then
    # whatwg.Parse and uri.Parse of the commit BEFORE, named
    # "before-whatwg" and "before-uri".
    (cd whatwg && "$tmp/before.test" -test.run '^$' \
      -test.bench '^BenchmarkParse$/^(kasztp|node_files)$/^(whatwg|uri)$' \
      -test.benchtime "$benchtime" -test.count 1) | sed -E 's#/(whatwg|uri)-#/before-\1-#'
  fi
done | tee "$tmp/out" | grep -E '^(round|Benchmark)' >&2

# summary TABLE prints the rows of table 1 (against ada) or 2 (whatwg.Parse
# and uri.Parse of BEFORE against this tree's): medians of cpu-ns/op and
# of each round's own ratios.
summary() {
  awk -v table="$1" '
    /^round/ { r++ }
    /^Benchmark/ {
      split($1, p, "/"); c = p[2]; impl = p[3]; sub(/-[0-9]+$/, "", impl)
      for (i = 3; i < NF; i++) if ($(i+1) == "cpu-ns/op") { cpu[c, impl] = cpu[c, impl] " " $i; v[r, c, impl] = $i }
      seen[c] = 1
    }
    function median(list,   a, n, i, j, t) {
      n = split(list, a, " ")
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    # ratio(k, c, x, y): the ratio x / y of round k, or "" when one is missing.
    function ratio(k, c, x, y) { return v[k, c, x] > 0 && v[k, c, y] > 0 ? " " v[k, c, x] / v[k, c, y] : "" }
    END {
      for (c in seen) {
        ra = ""; ru = ""; rau = ""
        for (k = 1; k <= r; k++) {
          ra = ra ratio(k, c, "ada", "whatwg"); ru = ru ratio(k, c, "whatwg", "uri"); rau = rau ratio(k, c, "ada", "uri")
        }
        if (table == 1) {
          printf "| %s | %.1f | %.1f | %.1f | %.2fx | %.2f | %.2fx |\n", c, median(cpu[c, "whatwg"]), median(cpu[c, "uri"]), median(cpu[c, "ada"]), median(ra), median(ru), median(rau)
          continue
        }
        split("whatwg uri", impls, " ")
        for (x = 1; x <= 2; x++) {
          m = impls[x]; b = "before-" m; rb = ""; rab = ""; rap = ""; lo = ""; hi = ""
          for (k = 1; k <= r; k++) {
            q = ratio(k, c, b, m); rb = rb q; rab = rab ratio(k, c, "ada", b); rap = rap ratio(k, c, "ada", m)
            if (q != "" && (lo == "" || q + 0 < lo)) lo = q + 0
            if (q != "" && (hi == "" || q + 0 > hi)) hi = q + 0
          }
          printf "| %s | %s.Parse | %.1f | %.1f | %.2fx (%.2f-%.2f) | %.2fx | %.2fx |\n", c, m, median(cpu[c, b]), median(cpu[c, m]), median(rb), lo, hi, median(rab), median(rap)
        }
      }
    }' "$tmp/out" | sort
}

echo "| corpus | whatwg.Parse cpu-ns/URL | uri.Parse cpu-ns/URL | ada cpu-ns/URL | ada / whatwg | whatwg / uri | ada / uri |"
echo "|---|---:|---:|---:|---:|---:|---:|"
summary 1
[ -z "$before" ] && exit 0
echo
echo "whatwg.Parse and uri.Parse of $before against this tree's, in the same rounds:"
echo
echo "| corpus | parser | $before cpu-ns/URL | this tree cpu-ns/URL | $before / this tree (min-max) | ada / $before | ada / this tree |"
echo "|---|---|---:|---:|---:|---:|---:|"
summary 2
