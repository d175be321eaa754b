#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fabrics/regen-planes.sh — multi-plane fixtures (issue #19, "Planes"), made
# with the real tools: one ibsim + OpenSM + ibnetdiscover per plane, run one
# after another, as a multi-plane InfiniBand cluster runs one subnet manager
# per plane.
#
# The fabric: `fabriclint gen fat-tree --radix 8 --hosts 30 --planes N
# --speed HDR --no-lids --format ibsim` (per plane 8 leaves, 4 spines, 30
# hosts; each host has NIC mlx5_<k-1> in plane k; leaf pl<k>-leaf-p01-08
# keeps ports 3-4 free). The net file is split into one net file per plane
# (net_split below: switch blocks by their pl<k>- prefix, CA blocks
# "nodeNNNN mlx5_j" into plane j mod N + 1). Per plane: ibsim on that net,
# `ibsim-run opensm -o -R ftree` with dump_files_dir (LIDs from 1 in every
# plane: each plane is its own LID space), then `ibsim-run ibnetdiscover`.
# Captures, per scenario folder under tests/fixtures/planes/:
#   p2/            2 planes: planeK.ibnetdiscover, planeK.lfts (opensm-lfts.dump)
#   p4/            4 planes, the same
#   p2-wrong-nic/  2 planes; node0001 mlx5_0 (plane 1's NIC) cabled into
#                  plane 2 (pl2-leaf-p01-08 port 3) instead of
#                  pl1-leaf-p01-01 port 1
#   p4-no-spine/   plane3.ibnetdiscover/.lfts of the 4-plane fabric with
#                  pl3-spine-p01-04 left out (its leaf ports stay empty)
#   p2-counters/   port counters of the p2 fabric read through the PMA while
#                  each plane's ibsim runs (after its OpenSM): ibsim's
#                  `PerformanceSet` console command sets SymbolErrorCounter
#                  57 on pl2-leaf-p01-02 port 6 (a leaf-spine cable of plane
#                  2; nothing in plane 1), then per plane
#                  planeK.ibqueryerrors (`ibqueryerrors --skip-sl`, keyed by
#                  GUID) and planeK.perfquery (`perfquery -a -l LID` for every
#                  switch LID, keyed by LID: the same LIDs in both planes).
#                  No `# captured` line: both planes are one snapshot.
#
# Usage: fabrics/regen-planes.sh [OUTDIR]   (default tests/fixtures/planes)
# FL=path/to/fabriclint overrides the executable. Needs ibsim, ibsim-run,
# opensm, ibnetdiscover, perfquery, ibqueryerrors, python3. ibsim and OpenSM
# are stopped on exit; all state (OpenSM cache, logs, socket name) is
# private to the run.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
FL=${FL:-$here/../build/fabriclint}
out=${1:-$here/../tests/fixtures/planes}
start=$SECONDS

. "$here/../tests/ibsim_lib.bash"
ibsim_need ibsim ibsim-run opensm ibnetdiscover perfquery ibqueryerrors python3
[ -x "$FL" ] || { echo "regen-planes.sh: $FL not built" >&2; exit 2; }
ibsim_init regen-planes
ibsim_timeout=120
work=$ibsim_work

cat >"$work/net.py" <<'PY'
import re, sys

def blocks(text):
    """(header comment, [blocks]) of an ibsim net file written by fabriclint."""
    parts = text.split("\n\n")
    return parts[0], parts[1:]

def name_of(block):
    m = re.search(r'^(?:Switch|Ca|Hca)\s+\d+\s+"([^"]+)"', block, re.M)
    return m.group(1) if m else None

def plane_of(name, n):
    m = re.match(r"pl(\d+)-", name)
    if m:
        return int(m.group(1))
    m = re.search(r" mlx5_(\d+)$", name)
    return int(m.group(1)) % n + 1

def split(path, n, outfmt):
    head, bs = blocks(open(path).read())
    for k in range(1, n + 1):
        keep = [b for b in bs if name_of(b) and plane_of(name_of(b), n) == k]
        open(outfmt % k, "w").write(head + "\n\n" + "\n\n".join(keep).rstrip("\n") + "\n")

def edit(path, drop_name=None, drop_refs=None, add_block=None, add_line=None):
    head, bs = blocks(open(path).read())
    res = []
    for b in bs:
        nm = name_of(b)
        if drop_name and nm == drop_name:
            continue
        lines = b.split("\n")
        if drop_refs:
            lines = [l for l in lines if not re.match(r'\[\d+\]\s+"%s"\[' % re.escape(drop_refs), l)]
        if add_line and nm == add_line[0]:
            at = next(i for i, l in enumerate(lines) if l.startswith("Switch"))
            lines.insert(at + 1, add_line[1])
        res.append("\n".join(lines))
    if add_block:
        res.append(add_block)
    open(path, "w").write(head + "\n\n" + "\n\n".join(res).rstrip("\n") + "\n")

def take(path, name):
    _, bs = blocks(open(path).read())
    return next(b for b in bs if name_of(b) == name)

cmd = sys.argv[1]
if cmd == "split":
    split(sys.argv[2], int(sys.argv[3]), sys.argv[4])
elif cmd == "wrong-nic":          # plane1.net plane2.net
    p1, p2 = sys.argv[2], sys.argv[3]
    b = take(p1, "node0001 mlx5_0")
    b = re.sub(r'^\[1\]\s+"pl1-leaf-p01-01"\[1\].*$',
               '[1]\t"pl2-leaf-p01-08"[3]\t\t# "pl2-leaf-p01-08" lid 0 4xHDR', b, flags=re.M)
    edit(p1, drop_name="node0001 mlx5_0", drop_refs="node0001 mlx5_0")
    edit(p2, add_block=b, add_line=("pl2-leaf-p01-08",
         '[3]\t"node0001 mlx5_0"[1]\t\t# "node0001 mlx5_0" lid 0 4xHDR'))
elif cmd == "no-spine":           # plane.net spine
    edit(sys.argv[2], drop_name=sys.argv[3], drop_refs=sys.argv[3])
PY

# simulate NET SMHOST OUTBASE [HOOK] — ibsim on NET (console on fd 3),
# OpenSM (ftree) with its dump files, ibnetdiscover: OUTBASE.ibnetdiscover
# and OUTBASE.lfts; then HOOK OUTBASE D (D: the run's folder) while ibsim
# still runs.
simulate() {
  local net=$1 smhost=$2 base=$3 hook=${4:-} d
  d=$(mktemp -d "$work/sim.XXXXXX")
  ibsim_opensm_conf "$d/opensm.conf" "$d/opensm.log" "$d" log_flags 0x43
  ibsim_start "$net" "$d/ibsim.log" console || exit 1
  ibsim_opensm "$smhost" "$d" "$d/opensm.out" -o -R ftree -F "$d/opensm.conf" ||
    { echo "regen-planes.sh: opensm failed on $net" >&2; tail -20 "$d/opensm.out" >&2; exit 1; }
  grep -q "ftree tables configured on all switches" "$d/opensm.log" ||
    { echo "regen-planes.sh: ftree did not route $net" >&2; exit 1; }
  SIM_HOST="$smhost" timeout 120 ibsim-run ibnetdiscover >"$base.ibnetdiscover"
  cp "$d/opensm-lfts.dump" "$base.lfts"
  if [ -n "$hook" ]; then
    SIM_HOST="$smhost" "$hook" "$base" "$d"
  fi
  ibsim_stop
}

# counters OUTBASE D — set the scenario's counters (plane 2 only) through
# ibsim's console, read them back with ibqueryerrors and perfquery.
counters() {
  local base=$1 d=$2 plane ctr lids l
  plane=$(basename "$base")
  ctr="$out/p2-counters/$plane"
  if [ "$plane" = plane2 ]; then
    ibsim_console 'PerformanceSet "pl2-leaf-p01-02"[6] PortCounters.SymbolErrorCounter=57' ||
      { echo "regen-planes.sh: ibsim console closed" >&2; exit 1; }
    for _ in $(seq 1 50); do
      grep -qs "has been set" "$d/ibsim.log" && break
      sleep 0.1
    done
    grep -qs "has been set" "$d/ibsim.log" ||
      { echo "regen-planes.sh: PerformanceSet did not take" >&2; exit 1; }
  fi
  # ibqueryerrors exits with the number of bad ports: its summary is checked
  timeout 120 ibsim-run ibqueryerrors --skip-sl >"$ctr.ibqueryerrors" || true
  grep -q '^## Summary' "$ctr.ibqueryerrors"
  lids=$(sed -n 's/^Switch.*# ".*" base port 0 lid \([0-9]*\) .*/\1/p' "$base.ibnetdiscover")
  for l in $lids; do
    timeout 60 ibsim-run perfquery -a -l "$l"
  done >"$ctr.perfquery"
}

mkdir -p "$out/p2" "$out/p4" "$out/p2-wrong-nic" "$out/p4-no-spine" "$out/p2-counters"
for n in 2 4; do
  "$FL" gen fat-tree --radix 8 --hosts 30 --planes "$n" --speed HDR --no-lids \
    --format ibsim -o "$work/all$n.net"
  python3 "$work/net.py" split "$work/all$n.net" "$n" "$work/p$n-plane%d.net"
  hook=""
  [ "$n" = 2 ] && hook=counters
  for k in $(seq 1 "$n"); do
    simulate "$work/p$n-plane$k.net" "node0002 mlx5_$((k - 1))" "$out/p$n/plane$k" $hook
  done
done

cp "$work/p2-plane1.net" "$work/w1.net"
cp "$work/p2-plane2.net" "$work/w2.net"
python3 "$work/net.py" wrong-nic "$work/w1.net" "$work/w2.net"
simulate "$work/w1.net" "node0002 mlx5_0" "$out/p2-wrong-nic/plane1"
simulate "$work/w2.net" "node0002 mlx5_1" "$out/p2-wrong-nic/plane2"

cp "$work/p4-plane3.net" "$work/s3.net"
python3 "$work/net.py" no-spine "$work/s3.net" pl3-spine-p01-04
simulate "$work/s3.net" "node0002 mlx5_2" "$out/p4-no-spine/plane3"

echo "regen-planes.sh: wrote $out in $((SECONDS - start)) s"
