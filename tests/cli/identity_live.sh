#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/identity_live.sh — tests/data/identity/dup-desc.ibnetdiscover is
# what the real tools give: ibsim simulates dup-desc.net, ibnetdiscover
# discovers it, and the nodes, NodeDescriptions and cables (LIDs and the
# date line aside) equal the committed dump. Then fabriclint names the two
# factory-described switches apart on the live dump too.
# Exits 77 (SKIP for ctest) when ibsim-utils or infiniband-diags are absent.
set -euo pipefail
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
fl=${FL:-$src/build/fabriclint}
net=$src/tests/data/identity/dup-desc.net
dump=$src/tests/data/identity/dup-desc.ibnetdiscover
fail() { echo "identity_live: FAIL: $*" >&2; exit 1; }
. "$(dirname "$0")/../ibsim_lib.bash"
ibsim_name=identity_live
ibsim_need --skip ibsim ibsim-run ibnetdiscover
ibsim_init identity-live
work=$ibsim_work
ibsim_start "$net" "$work/ibsim.log" || fail "ibsim did not start"
SIM_HOST="host-01 mlx5_0" timeout 120 ibsim-run ibnetdiscover >"$work/live" || fail "ibnetdiscover failed"
# nodes with their description, and port lines, without LIDs, sorted
shape() {
  sed -E 's/ lid [0-9]+//g; s/[ \t]+/ /g' "$1" | grep -E '^(Switch|Ca|\[)' | sort
}
shape "$dump" >"$work/want"
shape "$work/live" >"$work/got"
cmp -s "$work/want" "$work/got" || { diff "$work/want" "$work/got" | sed -n 1,20p >&2; fail "live dump differs from $dump"; }
"$fl" check --rules topology.self-loop --fail-on never -q "$work/live" >"$work/out"
grep -q '"Quantum Mellanox Technologies (0x0002c90301000001)" port 7 <-> port 8' "$work/out" || fail "leaf 1 not named by GUID"
grep -q '"Quantum Mellanox Technologies (0x0002c90301000002)" port 7 <-> port 8' "$work/out" || fail "leaf 2 not named by GUID"
echo "identity_live: live ibnetdiscover matches $dump; both switches named by GUID"
