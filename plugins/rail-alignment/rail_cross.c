/* SPDX-License-Identifier: MIT */
/*
 * plugins/rail-alignment/rail_cross.c — NICs cabled to another rail's leaf:
 * rail-alignment.cross-rail (a NIC on the wrong rail, with the move that
 * fixes it) and rail-alignment.swapped (two NICs of one host on each
 * other's rail, fixed by swapping the pair).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "rail.h"
#include "rail_rules.h"

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

int check_cross(const fl_host_api *api, fl_ctx *ctx, void *data) {
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

int check_swapped(const fl_host_api *api, fl_ctx *ctx, void *data) {
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
