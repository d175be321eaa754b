/* SPDX-License-Identifier: MIT */
/*
 * core/model/chassis.c — director chassis (chassis.h; docs/formats/ufm-ndt.md
 * "Director chassis" for the rules and their sources).
 *
 * Grouping, by union-find over switches:
 *  - descriptions `MF0;<name>:<model>/<L|S><nn>/U<k>` (the form libibnetdisc
 *    chassis.c parses for Mellanox boards and UFM's ibnetdiscover-to-ndt.py
 *    reads: L = leaf board, S = spine board, U = ASIC on the board) with the
 *    same <name> are one chassis;
 *  - a cable inside one system by its definition (FL_LINK_IN_SYSTEM: an
 *    IBNL-expanded `.topo` system) joins its ends; such a chassis is named
 *    by the system;
 *  - a switch-to-switch cable whose two ends share a non-zero system image
 *    GUID joins them (ibnetdiscover -g groups by equal system image GUID;
 *    requiring a cable keeps a generator that writes one GUID everywhere
 *    from merging a whole fabric).
 * A group of two or more switches, or one switch with a board position, is
 * a chassis. 1U switches (`MF0;leaf-01:MQM8700/U1`) have no board and
 * their own system image GUID: they stay alone.
 *
 * Front panel (UFM NDT, ibnetdiscover-to-ndt.py): port p of the ASIC
 * `L<bb>/U<u>` is `Blade <bb>_Port <u>/<p>`; spine ASICs have no front
 * panel. A port whose cable goes to another ASIC of the same chassis is
 * internal.
 */
#include "model/chassis.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/fabric_impl.h"
#include "util/unionfind.h"

/* Board position from a description: kind FL_BOARD_*, board, asic; the
 * name (after "MF0;") and model spans. 0 when the description has one. */
typedef struct slot_parse {
  uint32_t kind, board, asic;
  const char *name, *model;
  size_t name_n, model_n;
} slot_parse;

static int parse_num(const char **pp, const char *e, uint32_t *v) {
  const char *p = *pp;
  uint32_t x = 0;
  while (p < e && isdigit((unsigned char)*p) && x <= 65535)
    x = x * 10 + (uint32_t)(*p++ - '0');
  if (p == *pp || x == 0 || x > 65535)
    return -1;
  *v = x;
  *pp = p;
  return 0;
}

static int parse_slot(const char *d, slot_parse *s) {
  if (strncmp(d, "MF0;", 4) != 0)
    return -1;
  const char *name = d + 4, *colon = strchr(name, ':');
  if (!colon || colon == name)
    return -1;
  const char *model = colon + 1, *slash = strchr(model, '/');
  if (!slash || slash == model)
    return -1;
  const char *p = slash + 1, *e = p + strlen(p);
  while (e > p && isspace((unsigned char)e[-1]))
    e--;
  if (p >= e || (*p != 'L' && *p != 'S'))
    return -1;
  s->kind = *p == 'L' ? FL_BOARD_LEAF : FL_BOARD_SPINE;
  p++;
  if (parse_num(&p, e, &s->board) != 0 || p + 2 > e || p[0] != '/' ||
      p[1] != 'U')
    return -1;
  p += 2;
  if (parse_num(&p, e, &s->asic) != 0 || p != e)
    return -1;
  s->name = name;
  s->name_n = (size_t)(colon - name);
  s->model = model;
  s->model_n = (size_t)(slash - model);
  return 0;
}

void fl_chassis_free(fl_fabric *fab) {
  free(fab->slots);
  free(fab->chassis);
  fab->slots = NULL;
  fab->chassis = NULL;
  fab->n_chassis = 0;
}

/* Union switches by MF0 chassis name (@first: per name atom, the first
 * switch seen) and by cables between switches of one system image GUID. */
static void group_switches(fl_fabric *fab, uint32_t *uf, uint32_t *first,
                           const uint32_t *name_atom, uint8_t *insys) {
  for (size_t i = 0; i < fab->n_nodes; i++) {
    if (name_atom[i] == UINT32_MAX)
      continue;
    if (first[name_atom[i]] == UINT32_MAX)
      first[name_atom[i]] = (uint32_t)i;
    else
      fl_uf_join(uf, (uint32_t)i, first[name_atom[i]]);
  }
  for (size_t l = 0; l < fab->n_links; l++) {
    fl_id a = fab->ports[fab->links[l].a].node;
    fl_id b = fab->ports[fab->links[l].b].node;
    const fl_node_rec *x = &fab->nodes[a], *y = &fab->nodes[b];
    if (a != b && x->kind == FL_NODE_SWITCH && y->kind == FL_NODE_SWITCH &&
        ((x->sysimgguid && x->sysimgguid == y->sysimgguid) ||
         (fab->links[l].flags & FL_LINK_IN_SYSTEM))) {
      fl_uf_join(uf, a, b);
      if (fab->links[l].flags & FL_LINK_IN_SYSTEM)
        insys[a] = insys[b] = 1;
    }
  }
}

/* Number the groups that are chassis and fill the records. */
static int number_chassis(fl_fabric *fab, uint32_t *uf, const uint32_t *size,
                          const uint8_t *insys) {
  uint32_t *idx = malloc((fab->n_nodes ? fab->n_nodes : 1) * sizeof *idx);
  if (!idx)
    return FL_ENOMEM;
  size_t n = 0;
  for (size_t i = 0; i < fab->n_nodes; i++) {
    idx[i] = UINT32_MAX;
    uint32_t r = fl_uf_find(uf, (uint32_t)i);
    if (fab->nodes[i].kind != FL_NODE_SWITCH ||
        (size[r] < 2 && fab->slots[i].kind == FL_BOARD_NONE))
      continue;
    if (idx[r] == UINT32_MAX)
      idx[r] = (uint32_t)n++;
    fab->slots[i].chassis = idx[r];
  }
  free(idx);
  fab->chassis = calloc(n ? n : 1, sizeof *fab->chassis);
  if (!fab->chassis)
    return FL_ENOMEM;
  fab->n_chassis = n;
  for (size_t i = fab->n_nodes; i-- > 0;) { /* chains in ascending ids */
    uint32_t c = fab->slots[i].chassis;
    if (c == UINT32_MAX)
      continue;
    fl_chassis_rec *r = &fab->chassis[c];
    fab->slots[i].next = r->n_asics++ ? r->first : UINT32_MAX;
    r->first = (fl_id)i;
    r->sysimgguid = fab->nodes[i].sysimgguid;
  }
  for (size_t i = 0; i < fab->n_nodes; i++) {
    uint32_t c = fab->slots[i].chassis;
    if (c == UINT32_MAX)
      continue;
    fl_chassis_rec *r = &fab->chassis[c];
    if (!r->name && fab->slots[i].kind != FL_BOARD_NONE) {
      r->name = fab->slots[i].name;
      r->model = fab->slots[i].model;
    }
  }
  for (size_t c = 0; c < n; c++) { /* no MF0 name: the system the IBNL
                                     expansion names, else the first ASIC's */
    const fl_node_rec *f = &fab->nodes[fab->chassis[c].first];
    if (!fab->chassis[c].name && f->system && insys[fab->chassis[c].first])
      fab->chassis[c].name = f->system;
    if (!fab->chassis[c].name)
      fab->chassis[c].name = f->name ? f->name : f->desc;
  }
  return FL_OK;
}

int fl_derive_chassis(fl_fabric *fab, fl_error *err) {
  size_t nn = fab->n_nodes, na = fl_strmap_len(&fab->atoms);
  uint32_t *uf = malloc((nn ? nn : 1) * sizeof *uf);
  uint32_t *size = calloc(nn ? nn : 1, sizeof *size);
  uint32_t *name_atom = malloc((nn ? nn : 1) * sizeof *name_atom);
  uint32_t *first = malloc((na ? na : 1) * sizeof *first);
  uint8_t *insys = calloc(nn ? nn : 1, 1);
  fab->slots = malloc((nn ? nn : 1) * sizeof *fab->slots);
  int rc = FL_ENOMEM;
  if (!uf || !size || !name_atom || !first || !insys || !fab->slots)
    goto out;
  for (size_t i = 0; i < na; i++)
    first[i] = UINT32_MAX;
  for (size_t i = 0; i < nn; i++) {
    uf[i] = (uint32_t)i;
    name_atom[i] = UINT32_MAX;
    fl_slot_rec *s = &fab->slots[i];
    memset(s, 0, sizeof *s);
    s->chassis = s->next = UINT32_MAX;
    slot_parse sp;
    char d[512]; /* copied: interning may move the string table */
    if (fab->nodes[i].kind != FL_NODE_SWITCH)
      continue;
    snprintf(d, sizeof d, "%s", fl_b_atom_str(fab, fab->nodes[i].desc));
    if (parse_slot(d, &sp) != 0)
      continue;
    uint32_t nm = fl_b_intern(fab, sp.name, sp.name_n);
    uint32_t md = fl_b_intern(fab, sp.model, sp.model_n);
    if (nm == UINT32_MAX || md == UINT32_MAX)
      goto out;
    if (nm >= na) { /* a name no other string had: grow the first[] map */
      uint32_t *f2 = realloc(first, ((size_t)nm + 1) * sizeof *first);
      if (!f2)
        goto out;
      first = f2;
      while (na <= nm)
        first[na++] = UINT32_MAX;
    }
    s->kind = (uint8_t)sp.kind;
    s->board = (uint16_t)sp.board;
    s->asic = (uint16_t)sp.asic;
    s->name = nm;
    s->model = md;
    name_atom[i] = nm;
  }
  group_switches(fab, uf, first, name_atom, insys);
  for (size_t i = 0; i < nn; i++)
    if (fab->nodes[i].kind == FL_NODE_SWITCH)
      size[fl_uf_find(uf, (uint32_t)i)]++;
  rc = number_chassis(fab, uf, size, insys);
out:
  free(insys);
  free(uf);
  free(size);
  free(name_atom);
  free(first);
  if (rc != FL_OK)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  return FL_OK;
}

/* ---- front-panel names --------------------------------------------------- */

static const char *skip_blank(const char *p, const char *e) {
  while (p < e && (*p == ' ' || *p == '\t'))
    p++;
  return p;
}

static int word(const char **pp, const char *e, const char *w) {
  size_t n = strlen(w);
  if ((size_t)(e - *pp) < n || strncasecmp(*pp, w, n) != 0)
    return -1;
  *pp += n;
  return 0;
}

int fl_panel_parse(const char *s, size_t len, uint32_t *b, uint32_t *u,
                   uint32_t *p) {
  const char *q = s, *e = s + len;
  q = skip_blank(q, e);
  if (word(&q, e, "Blade") != 0)
    return -1;
  q = skip_blank(q, e);
  if (parse_num(&q, e, b) != 0)
    return -1;
  q = skip_blank(q, e);
  if (q >= e || *q++ != '_')
    return -1;
  q = skip_blank(q, e);
  if (word(&q, e, "Port") != 0)
    return -1;
  q = skip_blank(q, e);
  if (parse_num(&q, e, u) != 0)
    return -1;
  q = skip_blank(q, e);
  if (q >= e || *q++ != '/')
    return -1;
  q = skip_blank(q, e);
  if (parse_num(&q, e, p) != 0)
    return -1;
  return skip_blank(q, e) == e ? 0 : -1;
}

size_t fl_panel_format(char *buf, size_t size, uint32_t b, uint32_t u,
                       uint32_t p) {
  int n = snprintf(buf, size, "Blade %02u_Port %u/%u", b, u, p);
  if (n < 0)
    return 0;
  return (size_t)n < size ? (size_t)n : size ? size - 1 : 0;
}

/* ---- read accessors (fabriclint/fabric.h) -------------------------------- */

uint32_t fl_fabric_chassis_count(const fl_fabric *fab) {
  return fab && fab->slots ? (uint32_t)fab->n_chassis : 0;
}

uint32_t fl_fabric_node_chassis(const fl_fabric *fab, fl_id n) {
  if (!fab || !fab->slots || n >= fab->n_nodes ||
      fab->slots[n].chassis == UINT32_MAX)
    return FL_NONE;
  return fab->slots[n].chassis;
}

const char *fl_fabric_chassis_name(const fl_fabric *fab, uint32_t c) {
  return fab && c < fl_fabric_chassis_count(fab)
             ? fl_b_atom_str(fab, fab->chassis[c].name)
             : "";
}

const char *fl_fabric_chassis_model(const fl_fabric *fab, uint32_t c) {
  return fab && c < fl_fabric_chassis_count(fab)
             ? fl_b_atom_str(fab, fab->chassis[c].model)
             : "";
}

uint32_t fl_fabric_chassis_asic_count(const fl_fabric *fab, uint32_t c) {
  return fab && c < fl_fabric_chassis_count(fab) ? fab->chassis[c].n_asics : 0;
}

int fl_fabric_node_slot(const fl_fabric *fab, fl_id n, uint32_t *kind,
                        uint32_t *board, uint32_t *asic) {
  if (fl_fabric_node_chassis(fab, n) == FL_NONE)
    return FL_ENOTFOUND;
  const fl_slot_rec *s = &fab->slots[n];
  if (kind)
    *kind = s->kind;
  if (board)
    *board = s->board;
  if (asic)
    *asic = s->asic;
  return FL_OK;
}

int fl_fabric_link_internal(const fl_fabric *fab, fl_id l) {
  if (!fab || !fab->slots || l >= fab->n_links)
    return 0;
  fl_id a = fab->ports[fab->links[l].a].node;
  fl_id b = fab->ports[fab->links[l].b].node;
  uint32_t ca = fl_fabric_node_chassis(fab, a);
  return a != b && ca != FL_NONE && ca == fl_fabric_node_chassis(fab, b);
}

size_t fl_fabric_port_panel_name(const fl_fabric *fab, fl_id p, char *buf,
                                 size_t size) {
  if (size)
    *buf = '\0';
  if (!fab || !fab->slots || p >= fab->n_ports)
    return 0;
  fl_id n = fab->ports[p].node;
  const fl_slot_rec *s = &fab->slots[n];
  if (fl_fabric_node_chassis(fab, n) == FL_NONE || s->kind != FL_BOARD_LEAF ||
      fab->ports[p].num == 0)
    return 0;
  for (uint32_t j = fab->port_link_off[p]; j < fab->port_link_off[p + 1]; j++)
    if (fl_fabric_link_internal(fab, fab->port_links[j]))
      return 0;
  return fl_panel_format(buf, size, s->board, s->asic, fab->ports[p].num);
}

int fl_fabric_chassis_panel_port(const fl_fabric *fab, uint32_t c,
                                 const char *label, fl_id *node,
                                 uint32_t *port) {
  uint32_t b, u, p;
  if (c >= fl_fabric_chassis_count(fab) || !label ||
      fl_panel_parse(label, strlen(label), &b, &u, &p) != 0)
    return FL_ENOTFOUND;
  for (fl_id n = fab->chassis[c].first; n != UINT32_MAX;
       n = fab->slots[n].next) {
    const fl_slot_rec *s = &fab->slots[n];
    if (s->kind == FL_BOARD_LEAF && s->board == b && s->asic == u) {
      *node = n;
      *port = p;
      return FL_OK;
    }
  }
  return FL_ENOTFOUND;
}
