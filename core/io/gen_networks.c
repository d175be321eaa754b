/* SPDX-License-Identifier: MIT */
/*
 * core/io/gen_networks.c — fl_gen_networks() and fl_gen_network_part(): the
 * storage fabric and the in-band management network of a generated plan
 * (`fabriclint gen ... --storage-nodes N --inband-mgmt`; the shapes are
 * stated in fabriclint/gen.h).
 *
 * Why beside the compute fabric and not in it: a DGX SuperPOD has four
 * networks (NVIDIA DGX SuperPOD H100 reference architecture, "Network
 * Fabrics"): compute, storage, in-band and out-of-band management. The
 * storage fabric is an InfiniBand subnet of its own, the in-band network
 * an Ethernet network; neither is a plane of the compute fabric (a plane
 * carries every host's k-th compute NIC and is the copy of its siblings),
 * and one design file is one fabric: switches in components of their own
 * are either planes, judged alike (planes.shape, planes.host-planes), or a
 * subnet cut in two (topology.disconnected). So the networks are built
 * together, for one layout whose hosts stand in one place for all their
 * NICs, and written apart, one plan per network (fl_gen_network_part()),
 * each of them a fabric `check`, `bom`, `compare` and `diff` read as it is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/gen.h"
#include "fabriclint/roles.h"
#include "io/gen_build.h"
#include "model/build.h"
#include "model/hashmap.h"

/** A compute host of the input: its system and its group (su, else pod). */
typedef struct net_host {
  const char *sys;
  uint32_t group;
} net_host;

typedef struct net_plan {
  fl_gen_networks_params p;
  net_host *host;
  uint32_t n_host;
  const char *stor_dev[2], *inb_dev; /* the compute hosts' extra NICs */
  char dev_buf[3][16];
} net_plan;

static uint32_t attr_num(const fl_fabric *f, fl_id n, const char *key) {
  const char *v = fl_fabric_attr(f, FL_ENT_NODE, n, key);
  return v ? (uint32_t)strtoul(v, NULL, 10) : 0;
}

/** The compute hosts of @f in order of first appearance (CAs with a
 * system and no service role). FL_OK or FL_ENOMEM. */
static int collect_hosts(net_plan *pl, const fl_fabric *f) {
  uint32_t nn = fl_fabric_node_count(f);
  fl_strmap seen;
  memset(&seen, 0, sizeof seen);
  pl->host = calloc((size_t)nn + 1, sizeof *pl->host);
  if (!pl->host)
    return FL_ENOMEM;
  for (fl_id n = 0; n < nn; n++) {
    const char *sys = fl_fabric_node_system(f, n);
    if (fl_fabric_node_kind(f, n) == FL_NODE_SWITCH || !*sys ||
        fl_role_is_service(fl_fabric_attr(f, FL_ENT_NODE, n, "role")))
      continue;
    uint32_t u = fl_strmap_put(&seen, sys, strlen(sys), pl->n_host);
    if (u == FL_MAP_ABSENT) {
      fl_strmap_free(&seen);
      return FL_ENOMEM;
    }
    if (u != pl->n_host)
      continue;
    uint32_t g = attr_num(f, n, "su");
    pl->host[pl->n_host++] = (net_host){sys, g ? g : attr_num(f, n, "pod")};
  }
  fl_strmap_free(&seen);
  return FL_OK;
}

/* The DGX H100/H200 compute devices (fabriclint/gen.h, hca_names). */
static int dgx_compute_dev(const char *d) {
  for (uint32_t r = 0; fl_gen_dgx_h100_hca(r); r++)
    if (strcmp(fl_gen_dgx_h100_hca(r), d) == 0)
      return 1;
  return 0;
}

/** The device names of the compute hosts' storage and in-band NICs: on
 * the DGX H100 map mlx5_1 and mlx5_7 (storage), mlx5_2 (in-band), else
 * the three numbers after the largest mlx5_<n> of the compute NICs. */
static void extra_devices(net_plan *pl, const fl_fabric *f) {
  int dgx = 1;
  unsigned long most = 0;
  int any = 0;
  for (fl_id n = 0; n < fl_fabric_node_count(f); n++) {
    if (fl_fabric_node_kind(f, n) == FL_NODE_SWITCH)
      continue;
    const char *d = fl_fabric_node_device(f, n);
    dgx &= dgx_compute_dev(d);
    char *end;
    if (strncmp(d, "mlx5_", 5) == 0 && d[5] >= '0' && d[5] <= '9') {
      unsigned long v = strtoul(d + 5, &end, 10);
      if (!*end && (!any || v > most))
        most = v, any = 1;
    }
  }
  if (dgx) {
    pl->stor_dev[0] = "mlx5_1", pl->stor_dev[1] = "mlx5_7";
    pl->inb_dev = "mlx5_2";
    return;
  }
  unsigned long b = any ? most + 1 : 0;
  for (int i = 0; i < 3; i++)
    snprintf(pl->dev_buf[i], sizeof pl->dev_buf[i], "mlx5_%lu", b + i);
  pl->stor_dev[0] = pl->dev_buf[0], pl->stor_dev[1] = pl->dev_buf[1];
  pl->inb_dev = pl->dev_buf[2];
}

/** The spines of a network of @leaves leaves with @half uplinks each: the
 * smallest divisor P >= 2 of @half with leaves·half/P <= k. 0 when none. */
static uint32_t spines_for(uint32_t leaves, uint32_t half, uint32_t k) {
  for (uint32_t p = 2; p <= half; p++)
    if (half % p == 0 && (uint64_t)leaves * half / p <= k)
      return p;
  return 0;
}

/** Validate @p and fill in its defaults; FL_OK or FL_EINVAL. */
static int check_params(fl_gen_networks_params *p, fl_error *err) {
  if (!p->radix)
    p->radix = 64;
  int rc =
      gen_check_radix("the storage and in-band switch radix", p->radix, err);
  if (rc != FL_OK)
    return rc;
  if (p->storage_nodes > 9999)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "--storage-nodes: expected 0..9999, got %u",
                        p->storage_nodes);
  if (!p->inband_speed)
    p->inband_speed = FL_SPEED_ETH_100G;
  return FL_OK;
}

/** Add a network switch with `network`=@net. */
static fl_id net_switch(gen_ctx *c, const char *name, uint32_t k, uint32_t tier,
                        const char *net) {
  fl_id n = gen_add_switch(c, name, k, tier);
  if (n != FL_NONE)
    gen_attr_str(c, n, "network", net);
  return n;
}

/** Add @n switches "@prefix-NN" (numbered from 1, at least 2 digits) of
 * tier @tier in network @net; the id the first one gets. */
static fl_id net_switches(gen_ctx *c, const char *prefix, uint32_t n,
                          uint32_t k, uint32_t tier, const char *net) {
  fl_id first = fl_b_node_count(c->fab);
  char name[96];
  int w = gen_pad(n, 2);
  for (uint32_t i = 0; i < n; i++) {
    gen_fmt(name, sizeof name, "%s-%0*u", prefix, w, i + 1);
    net_switch(c, name, k, tier, net);
  }
  return first;
}

/** Add a CA of @sys in network @net with role @role. */
static fl_id net_ca(gen_ctx *c, const char *sys, const char *dev,
                    const char *role, const char *net) {
  fl_id n = gen_add_ca(c, sys, dev);
  if (n != FL_NONE) {
    gen_attr_str(c, n, "role", role);
    gen_attr_str(c, n, "network", net);
  }
  return n;
}

/** The storage servers' names: `storage-NNN`. */
static void server_name(char *buf, size_t size, uint32_t i, uint32_t n) {
  gen_fmt(buf, size, "storage-%0*u", gen_pad(n, 3), i + 1);
}

/** Leaves @leaf0..+@nl, each with @half uplinks to @ns spines from
 * @spine0 (leaf ports half+1.., spine ports by leaf). */
static void uplinks(gen_ctx *c, fl_id leaf0, uint32_t nl, fl_id spine0,
                    uint32_t ns, uint32_t half) {
  uint32_t m = half / ns;
  for (uint32_t l = 0; l < nl; l++)
    for (uint32_t s = 0; s < ns; s++)
      for (uint32_t k = 0; k < m; k++)
        gen_cable(c, leaf0 + l, half + 1 + s * m + k, spine0 + s,
                  l * m + k + 1);
}

/* The storage fabric (fabriclint/gen.h). */
static int add_storage(gen_ctx *c, const net_plan *pl, fl_error *err) {
  uint32_t k = pl->p.radix, half = k / 2, ns = pl->p.storage_nodes;
  uint32_t eps = pl->n_host + ns, nl = 2 * gen_ceil_div(eps, half);
  uint32_t np = spines_for(nl, half, k);
  if (!np)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "the storage fabric of %u hosts and %u storage "
                        "servers needs %u leaves of %u ports, more than one "
                        "spine layer takes (%u): use a larger radix or fewer "
                        "storage servers",
                        pl->n_host, ns, nl, k, k);
  char name[96];
  c->next_lid = pl->p.no_lids ? 0 : 1; /* a subnet of its own */
  fl_id leaf0 = net_switches(c, "stor-leaf", nl, k, 1, "storage");
  fl_id spine0 = net_switches(c, "stor-spine", np, k, 2, "storage");
  for (uint32_t i = 0; i < eps && !c->oom; i++) {
    const char *sys = name;
    if (i < pl->n_host)
      sys = pl->host[i].sys;
    else
      server_name(name, sizeof name, i - pl->n_host, ns);
    for (uint32_t j = 0; j < 2; j++) {
      const char *dev = i < pl->n_host ? pl->stor_dev[j]
                        : j            ? "mlx5_1"
                                       : "mlx5_0";
      fl_id n = net_ca(c, sys, dev, "storage", "storage");
      if (n != FL_NONE)
        gen_cable(c, n, 1, leaf0 + 2 * (i / half) + j, i % half + 1);
    }
  }
  uplinks(c, leaf0, nl, spine0, np, half);
  return FL_OK;
}

/* The in-band management network (fabriclint/gen.h). */
static int add_inband(gen_ctx *c, const net_plan *pl, fl_error *err) {
  uint32_t k = pl->p.radix, half = k / 2, ns = pl->p.storage_nodes;
  /* leaves: per group of compute hosts (SU, else pod; in order of first
   * appearance), then for the storage servers */
  uint32_t *leaf_of = malloc(((size_t)pl->n_host + ns + 1) * sizeof *leaf_of);
  uint32_t *port_of = malloc(((size_t)pl->n_host + ns + 1) * sizeof *port_of);
  if (!leaf_of || !port_of) {
    free(leaf_of), free(port_of);
    c->oom = 1;
    return FL_OK;
  }
  /* a leaf holds a run of at most half hosts of one group */
  uint32_t nl = 0, t = 0, prev = 0;
  for (uint32_t i = 0; i < pl->n_host + ns; i++) {
    uint32_t g = i < pl->n_host ? pl->host[i].group : UINT32_MAX;
    if (i == 0 || g != prev || t == half)
      nl++, t = 0;
    leaf_of[i] = nl - 1;
    port_of[i] = ++t;
    prev = g;
  }
  uint32_t np = spines_for(nl, half, k);
  if (!np) {
    free(leaf_of), free(port_of);
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "the in-band network needs %u leaves of %u ports, "
                        "more than one spine layer takes (%u): use a larger "
                        "radix",
                        nl, k, k);
  }
  char name[96];
  c->next_lid = 0; /* Ethernet: no LIDs */
  c->width = 1;
  c->speed = pl->p.inband_speed;
  c->sw_devid = c->ca_devid = 0;
  fl_id leaf0 = net_switches(c, "inb-leaf", nl, k, 1, "inband");
  fl_id spine0 = net_switches(c, "inb-spine", np, k, 2, "inband");
  for (uint32_t i = 0; i < pl->n_host + ns && !c->oom; i++) {
    const char *sys = name;
    if (i < pl->n_host)
      sys = pl->host[i].sys;
    else
      server_name(name, sizeof name, i - pl->n_host, ns);
    fl_id n = net_ca(c, sys, i < pl->n_host ? pl->inb_dev : "mlx5_2", "inband",
                     "inband");
    if (n != FL_NONE)
      gen_cable(c, n, 1, leaf0 + leaf_of[i], port_of[i]);
  }
  uplinks(c, leaf0, nl, spine0, np, half);
  free(leaf_of), free(port_of);
  return FL_OK;
}

int fl_gen_networks(const fl_fabric *in, const fl_gen_networks_params *params,
                    fl_fabric **out, fl_error *err) {
  *out = NULL;
  net_plan pl;
  memset(&pl, 0, sizeof pl);
  pl.p = *params;
  int rc = check_params(&pl.p, err);
  if (rc != FL_OK)
    return rc;
  uint32_t width = 4, speed = FL_SPEED_NDR;
  if (fl_fabric_link_count(in)) {
    width = fl_fabric_link_width(in, 0);
    speed = fl_fabric_link_speed(in, 0);
  }
  gen_ctx c;
  fl_id *port_map =
      malloc(((size_t)fl_fabric_port_count(in) + 1) * sizeof *port_map);
  rc = port_map
           ? gen_ctx_init(&c, "gen+networks", width, speed, pl.p.no_lids, err)
           : FL_ENOMEM;
  if (rc == FL_OK && collect_hosts(&pl, in) != FL_OK)
    c.oom = 1;
  if (rc == FL_OK) {
    extra_devices(&pl, in);
    /* GUIDs apart from the compute fabric's (at most FL_GEN_MAX_NODES) */
    c.n_switches = c.n_cas = 1u << 22;
    if (gen_copy_fabric(c.fab, in, 0, 0, c.prov, port_map) != FL_OK)
      c.oom = 1;
    if (pl.p.storage_nodes && !c.oom)
      rc = add_storage(&c, &pl, err);
    if (rc == FL_OK && pl.p.inband && !c.oom)
      rc = add_inband(&c, &pl, err);
    if (rc == FL_OK)
      rc = gen_ctx_finish(&c, out, err);
    else
      fl_fabric_free(c.fab);
  }
  if (rc == FL_ENOMEM && !err->code)
    fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  free(port_map);
  free(pl.host);
  return rc;
}

int fl_gen_network_part(const fl_fabric *all, const char *network,
                        fl_fabric **out, fl_error *err) {
  *out = NULL;
  uint32_t nn = fl_fabric_node_count(all);
  unsigned char *keep = malloc((size_t)nn + 1);
  fl_id *port_map =
      malloc(((size_t)fl_fabric_port_count(all) + 1) * sizeof *port_map);
  fl_fabric *dst = fl_fabric_new();
  /* @all's atoms first, so that attributes keep @all's (sorted) order in
   * the writers: the compute plan byte for byte the plan without networks */
  int rc = keep && port_map && dst && fl_b_adopt_atoms(dst, all) == FL_OK
               ? FL_OK
               : FL_ENOMEM;
  for (fl_id n = 0; rc == FL_OK && n < nn; n++) {
    const char *v = fl_fabric_attr(all, FL_ENT_NODE, n, "network");
    keep[n] = network ? v && strcmp(v, network) == 0 : !v;
  }
  if (rc == FL_OK) {
    const char *what =
        fl_fabric_file_count(all) ? fl_fabric_file_path(all, 0) : "gen";
    fl_prov prov = {fl_b_file(dst, what), 0, 0};
    rc = gen_copy_subset(dst, all, keep, prov, port_map);
  }
  if (rc == FL_OK)
    rc = fl_fabric_finalize(dst, err);
  else
    fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  free(keep);
  free(port_map);
  if (rc != FL_OK) {
    fl_fabric_free(dst);
    return rc;
  }
  *out = dst;
  return FL_OK;
}
