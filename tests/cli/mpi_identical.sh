#!/usr/bin/env bash
# tests/cli/mpi_identical.sh — `mpirun -n N fabriclint check` (built with
# FABRICLINT_MPI, docs/mpi.md) writes byte for byte the report of the
# plain run, for N = 1, 2 and 4 ranks (oversubscribed on a small machine),
# in text and JSON, with the same exit status; and the reports say what
# they must (the loops found, with their channels).
#
# Fabrics (tests/fixtures/mpi/*/engine.txt: made by make_fixtures.sh with
# ibsim + OpenSM + ibnetdiscover):
#   ring8-minhop     264 LIDs, 5 blocks of 64 split over the ranks: two
#                    credit loops (one per direction round the ring)
#   fattree12-ftree  90 LIDs, 2 blocks: no credit loop
# and the committed cases c01 (4-switch ring, one loop) and c02 (an LFT
# dead end: unrouted destinations, merged from the ranks' examples).
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
FX=$FL_SRC/tests/fixtures/mpi
C=$FL_SRC/tests/data/cases

# same NAME RC FILES... — plain run and 1, 2, 4 ranks: same bytes, same rc
same() {
  local name=$1 want=$2 n fmt rc
  shift 2
  for fmt in text json; do
    "$FL" check --rules 'deadlock.*' --format $fmt "$@" >"$TMP/$name.$fmt.0" 2>"$TMP/err"
    expect_eq "$?" "$want" "$name $fmt: plain run exit status"
    for n in 1 2 4; do
      mpirun --oversubscribe -n $n "$FL" check --rules 'deadlock.*' \
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
expect_grep "$TMP/ring8.text.2" 'LFT routing of 256 destination LIDs from 8 source switches: credit loops found \(16 channels, 528 dependencies'

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
finish
