#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/diff_planes_live.sh — the captures of tests/fixtures/diff-planes
# made again, now, by the real tools (its make.sh: per plane one ibsim,
# `opensm -o -R ftree`, ibnetdiscover; the two planes name their switches
# alike), compared with the committed ones (OpenSM's LIDs are
# deterministic; a difference means the fixtures are stale: rerun make.sh),
# and diffed live: the plan against the NIC cabled into the other plane is
# one diff.misconnected naming both planes, the swapped leaf units one
# finding each.
#
# Skips (exit 77, "SKIP: reason") when ibsim, ibsim-run, opensm or
# ibnetdiscover is missing. Takes about 10 s.
. "$(dirname "$0")/lib.bash"
set -o pipefail
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}
X=$FL_SRC/tests/fixtures/diff-planes

for tool in ibsim ibsim-run opensm ibnetdiscover python3; do
  if ! command -v "$tool" >/dev/null; then
    echo "diff_planes_live: SKIP: $tool not installed (apt install ibsim-utils opensm infiniband-diags)"
    exit 77
  fi
done
[ -x "$FL" ] || { echo "diff_planes_live: $FL not built" >&2; exit 1; }

L=$TMP/live
if FL="$FL" "$X/make.sh" "$L" >"$TMP/make.log" 2>&1; then pass; else
  fail "make.sh: $(tail -5 "$TMP/make.log")"
  finish
  exit
fi
for f in plane1 plane2 moved/plane2 wrong-nic/plane1 wrong-nic/plane2 no-spine/plane2 \
  replaced/plane2 units/plane1 units/plane2; do
  # ibnetdiscover stamps its run time: compare everything else
  if cmp -s <(grep -v '^# Topology file: generated on' "$L/$f.ibnetdiscover") \
    <(grep -v '^# Topology file: generated on' "$X/$f.ibnetdiscover"); then pass; else
    fail "live $f.ibnetdiscover differs from the committed fixture (stale? rerun $X/make.sh)"
  fi
done
for k in 1 2; do
  if cmp -s "$L/design/plane$k.xml" "$X/design/plane$k.xml"; then pass; else
    fail "live design/plane$k.xml differs from the committed one"
  fi
done

expect_rc 1 "$FL" diff --format json --design-plane 1:"$L/design/plane1.xml" \
  --design-plane 2:"$L/design/plane2.xml" --as-built "$L/wrong-nic/plane1.ibnetdiscover" \
  --as-built "$L/wrong-nic/plane2.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f.get('plane'), f['nodes']) for f in d['findings']]")" \
  "[('diff.misconnected', '1,2', ['node0001 mlx5_0', 'leaf-p01-01', 'leaf-p01-08'])]" \
  "live: NIC in the other plane, one finding naming both planes"
expect_rc 1 "$FL" diff --format json --design "$L/plane1.ibnetdiscover" --design "$L/plane2.ibnetdiscover" \
  --as-built "$L/units/plane1.ibnetdiscover" --as-built "$L/units/plane2.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f.get('plane'), f['evidence']['built_plane']) for f in d['findings']]")" \
  "[('diff.missing-node', '1,2', '2'), ('diff.missing-node', '1,2', '1')]" \
  "live: leaf units swapped between planes, one finding each"
expect_rc 1 "$FL" diff --format json --design-plane 2:"$L/design/plane2.xml" \
  --as-built "$L/wrong-nic/plane1.ibnetdiscover" --as-built "$L/wrong-nic/plane2.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['nodes']) for f in d['findings']]")" \
  "[('diff.unexpected-node', ['node0001 mlx5_0'])]" \
  "live: plan of plane 2 alone vs both planes, the NIC of plane 1 in plane 2"
finish
