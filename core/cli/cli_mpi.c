/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_mpi.c — MPI through a module loaded on demand (cli_mpi.h).
 *
 * Why a module: linking libmpi into the executable made every run, and
 * every install of the Debian package, carry Open MPI and its ~40
 * libraries (issue 36), for a feature used under `mpirun` only. The
 * module is looked for only when a launcher's variables are set, so a
 * plain run never touches MPI, and a build or package without the module
 * is complete for everything else.
 */
#include "cli/cli_mpi.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/data_path.h"

#ifndef FL_REL_BIN_MPI
#define FL_REL_BIN_MPI "../lib/fabriclint/mpi"
#endif
#ifndef FL_MPI_INSTALL_DIR
#define FL_MPI_INSTALL_DIR "/usr/local/lib/fabriclint/mpi"
#endif

#define FL_MPI_MODULE "fabriclint-mpi.so"

/* Started by an MPI launcher (Open MPI, or a PMI/PMIx one: Slurm, MPICH)? */
static int launched(void) {
  static const char *const VARS[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK",
                                     "PMI_RANK"};
  for (size_t i = 0; i < sizeof VARS / sizeof *VARS; i++)
    if (getenv(VARS[i]))
      return 1;
  return 0;
}

/* The module at @path cannot be used: @why (dlerror()) into @msg; -1.
 * The module is left loaded (dlclose() of a half-initialised library
 * gains nothing: the process exits). */
static int cannot_load(char *msg, size_t msize, const char *path,
                       const char *why) {
  snprintf(msg, msize, "cannot load the MPI module %s: %s", path,
           why ? why : "unknown error");
  return -1;
}

int fl_cli_mpi_start(fl_cli_mpi *m, int *argc, char ***argv, fl_dist *d,
                     char *msg, size_t msize) {
  memset(m, 0, sizeof *m);
  memset(d, 0, sizeof *d);
  if (!launched())
    return 0;
  static const fl_data_where where = {"mpi", FL_REL_BIN_MPI, NULL,
                                      FL_MPI_INSTALL_DIR};
  char dir[PATH_MAX], path[PATH_MAX + 32];
  if (!fl_data_dir(&where, dir, sizeof dir)) {
    snprintf(msg, msize,
             "started by an MPI launcher, but this fabriclint has no MPI "
             "module (%s: build with FABRICLINT_MPI, or install the package "
             "fabriclint-mpi; docs/mpi.md)",
             FL_MPI_MODULE);
    return -1;
  }
  snprintf(path, sizeof path, "%s/%s", dir, FL_MPI_MODULE);
  /* dlerror()'s text lives until the next dl call: copied at once */
  m->module = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
  int (*start)(int *, char ***, fl_dist *) = NULL;
  if (!m->module)
    return cannot_load(msg, msize, path, dlerror());
  *(void **)&start = dlsym(m->module, "fl_mpi_start");
  if (!start)
    return cannot_load(msg, msize, path, dlerror());
  *(void **)&m->stop = dlsym(m->module, "fl_mpi_stop");
  if (!m->stop)
    return cannot_load(msg, msize, path, dlerror());
  if (start(argc, argv, d) != 1) {
    snprintf(msg, msize, "MPI_Init_thread failed");
    m->module = NULL; /* MPI may hold the module: never unloaded */
    return -1;
  }
  return 1;
}

void fl_cli_mpi_stop(fl_cli_mpi *m) {
  if (m->module && m->stop)
    m->stop();
  /* not dlclose()d: Open MPI leaves threads and handlers behind */
  m->module = NULL;
}
