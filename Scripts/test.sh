#!/usr/bin/env bash
# Installs what is missing, then runs the whole test suite: the package's tests, then an app
# package that depends on the library as any package does (Examples/App), which must build
# without a single warning and pass its own checks.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/bootstrap.sh
swift build --build-tests
swift test "$@"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build --package-path Examples/App 2>&1 | tee "$log"
if grep -q "warning:" "$log"; then
    echo "Examples/App: the build printed warnings" >&2
    exit 1
fi
swift run --package-path Examples/App --skip-build catalogue
