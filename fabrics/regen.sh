#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fabrics/regen.sh — regenerate the fabrics/ dumps with real tools.
#
# Why: tests should read dumps written by the real `ibnetdiscover` after a
# real SM (OpenSM) configured the subnet, not hand-written imitations. We
# have no cluster, so the fabric is simulated: `fabriclint gen ... --format
# ibsim` writes an ibsim net file, ibsim (Debian ibsim-utils) simulates it,
# and OpenSM and infiniband-diags run unchanged against the simulator
# through `ibsim-run` (LD_PRELOAD=libumad2sim.so).
#
# For every fabric NAME below this writes:
#   NAME.net                  the ibsim net file (input of the simulation)
#   NAME.ibnetdiscover        `ibnetdiscover`       after `opensm -o`
#   NAME.g.ibnetdiscover      `ibnetdiscover -g`    (grouped by chassis)
#   NAME.p.ibnetdiscover      `ibnetdiscover -p`    (ports report)
# and, by scripted edits of those real outputs, deliberately broken inputs:
#   broken/one-sided.ibnetdiscover   fat-tree-2tier with the line of
#       spine-p01-01 port 1 deleted: that cable is listed from one end only
#       (the leaf-p01-01 end), as in a capture taken while a link flapped.
#   broken/truncated.ibnetdiscover   fat-tree-2tier cut after 60% of its
#       bytes (mid-line), as a capture killed by a timeout.
#   broken/rail-swap.ibnetdiscover   rail-su with the cables of
#       "dgx-001 mlx5_0" and "dgx-001 mlx5_3" crossed (each on the other's
#       rail leaf); made by editing the net file and re-running the
#       simulation, so the dump itself is again real ibnetdiscover output.
#
# Links run at HDR: the ibsim of Debian 12 (0.10) knows no speed above HDR
# (an NDR link would come up as SDR). LIDs are left to OpenSM (--no-lids).
#
# Nothing is written outside fabrics/ and a temporary folder: OpenSM gets a
# config with its log and dump folder there, OSM_CACHE_DIR/OSM_TMP_DIR point
# there, and ibsim listens on a private socket name (IBSIM_SOCKNAME) so
# parallel runs do not meet. ibsim is always stopped (trap on exit/signals).
#
# Usage: fabrics/regen.sh            (FL=path/to/fabriclint to override)
# Needs: ibsim, ibsim-run (ibsim-utils), opensm, ibnetdiscover
#        (infiniband-diags), and a built fabriclint.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
FL=${FL:-$here/../build/fabriclint}
start=$SECONDS

. "$here/../tests/ibsim_lib.bash"
ibsim_need ibsim ibsim-run opensm ibnetdiscover
[ -x "$FL" ] || { echo "regen.sh: $FL not built (cmake --build build)" >&2; exit 2; }
ibsim_init regen
work=$ibsim_work

# OpenSM: defaults, but log and dump files in $work.
ibsim_opensm_conf "$work/opensm.conf" "$work/opensm.log" "$work"

# simulate NAME NET SMHOST OUTPREFIX — one SM sweep, then the three dumps.
simulate() {
  local name=$1 net=$2 smhost=$3 out=$4
  ibsim_start "$net" "$work/ibsim.log" || exit 1
  ibsim_opensm "$smhost" "$work" "$work/opensm.out" -o -F "$work/opensm.conf" || {
    echo "regen.sh: opensm failed on $name:" >&2
    tail -20 "$work/opensm.out" >&2
    exit 1
  }
  SIM_HOST="$smhost" timeout 300 ibsim-run ibnetdiscover >"$out.ibnetdiscover"
  SIM_HOST="$smhost" timeout 300 ibsim-run ibnetdiscover -g >"$out.g.ibnetdiscover"
  SIM_HOST="$smhost" timeout 300 ibsim-run ibnetdiscover -p >"$out.p.ibnetdiscover"
  ibsim_stop
}

mkdir -p "$work/out/broken"
o=$work/out

# ---- the fabrics ----------------------------------------------------------
"$FL" gen fat-tree --radix 16 --tiers 2 --speed HDR --no-lids --format ibsim \
  -o "$o/fat-tree-2tier.net"
"$FL" gen fat-tree --radix 8 --tiers 3 --speed HDR --no-lids --format ibsim \
  -o "$o/fat-tree-3tier.net"
"$FL" gen rail-su --sus 1 --hosts-per-su 32 --rails 8 --speed HDR --no-lids \
  --format ibsim -o "$o/rail-su.net"

simulate fat-tree-2tier "$o/fat-tree-2tier.net" "node0001 mlx5_0" "$o/fat-tree-2tier"
simulate fat-tree-3tier "$o/fat-tree-3tier.net" "node0001 mlx5_0" "$o/fat-tree-3tier"
simulate rail-su "$o/rail-su.net" "dgx-001 mlx5_0" "$o/rail-su"

# ---- broken variants --------------------------------------------------------
# one-sided: drop the first port line after spine-p01-01's header.
sed '/^Switch.*# "spine-p01-01" /{n;d}' "$o/fat-tree-2tier.ibnetdiscover" \
  >"$o/broken/one-sided.ibnetdiscover"
cmp -s "$o/fat-tree-2tier.ibnetdiscover" "$o/broken/one-sided.ibnetdiscover" &&
  { echo "regen.sh: one-sided edit changed nothing" >&2; exit 1; }

# truncated: the first 60% of the bytes.
size=$(wc -c <"$o/fat-tree-2tier.ibnetdiscover")
head -c $((size * 6 / 10)) "$o/fat-tree-2tier.ibnetdiscover" \
  >"$o/broken/truncated.ibnetdiscover"

# rail-swap: cross the leaf cables of dgx-001's rail-0 and rail-1 HCAs in the
# net file (both ends of both cables), then simulate that.
sed -e '/^\[/s/"dgx-001 mlx5_0"\[/"@SWAP@"[/' \
    -e '/^\[/s/"dgx-001 mlx5_3"\[/"dgx-001 mlx5_0"[/' \
    -e '/^\[/s/"@SWAP@"\[/"dgx-001 mlx5_3"[/' \
    -e '/^Ca.*"dgx-001 mlx5_0"/{n;s/"leaf-su01-r0"/"leaf-su01-r1"/}' \
    -e '/^Ca.*"dgx-001 mlx5_3"/{n;s/"leaf-su01-r1"/"leaf-su01-r0"/}' \
    "$o/rail-su.net" >"$work/rail-swap.net"
simulate rail-swap "$work/rail-swap.net" "dgx-002 mlx5_0" "$work/rail-swap"
mv "$work/rail-swap.ibnetdiscover" "$o/broken/rail-swap.ibnetdiscover"

# rail-su-asbuilt: the demo "as built" SU. Same crossed cables as rail-swap,
# plus one leaf-spine cable that trained at 1x instead of 4x (a bad lane):
# leaf-su01-r2 port 33 <-> spine-01 port 17, both ends of the net file.
sed -e '/^Switch.*"leaf-su01-r2"/,/^$/s/^\(\[33\]\t"spine-01"\[17\].*\)4xHDR$/\11xHDR/' \
    -e '/^Switch.*"spine-01"/,/^$/s/^\(\[17\]\t"leaf-su01-r2"\[33\].*\)4xHDR$/\11xHDR/' \
    "$work/rail-swap.net" >"$work/rail-su-asbuilt.net"
[ "$(grep -c '1xHDR$' "$work/rail-su-asbuilt.net")" -eq 2 ] ||
  { echo "regen.sh: degraded-cable edit did not apply" >&2; exit 1; }
simulate rail-su-asbuilt "$work/rail-su-asbuilt.net" "dgx-002 mlx5_0" "$work/rail-su-asbuilt"
mv "$work/rail-su-asbuilt.ibnetdiscover" "$o/rail-su-asbuilt.ibnetdiscover"

# rail-cross: a technician plugs dgx-005's mlx5_4 (rail 2) into the rail-5
# leaf port meant for its mlx5_9, which stays unplugged (not discovered).
sed -e '/^Switch.*"leaf-su01-r5"/,/^$/s/^\[5\]\t"dgx-005 mlx5_9"\[1\]/[5]\t"dgx-005 mlx5_4"[1]/' \
    -e '/^Switch.*"leaf-su01-r2"/,/^$/{/^\[5\]\t"dgx-005 mlx5_4"\[1\]/d}' \
    -e '/^Ca.*"dgx-005 mlx5_4"/{n;s/"leaf-su01-r2"\[5\]/"leaf-su01-r5"[5]/}' \
    -e '/^Ca.*"dgx-005 mlx5_9"/{n;/^\[1\]/d}' \
    "$o/rail-su.net" >"$work/rail-cross.net"
simulate rail-cross "$work/rail-cross.net" "dgx-002 mlx5_0" "$work/rail-cross"
mv "$work/rail-cross.ibnetdiscover" "$o/broken/rail-cross.ibnetdiscover"

# rail-missing-nic: dgx-007's mlx5_9 (rail 5) cable is missing.
sed -e '/^Switch.*"leaf-su01-r5"/,/^$/{/^\[7\]\t"dgx-007 mlx5_9"\[1\]/d}' \
    -e '/^Ca.*"dgx-007 mlx5_9"/{n;/^\[1\]/d}' \
    "$o/rail-su.net" >"$work/rail-missing-nic.net"
simulate rail-missing-nic "$work/rail-missing-nic.net" "dgx-002 mlx5_0" "$work/rail-missing-nic"
mv "$work/rail-missing-nic.ibnetdiscover" "$o/broken/rail-missing-nic.ibnetdiscover"

# rail-names: the clean SU, but the NodeDescriptions of dgx-009..012 read
# "<host> HCA-<rail+1>" and those of dgx-013..016 keep the ConnectX-7
# factory default, as on hosts where rdma-ndd never ran. A node-name map
# (GUID -> canonical "<host> mlx5_N", made from the net file's caguid lines)
# restores the names.
awk -v map="$o/rail-names.node-name-map" '
  BEGIN { split("mlx5_0 mlx5_3 mlx5_4 mlx5_5 mlx5_6 mlx5_9 mlx5_10 mlx5_11", dev, " ")
          for (i = 1; i <= 8; i++) rail[dev[i]] = i
          print "# node-name-map for rail-names.ibnetdiscover (written by regen.sh)" > map }
  /^caguid=/ { guid = substr($0, 8) }
  /^Ca\t1 "dgx-0(0[9]|1[0-6]) mlx5_[0-9]+"/ {
    match($0, /"dgx-0[0-9]+ mlx5_[0-9]+"/); name = substr($0, RSTART + 1, RLENGTH - 2)
    split(name, part, " "); h = substr(part[1], 5) + 0
    printf "%s \"%s\"\n", guid, name > map
    if (h <= 12) desc = part[1] " HCA-" rail[part[2]]
    else desc = "MT4129 ConnectX7   Mellanox Technologies"
    sub(/#.*/, "# \"" desc "\"")
  }
  { print }' "$o/rail-su.net" >"$work/rail-names.net"
simulate rail-names "$work/rail-names.net" "dgx-002 mlx5_0" "$work/rail-names"
mv "$work/rail-names.ibnetdiscover" "$o/rail-names.ibnetdiscover"

# ---- publish ------------------------------------------------------------------
mkdir -p "$here/broken"
for f in "$o"/*.net "$o"/*.ibnetdiscover "$o"/*.node-name-map "$o"/broken/*.ibnetdiscover; do
  rel=${f#"$o"/}
  mv "$f" "$here/$rel"
done

summary() {
  local f=$1
  printf '%-44s switches %4d  cas %4d  port-lines %5d\n' "${f#"$here"/}" \
    "$(grep -c '^Switch' "$f" || true)" "$(grep -c '^Ca' "$f" || true)" \
    "$(grep -c '^\[' "$f" || true)"
}
for f in "$here"/*.ibnetdiscover "$here"/broken/*.ibnetdiscover; do
  case $f in *.p.ibnetdiscover) continue ;; esac
  summary "$f"
done
echo "regen.sh: done in $((SECONDS - start)) s"
