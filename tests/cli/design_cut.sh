#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/design_cut.sh — a design XML cut short, or with something after
# its end, is said in those words with the file and line (issue 30, outside
# tester: a truncated plan gave libxml2's "Extra content at the end of the
# document" or "Premature end of data", which reads as the opposite).
#   - cut in an attribute, at a line boundary inside a node, and just
#     before the last line (`</fabric>` missing: the boundary), and in the
#     end tag itself (`</fabric` without its '>'): "ends at line N, inside
#     <fabric> (opened at line 2, never closed): it looks cut short";
#   - past the boundary: the whole file, and the whole file with a trailing
#     comment, load; with an element after </fabric>: "content after the
#     end of the document", at the line of that content;
#   - an error before the end (a tag mismatch on line 11 of a cut file) is
#     reported where it is, not as a cut.
# Plan from `fabriclint gen`, cut with head/sed.
. "$(dirname "$0")/lib.bash"
"$FL" gen rail-su --sus 1 --hosts-per-su 2 --rails 2 -o "$TMP/plan.xml"
n=$(wc -l <"$TMP/plan.xml")
cut_msg() { echo "fabriclint: $TMP/$1:$2: the file ends at line $2, inside <fabric> (opened at line 2, never closed): it looks cut short (an interrupted copy, download or write?)"; }
first() { sed 's/; libxml2 says:.*//' "$TMP/err"; }

head -c 1500 "$TMP/plan.xml" >"$TMP/attr.xml"
expect_rc 2 "$FL" check "$TMP/attr.xml"
expect_eq "$(first)" "$(cut_msg attr.xml "$(wc -l <"$TMP/attr.xml" | awk '{print $1 + 1}')")" "cut in an attribute"
head -n 12 "$TMP/plan.xml" >"$TMP/line.xml"
expect_rc 2 "$FL" check "$TMP/line.xml"
expect_eq "$(first)" "$(cut_msg line.xml 12)" "cut at a line boundary inside a node"
head -n $((n - 1)) "$TMP/plan.xml" >"$TMP/noend.xml"
expect_rc 2 "$FL" check "$TMP/noend.xml"
expect_eq "$(first)" "$(cut_msg noend.xml $((n - 1)))" "the last line (</fabric>) missing"
head -c -2 "$TMP/plan.xml" >"$TMP/endtag.xml"
expect_rc 2 "$FL" check "$TMP/endtag.xml"
expect_eq "$(first)" "$(cut_msg endtag.xml "$n")" "cut inside the end tag"
# past the boundary: whole files
expect_rc 0 "$FL" check --exit-zero "$TMP/plan.xml"
head -c -1 "$TMP/plan.xml" >"$TMP/nonl.xml"
expect_rc 0 "$FL" check --exit-zero "$TMP/nonl.xml"
{ cat "$TMP/plan.xml"; echo "<!-- exported by hand -->"; } >"$TMP/comment.xml"
expect_rc 0 "$FL" check --exit-zero "$TMP/comment.xml"
{ cat "$TMP/plan.xml"; echo; cat "$TMP/plan.xml"; } >"$TMP/twice.xml"
expect_rc 2 "$FL" check "$TMP/twice.xml"
expect_eq "$(first)" "fabriclint: $TMP/twice.xml:$((n + 2)): content after the end of the document: <fabric> closes at line $n and line $((n + 2)) has more (two files joined, or text appended?)" \
  "two files joined: the line after the end"
# an error before the end is that error, not a cut
{ sed -n 1,10p "$TMP/plan.xml"; echo '  <node kind="switch" name="x" ports="4"></nod>'; sed -n "11,12p" "$TMP/plan.xml"; } >"$TMP/early.xml"
expect_rc 2 "$FL" check "$TMP/early.xml"
expect_grep "$TMP/err" "early.xml:11:[0-9]+: not well-formed XML: Opening and ending tag mismatch"
finish
