#!/usr/bin/env bash
# tests/cli/rail_shape_fabric.sh — rail-alignment.su-shape judges "scalable
# units should be identical" as a warning only on a GPU compute fabric:
# SUs of MIN_COMPUTE_RAILS = 4 or more rail leaves, or leaves declaring
# rails; with fewer (a storage fabric of dual-homed hosts and appliances:
# Selene storage, class F17 of docs/real-fabrics.md) it is info and says
# what it assumed. Fixtures: `fabriclint gen rail-su` (2 SUs x 8 hosts) as
# ibnetdiscover with the last host of SU 2 removed (its CA blocks and the
# leaf ports that list it), so SU 2 has 7 hosts per rail leaf.
. "$(dirname "$0")/lib.bash"
R="--rules rail-alignment.su-shape --format json"
sev() { jget "$TMP/out" "=[(f['rule'], f['severity']) for f in d['findings']]"; }
# mk RAILS — the fabric with RAILS rails, dgx-016 removed
mk() {
  "$FL" gen rail-su --sus 2 --hosts-per-su 8 --rails "$1" --format ibnetdiscover |
    awk 'BEGIN { RS = ""; ORS = "\n\n" } !/\nCa[^\n]*"dgx-016 /' |
    grep -v '"dgx-016 ' >"$TMP/r$1.ibnd"
}
# 3 rails: below the boundary, info with the assumption
mk 3
expect_rc 0 "$FL" check $R "$TMP/r3.ibnd"
expect_eq "$(sev)" "[('rail-alignment.su-shape', 'info')]" "3 rails: info"
expect_grep "$TMP/out" 'assumed not a GPU compute fabric: its SUs have 3 rail leaves, fewer than 4, and no leaf declares a rail'
expect_eq "$(jget "$TMP/out" "['findings'][0]['evidence']['compute_fabric']")" "False" "3 rails: evidence"
# 4 rails: at the boundary, a warning
mk 4
expect_rc 0 "$FL" check $R "$TMP/r4.ibnd"
expect_eq "$(sev)" "[('rail-alignment.su-shape', 'warning')]" "4 rails: warning"
expect_eq "$(jget "$TMP/out" "=[f['evidence']['hosts_per_leaf'] for f in d['findings']]")" "[7]" "4 rails: the SU of 7"
expect_eq "$(jget "$TMP/out" "['findings'][0]['evidence']['compute_fabric']")" "True" "4 rails: evidence"
# 3 rails, but the design declares them (gen's design XML has rail= on
# NICs and leaves; dgx-016's nodes and links removed): a warning
"$FL" gen rail-su --sus 2 --hosts-per-su 8 --rails 3 -o "$TMP/r3.xml"
sed -i -E '/name="dgx-016 /,/<\/node>/d; /a="dgx-016 /d' "$TMP/r3.xml"
expect_rc 0 "$FL" check $R "$TMP/r3.xml"
expect_eq "$(sev)" "[('rail-alignment.su-shape', 'warning')]" "3 declared rails: warning"
finish
