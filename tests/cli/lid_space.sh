# SPDX-License-Identifier: MIT
# LID space of a subnet (issue #30, section 4): `gen` refuses an InfiniBand
# subnet that needs more than the 49,151 unicast LIDs (0x0001-0xBFFF) and
# says what fits; `check` (topology.lid-space) counts the LIDs each subnet
# needs -- one per switch, 2^LMC per cabled CA port, the LMC from the
# policy -- and reports a subnet past the limit with the numbers. The
# boundaries are real generated fabrics: a radix-64 three-tier fat tree of
# 45,272 hosts needs exactly 49,151 LIDs (3,879 switches), of 45,273 one
# more; at LMC 2, 11,843 hosts need exactly 49,151 (1,779 switches), 11,844
# need 49,155. Each plane of a multi-plane fabric is its own subnet.
. "$(dirname "$0")/lib.bash"
FT="fat-tree --radix 64 --tiers 3"
shape() { sed -n "s/^$1 //p" "$TMP/out"; }

# ---- gen: at the limit, one past it, the full tree ----------------------
expect_rc 0 "$FL" gen $FT --hosts 45272 --dry-run
expect_eq "$(shape switches) $(shape cas) $(shape lids)" "3879 45272 49151" "gen: 45,272 hosts, exactly 49,151 LIDs"
expect_rc 2 "$FL" gen $FT --hosts 45273 --dry-run
expect_grep "$TMP/err" '^fabriclint gen fat-tree: one subnet of 3879 switches and 45273 CA ports needs 49152 LIDs, but an InfiniBand subnet has 49151 unicast LIDs \(0x0001-0xBFFF\): 1 ports would get no LID\.$'
expect_grep "$TMP/err" '^One subnet holds at most --hosts 45272 here; for 45273 endpoints use planes'
expect_eq "$(wc -c < "$TMP/out")" 0 "gen refused: nothing on stdout"
expect_rc 2 "$FL" gen $FT -o "$TMP/never.xml"
expect_eq "$([ -e "$TMP/never.xml" ] && echo written || echo absent)" absent "gen refused: no file"
expect_grep "$TMP/err" 'needs 70656 LIDs, .*: 21505 ports would get no LID\.$'
expect_grep "$TMP/err" 'One subnet holds at most --hosts 45272 here; for 65536 endpoints use planes, each its own subnet with one NIC of every host: --planes 2 --hosts 32768 \(35840 LIDs per plane\)\.$'
expect_grep "$TMP/err" '^\(--allow-lid-overflow writes it anyway, as a scale test; check then reports topology\.lid-space\)$'
# the hint holds: two planes of 32,768 hosts fit, each plane its own subnet
expect_rc 0 "$FL" gen $FT --hosts 32768 --planes 2 --dry-run
expect_eq "$(shape cas) $(shape switches)" "65536 6144" "gen: the planes of the hint"
# --no-lids does not make the subnet smaller: refused too
expect_rc 2 "$FL" gen $FT --no-lids --dry-run
# Ethernet has no LIDs
expect_rc 0 "$FL" gen $FT --speed 400G --width 1x --dry-run
# tori: the general hint
expect_rc 2 "$FL" gen torus --x 250 --y 200 --dry-run
expect_grep "$TMP/err" 'one subnet of 50000 switches and 50000 CA ports needs 100000 LIDs'
expect_grep "$TMP/err" '^Build it as several subnets of at most 49151 LIDs each\.$'

# ---- check: exactly 49,151 LIDs, then 49,152 ----------------------------
R="--rules topology.lid-space --format json"
ev() { jget "$TMP/out" "['findings'][0]['evidence']$1"; }
"$FL" gen $FT --hosts 45272 --format ibnetdiscover -o "$TMP/at.ibnd" || fail "gen 45272"
expect_rc 0 "$FL" check $R "$TMP/at.ibnd"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "check: 49,151 LIDs fit"
"$FL" gen $FT --hosts 45273 --allow-lid-overflow --no-lids -o "$TMP/past.xml" || fail "gen 45273"
expect_rc 1 "$FL" check $R "$TMP/past.xml"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['severity'], f['nodes']) for f in d['findings']]")" \
  "[('topology.lid-space', 'error', ['leaf-p01-01'])]" "check: 49,152 LIDs, one error"
expect_eq "$(ev "['lids_needed']") $(ev "['lids_available']") $(ev "['switches']") $(ev "['ca_ports']") $(ev "['lmc']") $(ev "['max_ca_ports']")" \
  "49152 49151 3879 45273 0 45272" "check: 49,152 LIDs, figures"
expect_grep "$TMP/out" 'the subnet needs 49152 LIDs \(3879 switches x 1 \+ 45273 CA ports x 1 at LMC 0\), more than the 49151 unicast LIDs of a subnet \(0x0001-0xBFFF\): 1 port\(s\) get no LID; split it into planes or subnets of at most 45272 CA ports each beside 3879 switches'

# ---- the LMC from the policy: 2^2 LIDs per CA port ------------------------
"$FL" gen $FT --hosts 11843 --no-lids -o "$TMP/lmc-at.xml" || fail "gen 11843"
"$FL" gen $FT --hosts 11844 --no-lids -o "$TMP/lmc-past.xml" || fail "gen 11844"
printf 'version: 1\nparams:\n  topology.lid-space:\n    lmc: 2\n' > "$TMP/lmc2.yaml"
expect_rc 0 "$FL" check $R --policy "$TMP/lmc2.yaml" "$TMP/lmc-at.xml"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "LMC 2: 11,843 hosts, 49,151 LIDs"
expect_rc 1 "$FL" check $R --policy "$TMP/lmc2.yaml" "$TMP/lmc-past.xml"
expect_eq "$(ev "['lids_needed']") $(ev "['switches']") $(ev "['ca_ports']") $(ev "['lmc']") $(ev "['max_ca_ports']")" \
  "49155 1779 11844 2 11843" "LMC 2: 11,844 hosts, 49,155 LIDs"
# the same plan at the default LMC 0 needs 13,623 LIDs: nothing
expect_rc 0 "$FL" check $R "$TMP/lmc-past.xml"
# an LMC out of 0..7 is a usage error
expect_rc 2 "$FL" check $R --param topology.lid-space.lmc=8 "$TMP/lmc-at.xml"

# ---- planes: each plane its own subnet, one finding per plane --------------
"$FL" gen $FT --hosts 11844 --planes 2 -o "$TMP/pl2.xml" || fail "gen planes"
expect_rc 1 "$FL" check $R --policy "$TMP/lmc2.yaml" "$TMP/pl2.xml"
expect_eq "$(jget "$TMP/out" "=[(f.get('plane'), f['nodes'], f['evidence']['lids_needed']) for f in d['findings']]")" \
  "[('1', ['pl1-leaf-p01-01'], 49155), ('2', ['pl2-leaf-p01-01'], 49155)]" "planes: one finding per plane"

# ---- the LMC a capture states: each CA port at its own LMC ----------------
# gen's ibnetdiscover output (OpenSM-style "# lid N lmc 0" on every CA port
# line) with the CA ports' LMC set to 2, as OpenSM's `lmc 2` would leave
# them (ibsim cannot bring up 11,844 hosts here); no policy: the ports' own
# LMC counts. 11,843 hosts: exactly 49,151 LIDs; 11,844: 49,155.
lmc2() {
  "$FL" gen $FT --hosts "$1" --format ibnetdiscover -o "$TMP/cap.ibnd" || fail "gen $1"
  sed -E 's/^(\[1\]\([0-9a-f]+\)[^#]*# lid [0-9]+) lmc 0 /\1 lmc 2 /' "$TMP/cap.ibnd" >"$2"
}
lmc2 11843 "$TMP/cap-at.ibnd"
expect_eq "$(grep -c ' lmc 2 ' "$TMP/cap-at.ibnd")" 11843 "capture: every CA port at LMC 2"
expect_rc 0 "$FL" check $R "$TMP/cap-at.ibnd"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "captured LMC 2: 11,843 hosts, 49,151 LIDs"
lmc2 11844 "$TMP/cap-past.ibnd"
expect_rc 1 "$FL" check $R "$TMP/cap-past.ibnd"
expect_eq "$(ev "['lids_needed']") $(ev "['switches']") $(ev "['ca_ports']") $(ev "['lmc']") $(ev "['max_port_lmc']") $(ev "['max_ca_ports']")" \
  "49155 1779 11844 2 2 11843" "captured LMC 2: 11,844 hosts, 49,155 LIDs"
expect_grep "$TMP/out" 'needs 49155 LIDs \(1779 switches x 1 \+ 11844 CA ports x 4 at LMC 2\)'
# a smaller policy LMC does not lower the captured one
printf 'version: 1\nparams:\n  topology.lid-space:\n    lmc: 1\n' >"$TMP/lmc1.yaml"
expect_rc 1 "$FL" check $R --policy "$TMP/lmc1.yaml" "$TMP/cap-past.ibnd"
expect_eq "$(ev "['lids_needed']") $(ev "['lmc']")" "49155 2" "policy LMC 1, captured 2: 2 counts"

finish
