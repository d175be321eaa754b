#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/perf_ckpt.sh — a checkpoint written while a job trains
# (`checkpoint:` of `perf --job`, core/analysis/perf_step.c; docs/perf.md
# "Checkpoint"), against values by hand.
#
# Fabric: `gen rail-su --sus 2 --hosts-per-su 4 --rails 4 --leaf-radix 8
# --speed NDR` (8 hosts of 4 NICs at 400 Gb/s; dgx-001..004 in SU 1,
# dgx-005..008 in SU 2; 4 uplinks per leaf). Job: tp 4 (inside a server),
# dp 4: 16 GPUs on 4 hosts, DP rail rings of 0.8 GB all-reduces (alone
# 400 Gb/s per flow, 0.024 s; 10 buckets, the last exposed: 0.0024 s).
# Checkpoint: 128 GB from the 4 hosts (16 NICs) to 2 storage hosts (8 NICs):
#   128 flows (every writer NIC to every storage NIC) of 128e9 / 128 = 1e9
#   bytes. A storage NIC takes 16 flows: 400 / 16 = 25 Gb/s each, so
#   8e9 / 25e9 = 0.32 s alone and at its ideal (NICs are the limit; each
#   leaf sends at most 32 x 25 = 800 of its 1,600 Gb/s up).
#   During the step: a writer NIC carries 8 checkpoint flows at 25 Gb/s
#   and its DP flow gets the other 200 Gb/s: dp 0.048 s, its last bucket
#   0.0048 s exposed: the step takes 0.0024 s more (compute 0.1572864 +
#   tp 0.03221225472 + dp 0.0024 = 0.19189865472 -> 0.19429865472 s);
#   the checkpoint keeps 25 Gb/s (0.32 s).
#   Storage NIC dgx-007 mlx5_0 at 1x HDR (50 Gb/s): its 16 flows get
#   3.125 Gb/s, the checkpoint takes 8e9 / 3.125e9 = 2.56 s (ideal 0.32 s)
#   and that cable is named; a writer NIC's DP flow then gets 400 - 7 x 25
#   - 3.125 = 221.875 Gb/s: dp 0.024 x 400 / 221.875 s.
. "$(dirname "$0")/lib.bash"
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}
close() { [ "$(pyval "abs(float('$1') - float('$2')) <= 1e-9 * max(1, abs(float('$2')))")" = True ]; }
expect_close() { if close "$1" "$2"; then pass; else fail "${3:-value}: got $1, want $2"; fi; }

expect_rc 0 "$FL" gen rail-su --sus 2 --hosts-per-su 4 --rails 4 --leaf-radix 8 --speed NDR
cp "$TMP/out" "$TMP/rail.xml"
jobfile() { # HOSTS STORAGE-LIST
  cat <<EOF
hosts: $1
training:
  model: {params: 1.6e9, layers: 8, hidden: 4096, seq-len: 4096, global-batch: 32, micro-batch: 1, precision-bytes: 2}
  parallelism: {tp: 4, dp: 4}
  gpu: {peak-tflops: 1000, mfu: 0.5, per-server: 4, scale-up-GBps: 400}
  checkpoint: {bytes: 128GB, storage: $2}
EOF
}
C="=(d['checkpoint']['flows'], d['checkpoint']['flow_bytes'], d['checkpoint']['writers'], d['checkpoint']['storage_nics'])"

# both ways round: storage in SU 2 (hosts: all leaves it out), in SU 1
jobfile all '[dgx-007, dgx-008]' >"$TMP/a.yaml"
jobfile '[dgx-005, dgx-006, dgx-007, dgx-008]' '[dgx-001, dgx-002]' >"$TMP/b.yaml"
for y in a b; do
  expect_rc 0 "$FL" perf --format json --job "$TMP/$y.yaml" "$TMP/rail.xml"
  J=$TMP/out
  expect_eq "$(jget "$J" "$C")" "(128, 1000000000.0, 4, 8)" "$y: the flows"
  expect_close "$(jget "$J" "['checkpoint']['alone_s']")" 0.32 "$y: alone"
  expect_close "$(jget "$J" "['checkpoint']['ideal_s']")" 0.32 "$y: ideal"
  expect_close "$(jget "$J" "['checkpoint']['during_s']")" 0.32 "$y: during"
  expect_close "$(jget "$J" "['checkpoint']['rate_during_gbps']")" 25 "$y: 25 Gb/s per flow"
  expect_close "$(jget "$J" "['checkpoint']['phases_during_s']['dp']")" 0.048 "$y: dp during"
  expect_close "$(jget "$J" "['step']['step_time_s']")" 0.19189865472 "$y: the step"
  expect_close "$(jget "$J" "['checkpoint']['step_time_during_s']")" 0.19429865472 "$y: the step during it"
  expect_eq "$(jget "$J" "=len(d['checkpoint']['bottlenecks'])")" 0 "$y: at its ideal, no bottleneck"
done
expect_rc 0 "$FL" perf --job "$TMP/a.yaml" "$TMP/rail.xml"
expect_grep "$TMP/out" '^  checkpoint: 1\.28e\+11 bytes from 4 hosts \(16 NICs\) to 2 storage host\(s\) \(8 NICs\), 128 flows of 1e\+09 bytes: 0\.32 s alone \(ideal 0\.32 s; slowest flow 25 Gb/s\), 0\.32 s during the step.s traffic \(25 Gb/s\)$'
expect_grep "$TMP/out" '^    step time during it 0\.194299 s \(\+1\.3% on 0\.191899 s\); dp 0\.048 s \(0\.024 s without it\)$'

# four storage hosts (16 NICs): a writer NIC sends 16 checkpoint flows of
# 128e9 / 256 = 0.5e9 bytes, 25 Gb/s each alone (0.16 s; every link on the
# way carries as many per Gb/s); beside its DP flow 17 flows share it:
# 400 / 17 Gb/s each, the checkpoint 0.17 s, dp 0.024 x 17 = 0.408 s, of
# which the last bucket (0.0408 s) and what backward (0.1048576 s) does not
# hide are exposed: a step wholly beside it 0.1572864 + 0.03221225472 +
# 0.0408 + (0.408 - 0.0408 - 0.1048576) = 0.49264105472 s; the checkpoint
# lasts 0.17 s of it, the rest of the step's work at its own pace: 0.17 +
# (1 - 0.17 / 0.49264105472) x 0.19189865472 s.
sed 's/storage: \[dgx-007, dgx-008\]/storage: [dgx-005, dgx-006, dgx-007, dgx-008]/' "$TMP/a.yaml" >"$TMP/four.yaml"
expect_rc 0 "$FL" perf --format json --job "$TMP/four.yaml" "$TMP/rail.xml"
expect_eq "$(jget "$TMP/out" "$C")" "(256, 500000000.0, 4, 16)" "four storage hosts: the flows"
expect_close "$(jget "$TMP/out" "['checkpoint']['alone_s']")" 0.16 "four: alone"
expect_close "$(jget "$TMP/out" "['checkpoint']['during_s']")" 0.17 "four: during, 17 flows per writer NIC"
expect_close "$(jget "$TMP/out" "['checkpoint']['phases_during_s']['dp']")" 0.408 "four: dp during"
expect_close "$(jget "$TMP/out" "['checkpoint']['step_time_during_s']")" "$(pyval "0.17 + (1 - 0.17 / 0.49264105472) * 0.19189865472")" "four: the step during it"

# a storage NIC at 1x HDR: the checkpoint slows, the cable named
L='<link a="dgx-007 mlx5_0" a-port="1" b="leaf-su02-r0" b-port="3" width="4x" speed="NDR"/>'
expect_eq "$(grep -c -F "$L" "$TMP/rail.xml")" 1 "the storage NIC's cable"
sed "s|$L|${L/4x\" speed=\"NDR/1x\" speed=\"HDR}|" "$TMP/rail.xml" >"$TMP/slow.xml"
expect_rc 0 "$FL" perf --format json --job "$TMP/a.yaml" "$TMP/slow.xml"
expect_close "$(jget "$TMP/out" "['checkpoint']['alone_s']")" 2.56 "slow storage NIC: alone"
expect_close "$(jget "$TMP/out" "['checkpoint']['ideal_s']")" 0.32 "slow storage NIC: ideal at the nominal rate"
expect_close "$(jget "$TMP/out" "['checkpoint']['phases_during_s']['dp']")" "$(pyval "0.024 * 400 / 221.875")" "slow storage NIC: dp during"
expect_eq "$(jget "$TMP/out" "=[(b['link'], b['flow_count']) for b in d['checkpoint']['bottlenecks']]")" \
  "[('leaf-su02-r0 port 3 -> dgx-007 mlx5_0 port 1', 16.0)]" "slow storage NIC: named"

# decimal sizes: 2.45TB is 2,450,000,000,000 bytes (1.28e11 = 128GB)
sed 's/bytes: 128GB/bytes: 2.45TB/' "$TMP/a.yaml" >"$TMP/dec.yaml"
expect_rc 0 "$FL" perf --format json --job "$TMP/dec.yaml" "$TMP/rail.xml"
expect_eq "$(jget "$TMP/out" "=(d['checkpoint']['bytes'], d['checkpoint']['flow_bytes'])")" "(2450000000000.0, 19140625000.0)" "2.45TB"
sed 's/bytes: 128GB/bytes: 1.28e11/' "$TMP/a.yaml" >"$TMP/dec2.yaml"
expect_rc 0 "$FL" perf --format json --job "$TMP/dec2.yaml" "$TMP/rail.xml"
expect_close "$(jget "$TMP/out" "['checkpoint']['alone_s']")" 0.32 "1.28e11 bytes"
# a checkpoint shorter than the step slows only what it overlaps: 1 byte
sed 's/bytes: 128GB/bytes: 1/' "$TMP/a.yaml" >"$TMP/one.yaml"
expect_rc 0 "$FL" perf --format json --job "$TMP/one.yaml" "$TMP/rail.xml"
expect_eq "$(jget "$TMP/out" "=abs(d['checkpoint']['step_time_during_s'] - d['step']['step_time_s']) < 1e-9")" True "1 byte: the step as without it"
# two planes (gen fat-tree --radix 8 --planes 2: 32 hosts, a NIC per plane):
# a writer NIC writes its 64e9 / 16 share to the 3 storage NICs of its own
# plane (48 flows of 1.333e9 bytes); a storage NIC takes its plane's 8
# writer NICs: 50 Gb/s each, 1.333e9 x 8 / 50e9 = 0.21333 s
expect_rc 0 "$FL" gen fat-tree --radix 8 --planes 2
cp "$TMP/out" "$TMP/pl2.xml"
sed -e 's/parallelism: {tp: 4, dp: 4}/parallelism: {tp: 2, pp: 2, dp: 4}/' -e 's/per-server: 4/per-server: 2/' \
  -e 's/bytes: 128GB, storage: \[dgx-007, dgx-008\]/bytes: 64GB, storage: [node0030, node0031, node0032]/' "$TMP/a.yaml" >"$TMP/pl.yaml"
expect_rc 0 "$FL" perf --format json --job "$TMP/pl.yaml" "$TMP/pl2.xml"
expect_eq "$(jget "$TMP/out" "=(d['checkpoint']['flows'], d['checkpoint']['storage_nics'], 'step' in d)")" "(48, 6, True)" "planes: each NIC to its plane's storage"
expect_close "$(jget "$TMP/out" "['checkpoint']['alone_s']")" "$(pyval "64e9 / 16 / 3 * 8 / 50e9")" "planes: alone"

# AR beside a checkpoint (a new user's case): the OpenSM fat tree of
# tests/fixtures/routing/fat-tree-3tier-ftree without spine-p02-02, the job
# on node0001-0004 (pod 1, dp 4), 8 GB to node0005-0008 (pod 2). Pod 1's
# traffic to pod 2 has only spine-p01-01 left: each leaf's 200 Gb/s uplink
# to it carries 8 checkpoint flows at 25 Gb/s, full. The cross-leaf DP
# flows have spine-p01-02 free: AR sends them there, where their NIC
# leaves them 200 - 4 x 25 = 100 Gb/s: dp 0.192 x 200 / 100 = 0.384 s.
# Sprayed half of them share the full uplink (1.632 s).
FT=$FL_SRC/tests/fixtures/routing/fat-tree-3tier-ftree
cat >"$TMP/ft.yaml" <<'YAML'
hosts: all
training:
  model: {params: 1.6e9, layers: 8, hidden: 4096, seq-len: 4096, global-batch: 32, micro-batch: 1, precision-bytes: 2}
  parallelism: {tp: 1, dp: 4}
  gpu: {peak-tflops: 1000, mfu: 0.5, per-server: 1}
  checkpoint: {bytes: 8GB, storage: [node0005, node0006, node0007, node0008]}
YAML
for r in ar:0.384 spray:1.632; do
  expect_rc 0 "$FL" perf --format json --routing "${r%%:*}" --fail spine-p02-02 --job "$TMP/ft.yaml" "$FT/topology.ibnetdiscover" "$FT/opensm-lfts.dump"
  expect_close "$(jget "$TMP/out" "['checkpoint']['phases_during_s']['dp']")" "${r#*:}" "${r%%:*} beside the checkpoint: dp"
done

# no checkpoint: no key, no line
sed '/checkpoint:/d' "$TMP/a.yaml" >"$TMP/none.yaml"
expect_rc 0 "$FL" perf --format json --job "$TMP/none.yaml" "$TMP/rail.xml"
expect_eq "$(jget "$TMP/out" "='checkpoint' in d")" False "no checkpoint key"

# refused, naming the line and column
bad() { # FILE-BODY-SED MESSAGE-REGEX [FABRIC]
  sed "$1" "$TMP/a.yaml" >"$TMP/bad.yaml"
  expect_rc 2 "$FL" perf --job "$TMP/bad.yaml" "${3:-$TMP/rail.xml}"
  expect_grep "$TMP/err" "$2"
}
bad 's/dgx-008\]/dgx-009]/' 'bad\.yaml:6:49: storage host `dgx-009` is not in the fabric'
bad 's/^hosts: all/hosts: [dgx-001, dgx-002, dgx-003, dgx-007]/' 'bad\.yaml:6:40: storage host `dgx-007` is one of the job.s hosts'
bad 's/dgx-008\]/dgx-007]/' 'bad\.yaml:6:49: `storage`: host `dgx-007` listed twice'
bad 's/bytes: 128GB/bytes: 0/' 'bad\.yaml:6:23: `bytes`: expected a whole number of bytes from 1 to 2\^64 - 1'
bad 's/bytes: 128GB/bytes: 0.5B/' 'bad\.yaml:6:23: `bytes`: expected a whole number of bytes'
bad 's/bytes: 128GB/bytes: 16EiB/' 'bad\.yaml:6:23: `bytes`: expected a whole number of bytes'
bad 's/dgx-008\]/dgx-007 mlx5_0]/' 'bad\.yaml:6:49: `dgx-007` and `dgx-007 mlx5_0` are both storage host `dgx-007`'
bad 's/\[dgx-007, dgx-008\]/[dgx-007 mlx5_1, dgx-007 mlx5_0]/' 'bad\.yaml:6:56: `dgx-007 mlx5_1` and `dgx-007 mlx5_0` are both storage host `dgx-007`'
bad 's/\[dgx-007, dgx-008\]/[dgx-001, dgx-002, dgx-003, dgx-004, dgx-005, dgx-006, dgx-007, dgx-008]/' 'bad\.yaml:6:15: hosts: all, but every host is a storage host of the checkpoint: none is left for the job'
bad 's/storage: \[dgx-007, dgx-008\]/storage: []/' 'bad\.yaml:6:39: `storage`: expected 1 to 4096 host names'
bad 's/, storage: \[dgx-007, dgx-008\]//' 'bad\.yaml:6:15: `checkpoint`: missing `storage`'
bad 's/bytes: 128GB, //' 'bad\.yaml:6:15: `checkpoint`: missing `bytes`'
bad '6s/}$/, every: 100}/' 'bad\.yaml:6:59: unknown key `every` in checkpoint: expected bytes or storage'
finish
