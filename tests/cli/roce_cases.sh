#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/roce_cases.sh — every row of the RoCE case (tests/data/cases/
# roce/README.md, issue 13) gives the result its README states: a 2-rail
# RoCEv2 fabric of 4 hosts with two NICs each, as lldpd captures (one file
# per device), a Cisco cable plan, a per-NIC and a per-host design XML.
#   - the correct capture checks clean; `info` sees 4 hosts x 2 NICs;
#   - host-03's swapped NICs are one rail-alignment.swapped with the fix,
#     from device names alone (rails inferred), from a leaf-rails side file,
#     from a NIC->rail map, and from the per-host plan's port rail=;
#   - the correct fabric diffs clean against the per-NIC, per-host and Cisco
#     plans (no node-kind difference for a Cisco plan), and each plan shape
#     matches the other as as-built; the Cisco plan against the swapped
#     capture is one diff.swapped.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
c=$src/tests/data/cases/roce

rules() { jget "$TMP/out" "=' '.join(sorted(f['rule'] for f in d['findings']))"; }
rail_rules() { jget "$TMP/out" "=' '.join(sorted(f['rule'] for f in d['findings'] if f['rule'].startswith('rail-alignment')))"; }

# ---- correct capture: clean, 4 hosts with 2 NICs
expect_rc 0 "$FL" check --format json "$c/lldp"
expect_eq "$(rules)" "" "check lldp findings"
expect_rc 0 "$FL" info --format json "$c/lldp"
expect_eq "$(jget "$TMP/out" "['systems']")" 4 "hosts"
expect_eq "$(jget "$TMP/out" "['nics']")" 8 "NICs"
expect_eq "$(jget "$TMP/out" "['hosts_by_nics']")" "{'2': 4}" "hosts by NIC count"
expect_eq "$(jget "$TMP/out" "['fabric']['links']")" 12 "links"
expect_rc 0 "$FL" info "$c/lldp"
expect_grep "$TMP/out" '^  systems \(hosts of CAs\): 4$'
expect_grep "$TMP/out" '^    hosts with 2 NIC\(s\): 4$'
# gen_roce.py writes no MAU type: the speed is unknown, and said so
expect_grep "$TMP/out" '^  unknown \(the input gives no speed\): 12$'

# ---- swapped host: one rail-alignment.swapped with the fix, every way
swapped_ok() { # $1: what
  expect_eq "$(rail_rules)" "rail-alignment.swapped" "$1: rail findings"
  expect_eq "$(jget "$TMP/out" "=[f['evidence']['host'] for f in d['findings'] if f['rule']=='rail-alignment.swapped']")" \
    "['host-03']" "$1: host"
  expect_eq "$(jget "$TMP/out" "=sorted((x['nic'],x['now_leaf'],x['fix_leaf'],x['fix_port']) for f in d['findings'] if f['rule']=='rail-alignment.swapped' for x in f['evidence']['cables'])")" \
    "[('host-03 ens1f0np0', 'leaf-r1', 'leaf-r0', 3), ('host-03 ens2f0np0', 'leaf-r0', 'leaf-r1', 3)]" "$1: fix"
  expect_eq "$(jget "$TMP/out" "=[f['nodes'] for f in d['findings'] if f['rule']=='rail-alignment.swapped']")" \
    "$2" "$1: nodes"
}
host3="[['host-03', 'leaf-r1', 'leaf-r0']]"
expect_rc 1 "$FL" check --format json "$c/lldp-swapped"
swapped_ok "lldp-swapped (device names, leaf rails inferred)" "$host3"
expect_eq "$(jget "$TMP/out" "=d['findings'][0]['evidence']['leaf_rail_from']")" \
  "majority of its NICs (inferred)" "inference said"
expect_rc 1 "$FL" check --format json "$c/lldp-swapped" "$c/rails.csv"
swapped_ok "lldp-swapped + rails.csv" "$host3"
expect_eq "$(jget "$TMP/out" "=d['findings'][0]['evidence']['cables'][0]['nic_rail']")" 0 "rail from rails.csv"
expect_rc 1 "$FL" check --format json --param "rail-alignment.map=$c/nic-rails.map" "$c/lldp-swapped"
swapped_ok "lldp-swapped + nic-rails.map" "$host3"
expect_rc 1 "$FL" check "$c/lldp-swapped" "$c/rails.csv"
expect_grep "$TMP/out" 'error: .*"host-03 ens1f0np0" is on "leaf-r1" Ethernet1/3 \(rail 1\).*swap them: "host-03 ens1f0np0" -> "leaf-r0" Ethernet1/3, "host-03 ens2f0np0" -> "leaf-r1" Ethernet1/3 \[rail-alignment.swapped\]$'
# the correct capture with either side file stays clean
expect_rc 0 "$FL" check --format json "$c/lldp" "$c/rails.csv"
expect_eq "$(rules)" "" "lldp + rails.csv findings"
# per-host plan with port rail=: the swap from the plan alone
expect_rc 1 "$FL" check --format json "$c/roce-design-ports-swapped.xml"
swapped_ok "per-host plan, port rail=" "$host3"
expect_rc 0 "$FL" check --format json "$c/roce-design-ports.xml"
expect_eq "$(rail_rules)" "" "per-host plan, correct"
# per-NIC plan (worked before; must keep working)
expect_rc 1 "$FL" check --format json "$c/roce-design-swapped.xml"
swapped_ok "per-NIC plan" "[['host-03 ens1f0np0', 'host-03 ens2f0np0', 'leaf-r1', 'leaf-r0']]"

# ---- diff: every plan shape against the correct capture is clean
for plan in roce-design.xml roce-design-ports.xml cisco-plan.xml; do
  expect_rc 0 "$FL" diff --format json "$c/$plan" "$c/lldp"
  expect_eq "$(rules)" "" "diff $plan lldp"
done
# each plan shape as the as-built of the other
expect_rc 0 "$FL" diff --format json "$c/roce-design-ports.xml" "$c/roce-design.xml"
expect_eq "$(rules)" "" "per-host plan vs per-NIC as-built"
expect_rc 0 "$FL" diff --format json "$c/roce-design.xml" "$c/roce-design-ports.xml"
expect_eq "$(rules)" "" "per-NIC plan vs per-host as-built"
# the swap, found by each plan
for plan in cisco-plan.xml roce-design.xml roce-design-ports.xml; do
  expect_rc 1 "$FL" diff --format json "$c/$plan" "$c/lldp-swapped"
  expect_eq "$(rules)" "diff.swapped" "diff $plan lldp-swapped"
done
expect_rc 1 "$FL" diff "$c/cisco-plan.xml" "$c/lldp-swapped"
expect_grep "$TMP/out" 'error: .*fix: swap the two cable ends at "host-03" ens1f0np0 and "host-03" ens2f0np0 \[diff.swapped\]$'
expect_rc 1 "$FL" diff --format json "$c/roce-design-ports.xml" "$c/roce-design-swapped.xml"
expect_eq "$(rules)" "diff.swapped" "per-host plan vs swapped per-NIC as-built"
finish
