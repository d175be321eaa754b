/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/dist.h — a distributed run: the collectives an analysis needs
 * to split its work over several processes (MPI ranks) and merge the parts,
 * as a table of functions, so the library itself never links MPI.
 *
 * The command line fills one from MPI when it runs under an MPI launcher
 * (`mpirun -n N fabriclint check ...`, built with FABRICLINT_MPI; see
 * docs/mpi.md) and hands it to the rules through fl_host_api.dist (ABI
 * 1.3). The credit-loop analysis takes it in fl_cdg_options.dist; a
 * rule that splits independent items (what-ifs) uses fabriclint/dist_split.h
 * over @allgather.
 *
 * Contract of every collective: each process of the run calls it, in the
 * same order and with the same @n (allgather: any @n per process); it
 * returns 0 on every process, or non-zero when the transport failed. They
 * are called from one thread of each process. The table and @ctx are
 * borrowed: they outlive the calls.
 */
#ifndef FABRICLINT_DIST_H
#define FABRICLINT_DIST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * fl_dist — this process's place in a distributed run and its collectives.
 * @struct_size: sizeof(fl_dist) of the filler (grows at the end).
 * @rank: this process, 0..@size-1; rank 0 alone writes reports.
 * @size: the number of processes (1: not distributed).
 * @ctx: passed to every function (the MPI communicator's owner).
 * @allreduce_min_u32: element-wise minimum of @buf[0..@n-1] over every
 *   process, written back to @buf on every process.
 * @allreduce_sum_u64: element-wise sum of @buf[0..@n-1], likewise.
 * @allgather: the @n bytes at @in of every process, concatenated in rank
 *   order, in *@out (malloc'ed, the caller frees; NULL when the total is
 *   0) with the total length in *@out_n, on every process.
 * Each collective returns 0, or -1 when the MPI call fails; @allgather also
 * returns -1, on every process alike and with *@out NULL, when memory runs
 * out on any process or the total exceeds INT_MAX bytes. Every process
 * must call the same collectives in the same order. Source: the
 * MPI 3.1 standard, MPI_Allreduce (5.9.1) and MPI_Allgatherv (5.7), which
 * core/host/dist_mpi.c calls.
 */
typedef struct fl_dist {
  uint32_t struct_size;
  uint32_t rank;
  uint32_t size;
  uint32_t reserved; /**< 0 */
  void *ctx;
  int (*allreduce_min_u32)(void *ctx, uint32_t *buf, size_t n);
  int (*allreduce_sum_u64)(void *ctx, uint64_t *buf, size_t n);
  int (*allgather)(void *ctx, const void *in, size_t n, void **out,
                   size_t *out_n);
} fl_dist;

#ifdef __cplusplus
}
#endif
#endif
