#!/usr/bin/env bash
# tests/data/cases/n04-ibroute-on-ibsim-net/make.sh — regenerate the real
# captures of case n04 (issue 12): the Helix-A lab fabric (helix-a.net,
# Cloudfoxy-Ltd/ncp-ain-guide, MIT) simulated with ibsim, routed once by
# OpenSM (`ibsim-run opensm -o`, default engine minhop), then, as in lab 8
# of the guide, `ibroute <lid>` of one leaf switch:
#   topology.ibnetdiscover   ibnetdiscover after OpenSM configured the subnet
#   ibroute-leaf.out         `ibroute <LID of hxa-su1-leaf-r1>`: one switch's
#                            LFT, the partial routing input the case is about
#   ibroute-leaf-head12.out  the same piped through `head -12` (the lab's
#                            command): a block cut before its footer
# Needs ibsim, ibsim-run (ibsim-utils), opensm, ibnetdiscover, ibroute
# (infiniband-diags). Everything temporary lives in a mktemp folder; ibsim
# listens on a private socket and is always stopped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../../ibsim_lib.bash"
ibsim_need ibsim ibsim-run opensm ibnetdiscover ibroute
ibsim_init n04
ibsim_timeout=60
work=$ibsim_work
sm="hxa-ufm-a1 mlx5_0" # the net file's first node hosts the SM
ibsim_start "$here/helix-a.net" "$work/ibsim.log" || exit 1
ibsim_opensm "$sm" "$work" "$work/opensm.out" -o -f "$work/opensm.log"
SIM_HOST="$sm" timeout 60 ibsim-run ibnetdiscover >"$here/topology.ibnetdiscover"
lid=$(sed -n 's/^Switch.*# "hxa-su1-leaf-r1" .* lid \([0-9]*\) .*/\1/p' "$here/topology.ibnetdiscover")
[ -n "$lid" ] || { echo "make.sh: no LID for hxa-su1-leaf-r1" >&2; exit 1; }
SIM_HOST="$sm" timeout 60 ibsim-run ibroute "$lid" >"$here/ibroute-leaf.out"
SIM_HOST="$sm" timeout 60 ibsim-run ibroute "$lid" | head -12 >"$here/ibroute-leaf-head12.out" || true
echo "make.sh: hxa-su1-leaf-r1 is LID $lid; $(wc -l <"$here/ibroute-leaf.out") lines of ibroute"
