#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/convert_no_cable.sh — `convert` to DOT or GraphML refuses a
# fabric without cables (exit 2, nothing written), as the DOT and GraphML
# readers refuse a graph without edges: a writer that succeeds writes what
# its reader accepts (issue #32, found by fuzz_convert_rt on an
# ibnetdiscover dump of one switch whose ports are all down). Design XML
# and ibnetdiscover keep such a fabric and read it back. Boundary: one
# cable converts, and reads back as one cable.
. "$(dirname "$0")/lib.bash"

# leaf-p01-01 of `fabriclint gen fat-tree --radix 4 --format ibnetdiscover`,
# alone: no port cabled
cat >"$TMP/alone.ibnd" <<'D'
vendid=0x2c9
devid=0xd2f2
sysimgguid=0x2c90301000001
switchguid=0x2c90301000001(2c90301000001)
Switch	4 "S-0002c90301000001"		# "leaf-p01-01" enhanced port 0 lid 1 lmc 0
D
for fmt in dot graphml; do
  expect_rc 2 "$FL" convert "$TMP/alone.ibnd" -o "$TMP/alone.$fmt"
  expect_grep "$TMP/err" "cannot hold a fabric without cables \(1 node\(s\), no cable\): its reader refuses a graph without edges; convert to design XML or ibnetdiscover instead; nothing written"
  [ -e "$TMP/alone.$fmt" ] && fail "$fmt: a file was written" || pass
done
for fmt in xml ibnetdiscover; do
  expect_rc 0 "$FL" convert "$TMP/alone.ibnd" -o "$TMP/alone.$fmt"
  expect_rc 0 "$FL" info --format json "$TMP/alone.$fmt"
  expect_eq "$(jget "$TMP/out" "=(d['fabric']['switches'], d['fabric']['links'])")" "(1, 0)" "$fmt: read back"
done

# one cable: leaf-p01-01 port 3 to spine-p01-01 port 1
cat >"$TMP/one.ibnd" <<'D'
vendid=0x2c9
devid=0xd2f2
sysimgguid=0x2c90301000001
switchguid=0x2c90301000001(2c90301000001)
Switch	4 "S-0002c90301000001"		# "leaf-p01-01" enhanced port 0 lid 1 lmc 0
[3]	"S-0002c90301000005"[1]		# "spine-p01-01" lid 5 4xNDR

vendid=0x2c9
devid=0xd2f2
sysimgguid=0x2c90301000005
switchguid=0x2c90301000005(2c90301000005)
Switch	4 "S-0002c90301000005"		# "spine-p01-01" enhanced port 0 lid 5 lmc 0
[1]	"S-0002c90301000001"[3]		# "leaf-p01-01" lid 1 4xNDR
D
for fmt in dot graphml; do
  expect_rc 0 "$FL" convert "$TMP/one.ibnd" -o "$TMP/one.$fmt"
  expect_rc 0 "$FL" info --format json "$TMP/one.$fmt"
  expect_eq "$(jget "$TMP/out" "=(d['fabric']['switches'], d['fabric']['links'])")" "(2, 1)" "$fmt: one cable read back"
done
finish
