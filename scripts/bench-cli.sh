#!/usr/bin/env bash
# bench-cli.sh measures the uri command on a 100 MB file of real URLs
# (kasztp.txt from ../shared/corpora repeated), side by side with cat
# (the floor: reading and writing the bytes) and, when it is found,
# curl's trurl doing the same job. Each figure is the best of $ROUNDS
# runs, in MB/s of input; memory is the peak resident set.
#
#   scripts/bench-cli.sh                # uri and cat
#   TRURL=/path/to/trurl scripts/bench-cli.sh
#
# trurl is built from source (github.com/curl/trurl, `make`, with
# libcurl4-openssl-dev installed); it is not needed.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${URIKIT_SHARED:-../shared}
src=$shared/corpora/urls/kasztp.txt
[ -f "$src" ] || { echo "bench-cli: $src not found (set URIKIT_SHARED)" >&2; exit 1; }
rounds=${ROUNDS:-3}
size=${SIZE_MB:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/uri" ./cmd/uri
f=$tmp/urls.txt
while [ "$(stat -c%s "$f" 2>/dev/null || echo 0)" -lt $((size * 1000000)) ]; do cat "$src" >>"$f"; done
bytes=$(stat -c%s "$f")
trurl=${TRURL:-$(command -v trurl || true)}

# best CMD...: prints "seconds maxrss_kb" of the fastest of $rounds runs.
best() {
	local b="" m=0
	for _ in $(seq "$rounds"); do
		/usr/bin/time -o "$tmp/time" -f "%e %M" "$@" <"$f" >/dev/null 2>/dev/null || true
		if grep -q "terminated by signal" "$tmp/time"; then
			echo "crash 0"
			return
		fi
		read -r s k < <(tail -1 "$tmp/time")
		if [ -z "$b" ] || awk "BEGIN{exit !($s < $b)}"; then b=$s; m=$k; fi
	done
	echo "$b $m"
}

read -r cat_s _ < <(best cat)
printf "%-34s %9s %8s %9s %10s %10s\n" job "uri MB/s" "x cat" "RSS MB" "trurl MB/s" "uri/trurl"
row() { # row NAME "uri args" "trurl args"
	local name=$1 uargs=$2 targs=$3
	read -r us um < <(eval best "$tmp/uri" "$uargs")
	local umbs=$(awk "BEGIN{printf \"%.0f\", $bytes/1e6/($us>0?$us:0.001)}")
	local ratio=$(awk "BEGIN{printf \"%.2f\", ($cat_s>0?$cat_s:0.001)/($us>0?$us:0.001)}")
	local tm="-" tr="-"
	if [ -n "$trurl" ] && [ -n "$targs" ]; then
		read -r ts _ < <(eval best "$trurl" "$targs")
		if [ "$ts" = crash ]; then
			printf "%-34s %9s %8s %9.1f %10s %10s\n" "$name" "$umbs" "$ratio" "$(awk "BEGIN{print $um/1024}")" "crashed" "-"
			return
		fi
		tm=$(awk "BEGIN{printf \"%.0f\", $bytes/1e6/($ts>0?$ts:0.001)}")
		tr=$(awk "BEGIN{printf \"%.1fx\", $ts/($us>0?$us:0.001)}")
	fi
	printf "%-34s %9s %8s %9.1f %10s %10s\n" "$name" "$umbs" "$ratio" "$(awk "BEGIN{print $um/1024}")" "$tm" "$tr"
}
echo "input: $((bytes / 1000000)) MB, $(wc -l <"$f") lines; cat: $(awk "BEGIN{printf \"%.0f\", $bytes/1e6/($cat_s>0?$cat_s:0.001)}") MB/s; best of $rounds"
# trurl has no check-only mode (--verify stops at the first bad URL):
# its row for check is parsing and printing every URL.
row "check"                       "check"                        "--url-file -"
row "parse"                       "parse"                        "--url-file -"
row "parse --json"                "parse --json"                 "--url-file - --json"
row "get '{host}'"                "get '{host}'"                 "--url-file - -g '{host}'"
row "edit --trim 'query=utm_*'"   "edit --trim 'query=utm_*'"    "--url-file - --qtrim 'utm_*'"
row "edit --set port=8080"        "edit --set port=8080"         "--url-file - --set port=8080"
row "normalize"                   "normalize"                    ""
