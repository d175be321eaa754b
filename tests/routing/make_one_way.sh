#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/routing/make_one_way.sh — real OpenSM LFTs with a one-directional
# credit loop (issue 31): a 3-switch ring whose every switch forwards each
# LID that is not its own (nor its own CA's) on the same port, clockwise
# (port 2, toward the next switch) or counter-clockwise (port 3, toward the
# previous one). No OpenSM engine routes a 3-ring that way (every engine
# takes the one-hop path), so the tables are handed to OpenSM's own "file"
# routing engine (`opensm -R file -U FILE`), which loads them, programs
# them into the simulated switches, and dumps what it programmed:
#   1. `fabriclint gen ring --switches 3 --hosts-per-switch 1` as an ibsim
#      net file; ibsim; one `opensm -o -R minhop` run to learn the LIDs
#      OpenSM assigns (the same on every run: discovery order);
#   2. its opensm-lfts.dump rewritten: every line whose port is neither 000
#      (the switch itself) nor 001 (its CA) gets port 002 (cw) or 003 (ccw)
#      -> lfts-input.dump (the file given to -U);
#   3. `opensm -o -R file -U lfts-input.dump`: the log must say "file tables
#      configured"; its opensm-lfts.dump (what the switches hold) and
#      `ibnetdiscover` are the fixture.
# Output: tests/fixtures/routing/ring3-one-way-{cw,ccw}/ with fabric.net,
# topology.ibnetdiscover, lfts-input.dump, opensm-lfts.dump, opensm.fdbs,
# opensm-subnet.lst, opensm-log.txt, engine.txt.
# Needs: ibsim, ibsim-run (ibsim-utils), opensm, ibnetdiscover; a built
# fabriclint (FL=path, default build/fabriclint). About 10 s.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
FL=${FL:-$src/build/fabriclint}
out_root=$src/tests/fixtures/routing
. "$src/tests/ibsim_lib.bash"
ibsim_need ibsim ibsim-run opensm ibnetdiscover
[ -x "$FL" ] || { echo "make_one_way.sh: $FL not built" >&2; exit 2; }
ibsim_init oneway
work=$ibsim_work
SM_HOST="node0001 mlx5_0"
die() { echo "make_one_way.sh: $*" >&2; exit 1; }

clean_log() { # the same as make_fixtures.sh: no time stamps, thread ids
  sed -e 's/^[A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]* [0-9]* \[[0-9A-F]*\] //' \
      -e '/osm_vendor_bind: Mgmt class/d' -e '/print_network_node:/d' \
      -e 's/0x7f[0-9a-f]\{10\}/0x(pointer)/g' "$1" >"$2"
}

# osm_run DIR ARGS... — one `opensm -o ARGS` with routing dumps into DIR/dump.
osm_run() {
  local d=$1
  shift
  mkdir -p "$d/dump"
  ibsim_opensm_conf "$d/opensm.conf" "$d/opensm.log" "$d/dump" \
    log_flags 0x43 force_log_flush TRUE || die "no OpenSM config"
  ibsim_opensm "$SM_HOST" "$d" "$d/opensm.out" -o -F "$d/opensm.conf" "$@"
}

"$FL" gen ring --switches 3 --hosts-per-switch 1 --speed HDR --no-lids \
  --format ibsim -o "$work/fabric.net"
ibsim_start "$work/fabric.net" "$work/ibsim.log" || die "ibsim did not start"
osm_run "$work/minhop" -R minhop || die "opensm -R minhop failed"
for dir in cw ccw; do
  port=002
  [ $dir = ccw ] && port=003
  d=$work/$dir o=$out_root/ring3-one-way-$dir
  mkdir -p "$d" "$o"
  awk -v p=$port '/^0x[0-9a-f]+ [0-9][0-9][0-9] #/ && $2 != "000" && $2 != "001" { $2 = p } { print }' \
    "$work/minhop/dump/opensm-lfts.dump" >"$o/lfts-input.dump"
  rc=0
  osm_run "$d" -R file -U "$o/lfts-input.dump" || rc=$?
  used=$(ibsim_engine_used "$d/opensm.log")
  [ "$used" = file ] || die "$dir: the file engine did not route (used: '$used', exit $rc)"
  for f in opensm-lfts.dump opensm.fdbs opensm-subnet.lst; do
    cp "$d/dump/$f" "$o/$f"
  done
  clean_log "$d/opensm.log" "$o/opensm-log.txt"
  cp "$work/fabric.net" "$o/fabric.net"
  SIM_HOST="$SM_HOST" timeout 300 ibsim-run ibnetdiscover >"$o/topology.ibnetdiscover"
  {
    echo "scenario: ring3-one-way-$dir (made by tests/routing/make_one_way.sh)"
    echo "fabric: fabriclint gen ring --switches 3 --hosts-per-switch 1 --speed HDR --no-lids --format ibsim"
    echo "lfts: minhop's LIDs, every LID not the switch's own or its CA's on port $port ($dir)"
    echo "engine-requested: file"
    echo "engine-used: $used"
    echo "opensm-exit-status: $rc"
    echo "opensm-command: ibsim-run opensm -o -R file -U lfts-input.dump -F opensm.conf (log_flags 0x43, force_log_flush TRUE)"
    echo "expected: one credit loop, the three ring cables toward port $port"
  } >"$o/engine.txt"
  if cmp -s <(grep '^0x' "$o/lfts-input.dump") <(grep '^0x' "$o/opensm-lfts.dump"); then
    echo "== $dir: OpenSM programmed the given tables"
  else
    die "$dir: OpenSM's dump differs from the tables it was given"
  fi
done
ibsim_stop
