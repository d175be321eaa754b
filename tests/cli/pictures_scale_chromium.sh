#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/pictures_scale_chromium.sh — the tiers pictures of 1, 4 and 16
# SUs (issue 36; the geometry is tests/cli/pictures_scale.sh) in a real
# browser: headless Chromium shows the three fitted into three canvases of
# 665 x 324 px, one screenshot; each band's drawing must span at least
# 300 x 200 px (not a thin strip in a mostly blank canvas). SKIP (77)
# without chromium. Label tools: the browser's time, not fabriclint's;
# the pictures are drawn under the sanitizers by pictures_scale.sh.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
need_chromium
for n in 1 4 16; do
  t=""
  [ "$n" = 16 ] && t="--tiers 3"
  # shellcheck disable=SC2086
  "$FL" gen rail-su --sus "$n" $t -o "$TMP/su$n.xml" || fail "gen $n SUs"
  expect_rc 0 "$FL" check --format svg --view tiers --output "$TMP/su$n-tiers.svg" "$TMP/su$n.xml"
done
{
  echo '<html><body style="margin:0;background:#fff">'
  for n in 1 4 16; do
    echo "<div style=\"width:665px;height:324px\"><img src=\"file://$TMP/su$n-tiers.svg\" style=\"width:100%;height:100%;display:block\"></div>"
  done
  echo '</body></html>'
} >"$TMP/three.html"
chrome "file://$TMP/three.html" --window-size=665,972 --screenshot="$TMP/three.png" >/dev/null
if [ ! -s "$TMP/three.png" ]; then
  fail "no screenshot"
  sed 's/^/  chrome: /' "$TMP/chrome.err" | tail -5 >&2
else
  python3 "$src/tests/cli/pngstat.py" --bands 3 "$TMP/three.png" >"$TMP/bands"
  i=0
  for n in 1 4 16; do
    i=$((i + 1))
    read -r _ k x0 y0 x1 y1 < <(sed -n "${i}p" "$TMP/bands")
    [ "$k" = "$i" ] && [ "$x0" != none ] && [ $((x1 - x0)) -ge 300 ] && [ $((y1 - y0)) -ge 200 ] && pass ||
      fail "$n SUs: the drawing spans $x0..$x1 x $y0..$y1 of 665 x 324 px (want >= 300 x 200)"
  done
fi
finish
