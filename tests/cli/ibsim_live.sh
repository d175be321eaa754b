#!/usr/bin/env bash
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
for tool in ibsim ibsim-run ibnetdiscover; do
  if ! command -v "$tool" >/dev/null; then
    echo "ibsim_live: SKIP: $tool not installed (apt install ibsim-utils infiniband-diags)"
    exit 77
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/fl-ibsim-live.XXXXXX")
ibsim_pid=""
cleanup() {
  if [ -n "$ibsim_pid" ]; then
    kill "$ibsim_pid" 2>/dev/null || true
    wait "$ibsim_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

export IBSIM_SOCKNAME="fllive$$"
unset LD_PRELOAD SIM_HOST
ibsim -s -n "$net" >"$work/ibsim.log" 2>&1 </dev/null &
ibsim_pid=$!
for _ in $(seq 1 100); do
  grep -q "Network simulator ready" "$work/ibsim.log" && break
  kill -0 "$ibsim_pid" 2>/dev/null || { cat "$work/ibsim.log" >&2; fail "ibsim exited"; }
  sleep 0.1
done
grep -q "Network simulator ready" "$work/ibsim.log" || fail "ibsim did not start"

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
  diff "$work/want" "$work/got" | head -20 >&2
  fail "live cabling differs from $dump"
fi
echo "ibsim_live: live ibnetdiscover matches the committed dump:" \
  "$(count '^Switch' "$dump") switches, $(count '^Ca' "$dump") CAs," \
  "$(count '^\[' "$dump") port lines"
