#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/roce_lldpd_live.sh — the RoCE case captured live by lldpd
# (issue 13): fabrics/regen-roce.sh builds the 2-rail fabric of
# tests/data/cases/roce with host-03's NICs swapped in 8 network namespaces
# joined by veth pairs (no address anywhere), runs lldpd in each, and saves
# `lldpcli -f xml show neighbors details` per device. Nothing is written by
# hand. Then:
#   - the negotiated speed lldpd reports (a veth is a fixed 10 Gb/s twisted
#     pair link: MAU type 10GbaseT) is loaded for every link and compared
#     with a plan at 400G: one diff.different for the fabric (as_built 10G);
#   - `check` finds the swap as one rail-alignment.swapped with the fix;
#   - the per-host plan at 10G finds only the swap (diff.swapped).
# Needs root, lldpd and network namespaces; exits 77 (SKIP) without them.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
c=$src/tests/data/cases/roce

probe="flroceprobe$$"
if [ "$(id -u)" -ne 0 ] || ! command -v lldpd >/dev/null || ! command -v lldpcli >/dev/null ||
  ! ip netns add "$probe" 2>/dev/null; then
  echo "roce_lldpd_live: SKIP (needs root, lldpd and network namespaces)"
  exit 77
fi
ip netns del "$probe"
cap=$TMP/live
nsp="flroce$$t" # this run's namespaces only (other runs may be live too)
if ! FL_NETNS_PREFIX=$nsp timeout 120 bash "$src/fabrics/regen-roce.sh" "$cap" >"$TMP/capture.log" 2>&1; then
  sed 's/^/  capture: /' "$TMP/capture.log" | tail -5 >&2
  fail "live lldpd capture failed"
  finish
  exit 1
fi
expect_eq "$(ls "$cap" | tr '\n' ' ')" \
  "host-01.xml host-02.xml host-03.xml host-04.xml leaf-r0.xml leaf-r1.xml spine1.xml spine2.xml " "capture files"
# what lldpd really says for a veth: 24 listings (12 cables x 2 ends)
expect_eq "$(cat "$cap"/*.xml | grep -c '<current label="MAU oper type">10GbaseT - ')" 24 "MAU type listings"
expect_eq "$(ip netns list | grep -c "^$nsp-" || true)" 0 "namespaces left"

expect_rc 0 "$FL" info --format json "$cap"
expect_eq "$(jget "$TMP/out" "['link_types']")" "{'1x10G': 12}" "link speeds"
expect_eq "$(jget "$TMP/out" "['mismatched_links']")" 0 "ends disagreeing"
expect_eq "$(jget "$TMP/out" "['hosts_by_nics']")" "{'2': 4}" "hosts by NIC count"

# the speed of every cable against the plan (400G): the veth pairs run at
# 10G, every correctly placed cable alike, which is one cause for the fabric
# (core/diff/diff_rates.c), not ten cable faults; the two crossed ones are the swap
expect_rc 1 "$FL" diff --format json "$c/roce-design.xml" "$cap"
expect_eq "$(jget "$TMP/out" "=[(f['evidence'].get('scope'), f['evidence']['design'], f['evidence']['as_built'], f['evidence'].get('cables'), f['evidence'].get('compared')) for f in d['findings'] if f['rule'] == 'diff.different']")" \
  "[('fabric', '400G', '10G', 10, 10)]" \
  "speed: one cause for the fabric"
expect_eq "$(jget "$TMP/out" "=[f['rule'] for f in d['findings'] if f['rule'] != 'diff.different']")" \
  "['diff.swapped']" "the swap"

# the per-host plan at the speed veth runs: only the swap
sed 's/speed="400G"/speed="10G"/' "$c/roce-design-ports.xml" >"$TMP/plan10.xml"
expect_rc 1 "$FL" diff --format json "$TMP/plan10.xml" "$cap"
expect_eq "$(jget "$TMP/out" "=' '.join(f['rule'] for f in d['findings'])")" "diff.swapped" "10G plan"
expect_rc 1 "$FL" diff --format json "$c/cisco-plan.xml" "$cap"
expect_eq "$(jget "$TMP/out" "=' '.join(f['rule'] for f in d['findings'])")" "diff.swapped" "Cisco plan"

# the rail check on the live capture: one swapped finding, with the fix
expect_rc 1 "$FL" check --format json "$cap" "$c/rails.csv"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['nodes']) for f in d['findings'] if f['rule'].startswith('rail-alignment')]")" \
  "[('rail-alignment.swapped', ['host-03', 'leaf-r1', 'leaf-r0'])]" "rail findings"
expect_eq "$(jget "$TMP/out" "=sorted((x['nic'], x['fix_leaf']) for f in d['findings'] if f['rule'] == 'rail-alignment.swapped' for x in f['evidence']['cables'])")" \
  "[('host-03 ens1f0np0', 'leaf-r0'), ('host-03 ens2f0np0', 'leaf-r1')]" "fix"
# speeds feed the oversubscription rule: 4 x 10G down, 2 x 10G up per leaf
# (one finding per cause: both leaves are members of the tier's finding)
expect_eq "$(jget "$TMP/out" "=sorted((m['message'].split(' is ')[0], m['evidence']['ratio']) for f in d['findings'] if f['rule'] == 'ecmp-balance.oversubscription' for m in f['evidence']['members'])")" \
  "[('switch \"leaf-r0\" (tier 1)', 2), ('switch \"leaf-r1\" (tier 1)', 2)]" "oversubscription"
expect_grep "$TMP/out" '40 Gb/s down over 4 port\(s\), 20 Gb/s up over 2 port\(s\)'
finish
