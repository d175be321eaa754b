#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/perf_fail.sh — `fabriclint perf --fail` (what a job does
# without a switch or a cable; core/analysis/perf_fail.c, docs/perf.md
# "What if"), against values by hand.
#
# Rail fabric (`gen rail-su --sus 2 --hosts-per-su 4 --rails 4 --leaf-radix
# 8 --speed NDR`, no LFTs: ar): each leaf has 4 uplinks (ports 5-8) to
# spine-01..04, 400 Gb/s. Sendrecv of shift 16: each leaf sends 4 flows
# across and receives 4.
#   --fail spine-01: 8 cables out (one per leaf); every leaf has 3 uplinks
#     for its 4 flows: 300 Gb/s each, ratio 0.75.
#   + --fail 'leaf-su01-r0 port 6': that leaf has 2: 200 Gb/s, ratio 0.5.
#   One cable, named from either end ('spine-01 port 1' or 'leaf-su01-r0
#     port 5'): the same 3 uplinks on leaf-su01-r0, ratio 0.75.
# Case c03 (tests/data/cases/c03-...: 2 leaves of 4 hosts, 4 spines, 4x HDR
# 200 Gb/s, OpenSM d-mod-k LFTs): sendrecv of shift 4 sends 4 flows from
# each leaf to the other, one per uplink under the LFTs (ratio 1).
#   --fail spine-0: the LFTs give way to the SM's re-run (spray over the 3
#     uplinks left): 4/3 flows each, 150 Gb/s, ratio 0.75.
. "$(dirname "$0")/lib.bash"
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}
C03=$FL_SRC/tests/data/cases/c03-nccl325-static-routing-collision

expect_rc 0 "$FL" gen rail-su --sus 2 --hosts-per-su 4 --rails 4 --leaf-radix 8 --speed NDR
cp "$TMP/out" "$TMP/rail.xml"
printf 'hosts: all\ncollectives:\n  - {op: sendrecv, shift: 16, bytes: 1073741824}\n' >"$TMP/sr.yaml"
R="=(d['collectives'][0]['routing'], round(d['collectives'][0]['ratio'], 9), len(d.get('failed', [])), d.get('rerouted'))"

expect_rc 0 "$FL" perf --format json --workload "$TMP/sr.yaml" "$TMP/rail.xml"
expect_eq "$(jget "$TMP/out" "$R")" "('ar', 1.0, 0, None)" "healthy"
expect_rc 1 "$FL" perf --format json --fail spine-01 --workload "$TMP/sr.yaml" "$TMP/rail.xml"
expect_eq "$(jget "$TMP/out" "$R")" "('ar', 0.75, 8, False)" "without spine-01"
expect_eq "$(jget "$TMP/out" "['failed'][0]")" "leaf-su01-r0 port 5 - spine-01 port 1" "the first cable out"
expect_rc 1 "$FL" perf --format json --fail spine-01 --fail 'leaf-su01-r0 port 6' --workload "$TMP/sr.yaml" "$TMP/rail.xml"
expect_eq "$(jget "$TMP/out" "$R")" "('ar', 0.5, 9, False)" "without spine-01 and one more uplink"
# the same cable named from either end; once or twice, one cable
for spec in 'spine-01 port 1' 'leaf-su01-r0 port 5'; do
  expect_rc 1 "$FL" perf --format json --fail "$spec" --fail "$spec" --workload "$TMP/sr.yaml" "$TMP/rail.xml"
  expect_eq "$(jget "$TMP/out" "$R")" "('ar', 0.75, 1, False)" "one cable: $spec"
done
# spray routes around it too
expect_rc 1 "$FL" perf --format json --routing spray --fail spine-01 --workload "$TMP/sr.yaml" "$TMP/rail.xml"
expect_eq "$(jget "$TMP/out" "$R")" "('spray', 0.75, 8, False)" "spray without spine-01"
# text: the what-if line first, at most 8 cables named
expect_rc 1 "$FL" perf --fail spine-01 --fail spine-02 --workload "$TMP/sr.yaml" "$TMP/rail.xml"
expect_grep "$TMP/out" '^what if \(--fail\): without 16 cables: leaf-su01-r0 port 5 - spine-01 port 1, .* and 8 more$'
expect_eq "$(sed -n 2p "$TMP/out")" "sendrecv: 1073741824 bytes, 32 ranks (4 per host), ar routing" "the collective follows"

# loaded LFTs give way to the SM's re-run
printf 'hosts: all\ncollectives:\n  - {op: sendrecv, shift: 4, bytes: 1073741824}\n' >"$TMP/c03.yaml"
expect_rc 0 "$FL" perf --format json --workload "$TMP/c03.yaml" "$C03/topo.ibnetdiscover" "$C03/opensm-lfts-dmodk.dump"
expect_eq "$(jget "$TMP/out" "$R")" "('lft', 1.0, 0, None)" "c03 healthy, LFTs"
expect_rc 1 "$FL" perf --format json --fail spine-0 --workload "$TMP/c03.yaml" "$C03/topo.ibnetdiscover" "$C03/opensm-lfts-dmodk.dump"
expect_eq "$(jget "$TMP/out" "$R")" "('spray', 0.75, 2, True)" "c03 without spine-0: re-routed"
expect_rc 1 "$FL" perf --fail spine-0 --workload "$TMP/c03.yaml" "$C03/topo.ibnetdiscover" "$C03/opensm-lfts-dmodk.dump"
expect_grep "$TMP/out" "^  the loaded LFTs are the subnet manager's from before the failure; its re-run is modelled as minimal paths split equally \\(spray routing\\)"

# a training step and placements take it too
cat >"$TMP/job.yaml" <<'EOF'
training:
  model: {params: 1.6e9, layers: 8, hidden: 4096, seq-len: 4096, global-batch: 32, micro-batch: 1, precision-bytes: 2}
  parallelism: {tp: 4, pp: 2, dp: 4, zero: 0}
  gpu: {peak-tflops: 1000, mfu: 0.5, per-server: 4, scale-up-GBps: 400}
EOF
expect_rc 0 "$FL" perf --format json --fail spine-01 --job "$TMP/job.yaml" "$TMP/rail.xml"
expect_eq "$(jget "$TMP/out" "=(len(d['failed']), d['rerouted'])")" "(8, False)" "step: the cables out"
expect_rc 0 "$FL" perf --fail spine-01 --job "$TMP/job.yaml" "$TMP/rail.xml"
expect_grep "$TMP/out" '^what if \(--fail\): without 8 cables: '
printf 'hosts: 4\nplacements: {count: 2, seed: 1}\ncollectives:\n  - {op: all-to-all, bytes: 1073741824}\n' >"$TMP/pl.yaml"
expect_rc 0 "$FL" perf --format json --fail spine-01 --workload "$TMP/pl.yaml" "$TMP/rail.xml"
expect_eq "$(jget "$TMP/out" "=len(d['failed'])")" 8 "placements: the cables out"

# refused: what is not a switch or a cable between switches
bad() { # SPEC MESSAGE-REGEX
  expect_rc 2 "$FL" perf --fail "$1" --workload "$TMP/sr.yaml" "$TMP/rail.xml"
  expect_grep "$TMP/err" "$2"
}
bad spine-09 "^fabriclint: --fail 'spine-09': no node of that name"
bad 'dgx-001 mlx5_0' "^fabriclint: --fail 'dgx-001 mlx5_0': dgx-001 mlx5_0 is not a switch"
bad 'leaf-su01-r0 port 1' "^fabriclint: --fail 'leaf-su01-r0 port 1': the cable of dgx-001 mlx5_0, a NIC of the job, would go with it"
bad leaf-su01-r0 "^fabriclint: --fail 'leaf-su01-r0': the cable of dgx-001 mlx5_0, a NIC of the job"
bad 'spine-01 port 9' "^fabriclint: --fail 'spine-01 port 9': no cable on spine-01 port 9 \\(the fabric has no such port, or it is not cabled\\)$"
for pn in 0 256 x; do
  bad "leaf-su01-r0 port $pn" "^fabriclint: --fail 'leaf-su01-r0 port $pn': expected a port number from 1 to 255 after 'port'$"
done
# every spine: the fabric splits, said once
expect_rc 2 "$FL" perf --fail spine-01 --fail spine-02 --fail spine-03 --fail spine-04 --workload "$TMP/sr.yaml" "$TMP/rail.xml"
expect_grep "$TMP/err" "^fabriclint: --fail splits the fabric: 28 of the 32 NICs the job uses can no longer reach NICs they reached before \\(dgx-001 mlx5_1 on leaf-su01-r1 cannot reach dgx-001 mlx5_0 on leaf-su01-r0\\)$"
expect_eq "$(wc -l <"$TMP/out")" 0 "split: no report"
# planes are apart by design: failing a spine of one is no split. 2 planes
# of a radix-8 tree (32 hosts, a NIC in each): a leaf's 4 NICs send 4 x 28
# all-to-all flows up, over 3 uplinks without pl1-spine-p01-01: 112 / 3
# per uplink against 31 per NIC: ratio 31 x 3 / 112.
expect_rc 0 "$FL" gen fat-tree --radix 8 --planes 2
cp "$TMP/out" "$TMP/pl2.xml"
printf 'hosts: all\ncollectives:\n  - {op: all-to-all, bytes: 1073741824}\n' >"$TMP/a2a.yaml"
expect_rc 1 "$FL" perf --format json --fail pl1-spine-p01-01 --workload "$TMP/a2a.yaml" "$TMP/pl2.xml"
expect_eq "$(jget "$TMP/out" "=(round(d['collectives'][0]['ratio'], 12), len(d['failed']))")" \
  "($(pyval "round(31 * 3 / 112, 12)"), 8)" "a spine of plane 1: no split"
# a training step judges the NICs it uses (and its storage's): with hosts:
# all on a 3-tier radix-8 tree, 64 GPUs on node0001-0064 (pods 1-4) and
# the storage in pod 5, pod 8 cut off is no split of this job; pod 5 is
expect_rc 0 "$FL" gen fat-tree --radix 8 --tiers 3
cp "$TMP/out" "$TMP/ft3.xml"
cat >"$TMP/j64.yaml" <<'YAML'
hosts: all
training:
  model: {params: 1.6e9, layers: 8, hidden: 4096, seq-len: 4096, global-batch: 64, micro-batch: 1, precision-bytes: 2}
  parallelism: {tp: 1, dp: 64}
  gpu: {peak-tflops: 1000, mfu: 0.5, per-server: 1}
  checkpoint: {bytes: 64GB, storage: [node0065, node0066]}
YAML
P8="--fail spine-p08-01 --fail spine-p08-02 --fail spine-p08-03 --fail spine-p08-04"
expect_rc 0 "$FL" perf --format json $P8 --job "$TMP/j64.yaml" "$TMP/ft3.xml"
expect_eq "$(jget "$TMP/out" "=(d['step']['hosts_used'], len(d['failed']), 'error' in d['checkpoint'])")" "(64, 32, False)" "pod 8 cut off: not this job's"
expect_rc 2 "$FL" perf $(echo "$P8" | sed 's/p08/p05/g') --job "$TMP/j64.yaml" "$TMP/ft3.xml"
expect_grep "$TMP/err" "^fabriclint: .*j64\\.yaml: --fail splits the fabric: 2 of the 66 NICs the job uses \\(its storage's too\\) can no longer reach"
# loaded LFTs asked for by name: refused with --fail
expect_rc 2 "$FL" perf --routing lft --fail spine-0 --workload "$TMP/c03.yaml" "$C03/topo.ibnetdiscover" "$C03/opensm-lfts-dmodk.dump"
expect_grep "$TMP/err" "--fail with routing lft: the loaded LFTs are the subnet manager's from before the failure"
# a name that is also 'NAME port N' of another switch: ambiguous; a name
# ending so alone: that switch; a name on two nodes: named as shown
sed 's/"spine-04"/"spine-01 port 2"/g' "$TMP/rail.xml" >"$TMP/odd.xml"
expect_rc 2 "$FL" perf --fail 'spine-01 port 2' --workload "$TMP/sr.yaml" "$TMP/odd.xml"
expect_grep "$TMP/err" "^fabriclint: --fail 'spine-01 port 2': both a node of that name and port 2 of spine-01"
sed 's/"spine-04"/"spine port 7"/g' "$TMP/rail.xml" >"$TMP/odd2.xml"
expect_rc 1 "$FL" perf --format json --fail 'spine port 7' --workload "$TMP/sr.yaml" "$TMP/odd2.xml"
expect_eq "$(jget "$TMP/out" "$R")" "('ar', 0.75, 8, False)" "a switch named 'spine port 7'"
sed 's/"spine-1"/"spine-0"/g' "$C03/topo.ibnetdiscover" >"$TMP/dup.ibnetdiscover"
expect_rc 2 "$FL" perf --fail spine-0 --workload "$TMP/c03.yaml" "$TMP/dup.ibnetdiscover"
expect_grep "$TMP/err" "^fabriclint: --fail 'spine-0': 2 nodes are named spine-0; name one as the fabric shows it \\(\`spine-0 \\(0x0002c90301000003\\)\`, ...\\)$"
expect_rc 1 "$FL" perf --format json --fail 'spine-0 (0x0002c90301000003)' --workload "$TMP/c03.yaml" "$TMP/dup.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "$R")" "('ar', 0.75, 2, False)" "one of two spine-0s, named as shown"
expect_rc 2 "$FL" perf --fail spine-01 --measured /dev/null "$TMP/rail.xml"
expect_grep "$TMP/err" 'and --fail do not apply to --measured'
finish
