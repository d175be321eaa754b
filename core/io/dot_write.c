/* SPDX-License-Identifier: MIT */
/*
 * core/io/dot_write.c — fl_write_dot(): a fabric as a Graphviz DOT graph
 * (docs/formats/dot.md, "Writing").
 *
 * Why: drawing and inventory tools (Graphviz, NetworkX, Gephi, N2G) read
 * DOT; an architect who keeps a topology drawing can have it made from the
 * plan or the as-built dump, and fabriclint reads it back (the DOT loader
 * reads the same attribute names).
 *
 * The graph is built with libcgraph and written by agwrite(), so quoting
 * and escaping are Graphviz's own: the output is what `dot` parses. An
 * undirected, non-strict graph `fabric` (a cable has no direction; two
 * parallel cables are two edges): node ids are the node names (made unique,
 * io/write_common.h), node attributes `kind` (switch, ca, router), `guid`,
 * `desc` (the raw NodeDescription, when it differs from the name),
 * `system`, `tier` (when an input gave it); edge attributes `src_port` and
 * `dst_port` (the A and B end: port label, else number), `speed` (`4xNDR`,
 * `400G`) and `length` (the link attribute). Ports are attributes rather
 * than `node:port` (tailport/headport), which Graphviz would take as record
 * fields or compass points and warn about when drawing.
 *
 * libcgraph keeps process-global state only for its error reporting, which
 * this writer does not change. Cost O(nodes + links) plus agwrite.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cgraph.h>

#include "fabriclint/write.h"
#include "io/write_common.h"

/** The attribute symbols, declared once with an empty default so agwrite
 * leaves unset values out. */
typedef struct dot_syms {
  Agsym_t *kind, *guid, *desc, *system, *tier;
  Agsym_t *sport, *dport, *speed, *length;
} dot_syms;

static Agsym_t *decl(Agraph_t *g, int kind, const char *name) {
  return agattr(g, kind, (char *)name, (char *)"");
}

static int declare(Agraph_t *g, dot_syms *s) {
  s->kind = decl(g, AGNODE, "kind");
  s->guid = decl(g, AGNODE, "guid");
  s->desc = decl(g, AGNODE, "desc");
  s->system = decl(g, AGNODE, "system");
  s->tier = decl(g, AGNODE, "tier");
  s->sport = decl(g, AGEDGE, "src_port");
  s->dport = decl(g, AGEDGE, "dst_port");
  s->speed = decl(g, AGEDGE, "speed");
  s->length = decl(g, AGEDGE, "length");
  return s->kind && s->guid && s->desc && s->system && s->tier && s->sport &&
                 s->dport && s->speed && s->length
             ? 0
             : -1;
}

static int set(void *obj, Agsym_t *sym, const char *v) {
  return v && *v ? agxset(obj, sym, (char *)v) : 0;
}

static Agnode_t *add_node(Agraph_t *g, const dot_syms *s, const fl_fabric *fab,
                          fl_id n, const char *name) {
  char buf[32];
  Agnode_t *v = agnode(g, (char *)name, 1);
  if (!v)
    return NULL;
  const char *desc = fl_fabric_node_desc(fab, n);
  int rc = set(v, s->kind, fl_node_kind_name(fl_fabric_node_kind(fab, n)));
  rc |= set(v, s->guid,
            fl_wr_guid_text(fl_fabric_node_guid(fab, n), buf, sizeof buf));
  rc |= set(v, s->desc, strcmp(desc, name) ? desc : NULL);
  rc |= set(v, s->system, fl_fabric_node_system(fab, n));
  rc |= set(v, s->tier, fl_wr_tier_text(fab, n, buf, sizeof buf));
  return rc == 0 ? v : NULL;
}

static int add_edge(Agraph_t *g, const dot_syms *s, const fl_fabric *fab,
                    fl_id l, Agnode_t *const *v) {
  fl_id pa = fl_fabric_link_port(fab, l, 0),
        pb = fl_fabric_link_port(fab, l, 1);
  if (pa == FL_NONE || pb == FL_NONE)
    return 0;
  Agedge_t *e = agedge(g, v[fl_fabric_port_node(fab, pa)],
                       v[fl_fabric_port_node(fab, pb)], NULL, 1);
  if (!e)
    return -1;
  char a[32], b[32], r[32];
  int rc = set(e, s->sport, fl_wr_port_text(fab, pa, a, sizeof a));
  rc |= set(e, s->dport, fl_wr_port_text(fab, pb, b, sizeof b));
  rc |= set(e, s->speed, fl_wr_rate_text(fab, l, r, sizeof r));
  rc |= set(e, s->length, fl_fabric_attr(fab, FL_ENT_LINK, l, "length"));
  return rc;
}

/* Build the graph of @fab into @g; 0 or -1 (out of memory). */
static int build(Agraph_t *g, const fl_fabric *fab, const fl_wr_names *w,
                 Agnode_t **v) {
  dot_syms s;
  if (declare(g, &s) != 0)
    return -1;
  for (fl_id n = 0; n < fl_fabric_node_count(fab); n++)
    if (!(v[n] = add_node(g, &s, fab, n, w->names[n])))
      return -1;
  for (fl_id l = 0; l < fl_fabric_link_count(fab); l++)
    if (add_edge(g, &s, fab, l, v) != 0)
      return -1;
  return 0;
}

/* 1 when Graphviz (2.43) writes @name unquoted and cannot read it back: a
 * name that starts with '-' but is no DOT numeral ("-13I" is written bare
 * and read as the number -13 and the ID I; found by fuzz_convert_rt). */
static int unreadable_name(const char *name) {
  if (name[0] != '-')
    return 0;
  const char *p = name + 1;
  size_t d = strspn(p, "0123456789");
  p += d;
  if (*p == '.')
    p += 1 + strspn(p + 1, "0123456789");
  return *p != '\0' || p == name + 1;
}

/* 1 when @s ends in a backslash: agwrite() quotes it as it is ("40\"),
 * and the backslash then escapes the closing quote, so neither Graphviz
 * nor the DOT loader can read the graph back (found by fuzz_convert_rt: a
 * NetBox device named `40\`). DOT has no escape for a backslash. */
static int ends_in_backslash(const char *s) {
  size_t n = s ? strlen(s) : 0;
  return n && s[n - 1] == '\\';
}

/* What agwrite() cannot write readably, refused before anything is
 * written: a node name, description or system, a port text or a length
 * that ends in a backslash. FL_OK or FL_EINVAL naming it. */
static int check_texts(const fl_fabric *fab, const fl_wr_names *w,
                       fl_error *err) {
  for (fl_id n = 0; n < fl_fabric_node_count(fab); n++) {
    const char *t[3] = {w->names[n], fl_fabric_node_desc(fab, n),
                        fl_fabric_node_system(fab, n)};
    for (int k = 0; k < 3; k++)
      if (ends_in_backslash(t[k]))
        return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                            "node \"%s\": \"%s\" ends in a backslash, which "
                            "DOT cannot quote (it would escape the closing "
                            "quote); rename it, or convert to another format",
                            w->names[n], t[k]);
  }
  char buf[32];
  for (fl_id l = 0; l < fl_fabric_link_count(fab); l++) {
    if (fl_fabric_link_port(fab, l, 0) == FL_NONE ||
        fl_fabric_link_port(fab, l, 1) == FL_NONE)
      continue; /* no edge is written for it */
    for (int k = 0; k < 3; k++) {
      fl_id p = k < 2 ? fl_fabric_link_port(fab, l, k) : FL_NONE;
      const char *t =
          k < 2
              ? (p == FL_NONE ? NULL : fl_wr_port_text(fab, p, buf, sizeof buf))
              : fl_fabric_attr(fab, FL_ENT_LINK, l, "length");
      if (ends_in_backslash(t))
        return fl_error_set(
            err, FL_EINVAL, NULL, 0, 0,
            "a cable of \"%s\": \"%s\" ends in a backslash, "
            "which DOT cannot quote; convert to another "
            "format",
            w->names[fl_fabric_port_node(fab, fl_fabric_link_port(fab, l, 0))],
            t);
    }
  }
  return FL_OK;
}

int fl_write_dot(const fl_fabric *fab, FILE *out, fl_error *err) {
  fl_wr_names w = {0};
  uint32_t nn = fl_fabric_node_count(fab);
  Agnode_t **v = calloc(nn ? nn : 1, sizeof *v);
  Agraph_t *g = agopen((char *)"fabric", Agundirected, NULL);
  int rc = FL_OK;
  if (!v || !g || fl_wr_names_build(fab, &w) != 0) {
    rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0,
                      "out of memory writing the DOT graph");
    goto out;
  }
  if ((rc = fl_wr_cables_check(fab, "DOT", err)) != FL_OK)
    goto out;
  for (fl_id n = 0; n < nn; n++)
    if (unreadable_name(w.names[n])) {
      rc = fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "node \"%s\": a name that starts with '-' and is no "
                        "number is written bare by Graphviz and cannot be "
                        "read back; rename it, or convert to another format",
                        w.names[n]);
      goto out;
    }
  if ((rc = check_texts(fab, &w, err)) != FL_OK)
    goto out;
  if (build(g, fab, &w, v) != 0)
    rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0,
                      "out of memory writing the DOT graph");
  else if (agwrite(g, out) != 0 || fflush(out) != 0 || ferror(out))
    rc = fl_error_set(err, FL_EIO, NULL, 0, 0, "writing the DOT graph failed");
out:
  if (g)
    agclose(g);
  free(v);
  fl_wr_names_free(&w);
  return rc;
}
