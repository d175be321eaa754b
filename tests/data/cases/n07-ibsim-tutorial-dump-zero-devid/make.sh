#!/usr/bin/env bash
# tests/data/cases/n07-ibsim-tutorial-dump-zero-devid/make.sh — regenerate
# the real captures of case n07 (issue 12) with the tools the ibsim tutorial
# uses: tutorial.net (2 switches, 2 dual-port HCAs, the tutorial's shape) is
# simulated with ibsim, routed once by OpenSM (`ibsim-run opensm -o`), then
#   ibnetdiscover.out       `ibsim-run ibnetdiscover` (vendid=0x0 devid=0x0)
#   ibsim-console-dump.txt  the ibsim console's `Dump` command output (from
#                           "# Net status" to "# dumped N nodes", the
#                           "sim> " prompt taken off): not a net file
# Needs ibsim, ibsim-run (ibsim-utils), opensm, ibnetdiscover. Everything
# temporary lives in a mktemp folder; ibsim listens on a private socket and
# is always stopped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../../ibsim_lib.bash"
ibsim_need ibsim ibsim-run opensm ibnetdiscover
ibsim_init n07
ibsim_timeout=60
work=$ibsim_work
sm="Hca1" # the SM runs on the first HCA
ibsim_start "$here/tutorial.net" "$work/ibsim.log" console || exit 1
ibsim_opensm "$sm" "$work" "$work/opensm.out" -o -f "$work/opensm.log"
SIM_HOST="$sm" timeout 60 ibsim-run ibnetdiscover >"$here/ibnetdiscover.out"
ibsim_console Dump
for ((i = 0; i < 100; i++)); do
  grep -qs "# *dumped [0-9]* nodes" "$work/ibsim.log" && break
  sleep 0.1
done
ibsim_stop
sed -n '/# Net status/,/# *dumped [0-9]* nodes/{s/^sim> //;p}' "$work/ibsim.log" >"$here/ibsim-console-dump.txt"
grep -q "dumped 4 nodes" "$here/ibsim-console-dump.txt" || { echo "make.sh: no console dump" >&2; exit 1; }
echo "make.sh: $(wc -l <"$here/ibsim-console-dump.txt") lines of console dump"
