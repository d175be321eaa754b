# SPDX-License-Identifier: MIT
# rail-alignment on real ibnetdiscover dumps captured from ibsim (fabrics/,
# made by fabrics/regen.sh): exact findings, hosts, ports and fixes.
. "$(dirname "$0")/lib.bash"
F="$FL_SRC/fabrics"
R="--rules rail-alignment --format json"
findings() { jget "$TMP/out" "=[(f['rule'], f['severity']) for f in d['findings']]"; }

# the clean SU: no finding at all, with the default profile and with dgx-h100
expect_rc 0 "$FL" check $R "$F/rail-su.ibnetdiscover"
expect_eq "$(findings)" "[]" "clean SU, device profile"
expect_rc 0 "$FL" check $R --param rail-alignment.profile=dgx-h100 "$F/rail-su.ibnetdiscover"
expect_eq "$(findings)" "[]" "clean SU, dgx-h100 profile"
expect_rc 0 "$FL" check $R --param rail-alignment.profile=generic "$F/rail-su.ibnetdiscover"
expect_eq "$(findings)" "[]" "clean SU, generic profile"

# one swapped pair: one finding with both cables and the fix
expect_rc 1 "$FL" check $R --param rail-alignment.profile=dgx-h100 "$F/broken/rail-swap.ibnetdiscover"
expect_eq "$(findings)" "[('rail-alignment.swapped', 'error')]" "swap: one finding"
expect_eq "$(jget "$TMP/out" "['findings'][0]['evidence']['cables']")" \
  "[{'fix_leaf': 'leaf-su01-r0', 'fix_port': 1, 'nic': 'dgx-001 mlx5_0', 'nic_rail': '0', 'now_leaf': 'leaf-su01-r1', 'now_port': 1}, {'fix_leaf': 'leaf-su01-r1', 'fix_port': 1, 'nic': 'dgx-001 mlx5_3', 'nic_rail': '1', 'now_leaf': 'leaf-su01-r0', 'now_port': 1}]" "swap cables and fix"
expect_eq "$(jget "$TMP/out" "['findings'][0]['ports']")" \
  "[{'node': 'dgx-001 mlx5_0', 'port': 1}, {'node': 'leaf-su01-r1', 'port': 1}, {'node': 'dgx-001 mlx5_3', 'port': 1}, {'node': 'leaf-su01-r0', 'port': 1}]" "swap ports"

# one cross-rail cable (mlx5_4 in the rail-5 port of its host's unplugged mlx5_9)
expect_rc 1 "$FL" check $R --param rail-alignment.profile=dgx-h100 "$F/broken/rail-cross.ibnetdiscover"
expect_eq "$(findings)" "[('rail-alignment.cross-rail', 'error'), ('rail-alignment.incomplete-host', 'warning')]" "cross: findings"
expect_eq "$(jget "$TMP/out" "['findings'][0]['evidence']")" \
  "{'fix_leaf': 'leaf-su01-r2', 'fix_port': 5, 'fix_port_basis': 'host-nics', 'host': 'dgx-005', 'leaf': 'leaf-su01-r5', 'leaf_port': 5, 'leaf_rail': '5', 'leaf_rail_from': 'majority of its NICs (inferred)', 'nic': 'dgx-005 mlx5_4', 'nic_rail': '2', 'profile': 'dgx-h100'}" "cross evidence"
expect_eq "$(jget "$TMP/out" "['findings'][1]['evidence']['missing_rails']")" "5 (mlx5_9)" "cross: missing rail"

# a missing NIC link
expect_rc 0 "$FL" check $R "$F/broken/rail-missing-nic.ibnetdiscover"
expect_eq "$(findings)" "[('rail-alignment.incomplete-host', 'warning')]" "missing: findings"
expect_eq "$(jget "$TMP/out" "['findings'][0]['evidence']")" \
  "{'duplicate_rails': '', 'host': 'dgx-007', 'missing_rails': 'mlx5_9', 'nics': 7, 'su': 1}" "missing evidence"

# three naming styles: with the node-name map, clean; without, the 4 hosts
# named HCA-N are placed by where their cables land (rail_naming.c: 4 of 4
# cables each), and the NICs with no host name are listed, at info (unknown
# is not wrong); nothing else is claimed
expect_rc 0 "$FL" check $R --node-name-map "$F/rail-names.node-name-map" "$F/rail-names.ibnetdiscover"
expect_eq "$(findings)" "[]" "names with map"
expect_rc 0 "$FL" check $R "$F/rail-names.ibnetdiscover"
expect_eq "$(findings)" "[('rail-alignment.unresolved', 'info')]" "names without map"
expect_eq "$(jget "$TMP/out" "=sorted(f['evidence']['count'] for f in d['findings'])")" "[32]" "unresolved counts"
expect_eq "$(jget "$TMP/out" "=sorted(f['evidence']['reason'][:20] for f in d['findings'])")" \
  "['no host name in the ']" "unresolved reasons"
# a host with one NIC the profile does not know (dgx-001's mlx5_0 described
# as mlx5_20 in the capture) and its other seven placed: the NIC is listed
# at info, and the host is not judged incomplete for a rail it may well
# have (incomplete-host skips hosts with unresolved NICs)
sed 's/"dgx-001 mlx5_0"/"dgx-001 mlx5_20"/' "$F/rail-su.ibnetdiscover" >"$TMP/unknown-dev.ibnd"
expect_rc 0 "$FL" check $R --param rail-alignment.profile=dgx-h100 "$TMP/unknown-dev.ibnd"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['severity'], f['evidence'].get('count'), f['nodes']) for f in d['findings']]")" \
  "[('rail-alignment.unresolved', 'info', 1, ['dgx-001 mlx5_20'])]" "one unknown device: unresolved, the host not incomplete"

# a generated design with rail attributes: clean, and rails come from attributes
"$FL" gen rail-su --sus 2 --hosts-per-su 16 -o "$TMP/rs.xml"
expect_rc 0 "$FL" check $R "$TMP/rs.xml"
expect_eq "$(findings)" "[]" "design clean"
# a bad profile or map is a usage error (exit 2), naming the parameter
expect_rc 2 "$FL" check $R --param rail-alignment.profile=nope "$F/rail-su.ibnetdiscover"
expect_grep "$TMP/err" "unknown profile 'nope'"
# a user map with a bad line
printf 'mlx5_0 0\nmlx5_3\n' > "$TMP/bad.map"
expect_rc 2 "$FL" check $R --param rail-alignment.map="$TMP/bad.map" "$F/rail-su.ibnetdiscover"
expect_grep "$TMP/err" "bad.map:2:7: expected DEVICE RAIL \[ROLE\]"
printf 'mlx5_0 0 compute extra\n' > "$TMP/bad4.map"
expect_rc 2 "$FL" check $R --param rail-alignment.map="$TMP/bad4.map" "$F/rail-su.ibnetdiscover"
expect_grep "$TMP/err" "bad4.map:1:18: expected DEVICE RAIL \[ROLE\]"
# long names in a map are kept whole (a role of 26 characters selects the
# compute NICs: the swap is found), or refused with their column, never cut
role=gpu-backend-compute-fabric
grep -v '^#' "$FL_SRC/plugins/rail-alignment/profiles/dgx-h100.map" |
  sed "s/^\(mlx5_[0-9]* [0-9]\)\$/\1 $role/" > "$TMP/long.map"
expect_eq "$(grep -c " $role\$" "$TMP/long.map")" 8 "long-role map lines"
expect_rc 1 "$FL" check $R --param rail-alignment.map="$TMP/long.map" \
  --param rail-alignment.compute-roles=$role "$F/broken/rail-swap.ibnetdiscover"
expect_eq "$(findings)" "[('rail-alignment.swapped', 'error')]" "long role: swap found"
printf '# roles\nmlx5_0 0 %s\n' "$role-and-then-some-more" > "$TMP/toolong.map"
expect_rc 2 "$FL" check $R --param rail-alignment.map="$TMP/toolong.map" "$F/rail-su.ibnetdiscover"
expect_grep "$TMP/err" "toolong.map:2:10: role name longer than 31 characters"
finish
