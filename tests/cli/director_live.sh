#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/director_live.sh — the director pair of fabrics/director/ is what
# the real tools produce today: make_net.py writes the committed net files
# byte for byte, ibsim + ibnetdiscover (fabrics/director/regen.sh with
# OUT=<tmp>) capture the committed dumps again (all but the date line), and
# the live capture diffs against the hand-written NDT with no finding (the
# miswired one with exactly one diff.misconnected).
# Skips (exit 77) when ibsim-utils or infiniband-diags are not installed.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
d=$src/fabrics/director
for tool in ibsim ibsim-run ibnetdiscover python3; do
  if ! command -v "$tool" >/dev/null; then
    echo "director_live: SKIP: $tool not installed (apt install ibsim-utils infiniband-diags)"
    exit 77
  fi
done
expect_rc 0 env OUT="$TMP" bash "$d/regen.sh"
for f in director director-miswired; do
  cmp -s "$TMP/$f.net" "$d/$f.net" && pass || fail "make_net.py no longer writes $f.net"
  diff <(sed '/^# Topology file: generated on/d' "$d/$f.ibnetdiscover") \
    <(sed '/^# Topology file: generated on/d' "$TMP/$f.ibnetdiscover") >"$TMP/d" &&
    pass || { fail "live capture of $f.net differs from the committed dump"; head "$TMP/d" >&2; }
done
expect_rc 0 "$FL" diff "$d/ndt" "$TMP/director.ibnetdiscover"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info; '
expect_rc 1 "$FL" diff --format json "$d/ndt" "$TMP/director-miswired.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=' '.join(f['rule'] for f in d['findings'])")" diff.misconnected "findings"
finish
