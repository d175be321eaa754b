#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/rail_naming_renumbered.sh — hosts that share one set of NIC
# names but number the slots differently (issue 30 §1). An outside
# tester's real NDR fabric (ibdiagnet .lst, 32 hosts x 8 NICs, 8 rail
# leaves): 29 hosts name their NICs HCA-1..6, HCA-11, HCA-12; three name
# them HCA-1..8. Two of those three put HCA-3 on the leaf of rail HCA-5
# (HCA-3..8 on rails HCA-5, 6, 11, 12, 3, 4); the third (h4-1-gpu) put
# HCA-1..6 on their own rails and HCA-7/8 on rails HCA-11/12. The mapping
# of the naming group (2 of 3 hosts) made the correctly cabled third host
# cross-rail on 6 NICs. A host whose NICs land one on each rail leaf, whose
# NICs named like rails all land on those rails, and which contradicts the
# mapping on at least NAMES_AGREE (2) of them is read by its own names.
# Fixtures: the shipped real-tool capture fabrics/rail-su-asbuilt
# (ibsim + ibnetdiscover, 32 hosts x 8 NICs mlx5_0/3/4/5/6/9/10/11 on 8
# rail leaves; dgx-001 has mlx5_0 and mlx5_3 swapped: that finding stays)
# with some hosts' NIC descriptions renamed the same way as the tester's:
#   N (like h4-1-gpu): mlx5_10 -> mlx5_1, mlx5_11 -> mlx5_2
#   X (like h4-31/32): mlx5_4/5/6/9/10/11 -> mlx5_1/2/4/5/6/9
# both name their NICs mlx5_0/1/2/3/4/5/6/9.
. "$(dirname "$0")/lib.bash"
R="--rules rail-alignment --format json"
SRC="$FL_SRC/fabrics/rail-su-asbuilt.ibnetdiscover"
findings() { jget "$TMP/out" "=sorted((f['rule'], f['severity'], tuple(sorted(f['nodes']))[:2]) for f in d['findings'] if f['severity'] != 'info')"; }
DGX1="[('rail-alignment.swapped', 'error', ('dgx-001 mlx5_0', 'dgx-001 mlx5_3'))]"
SWAP2="[('rail-alignment.swapped', 'error', ('dgx-001 mlx5_0', 'dgx-001 mlx5_3')), ('rail-alignment.swapped', 'error', ('dgx-002 mlx5_4', 'dgx-002 mlx5_5'))]"

# mk OUT HOST=SCHEME... [SWAP=HOST:A:B] — rename NIC descriptions; SWAP
# trades two names of one host (after renaming): its two cables then land
# on each other's leaves
mk() {
  python3 - "$SRC" "$TMP/$1.ibnd" "${@:2}" <<'PY' || fail "mk $1"
import re, sys
S = {'N': {'mlx5_10': 'mlx5_1', 'mlx5_11': 'mlx5_2'},
     'X': {'mlx5_4': 'mlx5_1', 'mlx5_5': 'mlx5_2', 'mlx5_6': 'mlx5_4',
           'mlx5_9': 'mlx5_5', 'mlx5_10': 'mlx5_6', 'mlx5_11': 'mlx5_9'},
     # N with mlx5_4 and mlx5_5 exchanged: 2 names against N's
     'X2': {'mlx5_4': 'mlx5_5', 'mlx5_5': 'mlx5_4', 'mlx5_10': 'mlx5_1',
            'mlx5_11': 'mlx5_2'},
     # N with mlx5_5 and mlx5_1 exchanged: 1 name of the reference against
     'X1': {'mlx5_5': 'mlx5_1', 'mlx5_10': 'mlx5_5', 'mlx5_11': 'mlx5_2'},
     # mlx5_4/5 exchanged, mlx5_6/9 moved to rails mlx5_10/11
     'X3': {'mlx5_4': 'mlx5_5', 'mlx5_5': 'mlx5_4', 'mlx5_6': 'mlx5_1',
            'mlx5_9': 'mlx5_2', 'mlx5_10': 'mlx5_6', 'mlx5_11': 'mlx5_9'}}
src, dst, *args = sys.argv[1:]
plan, swap = {}, {}
for a in args:
    k, v = a.split('=')
    if k == 'SWAP':
        h, x, y = v.split(':')
        swap[h] = {x: y, y: x}
    else:
        plan[k] = S[v]
def sub(m):
    h, d = m.group(1), m.group(2)
    d = plan.get(h, {}).get(d, d)
    return '"%s %s"' % (h, swap.get(h, {}).get(d, d))
text, n = re.subn(r'"(dgx-\d+) (mlx5_\d+)"', sub, open(src).read())
assert n == 512, n  # 256 NICs, each named on its switch's and its own line
open(dst, 'w').write(text)
PY
}

# the unchanged capture: its one swap
expect_rc 1 "$FL" check $R "$SRC"
expect_eq "$(findings)" "$DGX1" "as built"

# the tester's fabric: one N host, two X hosts (weak mapping, 2 of 3);
# both orientations (the N host first in the file, or last)
for o in "dgx-002=N dgx-031=X dgx-032=X" "dgx-032=N dgx-002=X dgx-003=X"; do
  # shellcheck disable=SC2086
  mk renum $o
  expect_rc 1 "$FL" check $R "$TMP/renum.ibnd"
  expect_eq "$(findings)" "$DGX1" "renumbered ($o): only dgx-001's swap"
  expect_rc 1 "$FL" check --rules rail-alignment -v "$TMP/renum.ibnd"
  expect_grep "$TMP/err" "1 host\(s\) \(e\.g\. dgx-0(02|32)\) keep their own names \\(those"
  expect_grep "$TMP/err" 'mlx5_1 on hosts named mlx5_0/mlx5_1/mlx5_2/mlx5_3/mlx5_4/mlx5_5/mlx5_6/mlx5_9 -> rail mlx5_4 \(2 of 3 cables\)'
done
# a strong mapping (4 X hosts, 4 of 5): the N host is still read by its names
mk strong dgx-002=N dgx-029=X dgx-030=X dgx-031=X dgx-032=X
expect_rc 1 "$FL" check $R "$TMP/strong.ibnd"
expect_eq "$(findings)" "$DGX1" "strong mapping: only dgx-001's swap"

# a real swap on the N host (two NICs named like rails trade cables): its
# names still explain it better than the mapping (2 NICs off, not 6), and
# judged by them the swap is found, with nothing else; both ways round
for sw in mlx5_4:mlx5_5 mlx5_5:mlx5_4; do
  mk swapn dgx-002=N dgx-031=X dgx-032=X "SWAP=dgx-002:$sw"
  expect_rc 1 "$FL" check $R "$TMP/swapn.ibnd"
  expect_eq "$(findings)" "$SWAP2" "swap $sw on the N host: exactly it"
done

# NAMES_AGREE = 2: a group whose other hosts exchange two rail names (X2)
# -> the N host contradicts the mapping on 2 NICs: its names hold (clean);
# one (X1: mlx5_5 <-> foreign mlx5_1) -> 1 NIC: the mapping holds, and the
# N host's mlx5_5 and mlx5_1 are judged by it
mk two dgx-002=N dgx-031=X2 dgx-032=X2
expect_rc 1 "$FL" check $R "$TMP/two.ibnd"
expect_eq "$(findings)" "$DGX1" "2 names against the mapping: names kept"
mk one dgx-002=N dgx-031=X1 dgx-032=X1
expect_rc 1 "$FL" check $R "$TMP/one.ibnd"
expect_eq "$(jget "$TMP/out" "=sorted(n for f in d['findings'] if f['severity'] != 'info' for n in f['nodes'] if n.startswith('dgx-002 '))")" \
  "['dgx-002 mlx5_1', 'dgx-002 mlx5_5']" "1 name against the mapping: the mapping judges"

# names no better than the mapping: a host of an X3 group with mlx5_4 and
# mlx5_5 swapped has both on their reference rails (2 against the
# mapping), but mlx5_6 and mlx5_9 off theirs: its names misplace 2 NICs,
# the mapping 2 -> the mapping judges it and finds the swap (a warning:
# the mapping rests on 2 of 3 hosts)
mk tie dgx-002=X3 dgx-031=X3 dgx-032=X3 SWAP=dgx-002:mlx5_4:mlx5_5
expect_rc 1 "$FL" check $R "$TMP/tie.ibnd"
expect_eq "$(findings)" "${DGX1%]}, ('rail-alignment.swapped', 'warning', ('dgx-002 mlx5_4', 'dgx-002 mlx5_5'))]" "names as bad as the mapping"

# a group of one (only the N host renamed): no mapping; its names of the
# reference land on their rails, so its own names (mlx5_1, mlx5_2) take
# their leaves' rails (they were cross-rail errors and an incomplete
# host); right -> clean, a swap of two rail-named NICs -> exactly it
mk alone dgx-002=N
expect_rc 1 "$FL" check $R "$TMP/alone.ibnd"
expect_eq "$(findings)" "$DGX1" "group of one, cabled right"
mk alone-swap dgx-002=N SWAP=dgx-002:mlx5_4:mlx5_5
expect_rc 1 "$FL" check $R "$TMP/alone-swap.ibnd"
expect_eq "$(findings)" "$SWAP2" "group of one, swapped"
finish
