#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/sweep_plot.sh — `fabriclint sweep --format svg` (issue 34 §3:
# "an SVG plot"; docs/cli.md "sweep"): one <circle class="design"> per
# design, the front's points exactly the designs the CSV marks pareto=yes,
# joined by the front's polyline in order of x; positions monotone with the
# figures (x right with the price, y up with the busbw); valid XML; text
# escaped. Figures of tests/cli/sweep.sh (the hand-count catalogue).
. "$(dirname "$0")/lib.bash"
need_tool xmllint
CAT=$FL_SRC/tests/fixtures/bom/hand-count.yaml
G=(rail-su --sus 2 --rails 2 --hosts-per-su 4 --leaf-radix 8 --layout)
cat >"$TMP/wl.yaml" <<'EOT'
hosts: all
collectives:
  - {op: all-to-all, bytes: 1GiB, name: experts}
EOT
V=(--vary spines=2,4 --vary sus=1,2)
expect_rc 0 "$FL" sweep --format csv --catalogue "$CAT" --workload "$TMP/wl.yaml" "${V[@]}" -- "${G[@]}"
cp "$TMP/out" "$TMP/s.csv"
expect_rc 0 "$FL" sweep --format svg --catalogue "$CAT" --workload "$TMP/wl.yaml" "${V[@]}" -- "${G[@]}"
cp "$TMP/out" "$TMP/s.svg"
xmllint --noout "$TMP/s.svg" 2>"$TMP/lint" && pass || fail "xmllint: $(head -3 "$TMP/lint")"
# the plot's points and the CSV's rows, read back
cat >"$TMP/read.py" <<'PY'
import csv, json, sys
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
pts = [c for c in root.iter(NS + "circle") if "design" in c.get("class", "").split()]
rows = list(csv.DictReader(open(sys.argv[2]))) if len(sys.argv) > 2 else []
line = [tuple(map(float, p.split(","))) for p in root.find(".//" + NS + "polyline[@class='front']").get("points").split()]
P = [dict(k=int(c.get("data-design")), x=float(c.get("data-x")), y=float(c.get("data-y")),
          cx=float(c.get("cx")), cy=float(c.get("cy")), front="front" in c.get("class").split(),
          title=c.find(NS + "title").text) for c in pts]
def mono(key, pos, sign):
    for a in P:
        for b in P:
            if a[key] < b[key] - 1e-9 and not sign * (b[pos] - a[pos]) > 0: return False
            if abs(a[key] - b[key]) < 1e-9 and abs(a[pos] - b[pos]) > 1e-6: return False
    return True
json.dump(dict(n=len(P), rows=len(rows),
               front=sorted(p["k"] for p in P if p["front"]),
               csv_front=sorted(int(r["design"]) for r in rows if r["pareto"] == "yes"),
               xy=sorted((p["k"], p["x"], p["y"]) for p in P),
               csv_xy=sorted((int(r["design"]), float(r["price"]), float(r[[k for k in r if k.startswith("busbw")][0]])) for r in rows) if rows else [],
               mono_x=mono("x", "cx", 1), mono_y=mono("y", "cy", -1),
               line=line, line_pts=sorted(((p["cx"], p["cy"]) for p in P if p["front"]), key=lambda t: (t[0], -t[1])),
               titles=[p["title"] for p in sorted(P, key=lambda p: p["k"])],
               title=root.find(NS + "title").text,
               labels=[t.text for t in root.iter(NS + "text") if t.get("class") in ("x-label", "y-label")],
               xticks=len([t for t in root.find(".//" + NS + "g[@class='x-ticks']").iter(NS + "text")]),
               yticks=len([t for t in root.find(".//" + NS + "g[@class='y-ticks']").iter(NS + "text")])),
          open(sys.argv[3] if len(sys.argv) > 3 else "/dev/stdout", "w"))
PY
python3 "$TMP/read.py" "$TMP/s.svg" "$TMP/s.csv" "$TMP/s.json" || fail "read the plot"
R() { jget "$TMP/s.json" "$1"; }
expect_eq "$(R "=(d['n'], d['rows'])")" "(4, 4)" "a point per design"
expect_eq "$(R "['csv_front']")" "[1, 2]" "the CSV's front: 4 spines dearer, no better"
expect_eq "$(R "['front']")" "$(R "['csv_front']")" "the plot's front is the CSV's"
expect_eq "$(R "=d['xy'] == d['csv_xy']")" True "x = price, y = busbw, as the CSV"
expect_eq "$(R "=[p[1] for p in d['xy']]")" "[150.0, 272.0, 170.0, 292.0]" "the prices (tests/cli/sweep.sh)"
expect_eq "$(R "=(d['mono_x'], d['mono_y'])")" "(True, True)" "monotone: right with the price, up with the busbw"
expect_eq "$(R "=[tuple(p) for p in d['line']] == [tuple(p) for p in d['line_pts']]")" True "the front joined in order of x"
expect_eq "$(R "['titles']")" "['spines=2 sus=1', 'spines=2 sus=2', 'spines=4 sus=1', 'spines=4 sus=2']" "each point labelled with its values"
expect_eq "$(R "['labels']")" "['price (catalogue units)', 'busbw (GB/s), all-to-all \"experts\"']" "axis labels"
expect_eq "$(R "=(d['xticks'] >= 3, d['yticks'] >= 3)")" "(True, True)" "ticks on both axes"
expect_eq "$(R "['title']")" "fabriclint sweep: 4 designs, the Pareto front marked" "title"

# without a catalogue or workload: switches against eBB
expect_rc 0 "$FL" sweep --format svg --vary spines=2,4 -- "${G[@]}"
cp "$TMP/out" "$TMP/n.svg"
python3 "$TMP/read.py" "$TMP/n.svg" /dev/null "$TMP/n.json" 2>/dev/null || fail "read the plot (no catalogue)"
expect_eq "$(jget "$TMP/n.json" "=([tuple(p) for p in d['xy']], d['labels'])")" "([(1, 6.0, 1.0), (2, 8.0, 1.0)], ['switches', 'eBB (effective bisection bandwidth)'])" "switches and eBB"
expect_eq "$(jget "$TMP/n.json" "['front']")" "[1]" "6 switches, the same eBB: the front"

# text escaped: a value with XML's specials (a host prefix)
expect_rc 0 "$FL" sweep --format svg --vary 'host-prefix=a<b&c,d' -- "${G[@]}"
xmllint --noout "$TMP/out" 2>"$TMP/lint" && pass || fail "xmllint (escaped): $(head -3 "$TMP/lint")"
expect_grep "$TMP/out" 'host-prefix=a&lt;b&amp;c'
finish
