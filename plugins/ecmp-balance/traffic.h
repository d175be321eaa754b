/* SPDX-License-Identifier: MIT */
/*
 * plugins/ecmp-balance/traffic.h — link loads and effective bisection
 * bandwidth under traffic patterns (internal to the ecmp-balance plugin).
 */
#ifndef FABRICLINT_PLUGINS_ECMP_TRAFFIC_H
#define FABRICLINT_PLUGINS_ECMP_TRAFFIC_H

#include "fabriclint/dist.h"
#include "fabriclint/view.h"

#define TR_HOT_MAX 32

/** Routing used for the flows. */
#define TR_ROUTE_LFT  1 /* follow the loaded LFTs (static routing) */
#define TR_ROUTE_ECMP 2 /* split evenly over minimal next hops per hop */

/** Random patterns drawn before the CI target may stop the drawing. */
#define TR_MIN_PATTERNS 10

typedef struct tr_opts {
  uint32_t routing; /* TR_ROUTE_* */
  uint32_t count;   /* random patterns, at most */
  double ci;        /* stop drawing once the 99 % CI half-width is <= ci
                       (after TR_MIN_PATTERNS); 0: draw all @count */
  uint64_t seed;
  uint32_t shift;      /* 0: half the endpoints */
  uint32_t top;        /* hottest links to keep (<= TR_HOT_MAX) */
  double *slot_load;   /* NULL, or [v->poff[v->ns]]: receives every
                          switch-to-switch slot's mean load (others 0); the
                          health plugin's prediction (plugins/health) */
  int all_loads;       /* 1: keep every switch-facing slot's mean load in
                          tr_result.loads (--view load) */
  const fl_dist *dist; /* NULL, or the MPI run (borrowed): a random kind's
                          instances are split over its ranks (tr_eval) */
} tr_opts;

typedef struct tr_result {
  char name[32];
  uint32_t patterns; /* patterns evaluated */
  uint64_t flows;    /* flows per pattern (last pattern) */
  uint64_t unrouted; /* flows with no route, all patterns */
  double ebb_mean;   /* mean over patterns of the mean flow bandwidth */
  double ebb_min, ebb_max;
  double ebb_ci99;   /* 99 % confidence half-width of ebb_mean */
  double worst_flow; /* smallest flow bandwidth seen */
  double max_load;   /* largest switch-link load (flows / relative capacity) */
  double mean_load;  /* mean switch-link load over loaded patterns */
  uint32_t n_hot;
  uint32_t hot_slot[TR_HOT_MAX];
  double hot_load[TR_HOT_MAX]; /* mean load over the patterns */
  double hot_max[TR_HOT_MAX];  /* largest load in any pattern */
  double *loads; /* with all_loads: [slots] mean load over the patterns of
                    each slot (switch-facing ones; CA-facing ones 0), owned:
                    tr_result_free() */
} tr_result;

/** Free what @r owns (loads) and zero it. */
void tr_result_free(tr_result *r);

/** 1 when tr_eval() knows pattern @name, else 0. */
int tr_pattern_known(const char *name);

/** 1 when @name is a random kind ("bisect", "permutation": up to count
 * instances, split over the ranks of o->dist by tr_eval), else 0. */
int tr_pattern_random(const char *name);

/**
 * tr_stop — the stop rule of a random kind, fed the instance values in
 * instance order: @n values taken, their running mean and sum of squared
 * deviations (Welford).
 */
typedef struct tr_stop {
  uint32_t n;
  double mean, m2;
} tr_stop;

/**
 * tr_stop_take() — take @val, the value of instance @s->n (0-based), into
 * @s. Returns 1 when no further instance is to be taken: @count reached,
 * or @ci > 0, at least TR_MIN_PATTERNS taken and the 99 % CI half-width
 * 2.576 * sd / sqrt(n) <= @ci (docs/rules/ecmp-balance.md); else 0.
 */
int tr_stop_take(tr_stop *s, double ci, uint32_t count, double val);

/**
 * tr_instance_of() — the instance evaluated by rank @rank of @size in
 * slot @j (0-based, < @per_rank) of the round that starts at instance
 * @base: base + j * size + rank. Rounds hold size * per_rank instances; in
 * a round the instances of slot j are gathered in rank order, which is
 * instance order.
 */
uint64_t tr_instance_of(uint64_t base, uint32_t j, uint32_t size,
                        uint32_t rank);

/**
 * tr_eval() — evaluate pattern @name ("all-to-all", "bisect",
 * "permutation", "shift", "ring") on view @v (fl_view_minimal() done when
 * @o->routing is TR_ROUTE_ECMP). 0; -1 out of memory; -2 unknown pattern;
 * -3 (with @o->dist) failed on another rank, or the collective failed.
 * @r is overwritten: free a previous result with tr_result_free() first.
 *
 * With @o->dist and a random kind this is a collective: every rank of the
 * run calls it with the same view and options. Instance i (drawn from
 * @o->seed alone: fl_view_rand_skip) is evaluated by rank i mod N, in
 * rounds of N x (the largest worker count of a rank) instances; after a
 * round every rank gathers the values and switch-link loads of its
 * instances (fl_dist.allgather) and accounts them in instance order with
 * the stop rule (tr_stop_take), discarding what lies past the stop. Every
 * rank ends with @r exactly as one process computes it. Other kinds ignore
 * @o->dist (the caller splits them).
 */
int tr_eval(const fl_view *v, const char *name, const tr_opts *o, tr_result *r);

#endif
