#!/usr/bin/env bash
# fabrics/shape/regen.sh — production-like fat trees, simulated with real tools.
#
# Why: issue 12 (classes 3-5). Real SuperPOD-style fabrics carry more than
# compute nodes: UFM/storage/login hosts cabled straight to core (or spine)
# switches, management leaves with two uplinks, and a SHARP Aggregation Node
# on every switch. Each of these fooled the old "distance from the nearest CA"
# tiers. We have no such dump we may redistribute, so the fabrics are
# fabriclint's fat trees (fabrics/*.net) edited by edit_net.py, simulated by
# ibsim, swept by OpenSM (running on the UFM host, as a real SM does), and
# discovered by ibnetdiscover — the dumps are real tool output.
#
# Writes (in this folder):
#   superpod-3tier.net / .ibnetdiscover  fat-tree-3tier.net (radix 8, 128
#       hosts) + ufm-01, stor-01, login-01 on core-001..003, mgmt-leaf-01
#       (4 hosts) with uplinks to spine-p01-01 and spine-p01-02, SHARP ANs
#   superpod-2tier.net / .ibnetdiscover  fat-tree-2tier.net (radix 16, 128
#       hosts) + ufm-01, stor-01 on spine-p01-01/02, mgmt-leaf-01 (4 hosts)
#       with uplinks to spine-p01-03 and spine-p01-04, SHARP ANs
#
# Usage: fabrics/shape/regen.sh   Needs: python3, ibsim, ibsim-run, opensm,
# ibnetdiscover. Nothing is written outside this folder and a temp folder.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
fab=$here/..
for tool in python3 ibsim ibsim-run opensm ibnetdiscover; do
  command -v "$tool" >/dev/null || { echo "regen.sh: $tool not found" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/fl-shape.XXXXXX")
ibsim_pid=""
stop_ibsim() {
  if [ -n "$ibsim_pid" ]; then
    kill "$ibsim_pid" 2>/dev/null || true
    wait "$ibsim_pid" 2>/dev/null || true
    ibsim_pid=""
  fi
}
cleanup() { stop_ibsim; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

export IBSIM_SOCKNAME="flshape$$"
unset LD_PRELOAD SIM_HOST
opensm -c "$work/opensm.conf.default" >/dev/null 2>&1 || true
sed -e "s#^log_file .*#log_file $work/opensm.log#" \
    -e "s#^dump_files_dir .*#dump_files_dir $work/#" \
    -e "s#^partition_config_file .*#partition_config_file $work/partitions.conf#" \
    "$work/opensm.conf.default" > "$work/opensm.conf"

# simulate NET SMHOST OUT — ibsim, one OpenSM sweep, ibnetdiscover.
simulate() {
  local net=$1 smhost=$2 out=$3 log=$work/ibsim.log args
  args=$(sed -n 's/^# Simulate with: ibsim -s \(.*\) FILE$/\1/p' "$net")
  # shellcheck disable=SC2086 # the option list is meant to split
  ibsim -s -n $args "$net" >"$log" 2>&1 </dev/null &
  ibsim_pid=$!
  for _ in $(seq 1 100); do
    grep -q "Network simulator ready" "$log" && break
    kill -0 "$ibsim_pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.1
  done
  (cd "$work" && OSM_CACHE_DIR="$work" OSM_TMP_DIR="$work" SIM_HOST="$smhost" \
    timeout 300 ibsim-run opensm -o -F "$work/opensm.conf" >"$work/opensm.out" 2>&1) ||
    { tail -20 "$work/opensm.out" >&2; exit 1; }
  SIM_HOST="$smhost" timeout 300 ibsim-run ibnetdiscover >"$out"
  stop_ibsim
}

python3 "$here/edit_net.py" "$fab/fat-tree-3tier.net" "$here/superpod-3tier.net" \
  service=core-001:ufm-01,core-002:stor-01,core-003:login-01 \
  mgmt=mgmt-leaf-01:spine-p01-01,spine-p01-02:4 sharp
python3 "$here/edit_net.py" "$fab/fat-tree-2tier.net" "$here/superpod-2tier.net" \
  service=spine-p01-01:ufm-01,spine-p01-02:stor-01 \
  mgmt=mgmt-leaf-01:spine-p01-03,spine-p01-04:4 sharp
simulate "$here/superpod-3tier.net" "ufm-01 mlx5_0" "$here/superpod-3tier.ibnetdiscover"
simulate "$here/superpod-2tier.net" "ufm-01 mlx5_0" "$here/superpod-2tier.ibnetdiscover"
echo "regen.sh: wrote superpod-3tier and superpod-2tier in $here"
