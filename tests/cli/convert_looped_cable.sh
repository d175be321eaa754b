#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/convert_looped_cable.sh — a looped cable (a port cabled to
# another port of its own switch, or to itself) survives `convert` to DOT
# and GraphML and reads back identically (issue #32, found by
# fuzz_convert_rt: the DOT and GraphML readers refused a port joined to
# itself that their writers wrote). tests/data/formats/looped-cables.ndt:
# sw2 port 2 <-> port 3 and sw2 port 4 <-> port 4, among two other cables.
# Both ways round: NDT -> DOT/GraphML -> design XML, and DOT <-> GraphML.
# The one-cable-per-port writers (ibsim, ibnetdiscover) refuse it, naming
# the port.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
ndt=$src/tests/data/formats/looped-cables.ndt

links() { grep -o '<link a="[^"]*" a-port="[0-9]*" b="[^"]*" b-port="[0-9]*"' "$1"; }

expect_rc 0 "$FL" convert "$ndt" -o "$TMP/ref.xml"
expect_eq "$(links "$TMP/ref.xml" | wc -l)" 4 "cables in the NDT"
for fmt in dot graphml; do
  expect_rc 0 "$FL" convert "$ndt" -o "$TMP/loop.$fmt"
  expect_rc 0 "$FL" convert "$TMP/loop.$fmt" -o "$TMP/back-$fmt.xml"
  expect_eq "$(links "$TMP/back-$fmt.xml")" "$(links "$TMP/ref.xml")" "$fmt: cables read back"
  expect_grep "$TMP/back-$fmt.xml" '<link a="sw2" a-port="4" b="sw2" b-port="4"'
  expect_grep "$TMP/back-$fmt.xml" '<link a="sw2" a-port="2" b="sw2" b-port="3"'
  # the fault stays visible: one warning per looped cable
  expect_rc 0 "$FL" check --format json "$TMP/loop.$fmt"
  expect_eq "$(jget "$TMP/out" "=sorted((f['rule'], tuple(p['port'] for p in f['ports'])) for f in d['findings'])")" \
    "[('topology.self-loop', (2, 3)), ('topology.self-loop', (4, 4))]" "$fmt: findings"
done
# DOT -> GraphML -> DOT and GraphML -> DOT -> GraphML: byte-identical
expect_rc 0 "$FL" convert "$TMP/loop.dot" -o "$TMP/d2g.graphml"
expect_rc 0 "$FL" convert "$TMP/d2g.graphml" -o "$TMP/d2g2d.dot"
expect_rc 0 cmp "$TMP/loop.dot" "$TMP/d2g2d.dot"
expect_rc 0 "$FL" convert "$TMP/loop.graphml" -o "$TMP/g2d.dot"
expect_rc 0 "$FL" convert "$TMP/g2d.dot" -o "$TMP/g2d2g.graphml"
expect_rc 0 cmp "$TMP/loop.graphml" "$TMP/g2d2g.graphml"
# one cable per port: refused, naming the looped port, nothing written
for fmt in net ibnetdiscover; do
  expect_rc 2 "$FL" convert "$TMP/loop.dot" -o "$TMP/one.$fmt"
  expect_grep "$TMP/err" 'cannot say port 4 of "sw2": it has a cable looped onto itself'
  [ -e "$TMP/one.$fmt" ] && fail "$fmt: a file was written" || pass
done
finish
