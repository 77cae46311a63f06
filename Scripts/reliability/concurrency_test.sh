#!/usr/bin/env bash
# Installs what is missing (Python included), then runs concurrency_test.py with the given arguments.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash Scripts/bootstrap.sh
exec python3 Scripts/reliability/concurrency_test.py "$@"
