#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
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

# An SU with NICs that could not be placed (rail-alignment.unresolved: no
# host name in their description) was skipped whole, so a rail leaf absent
# from the capture hid behind them (NVIDIA/topograph's example: rail 3 of
# SU 1 missing, found by an outside tester). Its rail leaves are still
# known; only its hosts per leaf are a lower bound. gen: 3 SUs x 8 hosts x
# 4 rails as ibnetdiscover; edit: drop leaf-su01-r2 (block and every line
# naming it), and unname NICs of dgx-001.
"$FL" gen rail-su --sus 3 --hosts-per-su 8 --rails 4 --format ibnetdiscover >"$TMP/g.ibnd"
# cut LEAF HOST UNNAME... — the capture without switch LEAF and host HOST
# ("-": none), the NICs named UNNAME described as a bare ConnectX-7
cut() {
  python3 - "$TMP/g.ibnd" "$@" <<'PY'
import sys
src, drop, host, unname = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
blocks = open(src).read().split('\n\n')
# drop a switch (its block and every line naming it) or a host (its CA
# blocks and the switch lines naming its NICs); "-": none
for q, head in (('"%s"' % drop, 'Switch'), ('"%s ' % host, 'Ca')):
    if q in ('"-"', '"- '):
        continue
    blocks = ['\n'.join(l for l in b.split('\n') if q not in l)
              for b in blocks
              if not any(l.startswith(head) and q in l for l in b.split('\n'))]
out = '\n\n'.join(blocks)
for n in unname:
    out = out.replace('"%s"' % n, '"MT4129 ConnectX7   Mellanox Technologies"')
sys.stdout.write(out)
PY
}
cut leaf-su01-r2 - "dgx-001 mlx5_0" >"$TMP/u1.ibnd"
expect_rc 0 "$FL" check $R "$TMP/u1.ibnd"
expect_eq "$(jget "$TMP/out" "=[(f['evidence']['rail_leaves'], f['evidence']['usual_rail_leaves']) for f in d['findings']]")" "[(3, 4)]" "unplaced NIC: the missing rail leaf still seen"
expect_grep "$TMP/out" 'has 3 rail leaves \(none for rail mlx5_2\) and up to 8 hosts per leaf, while 2 of the 3 SUs have 4 and 8; some of its NICs could not be placed \(rail-alignment.unresolved\), so its hosts per leaf are a lower bound'
# every leaf there, a whole host unnamed: 7 placed hosts per leaf in SU 1
# is a lower bound, not a smaller SU: nothing
cut - - "dgx-001 mlx5_0" "dgx-001 mlx5_1" "dgx-001 mlx5_2" "dgx-001 mlx5_3" >"$TMP/u2.ibnd"
expect_rc 0 "$FL" check $R "$TMP/u2.ibnd"
expect_eq "$(sev)" "[]" "unplaced host: hosts per leaf a lower bound"
# the same host named: SU 1 with 7 hosts per leaf is a smaller SU
cut - dgx-001 >"$TMP/u3.ibnd"
expect_rc 0 "$FL" check $R "$TMP/u3.ibnd"
expect_eq "$(jget "$TMP/out" "=[f['evidence']['hosts_per_leaf'] for f in d['findings']]")" "[7]" "a named SU of 7"
# rails are matched by name only when the smaller SU's rails are among the
# reference's: topograph's SU of mlx5_N NICs (the rest HCA-N) names none
expect_rc 1 "$FL" check --format json "$FL_EXTERNAL/NVIDIA__topograph__tests__output__ibnetdiscover__example.out"
expect_eq "$(jget "$TMP/out" "=[m['message'].split(' and up to')[0] for f in d['findings'] if f['rule'] == 'rail-alignment.su-shape' for m in f['evidence']['members']]")" \
  "['the SU of leaf \"MF0;A09-P1-IBLEAF-04-04:MQM9701/U1\" has 4 rail leaves', 'the SU of leaf \"MF0;A09-P1-IBLEAF-04-01:MQM9701/U1\" has 3 rail leaves (none for rail HCA-5)']" "topograph: SU 1 lacks its HCA-5 leaf"
finish
