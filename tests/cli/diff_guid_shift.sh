#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/diff_guid_shift.sh — GUIDs that contradict names (issue #30;
# core/diff/diff_match.c guid_name_conflicts()). The plan: `gen rail-su`,
# 2 SUs. The as-built: its first SU alone, built and numbered as a
# generator numbers a smaller build (GUIDs in sequence again), written as
# an ibnetdiscover dump by `fabriclint convert`. The plan's GUIDs of the
# SU-2 leaves are now the as-built spines': matched by GUID, 256 cables
# were "unexpected". Expected: SU 2 missing, one finding for its 72 nodes
# (8 leaves, 64 HCAs), one info saying the GUIDs look shifted, nothing
# else; the same
# with the arguments reversed (compared the right way round).
. "$(dirname "$0")/lib.bash"
"$FL" gen rail-su --sus 2 --hosts-per-su 8 -o "$TMP/plan.xml"
python3 - "$TMP/plan.xml" >"$TMP/half.xml" <<'PY'
import re, sys
src = open(sys.argv[1], encoding="utf-8").read().split("\n")
out, skip, gone, sw, ca, port_g = [], False, set(), 0, 0, 0
for line in src:
    s = line.lstrip()
    if s.startswith("<node "):
        skip = ' su="2"' in s
        if skip:
            gone.add(re.search(r'name="([^"]*)"', s).group(1))
            continue
        if 'kind="switch"' in s:
            sw += 1; g = 0x0002c90301000000 + sw; port_g = g
        else:
            ca += 1; g = 0x0002c90302000000 + 2 * ca; port_g = g + 1
        line = re.sub(r'(guid|sysimgguid)="0x[0-9a-f]+"',
                      lambda m: '%s="0x%016x"' % (m.group(1), g), line)
    elif skip and (s.startswith("<port ") or s.startswith("</node>")):
        continue
    elif s.startswith("<port ") and "guid=" in s:
        line = re.sub(r'guid="0x[0-9a-f]+"', 'guid="0x%016x"' % port_g, line)
    elif s.startswith("<link "):
        ends = re.findall(r' [ab]="([^"]*)"', s)
        if gone.intersection(ends):
            continue
    out.append(line)
sys.stdout.write("\n".join(out))
PY
"$FL" convert "$TMP/half.xml" -o "$TMP/half.ibnetdiscover" --format ibnetdiscover
tally() { jget "$TMP/out" "=sorted(__import__('collections').Counter((f['rule'], f['severity']) for f in d['findings']).items())"; }

expect_rc 1 "$FL" diff --format json "$TMP/plan.xml" "$TMP/half.ibnetdiscover"
expect_eq "$(tally)" "[(('diff.different', 'info'), 1), (('diff.missing-node', 'error'), 1)]" \
  "half-built: SU 2 missing, one note, no unexpected cable"
expect_eq "$(jget "$TMP/out" "=[(f['evidence']['cause'], f['evidence']['count']) for f in d['findings'] if f['rule'] == 'diff.missing-node']")" \
  "[('missing-su:2', 72)]" "SU 2 missing: one cause, its 72 nodes counted"
expect_eq "$(jget "$TMP/out" "=[(f['evidence']['conflicting'], f['evidence']['example_design'], f['evidence']['example_as_built']) for f in d['findings'] if f['rule'] == 'diff.different']")" \
  "[(8, 'leaf-su02-r0', 'spine-01')]" "the note: 8 planned nodes, the first example"
expect_eq "$(jget "$TMP/out" "=sorted({m['nodes'][0].split()[0] for f in d['findings'] if f['rule'] == 'diff.missing-node' for m in f['evidence']['members'] if m['nodes'][0].startswith('dgx')})")" \
  "$(pyval "['dgx-%03d' % i for i in range(9, 17)]")" "the hosts of SU 2 missing"
# the arguments reversed: compared the right way round, the same verdicts
expect_rc 1 "$FL" diff --format json "$TMP/half.ibnetdiscover" "$TMP/plan.xml"
expect_eq "$(tally)" "[(('diff.different', 'info'), 1), (('diff.missing-node', 'error'), 1), (('diff.reversed', 'warning'), 1)]" \
  "reversed: the same, and the warning"
# as given, reversed: SU 2 is what was "built" beyond the other side
expect_rc 1 "$FL" diff --as-given --format json "$TMP/half.ibnetdiscover" "$TMP/plan.xml"
expect_eq "$(tally)" "[(('diff.different', 'info'), 1), (('diff.reversed', 'warning'), 1), (('diff.unexpected-node', 'error'), 72)]" \
  "as given: SU 2 unexpected, still no cable"
# the plan against its own dump: GUIDs agree, no note
"$FL" convert "$TMP/plan.xml" -o "$TMP/plan.ibnetdiscover" --format ibnetdiscover
expect_rc 0 "$FL" diff --format json "$TMP/plan.xml" "$TMP/plan.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "the plan and its own dump"
finish
