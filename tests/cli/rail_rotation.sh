# SPDX-License-Identifier: MIT
# rail-alignment on real ibnetdiscover dumps with faults the older fixtures
# lacked (tests/fixtures/ibsim-faults/make.sh, ibsim + OpenSM): three NICs of
# one host rotated among three rail leaves (no pair is crossed: three
# cross-rail findings, each fixed by the port its neighbour vacates, never a
# "swapped" pair), and a cross-rail NIC whose fix is its host's own port
# although a lower port of the right leaf is free too. Kills the mutants
# rail-swap-rail, rail-swap-peer, rail-free-port and rail-fix-want
# (tests/mutation/mutants.txt).
. "$(dirname "$0")/lib.bash"
F="$FL_SRC/tests/fixtures/ibsim-faults"
R="--rules rail-alignment.* --format json"
rules() { jget "$TMP/out" "=[f['rule'] for f in d['findings']]"; }

expect_rc 1 "$FL" check $R "$F/rail-rotation.ibnetdiscover"
expect_eq "$(rules)" "['rail-alignment.cross-rail', 'rail-alignment.cross-rail', 'rail-alignment.cross-rail']" "rotation: three cross-rail, no swap"
expect_eq "$(jget "$TMP/out" "=sorted((f['evidence']['nic'], f['evidence']['leaf'], f['evidence']['leaf_port'], f['evidence']['fix_leaf'], f['evidence']['fix_port'], f['evidence']['fix_port_holds']) for f in d['findings'])")" \
  "[('dgx-001 mlx5_0', 'leaf-su01-r1', 1, 'leaf-su01-r0', 1, 'dgx-001 mlx5_4'), ('dgx-001 mlx5_3', 'leaf-su01-r2', 1, 'leaf-su01-r1', 1, 'dgx-001 mlx5_0'), ('dgx-001 mlx5_4', 'leaf-su01-r0', 1, 'leaf-su01-r2', 1, 'dgx-001 mlx5_3')]" "rotation: cables and fixes"
expect_eq "$(jget "$TMP/out" "['findings'][1]['message']")" \
  '"dgx-001 mlx5_0" (rail mlx5_0) is cabled to "leaf-su01-r1" port 1, which serves rail mlx5_3 (inferred from its other NICs); move it to "leaf-su01-r0" port 1 (now holding "dgx-001 mlx5_4", which is on the wrong rail too)' "rotation: fix text"
expect_eq "$(jget "$TMP/out" "['findings'][1]['ports']")" \
  "[{'node': 'dgx-001 mlx5_0', 'port': 1}, {'node': 'leaf-su01-r1', 'port': 1}]" "rotation: ports"
# with the dgx-h100 profile the rails are numbers; still no swap
expect_rc 1 "$FL" check $R --param rail-alignment.profile=dgx-h100 "$F/rail-rotation.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=sorted((f['rule'], f['evidence']['nic_rail'], f['evidence']['leaf_rail']) for f in d['findings'])")" \
  "[('rail-alignment.cross-rail', '0', '1'), ('rail-alignment.cross-rail', '1', '2'), ('rail-alignment.cross-rail', '2', '0')]" "rotation: dgx-h100 rails"

# dgx-003 mlx5_0 on leaf-su01-r1 port 2 (dgx-002's, unplugged); ports 2 and
# 3 of leaf-su01-r0 are free: the fix is port 3, where dgx-003's NICs sit
expect_rc 1 "$FL" check $R "$F/rail-cross-free.ibnetdiscover"
expect_eq "$(rules)" "['rail-alignment.cross-rail', 'rail-alignment.incomplete-host']" "cross-free: findings"
expect_eq "$(jget "$TMP/out" "['findings'][0]['message']")" \
  '"dgx-003 mlx5_0" (rail mlx5_0) is cabled to "leaf-su01-r1" port 2, which serves rail mlx5_3 (inferred from its other NICs); move it to "leaf-su01-r0" port 3 (free; suggested: the port the host'"'"'s other NICs use; `fabriclint diff` against the plan gives the planned port)' "cross-free: fix text"
expect_eq "$(jget "$TMP/out" "['findings'][1]['evidence']")" \
  "{'duplicate_rails': '', 'host': 'dgx-002', 'missing_rails': 'mlx5_0, mlx5_3', 'nics': 6, 'su': 1}" "cross-free: dgx-002 incomplete"
finish
