/* SPDX-License-Identifier: MIT */
/*
 * core/io/gen_planes.c — `fabriclint gen ... --planes N`: N copies of a
 * generated fabric side by side, one per plane, sharing the hosts
 * (fl_gen_planes() in fabriclint/gen.h says how names, GUIDs and LIDs are
 * made).
 *
 * Why copies: a multi-plane fabric (ConnectX-8 / Quantum-X800 hosts that
 * spread one port over several planes; two or four InfiniBand subnets) is
 * N identical switch fabrics, each with its own subnet manager and LID
 * space, and each host has one NIC (or port) in every plane. Copying the
 * one-plane generator's output keeps every generator unchanged and makes
 * the planes identical in shape by construction, which is what the planes
 * rules then check as-built fabrics against.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/gen.h"
#include "fabriclint/types.h"
#include "io/gen_build.h"
#include "model/build.h"

/* Device name of plane @k (0-based) of @n for device @dev. */
static void plane_device(const char *dev, uint32_t k, uint32_t n, char *buf,
                         size_t size) {
  unsigned d;
  int used = 0;
  if (sscanf(dev, "mlx5_%u%n", &d, &used) == 1 && dev[used] == '\0')
    snprintf(buf, size, "mlx5_%u", d * n + k);
  else
    snprintf(buf, size, "%s-%u", dev, k + 1);
}

static int copy_attrs(fl_fabric *dst, const fl_fabric *src, uint32_t kind,
                      fl_id from, fl_id to) {
  for (uint32_t i = 0; i < fl_fabric_attr_count(src, kind, from); i++) {
    const char *key, *val;
    if (fl_fabric_attr_at(src, kind, from, i, &key, &val) != FL_OK ||
        strcmp(key, "plane") == 0)
      continue;
    if (fl_b_attr(dst, kind, to, key, val) != FL_OK)
      return FL_ENOMEM;
  }
  return FL_OK;
}

/* Ports of @src node @n onto @dst node @d, GUIDs XORed with @flip. */
static int copy_ports(fl_fabric *dst, const fl_fabric *src, fl_id n, fl_id d,
                      uint64_t flip, fl_prov prov, fl_id *port_map) {
  fl_id p0 = fl_fabric_node_first_port(src, n);
  for (uint32_t i = 0; i < fl_fabric_node_port_count(src, n); i++) {
    fl_id p = p0 + i;
    fl_id q = fl_b_port(dst, d, fl_fabric_port_num(src, p), prov);
    if (q == FL_NONE)
      return FL_ENOMEM;
    port_map[p] = q;
    uint64_t g = fl_fabric_port_guid(src, p);
    fl_b_port_set_guid(dst, q, g ? g ^ flip : 0);
    fl_b_port_set_lid(dst, q, fl_fabric_port_lid(src, p),
                      fl_fabric_port_lmc(src, p));
    const char *lab = fl_fabric_port_label(src, p);
    if (*lab)
      fl_b_port_set_label(dst, q, lab, (size_t)-1);
    if (copy_attrs(dst, src, FL_ENT_PORT, p, q) != FL_OK)
      return FL_ENOMEM;
  }
  return FL_OK;
}

/* Node @n of @src into @dst unchanged (gen_copy_fabric()). */
static int copy_same(fl_fabric *dst, const fl_fabric *src, fl_id n,
                     fl_prov prov, fl_id *port_map) {
  fl_id d =
      fl_b_node(dst, fl_fabric_node_kind(src, n), fl_fabric_node_guid(src, n),
                fl_fabric_node_nports(src, n), prov);
  if (d == FL_NONE)
    return FL_ENOMEM;
  fl_b_node_set_name(dst, d, fl_fabric_node_name(src, n), (size_t)-1);
  fl_b_node_set_desc(dst, d, fl_fabric_node_desc(src, n), (size_t)-1);
  if (*fl_fabric_node_system(src, n))
    fl_b_node_set_system(dst, d, fl_fabric_node_system(src, n), (size_t)-1);
  if (*fl_fabric_node_device(src, n))
    fl_b_node_set_device(dst, d, fl_fabric_node_device(src, n), (size_t)-1);
  fl_b_node_set_ids(dst, d, fl_fabric_node_vendid(src, n),
                    fl_fabric_node_devid(src, n),
                    fl_fabric_node_sysimgguid(src, n));
  for (uint32_t i = 0; i < fl_fabric_attr_count(src, FL_ENT_NODE, n); i++) {
    const char *key, *val;
    if (fl_fabric_attr_at(src, FL_ENT_NODE, n, i, &key, &val) == FL_OK &&
        fl_b_attr(dst, FL_ENT_NODE, d, key, val) != FL_OK)
      return FL_ENOMEM;
  }
  return copy_ports(dst, src, n, d, 0, prov, port_map);
}

/* Plane @k's copy of node @n of @src into @dst; its port ids go to
 * @port_map (indexed by @src port id). @planes 0: a plain copy (names,
 * GUIDs and attributes unchanged). FL_OK or FL_ENOMEM. */
static int copy_node(fl_fabric *dst, const fl_fabric *src, fl_id n, uint32_t k,
                     uint32_t planes, fl_prov prov, fl_id *port_map) {
  uint32_t kind = fl_fabric_node_kind(src, n);
  uint64_t flip = (uint64_t)k << 40;
  if (planes == 0)
    return copy_same(dst, src, n, prov, port_map);
  uint64_t guid = fl_fabric_node_guid(src, n);
  fl_id d = fl_b_node(dst, kind, guid ? guid ^ flip : 0,
                      fl_fabric_node_nports(src, n), prov);
  if (d == FL_NONE)
    return FL_ENOMEM;
  char name[256], dev[96], plane[16];
  snprintf(plane, sizeof plane, "%u", k + 1);
  if (kind == FL_NODE_CA) {
    const char *sys = fl_fabric_node_system(src, n);
    plane_device(fl_fabric_node_device(src, n), k, planes, dev, sizeof dev);
    snprintf(name, sizeof name, "%s %s", sys, dev);
    fl_b_node_set_system(dst, d, sys, (size_t)-1);
    fl_b_node_set_device(dst, d, dev, (size_t)-1);
  } else {
    snprintf(name, sizeof name, "pl%u-%s", k + 1, fl_fabric_node_name(src, n));
    if (fl_b_attr(dst, FL_ENT_NODE, d, "plane", plane) != FL_OK)
      return FL_ENOMEM;
  }
  fl_b_node_set_name(dst, d, name, (size_t)-1);
  fl_b_node_set_desc(dst, d, name, (size_t)-1);
  uint64_t sig = fl_fabric_node_sysimgguid(src, n);
  fl_b_node_set_ids(dst, d, fl_fabric_node_vendid(src, n),
                    fl_fabric_node_devid(src, n), sig ? sig ^ flip : 0);
  if (copy_attrs(dst, src, FL_ENT_NODE, n, d) != FL_OK)
    return FL_ENOMEM;
  return copy_ports(dst, src, n, d, flip, prov, port_map);
}

/* The cables of @src whose two ends were copied (@port_map: FL_NONE for a
 * port left out) into @dst, with their attributes. */
static int copy_links(fl_fabric *dst, const fl_fabric *src, fl_prov prov,
                      const fl_id *port_map) {
  for (fl_id l = 0; l < fl_fabric_link_count(src); l++) {
    fl_id a = port_map[fl_fabric_link_port(src, l, 0)],
          b = port_map[fl_fabric_link_port(src, l, 1)];
    if (a == FL_NONE || b == FL_NONE)
      continue;
    fl_id m = fl_b_link(dst, a, b, fl_fabric_link_width(src, l),
                        fl_fabric_link_speed(src, l),
                        fl_fabric_link_flags(src, l), prov);
    if (m == FL_NONE || copy_attrs(dst, src, FL_ENT_LINK, l, m) != FL_OK)
      return FL_ENOMEM;
  }
  return FL_OK;
}

/* Plane @k, or a plain copy (gen_build.h). */
int gen_copy_fabric(fl_fabric *dst, const fl_fabric *src, uint32_t k,
                    uint32_t planes, fl_prov prov, fl_id *port_map) {
  for (fl_id n = 0; n < fl_fabric_node_count(src); n++)
    if (copy_node(dst, src, n, k, planes, prov, port_map) != FL_OK)
      return FL_ENOMEM;
  return copy_links(dst, src, prov, port_map);
}

/* The nodes @keep of @src and the cables among them (gen_build.h). */
int gen_copy_subset(fl_fabric *dst, const fl_fabric *src,
                    const unsigned char *keep, fl_prov prov, fl_id *port_map) {
  for (fl_id p = 0; p < fl_fabric_port_count(src); p++)
    port_map[p] = FL_NONE;
  for (fl_id n = 0; n < fl_fabric_node_count(src); n++)
    if (keep[n] && copy_same(dst, src, n, prov, port_map) != FL_OK)
      return FL_ENOMEM;
  return copy_links(dst, src, prov, port_map);
}

int fl_gen_planes(const fl_fabric *one, uint32_t n, fl_fabric **out,
                  fl_error *err) {
  *out = NULL;
  if (n < 1 || n > FL_GEN_MAX_PLANES)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "--planes: expected 1..%u, got %u", FL_GEN_MAX_PLANES,
                        n);
  fl_fabric *dst = fl_fabric_new();
  fl_id *port_map =
      malloc(((size_t)fl_fabric_port_count(one) + 1) * sizeof *port_map);
  int rc = dst && port_map ? FL_OK : FL_ENOMEM;
  char what[300];
  snprintf(what, sizeof what, "%s+planes=%u",
           fl_fabric_file_count(one) ? fl_fabric_file_path(one, 0) : "gen", n);
  fl_prov prov = {dst ? fl_b_file(dst, what) : 0, 0, 0};
  for (uint32_t k = 0; k < n && rc == FL_OK; k++)
    rc = gen_copy_fabric(dst, one, k, n, prov, port_map);
  free(port_map);
  if (rc == FL_OK)
    rc = fl_fabric_finalize(dst, err);
  else
    fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  if (rc != FL_OK) {
    fl_fabric_free(dst);
    return rc;
  }
  *out = dst;
  return FL_OK;
}
