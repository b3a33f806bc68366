#!/usr/bin/env bash
# bench-surt.sh measures the keys of issue 28 as a user runs them: "uri
# surt" (and its forms, "uri canon", "uri get '{site}'") against "uri
# normalize" on the same input, the goal being a key within 2x the time
# of a normalization (28.5). It builds ./cmd/uri, repeats INPUT (default
# kasztp.txt of $URIKIT_SHARED, default ../shared) to SIZE_MB megabytes
# (default 50), and runs every form once per round for ROUNDS rounds
# (default 7), normalize first in odd rounds and last in even ones, so
# that the machine's load falls on all. It prints, per form, the median
# CPU seconds (user + sys), the median of the per-round ratios to
# normalize of the same round, and their smallest and largest.
#
#   URIKIT_SHARED=/work/shared scripts/bench-surt.sh
#   ROUNDS=9 SIZE_MB=100 INPUT=urls.txt scripts/bench-surt.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-7}
size=${SIZE_MB:-50}
src=${INPUT:-${URIKIT_SHARED:-../shared}/corpora/urls/kasztp.txt}
[ -s "$src" ] || { echo "bench-surt: $src not found or empty (set INPUT or URIKIT_SHARED)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/uri" ./cmd/uri
f=$tmp/input.txt
while [ "$(stat -c%s "$f" 2>/dev/null || echo 0)" -lt $((size * 1000000)) ]; do cat "$src" >>"$f"; done

forms=("normalize" "surt" "surt --with-scheme" "surt --ssurt --profile aggressive"
	"canon --profile google" "canon --profile whatwg" "get {site}")

# cpu ARGS...: the user + sys seconds of uri ARGS on the input.
cpu() {
	(
		rc=0
		"$tmp/uri" "$@" <"$f" >/dev/null 2>&1 || rc=$?
		[ $rc -le 1 ] || { echo "bench-surt: uri $* exited $rc" >&2; exit 3; }
		times >"$tmp/rusage"
		awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
			printf "%.6f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$tmp/rusage"
	)
}

: >"$tmp/times"
for r in $(seq "$rounds"); do
	order=("${forms[@]}")
	if [ $((r % 2)) -eq 0 ]; then # normalize last
		order=("${forms[@]:1}" "${forms[0]}")
	fi
	for form in "${order[@]}"; do
		read -ra a <<<"$form"
		printf '%s\t%s\t%s\n' "$r" "$form" "$(cpu "${a[@]}")" >>"$tmp/times"
	done
	echo "round $r of $rounds done" >&2
done

echo "input: $src repeated to $(($(stat -c%s "$f") / 1000000)) MB ($(wc -l <"$f") lines); $rounds rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| form | CPU s (median) | ÷ normalize (median of rounds) | min-max |"
echo "|---|---:|---:|---:|"
for form in "${forms[@]}"; do
	awk -F'\t' -v form="$form" '
		function median(list,   a, n, i, j, t) {
			n = split(list, a, " ")
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		$2 == "normalize" { base[$1] = $3 }
		$2 == form { t[$1] = $3; all = all " " $3 }
		END {
			lo = ""; hi = ""
			for (r in t) { q = t[r] / base[r]; qs = qs " " q
				if (lo == "" || q < lo) lo = q; if (hi == "" || q > hi) hi = q }
			printf "| `uri %s` | %.3f | **%.2fx** | %.2f-%.2f |\n", form, median(all), median(qs), lo, hi
		}' "$tmp/times"
done
