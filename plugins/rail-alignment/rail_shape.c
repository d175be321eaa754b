/* SPDX-License-Identifier: MIT */
/*
 * plugins/rail-alignment/rail_shape.c — the shape of hosts and SUs:
 * rail-alignment.incomplete-host (a host missing NICs on some rails) and
 * rail-alignment.su-shape (an SU missing rail leaves or with a rail
 * count unlike the others).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "rail.h"
#include "rail_rules.h"

/* ---- rail-alignment.incomplete-host
 * --------------------------------------------------- */

int check_incomplete(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = rl_get_analysis(api, ctx, data);
  if (!a)
    return 1;
  uint32_t *cnt = calloc(a->n_labels + 1, sizeof *cnt);
  uint8_t *su_rail = calloc((size_t)(a->n_sus + 1) * (a->n_labels + 1), 1);
  fl_id *nodes = calloc(a->n_nics + 1, sizeof *nodes);
  if (!cnt || !su_rail || !nodes) {
    free(cnt), free(su_rail), free(nodes);
    api->fail(ctx, "out of memory");
    return 1;
  }
  /* rails present in each SU (by its leaves) */
  for (uint32_t L = 0; L < a->n_leaves; L++)
    if (a->leaves[L].rail >= 0)
      su_rail[a->leaves[L].su * (a->n_labels + 1) +
              (uint32_t)a->leaves[L].rail] = 1;
  int rc = 0;
  for (uint32_t h = 0; h < a->n_hosts && !rc; h++) {
    if (a->host_partial[h])
      continue; /* rail-alignment.unresolved lists its NICs */
    memset(cnt, 0, (a->n_labels + 1) * sizeof *cnt);
    uint32_t nn = 0, compute = 0;
    for (uint32_t k = a->host_off[h]; k < a->host_off[h + 1]; k++) {
      const nic *x = &a->nics[a->host_idx[k]];
      nodes[nn++] = x->node;
      if (x->rail >= 0)
        cnt[x->rail]++;
      compute += x->rail != NON_COMPUTE;
    }
    if (!compute)
      continue; /* not a compute host: rails do not apply */
    char missing[256] = "", dup[256] = "";
    size_t om = 0, od = 0;
    const uint8_t *want = &su_rail[a->host_su[h] * (a->n_labels + 1)];
    for (uint32_t r = 0; r < a->n_labels; r++) {
      if (want[r] && cnt[r] == 0 && om < sizeof missing) {
        const char *dev = NULL; /* the device the profile puts on this rail */
        for (uint32_t k = 0; k < a->map.n && !dev; k++)
          if (strcmp(a->map.e[k].rail, a->labels[r]) == 0)
            dev = a->map.e[k].device;
        om += (size_t)snprintf(missing + om, sizeof missing - om, "%s%s%s%s%s",
                               om ? ", " : "", a->labels[r], dev ? " (" : "",
                               dev ? dev : "", dev ? ")" : "");
      }
      if (cnt[r] > 1 && od < sizeof dup)
        od += (size_t)snprintf(dup + od, sizeof dup - od, "%s%s",
                               od ? ", " : "", a->labels[r]);
    }
    if (!om && !od)
      continue;
    char msg[900];
    snprintf(msg, sizeof msg, "host \"%s\"%s%s%s%s%s", a->hosts[h],
             om ? " has no NIC on rail(s) " : "", missing, om && od ? ";" : "",
             od ? " has two or more NICs on rail(s) " : "", dup);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "host", a->hosts[h]);
    jb_key_int(&ev, "su", a->host_su[h] + 1);
    jb_key_str(&ev, "missing_rails", missing);
    jb_key_str(&ev, "duplicate_rails", dup);
    jb_key_int(&ev, "nics", nn);
    jb_obj_close(&ev);
    /* hosts of one SU missing the same rails (a rail leaf's cables not
     * yet run) are one cause */
    char cause[600], cmsg[700];
    snprintf(cause, sizeof cause, "su%u|%s|%s", a->host_su[h] + 1, missing,
             dup);
    snprintf(cmsg, sizeof cmsg, "{count} hosts of SU %u%s%s%s%s%s",
             a->host_su[h] + 1, om ? " have no NIC on rail(s) " : "", missing,
             om && od ? ";" : "",
             od ? " have two or more NICs on rail(s) " : "", dup);
    rc = fl_emit_cause(api, ctx, 0, msg, nodes, nn, NULL, 0, NULL, 0,
                       jb_str(&ev), cause, cmsg);
    jb_free(&ev);
  }
  free(cnt), free(su_rail), free(nodes);
  return rc;
}

/* ---- rail-alignment.su-shape
 * ------------------------------------------------------------ */

/* Rail leaves per SU from which the SU-shape rule takes a fabric for a GPU
 * compute fabric (one NIC per GPU: 4 or 8 rails); see check_su_shape(). */
#define MIN_COMPUTE_RAILS 4

/* Does some leaf declare its rail (a `rail` attribute)? */
static int declared_rails(const fl_host_api *api, const fl_fabric *f,
                          const analysis *a) {
  for (uint32_t L = 0; L < a->n_leaves; L++)
    if (api->attr(f, FL_ENT_NODE, a->leaves[L].node, "rail"))
      return 1;
  return 0;
}

/* 1 when SU @s has a leaf of rail @rail. */
static int su_has_rail(const analysis *a, uint32_t s, int32_t rail) {
  for (uint32_t M = 0; M < a->n_leaves; M++)
    if (a->leaves[M].su == s && a->leaves[M].rail == rail)
      return 1;
  return 0;
}

/* " (none for rail X, Y)": the rails SU @ref has a leaf for and SU @s has
 * not, into @out; "" when it lacks none, or when one of @s's rails is not
 * among @ref's (SUs whose NICs are named apart, mlx5_N in one and HCA-N
 * in another: their rails cannot be matched by name). */
static void missing_rails(const analysis *a, uint32_t s, uint32_t ref,
                          char *out, size_t cap) {
  size_t len = 0;
  int any = 0;
  out[0] = '\0';
  for (uint32_t L = 0; L < a->n_leaves; L++)
    if (a->leaves[L].su == s && a->leaves[L].rail >= 0 &&
        !su_has_rail(a, ref, a->leaves[L].rail))
      return;
  for (uint32_t L = 0; L < a->n_leaves; L++) {
    const leaf *lf = &a->leaves[L];
    if (lf->su != ref || lf->rail < 0)
      continue;
    if (su_has_rail(a, s, lf->rail) || len >= cap)
      continue;
    int w = snprintf(out + len, cap - len, "%s%s",
                     any ? ", " : " (none for rail ", a->labels[lf->rail]);
    len += w > 0 ? (size_t)w : 0;
    any = 1;
  }
  if (any && len + 1 < cap)
    snprintf(out + len, cap - len, ")");
}

int check_su_shape(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = rl_get_analysis(api, ctx, data);
  if (!a)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  if (a->n_sus < 2)
    return 0;
  uint32_t *rails = calloc(a->n_sus, sizeof *rails);
  uint32_t *per_leaf = calloc(a->n_sus, sizeof *per_leaf);
  uint8_t *unknown = calloc(a->n_sus, 1);
  uint8_t *unplaced = calloc(a->n_sus, 1);
  if (!rails || !per_leaf || !unknown || !unplaced) {
    free(rails), free(per_leaf), free(unknown), free(unplaced);
    api->fail(ctx, "out of memory");
    return 1;
  }
  /* an SU with NICs that could not be placed (rail-alignment.unresolved)
   * has an unknown shape: its leaves look emptier than they are */
  for (uint32_t i = 0; i < a->n_nics; i++) {
    int32_t L = a->leaf_of_node[a->nics[i].leaf];
    if (a->nics[i].unresolved && L >= 0)
      unknown[a->leaves[L].su] = 1;
  }
  for (uint32_t L = 0; L < a->n_leaves; L++) {
    const leaf *lf = &a->leaves[L];
    if (lf->rail < 0) {
      unplaced[lf->su] = 1; /* a leaf whose rail is not known */
      continue;
    }
    rails[lf->su]++;
    /* NICs of the leaf's own rail: a cross-rail cable is its own finding
     * (cross-rail) and must not make the SU it lands in look bigger */
    if (lf->majority > per_leaf[lf->su])
      per_leaf[lf->su] = lf->majority;
  }
  /* the reference shape is the most common one among SUs with rail leaves
   * (ties: the larger SU, then the first) */
  uint32_t ref = UINT32_MAX, ref_votes = 0;
  for (uint32_t s = 0; s < a->n_sus; s++) {
    if (!rails[s])
      continue;
    uint32_t votes = 0;
    for (uint32_t t = 0; t < a->n_sus; t++)
      votes += rails[t] == rails[s] && per_leaf[t] == per_leaf[s];
    if (ref == UINT32_MAX || votes > ref_votes ||
        (votes == ref_votes &&
         rails[s] * per_leaf[s] > rails[ref] * per_leaf[ref])) {
      ref = s;
      ref_votes = votes;
    }
  }
  uint32_t with_rails = 0;
  for (uint32_t s = 0; s < a->n_sus; s++)
    with_rails += rails[s] != 0;
  /* no strict majority: the larger SU is the reference, so the finding
   * names the minority by capacity, and says it was a tie */
  int tie = ref_votes * 2 <= with_rails;
  /* "SUs should be identical" is a GPU compute fabric's rule: one NIC per
   * GPU gives SUs of MIN_COMPUTE_RAILS or more rail leaves. With fewer (a
   * storage fabric of dual-homed hosts and appliances, Selene storage) and
   * no leaf declaring a rail, the fabric is not known to be one: info, with
   * the assumption said */
  int compute = ref != UINT32_MAX &&
                (rails[ref] >= MIN_COMPUTE_RAILS || declared_rails(api, f, a));
  char assumed[200] = "";
  if (ref != UINT32_MAX && !compute)
    snprintf(assumed, sizeof assumed,
             " (assumed not a GPU compute fabric: its SUs have %u rail "
             "leaves, fewer than %u, and no leaf declares a rail; judged at "
             "info)",
             rails[ref], MIN_COMPUTE_RAILS);
  char cmsg[456];
  if (ref != UINT32_MAX)
    snprintf(cmsg, sizeof cmsg,
             "{count} of the %u SUs differ from the shape %u of them have "
             "(%u rail leaves, up to %u hosts per leaf%s): scalable units "
             "should be identical%s",
             a->n_sus, ref_votes, rails[ref], per_leaf[ref],
             tie ? "; no shape is a majority, the larger is the reference" : "",
             assumed);
  int rc = 0;
  for (uint32_t s = 0; ref != UINT32_MAX && s < a->n_sus && !rc; s++) {
    /* An SU with NICs that could not be placed: its hosts per leaf are a
     * lower bound (only more than the reference is known to differ), and
     * its rail leaves are known when every leaf of it has a rail (a leaf
     * of unplaced NICs only may be a rail leaf: then nothing is known).
     * A rail leaf absent from a capture (topograph's example: rail 3 of
     * SU 1) must not hide behind the unnamed hosts of the same SU. */
    int hosts_differ = per_leaf[s] != per_leaf[ref] &&
                       (!unknown[s] || per_leaf[s] > per_leaf[ref]);
    int rails_differ = rails[s] != rails[ref] && !(unknown[s] && unplaced[s]);
    if (!rails[s] || (!hosts_differ && !rails_differ))
      continue;
    fl_id node = FL_NONE;
    for (uint32_t L = 0; L < a->n_leaves && node == FL_NONE; L++)
      if (a->leaves[L].su == s && a->leaves[L].rail >= 0)
        node = a->leaves[L].node;
    char missing[160], lower[120] = "", msg[1100];
    missing_rails(a, s, ref, missing, sizeof missing);
    if (unknown[s])
      snprintf(lower, sizeof lower,
               "; some of its NICs could not be placed "
               "(rail-alignment.unresolved), so its hosts per leaf are a "
               "lower bound");
    snprintf(msg, sizeof msg,
             "the SU of leaf \"%s\" has %u rail leaves%s and up to %u hosts "
             "per leaf, while %u of the %u SUs have %u and %u%s%s: scalable "
             "units should be identical%s",
             api->node_name(f, node), rails[s], missing, per_leaf[s], ref_votes,
             a->n_sus, rails[ref], per_leaf[ref],
             tie ? " (no shape is a majority; the larger is taken as the "
                   "plan)"
                 : "",
             lower, assumed);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_int(&ev, "rail_leaves", rails[s]);
    jb_key_int(&ev, "hosts_per_leaf", per_leaf[s]);
    jb_key_int(&ev, "usual_rail_leaves", rails[ref]);
    jb_key_int(&ev, "usual_hosts_per_leaf", per_leaf[ref]);
    jb_key_int(&ev, "sus_with_usual_shape", ref_votes);
    jb_key_bool(&ev, "tie", tie);
    jb_key_bool(&ev, "compute_fabric", compute);
    jb_obj_close(&ev);
    rc = fl_emit_cause(api, ctx, compute ? 0 : FL_SEV_INFO, msg, &node, 1, NULL,
                       0, NULL, 0, jb_str(&ev), "su-shape", cmsg);
    jb_free(&ev);
  }
  free(rails), free(per_leaf), free(unknown), free(unplaced);
  return rc;
}
