/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_mpi.h — joining an MPI job through the module
 * fabriclint-mpi.so (core/cli/cli_mpi.c; docs/mpi.md).
 */
#ifndef FABRICLINT_CLI_MPI_H
#define FABRICLINT_CLI_MPI_H

#include <stddef.h>

#include "fabriclint/dist.h"

/** An MPI job joined through the module: what fl_cli_mpi_stop() needs. */
typedef struct fl_cli_mpi {
  void *module;       /* dlopen() handle, NULL when no job was joined */
  void (*stop)(void); /* the module's fl_mpi_stop */
} fl_cli_mpi;

/**
 * fl_cli_mpi_start() — when an MPI launcher started this process (Open
 * MPI's OMPI_COMM_WORLD_SIZE, or PMIX_RANK / PMI_RANK in the environment),
 * load the module fabriclint-mpi.so (RTLD_GLOBAL: Open MPI's own
 * components look up its symbols) from mpi/ beside the executable (a
 * build), <libdir>/fabriclint/mpi/ relative to it (an install) or the
 * configured install folder, and join the job with its fl_mpi_start(),
 * which fills @d. Not launched: no module is loaded, @d is zeroed, 0.
 * Returns 1 when the job was joined (call fl_cli_mpi_stop()), 0 when not
 * launched, -1 with a message in @msg (@msize bytes) when launched but the
 * module is missing or unusable, or MPI_Init_thread failed.
 */
int fl_cli_mpi_start(fl_cli_mpi *m, int *argc, char ***argv, fl_dist *d,
                     char *msg, size_t msize);

/** fl_cli_mpi_stop() — leave the job (MPI_Finalize) joined by @m. */
void fl_cli_mpi_stop(fl_cli_mpi *m);

#endif
