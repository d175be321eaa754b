# SPDX-License-Identifier: MIT
# A lone switch above the spines (core/model/infer.c lone_top(),
# plugins/ecmp-balance/ecmp_capacity.c): real corpus class F19, an outside
# tester's real cluster (HPC_toolset X5, tests/data/real/captures): switch
# 4036-86A2 has no hosts and hangs off 2 of the 4 spines (3 cables each),
# so the shape ranked it tier 3 with high confidence and the two spines
# read oversubscribed 4.33:1. The only switch of its tier, reaching fewer
# switches than the tier below has, is a weak guess (`tier-weak`), and a
# switch whose uplinks go to one is not judged on its shape.
. "$(dirname "$0")/lib.bash"
X="$FL_SRC/tests/data/real/captures/ltaulell__HPC_toolset__infiniband__X5.topofile"
expect_rc 0 "$FL" info --explain "$X"
expect_grep "$TMP/out" '4036-86A2: tier 3: 2 switch neighbour\(s\) at tier 2, 0 at tier 4, no endpoints; the only switch at tier 3, reaching 2 of the 4 tier-2 switches: .*\(confidence low\)'
expect_rc 0 "$FL" check --format json "$X"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], len(f['nodes'])) for f in d['findings'] if f['rule'] == 'ecmp-balance.oversubscription']")" \
  "[('ecmp-balance.oversubscription', 3)]" "X5: the 3 oversubscribed leaves only, not the 2 spines under 86A2"

# the boundary on a generated 2-tier tree (8 leaves, 4 spines with a free
# port each, tiers derived): a top switch cabled to 3 of the 4 spines is a
# weak guess (the spines are not judged); to all 4 it is a core (high
# confidence), and the 4 spines, 8 down and 1 up, are oversubscribed 8:1
"$FL" gen fat-tree --radix 8 --tiers 2 -o "$TMP/ft.xml" || fail "gen"
top() { # N — the plan with a top switch cabled to spines 1..N
  python3 - "$TMP/ft.xml" "$1" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
s = re.sub(r' tier="\d+"', "", s)
for k in range(1, 5):
    s = re.sub(r'(name="spine-p01-0%d"[^>]*) ports="8"' % k, r'\1 ports="9"', s, count=1)
links = "".join('  <link a="top" a-port="%d" b="spine-p01-0%d" b-port="9" width="4x" speed="NDR"/>\n' % (k, k) for k in range(1, int(sys.argv[2]) + 1))
node = '  <node kind="switch" name="top" ports="4"/>\n'
s = s.replace("</fabric>", node + links + "</fabric>")
sys.stdout.write(s)
PY
}
top 3 >"$TMP/top3.xml"
top 4 >"$TMP/top4.xml"
expect_rc 0 "$FL" info --explain "$TMP/top3.xml"
expect_grep "$TMP/out" 'top: tier 3: 3 switch neighbour\(s\) at tier 2, .*reaching 3 of the 4 tier-2 switches.*\(confidence low\)'
expect_rc 0 "$FL" info --explain "$TMP/top4.xml"
expect_grep "$TMP/out" 'top: tier 3: 4 switch neighbour\(s\) at tier 2, 0 at tier 4, no endpoints \(confidence high\)'
"$FL" check --format json "$TMP/top3.xml" >"$TMP/c3.json" 2>/dev/null
expect_eq "$(jget "$TMP/c3.json" "=[f for f in d['findings'] if f['rule'] == 'ecmp-balance.oversubscription']")" "[]" "3 of 4: the spines are not judged"
"$FL" check --format json "$TMP/top4.xml" >"$TMP/c4.json" 2>/dev/null
expect_eq "$(jget "$TMP/c4.json" "=[(f['rule'], sorted(f['nodes'])) for f in d['findings'] if f['rule'] == 'ecmp-balance.oversubscription']")" \
  "[('ecmp-balance.oversubscription', ['spine-p01-01', 'spine-p01-02', 'spine-p01-03', 'spine-p01-04'])]" "4 of 4: a core; the 4 spines at 8:1"
finish
