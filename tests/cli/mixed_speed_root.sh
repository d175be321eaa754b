#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/mixed_speed_root.sh — one cable off its tier pair's speed is the
# root of what the ECMP rules find because of it (outside tester, session
# 11: one 4xDDR leaf-spine cable among 48 at 4xEDR gave five findings and
# none said "this cable"). topology.mixed-speed leads, the consequences
# (mixed next-hop set, the leaf's capacity) are attached under it; with two
# such cables (on two leaves) nothing is rooted: each rule reports as before.
# A `fabriclint gen` fat tree (radix 8), leaf-spine cables set to HDR.
. "$(dirname "$0")/lib.bash"
"$FL" gen fat-tree --radix 8 --hosts 16 -o "$TMP/ft.xml"
# slow FILE LEAF... — FILE with each LEAF's first uplink at HDR
slow() {
  python3 - "$@" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
for leaf in sys.argv[2:]:
    m = re.search(r'<link a="%s" a-port="5" b="spine[^>]*>' % re.escape(leaf), s)
    s = s.replace(m.group(0), m.group(0).replace('speed="NDR"', 'speed="HDR"'), 1)
sys.stdout.write(s)
PY
}
slow "$TMP/ft.xml" leaf-p01-01 >"$TMP/one.xml"
expect_rc 0 "$FL" check --format json "$TMP/one.xml"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['severity'], sorted(r['rule'] for r in f.get('related', []))) for f in d['findings'] if f['severity'] != 'info']")" \
  "[('topology.mixed-speed', 'warning', ['ecmp-balance.mixed-speed-group', 'ecmp-balance.oversubscription', 'ecmp-balance.uplink-asymmetry'])]" \
  "one cable at HDR: one finding, its consequences attached"
slow "$TMP/ft.xml" leaf-p01-01 leaf-p01-02 >"$TMP/two.xml"
expect_rc 0 "$FL" check --format json "$TMP/two.xml"
expect_eq "$(jget "$TMP/out" "=sorted(set(f['rule'] for f in d['findings'] if f['severity'] != 'info'))")" \
  "['ecmp-balance.mixed-speed-group', 'ecmp-balance.oversubscription', 'topology.mixed-speed']" \
  "two cables at HDR: not one cable's doing, nothing rooted at mixed-speed"
expect_eq "$(jget "$TMP/out" "=[len(f.get('related', [])) for f in d['findings'] if f['rule'] == 'topology.mixed-speed']")" "[0]" \
  "two cables: mixed-speed has no consequences attached"
finish
