/* SPDX-License-Identifier: MIT */
/*
 * core/diff/diff_match.c — step 1 of the diff: matching design nodes with
 * as-built nodes (GUID, name, system, NIC, host, chassis, cable).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "diff/diff.h"
#include "diff/diff_impl.h"
#include "fabriclint/planes.h"
#include "io/loaders.h"
#include "io/write_common.h"
#include "model/alias.h"
#include "model/hashmap.h"
#include "util/natcmp.h"

static int has_port_label(const fl_fabric *B, fl_id b, const char *dev) {
  char want[FL_ALIAS_MAX], got[FL_ALIAS_MAX];
  fl_alias_port(dev, strlen(dev), want, sizeof want);
  fl_id first = fl_fabric_node_first_port(B, b);
  for (uint32_t k = 0; first != FL_NONE && k < fl_fabric_node_port_count(B, b);
       k++) {
    const char *lb = fl_fabric_port_label(B, first + k);
    if (*lb && (fl_alias_port(lb, strlen(lb), got, sizeof got),
                strcmp(want, got) == 0))
      return 1;
  }
  return 0;
}

/* 1 when the design does not say what kind of device node @i is: a Cisco
 * cable plan's destChassis that is no sourceChassis (core/io/cisco_plan.c),
 * a device of a NetBox cable table (core/io/netbox_csv.c). */
static int kind_unknown(const fl_fabric *D, fl_id i) {
  const char *from = fl_fabric_attr(D, FL_ENT_NODE, i, "kind-from");
  return from && strcmp(from, "cable-plan") == 0 &&
         !fl_fabric_attr(D, FL_ENT_NODE, i, "model");
}

/* One host model, design per NIC and as-built per host: an unmatched
 * design CA with a system and a device ("host-01 ens1f0np0", system
 * host-01, device ens1f0np0) is the port labelled ens1f0np0 of the
 * as-built CA named host-01 (an LLDP chassis), or of an as-built node of
 * unknown kind so named (a NetBox device: kind_unknown()). Several design
 * nodes then share one as-built node; mB keeps the first. */
static int match_nics(dctx *c, const name_ix *bx) {
  const fl_fabric *D = c->D, *B = c->B;
  uint32_t nd = fl_fabric_node_count(D);
  char canon[FL_ALIAS_MAX];
  for (fl_id i = 0; i < nd; i++) {
    const char *sys = fl_fabric_node_system(D, i);
    const char *dev = fl_fabric_node_device(D, i);
    if (c->mD[i] != FL_NONE || fl_fabric_node_kind(D, i) != FL_NODE_CA ||
        !*sys || !*dev)
      continue;
    size_t len = fl_alias_node_full(sys, strlen(sys), canon, sizeof canon);
    uint32_t b = diff_ix_get(bx, 0, canon, len);
    if (b == NIL) {
      len = fl_alias_node(sys, strlen(sys), canon, sizeof canon);
      b = diff_ix_get(bx, 1, canon, len);
    }
    if (b == NIL || b == AMBIG ||
        (fl_fabric_node_kind(B, b) != FL_NODE_CA && !kind_unknown(B, b)) ||
        !has_port_label(B, b, dev))
      continue;
    c->mD[i] = b;
    if (c->mB[b] == FL_NONE)
      c->mB[b] = i;
    c->howD[i] = HOW_NIC;
    c->st->nodes_by_system++;
  }
  return 0;
}

/* The "system\x1fdevice" key of a per-NIC node or of a host's port. */
static size_t sysdev_key(const char *sys, const char *dev, char *key,
                         size_t size) {
  char a[FL_ALIAS_MAX], b[FL_ALIAS_MAX];
  fl_alias_node(sys, strlen(sys), a, sizeof a);
  fl_alias_port(dev, strlen(dev), b, sizeof b);
  int n = snprintf(key, size, "%s\x1f%s", a, b);
  return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/* One host model, design per host and as-built per NIC: an unmatched
 * design CA whose name is the system of several unmatched as-built CAs
 * ("host-01" and "host-01 mlx5_0", "host-01 mlx5_3") stands for all of
 * them; each of its labelled ports is the as-built NIC of that device
 * (dkey()). So does a design node whose kind the plan does not say (a
 * NetBox device, a Cisco plan's destChassis: kind_unknown()), which is
 * how a cable table writes a server: one device, its HCAs as interfaces
 * (issue 36, `convert --format netbox-cables`). */
static int match_hosts(dctx *c) {
  const fl_fabric *D = c->D, *B = c->B;
  uint32_t nd = fl_fabric_node_count(D), nb = fl_fabric_node_count(B);
  fl_strmap hosts;
  memset(&hosts, 0, sizeof hosts);
  char canon[FL_ALIAS_MAX], key[2 * FL_ALIAS_MAX + 2];
  int rc = -1;
  for (fl_id i = 0; i < nd; i++) {
    if (c->mD[i] != FL_NONE ||
        (fl_fabric_node_kind(D, i) != FL_NODE_CA && !kind_unknown(D, i)))
      continue;
    const char *nm = fl_fabric_node_name(D, i);
    size_t len = fl_alias_node(nm, strlen(nm), canon, sizeof canon);
    if (fl_strmap_put(&hosts, canon, len, i) == FL_MAP_ABSENT)
      goto out;
  }
  if (!fl_strmap_len(&hosts))
    return 0;
  for (fl_id b = 0; b < nb; b++) {
    const char *sys = fl_fabric_node_system(B, b);
    const char *dev = fl_fabric_node_device(B, b);
    if (c->mB[b] != FL_NONE || fl_fabric_node_kind(B, b) != FL_NODE_CA ||
        !*sys || !*dev)
      continue;
    size_t len = fl_alias_node(sys, strlen(sys), canon, sizeof canon);
    uint32_t i = fl_strmap_get(&hosts, canon, len);
    if (i == FL_MAP_ABSENT)
      continue;
    size_t k = sysdev_key(sys, dev, key, sizeof key);
    if (fl_strmap_put(&c->sysdev, key, k, b) == FL_MAP_ABSENT)
      goto out;
    c->mB[b] = i;
    if (c->mD[i] == FL_NONE) {
      c->mD[i] = b;
      c->howD[i] = HOW_HOST;
      c->st->nodes_by_system++;
    }
  }
  rc = 0;
out:
  fl_strmap_free(&hosts);
  return rc;
}

/* The as-built endpoint of labelled port @p of a HOW_HOST design node: the
 * cabled port of the as-built NIC of that system and device. 0 when found. */
int diff_host_nic_key(dctx *c, fl_id p, uint64_t *out) {
  fl_id n = fl_fabric_port_node(c->D, p);
  const char *lb = fl_fabric_port_label(c->D, p);
  char key[2 * FL_ALIAS_MAX + 2];
  size_t k = sysdev_key(fl_fabric_node_name(c->D, n), lb, key, sizeof key);
  uint32_t b = *lb ? fl_strmap_get(&c->sysdev, key, k) : FL_MAP_ABSENT;
  if (b == FL_MAP_ABSENT)
    return -1;
  fl_id first = fl_fabric_node_first_port(c->B, b);
  uint32_t num = 1;
  for (uint32_t j = 0;
       first != FL_NONE && j < fl_fabric_node_port_count(c->B, b); j++)
    if (fl_fabric_port_link(c->B, first + j, 0) != FL_NONE) {
      num = fl_fabric_port_num(c->B, first + j);
      break;
    }
  *out = diff_mkkey(b, num);
  return 0;
}

/* A design switch that matched no as-built node by GUID or name and is
 * named like an as-built director chassis (the <name> of its ASICs'
 * `MF0;<name>:...` descriptions, compared by the alias layer) stands for
 * all its ASICs, none of which may be matched already. Its ports are
 * front-panel names (dkey()); cables inside the chassis are not compared
 * (build_edges()). */
static int match_chassis(dctx *c) {
  const fl_fabric *D = c->D, *B = c->B;
  uint32_t nc = fl_fabric_chassis_count(B), nb = fl_fabric_node_count(B);
  if (!nc)
    return 0;
  fl_strmap names;
  memset(&names, 0, sizeof names);
  uint32_t *claim = malloc((size_t)nc * sizeof *claim);
  uint8_t *taken = calloc(nc, 1);
  int rc = -1;
  char canon[FL_ALIAS_MAX];
  if (!claim || !taken)
    goto out;
  for (uint32_t k = 0; k < nc; k++) {
    const char *nm = fl_fabric_chassis_name(B, k);
    claim[k] = FL_NONE;
    size_t len = fl_alias_node(nm, strlen(nm), canon, sizeof canon);
    if (fl_strmap_put(&names, canon, len, k) == FL_MAP_ABSENT)
      goto out;
  }
  for (fl_id b = 0; b < nb; b++) /* a chassis with a matched ASIC is taken */
    if (c->mB[b] != FL_NONE && fl_fabric_node_chassis(B, b) != FL_NONE)
      taken[fl_fabric_node_chassis(B, b)] = 1;
  for (fl_id i = 0; i < fl_fabric_node_count(D); i++) {
    if (c->mD[i] != FL_NONE || fl_fabric_node_kind(D, i) != FL_NODE_SWITCH)
      continue;
    size_t len = diff_canon_name(D, i, canon, sizeof canon);
    uint32_t k = fl_strmap_get(&names, canon, len);
    if (k == FL_MAP_ABSENT || taken[k])
      continue;
    taken[k] = 1;
    claim[k] = i;
    c->howD[i] = HOW_CHASSIS;
    c->st->nodes_by_chassis++;
  }
  for (fl_id b = 0; b < nb; b++) {
    uint32_t k = fl_fabric_node_chassis(B, b);
    if (k == FL_NONE || claim[k] == FL_NONE)
      continue;
    c->mB[b] = claim[k];
    if (c->mD[claim[k]] == FL_NONE)
      c->mD[claim[k]] = b; /* its first ASIC stands for it */
  }
  rc = 0;
out:
  fl_strmap_free(&names);
  free(claim);
  free(taken);
  return rc;
}

/* The other way round (a plan that lists the ASICs, an as-built that
 * names the box: an ASIC-level dump used as the plan against a UFM NDT):
 * a design director chassis none of whose ASICs matched, named like one
 * unmatched as-built switch, is that switch; each ASIC is part of it
 * (HOW_IN_CHASSIS) and its front-panel ports are the as-built's labels
 * (dkey()); the design's cables inside the chassis are not compared
 * (build_edges()). */
static int match_chassis_built(dctx *c, const name_ix *bx) {
  const fl_fabric *D = c->D, *B = c->B;
  uint32_t nc = fl_fabric_chassis_count(D), nd = fl_fabric_node_count(D);
  if (!nc)
    return 0;
  fl_id *box = malloc((size_t)nc * sizeof *box);
  if (!box)
    return -1;
  char canon[FL_ALIAS_MAX];
  for (uint32_t k = 0; k < nc; k++) {
    const char *nm = fl_fabric_chassis_name(D, k);
    size_t len = fl_alias_node(nm, strlen(nm), canon, sizeof canon);
    uint32_t b = diff_ix_get(bx, 1, canon, len);
    box[k] = b == NIL || b == AMBIG || c->mB[b] != FL_NONE ||
                     fl_fabric_node_kind(B, b) != FL_NODE_SWITCH
                 ? FL_NONE
                 : b;
  }
  for (fl_id i = 0; i < nd; i++) /* a chassis with a matched ASIC stays */
    if (c->mD[i] != FL_NONE && fl_fabric_node_chassis(D, i) != FL_NONE)
      box[fl_fabric_node_chassis(D, i)] = FL_NONE;
  for (uint32_t k = 0; k < nc; k++)
    if (box[k] != FL_NONE)
      c->st->nodes_by_chassis++;
  for (fl_id i = 0; i < nd; i++) {
    uint32_t k = fl_fabric_node_chassis(D, i);
    if (k == FL_NONE || box[k] == FL_NONE)
      continue;
    c->mD[i] = box[k];
    c->howD[i] = HOW_IN_CHASSIS;
    if (c->mB[box[k]] == FL_NONE)
      c->mB[box[k]] = i; /* its first ASIC stands for it */
  }
  free(box);
  return 0;
}

/* Canonical system of node @n (its name when it has none). */
static size_t sys_canon(const fl_fabric *f, fl_id n, char *buf, size_t size) {
  const char *s = fl_fabric_node_system(f, n);
  if (!*s)
    s = fl_fabric_node_name(f, n);
  return fl_alias_node(s, strlen(s), buf, size);
}

/* Nodes a name cannot tell apart (the ASICs of a director that an
 * opensm-subnet.lst describes all as "SL1-1 MT47396 ...") are matched by
 * position, breadth first from the matched nodes: the planned cable at port
 * P of a matched design node reaches unmatched design node X at port Q; the
 * as-built cable at port P of its match reaches unmatched as-built node Y at
 * port Q; X and Y have the same system name and Y's description is shared
 * by other as-built nodes (so no name can tell them apart; a renamed node
 * is not matched this way): X is Y. Only nodes whose ports are numbered on both
 * sides (InfiniBand) take part. O(ports). */
static int match_cables(dctx *c) {
  const fl_fabric *D = c->D, *B = c->B;
  uint32_t nd = fl_fabric_node_count(D);
  uint32_t nb = fl_fabric_node_count(B);
  fl_id *queue = malloc(((size_t)nd + 1) * sizeof *queue);
  uint8_t *shared = calloc((size_t)nb + 1, 1);
  fl_strmap descs;
  memset(&descs, 0, sizeof descs);
  int rc = -1;
  if (!queue || !shared)
    goto out;
  for (fl_id y = 0; y < nb; y++) { /* as-built descriptions used twice */
    const char *d = fl_fabric_node_desc(B, y);
    uint32_t v = *d ? fl_strmap_put(&descs, d, strlen(d), y) : y;
    if (v == FL_MAP_ABSENT)
      goto out;
    if (v != y)
      shared[v] = shared[y] = 1;
  }
  size_t head = 0, tail = 0;
  for (fl_id i = 0; i < nd; i++)
    if (c->mD[i] != FL_NONE &&
        (c->howD[i] == HOW_GUID || c->howD[i] == HOW_NAME ||
         c->howD[i] == HOW_SYSTEM))
      queue[tail++] = i;
  char cd[FL_ALIAS_MAX], cb[FL_ALIAS_MAX];
  while (head < tail) {
    fl_id i = queue[head++], b = c->mD[i];
    if (c->b_labels[b])
      continue;
    fl_id first = fl_fabric_node_first_port(D, i);
    for (uint32_t k = 0;
         first != FL_NONE && k < fl_fabric_node_port_count(D, i); k++) {
      fl_id p = first + k, l = fl_fabric_port_link(D, p, 0);
      if (l == FL_NONE)
        continue;
      fl_id q = fl_fabric_link_port(D, l, fl_fabric_link_port(D, l, 0) == p);
      fl_id x = fl_fabric_port_node(D, q);
      if (c->mD[x] != FL_NONE)
        continue;
      fl_id bp = fl_fabric_find_port(B, b, fl_fabric_port_num(D, p));
      fl_id bl = bp == FL_NONE ? FL_NONE : fl_fabric_port_link(B, bp, 0);
      if (bl == FL_NONE)
        continue;
      fl_id bq =
          fl_fabric_link_port(B, bl, fl_fabric_link_port(B, bl, 0) == bp);
      fl_id y = fl_fabric_port_node(B, bq);
      if (c->mB[y] != FL_NONE || c->b_labels[y] ||
          fl_fabric_port_num(B, bq) != fl_fabric_port_num(D, q))
        continue;
      if (!shared[y])
        continue;
      size_t ld = sys_canon(D, x, cd, sizeof cd);
      size_t lb = sys_canon(B, y, cb, sizeof cb);
      if (ld != lb || memcmp(cd, cb, ld) != 0)
        continue;
      c->mD[x] = y;
      c->mB[y] = x;
      c->howD[x] = HOW_CABLE;
      c->st->nodes_by_cable++;
      queue[tail++] = x;
    }
  }
  rc = 0;
out:
  fl_strmap_free(&descs);
  free(shared);
  free(queue);
  return rc;
}

/* GUIDs that contradict names (issue #30): a plan generated for the whole
 * build against a half-built expansion gives the GUIDs of planned leaves to
 * as-built spines ("leaf-su02-r0" has the GUID of the as-built "spine-01",
 * and the plan has its own "spine-01"); matched by GUID,
 * every cable of those nodes is unexpected (256 on the 4-SU journey). A
 * GUID match whose names differ while the planned name is another as-built
 * node, or the as-built name another planned node, and whose cables agree
 * better with the pairing by name than with the pairing by GUID, is undone:
 * the names decide,
 * and neither node's GUID is compared (gdoubtB). One info finding says so,
 * with the count and the first example. Returns 0, -1 on ENOMEM. */
/* How many planned cables of design node @x the as-built node @y has: at
 * the same port number, to the as-built node already matched with the
 * planned far end, at the far end's port number. The cabling decides
 * between a GUID and a name when they disagree. O(ports of x * ports of
 * y), for the few nodes in doubt. */
static uint32_t cables_agree(const dctx *c, fl_id x, fl_id y) {
  const fl_fabric *D = c->D, *B = c->B;
  fl_id px = fl_fabric_node_first_port(D, x),
        py = fl_fabric_node_first_port(B, y);
  uint32_t nx = fl_fabric_node_port_count(D, x),
           ny = fl_fabric_node_port_count(B, y);
  uint32_t agree = 0;
  for (uint32_t i = 0; px != FL_NONE && py != FL_NONE && i < nx; i++)
    for (uint32_t k = 0; k < fl_fabric_port_link_count(D, px + i); k++) {
      fl_id q =
          fl_fabric_link_other(D, fl_fabric_port_link(D, px + i, k), px + i);
      fl_id bj = c->mD[fl_fabric_port_node(D, q)];
      if (bj == FL_NONE)
        continue;
      uint32_t num = fl_fabric_port_num(D, px + i),
               qn = fl_fabric_port_num(D, q);
      for (uint32_t m = 0; m < ny; m++) {
        if (fl_fabric_port_num(B, py + m) != num)
          continue;
        for (uint32_t e = 0; e < fl_fabric_port_link_count(B, py + m); e++) {
          fl_id r = fl_fabric_link_other(B, fl_fabric_port_link(B, py + m, e),
                                         py + m);
          agree +=
              fl_fabric_port_node(B, r) == bj && fl_fabric_port_num(B, r) == qn;
        }
      }
    }
  return agree;
}

static int guid_name_conflicts(dctx *c, const name_ix *dx, const name_ix *bx) {
  const fl_fabric *D = c->D, *B = c->B;
  uint32_t nd = fl_fabric_node_count(D), nb = fl_fabric_node_count(B);
  uint32_t n = 0;
  fl_id ex_d = FL_NONE, ex_b = FL_NONE;
  if (c->o->no_guid || c->per_plane)
    return 0;
  char cd[FL_ALIAS_MAX], cb[FL_ALIAS_MAX];
  for (fl_id i = 0; i < nd; i++) {
    fl_id b = c->mD[i];
    if (b == FL_NONE || c->howD[i] != HOW_GUID)
      continue;
    size_t ld = diff_canon_name(D, i, cd, sizeof cd);
    size_t lb = diff_canon_name(B, b, cb, sizeof cb);
    if (strcmp(cd, cb) == 0)
      continue;
    /* the planned name is another as-built node, or the as-built name
     * another planned node: the names pair them otherwise */
    uint32_t b2 = diff_ix_get(bx, 1, cd, ld);
    uint32_t d2 = diff_ix_get(dx, 1, cb, lb);
    int other_b = b2 != NIL && b2 != AMBIG && b2 != b;
    int other_d = d2 != NIL && d2 != AMBIG && d2 != i;
    if (!other_b && !other_d)
      continue;
    /* names swapped between two nodes (a hostname typo) with the GUIDs and
     * the cables agreeing: the GUID stays; the description finding says
     * the names differ, and no cable is to move */
    uint32_t by_guid = cables_agree(c, i, b);
    uint32_t by_name = other_b ? cables_agree(c, i, b2) : 0;
    if (other_d) {
      uint32_t v = cables_agree(c, d2, b);
      by_name = v > by_name ? v : by_name;
    }
    if (by_name <= by_guid)
      continue;
    if (!c->gdoubtB && !(c->gdoubtB = calloc((size_t)nb + 1, 1)))
      return -1;
    c->gdoubtB[b] = 1;
    if (other_b)
      c->gdoubtB[b2] = 1;
    c->mD[i] = FL_NONE;
    c->mB[b] = FL_NONE;
    c->howD[i] = HOW_NONE;
    c->st->nodes_by_guid--;
    if (!n++)
      ex_d = i, ex_b = b;
  }
  if (!n)
    return 0;
  fnd f = {.rule = "diff.different", .sev = FL_SEV_INFO};
  f.ev =
      json_pack("{s:s,s:i,s:s,s:s}", "attribute", "guid", "conflicting",
                (json_int_t)n, "example_design", fl_fabric_node_name(D, ex_d),
                "example_as_built", fl_fabric_node_name(B, ex_b));
  f.key = "guid-name-conflict";
  diff_emit(c, &f,
            diff_xprintf(c,
                         "%u planned node(s) carry the GUID of an as-built "
                         "node of another name while the names pair the "
                         "nodes otherwise (e.g. \"%s\" has the GUID of "
                         "\"%s\"): the plan's GUIDs look shifted (generated "
                         "for another build), so these nodes were matched by "
                         "name and their GUIDs not compared",
                         n, fl_fabric_node_name(D, ex_d),
                         fl_fabric_node_name(B, ex_b)));
  return 0;
}

/* Design host @i, matched by GUID to as-built node @b, describes itself
 * by another host name: 1, with the planned host in @sd and the as-built
 * one in @sb (both systems). */
static int renamed_host(const dctx *c, fl_id i, fl_id b, const char **sd,
                        const char **sb) {
  *sd = fl_fabric_node_system(c->D, i);
  *sb = fl_fabric_node_system(c->B, b);
  if (!**sd || !**sb || fl_fabric_node_kind(c->D, i) != FL_NODE_CA)
    return 0;
  char cd[FL_ALIAS_MAX], cb[FL_ALIAS_MAX];
  fl_alias_node(*sd, strlen(*sd), cd, sizeof cd);
  fl_alias_node(*sb, strlen(*sb), cb, sizeof cb);
  return strcmp(cd, cb) != 0;
}

int diff_match_nodes(dctx *c) {
  const fl_fabric *D = c->D, *B = c->B;
  uint32_t nd = fl_fabric_node_count(D), nb = fl_fabric_node_count(B);
  c->mD = malloc(((size_t)nd + 1) * sizeof *c->mD);
  c->mB = malloc(((size_t)nb + 1) * sizeof *c->mB);
  c->howD = calloc((size_t)nd + 1, 1);
  if (!c->mD || !c->mB || !c->howD || diff_planes_setup(c) != 0)
    return -1;
  for (uint32_t i = 0; i < nd; i++)
    c->mD[i] = FL_NONE;
  for (uint32_t i = 0; i < nb; i++)
    c->mB[i] = FL_NONE;
  /* GUIDs */
  if (!c->o->no_guid)
    for (fl_id i = 0; i < nd; i++) {
      uint64_t g = fl_fabric_node_guid(D, i);
      if (!g)
        continue;
      fl_id b = fl_fabric_find_node_guid(B, g);
      if (b == FL_NONE || c->mB[b] != FL_NONE ||
          fl_fabric_find_node_guid(D, g) != i)
        continue;
      c->mD[i] = b;
      c->mB[b] = i;
      c->howD[i] = HOW_GUID;
      c->st->nodes_by_guid++;
    }
  /* names: full names first, then short names that are unambiguous on both
   * sides (two nodes sharing a short name match on their full names only),
   * then systems */
  name_ix bx, dx, bpx, dpx; /* whole fabric; within planes (c->per_plane) */
  memset(&bx, 0, sizeof bx);
  memset(&dx, 0, sizeof dx);
  memset(&bpx, 0, sizeof bpx);
  memset(&dpx, 0, sizeof dpx);
  int rc = -1;
  if (diff_index_names(B, &bx) != 0 || diff_index_names(D, &dx) != 0)
    goto out;
  /* names within planes: only needed for nodes GUIDs did not match */
  int left = 0;
  for (fl_id i = 0; c->per_plane && i < nd && !left; i++)
    left = c->mD[i] == FL_NONE;
  if (left && (diff_index_plane_names(c, 1, &bpx) != 0 ||
               diff_index_plane_names(c, 0, &dpx) != 0))
    goto out;
  if (guid_name_conflicts(c, &dx, &bx) != 0)
    goto out;
  char canon[FL_ALIAS_MAX];
  for (int pass = 0; pass < 3; pass++)
    for (fl_id i = 0; i < nd; i++) {
      if (c->mD[i] != FL_NONE)
        continue;
      size_t len = pass == 0 ? diff_full_name(D, i, canon, sizeof canon)
                             : diff_canon_name(D, i, canon, sizeof canon);
      /* the design's own index: full for pass 0, short for 1 and 2 */
      uint32_t di = diff_ix_get(&dx, pass ? 1 : 0, canon, len);
      uint32_t b = diff_ix_get(&bx, pass, canon, len);
      /* names repeat across planes: the node of this name in its plane
       * first ("leaf01 (0x...)" is leaf01 there), else the whole fabric's
       * (a name only another plane has) */
      if (left) {
        uint32_t pdi, pb;
        diff_plane_lookup(c, &dpx, &bpx, pass, i, &pdi, &pb);
        if ((pdi == i && pb != NIL && pb != AMBIG && c->mB[pb] == FL_NONE) ||
            di != i || b == NIL || b == AMBIG) {
          di = pdi;
          b = pb;
        }
      }
      if (di != i)
        continue; /* ambiguous within the design (or its plane) */
      if (b == NIL || b == AMBIG || c->mB[b] != FL_NONE)
        continue;
      if (pass == 2 && fl_fabric_node_kind(B, b) != fl_fabric_node_kind(D, i))
        continue;
      c->mD[i] = b;
      c->mB[b] = i;
      c->howD[i] = pass == 2 ? HOW_SYSTEM : HOW_NAME;
      if (pass == 2)
        c->st->nodes_by_system++;
      else
        c->st->nodes_by_name++;
    }
  /* systems the other way round: a design node whose system is the name
   * of an as-built node ("MF0;leaf-01:MQM8700/U1", system leaf-01, in an
   * ASIC-level dump used as the plan; LEAF-01 in the as-built NDT) */
  for (fl_id i = 0; i < nd; i++) {
    const char *sys = fl_fabric_node_system(D, i);
    if (c->mD[i] != FL_NONE || !*sys)
      continue;
    size_t len = fl_alias_node(sys, strlen(sys), canon, sizeof canon);
    if (diff_ix_get(&dx, 2, canon, len) != i)
      continue; /* several design nodes of this system */
    uint32_t b = diff_ix_get(&bx, 1, canon, len);
    if (b == NIL || b == AMBIG || c->mB[b] != FL_NONE ||
        fl_fabric_node_kind(B, b) != fl_fabric_node_kind(D, i))
      continue;
    c->mD[i] = b;
    c->mB[b] = i;
    c->howD[i] = HOW_SYSTEM;
    c->st->nodes_by_system++;
  }
  if (match_chassis(c) != 0 || match_chassis_built(c, &bx) != 0 ||
      match_nics(c, &bx) != 0 || match_hosts(c) != 0 || match_cables(c) != 0 ||
      diff_split_cross_plane(c) != 0)
    goto out;
  /* unmatched nodes; a wholly missing SU or host is one cause
   * (diff_groups.c) */
  diff_groups grp;
  if (diff_groups_init(c, &grp) != 0) {
    diff_groups_free(&grp);
    goto out;
  }
  for (fl_id i = 0; i < nd; i++) {
    if (c->mD[i] != FL_NONE)
      continue;
    if (c->xplD && c->xplD[i] != FL_NONE) {
      diff_cross_plane_node(c, i, c->xplD[i]);
      continue;
    }
    char full[FL_ALIAS_MAX];
    size_t flen = diff_full_name(D, i, full, sizeof full);
    size_t len = diff_canon_name(D, i, canon, sizeof canon);
    uint32_t bfull = diff_ix_get(&bx, 0, full, flen);
    uint32_t bshort = diff_ix_get(&bx, 1, canon, len);
    const char *why;
    char *whys = left ? diff_why_in_plane(c, &dpx, &bpx, i) : NULL;
    const char *lo =
        c->o->whole_side == 1
            ? diff_left_out_plane(c, fl_fabric_node_kind(D, i) == FL_NODE_CA,
                                  fl_fabric_node_name(D, i),
                                  fl_fabric_node_guid(D, i))
            : NULL;
    if (whys)
      why = whys;
    else if (lo)
      why = whys = diff_xprintf(c,
                                "it is in plane %s as built, which this "
                                "comparison leaves out (the design is plane %s "
                                "alone)",
                                lo, c->o->plane);
    else if (diff_ix_get(&dx, 0, full, flen) != i)
      why = "another design node has the same name after normalising";
    else if (bfull == AMBIG || (bfull == NIL && bshort == AMBIG))
      why = "several as-built nodes have this name after normalising";
    else if (bfull == NIL && bshort != NIL &&
             diff_ix_get(&dx, 1, canon, len) != i)
      why = whys =
          diff_xprintf(c,
                       "another design node has the same short name, so "
                       "only the full name \"%s\" is compared and no "
                       "as-built node has it",
                       full);
    else if (bfull != NIL || bshort != NIL)
      why = whys = diff_xprintf(
          c, "the as-built node of this name is already matched to another "
             "design node (by GUID, or by a name it shares)");
    else if (fl_fabric_node_guid(D, i))
      why = whys = diff_xprintf(c,
                                "no as-built node is named \"%s\" (compared "
                                "after normalising case, domain and blanks) "
                                "or has GUID 0x%016" PRIx64,
                                canon, fl_fabric_node_guid(D, i));
    else
      why = whys = diff_xprintf(c,
                                "no as-built node is named \"%s\" (compared "
                                "after normalising case, domain and blanks)",
                                canon);
    uint32_t ncab = c->cables_of_D ? c->cables_of_D[i] : 0;
    char *cause = NULL, *cmsg = NULL;
    /* planes: a node missing from a plane is judged by the plane logic
     * (diff_planes.c), not grouped */
    if (!lo && !c->n_plD && !c->n_plB &&
        diff_group_of(c, &grp, i, &cause, &cmsg) != 0)
      c->nomem = 1;
    fnd f = {.rule = "diff.missing-node",
             .sev = FL_SEV_ERROR,
             .loc_fab = D,
             .loc_ent = FL_ENT_NODE,
             .loc_id = i,
             .extra_nodes = {fl_fabric_node_name(D, i)},
             .n_extra = 1,
             .ids = c->per_plane,
             .xd = i,
             .xb = FL_NONE,
             .cause = cause,
             .cause_msg = cmsg};
    f.ev = json_pack("{s:s,s:s,s:i}", "reason", why ? why : "", "kind",
                     fl_node_kind_name(fl_fabric_node_kind(D, i)),
                     "planned_cables", (json_int_t)ncab);
    diff_emit(
        c, &f,
        diff_xprintf(c,
                     "planned %s \"%s\" is not in %s%s: %s (its %u planned "
                     "cable(s) are not reported one by one)",
                     fl_node_kind_name(fl_fabric_node_kind(D, i)),
                     fl_fabric_node_name(D, i),
                     lo ? "plane " : "the as-built fabric",
                     lo ? c->o->plane : "", why, ncab));
    const char *rack = fl_fabric_attr(D, FL_ENT_NODE, i, "rack");
    if (ncab) /* each planned cable: its port, far end and cable id */
      diff_wo_node_cables(c, "check", "diff.missing-node", i,
                          "node not discovered: power, install or name it as "
                          "planned; check this planned cable");
    else
      diff_wo_node(c, "check", "diff.missing-node", fl_fabric_node_name(D, i),
                   rack,
                   "node not discovered: power, install or name it as planned");
    free(whys), free(cause), free(cmsg);
  }
  diff_groups_free(&grp);
  for (fl_id b = 0; b < nb; b++) {
    if (c->mB[b] != FL_NONE || (c->xplB && c->xplB[b]))
      continue;
    const char *desc = fl_fabric_node_desc(B, b);
    int an = strstr(desc, "Aggregation Node") != NULL;
    uint32_t ncab = c->cables_of_B ? c->cables_of_B[b] : 0;
    fnd f = {.rule = "diff.unexpected-node",
             .sev = an ? FL_SEV_INFO : FL_SEV_ERROR,
             .loc_fab = B,
             .loc_ent = FL_ENT_NODE,
             .loc_id = b,
             .extra_nodes = {fl_fabric_node_name(B, b)},
             .n_extra = 1,
             .ids = c->per_plane,
             .xd = FL_NONE,
             .xb = b};
    uint64_t g = fl_fabric_node_guid(B, b);
    const char *pl =
        c->per_plane ? diff_plane_name_b(c, diff_node_plane(c, 1, b)) : NULL;
    char gs[32] = "";
    if (g)
      snprintf(gs, sizeof gs, "0x%016" PRIx64, g);
    f.ev = json_pack("{s:s,s:s,s:i}", "kind",
                     fl_node_kind_name(fl_fabric_node_kind(B, b)), "guid", gs,
                     "cables", (json_int_t)ncab);
    const char *lo =
        c->o->whole_side == 0
            ? diff_left_out_plane(c, fl_fabric_node_kind(B, b) == FL_NODE_CA,
                                  fl_fabric_node_name(B, b), g)
            : NULL;
    const char *home = lo ? NULL : diff_home_plane_mark(c, b);
    const char *kind = fl_node_kind_name(fl_fabric_node_kind(B, b));
    const char *nm = fl_fabric_node_name(B, b), *gl = g ? " GUID " : "";
    char *msg;
    if (home)
      msg = diff_xprintf(
          c,
          "%s \"%s\"%s%s is not in the design of plane %s: it "
          "belongs in plane %s (its host's NIC for that plane) and "
          "is cabled into plane %s; move its cable to plane %s (its "
          "%u cable(s) are not reported one by one)",
          kind, nm, gl, gs, c->o->plane, home, c->o->plane, home, ncab);
    else if (lo)
      msg = diff_xprintf(c,
                         "%s \"%s\"%s%s is not in plane %s of the design: the "
                         "design puts it in plane %s, which this comparison "
                         "leaves out (the as-built is plane %s alone; its %u "
                         "cable(s) are not reported one by one)",
                         kind, nm, gl, gs, c->o->plane, lo, c->o->plane, ncab);
    else
      msg = diff_xprintf(
          c,
          "%s \"%s\"%s%s is not in the design: no planned node%s%s "
          "has this name or GUID (its %u cable(s) are not reported "
          "one by one)%s",
          kind, nm, gl, gs, pl ? " of plane " : "", pl ? pl : "", ncab,
          an ? "; a SHARP Aggregation Node, usually left out of "
               "plans"
             : "");
    diff_emit(c, &f, msg);
    if (!an)
      diff_wo_node(c, "check", "diff.unexpected-node",
                   fl_fabric_node_name(B, b), "",
                   "node found that the plan does not have: remove or add it "
                   "to the plan");
  }
  /* attributes of matched nodes */
  int guids = diff_guid_policy(c);
  /* hosts matched by GUID that call themselves by another planned host's
   * name, chained (dgx-016 planned as dgx-017, dgx-017 as dgx-018, ...):
   * one shift, not one rename per host (diff_shift.c) */
  diff_shift sh = {.fix = "their GUIDs and cables agree with the plan: fix "
                          "the hostnames or node descriptions of the {count} "
                          "nodes (no cable is to move)",
                   .min_pairs = 2};
  for (fl_id i = 0; i < nd && !c->nomem; i++) {
    fl_id b = c->mD[i];
    const char *sd, *sb;
    if (b == FL_NONE || c->howD[i] != HOW_GUID ||
        !renamed_host(c, i, b, &sd, &sb))
      continue;
    if (diff_shift_add(&sh, sb, sd) != 0)
      c->nomem = 1;
  }
  if (!c->nomem && diff_shift_finish(c, &sh, "host") != 0)
    c->nomem = 1;
  for (fl_id i = 0; i < nd; i++) {
    fl_id b = c->mD[i];
    if (b == FL_NONE)
      continue;
    uint64_t gd = fl_fabric_node_guid(D, i), gb = fl_fabric_node_guid(B, b);
    if (guids != GUIDS_COMPARE || (c->gdoubtB && c->gdoubtB[b]))
      gd = gb = 0; /* --no-guid, placeholders, or GUIDs that contradict
                      names (guid_name_conflicts()): not compared */
    char cd[FL_ALIAS_MAX], cb[FL_ALIAS_MAX];
    if (c->per_plane) { /* "leaf01 (0x...)" of one side is leaf01 */
      diff_canon_base(D, i, 0, cd, sizeof cd);
      diff_canon_base(B, b, 0, cb, sizeof cb);
    } else {
      diff_canon_name(D, i, cd, sizeof cd);
      diff_canon_name(B, b, cb, sizeof cb);
    }
    const char *what = NULL;
    char *msg = NULL;
    if (gd && gb && gd != gb) {
      what = "guid";
      msg =
          diff_xprintf(c,
                       "\"%s\" has GUID 0x%016" PRIx64 ", planned 0x%016" PRIx64
                       " (hardware replaced? update the plan or the "
                       "node-name map)",
                       fl_fabric_node_name(D, i), gb, gd);
    } else if (c->howD[i] == HOW_GUID && strcmp(cd, cb) != 0) {
      what = "description";
      msg = diff_xprintf(c,
                         "GUID 0x%016" PRIx64 " is \"%s\" in the design but "
                         "describes itself as \"%s\"",
                         gd, fl_fabric_node_name(D, i),
                         fl_fabric_node_name(B, b));
    } else if (fl_fabric_node_kind(D, i) != fl_fabric_node_kind(B, b) &&
               !kind_unknown(D, i) && !kind_unknown(B, b)) {
      /* a side that does not say the kind (a cable table: the other side
       * may be its source, diffed the other way round) is no difference */
      what = "kind";
      msg = diff_xprintf(c, "\"%s\" is a %s in the design but a %s as built",
                         fl_fabric_node_name(D, i),
                         fl_node_kind_name(fl_fabric_node_kind(D, i)),
                         fl_node_kind_name(fl_fabric_node_kind(B, b)));
    }
    if (!what)
      continue;
    fnd f = {.rule = "diff.different",
             .sev = FL_SEV_WARNING,
             .loc_fab = D,
             .loc_ent = FL_ENT_NODE,
             .loc_id = i,
             .extra_nodes = {fl_fabric_node_name(D, i)},
             .n_extra = 1,
             .ids = c->per_plane,
             .xd = i,
             .xb = b};
    f.ev = json_pack("{s:s,s:s,s:s}", "attribute", what, "design",
                     fl_fabric_node_name(D, i), "as_built",
                     fl_fabric_node_name(B, b));
    if (strcmp(what, "guid") == 0) {
      f.cause = "guid";
      f.cause_msg = "{count} nodes have another GUID than planned (hardware "
                    "replaced? update the plan or the node-name map)";
    }
    /* one host (or switch) describing itself by another's name is one
     * cause however many NICs it has: a hostname or description typo;
     * its GUIDs and cables agree with the plan, so no cable is to move */
    char *ckey = NULL, *cmsg = NULL;
    if (strcmp(what, "description") == 0) {
      const char *sd = fl_fabric_node_system(D, i),
                 *sb = fl_fabric_node_system(B, b);
      const char *from = *sd && *sb ? sd : fl_fabric_node_name(D, i);
      const char *to = *sd && *sb ? sb : fl_fabric_node_name(B, b);
      const char *smsg = NULL, *scause = diff_shift_cause(&sh, to, &smsg);
      if (scause) {
        ckey = diff_xstrdup(c, scause);
        cmsg = diff_xstrdup(c, smsg);
      } else {
        ckey = diff_xprintf(c, "description:%s\x1f%s", from, to);
        cmsg = diff_xprintf(c,
                            "{count} nodes planned as \"%s\" describe "
                            "themselves as \"%s\"; their GUIDs and cables "
                            "agree with the plan: fix the hostname or the node "
                            "descriptions (no cable is to move)",
                            from, to);
      }
      f.cause = ckey;
      f.cause_msg = cmsg;
    }
    diff_emit(c, &f, msg);
    free(ckey);
    free(cmsg);
  }
  if (!c->nomem)
    diff_shift_roots(c, &sh, "diff.different", 1);
  diff_shift_free(&sh);
  rc = 0;
out:
  diff_name_ix_free(&bx);
  diff_name_ix_free(&dx);
  diff_name_ix_free(&bpx);
  diff_name_ix_free(&dpx);
  return rc;
}
