/* SPDX-License-Identifier: MIT */
/*
 * host/dist_mpi.h — fabriclint as an MPI program (built with FABRICLINT_MPI;
 * docs/mpi.md). The one place that calls MPI: it joins the job started by
 * `mpirun -n N fabriclint ...` and fills an fl_dist (fabriclint/dist.h)
 * with MPI_COMM_WORLD's collectives, which the host hands to the rules.
 * It is the module fabriclint-mpi.so (CMakeLists.txt), which the
 * executable loads only under an MPI launcher (core/cli/cli_mpi.c looks
 * the two functions up by name); without FABRICLINT_MPI it is not built
 * and nothing else changes.
 */
#ifndef FL_HOST_DIST_MPI_H
#define FL_HOST_DIST_MPI_H

#include "fabriclint/dist.h"

/**
 * fl_mpi_start() — join the MPI job this process was started in (the
 * caller has seen a launcher's variables): MPI_Init_thread
 * (MPI_THREAD_FUNNELED: only the calling thread calls MPI), then fills @d
 * with this rank, the world size and the collectives. Returns 1 when MPI
 * was started (call fl_mpi_stop() before exit), -1 when MPI_Init_thread
 * failed.
 */
__attribute__((visibility("default"))) int fl_mpi_start(int *argc, char ***argv,
                                                        fl_dist *d);

/** fl_mpi_stop() — MPI_Finalize after fl_mpi_start() returned 1. */
__attribute__((visibility("default"))) void fl_mpi_stop(void);

#endif
