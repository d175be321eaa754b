#!/usr/bin/env bash
# tests/cli/planes.sh — multi-plane fabrics in one run (issue #19, Planes):
# planes from `gen --planes N`, from `--plane NAME:FILE` tags and detected
# from the real captures of tests/fixtures/planes (one ibsim + OpenSM ftree
# + ibnetdiscover per plane, fabrics/regen-planes.sh); LIDs per plane (the
# same LIDs in every plane are no topology.lid finding, credit loops and
# ECMP judged per plane); the planes rules (exactly one finding for a NIC in
# the wrong plane and for a plane missing a spine, naming the plane, host,
# NIC and switch); every finding of a multi-plane fabric names its plane;
# case c08 unchanged.
. "$(dirname "$0")/lib.bash"
set -o pipefail
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}
FX=$FL_SRC/tests/fixtures/planes
C8=$FL_SRC/tests/data/cases/c08-nccl1453-dual-port-plane-swap/asbuilt-plan.xml
export FABRICLINT_TODAY=2026-01-01

# json FILE... — check --format json into $TMP/j.json
json() { "$FL" check --format json "$@" >"$TMP/j.json" 2>"$TMP/err"; echo $? >"$TMP/rc"; }
q() { jget "$TMP/j.json" "=$1"; }
rules() { q "sorted(f['rule'] for f in d['findings'])"; }

# ---- gen --planes: 2 and 4 planes, identical, clean --------------------------
for n in 2 4; do
  "$FL" gen fat-tree --radix 8 --hosts 30 --planes $n --no-lids -o "$TMP/g$n.xml"
  expect_rc 0 "$FL" info --format json "$TMP/g$n.xml"
  cp "$TMP/out" "$TMP/i.json"
  expect_eq "$(jget "$TMP/i.json" "['planes']['count']")" "$n" "gen $n planes: count"
  expect_eq "$(jget "$TMP/i.json" "['planes']['source']")" "plane attributes" "gen $n: source"
  expect_eq "$(jget "$TMP/i.json" "=[p['switches'] for p in d['planes']['planes']]")" \
    "$(python3 -c "print([12]*$n)")" "gen $n: 12 switches per plane"
  expect_eq "$(jget "$TMP/i.json" "=[p['ca_ports'] for p in d['planes']['planes']]")" \
    "$(python3 -c "print([30]*$n)")" "gen $n: 30 host ports per plane"
  expect_eq "$(jget "$TMP/i.json" "['fabric']['switches']")" "$((12 * n))" "gen $n: switches"
  json "$TMP/g$n.xml"
  expect_eq "$(cat "$TMP/rc") $(rules)" "0 []" "gen $n planes: no finding"
done
# NIC k in plane k: node0001's NICs mlx5_0..mlx5_3 in planes 1..4
grep -q 'name="node0001 mlx5_3"' "$TMP/g4.xml" && pass || fail "gen 4: node0001 mlx5_3"
expect_eq "$(grep -c '<node kind="switch"[^>]* plane="3"' "$TMP/g4.xml")" 12 "gen 4: plane 3 switches"
# with LIDs (as an SM would give them, per plane): the same LIDs in every
# plane are no finding, since each plane is its own LID space
"$FL" gen fat-tree --radix 8 --hosts 30 --planes 2 -o "$TMP/g2lid.xml"
json "$TMP/g2lid.xml"
expect_eq "$(cat "$TMP/rc") $(rules)" "0 []" "gen 2 planes with LIDs: no topology.lid"
expect_eq "$(grep -c ' lid="1"' "$TMP/g2lid.xml")" 2 "gen 2 planes: LID 1 once per plane"

# ---- gen: plane-1 NIC cabled into plane 2 ----------------------------------
sed 's|<link a="node0001 mlx5_0" a-port="1" b="pl1-leaf-p01-01" b-port="1"|<link a="node0001 mlx5_0" a-port="1" b="pl2-leaf-p01-08" b-port="3"|' \
  "$TMP/g2.xml" >"$TMP/wrong.xml"
expect_eq "$(diff "$TMP/g2.xml" "$TMP/wrong.xml" | grep -c '^>')" 1 "one cable moved"
json "$TMP/wrong.xml" --rules 'planes.*'
expect_eq "$(rules)" "['planes.host-planes']" "gen wrong NIC: one planes finding"
expect_eq "$(q "d['findings'][0]['plane']")" "2" "gen wrong NIC: plane named"
expect_eq "$(q "[d['findings'][0]['evidence'][k] for k in ('host','nic','expected_plane','actual_plane','switch')]")" \
  "['node0001', 'mlx5_0', '1', '2', 'pl2-leaf-p01-08']" "gen wrong NIC: host, NIC, planes, switch"
json "$TMP/wrong.xml"
expect_eq "$(q "sorted(set(f.get('plane') for f in d['findings']))")" "['2']" \
  "gen wrong NIC: every finding names plane 2"

# ---- gen: plane 3 of 4 missing a spine -------------------------------------
python3 - "$TMP/g4.xml" "$TMP/nospine.xml" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
s, n = re.subn(r'  <node kind="switch" name="pl3-spine-p01-04".*?</node>\n', '', s, flags=re.S)
s, m = re.subn(r'  <link [^>]*"pl3-spine-p01-04"[^>]*/>\n', '', s)
assert n == 1 and m == 8, (n, m)
open(sys.argv[2], 'w').write(s)
PY
json "$TMP/nospine.xml" --rules 'planes.*'
expect_eq "$(rules)" "['planes.shape']" "gen missing spine: one planes finding"
expect_eq "$(q "d['findings'][0]['plane']")" "3" "gen missing spine: plane 3"
expect_eq "$(q "[d['findings'][0]['evidence'][k] for k in ('reference_plane','missing','extra','first_missing')]")" \
  "['1', 1, 0, 'pl1-spine-p01-04']" "gen missing spine: the missing switch"
expect_grep <(q "d['findings'][0]['message']") "3 tier-2 switch\(es\) where plane 1 has 4"

# ---- real captures: detected planes ----------------------------------------
for n in 2 4; do
  ins=()
  for k in $(seq 1 $n); do ins+=("$FX/p$n/plane$k.ibnetdiscover" "$FX/p$n/plane$k.lfts"); done
  expect_rc 0 "$FL" info --format json "${ins[@]}"
  cp "$TMP/out" "$TMP/i.json"
  expect_eq "$(jget "$TMP/i.json" "['planes']['count']")" "$n" "ibsim $n: planes detected"
  expect_grep <(jget "$TMP/i.json" "['planes']['source']") "^detected"
  expect_eq "$(jget "$TMP/i.json" "=[(p['switches'],p['ca_ports'],p['min_lid'],p['max_lid'],p['lfts']) for p in d['planes']['planes']]")" \
    "$(python3 -c "print([(12, 30, 1, 42, 12)]*$n)")" "ibsim $n: per plane switches, CA ports, LIDs, LFTs"
  json "${ins[@]}"
  expect_eq "$(cat "$TMP/rc") $(rules)" "0 []" "ibsim $n planes: no finding (LIDs, routing per plane)"
  expect_rc 0 "$FL" info "${ins[@]}"
  expect_grep "$TMP/out" "^planes: $n \(detected: switch components with overlapping LID spaces"
done
# the same with --plane tags (routing dumps tagged too)
json --plane A:"$FX/p2/plane1.ibnetdiscover" --plane A:"$FX/p2/plane1.lfts" \
  --plane B:"$FX/p2/plane2.ibnetdiscover" --plane B:"$FX/p2/plane2.lfts"
expect_eq "$(cat "$TMP/rc") $(rules)" "0 []" "--plane A/B: no finding"
expect_rc 0 "$FL" info --format json --plane A:"$FX/p2/plane1.ibnetdiscover" \
  --plane B:"$FX/p2/plane2.ibnetdiscover"
cp "$TMP/out" "$TMP/i.json"
expect_eq "$(jget "$TMP/i.json" "=[p['name'] for p in d['planes']['planes']]")" "['A', 'B']" "--plane names"
expect_grep <(jget "$TMP/i.json" "['planes']['source']") "^--plane tags"
expect_rc 2 "$FL" check --plane "$FX/p2/plane1.ibnetdiscover"
expect_grep "$TMP/err" "--plane: expected NAME:FILE"
# one plane alone is no multi-plane fabric: no planes in info
expect_rc 0 "$FL" info --format json "$FX/p2/plane1.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "='planes' in d")" "False" "one plane: no planes object"

# ---- real captures: plane-1 NIC of node0001 in plane 2 ---------------------
W=$FX/p2-wrong-nic
json "$W/plane1.ibnetdiscover" "$W/plane1.lfts" "$W/plane2.ibnetdiscover" "$W/plane2.lfts"
expect_eq "$(q "[f['rule'] for f in d['findings'] if f['rule'].startswith('planes.')]")" \
  "['planes.host-planes']" "ibsim wrong NIC: exactly one planes finding"
expect_eq "$(q "[(f['plane'], f['nodes'][:2], f['evidence']['nic'], f['evidence']['expected_plane']) for f in d['findings'] if f['rule']=='planes.host-planes']")" \
  "[('2', ['node0001 mlx5_0', 'pl2-leaf-p01-08'], 'mlx5_0', '1')]" "ibsim wrong NIC: plane, host NIC, switch"
# Known second view of the same cause: rail-alignment, run on plane 2 alone,
# sees an mlx5_0 among mlx5_1 NICs (cross-rail, su-shape); OpenSM's ftree
# routes plane 1 (one host fewer) unevenly. Every finding names its plane.
expect_eq "$(q "sorted(set((f['rule'], f.get('plane')) for f in d['findings'] if f['rule']!='planes.host-planes'))")" \
  "[('ecmp-balance.port-imbalance', '1'), ('rail-alignment.cross-rail', '2'), ('rail-alignment.su-shape', '2')]" \
  "ibsim wrong NIC: other findings name their plane"
expect_eq "$(q "sorted(f['plane'] for f in d['findings'] if f['rule']=='ecmp-balance.port-imbalance')")" \
  "['1', '1', '1', '1', '1', '1']" "ibsim wrong NIC: plane-1 leaves unevenly routed"

# ---- real captures: plane 3 of 4 without pl3-spine-p01-04 -------------------
P=$FX/p4
json "$P/plane1.ibnetdiscover" "$P/plane1.lfts" "$P/plane2.ibnetdiscover" "$P/plane2.lfts" \
  "$FX/p4-no-spine/plane3.ibnetdiscover" "$FX/p4-no-spine/plane3.lfts" \
  "$P/plane4.ibnetdiscover" "$P/plane4.lfts"
expect_eq "$(q "[(f['rule'], f['plane'], f['evidence']['first_missing']) for f in d['findings'] if f['severity']=='error']")" \
  "[('planes.shape', '3', 'pl1-spine-p01-04')]" "ibsim missing spine: exactly one error, plane 3, the spine"
expect_eq "$(q "sorted(set((f['rule'], f.get('plane')) for f in d['findings'] if f['severity']!='error'))")" \
  "[('ecmp-balance.oversubscription', '3'), ('ecmp-balance.port-imbalance', '3')]" \
  "ibsim missing spine: other findings name plane 3"
expect_eq "$(q "len(d['findings'])")" 10 "ibsim missing spine: 1 shape + ECMP warnings of plane 3"

# ---- c08: dual-port NICs, planes A/B, gpu-03's two cables crossed -------------
json "$C8"
expect_eq "$(q "[f['rule'] for f in d['findings'] if f['rule'].startswith(('planes.','failure-domains.plane'))]")" \
  "['failure-domains.plane-crossing', 'failure-domains.plane-crossing']" \
  "c08: plane-crossing twice, planes rules leave tagged ports to it"
expect_eq "$(q "sorted(f['plane'] for f in d['findings'] if f['rule']=='failure-domains.plane-crossing')")" \
  "['A', 'B']" "c08: each crossing names both planes"
expect_rc 0 "$FL" info --format json "$C8"
expect_eq "$(jget "$TMP/out" "=[(p['name'], p['switches'], p['ca_ports']) for p in d['planes']['planes']]")" \
  "[('A', 3, 3), ('B', 3, 3)]" "c08: planes A and B, 3 switches and 3 NIC ports each"

finish
