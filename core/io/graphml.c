/* SPDX-License-Identifier: MIT */
/*
 * core/io/graphml.c — network topologies drawn as GraphML (docs/formats/
 * graphml.md): yEd drawings (as N2G's CDP/LLDP drawer writes them) and plain
 * GraphML with the documented data keys (what `fabriclint convert --format
 * graphml` writes).
 *
 * Grammar, as read here (GraphML 1.0 primer, yWorks' yEd GraphML extension;
 * the public sample dmulyalin/N2G tests/Output/should_be_test_lldp_drawing_
 * yed_data_dict.graphml):
 *   - root <graphml>; <key id for attr.name|yfiles.type> declarations; one
 *     or more <graph>, nested graphs inside group nodes included;
 *   - a <node id> is a device. Its name is the data of the `name` key, else
 *     the first y:NodeLabel text of its yEd `nodegraphics` data, else its
 *     id. Its kind is the data of the `kind` key (switch, ca or host,
 *     router), else a switch whose kind `fabriclint diff` does not compare
 *     (node attribute `kind-from=cable-plan`). A node holding a nested <graph>
 * is a yEd group (a drawing frame), not a device;
 *   - an <edge source target> is a cable. Its ports are, in this order: the
 *     data of the `src_port` / `dst_port` keys; GraphML's own `sourceport` /
 *     `targetport` attributes; yEd y:EdgeLabel texts whose
 *     y:PreferredPlacementDescriptor says `placement="source"` or
 *     `"target"` (N2G's form). An edge that names no port for an end is an
 *     error: a drawing without ports is not a cabling plan. `speed` (HDR,
 *     4xNDR, 400G) and `length` keys are optional;
 *   - edge direction (`edgedefault="directed"`, as N2G writes) is ignored:
 *     a cable has no direction; <hyperedge> is refused.
 * Key names are matched without case; every cable is FL_LINK_DECLARED (a
 * drawing or plan). Nodes no edge touches are loaded as nodes.
 */
#include "io/formats.h"
#include "io/loaders.h"
#include "io/write_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/xmlreader.h>

#include "model/fabric_impl.h"
#include "model/grow.h"

/* what a <key> means to us */
enum {
  K_OTHER,
  K_NAME,
  K_KIND,
  K_SPORT,
  K_DPORT,
  K_SPEED,
  K_LENGTH,
  K_NODEGFX,
  K_EDGEGFX
};

typedef struct gkey {
  char *id;
  int role;
} gkey;

typedef struct gnode {
  char *id, *name, *label, *kind;
  uint32_t line;
  int group;
} gnode;

typedef struct gedge {
  char *src, *dst;
  char *sport, *dport; /* from data keys */
  char *aport, *bport; /* sourceport / targetport attributes */
  char *lport, *rport; /* yEd edge labels placed at source / target */
  char *speed, *length;
  uint32_t line, speed_line;
} gedge;

typedef struct gml {
  fl_xr x;
  gkey *keys;
  size_t n_keys, cap_keys;
  gnode *nodes;
  size_t n_nodes, cap_nodes;
  gedge *edges;
  size_t n_edges, cap_edges;
} gml;

#define GML_MAX_DEPTH 64

static void gml_free(gml *g) {
  for (size_t i = 0; i < g->n_keys; i++)
    free(g->keys[i].id);
  for (size_t i = 0; i < g->n_nodes; i++) {
    free(g->nodes[i].id);
    free(g->nodes[i].name);
    free(g->nodes[i].label);
    free(g->nodes[i].kind);
  }
  for (size_t i = 0; i < g->n_edges; i++) {
    gedge *e = &g->edges[i];
    char *s[] = {e->src,   e->dst,   e->sport, e->dport, e->aport,
                 e->bport, e->lport, e->rport, e->speed, e->length};
    for (size_t k = 0; k < sizeof s / sizeof *s; k++)
      free(s[k]);
  }
  free(g->keys);
  free(g->nodes);
  free(g->edges);
}

static int oom(gml *g) {
  return fl_error_set(g->x.err, FL_ENOMEM, g->x.path, 0, 0, "out of memory");
}

/* The role of a key: by attr.name for data we read, by yfiles.type for
 * yEd's graphics. */
static int key_role(const char *for_, const char *aname, const char *ytype) {
  int node = for_ && strcmp(for_, "node") == 0;
  int edge = for_ && strcmp(for_, "edge") == 0;
  if (ytype)
    return node && strcmp(ytype, "nodegraphics") == 0   ? K_NODEGFX
           : edge && strcmp(ytype, "edgegraphics") == 0 ? K_EDGEGFX
                                                        : K_OTHER;
  if (!aname)
    return K_OTHER;
  if (node && strcasecmp(aname, "name") == 0)
    return K_NAME;
  if (node && strcasecmp(aname, "kind") == 0)
    return K_KIND;
  if (edge && strcasecmp(aname, "src_port") == 0)
    return K_SPORT;
  if (edge && strcasecmp(aname, "dst_port") == 0)
    return K_DPORT;
  if (edge && strcasecmp(aname, "speed") == 0)
    return K_SPEED;
  if (edge && strcasecmp(aname, "length") == 0)
    return K_LENGTH;
  return K_OTHER;
}

static int read_key(gml *g) {
  char *id = fl_xr_attr(&g->x, "id");
  if (!id || !*id) {
    free(id);
    return fl_xr_fail(&g->x, "<key> without an id attribute");
  }
  char *f = fl_xr_attr(&g->x, "for");
  char *a = fl_xr_attr(&g->x, "attr.name");
  char *y = fl_xr_attr(&g->x, "yfiles.type");
  int role = key_role(f, a, y);
  free(f);
  free(a);
  free(y);
  if (fl_grow((void **)&g->keys, &g->cap_keys, g->n_keys + 1,
              sizeof *g->keys) != 0) {
    free(id);
    return oom(g);
  }
  g->keys[g->n_keys++] = (gkey){id, role};
  return FL_OK;
}

static int role_of(const gml *g, const char *key) {
  if (!key)
    return K_OTHER;
  for (size_t i = g->n_keys; i-- > 0;)
    if (strcmp(g->keys[i].id, key) == 0)
      return g->keys[i].role;
  return K_OTHER;
}

/* keep the first value of a field, free later ones */
static void keep(char **dst, char *v) {
  if (!*dst)
    *dst = v;
  else
    free(v);
}

typedef struct walk {
  int node_stack[GML_MAX_DEPTH]; /* depth of each open <node> */
  size_t node_idx[GML_MAX_DEPTH];
  int n_open;
  int edge_depth; /* -1: not in an edge */
  int data_depth, data_role;
  int label_depth; /* yEd EdgeLabel being read */
  char *label;
} walk;

static int open_node(gml *g, walk *w, int depth) {
  if (w->n_open == GML_MAX_DEPTH)
    return fl_xr_fail(&g->x, "nodes nested deeper than %d groups",
                      GML_MAX_DEPTH);
  char *id = fl_xr_attr(&g->x, "id");
  if (!id || !*id) {
    free(id);
    return fl_xr_fail(&g->x, "<node> without an id attribute");
  }
  if (fl_grow((void **)&g->nodes, &g->cap_nodes, g->n_nodes + 1,
              sizeof *g->nodes) != 0) {
    free(id);
    return oom(g);
  }
  g->nodes[g->n_nodes] = (gnode){id, NULL, NULL, NULL, fl_xr_line(&g->x), 0};
  w->node_stack[w->n_open] = depth;
  w->node_idx[w->n_open++] = g->n_nodes++;
  return FL_OK;
}

static int open_edge(gml *g, walk *w, int depth) {
  char *s = fl_xr_attr(&g->x, "source"), *t = fl_xr_attr(&g->x, "target");
  if (!s || !*s || !t || !*t) {
    free(s);
    free(t);
    return fl_xr_fail(&g->x, "<edge> without source and target attributes");
  }
  if (fl_grow((void **)&g->edges, &g->cap_edges, g->n_edges + 1,
              sizeof *g->edges) != 0) {
    free(s);
    free(t);
    return oom(g);
  }
  gedge *e = &g->edges[g->n_edges++];
  memset(e, 0, sizeof *e);
  e->src = s;
  e->dst = t;
  e->line = fl_xr_line(&g->x);
  e->aport = fl_xr_attr(&g->x, "sourceport");
  e->bport = fl_xr_attr(&g->x, "targetport");
  w->edge_depth = fl_xr_empty(&g->x) ? -1 : depth;
  return FL_OK;
}

/* <data key> directly inside the open node or edge */
static int read_data(gml *g, walk *w, int depth) {
  char *key = fl_xr_attr(&g->x, "key");
  int role = role_of(g, key);
  free(key);
  if (role == K_NODEGFX || role == K_EDGEGFX) {
    w->data_depth = depth;
    w->data_role = role;
    return FL_OK;
  }
  if (role == K_OTHER)
    return FL_OK;
  char *v = fl_xr_text(&g->x);
  if (!v)
    return oom(g);
  if (w->edge_depth >= 0) {
    gedge *e = &g->edges[g->n_edges - 1];
    if (role == K_SPEED && !e->speed)
      e->speed_line = fl_xr_line(&g->x);
    keep(role == K_SPORT   ? &e->sport
         : role == K_DPORT ? &e->dport
         : role == K_SPEED ? &e->speed
                           : &e->length,
         v);
  } else {
    gnode *n = &g->nodes[w->node_idx[w->n_open - 1]];
    keep(role == K_NAME ? &n->name : &n->kind, v);
  }
  return FL_OK;
}

static int on_element(gml *g, walk *w, const char *name, int depth) {
  if (depth == 0 && strcmp(name, "graphml") != 0)
    return fl_xr_fail(&g->x, "root element <%s>; expected <graphml>", name);
  if (strcmp(name, "key") == 0 && depth == 1)
    return read_key(g);
  if (strcmp(name, "hyperedge") == 0)
    return fl_xr_fail(&g->x, "<hyperedge> is not a cable; expected <edge>");
  if (strcmp(name, "graph") == 0) {
    if (w->n_open > 0 && w->node_stack[w->n_open - 1] == depth - 1)
      g->nodes[w->node_idx[w->n_open - 1]].group = 1;
    return FL_OK;
  }
  if (strcmp(name, "node") == 0 && w->edge_depth < 0) {
    int rc = open_node(g, w, depth);
    if (rc == FL_OK && fl_xr_empty(&g->x))
      w->n_open--;
    return rc;
  }
  if (strcmp(name, "edge") == 0 && w->edge_depth < 0)
    return open_edge(g, w, depth);
  if (strcmp(name, "data") == 0 && w->data_depth < 0) {
    int owner = w->edge_depth >= 0 ? w->edge_depth
                : w->n_open > 0    ? w->node_stack[w->n_open - 1]
                                   : -2;
    return depth == owner + 1 ? read_data(g, w, depth) : FL_OK;
  }
  if (w->data_depth < 0)
    return FL_OK;
  if (w->data_role == K_NODEGFX && strcmp(name, "NodeLabel") == 0) {
    gnode *n = &g->nodes[w->node_idx[w->n_open - 1]];
    if (!n->label && !(n->label = fl_xr_text(&g->x)))
      return oom(g);
    return FL_OK;
  }
  if (w->data_role == K_EDGEGFX && strcmp(name, "EdgeLabel") == 0) {
    free(w->label);
    w->label = fl_xr_text(&g->x);
    w->label_depth = depth;
    return w->label ? FL_OK : oom(g);
  }
  if (w->data_role == K_EDGEGFX && w->label &&
      strcmp(name, "PreferredPlacementDescriptor") == 0 &&
      depth == w->label_depth + 1) {
    char *p = fl_xr_attr(&g->x, "placement");
    gedge *e = &g->edges[g->n_edges - 1];
    if (p && strcmp(p, "source") == 0 && *w->label)
      keep(&e->lport, w->label), w->label = NULL;
    else if (p && strcmp(p, "target") == 0 && *w->label)
      keep(&e->rport, w->label), w->label = NULL;
    free(p);
  }
  return FL_OK;
}

static void on_end(gml *g, walk *w, const char *name, int depth) {
  (void)g;
  if (w->data_depth == depth && strcmp(name, "data") == 0)
    w->data_depth = -1;
  else if (w->label_depth == depth && strcmp(name, "EdgeLabel") == 0) {
    free(w->label);
    w->label = NULL;
    w->label_depth = -1;
  } else if (w->edge_depth == depth && strcmp(name, "edge") == 0)
    w->edge_depth = -1;
  else if (w->n_open > 0 && w->node_stack[w->n_open - 1] == depth &&
           strcmp(name, "node") == 0)
    w->n_open--;
}

static int collect(gml *g) {
  walk w;
  memset(&w, 0, sizeof w);
  w.edge_depth = w.data_depth = w.label_depth = -1;
  int r, rc = FL_OK, seen_root = 0;
  while (rc == FL_OK && (r = fl_xr_next(&g->x)) == 1) {
    int type = fl_xr_type(&g->x), depth = fl_xr_depth(&g->x);
    const char *name = fl_xr_name(&g->x);
    if (type == XML_READER_TYPE_ELEMENT) {
      seen_root = 1;
      rc = on_element(g, &w, name, depth);
      if (rc == FL_OK && fl_xr_empty(&g->x))
        on_end(g, &w, name, depth);
    } else if (type == XML_READER_TYPE_END_ELEMENT)
      on_end(g, &w, name, depth);
  }
  free(w.label);
  if (rc == FL_OK && r < 0)
    rc = r;
  if (rc == FL_OK && !seen_root)
    rc = fl_error_set(g->x.err, FL_EPARSE, g->x.path, 1, 0,
                      "no <graphml> element");
  return rc;
}

static int cmp_node(const void *a, const void *b) {
  const gnode *x = *(gnode *const *)a, *y = *(gnode *const *)b;
  return strcmp(x->id, y->id);
}

static const gnode *find_node(gnode **idx, size_t n, const char *id) {
  gnode key = {0};
  key.id = (char *)id;
  const gnode *k = &key;
  gnode **f = bsearch(&k, idx, n, sizeof *idx, cmp_node);
  return f ? *f : NULL;
}

static const char *node_name(const gnode *n) {
  return n->name && *n->name     ? n->name
         : n->label && *n->label ? n->label
                                 : n->id;
}

/* The fabric node of @n. Without a `kind` the drawing does not say what
 * the device is: `kind-from=cable-plan` tells `fabriclint diff` not to
 * compare its kind (as for a Cisco plan's destChassis). */
static fl_id node_of(fl_nbr *b, const gnode *n, fl_prov prov) {
  fl_id id = fl_nbr_node(b, node_name(n), fl_wr_kind_parse(n->kind), prov);
  if (id != FL_NONE && (!n->kind || !*n->kind) &&
      fl_b_attr(fl_nbr_fabric(b), FL_ENT_NODE, id, "kind-from", "cable-plan") !=
          FL_OK)
    return FL_NONE;
  return id;
}

static int add_edge(gml *g, fl_nbr *b, gnode **idx, const gedge *e) {
  const char *path = g->x.path;
  fl_error *err = g->x.err;
  const gnode *na = find_node(idx, g->n_nodes, e->src);
  const gnode *nb = find_node(idx, g->n_nodes, e->dst);
  if (!na || !nb)
    return fl_error_set(err, FL_EPARSE, path, e->line, 0,
                        "edge %s: no <node id=\"%s\">",
                        na ? "target" : "source", na ? e->dst : e->src);
  const char *pa = e->sport ? e->sport : e->aport ? e->aport : e->lport;
  const char *pb = e->dport ? e->dport : e->bport ? e->bport : e->rport;
  if (!pa || !*pa || !pb || !*pb)
    return fl_error_set(
        err, FL_EPARSE, path, e->line, 0,
        "edge %s -- %s names no port at its %s end; expected src_port and "
        "dst_port data, sourceport/targetport attributes or yEd edge labels "
        "placed at source and target",
        node_name(na), node_name(nb), !pa || !*pa ? "source" : "target");
  uint32_t width = 0, speed = 0;
  if (e->speed && *e->speed && fl_wr_rate_parse(e->speed, &width, &speed) != 0)
    return fl_error_set(err, FL_EPARSE, path, e->speed_line, 0,
                        "speed \"%s\": expected an IB or Ethernet rate such "
                        "as HDR, 4xNDR or 400G",
                        e->speed);
  /* an edge joining a port to itself is a cable looped onto that port,
   * kept as the DOT, NDT, design XML and ibnetdiscover readers keep it
   * (check warns topology.self-loop; issue #32, fuzz_convert_rt) */
  fl_prov prov = {fl_nbr_file(b), e->line, 0};
  fl_id a = node_of(b, na, prov);
  fl_id z = a == FL_NONE ? FL_NONE : node_of(b, nb, prov);
  fl_id qa = z == FL_NONE ? FL_NONE : fl_nbr_port(b, a, pa, prov);
  fl_id qb = qa == FL_NONE ? FL_NONE : fl_nbr_port(b, z, pb, prov);
  fl_id l =
      qb == FL_NONE ? FL_NONE : fl_nbr_link(b, qa, qb, FL_LINK_DECLARED, prov);
  if (l == FL_NONE)
    return oom(g);
  fl_fabric *fab = fl_nbr_fabric(b);
  if (speed) {
    fl_link_rec *r = &fab->links[l];
    r->speed = r->speed_b = (uint8_t)speed;
    r->width = r->width_b = (uint8_t)width;
  }
  if (e->length && *e->length &&
      fl_b_attr(fab, FL_ENT_LINK, l, "length", e->length) != FL_OK)
    return oom(g);
  return FL_OK;
}

static int build(gml *g, fl_fabric *fab) {
  const char *path = g->x.path;
  for (size_t i = 0; i < g->n_nodes; i++)
    if (!g->nodes[i].group && !fl_wr_kind_parse(g->nodes[i].kind))
      return fl_error_set(g->x.err, FL_EPARSE, path, g->nodes[i].line, 0,
                          "node %s: kind \"%s\"; expected switch, ca, host "
                          "or router",
                          g->nodes[i].id, g->nodes[i].kind);
  gnode **idx = malloc((g->n_nodes ? g->n_nodes : 1) * sizeof *idx);
  if (!idx)
    return oom(g);
  for (size_t i = 0; i < g->n_nodes; i++)
    idx[i] = &g->nodes[i];
  qsort(idx, g->n_nodes, sizeof *idx, cmp_node);
  int rc = FL_OK;
  for (size_t i = 1; i < g->n_nodes && rc == FL_OK; i++)
    if (strcmp(idx[i - 1]->id, idx[i]->id) == 0)
      rc = fl_error_set(g->x.err, FL_EPARSE, path,
                        idx[i - 1]->line > idx[i]->line ? idx[i - 1]->line
                                                        : idx[i]->line,
                        0, "node id \"%s\" declared twice", idx[i]->id);
  fl_nbr *b = rc == FL_OK ? fl_nbr_begin(fab, path) : NULL;
  if (rc == FL_OK && !b)
    rc = oom(g);
  if (b)
    fl_nbr_once(b);
  size_t groups = 0;
  for (size_t i = 0; i < g->n_nodes && rc == FL_OK; i++) {
    const gnode *n = &g->nodes[i];
    if (n->group) {
      groups++;
      continue;
    }
    fl_prov prov = {fl_nbr_file(b), n->line, 0};
    if (node_of(b, n, prov) == FL_NONE)
      rc = oom(g);
  }
  for (size_t i = 0; i < g->n_edges && rc == FL_OK; i++)
    rc = add_edge(g, b, idx, &g->edges[i]);
  if (rc == FL_OK && groups)
    fl_b_note(fab, "topology", (fl_prov){fl_nbr_file(b), 0, 0},
              "%zu yEd group node(s) read as drawing frames, not devices",
              groups);
  if (b)
    fl_nbr_end(b);
  free(idx);
  return rc;
}

static int load_graphml(fl_fabric *fab, const fl_input *in,
                        const fl_load_options *opts, fl_error *err) {
  (void)opts;
  gml g;
  memset(&g, 0, sizeof g);
  int rc = fl_xr_open(&g.x, in, err);
  if (rc == FL_OK)
    rc = collect(&g);
  if (rc == FL_OK && g.n_edges == 0)
    rc = fl_error_set(err, FL_EPARSE, in->path, 0, 0,
                      "no <edge>: a GraphML topology needs cables");
  if (rc == FL_OK)
    rc = build(&g, fab);
  gml_free(&g);
  fl_xr_close(&g.x);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

static uint32_t detect_graphml(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  return c->xml_root && strcmp(c->xml_root, "graphml") == 0 ? FL_FMT_GRAPHML
                                                            : FL_FMT_AUTO;
}

const fl_format_def fl_fmt_graphml = {
    FL_FMT_GRAPHML,
    "graphml",
    "yed",
    FL_FORMAT_TOPOLOGY | FL_FORMAT_XML,
    load_graphml,
    detect_graphml,
    "<graphml> GraphML topology (yEd, N2G, fabriclint convert)"};
