#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/perf_placements.sh — `fabriclint perf` with `placements:` in the
# workload (docs/perf.md "Placements"), on real data: the 32-host 2-tier
# fat tree of tests/fixtures/ns3/ft32 (radix 8: 8 leaves of 4 hosts and 4
# uplinks, 4 spines; made with ibsim and routed by real OpenSM ftree, i.e.
# D-mod-k, see its engine.txt). A job of 8 hosts placed at random on it
# meets the D-mod-k collisions the ranks-in-order job never sees:
#   - the distributions over 16 placements of seed 1 are pinned exactly:
#     all-to-all ratio 7/9 at worst (9 flows on one uplink against 7 per
#     NIC), ring all-reduce at line rate everywhere, sendrecv shift 4 half
#     the line rate on 8 of 16 placements (two flows on one uplink), so its
#     median is the mean of the two middle values (0.5 and 1);
#   - placement i depends on (seed, i) alone: a workload naming the worst
#     placement's hosts gives the same step time and bottleneck, `index: i`
#     gives the same sample, and count 4 gives the first 4 of count 16;
#   - a percentile judges another placement; `from:` restricts the pool;
#     `order: random` keeps the drawn order; AR routing removes every
#     collision (every placement at the ideal);
#   - bad values: file:line:col and exit 2.
. "$(dirname "$0")/lib.bash"
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}
FT=$FL_SRC/tests/fixtures/ns3/ft32
IN=("$FT/topology.ibnetdiscover" "$FT/opensm-lfts.dump")

cat >"$TMP/job.yaml" <<'EOF'
hosts: 8
placements: {count: 16, seed: 1, from: all}
collectives:
  - {op: all-to-all, bytes: 1GiB}
  - {op: all-reduce, algorithm: ring, bytes: 1GiB}
  - {op: sendrecv, shift: 4, bytes: 1GiB}
EOF

# ---- the distributions, pinned
expect_rc 1 "$FL" perf --format json --workload "$TMP/job.yaml" "${IN[@]}"
cp "$TMP/out" "$TMP/p16.json"
J=$TMP/p16.json
expect_eq "$(jget "$J" "=(d['hosts'], d['placements']['count'], d['placements']['pool_hosts'], d['placements']['seed'])")" \
  "(8, 16, 32, 1)" "job, count, pool, seed"
d3="=[(c['op'], c['step_time_s']['min'], c['step_time_s']['median'], c['step_time_s']['max'], c['busbw_GBps']['min'], c['busbw_GBps']['median'], c['busbw_GBps']['max']) for c in d['collectives']]"
# 1 GiB all-to-all of 8 ranks: 2^30/8 bytes per flow at 200/7 Gb/s (NIC
# bound) = 0.03758 s, at 200/9 (9 flows on an uplink) = 0.04832 s; ring
# all-reduce: 2^30/8 per step at 200 Gb/s = 0.005369 s; sendrecv 2^30 at
# 200 or 100 Gb/s = 0.04295 or 0.08590 s, median their mean; busbw in
# GB/s (bytes, nccl-tests' unit): 200 Gb/s = 25 GB/s
expect_eq "$(jget "$J" "$d3")" \
  "[('all-to-all', 0.037580963839999995, 0.037580963839999995, 0.04831838208, 19.444444444444443, 25.0, 25.0), ('all-reduce', 0.00536870912, 0.00536870912, 0.00536870912, 25.0, 25.0, 25.0), ('sendrecv', 0.04294967296, 0.06442450944, 0.08589934592, 12.5, 18.75, 25.0)]" \
  "min / median / max step time and busbw per collective"
expect_eq "$(jget "$J" "=[round(s['ratio'], 4) for s in d['collectives'][0]['samples']]")" \
  "[1.0, 0.7778, 1.0, 1.0, 0.875, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.7778, 0.7778, 1.0]" "all-to-all ratio per placement"
expect_eq "$(jget "$J" "=[s['ratio'] for s in d['collectives'][2]['samples']]")" \
  "[1.0, 1.0, 0.5, 1.0, 0.5, 1.0, 0.5, 1.0, 0.5, 1.0, 0.5, 1.0, 0.5, 0.5, 0.5, 1.0]" "sendrecv ratio per placement"
expect_eq "$(jget "$J" "=[c['worst']['index'] for c in d['collectives']]")" "[1, 0, 2]" "worst placements"
expect_eq "$(jget "$J" "['collectives'][0]['worst']['hosts']")" \
  "['node0011', 'node0014', 'node0015', 'node0016', 'node0019', 'node0020', 'node0025', 'node0031']" "a2a worst hosts"
expect_eq "$(jget "$J" "=[(b['link'], b['flow_count']) for b in d['collectives'][0]['worst']['bottlenecks']]")" \
  "[('leaf-p01-04 port 7 -> spine-p01-03 port 4', 9.0)]" "a2a worst bottleneck"
expect_eq "$(jget "$J" "=[(b['link'], b['flow_count']) for b in d['collectives'][2]['worst']['bottlenecks']]")" \
  "[('leaf-p01-07 port 7 -> spine-p01-03 port 7', 2.0), ('leaf-p01-06 port 8 -> spine-p01-04 port 6', 2.0)]" "sendrecv worst bottlenecks"
expect_eq "$(jget "$J" "=[(f['placement']['index'], f['placement']['seed']) for f in d['findings']]")" \
  "[(1, 1), (2, 1)]" "findings name the worst placement and seed (a2a, sendrecv)"
expect_eq "$(jget "$J" "['findings'][0]['message']")" \
  "all-to-all reaches 77.8% of its no-contention bus bandwidth on placement 1 of seed 1 (the worst of 16; 19.44 of 25.00 GB/s; min-share 90%)" "finding message"
expect_eq "$(jget "$J" "['findings'][1]['links'][0]['link']")" "leaf-p01-07 port 7 -> spine-p01-03 port 7" "finding link"

# text says the same
expect_rc 1 "$FL" perf --workload "$TMP/job.yaml" "${IN[@]}"
expect_grep "$TMP/out" '^  16 placement\(s\) of 8 hosts drawn from 32 \(seed 1, indexes 0-15, ranks in pool order\)$'
expect_grep "$TMP/out" '^  step time min 0\.0429497 s  median 0\.0644245 s  max 0\.0858993 s  \(1 step\(s\), 8 flows per step\)$'
expect_grep "$TMP/out" '^  worst: placement 1 \(seed 1\): step 0\.0483184 s, busbw 19\.44 GB/s, ratio 0\.7778; hosts node0011, node0014, node0015, node0016, node0019, node0020, node0025, node0031$'
expect_grep "$TMP/out" '^  bottleneck leaf-p01-04 port 7 -> spine-p01-03 port 4: 9 flows share 200 Gb/s \(22\.222 Gb/s each\)$'
expect_grep "$TMP/out" '^  warning \[performance.collective-contention\]: worst placement 2 \(seed 1\): busbw is 50\.0% of the ideal \(min-share 90%\)$'

# ---- placement i alone: its hosts named in rank order give the same model
for k in 0 2; do
  hosts=$(jget "$J" "=', '.join(d['collectives'][$k]['worst']['hosts'])")
  op=$(jget "$J" "['collectives'][$k]['op']")
  case $op in sendrecv) extra=", shift: 4" ;; *) extra="" ;; esac
  printf 'hosts: [%s]\ncollectives:\n  - {op: %s%s, bytes: 1GiB}\n' "$hosts" "$op" "$extra" >"$TMP/alone$k.yaml"
  "$FL" perf --format json --workload "$TMP/alone$k.yaml" "${IN[@]}" >"$TMP/alone$k.json"
  expect_eq "$(jget "$TMP/alone$k.json" "['collectives'][0]['step_time_s']")" \
    "$(jget "$J" "['collectives'][$k]['worst']['step_time_s']")" "$op: the worst placement's hosts alone, same step time"
  expect_eq "$(jget "$TMP/alone$k.json" "=[b['link'] for b in d['collectives'][0]['bottlenecks']]")" \
    "$(jget "$J" "=[b['link'] for b in d['collectives'][$k]['worst']['bottlenecks']]")" "$op: same bottlenecks"
done
# index: i evaluates placement i alone: the same sample
sed 's/count: 16/index: 13/' "$TMP/job.yaml" >"$TMP/idx.yaml"
expect_rc 1 "$FL" perf --format json --workload "$TMP/idx.yaml" "${IN[@]}"
expect_eq "$(jget "$TMP/out" "=[c['samples'] for c in d['collectives']]")" \
  "$(jget "$J" "=[[s for s in c['samples'] if s['index'] == 13] for c in d['collectives']]")" "index: 13 = sample 13 of the 16"
# count 4: the first 4 placements of count 16
sed 's/count: 16/count: 4/' "$TMP/job.yaml" >"$TMP/c4.yaml"
"$FL" perf --format json --workload "$TMP/c4.yaml" "${IN[@]}" >"$TMP/c4.json"
expect_eq "$(jget "$TMP/c4.json" "=[c['samples'] for c in d['collectives']]")" \
  "$(jget "$J" "=[c['samples'][:4] for c in d['collectives']]")" "count 4 = the first 4 of count 16"
# another seed draws other hosts
sed 's/seed: 1/seed: 2/' "$TMP/job.yaml" >"$TMP/s2.yaml"
"$FL" perf --format json --workload "$TMP/s2.yaml" "${IN[@]}" >"$TMP/s2.json"
expect_eq "$(jget "$TMP/s2.json" "=d['collectives'][1]['worst']['hosts'] != $(jget "$J" "['collectives'][1]['worst']['hosts']")")" True "seed 2: placement 0 differs"

# ---- percentile: the judged placement (nearest rank over the worst-first order)
sed 's/seed: 1,/seed: 1, percentile: 50,/' "$TMP/job.yaml" >"$TMP/p50.yaml"
expect_rc 1 "$FL" perf --format json --workload "$TMP/p50.yaml" "${IN[@]}"
expect_eq "$(jget "$TMP/out" "=[(c['judged']['index'], c['judged']['ratio']) for c in d['collectives']]")" \
  "[(5, 1.0), (7, 1.0), (14, 0.5)]" "percentile 50: judged placements"
expect_eq "$(jget "$TMP/out" "=[(f['placement']['index'], [l['link'] for l in f['links']]) for f in d['findings']]")" \
  "[(14, ['leaf-p01-08 port 7 -> spine-p01-03 port 8'])]" "percentile 50: one finding, sendrecv placement 14"
# min-share 0.5: no placement is below half (sendrecv is exactly half)
expect_rc 0 "$FL" perf --min-share 0.5 --workload "$TMP/job.yaml" "${IN[@]}"

# ---- from: a listed pool; order: random keeps the drawn order
cat >"$TMP/from.yaml" <<'EOF'
hosts: 4
placements:
  count: 8
  seed: 7
  order: random
  from: [node0001, node0002, node0005, node0006, node0009, node0010, node0013, node0014, node0017, node0018]
collectives:
  - {op: sendrecv, shift: 2, bytes: 1GiB}
EOF
"$FL" perf --format json --workload "$TMP/from.yaml" "${IN[@]}" >"$TMP/from.json"
expect_eq "$(jget "$TMP/from.json" "['placements']['pool_hosts']")" 10 "from: pool of 10"
expect_eq "$(jget "$TMP/from.json" "=set(d['collectives'][0]['worst']['hosts']) <= {'node0001', 'node0002', 'node0005', 'node0006', 'node0009', 'node0010', 'node0013', 'node0014', 'node0017', 'node0018'}")" True "from: hosts come from the pool"
wh=$(jget "$TMP/from.json" "=', '.join(d['collectives'][0]['worst']['hosts'])")
expect_eq "$(jget "$TMP/from.json" "=any(c['worst']['hosts'] != sorted(c['worst']['hosts']) for c in d['collectives']) or d['collectives'][0]['judged']['hosts'] != sorted(d['collectives'][0]['judged']['hosts'])")" True "order: random keeps the draw order"
printf 'hosts: [%s]\ncollectives:\n  - {op: sendrecv, shift: 2, bytes: 1GiB}\n' "$wh" >"$TMP/fromalone.yaml"
"$FL" perf --format json --workload "$TMP/fromalone.yaml" "${IN[@]}" >"$TMP/fromalone.json"
expect_eq "$(jget "$TMP/fromalone.json" "['collectives'][0]['step_time_s']")" \
  "$(jget "$TMP/from.json" "['collectives'][0]['worst']['step_time_s']")" "order: random: the drawn order alone, same step time"

# ---- AR: the ideal on every placement of a non-blocking fat tree
expect_rc 0 "$FL" perf --routing ar --format json --workload "$TMP/job.yaml" "${IN[@]}"
expect_eq "$(jget "$TMP/out" "=[c['ratio']['min'] for c in d['collectives']]")" "[1.0, 1.0, 1.0]" "AR: every placement at the ideal"

# ---- bad values: file:line:col, exit 2
bad() { # bad NAME 'YAML' 'EXPECTED'
  printf '%b' "$2" >"$TMP/$1.yaml"
  expect_rc 2 "$FL" perf --workload "$TMP/$1.yaml" "${IN[@]}"
  expect_grep "$TMP/err" "$1.yaml:$3"
}
C='collectives:\n  - {op: all-to-all, bytes: 1GiB}\n'
bad b1 "hosts: 8\nplacements: {count: 0, seed: 1}\n$C" '2:21: `count`: expected a whole number from 1 to 65536, got `0`'
bad b2 "hosts: 8\nplacements: {count: 4, seed: -1}\n$C" '2:30: `seed`: expected a whole number'
bad b3 "hosts: 8\nplacements: {count: 4, percentile: 100}\n$C" '2:36: `percentile`: expected a number in \[0, 100\)'
# hexadecimal and underflow read as numbers by strtod: refused like count's
bad b3x "hosts: 8\nplacements: {count: 4, percentile: 0x10}\n$C" '2:36: `percentile`: expected a number in \[0, 100\) \(0: the worst placement\), got `0x10`'
bad b3u "hosts: 8\nplacements: {count: 4, percentile: 1e-400}\n$C" '2:36: `percentile`: expected a number in \[0, 100\) \(0: the worst placement\), got `1e-400`'
bad b3n "hosts: 8\nplacements: {count: 4, percentile: nan}\n$C" '2:36: `percentile`: expected a number in \[0, 100\)'
bad b4 "hosts: 8\nplacements: {count: 4, order: sideways}\n$C" '2:31: `order`: expected pool or random, got `sideways`'
bad b5 "hosts: 8\nplacements: {count: 4, sede: 1}\n$C" '2:24: unknown key `sede` in placements'
bad b6 "hosts: [node0001, node0002]\nplacements: {count: 4}\n$C" '1:8: with `placements:`, `hosts:` is the job'"'"'s host count'
bad b7 "hosts: 8\n$C" '1:8: `hosts: 8` \(a count\) needs `placements:`'
bad b8 "hosts: 8\nplacements: {count: 4, index: 4}\n$C" '2:13: `placements`: `index` must be below `count`'
bad b9 "hosts: 8\nplacements: {count: 4, from: []}\n$C" '2:30: `from`: the list is empty'
bad b10 "hosts: 8\nplacements: {count: 4, from: [node0001, gpu99]}\n$C" '2:41: host `gpu99` is not in the fabric'
bad b15 "hosts: 2\nplacements: {count: 4, from: [node0001, node0001]}\n$C" '2:41: host `node0001` is listed twice'
bad b11 "hosts: 40\nplacements: {count: 4}\n$C" '1:8: `hosts: 40` is more than the 32 host\(s\) the placements draw from'
bad b12 "hosts: 8\nplacements: {seed: 3}\n$C" '2:13: `placements`: expected `count`'
# min-share is in (0, 1]: 1 itself is taken (every placement below the ideal
# is reported: sendrecv shift 4's worst is at half), 1.5 is refused (mutant
# l2-wl-minshare)
printf 'hosts: 8\nmin-share: 1\nplacements: {count: 16, seed: 1, from: all}\ncollectives:\n  - {op: sendrecv, bytes: 1GiB, shift: 4}\n' >"$TMP/ms1.yaml"
expect_rc 1 "$FL" perf --workload "$TMP/ms1.yaml" "${IN[@]}"
expect_grep "$TMP/out" 'warning \[performance\.collective-contention\]: worst placement 2 \(seed 1\): busbw is 50\.0% of the ideal \(min-share 100%\)$'
bad b16 "hosts: 8\nmin-share: 1.5\nplacements: {count: 4}\n$C" '2:12: `min-share`: expected a number in \(0, 1\]'

bad b13 "hosts: 8\nplacements: [4]\n$C" '2:13: `placements`: expected a mapping'
bad b14 "hosts: 0\nplacements: {count: 4}\n$C" '1:8: `hosts`: expected a host count from 1 to 1048576'
bad b16 "hosts: 2\nplacements: {count: 4, from: [node0001, node0002, \"node0001 mlx5_0\"]}\n$C" \
  '2:51: `node0001` and `node0001 mlx5_0` are both host `node0001`: expected each host once \(its name, `node0001`, brings all its NICs\)$'
expect_rc 2 "$FL" perf --dump-flows "$TMP/flows.txt" --workload "$TMP/job.yaml" "${IN[@]}"
expect_grep "$TMP/err" 'dump-flows writes one placement'

# ---- two NICs of one host named as two hosts (2-plane fabric, a NIC per
# plane: tests/fixtures/planes/p2, ibsim + OpenSM per plane). Before: a
# placement of "node0001 mlx5_0" and "node0001 mlx5_1" modelled a flow
# between the planes, "cannot be routed" (exit 1), for what stays inside
# the host; now refused like a host listed twice.
P2=$FL_SRC/tests/fixtures/planes/p2
IN2=(--plane 1:"$P2/plane1.ibnetdiscover" --plane 1:"$P2/plane1.lfts" --plane 2:"$P2/plane2.ibnetdiscover" --plane 2:"$P2/plane2.lfts")
S='collectives:\n  - {op: sendrecv, shift: 1, bytes: 1GiB}\n'
printf '%b' "hosts: 2\nplacements: {count: 1, from: [\"node0001 mlx5_0\", \"node0001 mlx5_1\"]}\n$S" >"$TMP/nics.yaml"
expect_rc 2 "$FL" perf --workload "$TMP/nics.yaml" "${IN2[@]}"
expect_grep "$TMP/err" 'nics.yaml:2:50: `node0001 mlx5_0` and `node0001 mlx5_1` are both host `node0001`: expected each host once'
printf '%b' "hosts: [node0002, \"node0003 mlx5_1\", node0003]\n$S" >"$TMP/nics2.yaml"
expect_rc 2 "$FL" perf --workload "$TMP/nics2.yaml" "${IN2[@]}"
expect_grep "$TMP/err" 'nics2.yaml:1:19: host `node0003 mlx5_1` has 1 NIC\(s\) cabled to a switch, host `node0002` 2'
printf '%b' "hosts: [\"node0002 mlx5_1\", \"node0003 mlx5_1\", \"node0002 mlx5_0\"]\n$S" >"$TMP/nics3.yaml"
expect_rc 2 "$FL" perf --workload "$TMP/nics3.yaml" "${IN2[@]}"
expect_grep "$TMP/err" 'nics3.yaml:1:47: `node0002 mlx5_1` and `node0002 mlx5_0` are both host `node0002`'
# NICs of different hosts stay a job of one NIC per host: 2 flows, line rate
printf '%b' "hosts: [\"node0002 mlx5_1\", \"node0003 mlx5_1\"]\n$S" >"$TMP/nics4.yaml"
expect_rc 0 "$FL" perf --format json --workload "$TMP/nics4.yaml" "${IN2[@]}"
expect_eq "$(jget "$TMP/out" "=[(c['ranks'], c['flows_per_step'], c['busbw_GBps']) for c in d['collectives']]")" \
  "[(2, 2.0, 25.0)]" "one NIC of each of two hosts (25 GB/s = 200 Gb/s)"
finish
