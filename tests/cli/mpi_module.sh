#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/mpi_module.sh — MPI is a module the executable loads only under
# an MPI launcher (core/cli/cli_mpi.c, docs/mpi.md), in every build:
#   - the executable does not link libmpi (ldd), whatever FABRICLINT_MPI;
#   - a copy of the executable with no mpi/ folder beside it runs as usual
#     without a launcher's variables, and exits 2 naming the missing module
#     under each of them (OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_RANK): a run
#     of N copies each writing the whole report is never what was asked;
#   - a file in the module's place that is not the module (a rule plugin):
#     exit 2 naming the file and the missing symbol.
# The runs under mpirun are tests/cli/mpi_identical.sh and mpi_inputs.sh.
. "$(dirname "$0")/lib.bash"

expect_eq "$(ldd "$FL" | grep -c -E 'libmpi|libopen-pal|libpmix')" 0 "the executable links no MPI library"

mkdir -p "$TMP/bin"
cp "$FL" "$TMP/bin/fabriclint"
F=$TMP/bin/fabriclint
expect_rc 0 "$F" --version
for var in OMPI_COMM_WORLD_SIZE PMIX_RANK PMI_RANK; do
  expect_rc 2 env "$var=2" "$F" --version
  expect_eq "$(cat "$TMP/err")" \
    "fabriclint: started by an MPI launcher, but this fabriclint has no MPI module (fabriclint-mpi.so: build with FABRICLINT_MPI, or install the package fabriclint-mpi; docs/mpi.md)" \
    "$var set, no module"
  expect_eq "$(wc -c <"$TMP/out")" 0 "$var set, no module: nothing on standard output"
done

mkdir -p "$TMP/bin/mpi"
cp "$(ls "$FL_BUILD"/plugins/*.so | head -1)" "$TMP/bin/mpi/fabriclint-mpi.so"
expect_rc 2 env OMPI_COMM_WORLD_SIZE=2 "$F" --version
expect_grep "$TMP/err" "^fabriclint: cannot load the MPI module $TMP/bin/mpi/fabriclint-mpi\.so: .*fl_mpi_start"
finish
