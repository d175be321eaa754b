#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/gen_oversub_core.sh — `fabriclint gen rail-su` for the designs
# architects build (issue 34 §3, docs/cli.md "gen"): a leaf oversubscription
# (--oversubscription D:U, --uplinks), why --spines 8 is refused at 4 SUs
# 1:1, a core tier (--tiers 3, DGX B200 SuperPOD RA counts), each plan
# passing check with no error, and compare of 1:1 against 2:1. Every count
# is the formula of include/fabriclint/gen.h evaluated by hand.
. "$(dirname "$0")/lib.bash"
J() { jget "$TMP/out" "$1"; }
# dry FIELD ARGS... — one count of `gen rail-su ARGS --dry-run`; each ARGS
# is run once, its counts kept for the other fields asked of it (the SuperPOD
# table asks four of each row)
dry() {
  local key=$1; shift
  local kept="$TMP/dry.${*// /_}"
  kept=${kept//[^A-Za-z0-9_.:\/-]/_}
  [ -e "$kept" ] || "$FL" gen rail-su "$@" --dry-run >"$kept"
  awk -v k="$key" '$1 == k {print $2}' "$kept"
}

# ---- why `--spines 8` is refused at 4 SUs, 1:1: 32 leaves x 32 uplinks
# = 1024 cables, 8 spines x 64 ports = 512
expect_rc 2 "$FL" gen rail-su --sus 4 --spines 8 --dry-run
expect_grep "$TMP/err" '8 spines are too few: 32 leaves x 4 cables need 128 ports per spine, a spine has 64 \(valid spine counts for 32 uplinks per leaf: 16, 32\); 8 spines carry at most 16 uplinks per leaf: --uplinks 16, 2:1 for 32 hosts per leaf'
expect_rc 2 "$FL" gen rail-su --sus 4 --spines 12 --dry-run
expect_grep "$TMP/err" '12 spines: the 32 uplinks of every leaf must divide evenly among the spines \(valid here: 16, 32\)'
# more than 8 spines where the radix allows: 32 (m = 1)
expect_eq "$(dry switches --sus 4 --spines 32)" 64 "4 SUs, 32 spines: 32 + 32 switches"
expect_eq "$(dry parallel --sus 4 --spines 32)" 1 "one cable per leaf-spine pair"

# ---- 2:1 leaves: U = 32 x 1/2 = 16; 512 uplinks over 8 spines, m = 2
expect_eq "$(dry spines --sus 4 --oversubscription 2:1)" 8 "2:1: 8 spines"
expect_eq "$(dry links --sus 4 --oversubscription 2:1)" 1536 "1024 host + 512 uplinks"
expect_eq "$(dry parallel --sus 4 --oversubscription 2:1)" 2 "2 cables per pair"
expect_eq "$(dry spines --sus 4 --oversubscription 2:1 --spines 8)" 8 "--spines 8 at 2:1"
"$FL" gen rail-su --sus 4 --oversubscription 2:1 -o "$TMP/s4o.xml" || fail "gen 2:1"
"$FL" gen rail-su --sus 4 --uplinks 16 -o "$TMP/s4u.xml" || fail "gen --uplinks 16"
cmp -s "$TMP/s4o.xml" "$TMP/s4u.xml" && pass || fail "--uplinks 16 differs from 2:1"
expect_eq "$(grep -c '<attr key="oversubscription" value="2:1"/>' "$TMP/s4o.xml")" 32 "32 leaves declare 2:1"
# uplinks on the leaf's top 16 ports (49..64), hosts on 1..32, 33..48 free
expect_eq "$(grep -c 'a="leaf-su01-r0" a-port="\(49\|5[0-9]\|6[0-4]\)" b="spine-0' "$TMP/s4o.xml")" 16 "leaf-su01-r0: 16 uplinks on ports 49..64"
expect_eq "$(grep -c 'a="leaf-su01-r0" a-port="\(3[3-9]\|4[0-8]\)"' "$TMP/s4o.xml")" 0 "ports 33..48 free"
expect_eq "$(grep -c 'b="spine-08" b-port=' "$TMP/s4o.xml")" 64 "spine-08 full: 32 leaves x 2"
# 3:1 of 32 hosts is 10.67 uplinks: refused with the two whole numbers
expect_rc 2 "$FL" gen rail-su --sus 4 --oversubscription 3:1 --dry-run
expect_grep "$TMP/err" '3:1 of 32 hosts per leaf is 10.67 uplinks per leaf, not a whole number; give the uplinks instead \(10 or 11\)'
# hosts + uplinks fit the radix: 48 + 16 = 64 passes, 49 + 16 does not
expect_eq "$(dry hosts --sus 1 --hosts-per-su 48 --uplinks 16)" 48 "48 + 16 = 64 ports"
expect_rc 2 "$FL" gen rail-su --sus 1 --hosts-per-su 49 --uplinks 16 --dry-run
expect_grep "$TMP/err" '49 hosts and 16 uplinks per leaf need 65 ports; a leaf has 64'
expect_rc 2 "$FL" gen rail-su --sus 1 --uplinks 16 --oversubscription 2:1 --dry-run
expect_grep "$TMP/err" 'not both'
for bad in 2 0:1 2:0 2:1, 2:1,1:1,1:1 a:b 2:1x; do
  expect_rc 2 "$FL" gen rail-su --sus 4 --oversubscription "$bad" --dry-run
  expect_grep "$TMP/err" "expected DOWN:UP"
done
expect_rc 2 "$FL" gen rail-su --sus 4 --oversubscription 2:1,1:1 --dry-run
expect_grep "$TMP/err" 'need a core tier'

# ---- check: the 2:1 plan is as designed; one uplink fewer is not
expect_rc 0 "$FL" check "$TMP/s4o.xml"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info'
# the declared ratio is what makes it pass: without it, a missing spine
sed '/key="oversubscription"/d' "$TMP/s4o.xml" >"$TMP/s4o-bare.xml"
expect_rc 1 "$FL" check --format json "$TMP/s4o-bare.xml"
expect_eq "$(J "=sorted(set(f['rule'] for f in d['findings']))")" "['topology.missing-uplinks']" "undeclared 2:1: missing uplinks"
# leaf-su01-r0 at 15 uplinks (32:15 = 2.13:1, above its 2:1) with a free
# port on the leaf and on spine-08: 1 cable missing
grep -v 'a="leaf-su01-r0" a-port="64" b="spine-08"' "$TMP/s4o.xml" >"$TMP/s4o-cut.xml"
expect_eq "$(($(wc -l <"$TMP/s4o.xml") - $(wc -l <"$TMP/s4o-cut.xml")))" 1 "one cable cut"
expect_rc 1 "$FL" check --format json "$TMP/s4o-cut.xml"
expect_eq "$(J "=[(f['rule'], f['severity']) for f in d['findings'] if f['severity'] == 'error']")" "[('topology.missing-uplinks', 'error')]" "cut: an error"
expect_eq "$(J "=[f['evidence']['max_ratio'] for f in d['findings'] if f['rule'] == 'topology.missing-uplinks']")" "[2]" "judged at the plan's 2:1"
expect_eq "$(J "=[f['nodes'][0] for f in d['findings'] if f['rule'] == 'topology.missing-uplinks']")" "['leaf-su01-r0']" "the cut leaf"

# ---- compare 1:1 -> 2:1 (4 SUs): 8 spines and 512 uplinks fewer, tier 1
# from 1:1 to 2:1, eBB falls, no new finding
"$FL" gen rail-su --sus 4 -o "$TMP/s4.xml" || fail "gen 1:1"
expect_rc 0 "$FL" check "$TMP/s4.xml"
expect_rc 0 "$FL" compare --format json "$TMP/s4.xml" "$TMP/s4o.xml"
expect_eq "$(J "['base']['capacity']['tiers']['1']['oversubscription']")" 1.0 "base 1:1"
expect_eq "$(J "['head']['capacity']['tiers']['1']['oversubscription']")" 2.0 "head 2:1"
expect_eq "$(J "['delta']['capacity']['tiers']['1']['oversubscription']")" 1.0 "+1"
expect_eq "$(J "['head']['capacity']['tiers']['1']['up_gbps']")" 204800.0 "512 x 400 Gb/s up"
expect_eq "$(J "['delta']['inventory']['switches']")" -8 "8 spines fewer"
expect_eq "$(J "['delta']['inventory']['cables_by_tiers']")" "{'0-1': 0, '1-2': -512}" "512 uplinks fewer"
expect_eq "$(J "=d['delta']['capacity']['ebb'] < 0")" True "eBB falls"
expect_eq "$(J "=[len(d['findings'][k]) for k in ('new', 'fixed', 'unchanged')]")" "[0, 0, 0]" "no finding either side"
expect_rc 0 "$FL" compare "$TMP/s4.xml" "$TMP/s4o.xml"
expect_grep "$TMP/out" '^    oversubscription tier 1 +1 +2 +\+1$'
expect_grep "$TMP/out" '^    cables tiers 1-2 +1024 +512 +-512$'
# the other way round
expect_rc 0 "$FL" compare --format json "$TMP/s4o.xml" "$TMP/s4.xml"
expect_eq "$(J "['delta']['capacity']['tiers']['1']['oversubscription']")" -1.0 "reversed: -1"
expect_eq "$(J "['delta']['inventory']['switches']")" 8 "reversed: +8"

# ---- a core tier: 16 SUs in 2 tiers need 128 leaves under a 64-port spine
expect_rc 2 "$FL" gen rail-su --sus 16 --dry-run
expect_grep "$TMP/err" 'a spine holds the leaves of at most 8 SU\(s\), more need a core tier \(--tiers 3\)$'
# a number past 32 bits says the range, not only "positive"
expect_rc 2 "$FL" gen rail-su --sus 99999999999 --dry-run
expect_grep "$TMP/err" "^fabriclint gen: --sus: expected a whole number from 1 to 4294967295, got '99999999999'\$"
expect_rc 2 "$FL" gen rail-su --sus 0 --dry-run
expect_grep "$TMP/err" "expected a whole number from 1 to 4294967295, got '0'"
# the DGX B200 SuperPOD RA table: SUs -> leaves, spines, cores, cables
# (k = 64, groups of 4 SUs, 32 spines per group, 2 cores per core group)
for row in "16 128 128 64 12288" "32 256 256 128 24576" "64 512 512 256 49152"; do
  set -- $row
  expect_eq "$(dry leaves --sus "$1" --tiers 3)" "$2" "$1 SUs: leaves"
  expect_eq "$(dry spines --sus "$1" --tiers 3)" "$3" "$1 SUs: spines"
  expect_eq "$(dry cores --sus "$1" --tiers 3)" "$4" "$1 SUs: cores"
  expect_eq "$(dry links --sus "$1" --tiers 3)" "$5" "$1 SUs: 3 x GPUs cables"
done
"$FL" gen rail-su --sus 16 --tiers 3 -o "$TMP/s16.xml" || fail "gen 16 SUs"
expect_rc 0 "$FL" check "$TMP/s16.xml"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info'
expect_eq "$(grep -c '<node kind="switch" name="core-' "$TMP/s16.xml")" 64 "64 cores"
expect_eq "$(grep -c 'key="oversubscription"' "$TMP/s16.xml" "$TMP/s4.xml" | tr '\n' ' ')" "$TMP/s16.xml:0 $TMP/s4.xml:0 " "1:1 declares nothing"
expect_eq "$(grep -c '<node kind="switch" name="spine-p0[1-4]-[0-9][0-9]"' "$TMP/s16.xml")" 128 "spine-pGG-SS"
# spine-p01-01: 32 leaves of pod 1 on ports 1..32, cores 001/002 on 33..64
expect_eq "$(grep -c 'a="leaf-su0[1-4]-r[0-7]" a-port="[0-9]*" b="spine-p01-01"' "$TMP/s16.xml")" 32 "spine-p01-01: 32 leaves of pod 1"
expect_eq "$(grep -c 'a="spine-p01-01" a-port="\(3[3-9]\|4[0-8]\)" b="core-001"' "$TMP/s16.xml")" 16 "16 cables to core-001"
expect_eq "$(grep -c 'a="spine-p01-01" a-port="\(49\|5[0-9]\|6[0-4]\)" b="core-002"' "$TMP/s16.xml")" 16 "16 cables to core-002"
expect_eq "$(grep -c 'b="core-064" b-port=' "$TMP/s16.xml")" 64 "core-064 full: 4 groups x 16"
expect_eq "$(grep -c 'a="spine-p0[1-4]-32" a-port="[0-9]*" b="core-064"' "$TMP/s16.xml")" 64 "core group 32: spine 32 of every pod"
# SUs 13..16 are pod 4
expect_grep "$TMP/s16.xml" '<node kind="switch" name="leaf-su13-r0" .*su="13" rail="0" pod="4">'
# a partial last group: 9 SUs = groups of 4, 4, 1; group 3's spines built whole
expect_eq "$(dry spines --sus 9 --tiers 3)" 96 "3 groups x 32 spines"
# one core per group would need 3 x 32 = 96 ports: 2 per core group, each
# using 3 x 16 = 48 of its 64 ports
expect_eq "$(dry cores --sus 9 --tiers 3)" 64 "32 core groups of 2"
"$FL" gen rail-su --sus 9 --tiers 3 -o "$TMP/s9.xml" || fail "gen 9 SUs"
expect_rc 0 "$FL" check "$TMP/s9.xml"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info'

# ---- both tiers 2:1 (3 tiers): spines give 42 ports down, groups of 5 SUs
expect_eq "$("$FL" gen rail-su --sus 16 --tiers 3 --oversubscription 2:1,2:1 --dry-run | tr '\n' ' ')" \
  "hosts 512 cas 4096 switches 224 leaves 128 spines 64 cores 32 pods 16 parallel 1 links 7424 host-links 4096 lids 4320 " "16 SUs at 2:1,2:1"
"$FL" gen rail-su --sus 16 --tiers 3 --oversubscription 2:1,2:1 -o "$TMP/s16o.xml" || fail "gen 2:1,2:1"
expect_eq "$(grep -c '<attr key="oversubscription" value="2:1"/>' "$TMP/s16o.xml")" 192 "128 leaves + 64 spines declare 2:1"
expect_rc 0 "$FL" check "$TMP/s16o.xml"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info'
expect_rc 2 "$FL" gen rail-su --sus 16 --tiers 3 --sus-per-group 5 --dry-run
expect_grep "$TMP/err" 'a spine group of 5 SUs of 8 rails has 40 leaves, more than the 32 down ports of a radix-64 spine at 1:1'
expect_eq "$(dry spines --sus 16 --tiers 3 --sus-per-group 2)" 128 "groups of 2 SUs: 8 x 16 spines"
# 128k GPUs (16,384 hosts) in 4 planes of 2 rails: 3 tiers, 35,328 LIDs per
# plane subnet (docs/cli.md: generated and checked in 23 s)
expect_eq "$("$FL" gen rail-su --sus 512 --rails 2 --tiers 3 --planes 4 --dry-run | tr '\n' ' ')" \
  "hosts 16384 cas 131072 switches 10240 leaves 4096 spines 4096 cores 2048 pods 512 parallel 1 links 393216 host-links 131072 lids 35328 " "128k GPUs, 4 planes"
# 64 spine groups fit a 64-port core, 65 do not (4 SUs a group)
expect_eq "$(dry cores --sus 256 --tiers 3 --allow-lid-overflow)" 1024 "64 groups: 32 core groups of 32"
expect_rc 2 "$FL" gen rail-su --sus 257 --tiers 3 --dry-run
expect_grep "$TMP/err" '65 spine groups exceed the 64 ports of a core'
# one spine group is no place for a core tier (its cores would hang off
# one spine each, joining nothing): 4 SUs fill one group of 4, refused; 5
# SUs make two groups, built
expect_rc 2 "$FL" gen rail-su --sus 4 --tiers 3 --dry-run
expect_grep "$TMP/err" '^fabriclint gen rail-su: 4 SUs make one spine group \(4 SUs per group\): a core tier would join nothing; use --tiers 2, or --sus-per-group below 4 for two or more groups$'
expect_rc 2 "$FL" gen rail-su --sus 3 --tiers 3 --sus-per-group 3 --dry-run
expect_grep "$TMP/err" '3 SUs make one spine group \(3 SUs per group\)'
expect_eq "$(dry spines --sus 5 --tiers 3)" 64 "5 SUs: two groups of 32 spines"
expect_eq "$(dry spines --sus 3 --tiers 3 --sus-per-group 2)" 32 "3 SUs in groups of 2: two groups of 16 spines"
# the default spine count is never 1 when a leaf has 2 or more uplinks: one
# spine cut every leaf off from the others when it failed (outside tester,
# session 17: `--sus 1 --uplinks 4` made 1 spine, and the plan failed
# `check` with failure-domains.single-point); 1 uplink forces 1 spine
expect_rc 0 "$FL" gen rail-su --sus 1 --uplinks 4 -o "$TMP/u4.xml"
expect_eq "$(grep -c '<node kind="switch" name="spine-' "$TMP/u4.xml")" 2 "4 uplinks per leaf: 2 spines, 2 cables each"
expect_rc 0 "$FL" check "$TMP/u4.xml"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info'
expect_rc 0 "$FL" gen rail-su --sus 2 --rails 2 --hosts-per-su 4 --leaf-radix 8 --oversubscription 2:1 -o "$TMP/small21.xml"
expect_eq "$(grep -c '<node kind="switch" name="spine-' "$TMP/small21.xml")" 2 "2 uplinks per leaf: 2 spines, 1 cable each"
expect_rc 0 "$FL" check "$TMP/small21.xml"
expect_rc 0 "$FL" gen rail-su --sus 1 --uplinks 1 -o "$TMP/u1.xml"
expect_eq "$(grep -c '<node kind="switch" name="spine-' "$TMP/u1.xml")" 1 "1 uplink per leaf: 1 spine"
finish
