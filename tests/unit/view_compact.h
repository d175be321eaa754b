/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/view_compact.h — the switch view's compact form (cover
 * classes, fabriclint/view.h) checked against its matrix, for the tests of
 * the view and of the design-mode routing model (test_view.c,
 * test_cdg_shortcuts.c). Header-only; include it once per test program,
 * after <cmocka.h>, fabriclint/view.h, host/host.h and analysis/swview.h
 * (fl_view_class_at(), the core's).
 */
#ifndef FABRICLINT_TESTS_VIEW_COMPACT_H
#define FABRICLINT_TESTS_VIEW_COMPACT_H

/* The compact form of @f (cover classes) against its matrix: every
 * (destination, switch) entry through fl_view_dist_at()/fl_view_nmin_at(),
 * and every switch's groups against the matrix read in destination order
 * (members, endpoints, first member, next hops, direction). Returns 1
 * when @f was nested (classes built), 0 when the matrix was built. */
static int check_compact(const fl_host *h, const fl_fabric *f) {
  fl_view m, c;
  assert_int_equal(fl_view_build(&m, &h->api, f), 0);
  assert_int_equal(fl_view_minimal(&m), 0);
  assert_int_equal(fl_view_build(&c, &h->api, f), 0);
  assert_int_equal(fl_view_minimal_compact(&c), 0);
  int nested = c.nc > 0;
  assert_true(nested ? c.dist == NULL : c.dist != NULL);
  for (uint32_t d = 0; d < m.nd; d++)
    for (uint32_t s = 0; s < m.ns; s++) {
      assert_int_equal(fl_view_dist_at(&c, d, s), m.dist[(size_t)d * m.ns + s]);
      assert_int_equal(fl_view_nmin_at(&c, d, s), m.nmin[(size_t)d * m.ns + s]);
    }
  fl_view_group *g = malloc(((size_t)c.poff[c.ns] + 1) * sizeof *g);
  uint32_t *seen = malloc(((size_t)c.nd + 1) * sizeof *seen);
  assert_true(g && seen);
  for (uint32_t s = 0; nested && s < c.ns; s++) {
    uint32_t n = fl_view_groups(&c, s, g), ls = c.clev[c.ccls[s]];
    uint64_t eps = 0;
    memset(seen, 0, ((size_t)c.nd + 1) * sizeof *seen);
    for (uint32_t d = 0; d < c.nd; d++) {
      if (c.dsw[d] == s)
        continue;
      /* its group: the class below s over d, or "not under s" */
      uint32_t k = fl_view_class_at(&c, d, ls) == c.ccls[s]
                       ? fl_view_class_at(&c, d, ls - 1)
                       : FL_VIEW_NONE;
      uint32_t i = 0;
      while (i < n && g[i].cls != k)
        i++;
      assert_true(i < n);
      if (!seen[i]++)
        assert_int_equal(g[i].first_d, d);
      uint16_t nm = m.nmin[(size_t)d * m.ns + s];
      assert_int_equal(g[i].nmin, nm);
      assert_int_equal(g[i].dir, k == FL_VIEW_NONE ? 1 : -1);
      eps += c.sw_nep[c.dsw[d]];
    }
    uint64_t sum = 0;
    for (uint32_t i = 0; i < n; i++) {
      assert_int_equal(g[i].n_dest, seen[i]);
      sum += g[i].eps;
      assert_true(i == 0 || g[i].first_d > g[i - 1].first_d);
    }
    assert_int_equal(sum, eps);
  }
  free(g), free(seen);
  fl_view_free(&m);
  fl_view_free(&c);
  return nested;
}

#endif
