#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/perf_nominal.sh — `fabriclint perf` judges the fabric against its
# design rates (docs/perf.md "Nominal rates", issue #35): on the rail SU of
# fabrics/rail-su.net (32 DGX hosts x 8 HCAs, 4x HDR) simulated by ibsim
# with dgx-001 mlx5_0's cable trained at 2x HDR (100 Gb/s;
# tests/fixtures/ibsim-faults/make.sh host-half, ibsim + OpenSM +
# ibnetdiscover):
#   - a job on dgx-001..004: every rail's ring crosses that cable, so the
#     ring all-reduce and all-gather run at half the ideal (busbw 100 of 200
#     GB/s, ratio 0.5, exit 1), the bottleneck is the cable in both
#     directions, marked `degraded` with nominal 200 Gb/s, and the finding
#     names it; the NCCL prediction follows the degraded fabric (ring
#     busbw below 100 GB/s);
#   - the same job on dgx-002..005 (the cable not in it): ratio 1, no
#     finding, exit 0, NCCL busbw within 6 % below 0.94 x the 200 GB/s
#     ideal (the Simple protocol's efficiency less the latency term).
. "$(dirname "$0")/lib.bash"
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}
HALF=$FL_SRC/tests/fixtures/ibsim-faults/host-half.ibnetdiscover

# (lib.bash's pyval: no python3 started per comparison)
close() { [ "$(pyval "abs(float('$1') - float('$2')) <= 1e-9 * max(1, abs(float('$2')))")" = True ]; }
expect_close() { if close "$1" "$2"; then pass; else fail "${3:-value}: got $1, want $2"; fi; }

job() { # FILE HOSTS...
  local f=$1
  shift
  printf 'hosts: [%s]\ncollectives:\n  - {op: all-reduce, bytes: 1GiB}\n  - {op: all-gather, bytes: 1GiB}\n' \
    "$(echo "$@" | sed 's/ /, /g')" >"$f"
}
job "$TMP/with.yaml" dgx-001 dgx-002 dgx-003 dgx-004
job "$TMP/without.yaml" dgx-002 dgx-003 dgx-004 dgx-005

# ---- the degraded cable in the job: half the ideal, named
expect_rc 1 "$FL" perf --format json --workload "$TMP/with.yaml" "$HALF"
cp "$TMP/out" "$TMP/with.json"
J=$TMP/with.json
for i in 0 1; do
  expect_close "$(jget "$J" "['collectives'][$i]['ideal_busbw_GBps']")" 200 "coll $i ideal at the nominal 8 x 25 GB/s"
  expect_close "$(jget "$J" "['collectives'][$i]['busbw_GBps']")" 100 "coll $i busbw at the degraded rail's rate"
  expect_close "$(jget "$J" "['collectives'][$i]['ratio']")" 0.5 "coll $i ratio"
  expect_eq "$(jget "$J" "=[(b['link'], b['capacity_gbps'], b['nominal_gbps'], b['degraded']) for b in d['collectives'][$i]['bottlenecks']]")" \
    "[('leaf-su01-r0 port 1 -> dgx-001 mlx5_0 port 1', 100.0, 200.0, True), ('dgx-001 mlx5_0 port 1 -> leaf-su01-r0 port 1', 100.0, 200.0, True)]" \
    "coll $i bottleneck: the half-rate cable both ways"
done
expect_eq "$(jget "$J" "=len(d['findings'])")" 2 "one finding per collective"
expect_eq "$(jget "$J" "['findings'][0]['message']")" \
  "all-reduce reaches 50.0% of its no-contention bus bandwidth (100.00 of 200.00 GB/s; min-share 90%); the cable leaf-su01-r0 port 1 -> dgx-001 mlx5_0 port 1 runs at 100 Gb/s, below its nominal 200 Gb/s" \
  "finding names the cable"
expect_eq "$(jget "$J" "=d['collectives'][0]['nccl']['algorithm'] in ('ring', 'tree') and d['collectives'][0]['nccl']['busbw_GBps'] < 100")" True \
  "NCCL prediction on the degraded fabric below its 100 GB/s"
expect_rc 1 "$FL" perf --workload "$TMP/with.yaml" "$HALF"
expect_grep "$TMP/out" '^  bottleneck dgx-001 mlx5_0 port 1 -> leaf-su01-r0 port 1: 1 flows share 100 Gb/s \(100\.000 Gb/s each\); the cable runs below its nominal 200 Gb/s$'
expect_grep "$TMP/out" 'busbw is 50\.0% of the ideal \(min-share 90%\); the cable leaf-su01-r0 port 1 -> dgx-001 mlx5_0 port 1 runs at 100 Gb/s, below its nominal 200 Gb/s$'

# ---- the cable not in the job: at the ideal, silent
expect_rc 0 "$FL" perf --format json --workload "$TMP/without.yaml" "$HALF"
J=$TMP/out
for i in 0 1; do
  expect_close "$(jget "$J" "['collectives'][$i]['busbw_GBps']")" 200 "coll $i busbw without the cable"
  expect_close "$(jget "$J" "['collectives'][$i]['ratio']")" 1 "coll $i ratio without the cable"
  expect_eq "$(jget "$J" "=0.94 * 200 * 0.94 < d['collectives'][$i]['nccl']['busbw_GBps'] <= 0.94 * 200")" True \
    "coll $i NCCL busbw: 0.94 of 200 GB/s less the latency (< 6 %)"
done
expect_eq "$(jget "$J" "=len(d['findings'])")" 0 "no finding"
finish
