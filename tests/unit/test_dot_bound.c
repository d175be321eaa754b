/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_dot_bound.c — fl_dot_edge_bound(): the edges cgraph will
 * make from a DOT text, counted before it parses (issue 32 #8). Each case
 * is also parsed by cgraph here, so the bound is checked against the real
 * edge count: equal where the text has no attribute statement inside a
 * subgraph, never below it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <graphviz/cgraph.h>

#include "io/dot_bound.h"

/* Edges cgraph makes from @text (not strict: every statement's edges). */
static uint64_t cgraph_edges(const char *text) {
  char *copy = strdup(text);
  Agraph_t *g = agmemread(copy);
  free(copy);
  assert_non_null(g);
  uint64_t n = (uint64_t)agnedges(g);
  agclose(g);
  return n;
}

static void bound_is(const char *text, uint64_t want) {
  uint64_t got = fl_dot_edge_bound(text, strlen(text));
  if (got != want)
    fail_msg("bound %llu, want %llu: %s", (unsigned long long)got,
             (unsigned long long)want, text);
  uint64_t real = cgraph_edges(text);
  if (got < real)
    fail_msg("bound %llu below cgraph's %llu: %s", (unsigned long long)got,
             (unsigned long long)real, text);
}

static void test_products(void **st) {
  (void)st;
  bound_is("graph g { a -- b; }", 1);
  bound_is("graph g { a -- b -- c -- d }", 3);
  bound_is("graph g { {a0 a1 a2} -- {b0 b1 b2} }", 9);
  bound_is("graph g { a -- {b c} -- d }", 4);
  bound_is("graph g { subgraph s1 {a b} -- subgraph s2 {c d e} }", 6);
  bound_is("graph g { {a b} -- {c d} -- {e f g} }", 4 + 6);
  bound_is("graph g { {a -- b} -- c }", 1 + 2);
  bound_is("graph g { { {a b} c } -- d }", 3);
  bound_is("digraph g { a -> b -> c }", 2);
  bound_is("graph g { a:p1 -- b:p2:n; c:x -- {d e} }", 3);
}

/* What is no node: attribute lists and values, ports, keywords, subgraph
 * names, comments, strings that hold DOT text. */
static void test_not_nodes(void **st) {
  (void)st;
  bound_is("graph g { edge [src_port=1, dst_port=\"{x y z}\"]; a -- b }", 1);
  bound_is("graph g { node [shape=box]; a [label=\"p -- q -- r\"]; a -- b; }",
           1);
  bound_is("graph g { // {x y} -- {z w}\n a -- b /* {c d} -- {e f} */ }", 1);
  bound_is("graph g {\n# {x y} -- {z w}\n a -- b }", 1);
  bound_is("graph g { \"a -- b\" -- \"{c d}\" }", 1);
  bound_is("graph g { <b>{x y}</b> -- c }", 1);
  bound_is("graph g { \"x\" + \"y\" -- z }", 1);
  bound_is("graph g { a; b; c; }", 0);
  bound_is("graph g { a -- b; c; d }", 1);   /* ';' ends the chain */
  bound_is("graph g { a -- b, c -- d }", 4); /* a -- {b c} -- d */
  bound_is("graph g { a -- b0, b1, b2 -- c0, c1, c2 }", 3 + 9);
  bound_is("graph g { a, b -- c }", 2);
  bound_is("graph g { a0, a1, a2 -- b0, b1, b2 }", 9);
}

/* Inside a subgraph, `key=value` statements count as two ids: only more. */
static void test_overestimate(void **st) {
  (void)st;
  bound_is("graph g { {rank=same a b} -- c }", 3); /* cgraph: 2 */
}

/* Large products saturate instead of wrapping; no memory is used. */
static void test_big(void **st) {
  (void)st;
  size_t n = 3000, cap = n * 8 * 2 + 64;
  char *t = malloc(cap);
  assert_non_null(t);
  size_t o = (size_t)snprintf(t, cap, "graph g { {");
  for (size_t i = 0; i < n; i++)
    o += (size_t)snprintf(t + o, cap - o, " a%zu", i);
  o += (size_t)snprintf(t + o, cap - o, " } -- {");
  for (size_t i = 0; i < n; i++)
    o += (size_t)snprintf(t + o, cap - o, " b%zu", i);
  snprintf(t + o, cap - o, " } }");
  assert_int_equal(fl_dot_edge_bound(t, strlen(t)), 9000000);
  free(t);
  /* nesting deeper than the tracked depth still bounds */
  char deep[2048] = "graph g { ";
  for (int i = 0; i < 100; i++)
    strcat(deep, "{");
  strcat(deep, "a b");
  for (int i = 0; i < 100; i++)
    strcat(deep, "}");
  strcat(deep, " -- c }");
  assert_true(fl_dot_edge_bound(deep, strlen(deep)) >= 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_products),
      cmocka_unit_test(test_not_nodes),
      cmocka_unit_test(test_overestimate),
      cmocka_unit_test(test_big),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
