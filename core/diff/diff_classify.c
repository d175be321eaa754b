/* SPDX-License-Identifier: MIT */
/*
 * core/diff/diff_classify.c — step 3 of the diff: the edges classified in a
 * fixed order (exact, duplicate, plan, swapped, misconnected, missing and
 * unexpected), each step consuming what it explains.
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

/* ---- 3. classification ---------------------------------------------- */

static int same_pair(const edge *x, const edge *y) {
  return (x->k[0] == y->k[0] && x->k[1] == y->k[1]) ||
         (x->k[0] == y->k[1] && x->k[1] == y->k[0]);
}

static void report_duplicate(dctx *c, const edge *e, int side) {
  char *a = diff_ep_str(c, e->k[0]), *b = diff_ep_str(c, e->k[1]);
  fnd f = {.rule = "diff.duplicate",
           .sev = FL_SEV_ERROR,
           .loc_fab = side ? c->B : c->D,
           .loc_ent = FL_ENT_LINK,
           .loc_id = e->link,
           .eps = {e->k[0], e->k[1]},
           .n_eps = 2};
  f.ev = json_pack("{s:s,s:o}", "side", side ? "as-built" : "design", "cable",
                   diff_cable_json(c, e->k[0], e->k[1]));
  diff_emit(c, &f,
            diff_xprintf(c, "the %s lists cable %s - %s more than once%s",
                         side ? "as-built input" : "design", a, b,
                         side ? " (two cables on the same ports, or a stale or "
                                "merged capture)"
                              : ""));
  if (side)
    diff_wo_add(c, "remove", "diff.duplicate", e->k[0], e->k[1], 1, 0, 0,
                FL_NONE, "extra cable on the same two ports");
  free(a);
  free(b);
}

void diff_exact(dctx *c) {
  for (uint32_t i = 0; i < c->n_de; i++) {
    edge *de = &c->e[i];
    /* a duplicate of an earlier design edge */
    for (uint32_t j = diff_first_at(c, 0, de->k[0]); j != NIL;
         j = diff_next_at(c, j, de->k[0]))
      if (j < i && same_pair(&c->e[j], de)) {
        de->state = E_DONE;
        report_duplicate(c, de, 0);
        break;
      }
    if (de->state != E_OPEN)
      continue;
    for (uint32_t j = diff_first_at(c, 1, de->k[0]); j != NIL;
         j = diff_next_at(c, j, de->k[0])) {
      edge *be = &c->e[j];
      if (be->state == E_OPEN && diff_other(be, de->k[0]) == de->k[1]) {
        be->state = de->state = E_DONE;
        c->st->cables_ok++;
        diff_rate_note(c, i, j);
        break;
      }
    }
  }
  /* built duplicates: an open built edge equal to a consumed one */
  for (uint32_t j = (uint32_t)c->n_de; j < c->n_e; j++) {
    edge *be = &c->e[j];
    if (be->state != E_OPEN)
      continue;
    for (uint32_t k = diff_first_at(c, 1, be->k[0]); k != NIL;
         k = diff_next_at(c, k, be->k[0]))
      if (k != j && same_pair(&c->e[k], be) &&
          (c->e[k].state == E_DONE || k < j)) {
        be->state = E_DONE;
        report_duplicate(c, be, 1);
        break;
      }
  }
}

/* A design port with two different planned cables (not one cable listed
 * twice): no work order can satisfy both, so say so once per port and take
 * the open cables there (and what is built at their other ends) out of the
 * later steps rather than suggest moving a cable onto an occupied port. */
void diff_double_booked(dctx *c) {
  for (uint32_t i = 0; i < c->n_de; i++) {
    for (int end = 0; end < 2; end++) {
      uint64_t k = c->e[i].k[end];
      /* report at the first design edge of the port only */
      uint32_t first = NIL, n = 0, n_open = 0;
      for (uint32_t j = diff_first_at(c, 0, k); j != NIL;
           j = diff_next_at(c, j, k)) {
        int dup = 0;
        for (uint32_t m = diff_first_at(c, 0, k); m != NIL;
             m = diff_next_at(c, m, k))
          dup |= m < j && same_pair(&c->e[m], &c->e[j]);
        if (dup)
          continue;
        if (first == NIL || j < first)
          first = j;
        n++;
        n_open += c->e[j].state == E_OPEN;
      }
      if (n < 2 || !n_open || first != i)
        continue;
      json_t *cables = json_array();
      size_t len = 0;
      char *list = NULL;
      for (uint32_t j = diff_first_at(c, 0, k); j != NIL;
           j = diff_next_at(c, j, k)) {
        edge *de = &c->e[j];
        uint64_t o = diff_other(de, k);
        char *so = diff_ep_str(c, o);
        char *nl = diff_xprintf(c, "%s%s%s", list ? list : "", list ? ", " : "",
                                so ? so : "");
        free(list);
        free(so);
        list = nl;
        len++;
        json_array_append_new(cables, diff_cable_json(c, k, o));
        if (de->state != E_OPEN)
          continue;
        de->state = E_DONE;
        /* what is built at the other end is explained by the plan error */
        for (uint32_t b = diff_first_at(c, 1, o); b != NIL;
             b = diff_next_at(c, b, o))
          if (c->e[b].state == E_OPEN && diff_other(&c->e[b], o) != k)
            c->e[b].state = E_DONE;
      }
      char *sk = diff_ep_str(c, k);
      fnd f = {.rule = "diff.duplicate",
               .sev = FL_SEV_ERROR,
               .loc_fab = c->D,
               .loc_ent = FL_ENT_LINK,
               .loc_id = c->e[i].link,
               .eps = {k},
               .n_eps = 1};
      f.ev = json_pack("{s:s,s:o}", "side", "design", "cables", cables);
      diff_emit(c, &f,
                diff_xprintf(
                    c,
                    "the design puts %zu cables on %s (to %s): a port takes "
                    "one cable; fix the plan (no move is suggested for them)",
                    len, sk, list ? list : ""));
      char *d = diff_xprintf(
          c, "the plan has %zu cables on this port: fix the plan", len);
      diff_wo_add(c, "check", "diff.duplicate", k, 0, 0, 0, 0, c->e[i].link, d);
      free(d);
      free(sk);
      free(list);
    }
  }
}

/* Cisco plan constraints: count open built cables between the two nodes on
 * the allowed port sets. */
static int in_set(dctx *c, uint64_t k, const char *exp) {
  if (!exp)
    return 1;
  fl_id bp = diff_key_bport(c, k);
  char canon[FL_ALIAS_MAX], alt[FL_ALIAS_MAX];
  const char *lb = bp != FL_NONE ? fl_fabric_port_label(c->B, bp) : "";
  if (*lb)
    fl_alias_port(lb, strlen(lb), canon, sizeof canon);
  else
    snprintf(canon, sizeof canon, "%u", diff_key_port(k));
  size_t an = fl_alias_port_alt(canon, alt, sizeof alt);
  for (const char *p = exp; *p; p += strlen(p) + 1)
    if (strcmp(p, canon) == 0 || (an && strcmp(p, alt) == 0))
      return 1;
  return 0;
}

/* Two expanded port sets (NUL-separated lists; NULL = any) are the same
 * set. */
static int same_set(const char *x, const char *y) {
  if (!x || !y)
    return !x && !y;
  size_t nx = 0, ny = 0;
  for (const char *p = x; *p; p += strlen(p) + 1)
    nx++;
  for (const char *p = y; *p; p += strlen(p) + 1)
    ny++;
  if (nx != ny)
    return 0;
  for (const char *p = x; *p; p += strlen(p) + 1) {
    int found = 0;
    for (const char *q = y; *q && !found; q += strlen(q) + 1)
      found = strcmp(p, q) == 0;
    if (!found)
      return 0;
  }
  return 1;
}

static int same_count(const char *x, const char *y) {
  if (!x || !y)
    return !x && !y;
  return atol(x) == atol(y);
}

/* Expands port set attribute @key of plan link @l of @fab into a new
 * buffer sized for it (fl_plan_ports_size) in *@out; an absent set (any
 * port) gives NULL. Returns 0, or -1 after recording why (out of memory, or
 * a malformed set: an input error naming the link's file and line), so that
 * no comparison is ever skipped silently. */
static int expand_set(dctx *c, const fl_fabric *fab, fl_id l, const char *key,
                      char **out) {
  const char *set = fl_fabric_attr(fab, FL_ENT_LINK, l, key);
  const char *why = "";
  *out = NULL;
  if (!set)
    return 0;
  long size = fl_plan_ports_size(set, &why);
  if (size > 0 && !(*out = malloc((size_t)size))) {
    c->nomem = 1;
    return -1;
  }
  if (size > 0 && fl_plan_ports_expand(set, *out, (size_t)size) > 0)
    return 0;
  free(*out);
  *out = NULL;
  const char *file = NULL;
  uint32_t line = 0, col = 0;
  fl_fabric_provenance(fab, FL_ENT_LINK, l, &file, &line, &col);
  fl_error_set(c->err, FL_EPARSE, file, line, col,
               "plan port set %s='%s' cannot be compared: %s", key, set,
               size > 0 ? "it does not expand" : why);
  c->failed = 1;
  return -1;
}

/* The open as-built constraint that is the same as design constraint @l
 * (between B nodes @ba, @bb on expanded sets @ea / @eb, NULL = any), or
 * SIZE_MAX. When the as-built input is itself a plan, its constraints are
 * not cables: the design's constraint is met by the same constraint. */
static size_t same_constraint(dctx *c, fl_id l, fl_id ba, fl_id bb,
                              const char *ea, const char *eb) {
  const fl_fabric *D = c->D, *B = c->B;
  for (size_t i = 0; i < c->n_planB; i++) {
    if (c->planB_used[i])
      continue;
    fl_id m = c->planB[i];
    fl_id xa = fl_fabric_port_node(B, fl_fabric_link_port(B, m, 0));
    fl_id xb = fl_fabric_port_node(B, fl_fabric_link_port(B, m, 1));
    int fwd = xa == ba && xb == bb, rev = xa == bb && xb == ba;
    if (!fwd && !rev)
      continue;
    if (!same_count(fl_fabric_attr(D, FL_ENT_LINK, l, "plan-min"),
                    fl_fabric_attr(B, FL_ENT_LINK, m, "plan-min")) ||
        !same_count(fl_fabric_attr(D, FL_ENT_LINK, l, "plan-max"),
                    fl_fabric_attr(B, FL_ENT_LINK, m, "plan-max")))
      continue;
    char *pa = NULL, *pb = NULL;
    if (expand_set(c, B, m, "plan-a-ports", &pa) != 0 ||
        expand_set(c, B, m, "plan-b-ports", &pb) != 0) {
      free(pa);
      return SIZE_MAX;
    }
    int same = (fwd && same_set(ea, pa) && same_set(eb, pb)) ||
               (rev && same_set(ea, pb) && same_set(eb, pa));
    free(pa);
    free(pb);
    if (same)
      return i;
  }
  return SIZE_MAX;
}

/* As-built constraints no design constraint matched. */
static void plans_left(dctx *c) {
  const fl_fabric *B = c->B;
  for (size_t i = 0; i < c->n_planB; i++) {
    if (c->planB_used[i])
      continue;
    fl_id m = c->planB[i];
    fl_id xa = fl_fabric_port_node(B, fl_fabric_link_port(B, m, 0));
    fl_id xb = fl_fabric_port_node(B, fl_fabric_link_port(B, m, 1));
    if (c->mB[xa] == FL_NONE || c->mB[xb] == FL_NONE)
      continue; /* folded into the node finding */
    const char *an = fl_fabric_node_name(B, xa),
               *bn = fl_fabric_node_name(B, xb);
    const char *sa = fl_fabric_attr(B, FL_ENT_LINK, m, "plan-a-ports");
    const char *sb = fl_fabric_attr(B, FL_ENT_LINK, m, "plan-b-ports");
    const char *mn = fl_fabric_attr(B, FL_ENT_LINK, m, "plan-min");
    const char *mx = fl_fabric_attr(B, FL_ENT_LINK, m, "plan-max");
    fnd f = {.rule = "diff.unexpected",
             .sev = FL_SEV_ERROR,
             .loc_fab = B,
             .loc_ent = FL_ENT_LINK,
             .loc_id = m,
             .extra_nodes = {an, bn},
             .n_extra = 2};
    f.ev = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}", "min", mn ? mn : "", "max",
                     mx ? mx : "", "a", an, "b", bn, "a_ports", sa ? sa : "any",
                     "b_ports", sb ? sb : "any");
    diff_emit(c, &f,
              diff_xprintf(
                  c,
                  "the as-built plan asks for %s..%s cable(s) between \"%s\" "
                  "(%s) and \"%s\" (%s); the design has no such constraint",
                  mn ? mn : "1", mx ? mx : "any", an, sa ? sa : "any port", bn,
                  sb ? sb : "any port"));
  }
}

/* Design constraint @l between D nodes @na, @nb: at least @min (at most
 * @max, -1 = no limit) cables between port sets @sa / @sb as written, @ea /
 * @eb expanded (NULL = any port). */
static void plan_one(dctx *c, fl_id l, fl_id na, fl_id nb, long min, long max,
                     const char *sa, const char *sb, const char *ea,
                     const char *eb) {
  const fl_fabric *D = c->D;
  fl_id ba = c->mD[na], bb = c->mD[nb];
  size_t same = same_constraint(c, l, ba, bb, ea, eb);
  if (c->failed)
    return;
  if (same != SIZE_MAX) {
    c->planB_used[same] = 1;
    c->st->cables_ok++;
    return;
  }
  long got = 0;
  for (uint32_t j = (uint32_t)c->n_de; j < c->n_e; j++) {
    edge *be = &c->e[j];
    if (be->state != E_OPEN || (max >= 0 && got >= max))
      continue;
    for (int o = 0; o < 2; o++) {
      uint64_t x = be->k[o], y = be->k[1 - o];
      if (diff_key_node(x) == ba && diff_key_node(y) == bb &&
          in_set(c, x, ea) && in_set(c, y, eb)) {
        be->state = E_DONE;
        got++;
        break;
      }
    }
  }
  if (got >= min)
    return;
  const char *an = fl_fabric_node_name(D, na), *bn = fl_fabric_node_name(D, nb);
  fnd f = {.rule = "diff.missing",
           .sev = FL_SEV_ERROR,
           .loc_fab = D,
           .loc_ent = FL_ENT_LINK,
           .loc_id = l,
           .extra_nodes = {an, bn},
           .n_extra = 2};
  f.ev = json_pack("{s:i,s:i,s:s,s:s,s:s,s:s}", "min", (json_int_t)min, "found",
                   (json_int_t)got, "a", an, "b", bn, "a_ports",
                   sa ? sa : "any", "b_ports", sb ? sb : "any");
  diff_emit(c, &f,
            diff_xprintf(c,
                         "the plan asks for at least %ld cable(s) between "
                         "\"%s\" (%s) and \"%s\" (%s); %ld found",
                         min, an, sa ? sa : "any port", bn,
                         sb ? sb : "any port", got));
  if (c->wo) {
    char *d = diff_xprintf(c, "add %ld cable(s): %s ports %s to %s ports %s",
                           min - got, an, sa ? sa : "any", bn, sb ? sb : "any");
    diff_wo_node(c, "add", "diff.missing", an,
                 fl_fabric_attr(D, FL_ENT_NODE, na, "rack"), d);
    free(d);
  }
}

void diff_plans(dctx *c) {
  if (c->n_planB) {
    c->planB_used = calloc(c->n_planB, 1);
    if (!c->planB_used) {
      c->nomem = 1;
      return;
    }
  }
  for (size_t i = 0; i < c->n_plan && !c->failed && !c->nomem; i++) {
    fl_id l = c->planD[i];
    const fl_fabric *D = c->D;
    fl_id na = fl_fabric_port_node(D, fl_fabric_link_port(D, l, 0));
    fl_id nb = fl_fabric_port_node(D, fl_fabric_link_port(D, l, 1));
    if (c->mD[na] == FL_NONE || c->mD[nb] == FL_NONE)
      continue; /* folded into the node finding */
    long min = atol(fl_fabric_attr(D, FL_ENT_LINK, l, "plan-min"));
    const char *mx = fl_fabric_attr(D, FL_ENT_LINK, l, "plan-max");
    long max = mx ? atol(mx) : -1;
    const char *sa = fl_fabric_attr(D, FL_ENT_LINK, l, "plan-a-ports");
    const char *sb = fl_fabric_attr(D, FL_ENT_LINK, l, "plan-b-ports");
    char *ea = NULL, *eb = NULL;
    if (expand_set(c, D, l, "plan-a-ports", &ea) == 0 &&
        expand_set(c, D, l, "plan-b-ports", &eb) == 0)
      plan_one(c, l, na, nb, min, max, sa, sb, ea, eb);
    free(ea);
    free(eb);
  }
  if (!c->failed && !c->nomem)
    plans_left(c);
}

/* Which pair of ends to swap: same node, else same system, else @alt. */
static int prefer_pair(dctx *c, uint64_t x, uint64_t y) {
  if (diff_key_node(x) == diff_key_node(y))
    return 2;
  const char *sx = fl_fabric_node_system(c->B, diff_key_node(x));
  const char *sy = fl_fabric_node_system(c->B, diff_key_node(y));
  return *sx && strcmp(sx, sy) == 0;
}

void diff_swaps(dctx *c) {
  for (uint32_t i = 0; i < c->n_de; i++) {
    edge *d1 = &c->e[i];
    for (int o = 0; o < 2 && d1->state == E_OPEN; o++) {
      uint64_t a = d1->k[o], b = d1->k[1 - o];
      for (uint32_t f1 = diff_first_at(c, 1, a); f1 != NIL;
           f1 = diff_next_at(c, f1, a)) {
        if (c->e[f1].state != E_OPEN)
          continue;
        uint64_t d = diff_other(&c->e[f1], a);
        if (d == b || d == a)
          continue;
        uint32_t d2 = diff_open_at(c, 0, d, i);
        if (d2 == NIL)
          continue;
        uint64_t cc = diff_other(&c->e[d2], d);
        if (cc == a || cc == b)
          continue;
        uint32_t f2 = NIL;
        for (uint32_t j = diff_first_at(c, 1, cc); j != NIL;
             j = diff_next_at(c, j, cc))
          if (c->e[j].state == E_OPEN && j != f1 &&
              diff_other(&c->e[j], cc) == b)
            f2 = j;
        if (f2 == NIL)
          continue;
        /* planned a-b, c-d; built a-d, c-b */
        d1->state = c->e[d2].state = c->e[f1].state = c->e[f2].state = E_DONE;
        uint64_t x = a, y = cc, xto = b, yto = d; /* swap at a and c */
        if (prefer_pair(c, b, d) > prefer_pair(c, a, cc)) {
          x = b, y = d, xto = a, yto = cc;
        }
        /* after the swap the end now at x... the cable ends at x and y trade
         * places */
        uint64_t ends[4] = {a, b, cc, d};
        diff_qualify(c, ends, 4);
        char *sa = diff_ep_str(c, a), *sb = diff_ep_str(c, b),
             *sc = diff_ep_str(c, cc), *sd = diff_ep_str(c, d),
             *sx = diff_ep_str(c, x), *sy = diff_ep_str(c, y);
        /* one cause per pair of nodes the crossed cables lead to (the
         * ends that stay): 32 leaf uplinks to spine-01 and spine-02
         * exchanged on one SU, or 16 hosts with the same two rails crossed,
         * are one finding with each swap a member (outside tester, session
         * 11) */
        const char *nx = diff_key_name(c, xto), *ny = diff_key_name(c, yto);
        int xy = strcmp(nx, ny) <= 0;
        char *cause =
            diff_xprintf(c, "swap:%s\x1f%s", xy ? nx : ny, xy ? ny : nx);
        char *cmsg = diff_xprintf(
            c,
            "{count} pairs of cables to \"%s\" and \"%s\" are crossed: "
            "swap the two ends of each pair, as each member says",
            xy ? nx : ny, xy ? ny : nx);
        fnd f = {.rule = "diff.swapped",
                 .sev = FL_SEV_ERROR,
                 .loc_fab = c->D,
                 .loc_ent = FL_ENT_LINK,
                 .loc_id = d1->link,
                 .eps = {a, b, cc, d},
                 .n_eps = 4,
                 .cause = cause,
                 .cause_msg = cmsg,
                 .has_link2 = 1,
                 .link2 = c->e[d2].link};
        f.ev = json_pack("{s:[o,o],s:[o,o],s:[o,o]}", "planned",
                         diff_cable_json(c, a, b), diff_cable_json(c, cc, d),
                         "as_built", diff_cable_json(c, a, d),
                         diff_cable_json(c, cc, b), "swap", diff_ep_json(c, x),
                         diff_ep_json(c, y));
        /* built a-d and c-b: the cable ends at x and y trade places */
        char *how =
            diff_xprintf(c, "swap the two cable ends at %s and %s", sx, sy);
        f.fix = how ? fl_fix_new(how, 2) : NULL;
        if (f.fix) {
          uint64_t xc = x == a ? d : cc, yc = y == cc ? b : a; /* far ends */
          diff_fix_move(c, f.fix, x, xc, x, y);
          diff_fix_move(c, f.fix, y, yc, y, x);
          if (fl_fix_finish(f.fix) != 0)
            c->nomem = 1;
        } else {
          c->nomem = 1;
        }
        free(how);
        diff_emit(
            c, &f,
            diff_xprintf(c,
                         "cables crossed: planned %s - %s and %s - %s, built "
                         "%s - %s and %s - %s; fix: swap the two cable ends at "
                         "%s and %s",
                         sa, sb, sc, sd, sa, sd, sc, sb, sx, sy));
        diff_wo_add(c, "swap", "diff.swapped", x, y, 1, 0, 0, d1->link,
                    "exchange the two cable ends at these ports");
        diff_wo_cable_b(c, c->e[d2].link);
        free(sa), free(sb), free(sc), free(sd), free(sx), free(sy);
        free(cause), free(cmsg);
        c->qual = 0;
        break;
      }
    }
  }
}

/* One misconnected cable: planned a-b, built a-x (its end x goes to b). */
typedef struct misc {
  uint32_t edge; /* the planned edge, for the location */
  uint64_t a, b, x;
  uint32_t ring;      /* 1 + index of its rotation's first member, or 0 */
  uint32_t ring_n;    /* cables in its rotation */
  uint32_t ring_next; /* the member whose planned end this one's lands on */
} misc;

/* Rotations (issue 30, outside tester): k >= 3 cables whose ends each land
 * on the next one's planned port (planned a1-b1, a2-b2, a3-b3; built a1-b2,
 * a2-b3, a3-b1). Each is a move, and the work order keeps one row per
 * cable, but they are one mistake: one finding, and no move can be done
 * alone (every planned port is taken by the next cable), so the text says
 * to unplug all k ends first. A chain that does not close (a move onto a
 * free port) is not a rotation. */
#define ROT_MIN 3u
static void find_rings(dctx *c, misc *m, uint32_t n) {
  fl_u64map at_b = {0};
  for (uint32_t i = 0; i < n; i++)
    if (fl_u64map_put(&at_b, m[i].b, i) == FL_MAP_ABSENT)
      c->nomem = 1;
  for (uint32_t i = 0; i < n && !c->nomem; i++) {
    if (m[i].ring)
      continue;
    uint32_t len = 1, j = i;
    for (;;) { /* follow x -> the cable planned there */
      uint32_t k = fl_u64map_get(&at_b, m[j].x);
      if (k == FL_MAP_ABSENT || m[k].ring || len > n)
        break;
      if (k == i) {
        if (len >= ROT_MIN)
          for (uint32_t q = i, r = 0; r < len; r++) {
            m[q].ring = i + 1, m[q].ring_n = len;
            m[q].ring_next = fl_u64map_get(&at_b, m[q].x);
            q = m[q].ring_next;
          }
        break;
      }
      j = k, len++;
    }
  }
  fl_u64map_free(&at_b);
}

/* The planned ends of the rotation that starts at member @first, in ring
 * order (at most ROT_LISTED, then a count). Allocated (diff_xprintf), NULL
 * on ENOMEM. O(ring size). */
#define ROT_LISTED 8u
static char *ring_ports(dctx *c, const misc *m, uint32_t first) {
  char *list = NULL;
  uint32_t q = first, k = 0;
  for (; k < m[first].ring_n && k < ROT_LISTED; k++, q = m[q].ring_next) {
    char *e = diff_ep_str(c, m[q].b);
    char *nl = diff_xprintf(c, "%s%s%s", list ? list : "", list ? ", " : "",
                            e ? e : "?");
    free(e), free(list);
    list = nl;
  }
  if (k < m[first].ring_n) {
    char *nl = diff_xprintf(c, "%s and %u more", list ? list : "",
                            m[first].ring_n - k);
    free(list);
    list = nl;
  }
  return list;
}

/* The work-order detail of a move whose finding has cause @cause: a host
 * in another host's place may be misnamed rather than miscabled, a layer
 * of another layout is recabled as a whole. */
static const char *move_detail(const char *cause) {
  if (cause && strncmp(cause, "name-shift:", 11) == 0)
    return "hosts in other hosts' places (names shifted): rename the hosts, "
           "or move this end";
  if (cause && strncmp(cause, "layout:", 7) == 0)
    return "the layer is cabled to another layout: recable it to the plan, "
           "or make the plan for this build";
  return "move the cable end to the planned port";
}

static void misc_emit(dctx *c, const misc *mc, const char *cause,
                      const char *cmsg) {
  uint64_t a = mc->a, b = mc->b, x = mc->x;
  uint64_t ends[3] = {a, b, x};
  diff_qualify(c, ends, 3);
  char *sa = diff_ep_str(c, a), *sb = diff_ep_str(c, b),
       *sx = diff_ep_str(c, x);
  fnd f = {.rule = "diff.misconnected",
           .sev = FL_SEV_ERROR,
           .loc_fab = c->D,
           .loc_ent = FL_ENT_LINK,
           .loc_id = c->e[mc->edge].link,
           .eps = {a, b, x},
           .n_eps = 3,
           .cause = cause,
           .cause_msg = cmsg};
  f.ev =
      json_pack("{s:o,s:o,s:o,s:o}", "planned", diff_cable_json(c, a, b),
                "as_built", diff_cable_json(c, a, x), "move_from",
                diff_ep_place_json(c, x), "move_to", diff_ep_place_json(c, b));
  if (f.ev && mc->ring)
    json_object_set_new(f.ev, "rotation", json_integer(mc->ring_n));
  char *how = diff_xprintf(c, "move the cable end at %s to %s", sx, sb);
  f.fix = how ? fl_fix_new(how, 1) : NULL;
  free(how);
  if (f.fix) { /* the built cable a-x: its end x goes to b */
    diff_fix_move(c, f.fix, a, x, x, b);
    if (fl_fix_finish(f.fix) != 0)
      c->nomem = 1;
  } else {
    c->nomem = 1;
  }
  diff_emit(c, &f,
            diff_xprintf(c,
                         "cable from %s lands on %s; the plan puts it on %s: "
                         "move that end from %s to %s",
                         sa, sx, sb, sx, sb));
  char *detail =
      mc->ring ? diff_xprintf(c,
                              "one of a rotation of %u cables: unplug their "
                              "%u ends first, then plug each into its "
                              "planned port",
                              mc->ring_n, mc->ring_n)
               : NULL;
  diff_wo_add(c, "move", "diff.misconnected", a, b, 1, x, 1,
              c->e[mc->edge].link, detail ? detail : move_detail(cause));
  free(detail);
  free(sa), free(sb), free(sx);
  c->qual = 0;
}

/* The host (system of a CA, "" when none) of the design node at @k. */
static const char *key_host(const dctx *c, uint64_t k) {
  fl_id dp = diff_key_dport(c, k);
  fl_id d =
      dp != FL_NONE ? fl_fabric_port_node(c->D, dp) : diff_key_dnode(c, k);
  if (d == FL_NONE || fl_fabric_node_kind(c->D, d) != FL_NODE_CA)
    return "";
  return fl_fabric_node_system(c->D, d);
}

/* The host the plan cables to the port at @k ("" when none, or the plan
 * has no cable there). */
static const char *place_host(const dctx *c, uint64_t k) {
  fl_id dp = diff_key_dport(c, k);
  if (dp == FL_NONE) {
    fl_id d = diff_key_dnode(c, k);
    uint32_t num = diff_key_port(k);
    if (d == FL_NONE || (num & VIRT))
      return "";
    dp = fl_fabric_find_port(c->D, d, num);
  }
  if (dp == FL_NONE || !fl_fabric_port_link_count(c->D, dp))
    return "";
  fl_id o = fl_fabric_link_other(c->D, fl_fabric_port_link(c->D, dp, 0), dp);
  fl_id d = o == FL_NONE ? FL_NONE : fl_fabric_port_node(c->D, o);
  if (d == FL_NONE || fl_fabric_node_kind(c->D, d) != FL_NODE_CA)
    return "";
  return fl_fabric_node_system(c->D, d);
}

/* Hosts in other hosts' places (diff_shift.c): misconnected cable @mc of
 * host S lands where the plan cables host S'. Only a host all of whose
 * planned cables do so, all to one S', is in S''s place (one cable of it
 * where planned, or one elsewhere, and it is cables to move). @n_of maps
 * a host to its misconnected cables, @planned to its planned ones. */
static void shift_pair(const dctx *c, const misc *mc, const char **s,
                       const char **t) {
  *s = key_host(c, mc->a);
  *t = "";
  if (*s[0]) { /* a is the host's NIC, x where it landed */
    *t = place_host(c, mc->x);
    return;
  }
  *t = key_host(c, mc->b); /* a is the switch port, b the planned NIC */
  *s = key_host(c, mc->x);
}

static int count_up(fl_strmap *m, uint32_t **v, size_t *cap, const char *k) {
  uint32_t at = fl_strmap_put(m, k, strlen(k), (uint32_t)fl_strmap_len(m));
  if (at == FL_MAP_ABSENT)
    return -1;
  if (at >= *cap) {
    size_t nc = *cap ? *cap * 2 : 16;
    uint32_t *g = realloc(*v, nc * sizeof *g);
    if (!g)
      return -1;
    memset(g + *cap, 0, (nc - *cap) * sizeof *g);
    *v = g, *cap = nc;
  }
  (*v)[at]++;
  return 0;
}

static int find_shifts(dctx *c, const misc *m, uint32_t n, diff_shift *sh) {
  fl_strmap planned = {0}, moved = {0};
  uint32_t *np = NULL, *nm = NULL;
  size_t cp = 0, cm = 0;
  int rc = 0;
  uint32_t nl = fl_fabric_link_count(c->D);
  for (fl_id l = 0; l < nl && !rc; l++)
    for (int e = 0; e < 2 && !rc; e++) {
      fl_id d = fl_fabric_port_node(c->D, fl_fabric_link_port(c->D, l, e));
      if (fl_fabric_node_kind(c->D, d) == FL_NODE_CA &&
          *fl_fabric_node_system(c->D, d))
        rc = count_up(&planned, &np, &cp, fl_fabric_node_system(c->D, d));
    }
  for (uint32_t i = 0; i < n && !rc; i++) {
    const char *s, *t;
    shift_pair(c, &m[i], &s, &t);
    if (!*s)
      continue;
    rc = count_up(&moved, &nm, &cm, s);
    if (!rc)
      rc = *t && strcmp(s, t) != 0
               ? diff_shift_add(sh, s, t)
               : (diff_shift_add(sh, s, s), diff_shift_drop(sh, s), 0);
  }
  /* a host with a cable not among its moves stays where it is */
  for (size_t i = 0; i < fl_strmap_len(&moved) && !rc; i++) {
    const char *s = fl_strmap_key(&moved, i);
    uint32_t p = fl_strmap_get(&planned, s, strlen(s));
    if (p == FL_MAP_ABSENT || np[p] != nm[i])
      diff_shift_drop(sh, s);
  }
  if (!rc)
    rc = diff_shift_finish(c, sh, "host");
  fl_strmap_free(&planned), fl_strmap_free(&moved);
  free(np), free(nm);
  return rc;
}

void diff_misconnected(dctx *c) {
  misc *m = NULL;
  uint32_t n = 0, cap = 0;
  for (uint32_t i = 0; i < c->n_de; i++) {
    edge *d1 = &c->e[i];
    if (d1->state != E_OPEN)
      continue;
    int best = -1, best_o = 0;
    uint32_t best_f = NIL;
    for (int o = 0; o < 2; o++) {
      uint64_t a = d1->k[o], b = d1->k[1 - o];
      for (uint32_t f = diff_first_at(c, 1, a); f != NIL;
           f = diff_next_at(c, f, a)) {
        if (c->e[f].state != E_OPEN)
          continue;
        uint64_t x = diff_other(&c->e[f], a);
        int score = (diff_open_at(c, 0, x, NIL) == NIL) +
                    (diff_open_at(c, 1, b, f) == NIL);
        if (score > best) {
          best = score;
          best_o = o;
          best_f = f;
        }
      }
    }
    if (best_f == NIL)
      continue;
    if (n == cap) {
      uint32_t nc = cap ? cap * 2 : 16;
      misc *g = realloc(m, nc * sizeof *g);
      if (!g) {
        c->nomem = 1;
        break;
      }
      m = g, cap = nc;
    }
    uint64_t a = d1->k[best_o];
    m[n++] =
        (misc){i, a, d1->k[1 - best_o], diff_other(&c->e[best_f], a), 0, 0, 0};
    d1->state = c->e[best_f].state = E_DONE;
  }
  if (!c->nomem)
    find_rings(c, m, n);
  diff_shift sh = {.fix = "rename them or fix the plan; else move the "
                          "{count} cable ends (the moves below)",
                   .min_pairs = 1};
  if (!c->nomem && find_shifts(c, m, n, &sh) != 0)
    c->nomem = 1;
  for (uint32_t i = 0; i < n && !c->nomem && !c->failed; i++) {
    char *cause = NULL, *cmsg = NULL, *ports = NULL;
    const char *hs, *ht, *smsg = NULL, *scause;
    shift_pair(c, &m[i], &hs, &ht);
    char lbuf[48];
    uint64_t cab[2] = {m[i].a, m[i].x};
    const char *lmsg = NULL,
               *lcause =
                   m[i].ring || *hs
                       ? NULL
                       : diff_layout_cause(c, cab, lbuf, sizeof lbuf, &lmsg);
    if (!m[i].ring && *hs && (scause = diff_shift_cause(&sh, hs, &smsg))) {
      cause = diff_xstrdup(c, scause);
      cmsg = diff_xstrdup(c, smsg);
    } else if (lcause) {
      cause = diff_xstrdup(c, lcause);
      cmsg = diff_xstrdup(c, lmsg);
    } else if (m[i].ring) {
      ports = ring_ports(c, m, m[i].ring - 1);
      /* keyed by its first planned end, by name and port number (stable
       * across runs and labels, as diff_emit.c finding_key()) */
      uint64_t k0 = m[m[i].ring - 1].b;
      cause = diff_xprintf(c, "rotation:%s:%u", diff_key_name(c, k0),
                           diff_key_port_num(c, k0));
      cmsg = diff_xprintf(c,
                          "{count} cables are rotated: each lands on the next "
                          "one's planned port (%s); no move can be done "
                          "alone: unplug the {count} cable ends at those "
                          "ports, then plug each into its planned port (the "
                          "moves below: from -> to)",
                          ports ? ports : "?");
    }
    misc_emit(c, &m[i], cause, cmsg);
    free(cause), free(cmsg), free(ports);
  }
  if (!c->nomem)
    diff_shift_roots(c, &sh, "diff.misconnected", 0);
  diff_shift_free(&sh);
  free(m);
}

void diff_leftovers(dctx *c) {
  for (uint32_t i = 0; i < c->n_e; i++) {
    edge *e = &c->e[i];
    if (e->state != E_OPEN)
      continue;
    e->state = E_DONE;
    diff_qualify(c, e->k, 2);
    char *a = diff_ep_str(c, e->k[0]), *b = diff_ep_str(c, e->k[1]);
    int built = e->side == 1;
    fnd f = {.rule = built ? "diff.unexpected" : "diff.missing",
             .sev = FL_SEV_ERROR,
             .loc_fab = built ? c->B : c->D,
             .loc_ent = FL_ENT_LINK,
             .loc_id = e->link,
             .eps = {e->k[0], e->k[1]},
             .n_eps = 2};
    char ra[32], rb2[32] = "";
    uint32_t w, s;
    diff_link_rate(built ? c->B : c->D, e->link, &w, &s);
    diff_rate_str(w, s, ra, sizeof ra);
    char lbuf[48];
    const char *lmsg = NULL;
    f.cause = diff_layout_cause(c, e->k, lbuf, sizeof lbuf, &lmsg);
    f.cause_msg = lmsg;
    /* what the free end of a missing cable meets instead */
    f.ev = json_pack("{s:o,s:s}", "cable", diff_cable_json(c, e->k[0], e->k[1]),
                     "rate", ra);
    (void)rb2;
    if (built)
      diff_emit(c, &f,
                diff_xprintf(c,
                             "cable %s - %s is not in the plan: remove it or "
                             "add it to the plan",
                             a, b));
    else
      diff_emit(c, &f,
                diff_xprintf(c, "planned cable %s - %s is not there", a, b));
    diff_wo_add(c, built ? "remove" : "add", f.rule, e->k[0], e->k[1], 1, 0, 0,
                built ? FL_NONE : e->link,
                built ? "cable not in the plan" : "planned cable not found");
    free(a), free(b);
    c->qual = 0;
  }
}

void diff_compare_lids(dctx *c) {
  uint32_t nd = fl_fabric_node_count(c->D);
  for (fl_id i = 0; i < nd; i++) {
    fl_id b = c->mD[i];
    if (b == FL_NONE)
      continue;
    fl_id p0 = fl_fabric_node_first_port(c->D, i);
    uint32_t np = fl_fabric_node_port_count(c->D, i);
    for (uint32_t k = 0; k < np; k++) {
      fl_id p = p0 + k;
      uint32_t num = fl_fabric_port_num(c->D, p);
      fl_id bp = fl_fabric_find_port(c->B, b, num);
      uint32_t ld = fl_fabric_port_lid(c->D, p);
      uint32_t lb = bp != FL_NONE ? fl_fabric_port_lid(c->B, bp) : 0;
      if (!ld || !lb || ld == lb)
        continue;
      uint64_t key = diff_mkkey(b, num);
      fnd f = {.rule = "diff.different",
               .sev = FL_SEV_WARNING,
               .loc_fab = c->D,
               .loc_ent = FL_ENT_PORT,
               .loc_id = p,
               .eps = {key},
               .n_eps = 1};
      fl_u64map_put(&c->key_dport, key, p);
      f.ev = json_pack("{s:s,s:i,s:i}", "attribute", "lid", "design",
                       (json_int_t)ld, "as_built", (json_int_t)lb);
      char *s = diff_ep_str(c, key);
      diff_emit(c, &f, diff_xprintf(c, "%s has LID %u, was %u", s, lb, ld));
      free(s);
    }
  }
}
