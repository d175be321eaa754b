#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/gen_layout.sh — `fabriclint gen ... --layout` (issue 34 §3,
# docs/cli.md "gen", fabriclint/gen.h fl_gen_layout_params): racks, rows, U
# positions, A/B PDUs and feeds on the equipment, cable ids, lengths and
# media on the cables, as design XML attributes. Lengths are the routing
# model of gen.h evaluated by hand (rack unit 44.45 mm, rack pitch 0.6 m,
# row pitch 2.4 m, 0.5 m tray rise per end between racks, 1 m slack),
# rounded up to the orderable lengths; media at NDR: dac <= 3 m, acc <= 5 m,
# optical beyond. Every plan passes check.
. "$(dirname "$0")/lib.bash"
J() { jget "$TMP/out" "$1"; }
# node ATTR FILE NAME — attribute ATTR of node NAME
node() { grep -o "<node [^>]*name=\"$3\"[^>]*" "$2" | grep -o " $1=\"[^\"]*\"" | cut -d'"' -f2; }
# link FILE A B — "length media" of the first cable from A to B
link() { grep -o "<link a=\"$2\" a-port=\"[0-9]*\" b=\"$3\"[^>]*" "$1" | head -1 | sed -E 's/.*length="([^"]*)"( media="([^"]*)")?.*/\1 \3/'; }

# ---- 2 SUs x 4 hosts x 2 rails, radix 8: one row per SU, its hosts (4 of
# 8U per rack) in Rrr-01, its leaves in Rrr-02; the 2 spines dealt over 2
# racks, one at the end of each row
"$FL" gen rail-su --sus 2 --rails 2 --hosts-per-su 4 --leaf-radix 8 --layout -o "$TMP/sm.xml" || fail "gen --layout"
expect_eq "$(node rack "$TMP/sm.xml" "dgx-001 mlx5_0")/$(node row "$TMP/sm.xml" "dgx-001 mlx5_0")/$(node u "$TMP/sm.xml" "dgx-001 mlx5_0")" "R01-01/R01/1" "dgx-001: R01-01 U1"
expect_eq "$(node u "$TMP/sm.xml" "dgx-004 mlx5_1")" 25 "dgx-004: U25 (8U hosts)"
expect_eq "$(node rack "$TMP/sm.xml" "dgx-005 mlx5_0")" R02-01 "SU2 hosts: row 2"
expect_eq "$(node rack "$TMP/sm.xml" "leaf-su01-r1")/$(node u "$TMP/sm.xml" "leaf-su01-r1")" "R01-02/2" "leaf-su01-r1: R01-02 U2"
expect_eq "$(node rack "$TMP/sm.xml" "spine-01") $(node rack "$TMP/sm.xml" "spine-02")" "R01-03 R02-03" "spines in two racks and rows"
expect_eq "$(node pdu "$TMP/sm.xml" "spine-02")/$(node power-feed "$TMP/sm.xml" "spine-02")" "R02-03-PA+R02-03-PB/A+B" "dual-fed from the rack's A and B PDUs"
expect_eq "$(grep -c 'power-feed="A+B"' "$TMP/sm.xml")" 22 "6 switches + 16 CAs dual-fed"
# cable ids: C00001.. in link order, unique
expect_eq "$(grep -o 'cable="C[0-9]*"' "$TMP/sm.xml" | sort -u | wc -l)" 32 "32 cable ids"
expect_eq "$(grep -o '<link [^>]*' "$TMP/sm.xml" | head -1 | grep -o 'cable="[^"]*"')" 'cable="C00001"' "first cable C00001"
# dgx-001 U1 to leaf-su01-r0 U1, next rack: 2 x 42 x 44.45 + 2 x 500 + 600
# + 1000 = 6333.8 mm -> 7 m; dgx-004 U25 to leaf-su01-r1 U2: 18 and 41 U
# -> 5222.6 mm -> 7 m
expect_eq "$(link "$TMP/sm.xml" "dgx-001 mlx5_0" leaf-su01-r0)" "7 optical" "host cable 6.33 m"
expect_eq "$(link "$TMP/sm.xml" "dgx-004 mlx5_1" leaf-su01-r1)" "7 optical" "dgx-004 to leaf r1: 5.22 m"
# leaf to the spine of its row: 6333.8 mm -> 7 m; to the other row's:
# + 2400 mm -> 8733.8 mm -> 10 m
expect_eq "$(link "$TMP/sm.xml" leaf-su01-r0 spine-01)" "7 optical" "same row: 7 m"
expect_eq "$(link "$TMP/sm.xml" leaf-su01-r0 spine-02)" "10 optical" "next row: 10 m"
expect_eq "$(link "$TMP/sm.xml" leaf-su02-r1 spine-01)" "10 optical" "SU2 leaf to row 1: 10 m"
expect_eq "$(grep -o 'length="[0-9.]*" media="[a-z]*"' "$TMP/sm.xml" | sort | uniq -c | awk '{printf "%s %s %s;", $1, $2, $3}')" \
  '8 length="10" media="optical";24 length="7" media="optical";' "hand count: 24 x 7 m, 8 x 10 m"
expect_rc 0 "$FL" check "$TMP/sm.xml"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info'
# the spread matters: spine-02 moved into spine-01's rack partitions the SUs
sed 's/name="spine-02"\(.*\)rack="R02-03" row="R02" u="1" pdu="R02-03-PA+R02-03-PB"/name="spine-02"\1rack="R01-03" row="R01" u="2" pdu="R01-03-PA+R01-03-PB"/' "$TMP/sm.xml" >"$TMP/sm-one.xml"
expect_eq "$(node rack "$TMP/sm-one.xml" spine-02)" R01-03 "moved"
expect_rc 1 "$FL" check --format json "$TMP/sm-one.xml"
expect_eq "$(J "=sorted(f['evidence']['domain'] + '=' + f['evidence']['value'] for f in d['findings'] if f['rule'] == 'failure-domains.domain-partition')")" "['rack=R01-03', 'row=R01']" "one rack and one row hold both spines"
# a second conversion is a fixed point (the u attribute round-trips)
"$FL" convert "$TMP/sm.xml" -o "$TMP/sm2.xml" --format design || fail "convert"
"$FL" convert "$TMP/sm2.xml" -o "$TMP/sm3.xml" --format design || fail "convert 2"
cmp -s "$TMP/sm2.xml" "$TMP/sm3.xml" && pass || fail "convert not a fixed point"
expect_eq "$(node u "$TMP/sm2.xml" "dgx-004 mlx5_1")" 25 "u after convert"
xmllint --noout --relaxng "$FL_SRC/schema/design.rng" "$TMP/sm.xml" 2>"$TMP/xerr" && pass || { fail "schema"; head -3 "$TMP/xerr" >&2; }
# compare: the same cables, now with media
expect_rc 0 "$FL" compare --format json <("$FL" gen rail-su --sus 2 --rails 2 --hosts-per-su 4 --leaf-radix 8) "$TMP/sm.xml"
expect_eq "$(J "=sorted(d['delta']['inventory']['cables_by_media'].items())")" "[('optical', 32), ('unspecified', -32)]" "32 cables now optical"

# ---- media boundaries: a ring of 2 switches, 8 hosts one per 2U rack in a
# row, the switches in rack 9 (U1, U2): rises of 88.9 and 44.45 mm
"$FL" gen ring --switches 2 --hosts-per-switch 4 --rack-u 2 --hosts-per-rack 1 --racks-per-row 20 -o "$TMP/ring.xml" || fail "gen ring"
expect_eq "$(node rack "$TMP/ring.xml" sw-x01)/$(node u "$TMP/ring.xml" sw-x01)" "R01-09/2" "switches in rack 9"
# node0008 (rack 8) to sw-x01: 88.9 + 44.45 + 1000 + 600 + 1000 = 2733 mm
expect_eq "$(link "$TMP/ring.xml" "node0008 mlx5_0" sw-x01)" "3 dac" "2.73 m -> 3 m, dac (at its 3 m reach)"
expect_eq "$(link "$TMP/ring.xml" "node0007 mlx5_0" sw-x01)" "4 acc" "3.33 m -> 4 m, acc"
expect_eq "$(link "$TMP/ring.xml" "node0005 mlx5_0" sw-x01)" "5 acc" "4.53 m -> 5 m, acc (at its 5 m reach)"
expect_eq "$(link "$TMP/ring.xml" "node0004 mlx5_0" sw-x00)" "7 optical" "5.18 m -> 7 m, optical"
# in one rack: 1 U apart + 1 m slack = 1.04 m -> 1.5 m
expect_eq "$(link "$TMP/ring.xml" sw-x00 sw-x01)" "1.5 dac" "switch to switch in a rack"
# another speed: lengths, no media (no reach cited)
"$FL" gen ring --switches 2 --hosts-per-switch 4 --rack-u 2 --hosts-per-rack 1 --racks-per-row 20 --speed HDR -o "$TMP/hdr.xml" || fail "gen HDR"
expect_eq "$(link "$TMP/hdr.xml" "node0008 mlx5_0" sw-x01)" "3 " "HDR: length only"
expect_eq "$(grep -c 'media=' "$TMP/hdr.xml")" 0 "HDR: no media"
# past every medium: 1000 one-unit racks in a row, the switches in row 2
expect_rc 2 "$FL" gen ring --switches 4 --hosts-per-switch 250 --rack-u 1 --hosts-per-rack 1 --racks-per-row 1000 -o "$TMP/far.xml"
expect_grep "$TMP/err" 'cable [0-9]+ would be [0-9.]+ m long, beyond any medium \(500 m\)'
[ ! -e "$TMP/far.xml" ] && pass || fail "nothing written"

# ---- what fits a rack: 5 hosts of 8U fit 42U, 6 do not
expect_rc 0 "$FL" gen rail-su --sus 1 --hosts-per-rack 5 -o "$TMP/h5.xml"
expect_eq "$(node u "$TMP/h5.xml" "dgx-005 mlx5_0")/$(node rack "$TMP/h5.xml" "dgx-006 mlx5_0")" "33/R01-02" "5 per rack: U33, the 6th in rack 2"
expect_rc 2 "$FL" gen rail-su --sus 1 --hosts-per-rack 6 -o "$TMP/h6.xml"
expect_grep "$TMP/err" '6 hosts of 8U do not fit a 42U rack'

# ---- real designs with a layout pass check
# (the 16-SU and the two-plane plans are kept for the checks below)
for args in "rail-su --sus 4" "rail-su --sus 4 --oversubscription 2:1" "rail-su --sus 16 --tiers 3" "fat-tree --radix 8 --tiers 3" "rail-su --sus 2 --planes 2"; do
  p=$TMP/p.xml
  case $args in
    "rail-su --sus 16 --tiers 3") p=$TMP/s16.xml ;;
    "rail-su --sus 2 --planes 2") p=$TMP/p2.xml ;;
  esac
  # shellcheck disable=SC2086
  "$FL" gen $args --layout -o "$p" || fail "gen $args --layout"
  expect_rc 0 "$FL" check "$p"
  expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info'
done
# 16 SUs: 16 rows (one per SU: 8 compute racks, 1 leaf rack, then its share
# of the 16 spine and 16 core racks); 64 cores dealt over 16 racks
expect_eq "$(grep -o ' row="R[0-9]*"' "$TMP/s16.xml" | sort -u | wc -l)" 16 "16 rows"
expect_eq "$(grep -o ' rack="R[0-9]*-[0-9]*"' "$TMP/s16.xml" | sort -u | wc -l)" 176 "16 x (8 + 1) + 16 + 16 racks"
expect_eq "$(grep -o 'name="core-[0-9]*"[^>]* rack="[^"]*"' "$TMP/s16.xml" | grep -o 'rack="[^"]*"' | sort | uniq -c | awk '{print $1}' | sort -u | tr '\n' ' ')" "4 " "4 cores per core rack"
# the planes' leaves of one rail sit in different racks, fed A+B: no
# single feed takes both; fed from feed A alone, every rail pair is one
expect_eq "$(node rack "$TMP/p2.xml" pl1-leaf-su01-r0) $(node rack "$TMP/p2.xml" pl2-leaf-su01-r0)" "R01-09 R01-10" "a rack per plane"
sed 's/power-feed="A+B"/power-feed="A"/' "$TMP/p2.xml" >"$TMP/p2-a.xml"
expect_rc 1 "$FL" check --format json "$TMP/p2-a.xml"
expect_eq "$(J "=len([f for f in d['findings'] if f['rule'] == 'failure-domains.dual-homing'])")" 512 "single-fed: 64 hosts x 8 rails"
finish
