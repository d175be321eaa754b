/* SPDX-License-Identifier: MIT */
/*
 * plugins/failure-domains/fd_capacity.c — failure-domains.capacity-loss:
 * removing one domain value cuts a pod's leaf uplinks, uplinks out of the pod
 * or bisection (max flow between its leaf halves) by more than max-loss; only
 * the pods the value touches are re-evaluated, in O(pod).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_rules.h"

/* Bisection of pod @pd: max flow between the two halves of its leaves
 * (halved per plane), over the cables among the pod's switches, with the
 * leaves in @drop left out of both halves and @w's elements removed (NULL:
 * nothing removed). */
static double pod_bisection(const fl_host_api *api, const fd_model *m,
                            const fd_pod *pd, uint32_t *local,
                            const fd_whatif *w, const uint8_t *drop_leaf) {
  const fl_fabric *f = m->fab;
  uint32_t n = pd->n_sw, ne = 0, cap_e = 0;
  for (uint32_t i = 0; i < n; i++)
    local[pd->sw[i]] = i;
  for (uint32_t i = 0; i < n; i++)
    cap_e += m->off[pd->sw[i] + 1] - m->off[pd->sw[i]];
  uint32_t *eu = malloc(((size_t)cap_e + 1) * sizeof *eu);
  uint32_t *ev = malloc(((size_t)cap_e + 1) * sizeof *ev);
  double *cap = malloc(((size_t)cap_e + 1) * sizeof *cap);
  uint8_t *off = calloc((size_t)cap_e + 1, 1);
  uint8_t *src = calloc((size_t)n + 1, 1), *dst = calloc((size_t)n + 1, 1);
  double flow = -1;
  if (eu && ev && cap && off && src && dst) {
    for (uint32_t i = 0; i < n; i++) {
      fl_id v = pd->sw[i];
      for (uint32_t k = m->off[v]; k < m->off[v + 1]; k++) {
        fl_id u = m->nbr[k];
        if (!m->sw[u] || m->pod[u] != m->pod[v] || u < v || (u == v))
          continue;
        fl_id l = m->lnk[k];
        eu[ne] = i;
        ev[ne] = local[u];
        cap[ne] = fd_link_gbps(api, f, l);
        off[ne] = w && (w->link_off[l] || w->node_off[u] || w->node_off[v]);
        ne++;
      }
    }
    /* halves per plane: leaves of each plane in id order, first half -> src */
    for (uint32_t i = 0; i < pd->n_leaves; i++) {
      fl_id lf = pd->leaves[i];
      const char *pl = m->plane[lf];
      uint32_t rank = 0, total = 0;
      for (uint32_t j = 0; j < pd->n_leaves; j++) {
        const char *pj = m->plane[pd->leaves[j]];
        if (pl == pj || (pl && pj && strcmp(pl, pj) == 0)) {
          total++;
          rank += j < i;
        }
      }
      if ((drop_leaf && drop_leaf[lf]) || (w && w->node_off[lf]))
        continue;
      if (rank < (total + 1) / 2)
        src[local[lf]] = 1;
      else
        dst[local[lf]] = 1;
    }
    flow = fd_maxflow(n, ne, eu, ev, cap, off, src, dst);
  }
  free(eu), free(ev), free(cap), free(off), free(src), free(dst);
  return flow;
}

typedef struct pod_cap {
  double leaf_base, leaf_lost; /* aggregate over surviving leaves */
  double worst_frac;           /* worst single surviving leaf */
  fl_id worst_leaf;
  double worst_base, worst_left;
  double out_base, out_lost;  /* cables from the pod to switches outside it */
  double bis_base, bis_after; /* bisection; bis_base < 0: not computed */
} pod_cap;

/* Every switch of the pod is off under @w. */
static int pod_gone(const fd_model *m, const fd_pod *pd, const fd_whatif *w) {
  (void)m;
  for (uint32_t i = 0; i < pd->n_sw; i++)
    if (!w->node_off[pd->sw[i]])
      return 0;
  return pd->n_sw > 0;
}

static void pod_capacity(const fl_host_api *api, const fd_model *m,
                         const fd_pod *pd, uint32_t pid, const fd_whatif *w,
                         pod_cap *pc) {
  const fl_fabric *f = m->fab;
  memset(pc, 0, sizeof *pc);
  pc->worst_leaf = FD_NONE;
  pc->bis_base = -1;
  for (uint32_t i = 0; i < pd->n_leaves; i++) {
    fl_id v = pd->leaves[i];
    if (w->node_off[v])
      continue;
    double base = 0, lost = 0;
    for (uint32_t k = m->off[v]; k < m->off[v + 1]; k++) {
      fl_id u = m->nbr[k], l = m->lnk[k];
      if (!fd_is_up(m, v, u))
        continue;
      double g = fd_link_gbps(api, f, l);
      base += g;
      if (w->link_off[l] || w->node_off[u])
        lost += g;
    }
    pc->leaf_base += base;
    pc->leaf_lost += lost;
    if (base > 0 &&
        (pc->worst_leaf == FD_NONE || lost / base > pc->worst_frac)) {
      pc->worst_frac = lost / base;
      pc->worst_leaf = v;
      pc->worst_base = base;
      pc->worst_left = base - lost;
    }
  }
  for (uint32_t i = 0; i < pd->n_sw; i++) {
    fl_id v = pd->sw[i];
    for (uint32_t k = m->off[v]; k < m->off[v + 1]; k++) {
      fl_id u = m->nbr[k], l = m->lnk[k];
      if (!m->sw[u] || m->pod[u] == pid || !fd_is_up(m, v, u))
        continue;
      double g = fd_link_gbps(api, f, l);
      pc->out_base += g;
      if (w->link_off[l] || w->node_off[u] || w->node_off[v])
        pc->out_lost += g;
    }
  }
}

/* The root of a loss of uplink capacity out of pod @pid under @w (only
 * that measure exceeds the policy): the one switch of the pod short of
 * uplinks (fd_pod_short_switch), when the loss would be within @max_loss
 * with its missing capacity restored (lost too when the switch itself is
 * lost). Sets @root (a consequence rooted in that switch) and returns 1;
 * 0 when the shortfall does not explain the loss whole. */
static int cap_root(const fl_host_api *api, const fd_model *m, uint32_t pid,
                    const fd_whatif *w, const pod_cap *pc, double max_loss,
                    fl_root *root) {
  double deficit;
  fl_id s = fd_pod_short_switch(api, m, pid, &deficit);
  if (s == FD_NONE || deficit <= 0)
    return 0;
  double base = pc->out_base + deficit;
  double lost = pc->out_lost + (w->node_off[s] ? deficit : 0);
  if (base <= 0 || 100 * lost / base > max_loss + 1e-9)
    return 0;
  *root = (fl_root){FL_ROOT_NODE, FL_ROOT_CONSEQUENCE, s, NULL};
  return 1;
}

static int check_capacity(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  fd_state *st = pd;
  fl_split sp; /* mpirun: the domain values split over the ranks */
  fl_split_init(&sp, api, ctx);
  fd_model *m = fd_get_model(
      api, ctx, st, fd_param_str(api, ctx, "domains", FD_DEFAULT_DOMAINS));
  if (!m)
    return fl_split_finish(&sp, api, ctx, 1);
  double max_loss = 50;
  if (api->param_double(ctx, "max-loss", &max_loss) != FL_OK)
    max_loss = 50;
  int bisect = fd_param_bool(api, ctx, "bisection", 1);
  const fl_fabric *f = m->fab;
  fd_whatif w;
  memset(&w, 0, sizeof w);
  uint8_t *touched = calloc((size_t)m->n_pods + 1, 1);
  uint8_t *inner = calloc((size_t)m->n_pods + 1, 1);
  uint32_t *tlist = malloc(((size_t)m->n_pods + 1) * sizeof *tlist);
  uint32_t *local = malloc(((size_t)m->nn + 1) * sizeof *local);
  double *bis0 = malloc(((size_t)m->n_pods + 1) * sizeof *bis0);
  int rc = 0;
  if (!touched || !inner || !tlist || !local || !bis0 ||
      fd_wi_init(m, &w) != 0) {
    api->fail(ctx, "out of memory");
    rc = 1;
  }
  for (uint32_t p = 0; !rc && p < m->n_pods; p++)
    bis0[p] = -2;              /* not yet computed */
  uint32_t split_vi = FD_NONE; /* the value fd_value_splits() last judged */
  int split = 0;
  for (uint32_t vi = 0; !rc && vi < m->n_vals; vi++) {
    if (!fl_split_mine(&sp, vi))
      continue;
    const fd_value *dv = &m->vals[vi];
    fd_wi_set(m, &w, dv, 1);
    uint32_t nt = 0;
#define TOUCH(P, INNER)                                                        \
  do {                                                                         \
    uint32_t p_ = (P);                                                         \
    if (p_ != FD_NONE) {                                                       \
      if (!touched[p_])                                                        \
        touched[p_] = 1, tlist[nt++] = p_;                                     \
      if (INNER)                                                               \
        inner[p_] = 1;                                                         \
    }                                                                          \
  } while (0)
    for (uint32_t i = 0; i < dv->n_nodes; i++) {
      fl_id v = m->dom_nodes[dv->node_off + i];
      if (!m->sw[v])
        continue;
      TOUCH(m->pod[v], 1);
      for (uint32_t k = m->off[v]; k < m->off[v + 1]; k++)
        if (m->sw[m->nbr[k]])
          TOUCH(m->pod[m->nbr[k]], 0);
    }
    for (uint32_t i = 0; i < dv->n_links; i++) {
      fl_id l = m->dom_links[dv->link_off + i];
      fl_id a = api->port_node(f, api->link_port(f, l, 0));
      fl_id b = api->port_node(f, api->link_port(f, l, 1));
      if (!m->sw[a] || !m->sw[b])
        continue;
      TOUCH(m->pod[a], m->pod[a] == m->pod[b]);
      TOUCH(m->pod[b], m->pod[a] == m->pod[b]);
    }
#undef TOUCH
    /* pods in index order: deterministic output */
    for (uint32_t i = 1; i < nt; i++)
      for (uint32_t j = i; j > 0 && tlist[j - 1] > tlist[j]; j--) {
        uint32_t t = tlist[j];
        tlist[j] = tlist[j - 1];
        tlist[j - 1] = t;
      }
    for (uint32_t t = 0; !rc && t < nt; t++) {
      uint32_t pid = tlist[t];
      const fd_pod *pod = &m->pods[pid];
      pod_cap pc;
      if (pod_gone(m, pod, &w))
        continue; /* the value takes the whole pod, hosts and all: that is
                   * domain-partition's or the design's business, not a
                   * loss of uplink capacity */
      pod_capacity(api, m, pod, pid, &w, &pc);
      int multi = pod->n_planes >= 2;
      double leaf_frac =
          multi ? (pc.leaf_base > 0 ? pc.leaf_lost / pc.leaf_base : 0)
                : pc.worst_frac;
      double out_frac = pc.out_base > 0 ? pc.out_lost / pc.out_base : 0;
      double bis_frac = 0, bis_b = -1, bis_a = -1;
      if (bisect && inner[pid] && pod->n_leaves >= 2) {
        uint8_t lost_leaf = 0;
        for (uint32_t i = 0; i < pod->n_leaves; i++)
          lost_leaf |= w.node_off[pod->leaves[i]];
        if (bis0[pid] == -2)
          bis0[pid] = pod_bisection(api, m, pod, local, NULL, NULL);
        bis_b = lost_leaf ? pod_bisection(api, m, pod, local, NULL, w.node_off)
                          : bis0[pid];
        bis_a = pod_bisection(api, m, pod, local, &w, NULL);
        if (bis_b < -0.5 || bis_a < -0.5) {
          api->fail(ctx, "out of memory");
          rc = 1;
          break;
        }
        bis_frac = bis_b > 0 ? 1 - bis_a / bis_b : 0;
      }
      double worst = leaf_frac;
      const char *what =
          multi ? "leaf uplink capacity (all planes)" : "leaf uplink capacity";
      int out_worst = 0;
      if (out_frac > worst)
        worst = out_frac, what = "uplink capacity out of the pod",
        out_worst = 1;
      if (bis_frac > worst)
        worst = bis_frac, what = "bisection bandwidth", out_worst = 0;
      if (worst * 100 <= max_loss + 1e-9)
        continue;
      /* a value that splits the hosts is domain-partition's finding: the
       * capacity it costs is a consequence of that cause, not another */
      if (fl_fabric_key_eq(st->part_ran, m->key) && split_vi != vi) {
        split_vi = vi;
        split = fd_value_splits(api, m, dv);
        if (split < 0) {
          api->fail(ctx, "out of memory");
          rc = 1;
          break;
        }
      }
      if (fl_fabric_key_eq(st->part_ran, m->key) && split)
        continue;
      fl_id ids[17];
      uint32_t n_ids = 0;
      if (pc.worst_leaf != FD_NONE && !multi &&
          pc.worst_frac * 100 > max_loss + 1e-9)
        ids[n_ids++] = pc.worst_leaf;
      for (uint32_t i = 0; i < dv->n_nodes && n_ids < 17; i++)
        if (m->sw[m->dom_nodes[dv->node_off + i]])
          ids[n_ids++] = m->dom_nodes[dv->node_off + i];
      jbuf ev;
      jb_init(&ev);
      jb_obj_open(&ev);
      jb_key_str(&ev, "domain", dv->key);
      jb_key_str(&ev, "value", dv->value);
      jb_key_str(&ev, "pod", pod->name);
      jb_key_bool(&ev, "pod_derived", pod->derived);
      jb_key_int(&ev, "planes", pod->n_planes);
      jb_key_double(&ev, "max_loss_percent", max_loss);
      jb_key_double(&ev, "leaf_uplink_loss_percent", 100 * leaf_frac);
      if (pc.worst_leaf != FD_NONE && !multi) {
        jb_key_str(&ev, "worst_leaf", api->node_name(f, pc.worst_leaf));
        jb_key_double(&ev, "worst_leaf_gbps_before", pc.worst_base);
        jb_key_double(&ev, "worst_leaf_gbps_after", pc.worst_left);
      }
      jb_key_double(&ev, "leaf_uplink_gbps_before", pc.leaf_base);
      jb_key_double(&ev, "leaf_uplink_gbps_after", pc.leaf_base - pc.leaf_lost);
      if (pc.out_base > 0) {
        jb_key_double(&ev, "core_uplink_loss_percent", 100 * out_frac);
        jb_key_double(&ev, "core_uplink_gbps_before", pc.out_base);
        jb_key_double(&ev, "core_uplink_gbps_after", pc.out_base - pc.out_lost);
      }
      if (bis_b >= 0) {
        jb_key_double(&ev, "bisection_loss_percent", 100 * bis_frac);
        jb_key_double(&ev, "bisection_gbps_before", bis_b);
        jb_key_double(&ev, "bisection_gbps_after", bis_a);
      }
      fl_root root, *rootp = NULL;
      if (out_worst && cap_root(api, m, pid, &w, &pc, max_loss, &root) != 0) {
        rootp = &root;
        jb_key_str(&ev, "explained_by", api->node_name(f, root.id));
      }
      jb_obj_close(&ev);
      char msg[1024], detail[300] = "", pct[32];
      if (pc.worst_leaf != FD_NONE && !multi && what[0] == 'l')
        snprintf(
            detail, sizeof detail, " (leaf \"%s\": %.6g of %.6g Gb/s left)",
            api->node_name(f, pc.worst_leaf), pc.worst_left, pc.worst_base);
      char pl[300];
      fd_pod_label(pod, pl, sizeof pl);
      fd_pct_over(pct, sizeof pct, 100 * worst, max_loss);
      snprintf(msg, sizeof msg,
               "losing %s=%s cuts the %s of %s by %s%%%s; the policy "
               "allows at most %.6g%%",
               dv->key, dv->value, what, pl, pct, detail, max_loss);
      rc = fd_report_item(&sp, api, ctx, vi, msg, ids, n_ids, NULL, 0,
                          jb_str(&ev), rootp);
      jb_free(&ev);
    }
    for (uint32_t t = 0; t < nt; t++)
      touched[tlist[t]] = inner[tlist[t]] = 0;
    fd_wi_set(m, &w, dv, 0);
  }
  fd_wi_free(&w);
  free(touched), free(inner), free(tlist), free(local), free(bis0);
  return fl_split_finish(&sp, api, ctx, rc);
}

static const fl_param_def P_MAXLOSS = {
    sizeof(fl_param_def),
    FL_PARAM_DOUBLE,
    "max-loss",
    "50",
    "%",
    "largest allowed cut of a pod's leaf uplink, core uplink or bisection "
    "capacity when one domain value fails",
    "0",
    "100"};
static const fl_param_def P_BISECT = {
    sizeof(fl_param_def),
    FL_PARAM_BOOL,
    "bisection",
    "1",
    NULL,
    "also compute each touched pod's bisection (max flow between its leaf "
    "halves)",
    NULL,
    NULL};
static const fl_param_def *const PARAMS_CAP[] = {&FD_P_DOMAINS, &P_MAXLOSS,
                                                 &P_BISECT};

const fl_rule_def FD_R_CAP = {
    sizeof(fl_rule_def),
    FL_SEV_WARNING,
    "failure-domains.capacity-loss",
    "losing one domain value cuts a pod's uplink or bisection capacity by "
    "more than max-loss",
    "For each domain value and each pod it touches: the worst surviving "
    "leaf's uplink capacity (all leaves together in multi-plane pods), the "
    "pod's uplinks to the core and its bisection (max flow between its leaf "
    "halves) must not drop by more than max-loss percent.",
    1,
    FL_NEEDS_ALL_PLANES,
    PARAMS_CAP,
    sizeof PARAMS_CAP / sizeof *PARAMS_CAP,
    check_capacity};
