#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/compare_delta.sh — `fabriclint compare BASE HEAD` (docs/cli.md
# "compare"): inventory, capacity and findings deltas on plans made by
# `fabriclint gen` (tests/cli/compare_lib.bash), figures computed by hand;
# both orientations give the mirrored delta; the JSON validates against
# schema/compare.schema.json.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/compare_lib.bash"
cmp_plans || { fail "gen"; finish; }
J() { jget "$TMP/out" "$1"; }

# ---- an added SU: 2 -> 3 SUs, no finding either side
expect_rc 0 "$FL" compare --format json "$TMP/base.xml" "$TMP/su3.xml"
cp "$TMP/out" "$TMP/ab.json"
expect_eq "$(J "['base']['inventory']['switches']")" 6 "base switches"
expect_eq "$(J "['head']['inventory']['switches']")" 10 "head switches (6 leaves, 4 spines)"
expect_eq "$(J "['delta']['inventory']['switches']")" 4 "delta switches"
expect_eq "$(J "['delta']['inventory']['cas']")" 8 "delta HCAs"
expect_eq "$(J "['delta']['inventory']['cables']")" 16 "delta cables"
expect_eq "$(J "['delta']['inventory']['tiers']['1']['switches']")" 2 "delta leaves"
expect_eq "$(J "['delta']['inventory']['tiers']['2']['switches']")" 2 "delta spines"
expect_eq "$(J "['head']['inventory']['tiers']['2']['ports']")" 32 "4 spines x 8 ports"
expect_eq "$(J "['head']['inventory']['tiers']['2']['cabled_ports']")" 24 "24 leaf-spine cables"
expect_eq "$(J "['delta']['inventory']['cables_by_tiers']")" "{'0-1': 8, '1-2': 8}" "cables by tiers"
expect_eq "$(J "['delta']['inventory']['cables_by_rate']")" "{'4xNDR': 16}" "cables by rate"
expect_eq "$(J "['head']['capacity']['tiers']['1']['up_gbps']")" 9600.0 "24 x 400 Gb/s up"
expect_eq "$(J "['delta']['capacity']['tiers']['1']['oversubscription']")" 0.0 "still 1:1"
expect_eq "$(J "=len(d['renamed'])")" 0 "renumbered GUIDs are not renames"
expect_eq "$(J "=[len(d['findings'][k]) for k in ('new', 'fixed', 'unchanged')]")" "[0, 0, 0]" "no finding"
# the other way round: every delta negated
expect_rc 0 "$FL" compare --format json "$TMP/su3.xml" "$TMP/base.xml"
cp "$TMP/out" "$TMP/ba.json"
mirror='
import json, sys
a, b = (json.load(open(p))["delta"] for p in sys.argv[1:3])
def neg(x):
    if isinstance(x, dict): return {k: neg(v) for k, v in x.items()}
    return None if x is None else -x
print("mirrored" if neg(a) == b else "differs: %s vs %s" % (a, b))'
expect_eq "$(python3 -c "$mirror" "$TMP/ab.json" "$TMP/ba.json")" mirrored "su3: mirrored delta"

# ---- 1:1 -> 2:1: capacity, eBB and a new error
expect_rc 1 "$FL" compare --format json "$TMP/base.xml" "$TMP/over.xml"
cp "$TMP/out" "$TMP/ao.json"
expect_eq "$(J "['base']['capacity']['tiers']['1']['oversubscription']")" 1.0 "base 1:1"
expect_eq "$(J "['head']['capacity']['tiers']['1']['oversubscription']")" 2.0 "head 2:1"
expect_eq "$(J "['head']['capacity']['tiers']['1']['down_gbps']")" 6400.0 "16 x 400 down"
expect_eq "$(J "['head']['capacity']['tiers']['1']['up_gbps']")" 3200.0 "8 x 400 up"
expect_eq "$(J "['delta']['capacity']['max_oversubscription']")" 1.0 "max +1"
expect_eq "$(J "['base']['capacity']['ebb']")" 1.0 "base eBB 1"
expect_eq "$(J "=0 < d['head']['capacity']['ebb'] < 1")" True "head eBB below 1"
expect_eq "$(J "=d['delta']['capacity']['ebb'] < 0")" True "eBB falls"
expect_eq "$(J "['delta']['inventory']['cables_by_tiers']")" "{'0-1': 0, '1-2': -8}" "8 uplinks fewer"
expect_eq "$(J "=[f['rule'] + '/' + f['severity'] for f in d['findings']['new']]")" "['topology.missing-uplinks/error']" "new: missing uplinks"
expect_eq "$(J "=[len(d['findings']['fixed']), len(d['findings']['unchanged'])]")" "[0, 0]" "nothing fixed"
expect_eq "$(J "['findings']['counts']['new']")" "{'error': 1, 'info': 0, 'warning': 0}" "new counts"
expect_eq "$(J "=[(p['policy'], p['failed']) for p in d['fail_on']]")" "[('new-error', True)]" "default: new-error"
expect_rc 0 "$FL" compare --format json "$TMP/over.xml" "$TMP/base.xml"
cp "$TMP/out" "$TMP/oa.json"
expect_eq "$(J "=[f['rule'] for f in d['findings']['fixed']]")" "['topology.missing-uplinks']" "reversed: fixed"
expect_eq "$(J "=len(d['findings']['new'])")" 0 "reversed: nothing new"
expect_eq "$(python3 -c "$mirror" "$TMP/ao.json" "$TMP/oa.json")" mirrored "2:1: mirrored delta"
fp_new=$(jget "$TMP/ao.json" "=d['findings']['new'][0]['fingerprint']")
expect_eq "$(J "=d['findings']['fixed'][0]['fingerprint']")" "$fp_new" "same fingerprint both ways"
# the fingerprint is check's (baselines, SARIF)
expect_rc 1 "$FL" check --format json "$TMP/over.xml"
expect_eq "$(J "=[f['fingerprint'] for f in d['findings']]")" "['$fp_new']" "check's fingerprint"

# ---- the worst single switch failure: one spine left
expect_rc 1 "$FL" compare --format json "$TMP/base.xml" "$TMP/onespine.xml"
cp "$TMP/out" "$TMP/a1.json"
expect_eq "$(J "['base']['failure']")" "{'single_point_switches': 0, 'worst_cut_off_endpoints': 0}" "base: no single point"
expect_eq "$(J "['head']['failure']")" "{'single_point_switches': 1, 'worst_cut_off_endpoints': 12, 'worst_switch': 'spine-01'}" "head: spine-01 cuts 12 off"
expect_eq "$(J "['delta']['failure']")" "{'single_point_switches': 1, 'worst_cut_off_endpoints': 12}" "failure delta"
expect_eq "$(J "=sorted(f['rule'] for f in d['findings']['new'])")" "['failure-domains.single-point', 'topology.missing-uplinks']" "new: single point, missing uplinks"
expect_rc 0 "$FL" compare "$TMP/onespine.xml" "$TMP/base.xml"
expect_grep "$TMP/out" '^    endpoints cut off, worst switch +12 +0 +-12$'
expect_grep "$TMP/out" '^    worst switch, BASE: spine-01$'

# ---- two planes: capacity adds up over the planes, eBB is the worst plane's
"$FL" gen rail-su --sus 2 --rails 2 --hosts-per-su 4 --leaf-radix 8 --planes 2 -o "$TMP/p2.xml" || fail "gen --planes 2"
grep -v 'a="pl2-leaf-su01-r0" a-port="8"' "$TMP/p2.xml" >"$TMP/p2-cut.xml"
expect_rc 1 "$FL" compare --format json "$TMP/p2.xml" "$TMP/p2-cut.xml"
expect_eq "$(J "['base']['capacity']['tiers']['1']['up_gbps']")" 12800.0 "2 planes x 16 uplinks x 400"
expect_eq "$(J "['head']['capacity']['tiers']['1']['up_gbps']")" 12400.0 "one uplink less in plane 2"
expect_eq "$(J "['head']['capacity']['tiers']['1']['oversubscription']")" 1.032258 "12800 / 12400"
expect_eq "$(J "=(d['base']['capacity']['ebb'], d['head']['capacity']['ebb'] < 1)")" "(1.0, True)" "plane 2's eBB falls"
expect_eq "$(J "=sorted(set(f.get('plane') for f in d['findings']['new']))")" "['2']" "new findings in plane 2"

# ---- unchanged findings: a media attribute on every uplink (relabelling)
expect_rc 0 "$FL" compare --format json "$TMP/asym.xml" "$TMP/media.xml"
expect_eq "$(J "=sorted(f['rule'] for f in d['findings']['unchanged'])")" "['topology.missing-uplinks']" "unchanged (the asymmetry is the missing cable's consequence)"
expect_eq "$(J "=[len(d['findings']['new']), len(d['findings']['fixed'])]")" "[0, 0]" "media: no churn"
expect_eq "$(J "=sorted(d['delta']['inventory']['cables_by_media'].items())")" "[('aoc', 15), ('unspecified', -15)]" "15 uplinks now aoc"
expect_eq "$(J "['head']['capacity']['tiers']['1']['up_gbps']")" 6000.0 "15 x 400 up"

# ---- the JSON validates against the schema
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null || need_tool python3-jsonschema
# (one interpreter for the five reports: a line "ok" or "bad" each, in order,
# the reason on stderr; jsonschema's import is most of an interpreter's time)
/usr/bin/python3 - "$FL_SRC/schema/compare.schema.json" "$TMP"/{ab,ba,ao,oa,a1}.json >"$TMP/schema.out" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
for p in sys.argv[2:]:
    try:
        jsonschema.validate(json.load(open(p)), schema)
        print("ok")
    except Exception as e:
        print("bad")
        print("%s: %s" % (p, str(e).split("\n")[0]), file=sys.stderr)
PY
i=0
for f in ab ba ao oa a1; do
  i=$((i + 1))
  [ "$(sed -n ${i}p "$TMP/schema.out")" = ok ] && pass || fail "schema: $f"
done

# ---- text and Markdown: the same figures
expect_rc 1 "$FL" compare "$TMP/base.xml" "$TMP/over.xml"
expect_grep "$TMP/out" '^    oversubscription tier 1 +1 +2 +\+1$'
expect_grep "$TMP/out" '^  cables +32 +24 +-8$'
expect_grep "$TMP/out" '^  error +topology.missing-uplinks: 4 leaf'
expect_grep "$TMP/out" '^  FAIL new-error: 1 new error finding'
expect_rc 1 "$FL" compare --format markdown "$TMP/base.xml" "$TMP/over.xml"
expect_grep "$TMP/out" '^\| &nbsp;&nbsp;oversubscription tier 1 \| 1 \| 2 \| \+1 \|$'
expect_grep "$TMP/out" '^\| cables \| 32 \| 24 \| -8 \|$'
expect_grep "$TMP/out" '^- \*\*error\*\* `topology.missing-uplinks`: 4 leaf'
expect_grep "$TMP/out" '^- ❌ `new-error`'
finish
