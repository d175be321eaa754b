#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/diff_work_order.sh — the work order a technician can act on
# (issue 34 §4, docs/rules/diff.md "Work order"): a swap row carries both
# cable ids, every row the rack unit of both ends and the planned cable's
# media, length and part number; JSON findings carry the cable ids; the
# work order as a workbook (`diff --format xlsx`) with a sheet per rack; a
# move row says where its end is now (from_rack, from_u), a swap row the
# second cable's media, length and part (media_b, length_b, part_b).
# The plan is `gen rail-su --layout` (racks, U, cable ids, lengths, media)
# with a part number added to one cable, the second cable of the swap
# planned as 5 m acc with its own part, and the spine moved to U42; the
# as-built is the same plan
# with dgx-001's two cables crossed between the rail leaves and one leaf
# uplink (C00009) missing.
. "$(dirname "$0")/lib.bash"
"$FL" gen rail-su --sus 1 --rails 2 --hosts-per-su 4 --leaf-radix 8 --layout -o "$TMP/gen.xml" || fail "gen"
python3 - "$TMP" <<'PY'
import sys
t = sys.argv[1]
s = open(t + "/gen.xml").read()
s = s.replace('cable="C00001" length="7" media="optical"/>',
              'cable="C00001" length="7" media="optical">\n    <attr key="part-number" value="MFP7E10-N007"/>\n  </link>')
# the swap's second cable planned otherwise: its own media, length and part
s = s.replace('cable="C00002" length="7" media="optical"/>',
              'cable="C00002" length="5" media="acc">\n    <attr key="part-number" value="MCA7J60-N005"/>\n  </link>')
# the spine higher up its rack, so that the two ends' units differ
i = s.index('name="spine-01"')
j = s.index('u="1"', i)
s = s[:j] + 'u="42"' + s[j + 5:]
open(t + "/plan.xml", "w").write(s)
b = open(t + "/gen.xml").read()
b = b.replace('b="leaf-su01-r0" b-port="1"', 'b="leaf-X" b-port="1"')
b = b.replace('b="leaf-su01-r1" b-port="1"', 'b="leaf-su01-r0" b-port="1"')
b = b.replace('b="leaf-X" b-port="1"', 'b="leaf-su01-r1" b-port="1"')
lines = [l for l in b.split("\n") if 'cable="C00009"' not in l]
open(t + "/built.xml", "w").write("\n".join(lines))
# the same as-built with its cables listed the other way round (last first)
links = [l for l in lines if l.lstrip().startswith("<link ")]
rest = [l for l in lines if not l.lstrip().startswith("<link ")]
close = rest.index("</fabric>")
open(t + "/built-rev.xml", "w").write("\n".join(rest[:close] + links[::-1] + rest[close:]))
PY
grep -q 'C00009' "$TMP/plan.xml" && ! grep -q 'C00009' "$TMP/built.xml" || fail "fixture"

# ---- the CSV: both cables of the swap, U, media, length, part -----------------------
HEAD="row,action,finding,a_node,a_port,a_rack,b_node,b_port,b_rack,from_node,from_port,cable,detail,fix,fingerprint,a_u,b_u,cable_b,media,length,part,from_rack,from_u,media_b,length_b,part_b"
cols="=[(r['action'], r['a_node'], r['a_rack'], r['a_u'], r['b_node'], r['b_rack'], r['b_u'], r['cable'], r['cable_b'], r['media'], r['length'], r['part'], r['media_b'], r['length_b'], r['part_b']) for r in __import__('csv').DictReader(open('$TMP/out'))]"
for built in built built-rev; do
  expect_rc 1 "$FL" diff --format csv "$TMP/plan.xml" "$TMP/$built.xml"
  expect_eq "$(head -1 "$TMP/out" | tr -d '\r')" "$HEAD" "$built: header"
  expect_eq "$(python3 -c "print($(echo "${cols#=}"))")" \
    "[('swap', 'dgx-001 mlx5_0', 'R01-01', '1', 'dgx-001 mlx5_1', 'R01-01', '1', 'C00001', 'C00002', 'optical', '7', 'MFP7E10-N007', 'acc', '5', 'MCA7J60-N005'), ('add', 'leaf-su01-r0', 'R01-02', '1', 'spine-01', 'R01-03', '42', 'C00009', '', 'optical', '7', '', '', '', '')]" \
    "$built: swap with both cables' ids, media, lengths and parts; add with its cable, U of both ends"
  # the JSON findings: the cable ids in the evidence
  expect_rc 1 "$FL" diff --format json "$TMP/plan.xml" "$TMP/$built.xml"
  expect_eq "$(jget "$TMP/out" "=sorted((f['rule'], f['evidence'].get('cable_id'), f['evidence'].get('cable_ids')) for f in d['findings'])")" \
    "[('diff.missing', 'C00009', None), ('diff.swapped', None, ['C00001', 'C00002'])]" "$built: JSON cable ids"
done
# cable_b is the second cable's: with dgx-002's cables crossed as well the
# rows carry C00003 and C00004 (and C00001/C00002 stay on dgx-001's)
sed 's/b="leaf-su01-r0" b-port="2"/b="leaf-X" b-port="2"/; s/b="leaf-su01-r1" b-port="2"/b="leaf-su01-r0" b-port="2"/; s/b="leaf-X" b-port="2"/b="leaf-su01-r1" b-port="2"/' \
  "$TMP/built.xml" >"$TMP/built2.xml"
expect_rc 1 "$FL" diff --format csv "$TMP/plan.xml" "$TMP/built2.xml"
expect_eq "$(python3 -c "import csv; print([(r['a_node'], r['cable'], r['cable_b']) for r in csv.DictReader(open('$TMP/out')) if r['action'] == 'swap'])")" \
  "[('dgx-001 mlx5_0', 'C00001', 'C00002'), ('dgx-002 mlx5_0', 'C00003', 'C00004')]" "two swaps, each with its own two cables"

# ---- move rows: where the end is now (from_rack, from_u) as well as where it
# must go, both ways round. One leaf per rack (--switches-per-rack 1): hosts
# in R01-01, leaf-su01-r0 in R01-02 (U1), leaf-su01-r1 in R01-03 (moved to
# U5 in the plan); 3 hosts per leaf leave port 4 of each leaf free.
"$FL" gen rail-su --sus 1 --rails 2 --hosts-per-su 3 --leaf-radix 8 --layout --switches-per-rack 1 -o "$TMP/mgen.xml" || fail "gen move fixture"
python3 - "$TMP" <<'PY'
import sys
t = sys.argv[1]
s = open(t + "/mgen.xml").read()
i = s.index('name="leaf-su01-r1"')
j = s.index(' u="1"', i)
open(t + "/mplan.xml", "w").write(s[:j] + ' u="5"' + s[j + 6:])
# dgx-001's rail-0 cable lands on leaf-su01-r1 port 4; dgx-003's rail-1
# cable on leaf-su01-r0 port 4
b = s.replace('a="dgx-001 mlx5_0" a-port="1" b="leaf-su01-r0" b-port="1"', 'a="dgx-001 mlx5_0" a-port="1" b="leaf-su01-r1" b-port="4"')
open(t + "/mbuilt1.xml", "w").write(b)
b = s.replace('a="dgx-003 mlx5_1" a-port="1" b="leaf-su01-r1" b-port="3"', 'a="dgx-003 mlx5_1" a-port="1" b="leaf-su01-r0" b-port="4"')
open(t + "/mbuilt2.xml", "w").write(b)
PY
mcols="=[(r['action'], r['a_node'], r['a_rack'], r['b_node'], r['b_port'], r['b_rack'], r['b_u'], r['from_node'], r['from_port'], r['from_rack'], r['from_u'], r['cable']) for r in __import__('csv').DictReader(open('$TMP/out'))]"
expect_rc 1 "$FL" diff --format csv "$TMP/mplan.xml" "$TMP/mbuilt1.xml"
expect_eq "$(python3 -c "print($(echo "${mcols#=}"))")" \
  "[('move', 'dgx-001 mlx5_0', 'R01-01', 'leaf-su01-r0', '1', 'R01-02', '1', 'leaf-su01-r1', '4', 'R01-03', '5', 'C00001')]" \
  "move from leaf-su01-r1 (R01-03 U5) to leaf-su01-r0 (R01-02 U1)"
expect_rc 1 "$FL" diff --format csv "$TMP/mplan.xml" "$TMP/mbuilt2.xml"
expect_eq "$(python3 -c "print($(echo "${mcols#=}"))")" \
  "[('move', 'dgx-003 mlx5_1', 'R01-01', 'leaf-su01-r1', '3', 'R01-03', '5', 'leaf-su01-r0', '4', 'R01-02', '1', 'C00006')]" \
  "move from leaf-su01-r0 (R01-02 U1) to leaf-su01-r1 (R01-03 U5)"
# JSON: the move's ends with their racks and units
expect_rc 1 "$FL" diff --format json "$TMP/mplan.xml" "$TMP/mbuilt2.xml"
expect_eq "$(jget "$TMP/out" "=[(f['evidence']['move_from'], f['evidence']['move_to']) for f in d['findings'] if f['rule'] == 'diff.misconnected']")" \
  "[({'node': 'leaf-su01-r0', 'port': 4, 'rack': 'R01-02', 'u': '1'}, {'node': 'leaf-su01-r1', 'port': 3, 'rack': 'R01-03', 'u': '5'})]" "JSON move_from / move_to with rack and u"

# ---- the workbook: every row, then a sheet per rack ---------------------------------
PY=/usr/bin/python3
if ! "$PY" -c 'import openpyxl' 2>/dev/null; then
  echo "diff_work_order: SKIP: no python3-openpyxl (the workbook part)"
  finish
fi
cat >"$TMP/read.py" <<'PY'
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
print(wb.sheetnames)
for ws in wb.worksheets:
    rows = list(ws.iter_rows(values_only=True))
    if ws.title == "about":
        print(ws.title, rows[1:])
    else:
        print(ws.title, [(r[0], r[1], r[17]) for r in rows[1:]], rows[0][0], rows[0][-1])
PY
expect_rc 1 "$FL" diff --format xlsx -o "$TMP/wo.xlsx" "$TMP/plan.xml" "$TMP/built.xml"
"$PY" "$TMP/read.py" "$TMP/wo.xlsx" >"$TMP/read" 2>&1
expect_eq "$(cat "$TMP/read")" "['work order', 'R01-01', 'R01-02', 'R01-03', 'about']
work order [(1, 'swap', 'C00002'), (2, 'add', None)] row part_b
R01-01 [(1, 'swap', 'C00002')] row part_b
R01-02 [(2, 'add', None)] row part_b
R01-03 [(2, 'add', None)] row part_b
about [('design', '$TMP/plan.xml'), ('as-built', '$TMP/built.xml')]" \
  "sheets: all rows, then by rack (a cable between two racks on both), row numbers kept"
# a move row is on the sheet of the rack its end comes from as well
expect_rc 1 "$FL" diff --format xlsx -o "$TMP/mv.xlsx" "$TMP/mplan.xml" "$TMP/mbuilt1.xml"
"$PY" "$TMP/read.py" "$TMP/mv.xlsx" >"$TMP/read" 2>&1
expect_eq "$(grep -v '^about' "$TMP/read")" "['work order', 'R01-01', 'R01-02', 'R01-03', 'about']
work order [(1, 'move', None)] row part_b
R01-01 [(1, 'move', None)] row part_b
R01-02 [(1, 'move', None)] row part_b
R01-03 [(1, 'move', None)] row part_b" "move row on its a, b and from racks' sheets"
# every cell of the CSV is in the workbook's first sheet
expect_rc 1 "$FL" diff --format csv "$TMP/plan.xml" "$TMP/built.xml"
expect_eq "$("$PY" -c "
import csv, sys, openpyxl
ws = openpyxl.load_workbook(sys.argv[1])['work order']
x = [[str(c) if c is not None else '' for c in r] for r in ws.iter_rows(values_only=True)]
print(x == [r for r in csv.reader(open(sys.argv[2]))])" "$TMP/wo.xlsx" "$TMP/out")" "True" "workbook = CSV"
# rack names Excel refuses or that clash once made safe: "R:1/2" and "r?1*2"
# become R_1_2 and r_1_2~2 (sheet names compare without case); 40
# characters are cut to 31
sed 's/rack="R01-01"/rack="R:1\/2"/g; s/rack="R01-02"/rack="r?1*2"/g; s/rack="R01-03"/rack="rack-with-a-very-long-name-0123456789"/g' \
  "$TMP/plan.xml" >"$TMP/odd.xml"
expect_rc 1 "$FL" diff --format xlsx -o "$TMP/odd.xlsx" "$TMP/odd.xml" "$TMP/built.xml"
expect_eq "$("$PY" -c "import sys, openpyxl; print(openpyxl.load_workbook(sys.argv[1]).sheetnames)" "$TMP/odd.xlsx")" \
  "['work order', 'R_1_2', 'r_1_2~2', 'rack-with-a-very-long-name-0123', 'about']" "sheet names made safe"
# names cut by characters, not bytes (Excel counts UTF-16 units: the
# rocket is two), and "History", which Excel keeps for itself
python3 - "$TMP/plan.xml" "$TMP/utf.xml" <<'PY'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
s = s.replace('rack="R01-01"', 'rack="' + 'x' * 30 + 'ÄÄ"')
s = s.replace('rack="R01-02"', 'rack="' + 'y' * 29 + '\U0001F680z"')
s = s.replace('rack="R01-03"', 'rack="History"')
open(sys.argv[2], "w", encoding="utf-8").write(s)
PY
expect_rc 1 "$FL" diff --format xlsx -o "$TMP/utf.xlsx" "$TMP/utf.xml" "$TMP/built.xml"
expect_eq "$("$PY" -c "import sys, openpyxl; wb = openpyxl.load_workbook(sys.argv[1]); print(wb.sheetnames, wb['work order']['P2'].value, type(wb['work order']['P2'].value).__name__)" "$TMP/utf.xlsx")" \
  "['work order', 'History~2', '$(printf 'x%.0s' $(seq 30))Ä', '$(printf 'y%.0s' $(seq 29))🚀', 'about'] 1 int" \
  "UTF-8 names cut whole, History renamed; a rack unit is a number"
# a plan without racks: the one sheet and "about"
expect_rc 1 "$FL" diff --format xlsx -o "$TMP/plain.xlsx" "$FL_SRC/fabrics/diff/rail-su8.design.xml" "$FL_SRC/fabrics/diff/rail-su8.asbuilt.ibnetdiscover"
expect_eq "$("$PY" -c "import sys, openpyxl; wb = openpyxl.load_workbook(sys.argv[1]); print(wb.sheetnames, wb['work order'].max_row)" "$TMP/plain.xlsx")" \
  "['work order', 'about'] 5" "no racks: one sheet of 4 rows"
# binary: refused to a terminal
if command -v script >/dev/null; then
  script -qec "\"$FL\" diff --format xlsx \"$TMP/plan.xml\" \"$TMP/built.xml\"" /dev/null >"$TMP/tty" 2>&1
  expect_grep "$TMP/tty" 'format xlsx writes a binary workbook: give -o FILE.xlsx \(or redirect standard output\)'
fi
finish
