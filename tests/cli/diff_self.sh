#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/diff_self.sh — `fabriclint diff X X` is always clean, and the
# name and plan-constraint rules behind that (docs/rules/diff.md).
#
# 1. Every committed sample diffed with itself: exit 0, no finding
#    (fabrics/diff/*, the external Junos / Cisco / ibdm .topo samples, and
#    the FQDN fixtures tests/fixtures/diff/names/).
# 2. FQDN collapse: leaf1.pod1.example.com and leaf1.pod2.example.com are two
#    devices (design and a folder of lldpd files named by FQDN).
# 3. Cisco plan constraints: a plan against itself matches constraint for
#    constraint; an as-built plan missing a constraint says so.
# 4. A plan with two cables on one port: one diff.duplicate (design side),
#    no move onto the occupied port.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
ext=$FL_EXTERNAL
need_external datacenter__acitoolkit__applications__cableplan__cable_plan2.xml
nm=$src/tests/fixtures/diff/names

# ---- 1. self-diff of every sample ----------------------------------------
samples=()
for f in "$src"/fabrics/diff/*; do
  case $f in *.md) continue ;; esac
  samples+=("$f")
done
for f in "$ext"/*get-lldp*.xml "$ext"/*cableplan*.xml "$ext"/*.topo; do
  [ -e "$f" ] && samples+=("$f")
done
samples+=("$nm/design4.xml" "$nm/design5.xml" "$nm/built5")
for f in "${samples[@]}"; do
  expect_rc 0 "$FL" diff --format json "$f" "$f"
  expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "self-diff $(basename "$f")"
done

# ---- 2. FQDN collapse ------------------------------------------------------
expect_rc 0 "$FL" diff "$nm/design5.xml" "$nm/built5"
expect_rc 0 "$FL" diff "$nm/built5" "$nm/design5.xml"
# a bare name matches its FQDN when the short name is unambiguous
sed 's/leaf1\.pod2\.example\.com/leaf2.pod2.example.com/' "$nm/design5.xml" >"$TMP/d6.xml"
sed 's/leaf1\.pod1\.example\.com/leaf1/' "$TMP/d6.xml" >"$TMP/d7.xml"
expect_rc 0 "$FL" diff "$TMP/d6.xml" "$TMP/d7.xml"
# ... but not when two nodes share it: only the full names are compared
sed 's/leaf1\.pod1\.example\.com/leaf1/' "$nm/design5.xml" >"$TMP/d8.xml"
expect_rc 1 "$FL" diff --format json "$TMP/d8.xml" "$nm/built5"
expect_grep "$TMP/out" 'several as-built nodes have this name'

# ---- 3. plan constraints ---------------------------------------------------
plan() { # plan FILE MINPORTS-ATTR
  cat >"$1" <<XML
<CISCO_NETWORK_TYPES xmlns="http://www.cisco.com/cableplan/Schema2">
 <DATA_CENTER networkLocation="lab" idFormat="hostname">
  <CHASSIS_INFO sourceChassis="spine1" type="n9k">
   <LINK_INFO sourcePort="eth1/1" destChassis="leaf1" destPort="eth1/49"/>
   <LINK_INFO sourcePort="eth1/2-eth1/4" destChassis="leaf2" $2/>
  </CHASSIS_INFO>
 </DATA_CENTER>
</CISCO_NETWORK_TYPES>
XML
}
plan "$TMP/p-min2.xml" 'minPorts="2"'
plan "$TMP/p-min3.xml" 'minPorts="3"'
plan "$TMP/p-any.xml" 'minPorts="2" maxPorts="3"'
expect_rc 0 "$FL" diff "$TMP/p-min2.xml" "$TMP/p-min2.xml"
# the same constraint, ranges written differently
sed 's/eth1\/2-eth1\/4/Ethernet1\/2-4/' "$TMP/p-min2.xml" >"$TMP/p-min2b.xml"
expect_rc 0 "$FL" diff "$TMP/p-min2.xml" "$TMP/p-min2b.xml"
# a different constraint: the design's is unmet, the as-built's unexpected
expect_rc 1 "$FL" diff --format json "$TMP/p-min2.xml" "$TMP/p-min3.xml"
expect_grep "$TMP/out" 'at least 2 cable\(s\) between .*; 0 found'
expect_grep "$TMP/out" 'the as-built plan asks for 3\.\.any cable\(s\)'
expect_rc 1 "$FL" diff "$TMP/p-min2.xml" "$TMP/p-any.xml"
p2=$ext/datacenter__acitoolkit__applications__cableplan__cable_plan2.xml
expect_rc 0 "$FL" diff "$p2" "$p2" # a required sample (need_external above)

# ---- 4. double-booked design port -------------------------------------------
d=$src/fabrics/diff/lldp-design.xml
sed 's/<link a="host-02" a-port="1" b="leaf-01" b-port="2"/<link a="host-02" a-port="1" b="leaf-01" b-port="1"/' \
  "$d" >"$TMP/occupied.xml"
expect_rc 1 "$FL" diff --format json "$TMP/occupied.xml" "$d"
expect_eq "$(jget "$TMP/out" "=' '.join(sorted(f['rule'] for f in d['findings']))")" \
  "diff.duplicate" "double-booked port findings"
expect_grep "$TMP/out" 'the design puts 2 cables on \\"leaf-01\\" swp1'
expect_rc 1 "$FL" diff --format csv "$TMP/occupied.xml" "$d"
expect_eq "$(grep -c ',move,' "$TMP/out")" 0 "moves onto an occupied port"
expect_grep "$TMP/out" '^1,check,diff.duplicate,leaf-01,'

finish
