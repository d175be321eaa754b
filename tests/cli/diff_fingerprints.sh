#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/diff_fingerprints.sh — a diff finding's fingerprint is what it
# is about (cable ends by node and port number, the nodes, the attribute),
# never its wording (core/diff/diff_emit.c finding_key(); issue #30): the
# same faults against a plan that gains racks, cable ids and port labels
# keep their fingerprints, so baselines and waivers still hold. Real
# ibsim dumps of tests/fixtures/ibsim-faults; the labelled plan is the
# fixture's plan with attributes added here.
. "$(dirname "$0")/lib.bash"
F="$FL_SRC/tests/fixtures/ibsim-faults"
# the plan with a rack on every node, a cable id on every link and a label
# on every switch port ("P<num>"), as a plan grows
python3 - "$F/rates.design.xml" >"$TMP/labelled.xml" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
n = iter(range(1, 1 << 20))
text = re.sub(r'<node (kind="[^"]*" name="[^"]*")', lambda m: '<node %s rack="R%02d"' % (m.group(1), next(n) % 40), text)
text = re.sub(r'<link ([^>]*?)/>', lambda m: '<link %s cable="C%05d"/>' % (m.group(1), next(n)), text)
out, ports = [], 0
for line in text.split("\n"):
    if line.lstrip().startswith("<node "):
        m = re.search(r'ports="(\d+)"', line)
        ports = int(m.group(1)) if 'kind="switch"' in line and m else 0
    out.append(line)
    if ports and line.lstrip().startswith('<port num="0"'):
        out += ['    <port num="%d" label="P%d"/>' % (k, k) for k in range(1, ports + 1)]
sys.stdout.write("\n".join(out))
PY
fp() { jget "$TMP/out" "=sorted((f['rule'], f['fingerprint']) for f in d['findings'])"; }
msgs() { jget "$TMP/out" "=sorted(f['message'] for f in d['findings'])"; }

for built in rail-rotation rail-cross-free rates.asbuilt; do
  expect_rc 0 "$FL" diff --exit-zero --format json "$F/rates.design.xml" "$F/$built.ibnetdiscover"
  before=$(fp) m_before=$(msgs) n=$(jget "$TMP/out" "=len(d['findings'])")
  expect_rc 0 "$FL" diff --exit-zero --format json "$TMP/labelled.xml" "$F/$built.ibnetdiscover"
  expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" "$n" "$built: the same findings"
  expect_eq "$(fp)" "$before" "$built: the same fingerprints with racks, cable ids and labels"
  [ "$n" -gt 0 ] && pass || fail "$built: no finding to compare"
done
# the labels do reach the messages (the fingerprints hold although the
# wording changed)
expect_rc 0 "$FL" diff --exit-zero --format json "$TMP/labelled.xml" "$F/rail-rotation.ibnetdiscover"
expect_grep "$TMP/out" '\\"leaf-su01-r1\\" P1'
finish
