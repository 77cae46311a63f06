#!/usr/bin/env bash
# Installs what is missing, builds jsonimport, and imports the example payloads into
# ./jsonimport.sqlite with the example mappings in ./Mappings.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/bootstrap.sh
swift build -c release --product jsonimport
jsonimport=".build/release/jsonimport"
set -x
"$jsonimport" validate
"$jsonimport" import User Examples/github/users.json
"$jsonimport" import User Examples/github/users-update.json --explain
"$jsonimport" import Author Examples/blog/authors.json
"$jsonimport" import Article Examples/blog/articles.json
"$jsonimport" query User --fields id,login,name,address,repos,followers --format table
"$jsonimport" stats
