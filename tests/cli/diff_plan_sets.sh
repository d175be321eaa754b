#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/diff_plan_sets.sh — diff compares Cisco cable plan port sets of
# every size the loader accepts (4096 ports), never skipping one silently.
#
# A set of 4096 ports expands to ~36 KB of canonical names; diff once
# expanded them into 8 KB stack buffers and, when that failed, skipped the
# constraint without a word: a plan diffed against itself then reported its
# own constraint as diff.unexpected, and a constraint whose port set changed
# was never reported missing.
. "$(dirname "$0")/lib.bash"

cplan() { # cplan FILE SOURCEPORT MINPORTS
  printf '<CISCO_NETWORK_TYPES><DATA_CENTER><CHASSIS_INFO sourceChassis="a">\n<LINK_INFO sourcePort="%s" destChassis="b" minPorts="%s"/></CHASSIS_INFO></DATA_CENTER></CISCO_NETWORK_TYPES>\n' "$2" "$3" >"$1"
}
cplan "$TMP/p4096.xml" 'eth1/1-eth1/4096' 2
cplan "$TMP/p4095.xml" 'eth1/1-eth1/4095' 2
cplan "$TMP/p4097.xml" 'eth1/1-eth1/4097' 2

# 1. the largest set against itself: the constraint is met, no finding
expect_rc 0 "$FL" diff --format json "$TMP/p4096.xml" "$TMP/p4096.xml"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "self diff findings"

# 2. the same constraint on 4095 ports as built: the planned one is missing
# (0 of 2 found) and the built one has no design counterpart
expect_rc 1 "$FL" diff --format json "$TMP/p4096.xml" "$TMP/p4095.xml"
expect_eq "$(jget "$TMP/out" "=' '.join(sorted(f['rule'] for f in d['findings']))")" \
  "diff.missing diff.unexpected" "rules"
expect_eq "$(jget "$TMP/out" "=[f['evidence'] for f in d['findings'] if f['rule'] == 'diff.missing'][0]['min']")" 2 "missing min"
expect_eq "$(jget "$TMP/out" "=[f['evidence'] for f in d['findings'] if f['rule'] == 'diff.missing'][0]['found']")" 0 "missing found"
expect_eq "$(jget "$TMP/out" "=[f['evidence'] for f in d['findings'] if f['rule'] == 'diff.missing'][0]['a_ports']")" "eth1/1-eth1/4096" "missing a_ports"
expect_eq "$(jget "$TMP/out" "=[f['evidence'] for f in d['findings'] if f['rule'] == 'diff.unexpected'][0]['a_ports']")" "eth1/1-eth1/4095" "unexpected a_ports"

# 3. one port more than the limit is a parse error naming file and line
expect_rc 2 "$FL" diff "$TMP/p4097.xml" "$TMP/p4096.xml"
expect_grep "$TMP/err" "p4097\\.xml:2: sourcePort='eth1/1-eth1/4097': more than 4096 ports in one port set"

# 4. a design XML may carry plan attributes itself: a malformed set there is
# an input error with the link's file:line:col, not a skipped comparison
printf '<fabric xmlns="urn:fabriclint:design:1" version="1">\n<node kind="switch" name="a"/>\n<node kind="switch" name="b"/>\n<link a="a" a-port="1" b="b" b-port="1"><attr key="plan-min" value="1"/><attr key="plan-a-ports" value="eth1/5-eth1/2"/></link>\n</fabric>\n' >"$TMP/attr.xml"
expect_rc 2 "$FL" diff "$TMP/attr.xml" "$TMP/attr.xml"
expect_grep "$TMP/err" "attr\.xml:4:1: plan port set plan-a-ports='eth1/5-eth1/2' cannot be compared: a range whose last port is below its first"

# 5. maxPorts (issue 31): a bundle of 3 real cables spine1 eth1/2-4 to
# leaf2 eth1/50-52 (an as-built plan of plain cables, as acitoolkit's own
# test.xml) against a constraint of at most 3 (exactly at the limit: met)
# and at most 2 (one cable past it: that cable is unexpected), the
# constraint written from either end (sourceChassis spine1 or leaf2)
built() { # the 3 cables, from the spine's side
  printf '<CISCO_NETWORK_TYPES><DATA_CENTER><CHASSIS_INFO sourceChassis="spine1">\n'
  for i in 2 3 4; do
    printf '<LINK_INFO sourcePort="eth1/%s" destChassis="leaf2" destPort="eth1/%s"/>\n' $i $((i + 48))
  done
  printf '</CHASSIS_INFO></DATA_CENTER></CISCO_NETWORK_TYPES>\n'
}
bundle() { # bundle FILE MAXPORTS FROM -- at most MAXPORTS cables, seen from FROM
  if [ "$3" = spine1 ]; then
    set -- "$1" "$2" spine1 eth1/2-eth1/4 leaf2 eth1/50-eth1/52
  else
    set -- "$1" "$2" leaf2 eth1/50-eth1/52 spine1 eth1/2-eth1/4
  fi
  printf '<CISCO_NETWORK_TYPES><DATA_CENTER><CHASSIS_INFO sourceChassis="%s">\n<LINK_INFO sourcePort="%s" destChassis="%s" destPort="%s" minPorts="1" maxPorts="%s"/></CHASSIS_INFO></DATA_CENTER></CISCO_NETWORK_TYPES>\n' \
    "$3" "$4" "$5" "$6" "$2" >"$1"
}
built >"$TMP/bundle3.xml"
for from in spine1 leaf2; do
  bundle "$TMP/max3.xml" 3 $from
  expect_rc 0 "$FL" diff --format json "$TMP/max3.xml" "$TMP/bundle3.xml"
  expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "3 cables, maxPorts=3, from $from"
  bundle "$TMP/max2.xml" 2 $from
  expect_rc 1 "$FL" diff --format json "$TMP/max2.xml" "$TMP/bundle3.xml"
  expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['message']) for f in d['findings']]")" \
    "[('diff.unexpected', 'cable \"spine1\" eth1/4 - \"leaf2\" eth1/52 is not in the plan: remove it or add it to the plan')]" \
    "3 cables, maxPorts=2, from $from"
done

# 3. "any port" constraints toward one chassis (issue 30, F2; acitoolkit's
# cable_plan2.xml): each has its own stand-in port, so two of them are not
# one port "connected twice"; from either side; and diff of the plan with
# itself still meets every constraint
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
for side in dest source; do
  f=$src/tests/data/cases/plans/cisco-any-port-$side.xml
  expect_rc 0 "$FL" check --format json "$f"
  expect_eq "$(jget "$TMP/out" "=[f['rule'] for f in d['findings'] if f['severity'] != 'info']")" "[]" "any port ($side side): no finding"
  expect_rc 0 "$FL" info --format json "$f"
  expect_eq "$(jget "$TMP/out" "=(d['fabric']['switches'], d['fabric']['links'])")" "(3, 2)" "any port ($side side): 3 switches, 2 links"
  expect_rc 0 "$FL" diff --format json "$f" "$f"
  expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "any port ($side side): self diff"
done
finish
