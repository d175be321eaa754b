# SPDX-License-Identifier: MIT
# One cause across rules (core/host/roots.c, plugin ABI 1.4): findings that
# a cable or a leaf explains whole attach under the finding that names it,
# in text, JSON and SARIF; without that finding they stay findings of their
# own. Inputs: the README demo (an ibsim capture: leaf-su01-r2 port 33 at
# 1x) and a gen rail-su plan with one leaf short of uplinks.
. "$(dirname "$0")/lib.bash"
DEMO=$FL_SRC/fabrics/rail-su-asbuilt.ibnetdiscover

# ---- text: the degraded cable leads, its four consequences under it ---------
expect_rc 1 "$FL" check "$DEMO"
expect_eq "$(tail -1 "$TMP/out")" "1 error(s), 1 warning(s), 0 info; 61 rule(s) run; 4 more attached to their cause" "demo summary"
expect_eq "$(grep -c '^      warning: .*\[ecmp-balance\.' "$TMP/out")" 4 "four ecmp consequences indented"
expect_eq "$(grep -A1 'topology.degraded-link\]' "$TMP/out" | tail -1)" '    nodes: "leaf-su01-r2", "spine-01"' "the primary keeps its nodes"

# ---- JSON: root, related, summary.attached -------------------------------------
expect_rc 1 "$FL" check --format json "$DEMO"
cp "$TMP/out" "$TMP/demo.json"
expect_eq "$(jget "$TMP/demo.json" "=[f['rule'] for f in d['findings']]")" "['rail-alignment.swapped', 'topology.degraded-link']" "top-level findings"
expect_eq "$(jget "$TMP/demo.json" "=d['findings'][1]['root']")" "link:leaf-su01-r2 port 33 - spine-01 port 17" "the cable's root key"
expect_eq "$(jget "$TMP/demo.json" "=[r['rule'] for r in d['findings'][1]['related']]")" "['ecmp-balance.mixed-speed-group', 'ecmp-balance.mixed-speed-group', 'ecmp-balance.oversubscription', 'ecmp-balance.uplink-asymmetry']" "related, in report order"
expect_eq "$(jget "$TMP/demo.json" "=sorted(set(r['root'] for r in d['findings'][1]['related']))")" "['link:leaf-su01-r2 port 33 - spine-01 port 17']" "every consequence names the same cable"
expect_eq "$(jget "$TMP/demo.json" "=(d['summary']['warning'], d['summary']['attached'])")" "(1, 4)" "summary: one warning, four attached"
expect_eq "$(jget "$TMP/demo.json" "='rail-alignment.swapped' in [f['rule'] for f in d['findings']] and 'root' not in d['findings'][0]")" "True" "an unrelated finding is untouched"

# ---- SARIF: the consequences as related locations ------------------------------
expect_rc 1 "$FL" check --format sarif "$DEMO"
expect_eq "$(jget "$TMP/out" "=[r['ruleId'] for r in d['runs'][0]['results']]")" "['rail-alignment.swapped', 'topology.degraded-link']" "SARIF results"
expect_eq "$(jget "$TMP/out" "=sum('[ecmp-balance.' in l['message']['text'] for l in d['runs'][0]['results'][1].get('relatedLocations', []))")" 4 "SARIF relatedLocations carry the consequences"

# ---- no primary, nothing hidden: topology.degraded-link disabled ---------------
printf 'version: 1\nrules:\n  disable: [topology.degraded-link]\n' >"$TMP/policy.yaml"
expect_rc 1 "$FL" check --format json --policy "$TMP/policy.yaml" "$DEMO"
expect_eq "$(jget "$TMP/out" "=sorted(f['rule'] for f in d['findings'])")" "['ecmp-balance.mixed-speed-group', 'ecmp-balance.mixed-speed-group', 'ecmp-balance.oversubscription', 'ecmp-balance.uplink-asymmetry', 'rail-alignment.swapped']" "without the primary every consequence is its own finding"
expect_eq "$(jget "$TMP/out" "=d['summary'].get('attached', 0)")" 0 "nothing attached"

# ---- a leaf short of cables ------------------------------------------------------
gen_plan() { # OUT [LEAF PORTS-REGEX]: a 1-SU plan, optionally a leaf's uplinks dropped
  "$FL" gen rail-su --sus 1 --hosts-per-su 32 -o "$TMP/base.xml" >/dev/null 2>&1
  if [ $# -gt 1 ]; then
    grep -Ev "<link a=\"$2\" a-port=\"$3" "$TMP/base.xml" >"$1"
  else
    cp "$TMP/base.xml" "$1"
  fi
}
# leaf-su01-r3 without its 8 cables to spine-04 (ports 57-64): topology.
# missing-uplinks names the leaf; ecmp-balance's oversubscription and
# asymmetry of that leaf, which the 8 cables explain whole, attach to it
gen_plan "$TMP/short.xml" leaf-su01-r3 '(5[7-9]|6[0-4])"'
expect_rc 1 "$FL" check --format json "$TMP/short.xml"
cp "$TMP/out" "$TMP/short.json"
expect_eq "$(jget "$TMP/short.json" "=[f['rule'] for f in d['findings']]")" "['topology.missing-uplinks']" "one finding for the short leaf"
expect_eq "$(jget "$TMP/short.json" "=d['findings'][0]['root']")" "node:leaf-su01-r3" "rooted in the leaf"
expect_eq "$(jget "$TMP/short.json" "=sorted(r['rule'] for r in d['findings'][0]['related'])")" "['ecmp-balance.oversubscription', 'ecmp-balance.uplink-asymmetry']" "its consequences"
# exactly a quarter of its 32 cables is the most a leaf may lack to be judged
# short of cables; 9 of 32 reads as another design (a management leaf) or a
# partial capture: no missing-uplinks, ecmp-balance's warnings stand alone
gen_plan "$TMP/short9.xml" leaf-su01-r3 '(5[6-9]|6[0-4])"'
expect_rc 0 "$FL" check --format json "$TMP/short9.xml"
expect_eq "$(jget "$TMP/out" "=sorted(f['rule'] for f in d['findings'] if f['severity'] != 'info')")" "['ecmp-balance.oversubscription', 'ecmp-balance.uplink-asymmetry']" "9 of 32 short: left to ecmp-balance"
# two of its cables to spine-04 missing: the asymmetry also names unequal
# parallel links (8 to spine-01, 6 to spine-04); the 2 missing cables fill
# every spine to 8 (4 x 8 = the tier's 32), so they explain that too and
# both ecmp-balance warnings attach (journey_design.sh m-b3: cables uneven
# beyond the missing ones keep the asymmetry apart)
gen_plan "$TMP/short2.xml" leaf-su01-r3 '6[34]"'
expect_rc 1 "$FL" check --format json "$TMP/short2.xml"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], [r['rule'] for r in f.get('related', [])]) for f in d['findings']]")" "[('topology.missing-uplinks', ['ecmp-balance.oversubscription', 'ecmp-balance.uplink-asymmetry'])]" "parallel-link imbalance of the missing cables attaches"
finish
