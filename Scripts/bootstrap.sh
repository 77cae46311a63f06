#!/usr/bin/env bash
# Installs the system libraries JSONImport builds against, and the PostgreSQL server its tests
# start (Scripts/postgres.sh), when any is missing.
set -euo pipefail
packages=(libyaml-dev libsqlite3-dev libsimdjson-dev libpq-dev pkg-config sqlite3 python3 postgresql)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null; then
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    echo "Installing: ${missing[*]}" >&2
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >&2
  else
    echo "error: missing packages ${missing[*]} and no apt-get; install libyaml, sqlite3, simdjson and libpq, and PostgreSQL for the tests (brew install libyaml sqlite simdjson libpq pkg-config postgresql)" >&2
    exit 1
  fi
fi
