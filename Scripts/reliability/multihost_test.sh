#!/usr/bin/env bash
# Installs what is missing, then runs multihost_test.py (as root: it makes network namespaces).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash Scripts/bootstrap.sh
exec python3 Scripts/reliability/multihost_test.py "$@"
