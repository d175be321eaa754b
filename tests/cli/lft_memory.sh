#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/lft_memory.sh — the peak memory of loading a large LFT dump does
# not grow with the file (issue 33: a 465 MB opensm-lfts.dump, mapped whole
# and checked for NUL bytes in a pass of its own, kept every page resident:
# 465 MiB peak; the routing line reader now gives the pages behind it back,
# docs/performance.md "LFT reader memory").
#
# Input: the real OpenSM dump of tests/fixtures/routing/fat-tree-3tier-ftree
# followed by 20 blocks of 49,151 LIDs each for switches the topology lacks
# (written here: 72 MiB; the loader reads every line and skips each such
# block with one deadlock.routing-input warning), so the other findings are
# the fixture's own.
# Bound (docs/performance.md): the peak RSS of the large run may exceed the
# small run's by at most 16 MiB (the reader gives pages back every 4 MiB);
# before the fix it exceeded it by the file's size. Label slow (ctest -L slow).
. "$(dirname "$0")/lib.bash"

FX=$FL_SRC/tests/fixtures/routing/fat-tree-3tier-ftree
TOPO=$FX/topology.ibnetdiscover
BIG=$TMP/big-lfts.dump
BLOCKS=20
cp "$FX/opensm-lfts.dump" "$BIG"
awk -v blocks=$BLOCKS 'BEGIN {
  for (b = 1; b <= blocks; b++) {
    printf "Unicast lids [0-49151] of switch Lid %d guid 0x00ff0000000000%02x (\x27absent-%02d\x27):\n", 40000 + b, b, b
    for (l = 1; l <= 49151; l++)
      printf "0x%04x %03d # Channel Adapter portguid 0x00ee0000%08x: \x27host%05d mlx5_0\x27\n", l, 1 + l % 36, l, l
    print "49151 lids dumped"
  }
}' >>"$BIG"
size=$(stat -c %s "$BIG")
expect_eq "$([ "$size" -ge $((64 << 20)) ] && echo big)" big "generated dump of $size bytes, at least 64 MiB"

# peak RSS (KiB) from check -v's last line: "peak memory X MiB (ru_maxrss N KiB)"
peak() { sed -nE 's/^fabriclint: peak memory [0-9.]+ MiB \(ru_maxrss ([0-9]+) KiB\)$/\1/p' "$1"; }

expect_rc 0 "$FL" check -v --rules 'deadlock.*' --format json "$TOPO" "$FX/opensm-lfts.dump"
cp "$TMP/out" "$TMP/small.json"
small=$(peak "$TMP/err")
"$FL" check -v --rules 'deadlock.*' --format json "$TOPO" "$BIG" >"$TMP/out" 2>"$TMP/err"
expect_eq "$?" 0 "exit status with the padding (warnings only)"
large=$(peak "$TMP/err")
# the fixture's findings, and one deadlock.routing-input warning per absent
# switch (the loader skips its block)
expect_eq "$(jget "$TMP/out" "=[f['message'] for f in d['findings'] if f['rule'] != 'deadlock.routing-input']")" \
  "$(jget "$TMP/small.json" "=[f['message'] for f in d['findings']]")" "findings with and without the padding"
expect_eq "$(jget "$TMP/out" "=[f['evidence']['dependencies'] for f in d['findings'] if f['rule'] == 'deadlock.verdict']")" \
  "[48]" "credit-loop dependencies"
expect_eq "$(jget "$TMP/out" "=sum(1 for f in d['findings'] if f['rule'] == 'deadlock.routing-input' and 'which the topology lacks' in f['message'])")" \
  "$BLOCKS" "one warning per absent switch"

if [ -n "${ASAN_OPTIONS:-}" ]; then
  # shadow memory and the leak checker make ru_maxrss meaningless here
  echo "SKIP (one check): peak memory ${small:-?} / ${large:-?} KiB not comparable under AddressSanitizer"
else
  expect_eq "$([ -n "$small" ] && [ -n "$large" ] && [ $((large - small)) -le $((16 << 10)) ] && echo bounded)" \
    bounded "peak memory ${large:-?} KiB on the ${size}-byte dump vs ${small:-?} KiB on the fixture (at most 16 MiB more)"
fi
echo "peak memory: ${small:-?} KiB (fixture), ${large:-?} KiB (${size}-byte dump)"
finish
