#!/usr/bin/env bash
# reliability.sh runs the uri command on hostile input shapes (issue 20,
# "Safe under attack"): for every shape it writes one input of SIZE_MB
# (default 10) as one line and, where short lines make sense, the same
# bytes as lines of about 100 bytes, and runs each relevant subcommand on
# it under /usr/bin/time and `timeout $LIMIT` (default 60 s). It prints
# one row per run: shape, layout (line or short), subcommand, seconds,
# maximum resident set in MB, resident set over input size, and exit
# status (TIMEOUT or a signal name is a defect; 0 and 1 are normal).
# "seconds" is wall-clock time, "CPU s" user + system time (what counts on
# a loaded machine; the command's garbage collector runs on a second
# core, so it can exceed the wall time). REPEAT=N keeps the run with the
# least CPU time of N.
#
#   scripts/reliability.sh                   # every shape at 10 MB
#   SIZE_MB=2.5 SHAPES='dotdot|pct' scripts/reliability.sh
#   CMDS='parse --repair' scripts/reliability.sh   # subcommands matching
#
# The bar: time linear in the input (compare a row at 2.5 and 10 MB) and
# at most ~10x the input in resident memory. Run it on an idle machine:
# the rows are wall-clock times.
set -eu # no pipefail: yes | head ends yes with SIGPIPE
cd "$(dirname "$0")/.."
size_mb=${SIZE_MB:-10}
size=$(awk "BEGIN{printf \"%d\", $size_mb * 1000000}")
limit=${LIMIT:-60}
repeat=${REPEAT:-1}
shapes_re=${SHAPES:-.}
cmds_re=${CMDS:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/uri" ./cmd/uri
uri=$tmp/uri

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

# The subcommands for inputs with one URI reference per line.
LINECMDS=(
	"parse"
	"parse --json"
	"check --warn"
	"normalize"
	"resolve --base http://a/b/c/d"
	"relativize --base http://a/b/"
	"get {host}{path}{query:a}"
	"edit --sort-query"
	"plan"
	"iri-to-uri"
	"uri-to-iri"
	"parse --repair --json"
	"normalize --whatwg"
	"extract"
)
URNCMDS=("urn parse" "urn show" "urn key --namespace-rules")
HTMLCMDS=("links --url http://a/" "base --url http://a/" "extract")

printf "%-22s %-6s %-30s %7s %7s %9s %7s %s\n" shape layout subcommand seconds "CPU s" "RSS MB" "RSS/in" exit

# run SHAPE LAYOUT FILE CMD: one row. Every subcommand reads the file on
# standard input (links and base take "-" implicitly).
run() {
	local shape=$1 layout=$2 f=$3 cmd=$4
	[[ $cmd =~ $cmds_re ]] || return 0
	local -a args
	read -r -a args <<<"$cmd"
	local st=0
	local s=- c=- k=0 r s1 u1 y1 k1
	for ((r = 0; r < repeat; r++)); do
		st=0
		/usr/bin/time -o "$tmp/time" -f "%e %U %S %M" timeout "$limit" "$uri" "${args[@]}" <"$f" >/dev/null 2>"$tmp/err" || st=$?
		read -r s1 u1 y1 k1 < <(grep -E '^[0-9.]+ [0-9.]+ [0-9.]+ [0-9]+$' "$tmp/time" | tail -1) || continue
		# the run with the least CPU time is the one least disturbed
		# by other processes
		if [ "$c" = - ] || awk "BEGIN{exit !($u1 + $y1 < $c)}"; then
			s=$s1 c=$(awk "BEGIN{printf \"%.2f\", $u1 + $y1}") k=$k1
		fi
	done
	local ex=$st
	if [ "$st" = 124 ]; then
		ex=TIMEOUT
	elif [ "$st" -gt 128 ]; then
		ex="SIG$(kill -l $((st - 128)))"
	elif [ "$st" -ge 2 ]; then
		ex="$st: $(head -c 60 "$tmp/err" | tr '\n' ' ')"
	fi
	local in
	in=$(stat -c%s "$f")
	printf "%-22s %-6s %-30s %7s %7s %9.1f %7.1f %s\n" "$shape" "$layout" "$cmd" "$s" "$c" \
		"$(awk "BEGIN{print $k/1024}")" "$(awk "BEGIN{print $k*1024/$in}")" "$ex"
}

# uris SHAPE PREFIX UNIT [SUFFIX] [short]: a shape of URI references.
uris() {
	local shape=$1 p=$2 u=$3 s=${4:-} also=${5:-}
	[[ $shape =~ $shapes_re ]] || return 0
	line "$tmp/in" "$p" "$u" "$s"
	for c in "${LINECMDS[@]}"; do run "$shape" line "$tmp/in" "$c"; done
	if [ "$also" = short ]; then
		short "$tmp/in" "$p" "$u" "$s"
		for c in "${LINECMDS[@]}"; do run "$shape" short "$tmp/in" "$c"; done
	fi
}

# urns SHAPE UNIT: URNs of the example namespace with that NSS.
urns() {
	local shape=$1 u=$2
	[[ $shape =~ $shapes_re ]] || return 0
	line "$tmp/in" urn:example: "$u"
	for c in "${URNCMDS[@]}" parse check normalize "parse --repair --json" uri-to-iri; do run "$shape" line "$tmp/in" "$c"; done
	short "$tmp/in" urn:example: "$u"
	for c in "${URNCMDS[@]}"; do run "$shape" short "$tmp/in" "$c"; done
}

# html SHAPE FILE-WRITER...: an HTML document.
html() {
	local shape=$1
	shift
	[[ $shape =~ $shapes_re ]] || return 0
	"$@" >"$tmp/in"
	for c in "${HTMLCMDS[@]}"; do run "$shape" html "$tmp/in" "$c"; done
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

# NUL bytes: one line of NULs, URIs separated by NULs for extract -z,
# and NULs inside a URI.
if [[ NUL =~ $shapes_re ]]; then
	head -c "$size" /dev/zero >"$tmp/in"
	for c in "${LINECMDS[@]}" "extract -z"; do run NUL line "$tmp/in" "$c"; done
	short "$tmp/nul" 'http://a/' 'b' ''
	tr '\n' '\0' <"$tmp/nul" >"$tmp/in"
	run 'NUL-separated URIs' records "$tmp/in" "extract -z"
	{ printf 'http://a/'; head -c "$size" /dev/zero; echo; } >"$tmp/in"
	for c in "${LINECMDS[@]}"; do run 'http://a/+NULs' line "$tmp/in" "$c"; done
fi

urns 'urn mixed script' 'aéЖ中α1-'
urns 'urn mixed script %XX' 'a%C3%A9%D0%96%E4%B8%AD%CE%B11-'
urns 'urn %%%%' '%'
urns 'urn %41' '%41'
urns 'urn ???' '?+='

html 'one 10 MB href' sh -c "printf '<html><body><a href=\"http://a/'; yes b | head -n $size | tr -d '\n'; printf '\">x</a>\n'"
html 'href needing repair' sh -c "printf '<html><body><a href=\"http://a/'; yes 'b c' | head -n $((size / 3)) | tr -d '\n'; printf '\">x</a>\n'"
html '1M links, no base' sh -c "yes '<a href=/x>y</a>' | head -n $((size / 17))"
html 'nested tags' sh -c "yes '<div>' | head -n $((size / 5)) | tr -d '\n'"
html '<<<<' sh -c "yes '<' | head -n $size | tr -d '\n'"
html 'base href 10 MB' sh -c "printf '<html><head><base href=\"http://a/'; yes b | head -n $size | tr -d '\n'; printf '\"></head><a href=x>y</a>\n'"
