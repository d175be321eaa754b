#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/csv_cells.sh — the one CSV cell writer (fl_wr_csv_cell,
# core/io/write_common.c) behind the UFM NDT plan of `convert` and the work
# order of `diff --format csv`, on names that need quoting.
#
# The plan is `fabriclint gen rail-su` (2 rails x 2 hosts, one spine: --spines 1) with two names
# edited in the XML: the rail-1 leaf is `leaf "r1",&#10;row 2` (a quote, a
# comma and a line break), the host NIC `dgx-002 mlx5_1` is
# `dgx-002 "a,b"&#10;mlx5_1`, and, so that each trigger alone is seen, the
# spine is `spine,01` (a comma only) and the rail-0 leaf `leaf "r0"` (a
# quote only). A name never keeps a line break (the model
# turns control characters into blanks on loading), so they are
# `leaf "r1", row 2` and `dgx-002 "a,b" mlx5_1` everywhere after.
#   1. convert to NDT: the exact rows (cells quoted, quotes doubled, every
#      row one line), read by Python's csv module into the exact cells;
#   2. back: the NDT converted to design XML has the same names, diffs clean
#      against the plan, and converts to the same NDT byte for byte;
#   3. diff --format csv against the plan with the NIC's cable moved from
#      port 2 to port 3 of that leaf: the one work-order row, byte for byte
#      (CRLF) and cell for cell.
. "$(dirname "$0")/lib.bash"

"$FL" gen rail-su --sus 1 --hosts-per-su 2 --rails 2 --leaf-radix 8 --speed HDR --no-lids \
  --spines 1 -o "$TMP/gen.xml" || fail "gen"
sed -e 's/"leaf-su01-r1"/"leaf \&quot;r1\&quot;,\&#10;row 2"/g' \
  -e 's/"dgx-002 mlx5_1"/"dgx-002 \&quot;a,b\&quot;\&#10;mlx5_1"/g' \
  -e 's/"spine-01"/"spine,01"/g' -e 's/"leaf-su01-r0"/"leaf \&quot;r0\&quot;"/g' \
  "$TMP/gen.xml" >"$TMP/plan.xml"
expect_eq "$(diff "$TMP/gen.xml" "$TMP/plan.xml" | grep -c '^>')" 16 "lines of the plan edited"

leaf='"leaf ""r1"", row 2"'
nic='"dgx-002 ""a,b"" mlx5_1"'
leaf0='"leaf ""r0"""'
spine='"spine,01"'

# ---- 1. NDT ------------------------------------------------------------------
expect_rc 0 "$FL" convert "$TMP/plan.xml" -o "$TMP/plan.ndt"
expect_eq "$(wc -l <"$TMP/plan.ndt")" 13 "NDT lines (header + 12 cables)"
expect_eq "$(grep -c "^$leaf,Port [5-8],$spine,Port [5-8],Data\$" "$TMP/plan.ndt")" 4 "rail-1 leaf uplink rows"
expect_eq "$(grep -c "^$leaf0,Port [5-8],$spine,Port [1-4],Data\$" "$TMP/plan.ndt")" 4 "rail-0 leaf uplink rows"
expect_grep "$TMP/plan.ndt" "^dgx-001,dgx-001 mlx5_0,$leaf0,Port 1,Data\$"
expect_grep "$TMP/plan.ndt" "^dgx-001,dgx-001 mlx5_1,$leaf,Port 1,Data\$"
expect_grep "$TMP/plan.ndt" "^dgx-002,$nic,$leaf,Port 2,Data\$"
cells() { # FILE ROW [SLICE] — the cells of CSV row ROW (0: the header) as a Python list
  python3 -c 'import csv,sys; print(eval("list(csv.reader(open(sys.argv[1], newline=\"\")))[int(sys.argv[2])]" + sys.argv[3]))' \
    "$1" "$2" "${3:-}"
}
expect_eq "$(cells "$TMP/plan.ndt" 5)" "['leaf \"r1\", row 2', 'Port 5', 'spine,01', 'Port 5', 'Data']" "NDT row 5 cells"
expect_eq "$(cells "$TMP/plan.ndt" 12)" "['dgx-002', 'dgx-002 \"a,b\" mlx5_1', 'leaf \"r1\", row 2', 'Port 2', 'Data']" "NDT row 12 cells"

# ---- 2. and back ---------------------------------------------------------------
expect_rc 0 "$FL" convert "$TMP/plan.ndt" -o "$TMP/back.xml"
names() { # FILE — the sorted node names of a design XML
  python3 -c 'import sys, xml.etree.ElementTree as E
print("|".join(sorted(n.get("name") for n in E.parse(sys.argv[1]).getroot() if n.tag.endswith("node"))))' "$1"
}
expect_eq "$(names "$TMP/back.xml")" \
  'dgx-001 mlx5_0|dgx-001 mlx5_1|dgx-002 "a,b" mlx5_1|dgx-002 mlx5_0|leaf "r0"|leaf "r1", row 2|spine,01' \
  "names read back from the NDT"
expect_eq "$(names "$TMP/plan.xml" | tr '\n' ' ' | sed 's/ $//')" "$(names "$TMP/back.xml")" "plan names (line break as blank) = names read back"
expect_rc 0 "$FL" diff "$TMP/plan.xml" "$TMP/plan.ndt"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info; '
expect_rc 0 "$FL" convert "$TMP/back.xml" -o "$TMP/again.ndt"
if cmp -s "$TMP/plan.ndt" "$TMP/again.ndt"; then pass; else fail "NDT -> XML -> NDT changed the plan"; fi

# ---- 3. the work order ---------------------------------------------------------
sed 's/\(a="dgx-002 &quot;a,b&quot;&#10;mlx5_1" a-port="1" b="leaf &quot;r1&quot;,&#10;row 2" b-port="\)2"/\13"/' \
  "$TMP/plan.xml" >"$TMP/moved.xml"
expect_eq "$(diff "$TMP/plan.xml" "$TMP/moved.xml" | grep -c '^>')" 1 "cables moved"
expect_rc 1 "$FL" diff --format csv "$TMP/plan.xml" "$TMP/moved.xml"
cp "$TMP/out" "$TMP/wo.csv"
expect_eq "$(wc -l <"$TMP/wo.csv")" 2 "work-order lines (header + 1 row)"
row=$(sed -n 2p "$TMP/wo.csv")
expect_eq "$(printf '%s' "$row" | tail -c 1 | od -An -tx1)" " 0d" "CRLF line end"
want="1,move,diff.misconnected,$nic,1,,$leaf,2,,$leaf,3,,move the cable end to the planned port,"
want+='"move the cable end at ""leaf ""r1"", row 2"" port 3 to ""leaf ""r1"", row 2"" port 2",'
expect_eq "${row:0:${#want}}" "$want" "row text up to the fingerprint"
expect_eq "$(cells "$TMP/wo.csv" 1 '[:14]')" \
  "['1', 'move', 'diff.misconnected', 'dgx-002 \"a,b\" mlx5_1', '1', '', 'leaf \"r1\", row 2', '2', '', 'leaf \"r1\", row 2', '3', '', 'move the cable end to the planned port', 'move the cable end at \"leaf \"r1\", row 2\" port 3 to \"leaf \"r1\", row 2\" port 2']" \
  "work-order cells"
expect_eq "$(cells "$TMP/wo.csv" 1 '[14]' | grep -cE '^[0-9a-f]{16}$')" 1 "fingerprint cell"
expect_eq "$(cells "$TMP/wo.csv" 1 '[15:]')" "['', '', '', '', '', '', '', '', '', '', '']" "no U, second cable, media, length, part or from rack in this plan"
# ---- 4. formula cells (OWASP CSV injection, issue 32 #6) --------------------------
# csv-formula-design.xml: ft4 with leaf-p01-02 renamed =HYPERLINK(...), spine-p01-02
# @SUM(...)*cmd|... and one cable moved; csv-formula-asbuilt.ibnetdiscover: ft4 as built
# (tests/fixtures/robustness-3b/PROVENANCE.md). Every cell that starts with = + - @
# (tab, CR) gets a single quote before it and is quoted; the NDT reader takes it off.
R="$FL_SRC/tests/fixtures/robustness-3b"
hyper='=HYPERLINK("http://attacker.invalid/","confirm")'
dde="@SUM(1+1)*cmd|' /C calc'!A0"
formula_cells() { # FILE — how many cells of FILE a spreadsheet reads as a formula
  python3 -c 'import csv,sys; print(sum(c[:1] in ("=","+","-","@","\t","\r") for r in csv.reader(open(sys.argv[1], newline="")) for c in r))' "$1"
}
expect_rc 1 "$FL" diff --format csv "$R/csv-formula-design.xml" "$R/csv-formula-asbuilt.ibnetdiscover"
cp "$TMP/out" "$TMP/fwo.csv"
expect_eq "$(cells "$TMP/fwo.csv" 1 '[3]')" "'$hyper" "work-order row 1, formula neutralised"
expect_grep "$TMP/fwo.csv" "^1,check,diff.duplicate,\"'=HYPERLINK\(\"\"http://attacker.invalid/\"\",\"\"confirm\"\"\)\",3,"
expect_eq "$(formula_cells "$TMP/fwo.csv")" 0 "work-order formula cells"
expect_rc 0 "$FL" convert "$R/csv-formula-design.xml" -o "$TMP/f.ndt"
expect_eq "$(formula_cells "$TMP/f.ndt")" 0 "NDT formula cells"
expect_grep "$TMP/f.ndt" "^leaf-p01-01,Port 4,\"'@SUM\(1\+1\)\*cmd\|' /C calc'!A0\",Port 1,Data"
expect_eq "$(python3 -c 'import csv,sys; print(sum(r[0] == sys.argv[2] for r in csv.reader(open(sys.argv[1], newline=""))))' "$TMP/f.ndt" "'$hyper")" 2 "NDT rows of the =HYPERLINK leaf (spine uplinks)"
# read back: the names are the design's, byte for byte, and the NDT the same again
expect_rc 0 "$FL" convert "$TMP/f.ndt" -o "$TMP/f.xml"
expect_eq "$(python3 -c 'import sys, xml.etree.ElementTree as E
n = {x.get("name") for x in E.parse(sys.argv[1]).getroot()}
print(sys.argv[2] in n, sys.argv[3] in n)' "$TMP/f.xml" "$hyper" "$dde")" "True True" "formula names read back whole"
expect_rc 0 "$FL" convert "$TMP/f.xml" -o "$TMP/f2.ndt"
if cmp -s "$TMP/f.ndt" "$TMP/f2.ndt"; then pass; else fail "formula NDT -> XML -> NDT changed"; fi
finish
