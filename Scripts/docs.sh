#!/usr/bin/env bash
# Builds the DocC reference of the JSONImport library into .build/docs (open
# .build/docs/index.html through a web server, or `docc preview` the catalog).
#
#   bash Scripts/docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift package dump-symbol-graph --minimum-access-level public >/dev/null
graphs=.build/symbol-graphs
rm -rf "$graphs" .build/docs
mkdir -p "$graphs"
cp .build/*/symbolgraph/JSONImport.symbols.json .build/*/symbolgraph/JSONImport@*.symbols.json "$graphs/" 2>/dev/null \
    || cp .build/*/symbolgraph/JSONImport.symbols.json "$graphs/"
docc convert Sources/JSONImport/JSONImport.docc \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name JSONImport --fallback-bundle-identifier org.jsonimport.JSONImport \
    --output-path .build/docs "$@"
echo "documentation written to .build/docs"
