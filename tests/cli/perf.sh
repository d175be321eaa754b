#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/perf.sh — `fabriclint perf` (docs/perf.md) end to end:
#   - case c03 (NVIDIA/nccl#325, tests/data/cases/c03-...): with the issue's
#     job, balanced LFTs give busbw == ideal for sendrecv, all-to-all and
#     ring all-reduce (exit 0, no finding); the collision LFTs give exactly
#     half for sendrecv (2 flows on leaf-0 port 5) and 7/8 for all-to-all
#     (8 flows on that uplink against 7 per NIC), naming leaf-0 port 5 ->
#     spine-0 and the colliding flows, with two contention findings (exit 1);
#   - first principles: on the non-blocking fat trees routed by real OpenSM
#     ftree on ibsim (tests/fixtures/routing/fat-tree-{2,3}tier-ftree, see
#     their engine.txt), ring all-reduce busbw equals the NIC line rate
#     (4x HDR: 200 Gb/s = 25 GB/s, nccl-tests' unit) and so do all-gather, all-to-all and sendrecv;
#   - refusals: workload errors name file:line:col (exit 2).
. "$(dirname "$0")/lib.bash"
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}
C03=$FL_SRC/tests/data/cases/c03-nccl325-static-routing-collision
FT=$FL_SRC/tests/fixtures/routing

cat >"$TMP/job.yaml" <<'EOF'
hosts: [gpu00, gpu01, gpu02, gpu03, gpu04, gpu05, gpu06, gpu07]   # ranks in order
collectives:
  - {op: sendrecv, shift: 4, bytes: 1073741824}   # rank i sends to rank i+4 (pipeline-style)
  - {op: all-to-all, bytes: 1073741824}
  - {op: all-reduce, algorithm: ring, bytes: 1073741824}
EOF

# close A B — |A - B| <= 1e-9 * |B|
# (lib.bash's pyval: one interpreter for the 26 comparisons)
close() { [ "$(pyval "abs(float('$1') - float('$2')) <= 1e-9 * abs(float('$2'))")" = True ]; }
expect_close() { if close "$1" "$2"; then pass; else fail "${3:-value}: got $1, want $2"; fi; }

# ---- c03 balanced: every collective at its ideal
expect_rc 0 "$FL" perf --workload "$TMP/job.yaml" --format json \
  "$C03/topo.ibnetdiscover" "$C03/opensm-lfts-dmodk.dump"
cp "$TMP/out" "$TMP/bal.json"
expect_eq "$(jget "$TMP/bal.json" "=len(d['collectives'])")" 3 collectives
expect_eq "$(jget "$TMP/bal.json" "=len(d['findings'])")" 0 "balanced findings"
for i in 0 1 2; do
  b=$(jget "$TMP/bal.json" "['collectives'][$i]['busbw_GBps']")
  id=$(jget "$TMP/bal.json" "['collectives'][$i]['ideal_busbw_GBps']")
  expect_close "$b" "$id" "balanced collective $i busbw vs ideal"
  expect_close "$b" 25 "balanced collective $i busbw vs HDR line rate (200 Gb/s = 25 GB/s)"
  expect_eq "$(jget "$TMP/bal.json" "=len(d['collectives'][$i]['bottlenecks'])")" 0 "balanced bottlenecks $i"
done
expect_eq "$(jget "$TMP/bal.json" "['collectives'][0]['op']")" sendrecv op0
expect_eq "$(jget "$TMP/bal.json" "['collectives'][2]['steps']")" 14 "ring all-reduce steps 2(n-1)"
# all-to-all algbw = busbw * n/(n-1) = 25 GB/s * 8/7
expect_close "$(jget "$TMP/bal.json" "['collectives'][1]['algbw_GBps']")" "$(pyval "25*8/7")" "a2a algbw"
# ring all-reduce algbw = busbw * n / (2(n-1)) = 25 * 8 / 14
expect_close "$(jget "$TMP/bal.json" "['collectives'][2]['algbw_GBps']")" "$(pyval "25*8/14")" "all-reduce algbw"
# 1 GiB at 200 Gb/s for sendrecv
expect_close "$(jget "$TMP/bal.json" "['collectives'][0]['time_s']")" "$(pyval "2**30*8/200e9")" "sendrecv time"

# ---- c03 collision: 1/2 sendrecv, 7/8 all-to-all, the colliding uplink named
expect_rc 1 "$FL" perf --workload "$TMP/job.yaml" --format json \
  "$C03/topo.ibnetdiscover" "$C03/opensm-lfts-collision.dump"
cp "$TMP/out" "$TMP/col.json"
expect_close "$(jget "$TMP/col.json" "['collectives'][0]['busbw_GBps']")" 12.5 "collision sendrecv busbw"
expect_close "$(jget "$TMP/col.json" "['collectives'][0]['ratio']")" 0.5 "collision sendrecv ratio"
expect_close "$(jget "$TMP/col.json" "['collectives'][1]['busbw_GBps']")" 21.875 "collision a2a busbw"
expect_close "$(jget "$TMP/col.json" "['collectives'][1]['ratio']")" 0.875 "collision a2a ratio"
expect_close "$(jget "$TMP/col.json" "['collectives'][2]['ratio']")" 1 "collision all-reduce ratio (ring crosses once per leaf)"
expect_eq "$(jget "$TMP/col.json" "['collectives'][0]['bottlenecks'][0]['link']")" \
  "leaf-0 port 5 -> spine-0 port 1" "sendrecv bottleneck"
expect_eq "$(jget "$TMP/col.json" "['collectives'][0]['bottlenecks'][0]['flow_count']")" 2.0 "sendrecv flows on it"
expect_eq "$(jget "$TMP/col.json" "=sorted(f['src']+'>'+f['dst'] for f in d['collectives'][0]['bottlenecks'][0]['flows'])")" \
  "['gpu00 mlx5_0>gpu04 mlx5_0', 'gpu01 mlx5_0>gpu05 mlx5_0']" "sendrecv colliding flows"
expect_eq "$(jget "$TMP/col.json" "=[b['link'] for b in d['collectives'][1]['bottlenecks']]")" \
  "['leaf-0 port 5 -> spine-0 port 1', 'spine-0 port 2 -> leaf-1 port 5']" "a2a bottlenecks"
expect_eq "$(jget "$TMP/col.json" "['collectives'][1]['bottlenecks'][0]['flow_count']")" 8.0 "a2a flows on the uplink"
expect_close "$(jget "$TMP/col.json" "['collectives'][1]['bottlenecks'][0]['share_gbps']")" 25 "a2a share"
expect_eq "$(jget "$TMP/col.json" "=len(d['collectives'][1]['bottlenecks'][0]['flows'])")" 8 "a2a flows listed"
expect_eq "$(jget "$TMP/col.json" "=[f['rule'] for f in d['findings']]")" \
  "['performance.collective-contention', 'performance.collective-contention']" findings
expect_eq "$(jget "$TMP/col.json" "['findings'][1]['links'][0]['link']")" "leaf-0 port 5 -> spine-0 port 1" "finding link"
# text output says the same
expect_rc 1 "$FL" perf --workload "$TMP/job.yaml" "$C03/topo.ibnetdiscover" "$C03/opensm-lfts-collision.dump"
expect_grep "$TMP/out" '^  bottleneck leaf-0 port 5 -> spine-0 port 1: 8 flows share 200 Gb/s \(25\.000 Gb/s each\)'
expect_grep "$TMP/out" 'busbw 21\.88 GB/s  ideal busbw 25\.00 GB/s  ratio 0\.8750'
# min-share policy: 0.5 keeps sendrecv (exactly 0.5) and a2a silent
expect_rc 0 "$FL" perf --min-share 0.5 --workload "$TMP/job.yaml" "$C03/topo.ibnetdiscover" "$C03/opensm-lfts-collision.dump"
# ideal adaptive routing ignores the LFT collision
expect_rc 0 "$FL" perf --routing ar --format json --workload "$TMP/job.yaml" "$C03/topo.ibnetdiscover" "$C03/opensm-lfts-collision.dump"
expect_close "$(jget "$TMP/out" "['collectives'][1]['busbw_GBps']")" 25 "AR a2a busbw"
expect_eq "$(jget "$TMP/out" "['collectives'][1]['routing']")" ar "routing named"

# ---- first principles: non-blocking fat trees, OpenSM ftree LFTs
cat >"$TMP/all.yaml" <<'EOF'
hosts: all
collectives:
  - {op: all-reduce, algorithm: ring, bytes: 1GiB}
  - {op: all-gather, bytes: 1GiB}
  - {op: reduce-scatter, bytes: 1GiB}
  - {op: all-to-all, bytes: 1GiB}
  - {op: sendrecv, shift: 3, bytes: 1GiB}
EOF
for s in fat-tree-2tier-ftree fat-tree-3tier-ftree; do
  expect_rc 0 "$FL" perf --format json --workload "$TMP/all.yaml" "$FT/$s/topology.ibnetdiscover" "$FT/$s/opensm-lfts.dump"
  expect_eq "$(jget "$TMP/out" "['hosts']")" 8 "$s hosts"
  for i in 0 1 2 3 4; do
    expect_close "$(jget "$TMP/out" "['collectives'][$i]['busbw_GBps']")" 25 "$s collective $i busbw = NIC line rate (25 GB/s)"
  done
done

# ---- refusals: file:line:col, exit 2
printf 'hosts: [gpu00, gpu01]\ncollectives:\n  - {op: all-reduce, bytes: 1GiB, algoritm: ring}\n' >"$TMP/bad1.yaml"
expect_rc 2 "$FL" perf --workload "$TMP/bad1.yaml" "$C03/topo.ibnetdiscover"
expect_grep "$TMP/err" "bad1.yaml:3:35: unknown key \`algoritm\` in a collective"
printf 'hosts: [gpu00, gpu99]\ncollectives:\n  - {op: all-to-all, bytes: 1GiB}\n' >"$TMP/bad2.yaml"
expect_rc 2 "$FL" perf --workload "$TMP/bad2.yaml" "$C03/topo.ibnetdiscover"
expect_grep "$TMP/err" "bad2.yaml:1:16: host \`gpu99\` is not in the fabric"
printf 'hosts: [gpu00, gpu01]\ncollectives:\n  - {op: all-to-all, bytes: lots}\n' >"$TMP/bad3.yaml"
expect_rc 2 "$FL" perf --workload "$TMP/bad3.yaml" "$C03/topo.ibnetdiscover"
expect_grep "$TMP/err" "bad3.yaml:3:29: bytes \`lots\`: expected a positive size"
printf 'hosts: [gpu00, gpu01]\ncollectives:\n  - {op: sendrecv, shift: 2, bytes: 1}\n' >"$TMP/bad4.yaml"
expect_rc 2 "$FL" perf --workload "$TMP/bad4.yaml" "$C03/topo.ibnetdiscover"
expect_grep "$TMP/err" "bad4.yaml:3:5: sendrecv shift 2 is a multiple of the 2 ranks"
printf 'hosts: [gpu00\n' >"$TMP/bad5.yaml"
expect_rc 2 "$FL" perf --workload "$TMP/bad5.yaml" "$C03/topo.ibnetdiscover"
expect_grep "$TMP/err" "bad5.yaml:2:1: YAML"
expect_rc 2 "$FL" perf --routing lft --workload "$TMP/job.yaml" "$C03/topo.ibnetdiscover"
expect_grep "$TMP/err" "no LFT dump was given"
expect_rc 2 "$FL" perf "$C03/topo.ibnetdiscover"
expect_grep "$TMP/err" "perf needs --workload"
# a dump that holds only leaf-0's LFT: the flows cannot be routed (exit 1)
sed -n '1,/lids dumped/p' "$C03/opensm-lfts-dmodk.dump" >"$TMP/leaf0.dump"
expect_rc 1 "$FL" perf --format json --workload "$TMP/job.yaml" "$C03/topo.ibnetdiscover" "$TMP/leaf0.dump"
expect_grep "$TMP/out" '"error": "switch leaf-1 has no LFT \(not in the dump\) on the route to LID 7 \(gpu00 mlx5_0\)'

echo "perf: $PASSES passed, $FAILS failed"
[ "$FAILS" -eq 0 ]
