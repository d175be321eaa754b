#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/compare_html.sh — `fabriclint compare --format html` (issue 34
# §1: "HTML with the pictures of both"; docs/cli.md "compare"): one page
# that parses, two inline <svg> pictures (the tiers view of each plan,
# element ids prefixed base- and head-) each with its plan's switches, the
# summary table with the Markdown table's figures (those of the JSON), and
# text from the inputs escaped. Plans of tests/cli/compare_lib.bash:
# base.xml (6 switches, 16 HCAs, 32 cables) and over.xml (8 uplinks fewer).
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/compare_lib.bash"
cmp_plans || { fail "gen"; finish; }
expect_rc 1 "$FL" compare --format json "$TMP/base.xml" "$TMP/over.xml"
cp "$TMP/out" "$TMP/m.json"
expect_rc 1 "$FL" compare --format markdown "$TMP/base.xml" "$TMP/over.xml"
cp "$TMP/out" "$TMP/m.md"
expect_rc 1 "$FL" compare --format html -o "$TMP/page.html" "$TMP/base.xml" "$TMP/over.xml"
expect_eq "$(cat "$TMP/err")" "" "nothing on stderr"

# the page: parsed by html.parser, every tag closed in order (void
# elements apart), its pictures, captions and table read back
cat >"$TMP/read.py" <<'PY'
import html.parser, json, re, sys
VOID = {"meta", "br", "input", "img", "hr", "link"}
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(convert_charrefs=True)
        s.stack, s.bad, s.svgs, s.ids, s.rows, s.cell, s.caps = [], [], [], [], [], None, {}
        s.fig, s.in_table, s.span = None, False, None
    def handle_starttag(s, t, a):
        a = dict(a)
        if t not in VOID:
            s.stack.append(t)
        if t == "svg": s.svgs.append(s.fig)
        if "id" in a: s.ids.append(a["id"])
        if t == "figure": s.fig = a.get("id")
        if t == "tr" and s.in_table: s.rows.append([])
        if t in ("td", "th") and s.rows and s.in_table: s.cell = ""
        if t == "span" and s.fig and a.get("class") in ("switches", "cas", "cables"): s.span = a["class"]; s.cell_span = ""
    def handle_startendtag(s, t, a):
        a = dict(a)
        if "id" in a: s.ids.append(a["id"])
    def handle_endtag(s, t):
        if t in VOID: return
        if not s.stack or s.stack[-1] != t: s.bad.append((t, list(s.stack[-3:]))); return
        s.stack.pop()
        if t in ("td", "th") and s.cell is not None: s.rows[-1].append(s.cell.strip()); s.cell = None
        if t == "figure": s.fig = None
        if t == "span" and s.span: s.caps[(s.fig, s.span)] = int(s.cell_span); s.span = None
    def handle_data(s, d):
        if s.cell is not None: s.cell += d
        if s.span: s.cell_span += d
p = P()
src = open(sys.argv[1]).read()
# the summary table: mark it by its class (one table of class compare)
i = src.index('<table class="compare">'); j = src.index("</table>", i)
p.feed(src[:i]); p.in_table = True; p.feed(src[i:j]); p.in_table = False; p.feed(src[j:]); p.close()
out = {"unclosed": p.stack, "bad": p.bad[:3], "svgs": p.svgs, "caps": sorted(p.caps.items()),
       "dup_ids": sorted({x for x in p.ids if p.ids.count(x) > 1})[:3],
       "nodes": {side: sorted(x[len(side) + 12:] for x in p.ids if x.startswith(side + "-tiers-node-")) for side in ("base", "head")},
       "rows": [r for r in p.rows if len(r) == 4 and r[0]]}
json.dump(out, open(sys.argv[2], "w"))
PY
python3 "$TMP/read.py" "$TMP/page.html" "$TMP/page.json" || fail "html.parser"
P() { jget "$TMP/page.json" "$1"; }
expect_eq "$(P "=(d['unclosed'], d['bad'], d['dup_ids'])")" "([], [], [])" "well formed, ids unique"
expect_eq "$(P "['svgs']")" "['base', 'head']" "two pictures: BASE's and HEAD's"
expect_eq "$(P "['caps']")" "[[['base', 'cables'], 32], [['base', 'cas'], 16], [['base', 'switches'], 6], [['head', 'cables'], 24], [['head', 'cas'], 16], [['head', 'switches'], 6]]" "captions: each plan's counts"
# the switches drawn in each picture: 4 leaves and 2 spines each
expect_eq "$(P "=[len([n for n in d['nodes'][s] if n.startswith(('leaf-', 'spine-'))]) for s in ('base', 'head')]")" "[6, 6]" "6 switches drawn in each"
# the table: the Markdown table's rows, cell by cell
python3 - "$TMP/m.md" "$TMP/page.json" >"$TMP/same.out" <<'PY'
import json, re, sys, html
md = []
for l in open(sys.argv[1]):
    c = [x.strip() for x in l.strip().strip("|").split("|")]
    if l.startswith("| ") and len(c) == 4 and c[0] and any(c[1:]):
        md.append([html.unescape(c[0]).replace("\xa0", "").replace("\\", "").strip("*")] + c[1:])
page = [[r[0].replace("\xa0", "")] + r[1:] for r in json.load(open(sys.argv[2]))["rows"]]
md = [r for r in md if r[0] != ""]
print("same" if md == page else "differ:\n%s\n%s" % (md, page))
PY
expect_eq "$(head -1 "$TMP/same.out")" same "the Markdown table's rows"
expect_eq "$(P "=[r for r in d['rows'] if r[0] == 'cables']")" "[['cables', '32', '24', '-8']]" "cables as the JSON: $(jget "$TMP/m.json" "=[d[s]['inventory']['cables'] for s in ('base', 'head')]")"
expect_eq "$(P "=[r[1:] for r in d['rows'] if r[0] == 'oversubscription tier 1']")" "[['1', '2', '+1']]" "oversubscription"
expect_eq "$(P "=[r[1:] for r in d['rows'] if r[0] == 'LIDs needed, largest subnet']")" "[['22', '22', '0']]" "LIDs"
expect_grep "$TMP/page.html" '<li class="sev-error"><b>FAIL</b> <code>new-error</code>'

# each picture drawn from its own plan: 6 switches in BASE, 10 in su3.xml
expect_rc 0 "$FL" compare --format html "$TMP/base.xml" "$TMP/su3.xml"
cp "$TMP/out" "$TMP/su3.html"
python3 "$TMP/read.py" "$TMP/su3.html" "$TMP/su3.json" || fail "html.parser (su3)"
expect_eq "$(jget "$TMP/su3.json" "=[len([n for n in d['nodes'][s] if n.startswith(('leaf-', 'spine-'))]) for s in ('base', 'head')]")" "[6, 10]" "BASE's 6 switches, HEAD's 10"
expect_eq "$(jget "$TMP/su3.json" "=[r[1:] for r in d['rows'] if r[0] == 'LIDs needed, largest subnet']")" "[['22', '34', '+12']]" "LIDs 22 -> 34"

# text from the inputs escaped: a switch named with HTML's specials
sed 's/spine-02/sp\&amp;ine\&lt;02\&gt;/g' "$TMP/base.xml" >"$TMP/esc.xml"
expect_rc 0 "$FL" compare --format html "$TMP/base.xml" "$TMP/esc.xml"
cp "$TMP/out" "$TMP/esc.html"
python3 "$TMP/read.py" "$TMP/esc.html" "$TMP/esc.json" || fail "html.parser (escaped)"
expect_eq "$(jget "$TMP/esc.json" "=(d['unclosed'], d['bad'], d['svgs'])")" "([], [], ['base', 'head'])" "escaped: still well formed"
expect_eq "$(grep -c 'sp&ine<02' "$TMP/esc.html")" 0 "no raw name"
# xmllint's HTML parser, when installed, reads it without an error
if command -v xmllint >/dev/null; then
  xmllint --html --noout "$TMP/page.html" 2>"$TMP/lint" && pass || fail "xmllint --html: $(head -3 "$TMP/lint")"
fi
finish
