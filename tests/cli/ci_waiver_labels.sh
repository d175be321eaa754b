#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/ci_waiver_labels.sh — issue 12: a waiver's `ports` globs name a
# port as "node/<number>" or, when the port has a label, "node/<label>"
# (Ethernet1/3, swp52, ens1f0np0). LLDP and Cisco plans number Ethernet
# ports only in loading order (leaf-04 swp52 is port 6 of the plan), so a
# waiver must be able to use the name the switch prints.
. "$(dirname "$0")/lib.bash"
C=$FL_SRC/tests/data/cases/roce
D=$FL_SRC/fabrics/diff
export FABRICLINT_TODAY=2026-01-01

policy() { # policy RULE PORTS-GLOB...
  local rule=$1
  shift
  {
    echo "waivers:"
    echo "  - rule: $rule"
    printf '    ports: ['
    local sep=""
    for g in "$@"; do printf '%s"%s"' "$sep" "$g"; sep=", "; done
    echo "]"
    echo "    reason: \"swap booked\""
    echo "    expires: 2026-12-31"
  } >"$TMP/policy.yaml"
}
waived() { jget "$TMP/out" "=[(f['rule'], f.get('suppressed', {}).get('kind')) for f in d['findings']]"; }

# check: host-03's NICs crossed between leaf-r0 and leaf-r1 (Ethernet1/3 on
# both, loaded as port 3; the hosts' ports are ens1f0np0 / ens2f0np0)
for glob in "leaf-r1/Ethernet1/3" "host-03/ens1f0np0" "leaf-r1/Ethernet1/*" "leaf-r1/3"; do
  policy rail-alignment.swapped "$glob"
  expect_rc 0 "$FL" check --format json --policy "$TMP/policy.yaml" "$C/lldp-swapped" "$C/rails.csv"
  expect_eq "$(waived)" "[('rail-alignment.swapped', 'waiver')]" "check: waiver $glob"
done
# a label of another port, or of the other leaf's third port on the wrong
# node, waives nothing: the finding counts and the waiver is unused
for glob in "leaf-r1/Ethernet1/4" "leaf-r1/ens1f0np0" "spine1/Ethernet1/3"; do
  policy rail-alignment.swapped "$glob"
  expect_rc 1 "$FL" check --format json --policy "$TMP/policy.yaml" "$C/lldp-swapped" "$C/rails.csv"
  expect_eq "$(waived)" "[('rail-alignment.swapped', None), ('policy.unused-waiver', None)]" "check: no waiver by $glob"
done
# every glob must match one port: a label and a number together
policy rail-alignment.swapped "leaf-r0/Ethernet1/3" "host-03/2"
expect_rc 0 "$FL" check --format json --policy "$TMP/policy.yaml" "$C/lldp-swapped" "$C/rails.csv"
expect_eq "$(waived)" "[('rail-alignment.swapped', 'waiver')]" "check: label and number"

# diff against the Cisco plan: the same swap, named by the plan's labels
policy diff.swapped "leaf-r0/Ethernet1/3"
expect_rc 0 "$FL" diff --format json --policy "$TMP/policy.yaml" "$C/cisco-plan.xml" "$C/lldp-swapped"
expect_eq "$(waived)" "[('diff.swapped', 'waiver')]" "diff: Cisco label"

# diff of the lldpd fabric: leaf-04 swp52 is port 6 of the plan; the
# missing cable is waived by its label, the other three findings count
policy diff.missing "leaf-04/swp52"
expect_rc 1 "$FL" diff --format json --policy "$TMP/policy.yaml" "$D/lldp-design.xml" "$D/lldp"
expect_eq "$(jget "$TMP/out" "=sorted((f['rule'], 'suppressed' in f) for f in d['findings'])")" \
  "[('diff.misconnected', False), ('diff.missing', True), ('diff.swapped', False), ('diff.unexpected', False)]" "diff: swp label"
policy diff.missing "leaf-04/52"
expect_rc 1 "$FL" diff --format json --policy "$TMP/policy.yaml" "$D/lldp-design.xml" "$D/lldp"
expect_eq "$(jget "$TMP/out" "=[f['rule'] for f in d['findings'] if 'suppressed' in f]")" "[]" "diff: 52 is a label digit, not the port number"
finish
