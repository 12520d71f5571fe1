#!/usr/bin/env bash
# `npm run test:postgres`: a throwaway PostgreSQL cluster (cluster.sh), the suites that run on
# PostgreSQL against it (ENGRAM_TEST_DATABASE_URL), and the cluster stopped whatever happens.
# Arguments are bun test's (e.g. a single file); without any, tests/stores and tests/postgres, and
# with ENGRAM_TEST_POSTGRES_API=1 also tests/api (the API suite and the several-processes tests, on
# a fresh PostgreSQL database per test file: tests/support/server.ts). The API suite is opt-in
# until every service has left SQLite's synchronous bridge (docs/architecture.md, "PostgreSQL").
set -euo pipefail
cd "$(dirname "$0")/../.."

dir="$(mktemp -d /tmp/engram-postgres-test.XXXXXX)"
trap 'scripts/postgres/cluster.sh stop "$dir"' EXIT
url="$(scripts/postgres/cluster.sh start "$dir")"
echo "PostgreSQL test cluster: $url"

if [ "$#" -eq 0 ]; then
  set -- tests/stores tests/postgres
  if [ "${ENGRAM_TEST_POSTGRES_API:-}" = "1" ]; then set -- "$@" tests/api; fi
fi
ENGRAM_TEST_DATABASE_URL="$url" node_modules/.bin/bun test --timeout 20000 "$@"
