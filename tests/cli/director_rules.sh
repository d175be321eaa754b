#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/director_rules.sh — the default rules judge a director chassis
# (core/model/chassis.c) as one switch, on the real vendor-generated fabric
# RhinoBased512.topo of Debian's libibdm1 1.5.7 (ibtopogen, 512 hosts, 12
# MTS14400 directors expanded through IBNL into 216 ASICs; balanced by
# construction) and the ibsim-captured director fixtures (fabrics/director):
# 1. RhinoBased512: exactly one finding besides the two topology.input
#    notes: deadlock.credit-loop's minimal-routing warning, whose cause is a
#    valley through director SL1-1 (no "joins two tier" for cables inside a
#    chassis); no ecmp-balance finding (was: 96 leaf/spine ASICs flagged);
# 2. one SL1-1 - SL2-1 cable removed (both ends): one uplink-asymmetry
#    finding naming chassis SL1-1 (63 uplinks vs 64, 15 vs 16 cables per
#    upper chassis), with its 18 ASICs as nodes; with DDR speeds written
#    in, no finding balanced and one oversubscription finding (SL1-1,
#    1.02:1, 64 down / 63 up ports) cut;
# 3. director-miswired (leaf-03's cable moved to another line card): the
#    uneven spread over the director's line cards; director.ibnetdiscover
#    stays clean.
. "$(dirname "$0")/lib.bash"
e=debian__libibdm1__ibnl__
need_external ${e}MTS14400.ibnl ${e}Cougar.ibnl ${e}RhinoBased512.topo
export FABRICLINT_IBNL_PATH=$FL_EXTERNAL
rhino=$FL_EXTERNAL/${e}RhinoBased512.topo

# ---- 1. RhinoBased512 as generated -------------------------------------------
expect_rc 0 "$FL" check --format json "$rhino"
expect_eq "$(jget "$TMP/out" "=sorted((f['rule'], f['severity']) for f in d['findings'])")" \
  "[('deadlock.credit-loop', 'warning'), ('topology.input', 'info'), ('topology.input', 'info')]" \
  "RhinoBased512 findings"
cp "$TMP/out" "$TMP/rhino.json"
cause=$(jget "$TMP/rhino.json" "=[f for f in d['findings'] if f['rule'] == 'deadlock.credit-loop'][0]['message'].split('; cause: ')[1]")
expect_eq "$cause" 'valley through director chassis SL1-1 (tier 1): channels come down from SL2-1/leaf3/U1 (tier 2) into line card SL1-1/leaf7/U1, cross the chassis via SL1-1/spine2/U3 and leave line card SL1-1/leaf1/U1 up to SL2-1/leaf9/U1 (tier 2): a down-up turn through one switch, chained from routes that share cables inside the chassis (minimal routes cross a director'"'"'s line cards via its spines)' \
  "credit-loop cause"
expect_eq "$(jget "$TMP/rhino.json" "=[(f['evidence']['cycle_length'], len(f['evidence']['causes'])) for f in d['findings'] if f['rule'] == 'deadlock.credit-loop']")" \
  "[(6, 1)]" "credit-loop cycle and causes"
expect_eq "$(grep -c 'joins two tier' "$TMP/rhino.json")" 0 "no same-tier cause for cables inside a chassis"

# ---- 2. one director-to-director cable removed --------------------------------
sed -e '/^\t L5\/P6 -4X-> MTS14400 SL2-1 L1\/P1$/d' \
  -e '/^\t L1\/P1 -4X-> MTS14400 SL1-1 L5\/P6$/d' "$rhino" >"$TMP/cut.topo"
expect_eq "$(($(wc -l <"$rhino") - $(wc -l <"$TMP/cut.topo")))" 2 "cable removed"
expect_rc 0 "$FL" check --format json --rules ecmp-balance.uplink-asymmetry,ecmp-balance.oversubscription "$TMP/cut.topo"
cp "$TMP/out" "$TMP/cut.json"
expect_eq "$(jget "$TMP/cut.json" "=' | '.join(f['rule'] + ': ' + f['message'] for f in d['findings'])")" \
  "ecmp-balance.uplink-asymmetry: director chassis \"SL1-1\" (18 ASICs as one switch) (tier 1) has 63 uplink(s), 0 Gb/s up, while 7 of the 8 tier-1 switches (a chassis counts once) have 64 uplink(s), 0 Gb/s; it has 16 cable(s) to \"SL2-2\" but 15 to \"SL2-1\": parallel links per upper switch should be equal" \
  "cut cable: one chassis finding"
expect_eq "$(jget "$TMP/cut.json" "=(len(d['findings'][0]['nodes']), d['findings'][0]['evidence']['chassis'], d['findings'][0]['evidence']['chassis_asics'], d['findings'][0]['evidence']['tier_switches'])")" \
  "(18, 'SL1-1', 18, 8)" "cut cable: chassis nodes and evidence"

# ---- 2b. the same with 4X DDR speeds written on every 4X cable ---------------
# (the .topo gives no speed for "-4X->": capacities are 0 Gb/s, so
# oversubscription has nothing to weigh). Balanced: nothing; per ASIC, the
# leaf ASICs with 6 hosts and 5 uplinks would be 1.2:1. Cut: chassis SL1-1.
sed -e 's/ -4X-> / -4X-5G-> /' "$rhino" >"$TMP/ddr.topo"
expect_rc 0 "$FL" check --format json --rules ecmp-balance.uplink-asymmetry,ecmp-balance.oversubscription "$TMP/ddr.topo"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "DDR: balanced"
sed -e 's/ -4X-> / -4X-5G-> /' "$TMP/cut.topo" >"$TMP/ddrcut.topo"
expect_rc 0 "$FL" check --format json --rules ecmp-balance.oversubscription "$TMP/ddrcut.topo"
expect_eq "$(jget "$TMP/out" "=' | '.join(f['rule'] + ': ' + f['message'] for f in d['findings'])")" \
  "ecmp-balance.oversubscription: director chassis \"SL1-1\" (18 ASICs as one switch) (tier 1) is oversubscribed 1.02:1 (1280 Gb/s down over 64 port(s), 1260 Gb/s up over 63 port(s); 1 down-link(s) of unknown speed not counted); the policy allows 1.00:1" \
  "DDR cut: chassis oversubscribed (its one 12X host cable has no speed: said)"
expect_eq "$(jget "$TMP/out" "=(len(d['findings'][0]['nodes']), d['findings'][0]['evidence']['chassis'], d['findings'][0]['evidence']['down_ports'], d['findings'][0]['evidence']['up_ports'])")" \
  "(18, 'SL1-1', 64, 63)" "DDR cut: chassis evidence"

# ---- 3. the ibsim director fixtures --------------------------------------------
d=$FL_SRC/fabrics/director
expect_rc 0 "$FL" check --format json "$d/director.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "director findings"
expect_rc 0 "$FL" check --format json "$d/director-miswired.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=' | '.join(f['rule'] + ': ' + f['message'] for f in d['findings'])")" \
  "ecmp-balance.uplink-asymmetry: switch \"MF0;leaf-03:MQM8700/U1\" (tier 1): its 4 cable(s) to director chassis \"ufm-director\" land 2 on ASIC \"MF0;ufm-director:MCS8500/L02/U1\" but 0 on \"MF0;ufm-director:MCS8500/L01/U2\": a chassis's line cards should get them evenly (at most one apart)" \
  "director-miswired: uneven line-card spread"
finish
