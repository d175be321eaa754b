#!/usr/bin/env bash
# tests/data/real/made/make.sh — real-tool captures of public topologies for
# the real-fabric corpus (docs/real-fabrics.md): each NET file below (public,
# see ../PROVENANCE.md) is simulated by ibsim, routed once by OpenSM
# (`ibsim-run opensm -o`, default engine minhop, routing dumps on), and
# captured with the tools a site runs, into made/NAME/:
#   ibnetdiscover.out          ibnetdiscover
#   ibnetdiscover-g.out        ibnetdiscover -g (grouped by chassis)
#   ibnetdiscover-p.out        ibnetdiscover -p (ports report)
#   ibnetdiscover-s.out        ibnetdiscover -s (with the progress lines)
#   iblinkinfo.out             iblinkinfo
#   iblinkinfo-l.out           iblinkinfo -l
#   iblinkinfo-switches-l.out  iblinkinfo --switches-only -l
#   dump_lfts.out              dump_lfts (the LFT of every switch, ibroute form)
#   opensm-lfts.dump, opensm-subnet.lst   OpenSM's own dumps
# Usage: make.sh NAME INPUT SMHOST (INPUT relative to this folder's parent):
# an ibsim net file, or any capture fabriclint reads, which is first written
# as a net file with `$FL convert INPUT -o X.net --format ibsim` (FL:
# default build/fabriclint of the source tree).
# Needs ibsim, ibsim-run, opensm, infiniband-diags. Everything temporary lives
# in a mktemp folder; ibsim listens on a private socket and is always stopped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../../../ibsim_lib.bash"
name=$1 net=$here/../$2 sm=$3
FL=${FL:-$here/../../../../../build/fabriclint}
ibsim_need ibsim ibsim-run opensm ibnetdiscover iblinkinfo dump_lfts
ibsim_init real
ibsim_timeout=600 # read by ibsim_opensm (tests/ibsim_lib.bash)
export ibsim_timeout
w=$ibsim_work out=$here/$name
mkdir -p "$out" "$w/dump"
case $net in
  *.net) ;;
  *) "$FL" convert "$net" -o "$w/fabric.net" --format ibsim && net=$w/fabric.net ;;
esac
ibsim_opensm_conf "$w/opensm.conf" "$w/opensm.log" "$w/dump" log_flags 0x43 force_log_flush TRUE
ibsim_start "$net" "$w/ibsim.log" || exit 1
ibsim_opensm "$sm" "$w" "$w/opensm.out" -o -F "$w/opensm.conf"
run() { SIM_HOST="$sm" timeout 600 ibsim-run "$@" 2>/dev/null; }
run ibnetdiscover >"$out/ibnetdiscover.out"
run ibnetdiscover -g >"$out/ibnetdiscover-g.out"
run ibnetdiscover -p >"$out/ibnetdiscover-p.out"
SIM_HOST="$sm" timeout 600 ibsim-run ibnetdiscover -s >"$out/ibnetdiscover-s.out" 2>&1
run iblinkinfo >"$out/iblinkinfo.out"
run iblinkinfo -l >"$out/iblinkinfo-l.out"
run iblinkinfo --switches-only -l >"$out/iblinkinfo-switches-l.out"
run dump_lfts >"$out/dump_lfts.out"
cp "$w/dump/opensm-lfts.dump" "$w/dump/opensm-subnet.lst" "$out/"
wc -l "$out"/* | sed 's/^/make.sh: /'
