#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/compare_domains.sh — compare's worst single rack, row, hall,
# PDU or feed failure (issue 34 §1; failure-domains.summary, run on both
# sides as the capacity summary is): on a generated 2-SU plan with racks,
# and the same plan with SU 2's two leaves moved into SU 1's leaf rack.
# By hand: each SU's 4 hosts sit in one rack (R01-01, R02-01), its two
# leaves in another (R01-02, R02-02), each spine in its own. BASE: losing
# a host rack powers 4 servers off, losing a leaf rack cuts 4 off: the
# worst rack takes 4 (R01-01, first in natural order). HEAD: R01-02 holds
# all four leaves, losing it cuts all 8 off. Rows (R01, R02) are unchanged
# (the leaves keep their row): 4. Both ways round; the policy can switch it
# off (null); the schema validates it.
. "$(dirname "$0")/lib.bash"
"$FL" gen rail-su --sus 2 --rails 2 --hosts-per-su 4 --leaf-radix 8 --layout -o "$TMP/base.xml" || fail "gen"
sed 's/rack="R02-02"/rack="R01-02"/' "$TMP/base.xml" >"$TMP/head.xml"
D="=[(k, d[s]['domain_failures'][k]['worst'], d[s]['domain_failures'][k]['servers_off'], d[s]['domain_failures'][k]['powered_off'], d[s]['domain_failures'][k]['cut_off']) for s in ('base', 'head') for k in sorted(d[s]['domain_failures'])]"
expect_rc 0 "$FL" compare --fail-on never --format json "$TMP/base.xml" "$TMP/head.xml"
expect_eq "$(jget "$TMP/out" "$D")" \
  "[('rack', 'R01-01', 4, 4, 0), ('row', 'R01', 4, 4, 0), ('rack', 'R01-02', 8, 0, 8), ('row', 'R01', 4, 4, 0)]" \
  "leaves in one rack: the worst rack takes 8 servers"
expect_eq "$(jget "$TMP/out" "=(d['delta']['domain_failures']['rack']['servers_off'], d['delta']['domain_failures']['row']['servers_off'], d['base']['domain_failures']['rack']['values'], d['head']['domain_failures']['rack']['values'])")" \
  "(4, 0, 6, 5)" "delta +4 on racks, 0 on rows; 6 racks before, 5 after"
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
  /usr/bin/python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' \
    "$TMP/out" "$FL_SRC/schema/compare.schema.json" && pass || fail "domain_failures do not validate"
else
  echo "compare_domains: SKIP: no python3-jsonschema (the schema part)"
fi
# the other way round
expect_rc 0 "$FL" compare --fail-on never --format json "$TMP/head.xml" "$TMP/base.xml"
expect_eq "$(jget "$TMP/out" "=(d['delta']['domain_failures']['rack']['servers_off'], d['base']['domain_failures']['rack']['worst'], d['head']['domain_failures']['rack']['worst'])")" \
  "(-4, 'R01-02', 'R01-01')" "the other way round: -4"
# the text rows
expect_rc 0 "$FL" compare --fail-on never "$TMP/base.xml" "$TMP/head.xml"
expect_grep "$TMP/out" '^worst single failure domain \(failure-domains\.summary\)$'
expect_grep "$TMP/out" '^    servers off, worst rack +4 +8 +\+4$'
expect_grep "$TMP/out" '^      worst rack, BASE: R01-01$'
expect_grep "$TMP/out" '^      worst rack, HEAD: R01-02$'
expect_grep "$TMP/out" '^    servers off, worst row +4 +4 +0$'
# HEAD single-feeds SU 2's leaves from one PDU: BASE (every node fed A+B)
# has no PDU or feed value at all, so none can fail: its 0 against HEAD's
# 4 is a rise of 4, not an unknown (an outside tester)
python3 - "$TMP/base.xml" "$TMP/onepdu.xml" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
for leaf in ("leaf-su02-r0", "leaf-su02-r1"):
    s, n = re.subn(r'(<node [^>]*name="%s"[^>]*?) pdu="[^"]*" power-feed="[^"]*"' % leaf,
                   r'\1 pdu="P-X" power-feed="A"', s)
    assert n == 1, leaf
open(sys.argv[2], "w").write(s)
PY
expect_rc 1 "$FL" compare --format json "$TMP/base.xml" "$TMP/onepdu.xml"
expect_eq "$(jget "$TMP/out" "=('pdu' in d['base']['domain_failures'], d['head']['domain_failures']['pdu']['servers_off'], d['delta']['domain_failures']['pdu']['servers_off'], d['delta']['domain_failures']['power-feed']['servers_off'])")" \
  "(False, 4, 4, 4)" "a PDU failure new in HEAD: +4 servers off"
# Markdown: each side's worst value in its own column
expect_rc 0 "$FL" compare --fail-on never --format markdown "$TMP/base.xml" "$TMP/head.xml"
expect_grep "$TMP/out" '^\| &nbsp;&nbsp;&nbsp;&nbsp;worst rack \| R01-01 \| \| \|$'
expect_grep "$TMP/out" '^\| &nbsp;&nbsp;&nbsp;&nbsp;worst rack \| \| R01-02 \| \|$'
# disabled by the policy: null, and no rows
printf 'rules:\n  disable: [failure-domains.summary]\n' >"$TMP/pol.yaml"
expect_rc 0 "$FL" compare --fail-on never --policy "$TMP/pol.yaml" --format json "$TMP/base.xml" "$TMP/head.xml"
expect_eq "$(jget "$TMP/out" "=(d['base']['domain_failures'], d['head']['domain_failures'], d['delta']['domain_failures'])")" "(None, None, None)" "disabled: null"
finish
