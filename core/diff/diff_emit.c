/* SPDX-License-Identifier: MIT */
/*
 * core/diff/diff_emit.c — what the diff reports: a finding (planes,
 * evidence, fix) and its work-order rows.
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

/* ---- output ---------------------------------------------------------- */

/* Add plane name @nm (NULL: none) to the distinct names @v[0..*n), kept
 * in natural order. */
static void add_plane(const char *nm, const char **v, size_t *n, size_t cap) {
  if (!nm)
    return;
  size_t i = 0;
  while (i < *n && fl_natcmp(v[i], nm) < 0)
    i++;
  if ((i < *n && strcmp(v[i], nm) == 0) || *n == cap)
    return;
  memmove(v + i + 1, v + i, (*n - i) * sizeof *v);
  v[i] = nm;
  (*n)++;
}

/* The planes finding @f touches on a multi-plane fabric: for each cable end
 * the plane of its port in the design and in the as-built (a cable moved
 * between planes names both), for each other node its plane in either;
 * "1", "1,2", or NULL (no planes). */
static char *finding_planes(dctx *c, const fnd *f) {
  const char *v[16];
  size_t n = 0;
  for (int i = 0; i < f->n_eps; i++) {
    fl_id dp = diff_key_dport(c, f->eps[i]), bp = diff_key_bport(c, f->eps[i]);
    fl_id dn = diff_key_dnode(c, f->eps[i]), bn = diff_key_node(f->eps[i]);
    add_plane(diff_plane_name_d(c, dp != FL_NONE ? diff_port_plane(c, 0, dp)
                                                 : diff_node_plane(c, 0, dn)),
              v, &n, 16);
    add_plane(diff_plane_name_b(c, bp != FL_NONE ? diff_port_plane(c, 1, bp)
                                                 : diff_node_plane(c, 1, bn)),
              v, &n, 16);
  }
  if (f->ids) {
    add_plane(diff_plane_name_d(c, diff_node_plane(c, 0, f->xd)), v, &n, 16);
    add_plane(diff_plane_name_b(c, diff_node_plane(c, 1, f->xb)), v, &n, 16);
  }
  for (int i = 0; !f->ids && i < f->n_extra; i++) {
    const char *nm = f->extra_nodes[i];
    add_plane(diff_plane_name_d(
                  c, diff_node_plane(c, 0, fl_fabric_find_node_name(c->D, nm))),
              v, &n, 16);
    add_plane(diff_plane_name_b(
                  c, diff_node_plane(c, 1, fl_fabric_find_node_name(c->B, nm))),
              v, &n, 16);
  }
  if (!n)
    return NULL;
  size_t len = 1;
  for (size_t i = 0; i < n; i++)
    len += strlen(v[i]) + 1;
  char *s = malloc(len);
  if (!s) {
    c->nomem = 1;
    return NULL;
  }
  s[0] = 0;
  for (size_t i = 0; i < n; i++) {
    if (i)
      strcat(s, ",");
    strcat(s, v[i]);
  }
  return s;
}

/* The identity of finding @f, which its fingerprint hashes (baselines and
 * waivers hold it): what the finding is about, never how it is worded. A
 * plan that gains port labels, racks or cable ids changes the messages of
 * the same fault (issue #30), so the key is the cable ends, by node name
 * and port number (the label only where there is no number), the other
 * nodes named, and the attribute compared; @f->key when given (a cause of
 * many cables); the message only for a finding about none of these. */
static char *finding_key(dctx *c, const fnd *f, const char *msg) {
  if (f->key)
    return diff_xstrdup(c, f->key);
  if (!f->n_eps && !f->n_extra)
    return diff_xstrdup(c, msg);
  size_t cap = 64, len = 0;
  char *k = malloc(cap);
  for (int i = 0; k && i < f->n_eps + f->n_extra; i++) {
    char pb[FL_ALIAS_MAX], num[16];
    const char *name, *port = "";
    if (i < f->n_eps) {
      name = diff_key_name(c, f->eps[i]);
      uint32_t n = diff_key_port_num(c, f->eps[i]);
      snprintf(num, sizeof num, "%u", n);
      port = n ? num : diff_key_port_str(c, f->eps[i], pb, sizeof pb);
    } else {
      name = f->extra_nodes[i - f->n_eps];
    }
    size_t need = len + strlen(name) + strlen(port) + 4;
    if (need > cap) {
      while (cap < need)
        cap *= 2;
      char *t = realloc(k, cap);
      if (!t) {
        free(k);
        k = NULL;
        break;
      }
      k = t;
    }
    len += (size_t)snprintf(k + len, cap - len, "%s%s%s%s", i ? ";" : "", name,
                            i < f->n_eps ? ":" : "", port);
  }
  const char *attr =
      f->ev ? json_string_value(json_object_get(f->ev, "attribute")) : NULL;
  char *out =
      k ? diff_xprintf(c, "%s%s%s", k, attr ? "|" : "", attr ? attr : "")
        : NULL;
  if (!k)
    c->nomem = 1;
  free(k);
  return out;
}

/* The design's cable id (link attribute `cable`) of design link @l, or
 * NULL. */
static const char *cable_of(const dctx *c, fl_id l) {
  return l != FL_NONE ? fl_fabric_attr(c->D, FL_ENT_LINK, l, "cable") : NULL;
}

/* A finding located at a planned cable carries its cable id in the
 * evidence (`cable_id`), a swap both (`cable_ids`, the cable at each end
 * to exchange, as the work order's cable and cable_b), so that a JSON
 * consumer finds the cable to pull without the plan (issue 34 §4). Not in
 * the finding's key: a relabelled cable is the same finding. */
static void cable_ids(dctx *c, fnd *f) {
  if (!json_is_object(f->ev) || f->loc_fab != c->D || f->loc_ent != FL_ENT_LINK)
    return;
  const char *a = cable_of(c, f->loc_id);
  const char *b = f->has_link2 ? cable_of(c, f->link2) : NULL;
  if (f->has_link2 && (a || b)) {
    if (json_object_set_new(f->ev, "cable_ids", json_pack("[s?s?]", a, b)) != 0)
      c->nomem = 1;
  } else if (a && json_object_set_new(f->ev, "cable_id", json_string(a)))
    c->nomem = 1;
}

void diff_emit(dctx *c, fnd *f, char *msg) {
  fl_finding_rec r;
  memset(&r, 0, sizeof r);
  r.rule = diff_xstrdup(c, f->rule);
  r.severity = f->sev;
  r.message = msg ? msg : diff_xstrdup(c, "");
  size_t cap = (size_t)f->n_eps + (size_t)f->n_extra;
  r.nodes = calloc(cap ? cap : 1, sizeof *r.nodes);
  r.ports = calloc(f->n_eps ? (size_t)f->n_eps : 1, sizeof *r.ports);
  if (!r.nodes || !r.ports)
    c->nomem = 1;
  for (int i = 0; r.nodes && i < f->n_extra; i++)
    r.nodes[r.n_nodes++] = diff_xstrdup(c, f->extra_nodes[i]);
  for (int i = 0; r.nodes && r.ports && i < f->n_eps; i++) {
    const char *nm = diff_key_name(c, f->eps[i]);
    int seen = 0;
    for (uint32_t j = 0; j < r.n_nodes; j++)
      seen |= strcmp(r.nodes[j], nm) == 0;
    if (!seen)
      r.nodes[r.n_nodes++] = diff_xstrdup(c, nm);
    r.ports[r.n_ports].node = diff_xstrdup(c, nm);
    uint32_t num = diff_key_port_num(c, f->eps[i]);
    char pb[FL_ALIAS_MAX], nb[16];
    const char *lab = diff_key_port_str(c, f->eps[i], pb, sizeof pb);
    snprintf(nb, sizeof nb, "%u", num);
    if (strcmp(lab, nb) != 0) /* a label, not the number printed */
      r.ports[r.n_ports].label = diff_xstrdup(c, lab);
    r.ports[r.n_ports++].port = num;
  }
  char *id = finding_key(c, f, r.message);
  cable_ids(c, f);
  if (f->ev) {
    r.evidence = json_dumps(f->ev, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(f->ev);
  }
  const char *file = NULL;
  uint32_t line = 0, col = 0;
  if (f->loc_fab &&
      fl_fabric_provenance(f->loc_fab, f->loc_ent, f->loc_id, &file, &line,
                           &col) == FL_OK &&
      file && *file) {
    r.file = diff_xstrdup(c, file);
    r.line = line;
    r.col = col;
  }
  r.plane = finding_planes(c, f);
  /* names repeating across planes: two planes' findings may read alike;
   * the planes keep their keys (fingerprints, baselines) apart, as a
   * plane's rule run prefixes them in check (core/host/host.c) */
  if (c->per_plane && r.plane)
    r.key = diff_xprintf(c, "%s|%s|%s", r.plane, f->rule, id ? id : "");
  else
    r.key = diff_xprintf(c, "%s|%s", f->rule, id ? id : "");
  free(id);
  r.fix = f->fix;
  f->fix = NULL;
  if (f->cause) {
    r.cause = diff_xstrdup(c, f->cause);
    r.cause_msg = diff_xstrdup(c, f->cause_msg ? f->cause_msg : f->cause);
  }
  if (fl_findings_push(c->fs, &r) != 0)
    c->nomem = 1;
}

/* A new zeroed row at the end of the work order, or NULL (no work order
 * asked for, or out of memory: c->nomem set). */
static fl_wo_row *wo_push(dctx *c) {
  fl_work_order *w = c->wo;
  if (!w)
    return NULL;
  if (w->n == w->cap) {
    size_t nc = w->cap ? w->cap * 2 : 16;
    fl_wo_row *v = realloc(w->v, nc * sizeof *v);
    if (!v) {
      c->nomem = 1;
      return NULL;
    }
    w->v = v;
    w->cap = nc;
  }
  fl_wo_row *r = &w->v[w->n++];
  memset(r, 0, sizeof *r);
  return r;
}

/* Names repeating across planes: row @r of the work order for @finding
 * (emitted just before) says its planes in front of the detail, "plane 2:
 * ..." (the node names alone do not tell the planes' switches apart). */
static void wo_plane(dctx *c, fl_wo_row *r, const char *finding) {
  const fl_finding_rec *f = c->fs->n ? &c->fs->v[c->fs->n - 1] : NULL;
  if (!c->per_plane || !f || !f->plane || strcmp(f->rule, finding) != 0 ||
      !r->detail)
    return;
  char *d =
      diff_xprintf(c, "%s %s: %s", strchr(f->plane, ',') ? "planes" : "plane",
                   f->plane, r->detail);
  if (d) {
    free(r->detail);
    r->detail = d;
  }
}

/* Attribute @name of design link @l ("" when none or @l is FL_NONE). */
static const char *link_attr(const dctx *c, fl_id l, const char *name) {
  const char *v =
      l != FL_NONE ? fl_fabric_attr(c->D, FL_ENT_LINK, l, name) : NULL;
  return v ? v : "";
}

/* Row @r's media, length and part number: the planned cable's (design link
 * @l), what a technician takes from the store. */
static void wo_cable_attrs(dctx *c, fl_wo_row *r, fl_id l) {
  free(r->media), free(r->length), free(r->part);
  r->media = diff_xstrdup(c, link_attr(c, l, "media"));
  r->length = diff_xstrdup(c, link_attr(c, l, "length"));
  r->part = diff_xstrdup(c, link_attr(c, l, "part-number"));
}

void diff_wo_cable_b(dctx *c, fl_id dlink) {
  if (!c->wo || !c->wo->n)
    return;
  fl_wo_row *r = &c->wo->v[c->wo->n - 1];
  free(r->cable_b), free(r->media_b), free(r->length_b), free(r->part_b);
  r->cable_b = diff_xstrdup(c, link_attr(c, dlink, "cable"));
  r->media_b = diff_xstrdup(c, link_attr(c, dlink, "media"));
  r->length_b = diff_xstrdup(c, link_attr(c, dlink, "length"));
  r->part_b = diff_xstrdup(c, link_attr(c, dlink, "part-number"));
}

void diff_wo_add(dctx *c, const char *action, const char *finding, uint64_t a,
                 uint64_t b, int has_b, uint64_t from, int has_from,
                 fl_id dlink, const char *detail) {
  fl_wo_row *r = wo_push(c);
  if (!r)
    return;
  char pb[FL_ALIAS_MAX];
  r->action = diff_xstrdup(c, action);
  r->finding = diff_xstrdup(c, finding);
  r->a_node = diff_xstrdup(c, diff_key_name(c, a));
  r->a_port = diff_xstrdup(c, diff_key_port_str(c, a, pb, sizeof pb));
  r->a_rack = diff_xstrdup(c, diff_rack_of(c, a));
  r->b_node = diff_xstrdup(c, has_b ? diff_key_name(c, b) : "");
  r->b_port =
      diff_xstrdup(c, has_b ? diff_key_port_str(c, b, pb, sizeof pb) : "");
  r->b_rack = diff_xstrdup(c, has_b ? diff_rack_of(c, b) : "");
  r->from_node = diff_xstrdup(c, has_from ? diff_key_name(c, from) : "");
  r->from_port = diff_xstrdup(
      c, has_from ? diff_key_port_str(c, from, pb, sizeof pb) : "");
  r->cable = diff_xstrdup(c, link_attr(c, dlink, "cable"));
  r->detail = diff_xstrdup(c, detail ? detail : "");
  r->a_u = diff_xstrdup(c, diff_dnode_attr(c, a, "u"));
  r->b_u = diff_xstrdup(c, has_b ? diff_dnode_attr(c, b, "u") : "");
  r->cable_b = diff_xstrdup(c, "");
  /* move: where the end is now, as well as where it must go */
  r->from_rack = diff_xstrdup(c, has_from ? diff_rack_of(c, from) : "");
  r->from_u = diff_xstrdup(c, has_from ? diff_dnode_attr(c, from, "u") : "");
  r->media_b = diff_xstrdup(c, "");
  r->length_b = diff_xstrdup(c, "");
  r->part_b = diff_xstrdup(c, "");
  wo_cable_attrs(c, r, dlink);
  /* the finding this row carries out: emitted just before */
  const fl_finding_rec *f = c->fs->n ? &c->fs->v[c->fs->n - 1] : NULL;
  char fp[17] = "";
  if (f && strcmp(f->rule, finding) == 0)
    fl_finding_fingerprint(f, fp);
  r->fix = diff_xstrdup(c, *fp && f->fix ? f->fix->description : "");
  r->fingerprint = diff_xstrdup(c, fp);
  wo_plane(c, r, finding);
}

/* One work-order row per planned cable of design node @n (a node that was
 * not found): a technician needs the port, the far end and the cable id of
 * each, not only the node's name. "a" is the missing node's end. */
void diff_wo_node_cables(dctx *c, const char *action, const char *finding,
                         fl_id n, const char *detail) {
  const fl_fabric *D = c->D;
  uint32_t nl = fl_fabric_link_count(D);
  char num[16];
  for (fl_id l = 0; l < nl && c->wo; l++) {
    fl_id p0 = fl_fabric_link_port(D, l, 0), p1 = fl_fabric_link_port(D, l, 1);
    int side = fl_fabric_port_node(D, p0) == n   ? 0
               : fl_fabric_port_node(D, p1) == n ? 1
                                                 : -1;
    if (side < 0)
      continue;
    fl_id pa = side ? p1 : p0, pb = side ? p0 : p1;
    fl_id nb = fl_fabric_port_node(D, pb);
    diff_wo_node(c, action, finding, fl_fabric_node_name(D, n),
                 fl_fabric_attr(D, FL_ENT_NODE, n, "rack"), detail);
    if (c->nomem || !c->wo->n)
      return;
    fl_wo_row *r = &c->wo->v[c->wo->n - 1];
    const char *la = fl_fabric_port_label(D, pa),
               *lb = fl_fabric_port_label(D, pb);
    const char *rb = fl_fabric_attr(D, FL_ENT_NODE, nb, "rack");
    const char *ub = fl_fabric_attr(D, FL_ENT_NODE, nb, "u");
    const char *ua = fl_fabric_attr(D, FL_ENT_NODE, n, "u");
    free(r->a_port), free(r->b_node), free(r->b_port), free(r->b_rack);
    free(r->cable), free(r->a_u), free(r->b_u);
    r->a_u = diff_xstrdup(c, ua ? ua : "");
    snprintf(num, sizeof num, "%u", fl_fabric_port_num(D, pa));
    r->a_port = diff_xstrdup(c, *la ? la : num);
    r->b_node = diff_xstrdup(c, fl_fabric_node_name(D, nb));
    snprintf(num, sizeof num, "%u", fl_fabric_port_num(D, pb));
    r->b_port = diff_xstrdup(c, *lb ? lb : num);
    r->b_rack = diff_xstrdup(c, rb ? rb : "");
    r->b_u = diff_xstrdup(c, ub ? ub : "");
    r->cable = diff_xstrdup(c, link_attr(c, l, "cable"));
    wo_cable_attrs(c, r, l);
  }
}

void diff_wo_node(dctx *c, const char *action, const char *finding,
                  const char *node, const char *rack, const char *detail) {
  fl_wo_row *r = wo_push(c);
  if (!r)
    return;
  r->action = diff_xstrdup(c, action);
  r->finding = diff_xstrdup(c, finding);
  r->a_node = diff_xstrdup(c, node);
  r->a_port = diff_xstrdup(c, "");
  r->a_rack = diff_xstrdup(c, rack ? rack : "");
  r->b_node = diff_xstrdup(c, "");
  r->b_port = diff_xstrdup(c, "");
  r->b_rack = diff_xstrdup(c, "");
  r->from_node = diff_xstrdup(c, "");
  r->from_port = diff_xstrdup(c, "");
  r->cable = diff_xstrdup(c, "");
  r->detail = diff_xstrdup(c, detail);
  /* the finding this row carries out (emitted just before): its
   * fingerprint; `fix` stays empty on a `check` row (docs/rules/diff.md) */
  const fl_finding_rec *f = c->fs->n ? &c->fs->v[c->fs->n - 1] : NULL;
  char fp[17] = "";
  if (f && strcmp(f->rule, finding) == 0)
    fl_finding_fingerprint(f, fp);
  r->fingerprint = diff_xstrdup(c, fp);
  wo_plane(c, r, finding);
}

/* {"node", "port"[, "label"]}: a port is always a number (JSON output is
 * consistent, schema/findings.schema.json); the label an Ethernet plan or
 * capture gives it (`Ethernet1/3`, `swp3`) is said apart, and a planned
 * label the as-built does not have has no number. */
json_t *diff_ep_json(dctx *c, uint64_t k) {
  char pb[FL_ALIAS_MAX], num[16];
  const char *txt = diff_key_port_str(c, k, pb, sizeof pb);
  uint32_t n = diff_key_port_num(c, k);
  json_t *o = json_pack("{s:s}", "node", diff_key_name(c, k));
  if (n)
    json_object_set_new(o, "port", json_integer(n));
  snprintf(num, sizeof num, "%u", n);
  if (!n || strcmp(txt, num) != 0)
    json_object_set_new(o, "label", json_string(txt));
  return o;
}

json_t *diff_ep_place_json(dctx *c, uint64_t k) {
  json_t *o = diff_ep_json(c, k);
  const char *rack = diff_rack_of(c, k), *u = diff_dnode_attr(c, k, "u");
  if (o && *rack && json_object_set_new(o, "rack", json_string(rack)) != 0)
    c->nomem = 1;
  if (o && *u && json_object_set_new(o, "u", json_string(u)) != 0)
    c->nomem = 1;
  return o;
}

/* A cable end of the fix: node, number, label as the work order says it. */
void diff_fix_end(dctx *c, uint64_t k, fl_fix_end *e) {
  char pb[FL_ALIAS_MAX], num[16];
  const char *txt = diff_key_port_str(c, k, pb, sizeof pb);
  uint32_t n = diff_key_port_num(c, k);
  snprintf(num, sizeof num, "%u", n);
  if (fl_fix_end_set(e, diff_key_name(c, k), n, strcmp(txt, num) ? txt : "") !=
      0)
    c->nomem = 1;
}

/* A fix of one change or two moving cable ends: the as-built cable
 * (@cable0, @cable1) has its end @from moved to @to. */
void diff_fix_move(dctx *c, fl_fix_rec *fx, uint64_t cable0, uint64_t cable1,
                   uint64_t from, uint64_t to) {
  fl_fix_change_rec *ch = &fx->v[fx->n++];
  ch->kind = FL_FIX_MOVE_END;
  diff_fix_end(c, cable0, &ch->cable[0]);
  diff_fix_end(c, cable1, &ch->cable[1]);
  ch->end = from == cable1;
  diff_fix_end(c, to, &ch->to);
}

json_t *diff_cable_json(dctx *c, uint64_t a, uint64_t b) {
  return json_pack("[o,o]", diff_ep_json(c, a), diff_ep_json(c, b));
}
