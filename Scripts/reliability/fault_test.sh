#!/usr/bin/env bash
# Installs what is missing (Python included), then runs fault_test.py (as root) with the given arguments.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash Scripts/bootstrap.sh
exec python3 Scripts/reliability/fault_test.py "$@"
