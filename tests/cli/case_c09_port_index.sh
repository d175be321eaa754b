#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/case_c09_port_index.sh — case c09 (issue 12): three dual-port
# hosts cabled back to back in a triangle, two cables joining equal port
# indexes (p0-p0, p1-p1) and one joining p1-p0 (luxingcom/aicad-nccl-
# optimization#1). The captures are real lldpd output (make.sh beside them;
# tests/cli/case_c09_lldpd_live.sh re-captures them live):
#   - check flags the port-index inconsistency, with the fewest hosts to
#     swap (spark-2) and the crossed ring it makes;
#   - a switchless fabric is not "cut off from the main part" (it was an
#     error: topology.disconnected saw each back-to-back cable as a subnet);
#   - the recabled ring (fixed/) and the plan are clean; diff against either
#     gives the same swap at spark-2.
. "$(dirname "$0")/lib.bash"
D=$FL_SRC/tests/data/cases/c09-triangle-port-index
ev() { jget "$TMP/out" "=[f['evidence']$1 for f in d['findings'] if f['rule'] == 'topology.direct-port-index']"; }

expect_rc 0 "$FL" check --format json "$D/asbuilt"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['severity']) for f in d['findings']]")" \
  "[('topology.direct-port-index', 'warning')]" "c09 as built: one finding"
expect_eq "$(ev "['hosts']")" "[['spark-1', 'spark-2', 'spark-3']]" "hosts"
expect_eq "$(ev "['equal']")" \
  "[[{'a': 'spark-1', 'a_index': 0, 'a_label': 'enp1s0f0np0', 'a_port': 1, 'b': 'spark-2', 'b_index': 0, 'b_label': 'enp1s0f0np0', 'b_port': 1}, {'a': 'spark-2', 'a_index': 1, 'a_label': 'enp1s0f1np1', 'a_port': 2, 'b': 'spark-3', 'b_index': 1, 'b_label': 'enp1s0f1np1', 'b_port': 2}]]" \
  "cables joining equal indexes"
expect_eq "$(ev "['different']")" \
  "[[{'a': 'spark-1', 'a_index': 1, 'a_label': 'enp1s0f1np1', 'a_port': 2, 'b': 'spark-3', 'b_index': 0, 'b_label': 'enp1s0f0np0', 'b_port': 1}]]" \
  "the cable joining different indexes"
expect_eq "$(ev "['fix']")" \
  "[{'swap_at': [{'host': 'spark-2', 'ports': [{'label': 'enp1s0f0np0', 'port': 1}, {'label': 'enp1s0f1np1', 'port': 2}]}], 'target': 'crossed-ring'}]" "fix"
expect_eq "$(jget "$TMP/out" "=[(p['node'], p['port']) for f in d['findings'] for p in f['ports']]")" \
  "[('spark-2', 1), ('spark-2', 2)]" "the ports to swap"
expect_rc 0 "$FL" check "$D/asbuilt"
expect_grep "$TMP/out" "^$D/asbuilt/spark-[123]\.xml:[0-9]+: warning: 3 back-to-back cables among 3 hosts \(spark-1, spark-2, spark-3\) mix port indexes: 2 join equal indexes \(spark-1 p0 \(enp1s0f0np0\) - spark-2 p0 \(enp1s0f0np0\), spark-2 p1 \(enp1s0f1np1\) - spark-3 p1 \(enp1s0f1np1\)\) and 1 join different ones \(spark-1 p1 \(enp1s0f1np1\) - spark-3 p0 \(enp1s0f0np0\)\); .* Fix: swap the two cables at spark-2 \(enp1s0f0np0, enp1s0f1np1\): every cable then joins p0 to p1, a crossed ring .*; a ring of an odd number of hosts cannot join equal indexes on every cable \[topology\.direct-port-index\]$"
expect_rc 1 "$FL" check --fail-on warning "$D/asbuilt"

# after the swap (live capture of the recabled ring), and the plan: clean
expect_rc 0 "$FL" check --format json "$D/fixed"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "fixed: no finding"
expect_rc 0 "$FL" check --format json "$D/design.xml"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "plan: no finding"

# diff: the plan (or the recabled ring as the reference) against the report's
# cabling is one swap at spark-2, the host check names
for plan in "$D/design.xml" "$D/fixed"; do
  expect_rc 1 "$FL" diff --format json "$plan" "$D/asbuilt"
  expect_eq "$(jget "$TMP/out" "=[(f['rule'], [(e['node'], e['label']) for e in f['evidence']['swap']]) for f in d['findings']]")" \
    "[('diff.swapped', [('spark-2', 'enp1s0f1np1'), ('spark-2', 'enp1s0f0np0')])]" "diff $(basename "$plan")"
done
expect_rc 0 "$FL" diff "$D/design.xml" "$D/fixed"

# ---- the rule on other rings (plans written here: no tool draws a ring) ----
ring() { # ring NAME HOSTS CABLE... (CABLE a:i-b:j, hosts from 1, index 0/1)
  local name=$1 n=$2 c a b
  shift 2
  {
    echo '<fabric xmlns="urn:fabriclint:design:1" version="1" name="ring">'
    for ((h = 1; h <= n; h++)); do
      echo "  <node kind=\"ca\" name=\"h$h\" system=\"h$h\" ports=\"2\"><port num=\"1\" label=\"enp1s0f0np0\"/><port num=\"2\" label=\"enp1s0f1np1\"/></node>"
    done
    for c in "$@"; do
      a=${c%-*} b=${c#*-}
      echo "  <link a=\"h${a%:*}\" a-port=\"$((${a#*:} + 1))\" b=\"h${b%:*}\" b-port=\"$((${b#*:} + 1))\"/>"
    done
    echo '</fabric>'
  } >"$TMP/$name.xml"
  "$FL" check --format json "$TMP/$name.xml" >"$TMP/out" 2>"$TMP/err"
}
fix() { jget "$TMP/out" "=[(f['evidence']['equal_count'], f['evidence']['different_count'], f['evidence']['fix'] and (f['evidence']['fix']['target'], [s['host'] for s in f['evidence']['fix']['swap_at']])) for f in d['findings'] if f['rule'] == 'topology.direct-port-index']"; }
# a ring of 4 with two kinds: equal indexes take 2 swaps, as does the crossed
# ring: the tie goes to equal indexes (index pairing then needs no setting)
ring r4 4 1:0-2:0 2:1-3:0 3:1-4:1 4:0-1:1
expect_eq "$(fix)" "[(2, 2, ('equal-indexes', ['h3', 'h4']))]" "ring of 4"
# a ring of 6, one cable crossed the other way: two swaps to equal indexes
ring r6 6 1:0-2:0 2:1-3:1 3:0-4:0 4:1-5:0 5:1-6:1 6:0-1:1
expect_eq "$(fix)" "[(4, 2, ('equal-indexes', ['h5', 'h6']))]" "ring of 6"
# a ring of 5: only the crossed ring is possible, one swap at h2
ring r5 5 1:0-2:0 2:1-3:1 3:0-4:1 4:0-5:1 5:0-1:1
expect_eq "$(fix)" "[(2, 3, ('crossed-ring', ['h2']))]" "ring of 5"
# the crossed ring of 5 with h1's cables swapped: h1 alone, not the other
# four (the smaller of a colouring and its complement)
ring s5 5 1:1-2:1 2:0-3:1 3:0-4:1 4:0-5:1 5:0-1:0
expect_eq "$(fix)" "[(2, 3, ('crossed-ring', ['h1']))]" "ring of 5, fix at h1"
# consistent rings are clean: equal indexes (even), crossed (odd)
ring e4 4 1:0-2:0 2:1-3:1 3:0-4:0 4:1-1:1
expect_eq "$(fix)" "[]" "equal-index ring of 4"
ring x5 5 1:0-2:1 2:0-3:1 3:0-4:1 4:0-5:1 5:0-1:1
expect_eq "$(fix)" "[]" "crossed ring of 5"
# hosts of three back-to-back ports: the mix is named, no swap is proposed
ring m3 4 1:0-2:0 1:1-3:0 1:0-4:1
expect_eq "$(jget "$TMP/out" "=sorted(f['rule'] for f in d['findings'])")" "['topology.direct-port-index', 'topology.port-connected-twice']" "3-port host"
# two separate triangles: one switchless component is not cabled to the other
ring t2 6 1:0-2:1 2:0-3:1 3:0-1:1 4:0-5:1 5:0-6:1 6:0-4:1
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['message'], f['evidence']['switchless']) for f in d['findings']]")" \
  "[('topology.disconnected', '3 node(s) (3 CAs/routers) starting with \"h4\" are not cabled to the other hosts of this switchless fabric (3 nodes): no chain of back-to-back cables joins them', True)]" "two triangles"
finish
