# SPDX-License-Identifier: MIT
# subnet.lst written once per cable (core/io/subnet_lst.c sn_merge()):
# OpenSM's subnet.lst lists every cable twice, once from each end; ibdiagnet
# 2.x writes the same grammar (its ibdiagnet2.lst) once per cable, with both
# ends on the line. A real 2025 ibdiagnet NDR capture (an outside tester's;
# no licence, not shipped) had all 271 cables called one-sided, with
# error-level "partial capture" advice. No tool here writes that form, so
# the test keeps the first line of each cable of a real OpenSM dump (the
# corpus's ibsim/OpenSM capture of the NCP-AIN Helix-A fabric, 36 lines,
# 18 cables): the same model, no one-sided cable. A dump with one line of a
# pair cut (OpenSM's form, one end missing) still names that cable.
. "$(dirname "$0")/lib.bash"
IN="$FL_SRC/tests/data/real/captures/made/helix-a/opensm-subnet.lst"
python3 - "$IN" "$TMP/once.lst" "$TMP/cut.lst" "$TMP/once-other.lst" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines(keepends=True)
seen, once, cut, dropped = set(), [], [], False
last = {}  # the other orientation: the last line of each cable
for l in lines:
    ends = re.findall(r"NodeGUID:([0-9a-fA-F]+) .*?PN:([0-9a-fA-F]+) \}", l)
    if len(ends) == 2:
        last[tuple(sorted(ends))] = l
open(sys.argv[4], "w").writelines(last.values())
for l in lines:
    ends = re.findall(r"NodeGUID:([0-9a-fA-F]+) .*?PN:([0-9a-fA-F]+) \}", l)
    if len(ends) != 2:
        once.append(l); cut.append(l); continue
    key = tuple(sorted(ends))
    if key not in seen:
        once.append(l)
    seen.add(key)
    if not dropped and "hxa-spine01" in l.split("}")[0]:
        dropped = True  # the spine's own line of its first cable: cut
        continue
    cut.append(l)
open(sys.argv[2], "w").writelines(once)
open(sys.argv[3], "w").writelines(cut)
PY
expect_eq "$(grep -c '^{' "$IN") $(grep -c '^{' "$TMP/once.lst") $(grep -c '^{' "$TMP/cut.lst")" "36 18 35" "36 lines, 18 once, 35 cut"
expect_rc 0 "$FL" info --format json "$IN"
cp "$TMP/out" "$TMP/twice.json"
expect_rc 0 "$FL" info --format json "$TMP/once.lst"
expect_eq "$(jget "$TMP/out" "=[d['fabric'][k] for k in ('switches', 'cas', 'links')]")" "[6, 10, 18]" "once per cable: 6 switches, 10 CAs, 18 cables"
expect_eq "$(jget "$TMP/out" "=d['fabric']")" "$(jget "$TMP/twice.json" "=d['fabric']")" "the same fabric as the OpenSM dump"
# each cable given from its other end: the same
expect_rc 0 "$FL" info --format json "$TMP/once-other.lst"
expect_eq "$(jget "$TMP/out" "=d['fabric']")" "$(jget "$TMP/twice.json" "=d['fabric']")" "once per cable, the other ends first: the same fabric"
"$FL" check --format json "$IN" >"$TMP/twice-check.json" 2>/dev/null
expect_rc 0 "$FL" check --format json "$TMP/once.lst"
expect_eq "$(jget "$TMP/out" "=sorted(f['rule'] for f in d['findings'])")" "$(jget "$TMP/twice-check.json" "=sorted(f['rule'] for f in d['findings'])")" "the same findings as the OpenSM dump"
expect_eq "$(jget "$TMP/out" "=[f for f in d['findings'] if f['rule'] == 'topology.one-sided-link']")" "[]" "no one-sided cable"
# OpenSM's form with one line of a pair cut: that cable is one-sided
expect_rc 1 "$FL" check --format json "$TMP/cut.lst"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['severity'], f['nodes']) for f in d['findings'] if f['rule'] == 'topology.one-sided-link']")" \
  "[('topology.one-sided-link', 'error', ['hxa-su1-leaf-r1', 'hxa-spine01'])]" "the cut cable is named (listed by the leaf only)"
finish
