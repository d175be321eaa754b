/* SPDX-License-Identifier: MIT */
/*
 * core/io/gen_rail.c — fl_gen_rail_su(): rail-optimised fabrics of
 * scalable units (DGX SuperPOD style), 2 tiers (leaf/spine) or 3 tiers
 * (spine groups per SU group joined by core groups), with a chosen
 * oversubscription per tier (fabriclint/gen.h has the shape, names and
 * port plan).
 *
 * Why oversubscription and a core tier here: the designs architects build
 * are not only 1:1 two-tier SuperPODs. A 2:1 leaf tier (fewer spines, the
 * same SUs) and a core tier for more SUs than one spine layer serves (the
 * DGX B200 SuperPOD RA: 16 SUs = 128 leaves, 128 spines, 64 cores) were not
 * reachable (issue 34). The counts come from the formulas below, stated
 * once, so `--dry-run` and the built fabric agree by construction.
 *
 * Structure: rail_resolve() fills in defaults and checks every count
 * (pure arithmetic, also behind fl_gen_rail_su_shape()); the builder then
 * adds leaves, spines, cores, then CAs, then the leaf-spine and
 * spine-core cables, so ids, GUIDs and LIDs depend on the parameters only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/gen.h"
#include "io/gen_build.h"
#include "model/build.h"

typedef struct rail_plan {
  fl_gen_rail_su_params p;
  uint32_t uplinks; /* U per leaf */
  uint32_t m;       /* cables per leaf-spine pair */
  uint32_t groups;  /* spine groups (3 tiers), 1 for 2 tiers */
  uint32_t group_sus;
  uint32_t per_group;  /* spines per group (2 tiers: all spines) */
  uint32_t sp_up;      /* 3 tiers: uplinks per spine */
  uint32_t core_group; /* 3 tiers: cores per core group */
  uint32_t mc;         /* 3 tiers: cables per spine-core pair */
  fl_gen_shape shape;
} rail_plan;

/** Smallest divisor d >= @least (or 1 when @u < @least) of @u with
 * @cables * (u / d) <= @room (cables of u/d each fit @room ports); 0 when
 * none does. Spines ask for at least 2: one spine would be a single point
 * of failure of every leaf (failure-domains.single-point: the plan would
 * fail `check`); a core group of one core is none (spine j of every group
 * is its only user, and a leaf reaches every spine). */
static uint32_t fewest_that_fit(uint32_t u, uint64_t cables, uint64_t room,
                                uint32_t least) {
  for (uint32_t d = u >= least ? least : 1; d <= u; d++)
    if (u % d == 0 && cables * (u / d) <= room)
      return d;
  return 0;
}

static uint32_t gcd(uint32_t a, uint32_t b) {
  while (b) {
    uint32_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static int rail_check_names(const fl_gen_rail_su_params *p, fl_error *err) {
  if (!p->hca_names)
    return FL_OK;
  for (uint32_t r = 0; r < p->rails; r++) {
    const char *s = p->hca_names[r];
    if (!s || !*s || strlen(s) > 31 || strpbrk(s, " \t\"#@"))
      return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                          "HCA name of rail %u must be 1 to 31 characters "
                          "without blanks, quotes, '#' or '@'",
                          r);
  }
  return FL_OK;
}

/** The divisors of @u that are valid spine counts for @leaves leaves of
 * @u uplinks under @room ports each, as "a, b, c" in @buf. */
static void valid_spines(uint32_t u, uint64_t leaves, uint64_t room, char *buf,
                         size_t size) {
  buf[0] = '\0';
  for (uint32_t d = 1; d <= u; d++)
    if (u % d == 0 && leaves * (u / d) <= room) {
      size_t len = strlen(buf);
      snprintf(buf + len, size - len, "%s%u", len ? ", " : "", d);
    }
  if (!buf[0])
    snprintf(buf, size, "none");
}

/** Leaf uplinks U: explicit, from the leaf ratio over H host cables, or
 * k/2 (1:1 on a full leaf). */
static int rail_uplinks(const fl_gen_rail_su_params *p, uint32_t *u,
                        fl_error *err) {
  uint32_t k = p->leaf_radix, h = p->hosts_per_su;
  if ((p->over_down == 0) != (p->over_up == 0))
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "oversubscription needs both terms, down:up");
  if (p->uplinks && p->over_down)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "give the leaf uplinks or the leaf oversubscription, "
                        "not both");
  if (p->uplinks) {
    *u = p->uplinks;
  } else if (p->over_down) {
    uint64_t up = (uint64_t)h * p->over_up;
    if (up % p->over_down != 0 || up / p->over_down == 0) {
      uint32_t lo = (uint32_t)(up / p->over_down);
      return fl_error_set(
          err, FL_EINVAL, NULL, 0, 0,
          "%u:%u of %u hosts per leaf is %.2f uplinks per leaf, not a whole "
          "number; give the uplinks instead (%u or %u)",
          p->over_down, p->over_up, h, (double)up / p->over_down, lo ? lo : 1,
          lo + 1);
    }
    *u = (uint32_t)(up / p->over_down);
  } else {
    *u = k / 2;
    if (h > *u)
      return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                          "%u hosts per SU do not fit the %u host ports of a "
                          "radix-%u leaf (half its ports go up)",
                          h, *u, k);
  }
  if (*u > k || (uint64_t)h + *u > k)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "%u hosts and %u uplinks per leaf need %llu ports; "
                        "a leaf has %u",
                        h, *u, (unsigned long long)h + *u, k);
  return FL_OK;
}

/** Spines of a 2-tier fabric (all leaves under every spine). */
static int rail_spines2(rail_plan *pl, fl_error *err) {
  fl_gen_rail_su_params *p = &pl->p;
  uint32_t k = p->leaf_radix, u = pl->uplinks;
  uint64_t leaves = (uint64_t)p->sus * p->rails;
  if (leaves > k)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "%u SUs of %u rails are %llu leaves, more than the "
                        "%u ports of a spine: a spine holds the leaves of at "
                        "most %u SU(s), more need a core tier (--tiers 3)",
                        p->sus, p->rails, (unsigned long long)leaves, k,
                        k / p->rails);
  if (p->spines == 0)
    p->spines = fewest_that_fit(u, leaves, k, 2);
  char ok[160];
  valid_spines(u, leaves, k, ok, sizeof ok);
  if (u % p->spines != 0)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "%u spines: the %u uplinks of every leaf must "
                        "divide evenly among the spines (valid here: %s)",
                        p->spines, u, ok);
  uint32_t m = u / p->spines;
  if (leaves * m > k) {
    /* why a spine count is refused: every leaf's uplinks land on it */
    uint32_t fit = p->spines * (uint32_t)(k / leaves);
    char hint[160] = "";
    uint32_t h = p->hosts_per_su, g = gcd(h, fit);
    if (fit)
      snprintf(hint, sizeof hint,
               "; %u spines carry at most %u uplinks per leaf: --uplinks "
               "%u, %u:%u for %u hosts per leaf",
               p->spines, fit, fit, h / g, fit / g, h);
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "%u spines are too few: %llu leaves x %u cables need "
                        "%llu ports per spine, a spine has %u (valid spine "
                        "counts for %u uplinks per leaf: %s)%s",
                        p->spines, (unsigned long long)leaves, m,
                        (unsigned long long)leaves * m, k, u, ok, hint);
  }
  pl->m = m;
  pl->groups = 1;
  pl->group_sus = p->sus;
  pl->per_group = p->spines;
  return FL_OK;
}

/** Spine groups and core groups of a 3-tier fabric. */
static int rail_spines3(rail_plan *pl, fl_error *err) {
  fl_gen_rail_su_params *p = &pl->p;
  uint32_t k = p->leaf_radix, u = pl->uplinks;
  uint32_t sd = p->spine_over_down ? p->spine_over_down : 1;
  uint32_t su = p->spine_over_up ? p->spine_over_up : 1;
  if ((p->spine_over_down == 0) != (p->spine_over_up == 0))
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "spine oversubscription needs both terms, down:up");
  /* ports a spine can give down while keeping sd:su */
  uint32_t room = (uint32_t)((uint64_t)k * sd / (sd + su));
  if (p->sus_per_group == 0)
    p->sus_per_group = room / p->rails < p->sus ? room / p->rails : p->sus;
  uint64_t gl = (uint64_t)p->sus_per_group * p->rails; /* leaves a group */
  if (p->sus_per_group == 0 || gl > room)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "a spine group of %u SUs of %u rails has %llu leaves, "
                        "more than the %u down ports of a radix-%u spine at "
                        "%u:%u",
                        p->sus_per_group, p->rails, (unsigned long long)gl,
                        room, k, sd, su);
  if (p->spines == 0)
    p->spines = fewest_that_fit(u, gl, room, 2);
  char ok[160];
  valid_spines(u, gl, room, ok, sizeof ok);
  if (u % p->spines != 0 || gl * (u / p->spines) > room)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "%u spines per group: the %u uplinks of each of a "
                        "group's %llu leaves must divide evenly among the "
                        "spines and fit %u down ports each (valid here: %s)",
                        p->spines, u, (unsigned long long)gl, room, ok);
  pl->m = u / p->spines;
  pl->groups = gen_ceil_div(p->sus, p->sus_per_group);
  /* one spine group: its spines already join every leaf, and a core tier
   * would hang each core off one spine by parallel cables, joining
   * nothing (twice the switches for no path) */
  if (pl->groups < 2)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "%u SUs make one spine group (%u SUs per group): a "
                        "core tier would join nothing; use --tiers 2, or "
                        "--sus-per-group below %u for two or more groups",
                        p->sus, p->sus_per_group, p->sus);
  pl->group_sus = p->sus_per_group;
  pl->per_group = p->spines;
  uint64_t down = gl * pl->m, up = down * su;
  if (up % sd != 0)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "%u:%u of %llu down cables per spine is not a whole "
                        "number of uplinks",
                        sd, su, (unsigned long long)down);
  pl->sp_up = (uint32_t)(up / sd);
  if (pl->groups > k)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "%u spine groups exceed the %u ports of a core",
                        pl->groups, k);
  pl->core_group = fewest_that_fit(pl->sp_up, pl->groups, k, 1);
  pl->mc = pl->sp_up / pl->core_group;
  return FL_OK;
}

static int rail_resolve(const fl_gen_rail_su_params *in, rail_plan *pl,
                        fl_error *err) {
  memset(pl, 0, sizeof *pl);
  if (!in)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0, "no rail-su parameters");
  fl_gen_rail_su_params p = *in;
  if (p.hosts_per_su == 0)
    p.hosts_per_su = 32;
  if (p.rails == 0)
    p.rails = 8;
  if (p.leaf_radix == 0)
    p.leaf_radix = 64;
  if (p.tiers == 0)
    p.tiers = 2;
  if (!p.host_prefix)
    p.host_prefix = "dgx";
  int rc = gen_check_radix("leaf radix", p.leaf_radix, err);
  if (rc != FL_OK || (rc = gen_check_link(&p.width, &p.speed, err)) != FL_OK ||
      (rc = rail_check_names(&p, err)) != FL_OK)
    return rc;
  uint32_t k = p.leaf_radix;
  if (p.sus == 0)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "the number of SUs must be at least 1");
  if (p.tiers != 2 && p.tiers != 3)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "tiers must be 2 or 3, not %u", p.tiers);
  if (p.tiers == 2 && (p.sus_per_group || p.spine_over_down || p.spine_over_up))
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "SU groups and a spine oversubscription need a core "
                        "tier (3 tiers)");
  if (p.rails > k)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "%u rails: at most %u rail leaves fit under a "
                        "radix-%u spine",
                        p.rails, k, k);
  if (strlen(p.host_prefix) == 0 || strlen(p.host_prefix) > 24 ||
      strpbrk(p.host_prefix, " \t\"#@"))
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "host prefix must be 1 to 24 characters without "
                        "blanks, quotes, '#' or '@'");
  pl->p = p;
  if ((rc = rail_uplinks(&pl->p, &pl->uplinks, err)) != FL_OK)
    return rc;
  rc = p.tiers == 2 ? rail_spines2(pl, err) : rail_spines3(pl, err);
  if (rc != FL_OK)
    return rc;

  fl_gen_shape *s = &pl->shape;
  p = pl->p;
  uint64_t cas = (uint64_t)p.sus * p.hosts_per_su * p.rails;
  uint64_t leaves = (uint64_t)p.sus * p.rails;
  uint64_t spines = (uint64_t)pl->groups * pl->per_group;
  uint64_t cores = p.tiers == 3 ? (uint64_t)pl->per_group * pl->core_group : 0;
  uint64_t links = cas + leaves * pl->uplinks + spines * pl->sp_up;
  if (cas + leaves + spines + cores > FL_GEN_MAX_NODES || links > UINT32_MAX)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "%llu CAs and %llu switches exceed the generator's "
                        "limit of %u nodes",
                        (unsigned long long)cas,
                        (unsigned long long)(leaves + spines + cores),
                        FL_GEN_MAX_NODES);
  s->hosts = p.sus * p.hosts_per_su;
  s->cas = s->host_links = (uint32_t)cas;
  s->leaves = (uint32_t)leaves;
  s->spines = (uint32_t)spines;
  s->cores = (uint32_t)cores;
  s->switches = (uint32_t)(leaves + spines + cores);
  s->pods = p.sus;
  s->parallel = pl->m;
  s->links = (uint32_t)links;
  gen_shape_lids(s, p.no_lids);
  return gen_check_size(s, err);
}

int fl_gen_rail_su_shape(const fl_gen_rail_su_params *p, fl_gen_shape *shape,
                         fl_error *err) {
  rail_plan pl;
  int rc = rail_resolve(p, &pl, err);
  if (rc == FL_OK && shape)
    *shape = pl.shape;
  return rc;
}

static const char *rail_hca(const rail_plan *pl, uint32_t r, char *buf,
                            size_t size) {
  if (pl->p.hca_names)
    return pl->p.hca_names[r];
  if (pl->p.rails == 8)
    return fl_gen_dgx_h100_hca(r);
  gen_fmt(buf, size, "mlx5_%u", r);
  return buf;
}

/** Node-id bases of a rail fabric under construction (ids are dense). */
typedef struct rail_ids {
  fl_id leaf0, spine0, core0;
} rail_ids;

/** The spine group (pod, 0-based) of SU @su. */
static uint32_t group_of(const rail_plan *pl, uint32_t su) {
  return su / pl->group_sus;
}

/** Attribute `oversubscription`="D:U" (lowest terms) on @n when the tier
 * is oversubscribed by design (@down > @up): the rules then judge the
 * switch at its planned ratio (fl_view_design_ratio()). */
static void design_ratio(gen_ctx *c, fl_id n, uint32_t down, uint32_t up) {
  if (down <= up)
    return;
  uint32_t g = gcd(down, up);
  char buf[32];
  gen_fmt(buf, sizeof buf, "%u:%u", down / g, up / g);
  gen_attr_str(c, n, "oversubscription", buf);
}

static void rail_add_switches(gen_ctx *c, const rail_plan *pl, rail_ids *ids) {
  const fl_gen_rail_su_params *p = &pl->p;
  int three = p->tiers == 3;
  int wu = gen_pad(p->sus, 2), ws = gen_pad(pl->per_group, 2);
  int wg = gen_pad(pl->groups, 2), wc = gen_pad(pl->shape.cores, 3);
  char name[64];
  ids->leaf0 = fl_b_node_count(c->fab);
  for (uint32_t su = 0; su < p->sus && !c->oom; su++)
    for (uint32_t r = 0; r < p->rails; r++) {
      gen_fmt(name, sizeof name, "leaf-su%0*u-r%u", wu, su + 1, r);
      fl_id n = gen_add_switch(c, name, p->leaf_radix, 1);
      gen_attr_u32(c, n, "su", su + 1);
      gen_attr_u32(c, n, "rail", r);
      if (three)
        gen_attr_u32(c, n, "pod", group_of(pl, su) + 1);
      design_ratio(c, n, p->hosts_per_su, pl->uplinks);
    }
  ids->spine0 = fl_b_node_count(c->fab);
  for (uint32_t g = 0; g < pl->groups && !c->oom; g++)
    for (uint32_t s = 0; s < pl->per_group; s++) {
      if (three)
        gen_fmt(name, sizeof name, "spine-p%0*u-%0*u", wg, g + 1, ws, s + 1);
      else
        gen_fmt(name, sizeof name, "spine-%0*u", ws, s + 1);
      fl_id n = gen_add_switch(c, name, p->leaf_radix, 2);
      if (three) {
        gen_attr_u32(c, n, "pod", g + 1);
        design_ratio(c, n, pl->group_sus * p->rails * pl->m, pl->sp_up);
      }
    }
  ids->core0 = fl_b_node_count(c->fab);
  for (uint32_t i = 0; i < pl->shape.cores && !c->oom; i++) {
    gen_fmt(name, sizeof name, "core-%0*u", wc, i + 1);
    gen_add_switch(c, name, p->leaf_radix, 3);
  }
}

/** Host h's HCA r on port (h mod H) + 1 of the rail-r leaf of its SU. */
static void rail_add_hosts(gen_ctx *c, const rail_plan *pl,
                           const rail_ids *ids) {
  const fl_gen_rail_su_params *p = &pl->p;
  int wh = gen_pad(pl->shape.hosts, 3);
  char sys[64], dev[32];
  for (uint32_t h = 0; h < pl->shape.hosts && !c->oom; h++) {
    uint32_t su = h / p->hosts_per_su, slot = h % p->hosts_per_su;
    gen_fmt(sys, sizeof sys, "%s-%0*u", p->host_prefix, wh, h + 1);
    for (uint32_t r = 0; r < p->rails; r++) {
      fl_id n = gen_add_ca(c, sys, rail_hca(pl, r, dev, sizeof dev));
      gen_attr_u32(c, n, "su", su + 1);
      gen_attr_u32(c, n, "rail", r);
      if (p->tiers == 3)
        gen_attr_u32(c, n, "pod", group_of(pl, su) + 1);
      gen_cable(c, n, 1, ids->leaf0 + su * p->rails + r, slot + 1);
    }
  }
}

/** Every rail leaf to every spine of its group, m cables per pair, on the
 * leaf's top U ports; a spine takes the group's leaf l, copy c, on port
 * l·m + c + 1. */
static void rail_cable_spines(gen_ctx *c, const rail_plan *pl,
                              const rail_ids *ids) {
  uint32_t m = pl->m, u = pl->uplinks, k = pl->p.leaf_radix;
  uint32_t per_group_leaves = pl->group_sus * pl->p.rails;
  for (uint32_t l = 0; l < pl->shape.leaves && !c->oom; l++) {
    uint32_t g = l / per_group_leaves, in_group = l % per_group_leaves;
    for (uint32_t s = 0; s < pl->per_group; s++)
      for (uint32_t cp = 0; cp < m; cp++)
        gen_cable(c, ids->leaf0 + l, k - u + 1 + s * m + cp,
                  ids->spine0 + g * pl->per_group + s, in_group * m + cp + 1);
  }
}

/** Spine j of every group to each core of core group j, mc cables per
 * pair, on the spine's top ports; a core takes group g, copy c, on port
 * g·mc + c + 1. */
static void rail_cable_cores(gen_ctx *c, const rail_plan *pl,
                             const rail_ids *ids) {
  uint32_t mc = pl->mc, k = pl->p.leaf_radix, cg = pl->core_group;
  for (uint32_t i = 0; i < pl->shape.spines && !c->oom; i++) {
    uint32_t g = i / pl->per_group, j = i % pl->per_group;
    for (uint32_t cc = 0; cc < cg; cc++)
      for (uint32_t cp = 0; cp < mc; cp++)
        gen_cable(c, ids->spine0 + i, k - pl->sp_up + 1 + cc * mc + cp,
                  ids->core0 + j * cg + cc, g * mc + cp + 1);
  }
}

int fl_gen_rail_su(const fl_gen_rail_su_params *p, fl_fabric **out,
                   fl_error *err) {
  rail_plan pl;
  gen_ctx c;
  rail_ids ids;
  char what[128];
  *out = NULL;
  int rc = rail_resolve(p, &pl, err);
  if (rc != FL_OK)
    return rc;
  gen_fmt(what, sizeof what,
          "gen:rail-su(sus=%u,hosts-per-su=%u,rails=%u,tiers=%u,uplinks=%u)",
          pl.p.sus, pl.p.hosts_per_su, pl.p.rails, pl.p.tiers, pl.uplinks);
  if ((rc = gen_ctx_init(&c, what, pl.p.width, pl.p.speed, pl.p.no_lids,
                         err)) != FL_OK)
    return rc;
  rail_add_switches(&c, &pl, &ids);
  rail_add_hosts(&c, &pl, &ids);
  rail_cable_spines(&c, &pl, &ids);
  if (pl.p.tiers == 3)
    rail_cable_cores(&c, &pl, &ids);
  return gen_ctx_finish(&c, out, err);
}
