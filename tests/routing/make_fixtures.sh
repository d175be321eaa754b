#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/routing/make_fixtures.sh — real OpenSM routing dumps of fabrics with
# known credit-loop verdicts, for the deadlock plugin (issue 3).
#
# Why: a credit-loop checker is only believable if it agrees with what real
# routing engines produce on fabrics whose answer is known — minimal routing
# on rings and tori has credit loops, up/down and ftree on fat trees have
# none, and the VL engines (LASH, DFSSSP, Nue, Torus-2QoS) break the loops
# of their LFTs with SLs and SL2VL tables. So, per scenario, this script:
#   1. writes the fabric with `fabriclint gen ... --format ibsim`;
#   2. simulates it with ibsim and runs the real OpenSM once,
#      `ibsim-run opensm -o -R ENGINE -F CONF`, with log_flags 0x43 (ERROR,
#      INFO, ROUTING: the ROUTING flag is what makes OpenSM write
#      opensm-lfts.dump, opensm.fdbs, opensm.mcfdbs and, when QoS is on or
#      the engine programs SL2VL, opensm-sl2vl.dump), force_log_flush (the
#      log is how we know the SM is up) and dump_files_dir in a temporary
#      folder; records its exit status and, from its log, the
#      engine that actually routed (OpenSM falls back to minhop when an
#      engine refuses a topology: "<engine> tables configured" tells which);
#   3. for the engines that give every path an SL (lash, dfsssp, nue,
#      torus-2QoS), obtains the path SLs: OpenSM dumps no path-SL file, the
#      SL is only answered in SA PathRecords. `opensm -o` exits before
#      anyone can ask, so a second OpenSM is started without -o on the same
#      (already configured) simulated subnet, with the same LID cache; once
#      it logs SUBNET UP, `saquery -p --slid S --dlid D` is asked for every
#      CA pair. One query per pair because the simulator's umad layer does
#      not reassemble multi-MAD (RMPP) answers: a wildcard `saquery -p`
#      returns only the first 3 records. The daemon's LFT dump is compared
#      with the -o run's, so the SLs provably belong to the dumped LFTs;
#   4. captures `ibnetdiscover`, stops everything, and runs `ibdmchk` on the
#      dumps (the Debian build prints its verdict, then crashes on exit: its
#      stdout is kept and its exit status ignored).
#
# Output, per scenario, in tests/fixtures/routing/<scenario>/:
#   fabric.net              the ibsim net file (input of the simulation)
#   topology.ibnetdiscover  `ibnetdiscover` after OpenSM configured the subnet
#   opensm-lfts.dump, opensm.fdbs, opensm.mcfdbs (empty: no multicast
#   groups), opensm-subnet.lst, opensm-sl2vl.dump (VL engines only; written
#   because those scenarios run with `qos TRUE`, see below),
#   opensm-torus.dump (torus-2QoS only)      — OpenSM's own dump files
#   opensm-options.txt      the options changed from OpenSM's defaults
#   torus-2QoS.conf         the torus description given to torus-2QoS
#   opensm-log.txt          OpenSM's log, time stamps and thread ids removed
#   engine.txt              requested/used engine, opensm exit status, how
#                           path SLs were obtained, ibdmchk verdicts
#   path-sl.psl             per CA pair `0x<src CA node GUID> <DLID dec> <SL>`
#                           (the form `ibdmchk -c` and ibdiagnet read)
#   path-records.saquery    raw `saquery -p` output for the paths from the
#                           first CA (a sample of the PathRecord format)
#   ibdmchk.txt             ibdmchk stdout with every input available
#                           (-c and -d for VL engines)
#   ibdmchk-vl-blind.txt    VL engines only: ibdmchk on the same LFTs
#                           without -c/-d (one SL, one VL)
# and tests/fixtures/routing/TIMING (seconds per scenario; the only file,
# with the date line of topology.ibnetdiscover, that differs between runs).
#
# Determinism: fabrics, LIDs (OpenSM assigns them in discovery order from
# the same SM port) and routes are the same on every run; the script
# checks nothing about that itself, `git diff` after a rerun does. Known
# differences: the date line of topology.ibnetdiscover, TIMING, and DFSSSP's
# path SLs (its lane balancing varies between runs; its LFTs do not, and
# the SLs kept are those of the OpenSM whose LFTs equal the dump kept).
#
# Why `qos TRUE` for the VL engines: OpenSM 3.3.23 (Debian 12) programs
# SL2VL tables for LASH, DFSSSP and Nue only when QoS is enabled (these
# engines have no update_sl2vl hook there), and without SL2VL programming
# their SLs would all land on the switches' default VL — the deployment
# those engines document is with QoS on. Nue runs with nue_max_num_vls 0
# (use every VL the fabric has) so that its layers are visible; with the
# default of 1 VL it would be deadlock-free even to a VL-blind check.
#
# Side effects outside the output folder: none from ibsim/OpenSM (private
# socket name IBSIM_SOCKNAME, OSM_CACHE_DIR/OSM_TMP_DIR and all dumps in a
# temporary folder, removed on exit). ibdmchk itself always writes its
# detail reports to the fixed path /var/cache/ibutils/ (Debian build); it
# has no option to change that. ibsim and OpenSM are always stopped (trap).
#
# Usage:
#   tests/routing/make_fixtures.sh [SCENARIO...]
#       regenerate tests/fixtures/routing/ (the committed scenarios, or
#       those named)
#   tests/routing/make_fixtures.sh --live OUTDIR [SCENARIO...]
#       write the same files into OUTDIR, for CI runs against live tools:
#       every scenario, including the "extra" ones, or those named
#   tests/routing/make_fixtures.sh --list
# FL=path/to/fabriclint overrides the executable (default build/fabriclint);
# KEEP_WORK=1 keeps the temporary folder (logs, configs) for debugging.
# Needs: ibsim, ibsim-run (ibsim-utils), opensm, saquery, ibnetdiscover
# (infiniband-diags), ibdmchk (ibutils), and a built fabriclint.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
FL=${FL:-$src/build/fabriclint}
out_root=$src/tests/fixtures/routing
start=$SECONDS

# ---- scenarios --------------------------------------------------------------
# name | engine | fabriclint gen arguments | OpenSM option kind | set
#   kinds: plain (defaults), vl (qos TRUE), nue (qos TRUE, all VLs),
#   t2q (qos TRUE + a generated torus-2QoS.conf)
#   set: fixture (committed under tests/fixtures/routing), extra (run only
#   with --live or when named: 4x4-torus variants of the ring's VL
#   scenarios, ~170 KB each, kept out of the repository for size; and
#   ring32-dfsssp, 64 LIDs so that the VL-aware walk splits over two
#   threads, about 3 min for its 992 path-SL queries, of which
#   tests/fixtures/tsan/ring32-dfsssp keeps what `check` reads)
# The 3-tier trees have 8 hosts (2 of 4 pods), except the one with the extra
# leaf link: with all 16 hosts its minhop routes have a credit loop, with 8
# they have none — the loop case is the one worth keeping. The same fabric
# routed by updn and ftree is the reference for the routing-engine model of
# the deadlock plugin (design mode: what those engines would do, no LFTs).
ring="ring --switches 6 --hosts-per-switch 1"
torus="torus --x 4 --y 4 --hosts-per-switch 1"
ft2="fat-tree --radix 4 --tiers 2"
ft3="fat-tree --radix 4 --tiers 3 --hosts 8"
scenarios=(
  "ring-minhop|minhop|$ring|plain|fixture"
  "torus-minhop|minhop|$torus|plain|fixture"
  "fat-tree-2tier-updn|updn|$ft2|plain|fixture"
  "fat-tree-2tier-ftree|ftree|$ft2|plain|fixture"
  "fat-tree-3tier-updn|updn|$ft3|plain|fixture"
  "fat-tree-3tier-ftree|ftree|$ft3|plain|fixture"
  "fat-tree-extra-leaf-link-minhop|minhop|$ft2 --extra-leaf-link|plain|fixture"
  "fat-tree-3tier-extra-leaf-link-minhop|minhop|${ft3% --hosts 8} --extra-leaf-link|plain|fixture"
  "fat-tree-3tier-extra-leaf-link-updn|updn|${ft3% --hosts 8} --extra-leaf-link|plain|fixture"
  "fat-tree-3tier-extra-leaf-link-ftree|ftree|${ft3% --hosts 8} --extra-leaf-link|plain|fixture"
  "ring-lash|lash|$ring|vl|fixture"
  "ring-dfsssp|dfsssp|$ring|vl|fixture"
  "ring-nue|nue|$ring|nue|fixture"
  "ring-torus-2QoS|torus-2QoS|$ring|t2q|fixture"
  "torus-torus-2QoS|torus-2QoS|$torus|t2q|fixture"
  "torus-dfsssp|dfsssp|$torus|vl|extra"
  "torus-lash|lash|$torus|vl|extra"
  "torus-nue|nue|$torus|nue|extra"
  "ring32-dfsssp|dfsssp|ring --switches 32 --hosts-per-switch 1|vl|extra"
)

usage() {
  cat >&2 <<'EOF'
usage: tests/routing/make_fixtures.sh [SCENARIO...]
       tests/routing/make_fixtures.sh --live OUTDIR [SCENARIO...]
       tests/routing/make_fixtures.sh --list
(see the header of this script)
EOF
  exit 2
}

mode=fixtures
if [ "${1:-}" = "--live" ]; then
  [ $# -ge 2 ] || usage
  out_root=$2
  mode=live
  shift 2
elif [ "${1:-}" = "--list" ]; then
  for s in "${scenarios[@]}"; do echo "${s%%|*} (${s##*|})"; done
  exit 0
elif [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  usage
fi
wanted=("$@")

. "$src/tests/ibsim_lib.bash"
ibsim_need ibsim ibsim-run opensm saquery ibnetdiscover ibdmchk
[ -x "$FL" ] || { echo "make_fixtures.sh: $FL not built" >&2; exit 2; }
ibsim_init routing
work=$ibsim_work
SM_HOST="node0001 mlx5_0" # every generator names its first CA so
SA_HOST="node0002 mlx5_0" # the SA client: any other CA

die() { echo "make_fixtures.sh: $*" >&2; exit 1; }

# guid IDX — node GUID of generated switch IDX (0-based; fabriclint/gen.h:
# FL_GEN_SWITCH_GUID_BASE + IDX + 1).
guid() { printf '0x%016x' $((0x0002c90301000000 + $1 + 1)); }

# torus_conf X Y — torus-2QoS.conf for a generated X x Y torus (Y = 1: a
# ring). Seeds: the links of switch (0,0) in +x/-x (and +y/-y); radix-4
# dimensions need both directions (torus-2QoS.conf(5)), so both are given.
torus_conf() {
  local x=$1 y=$2
  echo "# torus-2QoS configuration of the generated ${x}x${y} torus (switch"
  echo "# (i, j) is node i + j*X of fabriclint gen: GUID base + i + j*X + 1)"
  echo "torus $x $y 1"
  echo "xp_link $(guid 0) $(guid 1)"
  echo "xm_link $(guid 0) $(guid $((x - 1)))"
  if [ "$y" -ge 2 ]; then
    echo "yp_link $(guid 0) $(guid "$x")"
    echo "ym_link $(guid 0) $(guid $(((y - 1) * x)))"
  fi
}

# opt_value NAME "WORDS" — the word after NAME in WORDS.
opt_value() {
  local want=$1 prev="" word
  for word in $2; do
    [ "$prev" = "$want" ] && { echo "$word"; return; }
    prev=$word
  done
}

# osm_conf KIND DUMPDIR LOG EXTRA_OUT CONF — the OpenSM config of one run
# into CONF; the non-default options (paths elided) go to EXTRA_OUT.
osm_conf() {
  local kind=$1 dump=$2 log=$3 opts=$4 conf=$5
  {
    echo "log_flags 0x43"
    echo "force_log_flush TRUE"
    case $kind in
      vl) echo "qos TRUE" ;;
      nue) echo "qos TRUE"; echo "nue_max_num_vls 0" ;;
      t2q) echo "qos TRUE"; echo "torus_config torus-2QoS.conf" ;;
    esac
  } >"$opts"
  ibsim_opensm_conf "$conf" "$log" "$dump" log_flags 0x43 force_log_flush TRUE ||
    die "no OpenSM config"
  case $kind in
    vl) echo "qos TRUE" ;;
    nue) printf 'qos TRUE\nnue_max_num_vls 0\n' ;;
    t2q) printf 'qos TRUE\ntorus_config %s\n' "$dump/../torus-2QoS.conf" ;;
  esac >>"$conf"
}

# clean_log IN OUT — OpenSM log without time stamps, thread ids, pointers.
clean_log() {
  sed -e 's/^[A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]* [0-9]* \[[0-9A-F]*\] //' \
      -e '/osm_vendor_bind: Mgmt class/d' -e '/print_network_node:/d' \
      -e 's/0x7f[0-9a-f]\{10\}/0x(pointer)/g' "$1" >"$2"
}

# ca_table LST — "LID NODEGUID" of every CA port, from opensm-subnet.lst.
ca_table() {
  awk '{
    for (h = 0; h < 2; h++) {
      s = h ? index($0, "} {") + 2 : 1
      rec = substr($0, s)
      if (rec !~ /^\{ CA/) continue
      match(rec, /NodeGUID:[0-9a-f]+/); g = substr(rec, RSTART + 9, RLENGTH - 9)
      match(rec, /LID:[0-9A-F]+/); l = substr(rec, RSTART + 4, RLENGTH - 4)
      print l, "0x" g
    }
  }' "$1" | while read -r hex g; do echo "$((16#$hex)) $g"; done | sort -n -u
}

# ibdmchk_run DIR OUT [ARGS...] — ibdmchk in DIR (relative names keep its
# output free of temporary paths); stdout to OUT; prints the verdict.
ibdmchk_run() {
  local dir=$1 outf=$2
  shift 2
  # The crash on exit is expected: its "Segmentation fault" goes to the log.
  (cd "$dir" && timeout 300 ibdmchk -s opensm-subnet.lst -f opensm.fdbs \
    -m opensm.mcfdbs "$@" >"$outf" 2>>"$work/ibdmchk.err" </dev/null) \
    2>>"$work/ibdmchk.err" || true
  outf=$dir/$outf
  if grep -q -- "-E- credit loops in routing" "$outf"; then
    echo "credit loops"
  elif grep -q -- "-I- no credit loops found" "$outf"; then
    echo "no credit loops"
  elif grep -q -- "Point to Point Traversals Failed" "$outf"; then
    echo "route traversal failed (no loop check ran)"
  else
    echo "no verdict printed"
  fi
}

# run_scenario LINE — everything for one scenario; output into $out_root.
run_scenario() {
  local name engine genargs kind
  IFS='|' read -r name engine genargs kind _ <<<"$1"
  local t0=$SECONDS w=$work/$name o=$work/$name/out
  rm -rf "$w"
  mkdir -p "$w/dump" "$w/daemon" "$o"
  echo "== $name: opensm -R $engine on: fabriclint gen $genargs"

  # shellcheck disable=SC2086 # the generator arguments are a word list
  "$FL" gen $genargs --speed HDR --no-lids --format ibsim -o "$o/fabric.net"

  osm_conf "$kind" "$w/dump" "$w/opensm.log" "$o/opensm-options.txt" \
    "$w/opensm.conf"
  if [ "$kind" = t2q ]; then
    local x y
    case $genargs in
      ring*) x=$(opt_value --switches "$genargs"); y=1 ;;
      *) x=$(opt_value --x "$genargs"); y=$(opt_value --y "$genargs") ;;
    esac
    torus_conf "$x" "$y" >"$w/torus-2QoS.conf"
    cp "$w/torus-2QoS.conf" "$o/torus-2QoS.conf"
  fi

  ibsim_start "$o/fabric.net" "$w/ibsim.log" || die "ibsim did not start on $o/fabric.net"
  local rc=0
  ibsim_opensm "$SM_HOST" "$w" "$w/opensm.out" -o -R "$engine" -F "$w/opensm.conf" || rc=$?
  clean_log "$w/opensm.log" "$o/opensm-log.txt"
  local used
  used=$(ibsim_engine_used "$w/opensm.log")
  [ -n "$used" ] || used="none (no 'tables configured' line in the log)"
  for f in opensm-lfts.dump opensm.fdbs opensm.mcfdbs opensm-subnet.lst \
           opensm-sl2vl.dump opensm-torus.dump; do
    [ -f "$w/dump/$f" ] && cp "$w/dump/$f" "$o/$f"
  done
  if [ ! -f "$o/opensm-lfts.dump" ] || [ ! -f "$o/opensm-subnet.lst" ]; then
    die "$name: OpenSM wrote no dumps (exit $rc)"
  fi

  SIM_HOST="$SM_HOST" timeout 300 ibsim-run ibnetdiscover \
    >"$o/topology.ibnetdiscover"

  # ---- path SLs from a second OpenSM that stays up --------------------------
  local psl_note="none: $engine gives every path SL 0 (no per-path SLs)" daemon_lfts="-"
  case $engine in
    lash | dfsssp | nue | torus-2QoS)
      sed -e "s#$w/dump/#$w/daemon/#" -e "s#^log_file .*#log_file $w/daemon.log#" \
        "$w/opensm.conf" >"$w/opensm-daemon.conf"
      ibsim_opensm_start "$SM_HOST" "$w" "$w/daemon.out" -R "$engine" -F "$w/opensm-daemon.conf"
      local up=0
      for _ in $(seq 1 600); do
        grep -q "SUBNET UP" "$w/daemon.log" 2>/dev/null && { up=1; break; }
        kill -0 "$ibsim_osm_pid" 2>/dev/null || break
        sleep 0.1
      done
      [ "$up" = 1 ] || die "$name: the second OpenSM did not reach SUBNET UP"
      if cmp -s "$w/daemon/opensm-lfts.dump" "$o/opensm-lfts.dump"; then
        daemon_lfts="identical to the -o run's opensm-lfts.dump"
      else
        daemon_lfts="DIFFERENT from the -o run's opensm-lfts.dump"
      fi
      ca_table "$o/opensm-subnet.lst" >"$w/cas"
      local first_lid
      first_lid=$(head -1 "$w/cas" | cut -d' ' -f1)
      : >"$o/path-sl.psl"
      : >"$o/path-records.saquery"
      local slid sguid dlid rec sl
      while read -r slid sguid; do
        while read -r dlid _; do
          [ "$slid" = "$dlid" ] && continue
          rec=$(SIM_HOST="$SA_HOST" timeout 30 ibsim-run saquery -p \
            --slid "$slid" --dlid "$dlid" 2>>"$w/saquery.err") || true
          sl=$(sed -n 's/^[[:space:]]*sl\.*0x\([0-9a-fA-F]*\)$/\1/p' <<<"$rec" | sed -n 1p)
          [ -n "$sl" ] || die "$name: no PathRecord for $slid -> $dlid"
          echo "$sguid $dlid $((16#$sl))" >>"$o/path-sl.psl"
          [ "$slid" = "$first_lid" ] && echo "$rec" >>"$o/path-records.saquery"
        done <"$w/cas"
      done <"$w/cas"
      ibsim_opensm_stop
      psl_note="saquery -p --slid S --dlid D per CA pair, from a second OpenSM ($engine, no -o) on the configured subnet"
      ;;
  esac
  ibsim_stop

  # ---- ibdmchk ---------------------------------------------------------------
  local args=() verdict blind="-"
  [ -f "$o/path-sl.psl" ] && args+=(-c path-sl.psl)
  [ -f "$o/opensm-sl2vl.dump" ] && args+=(-d opensm-sl2vl.dump)
  verdict=$(ibdmchk_run "$o" ibdmchk.txt "${args[@]}")
  if [ ${#args[@]} -gt 0 ]; then
    blind=$(ibdmchk_run "$o" ibdmchk-vl-blind.txt)
  fi

  {
    echo "scenario: $name"
    echo "fabric: fabriclint gen $genargs --speed HDR --no-lids --format ibsim"
    echo "engine-requested: $engine"
    echo "engine-used: $used"
    echo "opensm-exit-status: $rc"
    echo "opensm-command: ibsim-run opensm -o -R $engine -F opensm.conf (options changed from the defaults: opensm-options.txt)"
    echo "sm-port: $SM_HOST port 1"
    echo "path-sl-source: $psl_note"
    echo "daemon-lfts: $daemon_lfts"
    echo "ibdmchk-command: ibdmchk -s opensm-subnet.lst -f opensm.fdbs -m opensm.mcfdbs${args[*]:+ ${args[*]}}"
    echo "ibdmchk-verdict: $verdict"
    echo "ibdmchk-vl-blind-verdict: $blind"
  } >"$o/engine.txt"

  mkdir -p "$out_root"
  rm -rf "${out_root:?}/$name"
  mv "$o" "$out_root/$name"
  printf '%-40s %4d s  engine %-11s used %-11s ibdmchk: %s%s\n' "$name" \
    $((SECONDS - t0)) "$engine" "$used" "$verdict" \
    "$([ "$blind" = - ] || echo " (VL-blind: $blind)")" | tee -a "$work/timing"
}

selected=0
for s in "${scenarios[@]}"; do
  name=${s%%|*}
  if [ ${#wanted[@]} -eq 0 ]; then
    [ "$mode" = live ] || [ "${s##*|}" = fixture ] || continue
  else
    hit=0
    for w in "${wanted[@]}"; do [ "$w" = "$name" ] && hit=1; done
    [ "$hit" = 1 ] || continue
  fi
  selected=$((selected + 1))
  run_scenario "$s"
done
[ "$selected" -gt 0 ] || die "no scenario matches: ${wanted[*]} (see --list)"

total=$((SECONDS - start))
if [ "$mode" = fixtures ] && [ ${#wanted[@]} -eq 0 ]; then
  { echo "# make_fixtures.sh run times (s) on $(nproc) CPUs; total $total s"
    cat "$work/timing"; } >"$out_root/TIMING"
fi
echo "make_fixtures.sh: $selected scenario(s) into $out_root in $total s"
