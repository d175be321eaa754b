#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
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
    "$(pyval "[12]*$n")" "gen $n: 12 switches per plane"
  expect_eq "$(jget "$TMP/i.json" "=[p['ca_ports'] for p in d['planes']['planes']]")" \
    "$(pyval "[30]*$n")" "gen $n: 30 host ports per plane"
  expect_eq "$(jget "$TMP/i.json" "['fabric']['switches']")" "$((12 * n))" "gen $n: switches"
  json "$TMP/g$n.xml"
  expect_eq "$(cat "$TMP/rc") $(rules)" "0 []" "gen $n planes: no finding"
done
# a rule's diagnostic notes (-v) name the plane of the run: one per plane,
# not four alike
"$FL" check -v --rules 'rail-alignment.*' "$TMP/g4.xml" >/dev/null 2>"$TMP/err"
expect_eq "$(grep -o 'rail-alignment.cross-rail: plane [0-9]*: note: not a rail-optimised fabric (30 NICs of 30 hosts' "$TMP/err" | cut -d' ' -f3 | tr -d : | tr '\n' ' ')" \
  "1 2 3 4 " "gen 4: the not-rail note once per plane, naming it"
"$FL" gen fat-tree --radix 8 --hosts 30 --no-lids -o "$TMP/g1.xml"
"$FL" check -v --rules 'rail-alignment.*' "$TMP/g1.xml" >/dev/null 2>"$TMP/err"
expect_eq "$(grep -c 'rail-alignment.cross-rail: note: not a rail-optimised' "$TMP/err")" 1 \
  "one plane: the note without a plane"
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
# one cause, one finding: plane 2's subset marks the NIC `home-plane` (its
# position says plane 1), so rail-alignment does not judge it again as an
# mlx5_0 among plane 2's mlx5_1 NICs (cross-rail, su-shape)
expect_eq "$(q "[(f['rule'], f['plane'], f['evidence']['switch']) for f in d['findings']]")" \
  "[('planes.host-planes', '2', 'pl2-leaf-p01-08')]" "gen wrong NIC: exactly one finding in all"

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
    "$(pyval "[(12, 30, 1, 42, 12)]*$n")" "ibsim $n: per plane switches, CA ports, LIDs, LFTs"
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
# the same capture named twice (as two planes, twice in one plane, tagged
# and untagged, by another path): refused, exit 2, naming both namings.
# Loaded twice it read as a clean 2-plane fabric of 60 NICs (0 findings)
# or as 74 duplicate-GUID / disconnected errors.
P1=$FX/p2/plane1.ibnetdiscover
twice="the same file as input 1 \\($P1\\): each file is loaded once \\(a capture loaded twice repeats every GUID and LID and would read as a second plane\\); name each input once$"
expect_rc 2 "$FL" check --plane A:"$P1" --plane B:"$P1"
expect_grep "$TMP/err" "^fabriclint: $P1: $twice"
expect_eq "$(wc -l <"$TMP/out")" "0" "same file as two planes: no report"
expect_rc 2 "$FL" info --plane A:"$P1" --plane B:"$FX/p2/plane2.ibnetdiscover" --plane A:"$P1"
expect_grep "$TMP/err" "^fabriclint: $P1: $twice"
expect_rc 2 "$FL" check "$P1" "$FX/p2/../p2/plane1.ibnetdiscover"
expect_grep "$TMP/err" "^fabriclint: $FX/p2/../p2/plane1.ibnetdiscover: the same file as input 1 "
printf 'hosts: [node0001, node0002]\ncollectives:\n  - {op: all-to-all, bytes: 1MiB}\n' >"$TMP/w.yaml"
expect_rc 2 "$FL" perf --workload "$TMP/w.yaml" "$FX/p2" --plane A:"$FX/p2"
expect_grep "$TMP/err" "^fabriclint: $FX/p2: the same file as input 1 \\($FX/p2\\)"
# plane names: a comma would read as two planes ("plane": "A,B" is a cable
# between planes A and B), a control character breaks the one-line findings;
# blanks and UTF-8 are names like any other
expect_rc 2 "$FL" check --plane "A,B:$P1" --plane C:"$FX/p2/plane2.ibnetdiscover"
expect_grep "$TMP/err" "^fabriclint: --plane: plane name 'A,B' holds a comma \\(byte 2\\): expected a name without commas"
expect_rc 2 "$FL" check --plane "$(printf 'A\nB'):$P1"
expect_grep "$TMP/err" "^fabriclint: --plane: plane name holds control character 0x0a \\(byte 2\\): expected printable text"
expect_rc 0 "$FL" info --format json --plane "plane α:$P1" --plane "B 2:$FX/p2/plane2.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=[p['name'] for p in d['planes']['planes']]")" "['B 2', 'plane α']" "blank and UTF-8 plane names"
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
# rail-alignment leaves the misplaced NIC to planes.host-planes (no
# cross-rail, no su-shape in plane 2). What remains is no second view of
# the cable but a fact of plane 1's real LFTs: OpenSM's ftree, routing 29
# hosts, sends 7 destination LIDs up port 5 and 5 up port 8 of six leaves.
expect_eq "$(q "sorted(set((f['rule'], f.get('plane')) for f in d['findings'] if f['rule']!='planes.host-planes'))")" \
  "[('ecmp-balance.port-imbalance', '1')]" "ibsim wrong NIC: no rail-alignment finding"
expect_eq "$(q "sorted(f['plane'] for f in d['findings'] if f['rule']=='ecmp-balance.port-imbalance')")" \
  "['1', '1', '1', '1', '1', '1']" "ibsim wrong NIC: plane-1 leaves unevenly routed"
expect_eq "$(q "len(d['findings'])")" 7 "ibsim wrong NIC: 1 planes + 6 ECMP warnings of plane 1"
# without the routing dumps (topology alone, as the gen fabric): exactly one
json "$W/plane1.ibnetdiscover" "$W/plane2.ibnetdiscover"
expect_eq "$(q "[(f['rule'], f['plane'], f['evidence']['switch']) for f in d['findings']]")" \
  "[('planes.host-planes', '2', 'pl2-leaf-p01-08')]" "ibsim wrong NIC, topology: exactly one finding"
# the mark is the plane model's, not the planes rule's: rail-alignment alone
# is silent too
json "$W/plane1.ibnetdiscover" "$W/plane2.ibnetdiscover" --rules 'rail-alignment.*'
expect_eq "$(cat "$TMP/rc") $(rules)" "0 []" "ibsim wrong NIC: rail-alignment alone silent"

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

# ---- port counters per plane (p2-counters: ibsim PerformanceSet, then
# ibqueryerrors and perfquery per plane; fabrics/regen-planes.sh) ----------
# health runs per plane on the plane's subset, which now carries its ports'
# counters: SymbolErrorCounter 57 on pl2-leaf-p01-02 port 6 is one
# link-errors finding in plane 2 and nothing in plane 1
C=$FX/p2-counters
P2=("$FX/p2/plane1.ibnetdiscover" "$FX/p2/plane1.lfts" "$FX/p2/plane2.ibnetdiscover" "$FX/p2/plane2.lfts")
health() { q "[(f['rule'], f['plane'], f['nodes'][:2], f['evidence'].get('count')) for f in d['findings'] if f['rule'].startswith('health.')]"; }
# GUID-keyed (ibqueryerrors), planes detected, inputs untagged
json "${P2[@]}" "$C/plane1.ibqueryerrors" "$C/plane2.ibqueryerrors"
expect_eq "$(q "[(f['rule'], f['plane'], f['nodes'], f['evidence']['counters'][0]['counter'], f['evidence']['counters'][0]['value']) for f in d['findings']]")" \
  "[('health.link-errors', '2', ['pl2-leaf-p01-02', 'pl2-spine-p01-02'], 'SymbolErrorCounter', 57)]" \
  "counters: ibqueryerrors, the one erroring cable of plane 2"
# LID-keyed (perfquery) inputs tagged with their plane: each LID maps within
# its plane (LIDs 1-42 are in both); the free ports 3-4 of each plane's
# leaf-p01-08 (perfquery -a reads them, ibnetdiscover lists no cable) are a
# counter-mapping note per plane
json --plane 1:"$FX/p2/plane1.ibnetdiscover" --plane 1:"$FX/p2/plane1.lfts" --plane 1:"$C/plane1.perfquery" \
  --plane 2:"$FX/p2/plane2.ibnetdiscover" --plane 2:"$FX/p2/plane2.lfts" --plane 2:"$C/plane2.perfquery"
expect_eq "$(health)" \
  "[('health.link-errors', '2', ['pl2-leaf-p01-02', 'pl2-spine-p01-02'], None), ('health.counter-mapping', '1', ['pl1-leaf-p01-08'], 2), ('health.counter-mapping', '2', ['pl2-leaf-p01-08'], 2)]" \
  "counters: tagged perfquery per plane"
expect_eq "$(q "[f['evidence']['counters'][0]['value'] for f in d['findings'] if f['rule']=='health.link-errors']")" \
  "[57]" "counters: tagged perfquery, the value read in plane 2"
# untagged perfquery on detected planes: a LID both planes use names no one
# port, so the records are unmapped (said so, with the fix) instead of
# landing in either plane; each plane's cables then have no counters
json "${P2[@]}" "$C/plane1.perfquery" "$C/plane2.perfquery"
expect_eq "$(health)" \
  "[('health.counter-mapping', '1', [], 96), ('health.counter-mapping', '1', ['pl1-leaf-p01-08', 'node0029 mlx5_0'], 62), ('health.counter-mapping', '2', ['pl2-leaf-p01-08', 'node0029 mlx5_1'], 62)]" \
  "counters: untagged perfquery unmapped, 62 cables per plane without counters"
expect_grep <(q "d['findings'][0]['evidence']['examples'][0]") \
  "counters for LID 4 port 7 \(untagged input of a multi-plane fabric.*--plane NAME:FILE\)"

# ---- detected planes are numbered by NIC position, not input order ---------
# the same four captures in another order: the same names for the same
# switches (plane k holds the hosts' k-th NICs), so findings, baselines and
# --plane-free runs agree across runs
ord1=(); ord2=()
for k in 1 2 3 4; do ord1+=("$FX/p4/plane$k.ibnetdiscover"); done
for k in 3 1 4 2; do ord2+=("$FX/p4/plane$k.ibnetdiscover"); done
for o in 1 2; do
  eval "ins=(\"\${ord$o[@]}\")"
  expect_rc 0 "$FL" info --format json "${ins[@]}"
  expect_eq "$(jget "$TMP/out" "=[(p['name'], p['first_switch']) for p in d['planes']['planes']]")" \
    "[('1', 'pl1-leaf-p01-01'), ('2', 'pl2-leaf-p01-01'), ('3', 'pl3-leaf-p01-01'), ('4', 'pl4-leaf-p01-01')]" \
    "detected planes, input order $o: plane k holds pl<k>-*"
done
expect_rc 0 "$FL" info "${ord2[@]}"
expect_grep "$TMP/out" "^  3: 12 switches \(first pl3-leaf-p01-01\), 30 CA ports, LIDs 1-42, LFTs of 0 switches$"
# the wrong-NIC capture with plane 2's dump first: still plane 2, NIC for 1
json "$W/plane2.ibnetdiscover" "$W/plane1.ibnetdiscover"
expect_eq "$(q "[(f['rule'], f['plane'], f['evidence']['expected_plane']) for f in d['findings']]")" \
  "[('planes.host-planes', '2', '1')]" "detected, plane 2 first: the same finding"
# NIC position beats switch names: plane 1's switches renamed zz-* (after
# pl2-* in natural order) are still plane 1, where the hosts' mlx5_0 are
"$FL" gen fat-tree --radix 8 --hosts 30 --planes 2 --format ibnetdiscover -o "$TMP/g2.ibnd"
sed 's/pl1-/zz-/g' "$TMP/g2.ibnd" >"$TMP/g2z.ibnd"
expect_rc 0 "$FL" info --format json "$TMP/g2z.ibnd"
expect_eq "$(jget "$TMP/out" "=[(p['name'], p['first_switch']) for p in d['planes']['planes']]")" \
  "[('1', 'zz-leaf-p01-01'), ('2', 'pl2-leaf-p01-01')]" "detected planes numbered by NIC position"

# ---- diff across planes ------------------------------------------------------
dj() { "$FL" diff --format json "$@" >"$TMP/j.json" 2>"$TMP/err"; echo $? >"$TMP/rc"; }
moved="[('diff.misconnected', 'PL', ['node0001 mlx5_0', 'pl1-leaf-p01-01', 'pl2-leaf-p01-08'])]"
dfind() { q "[(f['rule'], f.get('plane'), f['nodes']) for f in d['findings']]"; }
# gen: the plan and the plan with the plane-1 NIC cabled into plane 2: one
# finding (the cable moved), naming both planes
dj "$TMP/g2.xml" "$TMP/wrong.xml"
expect_eq "$(cat "$TMP/rc") $(dfind)" "1 ${moved/PL/1,2}" "diff gen: the moved cable, planes 1,2"
# ibsim captures, detected planes on both sides
D2=(--design "$FX/p2/plane1.ibnetdiscover" --design "$FX/p2/plane2.ibnetdiscover")
dj "${D2[@]}" --as-built "$W/plane1.ibnetdiscover" --as-built "$W/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(dfind)" "1 ${moved/PL/1,2}" "diff ibsim detected: one finding, planes 1,2"
# plane-tagged inputs on both sides
dj --design-plane A:"$FX/p2/plane1.ibnetdiscover" --design-plane B:"$FX/p2/plane2.ibnetdiscover" \
  --as-built-plane A:"$W/plane1.ibnetdiscover" --as-built-plane B:"$W/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(dfind)" "1 ${moved/PL/A,B}" "diff --design-plane/--as-built-plane: planes A,B"
expect_grep <(q "d['findings'][0]['message']") \
  'lands on "pl2-leaf-p01-08" port 3; the plan puts it on "pl1-leaf-p01-01" port 1'
dj --design-plane A:"$FX/p2/plane1.ibnetdiscover" --design-plane B:"$FX/p2/plane2.ibnetdiscover" \
  --as-built-plane A:"$FX/p2/plane1.ibnetdiscover" --as-built-plane B:"$FX/p2/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(dfind)" "0 []" "diff tagged planes, as planned: no finding"
# text names the planes too
expect_rc 1 "$FL" diff "$TMP/g2.xml" "$TMP/wrong.xml"
expect_grep "$TMP/out" 'error: planes 1,2: cable from "node0001 mlx5_0" port 1 lands on'
expect_rc 2 "$FL" diff --design-plane "$FX/p2/plane1.ibnetdiscover" "$TMP/g2.xml"
expect_grep "$TMP/err" "--design-plane: expected NAME:FILE \(a plane name, a colon, an input\), got"

# ---- planes.shape on planes that name their switches alike ------------------
# tests/fixtures/diff-planes: two ibsim/OpenSM captures whose switches are
# named alike in both planes (leaf-p01-01 in plane 1 and in plane 2, GUIDs
# of their own). The model tells them apart as "leaf-p01-01 (0x<GUID>)";
# planes.shape compares the plain names. Before: one false "plane 2 differs
# in shape" error (12 switches with no counterpart, 12 with none) on two
# identical planes.
DP=$FL_SRC/tests/fixtures/diff-planes
json --rules 'planes.*' --plane 1:"$DP/plane1.ibnetdiscover" --plane 2:"$DP/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(rules)" "0 []" "alike-named planes: same shape"
json --rules 'planes.*' "$DP/plane1.ibnetdiscover" "$DP/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(rules)" "0 []" "alike-named planes, detected: same shape"
json --rules 'planes.*' "$DP/plane1.ibnetdiscover" "$DP/no-spine/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(q "[(f['rule'], f['evidence']['missing'], f['evidence']['extra'], f['evidence']['recabled'], f['evidence'].get('first_missing')) for f in d['findings']]")" \
  "1 [('planes.shape', 1, 0, 8, 'spine-p01-04')]" \
  "alike-named planes, a spine gone from plane 2: the spine and its 8 leaves"
# one capture given for two planes (two copies: not the same file, so not
# refused as a repeated input): every switch GUID in both planes
cp "$DP/plane1.ibnetdiscover" "$TMP/copy-a.ibnetdiscover"
cp "$DP/plane1.ibnetdiscover" "$TMP/copy-b.ibnetdiscover"
json --rules 'planes.*' --plane 1:"$TMP/copy-a.ibnetdiscover" --plane 2:"$TMP/copy-b.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(q "[(f['rule'], f['evidence']['plane'], f['evidence']['other_plane'], f['evidence']['shared_guids'], f['evidence']['switches'], f['evidence']['first_guid']) for f in d['findings']]")" \
  "1 [('planes.shape', '2', '1', 12, 12, '0x0002c90301000001')]" \
  "one capture as two planes: one finding, 12 shared switch GUIDs"
expect_eq "$(q "d['findings'][0]['message']")" \
  'plane 2 has 12 of its 12 switches with the GUIDs of plane 1'"'"'s (first: GUID 0x0002c90301000001 is "leaf-p01-01" in plane 1 and "leaf-p01-01" in plane 2): a switch is in one plane only, so this is one capture given for two planes, or an input tagged with the wrong plane' \
  "one capture as two planes: the message"

# two rails in two planes: each host has 4 NIC ports, 2 per plane, in NIC k
# -> plane k mod 2 order: no two-ports-in-one-plane finding
"$FL" gen rail-su --sus 1 --hosts-per-su 4 --rails 2 --planes 2 -o "$TMP/rails-planes.xml"
expect_eq "$(grep -c 'system="dgx-001"' "$TMP/rails-planes.xml")" 4 "2 rails x 2 planes: 4 NICs a host"
expect_rc 0 "$FL" check --rules 'planes.*' --format json "$TMP/rails-planes.xml"
expect_eq "$(jget "$TMP/out" "=[f['rule'] for f in d['findings']]")" "[]" "2 rails x 2 planes: no planes finding"

# -v accounts for the planes' copies (issue 33: the phases add up to the
# run): each plane's copy of the model is a phase of its own, before that
# plane's rules, and freeing the last copy one after them; the per-plane
# plugins run once per plane, the cross-plane ones (planes, failure-domains)
# after the last copy is freed
P4=$FL_SRC/tests/fixtures/planes/p4
expect_rc 0 "$FL" check -v "$P4"/plane{1,2,3,4}.ibnetdiscover
expect_eq "$(grep -E '^fabriclint:   (plane|planes|plugin (topology|planes)) ' "$TMP/err" | sed -E 's/ +[0-9]+\.[0-9]{3} s.*//' | tr -s ' ' | tr '\n' '|')" \
  "fabriclint: plane 1: its copy of the model|fabriclint: plugin topology|fabriclint: plane 2: its copy of the model|fabriclint: plugin topology|fabriclint: plane 3: its copy of the model|fabriclint: plugin topology|fabriclint: plane 4: its copy of the model|fabriclint: plugin topology|fabriclint: planes done: the last copy freed|fabriclint: plugin planes|fabriclint: plugin topology|" \
  "-v: one copy phase per plane, in order, before its rules; the copy freed before the cross-plane rules"

finish
