#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/partial_shape.sh — shape rules on partial views and unknown
# tiers (issue 30; real-corpus classes F6, F7, F13, F15 in
# docs/real-fabrics.md):
#   - ecmp-balance.oversubscription / uplink-asymmetry do not judge a switch
#     whose own cables or whose uplinks' far switches are known from one
#     end only (a cut or excerpted capture, a one-device LLDP view): cutting
#     the block of a spine silences both leaves, cutting a leaf's own block
#     silences that leaf alone (both orientations of the one-ended cable);
#   - topology.mixed-speed between links of unknown tiers (a switch-only
#     capture) is info, not judged; the same links with `tier` annotations
#     are judged (warning, the link named);
#   - a SONiC lab graph (a fleet of testbeds): its switches get no tier and
#     no ECMP or mixed-speed warning; the same cabling without the fleet
#     element (DOT) is still judged;
#   - a mixed-speed-group message names at most 12 next hops and counts
#     the rest per speed (12 next hops: all named; 13: "and 1 more").
# The captures are `fabriclint gen ... --format ibnetdiscover` (its layout).
. "$(dirname "$0")/lib.bash"

# cut FILE NAME — FILE without the block of the node whose description is NAME
cut_block() {
  python3 - "$1" "$2" <<'PY'
import sys
text, name = open(sys.argv[1]).read(), sys.argv[2]
blocks = text.split("\n\n")
keep = [b for b in blocks if '# "%s" enhanced' % name not in b and '# "%s"\n' % name not in b]
if len(keep) != len(blocks) - 1:
    sys.exit("cut_block: %d blocks of %s" % (len(blocks) - len(keep), name))
sys.stdout.write("\n\n".join(keep))
PY
}
oversub() {
  expect_rc "$1" "$FL" check --format json --rules ecmp-balance.oversubscription \
    --param ecmp-balance.max-ratio=0.5 "$2"
  jget "$TMP/out" "=sorted(n for f in d['findings'] for m in (f['evidence'].get('members') or [f]) for n in m['nodes'])"
}

# ---- one-ended uplinks: not judged ------------------------------------------------
"$FL" gen fat-tree --radix 4 --hosts 4 --format ibnetdiscover -o "$TMP/ft.ibnd"
expect_eq "$(oversub 0 "$TMP/ft.ibnd")" "['leaf-p01-01', 'leaf-p01-02']" \
  "whole capture at max-ratio 0.5: both leaves oversubscribed 1:1 > 0.5"
cut_block "$TMP/ft.ibnd" spine-p01-02 >"$TMP/nospine.ibnd"
expect_eq "$(oversub 0 "$TMP/nospine.ibnd")" "[]" \
  "spine-p01-02's block cut: every leaf has an uplink seen from its end only: none judged"
cut_block "$TMP/ft.ibnd" leaf-p01-01 >"$TMP/noleaf.ibnd"
expect_eq "$(oversub 0 "$TMP/noleaf.ibnd")" "['leaf-p01-02']" \
  "leaf-p01-01's own block cut: it is not judged, leaf-p01-02 still is"
# the same by annotation: a node known only from its neighbours' side
# (peer-only=yes), the leaf itself or the spine its uplinks reach
oversub_ann() {
  printf 'node,peer-only\n%s,yes\n' "$1" >"$TMP/po.csv"
  expect_rc 0 "$FL" check --format json --rules ecmp-balance.oversubscription \
    --param ecmp-balance.max-ratio=0.5 "$TMP/ft.ibnd" "$TMP/po.csv"
  jget "$TMP/out" "=sorted(n for f in d['findings'] for m in (f['evidence'].get('members') or [f]) for n in m['nodes'])"
}
expect_eq "$(oversub_ann leaf-p01-01)" "['leaf-p01-02']" "leaf-p01-01 peer-only: not judged"
expect_eq "$(oversub_ann spine-p01-01)" "[]" "spine-p01-01 peer-only: no leaf judged"
expect_rc 1 "$FL" check --format json --rules topology.one-sided-link "$TMP/nospine.ibnd"
expect_eq "$(jget "$TMP/out" "=[(f['severity'], f['evidence'].get('nodes_without_listing')) for f in d['findings']]")" \
  "[('error', 1)]" "the cut capture itself is still one error"

# ---- mixed speeds between links of unknown tiers --------------------------------
# a switch-only capture (the hosts' lines and blocks dropped), one leaf-spine
# cable at HDR in both its lines
python3 - "$TMP/ft.ibnd" >"$TMP/sw.ibnd" <<'PY'
import sys
out = []
for b in open(sys.argv[1]).read().split("\n\n"):
    if "\nCa\t" in b or b.startswith("Ca\t"):
        continue
    lines = [l for l in b.split("\n") if '"H-' not in l]
    b = "\n".join(lines)
    b = b.replace('[3]\t"S-0002c90301000003"[1]\t\t# "spine-p01-01" lid 3 4xNDR',
                  '[3]\t"S-0002c90301000003"[1]\t\t# "spine-p01-01" lid 3 4xHDR')
    b = b.replace('[1]\t"S-0002c90301000001"[3]\t\t# "leaf-p01-01" lid 1 4xNDR',
                  '[1]\t"S-0002c90301000001"[3]\t\t# "leaf-p01-01" lid 1 4xHDR')
    out.append(b)
sys.stdout.write("\n\n".join(out))
PY
expect_eq "$(grep -c 4xHDR "$TMP/sw.ibnd")" "2" "switch-only capture: one cable at HDR, both ends"
ms() { jget "$TMP/out" "=[(f['severity'], f['message'].split(';')[0], f.get('fix') is not None) for f in d['findings']]"; }
expect_rc 0 "$FL" check --format json --rules topology.mixed-speed "$TMP/sw.ibnd"
expect_eq "$(ms)" "[('info', 'links whose tiers are unknown run at 2 different speeds (1 HDR, 3 NDR)', False)]" \
  "unknown tiers: info, not judged, no fix"
printf 'node,tier\nleaf-p01-01,1\nleaf-p01-02,1\nspine-p01-01,2\nspine-p01-02,2\n' >"$TMP/tiers.csv"
expect_rc 0 "$FL" check --format json --rules topology.mixed-speed "$TMP/sw.ibnd" "$TMP/tiers.csv"
expect_eq "$(ms)" "[('warning', 'links of tier 1-2 run at 2 different speeds (1 HDR, 3 NDR)', True)]" \
  "tiers given: judged, a warning with the fix"

# ---- a fleet plan (SONiC lab graph) ------------------------------------------------
# two testbeds: a fan-out cabled to a DUT by two 100G ports and to a server
# by a 1G management port, and a second fan-out with its own DUT
cat >"$TMP/lab.xml" <<'XML'
<LabConnectionGraph>
  <PhysicalNetworkGraphDeclaration>
    <Devices>
      <Device Hostname="fanout-a" HwSku="Arista-7260" Type="FanoutLeaf"/>
      <Device Hostname="dut-a" HwSku="Mellanox-2700" Type="DevSonic"/>
      <Device Hostname="server-a" HwSku="TestServ" Type="Server"/>
      <Device Hostname="fanout-b" HwSku="Arista-7260" Type="FanoutLeaf"/>
      <Device Hostname="dut-b" HwSku="Mellanox-2700" Type="DevSonic"/>
    </Devices>
    <DeviceInterfaceLinks>
      <DeviceInterfaceLink BandWidth="100000" StartDevice="dut-a" StartPort="Ethernet0" EndDevice="fanout-a" EndPort="Ethernet1"/>
      <DeviceInterfaceLink BandWidth="100000" StartDevice="dut-a" StartPort="Ethernet4" EndDevice="fanout-a" EndPort="Ethernet2"/>
      <DeviceInterfaceLink BandWidth="1000" StartDevice="server-a" StartPort="eno1" EndDevice="fanout-a" EndPort="Ethernet48"/>
      <DeviceInterfaceLink BandWidth="100000" StartDevice="dut-b" StartPort="Ethernet0" EndDevice="fanout-b" EndPort="Ethernet1"/>
      <DeviceInterfaceLink BandWidth="1000" StartDevice="server-a" StartPort="eno2" EndDevice="fanout-b" EndPort="Ethernet48"/>
    </DeviceInterfaceLinks>
  </PhysicalNetworkGraphDeclaration>
</LabConnectionGraph>
XML
expect_rc 0 "$FL" check --format json "$TMP/lab.xml"
expect_eq "$(jget "$TMP/out" "=sorted(set((f['severity'], f['rule']) for f in d['findings'] if f['severity'] != 'info'))")" "[]" \
  "lab graph: no warning or error (testbeds by design)"
expect_rc 0 "$FL" info --explain "$TMP/lab.xml"
expect_grep "$TMP/out" 'fanout-a: no tier: a switch of a fleet plan \(fleet=lab-graph'
expect_grep "$TMP/out" 'dut-b: no tier: a switch of a fleet plan'
# the same cabling as a DOT plan (no fleet): tiers are derived and judged
"$FL" convert "$TMP/lab.xml" -o "$TMP/lab.dot"
expect_rc 0 "$FL" info --explain "$TMP/lab.dot"
expect_grep "$TMP/out" 'fanout-a: tier 1 \(leaf\)'

# ---- next hops named in a mixed-speed-group message: 12 at most ----------------
# fat trees of radix 24 and 26: a leaf has 12 / 13 uplinks, one to the
# first spine at HDR; toward a host of another leaf all are next hops
mixed_msg() {
  "$FL" gen fat-tree --radix "$1" --hosts "$2" -o "$TMP/r$1.xml"
  python3 - "$TMP/r$1.xml" >"$TMP/r$1s.xml" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
# the first leaf-spine link element: HDR instead of the plan's rate
m = re.search(r'<link a="leaf-p01-01" [^>]*b="spine[^>]*>', text)
if not m:
    sys.exit("no leaf-spine link")
link = m.group(0)
new = re.sub(r'speed="[A-Z]+"', 'speed="HDR"', link)
sys.stdout.write(text.replace(link, new, 1))
PY
  expect_rc 0 "$FL" check --format json --rules ecmp-balance.mixed-speed-group "$TMP/r$1s.xml"
  jget "$TMP/out" "=[f['message'].split(': ports ')[1].split(';')[0] for f in d['findings'] if f['nodes'][0] == 'leaf-p01-01'][0]"
}
m12=$(mixed_msg 24 144)
expect_eq "$(echo "$m12" | grep -oE '[0-9]+ \([0-9]+ Gb/s\)' | wc -l) $(echo "$m12" | grep -c 'more')" "12 0" \
  "12 next hops: all 12 named, none counted"
m13=$(mixed_msg 26 169)
expect_eq "$(echo "$m13" | grep -oE '[0-9]+ \([0-9]+ Gb/s\)' | wc -l)" "12" "13 next hops: 12 named"
case $m13 in
*" and 1 more (12 at 400 Gb/s, 1 at 200 Gb/s)" | *" and 1 more (1 at 200 Gb/s, 12 at 400 Gb/s)") pass ;;
*) fail "13 next hops: the 13th counted, with the next hops per speed: $m13" ;;
esac
finish
