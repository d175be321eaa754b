/* SPDX-License-Identifier: MIT */
/*
 * core/report/pic_draw.c — the drawing engine the views share (pic_view.h):
 * fabric nodes to drawn nodes (alone, or folded into hosts and group
 * nodes), cables to edges (alone, or bundled per pair of drawn nodes),
 * with severities, finding classes, tooltips and labels; plus the legend
 * and the list of findings beside a picture.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/fabric.h"
#include "report/pic_view.h"

int32_t pic_rank_of(const fl_fabric *fab, fl_id n) {
  if (fl_fabric_node_kind(fab, n) == FL_NODE_CA)
    return 0;
  uint32_t t = fl_fabric_node_tier(fab, n);
  return t == FL_TIER_UNKNOWN || t == 0 ? 1 : (int32_t)(t > 64 ? 64 : t);
}

const char *pic_tier_name(uint32_t t, char *buf, size_t size) {
  static const char *const NAMES[] = {"hosts", "leaves", "spines", "cores"};
  if (t < 4)
    snprintf(buf, size, "%s", NAMES[t]);
  else
    snprintf(buf, size, "tier %u", t);
  return buf;
}

/* ---- tooltips, notes, legend ------------------------------------------------
 */

char *pic_tooltip_findings(pic_scene *s, const pic_ctx *c, const char *tip,
                           const uint32_t *f, uint32_t n) {
  char *out = pic_strdup(s, tip ? tip : "");
  for (uint32_t i = 0; i < n && i < 3 && out; i++) {
    const fl_finding_rec *r = &c->fs->v[f[i] - 1];
    char *t = pic_printf(s, "%s%s[%s] %s: %.800s%s", out, *out ? "\n" : "",
                         fl_severity_name(r->severity), r->rule, r->message,
                         strlen(r->message) > 800 ? "..." : "");
    out = t ? t : out;
  }
  if (n > 3 && out) {
    char *t = pic_printf(s, "%s\n(and %u more)", out, n - 3);
    out = t ? t : out;
  }
  return out;
}

int pic_add_notes(pic_scene *s, const pic_ctx *c, const char *prefix) {
  size_t plen = prefix ? strlen(prefix) : 0;
  for (size_t i = 0; i < c->fs->n; i++) {
    const fl_finding_rec *r = &c->fs->v[i];
    if (!fl_finding_active(r) || (prefix && strncmp(r->rule, prefix, plen)))
      continue;
    if (s->n_notes >= PIC_MAX_NOTES) {
      s->notes_left_out++;
      continue;
    }
    if (pic_scene_note(s, (uint32_t)i + 1, r->severity, r->rule, r->message))
      return -1;
  }
  return 0;
}

int pic_add_sev_legend(pic_scene *s, const pic_ctx *c) {
  uint8_t seen[4] = {0};
  for (size_t i = 0; i < c->fs->n; i++)
    if (fl_finding_active(&c->fs->v[i]) && c->fs->v[i].severity < 4)
      seen[c->fs->v[i].severity] = 1;
  static const struct {
    uint32_t sev;
    const char *text;
  } ROWS[] = {{FL_SEV_ERROR, "named by an error"},
              {FL_SEV_WARNING, "named by a warning"},
              {FL_SEV_INFO, "named by an info finding"}};
  for (size_t i = 0; i < 3; i++)
    if (seen[ROWS[i].sev] && pic_scene_legend(s, pic_sev_colour(ROWS[i].sev),
                                              PIC_STYLE_BOLD, 0, ROWS[i].text))
      return -1;
  return 0;
}

/* ---- the engine ------------------------------------------------------------
 */

/* Per drawn node and per edge counters, grown with the scene. */
typedef struct draw_tmp {
  uint32_t *members; /* [scene nodes] fabric nodes folded in */
  uint32_t *hosts;   /* [scene nodes] distinct systems among them */
  size_t cap_nodes;
  uint32_t *count; /* [edges] cables */
  double *gbps;    /* [edges] summed Gb/s */
  double *heat;    /* [edges] hottest member, -1 none */
  size_t cap_edges;
  fl_strmap systems;  /* "scene node|system" seen */
  char **group_label; /* [scene nodes] group label, or NULL */
} draw_tmp;

static int tmp_nodes(draw_tmp *t, size_t n) {
  if (n <= t->cap_nodes)
    return 0;
  size_t nc = t->cap_nodes ? t->cap_nodes : 256;
  while (nc < n)
    nc *= 2;
  uint32_t *m = realloc(t->members, nc * sizeof *m);
  if (m)
    t->members = m;
  uint32_t *h = realloc(t->hosts, nc * sizeof *h);
  if (h)
    t->hosts = h;
  char **g = realloc(t->group_label, nc * sizeof *g);
  if (g)
    t->group_label = g;
  if (!m || !h || !g)
    return -1;
  for (size_t i = t->cap_nodes; i < nc; i++)
    m[i] = 0, h[i] = 0, g[i] = NULL;
  t->cap_nodes = nc;
  return 0;
}

static int tmp_edges(draw_tmp *t, size_t n) {
  if (n <= t->cap_edges)
    return 0;
  size_t nc = t->cap_edges ? t->cap_edges : 256;
  while (nc < n)
    nc *= 2;
  uint32_t *c = realloc(t->count, nc * sizeof *c);
  if (c)
    t->count = c;
  double *g = realloc(t->gbps, nc * sizeof *g);
  if (g)
    t->gbps = g;
  double *h = realloc(t->heat, nc * sizeof *h);
  if (h)
    t->heat = h;
  if (!c || !g || !h)
    return -1;
  for (size_t i = t->cap_edges; i < nc; i++)
    c[i] = 0, g[i] = 0, h[i] = -1;
  t->cap_edges = nc;
  return 0;
}

static void tmp_free(draw_tmp *t) {
  free(t->members);
  free(t->hosts);
  free(t->count);
  free(t->gbps);
  free(t->heat);
  free(t->group_label);
  fl_strmap_free(&t->systems);
}

void pic_draw_free(pic_draw *d) {
  free(d->drawn);
  fl_u64map_free(&d->bundles);
  fl_strmap_free(&d->edge_ids);
  memset(d, 0, sizeof *d);
}

uint32_t pic_draw_find_edge(const pic_draw *d, const char *id) {
  uint32_t v = fl_strmap_get(&d->edge_ids, id, strlen(id));
  return v == FL_MAP_ABSENT ? PIC_NONE : v;
}

uint32_t pic_draw_edge(pic_scene *s, pic_draw *d, uint32_t a, uint32_t b,
                       const char *id) {
  uint32_t have = pic_draw_find_edge(d, id);
  if (have != PIC_NONE)
    return have;
  uint32_t e = pic_scene_edge(s, a, b, id);
  if (e == PIC_NONE ||
      fl_strmap_put(&d->edge_ids, id, strlen(id), e) == FL_MAP_ABSENT) {
    s->oom = 1;
    return PIC_NONE;
  }
  return e;
}

static int kept(const pic_ctx *c, fl_id n) {
  return !c->keep || c->keep[n];
}

static int is_switch(const fl_fabric *fab, fl_id n) {
  return fl_fabric_node_kind(fab, n) != FL_NODE_CA;
}

/* Would one node per switch be too many to draw? Counts the drawn nodes,
 * the nodes of the widest row (pic_rank_of(): the hosts nodes, then each
 * tier) and the switch pairs with cables, as if drawn alone. */
static int too_large(const pic_ctx *c, int *err) {
  const fl_fabric *fab = c->fab;
  uint32_t nn = fl_fabric_node_count(fab), nl = fl_fabric_link_count(fab);
  size_t nodes = 0, row[65] = {0}, widest = 0;
  uint8_t *has_hosts = calloc(nn + 1, 1);
  if (!has_hosts)
    return *err = 1, 0;
  for (fl_id n = 0; n < nn; n++) {
    if (!kept(c, n))
      continue;
    int32_t r = pic_rank_of(fab, n);
    if (is_switch(fab, n) || c->alone[n])
      nodes++, row[r]++;
    else if (c->home[n] != FL_NONE && !has_hosts[c->home[n]])
      has_hosts[c->home[n]] = 1, nodes++, row[r]++;
  }
  free(has_hosts);
  for (size_t r = 0; r < 65; r++)
    widest = row[r] > widest ? row[r] : widest;
  if (nodes > PIC_MAX_ELEMENT_NODES || widest > PIC_MAX_ROW_NODES)
    return 1;
  fl_u64map pairs = {0};
  size_t edges = 0;
  for (fl_id l = 0; l < nl && edges <= PIC_MAX_ELEMENT_EDGES; l++) {
    fl_id pa = fl_fabric_link_port(fab, l, 0),
          pb = fl_fabric_link_port(fab, l, 1);
    fl_id a = fl_fabric_port_node(fab, pa), b = fl_fabric_port_node(fab, pb);
    if (a == FL_NONE || b == FL_NONE || !is_switch(fab, a) ||
        !is_switch(fab, b) || !kept(c, a) || !kept(c, b))
      continue;
    uint64_t key = a < b ? ((uint64_t)a << 32 | b) : ((uint64_t)b << 32 | a);
    uint32_t r = fl_u64map_put(&pairs, key, (uint32_t)edges);
    if (r == FL_MAP_ABSENT) {
      *err = 1;
      break;
    }
    edges += r == edges;
  }
  fl_u64map_free(&pairs);
  return edges > PIC_MAX_ELEMENT_EDGES;
}

/* Derived pods (fabrics of 3 or more switch tiers, switches without pod or
 * su attributes): the connected groups of switches below the top tier,
 * each named by its first node. @rep[n] is that first node, FL_NONE when
 * not derived. Union-find, O(links * alpha). */
static int derive_pods(const fl_fabric *fab, fl_id *rep) {
  uint32_t nn = fl_fabric_node_count(fab), nl = fl_fabric_link_count(fab);
  uint32_t top = 0;
  for (fl_id n = 0; n < nn; n++) {
    rep[n] = n;
    if (is_switch(fab, n) && fl_fabric_node_tier(fab, n) != FL_TIER_UNKNOWN &&
        fl_fabric_node_tier(fab, n) > top)
      top = fl_fabric_node_tier(fab, n);
  }
  for (fl_id l = 0; l < nl; l++) {
    fl_id a = fl_fabric_port_node(fab, fl_fabric_link_port(fab, l, 0));
    fl_id b = fl_fabric_port_node(fab, fl_fabric_link_port(fab, l, 1));
    if (a == FL_NONE || b == FL_NONE || !is_switch(fab, a) ||
        !is_switch(fab, b) || fl_fabric_node_tier(fab, a) >= top ||
        fl_fabric_node_tier(fab, b) >= top)
      continue;
    while (rep[a] != a)
      a = rep[a] = rep[rep[a]];
    while (rep[b] != b)
      b = rep[b] = rep[rep[b]];
    if (a != b)
      rep[a > b ? a : b] = a < b ? a : b; /* the smaller id names it */
  }
  for (fl_id n = 0; n < nn; n++) {
    fl_id r = n;
    while (rep[r] != r)
      r = rep[r];
    rep[n] = r;
  }
  for (fl_id n = 0; n < nn; n++)
    if (top < 3 || !is_switch(fab, n) || fl_fabric_node_tier(fab, n) >= top ||
        fl_fabric_attr(fab, FL_ENT_NODE, n, "pod") ||
        fl_fabric_attr(fab, FL_ENT_NODE, n, "su"))
      rep[n] = FL_NONE;
  return 0;
}

/* The default group of switch @sw: pod / SU and tier, else the derived pod
 * and tier, else the tier; within its plane when it has one (the planes of
 * a multi-plane fabric are separate subnets: one "spines" node for both
 * planes' spines drew two fabrics as one, an outside tester found). */
static void default_group(const fl_fabric *fab, const fl_id *podrep, fl_id sw,
                          char *key, size_t ksize, char *label, size_t lsize,
                          int32_t *rank) {
  const char *plane = fl_fabric_attr(fab, FL_ENT_NODE, sw, "plane");
  if (plane && ksize > 16 && lsize > 16) {
    char enc[128];
    size_t len = 0;
    pic_id_enc(enc, sizeof enc, &len, plane);
    int kn = snprintf(key, ksize, "plane-%s-", enc);
    int ln = snprintf(label, lsize, "plane %.64s, ", plane);
    if (kn > 0 && (size_t)kn < ksize && ln > 0 && (size_t)ln < lsize) {
      key += kn, ksize -= (size_t)kn;
      label += ln, lsize -= (size_t)ln;
    }
  }
  char tn[32], enc[256];
  int32_t r = pic_rank_of(fab, sw);
  pic_tier_name((uint32_t)r, tn, sizeof tn);
  const char *pod = fl_fabric_attr(fab, FL_ENT_NODE, sw, "pod");
  const char *su = fl_fabric_attr(fab, FL_ENT_NODE, sw, "su");
  size_t len = 0;
  *rank = r;
  if (pod || su) {
    pic_id_enc(enc, sizeof enc, &len, pod ? pod : su);
    snprintf(key, ksize, "%s-%s-tier-%d", pod ? "pod" : "su", enc, r);
    snprintf(label, lsize, "%s %s, %s", pod ? "pod" : "SU", pod ? pod : su, tn);
  } else if (podrep && podrep[sw] != FL_NONE) {
    const char *first = fl_fabric_node_name(fab, podrep[sw]);
    pic_id_enc(enc, sizeof enc, &len, first);
    snprintf(key, ksize, "podof-%s-tier-%d", enc, r);
    snprintf(label, lsize, "pod of %s, %s", first, tn);
  } else {
    snprintf(key, ksize, "tier-%d", r);
    snprintf(label, lsize, "%s", tn);
  }
}

/* Mark drawn node @i with the findings and severity of fabric node @n. */
static void add_marks(pic_scene *s, const pic_ctx *c, uint32_t i, fl_id n) {
  const pic_marks *m = &c->marks;
  pic_node *d = &s->nodes[i];
  if (m->node_sev[n] > d->sev)
    d->sev = m->node_sev[n];
  for (uint32_t k = m->node_off[n]; k < m->node_off[n + 1]; k++)
    d->cls = pic_cls_add(s, d->cls, m->node_f[k]);
}

/* The drawn node of a switch: alone, or its group. */
static uint32_t place_switch(pic_scene *s, const pic_ctx *c,
                             const pic_draw_opts *o, const fl_id *podrep,
                             int alone, fl_id n, draw_tmp *t) {
  const fl_fabric *fab = c->fab;
  char id[PIC_ID_MAX], key[PIC_ID_MAX / 2], label[512];
  int added = 0;
  uint32_t i;
  if (alone) {
    i = pic_scene_node(
        s, pic_id(id, sizeof id, "node-", fl_fabric_node_name(fab, n)),
        PIC_SHAPE_SWITCH, &added);
    if (i == PIC_NONE)
      return PIC_NONE;
    pic_node *d = &s->nodes[i];
    d->rank = pic_rank_of(fab, n);
    d->label = pic_strdup(s, fl_fabric_node_name(fab, n));
    d->node = n;
  } else {
    int32_t rank = 1;
    if (!o->switch_group || o->switch_group(o->arg, n, key, sizeof key, label,
                                            sizeof label, &rank) != 0)
      default_group(fab, podrep, n, key, sizeof key, label, sizeof label,
                    &rank);
    snprintf(id, sizeof id, "group-%s", key);
    i = pic_scene_node(s, id, PIC_SHAPE_GROUP, &added);
    if (i == PIC_NONE || tmp_nodes(t, s->n_nodes) != 0)
      return PIC_NONE;
    if (added) {
      s->nodes[i].rank = rank;
      s->nodes[i].node = FL_NONE;
      t->group_label[i] = pic_strdup(s, label);
    }
  }
  if (tmp_nodes(t, s->n_nodes) != 0)
    return PIC_NONE;
  t->members[i]++;
  add_marks(s, c, i, n);
  if (o->cluster_of && added)
    s->nodes[i].cluster = o->cluster_of(o->arg, s, n);
  return i;
}

/* The hosts node @id, created in the hosts row (rank 0) on first use. */
static uint32_t hosts_node(pic_scene *s, const char *id, int *added) {
  uint32_t i = pic_scene_node(s, id, PIC_SHAPE_HOSTS, added);
  if (i != PIC_NONE && *added) {
    s->nodes[i].rank = 0;
    s->nodes[i].node = FL_NONE;
  }
  return i;
}

/* The drawn node of a CA: alone, the hosts node of its domain value
 * (@o->ca_whole), or the hosts node of its switch or of its switch's group
 * (split by @o->ca_split). */
static uint32_t place_ca(pic_scene *s, const pic_ctx *c, const pic_draw_opts *o,
                         int alone, fl_id n, const pic_draw *d, draw_tmp *t) {
  const fl_fabric *fab = c->fab;
  char id[PIC_ID_MAX];
  int added = 0;
  uint32_t i;
  if (alone) {
    i = pic_scene_node(
        s, pic_id(id, sizeof id, "node-", fl_fabric_node_name(fab, n)),
        PIC_SHAPE_HOST, &added);
    if (i == PIC_NONE)
      return PIC_NONE;
    s->nodes[i].rank = 0;
    s->nodes[i].label = pic_strdup(s, fl_fabric_node_name(fab, n));
    s->nodes[i].node = n;
  } else if (o->ca_whole && o->ca_whole(o->arg, n)) {
    /* one hosts node per value, whatever the CA's switch */
    fl_id h = c->home[n];
    if (h == FL_NONE || d->drawn[h] == PIC_NONE)
      return PIC_NONE;
    size_t len = (size_t)snprintf(id, sizeof id, "valuehosts-");
    pic_id_enc(id, sizeof id, &len, o->ca_whole(o->arg, n));
    if ((i = hosts_node(s, id, &added)) == PIC_NONE)
      return PIC_NONE;
  } else {
    fl_id h = c->home[n];
    if (h == FL_NONE || d->drawn[h] == PIC_NONE)
      return PIC_NONE;
    const pic_node *hn = &s->nodes[d->drawn[h]];
    size_t len = 0;
    if (hn->node != FL_NONE) {
      len =
          strlen(pic_id(id, sizeof id, "hosts-", fl_fabric_node_name(fab, h)));
    } else {
      len = (size_t)snprintf(id, sizeof id, "grouphosts-%s", hn->id + 6);
      len = len < sizeof id ? len : sizeof id - 1;
    }
    const char *split = o->ca_split ? o->ca_split(o->arg, n) : NULL;
    if (split && len + 1 < sizeof id) {
      id[len++] = '~';
      id[len] = '\0';
      pic_id_enc(id, sizeof id, &len, split);
    }
    if ((i = hosts_node(s, id, &added)) == PIC_NONE)
      return PIC_NONE;
  }
  if (tmp_nodes(t, s->n_nodes) != 0)
    return PIC_NONE;
  t->members[i]++;
  const char *sys = fl_fabric_node_system(fab, n);
  char key[PIC_ID_MAX];
  int kl = snprintf(key, sizeof key, "%u|%s", i,
                    *sys ? sys : fl_fabric_node_name(fab, n));
  size_t before = fl_strmap_len(&t->systems);
  if (fl_strmap_put(&t->systems, key,
                    (size_t)(kl < (int)sizeof key ? kl : (int)sizeof key - 1),
                    0) == FL_MAP_ABSENT)
    return PIC_NONE;
  t->hosts[i] += fl_strmap_len(&t->systems) > before;
  add_marks(s, c, i, n);
  if (o->cluster_of && added)
    s->nodes[i].cluster = o->cluster_of(o->arg, s, n);
  return i;
}

static int place_nodes(pic_scene *s, const pic_ctx *c, const pic_draw_opts *o,
                       pic_draw *d, draw_tmp *t) {
  const fl_fabric *fab = c->fab;
  uint32_t nn = fl_fabric_node_count(fab);
  fl_id *podrep = NULL;
  if (d->grouped && !o->switch_group) {
    podrep = malloc((nn + 1) * sizeof *podrep);
    if (!podrep || derive_pods(fab, podrep) != 0) {
      free(podrep);
      return -1;
    }
  }
  int rc = 0;
  for (fl_id n = 0; n < nn && rc == 0; n++) {
    if (!kept(c, n) || !is_switch(fab, n))
      continue;
    d->drawn[n] =
        place_switch(s, c, o, podrep, !d->grouped || c->alone[n], n, t);
    rc = d->drawn[n] == PIC_NONE ? -1 : 0;
  }
  free(podrep);
  for (fl_id n = 0; n < nn && rc == 0; n++) {
    if (!kept(c, n) || is_switch(fab, n))
      continue;
    d->drawn[n] = place_ca(s, c, o, c->alone[n], n, d, t);
    if (d->drawn[n] == PIC_NONE) {
      if (s->oom)
        rc = -1;
      else if (c->home[n] == FL_NONE)
        d->cas_unplaced++;
    }
  }
  return rc;
}

/* "33 - 17, 1xHDR": the ports and rate of cable @l from @a's side. */
static char *cable_label(pic_scene *s, const fl_fabric *fab, fl_id l, fl_id pa,
                         fl_id pb) {
  uint32_t w = fl_fabric_link_width(fab, l), sp = fl_fabric_link_speed(fab, l);
  const char *spn = fl_speed_name(sp);
  if (w && strcmp(spn, "??") != 0)
    return pic_printf(s, "%u - %u, %ux%s", fl_fabric_port_num(fab, pa),
                      fl_fabric_port_num(fab, pb), w, spn);
  return pic_printf(s, "%u - %u", fl_fabric_port_num(fab, pa),
                    fl_fabric_port_num(fab, pb));
}

static void edge_marks(pic_scene *s, const pic_ctx *c, pic_edge *e, fl_id l) {
  const pic_marks *m = &c->marks;
  if (m->link_sev[l] > e->sev)
    e->sev = m->link_sev[l];
  for (uint32_t k = m->link_off[l]; k < m->link_off[l + 1]; k++)
    e->cls = pic_cls_add(s, e->cls, m->link_f[k]);
}

/* One cable drawn alone between drawn nodes @da and @db. */
static int cable_alone(pic_scene *s, const pic_ctx *c, pic_draw *d, fl_id l,
                       fl_id pa, fl_id pb, uint32_t da, uint32_t db,
                       draw_tmp *t, const pic_draw_opts *o) {
  const fl_fabric *fab = c->fab;
  fl_id na = fl_fabric_port_node(fab, pa), nb = fl_fabric_port_node(fab, pb);
  if (s->nodes[da].rank < s->nodes[db].rank) { /* draw from above */
    uint32_t td = da;
    da = db, db = td;
    fl_id tp = pa;
    pa = pb, pb = tp;
    fl_id tn = na;
    na = nb, nb = tn;
  }
  char id[PIC_ID_MAX];
  pic_id_link(id, sizeof id, fl_fabric_node_name(fab, na),
              fl_fabric_port_num(fab, pa), fl_fabric_node_name(fab, nb),
              fl_fabric_port_num(fab, pb));
  uint32_t e = pic_draw_edge(s, d, da, db, id);
  if (e == PIC_NONE || tmp_edges(t, s->n_edges) != 0)
    return -1;
  pic_edge *ed = &s->edges[e];
  ed->label = cable_label(s, fab, l, pa, pb);
  ed->constraint = s->nodes[da].rank != s->nodes[db].rank;
  edge_marks(s, c, ed, l);
  t->count[e]++;
  t->gbps[e] += fl_fabric_link_gbps(fab, l);
  if (o->link_heat && o->link_heat[l] > t->heat[e])
    t->heat[e] = o->link_heat[l];
  char *tip =
      pic_printf(s, "%s port %u - %s port %u: %s", fl_fabric_node_name(fab, na),
                 fl_fabric_port_num(fab, pa), fl_fabric_node_name(fab, nb),
                 fl_fabric_port_num(fab, pb), ed->label ? ed->label : "");
  const pic_marks *m = &c->marks;
  ed->tooltip = pic_tooltip_findings(s, c, tip, m->link_f + m->link_off[l],
                                     m->link_off[l + 1] - m->link_off[l]);
  return 0;
}

/* Add cable @l to the bundle of drawn nodes @da, @db. */
static int cable_bundle(pic_scene *s, const pic_ctx *c, pic_draw *d, fl_id l,
                        uint32_t da, uint32_t db, draw_tmp *t,
                        const pic_draw_opts *o) {
  if (s->nodes[da].rank < s->nodes[db].rank ||
      (s->nodes[da].rank == s->nodes[db].rank && da > db)) {
    uint32_t td = da;
    da = db, db = td;
  }
  uint64_t key = (uint64_t)da << 32 | db;
  uint32_t e = fl_u64map_get(&d->bundles, key);
  if (e == FL_MAP_ABSENT) {
    const char *ia = s->nodes[da].id, *ib = s->nodes[db].id;
    if (strcmp(ia, ib) > 0) {
      const char *tmp = ia;
      ia = ib, ib = tmp;
    }
    char *id = pic_printf(s, "bundle-%s~%s", ia, ib);
    e = id ? pic_draw_edge(s, d, da, db, id) : PIC_NONE;
    if (e == PIC_NONE || fl_u64map_put(&d->bundles, key, e) == FL_MAP_ABSENT)
      return -1;
    s->edges[e].constraint = s->nodes[da].rank != s->nodes[db].rank;
  }
  if (tmp_edges(t, s->n_edges) != 0)
    return -1;
  edge_marks(s, c, &s->edges[e], l);
  t->count[e]++;
  t->gbps[e] += c->fab ? fl_fabric_link_gbps(c->fab, l) : 0;
  if (o->link_heat && o->link_heat[l] > t->heat[e])
    t->heat[e] = o->link_heat[l];
  return 0;
}

static int place_cables(pic_scene *s, const pic_ctx *c, const pic_draw_opts *o,
                        pic_draw *d, draw_tmp *t) {
  const fl_fabric *fab = c->fab;
  uint32_t nl = fl_fabric_link_count(fab);
  for (fl_id l = 0; l < nl; l++) {
    fl_id pa = fl_fabric_link_port(fab, l, 0),
          pb = fl_fabric_link_port(fab, l, 1);
    fl_id na = fl_fabric_port_node(fab, pa), nb = fl_fabric_port_node(fab, pb);
    if (na == FL_NONE || nb == FL_NONE)
      continue;
    uint32_t da = d->drawn[na], db = d->drawn[nb];
    if (da == PIC_NONE || db == PIC_NONE)
      continue;
    if (da == db) {
      d->internal++;
      continue;
    }
    int alone = (c->marks.link_sev[l] || (o->link_alone && o->link_alone[l])) &&
                s->nodes[da].node != FL_NONE && s->nodes[db].node != FL_NONE;
    int rc = alone ? cable_alone(s, c, d, l, pa, pb, da, db, t, o)
                   : cable_bundle(s, c, d, l, da, db, t, o);
    if (rc != 0)
      return -1;
  }
  return 0;
}

/* Heat colour of @load relative to @max: ColorBrewer YlOrRd, 9 classes. */
static const char *heat_colour(double load, double max) {
  static const char *const YLORRD[] = {"#ffffcc", "#ffeda0", "#fed976",
                                       "#feb24c", "#fd8d3c", "#fc4e2a",
                                       "#e31a1c", "#bd0026", "#800026"};
  if (load < 0)
    return NULL;
  double f = max > 0 ? load / max : 0;
  int k = (int)(f * 8.0 + 0.5);
  return YLORRD[k < 0 ? 0 : k > 8 ? 8 : k];
}

/* Labels, tooltips and heat colours once every member is counted. */
static int finish(pic_scene *s, const pic_ctx *c, const pic_draw_opts *o,
                  draw_tmp *t) {
  for (size_t i = 0; i < s->n_nodes; i++) {
    pic_node *n = &s->nodes[i];
    uint32_t mem = i < t->cap_nodes ? t->members[i] : 0;
    if (n->shape == PIC_SHAPE_GROUP && t->group_label[i]) {
      n->label = pic_printf(s, "%s\n%u switch%s", t->group_label[i], mem,
                            mem == 1 ? "" : "es");
      n->tooltip = pic_printf(s, "%s: %u switch%s", t->group_label[i], mem,
                              mem == 1 ? "" : "es");
    } else if (n->shape == PIC_SHAPE_HOSTS) {
      uint32_t h = t->hosts[i];
      n->label = h == mem ? pic_printf(s, "%u host%s", h, h == 1 ? "" : "s")
                          : pic_printf(s, "%u CAs\nof %u hosts", mem, h);
      n->tooltip = pic_printf(s, "%u CA%s of %u host%s, drawn as one node", mem,
                              mem == 1 ? "" : "s", h, h == 1 ? "" : "s");
    } else if (n->node != FL_NONE && !n->tooltip) {
      char tn[32];
      n->tooltip =
          pic_printf(s, "%s (%s)", fl_fabric_node_name(c->fab, n->node),
                     pic_tier_name((uint32_t)n->rank, tn, sizeof tn));
    }
    if (n->node != FL_NONE || n->shape == PIC_SHAPE_GROUP ||
        n->shape == PIC_SHAPE_HOSTS) {
      uint32_t f[3], nf = 0;
      for (const char *p = n->cls; p && *p && nf < 3;) {
        f[nf++] = (uint32_t)strtoul(p + 1, NULL, 10);
        p = strchr(p, ' ');
        p = p ? p + 1 : NULL;
      }
      n->tooltip = pic_tooltip_findings(s, c, n->tooltip, f, nf);
    }
  }
  for (size_t i = 0; i < s->n_edges; i++) {
    pic_edge *e = &s->edges[i];
    uint32_t cnt = i < t->cap_edges ? t->count[i] : 0;
    if (!cnt || strncmp(e->id, "bundle-", 7) != 0)
      goto heat;
    int hosts = s->nodes[e->b].shape == PIC_SHAPE_HOSTS;
    if (cnt > 1 && !hosts)
      e->label = pic_printf(s, "x%u", cnt);
    e->tooltip = pic_printf(s, "%u cable%s, %.0f Gb/s", cnt,
                            cnt == 1 ? "" : "s", t->gbps[i]);
    uint32_t f[3], nf = 0;
    for (const char *p = e->cls; p && *p && nf < 3;) {
      f[nf++] = (uint32_t)strtoul(p + 1, NULL, 10);
      p = strchr(p, ' ');
      p = p ? p + 1 : NULL;
    }
    e->tooltip = pic_tooltip_findings(s, c, e->tooltip, f, nf);
    if (cnt > 1)
      e->width = cnt >= 16 ? 3.0 : cnt >= 4 ? 2.0 : 1.5;
  heat:
    if (o->link_heat && i < t->cap_edges && t->heat[i] >= 0) {
      e->colour = pic_strdup(s, heat_colour(t->heat[i], o->heat_max));
      e->width = 1.5 + 4.0 * (o->heat_max > 0 ? t->heat[i] / o->heat_max : 0);
      char *tip =
          pic_printf(s, "%s\nload %.4g (hottest %.4g)",
                     e->tooltip ? e->tooltip : "", t->heat[i], o->heat_max);
      e->tooltip = tip ? tip : e->tooltip;
    }
  }
  return s->oom ? -1 : 0;
}

int pic_draw_fabric(pic_scene *s, const pic_ctx *c, const pic_draw_opts *o,
                    pic_draw *d) {
  static const pic_draw_opts NONE = {0};
  if (!o)
    o = &NONE;
  memset(d, 0, sizeof *d);
  uint32_t nn = fl_fabric_node_count(c->fab);
  d->drawn = malloc((nn + 1) * sizeof *d->drawn);
  if (!d->drawn)
    return -1;
  for (uint32_t i = 0; i < nn; i++)
    d->drawn[i] = PIC_NONE;
  int err = 0;
  d->grouped = o->force_groups || too_large(c, &err);
  if (err)
    return -1;
  draw_tmp t;
  memset(&t, 0, sizeof t);
  int rc = place_nodes(s, c, o, d, &t);
  if (rc == 0)
    rc = place_cables(s, c, o, d, &t);
  if (rc == 0)
    rc = finish(s, c, o, &t);
  tmp_free(&t);
  return rc || s->oom ? -1 : 0;
}
