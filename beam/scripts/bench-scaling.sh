#!/usr/bin/env bash
# bench-scaling.sh: uripipe normalize and extract on Prism, in process,
# with GOMAXPROCS 1 and 2, in interleaved rounds (issue 27, item 7):
# each round runs the four commands once, in a rotated order, and notes
# the load average before each; the table gives the medians of the wall
# time and of the CPU time (user + sys), and the speed-up of 2 over 1.
# On a machine shared with other work, the wall time also counts the
# waits for a core: read it with the load average.
#
# Usage: beam/scripts/bench-scaling.sh [SIZE_MB [ROUNDS]]   (default 100, 3)
# normalize reads SIZE_MB of URL lines (kasztp.txt repeated) in 4 files;
# extract reads SIZE_MB of text, each line a sentence around one of those
# URLs, in 8 files. Needs URIKIT_SHARED (or ../shared).
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-100}
rounds=${2:-3}
shared=${URIKIT_SHARED:-$(cd ../.. && pwd)/shared}
corpus=$shared/corpora/urls/kasztp.txt
[ -f "$corpus" ] || { echo "bench-scaling: no $corpus (set URIKIT_SHARED)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/uripipe" ./cmd/uripipe

target=$((size_mb * 1000 * 1000))
mkdir -p "$work/lines" "$work/text"
: > "$work/all.txt"
while [ "$(stat -c %s "$work/all.txt")" -lt "$target" ]; do cat "$corpus" >> "$work/all.txt"; done
head -c "$target" "$work/all.txt" | sed '$d' > "$work/lines.txt"
split -n l/4 -d --additional-suffix=.txt "$work/lines.txt" "$work/lines/part-"
awk '{ print "See " $0 " for the details, or (" $0 ") if it moved; write to us." }' "$work/lines.txt" > "$work/all.txt"
head -c "$target" "$work/all.txt" | sed '$d' > "$work/text.txt"
split -n l/8 -d --additional-suffix=.txt "$work/text.txt" "$work/text/part-"
rm "$work/all.txt"
echo "normalize: $(stat -c %s "$work/lines.txt") bytes, $(wc -l < "$work/lines.txt") lines in 4 files;" \
  "extract: $(stat -c %s "$work/text.txt") bytes in 8 files; $(nproc) cores; $rounds rounds"
rm "$work/lines.txt" "$work/text.txt"

# run JOB PROCS appends "JOB PROCS wall cpu load" to the results.
run() {
  local job=$1 procs=$2 in load
  in=$work/lines; [ "$job" = extract ] && in=$work/text
  rm -rf "$work/out"
  load=$(cut -d' ' -f1 /proc/loadavg)
  GOMAXPROCS=$procs /usr/bin/time -f '%e %U %S' -o "$work/time" \
    "$work/uripipe" "$job" --input "$in/*.txt" --output "$work/out/o" --shards 4 > /dev/null 2> "$work/stderr" ||
    { cat "$work/stderr" >&2; exit 1; }
  awk -v j="$job" -v p="$procs" -v l="$load" '{ printf "%s\t%s\t%.2f\t%.2f\t%s\n", j, p, $1, $2 + $3, l }' "$work/time" >> "$work/results"
}

: > "$work/results"
runs=("normalize 1" "normalize 2" "extract 1" "extract 2")
for r in $(seq "$rounds"); do
  for k in 0 1 2 3; do
    # shellcheck disable=SC2086
    run ${runs[$(((k + r) % 4))]}
  done
done

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
col() { awk -F'\t' -v j="$1" -v p="$2" -v c="$3" '$1 == j && $2 == p {print $c}' "$work/results" | median; }
echo
echo "| job | GOMAXPROCS | wall s | CPU s | CPU/wall | load average (median) |"
echo "|---|---:|---:|---:|---:|---:|"
for job in normalize extract; do
  for p in 1 2; do
    awk -v j="$job" -v p="$p" -v w="$(col "$job" "$p" 3)" -v c="$(col "$job" "$p" 4)" -v l="$(col "$job" "$p" 5)" \
      'BEGIN { printf "| %s | %d | %.1f | %.1f | %.2f | %.1f |\n", j, p, w, c, c / w, l }'
  done
done
echo
for job in normalize extract; do
  awk -v j="$job" -v w1="$(col "$job" 1 3)" -v w2="$(col "$job" 2 3)" -v c1="$(col "$job" 1 4)" -v c2="$(col "$job" 2 4)" \
    'BEGIN { printf "%s: wall 1/2 = %.2f, CPU 2/1 = %.2f\n", j, w1 / w2, c2 / c1 }'
done
echo
echo "every run (job, GOMAXPROCS, wall s, CPU s, load average before):"
cat "$work/results"
