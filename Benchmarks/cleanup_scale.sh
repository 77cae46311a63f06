#!/usr/bin/env bash
# Times the clean-up pass on a store of ROWS rows (default 1,000,000) of which ORPHANS
# (default 100,000) hang from no root. Builds the benchmark in release mode first.
#
#   bash Benchmarks/cleanup_scale.sh [ROWS] [ORPHANS] [STORE]
#
# STORE is a SQLite file, or a PostgreSQL store ('postgres://…?schema=NAME', a schema that does
# not exist yet; filled with psql and left in place).
#
# SCRATCH overrides the build directory (swift build --scratch-path).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=(--scratch-path "${SCRATCH:-.build}")
swift build -c release --product cleanup-scale "${scratch[@]}" >&2
"$(swift build -c release --show-bin-path "${scratch[@]}")/cleanup-scale" "$@"
