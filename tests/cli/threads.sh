#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/threads.sh — one thread policy (issue 36, docs/cli.md
# "Threads"): --jobs/-j N, else FABRICLINT_THREADS, else the CPUs this
# process may use (affinity mask, cgroup CPU quota: unit.test_threads);
# each bound exactly at its limit and one past it; -v names the budget and
# where it came from; the report is the same bytes for --jobs 1, 2, 4 and
# 64 on every threaded path (LFT walks, design-mode walks with deadlock's
# minhop pair, ecmp-balance's random patterns, perf's placements, diff's
# two loaders); and the budget is kept: with one thread no thread is
# started (counted with strace; that part is a SKIP without strace).
. "$(dirname "$0")/lib.bash"
R="$FL_SRC/tests/fixtures/mpi/ring8-minhop"
F="$FL_SRC/tests/fixtures/mpi/fattree12-ftree"
RING=("$R/topology.ibnetdiscover" "$R/opensm-lfts.dump")

# --- the bounds: 1 and 64 taken, 0 and 65 refused, for the option and the
# variable alike
for n in 1 64; do
  expect_rc 1 "$FL" check --rules 'deadlock.*' --jobs $n "${RING[@]}"
  expect_rc 1 env FABRICLINT_THREADS=$n "$FL" check --rules 'deadlock.*' "${RING[@]}"
done
for n in 0 65 -1 2x ''; do
  expect_rc 2 "$FL" check --jobs "$n" "${RING[@]}"
  expect_grep "$TMP/err" "^fabriclint: --jobs: expected a number of threads from 1 to 64, got '$n'$"
done
for n in 0 65 abc; do
  expect_rc 2 env FABRICLINT_THREADS=$n "$FL" check "${RING[@]}"
  expect_grep "$TMP/err" "^fabriclint: FABRICLINT_THREADS: expected a number of threads from 1 to 64, got '$n'$"
done
# an empty variable is no variable; -j is --jobs; perf, diff and compare
# take it, info and convert do not (they start no thread)
expect_rc 1 env FABRICLINT_THREADS= "$FL" check --rules 'deadlock.*' -j2 "${RING[@]}"
for cmd in info convert; do
  expect_rc 2 "$FL" $cmd --jobs 2 "$R/topology.ibnetdiscover"
  expect_grep "$TMP/err" "^fabriclint: --jobs does not apply to $cmd \\(it is an option of check, diff, perf, compare and sweep\\)$"
done

# commands that start no thread do not read the variable: a bad value
# stops none of them
"$FL" gen rail-su --sus 1 --layout -o "$TMP/plan.xml" || fail "gen"
expect_rc 0 env FABRICLINT_THREADS=abc "$FL" bom "$TMP/plan.xml"
expect_rc 0 env FABRICLINT_THREADS=abc "$FL" info "$TMP/plan.xml"
expect_rc 0 env FABRICLINT_THREADS=abc "$FL" convert "$TMP/plan.xml" -o "$TMP/plan.ndt"

# --- -v says the budget and where it came from; --jobs wins over the variable
budget() { grep -E '^fabriclint: [0-9]+ thread\(s\) at most' "$TMP/err"; }
expect_rc 1 "$FL" check -v --rules 'deadlock.*' --jobs 3 "${RING[@]}"
expect_eq "$(budget)" "fabriclint: 3 thread(s) at most (--jobs)" "--jobs 3"
expect_rc 1 env FABRICLINT_THREADS=5 "$FL" check -v --rules 'deadlock.*' "${RING[@]}"
expect_eq "$(budget)" "fabriclint: 5 thread(s) at most (FABRICLINT_THREADS)" "FABRICLINT_THREADS=5"
expect_rc 1 env FABRICLINT_THREADS=5 "$FL" check -v --rules 'deadlock.*' -j 2 "${RING[@]}"
expect_eq "$(budget)" "fabriclint: 2 thread(s) at most (--jobs)" "--jobs over the variable"
# diff, perf and compare say it too, once
expect_rc 1 "$FL" diff -v -j 2 "$FL_SRC/fabrics/diff/rail-su8.design.xml" "$FL_SRC/fabrics/diff/rail-su8.asbuilt.ibnetdiscover"
expect_eq "$(budget)" "fabriclint: 2 thread(s) at most (--jobs)" "diff -v"
printf 'hosts: 8\ncollectives:\n  - {op: all-reduce, algorithm: ring, bytes: 1GiB}\n' >"$TMP/w.yaml"
"$FL" perf -v -j 3 --workload "$TMP/w.yaml" "${RING[@]}" >/dev/null 2>"$TMP/err"
expect_eq "$(budget)" "fabriclint: 3 thread(s) at most (--jobs)" "perf -v"
expect_rc 0 "$FL" compare -v -j 2 --fail-on never "$TMP/plan.xml" "$TMP/plan.xml"
expect_eq "$(budget)" "fabriclint: 2 thread(s) at most (--jobs)" "compare -v: once"
# the affinity mask: one CPU gives one thread
if command -v taskset >/dev/null; then
  expect_rc 1 env -u FABRICLINT_THREADS taskset -c 0 "$FL" check -v --rules 'deadlock.*' "${RING[@]}"
  expect_eq "$(budget)" "fabriclint: 1 thread(s) at most (the CPUs this process may use)" "taskset -c 0"
  if [ "$(nproc --all)" -ge 2 ]; then
    expect_rc 1 env -u FABRICLINT_THREADS taskset -c 0,1 "$FL" check -v --rules 'deadlock.*' "${RING[@]}"
    expect_eq "$(budget)" "fabriclint: 2 thread(s) at most (the CPUs this process may use)" "taskset -c 0,1"
  fi
else
  echo "threads: SKIP: no taskset (the affinity part)"
fi

# --- the same bytes for every budget
# same NAME RC CMD... — CMD with --jobs 1, 2, 4 and 64; JSON kept in $TMP/NAME.N
same() {
  local name=$1 want=$2 n
  shift 2
  for n in 1 2 4 64; do
    "$@" --jobs $n >"$TMP/$name.$n" 2>"$TMP/err"
    expect_eq "$?" "$want" "$name: exit status with --jobs $n"
    [ $n = 1 ] && continue
    if cmp -s "$TMP/$name.1" "$TMP/$name.$n"; then pass; else
      fail "$name: --jobs $n differs from --jobs 1"
      diff "$TMP/$name.1" "$TMP/$name.$n" | head -5 >&2
    fi
  done
}
# LFT walks: the ring's two credit loops (one per direction)
same ring 1 "$FL" check --rules 'deadlock.*' --format json "${RING[@]}"
expect_eq "$(jget "$TMP/ring.1" "=len([f for f in d['findings'] if f['rule'] == 'deadlock.credit-loop'])")" 2 "ring: two loops"
# design mode: a 3-tier fat tree without LFTs (ftree's walks and minhop's
# on a second thread) and a torus (a loop under minhop)
"$FL" gen fat-tree --radix 8 --tiers 3 -o "$TMP/ft.xml" || fail "gen fat-tree"
same design 0 "$FL" check --rules 'deadlock.*' --param deadlock.credit-loop.routing-engine=ftree --format json "$TMP/ft.xml"
"$FL" gen torus --x 4 --y 4 -o "$TMP/torus.xml" || fail "gen torus"
same torus 0 "$FL" check --rules 'deadlock.*' --format json "$TMP/torus.xml"
expect_eq "$(jget "$TMP/torus.1" "=[(f['rule'], f['severity']) for f in d['findings']]")" "[('deadlock.credit-loop', 'warning'), ('deadlock.verdict', 'info')]" "torus: a credit loop of the model"
# ecmp-balance's random patterns: 100 instances each over the workers
same ecmp 0 "$FL" check --rules 'ecmp-balance.link-load' --format json \
  --param ecmp-balance.link-load.patterns=bisect,permutation \
  "$F/topology.ibnetdiscover" "$F/opensm-lfts.dump"
expect_eq "$(jget "$TMP/ecmp.1" "=[(f['evidence']['pattern'], f['evidence']['patterns']) for f in d['findings']]")" \
  "[('bisect', 100), ('permutation', 100)]" "ecmp: 100 instances of each"
# perf over 16 placements (its solver threads from 2,048 destination NICs:
# here the option is taken and changes nothing)
P=("$FL_SRC/tests/fixtures/ns3/ft32/topology.ibnetdiscover" "$FL_SRC/tests/fixtures/ns3/ft32/opensm-lfts.dump")
printf 'hosts: 8\nplacements: {count: 16, seed: 1, from: all}\ncollectives:\n  - {op: all-to-all, bytes: 1GiB}\n  - {op: all-reduce, algorithm: ring, bytes: 1GiB}\n' >"$TMP/p16.yaml"
same perf 1 "$FL" perf --workload "$TMP/p16.yaml" --format json "${P[@]}"
# diff: the two sides load on two threads unless the budget is one
# (a design XML against a capture: two XML sides load one after the other)
D=("$FL_SRC/fabrics/diff/rail-su8.design.xml" "$FL_SRC/fabrics/diff/rail-su8.asbuilt.ibnetdiscover")
same diff 1 "$FL" diff --format json "${D[@]}"

# --- the budget is kept: no thread started with one (strace counts clones)
if command -v strace >/dev/null; then
  # (LeakSanitizer cannot run under ptrace, nor would its own thread be
  # fabriclint's: under ASan the traced runs go without leak checking)
  clones() {
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
      strace -f -qq -e trace=clone,clone3 -o "$TMP/st" "$@" >/dev/null 2>&1
    grep -c 'clone' "$TMP/st"
  }
  expect_eq "$(clones "$FL" check --rules 'deadlock.*' -j 1 "${RING[@]}")" 0 "LFT walks, --jobs 1: no thread"
  expect_eq "$(clones env -u FABRICLINT_THREADS taskset -c 0 "$FL" check --rules 'deadlock.*' "${RING[@]}")" 0 "LFT walks under taskset -c 0: no thread"
  expect_eq "$(clones "$FL" check --rules 'deadlock.*' --param deadlock.credit-loop.routing-engine=ftree -j 1 "$TMP/ft.xml")" 0 "design mode, --jobs 1: no thread"
  expect_eq "$(clones "$FL" check --rules 'ecmp-balance.link-load' --param ecmp-balance.link-load.patterns=bisect -j 1 "$F/topology.ibnetdiscover" "$F/opensm-lfts.dump")" 0 "ecmp patterns, --jobs 1: no thread"
  expect_eq "$(clones "$FL" diff -j 1 "${D[@]}")" 0 "diff, --jobs 1: no thread"
  expect_eq "$(clones "$FL" diff -j 2 "${D[@]}")" 1 "diff, --jobs 2: the second side's loader"
  # and threads with more: the ring's 5 blocks of 64 LIDs, the torus's
  # minhop walks, ecmp's pattern workers
  n=$(clones "$FL" check --rules 'deadlock.*' -j 4 "${RING[@]}")
  [ "$n" -ge 3 ] && pass || fail "LFT walks, --jobs 4: $n thread(s) started, want 3 or more"
  n=$(clones "$FL" check --rules 'deadlock.*' -j 4 "$TMP/torus.xml")
  [ "$n" -ge 1 ] && pass || fail "torus, --jobs 4: $n thread(s) started, want 1 or more"
  n=$(clones "$FL" check --rules 'ecmp-balance.link-load' --param ecmp-balance.link-load.patterns=bisect -j 4 "$F/topology.ibnetdiscover" "$F/opensm-lfts.dump")
  [ "$n" -ge 3 ] && pass || fail "ecmp patterns, --jobs 4: $n thread(s) started, want 3 or more"
else
  echo "threads: SKIP: no strace (the threads-started part)"
fi
finish
