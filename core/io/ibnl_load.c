/* SPDX-License-Identifier: MIT */
/*
 * core/io/ibnl_load.c — an IBNL file given as an input (`fabriclint info
 * MTS14400.ibnl`): its TOPSYSTEM flattened (core/io/ibnl.c) into the ASICs,
 * the cables inside the system and the front-panel ports, so a system
 * definition can be looked at and checked on its own. docs/formats/ibnl.md.
 *
 * Nodes are named "<TOPSYSTEM>/<instance path>" ("MTS14400/leaf1/U1"), or
 * the TOPSYSTEM name when it has one ASIC, as the `.topo` loader names the
 * ASICs of a system; each front-panel port is labelled with its connector
 * name ("L1/P1").
 */
#include <stdio.h>
#include <string.h>

#include "io/formats.h"
#include "io/ibnl.h"
#include "io/loaders.h"
#include "model/build.h"
#include "model/fabric_impl.h"

static int oom(const char *path, fl_error *err) {
  return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
}

static int build(fl_fabric *fab, const fl_ibnl_file *f, const fl_ibnl_sys *x,
                 uint32_t file, const char *path, fl_error *err) {
  fl_prov prov = {file, 1, 0};
  const char *top = fl_ibnl_top_name(f);
  fl_id base = FL_NONE;
  for (size_t i = 0; i < x->n_nodes; i++) {
    char name[2048];
    if (x->n_nodes == 1)
      snprintf(name, sizeof name, "%s", top);
    else
      snprintf(name, sizeof name, "%s/%s", top, x->nodes[i].name);
    fl_id n = fl_b_node(fab, x->nodes[i].kind, 0, x->nodes[i].ports, prov);
    if (n == FL_NONE)
      return oom(path, err);
    if (!i)
      base = n;
    else if (n != base + i) /* fl_b_node numbers nodes in order */
      return fl_error_set(err, FL_EINVAL, path, 0, 0,
                          "internal: node ids not consecutive");
    fl_b_node_set_name(fab, n, name, (size_t)-1);
    fl_b_node_set_system(fab, n, top, (size_t)-1);
    if (fl_b_attr(fab, FL_ENT_NODE, n, "model", x->nodes[i].model) != FL_OK)
      return oom(path, err);
  }
  for (size_t i = 0; i < x->n_links; i++) {
    const fl_ibnl_link *k = &x->links[i];
    fl_id pa = fl_b_port(fab, base + k->a, k->pa, prov);
    fl_id pb = fl_b_port(fab, base + k->b, k->pb, prov);
    if (pa == FL_NONE || pb == FL_NONE ||
        fl_b_link(fab, pa, pb, k->width, k->speed, FL_LINK_DECLARED, prov) ==
            FL_NONE)
      return oom(path, err);
  }
  for (size_t i = 0; i < x->n_ports; i++) {
    fl_id p = fl_b_port(fab, base + x->ports[i].node, x->ports[i].port, prov);
    if (p == FL_NONE)
      return oom(path, err);
    fl_b_port_set_label(fab, p, x->ports[i].name, (size_t)-1);
  }
  char first[48] = "";
  if (x->dangling)
    snprintf(first, sizeof first, " (first at line %u)", x->dangling_line);
  fl_b_note(fab, "topology", prov,
            "IBNL TOPSYSTEM %s: %zu ASIC(s), %zu cable(s) inside, %zu "
            "front-panel port(s), %u connection(s) to board ports the default "
            "boards lack%s",
            top, x->n_nodes, x->n_links, x->n_ports, x->dangling, first);
  return FL_OK;
}

int fl_load_ibnl(fl_fabric *fab, const fl_input *in,
                 const fl_load_options *opts, fl_error *err) {
  (void)opts;
  fl_ibnl_file *f = NULL;
  int rc = fl_ibnl_parse(in->path, in->buf, in->len, &f, err);
  if (rc != FL_OK)
    return rc;
  fl_ibnl_sys x;
  rc = fl_ibnl_flatten(f, NULL, &x, err);
  if (rc == FL_OK) {
    uint32_t file = fl_b_file(fab, in->path);
    rc = build(fab, f, &x, file, in->path, err);
    fl_ibnl_sys_free(&x);
  }
  fl_ibnl_free(f);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

/* The first line that is not blank or a comment starts with SYSTEM or
 * TOPSYSTEM. */
static uint32_t detect_ibnl(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  if (c->xml_root)
    return FL_FMT_AUTO;
  const char *s = c->text, *end = c->text + c->len, *line, *le;
  while ((line = fl_detect_line(&s, end, &le)) != NULL) {
    const char *p = fl_detect_skip_ws(line, le);
    if (p < le && *p != '#')
      return fl_detect_prefix(p, le, "SYSTEM ") ||
                     fl_detect_prefix(p, le, "TOPSYSTEM ")
                 ? FL_FMT_IBNL
                 : FL_FMT_AUTO;
  }
  return FL_FMT_AUTO;
}

const fl_format_def fl_fmt_ibnl = {
    FL_FMT_IBNL,
    "ibnl",
    NULL,
    FL_FORMAT_TOPOLOGY,
    fl_load_ibnl,
    detect_ibnl,
    "an IBNL system definition (SYSTEM/TOPSYSTEM, NODE, SUBSYSTEM lines)"};
