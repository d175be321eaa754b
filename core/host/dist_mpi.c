/* SPDX-License-Identifier: MIT */
/*
 * core/host/dist_mpi.c — the MPI collectives behind fl_dist (see
 * host/dist_mpi.h). Built only with FABRICLINT_MPI (CMakeLists.txt).
 * MPI counts are ints: buffers are reduced in chunks of at most 2^28
 * elements, and a gather larger than INT_MAX bytes in total fails.
 */
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "host/dist_mpi.h"

#define CHUNK ((size_t)1 << 28)

static int min_u32(void *ctx, uint32_t *buf, size_t n) {
  (void)ctx;
  for (size_t i = 0; i < n; i += CHUNK) {
    int k = (int)(n - i < CHUNK ? n - i : CHUNK);
    if (MPI_Allreduce(MPI_IN_PLACE, buf + i, k, MPI_UINT32_T, MPI_MIN,
                      MPI_COMM_WORLD) != MPI_SUCCESS)
      return -1;
  }
  return 0;
}

static int sum_u64(void *ctx, uint64_t *buf, size_t n) {
  (void)ctx;
  for (size_t i = 0; i < n; i += CHUNK) {
    int k = (int)(n - i < CHUNK ? n - i : CHUNK);
    if (MPI_Allreduce(MPI_IN_PLACE, buf + i, k, MPI_UINT64_T, MPI_SUM,
                      MPI_COMM_WORLD) != MPI_SUCCESS)
      return -1;
  }
  return 0;
}

static int gather(void *ctx, const void *in, size_t n, void **out,
                  size_t *out_n) {
  (void)ctx;
  *out = NULL;
  *out_n = 0;
  int size = 1, rc = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int *cnt = calloc((size_t)size, sizeof *cnt);
  int *off = calloc((size_t)size, sizeof *off);
  long long mine = (long long)n, *all = calloc((size_t)size, sizeof *all);
  if (!cnt || !off || !all) /* the other ranks would wait for ever */
    MPI_Abort(MPI_COMM_WORLD, 2);
  if (MPI_Allgather(&mine, 1, MPI_LONG_LONG, all, 1, MPI_LONG_LONG,
                    MPI_COMM_WORLD) != MPI_SUCCESS)
    rc = -1;
  long long total = 0;
  for (int r = 0; rc == 0 && r < size; r++) {
    off[r] = (int)total;
    cnt[r] = (int)all[r];
    total += all[r];
    if (total > INT_MAX)
      rc = -1;
  }
  int ok = rc == 0, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  char *buf = all_ok && total ? malloc((size_t)total) : NULL;
  ok = all_ok && (!total || buf);
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (all_ok && total &&
      MPI_Allgatherv(in, (int)n, MPI_BYTE, buf, cnt, off, MPI_BYTE,
                     MPI_COMM_WORLD) != MPI_SUCCESS)
    all_ok = 0;
  free(cnt), free(off), free(all);
  if (!all_ok) {
    free(buf);
    return -1;
  }
  *out = buf;
  *out_n = (size_t)total;
  return 0;
}

int fl_mpi_start(int *argc, char ***argv, fl_dist *d) {
  memset(d, 0, sizeof *d);
  int provided = 0, rank = 0, size = 1;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) !=
      MPI_SUCCESS)
    return -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  d->struct_size = sizeof *d;
  d->rank = (uint32_t)rank;
  d->size = (uint32_t)size;
  d->allreduce_min_u32 = min_u32;
  d->allreduce_sum_u64 = sum_u64;
  d->allgather = gather;
  return 1;
}

void fl_mpi_stop(void) {
  MPI_Finalize();
}
