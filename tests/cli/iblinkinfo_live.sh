#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/iblinkinfo_live.sh — iblinkinfo as the installed tools print it
# today: tests/fixtures/iblinkinfo/make.sh runs ibsim, OpenSM, ibnetdiscover
# and iblinkinfo again (scenarios clean and faults) into a temporary folder;
# then every live iblinkinfo form loads the fabric the live ibnetdiscover
# sees (`fabriclint diff` finds nothing, counts equal), and the live captures
# have the cables of the committed ones (iblinkinfo.sh tests those in
# detail). Exit 77 (SKIP) when ibsim-utils, opensm or infiniband-diags are
# missing.
. "$(dirname "$0")/lib.bash"
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}
X=$FL_SRC/tests/fixtures/iblinkinfo
for tool in ibsim ibsim-run opensm ibnetdiscover iblinkinfo ibportstate; do
  if ! command -v "$tool" >/dev/null; then
    echo "iblinkinfo_live: SKIP: $tool not installed (apt install ibsim-utils opensm infiniband-diags)"
    exit 77
  fi
done
L=$TMP/live
OUT=$L timeout 600 bash "$X/make.sh" clean faults >"$TMP/make.log" 2>&1 ||
  { cat "$TMP/make.log" >&2; fail "make.sh failed"; finish; exit 1; }

counts() { jget "$TMP/out" "=(d['fabric'], d['link_types'])"; }
for s in clean faults; do
  expect_rc 0 "$FL" info --format json "$L/$s/ibnetdiscover"
  want=$(counts)
  for f in "$L/$s"/iblinkinfo*; do
    n=$s/$(basename "$f")
    expect_rc 0 "$FL" info --format json "$f"
    [ "$n" = faults/iblinkinfo-d ] && continue
    expect_eq "$(counts)" "$want" "live $n: counts of live ibnetdiscover"
    expect_rc 0 "$FL" diff --format json "$L/$s/ibnetdiscover" "$f"
    expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "live $n: diff against live ibnetdiscover"
    expect_rc 0 "$FL" diff --format json "$X/$n" "$f"
    expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "live $n: the committed capture's cables"
  done
done
expect_eq "$(cd "$L" && find . -type f | LC_ALL=C sort | tr '\n' ' ')" \
  "./clean/iblinkinfo ./clean/iblinkinfo-l ./clean/iblinkinfo-switches-only ./clean/iblinkinfo-switches-only-l ./clean/ibnetdiscover ./clean/pre-sm-l.iblinkinfo ./clean/pre-sm.iblinkinfo ./faults/iblinkinfo ./faults/iblinkinfo-d ./faults/iblinkinfo-l ./faults/iblinkinfo-p ./faults/iblinkinfo-switches-only-l ./faults/ibnetdiscover " \
  "live captures made"
finish
