#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/case_c09_lldpd_live.sh — case c09 captured live: make.sh beside
# the fixtures builds the triangle of three dual-port hosts twice (the
# report's cabling, and the crossed ring after the swap) in network
# namespaces joined by veth pairs, runs lldpd in each, and saves `lldpcli -f
# xml show neighbors details` per host. The live capture must be the
# committed one cable for cable (diff: no finding) and give the same
# verdicts. Needs root, lldpd and network namespaces; exits 77 (SKIP)
# without them. Bounded: the capture has 120 s.
. "$(dirname "$0")/lib.bash"
D=$FL_SRC/tests/data/cases/c09-triangle-port-index

probe="flc09probe$$"
if [ "$(id -u)" -ne 0 ] || ! command -v lldpd >/dev/null || ! command -v lldpcli >/dev/null ||
  ! ip netns add "$probe" 2>/dev/null; then
  echo "case_c09_lldpd_live: SKIP (needs root, lldpd and network namespaces)"
  exit 77
fi
ip netns del "$probe"
cap=$TMP/live
nsp="flc09$$t" # this run's namespaces only (other runs may be live too)
if ! FL_NETNS_PREFIX=$nsp timeout 120 bash "$D/make.sh" "$cap" >"$TMP/capture.log" 2>&1; then
  sed 's/^/  capture: /' "$TMP/capture.log" | tail -5 >&2
  fail "live lldpd capture failed"
  finish
  exit 1
fi
expect_eq "$(cd "$cap" && echo */*.xml)" "asbuilt/spark-1.xml asbuilt/spark-2.xml asbuilt/spark-3.xml fixed/spark-1.xml fixed/spark-2.xml fixed/spark-3.xml" "capture files"
expect_eq "$(ip netns list | grep -c "^$nsp-" || true)" 0 "namespaces left"
# what lldpd says of a host: Station only, MAC PortID, the name in PortDescr
expect_eq "$(cat "$cap"/asbuilt/*.xml | grep -c '<capability label="Capability" type="Station" enabled="on"/>')" 6 "Station listings"
expect_eq "$(cat "$cap"/asbuilt/*.xml | grep -c '<id label="PortID" type="mac">')" 6 "MAC PortIDs"

# the same cables as the committed capture, both ways
for v in asbuilt fixed; do
  expect_rc 0 "$FL" diff --format json "$D/$v" "$cap/$v"
  expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "live $v = committed $v"
done
# the verdicts on the live capture
expect_rc 0 "$FL" check --format json "$cap/asbuilt"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['evidence']['equal_count'], f['evidence']['different_count'], f['evidence']['fix']) for f in d['findings']]")" \
  "[('topology.direct-port-index', 2, 1, {'swap_at': [{'host': 'spark-2', 'ports': [{'label': 'enp1s0f0np0', 'port': 1}, {'label': 'enp1s0f1np1', 'port': 2}]}], 'target': 'crossed-ring'})]" "live as built"
expect_rc 0 "$FL" check --format json "$cap/fixed"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "live fixed: clean"
expect_rc 1 "$FL" diff --format json "$D/design.xml" "$cap/asbuilt"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], [(e['node'], e['label']) for e in f['evidence']['swap']]) for f in d['findings']]")" \
  "[('diff.swapped', [('spark-2', 'enp1s0f1np1'), ('spark-2', 'enp1s0f0np0')])]" "live diff"
finish
