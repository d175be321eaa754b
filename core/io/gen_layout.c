/* SPDX-License-Identifier: MIT */
/*
 * core/io/gen_layout.c — fl_gen_layout(): racks, rows, U positions, PDUs
 * and feeds on a generated fabric's equipment, and cable ids, estimated
 * lengths and media on its cables (`fabriclint gen ... --layout`; the
 * placement and length model are stated in fabriclint/gen.h).
 *
 * Why in the generator: a generated plan is only a plan when it says where
 * things stand and what to order; architects wrote scripts to add racks,
 * PDUs, cable ids and lengths to every generated plan (issue 34). The
 * layout is written as the design XML attributes the rules already read
 * (rack, row, pdu, power-feed, cable, length, media; `u` added for the
 * rack unit), so failure-domains, diff and compare use it unchanged.
 *
 * Structure: equipment units (a host with all its CAs, or a switch) are
 * sorted into blocks (place_units()), blocks are cut into racks and racks
 * into rows; then the input is copied (gen_copy_fabric()) and the
 * attributes set on the copy before it is finalized. Lengths are integer
 * micrometres until they are rounded up to an orderable length.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/gen.h"
#include "io/gen_build.h"
#include "model/build.h"
#include "model/hashmap.h"

#define LAY_MAX_RACK_U  100u
#define LAY_MAX_PER_ROW 1000u

/** Orderable cable lengths, mm (fabriclint/gen.h). */
static const uint32_t lengths_mm[] = {
    500,   1000,  1500,  2000,  2500,  3000,   4000,   5000,   7000,   10000,
    15000, 20000, 30000, 50000, 70000, 100000, 150000, 200000, 300000, 500000};
#define N_LENGTHS (sizeof lengths_mm / sizeof lengths_mm[0])

/** One piece of equipment: a host (all CAs of one system) or a switch. */
typedef struct lay_unit {
  uint32_t zone;  /* 0 hosts and leaves, 1 spines, 2 cores and above */
  uint32_t block; /* su, else pod (0: none) */
  uint32_t host;  /* 1 for a host */
  uint32_t plane; /* switches: plane attribute (0: none) */
  uint32_t net;   /* 0 the compute fabric; 1 storage, 2 in-band, 3 another
                     `network` attribute (fl_gen_networks()) */
  uint32_t order; /* first appearance */
  uint32_t rack, u;
} lay_unit;

typedef struct lay_ctx {
  fl_gen_layout_params p;
  const fl_fabric *f;
  lay_unit *unit;
  uint32_t n_unit;
  uint32_t *unit_of; /* node -> unit */
  uint32_t n_racks, n_rows;
  uint32_t *rack_row, *rack_pos; /* per rack: row and position (0-based) */
  uint32_t *row_len;             /* per row: racks in it */
} lay_ctx;

static uint32_t attr_num(const fl_fabric *f, fl_id n, const char *key) {
  const char *v = fl_fabric_attr(f, FL_ENT_NODE, n, key);
  return v ? (uint32_t)strtoul(v, NULL, 10) : 0;
}

/** Default units per rack: @want, or as many as fit when fewer (>= 1). */
static uint32_t fit_default(uint32_t want, uint32_t rack_u, uint32_t unit_u) {
  uint32_t fit = rack_u / unit_u;
  return fit < want ? (fit ? fit : 1) : want;
}

static int lay_params(fl_gen_layout_params *p, fl_error *err) {
  if (!p->racks_per_row)
    p->racks_per_row = 10;
  if (!p->host_u)
    p->host_u = 8;
  if (!p->switch_u)
    p->switch_u = 1;
  if (!p->rack_u)
    p->rack_u = 42;
  if (p->rack_u > LAY_MAX_RACK_U || p->racks_per_row > LAY_MAX_PER_ROW)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "a rack has 1 to %u units and a row 1 to %u racks",
                        LAY_MAX_RACK_U, LAY_MAX_PER_ROW);
  if (!p->hosts_per_rack)
    p->hosts_per_rack = fit_default(4, p->rack_u, p->host_u);
  if (!p->switches_per_rack)
    p->switches_per_rack = fit_default(16, p->rack_u, p->switch_u);
  if ((uint64_t)p->hosts_per_rack * p->host_u > p->rack_u)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "%u hosts of %uU do not fit a %uU rack",
                        p->hosts_per_rack, p->host_u, p->rack_u);
  if ((uint64_t)p->switches_per_rack * p->switch_u > p->rack_u)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "%u switches of %uU do not fit a %uU rack",
                        p->switches_per_rack, p->switch_u, p->rack_u);
  return FL_OK;
}

/** Units of @c->f: one per switch, one per host system (CAs without a
 * system are hosts of their own). */
static int make_units(lay_ctx *c) {
  const fl_fabric *f = c->f;
  uint32_t nn = fl_fabric_node_count(f);
  fl_strmap hosts;
  memset(&hosts, 0, sizeof hosts);
  c->unit = calloc((size_t)nn + 1, sizeof *c->unit);
  c->unit_of = malloc(((size_t)nn + 1) * sizeof *c->unit_of);
  if (!c->unit || !c->unit_of)
    return FL_ENOMEM;
  for (fl_id n = 0; n < nn; n++) {
    int is_ca = fl_fabric_node_kind(f, n) != FL_NODE_SWITCH;
    const char *sys = is_ca ? fl_fabric_node_system(f, n) : "";
    if (is_ca && *sys) {
      uint32_t u = fl_strmap_put(&hosts, sys, strlen(sys), c->n_unit);
      if (u == FL_MAP_ABSENT) {
        fl_strmap_free(&hosts);
        return FL_ENOMEM;
      }
      c->unit_of[n] = u;
      if (u != c->n_unit)
        continue; /* a further CA of a known host */
    } else {
      c->unit_of[n] = c->n_unit;
    }
    lay_unit *U = &c->unit[c->n_unit];
    U->order = c->n_unit++;
    U->host = is_ca;
    uint32_t tier = fl_fabric_node_tier(f, n);
    U->zone = is_ca || tier <= 1 || tier == FL_TIER_UNKNOWN ? 0
              : tier == 2                                   ? 1
                                                            : 2;
    U->block = attr_num(f, n, "su");
    if (!U->block)
      U->block = attr_num(f, n, "pod");
    U->plane = is_ca ? 0 : attr_num(f, n, "plane");
    const char *net = fl_fabric_attr(f, FL_ENT_NODE, n, "network");
    U->net = !net                          ? 0
             : strcmp(net, "storage") == 0 ? 1
             : strcmp(net, "inband") == 0  ? 2
                                           : 3;
  }
  fl_strmap_free(&hosts);
  return FL_OK;
}

static int cmp_units(const void *x, const void *y) {
  const lay_unit *a = *(const lay_unit *const *)x;
  const lay_unit *b = *(const lay_unit *const *)y;
  if (a->net != b->net) /* each network after the compute fabric */
    return a->net < b->net ? -1 : 1;
  if (a->zone != b->zone)
    return a->zone < b->zone ? -1 : 1;
  if (a->zone && a->plane != b->plane) /* upper tiers: per plane */
    return a->plane < b->plane ? -1 : 1;
  if (a->block != b->block)
    return a->block < b->block ? -1 : 1;
  if (a->host != b->host)
    return a->host ? -1 : 1; /* an SU's hosts before its leaves */
  if (a->plane != b->plane)
    return a->plane < b->plane ? -1 : 1;
  return (a->order > b->order) - (a->order < b->order);
}

/** A new rack in row @row; its index. */
static uint32_t new_rack(lay_ctx *c, uint32_t row) {
  c->rack_row[c->n_racks] = row;
  c->rack_pos[c->n_racks] = c->row_len[row]++;
  return c->n_racks++;
}

/** Hosts and leaves: each block (SU, else pod) starts a new row; a rack
 * holds one kind of one block and one plane; a row takes at most
 * racks_per_row of them. @by[0..@n) are the zone-0 units in order. */
static void place_bottom(lay_ctx *c, lay_unit **by, uint32_t n) {
  const lay_unit *first = NULL;
  uint32_t slot = 0, rack = 0;
  for (uint32_t i = 0; i < n; i++) {
    lay_unit *U = by[i];
    uint32_t cap = U->host ? c->p.hosts_per_rack : c->p.switches_per_rack;
    int new_block = !first || first->block != U->block || first->net != U->net;
    if (new_block || first->host != U->host || first->plane != U->plane ||
        slot == cap) {
      if (new_block || c->row_len[c->n_rows - 1] == c->p.racks_per_row)
        c->n_rows++;
      rack = new_rack(c, c->n_rows - 1);
      first = U;
      slot = 0;
    }
    U->rack = rack;
    U->u = 1 + slot++ * (U->host ? c->p.host_u : c->p.switch_u);
  }
}

/** Switches of one upper tier and plane (@by[0..@n)): dealt round-robin
 * over at least 2 racks and at least one per row, the racks spread over
 * the rows, so that no rack or row holds a whole spine or core group
 * (failure-domains.domain-partition). */
static void place_upper(lay_ctx *c, lay_unit **by, uint32_t n) {
  uint32_t racks = c->n_rows > 2 ? c->n_rows : 2;
  if (racks > n)
    racks = n;
  while (gen_ceil_div(n, racks) > c->p.switches_per_rack)
    racks++;
  uint32_t base = c->n_racks;
  for (uint32_t r = 0; r < racks; r++)
    new_rack(c, r % c->n_rows);
  for (uint32_t i = 0; i < n; i++) {
    by[i]->rack = base + i % racks;
    by[i]->u = 1 + (i / racks) * c->p.switch_u;
  }
}

/** Racks and U positions of every unit (fabriclint/gen.h, placement). */
static int place_units(lay_ctx *c) {
  lay_unit **by = malloc(((size_t)c->n_unit + 1) * sizeof *by);
  c->rack_row = malloc(((size_t)c->n_unit + 2) * sizeof *c->rack_row);
  c->rack_pos = malloc(((size_t)c->n_unit + 2) * sizeof *c->rack_pos);
  c->row_len = calloc((size_t)c->n_unit + 2, sizeof *c->row_len);
  if (!by || !c->rack_row || !c->rack_pos || !c->row_len) {
    free(by);
    return FL_ENOMEM;
  }
  for (uint32_t i = 0; i < c->n_unit; i++)
    by[i] = &c->unit[i];
  qsort(by, c->n_unit, sizeof *by, cmp_units);
  /* per network (the compute fabric first): hosts and leaves in rows of
   * their own, then the upper tiers over the rows so far */
  for (uint32_t i = 0; i < c->n_unit;) {
    uint32_t net = by[i]->net, j = i;
    while (j < c->n_unit && by[j]->net == net && by[j]->zone == 0)
      j++;
    place_bottom(c, by + i, j - i);
    if (c->n_rows == 0)
      c->n_rows = 1; /* no hosts or leaves: the upper tiers get one row */
    for (i = j; i < c->n_unit && by[i]->net == net;) {
      j = i;
      while (j < c->n_unit && by[j]->net == net && by[j]->zone == by[i]->zone &&
             by[j]->plane == by[i]->plane)
        j++;
      place_upper(c, by + i, j - i);
      i = j;
    }
  }
  free(by);
  return FL_OK;
}

/** Rack and row names of rack @r: "Rrr-pp" and "Rrr" (1-based). */
static void rack_names(const lay_ctx *c, uint32_t r, char *rack, size_t rs,
                       char *row, size_t ws) {
  uint32_t most = 0;
  for (uint32_t i = 0; i < c->n_rows; i++)
    most = c->row_len[i] > most ? c->row_len[i] : most;
  int wr = gen_pad(c->n_rows, 2), wp = gen_pad(most, 2);
  gen_fmt(row, ws, "R%0*u", wr, c->rack_row[r] + 1);
  gen_fmt(rack, rs, "R%0*u-%0*u", wr, c->rack_row[r] + 1, wp,
          c->rack_pos[r] + 1);
}

/** Set @key=@val on @ent @id of @dst unless @src already has the key. */
static int put(fl_fabric *dst, const fl_fabric *src, uint32_t ent, fl_id id,
               const char *key, const char *val) {
  if (fl_fabric_attr(src, ent, id, key))
    return FL_OK;
  return fl_b_attr(dst, ent, id, key, val) == FL_OK ? FL_OK : FL_ENOMEM;
}

static int node_attrs(const lay_ctx *c, fl_fabric *dst, fl_id n) {
  const lay_unit *U = &c->unit[c->unit_of[n]];
  char rack[32], row[16], u[16], pdu[80];
  rack_names(c, U->rack, rack, sizeof rack, row, sizeof row);
  gen_fmt(u, sizeof u, "%u", U->u);
  gen_fmt(pdu, sizeof pdu, "%s-PA+%s-PB", rack, rack);
  int rc = put(dst, c->f, FL_ENT_NODE, n, "rack", rack);
  if (rc == FL_OK)
    rc = put(dst, c->f, FL_ENT_NODE, n, "row", row);
  if (rc == FL_OK)
    rc = put(dst, c->f, FL_ENT_NODE, n, "u", u);
  if (rc == FL_OK)
    rc = put(dst, c->f, FL_ENT_NODE, n, "pdu", pdu);
  if (rc == FL_OK)
    rc = put(dst, c->f, FL_ENT_NODE, n, "power-feed", "A+B");
  return rc;
}

/** Micrometres from unit @u's bottom to the top of its rack. */
static uint64_t rise_um(const lay_ctx *c, uint32_t u) {
  return (uint64_t)(c->p.rack_u + 1 - u) * FL_GEN_U_UM;
}

/** The routed length of link @l in micrometres (fabriclint/gen.h). */
static uint64_t link_um(const lay_ctx *c, fl_id l) {
  const fl_fabric *f = c->f;
  const lay_unit *a = &c->unit[c->unit_of[fl_fabric_port_node(
      f, fl_fabric_link_port(f, l, 0))]];
  const lay_unit *b = &c->unit[c->unit_of[fl_fabric_port_node(
      f, fl_fabric_link_port(f, l, 1))]];
  uint64_t um = (uint64_t)FL_GEN_SLACK_MM * 1000;
  if (a->rack == b->rack)
    return um +
           (uint64_t)(a->u > b->u ? a->u - b->u : b->u - a->u) * FL_GEN_U_UM;
  uint32_t ra = c->rack_row[a->rack], rb = c->rack_row[b->rack];
  uint32_t pa = c->rack_pos[a->rack], pb = c->rack_pos[b->rack];
  um += rise_um(c, a->u) + rise_um(c, b->u) + 2ull * FL_GEN_TRAY_RISE_MM * 1000;
  um += (uint64_t)(pa > pb ? pa - pb : pb - pa) * FL_GEN_RACK_PITCH_MM * 1000;
  um += (uint64_t)(ra > rb ? ra - rb : rb - ra) * FL_GEN_ROW_PITCH_MM * 1000;
  return um;
}

/** 100G-PAM4 lanes (NDR of any width, 400G Ethernet): the media whose
 * reaches are cited in fabriclint/gen.h. */
static int pam4_100g(uint32_t speed) {
  return speed == FL_SPEED_NDR || speed == FL_SPEED_ETH_400G;
}

static int link_attrs(const lay_ctx *c, fl_fabric *dst, fl_id l, int width,
                      fl_error *err) {
  uint64_t um = link_um(c, l);
  uint32_t i = 0;
  while (i < N_LENGTHS && (uint64_t)lengths_mm[i] * 1000 < um)
    i++;
  if (i == N_LENGTHS)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "cable %u would be %.1f m long, beyond any medium "
                        "(500 m); use fewer racks per row",
                        l + 1, (double)um / 1e6);
  char id[24], len[16];
  gen_fmt(id, sizeof id, "C%0*u", width, l + 1);
  gen_fmt(len, sizeof len, "%g", lengths_mm[i] / 1000.0);
  int rc = put(dst, c->f, FL_ENT_LINK, l, "cable", id);
  if (rc == FL_OK)
    rc = put(dst, c->f, FL_ENT_LINK, l, "length", len);
  if (rc == FL_OK && pam4_100g(fl_fabric_link_speed(c->f, l))) {
    uint32_t mm = lengths_mm[i];
    const char *media = mm <= 3000 ? "dac" : mm <= 5000 ? "acc" : "optical";
    rc = put(dst, c->f, FL_ENT_LINK, l, "media", media);
  }
  if (rc == FL_ENOMEM)
    fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  return rc;
}

/** The copy with every attribute set, finalized into *@out. */
static int write_copy(const lay_ctx *c, fl_fabric **out, fl_error *err) {
  const fl_fabric *f = c->f;
  fl_fabric *dst = fl_fabric_new();
  fl_id *port_map =
      malloc(((size_t)fl_fabric_port_count(f) + 1) * sizeof *port_map);
  int rc = dst && port_map ? FL_OK : FL_ENOMEM;
  char what[300];
  snprintf(what, sizeof what, "%s+layout",
           fl_fabric_file_count(f) ? fl_fabric_file_path(f, 0) : "gen");
  fl_prov prov = {dst ? fl_b_file(dst, what) : 0, 0, 0};
  if (rc == FL_OK)
    rc = gen_copy_fabric(dst, f, 0, 0, prov, port_map);
  free(port_map);
  for (fl_id n = 0; rc == FL_OK && n < fl_fabric_node_count(f); n++)
    rc = node_attrs(c, dst, n);
  if (rc != FL_OK)
    fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  int width = gen_pad(fl_fabric_link_count(f), 5);
  for (fl_id l = 0; rc == FL_OK && l < fl_fabric_link_count(f); l++)
    rc = link_attrs(c, dst, l, width, err);
  if (rc == FL_OK)
    rc = fl_fabric_finalize(dst, err);
  if (rc != FL_OK) {
    fl_fabric_free(dst);
    return rc;
  }
  *out = dst;
  return FL_OK;
}

int fl_gen_layout(const fl_fabric *in, const fl_gen_layout_params *p,
                  fl_fabric **out, fl_error *err) {
  *out = NULL;
  lay_ctx c;
  memset(&c, 0, sizeof c);
  if (!in)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0, "no fabric to lay out");
  c.f = in;
  if (p)
    c.p = *p;
  int rc = lay_params(&c.p, err);
  if (rc == FL_OK && (make_units(&c) != FL_OK || place_units(&c) != FL_OK))
    rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  if (rc == FL_OK)
    rc = write_copy(&c, out, err);
  free(c.unit);
  free(c.unit_of);
  free(c.rack_row);
  free(c.rack_pos);
  free(c.row_len);
  return rc;
}
