#!/usr/bin/env bash
# tests/data/counters/make.sh — port-counter captures made by the real tools
# (issue #18): ibsim simulates a plan, OpenSM assigns LIDs, ibsim's
# `PerformanceSet` console command (ibsim/sim_cmd.c, listed by its `help`)
# sets counters, and perfquery / ibqueryerrors read them through the PMA,
# exactly as on a cluster.
#
# The fabric: `fabriclint gen fat-tree --radix 8 --tiers 2` (8 leaves, 4
# spines, 32 hosts), every cable numbered C-001.. in the plan (plan.xml),
# and one leaf-spine cable left out of both the plan and the simulation
# (leaf-p01-08 port 8 <-> spine-p01-04 port 8: the spine port is reserved),
# so the ECMP model predicts the three remaining links into leaf-p01-08 hot.
# Counters set (ibsim PerformanceSet), two snapshots 2 s apart:
#   leaf-p01-02 port 6 (cable C-044 to spine-p01-02 port 2)
#        SymbolErrorCounter 17, then 57
#   spine-p01-01 port 8 (-> leaf-p01-08 port 5, predicted hot)
#        PortXmitWait 123456, then 523456
#   leaf-p01-01 port 5, spine-p01-03 port 1: PortXmitWait 3000 (background
#        noise below the congestion share)
#
# Written here (the timestamps of the two captures are wall-clock):
#   plan.xml                   the plan with cable ids (gen + scripted ids)
#   fabric.net                 the ibsim net file simulated
#   asbuilt.ibnetdiscover      ibnetdiscover after opensm -o
#   ibqueryerrors-{1,2}.txt    `# captured <time>` + ibqueryerrors --skip-sl
#   ibqueryerrors-details.txt  ibqueryerrors --skip-sl --details --data -r
#   perfquery-{1,2}.txt        `# captured <time>` + perfquery -a -l and
#                              perfquery -x -a -l for every switch LID
#   degraded.ibnetdiscover, degraded-ibqueryerrors.txt
#                              a second run with one leaf-spine cable at 1x
#                              and a few errors on it (see the end)
#   pm-2.pm, prom-2.prom       snapshot 2 rewritten in the ibdiagnet2.pm and
#                              infiniband_exporter layouts by
#                              counters_convert.py: HAND-WRITTEN in the sense
#                              of the house rules (neither ibdiagnet nor the
#                              Go exporter runs here); the values are the
#                              real perfquery ones
#
# Usage: tests/data/counters/make.sh [OUTDIR]   (FL=path/to/fabriclint;
#   OUTDIR defaults to this folder; tests/cli/health_live.sh writes to a
#   temporary one)
# Needs: ibsim, ibsim-run, opensm, ibnetdiscover, perfquery, ibqueryerrors,
#        python3. Takes about 10 s.
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
FL=${FL:-$src/../../../build/fabriclint}
here=${1:-$src}
mkdir -p "$here"
. "$src/../../ibsim_lib.bash"
ibsim_need ibsim ibsim-run opensm ibnetdiscover perfquery ibqueryerrors python3
ibsim_init ctr
ibsim_timeout=60
work=$ibsim_work
export SIM_HOST="node0001 mlx5_0"

gen="fat-tree --radix 8 --tiers 2 --speed HDR"
# shellcheck disable=SC2086
"$FL" gen $gen -o "$work/plan-full.xml"
# shellcheck disable=SC2086
"$FL" gen $gen --no-lids --format ibsim -o "$work/full.net"
python3 - "$work/plan-full.xml" "$here/plan.xml" "$work/full.net" "$here/fabric.net" <<'EOF'
import re, sys
plan, out, net, netout = sys.argv[1:5]
n = 0
lines = []
for line in open(plan):
    if '<link ' in line:
        if 'a="leaf-p01-08" a-port="8" b="spine-p01-04" b-port="8"' in line:
            continue  # the reserved spine port: not cabled
        n += 1
        line = line.replace('/>', ' cable="C-%03d"/>' % n, 1)
    lines.append(line)
open(out, 'w').write(''.join(lines))
cur = None
res = []
for line in open(net):
    m = re.match(r'Switch\s+\d+ "([^"]+)"', line)
    if m:
        cur = m.group(1)
    if (cur == 'leaf-p01-08' and line.startswith('[8]\t"spine-p01-04"[8]')) or \
       (cur == 'spine-p01-04' and line.startswith('[8]\t"leaf-p01-08"[8]')):
        continue
    res.append(line)
open(netout, 'w').write(''.join(res))
EOF

# simulate NET — (re)start ibsim on NET, let OpenSM assign LIDs once
simulate() {
  ibsim_start "$1" "$work/ibsim.log" console || exit 1
  ibsim_opensm "$SIM_HOST" "$work" "$work/osm.out" -o -F "$work/osm.conf"
}

ibsim_opensm_conf "$work/osm.conf" "$work/opensm.log" "$work"
simulate "$here/fabric.net"
timeout 60 ibsim-run ibnetdiscover >"$here/asbuilt.ibnetdiscover"

perf() { # perf "node"[port] Attr.Field=value
  ibsim_console "PerformanceSet $*" || { echo "make.sh: ibsim console closed" >&2; exit 1; }
}
capture() { # capture N — both captures of snapshot N
  local t lids l
  t=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  # ibqueryerrors exits with the number of bad ports: its summary is checked
  { echo "# captured $t"; timeout 60 ibsim-run ibqueryerrors --skip-sl || true; } >"$here/ibqueryerrors-$1.txt"
  grep -q '^## Summary' "$here/ibqueryerrors-$1.txt"
  lids=$(sed -n 's/^Switch.*# ".*" base port 0 lid \([0-9]*\) .*/\1/p' "$here/asbuilt.ibnetdiscover")
  { echo "# captured $t"
    for l in $lids; do
      timeout 60 ibsim-run perfquery -a -l "$l"
      timeout 60 ibsim-run perfquery -x -a -l "$l"
    done; } >"$here/perfquery-$1.txt"
}
perf '"leaf-p01-02"[6] PortCounters.SymbolErrorCounter=17'
perf '"spine-p01-01"[8] PortCounters.PortXmitWait=123456'
perf '"leaf-p01-01"[5] PortCounters.PortXmitWait=3000'
perf '"spine-p01-03"[1] PortCounters.PortXmitWait=3000'
sleep 0.5
capture 1
sleep 2
perf '"leaf-p01-02"[6] PortCounters.SymbolErrorCounter=57'
perf '"spine-p01-01"[8] PortCounters.PortXmitWait=523456'
sleep 0.5
capture 2
timeout 60 ibsim-run ibqueryerrors --skip-sl --details --data -r >"$here/ibqueryerrors-details.txt" || true
grep -q '^## Summary' "$here/ibqueryerrors-details.txt"
grep -c "has been set" "$work/ibsim.log" | grep -qx 6 || { echo "make.sh: PerformanceSet did not take" >&2; tail "$work/ibsim.log" >&2; exit 1; }

# A second run: leaf-p01-03 port 5 <-> spine-p01-01 port 3 trained at 1x
# (ibsim takes the width of the net file's comment, as fabrics/regen.sh's
# rail-su-asbuilt) with 3 symbol errors on the leaf end and one link error
# recovery on the spine end: below the link-errors thresholds, a degraded
# and erroring cable.
sed -e '/^Switch.*"leaf-p01-03"/,/^$/s/^\(\[5\]\t"spine-p01-01"\[3\].*\)4xHDR$/\11xHDR/' \
    -e '/^Switch.*"spine-p01-01"/,/^$/s/^\(\[3\]\t"leaf-p01-03"\[5\].*\)4xHDR$/\11xHDR/' \
    "$here/fabric.net" >"$work/degraded.net"
[ "$(grep -c '1xHDR$' "$work/degraded.net")" -eq 2 ] || { echo "make.sh: degraded edit failed" >&2; exit 1; }
simulate "$work/degraded.net"
timeout 60 ibsim-run ibnetdiscover >"$here/degraded.ibnetdiscover"
perf '"leaf-p01-03"[5] PortCounters.SymbolErrorCounter=3'
perf '"spine-p01-01"[3] PortCounters.LinkErrorRecoveryCounter=1'
sleep 0.5
{ echo "# captured $(date -u +%Y-%m-%dT%H:%M:%SZ)"; timeout 60 ibsim-run ibqueryerrors --skip-sl || true; } >"$here/degraded-ibqueryerrors.txt"
grep -q '^## Summary' "$here/degraded-ibqueryerrors.txt"
grep -c "has been set" "$work/ibsim.log" | grep -qx 2 || { echo "make.sh: PerformanceSet did not take (degraded run)" >&2; exit 1; }

python3 "$src/counters_convert.py" "$here/perfquery-2.txt" "$here/asbuilt.ibnetdiscover" \
  "$here/pm-2.pm" "$here/prom-2.prom"
echo "make.sh: wrote $(ls "$here" | wc -l) files in $here"
