#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/mutation/run.sh — how many deliberate faults does the suite catch?
#
# Each mutant in tests/mutation/mutants.txt (file basename, a unique original
# snippet, its mutated form, a one-line description) is applied in turn to a
# scratch copy of the tree (never the working tree), built, and checked with
# the ctest subset of its area. A mutant is KILLED when a test fails (or
# times out), SURVIVED when all pass, and COMPILE when it does not build
# (counted apart: not a test result). The file is restored after each run.
#
# Usage: tests/mutation/run.sh [-j N] [-k] [AREA|ID ...]
#   AREA is deadlock, rail, diff, cli, progress, mpi, perf, planes, shape,
#   pfc, infer, detect, sonic, lids, design, tiers, roots, verdicts,
#   compare, host, load, util, gen, health, ar, fd, ecmp, topo, gpu, roles,
#   pfast, loaders, loaders2, slurm, threads or pictures; no argument runs every
#   mutant.
#   -j N  ctest parallelism (default 2)   -k  keep the scratch folder
# Environment: FL_MUT_DIR scratch folder (default: mktemp under /tmp).
# Output: one line per mutant, then "score AREA killed/total" per area.
# Exit: 0 when it ran (whatever the score), 2 on a stale mutant or a
# baseline failure (the unmutated tree must pass its subsets first).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
list="$here/mutants.txt"
jobs=2
keep=0
while [ $# -gt 0 ]; do
  case $1 in
  -j) jobs=$2; shift 2 ;;
  -k) keep=1; shift ;;
  --) shift; break ;;
  -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  *) break ;;
  esac
done

# The ctest subset (name regex) that guards each area.
tests_for() {
  case $1 in
  deadlock) echo 'cdg|deadlock|director_rules|routing_live|routing_load|test_view' ;;
  rail) echo 'rail' ;;
  diff) echo 'diff' ;;
  cli) echo 'options_anywhere|completion_bash|completion_zsh|man_page|cli.convert$' ;;
  progress) echo 'progress_live' ;;
  mpi) echo 'mpi_identical|mpi_module|dist_split|traffic_split' ;;
  perf) echo 'perf|test_perf|test_nccl_tests' ;;
  planes) echo 'cli.planes' ;;
  shape) echo 'test_shape|cli.trust_shape|cli.trust_roles' ;;
  pfc) echo 'cli.pfc_deadlock' ;;
  infer) echo 'cli.infer_explain' ;;
  detect) echo 'cli.formats_detect|cli.ibsim_reads_ibnd' ;;
  sonic) echo 'cli.sonic_formats|cli.sonic_multiasic|cli.sonic_type_tiers' ;;
  lids) echo 'cli.lid_space' ;;
  design) echo 'cli.journey_design|cli.design_cut' ;;
  tiers) echo 'cli.tier_pods|cli.trust_shape|unit.test_shape$|cli.sonic_type_tiers' ;;
  roots) echo 'test_roots|cli.roots' ;;
  compare) echo 'cli.compare_|cli.sweep' ;;
  host) echo 'test_host_serial|cli.compare_delta|cli.plugin_abi|unit.test_roots$|cli.trust_findings' ;;
  load) echo 'test_sysname|test_portdir|test_ibnd|test_formats|test_annotate|test_view|cli.failure_domains' ;;
  slurm) echo 'cli.convert_slurm|test_util_hostlist|cli.slurm_parse_live' ;;
  threads) echo 'unit.test_threads|cli.threads$' ;;
  util) echo 'test_util_|test_rail_names|test_design_edit|test_dbcsv|test_annotate|cli.ufm_ndt|cli.formats_netbox' ;;
  gen) echo 'cli.gen_|test_gen|cli.bom$' ;;
  verdicts) echo 'pfc_deadlock|port_names|diff_plan_sets|formats_nxos|neighbour_views|capture_cut|unknown_speed|lst_switch_asic|partial_shape|missing_uplinks_ratio|diff_rotation|cli.iblinkinfo|uplink_unreached|ibnd_port_labels|lst_once|dot_label_names|health_reboots|tier_lone_top' ;;
  health) echo 'cli.health_counters' ;;
  ar) echo 'cli.ar_coverage|cli.ar_dbcsv|unit.test_dbcsv' ;;
  fd) echo 'cli.failure_domains|cli.dual_homing_one_switch|cli.compare_single_point|cli.trust_shape|cli.journey_design|cli.gen_layout' ;;
  ecmp) echo 'cli.ecmp_balance|cli.director_rules|cli.uplink_unreached|cli.mixed_speed_root' ;;
  topo) echo 'cli.iblinkinfo$|cli.director_rules|cli.cases_rest|cli.ar_coverage' ;;
  gpu) echo 'cli.host_profile' ;;
  roles) echo 'cli.trust_shape|cli.rail_alignment|cli.sarif_fixes' ;;
  pfast) echo 'unit.test_perf$|cli.perf$|cli.perf_step|cli.perf_first_principles' ;;
  loaders) echo 'cli.iblinkinfo$|unit.test_iblinkinfo|unit.test_ar_load|cli.ar_coverage|cli.health_counters' ;;
  pictures) echo 'cli.pictures' ;;
  loaders2) echo 'unit.test_lines|cli.real_corpus|unit.test_formats|unit.test_convert|unit.test_counters|unit.test_annotate|unit.test_dbcsv|unit.test_routing_load|unit.test_hostprof|unit.test_perf_nccl|unit.test_perf$|unit.test_perf_place|cli.formats_|cli.ufm_ndt|cli.ibnl$|cli.health_counters|cli.host_profile|cli.ar_dbcsv|cli.dbcsv_topology|cli.ibnd_cache|cli.ibdiag_dir|cli.check_exit_codes|cli.diff_headline|cli.diff_parse|cli.failure_domains|cli.trust_inputs|cli.routing_live|cli.deadlock_nul_input|cli.lft_memory|cli.perf$|cli.perf_placements|cli.cases_rest' ;;
  *) echo "run.sh: unknown area $1" >&2; return 2 ;;
  esac
}

scratch=${FL_MUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/fl-mutants.XXXXXX")}
cleanup() { [ "$keep" = 1 ] || rm -rf "$scratch"; }
trap cleanup EXIT
tree="$scratch/tree"
mkdir -p "$tree"
# a copy of the sources (tracked and new files, not build output or .git)
tar -C "$src" --exclude=./.git --exclude='./build*' -cf - . | tar -C "$tree" -xf -
# tests find ../shared/external beside the source tree when it exists
[ -d "$src/../shared" ] && ln -s "$(cd "$src/../shared" && pwd)" "$scratch/shared"
# warnings a mutant provokes (an unused variable) must not hide its verdict
sed -i 's/ -Werror//' "$tree/CMakeLists.txt"

python3 "$here/apply.py" check "$list" "$tree" || exit 2
mapfile -t MUTS < <(python3 "$here/apply.py" list "$list" "$@")
[ ${#MUTS[@]} -gt 0 ] || { echo "run.sh: no mutant matches $*" >&2; exit 2; }

build="$tree/build"
echo "run.sh: building the unmutated copy in $build"
cmake -S "$tree" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$jobs" >/dev/null
areas=$(printf '%s\n' "${MUTS[@]}" | awk '{print $2}' | sort -u)
for a in $areas; do
  if ! ctest --test-dir "$build" -R "$(tests_for "$a")" -j"$jobs" \
    --timeout 300 >"$scratch/base-$a.log" 2>&1; then
    echo "run.sh: the unmutated tree fails its $a tests:" >&2
    tail -20 "$scratch/base-$a.log" >&2
    exit 2
  fi
done

declare -A killed total
printf '%-14s %-9s %-9s %s\n' MUTANT AREA RESULT DESCRIPTION
for line in "${MUTS[@]}"; do
  id=${line%% *}
  rest=${line#* }
  area=${rest%% *}
  desc=${line#*$'\t'}
  file=$(python3 "$here/apply.py" apply "$list" "$id" "$tree" "$scratch/orig")
  result=SURVIVED
  if ! cmake --build "$build" -j"$jobs" >"$scratch/build-$id.log" 2>&1; then
    result=COMPILE
  # --stop-on-failure: the first failing test decides KILLED, and most
  # mutants are killed, so the rest of the subset need not run
  elif ! ctest --test-dir "$build" -R "$(tests_for "$area")" -j"$jobs" \
    --timeout 120 --stop-on-failure >"$scratch/test-$id.log" 2>&1; then
    result=KILLED
  fi
  cp "$scratch/orig" "$file" # restore (a new mtime: the next build redoes it)
  printf '%-14s %-9s %-9s %s\n' "$id" "$area" "$result" "$desc"
  total[$area]=$((${total[$area]:-0} + $([ $result = COMPILE ] && echo 0 || echo 1)))
  killed[$area]=$((${killed[$area]:-0} + $([ $result = KILLED ] && echo 1 || echo 0)))
done
cmake --build "$build" -j"$jobs" >/dev/null 2>&1 || true
for a in $areas; do
  echo "score $a ${killed[$a]:-0}/${total[$a]:-0}"
done
