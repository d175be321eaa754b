#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/planes_live.sh — the multi-plane fixtures made again, now, by the
# real tools (fabrics/regen-planes.sh: per plane one ibsim, `opensm -o -R
# ftree` with its dump files, ibnetdiscover), and judged like the committed
# ones: the 2- and 4-plane fabrics load in one run with their planes found
# (4 planes of 12 switches, 30 host ports, LIDs 1-42 each) and no finding;
# node0001's plane-1 NIC cabled into plane 2 is exactly one planes finding
# (planes.host-planes, plane 2, pl2-leaf-p01-08); plane 3 without a spine is
# exactly one error (planes.shape, plane 3); the counters read live
# through each plane's PMA (SymbolErrorCounter 57 set on pl2-leaf-p01-02
# port 6) are one health.link-errors finding in plane 2, by GUID
# (ibqueryerrors) and by LID with --plane tags (perfquery). The live
# captures equal the
# committed ones (OpenSM's LIDs and ftree routes are deterministic; a
# difference means the fixtures are stale: rerun fabrics/regen-planes.sh).
#
# Skips (exit 77, "SKIP: reason") when ibsim, ibsim-run, opensm,
# ibnetdiscover, perfquery or ibqueryerrors is missing. Takes about 10 s.
. "$(dirname "$0")/lib.bash"
set -o pipefail
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}
FX=$FL_SRC/tests/fixtures/planes

for tool in ibsim ibsim-run opensm ibnetdiscover perfquery ibqueryerrors; do
  if ! command -v "$tool" >/dev/null; then
    echo "planes_live: SKIP: $tool not installed (apt install ibsim-utils opensm infiniband-diags)"
    exit 77
  fi
done
[ -x "$FL" ] || { echo "planes_live: $FL not built" >&2; exit 1; }

L=$TMP/live
if FL="$FL" "$FL_SRC/fabrics/regen-planes.sh" "$L" >"$TMP/regen.log" 2>&1; then pass; else
  fail "regen-planes.sh: $(tail -5 "$TMP/regen.log")"
  finish
  exit
fi

for f in p2/plane1 p2/plane2 p4/plane1 p4/plane2 p4/plane3 p4/plane4 \
  p2-wrong-nic/plane1 p2-wrong-nic/plane2 p4-no-spine/plane3; do
  for ext in ibnetdiscover lfts; do
    # ibnetdiscover stamps its run time: compare everything else
    if cmp -s <(grep -v '^# Topology file: generated on' "$L/$f.$ext") \
      <(grep -v '^# Topology file: generated on' "$FX/$f.$ext"); then pass; else
      fail "live $f.$ext differs from the committed fixture (stale? rerun fabrics/regen-planes.sh)"
    fi
  done
done

ins=()
for k in 1 2 3 4; do ins+=("$L/p4/plane$k.ibnetdiscover" "$L/p4/plane$k.lfts"); done
expect_rc 0 "$FL" info --format json "${ins[@]}"
expect_eq "$(jget "$TMP/out" "=[(p['switches'],p['ca_ports'],p['min_lid'],p['max_lid']) for p in d['planes']['planes']]")" \
  "[(12, 30, 1, 42), (12, 30, 1, 42), (12, 30, 1, 42), (12, 30, 1, 42)]" "live 4 planes found"
expect_rc 0 "$FL" check --format json "${ins[@]}"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "live 4 planes: no finding"

W=$L/p2-wrong-nic
expect_rc 1 "$FL" check --format json "$W/plane1.ibnetdiscover" "$W/plane1.lfts" \
  "$W/plane2.ibnetdiscover" "$W/plane2.lfts"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['plane'], f['evidence']['switch']) for f in d['findings'] if f['rule'].startswith('planes.')]")" \
  "[('planes.host-planes', '2', 'pl2-leaf-p01-08')]" "live wrong NIC: one planes finding"

expect_rc 1 "$FL" check --format json "$L/p4/plane1.ibnetdiscover" "$L/p4/plane2.ibnetdiscover" \
  "$L/p4-no-spine/plane3.ibnetdiscover" "$L/p4/plane4.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['plane']) for f in d['findings'] if f['severity']=='error']")" \
  "[('planes.shape', '3')]" "live missing spine: one error"
C=$L/p2-counters
expect_rc 0 "$FL" check --format json --rules 'health.link-errors' "$L/p2/plane1.ibnetdiscover" \
  "$L/p2/plane2.ibnetdiscover" "$C/plane1.ibqueryerrors" "$C/plane2.ibqueryerrors"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['plane'], f['nodes']) for f in d['findings']]")" \
  "[('health.link-errors', '2', ['pl2-leaf-p01-02', 'pl2-spine-p01-02'])]" "live counters: ibqueryerrors"
expect_rc 0 "$FL" check --format json --rules 'health.link-errors' \
  --plane 1:"$L/p2/plane1.ibnetdiscover" --plane 1:"$C/plane1.perfquery" \
  --plane 2:"$L/p2/plane2.ibnetdiscover" --plane 2:"$C/plane2.perfquery"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['plane'], f['evidence']['counters'][0]['value']) for f in d['findings']]")" \
  "[('health.link-errors', '2', 57)]" "live counters: perfquery tagged per plane"
finish
