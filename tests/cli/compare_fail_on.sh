#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/compare_fail_on.sh — `compare --fail-on` (docs/cli.md
# "compare"): each policy fails at its boundary and not one step before;
# exit codes as check's (0 held, 1 failed, 2 usage or a policy that cannot
# be judged); --exit-zero. Plans of tests/cli/compare_lib.bash.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/compare_lib.bash"
cmp_plans || { fail "gen"; finish; }
B=$TMP/base.xml O=$TMP/over.xml H=$TMP/hdr.xml S=$TMP/su3.xml
verdicts() { jget "$TMP/out" "=[(p['policy'], p['failed']) for p in d['fail_on']]"; }

# new-error (the default) and new-warning: hdr.xml brings warnings only (one cable at HDR: one warning, its consequences attached)
expect_rc 0 "$FL" compare -q "$B" "$H"
expect_rc 0 "$FL" compare -q --fail-on new-error "$B" "$H"
expect_rc 1 "$FL" compare -q --fail-on new-warning "$B" "$H"
expect_grep "$TMP/out" '^  FAIL new-warning: 1 new error or warning finding\(s\)'
expect_rc 1 "$FL" compare -q "$B" "$O"
expect_rc 1 "$FL" compare -q --fail-on new-warning "$B" "$O"
expect_rc 0 "$FL" compare -q "$O" "$B"           # fixed, nothing new
expect_rc 0 "$FL" compare -q --fail-on new-warning "$H" "$B"
expect_rc 0 "$FL" compare -q --exit-zero "$B" "$O"
expect_rc 0 "$FL" compare -q --fail-on never "$B" "$O"

# oversubscription-rise[=X]: 1:1 -> 2:1 rises by exactly 1
expect_rc 1 "$FL" compare --format json --fail-on oversubscription-rise "$B" "$O"
expect_eq "$(verdicts)" "[('oversubscription-rise', True)]" "rise > 0"
expect_rc 0 "$FL" compare --format json --fail-on oversubscription-rise=1 "$B" "$O"
expect_eq "$(jget "$TMP/out" "=d['fail_on'][0]['why']")" "tier 1 1:1 -> 2:1 (+1, within 1)" "at the boundary"
expect_rc 1 "$FL" compare -q --fail-on oversubscription-rise=0.999 "$B" "$O"
expect_rc 0 "$FL" compare -q --fail-on oversubscription-rise "$O" "$B" # falls
expect_rc 0 "$FL" compare -q --fail-on oversubscription-rise "$B" "$S" # 1:1 both
# 6400 / 6200 = 1.032258:1 (rounded to a millionth)
expect_rc 0 "$FL" compare -q --fail-on oversubscription-rise=0.032258 "$B" "$H"
expect_rc 1 "$FL" compare -q --fail-on oversubscription-rise=0.032257 "$B" "$H"
expect_grep "$TMP/out" '^  FAIL oversubscription-rise=0.032257: tier 1 1:1 -> 1.032:1'

# ebb-drop[=X]: the drop of 1:1 -> 2:1, read from the report
expect_rc 0 "$FL" compare --format json --fail-on never "$B" "$O"
drop=$(jget "$TMP/out" "=repr(-d['delta']['capacity']['ebb'])")
less=$(pyval "repr($drop - 0.001)")
expect_eq "$(pyval "0.2 < $drop < 1")" True "the eBB falls (by $drop)"
expect_rc 0 "$FL" compare -q --fail-on "ebb-drop=$drop" "$B" "$O"
expect_rc 1 "$FL" compare -q --fail-on "ebb-drop=$less" "$B" "$O"
expect_rc 1 "$FL" compare -q --fail-on ebb-drop "$B" "$O"
expect_rc 0 "$FL" compare -q --fail-on ebb-drop "$O" "$B"
expect_rc 0 "$FL" compare -q --fail-on ebb-drop "$B" "$S"

# several policies: any failing one fails the run; each is reported
expect_rc 1 "$FL" compare --format json --fail-on oversubscription-rise=1,new-error "$B" "$O"
expect_eq "$(verdicts)" "[('oversubscription-rise=1', False), ('new-error', True)]" "two policies"
expect_rc 0 "$FL" compare --format json --fail-on oversubscription-rise=1 --fail-on "ebb-drop=$drop" "$B" "$O"
expect_eq "$(verdicts)" "[('oversubscription-rise=1', False), ('ebb-drop=$drop', False)]" "repeated --fail-on"

# a policy that cannot be judged is an error, not a pass
expect_rc 2 "$FL" compare -q --patterns none --fail-on ebb-drop "$B" "$O"
expect_grep "$TMP/err" 'fabriclint: --fail-on ebb-drop cannot be judged: no eBB figure'
# bad policies
expect_rc 2 "$FL" compare --fail-on new-errors "$B" "$O"
expect_grep "$TMP/err" "expected new-error, new-warning, oversubscription-rise\[=X\], ebb-drop\[=X\], busbw-drop\[=X\], cost-rise\[=X\], power-rise\[=X\], step-rise\[=X\] or never, got 'new-errors'"
expect_rc 2 "$FL" compare --fail-on oversubscription-rise=-1 "$B" "$O"
expect_grep "$TMP/err" "expected a number X >= 0, got '-1'"
expect_rc 2 "$FL" compare --fail-on new-error=1 "$B" "$O"
expect_rc 2 "$FL" compare --fail-on error "$B" "$O"
finish
