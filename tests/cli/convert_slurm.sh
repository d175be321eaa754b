#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/convert_slurm.sh — `convert --format slurm-tree|slurm-block|
# slurm-yaml` (issue #36; docs/formats/slurm.md): Slurm's topology files
# from the fabric, every expected line written out by hand from the
# fabric's cabling.
#   - the bundled rail-optimised SU (32 DGX hosts x 8 rails, two of
#     dgx-001's cables crossed between rail leaves): one Slurm switch for
#     the SU's 8 rail leaves holding the 32 hosts, the 4 spines above;
#   - a generated 3-tier plan (4 SUs, 2 per spine group): SUs, pods, core,
#     as tree, block and YAML; the file name topology.conf/.yaml names the
#     format;
#   - roles: storage hosts left out and listed, an unknown role kept;
#     a host cabled to nothing listed;
#   - real captures: NVIDIA topograph's ibnetdiscover example (MF0 switch
#     names, rail groups of 3 and 4 leaves, default-named HCAs left out),
#     an ibsim fabric of two switches cabled to each other (a joining root),
#     ibutils' RhinoBased512 (unpadded host numbers across a power of ten);
#   - long lists continued with a backslash, no line over 1,000 bytes;
#   - a fabric with no compute host refused, nothing written.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
R=$src/tests/data/real/captures
conf() { grep -v '^#' "$1"; }

# ---- the bundled SU ----------------------------------------------------------
expect_rc 0 "$FL" convert "$src/fabrics/rail-su-asbuilt.ibnetdiscover" -o - --format slurm-tree
cp "$TMP/out" "$TMP/su.conf"
expect_eq "$(conf "$TMP/su.conf")" "SwitchName=leaf-su01 Nodes=dgx-[001-032]
SwitchName=spine Switches=leaf-su01" "bundled SU: tree"
expect_grep "$TMP/su.conf" '^# leaf-su01: leaf-su01-r0, leaf-su01-r1, leaf-su01-r2, leaf-su01-r3, leaf-su01-r4, leaf-su01-r5, leaf-su01-r6, leaf-su01-r7 \(8 fabric switches\)$'
expect_grep "$TMP/su.conf" '^# spine: spine-01, spine-02, spine-03, spine-04 \(4 fabric switches\)$'
expect_grep "$TMP/su.conf" '^# written by fabriclint convert: 2 switch\(es\), 32 node\(s\)\.$'

# ---- 3 tiers: tree, block, YAML; the file name names the format ---------------
"$FL" gen rail-su --sus 4 --tiers 3 --sus-per-group 2 >"$TMP/t3.xml"
mkdir -p "$TMP/etc"
expect_rc 0 "$FL" convert "$TMP/t3.xml" -o "$TMP/etc/topology.conf"
expect_eq "$(conf "$TMP/etc/topology.conf")" "SwitchName=leaf-su01 Nodes=dgx-[001-032]
SwitchName=leaf-su02 Nodes=dgx-[033-064]
SwitchName=leaf-su03 Nodes=dgx-[065-096]
SwitchName=leaf-su04 Nodes=dgx-[097-128]
SwitchName=spine-p01 Switches=leaf-su[01-02]
SwitchName=spine-p02 Switches=leaf-su[03-04]
SwitchName=core Switches=spine-p[01-02]" "3 tiers: tree"
expect_rc 0 "$FL" convert "$TMP/t3.xml" -o - --format slurm-block
expect_eq "$(conf "$TMP/out")" "BlockName=leaf-su01 Nodes=dgx-[001-032]
BlockName=leaf-su02 Nodes=dgx-[033-064]
BlockName=leaf-su03 Nodes=dgx-[065-096]
BlockName=leaf-su04 Nodes=dgx-[097-128]
BlockSizes=32" "3 tiers: blocks"
expect_rc 0 "$FL" convert "$TMP/t3.xml" -o "$TMP/etc/topology.yaml"
expect_eq "$(grep -v '^ *#' "$TMP/etc/topology.yaml")" '- topology: "fabric-tree"
  cluster_default: true
  tree:
    switches:
    - switch: "leaf-su01"
      nodes: "dgx-[001-032]"
    - switch: "leaf-su02"
      nodes: "dgx-[033-064]"
    - switch: "leaf-su03"
      nodes: "dgx-[065-096]"
    - switch: "leaf-su04"
      nodes: "dgx-[097-128]"
    - switch: "spine-p01"
      children: "leaf-su[01-02]"
    - switch: "spine-p02"
      children: "leaf-su[03-04]"
    - switch: "core"
      children: "spine-p[01-02]"
- topology: "fabric-block"
  cluster_default: false
  block:
    block_sizes:
      - 32
    blocks:
    - block: "leaf-su01"
      nodes: "dgx-[001-032]"
    - block: "leaf-su02"
      nodes: "dgx-[033-064]"
    - block: "leaf-su03"
      nodes: "dgx-[065-096]"
    - block: "leaf-su04"
      nodes: "dgx-[097-128]"' "3 tiers: YAML"
expect_grep "$TMP/etc/topology.yaml" '^    # core: core-001, core-002, core-003, core-004, core-005, core-006, core-007, core-008 and 8 more \(16 fabric switches\)$'
# a name that only ends like topology.conf names no format
expect_rc 2 "$FL" convert "$TMP/t3.xml" -o "$TMP/etc/mytopology.conf"
expect_grep "$TMP/err" "does not name one by its extension"
expect_eq "$(ls "$TMP/etc")" "topology.conf
topology.yaml" "nothing written for the refused name"

# ---- roles, and a host cabled to nothing --------------------------------------
printf 'node,role\ndgx-005,storage\ndgx-006,storage\ndgx-007,compute\ndgx-008,gpu\n' >"$TMP/roles.csv"
expect_rc 0 "$FL" convert "$src/fabrics/rail-su-asbuilt.ibnetdiscover" "$TMP/roles.csv" -o - --format slurm-tree
expect_eq "$(conf "$TMP/out")" "SwitchName=leaf-su01 Nodes=dgx-[001-004,007-032]
SwitchName=spine Switches=leaf-su01" "roles: storage left out, compute and an unknown role kept"
expect_grep "$TMP/out" '^# left out \(storage\): 2: dgx-\[005-006\]$'
expect_grep "$TMP/out" '30 node\(s\)\.$'
# a whole SU of storage hosts: its rail leaves hold no node and are no
# parent of anything (tier 1, below the spines that reach them)
{ echo node,role; for i in $(seq 97 128); do printf "dgx-%03d,storage\n" "$i"; done; } >"$TMP/su4.csv"
expect_rc 0 "$FL" convert "$TMP/t3.xml" "$TMP/su4.csv" -o - --format slurm-tree
expect_eq "$(conf "$TMP/out")" "SwitchName=leaf-su01 Nodes=dgx-[001-032]
SwitchName=leaf-su02 Nodes=dgx-[033-064]
SwitchName=leaf-su03 Nodes=dgx-[065-096]
SwitchName=spine-p01 Switches=leaf-su[01-02]
SwitchName=spine-p02 Switches=leaf-su03
SwitchName=core Switches=spine-p[01-02]" "storage SU: its leaves are no parent"
expect_grep "$TMP/out" '^# left out \(storage\): 32: dgx-\[097-128\]$'
grep -v 'a="dgx-128 \|b="dgx-128 ' "$TMP/t3.xml" >"$TMP/t3-uncabled.xml"
expect_rc 0 "$FL" convert "$TMP/t3-uncabled.xml" -o - --format slurm-block
expect_grep "$TMP/out" '^BlockName=leaf-su04 Nodes=dgx-\[097-127\]$'
expect_grep "$TMP/out" '^BlockSizes=31$'
expect_grep "$TMP/out" '^# left out \(cabled to no switch\): 1: dgx-128$'

# ---- real captures --------------------------------------------------------------
if need_corpus; then
  expect_rc 0 "$FL" convert "$R/NVIDIA__topograph__tests__output__ibnetdiscover__example.out" -o - --format slurm-tree
  cp "$TMP/out" "$TMP/tg.conf"
  expect_eq "$(conf "$TMP/tg.conf" | wc -l)" 9 "topograph: 8 rail groups and the spines"
  expect_grep "$TMP/tg.conf" '^SwitchName=P1-IBSPINE Switches=A09-P1-IBLEAF-\[01-04\],B09-P1-IBLEAF-\[05-08\]$'
  expect_grep "$TMP/tg.conf" '^SwitchName=A09-P1-IBLEAF-03 Nodes=a07-p1-dgx-03-c\[01-18\]$'
  expect_grep "$TMP/tg.conf" '^# A09-P1-IBLEAF-01: A09-P1-IBLEAF-01-01, A09-P1-IBLEAF-02-01, A09-P1-IBLEAF-04-01 \(3 fabric switches\)$'
  expect_grep "$TMP/tg.conf" '^# left out \(no host name\): 69: MT4129 ConnectX7   Mellanox Technologies \(0xe09d730300af10d2\),'
  expect_grep "$TMP/tg.conf" '^# written by fabriclint convert: 9 switch\(es\), 122 node\(s\)\.$'
  expect_rc 1 grep -q 'Aggregation Node' "$TMP/tg.conf"
  expect_rc 0 "$FL" convert "$R/linux-rdma__ibsim__net-examples__net.2sw2path4hca" -o - --format slurm-tree
  expect_eq "$(conf "$TMP/out")" "SwitchName=Switch1 Nodes=Hca[1,3]
SwitchName=Switch2 Nodes=Hca[2,4]
SwitchName=root Switches=Switch[1-2]" "ibsim: two leaves joined by a root"
  expect_rc 0 "$FL" convert "$R/nmorey__ibutils__ibdm__Clusters__RhinoBased512.topo" -o - --format slurm-tree
  expect_grep "$TMP/out" '^SwitchName=SL1-2 Nodes=H-\[65-128\]$'
  expect_grep "$TMP/out" '^SwitchName=SL2 Switches=SL1-\[1-8\]$'
fi

# ---- long lists: continued, never over 1,000 bytes a line ----------------------
sed 's/dgx-\([0-9][0-9][0-9]\)/compute-node-in-data-hall-a-row-12-\1-x/g' "$TMP/t3.xml" >"$TMP/long.xml"
expect_rc 0 "$FL" convert "$TMP/long.xml" -o - --format slurm-tree
cp "$TMP/out" "$TMP/long.conf"
expect_eq "$(awk 'length > 1000' "$TMP/long.conf" | wc -l)" 0 "no line over 1,000 bytes"
expect_grep "$TMP/long.conf" '^SwitchName=leaf-su01 Nodes=compute-node-in-data-hall-a-row-12-001-x,.*,\\$'
joined=$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$TMP/long.conf" | grep '^SwitchName=leaf-su01 ')
expect_eq "$(echo "$joined" | tr ',' '\n' | grep -c 'compute-node-in-data-hall-a-row-12-0[0-3][0-9]-x')" 32 "leaf-su01: the 32 hosts, joined"

# ---- nothing to say: a switch-only capture ---------------------------------------
if need_corpus; then
  expect_rc 2 "$FL" convert "$R/jabl__ibtopotool__tests__1.topo" -o "$TMP/none.conf" --format slurm-tree
  expect_grep "$TMP/err" 'no compute host is cabled to a switch: a Slurm topology needs at least one \(0 host\(s\) cabled to nothing; 4 left out, e\.g\. "MT23108 InfiniHost Mellanox Technologies \(0x0008f10403960558\)": no host name\)$'
  expect_rc 1 test -e "$TMP/none.conf"
fi
finish
