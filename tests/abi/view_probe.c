/*
 * tests/abi/view_probe.c — a plugin that reads every figure of the switch
 * view (fabriclint/view.h), its compact form, the per-node helpers and a
 * split (fabriclint/dist_split.h), and reports them as four findings.
 *
 * It is built three times (tests/CMakeLists.txt): view_probe_1_5.so
 * against the plugin SDK of ABI 1.5 frozen under tests/abi/sdk-1.5/ (as a
 * plugin built before issue 29 was, with the algorithms compiled into it
 * and the 1.5 host table), view_probe_1_6.so against the 1.6 SDK frozen
 * under tests/abi/sdk-1.6/ (the algorithms in the host, through
 * fl_host_api; an fl_view without the 1.7 member threads), and
 * view_probe.so against include/ (1.7, setting the run's thread budget).
 * tests/cli/plugin_abi_view.sh runs them in one host and requires the same
 * findings, with known values: the host must keep loading and running a
 * plugin built before a change, and its algorithms must give what the
 * old inline ones gave.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/dist_split.h"
#include "fabriclint/plugin.h"
#include "fabriclint/view.h"
#if FL_ABI_MINOR >= 7
#include "fabriclint/threads.h"
#endif

/* FNV-1a over @n bytes, folded into *@h */
static void mix(uint64_t *h, const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  for (size_t i = 0; i < n; i++)
    *h = (*h ^ b[i]) * 0x100000001b3ull;
}
#define MIXA(h, a, n) mix(h, (a), (size_t)(n) * sizeof *(a))

static int emit(fl_split *sp, const fl_host_api *api, fl_ctx *ctx,
                uint64_t item, const char *msg) {
  fl_finding f;
  memset(&f, 0, sizeof f);
  f.struct_size = sizeof f;
  f.message = msg;
  return fl_split_emit(sp, api, ctx, item, &f);
}

/* the view as built: every array */
static void built(const fl_view *v, char *msg, size_t size) {
  uint64_t h = 0xcbf29ce484222325ull;
  uint32_t slots = v->poff[v->ns], up = 0;
  MIXA(&h, v->sw_node, v->ns), MIXA(&h, v->node_sw, v->nn);
  MIXA(&h, v->tier, v->ns), MIXA(&h, v->poff, v->ns + 1);
  MIXA(&h, v->psw_end, v->ns), MIXA(&h, v->sw_mixed, v->ns);
  MIXA(&h, v->pnb, slots), MIXA(&h, v->pnode, slots);
  MIXA(&h, v->pnum, slots), MIXA(&h, v->pnbport, slots);
  MIXA(&h, v->plink, slots), MIXA(&h, v->pgbps, slots);
  MIXA(&h, v->ep_node, v->ne), MIXA(&h, v->ep_sw, v->ne);
  MIXA(&h, v->ep_slot, v->ne), MIXA(&h, v->ep_lid, v->ne);
  MIXA(&h, v->ep_lmc, v->ne), MIXA(&h, v->ep_gbps, v->ne);
  MIXA(&h, v->sw_nep, v->ns), MIXA(&h, v->lids, v->nlids);
  MIXA(&h, v->dsw, v->nd), MIXA(&h, v->sw_d, v->ns);
  for (uint32_t s = 0; s < v->ns; s++)
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
      up += fl_view_dir(v, s, i) == 1;
  snprintf(msg, size,
           "view: %u switches, %u destination switches, %u endpoints, %u "
           "slots, %u uplinks, %u LIDs, digest %016" PRIx64,
           v->ns, v->nd, v->ne, slots, up, v->nlids, h);
}

/* the entries as fl_view_dist_at() / fl_view_nmin_at() read them, and the
 * groups when there are classes */
static int entries(const fl_view *v, const char *what, char *msg, size_t size) {
  uint64_t h = 0xcbf29ce484222325ull, dsum = 0, nsum = 0, gsum = 0;
  uint32_t far = 0, mixed = 0, ng = 0;
  for (uint32_t d = 0; d < v->nd; d++)
    for (uint32_t s = 0; s < v->ns; s++) {
      uint32_t x = fl_view_dist_at(v, d, s);
      uint16_t m = fl_view_nmin_at(v, d, s);
      far += x == FL_VIEW_FAR, mixed += (m & FL_VIEW_MIXED) != 0;
      dsum += x == FL_VIEW_FAR ? 0 : x, nsum += m & FL_VIEW_NMASK;
      mix(&h, &x, sizeof x), mix(&h, &m, sizeof m);
    }
  if (v->nc) {
    fl_view_group *g = fl_view_groups_new(v);
    if (!g)
      return -1;
    for (uint32_t s = 0; s < v->ns; s++) {
      uint32_t n = fl_view_groups(v, s, g);
      ng += n;
      for (uint32_t i = 0; i < n; i++) {
        gsum += g[i].first_d + g[i].n_dest + g[i].eps + g[i].nmin;
        mix(&h, &g[i].first_d, sizeof g[i].first_d);
        mix(&h, &g[i].n_dest, sizeof g[i].n_dest);
        mix(&h, &g[i].eps, sizeof g[i].eps);
        mix(&h, &g[i].cls, sizeof g[i].cls);
        mix(&h, &g[i].nmin, sizeof g[i].nmin);
        mix(&h, &g[i].dir, sizeof g[i].dir);
        mix(&h, &g[i].gmin, sizeof g[i].gmin);
        mix(&h, &g[i].gmax, sizeof g[i].gmax);
      }
    }
    free(g);
  }
  snprintf(msg, size,
           "%s: %u cover classes, hops %" PRIu64 ", next hops %" PRIu64
           ", %u unreachable, %u mixed, %u groups (%" PRIu64
           "), digest %016" PRIx64,
           what, v->nc, dsum, nsum, far, mixed, ng, gsum, h);
  return 0;
}

/* the per-node helpers over every node */
static void nodes(const fl_host_api *api, const fl_fabric *f, char *msg,
                  size_t size) {
  uint64_t h = 0xcbf29ce484222325ull;
  uint32_t cabled = 0, sharp = 0, peers = 0;
  double ratios = 0;
  for (fl_id n = 0; n < api->node_count(f); n++) {
    uint32_t port = 0, sw_port = 0;
    if (api->node_kind(f, n) == FL_NODE_SWITCH)
      ratios += fl_view_design_ratio(api, f, n, 1.0);
    sharp += (uint32_t)fl_view_is_sharp_an(api, f, n);
    fl_id s = fl_view_ca_switch(api, f, n, &port, &sw_port);
    if (s != FL_NONE)
      cabled++, mix(&h, &s, sizeof s), mix(&h, &port, sizeof port),
          mix(&h, &sw_port, sizeof sw_port);
    fl_id first = api->node_first_port(f, n);
    for (uint32_t k = 0; k < api->node_port_count(f, n); k++) {
      fl_id l = FL_NONE, q = FL_NONE;
      fl_id m = fl_view_peer(api, f, first + k, &l, &q);
      fl_id w = fl_view_port_switch(api, f, first + k, &l, &q);
      peers += m != FL_NONE;
      mix(&h, &m, sizeof m), mix(&h, &w, sizeof w), mix(&h, &q, sizeof q);
    }
  }
  snprintf(msg, size,
           "nodes: %u cabled to a switch, %u SHARP ANs, %u cabled ports, "
           "design ratios %.4f, digest %016" PRIx64,
           cabled, sharp, peers, ratios, h);
}

static int probe(const fl_host_api *api, fl_ctx *ctx, void *data) {
  (void)data;
  const fl_fabric *f = api->fabric(ctx);
  fl_view a, b;
  char msg[4][512];
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  int rc = fl_view_build(&a, api, f) || fl_view_build(&b, api, f);
#if FL_ABI_MINOR >= 7
  /* ABI 1.7: the run's thread budget, which must not change a figure */
  a.threads = b.threads = fl_run_threads(api, ctx);
#endif
  rc = rc || fl_view_minimal(&a) || fl_view_minimal_compact(&b);
  if (!rc) {
    built(&a, msg[0], sizeof msg[0]);
    rc = entries(&a, "matrix", msg[1], sizeof msg[1]) ||
         entries(&b, "compact", msg[2], sizeof msg[2]) || fl_view_rows(&b);
    nodes(api, f, msg[3], sizeof msg[3]);
  }
  if (!rc && (a.dist == NULL || b.dist == NULL ||
              memcmp(a.dist, b.dist, (size_t)a.nd * a.ns) != 0 ||
              memcmp(a.nmin, b.nmin, (size_t)a.nd * a.ns * 2) != 0))
    snprintf(msg[2] + strlen(msg[2]), 64, " (rows differ)");
  fl_view_free(&a);
  fl_view_free(&b);
  if (rc) {
    api->fail(ctx, "out of memory");
    return 1;
  }
  /* four items, emitted through a split (alone: reported at once) */
  fl_split sp;
  fl_split_init(&sp, api, ctx);
  for (uint64_t i = 0; !rc && i < 4; i++)
    if (fl_split_mine(&sp, i))
      rc = emit(&sp, api, ctx, i, msg[i]);
  return fl_split_finish(&sp, api, ctx, rc);
}

static const fl_rule_def RULE = {sizeof(fl_rule_def),
                                 FL_SEV_INFO,
                                 "tp-view.probe",
                                 "every figure of the switch view",
                                 "Test plugin of tests/abi/view_probe.c.",
                                 1,
                                 FL_NEEDS_ALL_PLANES,
                                 NULL,
                                 0,
                                 probe};
static const fl_rule_def *const RULES[] = {&RULE};
static const fl_plugin_desc DESC = {sizeof(fl_plugin_desc),
                                    FL_ABI_MAJOR,
                                    FL_ABI_MINOR,
                                    1,
                                    "tp-view",
                                    "1.0.0",
                                    "fabriclint tests",
                                    "MIT",
                                    NULL,
                                    NULL,
                                    RULES};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &DESC;
}
