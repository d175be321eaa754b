/*
 * plugins/ecmp-balance/traffic.h — link loads and effective bisection
 * bandwidth under traffic patterns (internal to the ecmp-balance plugin).
 */
#ifndef FABRICLINT_PLUGINS_ECMP_TRAFFIC_H
#define FABRICLINT_PLUGINS_ECMP_TRAFFIC_H

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
  uint32_t shift;    /* 0: half the endpoints */
  uint32_t top;      /* hottest links to keep (<= TR_HOT_MAX) */
  double *slot_load; /* NULL, or [v->poff[v->ns]]: receives every
                        switch-to-switch slot's mean load (others 0); the
                        health plugin's prediction (plugins/health) */
  int all_loads;     /* 1: keep every switch-facing slot's mean load in
                        tr_result.loads (--view load) */
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

/**
 * tr_eval() — evaluate pattern @name ("all-to-all", "bisect",
 * "permutation", "shift", "ring") on view @v (fl_view_minimal() done when
 * @o->routing is TR_ROUTE_ECMP). 0; -1 out of memory; -2 unknown pattern.
 * @r is overwritten: free a previous result with tr_result_free() first.
 */
int tr_eval(const fl_view *v, const char *name, const tr_opts *o, tr_result *r);

#endif
