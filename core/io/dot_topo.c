/* SPDX-License-Identifier: MIT */
/*
 * core/io/dot_topo.c — network topologies written in Graphviz DOT, read with
 * libcgraph (docs/formats/dot.md). Every edge is a planned cable
 * (FL_LINK_DECLARED); the attributes read are the GraphML keys of
 * docs/formats/graphml.md, so one writer vocabulary serves both:
 *   - node: its name is the `name` attribute, else `label` when labels name
 *     the graph's nodes (plain text, no two nodes alike: not Graphviz's
 *     default "\N", not an HTML, record or multi-line label), else the
 *     node id; `kind` = switch | ca | host | hca | router, else `type` when
 *     it is one of those, else from an ibnetdiscover node id ("S-"/"H-" and
 *     16 hex digits; kind-from=type or node-id), else a switch whose kind
 *     `fabriclint diff` does not compare (kind-from=cable-plan);
 *   - edge: the tail's port is `src_port`, else `tailport` (DOT's `a:p1`
 *     syntax; a compass point suffix `:n`, `:se`, ... is dropped), else
 *     `taillabel`; the head's likewise from `dst_port`, `headport`,
 *     `headlabel`; `speed` (HDR, 4xNDR, 400G) and `length` are optional.
 * An edge without a port at either end is an error: a drawing without ports
 * (fabriclint's own `--format dot` pictures, most hand drawings) is a
 * picture, not a cabling plan. Edge direction and subgraphs are ignored;
 * only the first graph of a file is read. cgraph keeps no line numbers per
 * object: errors about an edge or node name it, syntax errors carry the
 * line cgraph reports.
 */
#include "io/dot_bound.h"
#include "io/formats.h"
#include "io/loaders.h"
#include "io/write_common.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <graphviz/cgraph.h>

#include "model/fabric_impl.h"

/* cgraph's scanner is process-wide (flex globals in libcgraph): the line
 * counter runs on across agmemread() calls, text after the first graph of
 * one input (`}}}`) stays in the scanner's buffer and is read as the start
 * of the next input (issue #32 case 16), and an input that ends inside an
 * HTML string (`<`), a quoted string or a comment leaves the scanner in
 * that start condition: the next input, a valid graph, was then read as
 * nothing (agmemread() NULL without an error; found by fuzz_convert_rt).
 * agsetfile() (cgraph.h) resets the line counter; aaglex_destroy() (flex's
 * yylex_destroy under cgraph's `aag` prefix, exported, no header) frees
 * the buffers and resets every scanner global, the start condition
 * included; where it is missing, aglexbad() (also exported: it empties
 * the buffer, as cgraph's parser does after a syntax error) at least
 * discards the rest. Weak: a libcgraph without them still links. */
extern int aaglex_destroy(void) __attribute__((weak));
extern void aglexbad(void) __attribute__((weak));

static void fresh_scanner(void) {
  if (aaglex_destroy)
    aaglex_destroy();
  else if (aglexbad)
    aglexbad();
  agsetfile(NULL);
}

static const char *attr(void *obj, const char *name) {
  const char *v = agget(obj, (char *)name);
  return v && *v ? v : NULL;
}

/* @n's label when it can be a name: plain text, not Graphviz's default
 * "\N", not an HTML label (<TABLE>...), not a record label (fields `|`,
 * `{...}`, ports `<p>`) nor a multi-line one ("\n", "\l", "\r"): those
 * are drawings of a node (ibnetdiscover-to-DOT scripts put the device
 * description and a port table there), not its name. NULL otherwise. */
static const char *plain_label(Agnode_t *n) {
  const char *v = attr(n, "label");
  if (!v || strcmp(v, "\\N") == 0 || aghtmlstr((char *)v))
    return NULL;
  const char *shape = attr(n, "shape");
  if (shape &&
      (strcasecmp(shape, "record") == 0 || strcasecmp(shape, "Mrecord") == 0))
    return NULL;
  if (strpbrk(v, "|{}<>") || strstr(v, "\\n") || strstr(v, "\\l") ||
      strstr(v, "\\r"))
    return NULL;
  return v;
}

/* A node's name: its `name`, else its label when the graph's labels name
 * nodes (@labels: build() found no two nodes with the same plain label),
 * else its node id. Labels are only names when they tell nodes apart: a
 * drawing whose switches are all labelled "Voltaire 4036 - 36 QDR ports
 * switch" had them merged into one (outside tester, HPC_toolset X5). */
static const char *node_name(Agnode_t *n, int labels) {
  const char *v = attr(n, "name");
  if (v)
    return v;
  if (labels && (v = plain_label(n)))
    return v;
  return agnameof(n);
}

static int cmp_str(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* 1 when no two nodes of @g without a `name` have the same plain label
 * (then labels name the nodes), 0 when two do, -1 when out of memory. */
static int labels_name_nodes(Agraph_t *g) {
  size_t n = 0, cap = (size_t)agnnodes(g) + 1;
  const char **v = malloc(cap * sizeof *v);
  if (!v)
    return -1;
  for (Agnode_t *x = agfstnode(g); x; x = agnxtnode(g, x)) {
    const char *l = attr(x, "name") ? NULL : plain_label(x);
    if (l)
      v[n++] = l;
  }
  qsort(v, n, sizeof *v, cmp_str);
  int uniq = 1;
  for (size_t i = 1; i < n && uniq; i++)
    uniq = strcmp(v[i - 1], v[i]) != 0;
  free(v);
  return uniq;
}

/* The node kind: `kind`, else `type` when it is a kind (ibnetdiscover-to-DOT
 * scripts write type=Switch / type=Host), else the ibnetdiscover node id
 * convention ("S-" or "H-" and 16 hex digits: a switch, a CA), else 0. */
static uint32_t kind_of(Agnode_t *n, const char **from) {
  const char *k = attr(n, "kind");
  *from = NULL;
  if (k)
    return fl_wr_kind_parse(k);
  if ((k = attr(n, "type")) && fl_wr_kind_parse(k)) {
    *from = "type";
    return fl_wr_kind_parse(k);
  }
  const char *id = agnameof(n);
  if (id && (id[0] == 'S' || id[0] == 'H') && id[1] == '-' &&
      strlen(id) == 18 && strspn(id + 2, "0123456789abcdefABCDEF") == 16) {
    *from = "node-id";
    return id[0] == 'S' ? FL_NODE_SWITCH : FL_NODE_CA;
  }
  return 0;
}

/* A port name from @v into @out (@size bytes; whole when @v is shorter):
 * a compass point suffix dropped. */
static const char *port_of(const char *v, char *out, size_t size) {
  static const char *const COMPASS[] = {"n",  "ne", "e",  "se", "s",
                                        "sw", "w",  "nw", "c",  "_"};
  if (!v || strlen(v) >= size)
    return NULL;
  memcpy(out, v, strlen(v) + 1);
  char *colon = strrchr(out, ':');
  if (colon && colon != out)
    for (size_t i = 0; i < sizeof COMPASS / sizeof *COMPASS; i++)
      if (strcmp(colon + 1, COMPASS[i]) == 0) {
        *colon = '\0';
        break;
      }
  return *out ? out : NULL;
}

static const char *end_port(Agedge_t *e, int head, char *buf, size_t size) {
  const char *const keys[2][3] = {{"src_port", "tailport", "taillabel"},
                                  {"dst_port", "headport", "headlabel"}};
  for (int i = 0; i < 3; i++) {
    const char *p = port_of(attr(e, keys[head][i]), buf, size);
    if (p)
      return p;
  }
  return NULL;
}

static fl_id node_of(fl_nbr *b, Agnode_t *n, int labels, fl_prov prov) {
  const char *from;
  uint32_t kind = kind_of(n, &from);
  fl_id id =
      fl_nbr_node(b, node_name(n, labels), kind ? kind : FL_NODE_SWITCH, prov);
  if (id == FL_NONE)
    return FL_NONE;
  if (!kind && fl_b_attr(fl_nbr_fabric(b), FL_ENT_NODE, id, "kind-from",
                         "cable-plan") != FL_OK)
    return FL_NONE;
  if (kind && from &&
      fl_b_attr(fl_nbr_fabric(b), FL_ENT_NODE, id, "kind-from", from) != FL_OK)
    return FL_NONE;
  return id;
}

static int add_edge_ports(fl_nbr *b, Agedge_t *e, Agnode_t *t, Agnode_t *h,
                          char *pa, char *pb, size_t size, int labels,
                          const char *path, fl_error *err);

static int add_edge(fl_nbr *b, Agedge_t *e, int labels, const char *path,
                    fl_error *err) {
  Agnode_t *t = agtail(e), *h = aghead(e);
  /* port labels are kept whole (issue #32 case 2): buffers as long as the
   * edge's longest port attribute */
  size_t need = 1;
  static const char *const KEYS[] = {"src_port", "tailport", "taillabel",
                                     "dst_port", "headport", "headlabel"};
  for (size_t i = 0; i < sizeof KEYS / sizeof *KEYS; i++) {
    const char *v = attr(e, KEYS[i]);
    if (v && strlen(v) + 1 > need)
      need = strlen(v) + 1;
  }
  char *pa = malloc(need), *pb = malloc(need);
  int rc = pa && pb
               ? add_edge_ports(b, e, t, h, pa, pb, need, labels, path, err)
               : fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  free(pa);
  free(pb);
  return rc;
}

static int add_edge_ports(fl_nbr *b, Agedge_t *e, Agnode_t *t, Agnode_t *h,
                          char *pa, char *pb, size_t size, int labels,
                          const char *path, fl_error *err) {
  const char *a = end_port(e, 0, pa, size);
  const char *z = end_port(e, 1, pb, size);
  if (!a || !z)
    return fl_error_set(err, FL_EPARSE, path, 0, 0,
                        "edge %s -- %s names no port at its %s end; expected "
                        "src_port/dst_port, tailport/headport (a:p -- b:q) "
                        "or taillabel/headlabel attributes",
                        node_name(t, labels), node_name(h, labels),
                        a ? "head" : "tail");
  uint32_t width = 0, speed = 0;
  const char *sp = attr(e, "speed");
  if (sp && fl_wr_rate_parse(sp, &width, &speed) != 0)
    return fl_error_set(err, FL_EPARSE, path, 0, 0,
                        "edge %s -- %s: speed \"%s\"; expected an IB or "
                        "Ethernet rate such as HDR, 4xNDR or 400G",
                        node_name(t, labels), node_name(h, labels), sp);
  /* an edge joining a port to itself is a cable looped onto that port,
   * kept as the NDT, design XML and ibnetdiscover readers keep it (check
   * warns topology.self-loop): what `convert` writes from any of them
   * reads back (issue #32, found by fuzz_convert_rt) */
  fl_prov prov = {fl_nbr_file(b), 0, 0};
  fl_id na = node_of(b, t, labels, prov);
  fl_id nz = na == FL_NONE ? FL_NONE : node_of(b, h, labels, prov);
  fl_id qa = nz == FL_NONE ? FL_NONE : fl_nbr_port(b, na, a, prov);
  fl_id qz = qa == FL_NONE ? FL_NONE : fl_nbr_port(b, nz, z, prov);
  fl_id l =
      qz == FL_NONE ? FL_NONE : fl_nbr_link(b, qa, qz, FL_LINK_DECLARED, prov);
  if (l == FL_NONE)
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  fl_fabric *fab = fl_nbr_fabric(b);
  if (speed) {
    fl_link_rec *r = &fab->links[l];
    r->speed = r->speed_b = (uint8_t)speed;
    r->width = r->width_b = (uint8_t)width;
  }
  const char *len = attr(e, "length");
  if (len && fl_b_attr(fab, FL_ENT_LINK, l, "length", len) != FL_OK)
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  return FL_OK;
}

static int build(Agraph_t *g, fl_fabric *fab, const char *path, fl_error *err) {
  for (Agnode_t *n = agfstnode(g); n; n = agnxtnode(g, n)) {
    const char *k = attr(n, "kind");
    if (k && !fl_wr_kind_parse(k))
      return fl_error_set(err, FL_EPARSE, path, 0, 0,
                          "node %s: kind \"%s\"; expected switch, ca, host "
                          "or router",
                          agnameof(n), k);
  }
  if (agnedges(g) == 0)
    return fl_error_set(err, FL_EPARSE, path, 0, 0,
                        "no edge: a DOT topology needs cables");
  int labels = labels_name_nodes(g);
  if (labels < 0)
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  fl_nbr *b = fl_nbr_begin(fab, path);
  if (!b)
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  fl_nbr_once(b);
  int rc = FL_OK;
  fl_prov prov = {fl_nbr_file(b), 0, 0};
  for (Agnode_t *n = agfstnode(g); n && rc == FL_OK; n = agnxtnode(g, n))
    if (node_of(b, n, labels, prov) == FL_NONE)
      rc = fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  for (Agnode_t *n = agfstnode(g); n && rc == FL_OK; n = agnxtnode(g, n))
    for (Agedge_t *e = agfstout(g, n); e && rc == FL_OK; e = agnxtout(g, e))
      rc = add_edge(b, e, labels, path, err);
  fl_nbr_end(b);
  return rc;
}

/* Bison's "memory exhausted" from cgraph's grammar is its parser stack
 * (YYMAXDEPTH, 10,000 entries; 4 per node of an edge chain), not memory. */
#define DOT_STACK_FULL                                                         \
  " (Graphviz's parser stack of 10,000 entries is full: one edge statement "   \
  "chains at most about 2,500 nodes `a -- b -- c ...`; split it into "         \
  "several statements)"

/* The fabric size cap, on the text: cgraph makes every edge of a subgraph
 * product before the loader sees one (io/dot_bound.h). */
static int dot_cap(const fl_fabric *fab, const fl_input *in, fl_error *err) {
  uint64_t bound = fl_dot_edge_bound(in->buf, in->len);
  if (!fab->max_links || bound <= fab->max_links - fab->n_links)
    return FL_OK;
  return fl_error_set(err, FL_EPARSE, in->path, 0, 0,
                      "DOT: the edge statements make up to %llu cables (an "
                      "edge between subgraphs is one per pair of their "
                      "nodes), past the cap of %u links (the fabric size "
                      "cap; set FABRICLINT_MAX_LINKS to raise it)",
                      (unsigned long long)bound, fab->max_links);
}

static int load_dot(fl_fabric *fab, const fl_input *in,
                    const fl_load_options *opts, fl_error *err) {
  (void)opts;
  if (dot_cap(fab, in, err) != FL_OK)
    return FL_EPARSE;
  char *text = malloc(in->len + 1);
  if (!text)
    return fl_error_set(err, FL_ENOMEM, in->path, 0, 0, "out of memory");
  memcpy(text, in->buf, in->len);
  text[in->len] = '\0';
  /* cgraph's error level is process-wide: messages are kept, not printed,
   * and the caller's level is restored (as core/report/pic_graphviz.c) */
  agerrlevel_t old = agseterr(AGMAX);
  agreseterrors();
  fresh_scanner();
  Agraph_t *g = agmemread(text);
  fresh_scanner();
  int rc = FL_OK;
  if (!g && !agerrors())
    rc = fl_error_set(err, FL_EPARSE, in->path, 0, 0,
                      "DOT: no graph read (Graphviz's parser returned none "
                      "and no error)");
  else if (!g || agerrors()) {
    char *m = aglasterr(); /* malloc'd by cgraph: ours to free */
    unsigned line = 0;
    const char *at = m ? strstr(m, "line ") : NULL;
    if (at)
      sscanf(at, "line %u", &line);
    char msg[256];
    snprintf(msg, sizeof msg, "%s", m ? m : "not a DOT graph");
    size_t n = strlen(msg);
    while (n && isspace((unsigned char)msg[n - 1]))
      msg[--n] = '\0';
    free(m);
    rc = fl_error_set(err, FL_EPARSE, in->path, line, 0, "DOT: %s%s", msg,
                      strstr(msg, "memory exhausted") ? DOT_STACK_FULL : "");
  }
  if (rc == FL_OK)
    rc = build(g, fab, in->path, err);
  if (g)
    agclose(g);
  agseterr(old);
  agreseterrors();
  free(text);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

/* The first word after blanks and comments is `graph`, `digraph` or
 * `strict` (DOT keywords, any case) and a `{` follows on that line. */
static uint32_t detect_dot(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  if (c->xml_root)
    return FL_FMT_AUTO;
  const char *p = c->text, *e = c->text + c->len;
  for (;;) {
    p = fl_detect_skip_ws(p, e);
    if (fl_detect_prefix(p, e, "//") || fl_detect_prefix(p, e, "#")) {
      const char *nl = memchr(p, '\n', (size_t)(e - p));
      p = nl ? nl + 1 : e;
    } else if (fl_detect_prefix(p, e, "/*")) {
      const char *q = p + 2;
      while (q + 1 < e && !(q[0] == '*' && q[1] == '/'))
        q++;
      p = q + 2 < e ? q + 2 : e;
    } else
      break;
  }
  size_t n = 0;
  while (p + n < e && isalpha((unsigned char)p[n]))
    n++;
  if (!((n == 5 && strncasecmp(p, "graph", 5) == 0) ||
        (n == 7 && strncasecmp(p, "digraph", 7) == 0) ||
        (n == 6 && strncasecmp(p, "strict", 6) == 0)))
    return FL_FMT_AUTO;
  const char *nl = memchr(p, '\n', (size_t)(e - p));
  return memchr(p, '{', (size_t)((nl ? nl : e) - p)) ? FL_FMT_DOT : FL_FMT_AUTO;
}

const fl_format_def fl_fmt_dot = {
    FL_FMT_DOT,
    "dot",
    "graphviz",
    FL_FORMAT_TOPOLOGY,
    load_dot,
    detect_dot,
    "a Graphviz DOT topology (graph/digraph { ... } with edge ports)"};
