#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/pictures_chromium.sh — the HTML report in a real browser
# (issue 15): headless Chromium (Debian `chromium`) opens the report of
# fabrics/rail-su-asbuilt.ibnetdiscover (crossed pair at dgx-001, one 1x
# cable), takes a screenshot that must not be blank and must show the
# error colour of the crossed pair, and dumps the page after its script
# ran: the findings table holds exactly the two findings of the run (four
# consequences folded under the degraded cable), the
# filter and sort given in the address work. SKIP (77) without chromium.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
need_chromium
asb=$src/fabrics/rail-su-asbuilt.ibnetdiscover
html=$TMP/report.html

expect_rc 1 "$FL" check --format html --view tiers,rails --output "$html" "$asb"

# ---- screenshot: not blank, the crossed pair in red ---------------------------
chrome "file://$html" --window-size=1400,1800 --screenshot="$TMP/shot.png" >/dev/null
if [ ! -s "$TMP/shot.png" ]; then
  fail "no screenshot"; sed 's/^/  chrome: /' "$TMP/chrome.err" | tail -5 >&2
else
  read -r w h nonwhite colours < <(python3 "$src/tests/cli/pngstat.py" "$TMP/shot.png" | sed -n 1p)
  red=$(python3 "$src/tests/cli/pngstat.py" "$TMP/shot.png" '#d62728' | sed -n 2p | cut -d' ' -f2)
  expect_eq "$w x $h" "1400 x 1800" "screenshot size"
  [ "$nonwhite" -ge 20 ] && pass || fail "screenshot nearly blank: $nonwhite per mille not white"
  [ "$colours" -ge 50 ] && pass || fail "screenshot has only $colours colours"
  [ "$red" -ge 200 ] && pass || fail "screenshot shows $red pixels of the error red (want >= 200)"
fi

# ---- the page after its script: the findings table -------------------------------
rows() { # URL -> one line per table row: "shown|hidden severity rule"
  chrome "$1" --dump-dom > "$TMP/dom.html"
  python3 - "$TMP/dom.html" <<'EOF'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.shown, self.in_shown = [], "", False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "data-f" in a:
            self.rows.append(("hidden" if "hidden" in a else "shown") + " " +
                             a["data-sev"] + " " + a["data-rule"])
        self.in_shown = a.get("id") == "filter-shown"
    def handle_data(self, d):
        if self.in_shown:
            self.shown += d
    def handle_endtag(self, tag):
        self.in_shown = False
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
print("\n".join(p.rows))
print("counter: " + p.shown)
EOF
}
# one cause, one row: the 1x cable's four ecmp-balance consequences sit
# folded under topology.degraded-link (host/roots.h), listed in the row
all="shown error rail-alignment.swapped
shown warning topology.degraded-link"
expect_eq "$(rows "file://$html")" "$all
counter: 2 of 2 shown" "table: the run's two findings, the script ran"
expect_eq "$(grep -o '<li><span class="sev-warning">warning</span>' "$TMP/dom.html" | wc -l)" 4 \
  "the four consequences listed under the degraded link"
expect_eq "$(grep -o 'data-related="[0-9]*"' "$TMP/dom.html")" 'data-related="4"' \
  "one row carries consequences"
# the same rows as the JSON report of the same run
"$FL" check --format json "$asb" > "$TMP/run.json"
expect_eq "$(jget "$TMP/run.json" "='\n'.join('shown %s %s' % (f['severity'], f['rule']) for f in d['findings'])")" \
  "$all" "table = JSON findings"
expect_eq "$(jget "$TMP/run.json" "=len(d['findings'][1].get('related', []))")" 4 "JSON: four related"
expect_eq "$(rows "file://$html#rule=rail-alignment.*")" "shown error rail-alignment.swapped
hidden warning topology.degraded-link
counter: 1 of 2 shown" "filter by rule glob"
# a filter by a consequence's rule shows the row of its cause
expect_eq "$(rows "file://$html#rule=ecmp-balance.oversubscription")" "hidden error rail-alignment.swapped
shown warning topology.degraded-link
counter: 1 of 2 shown" "filter by a consequence's rule finds its cause"
expect_eq "$(rows "file://$html#severity=error" | sed -n \$p)" "counter: 1 of 2 shown" "filter by severity"
expect_eq "$(rows "file://$html#q=leaf-su01-r2" | sed -n \$p)" "counter: 1 of 2 shown" "filter by text"
expect_eq "$(rows "file://$html#q=leaf-su01-r" | sed -n \$p)" "counter: 2 of 2 shown" "filter by text, both rows"
# text inside a consequence finds its row (the 1x cable's group is only there)
expect_eq "$(rows "file://$html#q=oversubscri" | sed -n \$p)" "counter: 1 of 2 shown" "filter by a consequence's text"
expect_eq "$(rows "file://$html#sort=-rule" | sed -n 1,2p)" "shown warning topology.degraded-link
shown error rail-alignment.swapped" "sort by rule, descending"
expect_eq "$(rows "file://$html#sort=rule" | sed -n 1p)" "shown error rail-alignment.swapped" "sort by rule"
finish
