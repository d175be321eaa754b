#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/tsan/run.sh — every threaded path of fabriclint under ThreadSanitizer.
#
# Usage: tests/tsan/run.sh [--threads]
#   --threads  also check, under gdb, that each case really starts the
#              threads it is there for (its thread functions run on a thread
#              other than the main one); slower, for changing the cases
# Environment:
#   FABRICLINT_TSAN_BUILD       build folder (default <repo>/build-tsan), made
#                               with CC=clang -DFABRICLINT_SANITIZE=thread
#                               (Debug at -O0 with line tables, no tests, no
#                               MPI) when absent and rebuilt incrementally
#                               otherwise: only the executable and the plugins
#   FABRICLINT_TSAN_CMAKE_ARGS  more configure arguments (.ci/run:
#                               -DFABRICLINT_WERROR=ON)
#   FABRICLINT_TSAN_JOBS        build jobs (default 2)
#
# The threads and what starts them (docs/testing.md "ThreadSanitizer"):
#   worker_main, merge_part_main  credit-loop walks over LFTs, and the merge
#                         of the workers' tables (core/analysis/cdg_drivers.c:
#                         one per CPU, at most one per 64 LIDs: ft128 has 152),
#                         VL-blind and VL-aware (tests/fixtures/tsan)
#   design_main           design-mode root walks (core/analysis/cdg_design.c;
#                         a fabric whose roots are not all twins)
#   minhop_job            deadlock.credit-loop's minhop model beside the
#                         up*/down* one (plugins/deadlock/deadlock.c)
#   job_run               ecmp-balance's random patterns (plugins/ecmp-
#                         balance/traffic.c)
#   fl_view_minimal_worker  the minimal next hops (core/analysis/swview_minimal.c:
#                         adaptive-routing with a .far, health without LFTs)
#   work                  perf's one-pass solver (core/analysis/perf_fast.c)
#   side_thread           diff loading both sides (core/cli/cli_diff.c)
#   heartbeat             the status line's redraw once a second, only on a
#                         terminal (core/cli/cli_progress.c): run under
#                         `script`, on a fabric whose check takes over 1 s
# A TSan build lowers the two size thresholds below which the view and perf
# stay on one thread (CMakeLists.txt), so these small inputs take them.
#
# A case passes when its exit code is the expected one and ThreadSanitizer
# wrote no report (halt_on_error=0: every report of the run is kept under
# <build>/tsan-logs/). Prints one line per case and "N passed, N failed";
# exits 1 when a case failed, 2 on a build error.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${FABRICLINT_TSAN_BUILD:-$src/build-tsan}
jobs=${FABRICLINT_TSAN_JOBS:-2}
verify=0
case ${1:-} in
--threads) verify=1 ;;
'') ;;
*) echo "usage: tests/tsan/run.sh [--threads]" >&2; exit 2 ;;
esac

# clang and its sanitizer runtime (Debian 12), installed when missing
missing=""
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep "ok installed" >/dev/null || missing="$missing $p"
done
if [ -n "$missing" ] && command -v apt-get >/dev/null; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "run.sh: installing:$missing"
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

if [ ! -f "$build/CMakeCache.txt" ]; then
  # shellcheck disable=SC2086
  CC=clang cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_FLAGS_DEBUG="-O0 -gline-tables-only" -DFABRICLINT_SANITIZE=thread \
    -DFABRICLINT_TESTS=OFF -DFABRICLINT_MPI=OFF \
    ${FABRICLINT_TSAN_CMAKE_ARGS:-} >/dev/null || exit 2
fi
targets=(fabriclint-cli)
for d in "$src"/plugins/*/; do
  compgen -G "$d*.c" >/dev/null && targets+=("$(basename "$d")")
done
cmake --build "$build" -j"$jobs" --target "${targets[@]}" >/dev/null || exit 2

FL=$build/fabriclint
logs=$build/tsan-logs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$logs" && mkdir -p "$logs"
# no input of the runs depends on the IBNL search path
export FABRICLINT_IBNL_PATH=

# ---- inputs: committed fixtures and generated designs -------------------
FT128=$src/tests/fixtures/ns3/ft128 # ibsim + OpenSM ftree, max LID 152
FT2=$src/tests/fixtures/routing/fat-tree-2tier-ftree
VL=$src/tests/fixtures/tsan/ring32-dfsssp # DFSSSP with SL2VL, max LID 64
CTR=$src/tests/data/counters
gen() {
  local out=$1; shift
  "$FL" gen "$@" -o "$work/$out" 2>"$work/gen.err" ||
    { echo "run.sh: fabriclint gen $* failed:" >&2; cat "$work/gen.err" >&2; exit 2; }
}
export TSAN_OPTIONS="halt_on_error=0:exitcode=66:log_path=$logs/gen"
# a 3-tier tree with a leaf-to-leaf cable (its roots are not twins; a
# credit loop under up*/down*), a 4x4 torus (minhop model)
gen ft3x.xml fat-tree --radix 8 --tiers 3 --extra-leaf-link
gen torus.xml torus --x 4 --y 4
gen rail.xml rail-su --sus 2 --hosts-per-su 4 --rails 4 --leaf-radix 8 --speed NDR
# 11,664 hosts: a check of 2.7 s on a quiet machine (the 5,488 hosts of
# radix 28 took 1.2 s there: the line's first redraw at 1 s came too close
# to the end and was missed once), so the heartbeat redraws the line
gen ft36.xml fat-tree --radix 36 --tiers 3 --extra-leaf-link
cat >"$work/collectives.yaml" <<'EOF'
hosts: all
collectives:
  - {op: all-reduce, algorithm: ring, bytes: 1GiB}
  - {op: all-to-all, bytes: 1GiB}
EOF
cat >"$work/job.yaml" <<'EOF'
training:
  model: {params: 1.6e9, layers: 8, hidden: 4096, seq-len: 4096, global-batch: 32, micro-batch: 1, precision-bytes: 2}
  parallelism: {tp: 4, pp: 2, dp: 4, zero: 0}
  gpu: {peak-tflops: 1000, mfu: 0.5, per-server: 4, scale-up-GBps: 400}
EOF

# ---- cases: NAME|EXIT|THREAD FUNCTIONS|COMMAND (words; @W = work folder) --
cases=(
  "lft-walks|0|worker_main merge_part_main|check $FT128/topology.ibnetdiscover $FT128/opensm-lfts.dump"
  "lft-vl|0|worker_main|check --param deadlock.credit-loop.vl-mode=aware $VL/topology.ibnetdiscover $VL/opensm-lfts.dump $VL/opensm-sl2vl.dump $VL/path-sl.psl"
  "design-pair|1|minhop_job|check @W/ft3x.xml"
  "design-updn|0|design_main|check --rules deadlock.verdict @W/ft3x.xml"
  "design-minhop|0|design_main|check --rules deadlock.verdict @W/torus.xml"
  "ecmp-lft|0|job_run|check --rules ecmp-balance.link-load $FT128/topology.ibnetdiscover $FT128/opensm-lfts.dump"
  "ecmp-design|0|job_run fl_view_minimal_worker|check --rules ecmp-balance.link-load --format html -o @W/load.html --view load @W/ft3x.xml"
  "ar-far|0|fl_view_minimal_worker|check --rules adaptive-routing.* $FT2/topology.ibnetdiscover $FT2/opensm-lfts.dump $src/tests/fixtures/ar/good.far"
  "health|0|fl_view_minimal_worker|check --rules health.* $CTR/plan.xml $CTR/ibqueryerrors-1.txt $CTR/ibqueryerrors-2.txt"
  "perf-workload|0|work|perf --workload @W/collectives.yaml $FT128/topology.ibnetdiscover $FT128/opensm-lfts.dump"
  "perf-job|0|work|perf --job @W/job.yaml @W/rail.xml"
  "diff|1|side_thread|diff $src/fabrics/rail-su.ibnetdiscover $src/fabrics/rail-su-asbuilt.ibnetdiscover"
  "diff-xml|1|side_thread|diff $src/fabrics/diff/rail-su8.design.xml $src/fabrics/diff/rail-su8.asbuilt.ibnetdiscover"
  "progress|1|heartbeat minhop_job|TTY check -v @W/ft36.xml"
)

# thread functions of @1 that CMD... (under a terminal when @2 is 1) ran
# on a thread other than the main one (gdb's thread 1)
threads_of() {
  local fns=$1 tty=$2 gs=$work/gdb.cmd i=1 f
  shift 2
  {
    echo "set breakpoint pending on"
    echo "set pagination off"
    # TSan maps its shadow memory at fixed addresses: keep ASLR as it is
    echo "set disable-randomization off"
    for f in $fns; do
      echo "break $f"
      echo "commands $i"
      echo "silent"
      echo "if \$_thread != 1"
      printf 'printf "THREADFN %s\\n"\n' "$f"
      echo "end"
      echo "cont"
      echo "end"
      i=$((i + 1))
    done
    echo "run"
  } >"$gs"
  if [ "$tty" = 1 ]; then
    script -qec "$(printf '%q ' gdb -batch -nx -x "$gs" --args "$@")" /dev/null </dev/null 2>/dev/null
  else
    gdb -batch -nx -x "$gs" --args "$@" </dev/null 2>/dev/null
  fi | tr -d '\r' | sed -n 's/^THREADFN //p' | sort -u | tr '\n' ' '
}

if [ "$verify" = 1 ] && ! command -v gdb >/dev/null; then
  echo "run.sh: --threads needs gdb" >&2
  exit 2
fi
passed=0 failed=0
printf '%-14s %5s %8s  %s\n' case exit seconds result
for c in "${cases[@]}"; do
  IFS='|' read -r name want fns cmd <<<"$c"
  cmd=${cmd//@W/$work}
  read -ra args <<<"$cmd"
  tty=0
  if [ "${args[0]}" = TTY ]; then
    tty=1
    args=("${args[@]:1}")
  fi
  export TSAN_OPTIONS="halt_on_error=0:exitcode=66:second_deadlock_stack=1:log_path=$logs/$name"
  t0=$(date +%s.%N)
  if [ "$tty" = 1 ]; then
    # the status line and its heartbeat thread need a terminal on stderr
    line=$(printf '%q ' "$FL" "${args[@]}")
    script -qec "$line" /dev/null >"$work/$name.out" 2>&1 </dev/null
  else
    "$FL" "${args[@]}" >"$work/$name.out" 2>&1
  fi
  rc=$?
  secs=$(echo "$(date +%s.%N) $t0" | awk '{printf "%.1f", $1 - $2}')
  why=""
  if compgen -G "$logs/$name.*" >/dev/null; then
    why="ThreadSanitizer report(s): $(ls "$logs/$name".*)"
  elif [ "$rc" != "$want" ]; then
    why="exit $rc, want $want"
  elif [ "$tty" = 1 ] && ! tr '\r' '\n' <"$work/$name.out" | grep -E '^fabriclint: \[ *[1-9][0-9]*\.[0-9] s\] ' >/dev/null; then
    why="no status line drawn after 1 s (the heartbeat did not redraw)"
  fi
  if [ -z "$why" ] && [ "$verify" = 1 ]; then
    export TSAN_OPTIONS="halt_on_error=0:exitcode=66:log_path=$work/gdb-$name"
    got=$(threads_of "$fns" "$tty" "$FL" "${args[@]}")
    for f in $fns; do
      case " $got " in *" $f "*) ;; *) why="$why${why:+; }$f did not run on a thread of its own" ;; esac
    done
  fi
  if [ -z "$why" ]; then
    passed=$((passed + 1))
    printf '%-14s %5s %8s  %s\n' "$name" "$rc" "$secs" ok
  else
    failed=$((failed + 1))
    printf '%-14s %5s %8s  FAIL: %s\n' "$name" "$rc" "$secs" "$why"
    tail -5 "$work/$name.out" | sed 's/^/    /'
  fi
done
for f in "$logs"/*; do
  [ -e "$f" ] || continue
  echo "---- $f"
  cat "$f"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
