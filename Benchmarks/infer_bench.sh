#!/usr/bin/env bash
# Times `jsonimport infer` on the benchmark kit's payload (../shared/bench/gen.py), as JSON and
# as JSON Lines, RUNS times each (default 5), then imports the payload with the draft to check
# that it takes every record. Builds the release CLI first.
#
#   bash Benchmarks/infer_bench.sh [USERS] [RUNS]      # USERS default 50000 (55 MB)
#
# SCRATCH overrides the build directory (swift build --scratch-path); BENCH the kit's folder.
set -euo pipefail
cd "$(dirname "$0")/.."
users=${1:-50000}
runs=${2:-5}
kit=${BENCH:-../shared/bench}
scratch=(--scratch-path "${SCRATCH:-.build}")
swift build -c release --product jsonimport "${scratch[@]}" >&2
tool="$(swift build -c release --show-bin-path "${scratch[@]}")/jsonimport"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$kit/gen.py" --users "$users" --out "$work/M.json"
python3 "$kit/gen.py" --users "$users" --jsonl --out "$work/M.jsonl"
for payload in M.json M.jsonl; do
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "infer $payload: %e s, %M KB resident" "$tool" --quiet infer User "$work/$payload" --out "$work/draft.yml"
    done
done
/usr/bin/time -f "import with the draft: %e s" "$tool" --mappings "$work/draft.yml" --store "$work/draft.sqlite" \
    import User "$work/M.json" --report json | python3 -c 'import json, sys; r = json.load(sys.stdin); print("records", r["records"], "errors", len(r["errors"]))'
