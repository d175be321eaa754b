#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/perf_first_principles.sh — the performance model against first
# principles on non-blocking 2-tier fat trees (issue #17 "Validation"), on
# the fabrics of tests/fixtures/ns3 (16, 32, 128 hosts of 4x HDR, real
# OpenSM ftree LFTs, i.e. D-mod-k: a leaf sends destination d up uplink
# d mod K/2):
#   - D-mod-k: ring all-reduce bus bandwidth equals the 200 Gb/s NIC line
#     rate, with the ranks in host order and interleaved across leaves
#     (rank i on leaf i mod L: every ring hop crosses the spines, one ring
#     flow per uplink), and so does all-to-all;
#   - the injected collision (the first leaf sends its second uplink's
#     destinations up its first, tests/fixtures/ns3/make.sh): the
#     interleaved ring drops to exactly half (two ring flows on one uplink),
#     the host-order ring stays at line rate (its one flow leaving the leaf
#     is not moved), and all-to-all drops to 200 × (n−1) / F where F =
#     2 × (K/2 hosts) × ((n − K/2) / (K/2) destinations per uplink) flows
#     share the doubled uplink while n − 1 share each NIC.
. "$(dirname "$0")/lib.bash"
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}
FX=$FL_SRC/tests/fixtures/ns3

# close A B — |A - B| <= 1e-9 |B| in Python floats (lib.bash's pyval: a
# python3 per comparison was 36 interpreter starts)
close() { [ "$(pyval "abs(float('$1') - float('$2')) <= 1e-9 * abs(float('$2'))")" = True ]; }
expect_close() { if close "$1" "$2"; then pass; else fail "${3:-value}: got $1, want $2"; fi; }

# fabric radix hosts
for spec in "ft16 8 16" "ft32 8 32" "ft128 16 128"; do
  set -- $spec
  f=$1 k=$2 n=$3 h=$(($2 / 2))
  leaves=$((n / h))
  ring=$(pyval "', '.join('node%04d' % (1 + (i % $leaves) * $h + i // $leaves) for i in range($n))")
  printf 'hosts: [%s]\ncollectives:\n  - {op: all-reduce, algorithm: ring, bytes: 1GiB}\n' "$ring" >"$TMP/$f-ring.yaml"
  printf 'hosts: all\ncollectives:\n  - {op: all-reduce, algorithm: ring, bytes: 1GiB}\n  - {op: all-to-all, bytes: 1GiB}\n' >"$TMP/$f-all.yaml"
  for l in dmodk collision; do
    lf=opensm-lfts.dump want_rc=0
    [ $l = collision ] && lf=opensm-lfts-collision.dump want_rc=1
    expect_rc $want_rc "$FL" perf --format json --workload "$TMP/$f-all.yaml" "$FX/$f/topology.ibnetdiscover" "$FX/$f/$lf"
    expect_eq "$(jget "$TMP/out" "['hosts']")" "$n" "$f hosts"
    expect_close "$(jget "$TMP/out" "['collectives'][0]['busbw_GBps']")" 25 "$f $l host-order ring busbw"
    a2a=25
    [ $l = collision ] && a2a=$(pyval "25*($n-1)/(2*$h*(($n-$h)//$h))")
    expect_close "$(jget "$TMP/out" "['collectives'][1]['busbw_GBps']")" "$a2a" "$f $l all-to-all busbw"
    expect_rc $want_rc "$FL" perf --format json --workload "$TMP/$f-ring.yaml" "$FX/$f/topology.ibnetdiscover" "$FX/$f/$lf"
    want=25
    [ $l = collision ] && want=12.5
    expect_close "$(jget "$TMP/out" "['collectives'][0]['busbw_GBps']")" "$want" "$f $l interleaved ring busbw"
    expect_close "$(jget "$TMP/out" "['collectives'][0]['ideal_busbw_GBps']")" 25 "$f $l ring ideal"
  done
done
finish
