#!/usr/bin/env bash
# bench-cli-vs.sh is the uri command's regression guard (issue 32): it
# builds the command of two commits, runs both on the same input in
# interleaved rounds and prints, per subcommand, how much CPU time (user +
# sys of the command) the old build takes over the new one: the median of
# the per-round ratios, with the smallest and the largest. A ratio above
# 1.00x means NEW is faster; below, it regressed.
#
#   scripts/bench-cli-vs.sh OLD [NEW]        # NEW defaults to HEAD
#   ROUNDS=9 SIZE_MB=100 INPUT=urls.txt scripts/bench-cli-vs.sh 8e4b553
#
# Each commit is checked out with `git worktree add --detach` into a
# temporary directory and built there, so the working tree's uncommitted
# changes are not measured (commit them, or give their commit as NEW).
# The input is INPUT (any file of URLs, one per line) repeated to SIZE_MB
# megabytes (default 100); without INPUT, kasztp.txt of the shared corpora
# ($URIKIT_SHARED, default ../shared). Within a round each subcommand runs
# once per build, the builds in alternating order from round to round, so
# that the machine's load falls on both. CPU time, not wall time: on a
# shared machine the wall clock counts the waits for a core.
#
# Before the rounds each build runs each subcommand once untimed; the
# "output" column says whether both wrote the same bytes ("same") or not,
# with the sizes (a changed output can explain a changed time). A timed
# run that exits with a status other than 0 or 1 (1: some input was not
# a URI) stops the script.
set -euo pipefail
cd "$(dirname "$0")/.."

old=${1:?usage: scripts/bench-cli-vs.sh OLD [NEW]}
new=${2:-HEAD}
rounds=${ROUNDS:-7}
size=${SIZE_MB:-100}
if [ -n "${INPUT:-}" ]; then
	src=$INPUT
else
	src=${URIKIT_SHARED:-../shared}/corpora/urls/kasztp.txt
fi
[ -f "$src" ] || { echo "bench-cli-vs: $src not found (set INPUT or URIKIT_SHARED)" >&2; exit 2; }
[ -s "$src" ] || { echo "bench-cli-vs: $src is empty" >&2; exit 2; }

tmp=$(mktemp -d)
cleanup() {
	for d in "$tmp"/src-*; do
		[ -d "$d" ] && git worktree remove --force "$d" >/dev/null 2>&1 || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

# build NAME REV: the uri command of REV as $tmp/NAME.
build() {
	local name=$1 rev=$2
	git worktree add --detach "$tmp/src-$name" "$rev" >/dev/null 2>&1 ||
		{ echo "bench-cli-vs: cannot check out $rev" >&2; exit 2; }
	(cd "$tmp/src-$name" && go build -o "$tmp/$name" ./cmd/uri)
}
old_id=$(git rev-parse --short "$old^{commit}")
new_id=$(git rev-parse --short "$new^{commit}")
build old "$old"
build new "$new"

f=$tmp/input.txt
while [ "$(stat -c%s "$f" 2>/dev/null || echo 0)" -lt $((size * 1000000)) ]; do cat "$src" >>"$f"; done
bytes=$(stat -c%s "$f")

# The subcommands, one per line: a name, a tab, the arguments.
jobs=$(printf '%s\t%s\n' \
	"check" "check" \
	"parse --json" "parse --json" \
	"normalize" "normalize" \
	"edit --trim 'query=utm_*'" "edit --trim query=utm_*" \
	"get '{host}'" "get {host}" \
	"resolve" "resolve --base https://www.example.com/docs/guide/page.html?lang=en" \
	"extract" "extract")

# cpu BIN ARGS...: runs BIN on the input and prints its user + sys
# seconds (getrusage of the subshell's children, to the microsecond).
cpu() {
	(
		rc=0
		"$@" <"$f" >/dev/null 2>&1 || rc=$?
		[ $rc -le 1 ] || { echo "bench-cli-vs: $* exited $rc" >&2; exit 3; }
		times >"$tmp/rusage" # in this shell: a pipe would run it in another
		awk 'NR == 2 {
			split($1, u, /[ms]/); split($2, s, /[ms]/)
			printf "%.6f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$tmp/rusage"
	)
}

# One untimed run of each build: same output or not.
declare -A same
while IFS=$'\t' read -r name args; do
	read -ra a <<<"$args"
	for b in old new; do
		"$tmp/$b" "${a[@]}" <"$f" 2>/dev/null | tee >(wc -c >"$tmp/size-$b") | md5sum >"$tmp/sum-$b" || true
	done
	if cmp -s "$tmp/sum-old" "$tmp/sum-new"; then
		same[$name]=same
	else
		same[$name]="differs: $(awk '{print $1}' "$tmp/size-old") → $(awk '{print $1}' "$tmp/size-new") bytes"
	fi
done <<<"$jobs"

: >"$tmp/times"
for r in $(seq "$rounds"); do
	order="old new"
	[ $((r % 2)) -eq 0 ] && order="new old"
	while IFS=$'\t' read -r name args; do
		read -ra a <<<"$args"
		for b in $order; do
			t=$(cpu "$tmp/$b" "${a[@]}") # set -e: a crash stops here
			printf '%s\t%s\t%s\t%s\n' "$r" "$name" "$b" "$t" >>"$tmp/times"
		done
	done <<<"$jobs"
	echo "round $r of $rounds done" >&2
done

echo "input: $src repeated to $((bytes / 1000000)) MB ($(wc -l <"$f") lines); $rounds rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| subcommand | $old_id CPU s | $new_id CPU s | $new_id MB per CPU s | $old_id ÷ $new_id (median, min-max of rounds) | output |"
echo "|---|---:|---:|---:|---:|---|"
while IFS=$'\t' read -r name _; do
	awk -F'\t' -v name="$name" -v bytes="$bytes" -v same="${same[$name]}" '
		function median(list,   a, n, i, j, t) {
			n = split(list, a, " ")
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		$2 == name { t[$1, $3] = $4; rs[$1] = 1 }
		$2 == name && $3 == "old" { olds = olds " " $4 }
		$2 == name && $3 == "new" { news = news " " $4 }
		END {
			lo = ""; hi = ""
			for (r in rs) if (t[r, "new"] > 0) {
				q = t[r, "old"] / t[r, "new"]; ratios = ratios " " q
				if (lo == "" || q < lo) lo = q
				if (hi == "" || q > hi) hi = q
			}
			mn = median(news)
			printf "| `%s` | %.3f | %.3f | %.0f | **%.2fx** (%.2f-%.2f) | %s |\n", name, median(olds), mn, bytes / 1e6 / (mn > 0 ? mn : 1e-6), median(ratios), lo, hi, same
		}' "$tmp/times"
done <<<"$jobs"
