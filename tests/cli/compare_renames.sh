#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/compare_renames.sh — a rename-only change gives no findings
# churn (docs/cli.md "compare"): HEAD's nodes whose GUID names a BASE node
# of another name are read under their BASE names when findings are
# fingerprinted, both ways round; GUIDs renumbered under unchanged names
# (a plan regenerated with an added SU) are no renames; without GUIDs a
# rename is a node removed and one added (the documented limit).
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/compare_lib.bash"
cmp_plans || { fail "gen"; finish; }
A=$TMP/asym.xml R=$TMP/renamed.xml
J() { jget "$TMP/out" "$1"; }
expect_rc 1 "$FL" check --format json "$A"
fps=$(J "=sorted(f['fingerprint'] for f in d['findings'])")
# one finding: the leaf short of one of its two cables to spine-02, with
# ecmp-balance's oversubscription and uplink asymmetry attached (the
# missing cable explains both)
expect_eq "$(J "=[(f['rule'], [r['rule'] for r in f.get('related', [])]) for f in d['findings']]")" "[('topology.missing-uplinks', ['ecmp-balance.oversubscription', 'ecmp-balance.uplink-asymmetry'])]" "asym.xml: one finding and its consequences"

for pair in "$A $R" "$R $A"; do
  set -- $pair
  expect_rc 0 "$FL" compare --format json "$1" "$2"
  expect_eq "$(J "=[len(d['findings'][k]) for k in ('new', 'fixed', 'unchanged')]")" "[0, 0, 1]" "$(basename "$1") -> $(basename "$2"): no churn"
  expect_eq "$(J "=sorted(f['rule'] for f in d['findings']['unchanged'])")" "['topology.missing-uplinks']" "unchanged rules"
  expect_eq "$(J "=len(d['renamed'])")" 18 "16 HCAs, a leaf and a spine renamed"
  expect_eq "$(J "=sorted(set(v for k, v in d['delta']['inventory'].items() if isinstance(v, int)))")" "[0]" "no inventory change"
done
# HEAD -> BASE names: the fingerprints are check's of BASE
expect_rc 0 "$FL" compare --format json "$A" "$R"
expect_eq "$(J "=sorted(f['fingerprint'] for f in d['findings']['unchanged'])")" "$fps" "BASE's fingerprints"
expect_eq "$(J "=sorted((r['base'], r['head']) for r in d['renamed'] if 'gpu' not in r['head'])")" "[('leaf-su01-r0', 'L1'), ('spine-02', 'S2')]" "switch renames"
expect_grep "$TMP/out" 'leaf \\"L1\\" has 3 uplink'  # HEAD's wording
expect_rc 0 "$FL" compare "$A" "$R"
expect_grep "$TMP/out" '^  leaf-su01-r0 -> L1$'
expect_grep "$TMP/out" '^unchanged: 1 \(1 error, 0 warning, 0 info\)$'

# without GUIDs there is nothing to tell a rename from a replacement
python3 - "$TMP" <<'PY'
import re, sys
for n in ("asym", "renamed"):
    t = open("%s/%s.xml" % (sys.argv[1], n)).read()
    open("%s/%s-noguid.xml" % (sys.argv[1], n), "w").write(re.sub(r' (sysimg)?guid="0x[0-9a-f]+"', "", t))
PY
expect_rc 1 "$FL" compare --format json "$TMP/asym-noguid.xml" "$TMP/renamed-noguid.xml"
expect_eq "$(J "=[len(d['findings'][k]) for k in ('new', 'fixed', 'unchanged')]")" "[1, 1, 0]" "no GUIDs: a rename churns"
expect_eq "$(J "=len(d['renamed'])")" 0 "no GUIDs: no rename"
finish
