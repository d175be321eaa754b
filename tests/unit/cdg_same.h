/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/cdg_same.h — two routing-analysis reports (fabriclint/cdg.h)
 * agree in every field but @seconds: the check that a shortcut of the
 * analysis (twin roots, the closed form, the up*-down* certificate) gives
 * the exhaustive analysis' answer. Header-only, for test_cdg_shortcuts and
 * test_cdg_oracle; include it after <cmocka.h>.
 */
#ifndef FABRICLINT_TESTS_CDG_SAME_H
#define FABRICLINT_TESTS_CDG_SAME_H

#include "fabriclint/cdg.h"

static void same_hop(const fl_cdg_hop *a, const fl_cdg_hop *b) {
  assert_memory_equal(a, b, sizeof *a);
}

/* The two reports agree in every field but @seconds. */
static void same_report(const fl_cdg_report *a, const fl_cdg_report *b) {
  assert_int_equal(a->routing, b->routing);
  assert_int_equal(a->vl_aware, b->vl_aware);
  assert_int_equal(a->channels, b->channels);
  assert_int_equal(a->destinations, b->destinations);
  assert_int_equal(a->dependencies, b->dependencies);
  assert_int_equal(a->sources, b->sources);
  assert_int_equal(a->n_loops, b->n_loops);
  for (uint32_t i = 0; i < a->n_loops; i++) {
    assert_int_equal(a->loops[i].n_hops, b->loops[i].n_hops);
    assert_int_equal(a->loops[i].scc_channels, b->loops[i].scc_channels);
    for (uint32_t h = 0; h < a->loops[i].n_hops; h++)
      same_hop(&a->loops[i].hops[h], &b->loops[i].hops[h]);
  }
  assert_int_equal(a->n_fwd_loops, b->n_fwd_loops);
  assert_int_equal(a->fwd_loop_count, b->fwd_loop_count);
  assert_int_equal(a->unrouted_pairs, b->unrouted_pairs);
  assert_int_equal(a->n_unrouted, b->n_unrouted);
  if (a->n_unrouted)
    assert_memory_equal(a->unrouted, b->unrouted,
                        a->n_unrouted * sizeof *a->unrouted);
  assert_int_equal(a->valley_count, b->valley_count);
  assert_int_equal(a->n_valleys, b->n_valleys);
  if (a->n_valleys)
    assert_memory_equal(a->valleys, b->valleys,
                        a->n_valleys * sizeof *a->valleys);
  assert_int_equal(a->traffic, b->traffic);
}

#endif
