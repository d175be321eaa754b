#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/ibsim_reads_ibnd.sh — an ibnetdiscover dump read as an ibsim net
# file (ibsim itself reads ibnetdiscover output; core/io/ibsim_net.c
# ibnd_style_id()): nodes are named by their descriptions, as the
# ibnetdiscover reader names them, so the same findings come out (outside
# tester, session 11: under --input-format ibsim-net the README demo's
# crossed pair vanished, its hosts named "H-0002c9..."). Boundaries: an id
# of that form without a description keeps the id; an id a person chose
# keeps it whatever the description.
. "$(dirname "$0")/lib.bash"
D=$FL_SRC/fabrics/rail-su-asbuilt.ibnetdiscover
summary() { jget "$TMP/out" "=sorted((f['rule'], f['severity'], tuple(f['nodes'])) for f in d['findings'])"; }
expect_rc 1 "$FL" check --format json "$D"
as_ibnd=$(summary)
expect_rc 1 "$FL" check --format json --input-format ibsim-net "$D"
expect_eq "$(summary)" "$as_ibnd" "the demo read as an ibsim net file: the same findings, the same nodes"
expect_eq "$(jget "$TMP/out" "=[f['nodes'][:2] for f in d['findings'] if f['rule'] == 'rail-alignment.swapped']")" \
  "[['dgx-001 mlx5_0', 'dgx-001 mlx5_3']]" "the crossed pair, by host name"
printf 'Switch 4 "S-0002c90301000001"\n[1] "H-0002c90302000002"[1]\n\nHca 1 "H-0002c90302000002" # "node0001 mlx5_0"\n[1] "S-0002c90301000001"[1]\n\nSwitch 4 "sw-lab" # "S-0002c90301000009"\n' >"$TMP/ids.net"
expect_rc 0 "$FL" info --input-format ibsim-net --format json --explain "$TMP/ids.net"
expect_eq "$(jget "$TMP/out" "=sorted(n['node'] for n in d['inferences']['tiers'])")" "['S-0002c90301000001', 'sw-lab']" \
  "no description: the id; an id a person chose: the id"
finish
