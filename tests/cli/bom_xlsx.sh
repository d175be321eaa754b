#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/bom_xlsx.sh — `bom --format xlsx` (issue 34, docs/cli.md
# "bom"): the workbook read back with a spreadsheet library (openpyxl)
# holds, cell for cell, what the CSV says (tests/cli/bom.sh's hand count
# and hand totals), numbers as numbers, unknown figures empty, the total
# row only where every row has the figure; sheet "about" names the inputs
# and the catalogue; refused to a terminal; and a build without
# libxlsxwriter says so. The read-back part is a SKIP without openpyxl.
. "$(dirname "$0")/lib.bash"
"$FL" gen rail-su --sus 2 --rails 2 --hosts-per-su 4 --leaf-radix 8 --layout -o "$TMP/sm.xml" || fail "gen"
cp "$FL_SRC/tests/fixtures/bom/hand-count.yaml" "$TMP/cat.yaml"
"$FL" bom --format xlsx -o "$TMP/probe.xlsx" "$TMP/sm.xml" 2>"$TMP/err"
if grep -q 'built without libxlsxwriter' "$TMP/err"; then
  expect_grep "$TMP/err" '^fabriclint bom: --format xlsx: this fabriclint was built without libxlsxwriter \(Debian: libxlsxwriter-dev\); use csv$'
  echo "bom_xlsx: SKIP: built without libxlsxwriter (the refusal checked)"
  finish
fi
expect_rc 0 "$FL" bom --format xlsx --catalogue "$TMP/cat.yaml" -o "$TMP/b.xlsx" "$TMP/sm.xml"
expect_eq "$(head -c 4 "$TMP/b.xlsx" | od -An -c | tr -d ' ')" 'PK003004' "a ZIP (Office Open XML)"
# the CSV of the same run, to compare cell for cell
expect_rc 0 "$FL" bom --catalogue "$TMP/cat.yaml" "$TMP/sm.xml"
cp "$TMP/out" "$TMP/b.csv"
# a Python with openpyxl: Debian's python3-openpyxl (setup.sh, .ci/run)
PY=""
for p in /usr/bin/python3 python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import openpyxl' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
  echo "bom_xlsx: SKIP: no openpyxl to read the workbook back"
  finish
fi
cat >"$TMP/read.py" <<'EOF2'
import csv, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
print(wb.sheetnames)
def cell(v):
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer():
        return "%d" % v
    return str(v)
with open(sys.argv[2], newline="") as f:
    want = list(csv.reader(f))
got = [[cell(v) for v in row] for row in wb["BOM"].iter_rows(values_only=True)]
print("same" if got == want else "differ: %r vs %r" % (got, want))
kinds = sorted({type(v).__name__ for row in wb["BOM"].iter_rows(min_row=2, min_col=3, max_col=3, values_only=True) for v in row if v is not None})
print(kinds)
print([list(r) for r in wb["about"].iter_rows(values_only=True)])
EOF2
"$PY" "$TMP/read.py" "$TMP/b.xlsx" "$TMP/b.csv" >"$TMP/read" 2>&1 || { fail "openpyxl could not read the workbook"; cat "$TMP/read" >&2; }
expect_eq "$(sed -n 1p "$TMP/read")" "['BOM', 'about']" "sheets"
expect_eq "$(sed -n 2p "$TMP/read")" "same" "the BOM sheet is the CSV, cell for cell"
expect_eq "$(sed -n 3p "$TMP/read")" "['int']" "counts are numbers"
expect_eq "$(sed -n 4p "$TMP/read")" "[['made by', 'fabriclint $("$FL" --version | cut -d' ' -f2) bom'], ['catalogue', '$TMP/cat.yaml'], ['input', '$TMP/sm.xml']]" "about sheet"
# the hand totals (tests/cli/bom.sh): 272 and 1152 W in the total row
expect_grep "$TMP/b.csv" '^total,,,,,272,,1152,$'
# one price missing: that total cell is empty, the watts total stays
grep -v 'price: 3' "$TMP/cat.yaml" >"$TMP/cat2.yaml"
echo '  - {item: "transceiver 4xNDR multimode hca-port", watts: 9}' >>"$TMP/cat2.yaml"
expect_rc 0 "$FL" bom --format xlsx --catalogue "$TMP/cat2.yaml" -o "$TMP/c.xlsx" "$TMP/sm.xml"
expect_rc 0 "$FL" bom --catalogue "$TMP/cat2.yaml" "$TMP/sm.xml"
cp "$TMP/out" "$TMP/c.csv"
expect_grep "$TMP/c.csv" '^total,,,,,,,1152,$'
"$PY" "$TMP/read.py" "$TMP/c.xlsx" "$TMP/c.csv" >"$TMP/read" 2>&1
expect_eq "$(sed -n 2p "$TMP/read")" "same" "a missing price: the total cell empty"
# binary: refused to a terminal (script gives one), taken by a redirect
expect_rc 0 sh -c "\"$FL\" bom --format xlsx \"$TMP/sm.xml\" >\"$TMP/r.xlsx\""
expect_eq "$(head -c 2 "$TMP/r.xlsx")" "PK" "redirected"
if command -v script >/dev/null; then
  script -qec "\"$FL\" bom --format xlsx \"$TMP/sm.xml\"" /dev/null >"$TMP/tty" 2>&1
  expect_grep "$TMP/tty" 'format xlsx writes a binary workbook: give -o FILE.xlsx \(or redirect standard output\)'
  # and through -o /dev/tty (outside tester)
  script -qec "\"$FL\" bom --format xlsx -o /dev/tty \"$TMP/sm.xml\"" /dev/null >"$TMP/tty" 2>&1
  expect_grep "$TMP/tty" 'format xlsx writes a binary workbook'
fi
finish
