#!/usr/bin/env bash
# reliability.sh runs every form of the uri command (each subcommand with
# its main flags, plain and --json) on hostile input shapes (issues 20
# and 26, "Safe under attack"): for every shape it writes one input of
# SIZE_MB (default 8) as one line and, where short lines make sense, the
# same bytes as lines of about 100 bytes (SHORT=0 leaves these out). It
# runs each form under /usr/bin/time and `timeout $LIMIT` (default 60 s)
# on the input and, to compare the time, on the same shape at a quarter
# of the size (short lines only at the size: their cost per line is
# constant), and prints one row per form and input:
#
#   CPU/4, CPU   user + system seconds at a quarter of the size and at
#                the size (CPU time is what counts on a loaded machine;
#                the command's garbage collector runs on a second core,
#                so it can exceed the wall time)
#   ratio        CPU over CPU/4: about 4 when linear, 16 when quadratic
#                (not measured when CPU is under 0.3 s: it cannot fail)
#   RSS MB       the peak resident set at the size
#   RSS/in       that over the input's size
#   exit         0 and 1 are normal; TIMEOUT, a signal or 2 (usage,
#                reading, writing) is a defect
#   verdict      ok, or what failed: "rss" (RSS over 10x the input),
#                "time" (CPU over 8 times CPU/4 plus 0.3 s: more than
#                linear), "exit"
#
# Then a summary: one row per form with its worst RSS/in and ratio over
# all shapes, and a last line that counts the forms and rows that pass.
# The script exits 1 when any row fails. REPEAT=N keeps the run with the
# least CPU time of N; URI=path runs that binary instead of building
# ./cmd/uri (to compare two versions).
#
#   scripts/reliability.sh                   # every shape at 8 MB
#   SIZE_MB=2.5 SHAPES='dotdot|pct' scripts/reliability.sh
#   CMDS='parse --repair' scripts/reliability.sh   # forms matching
#
# equal and urn equal take their two inputs as arguments only, which the
# kernel caps at 128 KiB each: their linear-time tests are Go tests.
set -eu # no pipefail: yes | head ends yes with SIGPIPE
cd "$(dirname "$0")/.."
size_mb=${SIZE_MB:-8}
big=$(awk "BEGIN{printf \"%d\", $size_mb * 1000000}")
limit=${LIMIT:-60}
repeat=${REPEAT:-1}
shapes_re=${SHAPES:-.}
with_short=${SHORT:-1}
cmds_re=${CMDS:-.}
max_rss=10     # RSS over input
max_ratio=8    # CPU at the size over CPU at a quarter of it
time_slack=0.3 # seconds of CPU a run may take beyond max_ratio
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${URI:-}" ]; then
	uri=$URI
else
	go build -o "$tmp/uri" ./cmd/uri
	uri=$tmp/uri
fi
size=$big

# rep UNIT N: UNIT written N times (UNIT holds no newline).
rep() { yes -- "$1" | head -n "$2" | tr -d '\n'; }

# line FILE PREFIX UNIT [SUFFIX]: one line of about $size bytes.
line() {
	local f=$1 p=$2 u=$3 s=${4:-}
	local n=$(((size - ${#p} - ${#s}) / $(printf %s "$u" | wc -c)))
	{ printf %s "$p"; rep "$u" "$n"; printf '%s\n' "$s"; } >"$f"
}

# short FILE PREFIX UNIT [SUFFIX]: the same bytes as lines of ~100 bytes.
short() {
	local f=$1 p=$2 u=$3 s=${4:-}
	local k=$((100 / $(printf %s "$u" | wc -c) + 1))
	local l
	l="$p$(rep "$u" "$k")$s"
	yes -- "$l" | head -n $((size / (${#l} + 1))) >"$f"
}

# The forms for inputs with one URI reference per line.
LINECMDS=(
	"parse" "parse --json" "parse --rfc 2396 --json"
	"parse --repair" "parse --repair --json"
	"parse --whatwg" "parse --whatwg --json"
	"check" "check --json" "check --warn" "check --warn --json" "check --repair"
	"resolve --base http://a/b/c/d" "resolve --json --base http://a/b/c/d"
	"resolve --rfc 2396 --dots keep --base http://a/b/c/d"
	"relativize --base http://a/b/" "relativize --json --base http://a/b/"
	"normalize" "normalize --json" "normalize --repair"
	"normalize --whatwg" "normalize --whatwg --json"
	"get {host}{path}{query:a}" "get --json {url}{fragment}{query-all:a}"
	"edit --sort-query" "edit --json --sort-query"
	"edit --set fragment=x --append path=y" "edit --redirect ../g" "edit --trim query=a*"
	"plan" "plan --json" "plan --proxy"
	"iri-to-uri" "iri-to-uri --json" "uri-to-iri" "uri-to-iri --json"
	"encode --component path" "encode --json --component query"
	"decode" "decode --json"
	"extract" "extract --json" "extract --abbrev"
	"surt" "surt --json" "surt --with-scheme --profile google" "surt --ssurt --json --profile aggressive"
	"canon --profile whatwg" "canon --json --profile semantic-precise"
	"get {site}{suffix}" "get --json {site:icann}{suffix:icann}"
)
URNCMDS=(
	"urn parse" "urn parse --json" "urn check --warn" "urn check --namespace-rules --json"
	"urn normalize" "urn normalize --json" "urn key --namespace-rules" "urn key --json"
	"urn show" "urn show --json" "urn encode --nid example" "urn encode --json --nid example"
)
HTMLCMDS=(
	"links --url http://a/" "links --json --url http://a/" "links --browser --url http://a/"
	"links --no-active --json --url http://a/"
	"base --url http://a/" "base --json --url http://a/" "base --browser --url http://a/"
	"extract" "extract --json" "extract --abbrev"
)

results=$tmp/results # form TAB shape/layout TAB RSS/in TAB ratio TAB verdict
: >"$results"
printf "%-22s %-7s %-45s %6s %6s %5s %7s %6s %-5s %s\n" shape layout form "CPU/4" CPU ratio "RSS MB" RSS/in exit verdict

# measure CMD FILE: runs the form on FILE, REPEAT times, and sets cpu
# (the least CPU seconds), kb (that run's peak RSS) and st (its status).
measure() {
	local -a args
	read -r -a args <<<"$1"
	local r s1 u1 y1 k1 c1 st1
	cpu=- kb=0 st=0
	for ((r = 0; r < repeat; r++)); do
		st1=0
		/usr/bin/time -o "$tmp/time" -f "%e %U %S %M" timeout "$limit" "$uri" "${args[@]}" <"$2" >/dev/null 2>"$tmp/err" || st1=$?
		read -r s1 u1 y1 k1 < <(grep -E '^[0-9.]+ [0-9.]+ [0-9.]+ [0-9]+$' "$tmp/time" | tail -1) || {
			st=$st1
			continue
		}
		c1=$(awk "BEGIN{printf \"%.2f\", $u1 + $y1}")
		# the run with the least CPU time is the one least disturbed
		# by other processes
		if [ "$cpu" = - ] || awk "BEGIN{exit !($c1 < $cpu)}"; then
			cpu=$c1 kb=$k1 st=$st1
		fi
	done
}

# run SHAPE LAYOUT CMD: one row, for the inputs $tmp/small and $tmp/big.
# Every form reads its input on standard input (links and base take "-"
# implicitly).
run() {
	local shape=$1 layout=$2 cmd=$3
	[[ $cmd =~ $cmds_re ]] || return 0
	local cpu kb st cs=- st_small=0
	measure "$cmd" "$tmp/big"
	if [ -s "$tmp/small" ] && [ "$cpu" != - ] && awk "BEGIN{exit !($cpu > $time_slack)}"; then
		local big_cpu=$cpu big_kb=$kb big_st=$st
		measure "$cmd" "$tmp/small"
		cs=$cpu st_small=$st
		cpu=$big_cpu kb=$big_kb st=$big_st
	fi
	[ "$st" = 0 ] && st=$st_small
	local ex=$st verdict=""
	if [ "$st" = 124 ]; then
		ex=TIMEOUT
	elif [ "$st" -gt 128 ]; then
		ex="SIG$(kill -l $((st - 128)))"
	elif [ "$st" -ge 2 ]; then
		ex="$st: $(head -c 60 "$tmp/err" | tr '\n' ' ')"
	fi
	[ "$st" -ge 2 ] && verdict+=" exit"
	local in rss ratio
	in=$(stat -c%s "$tmp/big")
	rss=$(awk "BEGIN{printf \"%.1f\", $kb*1024/$in}")
	ratio=-
	if [ "$cs" != - ] && [ "$cpu" != - ]; then
		ratio=$(awk "BEGIN{printf \"%.1f\", $cpu/($cs > 0 ? $cs : 0.01)}")
		awk "BEGIN{exit !($cpu > $max_ratio * $cs + $time_slack)}" && verdict+=" time"
	fi
	# memory is judged at the size only: at a quarter of it, the
	# runtime's own few MB weigh too much
	awk "BEGIN{exit !($rss > $max_rss)}" && verdict+=" rss"
	verdict=${verdict# }
	printf "%-22s %-7s %-45s %6s %6s %5s %7.1f %6s %-5s %s\n" "$shape" "$layout" "$cmd" "$cs" "$cpu" "$ratio" \
		"$(awk "BEGIN{print $kb/1024}")" "$rss" "$ex" "${verdict:-ok}"
	printf '%s\t%s\t%s\t%s\t%s\n' "$cmd" "$shape ($layout)" "$rss" "$ratio" "${verdict:-ok}" >>"$results"
}

# one WRITER ARGS...: writes $tmp/big with WRITER FILE ARGS... at the
# size, and no $tmp/small.
one() {
	size=$big
	"$1" "$tmp/big" "${@:2}"
	: >"$tmp/small"
}

# both WRITER ARGS...: writes $tmp/big and $tmp/small with WRITER FILE
# ARGS... at the size and at a quarter of it.
both() {
	local w=$1
	shift
	size=$big
	"$w" "$tmp/big" "$@"
	size=$((big / 4))
	"$w" "$tmp/small" "$@"
	size=$big
}

# uris SHAPE PREFIX UNIT [SUFFIX] [short]: a shape of URI references.
uris() {
	local shape=$1 p=$2 u=$3 s=${4:-} also=${5:-}
	[[ $shape =~ $shapes_re ]] || return 0
	both line "$p" "$u" "$s"
	for c in "${LINECMDS[@]}"; do run "$shape" line "$c"; done
	if [ "$also" = short ] && [ "$with_short" = 1 ]; then
		one short "$p" "$u" "$s"
		for c in "${LINECMDS[@]}"; do run "$shape" short "$c"; done
	fi
}

# urns SHAPE UNIT: URNs of the example namespace with that NSS.
urns() {
	local shape=$1 u=$2
	[[ $shape =~ $shapes_re ]] || return 0
	both line urn:example: "$u"
	for c in "${URNCMDS[@]}" "${LINECMDS[@]}"; do run "$shape" line "$c"; done
	[ "$with_short" = 1 ] || return 0
	one short urn:example: "$u"
	for c in "${URNCMDS[@]}"; do run "$shape" short "$c"; done
}

# html SHAPE WRITER: an HTML document; WRITER FILE writes it at $size.
html() {
	local shape=$1 w=$2
	[[ $shape =~ $shapes_re ]] || return 0
	both "$w"
	for c in "${HTMLCMDS[@]}"; do run "$shape" html "$c"; done
}

uris '../' '' '../' '' short
uris 'http://a/../' 'http://a/' '../' '' short
uris './' 'http://a/' './' '' short
uris 'a/../' 'http://a/' 'a/../' '' short
uris '%%%%' 'http://a/' '%' '' short
uris '%41' 'http://a/' '%41' '' short
uris ')))' 'http://a/' ')' '' short
uris ']]]' 'http://a/' ']' '' short
uris '(((' 'http://a/' '(' '' short
uris '[[[' 'http://a/' '[' '' short
uris '[]' 'http://' '[]' '/' short
uris 'CR no LF' 'http://a/' $'a\r' '' short
uris 'spaces' 'http://a/' ' ' '' short
uris 'tabs' 'http://a/' $'\t' '' short
uris 'é' 'http://a/' 'é' '' short
uris 'CJK' 'http://a/' '中文' '' short
uris '@@@ authority' 'http://' '@' '/' short
uris ':::' 'http://' ':' '/' short
uris '@: authority' 'http://' 'a@:' '/' short
uris 'host' 'http://' 'a' '/' short
uris 'host labels' 'http://' 'a.' '/' short
uris 'port' 'http://a:' '1' '/' short
uris 'scheme' '' 'a' '://h/p' short
uris 'userinfo' 'http://' 'u' '@h/p' short
uris 'query a=b&' 'http://a/?' 'a=b&' '' short
uris '&&&&' 'http://a/?' '&' '' short
uris 'fragment' 'http://a/#' 'a%20' '' short
uris 'http:/http:/' '' 'http:/' '' short
uris '<<<<' '' '<' ''
# Shapes the classic schemes' views split (found by this script).
uris 'search +' 'http://a/?' '+' '' short
uris 'ftp a/' 'ftp://h/' 'a/' 'f' short
uris 'gopher %09' 'gopher://h/1' 'a%09' '' short
uris 'mailto a@b,' 'mailto:' 'a@b,' 'x@y' short
uris 'mailto ?to=a@b,' 'mailto:?to=' 'a@b,' 'x@y'
uris 'mailto x=1&' 'mailto:a@b?' 'x=1&' 'y=2'
uris 'prospero ;a=b' 'prospero://h/a' ';a=b' ''
uris 'nntp group' 'nntp://h/' 'a.' 'b/1'
# Shapes the archives' canonicalizers rewrite (package surt's TestLinear).
uris '%2525' 'http://a/%' '25' '' short
uris 'www. labels' 'http://' 'www.' 'a.b/' short
uris 'session ids' 'http://a/?' 'sid=0123456789abcdef0123456789abcdef&' '' short

# NUL bytes: one line of NULs, URIs separated by NULs for extract -z,
# and NULs inside a URI.
nuls() { head -c "$size" /dev/zero >"$1"; }
nulrecords() {
	short "$1.lines" 'http://a/' 'b' ''
	tr '\n' '\0' <"$1.lines" >"$1"
}
httpnuls() { { printf 'http://a/'; head -c "$size" /dev/zero; echo; } >"$1"; }
if [[ NUL =~ $shapes_re ]]; then
	both nuls
	for c in "${LINECMDS[@]}" "extract -z" "extract -z --json"; do run NUL line "$c"; done
	both nulrecords
	run 'NUL-separated URIs' records "extract -z"
	run 'NUL-separated URIs' records "extract -z --json"
	both httpnuls
	for c in "${LINECMDS[@]}"; do run 'http://a/+NULs' line "$c"; done
fi

urns 'urn mixed script' 'aéЖ中α1-'
urns 'urn mixed script %XX' 'a%C3%A9%D0%96%E4%B8%AD%CE%B11-'
urns 'urn %%%%' '%'
urns 'urn %41' '%41'
urns 'urn ???' '?+='

# The HTML documents, each written by a function of the file name.
onehref() { { printf '<html><body><a href="http://a/'; rep b "$size"; printf '">x</a>\n'; } >"$1"; }
repairhref() { { printf '<html><body><a href="http://a/'; rep 'b c' $((size / 3)); printf '">x</a>\n'; } >"$1"; }
nulhref() { { printf '<a href="'; head -c "$size" /dev/zero; printf '">x</a>\n'; } >"$1"; }
manylinks() { yes '<a href=/x>y</a>' | head -n $((size / 17)) >"$1"; }
nested() { rep '<div>' $((size / 5)) >"$1"; }
lts() { rep '<' "$size" >"$1"; }
basehref() { { printf '<html><head><base href="http://a/'; rep b "$size"; printf '"></head><a href=x>y</a>\n'; } >"$1"; }
html 'one long href' onehref
html 'href needing repair' repairhref
html 'href of NULs' nulhref
html 'many links, no base' manylinks
html 'nested tags' nested
html '<<<<' lts
html 'long base href' basehref

# The summary: every form's worst row for memory and for time.
echo
printf "%-45s %5s %6s %-32s %6s %-32s %s\n" form rows RSS/in "(shape)" ratio "(shape)" verdict
awk -F'\t' -v max_rss="$max_rss" '
	!($1 in rows) { order[++n] = $1 }
	{
		rows[$1]++
		if (!($1 in rss) || $3 + 0 > rss[$1]) { rss[$1] = $3 + 0; rs[$1] = $2 }
		if ($4 != "-" && (!($1 in ratio) || $4 + 0 > ratio[$1])) { ratio[$1] = $4 + 0; rt[$1] = $2 }
		if ($5 != "ok") { bad[$1]++; badrows++ }
		total++
	}
	END {
		for (i = 1; i <= n; i++) {
			f = order[i]
			v = (f in bad) ? sprintf("FAIL (%d rows)", bad[f]) : "ok"
			if (v != "ok") badforms++
			r = (f in ratio) ? sprintf("%.1f", ratio[f]) : "-"
			printf "%-45s %5d %6.1f %-32s %6s %-32s %s\n", f, rows[f], rss[f], "(" rs[f] ")", r, (f in ratio) ? "(" rt[f] ")" : "", v
		}
		printf "\n%d of %d forms pass, %d of %d rows (RSS at most %dx the input, CPU linear, no crash)\n", n - badforms, n, total - badrows, total, max_rss
		exit badforms > 0
	}' "$results"
