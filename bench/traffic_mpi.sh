#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/traffic_mpi.sh — the random traffic patterns of ecmp-balance split
# over MPI ranks (docs/mpi.md "Traffic patterns"): CPU seconds per rank,
# wall and peak RSS of `fabriclint check --rules ecmp-balance.summary` with
# 100 bisect instances (ci=0: all are drawn) on the 65,536-endpoint plan,
# plain and under `mpirun --oversubscribe -n N` for N in RANKS.
#
# Fabric: `fabriclint gen fat-tree --radix 64 --tiers 3 --allow-lid-overflow` (65,536 hosts,
# 5,120 switches; design XML: fluid ECMP routing, no LFTs).
# Each rank runs under /usr/bin/time (user + sys seconds, max RSS) into
# OUT/time.N.RANK; rank 0's `-v` phase table goes to OUT/v.N; every report
# is compared with the plain run's (byte for byte).
#
# Usage: bench/traffic_mpi.sh [OUT_DIR]
#   environment: BUILD (default build), RANKS ("1 2 4"), COUNT (100),
#                RADIX (64)
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$SRC/build}
FL=$BUILD/fabriclint
OUT=${1:-$(mktemp -d)}
RANKS=${RANKS:-1 2 4}
COUNT=${COUNT:-100}
RADIX=${RADIX:-64}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader # one machine: shared memory
# A rank that exits non-zero (fabriclint's exit 1: findings) makes mpirun
# abort the job, and ORTE waits odls_base_sigkill_timeout (1 s) per rank
# before its SIGKILL: about 1-2 s per run, 90 of this test's 123 s (Open
# MPI 4.1.4). Every rank has exited by then, so nothing is left to kill.
export OMPI_MCA_odls_base_sigkill_timeout=0
# ob1 over self,vader is the one-machine path; left to itself Open MPI
# first probes UCX and OFI (0.2 s of the 0.45 s each MPI_Init costs here)
export OMPI_MCA_pml=ob1
PLAN=$OUT/ft$RADIX.xml
[ -s "$PLAN" ] || "$FL" gen fat-tree --radix "$RADIX" --tiers 3 --allow-lid-overflow -o "$PLAN" || exit 2
ARGS=(check -v --rules ecmp-balance.summary --param ecmp-balance.patterns=bisect
  --param ecmp-balance.count="$COUNT" --param ecmp-balance.ci=0 --format json)
TF='%e %U %S %M'
echo "plain run (no launcher)"
/usr/bin/time -o "$OUT/time.0.0" -f "$TF" "$FL" "${ARGS[@]}" -o "$OUT/report.0.json" \
  "$PLAN" 2>"$OUT/v.0"
echo "uptime: $(uptime)"
printf '%-6s %-5s %9s %9s %9s %9s\n' ranks rank wall_s user_s sys_s rss_MiB
show() {
  local n=$1 f r
  for f in "$OUT"/time."$n".*; do
    r=${f##*.}
    read -r e u s m <"$f"
    printf '%-6s %-5s %9s %9s %9s %9.0f\n' "$n" "$r" "$e" "$u" "$s" "$((m / 1024))"
  done
}
show 0
for n in $RANKS; do
  mpirun --oversubscribe -n "$n" sh -c 'o=$0 f=$1; shift
    exec /usr/bin/time -o "$o.$OMPI_COMM_WORLD_RANK" -f "$f" "$@"' \
    "$OUT/time.$n" "$TF" "$FL" "${ARGS[@]}" -o "$OUT/report.$n.json" "$PLAN" 2>"$OUT/v.$n"
  show "$n"
  if cmp -s "$OUT/report.0.json" "$OUT/report.$n.json"; then echo "  report identical"
  else echo "  REPORT DIFFERS"; fi
  echo "  uptime: $(uptime)"
done
python3 -c "
import json,sys; d=json.load(open(sys.argv[1]))
t=[f for f in d['findings'] if f['rule']=='ecmp-balance.summary'][0]['evidence']['traffic'][0]
print('bisect: %d patterns, eBB %s +/- %s, mean link load %s' % (t['patterns'], t['ebb'], t['ebb_ci99'], t['mean_link_load']))
" "$OUT/report.0.json"
echo "raw results in $OUT"
