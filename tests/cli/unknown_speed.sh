#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/unknown_speed.sh — a link of unknown speed (0 Gb/s: a cable
# inside a chassis expanded from IBNL, a plan link without width/speed) is
# neither slower nor faster than the others (real-corpus class F9 in
# docs/real-fabrics.md; include/fabriclint/view.h fl_view_gspan(),
# plugins/ecmp-balance). On `fabriclint gen` fat trees with one uplink's
# width and speed removed:
#   - no ecmp-balance.mixed-speed-group (the other next hop alone is known),
#     whichever of the leaf's two uplinks is the unknown one;
#   - no oversubscription nor uplink asymmetry: an unknown uplink is taken
#     at the fastest known uplink of the switch, said in the message and
#     the evidence when a finding is made;
#   - a group that mixes known speeds (HDR and NDR) is still mixed, the
#     unknown hop listed as "speed unknown", not compared and not named as
#     a slow cable, in either order of the known speeds; the leaf's
#     oversubscription and asymmetry root on the HDR cable, not on the
#     unknown one;
# and on the ibdiag demo partial-gnu-based-32.topo's cabling with the Gnu
# IBNL (Debian libibdm1, tests/data/external): the cables inside the Gnu
# carry no speed, no mixed-speed group.
. "$(dirname "$0")/lib.bash"
R="--rules ecmp-balance,topology --format json"
rules() { jget "$TMP/out" "=sorted((f['rule'], f['severity']) for f in d['findings'] if f['severity'] != 'info')"; }
ev() { jget "$TMP/out" "=[f['evidence'] for f in d['findings'] if f['rule'] == '$1']$2"; }
msg() { jget "$TMP/out" "=[f['message'] for f in d['findings'] if f['rule'] == '$1'][0]"; }
# unknown FILE LEAF PORT — FILE's link from LEAF port PORT without width/speed
unknown() {
  sed "s/\(<link a=\"$2\" a-port=\"$3\" b=\"spine[^\"]*\" b-port=\"[0-9]*\"\) width=\"4x\" speed=\"NDR\"/\1/" "$1"
}
# rate FILE LEAF PORT SPEED — FILE's link from LEAF port PORT at SPEED
rate() {
  sed "s/\(<link a=\"$2\" a-port=\"$3\" b=\"spine[^\"]*\" b-port=\"[0-9]*\" width=\"4x\" speed=\)\"NDR\"/\1\"$4\"/" "$1"
}

"$FL" gen fat-tree --radix 4 --tiers 2 -o "$TMP/ft4.xml"
for p in 3 4; do
  unknown "$TMP/ft4.xml" leaf-p01-01 $p >"$TMP/u$p.xml"
  expect_eq "$(grep -c "a=\"leaf-p01-01\" a-port=\"$p\" b=\"spine[^\"]*\" b-port=\"[0-9]*\"/>" "$TMP/u$p.xml")" "1" "port $p: one link without a rate"
  expect_rc 0 "$FL" check $R "$TMP/u$p.xml"
  expect_eq "$(rules)" "[]" "unknown uplink on port $p: no finding above info"
  # a tighter policy makes the leaves oversubscribed: the unknown uplink
  # counts at the known 400 Gb/s (1:1 like its peers), and the message says so
  expect_rc 0 "$FL" check $R --param ecmp-balance.oversubscription.max-ratio=0.5 "$TMP/u$p.xml"
  expect_eq "$(jget "$TMP/out" "=[(i['nodes'], i['evidence']['ratio'], i['evidence']['up_gbps'], i['evidence']['up_ports_unknown_speed'], i['evidence'].get('assumed_up_gbps')) for f in d['findings'] if f['rule'] == 'ecmp-balance.oversubscription' for i in f['evidence'].get('members', [f]) if i['nodes'] == ['leaf-p01-01']]")" \
    "[(['leaf-p01-01'], 1, 800, 1, 400)]" "port $p unknown: taken at the fastest known"
done
expect_grep "$TMP/out" '1 uplink\(s\) of unknown speed taken at 400 Gb/s, the fastest known'

# radix 6: leaf-p01-01 has 3 uplinks (ports 4, 5, 6); one unknown, one HDR,
# one NDR: still mixed, the unknown hop listed but not compared, only the
# HDR cable named as the slow one; both orders of the known speeds
"$FL" gen fat-tree --radix 6 --tiers 2 -o "$TMP/ft6.xml"
for order in "5 6" "6 5"; do
  set -- $order
  unknown "$TMP/ft6.xml" leaf-p01-01 4 >"$TMP/a.xml"
  rate "$TMP/a.xml" leaf-p01-01 "$1" HDR >"$TMP/m.xml"
  expect_rc 0 "$FL" check --rules ecmp-balance --format json "$TMP/m.xml"
  expect_eq "$(ev ecmp-balance.mixed-speed-group "[0]['next_hops']")" \
    "[{'gbps': 0, 'port': 4, 'to': 'spine-p01-01'}, {'gbps': $([ "$1" = 5 ] && echo 200 || echo 400), 'port': 5, 'to': 'spine-p01-02'}, {'gbps': $([ "$1" = 6 ] && echo 200 || echo 400), 'port': 6, 'to': 'spine-p01-03'}]" \
    "HDR on port $1: next hops"
  expect_eq "$(ev ecmp-balance.mixed-speed-group "[0]['unknown_speed_next_hops']")" "1" "HDR on port $1: one hop not compared"
  expect_grep "$TMP/out" "ports 4 \\(speed unknown\\), 5 \\([24]00 Gb/s\\), 6 \\([24]00 Gb/s\\) \\(1 next hop\\(s\\) of unknown speed not compared\\)"
  expect_eq "$(jget "$TMP/out" "=[f.get('root') for f in d['findings'] if f['rule'] == 'ecmp-balance.mixed-speed-group']")" \
    "['link:leaf-p01-01 port $1 - spine-p01-0$(($1 - 3)) port 1']" "HDR on port $1: the slow cable only"
  # the capacity shortfall (1200 down, 200 + 400 + 400 assumed up) is the
  # HDR cable's: oversubscription and asymmetry root there, the unknown
  # uplink is no slow one
  expect_eq "$(jget "$TMP/out" "=[(f['rule'], f.get('root')) for f in d['findings'] if f['rule'] in ('ecmp-balance.oversubscription', 'ecmp-balance.uplink-asymmetry')]")" \
    "[('ecmp-balance.oversubscription', 'link:leaf-p01-01 port $1 - spine-p01-0$(($1 - 3)) port 1'), ('ecmp-balance.uplink-asymmetry', 'link:leaf-p01-01 port $1 - spine-p01-0$(($1 - 3)) port 1')]" "HDR on port $1: capacity rooted on the HDR cable"
done
# unknown and NDR only: not mixed
expect_rc 0 "$FL" check --rules ecmp-balance --format json "$TMP/a.xml"
expect_eq "$(ev ecmp-balance.mixed-speed-group "")" "[]" "radix 6, one unknown: not mixed"

# the ibdiag demo partial-gnu-based-32.topo's cabling, written anew: 8 leaf
# switches of 4 hosts, 2 cables each to two Gnu directors (IBNL, Debian
# libibdm1: the cables inside a Gnu carry no speed), leaf 4 cabled to the
# first Gnu only; with the old reading, the Gnu's line cards "mixed" 0 Gb/s
# internal hops with 20 Gb/s cables toward leaf 4
X="$FL_EXTERNAL/debian__libibdm1__ibnl__"
need_external debian__libibdm1__ibnl__Gnu.ibnl \
  debian__libibdm1__ibnl__Cougar.ibnl debian__libibdm1__ibnl__MTS3600.ibnl
{
  mkdir -p "$TMP/ibnl"
  for s in Gnu Cougar MTS3600; do cp "$X$s.ibnl" "$TMP/ibnl/$s.ibnl"; done
  for l in 1 2 3 4 5 6 7 8; do
    echo "MTS3600 SW_L2_$l"
    for h in 1 2 3 4; do echo "   P$h -4x-5G-> Cougar H-$(((l - 1) * 4 + h)) P1"; done
    for g in 1 2; do
      [ $l = 4 ] && [ $g = 2 ] && continue
      # the Gnu's front panel: M/P1..8, then L1/P1..4 and L2/P1..4
      case $l in
      [1-4]) a=M/P$((2 * l - 1)) b=M/P$((2 * l)) ;;
      5 | 7) a=L$(((l - 3) / 2))/P1 b=L$(((l - 3) / 2))/P2 ;;
      *) a=L$(((l - 4) / 2))/P3 b=L$(((l - 4) / 2))/P4 ;;
      esac
      echo "   P$((3 + 2 * g)) -4x-5G-> Gnu L1_$g $a"
      echo "   P$((4 + 2 * g)) -4x-5G-> Gnu L1_$g $b"
    done
    echo
  done >"$TMP/gnu.topo"
  FABRICLINT_IBNL_PATH="$TMP/ibnl" expect_rc 0 "$FL" check --rules ecmp-balance --format json "$TMP/gnu.topo"
  expect_eq "$(ev ecmp-balance.mixed-speed-group "")" "[]" "Gnu chassis: cables inside carry no speed, not mixed"
  expect_eq "$(ev ecmp-balance.oversubscription "[0]['down_gbps']") $(ev ecmp-balance.oversubscription "[0]['up_gbps']")" "80 40" "leaf 4: 4 x 20 down, 2 x 20 up (true)"
}

finish
