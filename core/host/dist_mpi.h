/*
 * host/dist_mpi.h — fabriclint as an MPI program (built with FABRICLINT_MPI;
 * docs/mpi.md). The one place that calls MPI: it joins the job started by
 * `mpirun -n N fabriclint ...` and fills an fl_dist (fabriclint/dist.h)
 * with MPI_COMM_WORLD's collectives, which the host hands to the rules.
 * Without FABRICLINT_MPI this module is not built and FL_HAVE_MPI is not
 * defined; nothing else changes.
 */
#ifndef FL_HOST_DIST_MPI_H
#define FL_HOST_DIST_MPI_H

#include "fabriclint/dist.h"

/**
 * fl_mpi_start() — join the MPI job when this process was started by an MPI
 * launcher (Open MPI's OMPI_COMM_WORLD_SIZE, or PMIX_RANK / PMI_RANK, in
 * the environment): MPI_Init_thread (MPI_THREAD_FUNNELED: only the calling
 * thread calls MPI), then fills @d with this rank, the world size and the
 * collectives. Returns 1 when MPI was started (call fl_mpi_stop() before
 * exit), 0 when no launcher started the process (no MPI call is made, @d
 * is zeroed: a plain run), -1 when MPI_Init_thread failed.
 */
int fl_mpi_start(int *argc, char ***argv, fl_dist *d);

/** fl_mpi_stop() — MPI_Finalize after fl_mpi_start() returned 1. */
void fl_mpi_stop(void);

#endif
