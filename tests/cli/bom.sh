#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/bom.sh — `fabriclint bom` (issue 34 §2, docs/cli.md "bom"):
# switches by model, cables by rate, media and length, transceivers per
# end, against a hand count of a small generated plan with a layout; prices
# and watts from a YAML catalogue, missing figures left empty, never summed
# as if known; the sample catalogue; catalogue errors.
. "$(dirname "$0")/lib.bash"
J() { jget "$TMP/out" "$1"; }

# 2 SUs x 4 hosts x 2 rails, radix 8, --layout (tests/cli/gen_layout.sh):
# 4 leaves + 2 spines; 16 host cables of 7 m; leaf-spine 8 of 7 m (own
# row) and 8 of 10 m; all optical, all <= 50 m: multimode. Transceivers:
# one per HCA port (16); at the switches one per twin-port cage: a leaf
# uses ports 1-4 (hosts) and 5-8 (uplinks) = 4 cages, a spine ports 1-8 =
# 4 cages: 4 x 4 + 2 x 4 = 24.
"$FL" gen rail-su --sus 2 --rails 2 --hosts-per-su 4 --leaf-radix 8 --layout -o "$TMP/sm.xml" || fail "gen"
expect_rc 0 "$FL" bom "$TMP/sm.xml"
cat >"$TMP/want.csv" <<'EOF'
category,item,count,part,unit_price,total_price,unit_watts,total_watts,reach_m
switch,"devid 0xd2f2, 8 ports",6,,,,,,
cable,4xNDR optical 7 m,24,,,,,,
cable,4xNDR optical 10 m,8,,,,,,
transceiver,transceiver 4xNDR multimode hca-port,16,,,,,,
transceiver,transceiver 4xNDR multimode switch-cage,24,,,,,,
total,,,,,,,,
EOF
cmp -s "$TMP/out" "$TMP/want.csv" && pass || { fail "CSV differs"; diff "$TMP/want.csv" "$TMP/out" >&2; }
expect_rc 0 "$FL" bom --format json "$TMP/sm.xml"
expect_eq "$(J "['totals']")" "{'switches': 6, 'cables': 32, 'transceivers': 40, 'price': None, 'watts': None, 'rows_without_price': 5, 'rows_without_watts': 5}" "JSON totals"

# ---- a full catalogue: every figure known, totals by hand
cp "$FL_SRC/tests/fixtures/bom/hand-count.yaml" "$TMP/cat.yaml"
expect_rc 0 "$FL" bom --format json --catalogue "$TMP/cat.yaml" "$TMP/sm.xml"
# 6 x 10 + 8 x 1 + 24 x 2 + 16 x 3 + 24 x 4.5 = 272;
# 6 x 100 + 16 x 9 + 24 x 17 = 1152 W
expect_eq "$(J "=(d['totals']['price'], d['totals']['watts'], d['totals']['rows_without_price'])")" "(272, 1152, 0)" "totals by hand"
expect_eq "$(J "=[(i['part'], i['total_price'], i['total_watts']) for i in d['items'] if i['category'] == 'switch']")" "[('SW8', 60, 600)]" "switch row"
expect_rc 0 "$FL" bom --catalogue "$TMP/cat.yaml" "$TMP/sm.xml"
expect_grep "$TMP/out" '^transceiver,transceiver 4xNDR multimode switch-cage,24,,4.5,108,17,408,50$'
expect_grep "$TMP/out" '^total,,,,,272,,1152,$'
# one figure missing: that total is unknown, not the sum of the rest
grep -v 'price: 3' "$TMP/cat.yaml" >"$TMP/cat2.yaml"
echo '  - {item: "transceiver 4xNDR multimode hca-port", watts: 9}' >>"$TMP/cat2.yaml"
expect_rc 0 "$FL" bom --format json --catalogue "$TMP/cat2.yaml" "$TMP/sm.xml"
expect_eq "$(J "=(d['totals']['price'], d['totals']['watts'], d['totals']['rows_without_price'])")" "(None, 1152, 1)" "a missing price"

# ---- the sample catalogue: no prices; watts where a data sheet says them
expect_rc 0 "$FL" bom --format json --catalogue "$FL_SRC/examples/bom/catalogue-sample.yaml" "$TMP/sm.xml"
expect_eq "$(J "=[(i['item'], i['unit_watts'], i['total_watts']) for i in d['items'] if i['unit_watts'] is not None]")" "[('transceiver 4xNDR multimode hca-port', 9, 144), ('transceiver 4xNDR multimode switch-cage', 17, 408)]" "sample: transceiver watts"
expect_eq "$(J "=sorted(set(i['unit_price'] for i in d['items'])), d['totals']['price']")" "([None], None)" "sample: no price anywhere"
expect_eq "$(grep -c '^ *price: *$' "$FL_SRC/examples/bom/catalogue-sample.yaml")" "$(grep -c '^ *- item:' "$FL_SRC/examples/bom/catalogue-sample.yaml")" "every sample price empty"

# ---- reach classes: 50 m is multimode, 70 m single-mode; a cage whose
# two cables differ needs both
sed 's/cable="C00001" length="7"/cable="C00001" length="70"/; s/cable="C00003" length="7"/cable="C00003" length="50"/' "$TMP/sm.xml" >"$TMP/far.xml"
expect_rc 0 "$FL" bom "$TMP/far.xml"
expect_grep "$TMP/out" '^cable,4xNDR optical 50 m,1,'
expect_grep "$TMP/out" '^cable,4xNDR optical 70 m,1,'
expect_grep "$TMP/out" '^transceiver,transceiver 4xNDR multimode hca-port,15,'
expect_grep "$TMP/out" '^transceiver,transceiver 4xNDR single-mode hca-port,1,'
expect_grep "$TMP/out" '^transceiver,transceiver 4xNDR multimode switch-cage,24,'
expect_grep "$TMP/out" '^transceiver,transceiver 4xNDR single-mode switch-cage,1,'

# ---- without a layout: cables of unknown media and length, no optics
"$FL" gen rail-su --sus 2 --rails 2 --hosts-per-su 4 --leaf-radix 8 -o "$TMP/bare.xml"
expect_rc 0 "$FL" bom "$TMP/bare.xml"
expect_grep "$TMP/out" '^cable,4xNDR unspecified length unknown,32,'
expect_eq "$(grep -c '^transceiver' "$TMP/out")" 0 "no transceivers"

# ---- catalogue errors name file, line and what was expected
printf 'parts:\n  - item: x\n    prize: 3\n' >"$TMP/bad1.yaml"
expect_rc 2 "$FL" bom --catalogue "$TMP/bad1.yaml" "$TMP/sm.xml"
expect_grep "$TMP/err" 'bad1.yaml:3:5: unknown key; expected item, part, price, watts, reach_m or source'
printf 'parts:\n  - item: x\n    price: -1\n' >"$TMP/bad2.yaml"
expect_rc 2 "$FL" bom --catalogue "$TMP/bad2.yaml" "$TMP/sm.xml"
expect_grep "$TMP/err" 'bad2.yaml:3:12: expected a number from 0 to 10\^12, or nothing for unknown'
# the cap, exactly at it and one past it (a total must stay finite: 1e308
# made an `inf` total, invalid JSON)
printf 'parts:\n  - {item: "devid 0xd2f2, 8 ports", price: 1e12}\n' >"$TMP/cap.yaml"
expect_rc 0 "$FL" bom --format json --catalogue "$TMP/cap.yaml" "$TMP/sm.xml"
expect_eq "$(J "=[i['total_price'] for i in d['items'] if i['category'] == 'switch']")" "[6000000000000]" "at the cap"
printf 'parts:\n  - {item: "devid 0xd2f2, 8 ports", price: 1.000000000001e12}\n' >"$TMP/cap2.yaml"
expect_rc 2 "$FL" bom --catalogue "$TMP/cap2.yaml" "$TMP/sm.xml"
expect_grep "$TMP/err" 'cap2.yaml:2:44: expected a number from 0 to 10\^12'
printf 'parts:\n  - item: x\n  - item: x\n' >"$TMP/bad3.yaml"
expect_rc 2 "$FL" bom --catalogue "$TMP/bad3.yaml" "$TMP/sm.xml"
expect_grep "$TMP/err" 'listed twice'
expect_rc 2 "$FL" bom --catalogue "$TMP/none.yaml" "$TMP/sm.xml"
expect_grep "$TMP/err" 'none.yaml: cannot read'
# -o onto the catalogue: refused, the catalogue kept (it was overwritten)
cp "$TMP/cat.yaml" "$TMP/cat.keep"
expect_rc 2 "$FL" bom --catalogue "$TMP/cat.yaml" -o "$TMP/cat.yaml" "$TMP/sm.xml"
expect_grep "$TMP/err" 'cat.yaml: --output would overwrite .*cat.yaml, the catalogue this run reads; refusing'
cmp -s "$TMP/cat.yaml" "$TMP/cat.keep" && pass || fail "bom -o overwrote its catalogue"
expect_rc 2 "$FL" bom --format ods "$TMP/sm.xml"
expect_grep "$TMP/err" "expected csv, json or xlsx, got 'ods'"
# ---- a real capture (NVIDIA/topograph, tests/data/external): 40 QM9701
# switches, each with its SHARP Aggregation Node on port 65. The AN sits
# inside the switch: its link is no cable to buy. 1,114 links, 40 of them
# to ANs: 1,074 cables (all 4xNDR, no media or length in a capture).
TG="$FL_EXTERNAL/NVIDIA__topograph__tests__output__ibnetdiscover__example.out"
expect_rc 0 "$FL" bom --format json "$TG"
expect_eq "$(J "=[(r['category'], r['item'], r['count']) for r in d['items']]")" "[('switch', 'devid 0xd2f2, 65 ports', 40), ('cable', '4xNDR unspecified length unknown', 1074)]" "topograph: ANs' links are no cables"

finish
