/* SPDX-License-Identifier: MIT */
/*
 * core/diff/diff_planes.c — planes in the diff: pairing the planes of the
 * two sides, names that repeat across planes, switches matched in another
 * plane than planned.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "diff/diff.h"
#include "diff/diff_impl.h"
#include "fabriclint/planes.h"
#include "io/loaders.h"
#include "io/write_common.h"
#include "model/alias.h"
#include "model/hashmap.h"
#include "util/natcmp.h"

/* ---- planes -------------------------------------------------------- */

/* Canonical base name of @n (@full: domain kept) into @buf. */
size_t diff_canon_base(const fl_fabric *f, fl_id n, int full, char *buf,
                       size_t size) {
  size_t len;
  const char *nm = fl_fabric_node_base_name(f, n, &len);
  return full ? fl_alias_node_full(nm, len, buf, size)
              : fl_alias_node(nm, len, buf, size);
}

/* Plane of design node @i in the as-built's plane indexes (mapped), or
 * NIL (no plane, or a plane the as-built does not have). */
static uint32_t dplane_ix(const dctx *c, fl_id i) {
  uint32_t pl = diff_node_plane(c, 0, i);
  return pl != FL_NONE && pl < c->n_plD ? c->mapDB[pl] : NIL;
}

/* 1 when a node name (canonical base name) is used in two planes of @f. */
static int names_repeat(const fl_fabric *f, int *rc) {
  fl_strmap seen;
  memset(&seen, 0, sizeof seen);
  uint32_t nn = fl_fabric_node_count(f), *first = NULL;
  int rep = 0;
  char canon[FL_ALIAS_MAX];
  *rc = -1;
  first = malloc(((size_t)nn + 1) * sizeof *first);
  if (!first)
    goto out;
  for (fl_id i = 0; i < nn && !rep; i++) {
    uint32_t pl = fl_fabric_node_plane(f, i);
    if (pl == FL_NONE)
      continue;
    size_t len = diff_canon_base(f, i, 0, canon, sizeof canon);
    size_t before = fl_strmap_len(&seen);
    uint32_t slot = fl_strmap_put(&seen, canon, len, (uint32_t)before);
    if (slot == FL_MAP_ABSENT)
      goto out;
    if (fl_strmap_len(&seen) > before)
      first[slot] = pl;
    else
      rep = first[slot] != pl;
  }
  *rc = 0;
out:
  fl_strmap_free(&seen);
  free(first);
  return rep;
}

/* The one plane tag every node of @f carries (--design-plane A:plan.xml
 * alone), or NULL. */
static const char *one_tag(const fl_fabric *f) {
  const char *tag = NULL;
  uint32_t n = fl_fabric_node_count(f);
  for (fl_id i = 0; i < n; i++) {
    const char *v = fl_fabric_attr(f, FL_ENT_NODE, i, "plane");
    if (!v || (tag && strcmp(v, tag) != 0))
      return NULL;
    tag = v;
  }
  return tag;
}

/* Name of plane @j of side @side (a side that is one plane: its tag). */
static const char *side_plane_name(const dctx *c, int side, uint32_t j) {
  if (side ? c->oneB : c->oneD)
    return c->one_name;
  return fl_fabric_plane_name(side ? c->B : c->D, j);
}

/* When either side has planes: map them (by name when the two sides share
 * a plane name, else by order: the k-th design plane is the k-th as-built
 * one, natural order) and find whether names repeat across planes, which
 * makes node names per plane (c->per_plane). A side without planes against
 * one with planes (a plan of every plane against one plane's capture, or
 * the reverse) is one plane (c->oneD / c->oneB), paired with the plane its
 * --design-plane / --as-built-plane tag names, else the first: the other
 * planes' nodes are missing (unexpected), "the as-built fabric has no plane
 * B", instead of every name that repeats across planes matching nothing.
 * Nothing when neither side has planes. 0, or -1 out of memory. O(nodes)
 * with planes, O(1) without. */
int diff_planes_setup(dctx *c) {
  uint32_t nd = fl_fabric_plane_count(c->D), nb = fl_fabric_plane_count(c->B);
  if (!nd && !nb)
    return 0;
  if (!nd || !nb) {
    /* names unique across the other side's planes (pl1-leaf01, pl2-leaf01)
     * match without planes: a plan of every plane without plane tags then
     * matches every plane's capture, as before (pairing it with one plane
     * would put the other planes' switches "in another plane") */
    int rc, rep = names_repeat(nd ? c->D : c->B, &rc);
    if (rc != 0 || !rep)
      return rc;
    c->oneD = !nd;
    c->oneB = !nb;
    c->one_name = one_tag(nd ? c->B : c->D);
    nd += !nd;
    nb += !nb;
  }
  c->n_plD = nd;
  c->n_plB = nb;
  c->mapDB = malloc((size_t)nd * sizeof *c->mapDB);
  c->mapBD = malloc((size_t)nb * sizeof *c->mapBD);
  if (!c->mapDB || !c->mapBD)
    return -1;
  for (uint32_t i = 0; i < nd; i++)
    c->mapDB[i] = NIL;
  for (uint32_t j = 0; j < nb; j++)
    c->mapBD[j] = NIL;
  int common = 0;
  for (uint32_t i = 0; i < nd; i++)
    for (uint32_t j = 0; j < nb; j++) {
      const char *a = side_plane_name(c, 0, i), *b = side_plane_name(c, 1, j);
      if (c->mapBD[j] == NIL && a && b && strcmp(a, b) == 0) {
        c->mapDB[i] = j;
        c->mapBD[j] = i;
        common = 1;
        break;
      }
    }
  for (uint32_t i = 0; !common && i < nd && i < nb; i++)
    c->mapDB[i] = c->mapBD[i] = i;
  int rc;
  c->per_plane = names_repeat(c->D, &rc);
  if (rc == 0 && !c->per_plane)
    c->per_plane = names_repeat(c->B, &rc);
  return rc;
}

/* Index the canonical base names of @side's nodes within their planes
 * (as-built plane index; design nodes by their mapped plane): keys are the
 * plane (4 bytes) + the name; [0] full, [1] short, [2] systems. */
int diff_index_plane_names(const dctx *c, int side, name_ix *x) {
  const fl_fabric *f = side ? c->B : c->D;
  uint32_t n = fl_fabric_node_count(f);
  for (int i = 0; i < 3; i++) {
    x->v[i] = malloc(((size_t)n + 1) * sizeof *x->v[i]);
    if (!x->v[i])
      return -1;
  }
  char canon[FL_ALIAS_MAX], key[FL_ALIAS_MAX + 4];
  for (fl_id i = 0; i < n; i++) {
    uint32_t pl = side ? diff_node_plane(c, 1, i) : dplane_ix(c, i);
    if (pl == NIL)
      continue;
    for (int full = 1; full >= 0; full--) {
      diff_canon_base(f, i, full, canon, sizeof canon);
      size_t k = diff_node_key(key, sizeof key, pl, canon);
      if (diff_ix_put(x, !full, key, k, i) != 0)
        return -1;
    }
    const char *sys = fl_fabric_node_system(f, i);
    if (*sys) {
      fl_alias_node(sys, strlen(sys), canon, sizeof canon);
      size_t k = diff_node_key(key, sizeof key, pl, canon);
      if (diff_ix_put(x, 2, key, k, i) != 0)
        return -1;
    }
  }
  return 0;
}

/* Name matching within a plane: design node @i's base name (pass 0 full,
 * else short) looked up among the design (*@di) and as-built (*@b) nodes
 * of its plane; both NIL when @i has no plane the as-built has. */
void diff_plane_lookup(const dctx *c, const name_ix *dpx, const name_ix *bpx,
                       int pass, fl_id i, uint32_t *di, uint32_t *b) {
  *di = *b = NIL;
  uint32_t pl = dplane_ix(c, i);
  if (pl == NIL)
    return;
  char canon[FL_ALIAS_MAX], key[FL_ALIAS_MAX + 4];
  diff_canon_base(c->D, i, pass == 0, canon, sizeof canon);
  size_t k = diff_node_key(key, sizeof key, pl, canon);
  *di = diff_ix_get(dpx, pass ? 1 : 0, key, k);
  *b = diff_ix_get(bpx, pass, key, k);
}

/* Narrowed as-built (fl_diff_opts.whole_side 1): the home plane a port of
 * as-built node @b is marked with (`home-plane`, fl_fabric_plane_subset():
 * a host's NIC k cabled into another plane than k), or NULL. */
const char *diff_home_plane_mark(const dctx *c, fl_id b) {
  if (!c->o->whole || c->o->whole_side != 1)
    return NULL;
  fl_id p0 = fl_fabric_node_first_port(c->B, b);
  for (uint32_t k = 0; k < fl_fabric_node_port_count(c->B, b); k++) {
    const char *h = fl_fabric_attr(c->B, FL_ENT_PORT, p0 + k, "home-plane");
    if (h)
      return h;
  }
  return NULL;
}

/* Narrowed comparison (fl_diff_opts.whole): the plane of the node named
 * @name (a CA, @ca) or with GUID @guid in the whole side, when it is
 * another plane than the one compared; NULL otherwise. */
const char *diff_left_out_plane(const dctx *c, int ca, const char *name,
                                uint64_t guid) {
  const fl_fabric *w = c->o->whole;
  if (!w || !c->o->plane)
    return NULL;
  /* a host's NIC is the same device whichever plane it is cabled into; a
   * switch of the same name in another plane is another switch (planes
   * name their switches alike), the same one only by its GUID */
  fl_id n = ca ? fl_fabric_find_node_name(w, name) : FL_NONE;
  if (n == FL_NONE && guid && !c->o->no_guid)
    n = fl_fabric_find_node_guid(w, guid);
  uint32_t pl = n != FL_NONE ? fl_fabric_node_plane(w, n) : FL_NONE;
  const char *pn = pl != FL_NONE ? fl_fabric_plane_name(w, pl) : NULL;
  return pn && strcmp(pn, c->o->plane) != 0 ? pn : NULL;
}

/* Why design node @i matched nothing, when names are per plane: in its
 * plane, or that plane is not in the as-built; NULL when @i has no plane
 * (the reasons of the whole fabric apply). Owned by the caller. */
char *diff_why_in_plane(dctx *c, const name_ix *dpx, const name_ix *bpx,
                        fl_id i) {
  uint32_t pl = dplane_ix(c, i);
  const char *pn = diff_plane_name_d(c, diff_node_plane(c, 0, i));
  if (pl == NIL && pn)
    return diff_xprintf(
        c,
        "the as-built fabric has no plane %s (planes are paired "
        "by name: a plane name is on both sides)",
        pn);
  if (pl == NIL)
    return NULL;
  char full[FL_ALIAS_MAX], canon[FL_ALIAS_MAX], key[FL_ALIAS_MAX + 4];
  diff_canon_base(c->D, i, 1, full, sizeof full);
  diff_canon_base(c->D, i, 0, canon, sizeof canon);
  size_t kf = diff_node_key(key, sizeof key, pl, full);
  uint32_t dfull = diff_ix_get(dpx, 0, key, kf),
           bfull = diff_ix_get(bpx, 0, key, kf);
  size_t ks = diff_node_key(key, sizeof key, pl, canon);
  uint32_t dshort = diff_ix_get(dpx, 1, key, ks),
           bshort = diff_ix_get(bpx, 1, key, ks);
  if (dfull != i)
    return diff_xprintf(c,
                        "another design node of plane %s has the same name "
                        "after normalising",
                        pn);
  if (bfull == AMBIG || (bfull == NIL && bshort == AMBIG))
    return diff_xprintf(c,
                        "several as-built nodes of plane %s have this name "
                        "after normalising",
                        pn);
  if (bfull == NIL && bshort != NIL && dshort != i)
    return diff_xprintf(c,
                        "another design node of plane %s has the same short "
                        "name, so only the full name \"%s\" is compared and no "
                        "as-built node of that plane has it",
                        pn, full);
  if (bfull != NIL || bshort != NIL)
    return diff_xprintf(c,
                        "the as-built node of this name in plane %s is already "
                        "matched to another design node (by GUID, or by a name "
                        "it shares)",
                        pn);
  if (fl_fabric_node_guid(c->D, i))
    return diff_xprintf(
        c,
        "no as-built node of plane %s is named \"%s\" (compared "
        "after normalising case, domain and blanks) and none "
        "has GUID 0x%016" PRIx64,
        pn, canon, fl_fabric_node_guid(c->D, i));
  return diff_xprintf(c,
                      "no as-built node of plane %s is named \"%s\" (compared "
                      "after normalising case, domain and blanks)",
                      pn, canon);
}

/* A switch or router matched in another plane than its planned one (by
 * GUID, or by a name no other plane uses) is one finding naming both
 * planes (cross_plane_node()), not one per cable: the pair is unmatched
 * and its cables folded. Both sides must have planes. 0, or -1. */
int diff_split_cross_plane(dctx *c) {
  uint32_t nd = fl_fabric_node_count(c->D), nb = fl_fabric_node_count(c->B);
  if (!c->n_plD)
    return 0;
  c->xplD = malloc(((size_t)nd + 1) * sizeof *c->xplD);
  c->xplB = calloc((size_t)nb + 1, 1);
  if (!c->xplD || !c->xplB)
    return -1;
  for (fl_id i = 0; i < nd; i++) {
    c->xplD[i] = FL_NONE;
    fl_id b = c->mD[i];
    uint32_t how = c->howD[i], kind = fl_fabric_node_kind(c->D, i);
    if (b == FL_NONE || c->mB[b] != i ||
        (how != HOW_GUID && how != HOW_NAME && how != HOW_SYSTEM &&
         how != HOW_CABLE) ||
        (kind != FL_NODE_SWITCH && kind != FL_NODE_ROUTER) ||
        fl_fabric_node_kind(c->B, b) != kind)
      continue;
    uint32_t pd = dplane_ix(c, i), pb = diff_node_plane(c, 1, b);
    if (diff_node_plane(c, 0, i) == FL_NONE || pb == FL_NONE || pd == pb)
      continue;
    c->xplD[i] = b;
    c->xplB[b] = 1;
    c->mD[i] = FL_NONE;
    c->mB[b] = FL_NONE;
  }
  return 0;
}

/* The finding of a switch planned in one plane and built in another
 * (split_cross_plane()): design node @i, as-built node @b. */
void diff_cross_plane_node(dctx *c, fl_id i, fl_id b) {
  const fl_fabric *D = c->D, *B = c->B;
  const char *pd = diff_plane_name_d(c, diff_node_plane(c, 0, i));
  const char *pb = diff_plane_name_b(c, diff_node_plane(c, 1, b));
  const char *kind = fl_node_kind_name(fl_fabric_node_kind(D, i));
  uint32_t ncd = c->cables_of_D[i], ncb = c->cables_of_B[b];
  fnd f = {.rule = "diff.missing-node",
           .sev = FL_SEV_ERROR,
           .loc_fab = D,
           .loc_ent = FL_ENT_NODE,
           .loc_id = i,
           .extra_nodes = {fl_fabric_node_name(D, i)},
           .n_extra = 1,
           .ids = 1,
           .xd = i,
           .xb = b};
  char *why = diff_xprintf(c, "it is in plane %s as built", pb);
  f.ev = json_pack("{s:s,s:s,s:i,s:s,s:s,s:s,s:i}", "reason", why ? why : "",
                   "kind", kind, "planned_cables", (json_int_t)ncd,
                   "planned_plane", pd, "built_plane", pb, "as_built_node",
                   fl_fabric_node_name(B, b), "cables", (json_int_t)ncb);
  diff_emit(c, &f,
            diff_xprintf(
                c,
                "planned %s \"%s\" of plane %s is in plane %s as built "
                "(\"%s\", cabled to that plane's switches): move it to plane "
                "%s and cable it as planned (its %u planned and %u built "
                "cable(s) are not reported one by one)",
                kind, fl_fabric_node_name(D, i), pd, pb,
                fl_fabric_node_name(B, b), pd, ncd, ncb));
  free(why);
  const char *detail = "node found in another plane: move it to its planned "
                       "plane; check this planned cable";
  if (ncd)
    diff_wo_node_cables(c, "check", "diff.missing-node", i, detail);
  else
    diff_wo_node(c, "check", "diff.missing-node", fl_fabric_node_name(D, i),
                 fl_fabric_attr(D, FL_ENT_NODE, i, "rack"),
                 "node found in another plane: move it to its planned plane");
}

int diff_guid_policy(dctx *c) {
  if (c->o->no_guid)
    return GUIDS_OFF;
  uint32_t nd = fl_fabric_node_count(c->D), pairs = 0, agree = 0;
  for (fl_id i = 0; i < nd; i++) {
    if (c->mD[i] == FL_NONE)
      continue;
    uint64_t gd = fl_fabric_node_guid(c->D, i);
    uint64_t gb = fl_fabric_node_guid(c->B, c->mD[i]);
    pairs += gd && gb;
    agree += gd && gb && gd == gb;
  }
  if (pairs < 2 || agree)
    return GUIDS_COMPARE;
  fnd f = {.rule = "diff.different", .sev = FL_SEV_INFO};
  f.ev = json_pack("{s:s,s:i,s:i}", "attribute", "guid", "compared",
                   (json_int_t)pairs, "agreeing", (json_int_t)0);
  diff_emit(c, &f,
            diff_xprintf(
                c,
                "none of the %u planned node GUIDs matches the as-built one: "
                "the plan's GUIDs look like placeholders, so nodes were "
                "matched by name and GUIDs not compared (--no-guid says so "
                "and silences this note)",
                pairs));
  return GUIDS_PLACEHOLDER;
}

/* 1 when as-built node @b has a port labelled @dev (canonical port names). */
