# SPDX-License-Identifier: MIT
# deadlock verdicts on real OpenSM routing (tests/fixtures/routing, made by
# tests/routing/make_fixtures.sh with ibsim + OpenSM; verdicts agree with
# ibdmchk, see docs/deadlock-verdicts.md). Every reported cycle is
# re-verified against the LFT dump by an independent parser.
. "$(dirname "$0")/lib.bash"
need_external NVIDIA__topograph__tests__output__ibnetdiscover__example.out
FX="$FL_SRC/tests/fixtures/routing"
D="--rules deadlock.* --format json"

inputs() { # scenario -> topology, LFTs, and SL2VL/path SLs when present
  local d="$FX/$1"
  printf '%s\n' "$d/topology.ibnetdiscover" "$d/opensm-lfts.dump"
  [ -f "$d/opensm-sl2vl.dump" ] && printf '%s\n' "$d/opensm-sl2vl.dump"
  [ -f "$d/path-sl.psl" ] && printf '%s\n' "$d/path-sl.psl"
}
verdict() { # scenario expected-loops expected-vl-aware [extra options]
  local sc=$1 want=$2 vl=$3; shift 3
  mapfile -t IN < <(inputs "$sc")
  "$FL" check $D "$@" "${IN[@]}" >"$TMP/out" 2>"$TMP/err"
  [ $# -eq 0 ] && cp "$TMP/out" "$TMP/verdict-$sc.json" # (read again below)
  expect_eq "$(jget "$TMP/out" "=len([f for f in d['findings'] if f['rule'] == 'deadlock.credit-loop'])")" "$want" "$sc loops $*"
  expect_eq "$(jget "$TMP/out" "=[f['evidence']['vl_aware'] for f in d['findings'] if f['rule'] == 'deadlock.verdict'][0]")" "$vl" "$sc vl-aware $*"
  if [ "$want" != 0 ]; then
    if python3 "$FL_SRC/tests/cli/verify_cycle.py" "$TMP/out" "$FX/$sc/opensm-lfts.dump" >"$TMP/v" 2>&1; then pass; else fail "$sc cycle does not verify: $(cat "$TMP/v")"; fi
  fi
}

# minhop on a 6-ring splits 3-hop ties both ways: one loop per direction
verdict ring-minhop 2 False
verdict torus-minhop 1 False
verdict fat-tree-2tier-updn 0 False
verdict fat-tree-2tier-ftree 0 False
verdict fat-tree-3tier-updn 0 False
verdict fat-tree-3tier-ftree 0 False
verdict fat-tree-extra-leaf-link-minhop 0 False
verdict fat-tree-3tier-extra-leaf-link-minhop 2 False
# VL engines: no loop once their SL/VL assignment is honoured...
verdict ring-lash 0 True
verdict ring-dfsssp 0 True
verdict ring-nue 0 True
verdict torus-torus-2QoS 0 True
# ... while the VL-blind analysis of the same LFTs finds them
verdict ring-lash 2 False --param deadlock.vl-mode=blind
verdict ring-dfsssp 2 False --param deadlock.vl-mode=blind
verdict ring-nue 2 False --param deadlock.vl-mode=blind
verdict torus-torus-2QoS 0 False --param deadlock.vl-mode=blind
# torus-2QoS refuses a ring and OpenSM falls back to minhop: loops, VL-aware
verdict ring-torus-2QoS 2 True

# one-directional loops (tests/routing/make_one_way.sh: OpenSM's file
# engine programs a 3-ring whose every switch sends every foreign LID on
# one port): one loop, found whichever way round the ring is routed (the
# up*/down* certificate must see the down-up turn in both orientations)
verdict ring3-one-way-cw 1 False
verdict ring3-one-way-ccw 1 False
for o in cw:2 ccw:3; do
  mapfile -t IN < <(inputs "ring3-one-way-${o%:*}")
  cp "$TMP/verdict-ring3-one-way-${o%:*}.json" "$TMP/out" # (its verdict's run)
  expect_eq "$(jget "$TMP/out" "=[sorted((h['from'], h['from_port']) for h in f['evidence']['cycle']) for f in d['findings'] if f['rule'] == 'deadlock.credit-loop']")" \
    "[[('sw-x00', ${o#*:}), ('sw-x01', ${o#*:}), ('sw-x02', ${o#*:})]]" "one-way ring ${o%:*} cycle"
  expect_rc 1 "$FL" check "${IN[@]}"
done

# the exact ring cycles: the six ring cables in each direction
mapfile -t IN < <(inputs ring-minhop)
cp "$TMP/verdict-ring-minhop.json" "$TMP/out" # (its verdict's run)
expect_eq "$(jget "$TMP/out" "=sorted(tuple(h['from'] for h in f['evidence']['cycle']) for f in d['findings'] if f['rule'] == 'deadlock.credit-loop')")" \
  "[('sw-x03', 'sw-x02', 'sw-x01', 'sw-x00', 'sw-x05', 'sw-x04'), ('sw-x03', 'sw-x04', 'sw-x05', 'sw-x00', 'sw-x01', 'sw-x02')]" "ring cycle switches"
expect_eq "$(jget "$TMP/out" "=[f['severity'] for f in d['findings'] if f['rule'] == 'deadlock.credit-loop']")" "['error', 'error']" "severity"
expect_rc 1 "$FL" check "${IN[@]}"

# inputs given in any order: routing dumps are loaded after the topology
expect_rc 1 "$FL" check --rules deadlock.credit-loop "$FX/ring-minhop/opensm-lfts.dump" "$FX/ring-minhop/topology.ibnetdiscover"
# the LFTs of another fabric: switches the topology lacks are reported
expect_rc 0 "$FL" check --rules deadlock.routing-input --format json "$FL_EXTERNAL/NVIDIA__topograph__tests__output__ibnetdiscover__example.out" "$FX/ring-minhop/opensm-lfts.dump"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 6 "foreign LFT blocks"
expect_grep "$TMP/out" "LFT block for switch 0x0002c90301000001"
# routing=lft without LFTs cannot run
expect_rc 3 "$FL" check --rules deadlock.credit-loop --param deadlock.routing=lft "$FX/ring-minhop/topology.ibnetdiscover"
expect_grep "$TMP/err" "routing=lft needs LFTs"
# design mode: minimal routing on the ring topology alone has loops both
# ways; the ring is no tiered Clos, so minhop is modelled, but nobody loaded
# that routing: warnings (exit 0), errors only when the engine is named
expect_rc 0 "$FL" check --rules deadlock.credit-loop --format json "$FX/ring-minhop/topology.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=[(f['severity'], f['evidence']['engine'], f['evidence']['engine_source']) for f in d['findings']]")" \
  "[('warning', 'minhop', 'shape'), ('warning', 'minhop', 'shape')]" "minimal ring loops, modelled"
expect_rc 1 "$FL" check --rules deadlock.credit-loop --param deadlock.routing-engine=minhop --format json "$FX/ring-minhop/topology.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=[(f['severity'], f['evidence']['engine_source']) for f in d['findings']]")" \
  "[('error', 'parameter'), ('error', 'parameter')]" "minimal ring loops, engine named"
finish
