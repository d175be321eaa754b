#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/compare_cost.sh — `compare --catalogue` (issue 34, docs/cli.md
# "compare"): the cost and power of each side's bill of materials (what
# `bom` counts, priced by the user's catalogue) and their change, on two
# small generated plans counted by hand (tests/cli/bom.sh): 1:1 and 2:1,
# both ways round; a total is known only when every row has the figure;
# a bad catalogue exits 2.
. "$(dirname "$0")/lib.bash"
G=(rail-su --sus 2 --rails 2 --hosts-per-su 4 --leaf-radix 8 --layout)
"$FL" gen "${G[@]}" -o "$TMP/one.xml" || fail "gen 1:1"
"$FL" gen "${G[@]}" --oversubscription 2:1 -o "$TMP/two.xml" || fail "gen 2:1"
cp "$FL_SRC/tests/fixtures/bom/hand-count.yaml" "$TMP/cat.yaml"
# By hand. 1:1: 6 switches, 24 cables of 7 m and 8 of 10 m, 16 HCA and 24
# cage transceivers: 6x10 + 24x2 + 8x1 + 16x3 + 24x4.5 = 272, 6x100 +
# 16x9 + 24x17 = 1152 W. 2:1: each leaf keeps 4 host ports and 2 uplinks,
# one to each of 2 spines (gen's fewest spines but never one, a single
# point of failure; spine-01 in row R01, spine-02 in R02): 6 switches, 16
# host cables of 7 m, 8 uplinks of 7 m (own row) or 10 m: 20 of 7 m and 4
# of 10 m; 16 HCA transceivers and 16 cage ones (a leaf 2 host cages + 1
# uplink cage, a spine ports 1-4: 2 cages): 60 + 40 + 4 + 48 + 72 = 224,
# 600 + 144 + 272 = 1016 W. Change: -48, -136 W.
C="=[d[s]['cost'][k] for s in ('base', 'head', 'delta') for k in ('price', 'watts', 'rows', 'rows_without_price')]"
expect_rc 0 "$FL" compare --fail-on never --format json --catalogue "$TMP/cat.yaml" "$TMP/one.xml" "$TMP/two.xml"
expect_eq "$(jget "$TMP/out" "$C")" "[272.0, 1152.0, 5, 0, 224.0, 1016.0, 5, 0, -48.0, -136.0, 0, 0]" "1:1 -> 2:1"
expect_rc 0 "$FL" compare --fail-on never --format json --catalogue "$TMP/cat.yaml" "$TMP/two.xml" "$TMP/one.xml"
expect_eq "$(jget "$TMP/out" "$C")" "[224.0, 1016.0, 5, 0, 272.0, 1152.0, 5, 0, 48.0, 136.0, 0, 0]" "2:1 -> 1:1"
# valid against schema/compare.schema.json (Debian's python3-jsonschema)
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
  /usr/bin/python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' \
    "$TMP/out" "$FL_SRC/schema/compare.schema.json" && pass || fail "cost does not validate"
else
  echo "compare_cost: SKIP: no python3-jsonschema (the schema part)"
fi
# text and Markdown rows
expect_rc 0 "$FL" compare --fail-on never --catalogue "$TMP/cat.yaml" "$TMP/one.xml" "$TMP/two.xml"
expect_grep "$TMP/out" '^cost and power \(bill of materials, --catalogue\)$'
expect_grep "$TMP/out" '^    price +272 +224 +-48$'
expect_grep "$TMP/out" '^    watts +1152 +1016 +-136$'
expect_rc 0 "$FL" compare --fail-on never --format markdown --catalogue "$TMP/cat.yaml" "$TMP/one.xml" "$TMP/two.xml"
expect_grep "$TMP/out" '^\| &nbsp;&nbsp;price \| 272 \| 224 \| -48 \|$'
# one row unpriced: both price totals unknown, their change too; watts stay
grep -v 'price: 3' "$TMP/cat.yaml" >"$TMP/cat2.yaml"
echo '  - {item: "transceiver 4xNDR multimode hca-port", watts: 9}' >>"$TMP/cat2.yaml"
expect_rc 0 "$FL" compare --fail-on never --format json --catalogue "$TMP/cat2.yaml" "$TMP/one.xml" "$TMP/two.xml"
expect_eq "$(jget "$TMP/out" "$C")" "[None, 1152.0, 5, 1, None, 1016.0, 5, 1, None, -136.0, 0, 0]" "an unpriced row"
expect_rc 0 "$FL" compare --fail-on never --catalogue "$TMP/cat2.yaml" "$TMP/one.xml" "$TMP/two.xml"
expect_grep "$TMP/out" '^    price +- +- +-$'
# the sample catalogue: watts of the transceivers only, no price
expect_rc 0 "$FL" compare --fail-on never --format json --catalogue "$FL_SRC/examples/bom/catalogue-sample.yaml" "$TMP/one.xml" "$TMP/two.xml"
expect_eq "$(jget "$TMP/out" "=[d['base']['cost'][k] for k in ('price', 'watts', 'rows_without_price', 'rows_without_watts')]")" "[None, None, 5, 3]" "sample catalogue"
# without --catalogue: no cost at all
expect_rc 0 "$FL" compare --fail-on never --format json "$TMP/one.xml" "$TMP/two.xml"
expect_eq "$(jget "$TMP/out" "=('cost' in d['base'], 'cost' in d['delta'])")" "(False, False)" "no catalogue, no cost"
# --fail-on cost-rise / power-rise (fractions of BASE's total): 1:1 -> 2:1
# costs less (-48 of 272); 2:1 -> 1:1 rises by 48/224 and 136/1016 W: at
# exactly that fraction the policy holds, one step below it fails
expect_rc 0 "$FL" compare --fail-on cost-rise,power-rise --catalogue "$TMP/cat.yaml" "$TMP/one.xml" "$TMP/two.xml"
expect_grep "$TMP/out" '^  ok   cost-rise: price 272 -> 224 \(-17\.6 %; within 0 %\)$'
expect_grep "$TMP/out" '^  ok   power-rise: power 1152 -> 1016 \(-11\.8 %; within 0 %\)$'
expect_rc 0 "$FL" compare --fail-on cost-rise=0.21428571428571427 --catalogue "$TMP/cat.yaml" "$TMP/two.xml" "$TMP/one.xml"
expect_rc 1 "$FL" compare --fail-on cost-rise=0.214 --catalogue "$TMP/cat.yaml" "$TMP/two.xml" "$TMP/one.xml"
expect_grep "$TMP/out" '^  FAIL cost-rise=0\.214: price 224 -> 272 \(\+21\.4 %; rises more than 21\.4 %\)$'
expect_rc 0 "$FL" compare --fail-on power-rise=0.13385826771653545 --catalogue "$TMP/cat.yaml" "$TMP/two.xml" "$TMP/one.xml"
expect_rc 1 "$FL" compare --fail-on power-rise=0.1338 --catalogue "$TMP/cat.yaml" "$TMP/two.xml" "$TMP/one.xml"
# an unpriced row: cost-rise cannot be judged (exit 2), power-rise can
expect_rc 2 "$FL" compare --fail-on cost-rise,power-rise --catalogue "$TMP/cat2.yaml" "$TMP/two.xml" "$TMP/one.xml"
expect_grep "$TMP/err" '^fabriclint: --fail-on cost-rise cannot be judged: no price total on both sides \(give --catalogue with a price for every bill-of-materials row\)$'
expect_grep "$TMP/out" '^  FAIL power-rise: power 1016 -> 1152 '
expect_rc 2 "$FL" compare --fail-on power-rise "$TMP/two.xml" "$TMP/one.xml"
expect_grep "$TMP/err" 'power-rise cannot be judged'
# a bad catalogue
printf 'parts:\n  - {item: x, price: -1}\n' >"$TMP/bad.yaml"
expect_rc 2 "$FL" compare --fail-on never --catalogue "$TMP/bad.yaml" "$TMP/one.xml" "$TMP/two.xml"
expect_grep "$TMP/err" '^fabriclint compare: .*bad.yaml:2:'
finish
