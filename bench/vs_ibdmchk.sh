#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/vs_ibdmchk.sh — fabriclint's credit-loop check against ibdmchk, side
# by side, on real OpenSM dumps of a large fat tree (issue 3: "ibdmchk needs
# about 25 s and 470 MB for a 5,832-host, 972-switch fat tree with 5.7 M LFT
# entries; the goal is at least 20x faster with the same verdict").
#
# Per scenario (an OpenSM routing engine on a generated fat tree):
#   1. `fabriclint gen fat-tree ... --format ibsim` writes the net file;
#   2. ibsim simulates it, `ibsim-run opensm -o -R ENGINE` routes it once
#      (log_flags 0x43 as in tests/routing/make_fixtures.sh: the ROUTING flag
#      makes OpenSM write opensm-lfts.dump, opensm.fdbs, opensm.mcfdbs,
#      opensm-subnet.lst), `ibnetdiscover` captures the topology; ibsim is
#      stopped before anything is timed;
#   3. times, RUNS times each (median wall, largest peak RSS, /usr/bin/time -v):
#        ibdmchk -s opensm-subnet.lst -f opensm.fdbs -m opensm.mcfdbs
#        fabriclint check --rules 'deadlock.*' topology.ibnetdiscover opensm-lfts.dump
#        fabriclint check --rules 'deadlock.*' opensm-subnet.lst opensm.fdbs
#      and compares the verdicts (credit loops or not). The Debian ibdmchk
#      prints its verdict and then crashes on exit: its stdout is read, its
#      exit status ignored (its time and RSS are still those of the run).
#
# Scenarios: ftree   -R ftree on the fat tree (expected: no credit loops)
#            minhop-extra  -R minhop on the same tree plus one cable between
#                    the first and the last leaf (--extra-leaf-link;
#                    expected: credit loops, as in the small fixture
#                    fat-tree-3tier-extra-leaf-link-minhop)
#
# Output: a table on stdout (and OUT/results.txt when OUT is set). With
# OUT=DIR the dumps and tool outputs are kept in DIR/<scenario>/ (they are
# large — ~0.5 GB for the default fabric — and not meant for the repository).
#
# Side effects: ibsim runs on a private socket name (IBSIM_SOCKNAME), OpenSM's
# log, cache and dumps go to a temporary folder (removed on exit unless
# KEEP_WORK=1); ibsim and OpenSM are always stopped (trap). ibdmchk always
# writes its detail reports to /var/cache/ibutils/ (Debian build, no option
# to change it).
#
# Usage: bench/vs_ibdmchk.sh        (parameters below, from the environment)
# Needs: ibsim, ibsim-run (ibsim-utils), opensm, ibnetdiscover
#        (infiniband-diags), ibdmchk (ibutils), /usr/bin/time, a built
#        fabriclint (FL=...).
set -euo pipefail

# ---- parameters ----------------------------------------------------------------
RADIX=${RADIX:-36}          # switch radix (the issue's fabric: 36, 3 tiers,
TIERS=${TIERS:-3}           # 5,832 hosts = 18 of 36 pods, 972 switches)
HOSTS=${HOSTS-5832}         # empty: the full tree (K^3/4 hosts for 3 tiers)
SCENARIOS=${SCENARIOS:-"ftree minhop-extra"}
RUNS=${RUNS:-3}             # timed runs per tool (median wall is reported)
OUT=${OUT:-}                # keep dumps and results here (default: discard)
OSM_TIMEOUT=${OSM_TIMEOUT:-3600}   # seconds for one OpenSM sweep / discovery
TOOL_TIMEOUT=${TOOL_TIMEOUT:-1800} # seconds for one ibdmchk / fabriclint run

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
FL=${FL:-$src/build/fabriclint}

. "$src/tests/ibsim_lib.bash"
ibsim_need ibsim ibsim-run opensm ibnetdiscover ibdmchk
[ -x /usr/bin/time ] || { echo "vs_ibdmchk.sh: /usr/bin/time not found (apt install time)" >&2; exit 2; }
[ -x "$FL" ] || { echo "vs_ibdmchk.sh: $FL not built" >&2; exit 2; }
FL=$(cd "$(dirname "$FL")" && pwd)/$(basename "$FL")

ibsim_init vs-ibdmchk
ibsim_timeout=$OSM_TIMEOUT
ibsim_start_wait=6000
work=$ibsim_work
die() { echo "vs_ibdmchk.sh: $*" >&2; exit 1; }
log() { echo "[$(date +%T)] $*" >&2; }

genargs="fat-tree --radix $RADIX --tiers $TIERS${HOSTS:+ --hosts $HOSTS}"

# ---- simulate NAME ENGINE EXTRA_GEN_ARGS — dumps into $work/NAME/ ---------------
simulate() {
  local name=$1 engine=$2 extra=$3 d=$work/$1 t0=$SECONDS
  mkdir -p "$d/dump"
  # shellcheck disable=SC2086 # the generator arguments are a word list
  "$FL" gen $genargs $extra --speed HDR --no-lids --format ibsim -o "$d/fabric.net"
  ibsim_opensm_conf "$d/opensm.conf" "$d/opensm.log" "$d/dump" \
    log_flags 0x43 force_log_flush TRUE || exit 1

  local args
  args=$(sed -n 's/^# Simulate with: ibsim -s \(.*\) FILE$/\1/p' "$d/fabric.net")
  # The SM (and ibnetdiscover) run on the first CA of the net file: its name
  # width grows with the host count (node0001, node00001, ...).
  SM_HOST=$(sed -n '/^Ca[[:space:]]/{s/^Ca[[:space:]]*[0-9]* "\([^"]*\)".*/\1/p;q}' "$d/fabric.net")
  [ -n "$SM_HOST" ] || die "$name: no CA in the net file"
  log "$name: ibsim $args ($(head -1 "$d/fabric.net" | sed 's/.*fabriclint: //'))"
  ibsim_start "$d/fabric.net" "$d/ibsim.log" || die "$name: ibsim did not start"
  log "$name: ibsim ready after $((SECONDS - t0)) s; opensm -o -R $engine"

  local t1=$SECONDS rc=0 used
  ibsim_opensm "$SM_HOST" "$d" "$d/opensm.out" -o -R "$engine" -F "$d/opensm.conf" || rc=$?
  used=$(ibsim_engine_used "$d/opensm.log")
  echo "${used:-none}" >"$d/engine-used"
  if [ ! -s "$d/dump/opensm-lfts.dump" ] || [ ! -s "$d/dump/opensm-subnet.lst" ]; then
    tail -20 "$d/opensm.out" >&2
    die "$name: OpenSM wrote no dumps (exit $rc)"
  fi
  log "$name: opensm exit $rc after $((SECONDS - t1)) s, engine used: ${used:-none}; ibnetdiscover"
  t1=$SECONDS
  SIM_HOST="$SM_HOST" timeout "$OSM_TIMEOUT" ibsim-run ibnetdiscover \
    >"$d/dump/topology.ibnetdiscover" 2>"$d/ibnetdiscover.err" ||
    die "$name: ibnetdiscover failed: $(tail -3 "$d/ibnetdiscover.err")"
  ibsim_stop
  log "$name: ibnetdiscover $((SECONDS - t1)) s; simulation total $((SECONDS - t0)) s"
  echo "$((SECONDS - t0))" >"$d/sim-seconds"
}

# timed OUTFILE STDOUT CMD... — one run under /usr/bin/time -v; prints
# "WALL_SECONDS RSS_KB".
timed() {
  local tf=$1 so=$2; shift 2
  /usr/bin/time -v -o "$tf" timeout "$TOOL_TIMEOUT" "$@" >"$so" 2>>"$work/tool.err" </dev/null || true
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0
                for (i = 1; i <= n; i++) s = s * 60 + p[i]; w = s }
              /Maximum resident set size/ { r = $2 }
              END { printf "%.2f %d\n", w, r }' "$tf"
}

# bench LABEL DIR VERDICT_FN CMD... — RUNS runs in DIR; prints
# "median_wall max_rss_MB verdict" and keeps the last stdout as DIR/LABEL.out.
bench() {
  local label=$1 dir=$2 vfn=$3; shift 3
  local walls=() rss=0 k w r
  for ((k = 0; k < RUNS; k++)); do
    read -r w r < <(cd "$dir" && timed "$work/time.$label" "$dir/$label.out" "$@")
    walls+=("$w")
    [ "$r" -gt "$rss" ] && rss=$r
  done
  local med
  med=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  echo "$med $((rss / 1024)) $("$vfn" "$dir/$label.out")"
}

ibdmchk_verdict() {
  if grep -q -- "-E- credit loops in routing" "$1"; then echo "loops"
  elif grep -q -- "-I- no credit loops found" "$1"; then echo "no-loops"
  elif grep -q -- "Point to Point Traversals Failed" "$1"; then echo "traversal-failed"
  else echo "no-verdict"; fi
}
fl_verdict() { # JSON report -> loops(N) / no-loops
  python3 - "$1" <<'EOF'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    print("no-report"); sys.exit()
n = sum(1 for f in d["findings"] if f["rule"] == "deadlock.credit-loop")
print("loops(%d)" % n if n else "no-loops")
EOF
}

results=$work/results.txt
{
  echo "# bench/vs_ibdmchk.sh on $(nproc) CPUs, $(date -u +%F); RUNS=$RUNS (median wall, max peak RSS)"
  echo "# fabric: fabriclint gen $genargs --speed HDR --no-lids --format ibsim"
  echo "# $(dpkg-query -W -f 'ibutils ${Version}, ' ibutils 2>/dev/null || true)$(opensm --version 2>/dev/null | sed -n 's/^OpenSM /OpenSM /p' | head -1)"
  printf '%-13s %-7s %6s %6s %9s %5s | %-28s %8s %7s %s\n' scenario engine switch CAs lft-entr sim \
    tool wall_s rss_MB verdict
} >"$results"

for sc in $SCENARIOS; do
  case $sc in
    ftree) engine=ftree extra="" ;;
    minhop-extra) engine=minhop extra="--extra-leaf-link" ;;
    updn) engine=updn extra="" ;;
    *) die "unknown scenario $sc" ;;
  esac
  simulate "$sc" "$engine" "$extra"
  d=$work/$sc/dump
  [ -f "$d/opensm.mcfdbs" ] || : >"$d/opensm.mcfdbs" # no multicast groups
  nsw=$(grep -c '^Switch' "$d/topology.ibnetdiscover" || true)
  nca=$(grep -c '^Ca' "$d/topology.ibnetdiscover" || true)
  nlft=$(grep -c '^0x' "$d/opensm-lfts.dump" || true)
  used=$(cat "$work/$sc/engine-used")
  simt=$(cat "$work/$sc/sim-seconds")
  log "$sc: $nsw switches, $nca CAs, $nlft LFT entries; timing ($RUNS runs each)"

  row() { printf '%-13s %-7s %6s %6s %9s %5s | %-28s %8s %7s %s\n' "$sc" "$used" "$nsw" "$nca" "$nlft" "$simt" "$@"; }
  read -r w r v < <(bench ibdmchk "$d" ibdmchk_verdict \
    ibdmchk -s opensm-subnet.lst -f opensm.fdbs -m opensm.mcfdbs)
  row "ibdmchk -s -f -m" "$w" "$r" "$v" | tee -a "$results"
  read -r w r v < <(bench fl-ibnd-lfts "$d" fl_verdict \
    "$FL" check --rules 'deadlock.*' --format json topology.ibnetdiscover opensm-lfts.dump)
  row "fabriclint ibnd+lfts.dump" "$w" "$r" "$v" | tee -a "$results"
  read -r w r v < <(bench fl-lst-fdbs "$d" fl_verdict \
    "$FL" check --rules 'deadlock.*' --format json opensm-subnet.lst opensm.fdbs)
  row "fabriclint subnet.lst+fdbs" "$w" "$r" "$v" | tee -a "$results"

  if [ -n "$OUT" ]; then
    mkdir -p "$OUT/$sc"
    cp "$work/$sc/fabric.net" "$work/$sc/opensm.log" "$OUT/$sc/"
    cp "$d"/* "$OUT/$sc/"
  fi
  rm -rf "${work:?}/$sc"
done

echo
cat "$results"
if [ -n "$OUT" ]; then cp "$results" "$OUT/results.txt"; fi
