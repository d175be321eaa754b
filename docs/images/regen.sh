#!/bin/sh
# SPDX-License-Identifier: MIT
# docs/images/regen.sh — the screenshots of README.md and docs/pictures.md:
# each view of the example fabrics as fabriclint draws it, photographed by
# headless Chromium (Debian `chromium`). Run from anywhere after a build:
#   docs/images/regen.sh            # FL=/path/to/fabriclint for another build
# Inputs are the committed ibsim dumps (fabrics/, made by fabrics/regen.sh)
# and the rack side file of the tests; nothing here is drawn by hand.
set -eu
cd "$(dirname "$0")/../.."
FL=${FL:-build/fabriclint}
CHROMIUM=$(command -v chromium || command -v chromium-browser)
out=docs/images
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
asb=fabrics/rail-su-asbuilt.ibnetdiscover

# picture NAME fabriclint-args...: the SVG, then a PNG 1400 px wide
picture() {
  name=$1
  shift
  "$FL" "$@" >"$tmp/$name.svg" || [ $? -eq 1 ] # findings exit 1
  height=$(python3 - "$tmp/$name.svg" <<'PY'
import re, sys
vb = re.search(r'viewBox="([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)"', open(sys.argv[1]).read())
w, h = float(vb.group(3)), float(vb.group(4))
print(min(2600, int(1400 * h / w) + 8))
PY
)
  printf '<html><body style="margin:0;background:white"><img src="%s.svg" style="width:1400px"></body></html>\n' \
    "$name" >"$tmp/$name.html"
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$tmp/profile" --hide-scrollbars --window-size=1400,"$height" \
    --screenshot="$out/$name.png" "file://$tmp/$name.html" >/dev/null 2>&1
  echo "$out/$name.png: 1400 x $height"
}

picture tiers check --format svg "$asb"
picture rails check --format svg --view rails "$asb"
picture load check --format svg --view load "$asb"
picture domains check --format svg --view domains "$asb" \
  tests/fixtures/pictures/rail-su-racks.csv
picture diff diff --format svg fabrics/diff/rail-su8.design.xml \
  fabrics/diff/rail-su8.asbuilt.ibnetdiscover
"$FL" gen fat-tree --radix 16 --tiers 3 -o "$tmp/ft16.xml"
picture folded check --rules 'topology.*' --format svg "$tmp/ft16.xml"

# the HTML report as a reviewer opens it
"$FL" check --format html --view tiers,rails,load --output "$tmp/report.html" "$asb" ||
  [ $? -eq 1 ]
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
  --user-data-dir="$tmp/profile" --hide-scrollbars --window-size=1400,1600 \
  --screenshot="$out/report.png" "file://$tmp/report.html" >/dev/null 2>&1
echo "$out/report.png: 1400 x 1600"
