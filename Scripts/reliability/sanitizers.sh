#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer and ThreadSanitizer.
#
#   bash Scripts/reliability/sanitizers.sh [address|thread]...     (default: both)
#
# Each sanitizer builds into its own scratch directory, ${SCRATCH:-.build}/sanitize-NAME, so
# the normal build is left alone; the end-to-end tests then run the instrumented jsonimport too.
# Extra arguments for `swift test` can be given in SWIFT_TEST_ARGS (e.g. "--filter Hostile").
# The last line says which sanitizers passed.
set -uo pipefail
cd "$(dirname "$0")/../.."
bash Scripts/bootstrap.sh || exit 1
sanitizers=("$@")
[ ${#sanitizers[@]} -gt 0 ] || sanitizers=(address thread)
# Leak reports at exit come from process-wide caches of the Swift runtime and Foundation;
# asan.supp names the one report that comes from the toolchain's Foundation, not from us.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:suppressions=$PWD/Scripts/reliability/asan.supp}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1}"
# Instrumented code runs several times slower: the hostile input cases get more time.
export HOSTILE_TIME_LIMIT="${HOSTILE_TIME_LIMIT:-120}"
summary=()
status=0
for sanitizer in "${sanitizers[@]}"; do
  case "$sanitizer" in address|thread) ;; *) echo "error: unknown sanitizer '$sanitizer' (address or thread)" >&2; exit 2 ;; esac
  scratch="${SCRATCH:-.build}/sanitize-$sanitizer"
  log="$scratch.log"
  mkdir -p "$(dirname "$log")"
  echo "swift test --sanitize=$sanitizer (log: $log)..." >&2
  # shellcheck disable=SC2086
  swift test --sanitize="$sanitizer" --scratch-path "$scratch" ${SWIFT_TEST_ARGS:-} > "$log" 2>&1
  code=$?
  tests="$(grep -Eo 'Test run with [0-9]+ tests?' "$log" | tail -1 | grep -Eo '[0-9]+' || echo '?')"
  reports="$(grep -c -E 'ERROR: (AddressSanitizer|ThreadSanitizer)|WARNING: ThreadSanitizer' "$log")"
  if [ $code -eq 0 ] && [ "$reports" -eq 0 ]; then
    summary+=("$sanitizer: passed ($tests tests)")
  else
    summary+=("$sanitizer: FAILED (exit $code, $reports sanitizer reports; see $log)")
    grep -E -A12 'ERROR: (AddressSanitizer|ThreadSanitizer)|WARNING: ThreadSanitizer' "$log" | head -60 >&2
    status=1
  fi
done
echo "sanitizers: $(IFS=';'; echo "${summary[*]}" | sed 's/;/; /g')"
exit $status
