#!/usr/bin/env bash
# tests/data/counters/make-reboots.sh — port counters of host reboots, made
# by the real tools (as make.sh: ibsim simulates fabric.net, OpenSM assigns
# LIDs, ibsim's PerformanceSet sets counters, perfquery reads every switch
# AND every CA port through the PMA). A host that reboots (or reloads its
# driver) takes its link down: the switch port's LinkDownedCounter counts
# it, the HCA's counters start again from 0. A cable that flaps while the
# host stays up is counted at both ends. Set:
#   leaf-p01-01 ports 1-4 (node0001..0004): LinkDownedCounter 13, the HCA
#        ends untouched (0): the reboot pattern, 4 cables
#   leaf-p01-02 port 1 (node0005): LinkDownedCounter 12, node0005's own 1:
#        the host saw the link drop too: a flapping cable
#   leaf-p01-03 port 1 (node0009): LinkDownedCounter 15 and
#        SymbolErrorCounter 5 (below its threshold, but a physical error)
# Written: reboots.ibnetdiscover, reboots-perfquery.txt (`# captured` +
# perfquery -a -l LID for every switch and CA LID).
# Usage: make-reboots.sh [OUTDIR] (FL=fabriclint). Needs ibsim, ibsim-run,
# opensm, ibnetdiscover, perfquery. About 10 s.
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
here=${1:-$src}
mkdir -p "$here"
. "$src/../../ibsim_lib.bash"
ibsim_need ibsim ibsim-run opensm ibnetdiscover perfquery
ibsim_init rbt
ibsim_timeout=60
work=$ibsim_work
export SIM_HOST="node0001 mlx5_0"
ibsim_opensm_conf "$work/osm.conf" "$work/opensm.log" "$work"
ibsim_start "$src/fabric.net" "$work/ibsim.log" console || exit 1
ibsim_opensm "$SIM_HOST" "$work" "$work/osm.out" -o -F "$work/osm.conf"
timeout 60 ibsim-run ibnetdiscover >"$here/reboots.ibnetdiscover"
perf() { ibsim_console "PerformanceSet $*" || { echo "make-reboots.sh: ibsim console closed" >&2; exit 1; }; }
for p in 1 2 3 4; do perf "\"leaf-p01-01\"[$p] PortCounters.LinkDownedCounter=13"; done
perf '"leaf-p01-02"[1] PortCounters.LinkDownedCounter=12'
perf '"node0005 mlx5_0"[1] PortCounters.LinkDownedCounter=1'
perf '"leaf-p01-03"[1] PortCounters.LinkDownedCounter=15'
perf '"leaf-p01-03"[1] PortCounters.SymbolErrorCounter=5'
sleep 0.5
lids=$(sed -n -e 's/^Switch.*# ".*" base port 0 lid \([0-9]*\) .*/\1/p' \
  -e 's/^\[1\](.*# lid \([0-9]*\) lmc .*/\1/p' "$here/reboots.ibnetdiscover" | sort -un)
{ echo "# captured $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  for l in $lids; do timeout 60 ibsim-run perfquery -a -l "$l"; done; } >"$here/reboots-perfquery.txt"
grep -c "has been set" "$work/ibsim.log" | grep -qx 8 || { echo "make-reboots.sh: PerformanceSet did not take" >&2; tail "$work/ibsim.log" >&2; exit 1; }
