#!/usr/bin/env bash
# bench-dedupe.sh: uripipe dedupe on Prism with 1, 2 and 4 workers
# against "uri normalize | sort | uniq -c", on the same 100 MB of URL
# lines, in the same run (issue 19), with the CPU time of each next to
# its wall-clock time. Prism runs in process with its SDK worker in
# loopback mode: the workers are the Go scheduler's threads
# (GOMAXPROCS); the input is four files.
#
# Usage: beam/scripts/bench-dedupe.sh [SIZE_MB [distinct]]   (default 100)
# With "distinct", each copy of the corpus has its hosts renamed
# (http://r7.example.com/...), so that nearly every line is a class of
# its own: the worst case for Dedupe's count before the shuffle, where
# every line crosses it.
# Needs URIKIT_SHARED (or ../shared) for corpora/urls/kasztp.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-100}
distinct=${2:-}
shared=${URIKIT_SHARED:-$(cd ../.. && pwd)/shared}
corpus=$shared/corpora/urls/kasztp.txt
[ -f "$corpus" ] || { echo "bench-dedupe: no $corpus (set URIKIT_SHARED)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The repository's own go.work when it has one, never one above it.
gowork=off; [ -f ../go.work ] && gowork=$(cd .. && pwd)/go.work
(cd .. && GOWORK=$gowork go build -o "$work/uri" ./cmd/uri)
go build -o "$work/uripipe" ./cmd/uripipe

# SIZE_MB of lines: the corpus repeated, cut at a line, in four files.
mkdir -p "$work/in"
target=$((size_mb * 1000 * 1000))
copy=0
while [ "$(stat -c %s "$work/all.txt" 2>/dev/null || echo 0)" -lt "$target" ]; do
  copy=$((copy + 1))
  if [ "$distinct" = distinct ]; then
    sed "s|://|://r$copy.|" "$corpus" >> "$work/all.txt"
  else
    cat "$corpus" >> "$work/all.txt"
  fi
done
head -c "$target" "$work/all.txt" | sed '$d' > "$work/corpus.txt"
rm "$work/all.txt"
split -n l/4 -d --additional-suffix=.txt "$work/corpus.txt" "$work/in/part-"
bytes=$(stat -c %s "$work/corpus.txt")
lines=$(wc -l < "$work/corpus.txt")
echo "input: $bytes bytes, $lines lines ($(basename "$corpus") repeated${distinct:+, hosts renamed in each copy}), 4 files; $(nproc) cores"

# measure runs the command and prints its wall-clock seconds, its CPU
# seconds (user + sys, its children's included) and its peak memory
# in MB. The machine may be shared: the CPU seconds are the work done,
# the wall-clock seconds also count the time spent waiting for a core.
measure() {
  /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" > /dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
  awk '{printf "%.2f %.2f %.0f\n", $1, $2 + $3, $4 / 1024}' "$work/time"
}
row() {
  local wall cpu mb
  read -r wall cpu mb <<< "$2"
  printf '| %-44s | %7.1f | %7.1f | %5.2f | %6.1f | %6.1f | %5d |\n' "$1" "$wall" "$cpu" \
    "$(echo "$cpu / $wall" | bc -l)" "$(echo "$bytes / $wall / 1000000" | bc -l)" \
    "$(echo "$bytes / $cpu / 1000000" | bc -l)" "$mb"
}

echo
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| job | wall s | CPU s | CPU/wall | MB/s | MB per CPU-s | peak MB |"
echo "|---|---:|---:|---:|---:|---:|---:|"
row 'uri normalize \| sort \| uniq -c (LC_ALL=C)' \
  "$(LC_ALL=C measure sh -c "'$work/uri' normalize -f '$work/corpus.txt' | sort | uniq -c > '$work/uniq.txt'")"
for w in 1 2 4; do
  rm -rf "$work/out"
  row "uripipe dedupe, Prism, GOMAXPROCS=$w" "$(GOMAXPROCS=$w measure "$work/uripipe" dedupe --input "$work/in/*.txt" --output "$work/out/d" --shards 4)"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# The two answers agree: as many classes as distinct normal forms (no
# URN in this corpus, so the key is the normal form), and as many
# counted lines.
classes=$(cat "$work"/out/d-0*-of-* | wc -l)
distinct=$(grep -vc '^ *[0-9]* error: ' "$work/uniq.txt" || true)
counted=$(cat "$work"/out/d-0*-of-* | awk -F'\t' '{n += $2} END {print n}')
failed=$(cat "$work"/out/d-errors-* | wc -l)
echo
echo "classes: uripipe $classes, uniq $distinct; lines counted $counted + $failed dead letters = $((counted + failed)) of $lines"
