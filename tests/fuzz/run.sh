#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/fuzz/run.sh — run the libFuzzer harnesses for a bounded time each.
#
# Usage: tests/fuzz/run.sh [SECONDS] [HARNESS...]
#   SECONDS   per harness (default 30); HARNESS e.g. ibnd routing diff
#             (default: all of tests/fuzz/fuzz_*.c).
# Environment:
#   FABRICLINT_FUZZ_BUILD  build folder (default: <repo>/build-fuzz), made
#                          with CC=clang -DFABRICLINT_FUZZ=ON when absent and
#                          rebuilt incrementally otherwise
#   FABRICLINT_FUZZ_BUILD_TYPE  CMake build type of a new build folder
#                          (default RelWithDebInfo: the most executions a
#                          second; .ci/run's 5-second smoke runs use Debug,
#                          -O0 with assertions: 57 s to build against 82 s,
#                          about 3/4 of the executions)
#   FABRICLINT_FUZZ_WORK   work folder (default: ${TMPDIR:-/tmp}/fabriclint-fuzz):
#                          corpus/<h>/ (kept between runs, so long campaigns
#                          accumulate), seeds/, logs/<h>.log,
#                          artifacts/<h>/ (reproducers)
#   FABRICLINT_FUZZ_JOBS   harnesses run at once (default 2: one per core)
# Each harness runs with -timeout=10 (a hang is a finding),
# -rss_limit_mb=2048, AddressSanitizer (leaks included) and UBSan. The
# seeds are rebuilt by seeds.sh each run (plus ../shared/external when it
# exists). Prints one line per harness: seconds, executions, corpus size,
# findings; exits 1 when any harness found a crash, leak, timeout or OOM
# (the reproducer is kept under artifacts/; see docs/testing.md "Fuzzing"
# for turning it into a regression input), 2 on a usage or build error.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
secs=${1:-30}
[ $# -gt 0 ] && shift
case $secs in '' | *[!0-9]*) echo "run.sh: SECONDS must be a number" >&2; exit 2 ;; esac
build=${FABRICLINT_FUZZ_BUILD:-$src/build-fuzz}
work=${FABRICLINT_FUZZ_WORK:-${TMPDIR:-/tmp}/fabriclint-fuzz}
jobs=${FABRICLINT_FUZZ_JOBS:-2}

harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
  for f in "$here"/fuzz_*.c; do
    h=$(basename "$f" .c)
    h=${h#fuzz_}
    [ "$h" = common ] && continue
    harnesses+=("$h")
  done
fi
for h in "${harnesses[@]}"; do
  [ -f "$here/fuzz_$h.c" ] || { echo "run.sh: no harness '$h' (tests/fuzz/fuzz_$h.c)" >&2; exit 2; }
done

# clang and libFuzzer (Debian 12 packages), installed when missing
missing=""
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep "ok installed" >/dev/null || missing="$missing $p"
done
if [ -n "$missing" ] && command -v apt-get >/dev/null; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "run.sh: installing:$missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang cmake -S "$src" -B "$build" -DFABRICLINT_FUZZ=ON \
    -DCMAKE_BUILD_TYPE="${FABRICLINT_FUZZ_BUILD_TYPE:-RelWithDebInfo}" >/dev/null || exit 2
fi
targets=()
for h in "${harnesses[@]}"; do targets+=("fuzz_$h"); done
cmake --build "$build" -j"$jobs" --target "${targets[@]}" >/dev/null || exit 2

mkdir -p "$work"/{corpus,logs,artifacts}
# a reproducer an earlier run left in the work folder (kept for replay) is
# not a finding of this run: only files newer than this stamp count
stamp=$work/run.stamp
: >"$stamp"
ext=$src/../shared/external
if [ -d "$ext" ]; then
  bash "$here/seeds.sh" "$work/seeds" --external "$ext" >/dev/null
else
  bash "$here/seeds.sh" "$work/seeds" >/dev/null
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

run_one() {
  local h=$1
  mkdir -p "$work/corpus/$h" "$work/artifacts/$h" "$work/seeds/$h"
  "$build/tests/fuzz/fuzz_$h" -max_total_time="$secs" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/$h/" \
    "$work/corpus/$h" "$work/seeds/$h" >"$work/logs/$h.log" 2>&1
}

echo "run.sh: ${#harnesses[@]} harness(es), ${secs}s each, $jobs at a time; work folder $work"
running=0
for h in "${harnesses[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_one "$h" &
  running=$((running + 1))
done
wait || true

status=0
printf '%-12s %8s %12s %8s %9s\n' harness seconds execs corpus findings
for h in "${harnesses[@]}"; do
  log=$work/logs/$h.log
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  corpus=$(find "$work/corpus/$h" -type f | wc -l)
  found=$(find "$work/artifacts/$h" -type f -newer "$stamp" \( -name 'crash-*' \
    -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  if [ "$found" -gt 0 ] || ! grep -q '^Done [0-9]* runs' "$log"; then
    status=1
    [ "$found" -gt 0 ] || found="?"
  fi
  printf '%-12s %8s %12s %8s %9s\n' "$h" "${took:-?}" "${execs:-?}" "$corpus" "$found"
done
if [ "$status" -ne 0 ]; then
  echo "run.sh: FINDINGS (or a harness that did not finish): see $work/logs/ and"
  find "$work/artifacts" -type f -newer "$stamp" | sed 's/^/  reproducer: /'
  echo "  replay one: $build/tests/fuzz/fuzz_<harness> <reproducer>"
fi
exit $status
