#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/rail_naming.sh — rails by cabling when hosts name their NICs
# differently (issue 30 §2, NVIDIA/nccl#1277: one OS image names the four
# rail NICs mlx5_0/3/5/8, another mlx5_0/1/4/5). Fixtures: `fabriclint gen
# rail-su` (2 SUs x 8 hosts x 4 rails, --hca-map mlx5_0,mlx5_3,mlx5_5,mlx5_8)
# as ibnetdiscover, then some hosts renamed to the other image's names
# (mlx5_3 -> mlx5_1, mlx5_5 -> mlx5_4, mlx5_8 -> mlx5_5: the same slots, so
# the cabling is still correct), and a real swap made by exchanging two NIC
# names of one host (its two cables then land on each other's leaves).
# Before plugins/rail-alignment/rail_naming.c the interleaved fabrics gave
# mixed-leaf warnings and cross-rail errors with "move it to" advice.
. "$(dirname "$0")/lib.bash"
R="--rules rail-alignment --format json"
findings() { jget "$TMP/out" "=[(f['rule'], f['severity']) for f in d['findings'] if f['severity'] != 'info']"; }

"$FL" gen rail-su --sus 2 --hosts-per-su 8 --rails 4 \
  --hca-map mlx5_0,mlx5_3,mlx5_5,mlx5_8 --format ibnetdiscover >"$TMP/a.ibnd" ||
  fail "gen rail-su"
# mk OUT REGEX [SWAPHOST] — hosts matching REGEX (dgx-NNN) take the other
# image's names; SWAPHOST's mlx5_3 and mlx5_5 (A names) trade names
mk() {
  sed -E "s/\"($2) mlx5_3\"/\"\1 mlx5_1\"/; s/\"($2) mlx5_5\"/\"\1 mlx5_4\"/; s/\"($2) mlx5_8\"/\"\1 mlx5_5\"/" \
    "$TMP/a.ibnd" >"$TMP/$1.ibnd"
  if [ -n "${3-}" ]; then
    sed -i -E "s/\"$3 mlx5_3\"/\"$3 TMP\"/; s/\"$3 mlx5_5\"/\"$3 mlx5_3\"/; s/\"$3 TMP\"/\"$3 mlx5_5\"/" "$TMP/$1.ibnd"
  fi
}
EVEN='dgx-0(0[2468]|1[0246])'
ODD='dgx-0(0[13579]|1[135])'

# correctly cabled, half the hosts of every leaf named each way, both ways
# round (the B naming is the reference group, ties going to the naturally
# smaller naming, so the two orders also swap which group is translated)
for order in EVEN ODD; do
  mk "mix-$order" "${!order}"
  expect_rc 0 "$FL" check $R "$TMP/mix-$order.ibnd"
  expect_eq "$(findings)" "[]" "mix-$order: clean"
done
expect_rc 0 "$FL" check --rules rail-alignment -v "$TMP/mix-EVEN.ibnd"
expect_grep "$TMP/err" 'rails are the names of the 8 hosts named mlx5_0/mlx5_1/mlx5_4/mlx5_5; .* mlx5_3 on hosts named mlx5_0/mlx5_3/mlx5_5/mlx5_8 -> rail mlx5_1 \(8 of 8 cables\)'

# one real swap (dgx-003: A-named with EVEN, B-named with ODD): exactly it
mk swap-EVEN "$EVEN" dgx-003
expect_rc 1 "$FL" check $R "$TMP/swap-EVEN.ibnd"
expect_eq "$(findings)" "[('rail-alignment.swapped', 'error')]" "swap-EVEN: findings"
expect_eq "$(jget "$TMP/out" "=sorted((c['nic'], c['now_leaf'], c['fix_leaf']) for c in d['findings'][0]['evidence']['cables'])")" \
  "[('dgx-003 mlx5_3', 'leaf-su01-r2', 'leaf-su01-r1'), ('dgx-003 mlx5_5', 'leaf-su01-r1', 'leaf-su01-r2')]" "swap-EVEN: cables"
expect_grep "$TMP/out" 'assumed: its rail mlx5_[14] is assumed from where the mlx5_[35] NICs of hosts named mlx5_0/mlx5_3/mlx5_5/mlx5_8 land \(7 of 8 cables\)'
expect_eq "$(jget "$TMP/out" "['findings'][0]['evidence']['weak']")" "False" "swap-EVEN: strong"
mk swap-ODD "$ODD" dgx-004
expect_rc 1 "$FL" check $R "$TMP/swap-ODD.ibnd"
expect_eq "$(findings)" "[('rail-alignment.swapped', 'error')]" "swap-ODD: findings"
expect_eq "$(jget "$TMP/out" "=sorted((c['nic'], c['now_leaf'], c['fix_leaf']) for c in d['findings'][0]['evidence']['cables'])")" \
  "[('dgx-004 mlx5_3', 'leaf-su01-r2', 'leaf-su01-r1'), ('dgx-004 mlx5_5', 'leaf-su01-r1', 'leaf-su01-r2')]" "swap-ODD: cables"
# a swap on a host of the reference naming: its names are the rails
mk ref-host "$EVEN|dgx-005"
sed -i -E 's/"dgx-005 mlx5_1"/"dgx-005 TMP"/; s/"dgx-005 mlx5_4"/"dgx-005 mlx5_1"/; s/"dgx-005 TMP"/"dgx-005 mlx5_4"/' "$TMP/ref-host.ibnd"
expect_rc 1 "$FL" check $R "$TMP/ref-host.ibnd"
expect_eq "$(findings)" "[('rail-alignment.swapped', 'error')]" "swap on a reference host: findings"
expect_grep "$TMP/out" '"nic": "dgx-005 mlx5_1"'

# SUs of one naming each (SU 1 B, SU 2 A): each SU's leaves are its own
mk per-su 'dgx-00[1-8]'
expect_rc 0 "$FL" check $R "$TMP/per-su.ibnd"
expect_eq "$(findings)" "[]" "per-su: clean"

# MIN_AGREE = 2: two A hosts (one per SU) are translated (clean); one is
# not (its names stay, and are judged by name)
mk two 'dgx-0(0[2-8]|1[0-6])'
expect_rc 0 "$FL" check $R "$TMP/two.ibnd"
expect_eq "$(findings)" "[]" "two A hosts: clean"
mk one 'dgx-0(0[2-9]|1[0-6])'
expect_rc 1 "$FL" check $R "$TMP/one.ibnd"
expect_grep "$TMP/out" '"rule": "rail-alignment.cross-rail"'

# STRONG_HOSTS = 3: 3 A hosts, one swapped -> 2 of 3 back the mapping: weak,
# a warning without the physical swap; 4 A hosts -> 3 of 4: an error with it
mk weak 'dgx-0(0[3-8]|1[0-6])' dgx-002
expect_rc 0 "$FL" check $R "$TMP/weak.ibnd"
expect_eq "$(findings)" "[('rail-alignment.swapped', 'warning')]" "weak: findings"
expect_eq "$(jget "$TMP/out" "=('fix' in d['findings'][0], d['findings'][0]['evidence']['weak'])")" "(False, True)" "weak: no fix"
expect_grep "$TMP/out" 'check against the plan whether to swap them'
mk strong 'dgx-0(0[3-8]|1[1-6])' dgx-002
expect_rc 1 "$FL" check $R "$TMP/strong.ibnd"
expect_eq "$(findings)" "[('rail-alignment.swapped', 'error')]" "strong: findings"
expect_eq "$(jget "$TMP/out" "=('fix' in d['findings'][0], d['findings'][0]['evidence']['weak'])")" "(True, False)" "strong: fix"
finish
