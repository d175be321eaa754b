/* SPDX-License-Identifier: MIT */
/*
 * core/model/fabric.c — the fabric's record store: the builders loaders
 * call (core/model/build.h), interning, the GUID indexes, and sealing the
 * records (fl_b_seal). Reading is core/model/fabric_read.c; finalizing the
 * whole model, a step above this store, is core/model/finalize.c.
 *
 * Why index-based storage: a data-centre fabric has ~10^5 nodes and ~10^6
 * ports; arrays of small records keep it in a few tens of MB, make node i
 * igraph vertex i and link j igraph edge j with no mapping tables, and give
 * deterministic ids (load order). Strings are interned once (fl_strmap).
 * Loaders add ports in any order; fl_b_seal() sorts them so every node's
 * ports are contiguous and ascending, rewrites link ends, and builds the
 * per-port link index (CSR) and the GUID and name indexes.
 */
#include "model/fabric_impl.h"
#include "model/grow.h"
#include "model/utf8.h"
#include "util/bigmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Room for element @n of @arr (capacity @cap). */
#define GROW(arr, n, cap)                                                      \
  (((n) < (cap)) ? 0 : fl_grow((void **)&(arr), &(cap), (n) + 1, sizeof *(arr)))

fl_fabric *fl_fabric_new(void) {
  fl_fabric *fab = calloc(1, sizeof *fab);
  if (!fab)
    return NULL;
  if (fl_strmap_put(&fab->atoms, "", 0, 0) != 0) {
    free(fab);
    return NULL;
  }
  return fab;
}

void fl_b_free_records(fl_fabric *fab) {
  free(fab->nodes);
  free(fab->ports);
  free(fab->links);
  free(fab->attrs);
  free(fab->files);
  free(fab->file_digest);
  fl_strmap_free(&fab->atoms);
  fl_portdir_free(&fab->port_dir);
  fl_u64map_free(&fab->guid_map);
  fl_strmap_free(&fab->name_map);
  free(fab->port_link_off);
  free(fab->port_links);
  free(fab->system_pattern);
}

/* ---- interning and files ------------------------------------------------ */

/* 1 when the valid UTF-8 sequence @s of @k bytes is a Unicode
 * noncharacter (Unicode 15 §23.7: U+FDD0..U+FDEF and the last two code
 * points of every plane, U+FFFE/U+FFFF to U+10FFFE/U+10FFFF). XML 1.0
 * (§2.2 Char) forbids U+FFFE and U+FFFF outright: a name holding one makes
 * JUnit, SVG and GraphML output not well-formed (issue #32 case 14). */
static int is_nonchar(const unsigned char *s, size_t k) {
  if (k == 3 && s[0] == 0xef && s[1] == 0xb7 && s[2] >= 0x90 && s[2] <= 0xaf)
    return 1; /* U+FDD0..U+FDEF: EF B7 90..EF B7 AF */
  if (k == 3)
    return s[0] == 0xef && s[1] == 0xbf && (s[2] == 0xbe || s[2] == 0xbf);
  if (k == 4) /* U+xFFFE/U+xFFFF: F? ?F BF BE/BF with the plane's low nibble */
    return (s[1] & 0x0f) == 0x0f && s[2] == 0xbf &&
           (s[3] == 0xbe || s[3] == 0xbf);
  return 0;
}

/* Every string the model keeps is valid UTF-8 without control characters
 * and without noncharacters: findings are JSON and SARIF, which require
 * UTF-8, and JUnit, SVG, GraphML and design XML, which refuse U+FFFE and
 * U+FFFF. Node descriptions are 64 raw bytes (IBA 14.2.5.2) and may be cut
 * mid-character or carry Latin-1; such bytes and noncharacters become '?'
 * and control characters spaces (as infiniband-diags' clean_nodedesc does
 * for non-printables). */
static int needs_cleaning(const char *s, size_t len) {
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c == 0x7f)
      return 1;
    size_t k = fl_utf8_seq((const unsigned char *)s + i, len - i);
    if (!k || is_nonchar((const unsigned char *)s + i, k))
      return 1;
    i += k;
  }
  return 0;
}

uint32_t fl_b_intern(fl_fabric *fab, const char *s, size_t len) {
  if (!s)
    return 0;
  if (len == (size_t)-1)
    len = strlen(s);
  uint32_t next = (uint32_t)fl_strmap_len(&fab->atoms);
  if (!needs_cleaning(s, len))
    return fl_strmap_put(&fab->atoms, s, len, next);
  char *clean = malloc(len + 1);
  if (!clean)
    return FL_MAP_ABSENT;
  size_t o = 0;
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)s[i];
    size_t k = fl_utf8_seq((const unsigned char *)s + i, len - i);
    if (c < 0x20 || c == 0x7f) {
      clean[o++] = ' ';
      i++;
    } else if (!k) {
      clean[o++] = '?';
      i++;
    } else if (is_nonchar((const unsigned char *)s + i, k)) {
      clean[o++] = '?';
      i += k;
    } else {
      memcpy(clean + o, s + i, k);
      o += k;
      i += k;
    }
  }
  uint32_t atom = fl_strmap_put(&fab->atoms, clean, o, next);
  free(clean);
  return atom;
}

const char *fl_b_atom_str(const fl_fabric *fab, uint32_t atom) {
  return fl_strmap_key(&fab->atoms, atom);
}

int fl_b_adopt_atoms(fl_fabric *fab, const fl_fabric *src) {
  if (fab->finalized || fl_strmap_len(&fab->atoms) > 1 || fab->n_files)
    return FL_EINVAL;
  fl_strmap copy;
  if (fl_strmap_copy(&copy, &src->atoms) != 0)
    return FL_ENOMEM;
  fl_strmap_free(&fab->atoms);
  fab->atoms = copy;
  return FL_OK;
}

int fl_b_reserve(fl_fabric *fab, size_t nodes, size_t ports, size_t links) {
  if ((nodes && fl_grow((void **)&fab->nodes, &fab->cap_nodes, nodes,
                        sizeof *fab->nodes) != 0) ||
      (ports && fl_grow((void **)&fab->ports, &fab->cap_ports, ports,
                        sizeof *fab->ports) != 0) ||
      (links && fl_grow((void **)&fab->links, &fab->cap_links, links,
                        sizeof *fab->links) != 0) ||
      fl_u64map_reserve(&fab->rt.node_guid_idx, nodes) != 0 ||
      fl_u64map_reserve(&fab->rt.port_guid_idx, ports) != 0)
    return FL_ENOMEM;
  return FL_OK;
}

uint32_t fl_b_file(fl_fabric *fab, const char *path) {
  uint32_t atom = fl_b_intern(fab, path, (size_t)-1);
  for (size_t i = 0; i < fab->n_files; i++)
    if (fab->files[i] == atom)
      return (uint32_t)i;
  if (GROW(fab->files, fab->n_files, fab->cap_files) != 0)
    return 0;
  fab->files[fab->n_files] = atom;
  return (uint32_t)fab->n_files++;
}

const char *fl_b_file_path(const fl_fabric *fab, uint32_t file) {
  return file < fab->n_files ? fl_b_atom_str(fab, fab->files[file]) : "";
}

int fl_b_is_finalized(const fl_fabric *fab) {
  return fab->finalized;
}

uint32_t fl_b_node_count(const fl_fabric *fab) {
  return (uint32_t)fab->n_nodes;
}

/* ---- nodes -----------------------------------------------------------------
 */

/* GUID -> node / port indexes used while loading (routing dumps name
 * switches and ports by GUID). */
static void index_port_guid(fl_fabric *fab, fl_id p, uint64_t guid) {
  if (guid)
    fl_u64map_put(&fab->rt.port_guid_idx, guid, p);
}

static void index_node_guid(fl_fabric *fab, fl_id n, uint64_t guid) {
  if (guid)
    fl_u64map_put(&fab->rt.node_guid_idx, guid, n);
}

void fl_b_set_caps(fl_fabric *fab, uint32_t max_nodes, uint32_t max_ports,
                   uint32_t max_links) {
  fab->max_nodes = max_nodes;
  fab->max_ports = max_ports;
  fab->max_links = max_links;
}

/* 1 (and the cap noted) when @n records already reach cap @max. */
static int capped(fl_fabric *fab, size_t n, uint32_t max, int which) {
  if (!max || n < max)
    return 0;
  if (!fab->cap_hit)
    fab->cap_hit = which;
  return 1;
}

fl_id fl_b_node(fl_fabric *fab, uint32_t kind, uint64_t guid, uint32_t nports,
                fl_prov prov) {
  if (fab->finalized ||
      capped(fab, fab->n_nodes, fab->max_nodes, FL_CAP_NODES) ||
      GROW(fab->nodes, fab->n_nodes, fab->cap_nodes) != 0)
    return FL_NONE;
  fl_node_rec *r = &fab->nodes[fab->n_nodes];
  memset(r, 0, sizeof *r);
  r->kind = kind;
  r->guid = guid;
  r->nports = nports;
  r->tier = FL_TIER_UNKNOWN;
  r->first_port = FL_NONE;
  r->prov = prov;
  index_node_guid(fab, (fl_id)fab->n_nodes, guid);
  return (fl_id)fab->n_nodes++;
}

#define NODE_OK(fab, n) ((n) < (fab)->n_nodes)

void fl_b_node_set_name(fl_fabric *fab, fl_id n, const char *s, size_t len) {
  if (NODE_OK(fab, n))
    fab->nodes[n].name = fl_b_intern(fab, s, len);
}
void fl_b_node_set_desc(fl_fabric *fab, fl_id n, const char *s, size_t len) {
  if (NODE_OK(fab, n))
    fab->nodes[n].desc = fl_b_intern(fab, s, len);
}
void fl_b_node_set_system(fl_fabric *fab, fl_id n, const char *s, size_t len) {
  if (NODE_OK(fab, n))
    fab->nodes[n].system = fl_b_intern(fab, s, len);
}
void fl_b_node_set_device(fl_fabric *fab, fl_id n, const char *s, size_t len) {
  if (NODE_OK(fab, n))
    fab->nodes[n].device = fl_b_intern(fab, s, len);
}
void fl_b_node_set_ids(fl_fabric *fab, fl_id n, uint32_t vendid, uint32_t devid,
                       uint64_t sysimgguid) {
  if (!NODE_OK(fab, n))
    return;
  fab->nodes[n].vendid = vendid;
  fab->nodes[n].devid = devid;
  fab->nodes[n].sysimgguid = sysimgguid;
}
void fl_b_node_set_nports(fl_fabric *fab, fl_id n, uint32_t nports) {
  if (NODE_OK(fab, n))
    fab->nodes[n].nports = nports;
}
void fl_b_node_set_tier(fl_fabric *fab, fl_id n, uint32_t tier) {
  if (!NODE_OK(fab, n))
    return;
  fab->nodes[n].tier = tier;
  fab->nodes[n].tier_derived = 0;
}

/* ---- ports ------------------------------------------------------------------
 */

fl_id fl_b_port_find(const fl_fabric *fab, fl_id n, uint32_t num) {
  if (fab->finalized)
    return fl_fabric_find_port(fab, n, num);
  uint32_t v = fl_portdir_get(&fab->port_dir, n, num);
  return v == FL_MAP_ABSENT ? FL_NONE : v;
}

fl_id fl_b_port(fl_fabric *fab, fl_id n, uint32_t num, fl_prov prov) {
  if (fab->finalized || !NODE_OK(fab, n))
    return FL_NONE;
  if (fab->max_ports && fab->n_ports >= fab->max_ports) {
    fl_id have = fl_b_port_find(fab, n, num);
    if (have != FL_NONE)
      return have;
    capped(fab, fab->n_ports, fab->max_ports, FL_CAP_PORTS);
    return FL_NONE;
  }
  uint32_t next = (uint32_t)fab->n_ports;
  uint32_t got =
      fl_portdir_put(&fab->port_dir, n, num, next, fab->nodes[n].nports);
  if (got == FL_MAP_ABSENT)
    return FL_NONE;
  if (got != next)
    return got;
  if (GROW(fab->ports, fab->n_ports, fab->cap_ports) != 0)
    return FL_NONE;
  fl_port_rec *r = &fab->ports[fab->n_ports++];
  memset(r, 0, sizeof *r);
  r->node = n;
  r->num = num;
  r->prov = prov;
  fab->nodes[n].port_recs++;
  return next;
}

#define PORT_OK(fab, p) ((p) < (fab)->n_ports)

void fl_b_port_set_guid(fl_fabric *fab, fl_id p, uint64_t guid) {
  if (!PORT_OK(fab, p))
    return;
  fab->ports[p].guid = guid;
  index_port_guid(fab, p, guid);
}
void fl_b_port_set_lid(fl_fabric *fab, fl_id p, uint32_t lid, uint32_t lmc) {
  if (!PORT_OK(fab, p))
    return;
  fab->ports[p].lid = lid;
  fab->ports[p].lmc = lmc;
}
void fl_b_port_set_label(fl_fabric *fab, fl_id p, const char *s, size_t len) {
  if (PORT_OK(fab, p))
    fab->ports[p].label = fl_b_intern(fab, s, len);
}

/* ---- links
 * ------------------------------------------------------------------- */

fl_id fl_b_link(fl_fabric *fab, fl_id a, fl_id b, uint32_t width,
                uint32_t speed, uint32_t flags, fl_prov prov) {
  if (fab->finalized || !PORT_OK(fab, a) || !PORT_OK(fab, b) ||
      capped(fab, fab->n_links, fab->max_links, FL_CAP_LINKS) ||
      GROW(fab->links, fab->n_links, fab->cap_links) != 0)
    return FL_NONE;
  fl_link_rec *r = &fab->links[fab->n_links];
  r->a = a;
  r->b = b;
  r->width = r->width_b = (uint8_t)width;
  r->speed = r->speed_b = (uint8_t)speed;
  r->flags = flags;
  r->prov = prov;
  return (fl_id)fab->n_links++;
}

void fl_b_link_set_b_listing(fl_fabric *fab, fl_id l, uint32_t width_b,
                             uint32_t speed_b) {
  if (l >= fab->n_links)
    return;
  fl_link_rec *r = &fab->links[l];
  /* Unknown is not a value: a listing without a width or speed (old dumps,
   * `??`) takes the other end's and is no mismatch. */
  if (!width_b)
    width_b = r->width;
  else if (!r->width)
    r->width = (uint8_t)width_b;
  if (!speed_b)
    speed_b = r->speed;
  else if (!r->speed)
    r->speed = (uint8_t)speed_b;
  r->width_b = (uint8_t)width_b;
  r->speed_b = (uint8_t)speed_b;
  if (r->width_b != r->width)
    r->flags |= FL_LINK_WIDTH_MISMATCH;
  if (r->speed_b != r->speed)
    r->flags |= FL_LINK_SPEED_MISMATCH;
}

void fl_b_link_add_flags(fl_fabric *fab, fl_id l, uint32_t flags) {
  if (l < fab->n_links)
    fab->links[l].flags |= flags;
}

/* ---- attributes
 * -------------------------------------------------------------- */

static int parse_u32(const char *s, uint32_t *out) {
  char *end;
  if (!s || !*s)
    return -1;
  unsigned long v = strtoul(s, &end, 10);
  if (*end || v > 1000000)
    return -1;
  *out = (uint32_t)v;
  return 0;
}

/* Append one attribute record (no finalized check); @late puts it after
 * every record set while loading (see fl_b_attr_sealed()). */
static int attr_add(fl_fabric *fab, uint32_t ent_kind, fl_id id,
                    const char *key, const char *value, int late) {
  if (GROW(fab->attrs, fab->n_attrs, fab->cap_attrs) != 0)
    return FL_ENOMEM;
  uint32_t k = fl_b_intern(fab, key, (size_t)-1);
  uint32_t v = fl_b_intern(fab, value, (size_t)-1);
  if (k == FL_MAP_ABSENT || v == FL_MAP_ABSENT)
    return FL_ENOMEM;
  fl_attr_rec *r = &fab->attrs[fab->n_attrs];
  r->ent_kind = ent_kind;
  r->id = id;
  r->key = k;
  r->val = v;
  r->seq = (uint32_t)fab->n_attrs++ | (late ? 0x80000000u : 0u);
  uint32_t tier;
  if (ent_kind == FL_ENT_NODE && strcmp(key, "tier") == 0 &&
      parse_u32(value, &tier) == 0)
    fl_b_node_set_tier(fab, id, tier);
  return FL_OK;
}

int fl_b_attr(fl_fabric *fab, uint32_t ent_kind, fl_id id, const char *key,
              const char *value) {
  if (fab->finalized || !key || !value)
    return FL_EINVAL;
  return attr_add(fab, ent_kind, id, key, value, 0);
}

int fl_b_attr_sealed(fl_fabric *fab, uint32_t ent_kind, fl_id id,
                     const char *key, const char *value) {
  if (!fab->finalized || !key || !value || strcmp(key, "tier") == 0)
    return FL_EINVAL;
  return attr_add(fab, ent_kind, id, key, value, 1);
}

/* ---- finalize
 * ---------------------------------------------------------------- */

/* qsort has no context argument in C11; finalize sorts an index array of
 * (node, num, old id) triples instead of port ids so no global is needed. */
typedef struct port_sort_key {
  uint32_t node, num, old;
} port_sort_key;

static int cmp_port_key(const void *x, const void *y) {
  const port_sort_key *a = x, *b = y;
  if (a->node != b->node)
    return a->node < b->node ? -1 : 1;
  if (a->num != b->num)
    return a->num < b->num ? -1 : 1;
  return 0;
}

/* Order @keys by (node, num) in one counting pass over the nodes: each
 * node's ports, in the order they were added, go to the node's range;
 * a range is sorted only when its port numbers are not already ascending
 * (loaders add a node's ports in order, nearly always). (node, num) is
 * unique (the port directory), so the order equals a full sort's. */
static int bucket_ports(const fl_fabric *fab, port_sort_key *keys) {
  size_t n = fab->n_ports, nn = fab->n_nodes;
  uint32_t *start = calloc(nn + 1, sizeof *start);
  if (!start)
    return -1;
  for (size_t i = 0; i < n; i++)
    start[fab->ports[i].node + 1]++;
  for (size_t k = 0; k < nn; k++)
    start[k + 1] += start[k];
  for (size_t i = 0; i < n; i++) {
    const fl_port_rec *r = &fab->ports[i];
    keys[start[r->node]++] = (port_sort_key){r->node, r->num, (uint32_t)i};
  }
  /* start[k] is now node k's end, the next node's start */
  for (size_t k = 0, lo = 0; k < nn; lo = start[k++]) {
    size_t hi = start[k];
    for (size_t j = lo + 1; j < hi; j++)
      if (keys[j].num < keys[j - 1].num) {
        qsort(keys + lo, hi - lo, sizeof *keys, cmp_port_key);
        break;
      }
  }
  free(start);
  return 0;
}

static int sort_ports(fl_fabric *fab, fl_error *err) {
  size_t n = fab->n_ports;
  port_sort_key *keys = fl_big_malloc((n ? n : 1) * sizeof *keys);
  uint32_t *newid = fl_big_malloc((n ? n : 1) * sizeof *newid);
  fl_port_rec *np = fl_big_malloc((n ? n : 1) * sizeof *np);
  if (!keys || !newid || !np || bucket_ports(fab, keys) != 0) {
    free(keys);
    free(newid);
    free(np);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  for (size_t i = 0; i < n; i++) {
    newid[keys[i].old] = (uint32_t)i;
    np[i] = fab->ports[keys[i].old];
    fl_node_rec *nd = &fab->nodes[np[i].node];
    if (nd->first_port == FL_NONE)
      nd->first_port = (fl_id)i;
  }
  for (size_t l = 0; l < fab->n_links; l++) {
    fab->links[l].a = newid[fab->links[l].a];
    fab->links[l].b = newid[fab->links[l].b];
  }
  for (size_t i = 0; i < fab->n_attrs; i++)
    if (fab->attrs[i].ent_kind == FL_ENT_PORT && fab->attrs[i].id < n)
      fab->attrs[i].id = newid[fab->attrs[i].id];
  free(fab->ports);
  fab->ports = np;
  fab->cap_ports = n ? n : 1;
  free(keys);
  free(newid);
  fl_portdir_free(&fab->port_dir);
  return FL_OK;
}

static int index_port_links(fl_fabric *fab, fl_error *err) {
  size_t np = fab->n_ports;
  fab->port_link_off = fl_big_calloc(np + 1, sizeof *fab->port_link_off);
  fab->port_links =
      fl_big_malloc((2 * fab->n_links + 1) * sizeof *fab->port_links);
  if (!fab->port_link_off || !fab->port_links)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  for (size_t l = 0; l < fab->n_links; l++) {
    fab->port_link_off[fab->links[l].a + 1]++;
    if (fab->links[l].b != fab->links[l].a)
      fab->port_link_off[fab->links[l].b + 1]++;
  }
  for (size_t p = 0; p < np; p++)
    fab->port_link_off[p + 1] += fab->port_link_off[p];
  uint32_t *fill = calloc(np + 1, sizeof *fill);
  if (!fill)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  for (size_t l = 0; l < fab->n_links; l++) {
    fl_id a = fab->links[l].a, b = fab->links[l].b;
    fab->port_links[fab->port_link_off[a] + fill[a]++] = (fl_id)l;
    if (b != a)
      fab->port_links[fab->port_link_off[b] + fill[b]++] = (fl_id)l;
  }
  free(fill);
  return FL_OK;
}

static int cmp_attr(const void *x, const void *y) {
  const fl_attr_rec *a = x, *b = y;
  if (a->ent_kind != b->ent_kind)
    return a->ent_kind < b->ent_kind ? -1 : 1;
  if (a->id != b->id)
    return a->id < b->id ? -1 : 1;
  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  return a->seq < b->seq ? -1 : (a->seq > b->seq);
}

/* Sort attributes by (element, key, seq) and keep the last value per key.
 * (sort_ports() has already rewritten port attributes to the new port ids.) */
static void index_attrs(fl_fabric *fab) {
  if (fab->n_attrs > 1) /* qsort(NULL, 0, ...) is undefined */
    qsort(fab->attrs, fab->n_attrs, sizeof *fab->attrs, cmp_attr);
  size_t w = 0;
  for (size_t i = 0; i < fab->n_attrs; i++) {
    if (w > 0 && fab->attrs[w - 1].ent_kind == fab->attrs[i].ent_kind &&
        fab->attrs[w - 1].id == fab->attrs[i].id &&
        fab->attrs[w - 1].key == fab->attrs[i].key)
      fab->attrs[w - 1] = fab->attrs[i];
    else
      fab->attrs[w++] = fab->attrs[i];
  }
  fab->n_attrs = w;
}

void fl_b_attrs_reindex(fl_fabric *fab) {
  index_attrs(fab);
}

/* Display names: design name / node-name-map name, else the trimmed
 * description, else the GUID. */
static int fill_names(fl_fabric *fab) {
  char buf[32];
  for (size_t i = 0; i < fab->n_nodes; i++) {
    fl_node_rec *r = &fab->nodes[i];
    if (r->name == 0 && r->desc != 0) {
      const char *d = fl_b_atom_str(fab, r->desc);
      size_t len = strlen(d);
      while (len && (*d == ' ' || *d == '\t'))
        d++, len--;
      while (len && (d[len - 1] == ' ' || d[len - 1] == '\t'))
        len--;
      r->name = fl_b_intern(fab, d, len);
    }
    if (r->name == 0) {
      int m =
          snprintf(buf, sizeof buf, "0x%016llx", (unsigned long long)r->guid);
      r->name = fl_b_intern(fab, buf, (size_t)m);
    }
    if (r->name == FL_MAP_ABSENT)
      return FL_ENOMEM;
  }
  return FL_OK;
}

static int build_name_index(fl_fabric *fab) {
  for (size_t i = 0; i < fab->n_nodes; i++) {
    const char *nm = fl_b_atom_str(fab, fab->nodes[i].name);
    if (fl_strmap_put(&fab->name_map, nm, strlen(nm), (uint32_t)i) ==
        FL_MAP_ABSENT)
      return FL_ENOMEM;
  }
  return FL_OK;
}

static int build_indexes(fl_fabric *fab) {
  for (size_t i = 0; i < fab->n_nodes; i++) {
    const fl_node_rec *r = &fab->nodes[i];
    if (r->guid != 0 &&
        fl_u64map_put(&fab->guid_map, r->guid, (uint32_t)i) == FL_MAP_ABSENT)
      return FL_ENOMEM;
  }
  return build_name_index(fab);
}

/* Mark in @dup (n_nodes bytes) every node whose name another node has too;
 * returns how many. The name index maps a name to its first node. */
static size_t mark_shared_names(const fl_fabric *fab, uint8_t *dup) {
  size_t n = 0;
  for (size_t i = 0; i < fab->n_nodes; i++) {
    const char *nm = fl_b_atom_str(fab, fab->nodes[i].name);
    uint32_t first = fl_strmap_get(&fab->name_map, nm, strlen(nm));
    if (first != FL_MAP_ABSENT && first != (uint32_t)i) {
      n += !dup[i] + !dup[first];
      dup[i] = dup[first] = 1;
    }
  }
  return n;
}

int fl_b_unique_names(fl_fabric *fab, fl_error *err) {
  uint8_t *dup = calloc(fab->n_nodes + 1, 1);
  if (!dup)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  if (mark_shared_names(fab, dup) == 0) {
    free(dup);
    return FL_OK;
  }
  /* a GUID shared by several nodes (topology.duplicate-guid) would not
   * tell them apart either: those keep their name */
  for (size_t i = 0; i < fab->n_nodes; i++) {
    uint64_t g = fab->nodes[i].guid;
    uint32_t first = g ? fl_u64map_get(&fab->guid_map, g) : FL_MAP_ABSENT;
    if (first != FL_MAP_ABSENT && first != (uint32_t)i)
      dup[i] = dup[first] = 2;
  }
  int rc = FL_OK;
  for (size_t i = 0; i < fab->n_nodes && rc == FL_OK; i++) {
    fl_node_rec *r = &fab->nodes[i];
    if (dup[i] != 1 || r->guid == 0)
      continue;
    const char *nm = fl_b_atom_str(fab, r->name);
    size_t len = strlen(nm) + 24;
    char *buf = malloc(len);
    if (!buf) {
      rc = FL_ENOMEM;
      break;
    }
    int m =
        snprintf(buf, len, "%s (0x%016llx)", nm, (unsigned long long)r->guid);
    r->name = fl_b_intern(fab, buf, (size_t)m);
    free(buf);
    if (r->name == FL_MAP_ABSENT)
      rc = FL_ENOMEM;
  }
  free(dup);
  if (rc == FL_OK) {
    fl_strmap_free(&fab->name_map);
    memset(&fab->name_map, 0, sizeof fab->name_map);
    rc = build_name_index(fab);
  }
  return rc == FL_OK
             ? FL_OK
             : fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
}

int fl_b_seal(fl_fabric *fab, fl_error *err) {
  int rc = sort_ports(fab, err);
  if (rc == FL_OK)
    rc = index_port_links(fab, err);
  if (rc != FL_OK)
    return rc;
  index_attrs(fab);
  fab->finalized = 1;
  if (fill_names(fab) != FL_OK || build_indexes(fab) != FL_OK)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  return FL_OK;
}

/* ---- lookups ------------------------------------------------------------ */

fl_id fl_b_node_by_guid(fl_fabric *fab, uint64_t guid) {
  uint32_t v = fl_u64map_get(&fab->rt.node_guid_idx, guid);
  return v == FL_MAP_ABSENT ? FL_NONE : v;
}

fl_id fl_b_port_by_guid(fl_fabric *fab, uint64_t guid) {
  uint32_t v = fl_u64map_get(&fab->rt.port_guid_idx, guid);
  if (v != FL_MAP_ABSENT)
    return v;
  fl_id n = fl_b_node_by_guid(fab, guid);
  if (n == FL_NONE || fab->nodes[n].kind != FL_NODE_SWITCH)
    return FL_NONE;
  fl_prov none = {0, 0, 0};
  return fl_b_port(fab, n, 0, none);
}

fl_id fl_fabric_find_port(const fl_fabric *f, fl_id n, uint32_t num) {
  const fl_node_rec *r = n < f->n_nodes ? &f->nodes[n] : NULL;
  if (!r || r->port_recs == 0 || !f->finalized)
    return FL_NONE;
  size_t lo = r->first_port, hi = lo + r->port_recs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (f->ports[mid].num < num)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < (size_t)r->first_port + r->port_recs && f->ports[lo].num == num)
    return (fl_id)lo;
  return FL_NONE;
}
