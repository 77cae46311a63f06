#!/usr/bin/env bash
# Installs what is missing, then runs the whole test suite: the package's tests, then an app
# package that depends on the library as any package does (Examples/App), which must build
# without a single warning and pass its own checks.
#
# The suite runs against SQLite, then again against PostgreSQL (JSONIMPORT_TEST_STORE: every
# test's store is a fresh schema of the server): both test targets, the library's and the
# end-to-end one, are semantic tests of the store, and the tests of the SQLite file itself skip
# themselves there. The server is the one in JSONIMPORT_TEST_POSTGRES when it is set
# (postgres://…); otherwise a throwaway cluster (Scripts/postgres.sh) started for this run and
# removed when it ends, whether the tests pass or not. The PostgreSQL connection tests run in
# both passes.
#
# As root it then runs Scripts/reliability/multihost_test.py with the debug build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/bootstrap.sh
swift build --build-tests

log=$(mktemp)
cluster=""
known=""
# The schemas of the second pass (every test's store is a fresh schema, t_… or e_…) on a server
# of the user's own: those that were not there before the run are dropped as it ends.
store_schemas() {
    psql "${JSONIMPORT_TEST_POSTGRES%%\?schema=*}" -XAtq -c "SELECT nspname FROM pg_namespace WHERE nspname ~ '^[te]_[0-9a-z]+$' ORDER BY 1"
}
drop_new_schemas() {
    [ -n "$known" ] || return 0
    { echo "SET client_min_messages = warning;"; store_schemas | grep -vxF -f "$known" | sed 's/.*/DROP SCHEMA IF EXISTS "&" CASCADE;/'; } \
        | psql "${JSONIMPORT_TEST_POSTGRES%%\?schema=*}" -Xq -v ON_ERROR_STOP=0 >/dev/null || true
    rm -f "$known"
}
cleanup() {
    rm -f "$log"
    drop_new_schemas
    [ -z "$cluster" ] || bash Scripts/postgres.sh stop "$cluster"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if [ -z "${JSONIMPORT_TEST_POSTGRES:-}" ]; then
    cluster=$(bash Scripts/postgres.sh start)
    export JSONIMPORT_TEST_POSTGRES=$cluster
else
    known=$(mktemp)
    store_schemas > "$known"
fi
swift test "$@"
JSONIMPORT_TEST_STORE=$JSONIMPORT_TEST_POSTGRES swift test --skip-build "$@"

# Importers and a reader on several hosts (network namespaces) sharing one PostgreSQL store,
# with an importer killed, a link cut and the server stopped: needs root.
if [ "$(id -u)" -eq 0 ]; then
    python3 Scripts/reliability/multihost_test.py --binary .build/debug/jsonimport --rounds 4 --users 3000
else
    echo "multihost_test.py not run: it needs root (network namespaces)" >&2
fi

swift build --package-path Examples/App 2>&1 | tee "$log"
if grep -q "warning:" "$log"; then
    echo "Examples/App: the build printed warnings" >&2
    exit 1
fi
swift run --package-path Examples/App --skip-build catalogue
