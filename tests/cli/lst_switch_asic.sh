#!/usr/bin/env bash
# tests/cli/lst_switch_asic.sh — an opensm-subnet.lst record typed CA that is
# a switch ASIC (a switch device id and more than 2 ports, as the 216
# InfiniScale-III ASICs of ibutils' RhinoBased512.lst) is read as a switch,
# with one note; before, its one LID on every port gave "shared LID" errors
# and its cables "back-to-back host" warnings (issue 30, F10). Hand-written
# .lst files (tests/data/identity/lst-ca-typed-*.lst): 3 hosts on one
# 24-port InfiniScale-III (DevID B924) typed CA; the boundary: the same
# device id with 2 ports, and 3 ports with another device id, stay CAs.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
d=$src/tests/data/identity
counts() { jget "$TMP/out" "=(d['fabric']['switches'], d['fabric']['cas'])"; }
rules() { jget "$TMP/out" "=sorted({(f['rule'], f['severity']) for f in d['findings']})"; }

expect_rc 0 "$FL" info --format json "$d/lst-ca-typed-switch-asic.lst"
expect_eq "$(counts)" "(1, 3)" "switch ASIC typed CA: a switch"
expect_rc 0 "$FL" check --format json "$d/lst-ca-typed-switch-asic.lst"
expect_eq "$(rules)" "[('topology.input', 'info')]" "switch ASIC typed CA: no LID error"
expect_grep "$TMP/out" '1 node.s. typed CA are switch ASICs .*first: node 0x0002c90000000600, DevID 0xb924, 24 ports'

expect_rc 0 "$FL" info --format json "$d/lst-ca-typed-2port-switch-devid.lst"
expect_eq "$(counts)" "(0, 4)" "2 ports: a CA as typed"
expect_rc 0 "$FL" info --format json "$d/lst-ca-typed-3port-other-devid.lst"
expect_eq "$(counts)" "(0, 4)" "3 ports, not a switch device id: a CA as typed"
expect_rc 1 "$FL" check --format json "$d/lst-ca-typed-3port-other-devid.lst"
expect_eq "$(rules)" "[('topology.direct-port-index', 'warning'), ('topology.lid', 'error')]" "a CA as typed: its findings stay"
finish
