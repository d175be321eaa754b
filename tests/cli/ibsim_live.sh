#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/ibsim_live.sh — the committed fabrics/ dumps are what the real
# tools produce today.
#
# 1. `fabriclint gen` still writes fabrics/fat-tree-2tier.net byte for byte
#    (the generator and the ibsim writer did not drift from the fixtures).
# 2. ibsim simulates that net file, the real ibnetdiscover discovers it, and
#    the nodes and cables (node type, port count, id; every port line up to
#    its comment, i.e. port, port GUID, peer id, peer port) equal those of
#    the committed fabrics/fat-tree-2tier.ibnetdiscover. LIDs and the date
#    line differ by nature (the committed dump ran OpenSM) and are ignored.
#
# Skips (exit 77, a ctest SKIP, with a message) when ibsim-utils or infiniband-diags are not
# installed. ibsim runs on a private socket name and is always stopped.
set -euo pipefail

src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
fl=${FL:-$src/build/fabriclint}
net=$src/fabrics/fat-tree-2tier.net
dump=$src/fabrics/fat-tree-2tier.ibnetdiscover

fail() { echo "ibsim_live: FAIL: $*" >&2; exit 1; }

# ---- 1. generator and writer against the fixture ----------------------------
if [ -x "$fl" ]; then
  "$fl" gen fat-tree --radix 16 --tiers 2 --speed HDR --no-lids --format ibsim |
    cmp -s - "$net" || fail "fabriclint gen no longer writes $net (run fabrics/regen.sh)"
  echo "ibsim_live: gen output equals fabrics/fat-tree-2tier.net"
fi

# ---- 2. live simulation -------------------------------------------------------
. "$(dirname "$0")/../ibsim_lib.bash"
ibsim_name=ibsim_live
ibsim_need --skip ibsim ibsim-run ibnetdiscover
ibsim_init ibsim-live
work=$ibsim_work
ibsim_start "$net" "$work/ibsim.log" || fail "ibsim did not start"

SIM_HOST="node0001 mlx5_0" timeout 120 ibsim-run ibnetdiscover >"$work/live" ||
  fail "ibnetdiscover failed"

# Nodes and cables, without LIDs and comments, in a stable order.
cabling() {
  awk '/^(Switch|Ca|Rt)[ \t]/ { node = $1 " " $2 " " $3; print node }
       /^\[/ { sub(/[ \t]*#.*/, ""); gsub(/[ \t]+/, " "); print node " " $0 }' "$1" | sort
}
count() { grep -c "$1" "$2" || true; }

for pat in '^Switch' '^Ca' '^\['; do
  want=$(count "$pat" "$dump")
  got=$(count "$pat" "$work/live")
  [ "$want" = "$got" ] || fail "'$pat' lines: committed $want, live $got"
done
cabling "$dump" >"$work/want"
cabling "$work/live" >"$work/got"
if ! cmp -s "$work/want" "$work/got"; then
  diff "$work/want" "$work/got" | sed -n 1,20p >&2
  fail "live cabling differs from $dump"
fi
echo "ibsim_live: live ibnetdiscover matches the committed dump:" \
  "$(count '^Switch' "$dump") switches, $(count '^Ca' "$dump") CAs," \
  "$(count '^\[' "$dump") port lines"
