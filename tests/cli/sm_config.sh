#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/sm_config.sh — `check --sm-config opensm.conf` (issue 36,
# docs/cli.md "The subnet manager's configuration"): the SM's routing
# engine, LMC and AR SL mask become the rules' parameter defaults, below
# --param; OpenSM's default engine ((null)) is minhop; a chain's first
# engine is modelled; an engine not modelled is a note; bad values are
# refused with file:line:col. The file is OpenSM's own default
# (tests/fixtures/opensm, written by `opensm --create-config`), edited
# with sed as an administrator would.
. "$(dirname "$0")/lib.bash"
DEF="$FL_SRC/tests/fixtures/opensm/opensm-3.3.23-default.conf"
"$FL" gen torus --x 4 --y 4 -o "$TMP/torus.xml" || fail "gen torus"
conf() { sed "s/^$1 .*/$1 $2/" "$DEF" >"$TMP/osm.conf"; }
loop() { jget "$TMP/out" "=[(f['rule'], f['severity']) for f in d['findings']]"; }
run() { expect_rc "$1" "$FL" check --rules deadlock.credit-loop --format json --sm-config "$TMP/osm.conf" "${@:2}" "$TMP/torus.xml"; }

# OpenSM's defaults: routing_engine (null) is minhop, under which a torus
# loops: an error (the engine the site runs, not a guess), and lmc 0
cp "$DEF" "$TMP/osm.conf"
expect_rc 1 "$FL" check -v --rules deadlock.credit-loop --sm-config "$TMP/osm.conf" "$TMP/torus.xml"
expect_grep "$TMP/err" "^fabriclint: $TMP/osm.conf:228: routing_engine \\(null\\): deadlock.routing-engine=minhop \\(unless --param or --policy sets it\\)$"
expect_grep "$TMP/err" "^fabriclint: $TMP/osm.conf:37: lmc 0: topology.lid-space.lmc=0 \(unless --param or --policy sets it\)$"
expect_grep "$TMP/out" 'error: credit loop \(VL-blind: modelled minhop routing, no LFTs loaded; engine named by routing-engine=minhop\)'
# without the file the same loop is a warning (a model the user did not name)
expect_rc 0 "$FL" check --rules deadlock.credit-loop --format json "$TMP/torus.xml"
expect_eq "$(loop)" "[('deadlock.credit-loop', 'warning')]" "no SM config: a warning"
# updn: no loop of its own, minhop's is the warning
conf routing_engine updn
run 0
expect_eq "$(loop)" "[('deadlock.credit-loop', 'warning')]" "updn"
expect_eq "$(jget "$TMP/out" "=d['findings'][0]['message'].split(':')[0]")" "no LFTs loaded" "updn: no loop of its own"
# a chain: the first engine, and -v says so
conf routing_engine ftree,updn
expect_rc 0 "$FL" check -v --rules deadlock.credit-loop --sm-config "$TMP/osm.conf" "$TMP/torus.xml"
expect_grep "$TMP/err" 'routing_engine ftree,updn: deadlock.routing-engine=ftree \(unless --param or --policy sets it\) \(OpenSM falls back to the next engine of the chain when it fails; the model takes the first\)$'
# --param wins over the file, either spelling
conf routing_engine minhop
run 0 --param deadlock.credit-loop.routing-engine=updn
expect_eq "$(loop)" "[('deadlock.credit-loop', 'warning')]" "--param over the file (rule)"
run 0 --param deadlock.routing-engine=updn
expect_eq "$(loop)" "[('deadlock.credit-loop', 'warning')]" "--param over the file (plugin)"
run 1
expect_eq "$(loop)" "[('deadlock.credit-loop', 'error')]" "minhop from the file"
# the last line of a key wins, as OpenSM reads its file
{ cat "$DEF"; echo "routing_engine updn"; } | sed 's/^routing_engine (null)/routing_engine minhop/' >"$TMP/osm.conf"
run 0
expect_eq "$(loop)" "[('deadlock.credit-loop', 'warning')]" "last line wins"
# an engine not modelled: a note, and the parameter's own choice
conf routing_engine lash
run 0
expect_grep "$TMP/err" "^fabriclint: note: $TMP/osm.conf:228: routing_engine lash is not modelled \\(VL-based \\(layered shortest path\\)\\): design-mode credit loops are judged with the routing-engine parameter's own choice$"
expect_eq "$(loop)" "[('deadlock.credit-loop', 'warning')]" "lash: the shape's choice"

# LMC: 0 and 7 taken, 8 refused at its column; the LID space judged with it
conf lmc 7
expect_rc 0 "$FL" check -v --rules topology.lid-space --sm-config "$TMP/osm.conf" "$TMP/torus.xml"
expect_grep "$TMP/err" "lmc 7: topology.lid-space.lmc=7 \(unless --param or --policy sets it\)$"
for v in 8 -1 x ''; do
  conf lmc "$v"
  expect_rc 2 "$FL" check --sm-config "$TMP/osm.conf" "$TMP/torus.xml"
  expect_grep "$TMP/err" "^fabriclint: $TMP/osm.conf:37:5: lmc: expected 0 to 7, got '$v'$"
done
# NVIDIA's OpenSM: ar_sl_mask to adaptive-routing's sl-mask
{ cat "$DEF"; echo "ar_sl_mask 0x000F"; } >"$TMP/osm.conf"
expect_rc 0 "$FL" check -v --rules 'adaptive-routing.*' --sm-config "$TMP/osm.conf" "$TMP/torus.xml"
expect_grep "$TMP/err" 'ar_sl_mask 0x000F: adaptive-routing.sl-mask=0x000f \(unless --param or --policy sets it\)$'
{ cat "$DEF"; echo "ar_sl_mask 0x10000"; } >"$TMP/osm.conf"
expect_rc 2 "$FL" check --sm-config "$TMP/osm.conf" "$TMP/torus.xml"
expect_grep "$TMP/err" "osm.conf:666:12: ar_sl_mask: expected a 16-bit mask \\(0 to 0xffff, or 65535\\), got '0x10000'$"
# decimal as OpenSM reads it: 65535 taken, a bare ff is no number
{ cat "$DEF"; echo "ar_sl_mask 65535"; } >"$TMP/osm.conf"
expect_rc 0 "$FL" check -v --rules 'adaptive-routing.*' --sm-config "$TMP/osm.conf" "$TMP/torus.xml"
expect_grep "$TMP/err" 'ar_sl_mask 65535: adaptive-routing.sl-mask=0xffff '
{ cat "$DEF"; echo "ar_sl_mask ff"; } >"$TMP/osm.conf"
expect_rc 2 "$FL" check --sm-config "$TMP/osm.conf" "$TMP/torus.xml"
# one file only
expect_rc 2 "$FL" check --sm-config "$DEF" --sm-config "$DEF" "$TMP/torus.xml"
expect_grep "$TMP/err" "^fabriclint: --sm-config given twice \\('$DEF'\\): the subnet manager reads one configuration file$"
# an unknown engine, an empty one, an unreadable file
conf routing_engine bogus
expect_rc 2 "$FL" check --sm-config "$TMP/osm.conf" "$TMP/torus.xml"
expect_grep "$TMP/err" "osm.conf:228:16: routing_engine: expected an OpenSM engine \\(minhop, updn, dnup, file, ftree, lash, dor, torus-2QoS, nue, dfsssp, sssp\\) or \\(null\\), got 'bogus'$"
sed 's/^routing_engine .*/routing_engine/' "$DEF" >"$TMP/osm.conf"
expect_rc 2 "$FL" check --sm-config "$TMP/osm.conf" "$TMP/torus.xml"
expect_grep "$TMP/err" "routing_engine: expected an engine name or \\(null\\), got ''$"
expect_rc 2 "$FL" check --sm-config "$TMP/nonexistent.conf" "$TMP/torus.xml"
expect_grep "$TMP/err" 'nonexistent.conf'
# only check takes it
expect_rc 2 "$FL" info --sm-config "$DEF" "$TMP/torus.xml"
finish
