#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/routing_live.sh — deadlock verdicts on routing made live, now, by
# the real tools (ibsim + OpenSM), not only on the committed fixtures.
#
# Two quick scenarios of tests/routing/make_fixtures.sh, run the same way
# (fabriclint gen --format ibsim; ibsim; `ibsim-run opensm -o -R ENGINE`
# with log_flags 0x43 so that OpenSM writes its dump files; ibnetdiscover):
#   ring-minhop           ring of 6 switches, minhop: credit loops (2, one
#                         per direction), each cycle re-verified against the
#                         live LFT dump by tests/cli/verify_cycle.py
#   fat-tree-3tier-ftree  radix-4 3-tier fat tree, 8 hosts, ftree: none
# Checked per scenario: OpenSM exits 0 and its log says the requested engine
# configured the tables (no silent fallback to minhop); ibnetdiscover sees
# every switch and CA of the net file; fabriclint's verdict (number of
# credit loops, VL-blind, exit status) on topology.ibnetdiscover +
# opensm-lfts.dump and on opensm-subnet.lst + opensm.fdbs; the live LFT
# dump equals the committed fixture (OpenSM's LIDs and routes are
# deterministic, so a difference means the fixtures are stale: rerun
# tests/routing/make_fixtures.sh).
#
# make_fixtures.sh --live OUTDIR SCENARIO... could produce these dumps, but
# it also requires and runs ibdmchk (which writes /var/cache/ibutils/) and
# saquery; this test needs neither, so it repeats the live steps itself.
#
# Skips (exit 77, a ctest SKIP, "SKIP: reason") when ibsim, ibsim-run, opensm or
# ibnetdiscover is not installed. Everything is written under the test's
# temporary folder: OpenSM's config, log, cache (OSM_CACHE_DIR/OSM_TMP_DIR)
# and dumps; ibsim listens on a private socket name. ibsim and OpenSM are
# always stopped (trap on exit and signals). Takes about 2 s.
. "$(dirname "$0")/lib.bash"
set -o pipefail
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}
FX=$FL_SRC/tests/fixtures/routing

. "$(dirname "$0")/../ibsim_lib.bash"
ibsim_name=routing_live
ibsim_need --skip ibsim ibsim-run opensm ibnetdiscover
[ -x "$FL" ] || { echo "routing_live: $FL not built" >&2; exit 1; }
ibsim_init routinglive "$TMP"
ibsim_timeout=60
SM_HOST="node0001 mlx5_0" # every generator names its first CA so

# live NAME ENGINE GENARGS — simulate, route, discover; dumps in $TMP/NAME/.
# Returns non-zero (after a fail) when a step did not produce its output.
live() {
  local name=$1 engine=$2 genargs=$3 d=$TMP/$1 i
  mkdir -p "$d/dump"
  # shellcheck disable=SC2086 # the generator arguments are a word list
  "$FL" gen $genargs --speed HDR --no-lids --format ibsim -o "$d/fabric.net" ||
    { fail "$name: fabriclint gen $genargs"; return 1; }
  if ! ibsim_opensm_conf "$d/opensm.conf" "$d/opensm.log" "$d/dump" \
    log_flags 0x43 force_log_flush TRUE; then
    fail "$name: no OpenSM config"
    return 1
  fi
  if ! ibsim_start "$d/fabric.net" "$d/ibsim.log"; then
    fail "$name: ibsim did not start"
    return 1
  fi

  local rc=0
  ibsim_opensm "$SM_HOST" "$d" "$d/opensm.out" -o -R "$engine" -F "$d/opensm.conf" || rc=$?
  expect_eq "$rc" 0 "$name: opensm -o -R $engine exit status"
  expect_eq "$(ibsim_engine_used "$d/opensm.log")" "$engine" "$name: engine that configured the tables"

  SIM_HOST="$SM_HOST" timeout 60 ibsim-run ibnetdiscover \
    >"$d/dump/topology.ibnetdiscover" 2>"$d/ibnetdiscover.err" ||
    fail "$name: ibnetdiscover: $(tail -3 "$d/ibnetdiscover.err")"
  ibsim_stop

  local want got f
  for f in opensm-lfts.dump opensm.fdbs opensm-subnet.lst topology.ibnetdiscover; do
    [ -s "$d/dump/$f" ] || { fail "$name: no $f written"; return 1; }
  done
  pass
  # every switch and CA of the net file was discovered
  want=$(sed -n 's/^# ibsim net file written by fabriclint: \([0-9]*\) switches, \([0-9]*\) CAs.*/\1 \2/p' "$d/fabric.net")
  got="$(grep -c '^Switch' "$d/dump/topology.ibnetdiscover") $(grep -c '^Ca' "$d/dump/topology.ibnetdiscover")"
  expect_eq "$got" "$want" "$name: switches and CAs discovered"
}

# verdict NAME LOOPS — fabriclint on both input pairs of the live dumps.
verdict() {
  local name=$1 want=$2 d=$TMP/$1/dump rc_want=0 pair
  [ "$want" = 0 ] || rc_want=1
  for pair in "topology.ibnetdiscover opensm-lfts.dump" "opensm-subnet.lst opensm.fdbs"; do
    # shellcheck disable=SC2086 # the pair is two file names
    set -- $pair
    expect_rc "$rc_want" "$FL" check --rules 'deadlock.*' --format json "$d/$1" "$d/$2"
    cp "$TMP/out" "$TMP/$name.json"
    expect_eq "$(jget "$TMP/$name.json" "=len([f for f in d['findings'] if f['rule'] == 'deadlock.credit-loop'])")" \
      "$want" "$name: credit loops on $pair"
    expect_eq "$(jget "$TMP/$name.json" "=[f['evidence']['vl_aware'] for f in d['findings'] if f['rule'] == 'deadlock.verdict'][0]")" \
      False "$name: vl_aware on $pair"
    if [ "$want" != 0 ]; then
      if python3 "$FL_SRC/tests/cli/verify_cycle.py" "$TMP/$name.json" "$d/opensm-lfts.dump" \
        >"$TMP/verify" 2>&1; then pass
      else fail "$name: cycle does not verify against the live LFTs ($pair): $(tail -3 "$TMP/verify")"; fi
    fi
  done
  # the committed fixture is what OpenSM produces today
  if cmp -s "$d/opensm-lfts.dump" "$FX/$name/opensm-lfts.dump"; then pass
  else fail "$name: live opensm-lfts.dump differs from $FX/$name (rerun tests/routing/make_fixtures.sh $name)"; fi
}

if live ring-minhop minhop "ring --switches 6 --hosts-per-switch 1"; then
  verdict ring-minhop 2
fi
if live fat-tree-3tier-ftree ftree "fat-tree --radix 4 --tiers 3 --hosts 8"; then
  verdict fat-tree-3tier-ftree 0
fi
finish
