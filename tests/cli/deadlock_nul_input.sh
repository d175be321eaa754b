#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/deadlock_nul_input.sh — a NUL byte in a routing dump is refused at its
# line and column, as for every text input, now that the routing line reader
# finds it while it searches for line ends (core/io/routing_read.h rd_next,
# issue 33) instead of a pass of its own before the loader:
#   - a small dump (read into memory) and a dump of more than 1 MiB (mapped,
#     and read in 256 KiB pieces through its descriptor, RD_CHUNK);
#   - a NUL after a line the loader refuses: the NUL is still the error
#     (core/io/load.c checks a failed load whole), as when it was checked
#     first;
#   - an fdbs dump and an opensm-subnet.lst (the same reader);
#   - a dump whose last line has no newline: still "truncated", no NUL error.
. "$(dirname "$0")/lib.bash"

FX=$FL_SRC/tests/fixtures/routing/fat-tree-3tier-ftree
TOPO=$FX/topology.ibnetdiscover
# put_nul SRC DST OFFSET — SRC with the byte at OFFSET (0-based) made NUL
put_nul() {
  python3 -c 'import sys
b = bytearray(open(sys.argv[1], "rb").read()); b[int(sys.argv[3])] = 0
open(sys.argv[2], "wb").write(b)' "$1" "$2" "$3"
}
# The NUL at byte 5000 of the fixture's dump: line 76, column 48.
put_nul "$FX/opensm-lfts.dump" "$TMP/small.dump" 5000
expect_rc 2 "$FL" check --rules 'deadlock.*' "$TOPO" "$TMP/small.dump"
expect_grep "$TMP/err" "small\.dump:76:48: NUL byte"
cat "$TMP/small.dump" | expect_rc 2 "$FL" check --rules 'deadlock.*' "$TOPO" -
expect_grep "$TMP/err" "^fabriclint: -:76:48: NUL byte"

# The same dump with a bad line 4 ("junk") and the NUL further on (byte
# 9000: line 137, column 43): the NUL is the error, not line 4.
sed '4s/.*/junk/' "$FX/opensm-lfts.dump" >"$TMP/bad.dump"
expect_rc 2 "$FL" check --rules 'deadlock.*' "$TOPO" "$TMP/bad.dump"
expect_grep "$TMP/err" "bad\.dump:4:1: unrecognised line \"junk\""
put_nul "$TMP/bad.dump" "$TMP/bad-nul.dump" 9000
expect_rc 2 "$FL" check --rules 'deadlock.*' "$TOPO" "$TMP/bad-nul.dump"
expect_grep "$TMP/err" "bad-nul\.dump:137:43: NUL byte"

# More than 1 MiB (mapped): the fixture's dump, then 60,000 comment lines
# (1.5 MiB, the reader passes them), then the NUL in the last line.
{ cat "$FX/opensm-lfts.dump"; for ((i = 0; i < 60000; i++)); do echo "# padding line $i ......"; done; } >"$TMP/big.dump"
lines=$(wc -l <"$TMP/big.dump")
size=$(stat -c %s "$TMP/big.dump")
expect_eq "$([ "$size" -gt $((1 << 20)) ] && echo mapped)" mapped "padded dump of $size bytes, over 1 MiB"
expect_rc 0 "$FL" check --rules 'deadlock.*' "$TOPO" "$TMP/big.dump"
expect_grep "$TMP/out" "no credit loop \(32 channels, 48 dependencies"
put_nul "$TMP/big.dump" "$TMP/big-nul.dump" $((size - 3))
expect_rc 2 "$FL" check --rules 'deadlock.*' "$TOPO" "$TMP/big-nul.dump"
expect_grep "$TMP/err" "big-nul\.dump:$lines:[0-9]+: NUL byte"
# and after a bad line 4, far before it
sed '4s/.*/junk/' "$TMP/big-nul.dump" >"$TMP/big-bad-nul.dump"
expect_rc 2 "$FL" check --rules 'deadlock.*' "$TOPO" "$TMP/big-bad-nul.dump"
expect_grep "$TMP/err" "big-bad-nul\.dump:$lines:[0-9]+: NUL byte"

# fdbs and subnet.lst go through the same reader
put_nul "$FX/opensm.fdbs" "$TMP/nul.fdbs" 3000
expect_rc 2 "$FL" check --rules 'deadlock.*' "$TOPO" "$TMP/nul.fdbs"
expect_grep "$TMP/err" "nul\.fdbs:[0-9]+:[0-9]+: NUL byte"
put_nul "$FX/opensm-subnet.lst" "$TMP/nul.lst" 3000
expect_rc 2 "$FL" check --rules 'deadlock.*' "$TMP/nul.lst"
expect_grep "$TMP/err" "nul\.lst:[0-9]+:[0-9]+: NUL byte"

# a NUL byte after 2,000 comment lines (past the 64 KiB window format
# detection reads first): the NUL at its line and column, not
# "unrecognised format" (an outside tester's find); small and mapped
for pad in 2000 60000; do
  { for ((i = 0; i < pad; i++)); do echo "# comment line $i .........................."; done
    printf '# bad\0byte\n'; cat "$FX/opensm-lfts.dump"; } >"$TMP/late$pad.dump"
  expect_rc 2 "$FL" check --rules 'deadlock.*' "$TOPO" "$TMP/late$pad.dump"
  expect_eq "$(cat "$TMP/err")" \
    "fabriclint: $TMP/late$pad.dump:$((pad + 1)):6: NUL byte: a binary file (or a text file with binary garbage), not text" \
    "NUL after $pad comment lines"
done

# no final newline: the end of the buffer is not a NUL byte of the input
head -c -1 "$FX/opensm-lfts.dump" >"$TMP/cut.dump"
expect_rc 2 "$FL" check --rules 'deadlock.*' "$TOPO" "$TMP/cut.dump"
expect_grep "$TMP/err" "cut\.dump:228:15: truncated: the file ends inside a LFT footer line \(no final newline\)"
finish
