#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/host_profile.sh — issue 16: GPU<->NIC host profiles (NCCL
# topology XML, nvidia-smi topo -m) attached to a fabric and the three
# rail-alignment GPU rules (docs/rules/rail-alignment.md, "GPU affinity"):
#   - case c06 (NVIDIA/nccl#820): GPU0 and GPU1 behind one PCIe switch with
#     one NIC resolve to mlx5_0 (switch 0000:03:00.0), mlx5_1 serves no GPU;
#     both files of the case, on a 4-host 2-rail SU (`gen rail-su`), and on
#     the demo rail-su-asbuilt dump, where dgx-001's crossed mlx5_0 cable
#     shows up as the GPU-level consequence for GPU0 and GPU1;
#   - a real 4-GPU/4-NIC nvidia-smi output (MIT, ASUS ESC8000A-E12, ties at
#     NODE split one NIC per GPU) on a 4-rail SU: clean; the same SU with
#     dgx-001's mlx5_0/mlx5_1 cables crossed in the ibsim net file (the
#     fabrics/regen.sh edit): gpu-rail names GPU0 and GPU1, leaves and fixes;
#     a map that swaps rails 0 and 1: gpu-order names GPU0 and GPU1;
#   - a profile named after its host applies to that host only;
#   - bad input: file:line:col errors, exit 2.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
C6=$src/tests/data/cases/c06-nccl820-gpu-nic-affinity
ASUS=luigifcruz__stelline__asus-esc8000a-e12__nvidia-smi-topo-m.txt
NCV4=NVIDIA__nccl__src__test__ncv4__topo.xml
NDV5=NVIDIA__nccl__src__test__ndv5__ndv5-topo-new.xml
need_external "$ASUS" "$NCV4" "$NDV5"
SMI=$FL_EXTERNAL/$ASUS

rules() { jget "$TMP/out" "=' '.join(sorted(f['rule'] for f in d['findings'] if f['rule'].startswith('rail-alignment.gpu')))"; }
ev() { jget "$TMP/out" "=[f['evidence'] for f in d['findings'] if f['rule']=='$1'][0]$2"; }
msg() { jget "$TMP/out" "=' | '.join(f['message'] for f in d['findings'] if f['rule']=='$1')"; }
nodes() { jget "$TMP/out" "=', '.join([f for f in d['findings'] if f['rule']=='$1'][0]['nodes'])"; }

"$FL" gen rail-su --sus 1 --hosts-per-su 4 --rails 2 -o "$TMP/r2.xml"
"$FL" gen rail-su --sus 1 --hosts-per-su 4 --rails 4 --format ibnetdiscover -o "$TMP/r4.ibnd"
"$FL" gen rail-su --sus 1 --hosts-per-su 4 --rails 2 --format ibnetdiscover -o "$TMP/r2.ibnd"
"$FL" gen rail-su --sus 1 --hosts-per-su 4 --rails 4 --format ibsim -o "$TMP/r4.net"

# ---- c06: both files, the same GPUs and NIC --------------------------------
for f in nccl-topo.xml nvidia-smi-topo-m.txt; do
  expect_rc 0 "$FL" check --format json "$TMP/r2.xml" "$C6/$f" --rules 'rail-alignment.*'
  expect_eq "$(rules)" "rail-alignment.gpu-shared-nic" "c06 $f: rules"
  expect_eq "$(ev rail-alignment.gpu-shared-nic "['shared'][0]['nic']")" mlx5_0 "c06 $f: NIC"
  expect_eq "$(ev rail-alignment.gpu-shared-nic "['shared'][0]['gpus']")" "[0, 1]" "c06 $f: GPUs"
  expect_eq "$(ev rail-alignment.gpu-shared-nic "['idle_nics'][0]['nic']")" mlx5_1 "c06 $f: idle NIC"
  expect_eq "$(ev rail-alignment.gpu-shared-nic "['count']")" 4 "c06 $f: hosts"
  expect_eq "$(nodes rail-alignment.gpu-shared-nic)" "dgx-001 mlx5_0, dgx-002 mlx5_0, dgx-003 mlx5_0, dgx-004 mlx5_0" "c06 $f: nodes"
done
# the pre-NIC-Legend layout (older drivers: device names as column labels),
# made from c06's matrix by renaming the labels and dropping the legend
sed -e 's/NIC0/mlx5_0/g; s/NIC1/mlx5_1/g' -e '/^NIC Legend:/,$d' \
  "$C6/nvidia-smi-topo-m.txt" >"$TMP/old-driver.txt"
expect_rc 0 "$FL" check --format json "$TMP/r2.xml" "$TMP/old-driver.txt" --rules 'rail-alignment.*'
expect_eq "$(ev rail-alignment.gpu-shared-nic "['shared'][0]['nic']") $(ev rail-alignment.gpu-shared-nic "['shared'][0]['gpus']")" "mlx5_0 [0, 1]" "old layout: NIC and GPUs"
# the XML names the PCIe switch (NCCL's PIX: one flattened switch); the
# nvidia-smi matrix only the class (PXB: the switch's own bridges counted)
expect_eq "$(ev rail-alignment.gpu-shared-nic "['shared'][0]['path']")" PXB "c06 nvidia-smi: path"
expect_eq "$(ev rail-alignment.gpu-shared-nic "['shared'][0]['pcie_switch']")" "" "c06 nvidia-smi: no switch"
expect_rc 0 "$FL" check --format json "$TMP/r2.xml" "$C6/nccl-topo.xml" --rules 'rail-alignment.*'
expect_eq "$(ev rail-alignment.gpu-shared-nic "['shared'][0]['pcie_switch']")" 0000:03:00.0 "c06 xml: switch"
expect_eq "$(ev rail-alignment.gpu-shared-nic "['shared'][0]['path']")" PIX "c06 xml: path"
expect_grep "$TMP/out" '2 GPUs \(GPU0, GPU1\) resolve to one NIC, mlx5_0 \(PCIe switch 0000:03:00.0, PIX\); mlx5_1 serves no GPU \(its nearest GPU is at PHB\)'
# GPU1 one bridge deeper below the switch (c06's XML with a bridge
# 0000:04:00.0 around it): through two bridges to mlx5_0 is PXB, GPU0 stays
# PIX (mutant l2-nccl-pix)
sed -e '/busid="0000:06:00.0"/i\      <pci busid="0000:04:00.0" class="0x060400" link_speed="32.0 GT/s PCIe" link_width="16">' \
  -e '/<gpu dev="1"/{n;a\      </pci>
}' "$C6/nccl-topo.xml" >"$TMP/deep.xml"
expect_rc 0 "$FL" check --format json "$TMP/r2.xml" "$TMP/deep.xml" --rules 'rail-alignment.*'
expect_eq "$(ev rail-alignment.gpu-shared-nic "['shared'][0]['paths']")" "['PIX', 'PXB']" "c06, GPU1 a bridge deeper: paths"

# ---- c06 on the demo SU: one shared-NIC finding for 32 hosts, and dgx-001's
# crossed mlx5_0 as the GPU-level consequence -------------------------------
expect_rc 1 "$FL" check --format json "$src/fabrics/rail-su-asbuilt.ibnetdiscover" "$C6/nvidia-smi-topo-m.txt" --rules 'rail-alignment.*'
expect_eq "$(rules)" "rail-alignment.gpu-rail rail-alignment.gpu-shared-nic" "asbuilt+c06: rules"
expect_eq "$(ev rail-alignment.gpu-shared-nic "['count']")" 32 "asbuilt+c06: hosts"
expect_eq "$(ev rail-alignment.gpu-rail "['host']")" dgx-001 "asbuilt+c06: host"
expect_eq "$(jget "$TMP/out" "=[(g['gpu'], g['nic'], g['leaf'], g['leaf_rail'], g['fix_leaf']) for f in d['findings'] if f['rule']=='rail-alignment.gpu-rail' for g in f['evidence']['gpus']]")" \
  "[(0, 'mlx5_0', 'leaf-su01-r1', 'mlx5_3', 'leaf-su01-r0'), (1, 'mlx5_0', 'leaf-su01-r1', 'mlx5_3', 'leaf-su01-r0')]" "asbuilt+c06: GPUs"

# ---- a real 4-GPU server, ties split one NIC per GPU: clean on a 4-rail SU -
expect_rc 0 "$FL" check --format json "$TMP/r4.ibnd" "$SMI" --rules 'rail-alignment.*'
expect_eq "$(rules)" "" "asus on r4: no GPU finding"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "asus on r4: no finding at all"

# crossed cables (the regen.sh net-file edit): the GPU-level consequence
sed -e '/^\[/s/"dgx-001 mlx5_0"\[/"@SWAP@"[/' \
    -e '/^\[/s/"dgx-001 mlx5_1"\[/"dgx-001 mlx5_0"[/' \
    -e '/^\[/s/"@SWAP@"\[/"dgx-001 mlx5_1"[/' \
    -e '/^Ca.*"dgx-001 mlx5_0"/{n;s/"leaf-su01-r0"/"leaf-su01-r1"/}' \
    -e '/^Ca.*"dgx-001 mlx5_1"/{n;s/"leaf-su01-r1"/"leaf-su01-r0"/}' \
    "$TMP/r4.net" >"$TMP/r4swap.net"
expect_rc 1 "$FL" check --format json "$TMP/r4swap.net" "$SMI" --rules 'rail-alignment.*'
expect_eq "$(rules)" "rail-alignment.gpu-rail" "asus swapped: rules"
expect_eq "$(jget "$TMP/out" "=[(g['gpu'], g['nic'], g['leaf'], g['leaf_port'], g['rail'], g['leaf_rail'], g['fix_leaf'], g['problem']) for f in d['findings'] if f['rule']=='rail-alignment.gpu-rail' for g in f['evidence']['gpus']]")" \
  "[(0, 'mlx5_0', 'leaf-su01-r1', 1, 'mlx5_0', 'mlx5_1', 'leaf-su01-r0', 'wrong-leaf'), (1, 'mlx5_1', 'leaf-su01-r0', 1, 'mlx5_1', 'mlx5_0', 'leaf-su01-r1', 'wrong-leaf')]" "asus swapped: GPUs"
expect_eq "$(nodes rail-alignment.gpu-rail)" "dgx-001 mlx5_0, leaf-su01-r1, leaf-su01-r0, dgx-001 mlx5_1" "asus swapped: nodes"

# rails given by a map that swaps rails 0 and 1: GPU i <-> rail i broken
printf 'mlx5_0 1\nmlx5_1 0\nmlx5_2 2\nmlx5_3 3\n' >"$TMP/swap.map"
expect_rc 0 "$FL" check --format json "$TMP/r4.ibnd" "$SMI" --rules 'rail-alignment.*' --param "rail-alignment.map=$TMP/swap.map"
expect_eq "$(rules)" "rail-alignment.gpu-order" "asus, swapped map: rules"
expect_eq "$(jget "$TMP/out" "=[(g['gpu'], g['nic'], g['rail'], g['expected_rail']) for f in d['findings'] if f['rule']=='rail-alignment.gpu-order' for g in f['evidence']['gpus']]")" \
  "[(0, 'mlx5_0', '1', '0'), (1, 'mlx5_1', '0', '1')]" "asus, swapped map: GPUs"
expect_eq "$(ev rail-alignment.gpu-order "['count']")" 4 "asus, swapped map: hosts"

# ---- a profile named after its host wins for that host ---------------------
cp "$SMI" "$TMP/dgx-002.nvidia-smi.txt"
printf 'mlx5_0 0\nmlx5_1 1\nmlx5_2 0\nmlx5_3 1\n' >"$TMP/two.map"
expect_rc 0 "$FL" check --format json "$TMP/r4.ibnd" "$C6/nccl-topo.xml" "$TMP/dgx-002.nvidia-smi.txt" --rules 'rail-alignment.gpu*'
expect_eq "$(ev rail-alignment.gpu-shared-nic "['hosts']")" "['dgx-001', 'dgx-003', 'dgx-004']" "named profile: fleet hosts"

# NCCL's ncv4 dump named after a host attaches to it whatever its NICs: four
# GPUs on four NUMA nodes share eth0 (PHB from NUMA node 0, SYS across)
cp "$FL_EXTERNAL/$NCV4" "$TMP/dgx-001.xml"
expect_rc 1 "$FL" check --format json "$TMP/r4.ibnd" "$TMP/dgx-001.xml" --rules 'rail-alignment.gpu*'
expect_eq "$(ev rail-alignment.gpu-shared-nic "['shared'][0]['gpus']") $(ev rail-alignment.gpu-shared-nic "['shared'][0]['paths']")" "[0, 1, 2, 3] ['PHB', 'SYS', 'SYS', 'SYS']" "ncv4 named: GPUs and classes"
expect_eq "$(jget "$TMP/out" "=[(g['gpu'], g['problem']) for f in d['findings'] if f['rule']=='rail-alignment.gpu-rail' for g in f['evidence']['gpus']]")" \
  "[(0, 'nic-missing'), (1, 'nic-missing'), (2, 'nic-missing'), (3, 'nic-missing')]" "ncv4 named: eth0 not on the fabric"

# GPU i <-> rail i needs as many rails as GPUs: 4 GPUs on 2 rails, even with
# a map that swaps them, give no gpu-order finding
printf 'mlx5_0 1\nmlx5_1 0\n' >"$TMP/swap2.map"
expect_rc 1 "$FL" check --format json "$TMP/r2.ibnd" "$SMI" --rules 'rail-alignment.gpu*' --param "rail-alignment.map=$TMP/swap2.map"
expect_eq "$(rules)" "rail-alignment.gpu-rail rail-alignment.gpu-rail rail-alignment.gpu-rail rail-alignment.gpu-rail" "4 GPUs on 2 rails: one gpu-rail per host (GPU2, GPU3 without NIC), no gpu-order"
# ... nor 4 GPUs on 8 rails (mlx5_0..7), with the map that swaps rails 0
# and 1: the server uses half the rails, GPU i <-> rail i is not asked
"$FL" gen rail-su --sus 1 --hosts-per-su 4 --rails 8 --hca-map mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7 --format ibnetdiscover -o "$TMP/r8.ibnd"
printf 'mlx5_0 1\nmlx5_1 0\nmlx5_2 2\nmlx5_3 3\nmlx5_4 4\nmlx5_5 5\nmlx5_6 6\nmlx5_7 7\n' >"$TMP/swap8.map"
expect_rc 0 "$FL" check --format json "$TMP/r8.ibnd" "$SMI" --rules 'rail-alignment.*' --param "rail-alignment.map=$TMP/swap8.map"
expect_eq "$(jget "$TMP/out" "=[f['rule'] for f in d['findings']]")" "[]" "4 GPUs on 8 rails, rails 0 and 1 swapped: no gpu-order"

# ---- refusals ----------------------------------------------------------------
expect_rc 2 "$FL" check "$SMI"
expect_grep "$TMP/err" "no topology among the inputs"
expect_rc 2 "$FL" check "$TMP/r4.ibnd" "$FL_EXTERNAL/$NCV4"
expect_eq "$(cat "$TMP/err")" "fabriclint: $FL_EXTERNAL/$NCV4: host profile matches no host of the fabric: no CA is named \"<host> eth0\" (the profile's first NIC) on any host; give the fabric (ibnetdiscover dump, plan) as another input, or name the file after its host" "ncv4: matches nothing"
expect_rc 2 "$FL" check "$TMP/r4.ibnd" "$FL_EXTERNAL/$NDV5"
expect_eq "$(cat "$TMP/err")" "fabriclint: $FL_EXTERNAL/$NDV5:1: no <gpu> element, though <pci> devices of class 0x0302 (GPUs) are listed: this is a topology input for NCCL_TOPO_FILE, which names no GPU index and no NIC; give the dump NCCL writes with NCCL_TOPO_DUMP_FILE on the host" "ndv5: a topology input"
cp "$SMI" "$TMP/other.txt"
expect_rc 2 "$FL" check "$TMP/r4.ibnd" "$SMI" "$TMP/other.txt"
expect_grep "$TMP/err" "^fabriclint: $TMP/other.txt: host dgx-001 matches two host profiles, $SMI and this one"

# nvidia-smi matrices broken one way each: file:line:col
bad() { # NAME SED-EXPR WANT
  sed "$2" "$SMI" >"$TMP/$1.txt"
  expect_rc 2 "$FL" check "$TMP/r4.ibnd" "$TMP/$1.txt"
  expect_eq "$(cat "$TMP/err")" "fabriclint: $TMP/$1.txt:$3" "bad $1"
}
bad cell '3s/NODE    NODE    SYS     SYS     0-31/NODE    NODE    SYS     SIS     0-31/' \
  '3:65: cell "SIS" is not X, NV#, PIX, PXB, PHB, NODE or SYS'
bad diag '2s/ X      NODE/NODE    NODE/' \
  '2:9: expected X on the diagonal and nowhere else (row GPU0, column GPU0)'
bad asym '6s/^NIC0    NODE/NIC0    PIX /' \
  '6:9: row NIC0 gives GPU0 a different PCIe class than row GPU0 gives NIC0 (the matrix is symmetric)'
bad legend '/NIC2: mlx5_2/d' \
  '1:57: NIC2 is not named in a "NIC Legend:" (expected a line `NIC2: mlx5_N`)'
bad short '4s/NODE    32-63.*$//' \
  '4:61: row has fewer cells than the header has devices (expected X, NV#, PIX, PXB, PHB, NODE or SYS per device)'
bad stray '12a\
this line is not part of the output' \
  '13:1: expected a legend line `KEY = meaning` or "NIC Legend:"'
bad nvnic '2s/NODE    NODE    SYS     SYS     0-31/NV4     NODE    SYS     SYS     0-31/' \
  '2:41: NVLink (NV4) between a GPU and a NIC: expected a PCIe class (PIX, PXB, PHB, NODE, SYS)'
# NCCL XML broken one way each
printf '<system version="1">\n  <cpu numaid="0">\n    <pci busid="0000:01:00.0">\n      <gpu dev="zero"/>\n    </pci>\n  </cpu>\n</system>\n' >"$TMP/gpudev.xml"
expect_rc 2 "$FL" check "$TMP/r4.ibnd" "$TMP/gpudev.xml"
expect_eq "$(cat "$TMP/err")" "fabriclint: $TMP/gpudev.xml:4: <gpu dev=\"zero\">: expected the CUDA device number (0, 1, ...)" "xml: gpu dev"
finish
