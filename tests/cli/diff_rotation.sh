#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/diff_rotation.sh — cables rotated among ports (outside tester,
# session 10: three cables whose ends each land on the next one's planned
# port were three unrelated moves, and no move could be done first):
#   - a rotation of 3 (and of 4) cables: one diff.misconnected finding for
#     the rotation, its members counted, the planned ports in ring order,
#     "unplug those N ends" first; one work-order row per cable, each saying
#     it is one of a rotation of N;
#   - both directions of the rotation;
#   - boundaries: 2 cables crossed stay diff.swapped; a chain of 3 moves
#     whose last lands on a free port is 3 moves, not a rotation; two
#     rotations apart are two findings.
# Plan from `fabriclint gen`; the as-built is the plan rewired and written
# as an ibnetdiscover dump by `fabriclint convert`.
. "$(dirname "$0")/lib.bash"
"$FL" gen rail-su --sus 1 --hosts-per-su 8 -o "$TMP/plan.xml"

# built NAME HOST:NIC:LEAF:PORT... — the plan with each listed NIC's cable
# moved to LEAF port PORT, written as an ibnetdiscover dump NAME.ibnd
built() {
  local name=$1
  shift
  python3 - "$TMP/plan.xml" "$@" >"$TMP/$name.xml" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
for spec in sys.argv[2:]:
    host, nic, leaf, port = spec.split(":")
    pat = r'<link a="%s %s" a-port="1" b="[^"]+" b-port="\d+"' % (re.escape(host), re.escape(nic))
    if len(re.findall(pat, text)) != 1:
        sys.exit("built: no single cable of %s %s" % (host, nic))
    text = re.sub(pat, '<link a="%s %s" a-port="1" b="%s" b-port="%s"' % (host, nic, leaf, port), text)
sys.stdout.write(text)
PY
  "$FL" convert "$TMP/$name.xml" -o "$TMP/$name.ibnd" --force
}
summary() {
  jget "$TMP/out" "=[(f['rule'], len(f['evidence'].get('members', [])) or 1, f['message'].split('; e.g.')[0]) for f in d['findings']]"
}

# ---- a rotation of 3, both directions ----------------------------------------
built rot3 dgx-001:mlx5_0:leaf-su01-r1:1 dgx-001:mlx5_3:leaf-su01-r2:1 dgx-001:mlx5_4:leaf-su01-r0:1
expect_rc 1 "$FL" diff --format json "$TMP/plan.xml" "$TMP/rot3.ibnd"
expect_eq "$(summary)" "[('diff.misconnected', 3, '3 cables are rotated: each lands on the next one\\'s planned port (\"leaf-su01-r0\" port 1, \"leaf-su01-r1\" port 1, \"leaf-su01-r2\" port 1); no move can be done alone: unplug the 3 cable ends at those ports, then plug each into its planned port (the moves below: from -> to)')]" \
  "rotation of 3: one finding, 3 members, the planned ports in ring order"
expect_rc 1 "$FL" diff --format csv "$TMP/plan.xml" "$TMP/rot3.ibnd"
expect_eq "$(grep -c ',move,diff.misconnected,.*one of a rotation of 3 cables: unplug their 3 ends first' "$TMP/out")" "3" \
  "rotation of 3: one work-order row per cable, each part of the rotation"
built rot3r dgx-001:mlx5_0:leaf-su01-r2:1 dgx-001:mlx5_3:leaf-su01-r0:1 dgx-001:mlx5_4:leaf-su01-r1:1
expect_rc 1 "$FL" diff --format json "$TMP/plan.xml" "$TMP/rot3r.ibnd"
expect_eq "$(summary)" "[('diff.misconnected', 3, '3 cables are rotated: each lands on the next one\\'s planned port (\"leaf-su01-r0\" port 1, \"leaf-su01-r2\" port 1, \"leaf-su01-r1\" port 1); no move can be done alone: unplug the 3 cable ends at those ports, then plug each into its planned port (the moves below: from -> to)')]" \
  "rotation of 3 the other way: one finding, the ring in its own order"

# ---- a rotation of 4 ------------------------------------------------------------
built rot4 dgx-002:mlx5_0:leaf-su01-r1:2 dgx-002:mlx5_3:leaf-su01-r2:2 dgx-002:mlx5_4:leaf-su01-r3:2 dgx-002:mlx5_5:leaf-su01-r0:2
expect_rc 1 "$FL" diff --format json "$TMP/plan.xml" "$TMP/rot4.ibnd"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], len(f['evidence']['members']), f['message'].split(':')[0]) for f in d['findings']]")" \
  "[('diff.misconnected', 4, '4 cables are rotated')]" "rotation of 4: one finding of 4"

# ---- boundaries ---------------------------------------------------------------
# 2 cables crossed: the swap, not a rotation
built swap2 dgx-003:mlx5_0:leaf-su01-r1:3 dgx-003:mlx5_3:leaf-su01-r0:3
expect_rc 1 "$FL" diff --format json "$TMP/plan.xml" "$TMP/swap2.ibnd"
expect_eq "$(jget "$TMP/out" "=[f['rule'] for f in d['findings']]")" "['diff.swapped']" "2 cables crossed: diff.swapped"
# a chain that does not close: the last cable lands on a free port
built chain3 dgx-001:mlx5_0:leaf-su01-r1:1 dgx-001:mlx5_3:leaf-su01-r2:1 dgx-001:mlx5_4:leaf-su01-r0:20
expect_rc 1 "$FL" diff --format json "$TMP/plan.xml" "$TMP/chain3.ibnd"
expect_eq "$(jget "$TMP/out" "=sorted((f['rule'], 'rotated' in f['message'], len(f['evidence'].get('members', []))) for f in d['findings'])")" \
  "[('diff.misconnected', False, 0), ('diff.misconnected', False, 0), ('diff.misconnected', False, 0)]" \
  "open chain of 3 (last onto a free port): 3 moves, no rotation"
expect_rc 1 "$FL" diff --format csv "$TMP/plan.xml" "$TMP/chain3.ibnd"
expect_eq "$(grep -c 'rotation' "$TMP/out")" "0" "open chain: no row says rotation"
# crossed pairs between the same two leaves are one cause: 3 hosts with
# rails 0 and 1 crossed, one finding of 3 swaps; one more pair between
# other leaves stays its own finding (outside tester, session 11)
built swaps dgx-001:mlx5_0:leaf-su01-r1:1 dgx-001:mlx5_3:leaf-su01-r0:1 \
  dgx-002:mlx5_0:leaf-su01-r1:2 dgx-002:mlx5_3:leaf-su01-r0:2 \
  dgx-003:mlx5_0:leaf-su01-r1:3 dgx-003:mlx5_3:leaf-su01-r0:3 \
  dgx-004:mlx5_4:leaf-su01-r3:4 dgx-004:mlx5_5:leaf-su01-r2:4
expect_rc 1 "$FL" diff --format json "$TMP/plan.xml" "$TMP/swaps.ibnd"
expect_eq "$(jget "$TMP/out" "=sorted((f['rule'], len(f['evidence'].get('members', [])) or 1, f['message'].split(':')[0]) for f in d['findings'])")" \
  "[('diff.swapped', 1, 'cables crossed'), ('diff.swapped', 3, '3 pairs of cables to \"leaf-su01-r0\" and \"leaf-su01-r1\" are crossed')]" \
  "crossed pairs: one finding per pair of leaves, its swaps as members"
expect_rc 1 "$FL" diff --format csv "$TMP/plan.xml" "$TMP/swaps.ibnd"
expect_eq "$(grep -c ',swap,diff.swapped,' "$TMP/out")" "4" "crossed pairs: one work-order row per swap"
# two rotations apart: two findings
built two dgx-001:mlx5_0:leaf-su01-r1:1 dgx-001:mlx5_3:leaf-su01-r2:1 dgx-001:mlx5_4:leaf-su01-r0:1 \
  dgx-005:mlx5_0:leaf-su01-r1:5 dgx-005:mlx5_3:leaf-su01-r2:5 dgx-005:mlx5_4:leaf-su01-r0:5
expect_rc 1 "$FL" diff --format json "$TMP/plan.xml" "$TMP/two.ibnd"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], len(f['evidence']['members'])) for f in d['findings']]")" \
  "[('diff.misconnected', 3), ('diff.misconnected', 3)]" "two rotations: two findings of 3"
finish
