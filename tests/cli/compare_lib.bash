# SPDX-License-Identifier: MIT
# tests/cli/compare_lib.bash — plans for the compare_*.sh tests (sourced
# after lib.bash): made here by `fabriclint gen` and edited by small
# scripts, so every figure is computable by hand.
#
#   base.xml    gen rail-su: 2 SUs x 4 hosts x 2 rails, leaf radix 8, NDR:
#               4 leaves, 2 spines, 16 HCAs; 16 host cables and 16
#               leaf-spine cables (2 to each spine per leaf): tier 1
#               6400 Gb/s down, 6400 Gb/s up, 1:1
#   su3.xml     the same with 3 SUs: 6 leaves, 4 spines (gen: fewest that
#               divide), 24 HCAs, 24 + 24 cables
#   over.xml    base.xml without each leaf's second cable to each spine
#               (ports 6 and 8): 8 leaf-spine cables, 3200 Gb/s up, 2:1
#   asym.xml    base.xml without leaf-su01-r0 port 8 to spine-02: one
#               leaf 1.33:1, tier 1 6400 down / 6000 up
#   renamed.xml asym.xml with every node renamed (dgx-00N -> gpu-00N,
#               leaf-su01-r0 -> L1, spine-02 -> S2): same GUIDs
#   media.xml   asym.xml with media="aoc" on every leaf-spine cable
#   onespine.xml base.xml without the cables to spine-02: spine-01 alone
#               joins the 4 leaves; losing it cuts 12 of the 16 HCAs off
#               (the largest piece, one leaf's 4, stays)
#   hdr.xml     base.xml with leaf-su01-r0 port 5 (to spine-01) at HDR:
#               warnings only (mixed speeds, asymmetry); tier 1 6400 Gb/s
#               down, 6200 up: 1.032258:1
cmp_plans() {
  "$FL" gen rail-su --sus 2 --rails 2 --hosts-per-su 4 --leaf-radix 8 -o "$TMP/base.xml" || return 1
  "$FL" gen rail-su --sus 3 --rails 2 --hosts-per-su 4 --leaf-radix 8 -o "$TMP/su3.xml" || return 1
  python3 - "$TMP" <<'PY'
import re, sys
d = sys.argv[1]
base = open(d + "/base.xml").read()
over = re.sub(r'  <link a="leaf-[^"]*" a-port="[68]" b="spine-[^\n]*\n', "", base)
open(d + "/over.xml", "w").write(over)
cut = '  <link a="leaf-su01-r0" a-port="8" b="spine-02" b-port="2" width="4x" speed="NDR"/>\n'
assert cut in base
asym = base.replace(cut, "")
open(d + "/asym.xml", "w").write(asym)
ren = asym.replace("dgx-00", "gpu-00").replace("leaf-su01-r0", "L1").replace("spine-02", "S2")
open(d + "/renamed.xml", "w").write(ren)
media = re.sub(r'(<link a="leaf-[^"]*" a-port="\d+" b="spine-[^"]*" b-port="\d+")', r'\1 media="aoc"', asym)
open(d + "/media.xml", "w").write(media)
up = '<link a="leaf-su01-r0" a-port="5" b="spine-01" b-port="1" width="4x" speed="NDR"/>'
assert up in base
open(d + "/onespine.xml", "w").write("".join(l for l in base.splitlines(True) if 'b="spine-02"' not in l))
open(d + "/hdr.xml", "w").write(base.replace(up, up.replace("NDR", "HDR")))
PY
}
