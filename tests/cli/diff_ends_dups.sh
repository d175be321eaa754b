#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/diff_ends_dups.sh — diff on cables whose two listings disagree,
# and on cables listed twice (kills mutants diff-rate-end, diff-width-end,
# diff-dup-built and diff-dup-design of tests/mutation/mutants.txt).
#
# 1. An IBDM .topo lists every cable from both ends; when the two listings
#    disagree (one end trained narrower or slower), the cable runs at the
#    slower/narrower end's rate. ibsim always trains both ends alike, so the
#    disagreement is written in the .topo form users write by hand.
# 2. A design listing one cable twice: the later listing is the duplicate.
#    An as-built listing an unplanned cable twice: one diff.unexpected and
#    one diff.duplicate (the later listing), never two unexpected cables.
# 3. A planned cable both of whose ends land elsewhere, each on a free port:
#    the two moves score alike; the first (from the cable's A end) is the
#    one proposed, the other cable is unexpected (mutant diff-misc-score).
. "$(dirname "$0")/lib.bash"

# ---- 1. two ends that disagree ---------------------------------------------
cat >"$TMP/plan.xml" <<'XML'
<fabric xmlns="urn:fabriclint:design:1" version="1">
<node kind="switch" name="s1"/>
<node kind="switch" name="s2"/>
<link a="s1" a-port="1" b="s2" b-port="1" width="4x" speed="HDR"/>
<link a="s1" a-port="2" b="s2" b-port="2" width="4x" speed="HDR"/>
<link a="s1" a-port="3" b="s2" b-port="3" width="4x" speed="HDR"/>
<link a="s1" a-port="4" b="s2" b-port="4" width="4x" speed="HDR"/>
<link a="s1" a-port="5" b="s2" b-port="5" width="4x" speed="HDR"/>
</fabric>
XML
# P1: s2's end narrower; P2: s2's end slower; P3: s1's end narrower;
# P4: s1's end slower; P5: both ends agree, as planned
cat >"$TMP/built.topo" <<'TOPO'
MQM8700 s1
   P1 -4x-HDR-> MQM8700 s2 P1
   P2 -4x-HDR-> MQM8700 s2 P2
   P3 -1x-HDR-> MQM8700 s2 P3
   P4 -4x-EDR-> MQM8700 s2 P4
   P5 -4x-HDR-> MQM8700 s2 P5

MQM8700 s2
   P1 -1x-HDR-> MQM8700 s1 P1
   P2 -4x-EDR-> MQM8700 s1 P2
   P3 -4x-HDR-> MQM8700 s1 P3
   P4 -4x-HDR-> MQM8700 s1 P4
   P5 -4x-HDR-> MQM8700 s1 P5
TOPO
expect_rc 1 "$FL" diff --fail-on warning --format json "$TMP/plan.xml" "$TMP/built.topo"
ends() { jget "$TMP/out" "=' '.join('%s:%s:%s' % (f['location']['line'], f['evidence']['attribute'], f['evidence']['as_built']) for f in d['findings'] if f['rule'] == 'diff.different')"; }
expect_eq "$(ends)" "4:width:1xHDR 5:speed:4xEDR 6:width:1xHDR 7:speed:4xEDR" "rated by the slower end"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 4 "findings"

# ---- 2. duplicates -----------------------------------------------------------
cat >"$TMP/dupd.xml" <<'XML'
<fabric xmlns="urn:fabriclint:design:1" version="1">
<node kind="switch" name="s1"/>
<node kind="switch" name="s2"/>
<link a="s1" a-port="1" b="s2" b-port="1" width="4x" speed="HDR"/>
<link a="s1" a-port="2" b="s2" b-port="2" width="4x" speed="HDR"/>
<link a="s2" a-port="1" b="s1" b-port="1" width="4x" speed="HDR"/>
</fabric>
XML
cat >"$TMP/dupb.xml" <<'XML'
<fabric xmlns="urn:fabriclint:design:1" version="1">
<node kind="switch" name="s1"/>
<node kind="switch" name="s2"/>
<link a="s1" a-port="1" b="s2" b-port="1" width="4x" speed="HDR"/>
<link a="s1" a-port="2" b="s2" b-port="2" width="4x" speed="HDR"/>
<link a="s1" a-port="7" b="s2" b-port="7" width="4x" speed="HDR"/>
<link a="s2" a-port="7" b="s1" b-port="7" width="4x" speed="HDR"/>
</fabric>
XML
expect_rc 1 "$FL" diff --format json "$TMP/dupd.xml" "$TMP/dupb.xml"
where() { jget "$TMP/out" "=' '.join(sorted('%s:%s:%s' % (f['rule'], f['location']['file'].split('/')[-1], f['location']['line']) for f in d['findings']))"; }
expect_eq "$(where)" \
  "diff.duplicate:dupb.xml:7 diff.duplicate:dupd.xml:6 diff.unexpected:dupb.xml:6" \
  "duplicates at the later listing"

# ---- 3. misconnected: a tie between two moves ------------------------------
cat >"$TMP/misd.xml" <<'XML'
<fabric xmlns="urn:fabriclint:design:1" version="1">
<node kind="switch" name="s1"/>
<node kind="switch" name="s2"/>
<link a="s1" a-port="1" b="s2" b-port="1" width="4x" speed="HDR"/>
</fabric>
XML
cat >"$TMP/misb.xml" <<'XML'
<fabric xmlns="urn:fabriclint:design:1" version="1">
<node kind="switch" name="s1"/>
<node kind="switch" name="s2"/>
<link a="s1" a-port="1" b="s2" b-port="5" width="4x" speed="HDR"/>
<link a="s2" a-port="1" b="s1" b-port="6" width="4x" speed="HDR"/>
</fabric>
XML
expect_rc 1 "$FL" diff --format json "$TMP/misd.xml" "$TMP/misb.xml"
expect_eq "$(where)" "diff.misconnected:misd.xml:4 diff.unexpected:misb.xml:5" "tie findings"
expect_eq "$(jget "$TMP/out" "=[f['message'] for f in d['findings'] if f['rule'] == 'diff.misconnected'][0]")" \
  'cable from "s1" port 1 lands on "s2" port 5; the plan puts it on "s2" port 1: move that end from "s2" port 5 to "s2" port 1' \
  "tie: the move from the A end"
finish
