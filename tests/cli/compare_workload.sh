#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/compare_workload.sh — `compare --workload` (issue 34 §1, docs/cli.md
# "compare"): the job's collectives modelled on both plans (perf's flow
# model), each collective's bus bandwidth side by side and as a delta, the
# link that limits it, and --fail-on busbw-drop[=X]; on plans whose figures
# are counted by hand, both ways round, at the policy's boundary and one step
# past it; bad workloads exit 2.
. "$(dirname "$0")/lib.bash"
G=(rail-su --sus 2 --rails 2 --hosts-per-su 4 --leaf-radix 8)
"$FL" gen "${G[@]}" -o "$TMP/one.xml" || fail "gen 1:1"
"$FL" gen "${G[@]}" --oversubscription 2:1 -o "$TMP/two.xml" || fail "gen 2:1"
cat >"$TMP/wl.yaml" <<'EOF'
hosts: all
collectives:
  - {op: all-reduce, bytes: 1GiB, name: grads}
  - {op: all-to-all, bytes: 1GiB, name: experts}
EOF
# By hand (8 hosts, 2 NICs each at 400 Gb/s; leaf = one SU's rail, 4 hosts).
# all-to-all: a rank's off-host traffic goes to the same-rail rank of each
# of the 7 other hosts (rail-local, as NCCL's PXN sends it): 7 flows on its
# NIC; 4 of them leave the leaf, so a leaf sends 4 x 4 = 16 flows up. 1:1:
# 4 uplinks, 4 flows each: the NIC (7 flows) limits. 2:1: 2 uplinks, 8
# flows each: the uplink limits, busbw x 7/8 (53.57 -> 46.875 GB/s), and
# the uplink is the bottleneck. The ring all-reduce crosses a leaf's uplinks
# with one flow per direction: unchanged.
W="=[(c['label'], c['busbw_GBps'], c['bottleneck_links']) for s in ('base', 'head') for c in d[s]['workload']['collectives']]"
expect_rc 0 "$FL" compare --fail-on never --format json --workload "$TMP/wl.yaml" "$TMP/one.xml" "$TMP/two.xml"
expect_eq "$(jget "$TMP/out" "$W")" \
  "[('all-reduce \"grads\"', 100.0, 0), ('all-to-all \"experts\"', 53.5714285714, 0), ('all-reduce \"grads\"', 100.0, 0), ('all-to-all \"experts\"', 46.875, 16)]" \
  "1:1 -> 2:1: busbw per collective, bottleneck links"
expect_eq "$(jget "$TMP/out" "=(round(d['head']['workload']['collectives'][1]['busbw_GBps'] / d['base']['workload']['collectives'][1]['busbw_GBps'], 12), d['head']['workload']['collectives'][1]['bottleneck']['link'], d['head']['workload']['collectives'][1]['bottleneck']['flow_count'], [c['busbw_GBps'] for c in d['delta']['workload']['collectives']], (d['base']['workload']['hosts'], d['base']['workload']['nics_per_host']))")" \
  "(0.875, 'leaf-su01-r0 port 7 -> spine-01 port 1', 8.0, [0.0, -6.69642857143], (8, 2))" \
  "2:1: all-to-all at 7/8, the first leaf uplink, 8 flows on it"
# valid against schema/compare.schema.json (Debian's python3-jsonschema)
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
  /usr/bin/python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' \
    "$TMP/out" "$FL_SRC/schema/compare.schema.json" && pass || fail "workload does not validate"
else
  echo "compare_workload: SKIP: no python3-jsonschema (the schema part)"
fi
# the other way round: the busbw rises, no bottleneck in HEAD
expect_rc 0 "$FL" compare --fail-on busbw-drop --format json --workload "$TMP/wl.yaml" "$TMP/two.xml" "$TMP/one.xml"
expect_eq "$(jget "$TMP/out" "$W")" \
  "[('all-reduce \"grads\"', 100.0, 0), ('all-to-all \"experts\"', 46.875, 16), ('all-reduce \"grads\"', 100.0, 0), ('all-to-all \"experts\"', 53.5714285714, 0)]" \
  "2:1 -> 1:1"
expect_eq "$(jget "$TMP/out" "=([c['busbw_GBps'] for c in d['delta']['workload']['collectives']], d['fail_on'][0]['failed'])")" \
  "([0.0, 6.69642857143], False)" "2:1 -> 1:1: a rise, busbw-drop holds"
# busbw-drop=X: the fall is exactly 1/8 of BASE's busbw: X = 0.125 holds,
# 0.1249 fails, and the default (0) fails
expect_rc 0 "$FL" compare --fail-on busbw-drop=0.125 --workload "$TMP/wl.yaml" "$TMP/one.xml" "$TMP/two.xml"
expect_grep "$TMP/out" '^  ok   busbw-drop=0\.125: all-to-all "experts" busbw 53\.57 -> 46\.88 GB/s \(-12\.5 %; within 12\.5 %\)$'
expect_rc 1 "$FL" compare --fail-on busbw-drop=0.1249 --workload "$TMP/wl.yaml" "$TMP/one.xml" "$TMP/two.xml"
expect_grep "$TMP/out" '^  FAIL busbw-drop=0\.1249: all-to-all "experts" busbw 53\.57 -> 46\.88 GB/s \(-12\.5 %; falls more than 12\.49 %\)$'
expect_rc 1 "$FL" compare --fail-on busbw-drop --workload "$TMP/wl.yaml" "$TMP/one.xml" "$TMP/two.xml"
# the text and Markdown rows
expect_grep "$TMP/out" "^collectives \\(--workload $TMP/wl\\.yaml\\), busbw GB/s\$"
expect_grep "$TMP/out" '^    all-reduce "grads" +100 +100 +0$'
expect_grep "$TMP/out" '^    all-to-all "experts" +53\.57 +46\.88 +-6\.696$'
expect_grep "$TMP/out" '^      bottleneck HEAD: leaf-su01-r0 port 7 -> spine-01 port 1, 8 flows share 400 Gb/s$'
expect_eq "$(grep -c 'bottleneck BASE' "$TMP/out")" 0 "no bottleneck line for BASE (the NICs limit)"
expect_rc 1 "$FL" compare --fail-on busbw-drop --format markdown --workload "$TMP/wl.yaml" "$TMP/one.xml" "$TMP/two.xml"
expect_grep "$TMP/out" '^\| &nbsp;&nbsp;all-to-all "experts" \| 53\.57 \| 46\.88 \| -6\.696 \|$'
expect_grep "$TMP/out" '^\| &nbsp;&nbsp;&nbsp;&nbsp;bottleneck HEAD: leaf-su01-r0 port 7 -&gt; spine-01 port 1, 8 flows share 400 Gb/s \| \| \| \|$'

# issue 34's case: two generated 4-SU plans (128 hosts x 8 rails), 1:1 and
# 2:1. all-to-all: 127 flows on a NIC; a leaf (32 ranks) sends 32 x 96
# flows up, over 32 uplinks (96 each: the NIC limits) or 16 (192 each):
# busbw x 127/192. The rail-local ring all-reduce is unchanged; the
# changed cables (512 leaf-spine fewer) and the eBB fall come with it.
"$FL" gen rail-su --sus 4 -o "$TMP/a4.xml" || fail "gen 4-SU 1:1"
"$FL" gen rail-su --sus 4 --oversubscription 2:1 -o "$TMP/b4.xml" || fail "gen 4-SU 2:1"
expect_rc 1 "$FL" compare --fail-on busbw-drop=0.3,ebb-drop=0.4 --format json --workload "$TMP/wl.yaml" "$TMP/a4.xml" "$TMP/b4.xml"
expect_eq "$(jget "$TMP/out" "=([c['busbw_GBps'] for s in ('base', 'head') for c in d[s]['workload']['collectives']], round(d['head']['workload']['collectives'][1]['busbw_GBps'] / d['base']['workload']['collectives'][1]['busbw_GBps'] * 192, 9), d['head']['workload']['collectives'][1]['bottleneck']['flow_count'], d['delta']['inventory']['cables'], d['base']['capacity']['ebb'], d['head']['capacity']['ebb'], [(p['policy'], p['failed']) for p in d['fail_on']])")" \
  "([400.0, 50.344488189, 400.0, 33.30078125], 127.0, 192.0, -512, 1.0, 0.520156, [('busbw-drop=0.3', True), ('ebb-drop=0.4', True)])" \
  "4 SUs 1:1 -> 2:1: all-to-all at 127/192, 192 flows on an uplink, 512 cables fewer, eBB halved"

# HEAD without its spines' cables: no collective can be routed between the
# SUs; each has lost all of its busbw, and the report says why
grep -v 'b="spine-0' "$TMP/one.xml" >"$TMP/split.xml"
expect_rc 1 "$FL" compare --fail-on busbw-drop=0.99 --format json --workload "$TMP/wl.yaml" "$TMP/one.xml" "$TMP/split.xml"
expect_eq "$(jget "$TMP/out" "=([(c['busbw_GBps'], c['error'][:40]) for c in d['head']['workload']['collectives']], [c['busbw_GBps'] for c in d['delta']['workload']['collectives']], d['fail_on'][0]['why'])")" \
  "([(None, 'switch leaf-su02-r0 has no path to LID 7'), (None, 'switch leaf-su02-r0 has no path to LID 7')], [None, None], 'all-reduce \"grads\" busbw 100.00 -> 0.00 GB/s (-100.0 %; falls more than 99 %)')" \
  "HEAD cut in two: unroutable, all of the busbw lost"
expect_rc 1 "$FL" compare --fail-on busbw-drop=0.99 --workload "$TMP/wl.yaml" "$TMP/one.xml" "$TMP/split.xml"
expect_grep "$TMP/out" '^      HEAD: cannot be routed: switch leaf-su02-r0 has no path to LID 7 \(dgx-001 mlx5_0\)'

# BASE with nothing routable: busbw-drop cannot be judged (exit 2), never
# "ok" (an outside tester)
expect_rc 2 "$FL" compare --fail-on busbw-drop --workload "$TMP/wl.yaml" "$TMP/split.xml" "$TMP/one.xml"
expect_grep "$TMP/err" '^fabriclint: --fail-on busbw-drop cannot be judged: all-reduce "grads" cannot be routed in BASE: switch leaf-su02-r0 has no path to LID 7'
# cannot be judged, or refused (exit 2)
expect_rc 2 "$FL" compare --fail-on busbw-drop "$TMP/one.xml" "$TMP/two.xml"
expect_grep "$TMP/err" '^fabriclint: --fail-on busbw-drop cannot be judged: no collectives modelled \(give --workload JOB\.yaml\)$'
expect_rc 2 "$FL" compare --fail-on busbw-drop=-0.1 --workload "$TMP/wl.yaml" "$TMP/one.xml" "$TMP/two.xml"
expect_grep "$TMP/err" "busbw-drop=X: expected a number X >= 0, got '-0.1'"
cat >"$TMP/train.yaml" <<'EOF'
hosts: all
training:
  model: {params: 1.6e9, layers: 8, hidden: 4096, seq-len: 4096, global-batch: 32, micro-batch: 1, precision-bytes: 2}
  parallelism: {tp: 2, dp: 8}
  gpu: {peak-tflops: 1000, mfu: 0.5, per-server: 2, scale-up-GBps: 400}
EOF
# a training step on each side (issue 35 item 5): tp 2 inside a server, dp
# 8 rail rings over the 8 hosts, grads 1.6e9 / 2 x 2 = 1.6e9 B per GPU,
# 14 steps of 2e8 B: 0.056 s at 400 Gb/s; 20 buckets of 80 MB, backward
# 0.1048576 s hides all but the last (0.0028 s). HEAD: dgx-001 mlx5_0 at
# 1x HDR (50 Gb/s): dp 0.448 s, exposed 0.0224 + (0.448 - 0.0224 -
# 0.1048576) = 0.3431424 s: the step rises by 0.3403424 s. The figures on
# each side are perf --job's.
L='<link a="dgx-001 mlx5_0" a-port="1" b="leaf-su01-r0" b-port="1" width="4x" speed="NDR"/>'
expect_eq "$(grep -c -F "$L" "$TMP/one.xml")" 1 "the NIC cable to degrade"
sed "s|$L|${L/4x\" speed=\"NDR/1x\" speed=\"HDR}|" "$TMP/one.xml" >"$TMP/nic.xml"
expect_rc 0 "$FL" compare --fail-on never --format json --workload "$TMP/train.yaml" "$TMP/one.xml" "$TMP/nic.xml"
cp "$TMP/out" "$TMP/cmp.json"
for side in one:base:0 nic:head:1; do # (perf finds the slow phase: exit 1)
  f=${side%%:*} k=${side#*:}
  expect_rc "${k#*:}" "$FL" perf --format json --job "$TMP/train.yaml" "$TMP/$f.xml"
  expect_eq "$(jget "$TMP/cmp.json" "=round(d['${k%:*}']['workload']['step']['step_time_s'], 11)")" \
    "$(jget "$TMP/out" "=round(d['step']['step_time_s'], 11)")" "step: ${k%:*} is perf --job's"
done
expect_eq "$(jget "$TMP/cmp.json" "=(round(d['delta']['workload']['step']['step_time_s'], 12), [(p['phase'], round(p['time_s'], 12)) for p in d['delta']['workload']['step']['phases']], d['base']['workload']['collectives'])")" \
  "(0.3403424, [('tp', 0.0), ('dp', 0.392)], [])" "step: the rise and the dp phase's"
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
  /usr/bin/python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' \
    "$TMP/cmp.json" "$FL_SRC/schema/compare.schema.json" && pass || fail "step does not validate"
fi
R=$(jget "$TMP/cmp.json" "=repr(d['delta']['workload']['step']['step_time_s'] / d['base']['workload']['step']['step_time_s'])")
expect_rc 0 "$FL" compare --fail-on step-rise="$R" --workload "$TMP/train.yaml" "$TMP/one.xml" "$TMP/nic.xml"
expect_grep "$TMP/out" '^  ok   step-rise=.*: step time .* s \(\+.*%; within .*%\)$'
expect_grep "$TMP/out" '^training step \(--workload .*train\.yaml\), s$'
expect_grep "$TMP/out" '^    dp phase time +0\.056 +0\.448 +\+0\.392$'
expect_eq "$(grep -c '^collectives (--workload' "$TMP/out")" 0 "no empty collectives section"
expect_rc 1 "$FL" compare --fail-on step-rise="$(pyval "$R - 1e-6")" --workload "$TMP/train.yaml" "$TMP/one.xml" "$TMP/nic.xml"
expect_grep "$TMP/out" 'FAIL step-rise=.*: step time .* s \(\+.*%; rises more than'
# the other way round: the step falls, step-rise=0 holds
expect_rc 0 "$FL" compare --fail-on step-rise=0 --format json --workload "$TMP/train.yaml" "$TMP/nic.xml" "$TMP/one.xml"
expect_eq "$(jget "$TMP/out" "=round(d['delta']['workload']['step']['step_time_s'], 12)")" -0.3403424 "step: falls the other way"
# busbw-drop on a training step cannot be judged
expect_rc 2 "$FL" compare --fail-on busbw-drop --workload "$TMP/train.yaml" "$TMP/one.xml" "$TMP/nic.xml"
expect_grep "$TMP/err" 'busbw-drop cannot be judged: the workload holds a training step, no list of collectives \(judge it with step-rise\)'
# the checkpoint on each side: tp 2, dp 4 on dgx-001..004 (8 writer NICs),
# 16 GB to dgx-007, dgx-008 (4 storage NICs): 32 flows of 5e8 bytes; a
# storage NIC takes 8 at 50 Gb/s: 0.08 s. HEAD: dgx-001 mlx5_0 at 50 Gb/s
# sends its 4 at 12.5 Gb/s: 0.32 s.
sed -e 's/parallelism: {tp: 2, dp: 8}/parallelism: {tp: 2, dp: 4}/' "$TMP/train.yaml" >"$TMP/tck.yaml"
printf '  checkpoint: {bytes: 16GB, storage: [dgx-007, dgx-008]}\n' >>"$TMP/tck.yaml"
expect_rc 0 "$FL" compare --fail-on never --format json --workload "$TMP/tck.yaml" "$TMP/one.xml" "$TMP/nic.xml"
expect_eq "$(jget "$TMP/out" "=[round(d[s]['workload']['step']['checkpoint']['alone_s'], 12) for s in ('base', 'head', 'delta')]")" "[0.08, 0.32, 0.24]" "checkpoint alone, both sides and the delta"
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
  /usr/bin/python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' \
    "$TMP/out" "$FL_SRC/schema/compare.schema.json" && pass || fail "checkpoint does not validate"
fi
expect_rc 0 "$FL" compare --fail-on never --workload "$TMP/tck.yaml" "$TMP/one.xml" "$TMP/nic.xml"
expect_grep "$TMP/out" '^    checkpoint alone +0\.08 +0\.32 +\+0\.24$'
# step-rise without a training step cannot be judged
expect_rc 2 "$FL" compare --fail-on step-rise --workload "$TMP/wl.yaml" "$TMP/one.xml" "$TMP/two.xml"
expect_grep "$TMP/err" 'step-rise cannot be judged: no training step modelled'
# a host that only BASE has: the error names HEAD and the workload's line
"$FL" gen rail-su --sus 1 --rails 2 --hosts-per-su 4 --leaf-radix 8 -o "$TMP/small.xml" || fail "gen 1 SU"
printf 'hosts: [dgx-001, dgx-008]\ncollectives:\n  - {op: all-reduce, bytes: 1GiB}\n' >"$TMP/named.yaml"
expect_rc 2 "$FL" compare --workload "$TMP/named.yaml" "$TMP/one.xml" "$TMP/small.xml"
expect_grep "$TMP/err" "^fabriclint: --workload on $TMP/small\\.xml:\$"
expect_grep "$TMP/err" "named\\.yaml:1:.*dgx-008"
expect_rc 2 "$FL" compare --workload "$TMP/none.yaml" "$TMP/one.xml" "$TMP/two.xml"
expect_grep "$TMP/err" 'none\.yaml'
finish
