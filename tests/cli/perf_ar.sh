#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/perf_ar.sh — `fabriclint perf --routing ar` (load-aware
# adaptive routing, core/analysis/perf_ar.c; docs/perf.md "Routing")
# against `--routing spray` (the equal split AR used to be), by hand.
#
# Fabric: `gen rail-su --sus 2 --hosts-per-su 4 --rails 4 --leaf-radix 8
# --speed NDR`: 8 hosts, 4 rails, 400 Gb/s cables; each leaf has uplinks on
# ports 5-8 to spine-01..04. One uplink at 1x HDR (50 Gb/s).
# Workload: sendrecv, shift 16 of 32 ranks: every NIC of SU 1 sends to the
# same rail's NIC in SU 2 and back; rail 0 puts 4 flows on the degraded
# leaf's 4 uplinks each way.
#   spray: 1 flow per uplink, 50 Gb/s on the degraded one: busbw 6.25 GB/s,
#     ratio 50 / 400 = 0.125.
#   ar: water-filling 4 flows over 50 : 400 : 400 : 400 Gb/s gives 0.16 and
#     1.28 flows, 312.5 Gb/s each everywhere: busbw 39.0625 GB/s, ratio
#     0.78125; the other leaf sends the 4 flows entering the degraded leaf
#     the same way (spine-01's down port is the bottleneck beyond its port
#     to spine-01), so the down direction carries 0.16 too.
#   A degraded NIC cable (dgx-001 mlx5_0 at 50 Gb/s) has no alternative:
#     ratio 0.125 under ar as under spray.
. "$(dirname "$0")/lib.bash"
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}

expect_rc 0 "$FL" gen rail-su --sus 2 --hosts-per-su 4 --rails 4 --leaf-radix 8 --speed NDR
cp "$TMP/out" "$TMP/rail.xml"
degrade() { # LEAF-OR-HOST-LINK-ATTRS FILE
  expect_eq "$(grep -c -F "$1" "$TMP/rail.xml")" 1 "the cable to degrade"
  sed "s|$1|${1/4x\" speed=\"NDR/1x\" speed=\"HDR}|" "$TMP/rail.xml" >"$2"
  expect_eq "$(grep -c 'width="1x" speed="HDR"' "$2")" 1 "one cable degraded"
}
degrade '<link a="leaf-su01-r0" a-port="5" b="spine-01" b-port="1" width="4x" speed="NDR"/>' "$TMP/su1.xml"
degrade '<link a="leaf-su02-r0" a-port="5" b="spine-01" b-port="5" width="4x" speed="NDR"/>' "$TMP/su2.xml"
degrade '<link a="dgx-001 mlx5_0" a-port="1" b="leaf-su01-r0" b-port="1" width="4x" speed="NDR"/>' "$TMP/nic.xml"

printf 'hosts: all\ncollectives:\n  - {op: sendrecv, shift: 16, bytes: 1073741824}\n' >"$TMP/sr.yaml"
J="=(d['collectives'][0]['routing'], round(d['collectives'][0]['ratio'], 9), round(d['collectives'][0]['busbw_GBps'], 9))"

# both ways round: the degraded uplink in SU 1, then in SU 2
for fab in su1 su2; do
  expect_rc 1 "$FL" perf --format json --routing ar --workload "$TMP/sr.yaml" "$TMP/$fab.xml"
  expect_eq "$(jget "$TMP/out" "$J")" "('ar', 0.78125, 39.0625)" "$fab: ar"
  expect_eq "$(jget "$TMP/out" "=(d['collectives'][0]['ar']['converged'], d['collectives'][0]['ar']['sweeps'])")" "(True, 2)" "$fab: the fixed point"
  leaf=leaf-${fab/su/su0}-r0 sp=$((${fab#su} * 4 - 3))
  expect_eq "$(jget "$TMP/out" "=sorted((b['link'], round(b['flow_count'], 9)) for b in d['collectives'][0]['bottlenecks'] if b['degraded'])")" \
    "[('$leaf port 5 -> spine-01 port $sp', 0.16), ('spine-01 port $sp -> $leaf port 5', 0.16)]" "$fab: the degraded cable carries 0.16 flows each way"
  expect_eq "$(jget "$TMP/out" "=len(d['collectives'][0]['bottlenecks'])")" 14 "$fab: 14 links at 312.5 Gb/s per flow"
  expect_rc 1 "$FL" perf --format json --routing spray --workload "$TMP/sr.yaml" "$TMP/$fab.xml"
  expect_eq "$(jget "$TMP/out" "$J")" "('spray', 0.125, 6.25)" "$fab: spray"
  expect_eq "$(jget "$TMP/out" "='ar' in d['collectives'][0]")" False "$fab: no ar key under spray"
done
# the default without LFTs is ar; the text names it and the cable
expect_rc 1 "$FL" perf --workload "$TMP/sr.yaml" "$TMP/su1.xml"
expect_grep "$TMP/out" '^sendrecv: 1073741824 bytes, 32 ranks \(4 per host\), ar routing$'
expect_grep "$TMP/out" 'ratio 0\.7812$'
expect_grep "$TMP/out" '^  bottleneck leaf-su01-r0 port 5 -> spine-01 port 1: 0\.16 flows share 50 Gb/s \(312\.500 Gb/s each\); the cable runs below its nominal 400 Gb/s$'
expect_grep "$TMP/out" 'busbw is 78\.1% of the ideal \(min-share 90%\); the cable leaf-su01-r0 port 5 -> spine-01 port 1 runs at 50 Gb/s'
expect_eq "$(grep -c 'did not settle' "$TMP/out")" 0 "no note: the split settled"
# min-share at the ratio and just above it
expect_rc 0 "$FL" perf --min-share 0.78125 --workload "$TMP/sr.yaml" "$TMP/su1.xml"
expect_rc 1 "$FL" perf --min-share 0.782 --workload "$TMP/sr.yaml" "$TMP/su1.xml"

# a degraded NIC cable: nothing to steer around
for r in ar spray; do
  expect_rc 1 "$FL" perf --format json --routing $r --workload "$TMP/sr.yaml" "$TMP/nic.xml"
  expect_eq "$(jget "$TMP/out" "$J")" "('$r', 0.125, 6.25)" "NIC cable: $r"
done

# healthy: ar and spray agree (the equal split is AR's fixed point)
for r in ar spray; do
  expect_rc 0 "$FL" perf --format json --routing $r --workload "$TMP/sr.yaml" "$TMP/rail.xml"
  expect_eq "$(jget "$TMP/out" "$J")" "('$r', 1.0, 50.0)" "healthy: $r"
done
printf 'hosts: all\ncollectives:\n  - {op: all-to-all, bytes: 1073741824}\n' >"$TMP/a2a.yaml"
expect_rc 0 "$FL" perf --format json --routing ar --workload "$TMP/a2a.yaml" "$TMP/rail.xml"
cp "$TMP/out" "$TMP/a2a-ar.json"
expect_rc 0 "$FL" perf --format json --routing spray --workload "$TMP/a2a.yaml" "$TMP/rail.xml"
expect_eq "$(jget "$TMP/out" "=d['collectives'][0]['busbw_GBps']")" \
  "$(jget "$TMP/a2a-ar.json" "=d['collectives'][0]['busbw_GBps']")" "healthy all-to-all: ar = spray"

# the cap on AR's split values (2^25 = 33,554,432): a 3-tier radix-48
# tree (27,648 hosts) needs 1,152 destination leaves x (110,592 switch-to-
# switch ports + 2,880 switches) = 130,719,744. Chosen by auto (no LFTs):
# the equal split, noted; asked for: refused, naming both figures.
expect_rc 0 "$FL" gen fat-tree --radix 48 --tiers 3
cp "$TMP/out" "$TMP/ft48.xml"
printf 'hosts: all\ncollectives:\n  - {op: all-to-all, bytes: 1073741824}\n' >"$TMP/a2a.yaml"
expect_rc 0 "$FL" perf --workload "$TMP/a2a.yaml" "$TMP/ft48.xml"
expect_grep "$TMP/out" "^  note: adaptive routing's load-aware split would need 130719744 values, more than its cap of 33554432: the flows are split equally over the minimal next hops \\(as --routing spray\\)$"
expect_grep "$TMP/out" 'ratio 1\.0000$'
expect_rc 0 "$FL" perf --format json --workload "$TMP/a2a.yaml" "$TMP/ft48.xml"
expect_eq "$(jget "$TMP/out" "=d['collectives'][0]['ar']['capped_need']")" 130719744 "capped: the need in JSON"
expect_rc 2 "$FL" perf --routing ar --workload "$TMP/a2a.yaml" "$TMP/ft48.xml"
expect_grep "$TMP/err" 'a2a\.yaml: adaptive routing of this step needs 130719744 split values .*, more than the cap of 33554432: use --routing spray'

# the routing words: in the workload and on the command line
printf 'hosts: all\nrouting: spray\ncollectives:\n  - {op: sendrecv, shift: 16, bytes: 1073741824}\n' >"$TMP/w.yaml"
expect_rc 1 "$FL" perf --format json --workload "$TMP/w.yaml" "$TMP/su1.xml"
expect_eq "$(jget "$TMP/out" "$J")" "('spray', 0.125, 6.25)" "routing: spray in the workload"
sed -i 's/routing: spray/routing: sprayed/' "$TMP/w.yaml"
expect_rc 2 "$FL" perf --workload "$TMP/w.yaml" "$TMP/su1.xml"
expect_grep "$TMP/err" 'w\.yaml:2:10: `routing`: expected auto, lft, ar or spray'
expect_rc 2 "$FL" perf --routing ecmp --workload "$TMP/sr.yaml" "$TMP/su1.xml"
expect_grep "$TMP/err" "^fabriclint: --routing: expected auto, lft, ar or spray, got 'ecmp'$"
finish
