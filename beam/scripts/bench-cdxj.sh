#!/usr/bin/env bash
# bench-cdxj.sh: "uripipe cdxj" against webrecorder's cdxj-indexer
# (Python, on warcio) on the same synthetic crawl (scripts/warcgen), in
# the same run, rounds interleaved (issue 28). Each is timed in CPU
# seconds (user + sys, children included) with its wall time; the
# figure compared is records per CPU second, the median of the rounds.
# Both index with POST bodies folded (uripipe's default, cdxj-indexer
# -p) and sorted (cdxj-indexer -s); one more round each without (-p off).
# It then checks that the two indexes are the same lines, but for the
# digests that cdxj-indexer -p writes as that of an empty payload (a
# bug of cdxj-indexer: with -p it reads the payload before it digests
# it; the default mode digests it right, and is the reference there).
#
# cdxj-indexer runs from checkouts of its repository and warcio's,
# internetarchive/surt's and defnull/multipart's (the tool "fetch" puts
# them under /work/.mirror; or set MIRROR), with stubs for the imports
# the indexing does not call (tldextract; pyamf, for Flash AMF bodies,
# which the crawl has none of). Without python3 or the checkouts, the
# comparison is skipped and uripipe alone is timed.
#
# Usage: beam/scripts/bench-cdxj.sh [SIZE [ROUNDS]]   (default 100M 3)
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-100M}
rounds=${2:-3}
mirror=${MIRROR:-/work/.mirror}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/uripipe" ./cmd/uripipe
go run ./scripts/warcgen -size "$size" -seed 1 -o "$work/crawl.warc.gz"
bytes=$(stat -c %s "$work/crawl.warc.gz")

# The Python side, from the checkouts.
py=""
if command -v python3 > /dev/null; then
  py=ok
  mkdir -p "$work/py/stubs/pyamf/flex"
  for r in webrecorder+cdxj-indexer webrecorder+warcio internetarchive+surt defnull+multipart; do
    if [ ! -d "$mirror/$r/repo" ]; then
      echo "bench-cdxj: no checkout $mirror/$r: cdxj-indexer not compared" >&2
      py=""
      break
    fi
    mkdir -p "$work/py/$r"
    git -C "$mirror/$r/repo" archive HEAD | tar x -C "$work/py/$r"
    echo "$r $(git -C "$mirror/$r/repo" rev-parse --short=12 HEAD)" >> "$work/py/commits"
  done
  printf 'def extract(*a, **k): raise NotImplementedError\n' > "$work/py/stubs/tldextract.py"
  printf '' > "$work/py/stubs/pyamf/__init__.py"
  printf '' > "$work/py/stubs/pyamf/flex/__init__.py"
  printf 'class Envelope: pass\nclass Request: pass\ndef decode(*a, **k): raise ValueError("no pyamf")\n' > "$work/py/stubs/pyamf/remoting.py"
  printf 'class RemotingMessage: pass\n' > "$work/py/stubs/pyamf/flex/messaging.py"
fi
export PYTHONPATH="$work/py/stubs:$work/py/webrecorder+warcio:$work/py/webrecorder+cdxj-indexer:$work/py/internetarchive+surt:$work/py/defnull+multipart"

# measure runs a command and prints its wall and CPU seconds.
measure() {
  /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" > /dev/null 2> "$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
  awk '{printf "%.2f %.2f %.0f\n", $1, $2 + $3, $4 / 1024}' "$work/time"
}

records=""
echo "input: $bytes bytes, crawl.warc.gz (scripts/warcgen -seed 1); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
[ -n "$py" ] && echo "cdxj-indexer and its dependencies: $(tr '\n' ' ' < "$work/py/commits")($(python3 --version))"
echo
echo "| round | indexer | wall s | CPU s | peak MB | records / CPU s |"
echo "|---|---|---:|---:|---:|---:|"
row() { # round name "wall cpu mb"
  local wall cpu mb
  read -r wall cpu mb <<< "$3"
  printf '| %s | %s | %.1f | %.1f | %d | %.0f |\n' "$1" "$2" "$wall" "$cpu" "$mb" "$(echo "$records / $cpu" | bc -l)"
  printf '%s\t%s\n' "$2" "$cpu" >> "$work/cpu"
}
for r in $(seq "$rounds"); do
  rm -rf "$work/out"
  t=$(measure "$work/uripipe" cdxj --input "$work/crawl.warc.gz" --output "$work/out/c")
  records=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['in'])" "$work/out/c-counts.json" 2>/dev/null ||
    grep -o '"in": [0-9]*' "$work/out/c-counts.json" | grep -o '[0-9]*')
  row "$r" "uripipe cdxj" "$t"
  if [ -n "$py" ]; then
    row "$r" "cdxj-indexer -s -p" "$(measure python3 -m cdxj_indexer.main -s -p "$work/crawl.warc.gz" -o "$work/py-p.cdxj")"
  fi
done
rm -rf "$work/outn"
row "+" "uripipe cdxj --post-append=false" "$(measure "$work/uripipe" cdxj --post-append=false --input "$work/crawl.warc.gz" --output "$work/outn/c")"
if [ -n "$py" ]; then
  row "+" "cdxj-indexer -s" "$(measure python3 -m cdxj_indexer.main -s "$work/crawl.warc.gz" -o "$work/py.cdxj")"
fi
echo
echo "records: $records ($(grep -o '"out": [0-9]*' "$work/out/c-counts.json") indexed)"
cut -f1 "$work/cpu" | sort -u | while IFS= read -r name; do
  med=$(awk -F'\t' -v n="$name" '$1 == n {print $2}' "$work/cpu" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "median CPU s, $name: $med"
done
[ -z "$py" ] && exit 0

# The same index: uripipe's shards against cdxj-indexer's output.
python3 - "$work/py-p.cdxj" "$work/py.cdxj" "$work/out/c-00000-of-00001" "$work/outn/c-00000-of-00001" <<'EOF'
import json, sys
EMPTY = "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"
def load(p):
    return [l for l in open(p, encoding="utf-8")]
pyp, pyn, gop, gon = (load(p) for p in sys.argv[1:5])
print("without -p: cdxj-indexer -s and uripipe --post-append=false write the same lines:", pyn == gon, len(pyn), "lines")
digest = {}
for l in pyn:
    d = json.loads(l.split(" ", 2)[2])
    digest[(d["filename"], d["offset"])] = d.get("digest")
fixed, out = 0, []
for l in pyp:
    d = json.loads(l.split(" ", 2)[2])
    right = digest.get((d["filename"], d["offset"]))
    if d.get("digest") == EMPTY and right != EMPTY:
        l = l.replace(EMPTY, right)
        fixed += 1
    out.append(l)
out.sort(key=lambda s: s.encode())
print("with -p: the same lines:", out == gop, len(gop), "lines, of which", fixed, "digests that cdxj-indexer -p gives as the empty payload's")
EOF
