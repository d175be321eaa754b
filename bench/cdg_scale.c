/* SPDX-License-Identifier: MIT */
/*
 * bench/cdg_scale.c — credit-loop analysis at data-centre scale.
 *
 * Builds a radix-K 3-tier fat tree with fl_gen_fat_tree (K=64: 65,536 CAs,
 * 5,120 switches, 196,608 cables) with D-mod-k minimal LFTs
 * (bench/fattree_lfts.h), then times fl_cdg_analyze() alone.
 *
 * One InfiniBand subnet has 49,151 unicast LIDs (IBA 4.1.3), so at K=64 only
 * the first 44,031 CAs get a LID (switches take 5,120): those are the
 * destinations. Usage: cdg_scale [K] [threads] [MODE] [RUNS]. MODE is a VL mode
 * for the loaded LFTs: 0 (default: no SL2VL, VL-blind), 1 (every turn on
 * VL 0: VL-aware) or 2 (VL = in port & 1: VL-aware, each switch left on two
 * VLs); or an engine name (minhop, updn, ftree): the LFTs are ignored and
 * that engine is modelled (design mode, fl_cdg_options.engine). RUNS
 * repeats the analysis on the same fabric (each run's wall and CPU time).
 * Prints wall and CPU times, the verdict and the peak RSS. Built with
 * FABRICLINT_MPI, `mpirun -n N build/bench/cdg_scale ...` splits the walks
 * over N ranks (fl_cdg_options.dist; every rank builds the fabric, rank 0
 * prints; its times include waiting for the others in the merge).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "build.h"
#include "fabriclint/cdg.h"
#include "fabriclint/gen.h"
#include "fabriclint/routing.h"
#include "fattree_lfts.h"
#ifdef FL_HAVE_MPI
#include "host/dist_mpi.h"
#endif

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds of the whole process (every thread): what a busy shared
 * machine does not inflate. */
static double cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  fl_dist dist;
  memset(&dist, 0, sizeof dist);
  int mpi = 0;
#ifdef FL_HAVE_MPI
  /* under mpirun: the walks split over the ranks (docs/mpi.md) */
  mpi = fl_mpi_start(&argc, &argv, &dist);
  if (mpi < 0)
    return 1;
  if (mpi && dist.rank && !freopen("/dev/null", "w", stdout))
    return 1;
#endif
  uint32_t k = argc > 1 ? (uint32_t)atoi(argv[1]) : 64;
  uint32_t threads = argc > 2 ? (uint32_t)atoi(argv[2]) : 0;
  double t0 = now();
  /* a digit: the VL mode of the LFTs; a word: a modelled engine */
  int engine_mode = argc > 3 && !(argv[3][0] >= '0' && argv[3][0] <= '9');
  int vl = argc > 3 && !engine_mode ? atoi(argv[3]) : 0;
  fl_fabric *f = make_vl(k, 0, vl);
  double t1 = now(), c1 = cpu(), setup = t1 - t0;
  fl_cdg_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.threads = threads;
  o.dist = mpi ? &dist : NULL;
  static const char *const ENGINE[] = {"minhop", "updn", "ftree"};
  for (uint32_t e = 0; engine_mode && e < 3; e++)
    if (strcmp(argv[3], ENGINE[e]) == 0) {
      o.routing = FL_CDG_ROUTING_MINIMAL;
      o.engine = e;
    }
  if (engine_mode && o.routing != FL_CDG_ROUTING_MINIMAL) {
    fprintf(stderr, "cdg_scale: MODE is 0, 1, 2, minhop, updn or ftree\n");
    return 2;
  }
  uint32_t runs = argc > 4 ? (uint32_t)atoi(argv[4]) : 1;
  const fl_cdg_report *r = NULL;
  double t2 = t1, c2 = c1;
  for (uint32_t i = 0; i < (runs ? runs : 1); i++) {
    fl_cdg_free(r);
    t1 = now(), c1 = cpu();
    if (fl_cdg_analyze(f, &o, &r) != FL_OK) {
      fprintf(stderr, "analyze failed\n");
      return 1;
    }
    t2 = now(), c2 = cpu();
    if (runs > 1)
      printf("run %u: %.3f s wall, %.3f s CPU\n", i + 1, t2 - t1, c2 - c1);
  }
  printf("radix %u: %u switches, %u CAs, %u links, %u LFTs, max LID %u\n", k,
         fl_fabric_count_kind(f, FL_NODE_SWITCH),
         fl_fabric_count_kind(f, FL_NODE_CA), fl_fabric_link_count(f),
         fl_fabric_lft_count(f), fl_fabric_max_lid(f));
  printf("setup (gen + routing) %.2f s; cdg analysis %.3f s wall, %.3f s "
         "CPU\n",
         setup, t2 - t1, c2 - c1);
  printf("vl-aware %u, destinations %u, sources %u, channels %u, dependencies "
         "%llu, loops %u, valleys %llu, unrouted pairs %llu\n",
         r->vl_aware, r->destinations, r->sources, r->channels,
         (unsigned long long)r->dependencies, r->n_loops,
         (unsigned long long)r->valley_count,
         (unsigned long long)r->unrouted_pairs);
  /* peak RSS of this rank and of all ranks together (MB) */
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  uint64_t kb[2] = {(uint64_t)ru.ru_maxrss, (uint64_t)ru.ru_maxrss};
  if (mpi && dist.allreduce_sum_u64(dist.ctx, kb + 1, 1) != 0)
    return 1;
  printf("ranks %u: peak RSS rank 0 %.0f MB, all ranks %.0f MB\n",
         mpi ? dist.size : 1, (double)kb[0] / 1024, (double)kb[1] / 1024);
  fl_cdg_free(r);
  fl_fabric_free(f);
#ifdef FL_HAVE_MPI
  if (mpi)
    fl_mpi_stop();
#endif
  return 0;
}
