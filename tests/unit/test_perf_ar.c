/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_perf_ar.c — load-aware adaptive routing's split
 * (core/analysis/perf_ar.c) on generated rail fabrics:
 *   - one uplink of leaf-su01-r0 at 50 of 400 Gb/s, rail-0 sendrecv from
 *     SU 1 to SU 2 and back: the leaf water-fills its 4 flows 50:400:400:400
 *     (0.16 and 1.28 flows), and leaf-su02-r0 sends the flows entering SU 1
 *     the same way because spine-01's down port to leaf-su01-r0 is the
 *     bottleneck beyond its port to spine-01; the slowest flow 312.5 Gb/s
 *     under AR, 50 under spray; both ways round (the degraded cable in SU 1
 *     or in SU 2);
 *   - healthy 2- and 3-tier fabrics: the AR split is the equal split (the
 *     max-min results of ar and spray agree on every directed link);
 *   - the fixed point: at every switch that forwards flows, the ports the
 *     split uses have equal effective load per Gb/s and unused ones no less
 *     (an oracle that recomputes it from the final loads);
 *   - the one-pass solver agrees with progressive filling under AR;
 *   - a 2.5 Gb/s spine-core cable of a 3-tier tree: settled, at the ideal
 *     (the narrowest link beyond a port bounds it before it is loaded);
 *   - the cap on split values: exactly at it the balance runs, one below
 *     it is refused naming the need and the cap, or, where routing auto
 *     chose AR, both solvers split equally and report the need.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/perf_impl.h"
#include "fabriclint/fabric.h"
#include "fabriclint/gen.h"
#include "io/workload.h"

static fl_fabric *rail(uint32_t sus, uint32_t tiers) {
  fl_gen_rail_su_params p = {.sus = sus,
                             .hosts_per_su = 4,
                             .rails = tiers == 3 ? 2 : 4,
                             .leaf_radix = 8,
                             .tiers = tiers,
                             .sus_per_group = tiers == 3 ? 1 : 0};
  fl_fabric *f = NULL;
  fl_error err;
  fl_error_clear(&err);
  int rc = fl_gen_rail_su(&p, &f, &err);
  if (rc != FL_OK)
    fprintf(stderr, "%s\n", err.message);
  assert_int_equal(rc, FL_OK);
  return f;
}

static fl_perf_job *job_for(const fl_fabric *f, const char *yaml,
                            uint32_t routing) {
  fl_workload w;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_workload_parse(&w, "t.yaml", yaml, strlen(yaml), &err),
                   FL_OK);
  fl_perf_job *job = NULL;
  assert_int_equal(fl_perf_job_new(f, &w, routing, &job, &err), FL_OK);
  fl_workload_free(&w);
  return job;
}

static fl_id node(const fl_fabric *f, const char *name) {
  for (fl_id v = 0; v < fl_fabric_node_count(f); v++)
    if (strcmp(fl_fabric_node_name(f, v), name) == 0)
      return v;
  fail_msg("no node %s", name);
  return FL_NONE;
}

/* The cable on @leaf's port @port: both directed links set to @gbps. */
static void degrade(fl_perf_job *job, const char *leaf, uint32_t port,
                    double gbps) {
  const fl_fabric *f = job->f;
  fl_id v = node(f, leaf);
  for (fl_id l = 0; l < fl_fabric_link_count(f); l++)
    for (int e = 0; e < 2; e++) {
      fl_id p = fl_fabric_link_port(f, l, e);
      if (fl_fabric_port_node(f, p) == v && fl_fabric_port_num(f, p) == port) {
        job->net.cap[2 * l] = job->net.cap[2 * l + 1] = gbps;
        return;
      }
    }
  fail_msg("no cable on %s port %u", leaf, port);
}

static const char *SR = "hosts: all\ncollectives:\n"
                        "  - {op: sendrecv, shift: 16, bytes: 1073741824}\n";

static void build(const fl_perf_job *job, const char *yaml, pf_flows *fl) {
  fl_workload w;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_workload_parse(&w, "t.yaml", yaml, strlen(yaml), &err),
                   FL_OK);
  uint32_t steps, ranks;
  assert_int_equal(pf_flows_build(job, &w.colls[0], fl, &steps, &ranks, &err),
                   FL_OK);
  fl_workload_free(&w);
}

/* The flows leaf @leaf sends on each of its uplink ports 5..8 toward the
 * switch @dst, from the balance. */
static void uplink_flows(const fl_perf_job *job, const pf_arsplit *a,
                         const char *leaf, const char *dst, double out[4]) {
  const pf_net *n = &job->net;
  uint32_t s = n->node_sw[node(job->f, leaf)];
  uint32_t S = n->node_sw[node(job->f, dst)];
  assert_int_not_equal(a->row_of[S], PF_NONE);
  for (uint32_t k = n->adj_off[s]; k < n->adj_off[s + 1]; k++) {
    for (uint32_t port = 5; port <= 8; port++)
      if (n->hop[(size_t)s * 256 + port].dl == n->adj_dl[k])
        out[port - 5] = a->x[(size_t)a->row_of[S] * a->nadj + k];
  }
}

static void close_to(double got, double want) {
  if (fabs(got - want) > 1e-9 * (fabs(want) > 1 ? fabs(want) : 1))
    fail_msg("got %.15g, want %.15g", got, want);
}

/* rail-0 sendrecv both ways between SU 1 and SU 2 with the cable on
 * @leaf port 5 at 50 Gb/s. */
static void one_degraded(const char *leaf) {
  fl_fabric *f = rail(2, 2);
  fl_perf_job *job = job_for(f, SR, FL_WL_ROUTE_AR);
  degrade(job, leaf, 5, 50);
  pf_flows fl;
  build(job, SR, &fl);
  pf_arsplit a;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(pf_ar_balance(&a, &job->net, job->nic, &fl, &err), FL_OK);
  assert_true(a.converged);
  assert_in_range(a.sweeps, 2, 10);
  double up[4] = {0}, down[4] = {0};
  uplink_flows(job, &a, "leaf-su01-r0", "leaf-su02-r0", up);
  uplink_flows(job, &a, "leaf-su02-r0", "leaf-su01-r0", down);
  /* 4 flows each way, water-filled 50 : 400 : 400 : 400 */
  close_to(up[0], 4 * 50.0 / 1250), close_to(down[0], 4 * 50.0 / 1250);
  for (int j = 1; j < 4; j++)
    close_to(up[j], 4 * 400.0 / 1250), close_to(down[j], 4 * 400.0 / 1250);
  pf_ar_free(&a);
  /* the solvers: 312.5 Gb/s for the slowest flow under AR, 50 sprayed */
  for (int mode = 0; mode < 2; mode++) {
    uint32_t r = mode ? FL_WL_ROUTE_SPRAY : FL_WL_ROUTE_AR;
    pf_solution s1, s2;
    assert_int_equal(pf_maxmin(&job->net, job->nic, &fl, r, &s1, &err), FL_OK);
    assert_int_equal(pf_maxmin_first(&job->net, job->nic, &fl, r, 1, &s2, &err),
                     FL_OK);
    close_to(s1.slow_level, mode ? 50 : 312.5);
    close_to(s2.slow_level, mode ? 50 : 312.5);
    close_to(s1.step_time_s, s2.step_time_s);
    for (uint32_t dl = 0; dl < job->net.ndl; dl++)
      close_to(s1.weight[dl], s2.weight[dl]);
    assert_int_equal(s1.ar_converged, !mode);
    pf_solution_free(&s1), pf_solution_free(&s2);
  }
  pf_flows_free(&fl);
  fl_perf_job_free(job);
  fl_fabric_free(f);
}

static void test_degraded_su1(void **state) {
  (void)state;
  one_degraded("leaf-su01-r0");
}

static void test_degraded_su2(void **state) {
  (void)state;
  one_degraded("leaf-su02-r0");
}

/* Healthy fabrics: AR's max-min results are spray's on every link. */
static void same_as_spray(uint32_t sus, uint32_t tiers, const char *yaml) {
  fl_fabric *f = rail(sus, tiers);
  fl_perf_job *job = job_for(f, yaml, FL_WL_ROUTE_AR);
  pf_flows fl;
  build(job, yaml, &fl);
  fl_error err;
  fl_error_clear(&err);
  pf_solution a, s;
  assert_int_equal(
      pf_maxmin(&job->net, job->nic, &fl, FL_WL_ROUTE_AR, &a, &err), FL_OK);
  assert_int_equal(
      pf_maxmin(&job->net, job->nic, &fl, FL_WL_ROUTE_SPRAY, &s, &err), FL_OK);
  assert_string_equal(a.error, "");
  assert_true(a.ar_converged);
  close_to(a.step_time_s, s.step_time_s);
  for (uint32_t dl = 0; dl < job->net.ndl; dl++)
    close_to(a.weight[dl], s.weight[dl]);
  pf_solution_free(&a), pf_solution_free(&s);
  pf_flows_free(&fl);
  fl_perf_job_free(job);
  fl_fabric_free(f);
}

static void test_healthy_equal(void **state) {
  (void)state;
  same_as_spray(2, 2, SR);
  same_as_spray(2, 2,
                "hosts: all\ncollectives:\n"
                "  - {op: all-to-all, bytes: 1073741824}\n");
  same_as_spray(4, 3,
                "hosts: all\ncollectives:\n"
                "  - {op: all-to-all, bytes: 1073741824}\n");
  same_as_spray(4, 3,
                "hosts: all\ncollectives:\n"
                "  - {op: all-reduce, bytes: 1073741824}\n");
}

/* The oracle of the fixed point, from the final flows alone: loads per
 * directed link; per row, each switch's links beyond it toward S nearest
 * first (the most loaded per Gb/s and the narrowest per share, over the
 * ports it uses); then at every switch that forwards flows, each allowed
 * port's level with its flows on it: the largest load per Gb/s of its own
 * link and of those beyond it. Used ports agree to @tol, unused ones are
 * no lower (perf_ar.c's water-filling gives exactly that when settled). */
static void check_fixed_point(const fl_perf_job *job, const pf_arsplit *a,
                              double tol) {
  const pf_net *n = &job->net;
  double *L = calloc(n->ndl, sizeof *L);
  uint32_t *dist = malloc(n->nsw * sizeof *dist), *q = malloc(n->nsw * 4);
  uint32_t *bdl = malloc(n->nsw * sizeof *bdl);
  uint32_t *ndl = malloc(n->nsw * sizeof *ndl);
  double *nphi = malloc(n->nsw * sizeof *nphi);
  for (uint32_t S = 0; S < n->nsw; S++)
    if (a->row_of[S] != PF_NONE)
      for (uint32_t k = 0; k < a->nadj; k++)
        L[n->adj_dl[k]] += a->x[(size_t)a->row_of[S] * a->nadj + k];
  uint32_t checked = 0;
  for (uint32_t S = 0; S < n->nsw; S++) {
    if (a->row_of[S] == PF_NONE)
      continue;
    const double *x = a->x + (size_t)a->row_of[S] * a->nadj;
    for (uint32_t s = 0; s < n->nsw; s++)
      dist[s] = PF_NONE;
    uint32_t h = 0, t = 0;
    dist[S] = 0, q[t++] = S;
    while (h < t) {
      uint32_t s = q[h++];
      for (uint32_t k = n->adj_off[s]; k < n->adj_off[s + 1]; k++)
        if (dist[n->adj_next[k]] == PF_NONE)
          dist[n->adj_next[k]] = dist[s] + 1, q[t++] = n->adj_next[k];
    }
    bdl[S] = ndl[S] = PF_NONE;
    for (uint32_t i = 1; i < t; i++) { /* nearest first */
      uint32_t v = q[i], m = 0;
      double best = -1, narrow = INFINITY, sum = 0;
      bdl[v] = ndl[v] = PF_NONE;
      nphi[v] = 0;
      for (uint32_t k = n->adj_off[v]; k < n->adj_off[v + 1]; k++)
        if (dist[n->adj_next[k]] + 1 == dist[v])
          sum += x[k], m++;
      /* the links beyond v: over the ports it uses (all of them, equally,
       * where it forwards nothing toward S), the most loaded per Gb/s and
       * the narrowest per share of v's flows */
      for (uint32_t k = n->adj_off[v]; k < n->adj_off[v + 1]; k++) {
        if (dist[n->adj_next[k]] + 1 != dist[v] || (sum > 0 && x[k] <= 0))
          continue;
        double f = sum > 0 ? x[k] / sum : 1.0 / m;
        uint32_t nx = n->adj_next[k], c = n->adj_dl[k], b = bdl[nx];
        if (b != PF_NONE && L[b] / n->cap[b] > L[c] / n->cap[c])
          c = b;
        if (L[c] / n->cap[c] > best)
          best = L[c] / n->cap[c], bdl[v] = c;
        uint32_t w = n->adj_dl[k];
        double phi = f;
        if (ndl[nx] != PF_NONE &&
            n->cap[ndl[nx]] / (f * nphi[nx]) < n->cap[w] / f)
          w = ndl[nx], phi = f * nphi[nx];
        if (n->cap[w] / phi < narrow)
          narrow = n->cap[w] / phi, ndl[v] = w, nphi[v] = phi;
        else if (w == ndl[v])
          nphi[v] += phi;
      }
      double used = -1, lo = INFINITY, tot = 0;
      int any = 0;
      for (uint32_t k = n->adj_off[v]; k < n->adj_off[v + 1]; k++)
        tot += x[k];
      for (uint32_t k = n->adj_off[v]; k < n->adj_off[v + 1]; k++) {
        if (dist[n->adj_next[k]] + 1 != dist[v])
          continue;
        /* a port's level: the most loaded per Gb/s of its own link and
         * the links beyond it that bound it (each line's load over
         * capacity: the shares cancel) */
        uint32_t c = n->adj_dl[k], b = bdl[n->adj_next[k]];
        uint32_t nw = ndl[n->adj_next[k]];
        double u = L[c] / n->cap[c];
        if (b != PF_NONE && L[b] / n->cap[b] > u)
          u = L[b] / n->cap[b];
        if (nw != PF_NONE && L[nw] / n->cap[nw] > u)
          u = L[nw] / n->cap[nw];
        if (x[k] > 1e-5 * tot) { /* the fixed point is to 1e-6 */
          if (any)
            assert_true(fabs(u - used) <= tol * used);
          used = u, any = 1;
        } else if (u < lo) {
          lo = u;
        }
      }
      if (any && isfinite(lo))
        assert_true(lo >= used * (1 - tol));
      checked += any;
    }
  }
  assert_true(checked > 0);
  free(L), free(dist), free(q), free(bdl), free(ndl), free(nphi);
}

static void test_fixed_point_oracle(void **state) {
  (void)state;
  const char *yamls[] = {SR,
                         "hosts: all\ncollectives:\n"
                         "  - {op: all-to-all, bytes: 1073741824}\n",
                         "hosts: all\ncollectives:\n"
                         "  - {op: all-reduce, bytes: 1073741824}\n"};
  for (int y = 0; y < 3; y++)
    for (int tiers = 2; tiers <= 3; tiers++) {
      fl_fabric *f = rail(tiers == 3 ? 4 : 2, tiers);
      fl_perf_job *job = job_for(f, yamls[y], FL_WL_ROUTE_AR);
      if (tiers == 2) {
        degrade(job, "leaf-su01-r0", 5, 50);
        degrade(job, "leaf-su02-r1", 6, 100);
      } else {
        degrade(job, "leaf-su01-r0", 7, 50);
        degrade(job, "spine-p02-01", 8, 100);
      }
      pf_flows fl;
      build(job, yamls[y], &fl);
      pf_arsplit a;
      fl_error err;
      fl_error_clear(&err);
      assert_int_equal(pf_ar_balance(&a, &job->net, job->nic, &fl, &err),
                       FL_OK);
      assert_true(a.converged);
      check_fixed_point(job, &a, 1e-4);
      pf_ar_free(&a);
      pf_flows_free(&fl);
      fl_perf_job_free(job);
      fl_fabric_free(f);
    }
}

/* Regression (a new user's test): on a 3-tier radix-8 tree, one spine-core
 * cable at 2.5 Gb/s (1x SDR) made the split swing for 200 sweeps and the
 * all-to-all run at 0.23 of its ideal, where the pod's other 15 uplinks
 * carry it whole (the empty slow link was no bottleneck by its load, so
 * every spine piled onto it in turn). Now: settled, at the ideal to AR's
 * tolerance, and at its fixed point. */
static void test_slow_core_cable(void **state) {
  (void)state;
  fl_gen_fat_tree_params p = {.radix = 8, .tiers = 3};
  fl_fabric *f = NULL;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_gen_fat_tree(&p, &f, &err), FL_OK);
  const char *a2a = "hosts: all\ncollectives:\n"
                    "  - {op: all-to-all, bytes: 1073741824}\n";
  fl_perf_job *job = job_for(f, a2a, FL_WL_ROUTE_AR);
  degrade(job, "spine-p02-03", 8, 2.5);
  pf_flows fl;
  build(job, a2a, &fl);
  pf_solution ar, ideal;
  assert_int_equal(pf_maxmin(&job->net, job->nic, &fl, FL_WL_ROUTE_AR, &ar,
                             &err),
                   FL_OK);
  assert_int_equal(pf_maxmin(&job->net, job->nic, &fl, PF_ROUTE_IDEAL, &ideal,
                             &err),
                   FL_OK);
  assert_true(ar.ar_converged);
  assert_true(ar.slow_level >= ideal.slow_level * (1 - 1e-6));
  pf_arsplit a;
  assert_int_equal(pf_ar_balance(&a, &job->net, job->nic, &fl, &err), FL_OK);
  check_fixed_point(job, &a, 1e-4);
  pf_ar_free(&a);
  pf_solution_free(&ar), pf_solution_free(&ideal);
  pf_flows_free(&fl);
  fl_perf_job_free(job);
  fl_fabric_free(f);
}

/* Six degraded cables of a 3-tier radix-8 tree (one of 300 random trees
 * where a port bounded only by the most loaded link beyond it kept the
 * split swinging: the gap was 1.57 of the largest demand after 500
 * sweeps): settled, at its fixed point. */
static void test_six_degraded(void **state) {
  (void)state;
  fl_gen_fat_tree_params p = {.radix = 8, .tiers = 3};
  fl_fabric *f = NULL;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_gen_fat_tree(&p, &f, &err), FL_OK);
  const char *a2a = "hosts: all\ncollectives:\n"
                    "  - {op: all-to-all, bytes: 1073741824}\n";
  fl_perf_job *job = job_for(f, a2a, FL_WL_ROUTE_AR);
  degrade(job, "spine-p01-02", 6, 200); /* 4x HDR */
  degrade(job, "spine-p01-03", 8, 2.5); /* 1x SDR */
  degrade(job, "leaf-p07-01", 8, 200);  /* 4x HDR */
  degrade(job, "leaf-p06-02", 5, 200);  /* 2x NDR */
  degrade(job, "spine-p02-04", 7, 50);  /* 1x HDR */
  degrade(job, "spine-p02-02", 5, 50);  /* 1x HDR */
  pf_flows fl;
  build(job, a2a, &fl);
  pf_arsplit a;
  assert_int_equal(pf_ar_balance(&a, &job->net, job->nic, &fl, &err), FL_OK);
  assert_true(a.converged);
  assert_in_range(a.sweeps, 2, PF_AR_MAX_SWEEPS); /* 419 here */
  check_fixed_point(job, &a, 1e-4);
  pf_ar_free(&a);
  pf_flows_free(&fl);
  fl_perf_job_free(job);
  fl_fabric_free(f);
}

/* The cap: need = rows x (edges + switches), at it and one below. */
static void test_cap(void **state) {
  (void)state;
  fl_fabric *f = rail(2, 2);
  fl_perf_job *job = job_for(f, SR, FL_WL_ROUTE_AR);
  pf_flows fl;
  build(job, SR, &fl);
  /* rail-0..3 leaves of both SUs receive: 8 rows */
  size_t need = 8 * ((size_t)job->net.adj_off[job->net.nsw] + job->net.nsw);
  pf_arsplit a;
  fl_error err;
  fl_error_clear(&err);
  job->net.ar_max_entries = need;
  assert_int_equal(pf_ar_balance(&a, &job->net, job->nic, &fl, &err), FL_OK);
  assert_int_equal(a.nrow, 8);
  pf_ar_free(&a);
  job->net.ar_max_entries = need - 1;
  assert_int_equal(pf_ar_balance(&a, &job->net, job->nic, &fl, &err),
                   FL_EINVAL);
  char want[200];
  snprintf(want, sizeof want, "needs %zu split values", need);
  assert_non_null(strstr(err.message, want));
  snprintf(want, sizeof want, "more than the cap of %zu", need - 1);
  assert_non_null(strstr(err.message, want));
  /* chosen by routing auto: both solvers split equally, saying so */
  job->net.ar_auto = 1;
  pf_solution s1, s2, sp;
  assert_int_equal(
      pf_maxmin(&job->net, job->nic, &fl, FL_WL_ROUTE_AR, &s1, &err), FL_OK);
  assert_int_equal(
      pf_maxmin_first(&job->net, job->nic, &fl, FL_WL_ROUTE_AR, 1, &s2, &err),
      FL_OK);
  assert_int_equal(
      pf_maxmin(&job->net, job->nic, &fl, FL_WL_ROUTE_SPRAY, &sp, &err), FL_OK);
  assert_int_equal(s1.ar_capped, need);
  assert_int_equal(s2.ar_capped, need);
  assert_int_equal(sp.ar_capped, 0);
  close_to(s1.step_time_s, sp.step_time_s);
  close_to(s2.step_time_s, sp.step_time_s);
  pf_solution_free(&s1), pf_solution_free(&s2), pf_solution_free(&sp);
  job->net.ar_max_entries = need; /* at the cap: balanced, nothing noted */
  assert_int_equal(
      pf_maxmin(&job->net, job->nic, &fl, FL_WL_ROUTE_AR, &s1, &err), FL_OK);
  assert_int_equal(s1.ar_capped, 0);
  assert_true(s1.ar_converged);
  pf_solution_free(&s1);
  pf_flows_free(&fl);
  fl_perf_job_free(job);
  fl_fabric_free(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_degraded_su1),
      cmocka_unit_test(test_degraded_su2),
      cmocka_unit_test(test_healthy_equal),
      cmocka_unit_test(test_fixed_point_oracle),
      cmocka_unit_test(test_slow_core_cable),
      cmocka_unit_test(test_six_degraded),
      cmocka_unit_test(test_cap),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
