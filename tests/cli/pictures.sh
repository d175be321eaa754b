#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/pictures.sh — `--format dot|svg|html` and the views of issue 15
# on fabrics with known faults (docs/pictures.md):
#   fabrics/rail-su-asbuilt.ibnetdiscover (ibsim): dgx-001's mlx5_0/mlx5_3
#     cables crossed between the rail-0 and rail-1 leaves, and
#     leaf-su01-r2 port 33 <-> spine-01 port 17 trained at 1x;
#   fabrics/broken/rail-cross.ibnetdiscover: dgx-005 mlx5_4 on the rail-5
#     leaf, mlx5_9 unplugged;
#   fabrics/diff/rail-su8.{design.xml,asbuilt.ibnetdiscover}: one cable
#     moved, one removed, one added, one pair swapped;
#   tests/fixtures/pictures/rail-su-racks.csv: every spine in rack R01.
# Each view's SVG must hold the highlighted elements by id, in the colour
# of their finding, and the fix text. SVGs are read with tests/cli/svgq.py
# (an XML parser: Graphviz escapes '-' in ids as &#45;).
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
: "${FL_BUILD:=$(dirname "$FL")}"
asb=$src/fabrics/rail-su-asbuilt.ibnetdiscover
racks=$src/tests/fixtures/pictures/rail-su-racks.csv
# q FILE QUERY [ID] — svgq.py's answer, from one svgq.py --serve for the
# whole test (started as lib.bash starts jget's: detached, on two FIFOs);
# a python3 per query was most of this test's time outside fabriclint
mkfifo "$TMP/.svgq-in" "$TMP/.svgq-out"
( exec "${FL_PYTHON:-python3}" -u "$src/tests/cli/svgq.py" --serve $$ \
  <"$TMP/.svgq-in" >"$TMP/.svgq-out" & )
exec {SVGQ_IN}>"$TMP/.svgq-in" {SVGQ_OUT}<"$TMP/.svgq-out"
q() {
  local f=$1 ans
  case $f in /*) ;; *) f=$PWD/$f ;; esac
  printf '%s\0' "$#" "$f" "${@:2}" >&"$SVGQ_IN" || return 1
  IFS= read -r -d '' ans <&"$SVGQ_OUT" || return 1
  printf '%s' "${ans:1}"
  [ "${ans:0:1}" = 0 ]
}
RED='#d62728'
ORANGE='#e67e00'
FIX='swap them: "dgx-001 mlx5_0" -> "leaf-su01-r0" port 1, "dgx-001 mlx5_3" -> "leaf-su01-r1" port 1'
SWAP01='link-dgx-001+mlx5_0~1~leaf-su01-r1~1'
SWAP03='link-dgx-001+mlx5_3~1~leaf-su01-r0~1'
ONEX='link-leaf-su01-r2~33~spine-01~17'

# ---- tiers --------------------------------------------------------------------
expect_rc 1 "$FL" check --format svg "$asb"
t=$TMP/tiers.svg
cp "$TMP/out" "$t"
# every switch alone, the CAs of each leaf as one node, the crossed NICs alone
expect_eq "$(q "$t" ids node- | tr '\n' ' ')" \
  "node-dgx-001+mlx5_0 node-dgx-001+mlx5_3 node-leaf-su01-r0 node-leaf-su01-r1 node-leaf-su01-r2 node-leaf-su01-r3 node-leaf-su01-r4 node-leaf-su01-r5 node-leaf-su01-r6 node-leaf-su01-r7 node-spine-01 node-spine-02 node-spine-03 node-spine-04 " \
  "tiers: nodes drawn alone"
expect_eq "$(q "$t" ids hosts- | wc -l)" 8 "tiers: one hosts node per leaf"
expect_eq "$(q "$t" text hosts-leaf-su01-r0)" "hosts-leaf-su01-r0 31 hosts" \
  "tiers: leaf r0 keeps 31 of its 32 NICs folded (its crossed one alone)"
expect_eq "$(q "$t" text hosts-leaf-su01-r5)" "hosts-leaf-su01-r5 32 hosts" "tiers: r5"
# 8 leaves x 4 spines bundles; the 1x cable drawn alone leaves 7 in its bundle
expect_eq "$(q "$t" ids bundle-node- | wc -l)" 32 "tiers: leaf-spine bundles"
expect_eq "$(q "$t" text 'bundle-node-leaf-su01-r2~node-spine-01')" \
  "node-spine-01->node-leaf-su01-r2 x7" "tiers: bundle without the 1x cable"
expect_eq "$(q "$t" text 'bundle-node-leaf-su01-r3~node-spine-01')" \
  "node-spine-01->node-leaf-su01-r3 x8" "tiers: full bundle"
# the highlighted elements, by id, in the colour of their finding
expect_eq "$(q "$t" class "$SWAP01")" "edge cable sev-error f1" "tiers: crossed cable 1"
expect_eq "$(q "$t" stroke "$SWAP01")" "$RED" "tiers: crossed cable 1 red"
expect_eq "$(q "$t" class "$SWAP03")" "edge cable sev-error f1" "tiers: crossed cable 2"
expect_eq "$(q "$t" class node-leaf-su01-r0)" "node switch sev-error f1" "tiers: leaf r0"
expect_eq "$(q "$t" class node-leaf-su01-r3)" "node switch" "tiers: r3 unmarked"
# finding 2: topology.degraded-link, which carries its four ecmp consequences
expect_eq "$(q "$t" class "$ONEX")" "edge cable sev-warning f2" "tiers: 1x cable"
expect_eq "$(q "$t" stroke "$ONEX")" "$ORANGE" "tiers: 1x cable orange"
expect_eq "$(q "$t" text "$ONEX")" "node-spine-01->node-leaf-su01-r2 17 - 33, 1xHDR" \
  "tiers: 1x cable label"
# the fix: in the findings box and in the crossed cable's tooltip
expect_grep <(q "$t" alltext) "$(printf '%s' "$FIX" | sed 's/[.]/\\./g')"
expect_grep <(q "$t" title "$SWAP01") "$(printf '%s' "$FIX" | sed 's/[.]/\\./g')"
# deterministic: the same input gives the same bytes
"$FL" check --format svg "$asb" > "$TMP/again.svg"
expect_eq "$(cmp -s "$t" "$TMP/again.svg" && echo same)" same "tiers: deterministic"

# ---- dot: the same scene, before layout -----------------------------------------
expect_rc 1 "$FL" check --format dot "$asb"
expect_eq "$(head -1 "$TMP/out")" "digraph fabriclint {" "dot: header"
expect_grep "$TMP/out" '"node-leaf-su01-r0"'
expect_grep "$TMP/out" "id=\"$ONEX\""
expect_eq "$(grep -c 'class="cable sev-error f1"' "$TMP/out")" 2 "dot: the crossed cables' classes"

# ---- rails --------------------------------------------------------------------
expect_rc 1 "$FL" check --format svg --view rails "$asb"
r=$TMP/rails.svg
cp "$TMP/out" "$r"
expect_eq "$(q "$r" ids a_nic- | wc -l)" 256 "rails: one cell per NIC"
expect_eq "$(q "$r" ids su-)" "su-SU+1" "rails: one SU"
expect_eq "$(q "$r" text 'a_nic-dgx-001+mlx5_0~1')" \
  "leaf-su01-r1 p1 fix: -> leaf-su01-r0 p1" "rails: crossed NIC 1 and its fix"
expect_eq "$(q "$r" text 'a_nic-dgx-001+mlx5_3~1')" \
  "leaf-su01-r0 p1 fix: -> leaf-su01-r1 p1" "rails: crossed NIC 2 and its fix"
expect_eq "$(q "$r" fill 'a_nic-dgx-001+mlx5_0~1')" "#fbd5d5" "rails: error fill"
expect_eq "$(q "$r" text 'a_nic-dgx-002+mlx5_3~1')" "leaf-su01-r1 p2" "rails: a clean cell"
expect_eq "$(q "$r" fill 'a_nic-dgx-002+mlx5_3~1')" "" "rails: clean cell unfilled"
# columns in natural order, each with its usual leaf
expect_grep <(q "$r" text su-SU+1) \
  "^su-SU\+1 SU 1 mlx5_0 leaf-su01-r0 mlx5_3 leaf-su01-r1 mlx5_4 leaf-su01-r2 mlx5_5 leaf-su01-r3 mlx5_6 leaf-su01-r4 mlx5_9 leaf-su01-r5 mlx5_10 leaf-su01-r6 mlx5_11 leaf-su01-r7 dgx-001"
expect_grep <(q "$r" alltext) "$(printf '%s' "$FIX" | sed 's/[.]/\\./g')"
# a NIC on another rail's leaf and its host's missing rail
expect_rc 1 "$FL" check --format svg --view rails "$src/fabrics/broken/rail-cross.ibnetdiscover"
cp "$TMP/out" "$TMP/cross.svg"
expect_eq "$(q "$TMP/cross.svg" text 'a_nic-dgx-005+mlx5_4~1')" \
  "leaf-su01-r5 p5 fix: -> leaf-su01-r2 p5" "rails: cross-rail NIC and its fix"
expect_eq "$(q "$TMP/cross.svg" ids a_nic- | wc -l)" 255 "rails: the unplugged NIC has no cell"
expect_eq "$(q "$TMP/cross.svg" fill a_host-dgx-005)" "#fbd5d5" "rails: host row coloured"
expect_grep <(q "$TMP/cross.svg" title a_host-dgx-005) \
  'rail-alignment.incomplete-host: host "dgx-005" has no NIC on rail\(s\) mlx5_9'

# the tier view of that fabric: the incomplete host's 7 NICs (one finding
# naming at most 8) and the cross-rail NIC are drawn alone
expect_rc 1 "$FL" check --format svg "$src/fabrics/broken/rail-cross.ibnetdiscover"
expect_eq "$(q "$TMP/out" ids node-dgx | tr '\n' ' ')" \
  "node-dgx-005+mlx5_0 node-dgx-005+mlx5_10 node-dgx-005+mlx5_11 node-dgx-005+mlx5_3 node-dgx-005+mlx5_4 node-dgx-005+mlx5_5 node-dgx-005+mlx5_6 " \
  "tiers: the NICs of the incomplete host"
# a fat tree is not rail-optimised: its pods' NICs have no usual leaf (two
# leaves of two hosts each per pod: exactly half is no majority)
"$FL" gen fat-tree --radix 4 --tiers 3 -o "$TMP/ft4.xml"
expect_rc 0 "$FL" check --format svg --view rails --rules 'topology.*' "$TMP/ft4.xml"
expect_eq "$(q "$TMP/out" ids su- | tr '\n' ' ')" "su-pod+1 " "rails: a clean fabric draws its first pod"
expect_grep <(q "$TMP/out" text su-pod+1) "^su-pod\+1 pod 1 mlx5_0 \(no usual leaf\) node0001 leaf-p01-01 p1 node0002 leaf-p01-01 p2 node0003 leaf-p01-02 p1 node0004 leaf-p01-02 p2$"
expect_eq "$(for i in 1 2 3 4; do q "$TMP/out" fill "a_nic-node000$i+mlx5_0~1"; done | tr -d '\n')" "" \
  "rails: no cell marked off its rail"
expect_grep <(q "$TMP/out" text side) "^side SUs pod 2 to pod 4 \(3\): 4 NICs on 1 rail each, none named by a finding, none off its rail's usual leaf$"

# ---- load ---------------------------------------------------------------------
expect_rc 1 "$FL" check --format svg --view load "$asb"
l=$TMP/load.svg
cp "$TMP/out" "$l"
# loads come from ecmp-balance.link-load with link-loads=true
expect_rc 0 "$FL" check --format json --rules ecmp-balance.link-load \
  --param ecmp-balance.link-load.link-loads=true "$asb"
cp "$TMP/out" "$TMP/ll.json"
expect_eq "$(jget "$TMP/ll.json" "=[len(f['evidence']['link_loads']) for f in d['findings']]")" \
  "[512, 512, 512, 512]" "load: every directed switch cable of each pattern"
expect_eq "$(jget "$TMP/ll.json" "=max(x[2] for f in d['findings'] if f['evidence']['pattern']=='all-to-all' for x in f['evidence']['link_loads'])")" \
  896 "load: hottest all-to-all load (224 flows over a quarter-rate cable)"
expect_rc 0 "$FL" check --format json --rules ecmp-balance.link-load "$asb"
expect_eq "$(jget "$TMP/out" "=sum('link_loads' in f['evidence'] for f in d['findings'])")" 0 \
  "load: no link_loads without the parameter"
expect_eq "$(q "$l" stroke "$ONEX")" "#800026" "load: the 1x cable is the hottest"
expect_grep <(q "$l" title "$ONEX") "load 896 \(hottest 896\)"
expect_eq "$(q "$l" stroke 'bundle-node-leaf-su01-r3~node-spine-02')" "#fed976" "load: a 224 bundle"
expect_grep <(q "$l" title 'bundle-node-leaf-su01-r3~node-spine-02') "^8 cables, 1600 Gb/s$"
expect_grep <(q "$l" text side) \
  "1\. leaf-su01-r2 port 33 -> spine-01 port 17: 896 2\. spine-01 port 17 -> leaf-su01-r2 port 33: 896 3\. leaf-su01-r7 port 33 -> spine-01 port 57: 224"
expect_grep <(q "$l" alltext) "pattern all-to-all, ECMP routing; hottest load 896"
# the load view without the plugin says the loads are unknown
expect_rc 0 "$FL" check --format svg --view load --no-builtin-plugins \
  --plugin "$FL_BUILD/plugins/topology.so" "$asb"
expect_grep <(q "$TMP/out" alltext) "no ecmp-balance.link-load finding"
expect_eq "$(q "$TMP/out" stroke "$ONEX")" "$ORANGE" "load unknown: severity colours"

# ---- domains ------------------------------------------------------------------
expect_rc 1 "$FL" check --format svg --view domains "$asb" "$racks"
dm=$TMP/domains.svg
cp "$TMP/out" "$dm"
expect_eq "$(q "$dm" ids domain- | tr '\n' ' ')" \
  "domain-rack~R01 domain-rack~R02 domain-rack~R03 domain-rack~R04 domain-rack~R05 " \
  "domains: one cluster per rack"
expect_eq "$(q "$dm" class 'domain-rack~R01')" "cluster cluster sev-error" "domains: R01 cuts the fabric"
expect_eq "$(q "$dm" stroke 'domain-rack~R01')" "$RED" "domains: R01 red"
expect_eq "$(q "$dm" class 'domain-rack~R02')" "cluster cluster" "domains: R02 harmless"
# one hosts node per rack (what fails with it), whatever the leaves
expect_eq "$(q "$dm" ids valuehosts | tr '\n' ' ')" "valuehosts-R04 valuehosts-R05 " \
  "domains: a hosts node per rack"
expect_eq "$(q "$dm" text 'valuehosts-R04')" "valuehosts-R04 126 CAs of 16 hosts" \
  "domains: R04's CAs (dgx-001's two crossed NICs alone)"
expect_eq "$(q "$dm" text 'valuehosts-R05')" "valuehosts-R05 128 CAs of 16 hosts" "domains: R05"
expect_eq "$(q "$dm" ids 'bundle-node-leaf-su01-r3~valuehosts-R05')" "bundle-node-leaf-su01-r3~valuehosts-R05" \
  "domains: a rack's hosts cabled to each leaf they reach"
expect_grep <(q "$dm" text side) \
  "rack R01: 4 switches, 0 CAs; if it fails: \[error\] failure-domains.domain-partition: losing rack=R01 \(4 switch\(es\): all 4 spines sit in it, 0 cable\(s\)\) splits the remaining hosts into 8 groups"
# values no finding names, alike: one line (natural order)
expect_grep <(q "$dm" text side) "rack R02, R03 \(2 values\): 4 switches, 0 CAs each; no failure-domains finding"
# pdu A and power-feed A are two domains: each line has its own finding,
# the partition (the uplink capacity it costs is that finding, issue #30)
expect_eq "$(q "$dm" text side | grep -o 'losing power-feed=A\|losing pdu=A\|losing rack=R01' | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
  " 1 losing pdu=A; 1 losing power-feed=A; 1 losing rack=R01;" "domains: findings per (key, value)"
expect_grep <(q "$dm" text side) "rack R04, R05 \(2 values\): 0 switches, 128 CAs each; no failure-domains finding"
expect_grep <(q "$dm" text side) "power-feed B: 4 switches, 128 CAs; no failure-domains finding"
# the crossed pair is still drawn alone: a partition naming 224 NICs stays folded
expect_eq "$(q "$dm" class "$SWAP01")" "edge cable sev-error f4" "domains: crossed cable"
expect_rc 1 "$FL" check --format svg --view domains "$asb"
expect_grep <(q "$TMP/out" alltext) "no rack, row, hall, pdu or power-feed attribute"

# ---- diff ---------------------------------------------------------------------
d=$src/fabrics/diff
expect_rc 1 "$FL" diff --format svg "$d/rail-su8.design.xml" "$d/rail-su8.asbuilt.ibnetdiscover"
df=$TMP/diff.svg
cp "$TMP/out" "$df"
expect_eq "$(q "$df" ids group- | tr '\n' ' ')" \
  "group-su-1-tier-1 group-su-2-tier-1 group-su-3-tier-1 group-su-4-tier-1 group-su-5-tier-1 group-su-6-tier-1 group-su-7-tier-1 group-su-8-tier-1 group-tier-2 " \
  "diff: 1,920 CAs and 96 switches fold per SU and tier"
chk() { # id class stroke dash text
  expect_eq "$(q "$df" class "$1")|$(q "$df" stroke "$1")|$(q "$df" dash "$1")|$(q "$df" text "$1")" \
    "$2|$3|$4|$5" "diff: $1"
}
chk 'link-leaf-su02-r4~33~spine-01~13' "edge cable sev-error f2" "$RED" "5,2" \
  "node-spine-01->node-leaf-su02-r4 missing 13 - 33, 4xHDR"
chk 'link-dgx-003+mlx5_5~1~leaf-su01-r3~3' "edge cable sev-error f1" "$RED" "5,2" \
  "node-leaf-su01-r3->node-dgx-003+mlx5_5 planned 3 - 1, 4xHDR"
chk 'link-dgx-003+mlx5_5~1~leaf-su01-r3~31' "edge cable sev-error f1" "$RED" "" \
  "node-leaf-su01-r3->node-dgx-003+mlx5_5 built 31 - 1"
chk 'link-dgx-010+mlx5_0~1~leaf-su01-r0~10' "edge cable sev-error f3" "$RED" "5,2" \
  "node-leaf-su01-r0->node-dgx-010+mlx5_0 planned 10 - 1, 4xHDR"
chk 'link-dgx-010+mlx5_0~1~leaf-su01-r1~10' "edge cable sev-error f3" "$RED" "" \
  "node-leaf-su01-r1->node-dgx-010+mlx5_0 built 10 - 1"
chk 'swap-dgx-010+mlx5_0~dgx-010+mlx5_3' "edge cable sev-error f3" "$RED" "1,5" \
  "node-dgx-010+mlx5_0->node-dgx-010+mlx5_3 swap"
chk 'link-leaf-su03-r0~31~leaf-su03-r1~31' "edge cable sev-error f4" "#7b3fb5" "" \
  "node-leaf-su03-r1->node-leaf-su03-r0 not in plan 31 - 31"
expect_grep <(q "$df" alltext) 'fix: swap the two cable ends at "dgx-010 mlx5_0" port 1 and "dgx-010 mlx5_3" port 1'
expect_grep <(q "$df" alltext) 'move that end from "leaf-su01-r3" port 31 to "leaf-su01-r3" port 3'
# LLDP captures as the as-built side (ports by label)
expect_rc 1 "$FL" diff --format svg "$d/lldp-design.xml" "$d/lldp"
cp "$TMP/out" "$TMP/lldp.svg"
# the swapped pair is two ports of one host: its crossed cables show it
expect_eq "$(q "$TMP/lldp.svg" ids link- | tr '\n' ' ')" \
  "link-host-03~1~leaf-01~3 link-host-03~eth0~leaf-01~swp5 link-host-06~1~leaf-03~2 link-host-06~1~leaf-04~2 link-host-06~2~leaf-03~2 link-host-06~2~leaf-04~2 link-leaf-02~swp10~leaf-03~swp10 link-leaf-04~6~spine-02~4 " \
  "diff lldp: the changed cables (as-built ports the plan lacks by label)"
expect_eq "$(q "$TMP/lldp.svg" class 'link-leaf-02~swp10~leaf-03~swp10')|$(q "$TMP/lldp.svg" stroke 'link-leaf-02~swp10~leaf-03~swp10')" \
  "edge cable sev-error f4|#7b3fb5" "diff lldp: unexpected leaf-leaf cable"
expect_eq "$(q "$TMP/lldp.svg" text 'link-host-03~eth0~leaf-01~swp5')" \
  "node-leaf-01->node-host-03 built swp5 - eth0" "diff lldp: where host-03 eth0 landed"
expect_eq "$(q "$TMP/lldp.svg" dash 'link-host-06~1~leaf-03~2')" "5,2" "diff lldp: planned host-06 cable dashed"

# ---- folding at scale and --focus -------------------------------------------------
"$FL" gen fat-tree --radix 16 --tiers 3 -o "$TMP/ft16.xml"
expect_rc 0 "$FL" check --rules 'topology.*' --format svg "$TMP/ft16.xml"
cp "$TMP/out" "$TMP/ft16.svg"
expect_eq "$(q "$TMP/ft16.svg" ids group- | wc -l)" 33 "folded: 16 pods x 2 tiers + the cores"
expect_eq "$(q "$TMP/ft16.svg" ids node- | grep -c .)" 0 "folded: no switch alone"
expect_eq "$(q "$TMP/ft16.svg" text group-pod-3-tier-2)" "group-pod-3-tier-2 pod 3, spines 8 switches" "folded: a spine group"
expect_eq "$(q "$TMP/ft16.svg" text grouphosts-pod-3-tier-1)" "grouphosts-pod-3-tier-1 64 hosts" "folded: a pod's hosts"
expect_eq "$(q "$TMP/ft16.svg" text 'bundle-group-pod-3-tier-2~group-tier-3')" \
  "group-tier-3->group-pod-3-tier-2 x64" "folded: pod uplinks"
expect_rc 0 "$FL" check --rules 'topology.*' --format svg --focus leaf-p03-02 "$TMP/ft16.xml"
expect_eq "$(q "$TMP/out" ids node- | tr '\n' ' ')" \
  "node-leaf-p03-02 node-spine-p03-01 node-spine-p03-02 node-spine-p03-03 node-spine-p03-04 node-spine-p03-05 node-spine-p03-06 node-spine-p03-07 node-spine-p03-08 " \
  "focus node: the leaf and its spines, one by one"
expect_eq "$(q "$TMP/out" ids hosts- | tr '\n' ' ')" "hosts-leaf-p03-02 " "focus node: its hosts"
focus_ids="node-dgx-001+mlx5_0 node-dgx-001+mlx5_3 node-leaf-su01-r0 node-leaf-su01-r1 node-spine-01 node-spine-02 node-spine-03 node-spine-04 "
expect_rc 1 "$FL" check --format svg --focus "dgx-001 mlx5_0" "$asb"
expect_eq "$(q "$TMP/out" ids node- | tr '\n' ' ')" "$focus_ids" "focus NIC: with the nodes its finding names"
expect_rc 1 "$FL" check --format svg --focus 'rail-alignment.*' "$asb"
expect_eq "$(q "$TMP/out" ids node- | tr '\n' ' ')" "$focus_ids" "focus rule glob"
expect_grep <(q "$TMP/out" alltext) "focus rail-alignment\.\*: 4 nodes"

# ---- usage errors: exit 2, nothing written ----------------------------------------
expect_rc 2 "$FL" check --format svg --focus nosuch "$asb"
expect_grep "$TMP/err" "--focus: 'nosuch' is neither a node of the fabric"
expect_eq "$(wc -c < "$TMP/out")" 0 "bad focus: no output"
expect_rc 2 "$FL" check --focus spine-01 "$asb"
expect_grep "$TMP/err" "--view and --focus apply to the pictures"
expect_rc 2 "$FL" check --format svg --view bogus "$asb"
expect_grep "$TMP/err" "--view: expected tiers, rails, load or domains"
expect_rc 2 "$FL" check --format svg --view tiers,rails "$asb"
expect_grep "$TMP/err" "--format svg draws one view"
expect_rc 2 "$FL" check --format html --view tiers,tiers "$asb"
expect_grep "$TMP/err" "'tiers' is listed twice"
expect_rc 2 "$FL" check --format svg --view diff "$asb"
expect_grep "$TMP/err" "'diff' is drawn by .fabriclint diff."
expect_rc 2 "$FL" diff --format svg --view tiers "$d/rail-su8.design.xml" "$d/rail-su8.asbuilt.ibnetdiscover"
expect_grep "$TMP/err" "diff draws the diff view"
expect_rc 2 "$FL" info --format svg "$asb"
expect_grep "$TMP/err" "'info' writes text or json only"
expect_rc 2 "$FL" diff --format csv --view diff "$d/rail-su8.design.xml" "$d/rail-su8.asbuilt.ibnetdiscover"
expect_grep "$TMP/err" "--view and --focus apply to the pictures"
# --output is put in place only when the picture is complete
echo keep > "$TMP/keep.svg"
expect_rc 2 "$FL" check --format svg --focus nosuch --output "$TMP/keep.svg" "$asb"
expect_eq "$(cat "$TMP/keep.svg")" keep "a refused picture leaves --output as it was"

# ---- html (without a browser; pictures_chromium.sh opens it) -----------------------
expect_rc 1 "$FL" check --format html --view tiers,rails,load,domains "$asb" "$racks"
h=$TMP/report.html
cp "$TMP/out" "$h"
expect_eq "$(grep -c 'http://\|https://' "$h")" \
  "$(grep -c 'xmlns="http://www.w3.org/2000/svg"\|xmlns:xlink=\|w3.org/1999/xlink' "$h")" \
  "html: no URL but the SVG namespaces (nothing fetched)"
expect_eq "$(grep -c '<script src\|<link ' "$h")" 0 "html: no external script or style"
expect_eq "$(q "$h" class "tiers-$SWAP01")" "edge cable sev-error f4" "html: tiers ids prefixed"
expect_eq "$(q "$h" text "rails-a_nic-dgx-001+mlx5_0~1")" \
  "leaf-su01-r1 p1 fix: -> leaf-su01-r0 p1" "html: rails ids prefixed"
# one table row per finding: the default rules' plus the 4 patterns of
# ecmp-balance.link-load, which the load view runs
"$FL" check --format json "$asb" "$racks" > "$TMP/all.json"
expect_eq "$(grep -o '<tr data-f="[0-9]*"' "$h" | wc -l)" \
  "$(($(jget "$TMP/all.json" "=len(d['findings'])") + 4))" "html: one table row per finding"
expect_eq "$(grep -c 'data-rule="ecmp-balance.link-load"' "$h")" 4 "html: link-load rows"
sha=$(sha256sum < "$asb" | cut -d' ' -f1)
expect_grep "$h" "<td>input</td><td>$asb</td><td>$(wc -c < "$asb")</td><td>$sha</td>"
expect_grep "$h" "id=\"tally-error\"><div class=\"count\">4</div>"
# diff html: both sides' files with their role
expect_rc 1 "$FL" diff --format html "$d/rail-su8.design.xml" "$d/rail-su8.asbuilt.ibnetdiscover"
expect_grep "$TMP/out" "<tr><td>design</td><td>[^<]*rail-su8.design.xml</td>"
expect_grep "$TMP/out" "<tr><td>as built</td><td>[^<]*rail-su8.asbuilt.ibnetdiscover</td>"
expect_eq "$(grep -o '<tr data-f="[0-9]*"' "$TMP/out" | wc -l)" 4 "diff html: four findings"
finish
