/* SPDX-License-Identifier: MIT */
/*
 * plugins/failure-domains/fd_model.h — the shared model of the
 * failure-domains plugin: adjacency, endpoints, baseline components, pods,
 * planes and domain values, built once per fabric (and per `domains`
 * parameter) and cached in the plugin state that init() returns.
 *
 * Why a model of our own: every rule of this plugin asks "what if these
 * elements were gone?", hundreds or thousands of times on one fabric. The
 * host answers single questions (components_masked, maxflow); the plugin
 * keeps what does not change between questions — who is a host, which
 * component it started in, which pod a leaf serves, which elements carry
 * `pdu=A3` — so each question costs O(V + E) at most, and capacity
 * questions only O(the pod touched).
 */
#ifndef FD_MODEL_H
#define FD_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/dist_split.h"
#include "fabriclint/plugin.h"
#include "fabriclint/view.h" /* fl_view_tier_dir() */
#include "util/natcmp.h"     /* fl_natcmp(): "R2" < "R10" */

#define FD_NONE            UINT32_MAX
#define FD_DEFAULT_DOMAINS "rack,row,hall,pdu,power-feed"

/* One domain value: every node and link whose attribute @key is @value. */
typedef struct fd_value {
  const char *key;
  const char *value;
  uint32_t node_off, n_nodes; /* into model.dom_nodes */
  uint32_t link_off, n_links; /* into model.dom_links */
} fd_value;

/* A pod (attribute pod, else su, else derived from the shape). */
typedef struct fd_pod {
  const char *name;
  int derived;
  fl_id *leaves; /* tier-1 switches of the pod, ascending */
  uint32_t n_leaves;
  fl_id *sw; /* all switches of the pod, ascending */
  uint32_t n_sw;
  uint32_t n_planes; /* distinct `plane` values among its switches (0: none) */
} fd_pod;

typedef struct fd_model {
  const fl_fabric *fab;
  fl_fabric_key key; /* the fabric and pass the model is of */
  uint32_t nn, nl;
  /* adjacency (CSR): neighbours of node v are nbr[off[v] .. off[v+1]) over
   * links lnk[...]; self-loops left out */
  uint32_t *off;
  fl_id *nbr, *lnk;
  uint8_t *xplane; /* per link: 1 when its ends sit in two different planes
                    * (reported by plane-crossing, ignored by connectivity) */
  uint8_t *ep;     /* 1: an endpoint (a CA that is not a SHARP AN) */
  uint8_t *sw;     /* 1: a switch */
  uint32_t *tier;  /* node tier (FL_TIER_UNKNOWN possible) */
  fl_id
      *pendant; /* endpoints: the one node all their cables reach, or FD_NONE */
  uint32_t *comp; /* baseline component of each node */
  uint32_t n_comp;
  uint32_t *comp_ep;  /* endpoints per baseline component */
  const char **host;  /* per node: system, else name (for messages) */
  const char **plane; /* per node: `plane` attribute or NULL */
  uint32_t *pod;      /* per node: pod index or FD_NONE */
  fd_pod *pods;
  uint32_t n_pods;
  int pods_derived;
  uint32_t top_tier; /* highest known switch tier */
  /* domain values for the `domains` key list in dom_keys */
  char dom_keys[256];
  char key_store[256]; /* dom_keys split in place: fd_value.key points here */
  fd_value *vals;
  uint32_t n_vals;
  fl_id *dom_nodes, *dom_links;
} fd_model;

typedef struct fd_state {
  const fl_host_api *api;
  fd_model *m;
  /* the fabric domain-partition last ran on: the rules after it (rules run
   * in descriptor order) leave a value it reports to it, one cause, one
   * finding; run without it, they report the value themselves */
  fl_fabric_key part_ran;
} fd_state;

/* The model of the fabric of @ctx with domain values for @domains
 * (comma-separated keys; NULL: whatever is cached, else the default);
 * cached in @st. NULL after api->fail(). */
fd_model *fd_get_model(const fl_host_api *api, fl_ctx *ctx, fd_state *st,
                       const char *domains);
void fd_model_free(fd_model *m);

/** 1 when domain value @s names redundant feeds, "S1-A+S2-B" (two PSUs on two
 * PDUs, power-feed="A+B"): two or more different '+'-separated parts. Such
 * equipment survives the loss of any one of them, so it is in no single
 * value's what-if and counts as spread. */
int fd_multi_fed(const char *s);

/* Report a finding; api->fail() on error. */
int fd_report(const fl_host_api *api, fl_ctx *ctx, const char *msg,
              const fl_id *nodes, uint32_t n_nodes, const fl_port_ref *ports,
              uint32_t n_ports, const fl_id *links, uint32_t n_links,
              const char *evidence);

/* fd_report() with @key as the finding's identity (fl_finding.key: its
 * fingerprint), for a finding whose nodes change with the fabric around
 * its cause: a single point of failure is the switch or cable, not the
 * list of endpoints it cuts off (adding a host made `compare` call the same
 * single point fixed and new: outside tester, session 11). */
int fd_report_keyed(const fl_host_api *api, fl_ctx *ctx, const char *key,
                    const char *msg, const fl_id *nodes, uint32_t n_nodes,
                    const fl_port_ref *ports, uint32_t n_ports,
                    const fl_id *links, uint32_t n_links, const char *evidence);

/* Report a finding of what-if @item (the index of a domain value) of a
 * split over MPI ranks (fabriclint/dist_split.h): at once when the process
 * runs alone, else recorded for fl_split_finish(); @root (NULL: none) roots
 * it in a cause across rules (fl_finding.root_*). api->fail() on error. */
int fd_report_item(fl_split *sp, const fl_host_api *api, fl_ctx *ctx,
                   uint64_t item, const char *msg, const fl_id *nodes,
                   uint32_t n_nodes, const fl_id *links, uint32_t n_links,
                   const char *evidence, const fl_root *root);

/* The speed of link @l in Gb/s for capacity sums; an unknown speed counts
 * 1, so that sums over cables of unknown speed count cables. */
static inline double fd_link_gbps(const fl_host_api *api, const fl_fabric *f,
                                  fl_id l) {
  double g = api->link_gbps(f, l);
  return g > 0 ? g : 1.0;
}

/* 1 when the cable from switch @v to node @u goes up: @u is a switch of a
 * higher tier (fl_view_tier_dir). */
static inline int fd_is_up(const fd_model *m, fl_id v, fl_id u) {
  return m->sw[u] && fl_view_tier_dir(m->tier[v], m->tier[u]) == 1;
}

/* The one switch of pod @pid whose uplinks out of the pod fall short of
 * its tier's typical capacity in the pod (the value a strict majority of
 * the pod's switches of that tier have), with the shortfall in Gb/s in
 * *@deficit; FD_NONE when no switch, or more than one, is short, or a tier
 * has no majority. capacity-loss roots a loss in it (one cause across
 * rules) when the loss would be within policy without the shortfall: the
 * missing cables, which topology.missing-uplinks reports, are the cause.
 * O(cables of the pod's switches + switches log switches). -1 in
 * *@deficit when out of memory. */
fl_id fd_pod_short_switch(const fl_host_api *api, const fd_model *m,
                          uint32_t pid, double *deficit);

/* Write percentage @pct for a message that says it exceeds @limit: with
 * the fewest decimals (0 to 3) that print a value above @limit, so that a
 * loss of 50.4 % against a limit of 50 % never reads "50 %; the policy
 * allows at most 50 %". */
void fd_pct_over(char *buf, size_t size, double pct, double limit);

/* Max flow (Dinic) from @src to @dst over the undirected local graph of
 * @n vertices and @m edges (@eu/@ev ends, @cap capacity each way). Edges
 * with @edge_off[e] set are left out. O(V^2 E) worst case; the pods it
 * runs on have tens of switches. Returns -1 when out of memory. */
double fd_maxflow(uint32_t n, uint32_t m, const uint32_t *eu,
                  const uint32_t *ev, const double *cap,
                  const uint8_t *edge_off, const uint8_t *is_src,
                  const uint8_t *is_dst);

/* domain-partition's test (allow-single-homed on): 1 when removing the
 * nodes and links marked in @node_off / @link_off (cross-plane cables
 * included by the caller) leaves the endpoints that keep a cable of one
 * baseline component in two or more pieces; 0 when not; -1 when out of
 * memory. O(V + E). The other rules ask it so that a value domain-partition
 * reports is reported once (one cause, one finding). */
int fd_splits(const fl_host_api *api, const fd_model *m,
              const uint8_t *node_off, const uint8_t *link_off);
/* fd_splits() for domain value @dv. */
int fd_value_splits(const fl_host_api *api, const fd_model *m,
                    const fd_value *dv);
/* fd_splits() for every node and link whose attribute @key is exactly
 * @value (a multi-fed "A+B" is not @value "A"). */
int fd_attr_splits(const fl_host_api *api, const fd_model *m, const char *key,
                   const char *value);

#endif
