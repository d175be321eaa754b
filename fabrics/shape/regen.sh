#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
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
# shellcheck source=../../tests/ibsim_lib.bash
. "$fab/../tests/ibsim_lib.bash"
ibsim_need python3 ibsim ibsim-run opensm ibnetdiscover
ibsim_init shape
work=$ibsim_work
ibsim_opensm_conf "$work/opensm.conf" "$work/opensm.log" "$work"

# simulate NET SMHOST OUT — ibsim, one OpenSM sweep, ibnetdiscover.
simulate() {
  local net=$1 smhost=$2 out=$3
  ibsim_start "$net" "$work/ibsim.log" || exit 1
  ibsim_opensm "$smhost" "$work" "$work/opensm.out" -o -F "$work/opensm.conf" ||
    { tail -20 "$work/opensm.out" >&2; exit 1; }
  SIM_HOST="$smhost" timeout "$ibsim_timeout" ibsim-run ibnetdiscover >"$out"
  ibsim_stop
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
