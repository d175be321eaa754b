# SPDX-License-Identifier: MIT
# Findings about a cable point at its design XML <link> element, and the
# findings that know their fix carry it: JSON `fix`, SARIF `fixes` (text
# edits of the plan that, applied as a SARIF viewer would, give back the
# plan that was meant), SARIF valid against the official 2.1.0 schema with
# helpUri. Case cases/plans/f02-swap.xml (README: "SARIF locations of
# cable findings point at the <link> element that changed") and f01.
. "$(dirname "$0")/lib.bash"
PY=/usr/bin/python3 # Debian's, with python3-jsonschema and python3-rfc3987
SARIF_SCHEMA=npm__microsoft-jest-sarif-1.0.0-beta.0__lib__schemas__sarif-2.1.0-rtm.5.json
need_external "$SARIF_SCHEMA"
D="$FL_SRC/tests/data/cases/plans"
cp "$D/f02-swap.xml" "$D/f01-cross-rail-fix-port.xml" "$D/small-plan.xml" "$TMP/"
cd "$TMP" || exit 1
# the lines the case changed: dgx-002's two NIC cables and the HDR uplink
expect_eq "$(sed -n 59p f02-swap.xml)" '  <link a="dgx-002 mlx5_0" a-port="1" b="leaf-su01-r1" b-port="2" width="4x" speed="NDR" />' "line 59"
expect_eq "$(sed -n 69p f02-swap.xml)" '  <link a="leaf-su01-r0" a-port="5" b="spine-01" b-port="1" width="4x" speed="HDR" />' "line 69"

expect_rc 1 "$FL" check --format sarif f02-swap.xml
cp "$TMP/out" f02.sarif
if $PY "$FL_SRC/tests/cli/sarif_validate.py" "$FL_EXTERNAL/$SARIF_SCHEMA" f02.sarif
then pass; else fail "f02 SARIF does not validate against the SARIF 2.1.0 schema"; fi
# cable findings land on the <link> lines (59 and its partner 60; 69)
expect_eq "$(jget f02.sarif "=sorted((x['ruleId'], x['locations'][0]['physicalLocation']['region']['startLine']) for x in d['runs'][0]['results'])")" \
  "[('rail-alignment.su-shape', 3), ('rail-alignment.swapped', 59), ('topology.mixed-speed', 69)]" "locations"
# the cable at line 69, the one link of its tiers off NDR, leads what ECMP
# finds because of it (two mixed next-hop sets, its leaf's asymmetry): its
# relatedLocations
expect_eq "$(jget f02.sarif "=[sorted(l['physicalLocation']['region']['startLine'] for l in x.get('relatedLocations', [])) for x in d['runs'][0]['results'] if x['ruleId'] == 'topology.mixed-speed']")" "[[3, 69, 69]]" "the speed cable's consequences"
expect_eq "$(jget f02.sarif "=[[l['physicalLocation']['region']['startLine'] for l in x['relatedLocations']] for x in d['runs'][0]['results'] if x['ruleId'] == 'rail-alignment.swapped']")" "[[60]]" "the second cable of the swap"
# the fixes: exact replacements (values of b= on lines 59/60, speed= on 69)
expect_eq "$(jget f02.sarif "=sorted((x['ruleId'], [(r['deletedRegion']['startLine'], r['deletedRegion']['startColumn'], r['deletedRegion']['endColumn'], r['insertedContent']['text']) for f in x['fixes'] for c in f['artifactChanges'] for r in c['replacements']]) for x in d['runs'][0]['results'] if 'fixes' in x)")" \
  "[('rail-alignment.swapped', [(59, 42, 54, 'leaf-su01-r0'), (60, 42, 54, 'leaf-su01-r1')]), ('topology.mixed-speed', [(69, 79, 82, 'NDR')])]" "fixes"
expect_eq "$(jget f02.sarif "=sorted({c['artifactLocation']['uri'] for x in d['runs'][0]['results'] for f in x.get('fixes', []) for c in f['artifactChanges']})")" "['f02-swap.xml']" "fix file"
# helpUri: every rule of the run has one, at its anchor in docs/rules/
expect_eq "$(jget f02.sarif "=sorted({r['helpUri'].split('/docs/')[1] for r in d['runs'][0]['tool']['driver']['rules'] if r['id'].startswith('rail-alignment.')})")" \
  "['rules/rail-alignment.md#rail-alignment.cross-rail', 'rules/rail-alignment.md#rail-alignment.gpu-order', 'rules/rail-alignment.md#rail-alignment.gpu-rail', 'rules/rail-alignment.md#rail-alignment.gpu-shared-nic', 'rules/rail-alignment.md#rail-alignment.incomplete-host', 'rules/rail-alignment.md#rail-alignment.mixed-leaf', 'rules/rail-alignment.md#rail-alignment.roles', 'rules/rail-alignment.md#rail-alignment.su-shape', 'rules/rail-alignment.md#rail-alignment.swapped', 'rules/rail-alignment.md#rail-alignment.unknown-role', 'rules/rail-alignment.md#rail-alignment.unresolved']" "helpUri"
expect_eq "$(jget f02.sarif "=[r['id'] for r in d['runs'][0]['tool']['driver']['rules'] if not (r.get('helpUri', '').startswith('https://') and '/docs/rules/' in r['helpUri'])]")" "[]" "every built-in rule documented"
# ... and every anchor is in its page
if $PY - "$FL_SRC/docs" f02.sarif <<'EOF'
import json, sys, urllib.parse
docs, d = sys.argv[1], json.load(open(sys.argv[2]))
bad = []
for r in d["runs"][0]["tool"]["driver"]["rules"]:
    page, anchor = urllib.parse.unquote(r["helpUri"]).split("/docs/")[1].split("#")
    if 'id="%s"' % anchor not in open(docs + "/" + page).read() or anchor != r["id"]:
        bad.append(r["id"])
sys.exit("no anchor: %s" % bad if bad else 0)
EOF
then pass; else fail "helpUri anchors"; fi

# applying the SARIF fixes gives back the plan the case started from: diff
# against it is clean, and so is check
expect_rc 0 $PY "$FL_SRC/tests/cli/sarif_apply_fixes.py" f02.sarif f02-swap.xml fixed.xml
expect_eq "$(cat "$TMP/out")" "3 edits" "f02 edits applied"
expect_rc 0 "$FL" diff small-plan.xml fixed.xml
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info'
expect_rc 0 "$FL" check fixed.xml
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info'

# f01: a NIC on the wrong rail leaf: the fix moves its cable to the port the
# host's other NIC uses on the right leaf; applied, the plan is small-plan
expect_rc 1 "$FL" check --format sarif f01-cross-rail-fix-port.xml
cp "$TMP/out" f01.sarif
expect_eq "$(jget f01.sarif "=[(x['locations'][0]['physicalLocation']['region']['startLine'], [(r['deletedRegion']['startLine'], r['insertedContent']['text']) for f in x['fixes'] for c in f['artifactChanges'] for r in c['replacements']]) for x in d['runs'][0]['results'] if x['ruleId'] == 'rail-alignment.cross-rail']")" \
  "[(60, [(60, 'leaf-su01-r1'), (60, '2')])]" "cross-rail fix"
expect_rc 0 $PY "$FL_SRC/tests/cli/sarif_apply_fixes.py" f01.sarif f01-cross-rail-fix-port.xml fixed1.xml
expect_rc 0 "$FL" diff small-plan.xml fixed1.xml
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info'

# JSON: the same fixes as data (ports are numbers)
expect_rc 1 "$FL" check --format json f02-swap.xml
cp "$TMP/out" f02.json
expect_eq "$(jget f02.json "=[(f['fix']['kind'], [(c['action'], c['from'], c['to'], c['location']['line']) for c in f['fix']['changes']]) for f in d['findings'] if f['rule'] == 'rail-alignment.swapped']")" \
  "[('swap', [('move-end', {'node': 'leaf-su01-r1', 'port': 2}, {'node': 'leaf-su01-r0', 'port': 2}, 59), ('move-end', {'node': 'leaf-su01-r0', 'port': 2}, {'node': 'leaf-su01-r1', 'port': 2}, 60)])]" "JSON swap fix"
expect_eq "$(jget f02.json "=[(f['fix']['kind'], [(c['action'], c['cable'], c['from'], c['to']) for c in f['fix']['changes']]) for f in d['findings'] if f['rule'] == 'topology.mixed-speed']")" \
  "[('set', [('set-speed', [{'node': 'leaf-su01-r0', 'port': 5}, {'node': 'spine-01', 'port': 1}], 'HDR', 'NDR')])]" "JSON speed fix"
expect_eq "$(jget f02.json "=sorted(f['rule'] for f in d['findings'] if 'fix' in f)")" "['rail-alignment.swapped', 'topology.mixed-speed']" "findings with a fix"

# a cable of an ibnetdiscover dump has a JSON fix but no SARIF text edit
"$FL" gen rail-su --sus 2 --hosts-per-su 3 --rails 2 --leaf-radix 8 --no-lids --format ibnetdiscover > built.ibnd 2>/dev/null
$PY - built.ibnd <<'EOF'
import re, sys
p = sys.argv[1]; t = open(p).read()
# cross dgx-002's two HCA cables on the leaves (both directions of each)
a, b = '"dgx-002 mlx5_0"', '"dgx-002 mlx5_1"'
t = t.replace(a, "@A@").replace(b, a).replace("@A@", b)
open(p, "w").write(t)
EOF
expect_rc 1 "$FL" check --format sarif built.ibnd
cp "$TMP/out" built.sarif
expect_eq "$(jget built.sarif "=[('fixes' in x, x['locations'][0]['physicalLocation']['region']['startLine'] > 1) for x in d['runs'][0]['results'] if x['ruleId'] == 'rail-alignment.swapped']")" "[(False, True)]" "no text edit of a dump"
expect_rc 1 "$FL" check --format json built.ibnd
expect_eq "$(jget "$TMP/out" "=[f['fix']['kind'] for f in d['findings'] if f['rule'] == 'rail-alignment.swapped']")" "['swap']" "JSON fix of a dump"

# helpUri base: FABRICLINT_DOCS_URL, an absolute URI, else exit 2
FABRICLINT_DOCS_URL=https://example.org/fl/v0.1.0/docs expect_rc 1 "$FL" check --format sarif f02-swap.xml
expect_eq "$(jget "$TMP/out" "=[r['helpUri'] for r in d['runs'][0]['tool']['driver']['rules'] if r['id'] == 'rail-alignment.swapped']")" \
  "['https://example.org/fl/v0.1.0/docs/rules/rail-alignment.md#rail-alignment.swapped']" "docs URL"
FABRICLINT_DOCS_URL=docs/ expect_rc 2 "$FL" check --format sarif f02-swap.xml
expect_grep "$TMP/err" "FABRICLINT_DOCS_URL='docs/' is not an absolute URI"
expect_eq "$(wc -c < "$TMP/out")" "0" "no report with a bad docs URL"

# text: file:line:col: (the <link> element at column 3), the rule id ends
# the line, as a hint
expect_rc 1 "$FL" check f02-swap.xml
expect_grep "$TMP/out" '^f02-swap.xml:59:3: error: the cables of "dgx-002 mlx5_0" \(rail 0\) and "dgx-002 mlx5_1" \(rail 1\) are crossed: .* \[rail-alignment.swapped\]$'
expect_grep "$TMP/out" '^f02-swap.xml:69:3: warning: links of tier 1-2 run at 2 different speeds .* \[topology.mixed-speed\]$'
finish
