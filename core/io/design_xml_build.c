/* SPDX-License-Identifier: MIT */
/*
 * core/io/design_xml_build.c — the design XML elements turned into the
 * fabric: <fabric>, <node>, <port> and <attr> built as they are read;
 * <link> kept as a compact pending record (its end names in an arena) and
 * resolved once every node is known, since a link may name nodes defined
 * further down.
 */
#include "io/design_xml_impl.h"
#include "util/bigmem.h"

#include <stdlib.h>
#include <string.h>

/* ---- the arena of pending links and node positions -------------------- */

/* Grow *@p (of *@cap elements of @size bytes) to hold @need. */
static int dx_grow(void **p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap)
    return 0;
  size_t ncap = *cap ? *cap * 2 : 256;
  while (ncap < need)
    ncap *= 2;
  void *np = fl_big_realloc(*p, *cap * size, ncap * size);
  if (!np)
    return -1;
  *p = np;
  *cap = ncap;
  return 0;
}

/* Copy @len bytes of @s, NUL-terminated, into the arena; offset or -1. */
static int64_t dx_store(dx *d, const char *s, size_t len) {
  if (d->alen + len + 1 > UINT32_MAX)
    return -1;
  if (dx_grow((void **)&d->arena, &d->acap, d->alen + len + 1, 1) != 0)
    return -1;
  int64_t off = (int64_t)d->alen;
  memcpy(d->arena + d->alen, s, len);
  d->arena[d->alen + len] = '\0';
  d->alen += len + 1;
  return off;
}

/* ---- elements ---------------------------------------------------------- */

static fl_prov prov_of(const dx *d, const dx_tag *t) {
  fl_prov p = {d->file, t->line, t->col};
  return p;
}

int on_fabric(dx *d, xmlNodePtr xn, const dx_tag *t) {
  const char *v[FA_N];
  uint64_t num[FA_N];
  /* name and description are checked; the model has no fabric-level
   * record to keep them in yet. */
  return gather(d, xn, t, EL_FABRIC, fabric_attrs, FA_N, v, num);
}

/* Store the F_DESIGN attributes of an element with fl_b_attr(). */
static int store_design(dx *d, uint32_t ent, fl_id id, const aspec *spec, int n,
                        const char **v, const uint64_t *num) {
  char buf[32];
  for (int i = 0; i < n; i++) {
    if (!v[i] || !(spec[i].flags & F_DESIGN))
      continue;
    const char *val = canonical(spec[i].type, v[i], num[i], buf, sizeof buf);
    if (fl_b_attr(d->fab, ent, id, spec[i].name, val) != FL_OK)
      return dx_nomem(d);
  }
  return 0;
}

int on_node(dx *d, xmlNodePtr xn, dx_frame *f) {
  const char *v[NA_N];
  uint64_t num[NA_N];
  if (gather(d, xn, &f->tag, EL_NODE, node_attrs, NA_N, v, num) != 0)
    return -1;
  const char *name = v[NA_NAME];
  size_t len = strlen(name);
  uint32_t idx = (uint32_t)d->n_nodes;
  uint32_t got = fl_strmap_put(&d->names, name, len, idx);
  if (got == FL_MAP_ABSENT)
    return dx_nomem(d);
  if (got != idx) {
    uint32_t line, col;
    attr_pos(d, &f->tag, "name", &line, &col);
    return dx_fail(d, line, col,
                   "duplicate node name \"%s\": first defined at line %u, "
                   "column %u; node names must be unique",
                   name, d->nodes[got].line, d->nodes[got].col);
  }
  fl_id n = fl_b_node(d->fab, (uint32_t)num[NA_KIND], num[NA_GUID],
                      (uint32_t)num[NA_PORTS], prov_of(d, &f->tag));
  if (n == FL_NONE || dx_grow((void **)&d->nodes, &d->cap_nodes, d->n_nodes + 1,
                              sizeof *d->nodes) != 0)
    return dx_nomem(d);
  d->nodes[d->n_nodes++] = (dx_nodepos){n, f->tag.line, f->tag.col};
  f->node = n;
  fl_b_node_set_name(d->fab, n, name, len);
  if (v[NA_DESC])
    fl_b_node_set_desc(d->fab, n, v[NA_DESC], (size_t)-1);
  if (v[NA_SYSTEM])
    fl_b_node_set_system(d->fab, n, v[NA_SYSTEM], (size_t)-1);
  if (v[NA_DEVICE])
    fl_b_node_set_device(d->fab, n, v[NA_DEVICE], (size_t)-1);
  if (v[NA_VENDID] || v[NA_DEVID] || v[NA_SYSIMG])
    fl_b_node_set_ids(d->fab, n, (uint32_t)num[NA_VENDID],
                      (uint32_t)num[NA_DEVID], num[NA_SYSIMG]);
  if (v[NA_TIER])
    fl_b_node_set_tier(d->fab, n, (uint32_t)num[NA_TIER]);
  return store_design(d, FL_ENT_NODE, n, node_attrs, NA_N, v, num);
}

int on_port(dx *d, xmlNodePtr xn, dx_frame *f, const dx_frame *parent) {
  const char *v[PA_N];
  uint64_t num[PA_N];
  uint32_t line, col;
  if (gather(d, xn, &f->tag, EL_PORT, port_attrs, PA_N, v, num) != 0)
    return -1;
  fl_id n = parent->node;
  uint32_t pnum = (uint32_t)num[PA_NUM];
  attr_pos(d, &f->tag, "num", &line, &col);
  if (pnum == 0 && fl_fabric_node_kind(d->fab, n) != FL_NODE_SWITCH &&
      fl_fabric_node_kind(d->fab, n) != 0)
    return dx_fail(d, line, col,
                   "port 0 is a switch's management port; "
                   "ports of a ca or router are numbered from 1");
  if (fl_b_port_find(d->fab, n, pnum) != FL_NONE)
    return dx_fail(d, line, col, "port %u of this node is declared twice",
                   pnum);
  if (v[PA_WIDTH] && v[PA_SPEED] && is_eth((uint32_t)num[PA_SPEED]) &&
      num[PA_WIDTH] != 1) {
    attr_pos(d, &f->tag, "width", &line, &col);
    return dx_fail(d, line, col,
                   "speed %s is a whole-port Ethernet rate: "
                   "expected width 1x or none",
                   v[PA_SPEED]);
  }
  fl_id p = fl_b_port(d->fab, n, pnum, prov_of(d, &f->tag));
  if (p == FL_NONE)
    return dx_nomem(d);
  f->node = n;
  f->port = p;
  if (v[PA_GUID])
    fl_b_port_set_guid(d->fab, p, num[PA_GUID]);
  if (v[PA_LID] || v[PA_LMC])
    fl_b_port_set_lid(d->fab, p, (uint32_t)num[PA_LID], (uint32_t)num[PA_LMC]);
  if (v[PA_LABEL])
    fl_b_port_set_label(d->fab, p, v[PA_LABEL], (size_t)-1);
  if (v[PA_WIDTH] || v[PA_SPEED]) {
    uint32_t rate = (uint32_t)num[PA_WIDTH] | (uint32_t)num[PA_SPEED] << 8;
    if (fl_u64map_set(&d->portrate, (uint64_t)n << 16 | pnum, rate) != 0)
      return dx_nomem(d);
  }
  return store_design(d, FL_ENT_PORT, p, port_attrs, PA_N, v, num);
}

/* Append key/value to the pending attributes of the last link. */
static int link_attr(dx *d, const char *key, const char *value) {
  int64_t k = dx_store(d, key, strlen(key));
  int64_t v = dx_store(d, value, strlen(value));
  if (k < 0 || v < 0 ||
      dx_grow((void **)&d->lattrs, &d->cap_lattrs, d->n_lattrs + 1,
              sizeof *d->lattrs) != 0)
    return dx_nomem(d);
  d->lattrs[d->n_lattrs++] = (dx_kv){(uint32_t)k, (uint32_t)v};
  d->links[d->n_links - 1].attr_n++;
  return 0;
}

int on_link(dx *d, xmlNodePtr xn, dx_frame *f) {
  const char *v[LA_N];
  uint64_t num[LA_N];
  if (gather(d, xn, &f->tag, EL_LINK, link_attrs, LA_N, v, num) != 0)
    return -1;
  if (v[LA_WIDTH] && v[LA_SPEED] && is_eth((uint32_t)num[LA_SPEED]) &&
      num[LA_WIDTH] != 1) {
    uint32_t line, col;
    attr_pos(d, &f->tag, "width", &line, &col);
    return dx_fail(d, line, col,
                   "speed %s is a whole-port Ethernet rate: "
                   "expected width 1x or none",
                   v[LA_SPEED]);
  }
  size_t al = strlen(v[LA_A]), bl = strlen(v[LA_B]);
  int64_t a = dx_store(d, v[LA_A], al), b = dx_store(d, v[LA_B], bl);
  if (a < 0 || b < 0 ||
      dx_grow((void **)&d->links, &d->cap_links, d->n_links + 1,
              sizeof *d->links) != 0)
    return dx_nomem(d);
  dx_link *l = &d->links[d->n_links++];
  *l = (dx_link){.a = (uint32_t)a,
                 .a_len = (uint32_t)al,
                 .b = (uint32_t)b,
                 .b_len = (uint32_t)bl,
                 .attr_first = (uint32_t)d->n_lattrs,
                 .line = f->tag.line,
                 .col = f->tag.col,
                 .off = f->tag.off,
                 .a_port = (uint16_t)num[LA_APORT],
                 .b_port = (uint16_t)num[LA_BPORT],
                 .width = (uint8_t)num[LA_WIDTH],
                 .speed = (uint8_t)num[LA_SPEED]};
  f->link = (uint32_t)(d->n_links - 1);
  for (int i = LA_CABLE; i <= LA_MEDIA; i++)
    if (v[i] && link_attr(d, link_attrs[i].name, v[i]) != 0)
      return -1;
  return 0;
}

int on_attr(dx *d, xmlNodePtr xn, dx_frame *f, const dx_frame *parent) {
  const aspec *spec = parent->el == EL_NODE   ? nattr_attrs
                      : parent->el == EL_PORT ? pattr_attrs
                      : parent->el == EL_LINK ? lattr_attrs
                                              : fattr_attrs;
  const char *v[AA_N];
  uint64_t num[AA_N];
  if (gather(d, xn, &f->tag, EL_ATTR, spec, AA_N, v, num) != 0)
    return -1;
  int rc = FL_OK;
  switch (parent->el) {
  case EL_NODE:
    rc = fl_b_attr(d->fab, FL_ENT_NODE, parent->node, v[AA_KEY], v[AA_VALUE]);
    break;
  case EL_PORT:
    rc = fl_b_attr(d->fab, FL_ENT_PORT, parent->port, v[AA_KEY], v[AA_VALUE]);
    break;
  case EL_LINK:
    return link_attr(d, v[AA_KEY], v[AA_VALUE]);
  default:
    break; /* fabric-level: checked, not kept (no fabric record yet) */
  }
  return rc == FL_OK ? 0 : dx_nomem(d);
}

/* ---- links ------------------------------------------------------------- */

static int link_end(dx *d, const dx_link *l, int b, fl_id *node) {
  uint32_t off = b ? l->b : l->a, len = b ? l->b_len : l->a_len;
  uint32_t i = fl_strmap_get(&d->names, d->arena + off, len);
  if (i != FL_MAP_ABSENT) {
    *node = d->nodes[i].id;
    return 0;
  }
  dx_tag t = {l->off, l->off, l->line, l->col};
  uint32_t line = l->line, col = l->col;
  if (!d->scan.broken) {
    t.end = tag_close(d->scan.buf, d->scan.len, l->off + 1);
    attr_pos(d, &t, b ? "b" : "a", &line, &col);
  }
  return dx_fail(d, line, col,
                 "link end %s=\"%s\" names no <node> of this "
                 "file; expected the name of a node defined anywhere in it",
                 b ? "b" : "a", d->arena + off);
}

static uint32_t port_rate(const dx *d, fl_id n, uint32_t port) {
  uint32_t r = fl_u64map_get(&d->portrate, (uint64_t)n << 16 | port);
  return r == FL_MAP_ABSENT ? 0 : r;
}

int resolve_links(dx *d) {
  for (size_t i = 0; i < d->n_links; i++) {
    const dx_link *l = &d->links[i];
    fl_id na, nb;
    if (link_end(d, l, 0, &na) != 0 || link_end(d, l, 1, &nb) != 0)
      return -1;
    fl_prov prov = {d->file, l->line, l->col};
    fl_id pa = fl_b_port(d->fab, na, l->a_port, prov);
    fl_id pb = fl_b_port(d->fab, nb, l->b_port, prov);
    if (pa == FL_NONE || pb == FL_NONE)
      return dx_nomem(d);
    uint32_t ra = port_rate(d, na, l->a_port), rb = port_rate(d, nb, l->b_port);
    uint32_t width = l->width ? l->width : (ra & 0xff) ? ra & 0xff : rb & 0xff;
    uint32_t speed = l->speed ? l->speed : (ra >> 8) ? ra >> 8 : rb >> 8;
    if (is_eth(speed)) {
      if (width == 0)
        width = 1;
      else if (width != 1)
        return dx_fail(d, l->line, l->col,
                       "link speed %s is a whole-port "
                       "Ethernet rate but its width (given here or on a "
                       "<port>) is %ux; expected 1x",
                       fl_speed_name(speed), width);
    }
    fl_id id = fl_b_link(d->fab, pa, pb, width, speed, FL_LINK_DECLARED, prov);
    if (id == FL_NONE)
      return dx_nomem(d);
    for (uint32_t k = 0; k < l->attr_n; k++) {
      const dx_kv *kv = &d->lattrs[l->attr_first + k];
      if (fl_b_attr(d->fab, FL_ENT_LINK, id, d->arena + kv->key,
                    d->arena + kv->value) != FL_OK)
        return dx_nomem(d);
    }
  }
  return 0;
}
