# SPDX-License-Identifier: MIT
# ecmp-balance on generated fat trees with known answers, and on real
# OpenSM LFTs (ibsim) of fat trees routed by ftree and minhop.
. "$(dirname "$0")/lib.bash"
R="--rules ecmp-balance --format json"
FX="$FL_SRC/tests/fixtures"
rules() { jget "$TMP/out" "=sorted((f['rule'], f['severity']) for f in d['findings'] if f['severity'] != 'info')"; }
ev() { jget "$TMP/out" "=[f['evidence'] for f in d['findings'] if f['rule'] == '$1']$2"; }
ebb() { jget "$TMP/out" "=[round(f['evidence']['ebb'], 4) for f in d['findings'] if f['rule'] == 'ecmp-balance.link-load' and f['evidence']['pattern'] == '$1'][0]"; }

# the symmetric 2-tier radix-4 tree: balanced, no warning; fluid ECMP gives
# every pattern full bandwidth (each leaf's 2 remote flows split over 2
# uplinks: load 1 everywhere)
"$FL" gen fat-tree --radix 4 --tiers 2 -o "$TMP/ft.xml"
expect_rc 0 "$FL" check $R "$TMP/ft.xml"
expect_eq "$(rules)" "[]" "symmetric: no warning"
expect_eq "$(ebb bisect)" "1" "symmetric: eBB"
expect_eq "$(ebb all-to-all)" "1" "symmetric: all-to-all"
expect_eq "$(ev ecmp-balance.summary "[0]['tiers'][0]['next_hop_histogram']")" "{'2': 24}" "path diversity leaves"
expect_eq "$(ev ecmp-balance.summary "[0]['tiers'][1]['next_hop_histogram']")" "{'1': 16}" "path diversity spines"
expect_eq "$(ev ecmp-balance.summary "[0]['tiers'][0]['oversubscription']")" "1" "oversubscription 1:1"

# one leaf missing an uplink (leaf-p01-01 port 4 to spine-p01-02)
sed '/<link a="leaf-p01-01" a-port="4" b="spine-p01-02"/d' "$TMP/ft.xml" >"$TMP/miss.xml"
expect_rc 0 "$FL" check $R "$TMP/miss.xml"
# the three narrow leaves are one cause (one finding per cause, plugin.h)
expect_eq "$(rules)" "[('ecmp-balance.group-width', 'warning'), ('ecmp-balance.oversubscription', 'warning'), ('ecmp-balance.uplink-asymmetry', 'warning')]" "missing uplink: findings"
expect_eq "$(ev ecmp-balance.group-width "[0]['count']") $(ev ecmp-balance.group-width "[0]['cause']")" "3 narrow-tier-1" "missing uplink: one cause, 3 leaves"
expect_eq "$(ev ecmp-balance.uplink-asymmetry "[0]['uplinks']")" "1" "missing uplink: count"
expect_eq "$(jget "$TMP/out" "=[f['nodes'] for f in d['findings'] if f['rule'] == 'ecmp-balance.uplink-asymmetry']")" "[['leaf-p01-01']]" "missing uplink: node"
expect_eq "$(ev ecmp-balance.oversubscription "[0]['ratio']")" "2" "missing uplink: 2:1"
expect_eq "$(jget "$TMP/out" "=sorted(m['nodes'][0] for f in d['findings'] if f['rule'] == 'ecmp-balance.group-width' for m in f['evidence']['members'])")" "['leaf-p01-02', 'leaf-p01-03', 'leaf-p01-04']" "narrow groups toward the leaf"
# hand-computed: shift by 4 sends leaves 1,2 -> 3,4 and back; the 2 flows
# out of leaf 1 share its one uplink, the 2 flows into leaf 1 share
# spine-p01-01's cable to it: 4 flows at 1/2, 4 at 1 -> 0.75
expect_eq "$(ebb shift)" "0.75" "missing uplink: shift eBB"

# one mixed-speed bundle (leaf-p01-01 port 4 at HDR, the rest NDR)
sed 's/\(<link a="leaf-p01-01" a-port="4" b="spine-p01-02" b-port="1" width="4x" speed=\)"NDR"/\1"HDR"/' "$TMP/ft.xml" >"$TMP/mixed.xml"
expect_rc 0 "$FL" check $R "$TMP/mixed.xml"
expect_eq "$(rules)" "[('ecmp-balance.mixed-speed-group', 'warning'), ('ecmp-balance.oversubscription', 'warning'), ('ecmp-balance.uplink-asymmetry', 'warning')]" "mixed: findings"
expect_eq "$(ev ecmp-balance.mixed-speed-group "[0]['next_hops']")" "[{'gbps': 400, 'port': 3, 'to': 'spine-p01-01'}, {'gbps': 200, 'port': 4, 'to': 'spine-p01-02'}]" "mixed: next hops"
# its 6 remote hosts on 3 leaves; the example is the first destination
# switch in the view's order (leaf-p01-02), not the last one met
expect_eq "$(ev ecmp-balance.mixed-speed-group "[0]['destinations']") $(ev ecmp-balance.mixed-speed-group "[0]['example_destination_switch']")" "6 leaf-p01-02" "mixed: destinations, example"
expect_rc 0 "$FL" check $R --param ecmp-balance.mixed-speed-group.weighted-ecmp=true "$TMP/mixed.xml"
expect_eq "$(rules)" "[('ecmp-balance.oversubscription', 'warning'), ('ecmp-balance.uplink-asymmetry', 'warning')]" "mixed with W-ECMP"

# group limit: every leaf of a 3-tier radix-8 tree has 4-wide sets
"$FL" gen fat-tree --radix 8 --tiers 3 -o "$TMP/ft8.xml"
expect_rc 0 "$FL" check $R --param ecmp-balance.group-width.group-limit=3 "$TMP/ft8.xml"
expect_eq "$(jget "$TMP/out" "=[(f['evidence']['cause'], f['evidence']['count']) for f in d['findings'] if f['rule'] == 'ecmp-balance.group-width']")" "[('wide-tier-1', 32), ('wide-tier-2', 32)]" "limit 3: leaves and spines over it, one finding per tier"
expect_eq "$(ev ecmp-balance.summary "[0]['tiers'][0]['next_hop_histogram']")" "{'4': 3968}" "radix 8 leaves"

# real OpenSM ftree LFTs of the radix-4 tree: balanced; a hand edit sends
# both of leaf-p01-01's flows toward leaf-p01-03 up port 3 (LID 12 on 3
# instead of 4): CA DLIDs 4 vs 2 on its uplinks, and under shift-by-4 two of
# the 8 flows share a cable twice: eBB (2 x 1/2 + 6 x 1) / 8 = 0.875
F="$FX/routing/fat-tree-2tier-ftree"
expect_rc 0 "$FL" check $R "$F/topology.ibnetdiscover" "$F/opensm-lfts.dump"
expect_eq "$(rules)" "[]" "ftree radix 4: balanced"
expect_eq "$(ebb shift)" "1" "ftree radix 4: shift"
awk '/^Unicast/ {inb = /leaf-p01-01/} inb && /^0x000c 004/ {sub(/004/, "003")} {print}' \
  "$F/opensm-lfts.dump" >"$TMP/edited-lfts.dump"
expect_rc 0 "$FL" check $R "$F/topology.ibnetdiscover" "$TMP/edited-lfts.dump"
expect_eq "$(rules)" "[('ecmp-balance.port-imbalance', 'warning')]" "edited LFT: imbalance"
expect_eq "$(ev ecmp-balance.port-imbalance "[0]['dlids_per_port']")" "{'3': 4, '4': 2}" "edited LFT: DLIDs per port"
expect_eq "$(ebb shift)" "0.875" "edited LFT: shift eBB"
# the spread of 2 is above tolerance 1, not above 2 (port-imbalance and the
# summary's count alike)
for t in 1:1 2:0; do
  expect_rc 0 "$FL" check $R --param ecmp-balance.tolerance=${t%:*} "$F/topology.ibnetdiscover" "$TMP/edited-lfts.dump"
  expect_eq "$(jget "$TMP/out" "=len([f for f in d['findings'] if f['rule'] == 'ecmp-balance.port-imbalance'])")" "${t#*:}" "edited LFT, tolerance ${t%:*}: port-imbalance"
  expect_eq "$(ev ecmp-balance.summary "[0]['port_balance']['imbalanced_switches']")" "${t#*:}" "edited LFT, tolerance ${t%:*}: summary"
done
# port-imbalance is on by default: a plain check reports it
expect_rc 0 "$FL" check --format json "$F/topology.ibnetdiscover" "$TMP/edited-lfts.dump"
expect_eq "$(rules)" "[('ecmp-balance.port-imbalance', 'warning')]" "edited LFT, default rules"

# real OpenSM minhop LFTs of a 3-tier tree with an extra leaf-leaf cable
# (tests/fixtures/routing): the up ports are balanced; the down ports of
# four spines are not (2 vs 4 destination LIDs), which counts only with
# include-down
X="$FX/routing/fat-tree-3tier-extra-leaf-link-minhop"
expect_rc 0 "$FL" check --rules ecmp-balance.port-imbalance --format json "$X/topology.ibnetdiscover" "$X/opensm-lfts.dump"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "extra leaf link, minhop: down ports not compared"
expect_rc 0 "$FL" check --rules ecmp-balance.port-imbalance --param ecmp-balance.port-imbalance.include-down=1 --format json "$X/topology.ibnetdiscover" "$X/opensm-lfts.dump"
expect_eq "$(jget "$TMP/out" "=sorted((f['nodes'][0], f['evidence']['ports_compared'], f['evidence']['min'], f['evidence']['max']) for f in d['findings'])")" \
  "[('spine-p01-01', 'down', 2, 4), ('spine-p01-02', 'down', 2, 4), ('spine-p04-01', 'down', 2, 4), ('spine-p04-02', 'down', 2, 4)]" "extra leaf link, minhop, include-down: four spines"
# real OpenSM minhop LFTs of a torus: switch-to-switch ports are same-tier
# ports, compared among themselves
X="$FX/routing/torus-minhop"
expect_rc 0 "$FL" check --rules ecmp-balance.port-imbalance --format json "$X/topology.ibnetdiscover" "$X/opensm-lfts.dump"
expect_eq "$(jget "$TMP/out" "=sorted((f['nodes'][0], f['evidence']['ports_compared'], f['evidence']['min'], f['evidence']['max']) for f in d['findings'])")" \
  "[('sw-x00-y02', 'same-tier', 2, 5), ('sw-x00-y03', 'same-tier', 2, 5), ('sw-x01-y02', 'same-tier', 2, 5), ('sw-x01-y03', 'same-tier', 2, 5), ('sw-x02-y02', 'same-tier', 2, 5), ('sw-x02-y03', 'same-tier', 2, 5), ('sw-x03-y02', 'same-tier', 3, 5), ('sw-x03-y03', 'same-tier', 2, 5)]" "torus, minhop: same-tier ports"

# real OpenSM LFTs of a 36-host 3-tier radix-6 tree (tests/fixtures/
# routing-balance/make.sh): destination LIDs per uplink are balanced under
# both engines (minhop balances DLID counts), but paths per uplink are not:
# minhop sends all 81 paths of each spine through one core, ftree spreads
# them; eBB follows.
B="$FX/routing-balance"
for e in ftree minhop; do
  expect_rc 0 "$FL" check $R --rules ecmp-balance.summary,ecmp-balance.link-load "$B/topology-$e.ibnetdiscover" "$B/$e-lfts.dump"
  expect_eq "$(ev ecmp-balance.summary "[0]['port_balance']['imbalanced_switches']")" "0" "$e: DLID balance"
  cp "$TMP/out" "$TMP/$e.json"
done
expect_eq "$(jget "$TMP/ftree.json" "=[round(t['ebb'], 4) for t in d['findings'][-1]['evidence']['traffic']]")" "[1, 0.6675, 1, 1]" "ftree: eBB all-to-all, bisect, shift, ring"
expect_eq "$(jget "$TMP/minhop.json" "=[round(t['ebb'], 4) for t in d['findings'][-1]['evidence']['traffic']]")" "[0.5619, 0.4343, 0.3333, 1]" "minhop: eBB all-to-all, bisect, shift, ring"
P="--param ecmp-balance.summary.metric=paths --param ecmp-balance.port-imbalance.metric=paths"
expect_rc 0 "$FL" check $R $P "$B/topology-ftree.ibnetdiscover" "$B/ftree-lfts.dump"
expect_eq "$(ev ecmp-balance.summary "[0]['port_balance']")" "{'imbalanced_switches': 0, 'max_cv': 0, 'mean_cv': 0, 'metric': 'paths', 'switches': 33, 'tolerance': 1, 'worst_spread': 0}" "ftree: path balance"
expect_rc 0 "$FL" check $R $P "$B/topology-minhop.ibnetdiscover" "$B/minhop-lfts.dump"
expect_eq "$(ev ecmp-balance.summary "[0]['port_balance']")" "{'imbalanced_switches': 12, 'max_cv': 1.41421, 'mean_cv': 0.707107, 'metric': 'paths', 'switches': 33, 'tolerance': 1, 'worst_spread': 81, 'worst_switch': 'spine-p04-03'}" "minhop: path balance"
expect_eq "$(jget "$TMP/out" "=len([f for f in d['findings'] if f['rule'] == 'ecmp-balance.port-imbalance'])")" "12" "minhop: 12 spines"

# bad parameters: the rule cannot run
expect_rc 2 "$FL" check $R --param ecmp-balance.link-load.patterns=nope "$TMP/ft.xml"
expect_grep "$TMP/err" "unknown pattern 'nope'"
expect_rc 3 "$FL" check $R --param ecmp-balance.link-load.routing=lft "$TMP/ft.xml"
expect_grep "$TMP/err" "routing=lft needs LFTs"
finish
