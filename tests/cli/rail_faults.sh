#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/rail_faults.sh — rail-alignment on three more real ibsim dumps
# (tests/fixtures/ibsim-faults/make.sh: ibsim + OpenSM + ibnetdiscover on
# edited copies of fabrics/rail-su.net), with exact findings. They kill the
# mutants rail-hca1, rail-majority and rail-dup of tests/mutation/mutants.txt.
. "$(dirname "$0")/lib.bash"
X="$FL_SRC/tests/fixtures/ibsim-faults"
R="--rules rail-alignment --format json"
findings() { jget "$TMP/out" "=[(f['rule'], f['severity']) for f in d['findings']]"; }

# HCA-1..HCA-8 names under the generic profile: HCA-1 is rail 0, and the
# crossed HCA-1/HCA-2 cables of dgx-001 are one swap between rails 0 and 1
expect_rc 1 "$FL" check $R --param rail-alignment.profile=generic "$X/rail-hca-swap.ibnetdiscover"
expect_eq "$(findings)" "[('rail-alignment.swapped', 'error')]" "hca: findings"
expect_eq "$(jget "$TMP/out" "['findings'][0]['evidence']['cables']")" \
  "[{'fix_leaf': 'leaf-su01-r0', 'fix_port': 1, 'nic': 'dgx-001 HCA-1', 'nic_rail': '0', 'now_leaf': 'leaf-su01-r1', 'now_port': 1}, {'fix_leaf': 'leaf-su01-r1', 'fix_port': 1, 'nic': 'dgx-001 HCA-2', 'nic_rail': '1', 'now_leaf': 'leaf-su01-r0', 'now_port': 1}]" \
  "hca: swap cables, rails 0 and 1"

# two leaves split 16/16 between rails 0 and 1: no strict majority, so no
# leaf rail is inferred and nothing is called cross-rail; each leaf is mixed
expect_rc 0 "$FL" check $R --param rail-alignment.profile=dgx-h100 "$X/rail-split.ibnetdiscover"
expect_eq "$(findings)" "[('rail-alignment.mixed-leaf', 'warning'), ('rail-alignment.mixed-leaf', 'warning')]" "split: findings"
expect_eq "$(jget "$TMP/out" "=[(f['evidence']['leaf'], f['evidence']['nics_by_rail']) for f in d['findings']]")" \
  "[('leaf-su01-r0', {'0': 16, '1': 16}), ('leaf-su01-r1', {'0': 16, '1': 16})]" "split: leaves"

# a copied NodeDescription: dgx-001 has two NICs named mlx5_0 (one on the
# mlx5_3 leaf) and none named mlx5_3
expect_rc 1 "$FL" check $R "$X/rail-dup-desc.ibnetdiscover"
expect_eq "$(findings)" "[('rail-alignment.cross-rail', 'error'), ('rail-alignment.incomplete-host', 'warning')]" "dup: findings"
expect_eq "$(jget "$TMP/out" "['findings'][1]['evidence']")" \
  "{'duplicate_rails': 'mlx5_0', 'host': 'dgx-001', 'missing_rails': 'mlx5_3', 'nics': 8, 'su': 1}" "dup: evidence"
expect_grep "$TMP/out" 'host \\"dgx-001\\" has no NIC on rail\(s\) mlx5_3; has two or more NICs on rail\(s\) mlx5_0'
finish
