#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/perf_measured.sh — `perf --measured [OP:]LOG [--calibrate]`
# on the real nccl-tests logs of tests/fixtures/nccl-tests/ (PROVENANCE.md),
# each against a `fabriclint gen rail-su` fabric of the system the log's
# source states (docs/perf.md "Measured", docs/performance-model.md
# "Calibration against nccl-tests"). Pinned: the fabric's busbw, per size
# the predicted busbw (0.01 GB/s), the error (0.1 %) and the gap's name,
# and the fitted alpha (0.01 us) and eta (1e-4):
#   - NVIDIA/nccl-tests#290, 2 x 8 H100, 8 x NDR 400 Gb/s IB, default
#     algorithm: measured 155.57 GB/s at 8 GiB, predicted tree 661.36 (the
#     2-host tree's upper bound), error +325.1 %, host; the fit on the tree
#     gives eta 0.2123 against NCCL's 0.9;
#   - the same system with NCCL_ALGO=RING (an `export` line of the log):
#     measured 89.90, predicted ring 373.96, +316.0 %, host; the fit gives
#     alpha 169.54 us (NCCL's 233.32 us) and eta 0.2453 (NCCL's 0.94): a
#     quarter of the wire, what the thread was about;
#   - aws-samples/aws-efa-eks, 2 x p4d.24xlarge (8 A100, 4 x 100 Gb/s EFA),
#     the old output format (no root column, `error` values, mpirun's
#     [1,0]<stdout>: tags, NCCL INFO lines between the rows): 43.81
#     measured at 4 GiB, tree 83.94 predicted, +91.6 %, host;
#   - the ring log on a capture with a degraded host cable (ibsim
#     host-half: dgx-001 mlx5_0 at 2x HDR; fabric busbw 100 of 200 GB/s):
#     8 GiB agrees (+4.4 %), 16 MiB to 128 MiB are named fabric; with the
#     log's hosts renamed to fabric hosts they are used in the log's order
#     and no note is printed;
#   - errors (exit 2): no data row, a row with a column missing
#     (file:line:col), a log that does not name its test without OP (the
#     message names the fix), an unknown OP, an OP the log's test
#     contradicts, a test not modelled (broadcast_perf), --calibrate on one
#     size or without --measured, --measured with --workload; a log naming
#     its test needs no OP, and the p2p collectives run.
. "$(dirname "$0")/lib.bash"
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}
FIX=$FL_SRC/tests/fixtures/nccl-tests
DEF=$FIX/nccl-tests-290-h100-2node-default.log
RING=$FIX/nccl-tests-290-h100-2node-ring.log
EFA=$FIX/aws-efa-eks-p4d-2node.log
HALF=$FL_SRC/tests/fixtures/ibsim-faults/host-half.ibnetdiscover

expect_rc 0 "$FL" gen rail-su --sus 1 --hosts-per-su 2 --rails 8 --speed NDR -o "$TMP/ndr.xml"
expect_rc 0 "$FL" gen rail-su --sus 1 --hosts-per-su 2 --rails 4 --speed EDR -o "$TMP/p4d.xml"

# run NAME ARGS... — perf --format json --calibrate --measured ARGS
run() {
  local name=$1
  shift
  expect_rc 0 "$FL" perf --format json --calibrate --measured "$@"
  cp "$TMP/out" "$TMP/$name.json"
}
pin() { expect_eq "$(jget "$TMP/$1.json" "=$2")" "$3" "$1: $2"; }
pred="[round(s['predicted_busbw_GBps'], 2) for s in d['sizes']]"
errs="[round(100 * s['error'], 1) for s in d['sizes']]"
gaps="' '.join(s['gap'] for s in d['sizes'])"
algs="' '.join(s['algorithm'] for s in d['sizes'])"
fit="(d['calibration']['algorithm'], round(d['calibration']['alpha_us'], 2), round(d['calibration']['eta'], 4), round(d['calibration']['nccl_alpha_us'], 2), d['calibration']['nccl_eta'])"

# NVIDIA/nccl-tests#290, default algorithm
run def "all-reduce:$DEF" "$TMP/ndr.xml"
pin def "(d['fabric']['busbw_GBps'], d['fabric']['ratio'], d['ranks'], d['hosts'], d['modelled_hosts'], d['algorithm'])" \
  "(400.0, 1.0, 16, ['node005', 'node007'], ['dgx-001', 'dgx-002'], None)"
pin def "$pred" "[57.16, 99.24, 157.03, 221.54, 290.99, 406.67, 507.55, 579.42, 623.57, 648.27, 661.36]"
pin def "$errs" "[-21.8, -17.1, 9.6, 61.7, 82.2, 144.6, 252.1, 286.7, 307.3, 318.9, 325.1]"
pin def "$gaps" "latency latency agrees host latency host host host host host host"
pin def "$algs" "ring ring ring ring tree tree tree tree tree tree tree"
pin def "$fit" "('tree', 89.5, 0.2123, 492.0, 0.9)"
pin def "len(d['notes'])" "1"

# the same system, NCCL_ALGO=RING
run ring "all-reduce:$RING" "$TMP/ndr.xml"
pin ring "(d['nccl_algo'], d['algorithm'])" "('RING', 'ring')"
pin ring "$pred" "[57.16, 99.24, 157.03, 221.54, 278.81, 320.19, 345.86, 360.3, 367.98, 371.95, 373.96]"
pin ring "$errs" "[48.1, 56.3, 66.2, 117.0, 179.1, 235.1, 297.1, 310.2, 312.7, 313.7, 316.0]"
pin ring "$gaps" "latency latency latency host host host host host host host host"
pin ring "$fit" "('ring', 169.54, 0.2453, 233.32, 0.94)"
pin ring "[round(100 * s['residual'], 1) for s in d['calibration']['sizes']]" \
  "[-19.1, -1.1, 21.7, 17.8, 8.5, 0.6, -9.8, -9.7, -8.8, -8.2, -8.3]"
expect_rc 0 "$FL" perf --measured "all-reduce:$RING" --calibrate "$TMP/ndr.xml"
expect_grep "$TMP/out" "^predicted: ring \(NCCL_ALGO=RING\)$"
expect_grep "$TMP/out" "^ +8589934592 +89\.90 +373\.96  ring +\+316\.0%  host$"
expect_grep "$TMP/out" "^calibration \(ring, 11 sizes, weights 1/t\^2\): alpha 169\.54 us \(NCCL's 233\.32 us\), eta 0\.2453 \(NCCL's 0\.94\)$"

# aws-samples/aws-efa-eks, 2 x p4d.24xlarge, 4 x 100 Gb/s EFA
run efa "all-reduce:$EFA" "$TMP/p4d.xml"
pin efa "(d['fabric']['busbw_GBps'], d['ranks'], d['ranks_per_host'], d['nics_per_host'], len(d['sizes']), d['skipped_rows'])" \
  "(50.0, 16, [8, 8], 4, 30, 0)"
pin efa "[(s['bytes'], round(s['measured_busbw_GBps'], 2), round(s['predicted_busbw_GBps'], 2), round(100 * s['error'], 1), s['gap']) for s in d['sizes'][-3:]]" \
  "[(1073741824, 42.48, 82.67, 94.6, 'host'), (2147483648, 43.36, 83.51, 92.6, 'host'), (4294967296, 43.81, 83.94, 91.6, 'host')]"
pin efa "$gaps" "latency latency latency latency latency latency latency latency agrees agrees latency latency latency latency latency latency latency latency latency latency host latency host host host host host host host host"
pin efa "$fit" "('tree', 215.28, 0.3738, 492.0, 0.9)"
pin efa "d['notes'][1]" "the log has 16 ranks on 2 hosts, the fabric 4 NICs per host: the fabric's bandwidth is modelled with one flow per NIC, NCCL's latency with the log's ranks"

# the ring log on a capture with a degraded host cable: the fabric gap
run half "all-reduce:$RING" "$HALF"
pin half "(d['fabric']['busbw_GBps'], d['fabric']['ideal_busbw_GBps'], d['fabric']['ratio'], len(d['fabric']['bottlenecks']))" "(100.0, 200.0, 0.5, 2)"
pin half "$errs" "[1.7, -12.8, -26.2, -21.6, -13.4, -5.7, 5.6, 5.9, 4.8, 4.3, 4.4]"
pin half "$gaps" "agrees fabric fabric fabric fabric agrees agrees agrees agrees agrees agrees"
pin half "$fit" "('ring', 169.54, 0.9813, 233.32, 0.94)"
# the log's hosts, renamed to hosts of the fabric: used in the log's order
sed -e 's/ node005 / dgx-002 /' -e 's/ node007 / dgx-001 /' "$RING" >"$TMP/named.log"
run named "all-reduce:$TMP/named.log" "$HALF"
pin named "(d['modelled_hosts'], d['notes'])" "(['dgx-002', 'dgx-001'], [])"
pin named "$errs" "[1.7, -12.8, -26.2, -21.6, -13.4, -5.7, 5.6, 5.9, 4.8, 4.3, 4.4]"

# errors
head -n 23 "$DEF" >"$TMP/norows.log"
expect_rc 2 "$FL" perf --measured "all-reduce:$TMP/norows.log" "$TMP/ndr.xml"
expect_grep "$TMP/err" "norows\.log:23: no data row"
sed '33s/ *N\/A$//' "$DEF" >"$TMP/short.log"
expect_rc 2 "$FL" perf --measured "all-reduce:$TMP/short.log" "$TMP/ndr.xml"
expect_grep "$TMP/err" "short\.log:33:114: expected 13 columns .*found 12: a column is missing"
expect_rc 2 "$FL" perf --measured "$DEF" "$TMP/ndr.xml"
expect_grep "$TMP/err" "does not name its test .*give the collective as OP:LOG, e\.g\. --measured all-reduce:"
# the test named by the log (a `# Collective test` line put before the
# real log): no OP needed, a contradicting OP or an unmodelled test refused
{ echo "# Collective test starting: all_gather_perf"; cat "$DEF"; } >"$TMP/ag.log"
run ag "$TMP/ag.log" "$TMP/ndr.xml"
pin ag "(d['test'], d['op'], d['fabric']['busbw_GBps'], $algs)" \
  "('all_gather_perf', 'all-gather', 400.0, 'ring ring ring ring ring ring ring ring ring ring ring')"
expect_rc 2 "$FL" perf --measured "all-reduce:$TMP/ag.log" "$TMP/ndr.xml"
expect_grep "$TMP/err" "the log is all_gather_perf's output \(line 1\), not all-reduce"
sed '1s/all_gather_perf/broadcast_perf/' "$TMP/ag.log" >"$TMP/bc.log"
expect_rc 2 "$FL" perf --measured "$TMP/bc.log" "$TMP/ndr.xml"
expect_grep "$TMP/err" "broadcast_perf \(line 1\) is not modelled"
# the p2p collectives run (OP given for a log that names none)
run a2a "all-to-all:$DEF" "$TMP/ndr.xml"
pin a2a "(d['op'], $algs)" "('all-to-all', 'p2p p2p p2p p2p p2p p2p p2p p2p p2p p2p p2p')"
run sr "sendrecv:$DEF" "$TMP/ndr.xml"
pin sr "(d['op'], d['sizes'][-1]['algorithm'])" "('sendrecv', 'p2p')"
expect_rc 2 "$FL" perf --measured "allreduce:$DEF" "$TMP/ndr.xml"
expect_grep "$TMP/err" "unknown OP before ':'"
head -n 24 "$DEF" >"$TMP/one.log"
expect_rc 2 "$FL" perf --calibrate --measured "all-reduce:$TMP/one.log" "$TMP/ndr.xml"
expect_grep "$TMP/err" "needs at least 2 sizes, the log has 1"
expect_rc 0 "$FL" perf --measured "all-reduce:$TMP/one.log" "$TMP/ndr.xml"
expect_rc 2 "$FL" perf --calibrate "$TMP/ndr.xml"
expect_grep "$TMP/err" "give it with --measured"
printf 'hosts: all\ncollectives:\n  - {op: all-reduce, bytes: 1GiB}\n' >"$TMP/w.yaml"
expect_rc 2 "$FL" perf --measured "all-reduce:$DEF" --workload "$TMP/w.yaml" "$TMP/ndr.xml"
expect_grep "$TMP/err" "no --workload or --job"
finish
