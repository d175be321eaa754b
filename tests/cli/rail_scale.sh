# SPDX-License-Identifier: MIT
# rail-alignment at scale (issue 14): on fabrics that are not
# rail-optimised the rules report nothing, say so once with -v, and leave
# after one pass when no host has two NICs and nothing carries a `rail`
# attribute; a `rail` attribute on a NIC or on a leaf alone still makes the
# rules run; and the hash indexes that replaced the quadratic scans keep
# 512 hosts apart. (Timing is bench/rule_scale.sh's job, not a test's.)
. "$(dirname "$0")/lib.bash"
R="--rules rail-alignment --format json"
findings() { jget "$TMP/out" "=[(f['rule'], f['nodes']) for f in d['findings']]"; }
notes() { grep -c "not a rail-optimised fabric" "$TMP/err"; }

# a classic 3-tier fat tree, one NIC per host (gen: 128 hosts "nodeNNNN
# mlx5_0", 2 per leaf at radix 4 tiers 2, here radix 8 tiers 3)
"$FL" gen fat-tree --radix 8 --tiers 3 -o "$TMP/ft.xml"
expect_rc 0 "$FL" check -v $R "$TMP/ft.xml"
expect_eq "$(findings)" "[]" "fat tree: no rail finding"
expect_eq "$(notes)" "1" "fat tree: said once for the 8 rules"
expect_grep "$TMP/err" "^fabriclint: rail-alignment\.cross-rail: note: not a rail-optimised fabric \(128 NICs of 128 hosts; no \`rail\` attribute, and no host has two or more NICs\): the rail rules have nothing to check$"
expect_rc 0 "$FL" check $R "$TMP/ft.xml"
expect_eq "$(notes)" "0" "fat tree: quiet without -v"

# two NICs of one host on the same leaf (node0002's HCA given to node0001):
# the full analysis runs and finds the fabric is not rail-optimised
"$FL" gen fat-tree --radix 4 --tiers 2 -o "$TMP/ft4.xml"
sed 's/system="node0002"/system="node0001"/' "$TMP/ft4.xml" > "$TMP/dual.xml"
expect_rc 0 "$FL" check -v $R "$TMP/dual.xml"
expect_eq "$(findings)" "[]" "dual NIC on one leaf: no rail finding"
expect_grep "$TMP/err" "note: not a rail-optimised fabric \(8 NICs of 7 hosts; fewer than half of the hosts with two or more compute NICs have them on separate leaves\)"
expect_eq "$(notes)" "1" "dual NIC on one leaf: said once"

# single-NIC hosts whose NICs carry rails: rail-optimised by declaration;
# node0002 (rail r1) shares leaf-p01-01 with node0001 (r0) and node0003 and
# node0004 (r0) sit on leaf-p01-02, so leaf-p01-01 has no majority (a
# mixed leaf) and nothing is said about the fabric
sed -e 's/kind="ca" \(name="node0002[^"]*"\)/kind="ca" \1 rail="r1"/' \
  -e 's/kind="ca" \(name="node000[13-8][^"]*"\)/kind="ca" \1 rail="r0"/' \
  "$TMP/ft4.xml" > "$TMP/nicrail.xml"
expect_rc 0 "$FL" check -v $R "$TMP/nicrail.xml"
expect_eq "$(findings)" "[('rail-alignment.mixed-leaf', ['leaf-p01-01'])]" "NIC rails: the mixed leaf"
expect_eq "$(notes)" "0" "NIC rails: rail-optimised"

# a `rail` attribute on one leaf only (profile generic: mlx5_N is rail N):
# leaf-p01-01 is declared rail 0, and node0002's HCA is mlx5_1, so it is a
# cross-rail NIC there (its host then lacks rail 0, and that leaf's SU has
# one host of its rail where the others have two); with no leaf of rail 1
# the fix says so
sed -e 's/\(name="leaf-p01-01" [^>]*\)>/\1 rail="0">/' \
  -e '/name="node0002/s/device="mlx5_0"/device="mlx5_1"/' "$TMP/ft4.xml" > "$TMP/leafrail.xml"
expect_rc 1 "$FL" check -v $R --param rail-alignment.profile=generic "$TMP/leafrail.xml"
expect_eq "$(findings)" "[('rail-alignment.cross-rail', ['node0002 mlx5_0', 'leaf-p01-01']), ('rail-alignment.incomplete-host', ['node0002 mlx5_0']), ('rail-alignment.su-shape', ['leaf-p01-01'])]" "leaf rail: the cross-rail NIC"
expect_grep "$TMP/out" "no leaf of rail 1 found in this SU"
expect_eq "$(notes)" "0" "leaf rail: rail-optimised"

# 16 SUs x 32 hosts x 8 rails: every one of the 512 host names stays its own
# host (a set that merged two names would make them incomplete or doubled)
"$FL" gen rail-su --sus 16 --hosts-per-su 32 --leaf-radix 128 -o "$TMP/rs.xml"
expect_rc 0 "$FL" check -v $R "$TMP/rs.xml"
expect_eq "$(findings)" "[]" "512 hosts: clean"
expect_eq "$(notes)" "0" "512 hosts: rail-optimised"
# one host's two NICs swapped: exactly that pair
python3 - "$TMP/rs.xml" "$TMP/rs-swap.xml" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
a = re.search(r'<link a="dgx-377 mlx5_0" a-port="1" b="([^"]+)" b-port="(\d+)"', s)
b = re.search(r'<link a="dgx-377 mlx5_3" a-port="1" b="([^"]+)" b-port="(\d+)"', s)
s = s.replace(a.group(0), '<link a="dgx-377 mlx5_0" a-port="1" b="%s" b-port="%s"' % b.groups())
s = s.replace(b.group(0), '<link a="dgx-377 mlx5_3" a-port="1" b="%s" b-port="%s"' % a.groups())
open(sys.argv[2], 'w').write(s)
PY
expect_rc 1 "$FL" check $R "$TMP/rs-swap.xml"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['evidence']['host']) for f in d['findings']]")" \
  "[('rail-alignment.swapped', 'dgx-377')]" "512 hosts: the swapped pair"

# device naming schemes are counted once per NIC (a hash count, was a
# scan of every NIC per NIC): the last host's HCAs named HCA-N among
# mlx5_N are the minority, whichever NIC comes last
"$FL" gen rail-su --sus 1 --hosts-per-su 4 -o "$TMP/rs1.xml"
sed -e 's/ rail="[0-9]*"//' \
  -e '/system="dgx-004"/s/device="mlx5_\([0-9]*\)"/device="HCA-\1"/' "$TMP/rs1.xml" > "$TMP/schemes.xml"
expect_rc 0 "$FL" check $R "$TMP/schemes.xml"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['evidence']['count'], f['evidence']['naming_of_other_nics'], f['evidence']['reason'][:26]) for f in d['findings']]")" \
  "[('rail-alignment.unresolved', 8, 'mlx5_', 'device named unlike the ot')]" "schemes: the 8 HCA-N NICs"
finish
