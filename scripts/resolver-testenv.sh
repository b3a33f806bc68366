#!/usr/bin/env bash
# Test environment of the URN resolver (the resolver module: resolver/, resolver/cmd/urnresolver):
# a throwaway PostgreSQL on 127.0.0.1, Chromium for the lookup-page test, and
# HTTP::OAI and xmllint for the OAI-PMH tests.
#
#   eval "$(scripts/resolver-testenv.sh start)"   # prints export lines
#   scripts/resolver-testenv.sh stop              # stops the PostgreSQL it started
#
# "start" prints shell assignments on stdout (URNRESOLVER_TEST_POSTGRES, the
# DSN the tests read, and URNRESOLVER_PGDATA, the cluster to stop) and its
# progress on stderr. Without an initdb, or when the cluster does not start,
# it prints nothing to eval and the PostgreSQL tests skip with a message.
# Nothing here needs the network except installing Chromium, HTTP::OAI and
# xmllint when they are absent.
set -uo pipefail

log() { echo "resolver-testenv: $*" >&2; }

start_chromium() {
  for c in chromium chromium-browser google-chrome headless-shell; do
    command -v "$c" >/dev/null 2>&1 && return 0
  done
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing chromium (apt-get install -y chromium)"
    if DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null 2>&1 &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1; }; then
      return 0
    fi
  fi
  log "no Chromium and none installable: the lookup-page browser test will skip"
}

# HTTP::OAI (a real OAI-PMH harvester) and xmllint (the OAI-PMH schema
# check) for the OAI-PMH tests, from Debian's packages.
start_oai_tools() {
  perl -MHTTP::OAI -e 1 >/dev/null 2>&1 && command -v xmllint >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing libhttp-oai-perl and libxml2-utils (apt-get install -y)"
    if DEBIAN_FRONTEND=noninteractive apt-get install -y -q libhttp-oai-perl libxml2-utils >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null 2>&1 &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q libhttp-oai-perl libxml2-utils >/dev/null 2>&1; }; then
      return 0
    fi
  fi
  log "no HTTP::OAI or xmllint and none installable: the OAI-PMH harvest and schema checks will skip"
}

start_postgres() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    if command -v initdb >/dev/null 2>&1; then
      bin=$(dirname "$(command -v initdb)")
    else
      log "no PostgreSQL installed: the PostgreSQL tests will skip"
      return 0
    fi
  fi
  local dir run=()
  dir=$(mktemp -d /tmp/urnresolver-pg.XXXXXX)
  # initdb refuses to run as root: run the cluster as an unprivileged user.
  if [ "$(id -u)" = 0 ]; then
    local user=postgres
    id "$user" >/dev/null 2>&1 || user=nobody
    chown "$user" "$dir"
    run=(runuser -u "$user" --)
  fi
  if ! "${run[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 \
    --no-sync >"$dir/initdb.log" 2>&1; then
    log "initdb failed (see $dir/initdb.log): the PostgreSQL tests will skip"
    return 0
  fi
  local port try
  for try in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 40000))
    if "${run[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200" \
      start >/dev/null 2>&1; then
      log "PostgreSQL on 127.0.0.1:$port ($dir)"
      echo "export URNRESOLVER_PGDATA='$dir'"
      echo "export URNRESOLVER_PGBIN='$bin'"
      echo "export URNRESOLVER_TEST_POSTGRES='postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable'"
      return 0
    fi
  done
  log "pg_ctl start failed (see $dir/server.log): the PostgreSQL tests will skip"
}

stop_postgres() {
  local dir=${URNRESOLVER_PGDATA:-} bin=${URNRESOLVER_PGBIN:-}
  [ -n "$dir" ] && [ -d "$dir/data" ] || return 0
  local run=()
  [ "$(id -u)" = 0 ] && run=(runuser -u "$(stat -c %U "$dir")" --)
  "${run[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

case "${1:-}" in
start)
  start_chromium
  start_oai_tools
  start_postgres
  ;;
stop) stop_postgres ;;
*)
  echo "usage: $0 start|stop" >&2
  exit 2
  ;;
esac
