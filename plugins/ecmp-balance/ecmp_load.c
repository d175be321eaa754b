/* SPDX-License-Identifier: MIT */
/*
 * plugins/ecmp-balance/ecmp_load.c — link loads and effective bisection
 * bandwidth under traffic patterns (traffic.c), split over MPI ranks
 * (link-load).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecmp.h"
#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fabriclint/routing.h"
#include "fabriclint/view.h"
#include "traffic.h"

/* ---- link loads and eBB
 * ------------------------------------------------------- */

/* Put @n bytes at @p to the growing buffer *@b (length *@len, capacity
 * *@cap); 0 or -1 out of memory. */
static int put(unsigned char **b, size_t *len, size_t *cap, const void *p,
               size_t n) {
  if (*len + n > *cap) {
    size_t c = *cap ? *cap : 1024;
    while (c < *len + n)
      c *= 2;
    unsigned char *nb = realloc(*b, c);
    if (!nb)
      return -1;
    *b = nb;
    *cap = c;
  }
  if (n)
    memcpy(*b + *len, p, n);
  *len += n;
  return 0;
}

/* Of pattern @k (@name), the rank that evaluates it alone, or @size when
 * every rank holds it (a random kind: tr_eval splits its instances). */
static uint32_t tr_owner(uint32_t k, const char *name, uint32_t size) {
  return tr_pattern_random(name) ? size : k % size;
}

/* mpirun (docs/mpi.md): give every rank the results of the patterns the
 * others evaluated (st->tr[k] of rank k mod N, random kinds excepted: every
 * rank has them), with the allgather
 * collective; every rank calls it, also when its own share @failed. Each
 * rank's part: u32 failed, u32 count, then per result u32 k, the tr_result
 * (loads NULL) and, with @all_loads, its @n_slots + 1 loads. Results are
 * plain numbers computed by the same code from the same fabric, so each
 * rank ends with exactly what one process computes. Returns 0; 1 when a
 * rank failed; -1 when the collective or memory failed or the bytes are
 * malformed. */
static int tr_share(const fl_dist *d, eb_state *st, char (*names)[32],
                    uint32_t n_slots, int all_loads, int failed) {
  unsigned char *b = NULL;
  size_t len = 0, cap = 0, nl = all_loads ? (size_t)n_slots + 1 : 0;
  uint32_t cnt = 0, fl = failed != 0;
  for (uint32_t k = 0; !fl && k < st->n_tr; k++)
    cnt += tr_owner(k, names[k], d->size) == d->rank;
  int oom = put(&b, &len, &cap, &fl, 4) | put(&b, &len, &cap, &cnt, 4);
  for (uint32_t k = 0; !fl && k < st->n_tr; k++) {
    if (tr_owner(k, names[k], d->size) != d->rank)
      continue;
    tr_result r = st->tr[k];
    r.loads = NULL;
    oom |= put(&b, &len, &cap, &k, 4) | put(&b, &len, &cap, &r, sizeof r);
    if (nl)
      oom |= st->tr[k].loads
                 ? put(&b, &len, &cap, st->tr[k].loads, nl * sizeof(double))
                 : -1;
  }
  if (oom) { /* tell the others, in a part that needs no memory */
    static const uint32_t failed_part[2] = {1, 0};
    free(b);
    b = NULL;
    len = sizeof failed_part;
    void *all = NULL;
    size_t n_all = 0;
    if (d->allgather(d->ctx, failed_part, len, &all, &n_all) == 0)
      free(all);
    return -1;
  }
  void *all = NULL;
  size_t n_all = 0;
  int grc = d->allgather(d->ctx, b, len, &all, &n_all);
  free(b);
  if (grc != 0)
    return -1;
  const unsigned char *q = all, *end = q + n_all;
  int rc = 0;
  for (uint32_t r = 0; rc == 0 && r < d->size; r++) {
    uint32_t pf, pc;
    if ((size_t)(end - q) < 8) {
      rc = -1;
      break;
    }
    memcpy(&pf, q, 4);
    memcpy(&pc, q + 4, 4);
    q += 8;
    if (pf) {
      rc = 1;
      break;
    }
    for (uint32_t i = 0; rc == 0 && i < pc; i++) {
      uint32_t k;
      if ((size_t)(end - q) < 4 + sizeof(tr_result) + nl * sizeof(double)) {
        rc = -1;
        break;
      }
      memcpy(&k, q, 4);
      q += 4;
      if (k >= st->n_tr || tr_owner(k, names[k], d->size) != r) {
        rc = -1;
        break;
      }
      if (r != d->rank) {
        memcpy(&st->tr[k], q, sizeof(tr_result));
        st->tr[k].loads = NULL;
        if (nl) {
          st->tr[k].loads = malloc(nl * sizeof(double));
          if (!st->tr[k].loads)
            rc = -1;
          else
            memcpy(st->tr[k].loads, q + sizeof(tr_result), nl * sizeof(double));
        }
      }
      q += sizeof(tr_result) + nl * sizeof(double);
    }
  }
  if (rc == 0 && q != end)
    rc = -1;
  free(all);
  return rc;
}

int eb_traffic(const fl_host_api *api, fl_ctx *ctx, eb_state *st,
               int use_cache_any) {
  const fl_fabric *f = api->fabric(ctx);
  fl_fabric_key fk = fl_fabric_key_of(api, ctx);
  if (use_cache_any && st->have_tr && fl_fabric_key_eq(st->key, fk))
    return 0;
  const char *routing = "auto", *patterns = "all-to-all,bisect,shift,ring";
  api->param_string(ctx, "routing", &routing);
  api->param_string(ctx, "patterns", &patterns);
  tr_opts o;
  memset(&o, 0, sizeof o);
  int64_t count = eb_pint(api, ctx, "count", 100),
          seed = eb_pint(api, ctx, "seed", 1);
  int64_t shift = eb_pint(api, ctx, "shift", 0),
          top = eb_pint(api, ctx, "top-links", 5);
  double ci = eb_pdbl(api, ctx, "ci", 0.001);
  if (count < 1 || count > 1000000 || shift < 0 || top < 0 || !(ci >= 0)) {
    fl_param_error(api, ctx, "(several)",
                   "parameters: count 1..1000000, shift >= 0, top-links >= 0, "
                   "ci >= 0");
    return -1;
  }
  o.count = (uint32_t)count;
  o.ci = ci;
  o.seed = (uint64_t)seed;
  o.shift = (uint32_t)shift;
  o.top = (uint32_t)(top > TR_HOT_MAX ? TR_HOT_MAX : top);
  o.all_loads = eb_pint(api, ctx, "link-loads", 0) != 0;
  if (!strcmp(routing, "lft") ||
      (!strcmp(routing, "auto") && api->lft_count(f)))
    o.routing = TR_ROUTE_LFT;
  else if (!strcmp(routing, "ecmp") || !strcmp(routing, "auto"))
    o.routing = TR_ROUTE_ECMP;
  else {
    fl_param_error(api, ctx, "routing", "expected auto, lft or ecmp");
    return -1;
  }
  if (o.routing == TR_ROUTE_LFT && !api->lft_count(f)) {
    api->fail(ctx, "routing=lft needs LFTs (load opensm-lfts.dump, ibroute or "
                   "dump_fts output)");
    return -1;
  }
  char key[512];
  snprintf(key, sizeof key, "%u|%u|%.17g|%llu|%u|%u|%d|%s", o.routing, o.count,
           o.ci, (unsigned long long)o.seed, o.shift, o.top, o.all_loads,
           patterns);
  if (st->have_tr && fl_fabric_key_eq(st->key, fk) && !strcmp(key, st->tr_key))
    return 0;
  const fl_view *v = eb_view(api, ctx, st, o.routing == TR_ROUTE_ECMP ? 2 : 0);
  if (!v)
    return -1;
  st->have_tr = 0;
  for (uint32_t k = 0; k < st->n_tr; k++)
    tr_result_free(&st->tr[k]);
  st->n_tr = 0;
  /* the names first, so that every rank refuses an unknown one alike */
  char names[MAX_PATTERNS][32];
  uint32_t n_names = 0;
  const char *p = patterns;
  while (*p) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n && n < sizeof names[0] && n_names < MAX_PATTERNS) {
      memcpy(names[n_names], p, n);
      names[n_names][n] = 0;
      if (!tr_pattern_known(names[n_names])) {
        char msg[128];
        snprintf(msg, sizeof msg,
                 "unknown pattern '%s' (all-to-all, bisect, permutation, "
                 "shift, ring)",
                 names[n_names]);
        fl_param_error(api, ctx, "patterns", msg);
        return -1;
      }
      n_names++;
    }
    p += n + (e ? 1 : 0);
  }
  /* mpirun: a random kind's instances over all ranks (tr_eval, a
   * collective: every rank holds its result), then the other patterns k
   * on rank k mod N, shared by tr_share() */
  const fl_dist *d = FL_API_HAS(api, dist) && api->dist ? api->dist(ctx) : 0;
  if (d && (!d->allgather || !d->allreduce_min_u32 || d->rank >= d->size))
    d = NULL;
  uint32_t rank = d ? d->rank : 0, size = d ? d->size : 1;
  o.dist = d;
  int failed = 0;
  for (uint32_t k = 0; k < n_names; k++)
    memset(&st->tr[k], 0, sizeof st->tr[k]);
  st->n_tr = n_names;
  for (uint32_t k = 0; !failed && k < n_names; k++) {
    if (!tr_pattern_random(names[k]))
      continue;
    int rc = tr_eval(v, names[k], &o, &st->tr[k]);
    if (rc != 0) { /* every rank fails here alike: no tr_share() */
      api->fail(ctx, rc == -3 ? "the traffic model failed on another "
                                "process of the MPI run"
                              : "out of memory");
      for (uint32_t q = 0; q < n_names; q++)
        tr_result_free(&st->tr[q]);
      st->n_tr = 0;
      return -1;
    }
  }
  for (uint32_t k = 0; k < n_names; k++) {
    if (failed || tr_pattern_random(names[k]) || k % size != rank)
      continue;
    if (tr_eval(v, names[k], &o, &st->tr[k]) != 0) {
      api->fail(ctx, "out of memory");
      failed = 1;
    }
  }
  if (d) {
    int rc = tr_share(d, st, names, v->poff[v->ns], o.all_loads, failed);
    if (rc != 0 && !failed)
      api->fail(ctx, rc > 0 ? "the traffic model failed on another process "
                              "of the MPI run"
                            : "gathering the traffic results of the MPI "
                              "ranks failed");
    failed |= rc != 0;
  }
  if (failed) {
    for (uint32_t k = 0; k < st->n_tr; k++)
      tr_result_free(&st->tr[k]);
    st->n_tr = 0;
    return -1;
  }
  snprintf(st->tr_key, sizeof st->tr_key, "%s", key);
  st->have_tr = 1;
  return 0;
}

static const char *route_word(const fl_host_api *api, const fl_fabric *f,
                              eb_state *st) {
  (void)st;
  return api->lft_count(f) ? "LFT" : "ECMP";
}

void eb_tr_evidence(const fl_view *v, const tr_result *r, const char *routing,
                    jbuf *ev) {
  jb_key_str(ev, "pattern", r->name);
  jb_key_str(ev, "routing", routing);
  jb_key_int(ev, "patterns", r->patterns);
  jb_key_int(ev, "flows_per_pattern", (int64_t)r->flows);
  jb_key_double(ev, "ebb", r->ebb_mean);
  jb_key_double(ev, "ebb_ci99", r->ebb_ci99);
  jb_key_double(ev, "ebb_min", r->ebb_min);
  jb_key_double(ev, "ebb_max", r->ebb_max);
  if (r->worst_flow >= 0)
    jb_key_double(ev, "worst_flow_bandwidth", r->worst_flow);
  jb_key_double(ev, "max_link_load", r->max_load);
  jb_key_double(ev, "mean_link_load", r->mean_load);
  jb_key_int(ev, "unrouted_flows", (int64_t)r->unrouted);
  jb_key(ev, "hottest_links");
  jb_arr_open(ev);
  for (uint32_t k = 0; k < r->n_hot; k++) {
    uint32_t i = r->hot_slot[k], s = 0;
    while (v->poff[s + 1] <= i)
      s++;
    jb_obj_open(ev);
    jb_key_str(ev, "from", eb_nm(v, s));
    jb_key_int(ev, "from_port", v->pnum[i]);
    jb_key_str(ev, "to", eb_nm(v, v->pnb[i]));
    jb_key_int(ev, "to_port", v->pnbport[i]);
    jb_key_double(ev, "mean_load", r->hot_load[k]);
    jb_key_double(ev, "max_load", r->hot_max[k]);
    jb_obj_close(ev);
  }
  jb_arr_close(ev);
  if (!r->loads)
    return;
  /* link-loads=true: every directed switch cable, [from, port, mean load] */
  jb_key(ev, "link_loads");
  jb_arr_open(ev);
  for (uint32_t s = 0; s < v->ns; s++)
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
      jb_arr_open(ev);
      jb_str_item(ev, eb_nm(v, s));
      jb_int_item(ev, v->pnum[i]);
      jb_double_item(ev, r->loads[i]);
      jb_arr_close(ev);
    }
  jb_arr_close(ev);
}

int eb_check_link_load(const fl_host_api *api, fl_ctx *ctx, void *data) {
  eb_state *st = data;
  if (eb_traffic(api, ctx, st, 0) != 0)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  double min_ebb = eb_pdbl(api, ctx, "min-ebb", 0.0);
  const fl_view *v = &st->v;
  const char *rw = strncmp(st->tr_key, "1|", 2) == 0 ? "LFT" : "ECMP";
  (void)route_word(api, f, st);
  for (uint32_t k = 0; k < st->n_tr; k++) {
    const tr_result *r = &st->tr[k];
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    eb_tr_evidence(v, r, rw, &ev);
    jb_key_double(&ev, "min_ebb", min_ebb);
    jb_obj_close(&ev);
    char hot[256] = "no switch-to-switch traffic";
    fl_id nodes[2];
    fl_port_ref ports[2];
    uint32_t nn = 0;
    if (r->n_hot) {
      uint32_t i = r->hot_slot[0], s = 0;
      while (v->poff[s + 1] <= i)
        s++;
      snprintf(hot, sizeof hot,
               "hottest link \"%s\":%u -> \"%s\":%u, mean load %.3g",
               eb_nm(v, s), v->pnum[i], eb_nm(v, v->pnb[i]), v->pnbport[i],
               r->hot_load[0]);
      nodes[0] = v->sw_node[s], nodes[1] = v->sw_node[v->pnb[i]];
      ports[0].node = nodes[0], ports[0].port = v->pnum[i];
      ports[1].node = nodes[1], ports[1].port = v->pnbport[i];
      nn = 2;
    }
    char msg[1024];
    if (!strcmp(r->name, "all-to-all"))
      snprintf(msg, sizeof msg,
               "all-to-all over %u endpoints (%s routing): bandwidth %.4g of "
               "a non-blocking fabric; max link load %.4g flows; %s",
               v->ne, rw, r->ebb_mean, r->max_load, hot);
    else
      snprintf(msg, sizeof msg,
               "%s (%u pattern(s) of %llu flows, %s routing): effective "
               "bisection bandwidth %.4g (99%% CI +/- %.2g, min %.4g, max "
               "%.4g); max link load %.4g; %s",
               r->name, r->patterns, (unsigned long long)r->flows, rw,
               r->ebb_mean, r->ebb_ci99, r->ebb_min, r->ebb_max, r->max_load,
               hot);
    uint32_t sev = r->ebb_mean < min_ebb ? FL_SEV_WARNING : FL_SEV_INFO;
    int rc = eb_report(api, ctx, sev, msg, nodes, nn, ports, nn, jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}
