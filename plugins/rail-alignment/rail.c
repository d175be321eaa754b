/*
 * plugins/rail-alignment/rail.c — every GPU NIC on its rail (rule id prefix
 * `rail-alignment`).
 *
 * In rail-optimised AI fabrics (NVIDIA DGX SuperPOD, Spectrum-X, Alibaba
 * HPN) NIC k of every host of a scalable unit (SU) lands on the leaf of rail
 * k, so that the k-th GPUs of all hosts talk through one switch hop. One
 * crossed cable silently halves that host's collective bandwidth.
 *
 * Model used (all through fl_host_api, nothing InfiniBand-specific):
 *  - a NIC is a CA node cabled to a switch (its leaf); its host is the
 *    node's system and its device the node's device, both derived from the
 *    node description or node-name-map entry ("dgx-001 mlx5_3") or given by
 *    a design;
 *  - a NIC's rail is its `rail` attribute (design), else the profile's rail
 *    for its device (profiles/NAME.map, or map=FILE), else, with no profile,
 *    its device name ("mlx5_3"), which is right on any platform whose NIC
 *    names are the same on every host;
 *  - a leaf's rail is its `rail` attribute, else the majority rail of its
 *    NICs (inference; findings say so);
 *  - SUs are the `su` attributes, else the groups of leaves that share hosts.
 * NICs whose host or device cannot be determined, or whose device name does
 * not fit the profile or the naming of the other NICs, are reported as
 * unresolved and never guessed.
 *
 * Files: rail_profiles.c (rail maps), rail_analysis.c (NICs, rails,
 * leaves, SUs), rail_roles.c (roles guessed), gpu.c (GPU affinity rules);
 * this file: the rules and the plugin's descriptor.
 *
 * Sources: DGX H100 User Guide, Table 6 "Network Modules" (profile data);
 * DGX SuperPOD reference architectures (rail-optimised SUs);
 * docs/rules/rail-alignment.md.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fabriclint/roles.h"
#include "fabriclint/view.h"
#include "gpu.h"
#include "names.h"
#include "rail.h"

/* ---- the view the GPU affinity rules read (gpu.h) ---------------------- */

static fl_id rail_leaf(const analysis *a, int32_t r, uint32_t su);

int rail_gpu_view(const fl_host_api *api, fl_ctx *ctx, void *data, rg_view *v) {
  const analysis *a = rl_get_analysis(api, ctx, data);
  memset(v, 0, sizeof *v);
  if (!a)
    return 1;
  v->nic = calloc(a->n_nics ? a->n_nics : 1, sizeof *v->nic);
  if (!v->nic) {
    api->fail(ctx, "out of memory");
    return 1;
  }
  for (uint32_t i = 0; i < a->n_nics; i++) {
    const nic *x = &a->nics[i];
    if (x->host < 0 || x->rail == NO_RAIL || x->leaf == FL_NONE)
      continue;
    const leaf *lf = &a->leaves[a->leaf_of_node[x->leaf]];
    rg_nic *r = &v->nic[v->n_nic++];
    r->node = x->node;
    r->leaf = x->leaf;
    r->leaf_port = x->leaf_port;
    r->host = x->sys;
    r->dev = x->dev;
    r->rail = x->rail >= 0 ? a->labels[x->rail] : NULL;
    r->leaf_rail = lf->rail >= 0 ? a->labels[lf->rail] : NULL;
    r->leaf_inferred = lf->inferred;
    r->fix_leaf = x->rail >= 0 && x->rail != lf->rail
                      ? rail_leaf(a, x->rail, lf->su)
                      : FL_NONE;
  }
  /* compute rails that have a leaf, in natural order (labels are sorted) */
  uint8_t *has = calloc(a->n_labels ? a->n_labels : 1, 1);
  const char **rails = calloc(a->n_labels ? a->n_labels : 1, sizeof *rails);
  if (!has || !rails) {
    free(has);
    free(rails);
    free(v->nic);
    api->fail(ctx, "out of memory");
    return 1;
  }
  for (uint32_t L = 0; L < a->n_leaves; L++)
    if (a->leaves[L].rail >= 0)
      has[a->leaves[L].rail] = 1;
  for (uint32_t r = 0; r < a->n_labels; r++)
    if (has[r])
      rails[v->n_rails++] = a->labels[r];
  free(has);
  v->rails = rails;
  return 0;
}

/* ---- reporting helpers
 * ------------------------------------------------------------ */

static int report(const fl_host_api *api, fl_ctx *ctx, uint32_t sev,
                  const char *msg, const fl_id *nodes, uint32_t nn,
                  const fl_port_ref *ports, uint32_t np, const char *ev) {
  return fl_emit(api, ctx, sev, msg, nodes, nn, ports, np, NULL, 0, ev);
}

static const char *rail_name(const analysis *a, int32_t r) {
  return r >= 0 && (uint32_t)r < a->n_labels ? a->labels[r] : "?";
}

static const leaf *leaf_of(const analysis *a, fl_id s) {
  return &a->leaves[a->leaf_of_node[s]];
}

/* A leaf of rail @r in SU @su (the fix target), or FL_NONE. */
static fl_id rail_leaf(const analysis *a, int32_t r, uint32_t su) {
  for (uint32_t L = 0; L < a->n_leaves; L++)
    if (a->leaves[L].rail == r && a->leaves[L].su == su)
      return a->leaves[L].node;
  return FL_NONE;
}

/* A free port of switch @s (no cable), preferring @want; 0 when none. */
static uint32_t free_port(const fl_host_api *api, const fl_fabric *f, fl_id s,
                          uint32_t want) {
  uint32_t n = api->node_nports(f, s);
  fl_id p = api->find_port(f, s, want);
  if (want && want <= n && (p == FL_NONE || api->port_link_count(f, p) == 0))
    return want;
  for (uint32_t k = 1; k <= n; k++) {
    p = api->find_port(f, s, k);
    if (p == FL_NONE || api->port_link_count(f, p) == 0)
      return k;
  }
  return 0;
}

/* Port @num of @node as users know it: its label (`Ethernet1/3`, `swp3`)
 * when it has one, else `port N`. Returns @buf. */
static const char *port_str(const fl_host_api *api, const fl_fabric *f,
                            fl_id node, uint32_t num, char *buf, size_t size) {
  fl_id p = api->find_port(f, node, num);
  const char *lb = p == FL_NONE ? "" : api->port_label(f, p);
  if (*lb)
    snprintf(buf, size, "%s", lb);
  else
    snprintf(buf, size, "port %u", num);
  return buf;
}

/* The cable of NIC @x (its port to its leaf): the link id, and in *@leaf_end
 * the index (0, 1) of the link's end on the leaf. FL_NONE when the NIC's
 * port has no such cable (never for a NIC: make_nic() found it). */
static fl_id nic_link(const fl_host_api *api, const fl_fabric *f, const nic *x,
                      uint32_t *leaf_end) {
  fl_id p = api->find_port(f, x->node, x->port);
  for (uint32_t k = 0; p != FL_NONE && k < api->port_link_count(f, p); k++) {
    fl_id l = api->port_link(f, p, k);
    for (uint32_t e = 0; e < 2; e++) {
      fl_id q = api->link_port(f, l, e);
      if (api->port_node(f, q) == x->leaf &&
          api->port_num(f, q) == x->leaf_port) {
        *leaf_end = e;
        return l;
      }
    }
  }
  return FL_NONE;
}

/* A change moving the leaf end of NIC @x's cable to @to port @port. */
static fl_fix_change move_leaf_end(const fl_host_api *api, const fl_fabric *f,
                                   const nic *x, fl_id to, uint32_t port) {
  fl_fix_change c;
  memset(&c, 0, sizeof c);
  c.struct_size = sizeof c;
  c.kind = FL_FIX_MOVE_END;
  c.link = nic_link(api, f, x, &c.end);
  c.node = to;
  c.port = port;
  return c;
}

static void basis(const analysis *a, const leaf *lf, jbuf *ev) {
  jb_key_str(ev, "profile", a->map.name);
  jb_key_str(ev, "leaf_rail_from",
             lf->inferred ? "majority of its NICs (inferred)"
                          : "rail attribute");
}

/* Is NIC @i one half of a same-host swap? Returns the partner index or -1. */
static int32_t swap_partner(const analysis *a, uint32_t i) {
  const nic *x = &a->nics[i];
  if (x->rail < 0 || x->host < 0)
    return -1;
  int32_t lr = leaf_of(a, x->leaf)->rail;
  if (lr < 0 || lr == x->rail)
    return -1;
  for (uint32_t k = a->host_off[x->host]; k < a->host_off[x->host + 1]; k++) {
    uint32_t j = a->host_idx[k];
    const nic *y = &a->nics[j];
    if (j == i || y->rail != lr)
      continue;
    const leaf *ly = leaf_of(a, y->leaf);
    if (ly->rail == x->rail && ly->su == leaf_of(a, x->leaf)->su)
      return (int32_t)j;
  }
  return -1;
}

/* ---- rail-alignment.cross-rail
 * -------------------------------------------------- */

/* The NIC of host @host on port @port of leaf @s when it is itself on the
 * wrong rail there (it moves away when the cabling is fixed, so its port is
 * the fix target: three NICs rotated among three rail leaves leave no free
 * port, yet each NIC's own port is freed by the next move), or NULL. */
static const nic *misplaced_at(const analysis *a, fl_id s, uint32_t port,
                               int32_t host) {
  int32_t L = a->leaf_of_node[s];
  for (uint32_t k = a->leaf_off[L]; k < a->leaf_off[L + 1]; k++) {
    const nic *y = &a->nics[a->leaf_idx[k]];
    if (y->leaf_port == port && y->host == host && y->rail >= 0 &&
        y->rail != a->leaves[L].rail)
      return y;
  }
  return NULL;
}

/* The port number NIC @x should have on its rail's leaf: the one its host's
 * correctly cabled NICs use (host N sits on port N of every rail leaf),
 * else the port it has now. */
static uint32_t host_port(const analysis *a, const nic *x, int *from_host) {
  *from_host = 1;
  for (uint32_t k = a->host_off[x->host]; k < a->host_off[x->host + 1]; k++) {
    const nic *y = &a->nics[a->host_idx[k]];
    if (y != x && y->rail >= 0 && y->rail == leaf_of(a, y->leaf)->rail)
      return y->leaf_port;
  }
  *from_host = 0;
  return x->leaf_port;
}

static int cross_compute(const fl_host_api *api, fl_ctx *ctx, const analysis *a,
                         const nic *x) {
  const fl_fabric *f = api->fabric(ctx);
  const leaf *lf = leaf_of(a, x->leaf);
  fl_id target = rail_leaf(a, x->rail, lf->su);
  int from_host = 0;
  uint32_t want = host_port(a, x, &from_host);
  uint32_t tport = target == FL_NONE ? 0 : free_port(api, f, target, want);
  const nic *holder = NULL;
  if (target != FL_NONE && tport != want &&
      (holder = misplaced_at(a, target, want, x->host)) != NULL)
    tport = want;
  char fix[256];
  if (target == FL_NONE)
    snprintf(fix, sizeof fix, "no leaf of rail %s found in this SU",
             rail_name(a, x->rail));
  else if (holder)
    snprintf(fix, sizeof fix,
             "move it to \"%s\" port %u (now holding \"%s\", which is "
             "on the wrong rail too)",
             api->node_name(f, target), tport, holder->name);
  else if (tport) /* no plan is loaded: the port is inferred, say so */
    snprintf(fix, sizeof fix,
             "move it to \"%s\" port %u (free; suggested: %s; `fabriclint "
             "diff` against the plan gives the planned port)",
             api->node_name(f, target), tport,
             tport != want ? "the first free port"
             : from_host   ? "the port the host's other NICs use"
                           : "the same port number");
  else
    snprintf(fix, sizeof fix,
             "move it to \"%s\" (no free port: check that "
             "leaf's cabling)",
             api->node_name(f, target));
  char msg[1400], assumed[400];
  const char *as = rl_naming_assumption(a, x, assumed, sizeof assumed);
  if (x->weak) /* a weak inference never gives a physical fix */
    snprintf(fix, sizeof fix,
             "check the cable against the plan (`fabriclint diff`)");
  snprintf(msg, sizeof msg,
           "\"%s\" (rail %s) is cabled to \"%s\" port %u, which serves rail "
           "%s%s; %s%s%s",
           x->name, rail_name(a, x->rail), api->node_name(f, x->leaf),
           x->leaf_port, rail_name(a, lf->rail),
           lf->inferred ? " (inferred from its other NICs)" : "", fix,
           as ? "; assumed: " : "", as ? as : "");
  fl_id nodes[3] = {x->node, x->leaf, target};
  fl_port_ref ports[2] = {{x->node, x->port}, {x->leaf, x->leaf_port}};
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "host", a->hosts[x->host]);
  jb_key_str(&ev, "nic", x->name);
  jb_key_str(&ev, "nic_rail", rail_name(a, x->rail));
  jb_key_str(&ev, "leaf", api->node_name(f, x->leaf));
  jb_key_int(&ev, "leaf_port", x->leaf_port);
  jb_key_str(&ev, "leaf_rail", rail_name(a, lf->rail));
  if (target != FL_NONE) {
    jb_key_str(&ev, "fix_leaf", api->node_name(f, target));
    if (tport)
      jb_key_int(&ev, "fix_port", tport);
    if (holder)
      jb_key_str(&ev, "fix_port_holds", holder->name);
    jb_key_str(&ev, "fix_port_basis",
               holder          ? "rotation"
               : tport != want ? "first-free"
               : from_host     ? "host-nics"
                               : "same-port");
  }
  basis(a, lf, &ev);
  if (as) {
    jb_key_str(&ev, "nic_rail_from", as);
    jb_key_bool(&ev, "weak", x->weak);
  }
  jb_obj_close(&ev);
  /* the cable is the subject: its <link> locates the finding; with a
   * target port the fix is that cable's leaf end moving there */
  fl_fix_change mv = move_leaf_end(api, f, x, target, tport);
  const fl_fix_change *chg[1] = {&mv};
  char how[1200];
  snprintf(how, sizeof how,
           "move the leaf end of the cable of \"%s\" from \"%s\" port %u to "
           "\"%s\" port %u",
           x->name, api->node_name(f, x->leaf), x->leaf_port,
           target == FL_NONE ? "" : api->node_name(f, target), tport);
  fl_fix fx = {sizeof fx, 1, how, chg};
  int fixable = target != FL_NONE && tport && mv.link != FL_NONE && !x->weak;
  int rc = fl_emit_fix(api, ctx, x->weak ? FL_SEV_WARNING : 0, msg, nodes,
                       target == FL_NONE ? 2 : 3, ports, 2, &mv.link,
                       mv.link != FL_NONE, jb_str(&ev), NULL, NULL,
                       fixable ? &fx : NULL);
  jb_free(&ev);
  return rc;
}

static int cross_noncompute(const fl_host_api *api, fl_ctx *ctx,
                            const analysis *a, const nic *x) {
  const fl_fabric *f = api->fabric(ctx);
  const leaf *lf = leaf_of(a, x->leaf);
  char msg[1024];
  snprintf(msg, sizeof msg,
           "%s NIC \"%s\" is cabled to \"%s\" port %u, a compute leaf of rail "
           "%s; %s NICs belong on their own network",
           x->role, x->name, api->node_name(f, x->leaf), x->leaf_port,
           rail_name(a, lf->rail), x->role);
  fl_id nodes[2] = {x->node, x->leaf};
  fl_port_ref ports[2] = {{x->node, x->port}, {x->leaf, x->leaf_port}};
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "nic", x->name);
  jb_key_str(&ev, "role", x->role);
  jb_key_str(&ev, "leaf", api->node_name(f, x->leaf));
  jb_key_str(&ev, "leaf_rail", rail_name(a, lf->rail));
  basis(a, lf, &ev);
  jb_obj_close(&ev);
  int rc = report(api, ctx, 0, msg, nodes, 2, ports, 2, jb_str(&ev));
  jb_free(&ev);
  return rc;
}

static int check_cross(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = rl_get_analysis(api, ctx, data);
  if (!a)
    return 1;
  for (uint32_t i = 0; i < a->n_nics; i++) {
    const nic *x = &a->nics[i];
    int32_t lr = leaf_of(a, x->leaf)->rail;
    if (lr < 0 || x->host < 0)
      continue;
    int rc = 0;
    /* On InfiniBand the SM (UFM), storage and login hosts must sit on the
     * fabric, often on compute leaves: only a RoCE (Ethernet) fabric has a
     * separate storage/management network for them. */
    if (x->rail == NON_COMPUTE && x->eth)
      rc = cross_noncompute(api, ctx, a, x);
    else if (x->rail >= 0 && x->rail != lr && swap_partner(a, i) < 0)
      rc = cross_compute(api, ctx, a, x);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- rail-alignment.swapped
 * ---------------------------------------------------------- */

static int check_swapped(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = rl_get_analysis(api, ctx, data);
  if (!a)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  for (uint32_t i = 0; i < a->n_nics; i++) {
    int32_t j = swap_partner(a, i);
    if (j < 0 || (uint32_t)j < i)
      continue; /* report each pair once, from its first NIC */
    const nic *x = &a->nics[i], *y = &a->nics[j];
    char msg[2400], xp[64], yp[64], assumed[400];
    /* a rail taken from the cabling of hosts named alike is stated; a weak
     * one gives a warning without the physical swap */
    const char *as = rl_naming_assumption(a, x, assumed, sizeof assumed);
    if (!as)
      as = rl_naming_assumption(a, y, assumed, sizeof assumed);
    int weak = x->weak || y->weak;
    port_str(api, f, x->leaf, x->leaf_port, xp, sizeof xp);
    port_str(api, f, y->leaf, y->leaf_port, yp, sizeof yp);
    snprintf(
        msg, sizeof msg,
        "the cables of \"%s\" (rail %s) and \"%s\" (rail %s) are crossed: "
        "\"%s\" is on \"%s\" %s (rail %s) and \"%s\" on \"%s\" %s (rail "
        "%s); %s: \"%s\" -> \"%s\" %s, \"%s\" -> \"%s\" %s%s%s",
        x->name, rail_name(a, x->rail), y->name, rail_name(a, y->rail), x->name,
        api->node_name(f, x->leaf), xp, rail_name(a, leaf_of(a, x->leaf)->rail),
        y->name, api->node_name(f, y->leaf), yp,
        rail_name(a, leaf_of(a, y->leaf)->rail),
        weak ? "check against the plan whether to swap them" : "swap them",
        x->name, api->node_name(f, y->leaf), yp, y->name,
        api->node_name(f, x->leaf), xp, as ? "; assumed: " : "", as ? as : "");
    /* two ports of one host node (Ethernet) name that node once */
    fl_id nodes[4] = {x->node, y->node, x->leaf, y->leaf};
    uint32_t nn = 4;
    if (x->node == y->node) {
      nodes[1] = x->leaf;
      nodes[2] = y->leaf;
      nn = 3;
    }
    fl_port_ref ports[4] = {{x->node, x->port},
                            {x->leaf, x->leaf_port},
                            {y->node, y->port},
                            {y->leaf, y->leaf_port}};
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "host", a->hosts[x->host]);
    jb_key(&ev, "cables");
    jb_arr_open(&ev);
    const nic *pair[2] = {x, y};
    for (int k = 0; k < 2; k++) {
      jb_obj_open(&ev);
      jb_key_str(&ev, "nic", pair[k]->name);
      jb_key_str(&ev, "nic_rail", rail_name(a, pair[k]->rail));
      jb_key_str(&ev, "now_leaf", api->node_name(f, pair[k]->leaf));
      jb_key_int(&ev, "now_port", pair[k]->leaf_port);
      jb_key_str(&ev, "fix_leaf", api->node_name(f, pair[1 - k]->leaf));
      jb_key_int(&ev, "fix_port", pair[1 - k]->leaf_port);
      jb_obj_close(&ev);
    }
    jb_arr_close(&ev);
    basis(a, leaf_of(a, x->leaf), &ev);
    if (as) {
      jb_key_str(&ev, "nic_rail_from", as);
      jb_key_bool(&ev, "weak", weak);
    }
    jb_obj_close(&ev);
    /* the two cables locate the finding; the fix: their leaf ends trade
     * places */
    fl_fix_change cx = move_leaf_end(api, f, x, y->leaf, y->leaf_port);
    fl_fix_change cy = move_leaf_end(api, f, y, x->leaf, x->leaf_port);
    const fl_fix_change *chg[2] = {&cx, &cy};
    char how[1600];
    snprintf(how, sizeof how,
             "swap the leaf ends of the cables of \"%s\" and \"%s\": "
             "\"%s\" -> \"%s\" %s, \"%s\" -> \"%s\" %s",
             x->name, y->name, x->name, api->node_name(f, y->leaf), yp, y->name,
             api->node_name(f, x->leaf), xp);
    fl_fix fix = {sizeof fix, 2, how, chg};
    fl_id links[2] = {cx.link, cy.link};
    int fixable = cx.link != FL_NONE && cy.link != FL_NONE;
    /* one cause per pair of rails: a block of hosts cabled with the same
     * two rails crossed (a copy-paste in the cabling plan, half an SU) is
     * one finding listing every swap, not one error per host */
    const char *ra = rail_name(a, x->rail), *rb = rail_name(a, y->rail);
    if (strcmp(ra, rb) > 0) {
      const char *t = ra;
      ra = rb;
      rb = t;
    }
    char cause[160], cmsg[320];
    snprintf(cause, sizeof cause, "rails %s|%s%s", ra, rb, weak ? "|weak" : "");
    snprintf(cmsg, sizeof cmsg,
             "{count} hosts have the cables of rails %s and %s crossed "
             "between the two rail leaves; %s each pair",
             ra, rb, weak ? "check against the plan whether to swap" : "swap");
    int rc =
        fl_emit_fix(api, ctx, weak ? FL_SEV_WARNING : 0, msg, nodes, nn, ports,
                    4, fixable ? links : NULL, fixable ? 2 : 0, jb_str(&ev),
                    cause, cmsg, fixable && !weak ? &fix : NULL);
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- rail-alignment.mixed-leaf
 * -------------------------------------------------------- */

static int check_mixed(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = rl_get_analysis(api, ctx, data);
  if (!a)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  for (uint32_t L = 0; L < a->n_leaves; L++) {
    const leaf *lf = &a->leaves[L];
    /* with a clear rail, minority NICs are cross-rail findings instead */
    if (lf->n_rails < 2 || lf->rail >= 0)
      continue;
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "leaf", api->node_name(f, lf->node));
    jb_key_int(&ev, "su", lf->su + 1);
    jb_key(&ev, "nics_by_rail");
    jb_obj_open(&ev);
    for (uint32_t r = 0; r < a->n_labels; r++) {
      uint32_t c = 0;
      for (uint32_t k = a->leaf_off[L]; k < a->leaf_off[L + 1]; k++)
        c += a->nics[a->leaf_idx[k]].rail == (int32_t)r;
      if (c)
        jb_key_int(&ev, a->labels[r], c);
    }
    jb_obj_close(&ev);
    jb_obj_close(&ev);
    char msg[512];
    snprintf(msg, sizeof msg,
             "leaf \"%s\" serves NICs of %u rails with no majority (%u compute "
             "NICs): it has no rail to check them against",
             api->node_name(f, lf->node), lf->n_rails, lf->n_compute);
    int rc = report(api, ctx, 0, msg, &lf->node, 1, NULL, 0, jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- rail-alignment.roles ------------------------------------------------
 */

static int check_roles(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = rl_get_analysis(api, ctx, data);
  if (!a)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  fl_id *nodes = calloc(a->n_nics + 1, sizeof *nodes);
  uint8_t *seen = calloc(a->n_hosts + 1, 1);
  if (!nodes || !seen) {
    free(nodes), free(seen);
    api->fail(ctx, "out of memory");
    return 1;
  }
  char list[512] = "";
  size_t off = 0;
  uint32_t nn = 0, hosts = 0;
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key(&ev, "hosts");
  jb_arr_open(&ev);
  for (uint32_t i = 0; i < a->n_nics; i++) {
    const nic *x = &a->nics[i];
    if (!x->role_guessed)
      continue;
    nodes[nn++] = x->node;
    const char *host = api->node_system(f, x->node);
    if (x->host < 0 || seen[x->host])
      continue;
    seen[x->host] = 1;
    hosts++;
    jb_obj_open(&ev);
    jb_key_str(&ev, "host", host);
    jb_key_str(&ev, "role", x->role);
    jb_obj_close(&ev);
    if (hosts <= 8 && off < sizeof list)
      off += (size_t)snprintf(list + off, sizeof list - off, "%s%s (%s)",
                              off ? ", " : "", host, x->role);
  }
  jb_arr_close(&ev);
  jb_obj_close(&ev);
  int rc = 0;
  if (hosts) {
    char msg[900];
    snprintf(msg, sizeof msg,
             "%u host(s) taken as non-compute by a guess from their name or "
             "NIC count, so rail rules leave them alone: %s%s; give role= "
             "attributes to decide otherwise",
             hosts, list, hosts > 8 ? ", ..." : "");
    rc = report(api, ctx, 0, msg, nodes, nn, NULL, 0, jb_str(&ev));
  }
  jb_free(&ev);
  free(nodes), free(seen);
  return rc;
}

/* ---- rail-alignment.unknown-role ---------------------------------------
 * One warning per unknown role value (neither in compute-roles nor a
 * documented service role, roles.h), naming the value and its hosts: such
 * hosts are judged as compute hosts (the default role), never silently
 * left out. */

/* A NIC with an unknown role, as sorted: by role, then host, then node. */
typedef struct role_nic {
  const char *role;
  int32_t host;
  fl_id node;
} role_nic;

static int cmp_role_nic(const void *x, const void *y) {
  const role_nic *a = x, *b = y;
  int c = strcmp(a->role, b->role);
  if (c)
    return c;
  if (a->host != b->host)
    return a->host < b->host ? -1 : 1;
  return a->node < b->node ? -1 : a->node > b->node;
}

/* The finding for the NICs v[0..n) (one role value, sorted by host). */
static int report_unknown_role(const fl_host_api *api, fl_ctx *ctx,
                               const analysis *a, const role_nic *v, uint32_t n,
                               fl_id *nodes) {
  const char *role = v[0].role;
  char list[512] = "";
  size_t off = 0;
  uint32_t hosts = 0, nn = 0;
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "role", role);
  jb_key(&ev, "hosts");
  jb_arr_open(&ev);
  for (uint32_t k = 0; k < n; k++) {
    if (nn == 0 || nodes[nn - 1] != v[k].node)
      nodes[nn++] = v[k].node;
    if (k > 0 && v[k - 1].host == v[k].host)
      continue;
    hosts++;
    jb_str_item(&ev, a->hosts[v[k].host]);
    if (hosts <= 8 && off < sizeof list)
      off += (size_t)snprintf(list + off, sizeof list - off, "%s%s",
                              off ? ", " : "", a->hosts[v[k].host]);
  }
  jb_arr_close(&ev);
  jb_key_int(&ev, "count", hosts);
  jb_key_str(&ev, "treated_as", "compute");
  jb_obj_close(&ev);
  char msg[1200];
  snprintf(msg, sizeof msg,
           "role \"%s\" of %u host(s) is not a known role: %s%s; they are "
           "judged as compute hosts (the default role). If they are GPU "
           "compute hosts, add \"%s\" to compute-roles; if not, give a "
           "service role (" FL_SERVICE_ROLES ")",
           role, hosts, list, hosts > 8 ? ", ..." : "", role);
  int rc = report(api, ctx, 0, msg, nodes, nn, NULL, 0, jb_str(&ev));
  jb_free(&ev);
  return rc;
}

static int check_unknown_role(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = rl_get_analysis(api, ctx, data);
  if (!a)
    return 1;
  role_nic *v = calloc(a->n_nics + 1, sizeof *v);
  fl_id *nodes = calloc(a->n_nics + 1, sizeof *nodes);
  if (!v || !nodes) {
    free(v), free(nodes);
    api->fail(ctx, "out of memory");
    return 1;
  }
  uint32_t n = 0;
  for (uint32_t i = 0; i < a->n_nics; i++)
    if (a->nics[i].role_unknown && a->nics[i].host >= 0)
      v[n++] = (role_nic){a->nics[i].role, a->nics[i].host, a->nics[i].node};
  if (n > 1)
    qsort(v, n, sizeof *v, cmp_role_nic);
  int rc = 0;
  for (uint32_t s = 0, e; s < n && !rc; s = e) {
    for (e = s + 1; e < n && strcmp(v[e].role, v[s].role) == 0; e++)
      ;
    rc = report_unknown_role(api, ctx, a, v + s, e - s, nodes);
  }
  free(v), free(nodes);
  return rc;
}

/* ---- rail-alignment.incomplete-host
 * --------------------------------------------------- */

static int check_incomplete(const fl_host_api *api, fl_ctx *ctx, void *data) {
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

static int check_su_shape(const fl_host_api *api, fl_ctx *ctx, void *data) {
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

/* ---- rail-alignment.port-order
 * ------------------------------------------------------------ */

static int check_port_order(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = rl_get_analysis(api, ctx, data);
  if (!a)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  for (uint32_t L = 0; L < a->n_leaves; L++) {
    const leaf *lf = &a->leaves[L];
    const nic *prev = NULL, *bad_a = NULL, *bad_b = NULL;
    for (uint32_t k = a->leaf_off[L]; k < a->leaf_off[L + 1] && !bad_a; k++) {
      const nic *x = &a->nics[a->leaf_idx[k]];
      if (x->host < 0)
        continue;
      if (prev && prev->host > x->host) {
        bad_a = prev;
        bad_b = x;
      }
      prev = x;
    }
    if (!bad_a)
      continue;
    char msg[700];
    snprintf(msg, sizeof msg,
             "on leaf \"%s\", host \"%s\" (port %u) comes before host \"%s\" "
             "(port %u): cable hosts in host order",
             api->node_name(f, lf->node), a->hosts[bad_a->host],
             bad_a->leaf_port, a->hosts[bad_b->host], bad_b->leaf_port);
    fl_port_ref ports[2] = {{lf->node, bad_a->leaf_port},
                            {lf->node, bad_b->leaf_port}};
    if (report(api, ctx, 0, msg, &lf->node, 1, ports, 2, NULL))
      return 1;
  }
  return 0;
}

/* ---- rail-alignment.unresolved
 * --------------------------------------------------------------- */

static int check_unresolved(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = rl_get_analysis(api, ctx, data);
  if (!a)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  /* one finding per reason */
  const char *reasons[8];
  uint32_t nr = 0;
  for (uint32_t i = 0; i < a->n_nics; i++) {
    const char *why = a->nics[i].unresolved;
    int seen = 0;
    for (uint32_t k = 0; why && k < nr; k++)
      seen |= reasons[k] == why;
    if (why && !seen && nr < 8)
      reasons[nr++] = why;
  }
  for (uint32_t k = 0; k < nr; k++) {
    fl_id nodes[50];
    uint32_t named = 0, total = 0;
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "reason", reasons[k]);
    jb_key(&ev, "nics");
    jb_arr_open(&ev);
    for (uint32_t i = 0; i < a->n_nics; i++)
      if (a->nics[i].unresolved == reasons[k]) {
        total++;
        if (named < 50) {
          nodes[named++] = a->nics[i].node;
          char guid[24];
          snprintf(guid, sizeof guid, "0x%016llx",
                   (unsigned long long)api->node_guid(f, a->nics[i].node));
          jb_obj_open(&ev);
          jb_key_str(&ev, "nic", a->nics[i].name);
          jb_key_str(&ev, "guid", guid);
          jb_key_str(&ev, "leaf", api->node_name(f, a->nics[i].leaf));
          jb_key_int(&ev, "leaf_port", a->nics[i].leaf_port);
          jb_obj_close(&ev);
        }
      }
    jb_arr_close(&ev);
    jb_key_int(&ev, "count", total);
    if (*a->scheme)
      jb_key_str(&ev, "naming_of_other_nics", a->scheme);
    jb_obj_close(&ev);
    const nic *first = NULL;
    for (uint32_t i = 0; i < a->n_nics && !first; i++)
      if (a->nics[i].unresolved == reasons[k])
        first = &a->nics[i];
    char msg[700];
    snprintf(msg, sizeof msg,
             "%u NIC(s) could not be placed on a rail and were not checked, "
             "e.g. \"%s\" on \"%s\" port %u: %s",
             total, first->name, api->node_name(f, first->leaf),
             first->leaf_port, reasons[k]);
    int rc = report(api, ctx, 0, msg, nodes, named, NULL, 0, jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- descriptors
 * ------------------------------------------------------------------------------
 */

static const fl_param_def P_PROFILE = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "profile",
    "device",
    NULL,
    "NIC-to-rail map: device (rail = device name, the default), generic "
    "(device index = rail: mlx5_N -> N, HCA-N -> N-1), dgx-h100, dgx-h200, "
    "dgx-a100 (shipped maps)",
    NULL,
    NULL};
static const fl_param_def P_MAP = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "map",
    "",
    NULL,
    "a user map file, lines `DEVICE RAIL [ROLE]` (RAIL - = not a compute "
    "NIC); overrides profile",
    NULL,
    NULL};
static const fl_param_def P_INFER = {
    sizeof(fl_param_def),
    FL_PARAM_BOOL,
    "infer",
    "1",
    NULL,
    "infer a leaf's rail from the majority of its NICs when the leaf has no "
    "rail attribute",
    NULL,
    NULL};
static const fl_param_def P_ROLES = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "compute-roles",
    "compute",
    NULL,
    "comma-separated roles whose NICs sit on compute rails (others are left "
    "out of the rail rules; on RoCE they must not land on rail leaves)",
    NULL,
    NULL};
static const fl_param_def P_INFER_ROLES = {
    sizeof(fl_param_def),
    FL_PARAM_BOOL,
    "infer-roles",
    "1",
    NULL,
    "guess the role of hosts with no role attribute from a service word in "
    "the host name (ufm, login, storage, mgmt, ...) or a single NIC where "
    "most hosts have several; the guess is reported by rail-alignment.roles",
    NULL,
    NULL};
static const fl_param_def *const PARAMS[] = {&P_PROFILE, &P_MAP, &P_INFER,
                                             &P_ROLES, &P_INFER_ROLES};

#define RULE(var, sev, on, rid, summ, hlp, fn)                                 \
  static const fl_rule_def var = {                                             \
      sizeof(fl_rule_def), sev, rid, summ, hlp, on, 0, PARAMS, 5, fn}
/* a host's role is the same in every plane: judged once on the whole of a
 * multi-plane fabric (the others run per plane) */
#define RULE_ALL_PLANES(var, sev, on, rid, summ, hlp, fn)                      \
  static const fl_rule_def var = {                                             \
      sizeof(fl_rule_def), sev,    rid, summ, hlp, on,                         \
      FL_NEEDS_ALL_PLANES, PARAMS, 5,   fn}

RULE(R_CROSS, FL_SEV_ERROR, 1, "rail-alignment.cross-rail",
     "a NIC lands on a leaf that serves another rail",
     "NIC k of every host must land on the leaf of rail k. Names the host, "
     "NIC, leaf and port, the rail it belongs to, and a free port of the "
     "right leaf. On RoCE (Ethernet) fabrics, storage/management NICs on a "
     "compute rail leaf are reported here too; on InfiniBand they are not "
     "(the SM and storage must sit on the fabric).",
     check_cross);
RULE(R_SWAP, FL_SEV_ERROR, 1, "rail-alignment.swapped",
     "two NICs of one host are crossed between two rail leaves",
     "One finding per crossed pair, naming both cables and the exact swap "
     "that fixes them.",
     check_swapped);
RULE(R_MIXED, FL_SEV_WARNING, 1, "rail-alignment.mixed-leaf",
     "a leaf serves NICs of several rails with no majority",
     "A rail leaf carries one rail. When no rail has a strict majority of "
     "its NICs, the leaf's rail cannot be established.",
     check_mixed);
RULE(R_INCOMPLETE, FL_SEV_WARNING, 1, "rail-alignment.incomplete-host",
     "a host lacks a NIC on some rail of its SU, or has two on one",
     "Rails of an SU are those of its leaves. A missing NIC is often an "
     "unplugged or dead cable (the HCA is then absent from discovery).",
     check_incomplete);
RULE(R_SU, FL_SEV_WARNING, 1, "rail-alignment.su-shape",
     "scalable units differ in rail count or hosts per rail leaf",
     "SUs of one fabric are built alike; a smaller or larger SU is either a "
     "plan error or missing cabling.",
     check_su_shape);
RULE(R_ORDER, FL_SEV_INFO, 0, "rail-alignment.port-order",
     "within a rail leaf, hosts are not cabled in host order",
     "Cabling hygiene (off by default): host N on port N makes field work "
     "and audits easier.",
     check_port_order);
/* info: unknown is not wrong (a NIC not checked is no fault of the fabric) */
RULE(R_UNRESOLVED, FL_SEV_INFO, 1, "rail-alignment.unresolved",
     "NICs whose host or rail could not be determined",
     "Rather than guess, NICs without a host name (factory-default node "
     "descriptions), outside the profile, or named unlike the other NICs "
     "where the cabling of hosts named alike does not tell their rail are "
     "listed here (at info: unknown is not wrong) and left out of the other "
     "rules. Give a node-name map, a profile or map=FILE.",
     check_unresolved);

RULE(R_ROLES, FL_SEV_INFO, 1, "rail-alignment.roles",
     "hosts whose role was guessed, not given",
     "Hosts with no role attribute are guessed to be non-compute (UFM, "
     "login, storage, management) from a service word in their name or a "
     "single NIC where most hosts have several; rail rules then leave them "
     "alone. One finding lists them; give role= attributes (design XML or an "
     "annotation file) or infer-roles=0 to decide otherwise.",
     check_roles);

RULE_ALL_PLANES(
    R_UNKNOWN_ROLE, FL_SEV_WARNING, 1, "rail-alignment.unknown-role",
    "hosts whose role attribute is not a known role",
    "A role that is neither in compute-roles nor a documented service role "
    "(" FL_SERVICE_ROLES ") is a typo or a site's own word. Such hosts are "
    "judged as compute hosts (the default role), never silently left out of "
    "the rail rules; one finding per value names it and its hosts. Add the "
    "value to compute-roles, or give a service role.",
    check_unknown_role);

RULE(R_GPU_SHARED, FL_SEV_WARNING, 1, "rail-alignment.gpu-shared-nic",
     "two GPUs of a host resolve to one NIC (host profile)",
     "From a host profile (NCCL topology XML, nvidia-smi topo -m): NCCL "
     "pairs each GPU with its nearest NIC; when a PCIe switch holds two "
     "GPUs and one NIC, both GPUs use that NIC and another NIC serves none. "
     "One finding per profile names the GPUs, the NIC, the PCIe switch and "
     "the hosts (with a count).",
     rg_check_shared);
RULE(R_GPU_RAIL, FL_SEV_ERROR, 1, "rail-alignment.gpu-rail",
     "a GPU's NIC lands on another rail's leaf (host profile)",
     "The GPU-level consequence of a crossed or misplaced cable: GPU i's "
     "nearest NIC (host profile) is cabled to a leaf of another rail, is "
     "missing from the fabric, or is not a compute NIC. One finding per "
     "host names each GPU, its NIC, the leaf and port, and the leaf to "
     "cable it to.",
     rg_check_rail);
RULE(R_GPU_ORDER, FL_SEV_WARNING, 1, "rail-alignment.gpu-order",
     "GPU i is not paired with the NIC of rail i (host profile)",
     "With as many GPUs as rails, GPU i must pair with the NIC of rail i "
     "(rails in natural order), so that GPU i of every host meets on one "
     "rail. One finding per profile lists the GPUs, their NICs and rails.",
     rg_check_order);

static const fl_rule_def *const RULES[] = {
    &R_CROSS,        &R_SWAP,       &R_MIXED,      &R_INCOMPLETE,
    &R_SU,           &R_ORDER,      &R_UNRESOLVED, &R_ROLES,
    &R_UNKNOWN_ROLE, &R_GPU_SHARED, &R_GPU_RAIL,   &R_GPU_ORDER};

static const fl_plugin_desc DESC = {sizeof(fl_plugin_desc),
                                    FL_ABI_MAJOR,
                                    FL_ABI_MINOR,
                                    sizeof RULES / sizeof *RULES,
                                    "rail-alignment",
                                    "0.1.0",
                                    "fabriclint",
                                    "MIT",
                                    rail_init,
                                    rail_fini,
                                    RULES};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &DESC;
}
