#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/perf_dump_flows.sh — `fabriclint perf --dump-flows FILE`
# (docs/performance-model.md), the input of the ns-3 harness:
#   - case c03 (balanced and collision LFTs): 6 switches + 8 NICs, 16
#     cables, leaf-0's LFT ports toward the 8 NICs exactly as the dumps say
#     (the collision sends gpu04 and gpu05 out of port 5), and every flow of
#     one step: sendrecv shift 4 (i -> i+4, 1 GiB), all-to-all (each of the
#     56 ordered pairs once, 1 GiB / 8), ring all-reduce (i -> i+1, 1 GiB /
#     8, 14 steps), with the model's times;
#   - the 16-host fat tree of tests/fixtures/ns3: all-to-all of 240 flows,
#     every ordered pair once (the model's groups of 4 NICs per leaf
#     expanded member by member);
#   - refusals (exit 2, nothing written over an input): the workload or an
#     input as FILE, AR routing.
. "$(dirname "$0")/lib.bash"
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}
C03=$FL_SRC/tests/data/cases/c03-nccl325-static-routing-collision
FT16=$FL_SRC/tests/fixtures/ns3/ft16

cat >"$TMP/job.yaml" <<'EOF2'
hosts: [gpu00, gpu01, gpu02, gpu03, gpu04, gpu05, gpu06, gpu07]
collectives:
  - {op: sendrecv, shift: 4, bytes: 1073741824}
  - {op: all-to-all, bytes: 1073741824}
  - {op: all-reduce, algorithm: ring, bytes: 1073741824}
EOF2

for lfts in dmodk collision; do
  rc=0
  [ $lfts = collision ] && rc=1
  expect_rc $rc "$FL" perf --format json --workload "$TMP/job.yaml" --dump-flows "$TMP/$lfts.json" \
    "$C03/topo.ibnetdiscover" "$C03/opensm-lfts-$lfts.dump"
  cp "$TMP/out" "$TMP/$lfts-model.json"
  d=$TMP/$lfts.json
  expect_eq "$(jget "$d" "['format']")" fabriclint-perf-flows/1 format
  expect_eq "$(jget "$d" "=[n['kind'] for n in d['nodes']].count('switch')")" 6 "$lfts switches"
  expect_eq "$(jget "$d" "=[d['nodes'][i]['name'] for i in d['nics']]")" \
    "['gpu00 mlx5_0', 'gpu01 mlx5_0', 'gpu02 mlx5_0', 'gpu03 mlx5_0', 'gpu04 mlx5_0', 'gpu05 mlx5_0', 'gpu06 mlx5_0', 'gpu07 mlx5_0']" "$lfts nics"
  expect_eq "$(jget "$d" "=len(d['links'])")" 16 "$lfts links"
  expect_eq "$(jget "$d" "=sorted(set(l['gbps'] for l in d['links']))")" "[200.0]" "$lfts link rates"
  expect_eq "$(jget "$d" "=len(d['routes'])")" 6 "$lfts LFT rows"
  # leaf-0's row, LFT port toward each NIC by its LID
  leaf0="[1, 2, 3, 4, 8, 5, 6, 7]"
  [ $lfts = collision ] && leaf0="[1, 2, 3, 4, 5, 5, 7, 8]"
  expect_eq "$(jget "$d" "=[r['ports'] for r in d['routes'] if d['nodes'][r['switch']]['name'] == 'leaf-0'][0]")" \
    "$leaf0" "$lfts leaf-0 ports"
  # flows of one step
  expect_eq "$(jget "$d" "=sorted(tuple(f) for f in d['collectives'][0]['flows'])")" \
    "[(0, 4, 1073741824.0), (1, 5, 1073741824.0), (2, 6, 1073741824.0), (3, 7, 1073741824.0), (4, 0, 1073741824.0), (5, 1, 1073741824.0), (6, 2, 1073741824.0), (7, 3, 1073741824.0)]" \
    "$lfts sendrecv flows"
  expect_eq "$(jget "$d" "=(len(d['collectives'][1]['flows']), sorted(set((f[0], f[1]) for f in d['collectives'][1]['flows'])) == [(s, t) for s in range(8) for t in range(8) if s != t], set(f[2] for f in d['collectives'][1]['flows']))")" \
    "(56, True, {134217728.0})" "$lfts all-to-all flows"
  expect_eq "$(jget "$d" "=(d['collectives'][2]['steps'], sorted(tuple(f) for f in d['collectives'][2]['flows']) == [(i, (i + 1) % 8, 134217728.0) for i in range(8)])")" \
    "(14, True)" "$lfts ring flows and steps"
  for i in 0 1 2; do
    expect_eq "$(jget "$d" "['collectives'][$i]['time_s']")" \
      "$(jget "$TMP/$lfts-model.json" "['collectives'][$i]['time_s']")" "$lfts collective $i model time"
  done
done
# the collision doubles the sendrecv time in the dump too
expect_eq "$(python3 -c "import json,sys; a,b=(json.load(open(p))['collectives'][0]['time_s'] for p in sys.argv[1:]); print(round(b/a, 9))" "$TMP/dmodk.json" "$TMP/collision.json")" 2.0 "collision sendrecv slowdown"

# ---- 16-host fat tree: a2a groups of 4 expanded
printf 'hosts: all\ncollectives:\n  - {op: all-to-all, bytes: 1GiB}\n' >"$TMP/a2a.yaml"
expect_rc 1 "$FL" perf --workload "$TMP/a2a.yaml" --dump-flows "$TMP/ft16.json" \
  "$FT16/topology.ibnetdiscover" "$FT16/opensm-lfts-collision.dump"
expect_eq "$(jget "$TMP/ft16.json" "=(len(d['nics']), len(d['collectives'][0]['flows']), len(set((f[0], f[1]) for f in d['collectives'][0]['flows'])), all(f[0] != f[1] for f in d['collectives'][0]['flows']))")" \
  "(16, 240, 240, True)" "ft16 all-to-all flows"
expect_eq "$(jget "$TMP/ft16.json" "=[r['ports'] for r in d['routes'] if d['nodes'][r['switch']]['name'] == 'leaf-p01-01'][0]")" \
  "[1, 2, 3, 4, 5, 5, 7, 8, 5, 5, 7, 8, 5, 5, 7, 8]" "ft16 collision leaf-p01-01 ports"

# ---- refusals
cp "$C03/topo.ibnetdiscover" "$TMP/topo.ibnetdiscover"
expect_rc 2 "$FL" perf --workload "$TMP/job.yaml" --dump-flows "$TMP/topo.ibnetdiscover" \
  "$TMP/topo.ibnetdiscover" "$C03/opensm-lfts-dmodk.dump"
expect_grep "$TMP/err" "--dump-flows would overwrite .*topo.ibnetdiscover, a file this run read"
if cmp -s "$TMP/topo.ibnetdiscover" "$C03/topo.ibnetdiscover"; then pass; else fail "the input was modified"; fi
cp "$TMP/job.yaml" "$TMP/job2.yaml"
expect_rc 2 "$FL" perf --workload "$TMP/job2.yaml" --dump-flows "$TMP/job2.yaml" \
  "$C03/topo.ibnetdiscover" "$C03/opensm-lfts-dmodk.dump"
expect_grep "$TMP/err" "job2.yaml: --dump-flows would overwrite"
if cmp -s "$TMP/job.yaml" "$TMP/job2.yaml"; then pass; else fail "the workload was modified"; fi
expect_rc 2 "$FL" perf --routing ar --workload "$TMP/job.yaml" --dump-flows "$TMP/ar.json" \
  "$C03/topo.ibnetdiscover" "$C03/opensm-lfts-dmodk.dump"
expect_grep "$TMP/err" "collective 1 uses ar routing; the dump needs routable flows over loaded LFTs"
if [ ! -e "$TMP/ar.json" ]; then pass; else fail "a dump was written under AR"; fi
finish
