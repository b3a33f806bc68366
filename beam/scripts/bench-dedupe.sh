#!/usr/bin/env bash
# bench-dedupe.sh: uripipe dedupe on Prism, in process, with GOMAXPROCS
# 1 and 2, against "uri normalize | sort -u" and "uri normalize | sort
# | uniq -c", on the same SIZE_MB of URL lines in four files, in
# interleaved rounds (issues 19 and 27): each round runs every command
# once, the table gives the medians, with the CPU time (user + sys, the
# children's included) next to the wall-clock time and the peak memory
# (the largest resident set of the process or of any of its children,
# as /usr/bin/time -v reports it). On a shared machine the CPU seconds
# are the work done; the wall-clock seconds also count the waits for a
# core.
#
# Usage: beam/scripts/bench-dedupe.sh [SIZE_MB [MODE [ROUNDS]]]
#   SIZE_MB  default 100
#   MODE     repeat (default): kasztp.txt repeated, few classes;
#            distinct: each copy's hosts renamed (http://r7.example.com/),
#            nearly every line a class of its own;
#            90: as distinct, and every ninth line of each copy twice,
#            the lines shuffled (a fixed seed): about 90% of the lines
#            are distinct classes, their duplicates anywhere in the input
#   ROUNDS   default 3
# With URIPIPE_OLD=path, that uripipe binary runs too (after the others
# in each round) and its shards must hold the same lines as the new one's.
# Needs URIKIT_SHARED (or ../shared) for corpora/urls/kasztp.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-100}
mode=${2:-repeat}
rounds=${3:-3}
case $mode in repeat | distinct | 90) ;; *) echo "bench-dedupe: MODE is repeat, distinct or 90" >&2; exit 2 ;; esac
shared=${URIKIT_SHARED:-$(cd ../.. && pwd)/shared}
corpus=$shared/corpora/urls/kasztp.txt
[ -f "$corpus" ] || { echo "bench-dedupe: no $corpus (set URIKIT_SHARED)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The repository's own go.work when it has one, never one above it.
gowork=off; [ -f ../go.work ] && gowork=$(cd .. && pwd)/go.work
(cd .. && GOWORK=$gowork go build -o "$work/uri" ./cmd/uri)
go build -o "$work/uripipe" ./cmd/uripipe

# SIZE_MB of lines: copies of the corpus, cut at a line, in four files.
mkdir -p "$work/in"
target=$((size_mb * 1000 * 1000))
copy=0
: > "$work/all.txt"
while [ "$(stat -c %s "$work/all.txt")" -lt "$target" ]; do
  copy=$((copy + 1))
  case $mode in
  repeat) cat "$corpus" ;;
  distinct) sed "s|://|://r$copy.|" "$corpus" ;;
  90) awk -v c="$copy" '{ sub("://", "://r" c "."); print; if (NR % 9 == 0) print }' "$corpus" ;;
  esac >> "$work/all.txt"
done
if [ "$mode" = 90 ]; then
  shuf --random-source=<(yes) "$work/all.txt" > "$work/shuffled.txt"
  mv "$work/shuffled.txt" "$work/all.txt"
fi
head -c "$target" "$work/all.txt" | sed '$d' > "$work/corpus.txt"
rm "$work/all.txt"
split -n l/4 -d --additional-suffix=.txt "$work/corpus.txt" "$work/in/part-"
bytes=$(stat -c %s "$work/corpus.txt")
lines=$(wc -l < "$work/corpus.txt")
echo "input: $bytes bytes, $lines lines ($(basename "$corpus"), mode $mode), 4 files; $(nproc) cores; $rounds rounds"

# measure runs the command and appends "NAME wall cpu peakMB" to the
# results.
measure() {
  local name=$1
  shift
  /usr/bin/time -v -o "$work/time" "$@" > /dev/null 2> "$work/stderr" || { cat "$work/stderr" "$work/time" >&2; exit 1; }
  awk -v name="$name" -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, t, ":"); wall = (n == 3) ? t[1] * 3600 + t[2] * 60 + t[3] : t[1] * 60 + t[2] }
    /User time/ { cpu += $2 } /System time/ { cpu += $2 }
    /Maximum resident set size/ { mb = $2 / 1024 }
    END { printf "%s\t%.2f\t%.2f\t%.0f\n", name, wall, cpu, mb }' "$work/time" >> "$work/results"
}

names=("uri normalize | sort -u" "uri normalize | sort | uniq -c" "uripipe dedupe, GOMAXPROCS=1" "uripipe dedupe, GOMAXPROCS=2")
run() {
  case $1 in
  0) LC_ALL=C measure "$1" sh -c "'$work/uri' normalize -f '$work/corpus.txt' | sort -u > '$work/sorted.txt'" ;;
  1) LC_ALL=C measure "$1" sh -c "'$work/uri' normalize -f '$work/corpus.txt' | sort | uniq -c > '$work/uniq.txt'" ;;
  2 | 3)
    rm -rf "$work/out"
    GOMAXPROCS=$(($1 - 1)) measure "$1" "$work/uripipe" dedupe --input "$work/in/*.txt" --output "$work/out/d" --shards 4
    ;;
  4)
    rm -rf "$work/old"
    measure "$1" "$URIPIPE_OLD" dedupe --input "$work/in/*.txt" --output "$work/old/d" --shards 4
    ;;
  esac
}
jobs=(0 1 2 3)
if [ -n "${URIPIPE_OLD:-}" ]; then
  jobs+=(4)
  names+=("uripipe dedupe before (URIPIPE_OLD), GOMAXPROCS=2")
fi

: > "$work/results"
echo
for r in $(seq "$rounds"); do
  load_before=$(cut -d' ' -f1 /proc/loadavg)
  # Rotate the order, so that no command always runs first.
  n=${#jobs[@]}
  for k in $(seq 0 $((n - 1))); do
    run "${jobs[$(((k + r) % n))]}"
  done
  echo "round $r: load average $load_before before, $(cut -d' ' -f1 /proc/loadavg) after"
done

echo
echo "| job | wall s | CPU s | CPU/wall | MB per CPU-s | peak MB | CPU vs sort -u |"
echo "|---|---:|---:|---:|---:|---:|---:|"
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
base=$(awk -F'\t' '$1 == 0 {print $3}' "$work/results" | median)
for j in "${jobs[@]}"; do
  wall=$(awk -F'\t' -v j="$j" '$1 == j {print $2}' "$work/results" | median)
  cpu=$(awk -F'\t' -v j="$j" '$1 == j {print $3}' "$work/results" | median)
  mb=$(awk -F'\t' -v j="$j" '$1 == j {print $4}' "$work/results" | median)
  awk -v n="${names[$j]}" -v w="$wall" -v c="$cpu" -v m="$mb" -v b="$bytes" -v base="$base" 'BEGIN {
    gsub(/\|/, "\\|", n)
    printf "| %s | %.1f | %.1f | %.2f | %.1f | %.0f | %.2f |\n", n, w, c, c / w, b / c / 1e6, m, c / base }'
done
echo
echo "every run (job, wall s, CPU s, peak MB):"
awk -F'\t' -v OFS='\t' 'BEGIN {split("sort-u uniq-c uripipe-1 uripipe-2 old-2", n, " ")} {print n[$1 + 1], $2, $3, $4}' "$work/results"

# The answers agree: the classes of uripipe (KEY, COUNT) are the normal
# forms that "uniq -c" counts (no URN in this corpus, so the key is the
# normal form), and every line is counted or a dead letter.
cat "$work"/out/d-0*-of-* | awk -F'\t' '{print $1 "\t" $2}' | LC_ALL=C sort > "$work/classes.txt"
grep -v '^ *[0-9]* error: ' "$work/uniq.txt" | awk '{n = $1; sub(/^ *[0-9]+ /, ""); print $0 "\t" n}' | LC_ALL=C sort > "$work/want.txt"
classes=$(wc -l < "$work/classes.txt")
counted=$(awk -F'\t' '{n += $2} END {print n + 0}' "$work/classes.txt")
failed=$(cat "$work"/out/d-errors-* | wc -l)
echo
echo "classes: uripipe $classes, sort -u $(grep -vc '^error: ' "$work/sorted.txt" || true) ($(awk -v c="$classes" -v l="$lines" 'BEGIN {printf "%.1f", 100 * c / l}')% of the lines); lines counted $counted + $failed dead letters = $((counted + failed)) of $lines"
if cmp -s "$work/classes.txt" "$work/want.txt"; then
  echo "uripipe's classes and counts are those of uri normalize | sort | uniq -c"
else
  echo "bench-dedupe: uripipe's classes differ from uniq -c's" >&2
  exit 1
fi
if [ -n "${URIPIPE_OLD:-}" ]; then
  for f in "$work"/out/d-*-of-*; do
    cmp -s <(LC_ALL=C sort "$f") <(LC_ALL=C sort "$work/old/${f##*/}") || { echo "bench-dedupe: ${f##*/} differs from URIPIPE_OLD's" >&2; exit 1; }
  done
  echo "every shard and errors shard holds the same lines as URIPIPE_OLD's"
fi
