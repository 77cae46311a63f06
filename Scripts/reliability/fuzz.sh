#!/usr/bin/env bash
# Fuzzes one input surface with libFuzzer, under AddressSanitizer.
#
#   bash Scripts/reliability/fuzz.sh TARGET SECONDS [libFuzzer options...]
#
# TARGET: yaml (mapping files), json (payloads, as JSON and as JSON Lines) or filter (--where).
# The harness (Scripts/reliability/Fuzz/TARGET.swift) is compiled with the library's sources
# and Scripts/reliability/Fuzz/Support into one module (swiftc -sanitize=fuzzer,address -parse-as-library); the C++ simdjson facade
# is compiled by the toolchain's clang with the same sanitizers. The seed corpus comes from the
# test fixtures, the example mappings and payloads; the corpus grows in FUZZ_WORK (default
# .build/fuzz/TARGET) and is kept between runs. Findings (crash-*, leak-*, timeout-*, oom-*)
# land in FUZZ_WORK/artifacts; reproduce one with: FUZZ_WORK/fuzz-TARGET FILE.
# The last lines give the executions and the number of findings.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
target="${1:?usage: fuzz.sh yaml|json|filter SECONDS}"
seconds="${2:?usage: fuzz.sh yaml|json|filter SECONDS}"
shift 2
case "$target" in yaml|json|filter) ;; *) echo "error: unknown target '$target' (yaml, json or filter)" >&2; exit 2 ;; esac

bash Scripts/bootstrap.sh
work="${FUZZ_WORK:-$root/.build/fuzz/$target}"
mkdir -p "$work/corpus" "$work/seeds" "$work/artifacts" "$work/module"
toolchain="$(dirname "$(readlink -f "$(command -v swiftc)")")"
clangxx="$toolchain/clang++"
[ -x "$clangxx" ] || clangxx="$(command -v clang++)"

# The library in one module with the harness, so the harness reaches internal API.
binary="$work/fuzz-$target"
sources=( $(find Sources/JSONImport Scripts/reliability/Fuzz/Support -name '*.swift' | sort) "Scripts/reliability/Fuzz/$target.swift" )
newest="$(ls -t "${sources[@]}" Sources/CSimdJSON/CSimdJSON.cpp Sources/CSimdJSON/include/CSimdJSON.h "$0" | head -1)"
if [ ! -x "$binary" ] || [ "$newest" -nt "$binary" ]; then
  echo "building $binary..." >&2
  cat > "$work/module/module.modulemap" <<MAP
module CSimdJSON {
    header "$root/Sources/CSimdJSON/include/CSimdJSON.h"
    export *
}
MAP
  # The linker warns about every sanitizer helper it cannot export: kept in build.log.
  if ! { "$clangxx" -c -O1 -g -std=c++17 -fsanitize=fuzzer-no-link,address $(pkg-config --cflags simdjson) \
           -I Sources/CSimdJSON/include Sources/CSimdJSON/CSimdJSON.cpp -o "$work/CSimdJSON.o" &&
         swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 \
           -module-name JSONImport -package-name JSONImport \
           -I Sources/CYAML -I Sources/CSQLite -I "$work/module" \
           "${sources[@]}" "$work/CSimdJSON.o" -lyaml -lsqlite3 -lsimdjson -lstdc++ -o "$binary"; } > "$work/build.log" 2>&1
  then
    grep -v 'Cannot export local symbol' "$work/build.log" >&2
    echo "error: building the fuzz target failed (log: $work/build.log)" >&2
    exit 1
  fi
fi

# Seeds: every fixture of the kind the target reads.
hostile=Tests/EndToEndTests/Fixtures/Hostile
case "$target" in
  yaml)
    find Mappings Benchmarks Tests -name '*.yml' -o -name '*.yaml' | while read -r f; do cp "$f" "$work/seeds/$(echo "$f" | tr / _)"; done ;;
  json)
    find Examples Tests -name '*.json' -size -1M -not -name manifest.json -not -name expectations.json -o -name '*.jsonl' -size -1M |
      while read -r f; do cp "$f" "$work/seeds/$(echo "$f" | tr / _)"; done ;;
  filter)
    python3 - "$hostile/manifest.json" "$work/seeds" <<'PY'
import json, sys
for i, case in enumerate(json.load(open(sys.argv[1]))):
    args = case["args"]
    if "--where" in args and "{generated" not in args[args.index("--where") + 1]:
        open(f"{sys.argv[2]}/where-{i}", "w").write(args[args.index("--where") + 1])
for i, text in enumerate(["id = 1", "name LIKE 'a%' AND NOT (count > 2 OR flag = true)", "owner.login IN ('ana', 'bo')",
                          "when > '2024-01-01'", "tags IS NULL", "children.parent.name != 'x'", "price <= 9.99"]):
    open(f"{sys.argv[2]}/valid-{i}", "w").write(text)
PY
    ;;
esac

export FUZZ_MAPPINGS="$root/$hostile/Mappings/types.yml" FUZZ_SEED="$root/$hostile/seed.json"
# Leaks at exit come from the harness's process-wide mapper, not from an input.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
log="$work/last-run.log"
set +e
"$binary" "$work/corpus" "$work/seeds" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 "$@" 2>&1 | tee "$log" | grep -E '^#[0-9]+ +(INITED|DONE|pulse)|ERROR|SUMMARY|stat::' >&2
status=${PIPESTATUS[0]}
set -e
executions="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)"
findings="$(find "$work/artifacts" -type f | wc -l)"
echo "fuzz $target: $executions executions in ${seconds}s, $findings findings (corpus: $(ls "$work/corpus" | wc -l) inputs; artifacts in $work/artifacts)"
exit $status
