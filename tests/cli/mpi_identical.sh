#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/mpi_identical.sh — `mpirun -n N fabriclint check` (built with
# FABRICLINT_MPI, docs/mpi.md) writes byte for byte the report of the
# plain run, in JSON for N = 1, 2 and 4 ranks and in text for 4
# (oversubscribed on a small machine), with the same exit status; and the reports say what
# they must (the loops found, with their channels).
#
# Fabrics (tests/fixtures/mpi/*/engine.txt: made by make_fixtures.sh with
# ibsim + OpenSM + ibnetdiscover):
#   ring8-minhop     264 LIDs, 5 blocks of 64 split over the ranks: two
#                    credit loops (one per direction round the ring);
#                    its LFTs with two black holes on sw-x00 (sed, here),
#                    in blocks 3 and 4: unrouted examples of ranks > 0
#   fattree12-ftree  90 LIDs, 2 blocks: no credit loop
# and the committed cases c01 (4-switch ring, one loop) and c02 (an LFT
# dead end: unrouted destinations, merged from the ranks' examples).
# The failure-domain what-ifs (domain-partition, capacity-loss: split by
# domain value) on a generated 3-tier fat tree with racks and PDUs
# (tests/fixtures/mpi/fd_racks.py): 46 values, findings from values held by
# each of the 4 ranks. The ecmp-balance traffic patterns (link-load,
# summary: split by pattern; a random kind's instances split over all
# ranks) on fattree12's LFTs, and with ECMP on the generated fat tree.
# `perf` over placements (workload `placements:`, split by placement) on
# the 32-host fat tree of tests/fixtures/ns3/ft32 (ibsim + OpenSM ftree):
# 16, 5, 3 placements and one index, a percentile, an error, and a job
# without placements.
# The plain run (no launcher: no MPI call is made) is the single-process
# code path, the same as a build without MPI.
# SKIP (77) when the build has no MPI (FL_HAVE_MPI from ctest) or mpirun is
# missing. As root, Open MPI needs OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM).
. "$(dirname "$0")/lib.bash"
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}
if [ "${FL_HAVE_MPI:-OFF}" != ON ]; then
  echo "mpi_identical: SKIP: fabriclint built without MPI (FABRICLINT_MPI)"
  exit 77
fi
command -v mpirun >/dev/null || { echo "mpi_identical: SKIP: no mpirun"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader # one machine: no network probing
# A rank that exits non-zero (fabriclint's exit 1: findings) makes mpirun
# abort the job, and ORTE waits odls_base_sigkill_timeout (1 s) per rank
# before its SIGKILL: about 1-2 s per run, 90 of this test's 123 s (Open
# MPI 4.1.4). Every rank has exited by then, so nothing is left to kill.
export OMPI_MCA_odls_base_sigkill_timeout=0
# ob1 over self,vader is the one-machine path; left to itself Open MPI
# first probes UCX and OFI (0.2 s of the 0.45 s each MPI_Init costs here)
export OMPI_MCA_pml=ob1
# Oversubscribed ranks (4 on 2 cores) that wait in a collective yield the
# core instead of spinning on it (Open MPI busy-polls by default): measured
# 15.8 s -> 4.8 s for one 4-rank run of the ecmp case (issue 31)
export OMPI_MCA_mpi_yield_when_idle=1
FX=$FL_SRC/tests/fixtures/mpi
C=$FL_SRC/tests/data/cases

# The rank counts per format. The split, the gather and rank 0's merge are
# the same for every format (the report is written from the merged
# findings), so JSON, which the checks below read, runs with 1, 2 and 4
# ranks and text only with 4: each mpirun launch costs about 0.4 s of
# start-up, and this test was the longest of the README's command (71 s
# of 265 s with two tests at a time, 102 launches; now 68).
ranks_for() { if [ "$1" = json ]; then echo 1 2 4; else echo 4; fi; }

# same NAME RC FILES... — plain run and 1, 2, 4 ranks: same bytes, same rc
# (rules: $RULES, default the credit-loop rules)
same() {
  local name=$1 want=$2 n fmt rc
  shift 2
  for fmt in text json; do
    "$FL" check --rules "${RULES:-deadlock.*}" --format $fmt "$@" >"$TMP/$name.$fmt.0" 2>"$TMP/err"
    expect_eq "$?" "$want" "$name $fmt: plain run exit status"
    for n in $(ranks_for $fmt); do
      mpirun --oversubscribe -n $n "$FL" check --rules "${RULES:-deadlock.*}" \
        --format $fmt "$@" >"$TMP/$name.$fmt.$n" 2>"$TMP/err.$n"
      rc=$?
      # mpirun reports the first non-zero rank status as its own
      expect_eq "$rc" "$want" "$name $fmt: exit status with $n ranks"
      if cmp -s "$TMP/$name.$fmt.0" "$TMP/$name.$fmt.$n"; then pass; else
        fail "$name $fmt: $n ranks differ from the plain run"
        diff "$TMP/$name.$fmt.0" "$TMP/$name.$fmt.$n" | head -5 >&2
      fi
    done
  done
}

R=$FX/ring8-minhop
same ring8 1 "$R/topology.ibnetdiscover" "$R/opensm-lfts.dump"
cyc="=sorted(' -> '.join('%s:%d' % (h['from'], h['from_port']) for h in f['evidence']['cycle']) for f in d['findings'] if f['rule'] == 'deadlock.credit-loop')"
for n in 0 4; do
  expect_eq "$(jget "$TMP/ring8.json.$n" "$cyc")" \
    "['sw-x04:33 -> sw-x05:33 -> sw-x06:33 -> sw-x07:33 -> sw-x00:33 -> sw-x01:33 -> sw-x02:33 -> sw-x03:33', 'sw-x04:34 -> sw-x03:34 -> sw-x02:34 -> sw-x01:34 -> sw-x00:34 -> sw-x07:34 -> sw-x06:34 -> sw-x05:34']" \
    "ring8: the two loops ($n ranks)"
done
expect_grep "$TMP/ring8.text.4" 'LFT routing of 256 destination LIDs from 8 source switches: credit loops found \(16 channels, 528 dependencies'

# the same LFTs with two black holes on sw-x00 (LID 241 to port 5, LID 264
# to port 7: hosts that are not the destination, as in case c02), in
# blocks 3 and 4 of the 5, which ranks other than 0 walk: each rank's
# unrouted examples must reach rank 0's report
sed -e "/('sw-x00'):\$/,/('sw-x01'):\$/{s/^0x00f1 033 /0x00f1 005 /;s/^0x0108 034 /0x0108 007 /}" \
  "$R/opensm-lfts.dump" >"$TMP/ring8-holes.dump"
expect_eq "$(cmp -l "$R/opensm-lfts.dump" "$TMP/ring8-holes.dump" | wc -l)" 4 "ring8 holes: two LFT entries changed"
# (JSON with 2 and 4 ranks only: two launches, about 2.5 s)
holes="=[(f['evidence'].get('dlid'), f['evidence'].get('example_switch'), f['evidence'].get('example_entry')) for f in d['findings'] if f['rule'] == 'deadlock.unrouted']"
for n in 0 2 4; do
  launch=""
  [ $n = 0 ] || launch="mpirun --oversubscribe -n $n"
  $launch "$FL" check --rules 'deadlock.*' --format json "$R/topology.ibnetdiscover" "$TMP/ring8-holes.dump" >"$TMP/holes.$n" 2>"$TMP/err.$n"
  expect_eq "$?" 1 "ring8 holes: exit status ($n ranks)"
  expect_eq "$(jget "$TMP/holes.$n" "$holes")" "[(241, 'sw-x00', 5), (264, 'sw-x00', 7)]" "ring8 holes: both black holes ($n ranks)"
  if [ $n != 0 ]; then
    if cmp -s "$TMP/holes.0" "$TMP/holes.$n"; then pass; else fail "ring8 holes: $n ranks differ from the plain run"; fi
  fi
done

F=$FX/fattree12-ftree
same fattree12 0 "$F/topology.ibnetdiscover" "$F/opensm-lfts.dump"
expect_eq "$(jget "$TMP/fattree12.json.4" "=[f['rule'] for f in d['findings'] if f['rule'] == 'deadlock.credit-loop']")" "[]" "fattree12: no loop"
expect_grep "$TMP/fattree12.text.4" 'LFT routing of 72 destination LIDs from 12 source switches: no credit loop'

C01=$C/c01-opaff6-ring-credit-loop
same c01 1 "$C01/topo.ibnetdiscover" "$C01/opensm-lfts.dump"
expect_eq "$(jget "$TMP/c01.json.2" "$cyc")" "['sw-0:2 -> sw-1:2 -> sw-2:2 -> sw-3:2']" "c01: the loop"

C02=$C/c02-opensm30-lft-dead-end
same c02 1 "$C02/topo.ibnetdiscover" "$C02/opensm-lfts.dump"
expect_grep "$TMP/c02.text.4" 'error: LID 10 \(node04 mlx5_0\) is unreachable from 1 switch\(es\), and CA traffic to it is dropped, e.g. "sw-02" \(LFT entry: port 7\)'
expect_grep "$TMP/c02.text.4" 'error: LID 6 \(node00 mlx5_0\) is unreachable from 1 switch\(es\), and CA traffic to it is dropped, e.g. "sw-03" \(LFT entry: port 20\)'
# failure-domain what-ifs split by domain value (the glob takes the opt-in
# failure-domains.summary too: its figures are the same on every rank count)
"$FL" gen fat-tree --radix 8 --tiers 3 -o "$TMP/ft8.xml"
python3 "$FX/fd_racks.py" "$TMP/ft8.xml" "$TMP/fd.xml"
RULES='failure-domains.*' same fd 1 "$TMP/fd.xml"
whatifs="=[(f['rule'].split('.')[1], f['evidence']['domain'] + '=' + f['evidence']['value'] + (':' + f['evidence']['pod'] if 'pod' in f['evidence'] else '')) for f in d['findings'] if f['rule'] in ('failure-domains.domain-partition', 'failure-domains.capacity-loss')]"
# one cause, one finding: the capacity lost with a value domain-partition
# reports, and the spread shortfall behind it, are that finding (issue #30)
want="[('domain-partition', 'pdu=PS1'), ('domain-partition', 'rack=S1'), ('domain-partition', 'pdu=PS3'), ('domain-partition', 'rack=S3'), ('domain-partition', 'pdu=PS5'), ('domain-partition', 'rack=S5'), ('domain-partition', 'pdu=PS7'), ('domain-partition', 'rack=S7'), ('capacity-loss', 'rack=S2a:2'), ('capacity-loss', 'rack=S6a:6'), ('capacity-loss', 'pdu=PC1:1'), ('capacity-loss', 'pdu=PC1:2'), ('capacity-loss', 'pdu=PC1:3'), ('capacity-loss', 'pdu=PC1:4'), ('capacity-loss', 'pdu=PC1:5'), ('capacity-loss', 'pdu=PC1:6'), ('capacity-loss', 'pdu=PC1:7'), ('capacity-loss', 'pdu=PC1:8')]"
for n in 0 2 4; do
  expect_eq "$(jget "$TMP/fd.json.$n" "=len(d['findings'])")" 28 "fd: 28 findings ($n ranks)"
  expect_eq "$(jget "$TMP/fd.json.$n" "$whatifs")" "$want" "fd: the what-if findings ($n ranks)"
done
expect_grep "$TMP/fd.text.4" 'losing rack=S3 \(4 switch\(es\), 0 cable\(s\)\) splits the remaining hosts into 5 groups \(112 \+ 4 x 4 endpoints\); cut off from the largest: node0033, node0034, node0035, node0036'
expect_grep "$TMP/fd.text.4" 'losing pdu=PC1 cuts the uplink capacity out of the pod of pod "8" by 75%'
expect_grep "$TMP/fd.text.4" 'losing rack=S6a cuts the leaf uplink capacity of pod "6" by 75%'
# each pod's leaves sit in one rack fed by one PDU (Lk = PLk): losing it
# takes the pod's 16 servers, a whole SU's worth, which a power failure may
# not (blast-radius judges the folded rack and PDU by the PDU's limit); the
# summary (opt-in, selected by the glob) names the worst rack and PDU
expect_grep "$TMP/fd.text.4" 'losing rack=L1 \(or pdu=PL1\) takes 16 servers \(12 % of 128\) off the fabric'
expect_grep "$TMP/fd.text.4" '16 error\(s\), 10 warning\(s\), 2 info'

# ecmp-balance traffic patterns split by pattern (5 patterns; the three
# not random: rank 0 of 4 has two); the random ones draw 100 instances
# each, split over all ranks
RULES='ecmp-balance.link-load,ecmp-balance.summary' same ecmp 0 \
  --param ecmp-balance.link-load.patterns=all-to-all,bisect,shift,ring,permutation \
  "$F/topology.ibnetdiscover" "$F/opensm-lfts.dump"
pats="=[(f['evidence']['pattern'], f['evidence']['ebb'], f['evidence']['patterns'], f['evidence']['max_link_load']) for f in d['findings'] if f['rule'] == 'ecmp-balance.link-load']"
for n in 0 4; do
  expect_eq "$(jget "$TMP/ecmp.json.$n" "$pats")" "[('all-to-all', 1, 1, 66), ('ring', 1, 1, 1), ('shift', 1, 1, 1), ('bisect', 0.715139, 100, 5), ('permutation', 0.727345, 100, 5)]" "ecmp: the five patterns ($n ranks)"
done
expect_grep "$TMP/ecmp.text.4" 'LFT port balance: 0 of 18 switches uneven, mean CV 0.000; eBB \(permutation, LFT routing\) 0.7273 \[ecmp-balance.summary\]'
# with every cable's load (link-loads: the arrays travel with the results)
RULES='ecmp-balance.link-load' same ecmp-loads 0 --param ecmp-balance.link-load.link-loads=1 \
  --param ecmp-balance.link-load.patterns=all-to-all,bisect,ring \
  "$F/topology.ibnetdiscover" "$F/opensm-lfts.dump"
expect_eq "$(jget "$TMP/ecmp-loads.json.4" "=[(f['evidence']['pattern'], len(f['evidence']['link_loads']), max(x[2] for x in f['evidence']['link_loads'])) for f in d['findings']]")" \
  "[('all-to-all', 144, 66), ('ring', 144, 1), ('bisect', 144, 1.14)]" "ecmp: every cable's load from the other ranks"
# a random kind's instances split over the ranks (instance i on rank i mod
# N, rounds of N x workers, gathered and accounted in instance order with
# the stop rule): ci=0.025 stops bisect at 29 and permutation at 22 (past
# 10, inside a round for every N), count=17 stops both at the count; with
# every cable's load (the mean over the instances, summed in instance order)
pci="=[(f['evidence']['pattern'], f['evidence']['patterns'], f['evidence']['ebb'], f['evidence']['ebb_ci99'], f['evidence']['mean_link_load'], round(sum(x[2] for x in f['evidence']['link_loads']), 5), max(x[2] for x in f['evidence']['link_loads'])) for f in d['findings'] if f['rule'] == 'ecmp-balance.link-load']"
RULES='ecmp-balance.link-load,ecmp-balance.summary' same ecmp-ci 0 \
  --param ecmp-balance.patterns=bisect,permutation --param ecmp-balance.ci=0.025 \
  --param ecmp-balance.link-load.link-loads=1 "$F/topology.ibnetdiscover" "$F/opensm-lfts.dump"
RULES='ecmp-balance.link-load,ecmp-balance.summary' same ecmp-count 0 \
  --param ecmp-balance.patterns=bisect,permutation --param ecmp-balance.ci=0.025 \
  --param ecmp-balance.count=17 --param ecmp-balance.link-load.link-loads=1 \
  "$F/topology.ibnetdiscover" "$F/opensm-lfts.dump"
for n in 0 1 2 4; do
  expect_eq "$(jget "$TMP/ecmp-ci.json.$n" "$pci")" \
    "[('bisect', 29, 0.718391, 0.0248521, 0.925287, 133.24135, 1.41379), ('permutation', 22, 0.722482, 0.0249118, 0.919823, 132.4545, 1.31818)]" \
    "ecmp-ci: stopped by the CI at 29 and 22 ($n ranks)"
  expect_eq "$(jget "$TMP/ecmp-count.json.$n" "$pci")" \
    "[('bisect', 17, 0.722222, 0.0348449, 0.919935, 132.47053, 1.41176), ('permutation', 17, 0.719592, 0.031868, 0.924837, 133.17643, 1.58824)]" \
    "ecmp-count: stopped at count=17 ($n ranks)"
done
expect_grep "$TMP/ecmp-ci.text.4" 'bisect \(29 pattern\(s\) of 72 flows, LFT routing\): effective bisection bandwidth 0.7184 \(99% CI \+/- 0.025, min 0.625, max 0.8194\)'
# stopping at 29 gives exactly the figures of count=29 (same instances)
"$FL" check --rules ecmp-balance.link-load --param ecmp-balance.patterns=bisect \
  --param ecmp-balance.ci=0 --param ecmp-balance.count=29 --format json \
  --param ecmp-balance.link-load.link-loads=1 "$F/topology.ibnetdiscover" "$F/opensm-lfts.dump" \
  >"$TMP/ecmp-29.json"
expect_eq "$(jget "$TMP/ecmp-29.json" "$pci")" \
  "[('bisect', 29, 0.718391, 0.0248521, 0.925287, 133.24135, 1.41379)]" \
  "ecmp-29: count=29 ci=0 gives the figures of the CI stop at 29"
RULES='ecmp-balance.link-load' same ecmp-fd 0 "$TMP/fd.xml"
expect_grep "$TMP/ecmp-fd.text.4" 'all-to-all over 128 endpoints \(ECMP routing\)'
# an unknown pattern: the same usage error from every rank
mpirun --oversubscribe -n 2 "$FL" check --rules ecmp-balance.link-load \
  --param ecmp-balance.link-load.patterns=ring,bogus "$F/topology.ibnetdiscover" >"$TMP/out" 2>"$TMP/err"
expect_eq "$?" 2 "ecmp: unknown pattern, exit status with 2 ranks"
expect_grep "$TMP/err" "parameter patterns: unknown pattern 'bogus'"

# perf over placements (docs/perf.md "Placements"): placement i on rank
# i mod N, gathered; the report is the plain run's, byte for byte.
# same_perf NAME RC WORKLOAD — plain run and 1, 2, 4 ranks, text and JSON
same_perf() {
  local name=$1 want=$2 wl=$3 n fmt rc
  for fmt in text json; do
    "$FL" perf --workload "$wl" --format $fmt "${P[@]}" >"$TMP/$name.$fmt.0" 2>"$TMP/err"
    expect_eq "$?" "$want" "$name $fmt: plain run exit status"
    for n in $(ranks_for $fmt); do
      mpirun --oversubscribe -n $n "$FL" perf --workload "$wl" --format $fmt "${P[@]}" \
        >"$TMP/$name.$fmt.$n" 2>"$TMP/err.$n"
      rc=$?
      expect_eq "$rc" "$want" "$name $fmt: exit status with $n ranks"
      if cmp -s "$TMP/$name.$fmt.0" "$TMP/$name.$fmt.$n"; then pass; else
        fail "$name $fmt: $n ranks differ from the plain run"
        diff "$TMP/$name.$fmt.0" "$TMP/$name.$fmt.$n" | head -5 >&2
      fi
    done
  done
}
P=("$FL_SRC/tests/fixtures/ns3/ft32/topology.ibnetdiscover" "$FL_SRC/tests/fixtures/ns3/ft32/opensm-lfts.dump")
place() { # place FILE PLACEMENTS-MAPPING
  printf 'hosts: 8\nplacements: %s\ncollectives:\n  - {op: all-to-all, bytes: 1GiB}\n  - {op: all-reduce, algorithm: ring, bytes: 1GiB}\n  - {op: sendrecv, shift: 4, bytes: 1GiB}\n' "$2" >"$1"
}
place "$TMP/p16.yaml" '{count: 16, seed: 1, from: all}'
same_perf p16 1 "$TMP/p16.yaml"
for n in 0 4; do # the worst placements come from ranks 1, 0 and 2 of 4
  expect_eq "$(jget "$TMP/p16.json.$n" "=[(c['worst']['index'], c['step_time_s']['median'], len(c['samples'])) for c in d['collectives']]")" \
    "[(1, 0.037580963839999995, 16), (0, 0.00536870912, 16), (2, 0.06442450944, 16)]" "p16: worst and median ($n ranks)"
done
expect_grep "$TMP/p16.text.4" '^  bottleneck leaf-p01-04 port 7 -> spine-p01-03 port 4: 9 flows share 200 Gb/s'
# a percentile: the judged placement's detail is computed by rank 0
place "$TMP/p50.yaml" '{count: 16, seed: 1, percentile: 50}'
same_perf p50 1 "$TMP/p50.yaml"
expect_eq "$(jget "$TMP/p50.json.4" "=[f['placement']['index'] for f in d['findings']]")" "[14]" "p50: the judged placement (4 ranks)"
# 5 placements (rank 0 of 4 has two), 3 (rank 3 of 4 has none), one index
place "$TMP/p5.yaml" '{count: 5, seed: 9, order: random}'
same_perf p5 1 "$TMP/p5.yaml"
place "$TMP/p3.yaml" '{count: 3, seed: 9}'
same_perf p3 1 "$TMP/p3.yaml"
expect_eq "$(jget "$TMP/p3.json.4" "=[[s['index'] for s in c['samples']] for c in d['collectives']]")" "[[0, 1, 2], [0, 1, 2], [0, 1, 2]]" "p3: 3 samples with 4 ranks"
place "$TMP/pi.yaml" '{index: 13, seed: 1}'
same_perf pi 1 "$TMP/pi.yaml"
# a collective that cannot run: the same error from every rank
printf 'hosts: 8\nplacements: {count: 3}\ncollectives:\n  - {op: sendrecv, shift: 8, bytes: 1GiB}\n' >"$TMP/pbad.yaml"
same_perf pbad 2 "$TMP/pbad.yaml"
mpirun --oversubscribe -n 4 "$FL" perf --workload "$TMP/pbad.yaml" "${P[@]}" >"$TMP/out" 2>"$TMP/err"
expect_grep "$TMP/err" 'pbad.yaml:4:5: sendrecv shift 8 is a multiple of the 8 ranks'
# the single-placement model under mpirun: every rank runs it, rank 0 writes
printf 'hosts: all\ncollectives:\n  - {op: all-to-all, bytes: 1GiB}\n' >"$TMP/pall.yaml"
same_perf pall 0 "$TMP/pall.yaml"
finish
