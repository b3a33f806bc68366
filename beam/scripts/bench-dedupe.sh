#!/usr/bin/env bash
# bench-dedupe.sh: uripipe dedupe on Prism with 1, 2 and 4 workers
# against "uri normalize | sort | uniq -c", on the same 100 MB of URL
# lines, in the same run (issue 19). Prism runs in process with its SDK
# worker in loopback mode: the workers are the Go scheduler's threads
# (GOMAXPROCS), and the input is four files so that four bundles can be
# read at once.
#
# Usage: beam/scripts/bench-dedupe.sh [SIZE_MB]   (default 100)
# Needs URIKIT_SHARED (or ../shared) for corpora/urls/kasztp.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-100}
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
while [ "$(stat -c %s "$work/all.txt" 2>/dev/null || echo 0)" -lt "$target" ]; do
  cat "$corpus" >> "$work/all.txt"
done
head -c "$target" "$work/all.txt" | sed '$d' > "$work/corpus.txt"
rm "$work/all.txt"
split -n l/4 -d --additional-suffix=.txt "$work/corpus.txt" "$work/in/part-"
bytes=$(stat -c %s "$work/corpus.txt")
lines=$(wc -l < "$work/corpus.txt")
echo "input: $bytes bytes, $lines lines ($(basename "$corpus") repeated), 4 files; $(nproc) cores"

# seconds runs the command and prints its wall-clock seconds.
seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > /dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc
}
row() { printf '| %-44s | %8.1f | %8.1f |\n' "$1" "$2" "$(echo "$bytes / $2 / 1000000" | bc -l)"; }

echo
echo "| job | seconds | MB/s |"
echo "|---|---:|---:|"
pipeline() { LC_ALL=C sh -c "'$work/uri' normalize -f '$work/corpus.txt' | sort | uniq -c > '$work/uniq.txt'"; }
row 'uri normalize | sort | uniq -c (LC_ALL=C)' "$(seconds pipeline)"
for w in 1 2 4; do
  rm -rf "$work/out"
  row "uripipe dedupe, Prism, $w worker(s)" "$(GOMAXPROCS=$w seconds "$work/uripipe" dedupe --input "$work/in/*.txt" --output "$work/out/d" --shards 4)"
done

# The two answers agree: as many classes as distinct normal forms (no
# URN in this corpus, so the key is the normal form), and as many
# counted lines.
classes=$(cat "$work"/out/d-0*-of-* | wc -l)
distinct=$(grep -vc '^ *[0-9]* error: ' "$work/uniq.txt" || true)
counted=$(cat "$work"/out/d-0*-of-* | awk -F'\t' '{n += $2} END {print n}')
failed=$(cat "$work"/out/d-errors-* | wc -l)
echo
echo "classes: uripipe $classes, uniq $distinct; lines counted $counted + $failed dead letters = $((counted + failed)) of $lines"
