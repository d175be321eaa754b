#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/pfc_deadlock.sh — lossless-Ethernet (PFC) deadlock rules
# (deadlock.pfc-cycle, deadlock.pfc-failure-valley; core/analysis/pfc.c).
# Hand-checked cases:
#   - the 2-rail RoCE case (2 spines, 2 leaves): healthy ECMP is valley-free,
#     no cycle. If leaf-r0 - spine1 fails, spine1 reaches leaf-r0 only down
#     through leaf-r1 and up through spine2: one valley turn
#     spine1 -> leaf-r1 -> spine2 toward leaf-r0, no cycle (a second valley
#     would be needed). Same for each of the 4 leaf-spine links.
#   - a ring of 5 switches with hosts (`fabriclint gen ring`): shortest
#     paths toward each switch go 2 hops around; the turns
#     x(i+2) -> x(i+1) -> x(i) chain into one cycle of all 5 switches.
#   - InfiniBand fabrics (LIDs, IB speeds, or nothing that says Ethernet) are
#     left to deadlock.credit-loop unless lossless=on.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
c=$src/tests/data/cases/roce
rules() { jget "$TMP/out" "=' '.join(sorted(f['rule'] for f in d['findings']))"; }

# healthy RoCE fabric: nothing, with the default rules and the opt-in one
expect_rc 0 "$FL" check --format json --rules deadlock.pfc-cycle "$c/lldp"
expect_eq "$(rules)" "" "healthy: no cycle"
expect_rc 0 "$FL" check --format json --rules deadlock.pfc-failure-valley "$c/lldp"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 4 "one finding per leaf-spine link"
expect_eq "$(jget "$TMP/out" "=sorted(tuple(f['evidence']['failed_link']) for f in d['findings'])")" \
  "[('\"leaf-r0\" Ethernet1/31', '\"spine1\" Ethernet1/1'), ('\"leaf-r0\" Ethernet1/32', '\"spine2\" Ethernet1/1'), ('\"leaf-r1\" Ethernet1/31', '\"spine1\" Ethernet1/2'), ('\"leaf-r1\" Ethernet1/32', '\"spine2\" Ethernet1/2')]" \
  "failed links"
expect_eq "$(jget "$TMP/out" "=[(f['evidence']['valley'], f['evidence']['valley_turns'], f['evidence']['cycle'], f['severity']) for f in d['findings'] if f['evidence']['failed_link'][1] == '\"spine1\" Ethernet1/1']")" \
  "[({'destination': 'leaf-r0', 'from': 'spine1', 'to': 'spine2', 'via': 'leaf-r1'}, 1, False, 'warning')]" \
  "the valley after leaf-r0 - spine1 fails"
expect_rc 0 "$FL" check --rules deadlock.pfc-failure-valley "$c/lldp"
expect_grep "$TMP/out" 'if the link "leaf-r0" Ethernet1/31 - "spine1" Ethernet1/1 fails, .*"spine1" sends traffic for "leaf-r0" down to "leaf-r1" Ethernet1/31 and on up to "spine2" Ethernet1/2 \(1 valley turn\(s\)\); no dependency cycle results.*Checked 4 of 4 link failures.* \[deadlock.pfc-failure-valley\]$'
expect_rc 0 "$FL" check --format json --param deadlock.pfc-failure-valley.max-failures=1 \
  --rules deadlock.pfc-failure-valley "$c/lldp"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 1 "max-failures=1"

# a 5-switch ring: one cycle through every switch
"$FL" gen ring --switches 5 --speed 400G --width 1x --no-lids -o "$TMP/ring5.xml" || fail "gen ring"
expect_rc 1 "$FL" check --format json --rules deadlock.pfc-cycle "$TMP/ring5.xml"
expect_eq "$(rules)" "deadlock.pfc-cycle" "ring: the cycle"
expect_eq "$(jget "$TMP/out" "=d['findings'][0]['evidence']['length']")" 5 "cycle length"
expect_eq "$(jget "$TMP/out" "=sorted(d['findings'][0]['nodes'])")" \
  "['sw-x00', 'sw-x01', 'sw-x02', 'sw-x03', 'sw-x04']" "cycle switches"
# each dependency of the cycle continues where the previous one ends
expect_eq "$(jget "$TMP/out" "=all(t['via'] == d['findings'][0]['evidence']['cycle'][i - 1]['to'] and t['from'] == d['findings'][0]['evidence']['cycle'][i - 1]['via'] for i, t in enumerate(d['findings'][0]['evidence']['cycle']))")" \
  True "cycle closes"

# no hosts (F1 of docs/real-fabrics.md): the leaves are the destinations, never
# the spines. A 2-spine x 3-leaf Clos has no cycle, written from either side;
# before, every switch was a destination and spine-to-spine routes through a
# leaf closed a false cycle. A host-less ring still has one: 6 switches
# (bipartite: every other switch is a destination), 5 (not bipartite: all).
p=$src/tests/data/cases/pfc
for side in spine leaf; do
  expect_rc 0 "$FL" check --format json --rules deadlock.pfc-cycle "$p/clos-hostless-$side-side.xml"
  expect_eq "$(rules)" "" "host-less Clos ($side side): no cycle"
  expect_rc 0 "$FL" check --format json --rules deadlock.pfc-failure-valley "$p/clos-hostless-$side-side.xml"
  expect_eq "$(jget "$TMP/out" "=(len(d['findings']), sorted({f['evidence']['valley']['destination'] for f in d['findings']}), sorted({f['evidence']['valley']['via'] for f in d['findings']}))")" \
    "(6, ['leaf1', 'leaf2', 'leaf3'], ['leaf1', 'leaf2'])" "host-less Clos ($side side): valleys toward leaves, through leaves"
done
expect_rc 1 "$FL" check --format json --rules deadlock.pfc-cycle "$p/ring6-hostless.xml"
expect_eq "$(jget "$TMP/out" "=(d['findings'][0]['evidence']['length'], sorted(d['findings'][0]['nodes']), sorted({t['destination'] for t in d['findings'][0]['evidence']['cycle']}))")" \
  "(6, ['sw0', 'sw1', 'sw2', 'sw3', 'sw4', 'sw5'], ['sw0', 'sw2', 'sw4'])" "host-less ring of 6: the cycle"
expect_rc 1 "$FL" check --format json --rules deadlock.pfc-cycle "$p/ring5-hostless.xml"
expect_eq "$(jget "$TMP/out" "=(d['findings'][0]['evidence']['length'], len({t['destination'] for t in d['findings'][0]['evidence']['cycle']}))")" \
  "(5, 5)" "host-less ring of 5: the cycle"

# only a failure that leaves a switch without a next hop toward a
# destination changes routes (mutant pfc-only-hop): on a line leaf1 - spine1
# = leaf2 - spine2 - leaf3 with two spine1 = leaf2 cables, losing leaf1's or
# leaf3's cable isolates it and leaves the healthy valleys at leaf2 (2 turns:
# one per parallel cable); losing one parallel cable or leaf2 - spine2
# changes nothing that can add a valley: no finding
expect_rc 0 "$FL" check --format json --rules deadlock.pfc-failure-valley "$p/line-double-cable.xml"
expect_eq "$(jget "$TMP/out" "=sorted((f['evidence']['failed_link'], f['evidence']['valley_turns']) for f in d['findings'])")" \
  "[(['\"leaf1\" Ethernet1/49', '\"spine1\" Ethernet1/1'], 2), (['\"leaf3\" Ethernet1/49', '\"spine2\" Ethernet1/3'], 2)]" \
  "parallel cables: only the two single-homed leaves' cables"
# a valley is a turn with BOTH ends above the switch (mutant pfc-valley-or):
# in the 3-tier fabric, losing an agg-core link sends that core's traffic
# for the agg's leaf down through the other agg and up again (1 valley
# turn); the other leaf's traffic climbing through that agg is an up turn
expect_rc 0 "$FL" check --format json --rules deadlock.pfc-failure-valley "$p/three-tier.xml" "$p/three-tier-tiers.csv"
expect_eq "$(jget "$TMP/out" "=sorted((f['evidence']['failed_link'][0], f['evidence']['failed_link'][1], f['evidence']['valley_turns'], f['evidence']['valley']['via']) for f in d['findings'])")" \
  "[('\"agg-d\" Ethernet1/49', '\"core1\" Ethernet1/1', 1, 'agg-e'), ('\"agg-d\" Ethernet1/50', '\"core2\" Ethernet1/1', 1, 'agg-e'), ('\"agg-e\" Ethernet1/49', '\"core1\" Ethernet1/2', 1, 'agg-d'), ('\"agg-e\" Ethernet1/50', '\"core2\" Ethernet1/2', 1, 'agg-d')]" \
  "3 tiers: one valley turn per agg-core failure"

# InfiniBand: not analysed unless asked
"$FL" gen ring --switches 5 -o "$TMP/ring5-ib.xml" || fail "gen ring (IB)"
expect_rc 0 "$FL" check --format json --rules 'deadlock.pfc*' "$TMP/ring5-ib.xml"
expect_eq "$(rules)" "" "IB ring, lossless=auto"
expect_rc 1 "$FL" check --format json --param deadlock.lossless=on --rules deadlock.pfc-cycle "$TMP/ring5-ib.xml"
expect_eq "$(rules)" "deadlock.pfc-cycle" "IB ring, lossless=on"
# InfiniBand plans without speeds or LIDs (F8 of docs/real-fabrics.md): a UFM
# NDT (`Blade 1_Port 1/2`) and an ibdm .topo (`P2`) label their ports, which
# is no evidence of Ethernet; before, labelled ports without LIDs were taken
# as Ethernet. Only Ethernet interface names (Ethernet1/1, swp1, e0b...) are.
for f in ring5.ndt ring5.topo; do
  expect_rc 0 "$FL" check --format json --rules 'deadlock.pfc*' "$p/$f"
  expect_eq "$(rules)" "" "$f: InfiniBand plan, lossless=auto"
  expect_rc 1 "$FL" check --format json --param deadlock.lossless=on --rules deadlock.pfc-cycle "$p/$f"
  expect_eq "$(jget "$TMP/out" "=(d['findings'][0]['rule'], d['findings'][0]['evidence']['length'])")" \
    "('deadlock.pfc-cycle', 5)" "$f: lossless=on"
done
expect_rc 2 "$FL" check --param deadlock.lossless=maybe --rules deadlock.pfc-cycle "$TMP/ring5.xml"
expect_grep "$TMP/err" 'lossless.*expected auto, on or off'
finish
