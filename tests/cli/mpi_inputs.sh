#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/mpi_inputs.sh — an MPI run (docs/mpi.md) reads every input on
# every rank, so what only one reader can read (standard input, which the
# launcher gives to rank 0 alone; a pipe; a FIFO) is refused at once with
# exit 2 by every rank alike, instead of rank 1 failing alone while rank 0
# waits in a collective forever (issue 32 #12, `cat topo | mpirun -n 2
# fabriclint check - lfts` hung). Regular files run as before.
# SKIP (77) when the build has no MPI (FL_HAVE_MPI from ctest) or mpirun is
# missing. As root, Open MPI needs OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM).
. "$(dirname "$0")/lib.bash"
if [ "${FL_HAVE_MPI:-OFF}" != ON ]; then
  echo "mpi_inputs: SKIP: fabriclint built without MPI (FABRICLINT_MPI)"
  exit 77
fi
command -v mpirun >/dev/null || { echo "mpi_inputs: SKIP: no mpirun"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader
# A rank that exits non-zero (fabriclint's exit 1: findings) makes mpirun
# abort the job, and ORTE waits odls_base_sigkill_timeout (1 s) per rank
# before its SIGKILL: about 1-2 s per run, 90 of this test's 123 s (Open
# MPI 4.1.4). Every rank has exited by then, so nothing is left to kill.
export OMPI_MCA_odls_base_sigkill_timeout=0
# ob1 over self,vader is the one-machine path; left to itself Open MPI
# first probes UCX and OFI (0.2 s of the 0.45 s each MPI_Init costs here)
export OMPI_MCA_pml=ob1
# Ranks that wait in a collective yield the core instead of spinning on it
# (Open MPI busy-polls by default; ctest -j2 runs another test beside this
# one on 2 cores): as in mpi_identical.sh
export OMPI_MCA_mpi_yield_when_idle=1
F="$FL_SRC/tests/fixtures/routing/fat-tree-2tier-ftree"
MPI=(timeout 120 mpirun --oversubscribe -n 2)
WHY="every rank of an MPI run reads"

expect_rc 0 "${MPI[@]}" "$FL" check "$F/topology.ibnetdiscover" "$F/opensm-lfts.dump"
expect_rc 2 sh -c 'cat "$1" | "$2" "$3" "$4" "$5" "$6" "$7" "$8" check - "$9"' sh \
  "$F/topology.ibnetdiscover" "${MPI[@]}" "$FL" "$F/opensm-lfts.dump"
expect_grep "$TMP/err" "^fabriclint: -: $WHY each input itself, and standard input reaches rank 0 only; give a regular file"
expect_rc 2 bash -c '"$@" check <(cat "'"$F/topology.ibnetdiscover"'") "'"$F/opensm-lfts.dump"'"' sh "${MPI[@]}" "$FL"
# (Open MPI's launcher does not pass the descriptor on: the ranks cannot
# even open it; either way exit 2 at once with the path named)
expect_grep "$TMP/err" "^fabriclint: /dev/fd/[0-9]+: (cannot read: No such file or directory|$WHY each input itself, and a pipe, FIFO or device can be read by one rank only)"
mkfifo "$TMP/fifo"
expect_rc 2 "${MPI[@]}" "$FL" check "$TMP/fifo" "$F/opensm-lfts.dump"
expect_grep "$TMP/err" "^fabriclint: $TMP/fifo: $WHY each input itself"
printf 'rules:\n  disable: [topology.lid]\n' >"$TMP/pol.yaml"
expect_rc 2 sh -c 'cat "$1" | "$2" "$3" "$4" "$5" "$6" "$7" "$8" check --policy - "$9" "${10}"' sh \
  "$TMP/pol.yaml" "${MPI[@]}" "$FL" "$F/topology.ibnetdiscover" "$F/opensm-lfts.dump"
expect_grep "$TMP/err" "^fabriclint: -: $WHY the policy itself, and standard input reaches rank 0 only"
# perf: the workload too
printf 'hosts: [node0001, node0002]\ncollectives:\n  - {op: all-reduce, bytes: 1M}\n' >"$TMP/job.yaml"
expect_rc 2 sh -c 'cat "$1" | "$2" "$3" "$4" "$5" "$6" "$7" "$8" perf --workload - "$9"' sh \
  "$TMP/job.yaml" "${MPI[@]}" "$FL" "$F/topology.ibnetdiscover"
expect_grep "$TMP/err" "^fabriclint: -: $WHY the workload itself, and standard input reaches rank 0 only"
finish
