#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/compare_lids.sh — `fabriclint compare`: the unicast LIDs each
# subnet needs, side by side (issue 34 §1 "LID space use"; docs/cli.md
# "compare"), counted by topology.lid-space (its figures=true) at the LMC
# check takes: --param, the policy. Counted by hand on the plans
# of tests/cli/compare_lib.bash:
#   base.xml  6 switches + 16 HCA ports: 22 LIDs at LMC 0 (49,129 left),
#             6 + 16 x 4 = 70 at LMC 2, 6 + 16 x 2 = 38 at LMC 1
#   su3.xml   10 switches + 24 HCA ports: 34 at LMC 0, 10 + 96 = 106 at 2
#   p2.xml    base.xml in 2 planes, each its own subnet of 22 LIDs
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/compare_lib.bash"
cmp_plans || { fail "gen"; finish; }
J() { jget "$TMP/out" "$1"; }
L() { jget "$TMP/out" "=[d['$1']['lid_space'][k] for k in ('subnets', 'lids_needed', 'lids_left', 'lids_total', 'lmc')]"; }

# ---- LMC 0: one subnet each side
expect_rc 0 "$FL" compare --format json "$TMP/base.xml" "$TMP/su3.xml"
cp "$TMP/out" "$TMP/ab.json"
expect_eq "$(L base)" "[1, 22, 49129, 22, 0]" "base: 6 switches + 16 ports"
expect_eq "$(L head)" "[1, 34, 49117, 34, 0]" "head: 10 switches + 24 ports"
expect_eq "$(L delta)" "[0, 12, -12, 12, 0]" "delta +12"
expect_eq "$(J "['head']['lid_space']['by_subnet']")" "{'the subnet': {'ca_ports': 24, 'lids_needed': 34, 'switches': 10}}" "by subnet"
expect_eq "$(J "['base']['lid_space']['lids_available']")" 49151 "0x0001-0xBFFF"
# both ways round: the negated delta
expect_rc 0 "$FL" compare --format json "$TMP/su3.xml" "$TMP/base.xml"
cp "$TMP/out" "$TMP/ba.json"
expect_eq "$(L delta)" "[0, -12, 12, -12, 0]" "reversed: -12"
# text and Markdown rows
expect_rc 0 "$FL" compare "$TMP/base.xml" "$TMP/su3.xml"
expect_grep "$TMP/out" '^LID space \(unicast LIDs; 49151 per subnet\)$'
expect_grep "$TMP/out" '^    LIDs needed, largest subnet +22 +34 +\+12$'
expect_grep "$TMP/out" '^    LIDs left, largest subnet +49129 +49117 +-12$'
expect_rc 0 "$FL" compare --format markdown "$TMP/base.xml" "$TMP/su3.xml"
expect_grep "$TMP/out" '^\| &nbsp;&nbsp;LIDs needed, largest subnet \| 22 \| 34 \| \+12 \|$'

# ---- the LMC as check takes it: --param, the policy, a plugin-wide value
expect_rc 0 "$FL" compare --format json --param topology.lid-space.lmc=2 "$TMP/base.xml" "$TMP/su3.xml"
expect_eq "$(L base)" "[1, 70, 49081, 70, 2]" "LMC 2: 6 + 16 x 4"
expect_eq "$(L head)" "[1, 106, 49045, 106, 2]" "LMC 2: 10 + 24 x 4"
expect_eq "$(L delta)" "[0, 36, -36, 36, 0]" "LMC 2: +36"
printf 'version: 1\nparams:\n  topology.lid-space:\n    lmc: 1\n' >"$TMP/lmc1.yaml"
expect_rc 0 "$FL" compare --format json --policy "$TMP/lmc1.yaml" "$TMP/base.xml" "$TMP/su3.xml"
expect_eq "$(L base)" "[1, 38, 49113, 38, 1]" "policy LMC 1: 6 + 16 x 2"
expect_rc 0 "$FL" compare --format json --param topology.lmc=1 "$TMP/base.xml" "$TMP/su3.xml"
expect_eq "$(jget "$TMP/out" "['head']['lid_space']['lids_needed']")" 58 "plugin-wide LMC 1: 10 + 24 x 2"
# --param wins over the policy, as in check
expect_rc 0 "$FL" compare --format json --policy "$TMP/lmc1.yaml" --param topology.lid-space.lmc=2 "$TMP/base.xml" "$TMP/su3.xml"
expect_eq "$(jget "$TMP/out" "['base']['lid_space']['lids_needed']")" 70 "--param over the policy"

# ---- planes: each plane its own subnet
"$FL" gen rail-su --sus 2 --rails 2 --hosts-per-su 4 --leaf-radix 8 --planes 2 -o "$TMP/p2.xml" || fail "gen --planes 2"
expect_rc 0 "$FL" compare --format json "$TMP/base.xml" "$TMP/p2.xml"
cp "$TMP/out" "$TMP/ap.json"
expect_eq "$(L head)" "[2, 22, 49129, 44, 0]" "2 planes of 22"
expect_eq "$(J "=sorted((k, v['lids_needed']) for k, v in d['head']['lid_space']['by_subnet'].items())")" "[('plane 1', 22), ('plane 2', 22)]" "per plane"
expect_eq "$(L delta)" "[1, 0, 0, 22, 0]" "a plane more: +22 in all, the largest unchanged"
expect_rc 0 "$FL" compare "$TMP/base.xml" "$TMP/p2.xml"
expect_grep "$TMP/out" '^    LIDs needed, plane 2 +- +22 +-$'
# planes of different sizes: one HCA port of plane 2 uncabled (21 LIDs;
# a new error finding of the missing cable)
grep -v '<link a="dgx-001 mlx5_1" a-port="1" b="pl2-leaf-su01-r0"' "$TMP/p2.xml" >"$TMP/p2-less.xml"
expect_rc 1 "$FL" compare --format json "$TMP/p2.xml" "$TMP/p2-less.xml"
expect_eq "$(L head)" "[2, 22, 49129, 43, 0]" "the largest plane's 22, 43 in all"
expect_eq "$(J "=[(k, v) for k, v in sorted(d['delta']['lid_space']['by_subnet'].items())]")" "[('plane 1', {'ca_ports': 0, 'lids_needed': 0, 'switches': 0}), ('plane 2', {'ca_ports': -1, 'lids_needed': -1, 'switches': 0})]" "plane 2: one port less"
expect_rc 0 "$FL" compare --format json "$TMP/p2-less.xml" "$TMP/p2.xml"
expect_eq "$(L base)" "[2, 22, 49129, 43, 0]" "reversed: the largest is plane 1's, in either order"

# ---- --rules without topology.lid-space: it runs for its figures alone
expect_rc 0 "$FL" compare --format json --rules topology.one-sided-link "$TMP/base.xml" "$TMP/su3.xml"
expect_eq "$(L delta)" "[0, 12, -12, 12, 0]" "--rules: the figures still"
# check does not ask for the figures: no finding of a plan that fits
expect_rc 0 "$FL" check --format json --rules topology.lid-space "$TMP/base.xml"
expect_eq "$(J "=len(d['findings'])")" 0 "check: no figure finding"

# ---- without the rule (a policy that disables it): null, no rows
printf 'version: 1\nrules:\n  disable: [topology.lid-space]\n' >"$TMP/nolids.yaml"
expect_rc 0 "$FL" compare --format json --policy "$TMP/nolids.yaml" "$TMP/base.xml" "$TMP/su3.xml"
cp "$TMP/out" "$TMP/nl.json"
expect_eq "$(J "=(d['base']['lid_space'], d['head']['lid_space'], d['delta']['lid_space'])")" "(None, None, None)" "not run: null"

# ---- the documents validate against the schema
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null || need_tool python3-jsonschema
/usr/bin/python3 - "$FL_SRC/schema/compare.schema.json" "$TMP"/{ab,ba,ap,nl}.json >"$TMP/schema.out" <<'PY'
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
expect_eq "$(tr '\n' ' ' <"$TMP/schema.out")" "ok ok ok ok " "schema"
finish
