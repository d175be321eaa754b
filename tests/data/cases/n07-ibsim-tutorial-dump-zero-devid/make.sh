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
work=$(mktemp -d "${TMPDIR:-/tmp}/fl-n07.XXXXXX")
ibsim_pid=""
cleanup() {
  [ -z "$ibsim_pid" ] || { kill "$ibsim_pid" 2>/dev/null || true; wait "$ibsim_pid" 2>/dev/null || true; }
  rm -rf "$work"
}
trap cleanup EXIT
export IBSIM_SOCKNAME="fln07$$"
unset LD_PRELOAD SIM_HOST
sm="Hca1" # the SM runs on the first HCA
mkfifo "$work/console"
ibsim -s "$here/tutorial.net" >"$work/ibsim.log" 2>&1 <"$work/console" &
ibsim_pid=$!
exec 3>"$work/console"
for ((i = 0; i < 100; i++)); do
  grep -qs "Network simulator ready" "$work/ibsim.log" && break
  sleep 0.1
done
grep -qs "Network simulator ready" "$work/ibsim.log" || { cat "$work/ibsim.log" >&2; exit 1; }
(cd "$work" && OSM_CACHE_DIR="$work" OSM_TMP_DIR="$work" SIM_HOST="$sm" \
  timeout 60 ibsim-run opensm -o -f "$work/opensm.log" >"$work/opensm.out" 2>&1 </dev/null)
SIM_HOST="$sm" timeout 60 ibsim-run ibnetdiscover >"$here/ibnetdiscover.out"
echo Dump >&3
for ((i = 0; i < 100; i++)); do
  grep -qs "# *dumped [0-9]* nodes" "$work/ibsim.log" && break
  sleep 0.1
done
echo quit >&3
exec 3>&-
wait "$ibsim_pid" || true
ibsim_pid=""
sed -n '/# Net status/,/# *dumped [0-9]* nodes/{s/^sim> //;p}' "$work/ibsim.log" >"$here/ibsim-console-dump.txt"
grep -q "dumped 4 nodes" "$here/ibsim-console-dump.txt" || { echo "make.sh: no console dump" >&2; exit 1; }
echo "make.sh: $(wc -l <"$here/ibsim-console-dump.txt") lines of console dump"
