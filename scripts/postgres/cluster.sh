#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and CI (never for data anyone keeps).
#
#   scripts/postgres/cluster.sh start [DIR]   initdb into DIR (default: $ENGRAM_PG_DIR or
#                                             /tmp/engram-postgres), start it on a free loopback
#                                             port, print its URL and write it to DIR/url
#   scripts/postgres/cluster.sh stop [DIR]    stop it and remove DIR (nothing to do if it is gone)
#   scripts/postgres/cluster.sh url [DIR]     print the URL of the running cluster
#
# Needs Debian's postgresql (15 or newer: apt-get install -y postgresql) and Node (for a free
# port). PostgreSQL refuses to run as root: as root the cluster runs as the `postgres` user
# (runuser, no sudo needed); as any other user it runs as that user, who then owns DIR.
# Loopback connections are trusted (no password), except the role `engram_password_check`,
# which has a password (`right-password`) so that tests can see a wrong one refused.
set -euo pipefail

command="${1:-}"
dir="${2:-${ENGRAM_PG_DIR:-/tmp/engram-postgres}}"

bin=""
for candidate in /usr/lib/postgresql/*/bin; do
  [ -x "$candidate/pg_ctl" ] && bin="$candidate"
done
if [ -z "$bin" ] && command -v pg_ctl >/dev/null; then bin="$(dirname "$(command -v pg_ctl)")"; fi

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

running() {
  [ -f "$dir/data/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1
}

case "$command" in
  start)
    if [ -z "$bin" ]; then
      echo "PostgreSQL is not installed: apt-get install -y postgresql" >&2
      exit 1
    fi
    if running && [ -f "$dir/url" ]; then
      cat "$dir/url"
      exit 0
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    chmod 700 "$dir"
    port="$(node -e 'const s = require("node:net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    # The password-checked role first: pg_hba.conf takes the first line that matches.
    as_owner sh -c "printf '%s\n' 'host all engram_password_check 127.0.0.1/32 scram-sha-256' \
      'host all all 127.0.0.1/32 trust' 'local all all trust' > '$dir/data/pg_hba.conf'"
    # Durability is not wanted of a throwaway cluster: fsync off makes every test faster.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -q -v ON_ERROR_STOP=1 \
      -c "CREATE ROLE engram_password_check LOGIN PASSWORD 'right-password'" >/dev/null
    url="postgres://postgres@127.0.0.1:$port/postgres"
    as_owner sh -c "echo '$url' > '$dir/url'"
    echo "$url"
    ;;
  stop)
    if running; then as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null; fi
    rm -rf "$dir"
    ;;
  url)
    cat "$dir/url"
    ;;
  *)
    echo "Usage: $0 start|stop|url [DIR]" >&2
    exit 2
    ;;
esac
