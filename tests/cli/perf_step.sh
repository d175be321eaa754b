#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/perf_step.sh — `fabriclint perf --job` (the training-step
# model, issue 35 item 1; docs/perf.md "Training step", formulas in
# docs/performance-model.md) against values computed by hand.
#
# Fabric: `fabriclint gen rail-su --sus 2 --hosts-per-su 4 --rails 4
# --leaf-radix 8 --speed NDR`: 8 hosts dgx-001..008 with 4 NICs (rails)
# each, 4x NDR = 400 Gb/s (50 GB/s) cables, one leaf per rail and SU
# (hosts on ports 1-4, uplinks on 5-8 to spine-01..04), no LFTs (AR).
#
# Job A (job.yaml): params 1.6e9, 8 layers, hidden 4096, seq 4096, global
# batch 32, micro-batch 1, 2-byte precision; tp 4, pp 2, dp 4, ZeRO 0;
# 4 GPUs per server (one per NIC), scale-up 400 GB/s, 1000 TFLOP/s, MFU 0.5.
#   32 GPUs = 8 hosts; rank = tp + 4 (pp + 2 dp), host = pp + 2 dp.
#   micro-batches m = 32 / (1 x 4) = 8; layers per stage 8 / 2 = 4;
#   activations of a micro-batch act = 1 x 4096 x 4096 x 2 = 33554432 B.
#   TP (inside a server): 4 x 4 x 8 = 128 all-reduces of 33554432 B;
#     each 33554432 x 2(3/4) / 400e9 = 1.2582912e-4 s; 0.01610612736 s.
#   PP (hosts 2dp <-> 2dp+1): 2 x 8 = 16 sendrecv of act / tp = 8388608 B;
#     alone 400 Gb/s: 8388608 x 8 / 400e9 = 1.6777216e-4 s each,
#     0.00268435456 s; with DP on the same NICs 200 Gb/s: 0.00536870912 s.
#   DP (hosts pp, pp+2, pp+4, pp+6; one GPU each): all-reduce of the
#     gradients, 1.6e9 / (4 x 2) x 2 = 4e8 B: 2(4-1) = 6 steps of
#     4e8 / 4 = 1e8 B; alone 400 Gb/s: 0.012 s (busbw 50 GB/s); with PP
#     200 Gb/s: 0.024 s (busbw 25 GB/s).
#   compute 6 x 1.6e9 x (32 x 4096) / (32 x 1e15 x 0.5) = 0.0786432 s,
#     backward 2/3 of it 0.0524288 s; DP buckets 4e8 / (40e6 x 2) = 5:
#     exposed DP = 0.024 / 5 = 0.0048 s (the rest hides behind backward).
#   step = 0.0786432 + 0.01610612736 + 0.00536870912 + 0.0048
#        = 0.10491803648 s; --no-overlap: + 0.024 - 0.0048 = 0.12411803648.
#   ZeRO 3: all-gather x 2 + reduce-scatter, 3 x 3 x 1e8 x 8 / 200e9 =
#     0.036 s, hidden behind all of compute but for 0.036 / 5 = 0.0072 s:
#     step 0.10731803648 s.
# Degraded (deg.xml): leaf-su01-r0 port 5 -> spine-01 at 1x HDR (50 Gb/s).
#   Load-aware AR (the default without LFTs) water-fills the 2 rail-0 DP
#   flows leaving SU 1 over its 4 uplinks by capacity, 50:400:400:400:
#   2 x 50 / 1250 = 0.08 flow on the 50 Gb/s cable (625 Gb/s per flow,
#   more than a NIC's 400), and leaf-su02-r0 the 2 entering it likewise
#   (spine-01's down port to leaf-su01-r0 is its bottleneck that way): the
#   step is the healthy one, 0.10491803648 s, no finding.
#   `--routing spray` splits them equally
#   over 4 uplinks: 0.5 flow on the 50 Gb/s cable, so they run at 100
#   Gb/s alone and with PP: DP 6 x 1e8 x 8 / 100e9 = 0.048 s (ideal 0.012,
#   25 %: a finding naming the cable), exposed 0.048 / 5 = 0.0096 s:
#   step 0.10971803648 s. PP keeps 200 Gb/s (its NICs' rest).
#   Each fabric phase alone (the lower bound): healthy 0.0786432 +
#   0.01610612736 + 0.00268435456 + 0.012 / 5 = 0.09983368192 s, degraded
#   ... + 0.048 / 5 = 0.10703368192 s.
# Job B (ep.yaml): tp 2, cp 2, ep 2, dp 4, top-k 2: 16 GPUs on 4 hosts
#   (host = dp); act = 1 x 2048 x 4096 x 2 = 16777216 B (seq / cp).
#   TP: 4 x 8 x 8 = 256 all-reduces of 16777216 B in a server,
#     16777216 x 1 / 400e9 each: 0.01073741824 s.
#   CP: 64 all-gathers + 64 reduce-scatters of K and V, 2 x 4096 x
#     (4096 / 2) x 2 = 33554432 B, 33554432 / 2 / 400e9 each: 0.00536870912 s.
#   EP (dp 0-1, 2-3: two hosts): 4 x 8 x 8 = 256 all-to-alls of act x 2 =
#     33554432 B, S / 2 per flow: alone 400 Gb/s 3.3554432e-4 s each,
#     0.08589934592 s; with DP 200 Gb/s: 0.17179869184 s.
#   DP over cp x dp = 8 ranks, 2 per host: 2 rail rings, 1.6e9 / 2 x 2 =
#     1.6e9 B, 14 steps of 1.6e9 / 16 = 1e8 B: alone 0.028 s, with EP
#     0.056 s, busbw 2 NICs x 25 = 50 GB/s; 20 buckets: exposed 0.0028 s.
#   compute 1.2582912e15 / (16 x 1e15 x 0.5) = 0.1572864 s;
#   step = 0.1572864 + 0.01073741824 + 0.00536870912 + 0.17179869184 +
#          0.0028 = 0.3479912192 s.
. "$(dirname "$0")/lib.bash"
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}

# (lib.bash's pyval: one interpreter for the 41 comparisons)
close() { [ "$(pyval "abs(float('$1') - float('$2')) <= 1e-9 * max(1, abs(float('$2')))")" = True ]; }
expect_close() { if close "$1" "$2"; then pass; else fail "${3:-value}: got $1, want $2"; fi; }
phase() { # FILE PHASE KEY
  jget "$1" "=[p for p in d['phases'] if p['phase'] == '$2'][0]['$3']"
}

expect_rc 0 "$FL" gen rail-su --sus 2 --hosts-per-su 4 --rails 4 --leaf-radix 8 --speed NDR
cp "$TMP/out" "$TMP/rail.xml"
UPL='<link a="leaf-su01-r0" a-port="5" b="spine-01" b-port="1" width="4x" speed="NDR"/>'
expect_eq "$(grep -c -F "$UPL" "$TMP/rail.xml")" 1 "the generated uplink to degrade"
sed "s|$UPL|${UPL/4x\" speed=\"NDR/1x\" speed=\"HDR}|" "$TMP/rail.xml" >"$TMP/deg.xml"
expect_eq "$(grep -c 'width="1x" speed="HDR"' "$TMP/deg.xml")" 1 "one uplink degraded"

cat >"$TMP/job.yaml" <<'EOF'
training:
  model: {params: 1.6e9, layers: 8, hidden: 4096, seq-len: 4096, global-batch: 32, micro-batch: 1, precision-bytes: 2}
  parallelism: {tp: 4, pp: 2, dp: 4, zero: 0}
  gpu: {peak-tflops: 1000, mfu: 0.5, per-server: 4, scale-up-GBps: 400}
EOF

# ---- job A, healthy: every figure by hand
expect_rc 0 "$FL" perf --format json --job "$TMP/job.yaml" "$TMP/rail.xml"
cp "$TMP/out" "$TMP/a.json"
J=$TMP/a.json
expect_eq "$(jget "$J" "=(d['step']['gpus'], d['step']['hosts_used'], d['step']['gpus_per_server'], d['step']['gpus_per_server_from'], d['routing'])")" \
  "(32, 8, 4, 'job', 'ar')" "placement"
expect_eq "$(jget "$J" "=[(p['phase'], p['scope'], p['ranks'], p['communicators'], p['hosts']) for p in d['phases']]")" \
  "[('tp', 'scale-up', 4, 8, 1), ('pp', 'fabric', 2, 16, 2), ('dp', 'fabric', 4, 8, 4)]" "communicators"
expect_eq "$(jget "$J" "=[(c['op'], c['bytes'], c['count']) for p in d['phases'] for c in p['collectives']]")" \
  "[('all-reduce', 33554432.0, 128.0), ('sendrecv', 8388608.0, 16.0), ('all-reduce', 400000000.0, 1.0)]" \
  "collectives per GPU per step"
expect_close "$(phase "$J" tp bytes_per_gpu)" 4294967296 "tp bytes: 128 x 32 MiB"
expect_close "$(phase "$J" pp bytes_per_gpu)" 134217728 "pp bytes: 16 x 8 MiB"
expect_close "$(phase "$J" dp wire_bytes_per_gpu)" 600000000 "dp on the wire: 4e8 x 2(3/4)"
expect_close "$(phase "$J" tp time_s)" 0.01610612736 "tp time"
expect_close "$(phase "$J" pp alone_s)" 0.00268435456 "pp alone"
expect_close "$(phase "$J" pp time_s)" 0.00536870912 "pp with dp"
expect_close "$(phase "$J" dp alone_s)" 0.012 "dp alone"
expect_close "$(phase "$J" dp ideal_s)" 0.012 "dp ideal"
expect_close "$(phase "$J" dp time_s)" 0.024 "dp with pp"
expect_close "$(phase "$J" dp busbw_GBps)" 25 "dp busbw with pp"
expect_close "$(phase "$J" dp rate_gbps)" 200 "dp slowest flow"
expect_close "$(phase "$J" dp exposed_s)" 0.0048 "dp exposed: the last of 5 buckets"
expect_close "$(jget "$J" "['step']['compute_s']")" 0.0786432 "compute"
expect_close "$(jget "$J" "['step']['dp_buckets']")" 5 "buckets"
expect_close "$(jget "$J" "['step']['step_time_s']")" 0.10491803648 "step time"
# each fabric phase alone: pp 0.00268435456, dp 0.012 / 5 = 0.0024:
# 0.0786432 + 0.01610612736 + 0.00268435456 + 0.0024 = 0.09983368192
expect_close "$(jget "$J" "['step']['step_time_alone_s']")" 0.09983368192 "step time, phases alone"
expect_eq "$(jget "$J" "=(len(d['findings']), [len(p['alone_bottlenecks']) for p in d['phases']])")" \
  "(0, [0, 0, 0])" "healthy: no finding, nothing holds a phase alone back"
expect_eq "$(jget "$J" "=sorted(set(b['capacity_gbps'] for p in d['phases'] for b in p['bottlenecks']))")" \
  "[400.0]" "with each other, pp and dp share the NIC cables"

expect_rc 0 "$FL" perf --job "$TMP/job.yaml" "$TMP/rail.xml"
expect_grep "$TMP/out" '^  step time 0\.104918 s = compute 0\.0786432 s \+ exposed communication 0\.0262748 s \(dp hidden behind 0\.0524288 s of compute but for its last of 5 bucket\(s\)\)$'
expect_grep "$TMP/out" '^    per GPU per step: 128 x all-reduce of 33554432 bytes \(0\.000125829 s each\)$'

expect_rc 0 "$FL" perf --format json --no-overlap --job "$TMP/job.yaml" "$TMP/rail.xml"
expect_close "$(jget "$TMP/out" "['step']['step_time_s']")" 0.12411803648 "--no-overlap: dp exposed in full"

sed 's/zero: 0/zero: 3/' "$TMP/job.yaml" >"$TMP/z3.yaml"
expect_rc 0 "$FL" perf --format json --job "$TMP/z3.yaml" "$TMP/rail.xml"
expect_eq "$(jget "$TMP/out" "=[(c['op'], c['count']) for c in d['phases'][-1]['collectives']]")" \
  "[('all-gather', 2.0), ('reduce-scatter', 1.0)]" "ZeRO 3: two all-gathers and a reduce-scatter"
expect_close "$(phase "$TMP/out" dp time_s)" 0.036 "ZeRO 3 dp time (3/2 of an all-reduce)"
expect_close "$(jget "$TMP/out" "['step']['step_time_s']")" 0.10731803648 "ZeRO 3 step"
# a faster GPU (peak 4000: compute 0.0196608 s, backward 0.0131072 s)
# leaves DP more than its window: ZeRO 0 exposes 0.0048 + (0.024 - 0.0048
# - 0.0131072) = 0.0108928 s; ZeRO 3 hides behind all of compute:
# 0.0072 + (0.036 - 0.0072 - 0.0196608) = 0.0163392 s
sed 's/peak-tflops: 1000/peak-tflops: 4000/' "$TMP/job.yaml" >"$TMP/fast.yaml"
expect_rc 0 "$FL" perf --format json --job "$TMP/fast.yaml" "$TMP/rail.xml"
expect_close "$(phase "$TMP/out" dp exposed_s)" 0.0108928 "fast GPU: dp exposed past backward"
sed 's/zero: 0/zero: 3/' "$TMP/fast.yaml" >"$TMP/fast3.yaml"
expect_rc 0 "$FL" perf --format json --job "$TMP/fast3.yaml" "$TMP/rail.xml"
expect_close "$(phase "$TMP/out" dp exposed_s)" 0.0163392 "fast GPU, ZeRO 3: window is all of compute"
# a bucket of 2e8 B: 2 buckets, the last half of DP's 0.024 s exposed
sed 's/zero: 0}/zero: 0, bucket-bytes: 200MB}/' "$TMP/job.yaml" >"$TMP/bk.yaml"
expect_rc 0 "$FL" perf --format json --job "$TMP/bk.yaml" "$TMP/rail.xml"
expect_eq "$(jget "$TMP/out" "=(d['step']['dp_buckets'], round(d['phases'][-1]['exposed_s'], 12))")" "(2.0, 0.012)" "bucket-bytes"
sed 's/zero: 0/zero: 1/' "$TMP/job.yaml" >"$TMP/z1.yaml"
expect_rc 0 "$FL" perf --format json --job "$TMP/z1.yaml" "$TMP/rail.xml"
expect_eq "$(jget "$TMP/out" "=[(c['op'], c['bytes']) for c in d['phases'][-1]['collectives']]")" \
  "[('reduce-scatter', 400000000.0), ('all-gather', 400000000.0)]" "ZeRO 1: reduce-scatter + all-gather"
expect_close "$(jget "$TMP/out" "['step']['step_time_s']")" 0.10491803648 "ZeRO 1 step = ZeRO 0 (same volume)"

# ---- job A, one uplink at 1x HDR: load-aware AR steers around it
expect_rc 0 "$FL" perf --format json --job "$TMP/job.yaml" "$TMP/deg.xml"
expect_eq "$(jget "$TMP/out" "=(d['routing'], d['ar']['converged'], len(d['findings']))")" "('ar', True, 0)" "AR: no finding"
expect_close "$(jget "$TMP/out" "['step']['step_time_s']")" 0.10491803648 "AR: the healthy step time"
expect_close "$(phase "$TMP/out" dp time_s)" 0.024 "AR: dp with pp as healthy"
# ---- job A, one uplink at 1x HDR, sprayed: slower step, the link named
expect_rc 1 "$FL" perf --routing spray --format json --job "$TMP/job.yaml" "$TMP/deg.xml"
cp "$TMP/out" "$TMP/d.json"
J=$TMP/d.json
expect_close "$(phase "$J" dp alone_s)" 0.048 "dp alone over the degraded uplink"
expect_close "$(phase "$J" dp time_s)" 0.048 "dp with pp"
expect_close "$(phase "$J" dp ideal_s)" 0.012 "dp ideal at the nominal rates"
expect_close "$(phase "$J" pp time_s)" 0.00536870912 "pp unchanged"
expect_close "$(jget "$J" "['step']['step_time_s']")" 0.10971803648 "step time with the degraded uplink"
# alone: 0.0786432 + 0.01610612736 + 0.00268435456 + 0.048 / 5
expect_close "$(jget "$J" "['step']['step_time_alone_s']")" 0.10703368192 "degraded, phases alone"
expect_eq "$(jget "$J" "=[(b['link'], b['capacity_gbps'], b['nominal_gbps'], b['degraded'], b['flow_count']) for b in d['phases'][-1]['bottlenecks']]")" \
  "[('leaf-su01-r0 port 5 -> spine-01 port 1', 50.0, 400.0, True, 0.5), ('spine-01 port 1 -> leaf-su01-r0 port 5', 50.0, 400.0, True, 0.5)]" \
  "dp bottleneck: the degraded uplink both ways"
expect_eq "$(jget "$J" "=[(f['phase'], f['message']) for f in d['findings']]")" \
  "[('dp', 'dp phase alone takes 0.048 s, 25.0% of its no-contention speed (ideal 0.012 s; min-share 90%); the cable leaf-su01-r0 port 5 -> spine-01 port 1 runs at 50 Gb/s, below its nominal 400 Gb/s')]" \
  "the finding names the cable"
# min-share at the phase's 25 % and just above it
expect_rc 0 "$FL" perf --routing spray --format json --min-share 0.25 --job "$TMP/job.yaml" "$TMP/deg.xml"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "min-share 0.25: at the boundary, no finding"
expect_rc 1 "$FL" perf --routing spray --format json --min-share 0.26 --job "$TMP/job.yaml" "$TMP/deg.xml"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 1 "min-share 0.26: a finding"
expect_rc 1 "$FL" perf --routing spray --job "$TMP/job.yaml" "$TMP/deg.xml"
expect_grep "$TMP/out" '^    bottleneck leaf-su01-r0 port 5 -> spine-01 port 1: 0\.5 of the phase.s flows, 50 Gb/s \(100\.000 Gb/s each\); the cable runs below its nominal 400 Gb/s$'
expect_grep "$TMP/out" '^  step time 0\.109718 s '
# the same cable on rail 3 (the flows toward the first NICs are then at
# 200 Gb/s, the slow ones later): the same times, that link named
UPL3='<link a="leaf-su01-r3" a-port="5" b="spine-01" b-port="4" width="4x" speed="NDR"/>'
expect_eq "$(grep -c -F "$UPL3" "$TMP/rail.xml")" 1 "the rail-3 uplink"
sed "s|$UPL3|${UPL3/4x\" speed=\"NDR/1x\" speed=\"HDR}|" "$TMP/rail.xml" >"$TMP/deg3.xml"
expect_rc 1 "$FL" perf --routing spray --format json --job "$TMP/job.yaml" "$TMP/deg3.xml"
expect_close "$(phase "$TMP/out" dp time_s)" 0.048 "rail 3: dp with pp"
expect_close "$(jget "$TMP/out" "['step']['step_time_s']")" 0.10971803648 "rail 3: step time"
expect_eq "$(jget "$TMP/out" "=[b['link'] for b in d['phases'][-1]['bottlenecks']]")" \
  "['leaf-su01-r3 port 5 -> spine-01 port 4', 'spine-01 port 4 -> leaf-su01-r3 port 5']" "rail 3: the link"

# ---- job B: CP and EP, DP over cp x dp with two GPUs per host
cat >"$TMP/ep.yaml" <<'EOF'
training:
  model: {params: 1.6e9, layers: 8, hidden: 4096, seq-len: 4096, global-batch: 32, micro-batch: 1, top-k: 2}
  parallelism: {tp: 2, cp: 2, ep: 2, dp: 4}
  gpu: {peak-tflops: 1000, mfu: 0.5, per-server: 4, scale-up-GBps: 400}
EOF
expect_rc 0 "$FL" perf --format json --job "$TMP/ep.yaml" "$TMP/rail.xml"
J=$TMP/out
expect_eq "$(jget "$J" "=[(p['phase'], p['scope'], p['ranks'], p['communicators'], p['hosts']) for p in d['phases']]")" \
  "[('tp', 'scale-up', 2, 8, 1), ('cp', 'scale-up', 2, 8, 1), ('ep', 'fabric', 2, 8, 2), ('dp', 'fabric', 8, 2, 4)]" \
  "job B communicators"
expect_eq "$(jget "$J" "=[(c['op'], c['bytes'], c['count']) for p in d['phases'] for c in p['collectives']]")" \
  "[('all-reduce', 16777216.0, 256.0), ('all-gather', 33554432.0, 64.0), ('reduce-scatter', 33554432.0, 64.0), ('all-to-all', 33554432.0, 256.0), ('all-reduce', 1600000000.0, 1.0)]" \
  "job B collectives"
expect_close "$(phase "$J" tp time_s)" 0.01073741824 "job B tp"
expect_close "$(phase "$J" cp time_s)" 0.00536870912 "job B cp"
expect_close "$(phase "$J" ep alone_s)" 0.08589934592 "job B ep alone"
expect_close "$(phase "$J" ep time_s)" 0.17179869184 "job B ep with dp"
expect_close "$(phase "$J" dp alone_s)" 0.028 "job B dp alone"
expect_close "$(phase "$J" dp busbw_GBps)" 50 "job B dp busbw: two NICs per host"
expect_close "$(jget "$J" "['step']['step_time_s']")" 0.3479912192 "job B step"

# ---- GPUs per server and their NICs from a host profile: case c06
# (NVIDIA/nccl#820) has GPU0 and GPU1 both nearest mlx5_0 and nothing on
# mlx5_1; on a 4-host 2-rail SU a dp-8 job then has 2 GPUs per server whose
# two rail rings both leave through mlx5_0: 3.2e9 B of gradients, 14 steps
# of 3.2e9 / 16 = 2e8 B on each ring, the two rings' flows one of 4e8 B at
# 400 Gb/s: 14 x 4e8 x 8 / 400e9 = 0.112 s, busbw one
# NIC's 50 GB/s. Without the profile (per-server: 2, GPU g on NIC g) each
# ring has its own NIC: 0.056 s, 100 GB/s.
C6=$FL_SRC/tests/data/cases/c06-nccl820-gpu-nic-affinity
expect_rc 0 "$FL" gen rail-su --sus 1 --hosts-per-su 4 --rails 2 --speed NDR
cp "$TMP/out" "$TMP/r2.xml"
printf 'training:\n  model: {params: 1.6e9, layers: 8, hidden: 4096, seq-len: 4096, global-batch: 32, micro-batch: 1}\n  parallelism: {dp: 8}\n  gpu: {peak-tflops: 1000, mfu: 0.5}\n' >"$TMP/p.yaml"
expect_rc 0 "$FL" perf --format json --job "$TMP/p.yaml" "$TMP/r2.xml" "$C6/nvidia-smi-topo-m.txt"
expect_eq "$(jget "$TMP/out" "=(d['step']['gpus_per_server'], d['step']['gpus_per_server_from'], d['step']['hosts_used'])")" \
  "(2, 'host profile', 4)" "GPUs per server from the profile"
expect_close "$(phase "$TMP/out" dp time_s)" 0.112 "both GPUs on mlx5_0"
expect_close "$(phase "$TMP/out" dp busbw_GBps)" 50 "one NIC's bus bandwidth"
sed 's/mfu: 0.5}/mfu: 0.5, per-server: 2}/' "$TMP/p.yaml" >"$TMP/p2.yaml"
expect_rc 0 "$FL" perf --format json --job "$TMP/p2.yaml" "$TMP/r2.xml"
expect_close "$(phase "$TMP/out" dp time_s)" 0.056 "GPU g on NIC g"
expect_close "$(phase "$TMP/out" dp busbw_GBps)" 100 "two NICs"
expect_rc 0 "$FL" perf --format json --job "$TMP/p.yaml" "$TMP/r2.xml"
expect_eq "$(jget "$TMP/out" "=(d['step']['gpus_per_server'], d['step']['gpus_per_server_from'], d['phases'][0]['scope'])")" \
  "(8, 'default', 'scale-up')" "no profile: 8 GPUs per server, dp inside one"

# ---- bad input: file:line:col or a usage error, exit 2
printf 'training:\n  model: {params: 1e9, layers: 7, hidden: 1024, seq-len: 1024, global-batch: 8, micro-batch: 1}\n  parallelism: {pp: 2}\n  gpu: {peak-tflops: 1000, mfu: 0.5}\n' >"$TMP/bad1.yaml"
expect_rc 2 "$FL" perf --job "$TMP/bad1.yaml" "$TMP/rail.xml"
expect_grep "$TMP/err" 'bad1\.yaml:2:3: .*layers must be a multiple of pp'
printf 'training:\n  model: {params: 1e9, layers: 8, hidden: 1024, seq-len: 1024, global-batch: 8, micro-batch: 1}\n  gpu: {peak-tflops: 1000, mfu: 1.5}\n' >"$TMP/bad2.yaml"
expect_rc 2 "$FL" perf --job "$TMP/bad2.yaml" "$TMP/rail.xml"
expect_grep "$TMP/err" 'bad2\.yaml:3:33: `mfu`: expected a number above 0 and at most 1, got `1\.5`'
printf 'training:\n  model: {params: 1e9, layers: 8, hidden: 1024, seq-len: 1024, global-batch: 8, micro-batch: 1, heads: 8}\n  gpu: {peak-tflops: 1000, mfu: 0.5}\n' >"$TMP/bad3.yaml"
expect_rc 2 "$FL" perf --job "$TMP/bad3.yaml" "$TMP/rail.xml"
expect_grep "$TMP/err" 'bad3\.yaml:2:.*unknown key `heads` in model'
sed 's/dp: 4/dp: 8/' "$TMP/job.yaml" >"$TMP/big.yaml"
expect_rc 2 "$FL" perf --job "$TMP/big.yaml" "$TMP/rail.xml"
expect_grep "$TMP/err" 'tp x cp x pp x dp = 64 GPUs, but the job.s 8 host\(s\) have 4 GPUs each \(job\): 32 in all'
printf 'hosts: all\ncollectives:\n  - {op: all-reduce, bytes: 1GiB}\n' >"$TMP/coll.yaml"
expect_rc 2 "$FL" perf --job "$TMP/coll.yaml" "$TMP/rail.xml"
expect_grep "$TMP/err" 'expected a `training:` section'
expect_rc 2 "$FL" perf --workload "$TMP/job.yaml" "$TMP/rail.xml"
expect_grep "$TMP/err" 'a training step is modelled with --job'
expect_rc 2 "$FL" perf --no-overlap --workload "$TMP/coll.yaml" "$TMP/rail.xml"
expect_rc 2 "$FL" perf --job "$TMP/job.yaml" --workload "$TMP/coll.yaml" "$TMP/rail.xml"
{ cat "$TMP/job.yaml"; printf 'collectives:\n  - {op: all-reduce, bytes: 1GiB}\n'; } >"$TMP/both.yaml"
expect_rc 2 "$FL" perf --job "$TMP/both.yaml" "$TMP/rail.xml"
expect_grep "$TMP/err" 'both\.yaml:2:3: `training:` derives the step.s collectives'
finish
