/* SPDX-License-Identifier: MIT */
/*
 * core/io/gen.c — generators for fat trees, rings and 2-D tori, and the
 * building blocks every generator shares (io/gen_build.h); rail-optimised
 * SU fabrics are in gen_rail.c, planes in gen_planes.c, the physical
 * layout in gen_layout.c (fabriclint/gen.h has the shapes, formulas,
 * names and port plans).
 *
 * Why generate instead of hand-writing fixtures: a plan of tens of
 * thousands of nodes is only credible if the numbers come from formulas
 * that are stated once and tested (tests/unit/test_gen.c checks the radix-64
 * three-tier tree against k³/4 hosts, 5k²/4 switches, 3k³/4 links), and the
 * same fabric must be writable as design XML, as an ibnetdiscover dump and
 * as an ibsim net file so that a real SM and real discovery tools can be run
 * against it (fabrics/regen.sh).
 *
 * Structure: every generator first computes and validates its shape
 * (fl_gen_*_shape(), pure arithmetic), then builds in a fixed order —
 * leaves, spines, cores, then CAs — through the builder API of core/build.h,
 * (tori: switches in (x, y) order, then CAs, then the x and y rings),
 * so node ids, GUIDs and LIDs are a function of the parameters only. A small
 * gen_ctx carries what every node needs (link width/speed, ids, counters)
 * and a sticky out-of-memory flag, so the building loops stay short and the
 * error is checked once per node rather than once per setter.
 *
 * No global mutable state: all state lives in gen_ctx on the caller's stack.
 */
#include "fabriclint/gen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/gen_build.h"
#include "model/build.h"

/* ---- vocabulary ---------------------------------------------------------- */

static const char *const dgx_h100_rails[8] = {
    "mlx5_0", "mlx5_3", "mlx5_4",  "mlx5_5",
    "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11",
};

const char *fl_gen_dgx_h100_hca(uint32_t rail) {
  return rail < 8 ? dgx_h100_rails[rail] : NULL;
}

static const struct {
  uint32_t kind;
  const char *name;
} gen_kinds[] = {
    {FL_GEN_FAT_TREE, "fat-tree"}, {FL_GEN_RAIL_SU, "rail-su"},
    {FL_GEN_TORUS, "torus"},       {FL_GEN_DRAGONFLY, "dragonfly"},
    {FL_GEN_RING, "ring"},
};

uint32_t fl_gen_kind_parse(const char *name) {
  for (size_t i = 0; name && i < sizeof gen_kinds / sizeof gen_kinds[0]; i++)
    if (strcmp(name, gen_kinds[i].name) == 0)
      return gen_kinds[i].kind;
  return 0;
}

const char *fl_gen_kind_name(uint32_t kind) {
  for (size_t i = 0; i < sizeof gen_kinds / sizeof gen_kinds[0]; i++)
    if (gen_kinds[i].kind == kind)
      return gen_kinds[i].name;
  return "?";
}

/**
 * gen_fmt() — snprintf into a name buffer. The buffers are sized for validated
 * parameters (numbers of at most 7 digits, prefixes of at most 24 bytes), so
 * truncation cannot happen; going through vsnprintf keeps GCC's
 * -Wformat-truncation from guessing otherwise at -O2.
 */
void gen_fmt(char *buf, size_t size, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  vsnprintf(buf, size, f, ap);
  va_end(ap);
}

/* ---- shared parameter checks ------------------------------------------ */

#define VENDID_MELLANOX 0x02c9u

/** Decimal digits of @v (at least 1). */
static int digits(uint32_t v) {
  int d = 1;
  while (v >= 10) {
    v /= 10;
    d++;
  }
  return d;
}

/** Zero-pad width for numbers up to @max, at least @min_width. */
int gen_pad(uint32_t max, int min_width) {
  int d = digits(max);
  return d > min_width ? d : min_width;
}

static int is_eth_speed(uint32_t speed) {
  return speed >= FL_SPEED_ETH_1G;
}

/** Fill in default width/speed and check them. */
int gen_check_link(uint32_t *width, uint32_t *speed, fl_error *err) {
  if (*speed == 0)
    *speed = FL_SPEED_NDR;
  if (strcmp(fl_speed_name(*speed), "??") == 0)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "unknown link speed code %u", *speed);
  if (*width == 0)
    *width = is_eth_speed(*speed) ? 1 : 4;
  if (*width != 1 && *width != 2 && *width != 4 && *width != 8 && *width != 12)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "link width must be 1x, 2x, 4x, 8x or 12x, not %ux",
                        *width);
  if (is_eth_speed(*speed) && *width != 1)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "an Ethernet speed (%s) is a whole-port rate: "
                        "width must be 1x, not %ux",
                        fl_speed_name(*speed), *width);
  return FL_OK;
}

/** A switch radix must be even and fit IBA NodeInfo NumPorts (<= 254). */
int gen_check_radix(const char *what, uint32_t k, fl_error *err) {
  if (k < 4 || k > 254 || k % 2 != 0)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "%s must be an even number from 4 to 254, not %u", what,
                        k);
  return FL_OK;
}

uint32_t gen_ceil_div(uint32_t a, uint32_t b) {
  return (a + b - 1) / b;
}

void gen_shape_lids(fl_gen_shape *s, uint32_t no_lids) {
  uint64_t want = (uint64_t)s->switches + s->cas;
  s->lids = no_lids
                ? 0
                : (uint32_t)(want > FL_GEN_MAX_UCAST_LID ? FL_GEN_MAX_UCAST_LID
                                                         : want);
}

int gen_check_size(const fl_gen_shape *s, fl_error *err) {
  if ((uint64_t)s->switches + s->cas > FL_GEN_MAX_NODES)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "%u switches and %u CAs exceed the generator's "
                        "limit of %u nodes",
                        s->switches, s->cas, FL_GEN_MAX_NODES);
  return FL_OK;
}

/* ---- fat tree shape --------------------------------------------------- */

/** Resolved fat-tree parameters (defaults filled in). */
typedef struct ft_plan {
  fl_gen_fat_tree_params p;
  uint32_t half;           /* k/2: host ports per leaf, uplinks per switch */
  uint32_t pods_max;       /* pods of the full tree (1 for 2 tiers) */
  uint32_t leaves_per_pod; /* leaves of a full pod */
  uint32_t spines_per_pod; /* spines of every pod (2 tiers: all spines) */
  uint32_t cores;          /* 3 tiers: (k/(2m))², else 0 */
  uint32_t group;          /* 3 tiers: cores per spine group = k/(2m) */
  fl_gen_shape shape;
} ft_plan;

static int ft_resolve(const fl_gen_fat_tree_params *in, ft_plan *pl,
                      fl_error *err) {
  memset(pl, 0, sizeof *pl);
  if (!in)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0, "no fat-tree parameters");
  fl_gen_fat_tree_params p = *in;
  int rc = gen_check_radix("radix", p.radix, err);
  if (rc != FL_OK)
    return rc;
  if (p.tiers == 0)
    p.tiers = 2;
  if (p.tiers != 2 && p.tiers != 3)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "tiers must be 2 or 3, not %u", p.tiers);
  if (p.parallel == 0)
    p.parallel = 1;
  uint32_t k = p.radix, m = p.parallel, half = k / 2;
  if (half % m != 0)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "parallel links (%u) must divide the %u uplinks of "
                        "a radix-%u switch",
                        m, half, k);
  if ((rc = gen_check_link(&p.width, &p.speed, err)) != FL_OK)
    return rc;
  if (p.extra_leaf_link > 1)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "extra leaf link must be 0 or 1, not %u",
                        p.extra_leaf_link);
  if (p.extra_leaf_link && k > 252)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "an extra leaf link needs port k+1 on two leaves: "
                        "radix must be at most 252, not %u",
                        k);

  pl->half = half;
  pl->spines_per_pod = half / m;
  if (p.tiers == 2) {
    pl->pods_max = 1;
    pl->leaves_per_pod = k / m;
    pl->cores = 0;
  } else {
    pl->pods_max = k / m;
    pl->leaves_per_pod = half / m;
    pl->group = half / m;
    pl->cores = pl->group * pl->group;
  }
  uint64_t per_pod = (uint64_t)pl->leaves_per_pod * half;
  uint64_t full = per_pod * pl->pods_max;
  if (p.hosts == 0)
    p.hosts = full > UINT32_MAX ? UINT32_MAX : (uint32_t)full;
  if (p.hosts > full)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "%u hosts do not fit a %u-tier radix-%u fat tree "
                        "with %u parallel links (at most %llu hosts)",
                        p.hosts, p.tiers, k, m, (unsigned long long)full);

  fl_gen_shape *s = &pl->shape;
  uint32_t leaves = gen_ceil_div(p.hosts, half);
  s->hosts = s->cas = s->host_links = p.hosts;
  s->leaves = leaves;
  s->pods = gen_ceil_div(leaves, pl->leaves_per_pod);
  s->spines = pl->spines_per_pod * s->pods;
  s->cores = pl->cores;
  s->switches = s->leaves + s->spines + s->cores;
  s->parallel = m;
  uint64_t links =
      (uint64_t)p.hosts + (uint64_t)leaves * pl->spines_per_pod * m;
  if (p.tiers == 3)
    links += (uint64_t)s->spines * half; /* cores are complete */
  if (p.extra_leaf_link && leaves < 2)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "an extra leaf link needs at least 2 leaves; %u "
                        "hosts fill only 1",
                        p.hosts);
  links += p.extra_leaf_link;
  if (links > UINT32_MAX)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "a radix-%u fat tree has too many links", k);
  s->links = (uint32_t)links;
  gen_shape_lids(s, p.no_lids);
  pl->p = p;
  return gen_check_size(s, err);
}

int fl_gen_fat_tree_shape(const fl_gen_fat_tree_params *p, fl_gen_shape *shape,
                          fl_error *err) {
  ft_plan pl;
  int rc = ft_resolve(p, &pl, err);
  if (rc == FL_OK && shape)
    *shape = pl.shape;
  return rc;
}

/* ---- building blocks ----------------------------------------------------- */

/** Typical NVIDIA parts of a speed generation: switch and CA device ids. */
static void part_ids(uint32_t speed, uint32_t *sw, uint32_t *ca) {
  switch (speed) {
  case FL_SPEED_XDR: /* Quantum-X800, ConnectX-8 */
    *sw = 0xd2f4;
    *ca = 0x1023;
    break;
  case FL_SPEED_NDR: /* Quantum-2 (QM9700), ConnectX-7 */
    *sw = 0xd2f2;
    *ca = 0x1021;
    break;
  case FL_SPEED_HDR: /* Quantum (QM8700), ConnectX-6 */
    *sw = 0xd2f0;
    *ca = 0x101b;
    break;
  case FL_SPEED_EDR: /* Switch-IB 2, ConnectX-5 */
    *sw = 0xcf08;
    *ca = 0x1017;
    break;
  default:
    *sw = 0;
    *ca = 0;
  }
}

int gen_ctx_init(gen_ctx *c, const char *what, uint32_t width, uint32_t speed,
                 uint32_t no_lids, fl_error *err) {
  memset(c, 0, sizeof *c);
  c->fab = fl_fabric_new();
  if (!c->fab)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0,
                        "out of memory creating a fabric");
  c->prov.file = fl_b_file(c->fab, what);
  c->width = width;
  c->speed = speed;
  c->next_lid = no_lids ? 0 : 1;
  part_ids(speed, &c->sw_devid, &c->ca_devid);
  return FL_OK;
}

/** Next LID, or 0 when LIDs are off or the unicast range is used up. */
static uint32_t take_lid(gen_ctx *c) {
  if (c->next_lid == 0 || c->next_lid > FL_GEN_MAX_UCAST_LID)
    return 0;
  return c->next_lid++;
}

void gen_attr_str(gen_ctx *c, fl_id n, const char *key, const char *val) {
  if (!c->oom && fl_b_attr(c->fab, FL_ENT_NODE, n, key, val) != FL_OK)
    c->oom = 1;
}

void gen_attr_u32(gen_ctx *c, fl_id n, const char *key, uint32_t val) {
  char buf[16];
  gen_fmt(buf, sizeof buf, "%u", val);
  gen_attr_str(c, n, key, buf);
}

/** Name, description and tier of a new node. */
static void node_common(gen_ctx *c, fl_id n, const char *name, uint32_t tier) {
  fl_b_node_set_name(c->fab, n, name, (size_t)-1);
  fl_b_node_set_desc(c->fab, n, name, (size_t)-1);
  gen_attr_u32(c, n, "tier", tier);
}

/** A switch of @nports ports with port 0 (GUID, LID). */
fl_id gen_add_switch(gen_ctx *c, const char *name, uint32_t nports,
                     uint32_t tier) {
  if (c->oom)
    return FL_NONE;
  uint64_t guid = FL_GEN_SWITCH_GUID_BASE + ++c->n_switches;
  fl_id n = fl_b_node(c->fab, FL_NODE_SWITCH, guid, nports, c->prov);
  fl_id p0 = n == FL_NONE ? FL_NONE : fl_b_port(c->fab, n, 0, c->prov);
  if (p0 == FL_NONE) {
    c->oom = 1;
    return FL_NONE;
  }
  node_common(c, n, name, tier);
  fl_b_node_set_ids(c->fab, n, VENDID_MELLANOX, c->sw_devid, guid);
  fl_b_port_set_guid(c->fab, p0, guid);
  fl_b_port_set_lid(c->fab, p0, take_lid(c), 0);
  return n;
}

/** A single-port CA "<system> <device>" with port 1 (GUID, LID). */
fl_id gen_add_ca(gen_ctx *c, const char *system, const char *device) {
  if (c->oom)
    return FL_NONE;
  char name[128];
  gen_fmt(name, sizeof name, "%s %s", system, device);
  uint64_t guid = FL_GEN_CA_GUID_BASE + 2 * (uint64_t)++c->n_cas;
  fl_id n = fl_b_node(c->fab, FL_NODE_CA, guid, 1, c->prov);
  fl_id p1 = n == FL_NONE ? FL_NONE : fl_b_port(c->fab, n, 1, c->prov);
  if (p1 == FL_NONE) {
    c->oom = 1;
    return FL_NONE;
  }
  node_common(c, n, name, 0);
  fl_b_node_set_system(c->fab, n, system, (size_t)-1);
  fl_b_node_set_device(c->fab, n, device, (size_t)-1);
  fl_b_node_set_ids(c->fab, n, VENDID_MELLANOX, c->ca_devid, guid);
  fl_b_port_set_guid(c->fab, p1, guid + 1);
  fl_b_port_set_lid(c->fab, p1, take_lid(c), 0);
  gen_attr_str(c, n, "role", "compute");
  return n;
}

/** A cable from port @pa of node @a to port @pb of node @b. */
void gen_cable(gen_ctx *c, fl_id a, uint32_t pa, fl_id b, uint32_t pb) {
  if (c->oom)
    return;
  fl_id x = fl_b_port(c->fab, a, pa, c->prov);
  fl_id y = x == FL_NONE ? FL_NONE : fl_b_port(c->fab, b, pb, c->prov);
  if (y == FL_NONE || fl_b_link(c->fab, x, y, c->width, c->speed,
                                FL_LINK_DECLARED, c->prov) == FL_NONE)
    c->oom = 1;
}

/** Finalize, or free on failure; hands the fabric to *@out. */
int gen_ctx_finish(gen_ctx *c, fl_fabric **out, fl_error *err) {
  int rc = FL_OK;
  if (c->oom)
    rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0,
                      "out of memory while generating the fabric");
  else
    rc = fl_fabric_finalize(c->fab, err);
  if (rc != FL_OK) {
    fl_fabric_free(c->fab);
    c->fab = NULL;
  }
  *out = c->fab;
  return rc;
}

/* ---- fat tree ----------------------------------------------------------- */

/** Node-id bases of a fat tree under construction (ids are dense). */
typedef struct ft_ids {
  fl_id leaf0, spine0, core0;
} ft_ids;

static void ft_add_switches(gen_ctx *c, const ft_plan *pl, ft_ids *ids) {
  const fl_gen_shape *s = &pl->shape;
  uint32_t k = pl->p.radix;
  int wp = gen_pad(s->pods, 2), wl = gen_pad(pl->leaves_per_pod, 2);
  int ws = gen_pad(pl->spines_per_pod, 2), wc = gen_pad(s->cores, 3);
  char name[64];

  ids->leaf0 = fl_b_node_count(c->fab);
  for (uint32_t l = 0; l < s->leaves && !c->oom; l++) {
    uint32_t pod = l / pl->leaves_per_pod, in_pod = l % pl->leaves_per_pod;
    gen_fmt(name, sizeof name, "leaf-p%0*u-%0*u", wp, pod + 1, wl, in_pod + 1);
    /* the ends of an extra leaf-to-leaf cable have port k+1 */
    int extra = pl->p.extra_leaf_link && (l == 0 || l == s->leaves - 1);
    fl_id n = gen_add_switch(c, name, k + (extra ? 1u : 0u), 1);
    gen_attr_u32(c, n, "pod", pod + 1);
  }
  ids->spine0 = fl_b_node_count(c->fab);
  for (uint32_t i = 0; i < s->spines && !c->oom; i++) {
    uint32_t pod = i / pl->spines_per_pod, in_pod = i % pl->spines_per_pod;
    gen_fmt(name, sizeof name, "spine-p%0*u-%0*u", wp, pod + 1, ws, in_pod + 1);
    fl_id n = gen_add_switch(c, name, k, 2);
    gen_attr_u32(c, n, "pod", pod + 1);
  }
  ids->core0 = fl_b_node_count(c->fab);
  for (uint32_t i = 0; i < s->cores && !c->oom; i++) {
    gen_fmt(name, sizeof name, "core-%0*u", wc, i + 1);
    gen_add_switch(c, name, k, 3);
  }
}

/** Hosts (one CA each) on leaf ports 1..k/2, in leaf order. */
static void ft_add_hosts(gen_ctx *c, const ft_plan *pl, const ft_ids *ids) {
  int wh = gen_pad(pl->shape.hosts, 4);
  char sys[32];
  for (uint32_t h = 0; h < pl->shape.hosts && !c->oom; h++) {
    uint32_t leaf = h / pl->half;
    gen_fmt(sys, sizeof sys, "node%0*u", wh, h + 1);
    fl_id n = gen_add_ca(c, sys, "mlx5_0");
    gen_attr_u32(c, n, "pod", leaf / pl->leaves_per_pod + 1);
    gen_cable(c, n, 1, ids->leaf0 + leaf, h % pl->half + 1);
  }
}

/** Every leaf to every spine of its pod, m cables per pair. */
static void ft_cable_leaves(gen_ctx *c, const ft_plan *pl, const ft_ids *ids) {
  uint32_t m = pl->p.parallel, half = pl->half, sp = pl->spines_per_pod;
  for (uint32_t l = 0; l < pl->shape.leaves && !c->oom; l++) {
    uint32_t pod = l / pl->leaves_per_pod, in_pod = l % pl->leaves_per_pod;
    for (uint32_t s = 0; s < sp; s++)
      for (uint32_t cp = 0; cp < m; cp++)
        gen_cable(c, ids->leaf0 + l, half + 1 + s * m + cp,
                  ids->spine0 + pod * sp + s, in_pod * m + cp + 1);
  }
}

/** Spine j of every pod to each core of group j, m cables per pair. */
static void ft_cable_cores(gen_ctx *c, const ft_plan *pl, const ft_ids *ids) {
  uint32_t m = pl->p.parallel, half = pl->half, sp = pl->spines_per_pod;
  for (uint32_t i = 0; i < pl->shape.spines && !c->oom; i++) {
    uint32_t pod = i / sp, j = i % sp;
    for (uint32_t g = 0; g < pl->group; g++)
      for (uint32_t cp = 0; cp < m; cp++)
        gen_cable(c, ids->spine0 + i, half + 1 + g * m + cp,
                  ids->core0 + j * pl->group + g, pod * m + cp + 1);
  }
}

int fl_gen_fat_tree(const fl_gen_fat_tree_params *p, fl_fabric **out,
                    fl_error *err) {
  ft_plan pl;
  gen_ctx c;
  ft_ids ids;
  char what[96];
  *out = NULL;
  int rc = ft_resolve(p, &pl, err);
  if (rc != FL_OK)
    return rc;
  gen_fmt(what, sizeof what, "gen:fat-tree(radix=%u,tiers=%u,hosts=%u)",
          pl.p.radix, pl.p.tiers, pl.p.hosts);
  if ((rc = gen_ctx_init(&c, what, pl.p.width, pl.p.speed, pl.p.no_lids,
                         err)) != FL_OK)
    return rc;
  ft_add_switches(&c, &pl, &ids);
  ft_add_hosts(&c, &pl, &ids);
  ft_cable_leaves(&c, &pl, &ids);
  if (pl.p.tiers == 3)
    ft_cable_cores(&c, &pl, &ids);
  if (pl.p.extra_leaf_link)
    gen_cable(&c, ids.leaf0, pl.p.radix + 1, ids.leaf0 + pl.shape.leaves - 1,
              pl.p.radix + 1);
  return gen_ctx_finish(&c, out, err);
}

/* ---- rings and 2-D tori -------------------------------------------------- */

#define TORUS_DIM_MAX  4096u
#define TORUS_HOST_MAX 250u /* H + 4 ports <= 254 */

typedef struct torus_plan {
  fl_gen_torus_params p;
  uint32_t ports; /* per switch: H + 2 (ring) or H + 4 (torus) */
  fl_gen_shape shape;
} torus_plan;

static int torus_resolve(const fl_gen_torus_params *in, torus_plan *pl,
                         fl_error *err) {
  memset(pl, 0, sizeof *pl);
  if (!in)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0, "no torus parameters");
  fl_gen_torus_params p = *in;
  if (p.y == 0)
    p.y = 1;
  if (p.hosts_per_switch == 0)
    p.hosts_per_switch = 1;
  if (p.x < 2 || p.x > TORUS_DIM_MAX)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "x (switches along x, or in the ring) must be 2 to "
                        "%u, not %u",
                        TORUS_DIM_MAX, p.x);
  if (p.y > TORUS_DIM_MAX)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "y (switches along y) must be 1 to %u, not %u",
                        TORUS_DIM_MAX, p.y);
  if (p.hosts_per_switch > TORUS_HOST_MAX)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "hosts per switch must be 1 to %u (a switch has at "
                        "most 254 ports), not %u",
                        TORUS_HOST_MAX, p.hosts_per_switch);
  int rc = gen_check_link(&p.width, &p.speed, err);
  if (rc != FL_OK)
    return rc;
  fl_gen_shape *s = &pl->shape;
  uint64_t sw = (uint64_t)p.x * p.y, cas = sw * p.hosts_per_switch;
  if (sw + cas > FL_GEN_MAX_NODES)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "%llu switches and %llu CAs exceed the generator's "
                        "limit of %u nodes",
                        (unsigned long long)sw, (unsigned long long)cas,
                        FL_GEN_MAX_NODES);
  s->switches = s->leaves = (uint32_t)sw;
  s->hosts = s->cas = s->host_links = (uint32_t)cas;
  s->parallel = 1;
  s->links = (uint32_t)(cas + sw * (p.y >= 2 ? 2u : 1u));
  gen_shape_lids(s, p.no_lids);
  pl->ports = p.hosts_per_switch + (p.y >= 2 ? 4u : 2u);
  pl->p = p;
  return gen_check_size(s, err);
}

int fl_gen_torus_shape(const fl_gen_torus_params *p, fl_gen_shape *shape,
                       fl_error *err) {
  torus_plan pl;
  int rc = torus_resolve(p, &pl, err);
  if (rc == FL_OK && shape)
    *shape = pl.shape;
  return rc;
}

/** Coordinates as attributes `x`, `y` on node @n. */
static void torus_coords(gen_ctx *c, fl_id n, uint32_t i, uint32_t j) {
  gen_attr_u32(c, n, "x", i);
  gen_attr_u32(c, n, "y", j);
}

int fl_gen_torus(const fl_gen_torus_params *p, fl_fabric **out, fl_error *err) {
  torus_plan pl;
  gen_ctx c;
  char what[96], name[64];
  *out = NULL;
  int rc = torus_resolve(p, &pl, err);
  if (rc != FL_OK)
    return rc;
  uint32_t X = pl.p.x, Y = pl.p.y, H = pl.p.hosts_per_switch;
  if (Y == 1)
    gen_fmt(what, sizeof what, "gen:ring(switches=%u,hosts-per-switch=%u)", X,
            H);
  else
    gen_fmt(what, sizeof what, "gen:torus(x=%u,y=%u,hosts-per-switch=%u)", X, Y,
            H);
  if ((rc = gen_ctx_init(&c, what, pl.p.width, pl.p.speed, pl.p.no_lids,
                         err)) != FL_OK)
    return rc;
  int wx = gen_pad(X - 1, 2), wy = gen_pad(Y - 1, 2),
      wh = gen_pad(pl.shape.hosts, 4);
  fl_id sw0 = fl_b_node_count(c.fab);
  for (uint32_t j = 0; j < Y && !c.oom; j++)
    for (uint32_t i = 0; i < X; i++) {
      if (Y == 1)
        gen_fmt(name, sizeof name, "sw-x%0*u", wx, i);
      else
        gen_fmt(name, sizeof name, "sw-x%0*u-y%0*u", wx, i, wy, j);
      torus_coords(&c, gen_add_switch(&c, name, pl.ports, 1), i, j);
    }
  char sys[32];
  for (uint32_t h = 0; h < pl.shape.hosts && !c.oom; h++) {
    uint32_t s = h / H;
    gen_fmt(sys, sizeof sys, "node%0*u", wh, h + 1);
    fl_id n = gen_add_ca(&c, sys, "mlx5_0");
    torus_coords(&c, n, s % X, s / X);
    gen_cable(&c, n, 1, sw0 + s, h % H + 1);
  }
  for (uint32_t j = 0; j < Y && !c.oom; j++)
    for (uint32_t i = 0; i < X; i++)
      gen_cable(&c, sw0 + j * X + i, H + 1, sw0 + j * X + (i + 1) % X, H + 2);
  for (uint32_t j = 0; Y >= 2 && j < Y && !c.oom; j++)
    for (uint32_t i = 0; i < X; i++)
      gen_cable(&c, sw0 + j * X + i, H + 3, sw0 + ((j + 1) % Y) * X + i, H + 4);
  return gen_ctx_finish(&c, out, err);
}
