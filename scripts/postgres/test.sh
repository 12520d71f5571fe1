#!/usr/bin/env bash
# `npm run test:postgres`: a throwaway PostgreSQL cluster (cluster.sh), the suites that run on
# PostgreSQL against it (ENGRAM_TEST_DATABASE_URL), and the cluster stopped whatever happens.
# Arguments are bun test's (e.g. a single file); without any, tests/stores, tests/postgres and
# tests/api (the API suite and the several-processes tests, on a fresh PostgreSQL database per test
# server: tests/support/server.ts).
set -euo pipefail
cd "$(dirname "$0")/../.."

dir="$(mktemp -d /tmp/engram-postgres-test.XXXXXX)"
trap 'scripts/postgres/cluster.sh stop "$dir"' EXIT
url="$(scripts/postgres/cluster.sh start "$dir")"
echo "PostgreSQL test cluster: $url"

if [ "$#" -eq 0 ]; then
  set -- tests/stores tests/postgres tests/api
fi
ENGRAM_TEST_DATABASE_URL="$url" node_modules/.bin/bun test --timeout 20000 "$@"
