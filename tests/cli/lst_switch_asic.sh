#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/lst_switch_asic.sh — an opensm-subnet.lst record typed CA that
# looks like a switch ASIC (a switch device id, more than 2 ports and one LID
# on every port, as the 216 InfiniScale-III ASICs of ibutils'
# RhinoBased512.lst) is kept as typed (so `diff` of the .topo against the
# .lst still matches every cable, tests/cli/ibnl.sh) but marked
# `kind-conflict=switch-asic`, with one note saying the capture is
# inconsistent; topology.lid and topology.direct-port-index do not judge
# it. Before, its one LID on every port gave "shared LID" errors and its
# cables "back-to-back host" warnings (issue 30, F10). Hand-written .lst
# files (tests/data/identity/lst-ca-typed-*.lst): 3 hosts on one 24-port
# InfiniScale-III (DevID B924) typed CA; the boundaries: the same device id
# with 2 ports, 3 ports with another device id, and the ASIC with two
# different LIDs on its ports are judged as the CAs they are typed.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
d=$src/tests/data/identity
counts() { jget "$TMP/out" "=(d['fabric']['switches'], d['fabric']['cas'])"; }
rules() { jget "$TMP/out" "=sorted({(f['rule'], f['severity']) for f in d['findings']})"; }

expect_rc 0 "$FL" info --format json "$d/lst-ca-typed-switch-asic.lst"
expect_eq "$(counts)" "(0, 4)" "switch ASIC typed CA: kept as typed"
expect_rc 0 "$FL" check --format json "$d/lst-ca-typed-switch-asic.lst"
expect_eq "$(rules)" "[('topology.input', 'info')]" "switch ASIC typed CA: no LID error, no back-to-back warning"
expect_grep "$TMP/out" '1 node.s. typed CA look like switch ASICs .*first: node 0x0002c90000000600, DevID 0xb924, 24 ports.: the capture is inconsistent'
# one LID per port (0x10, 0x10, 0x11): not how a switch answers, judged as typed
sed '/SW-A/s/LID:0010 PN:03/LID:0011 PN:03/g' "$d/lst-ca-typed-switch-asic.lst" >"$TMP/two-lids.lst"
expect_eq "$(grep -c 'LID:0011 PN:03' "$TMP/two-lids.lst")" "2" "two LIDs: both listings edited"
expect_rc 1 "$FL" check --format json "$TMP/two-lids.lst"
expect_eq "$(rules)" "[('topology.direct-port-index', 'warning'), ('topology.lid', 'error')]" "two LIDs on the ASIC: judged as typed"

expect_rc 0 "$FL" info --format json "$d/lst-ca-typed-2port-switch-devid.lst"
expect_eq "$(counts)" "(0, 4)" "2 ports: a CA as typed"
expect_rc 1 "$FL" check --format json "$d/lst-ca-typed-2port-switch-devid.lst"
expect_eq "$(rules)" "[('topology.direct-port-index', 'warning'), ('topology.lid', 'error'), ('topology.port-out-of-range', 'error')]" "2 ports: judged as typed"
expect_rc 0 "$FL" info --format json "$d/lst-ca-typed-3port-other-devid.lst"
expect_eq "$(counts)" "(0, 4)" "3 ports, not a switch device id: a CA as typed"
expect_rc 1 "$FL" check --format json "$d/lst-ca-typed-3port-other-devid.lst"
expect_eq "$(rules)" "[('topology.direct-port-index', 'warning'), ('topology.lid', 'error')]" "a CA as typed: its findings stay"
finish
