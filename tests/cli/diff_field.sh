#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/diff_field.sh — what an outside tester found trying `diff` as
# a field team would (session 10):
#   1. two hosts (or two leaves) that describe themselves by each other's
#      names, GUIDs and cables untouched: not 8 (or 48) cable swaps but one
#      description finding per host, "no cable is to move"
#      (core/diff/diff_match.c cables_agree(): the cabling decides between
#      a GUID and a name);
#   2. an as-built read from standard input, a pipe or a process
#      substitution (the side checks detected the format first and consumed
#      the input);
#   3. the work order in natural port order (2 before 10).
# (A real crossing of cables still gives diff.swapped: diff_headline.sh.)
# Plan and dump from `fabriclint gen` (the dump as the subnet manager's
# ibnetdiscover would print it), names swapped with sed.
. "$(dirname "$0")/lib.bash"
"$FL" gen rail-su --sus 1 --hosts-per-su 16 -o "$TMP/plan.xml"
"$FL" gen rail-su --sus 1 --hosts-per-su 16 --format ibnetdiscover -o "$TMP/built.ibnd"
tally() { jget "$TMP/out" "=sorted(__import__('collections').Counter((f['rule'], f['severity']) for f in d['findings']).items())"; }

# ---- 1. names swapped, cables right -------------------------------------------
sed 's/"dgx-001 /"dgx-TMP /g; s/"dgx-002 /"dgx-001 /g; s/"dgx-TMP /"dgx-002 /g' \
  "$TMP/built.ibnd" >"$TMP/hostswap.ibnd"
expect_rc 0 "$FL" diff --format json "$TMP/plan.xml" "$TMP/hostswap.ibnd"
# two hosts' names swapped are one mistake (issue 30): one finding of 16 NICs
expect_eq "$(tally)" "[(('diff.different', 'warning'), 1)]" "host names swapped: one finding, no swap"
expect_eq "$(jget "$TMP/out" "['findings'][0]['message'].split(';')[0]")" \
  "2 hosts carry each other's names (\"dgx-001\" where the plan has \"dgx-002\", \"dgx-002\" where the plan has \"dgx-001\"): the names go round among them" "host names swapped: one finding for the two hosts"
expect_eq "$(jget "$TMP/out" "['findings'][0]['evidence']['count']")" 16 "host names swapped: its 16 NICs counted"
expect_grep "$TMP/out" 'no cable is to move'
expect_rc 0 "$FL" diff --format csv "$TMP/plan.xml" "$TMP/hostswap.ibnd"
expect_eq "$(wc -l <"$TMP/out")" 1 "host names swapped: no work-order row"
sed 's/"leaf-su01-r0"/"leaf-TMP"/g; s/"leaf-su01-r1"/"leaf-su01-r0"/g; s/"leaf-TMP"/"leaf-su01-r1"/g' \
  "$TMP/built.ibnd" >"$TMP/leafswap.ibnd"
expect_rc 0 "$FL" diff --format json "$TMP/plan.xml" "$TMP/leafswap.ibnd"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['evidence']['attribute']) for f in d['findings']]")" \
  "[('diff.different', 'description'), ('diff.different', 'description')]" "leaf names swapped: two descriptions, no swap"
# ---- 2. standard input, a pipe, a process substitution --------------------------
expect_rc 0 "$FL" diff --format json "$TMP/plan.xml" "$TMP/built.ibnd"
want=$(tally)
"$FL" diff --format json "$TMP/plan.xml" - <"$TMP/hostswap.ibnd" >"$TMP/out" 2>"$TMP/err"
expect_eq "$?:$(tally)" "0:[(('diff.different', 'warning'), 1)]" "as-built on standard input"
cat "$TMP/built.ibnd" | "$FL" diff --format json "$TMP/plan.xml" - >"$TMP/out" 2>"$TMP/err"
expect_eq "$?:$(tally)" "0:$want" "as-built through a pipe"
"$FL" diff --format json "$TMP/plan.xml" <(cat "$TMP/built.ibnd") >"$TMP/out" 2>"$TMP/err"
expect_eq "$?:$(tally)" "0:$want" "as-built as a process substitution"
cat "$TMP/plan.xml" | "$FL" diff --format json - "$TMP/built.ibnd" >"$TMP/out" 2>"$TMP/err"
expect_eq "$?:$(tally)" "0:$want" "design through a pipe"

# ---- 3. the work order in natural port order ---------------------------------------
# the as-built without leaf-su01-r3: one `check` row per planned cable of
# the missing leaf, by its port: 1, 2, ..., 10, ... (not 1, 10, 11, ...)
python3 - "$TMP/plan.xml" >"$TMP/cut.xml" <<'PY'
import sys
out, skip = [], False
for line in open(sys.argv[1]).read().split("\n"):
    s = line.lstrip()
    if s.startswith("<node "):
        skip = 'name="leaf-su01-r3"' in s
    if skip or (s.startswith("<link ") and '"leaf-su01-r3"' in s):
        if s.startswith("</node>"):
            skip = False
        continue
    out.append(line)
sys.stdout.write("\n".join(out))
PY
"$FL" convert "$TMP/cut.xml" -o "$TMP/cut.ibnd" --format ibnetdiscover
expect_rc 1 "$FL" diff --format csv "$TMP/plan.xml" "$TMP/cut.ibnd"
expect_eq "$(grep ',leaf-su01-r3,' "$TMP/out" | cut -d, -f5 | tr '\n' ' ')" \
  "$( (seq 1 16; seq 33 64) | tr '\n' ' ')" "work order: the missing leaf's ports in natural order"
finish
