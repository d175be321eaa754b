/* SPDX-License-Identifier: MIT */
/*
 * core/model/planes.c — the planes of a multi-plane fabric
 * (fabriclint/planes.h): which plane each switch, CA port and CA is in,
 * (the one-plane copy that rules run on is core/io/plane_subset.c).
 *
 * Cost: O(V + E + max LID).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/planes.h"
#include "fabriclint/routing.h"
#include "model/fabric_impl.h"
#include "model/planes.h"
#include "util/natcmp.h"

/* ---- build: file tags ------------------------------------------------- */

int fl_b_file_plane(fl_fabric *fab, uint32_t file, const char *plane) {
  if (fab->finalized || !plane || !*plane)
    return FL_EINVAL;
  if (file >= fab->cap_file_plane) {
    size_t nc = fab->cap_file_plane ? fab->cap_file_plane : 8;
    while (nc <= file)
      nc *= 2;
    uint32_t *v = realloc(fab->file_plane, nc * sizeof *v);
    if (!v)
      return FL_ENOMEM;
    memset(v + fab->cap_file_plane, 0, (nc - fab->cap_file_plane) * sizeof *v);
    fab->file_plane = v;
    fab->cap_file_plane = nc;
  }
  uint32_t atom = fl_b_intern(fab, plane, (size_t)-1);
  if (atom == UINT32_MAX)
    return FL_ENOMEM;
  fab->file_plane[file] = atom;
  return FL_OK;
}

/* ---- finding planes --------------------------------------------------- */

static int is_switch(const fl_fabric *fab, fl_id n) {
  return fab->nodes[n].kind != FL_NODE_CA;
}

static uint32_t plane_atom(const fl_fabric *fab, uint32_t kind, fl_id id) {
  const char *v = fl_fabric_attr(fab, kind, id, "plane");
  return v && *v ? fl_strmap_get(&fab->atoms, v, strlen(v)) : 0;
}

/* The node at the other end of port @p's first cable, or FL_NONE. */
static fl_id peer_node(const fl_fabric *fab, fl_id p) {
  if (fab->port_link_off[p] == fab->port_link_off[p + 1])
    return FL_NONE;
  const fl_link_rec *l = &fab->links[fab->port_links[fab->port_link_off[p]]];
  fl_id q = l->a == p ? l->b : l->a;
  return fab->ports[q].node;
}

static uint32_t find(uint32_t *up, uint32_t x) {
  while (up[x] != x) {
    up[x] = up[up[x]];
    x = up[x];
  }
  return x;
}

/* ---- hosts' ports ----------------------------------------------------- */

typedef struct home_key {
  uint32_t sys;    /* system atom */
  const char *dev; /* device name ("" none) */
  uint32_t num;    /* port number */
  fl_id port;
} home_key;

static int cmp_home_key(const void *x, const void *y) {
  const home_key *a = x, *b = y;
  if (a->sys != b->sys)
    return a->sys < b->sys ? -1 : 1;
  int c = fl_natcmp(a->dev, b->dev);
  if (!c)
    c = a->num < b->num ? -1 : a->num > b->num;
  if (!c)
    c = a->port < b->port ? -1 : a->port > b->port;
  return c;
}

/* 1 when CA node @n is a compute host's NIC: it has a system and no
 * service `role` (any role other than "compute", as planes.host-planes). */
static int compute_host(const fl_fabric *fab, fl_id n) {
  const char *role = fl_fabric_attr(fab, FL_ENT_NODE, n, "role");
  return fab->nodes[n].system && !(role && *role && strcmp(role, "compute"));
}

/* The CA ports of compute hosts cabled to a switch (with @need_plane: into
 * a plane), sorted by host, device (natural order), port number: a host's
 * ports are a run of equal @sys. *@n gets the count; NULL on ENOMEM. */
static home_key *host_ports(const fl_fabric *fab, int need_plane, size_t *n) {
  size_t np = fab->n_ports, k = 0;
  home_key *v = malloc((np + 1) * sizeof *v);
  if (!v)
    return NULL;
  for (size_t p = 0; p < np; p++) {
    fl_id nd = fab->ports[p].node, m = peer_node(fab, (fl_id)p);
    if (is_switch(fab, nd) || m == FL_NONE || !is_switch(fab, m) ||
        (need_plane && fab->port_plane[p] == FL_NONE) || !compute_host(fab, nd))
      continue;
    const char *dev =
        fab->nodes[nd].device ? fl_b_atom_str(fab, fab->nodes[nd].device) : "";
    v[k++] =
        (home_key){fab->nodes[nd].system, dev, fab->ports[p].num, (fl_id)p};
  }
  qsort(v, k, sizeof *v, cmp_home_key);
  *n = k;
  return v;
}

/* Sort key of a detected plane (a switch component). */
typedef struct comp_key {
  uint32_t c;       /* component */
  uint32_t pos;     /* the NIC position most of its host ports have, mod
                       the component count (nc: none) */
  const char *name; /* its first switch name in natural order */
  uint64_t guid;    /* its lowest switch GUID */
} comp_key;

static int cmp_comp_key(const void *x, const void *y) {
  const comp_key *a = x, *b = y;
  if (a->pos != b->pos)
    return a->pos < b->pos ? -1 : 1;
  int c = fl_natcmp(a->name, b->name);
  if (c)
    return c;
  if (a->guid != b->guid)
    return a->guid < b->guid ? -1 : 1;
  return a->c < b->c ? -1 : a->c > b->c;
}

/* Number the @nc detected planes (switch components @comp per node) so
 * that the names mean something and do not depend on input order: first by
 * the NIC position their host ports have (a host's k-th port, devices in
 * natural order, mod nc; the most common per component, ties to the lower
 * position), so that plane k holds the NICs k, as planes.host-planes'
 * default profile expects; then by the first switch name (natural order),
 * then the lowest switch GUID. @rank gets plane number - 1 per component.
 * 0, or -1 on ENOMEM. O(P log P + V + nc^2). */
static int number_components(const fl_fabric *fab, const uint32_t *comp,
                             uint32_t nc, uint32_t *rank) {
  uint32_t *votes = calloc((size_t)nc * nc, sizeof *votes);
  comp_key *k = calloc(nc, sizeof *k);
  size_t n = 0;
  home_key *v = host_ports(fab, 0, &n);
  if (!votes || !k || !v) {
    free(votes);
    free(k);
    free(v);
    return -1;
  }
  for (size_t s = 0, e; s < n; s = e) {
    for (e = s + 1; e < n && v[e].sys == v[s].sys; e++)
      ;
    for (size_t i = s; e - s >= 2 && i < e; i++) {
      uint32_t c = comp[peer_node(fab, v[i].port)];
      votes[(size_t)c * nc + (i - s) % nc]++;
    }
  }
  for (uint32_t c = 0; c < nc; c++) {
    uint32_t best = 0;
    k[c].c = c;
    k[c].pos = nc;
    for (uint32_t q = 0; q < nc; q++)
      if (votes[(size_t)c * nc + q] > best) {
        best = votes[(size_t)c * nc + q];
        k[c].pos = q;
      }
  }
  for (size_t i = 0; i < fab->n_nodes; i++) {
    uint32_t c = comp[i];
    if (c == FL_NONE)
      continue;
    const char *nm = fl_fabric_node_name(fab, (fl_id)i);
    if (!k[c].name || fl_natcmp(nm, k[c].name) < 0)
      k[c].name = nm;
    if (!k[c].guid || (fab->nodes[i].guid && fab->nodes[i].guid < k[c].guid))
      k[c].guid = fab->nodes[i].guid;
  }
  qsort(k, nc, sizeof *k, cmp_comp_key);
  for (uint32_t j = 0; j < nc; j++)
    rank[k[j].c] = j;
  free(votes);
  free(k);
  free(v);
  return 0;
}

/* Switch components (union-find over switch-to-switch cables) as plane
 * atoms of fresh names "1", "2", ... (number_components()) when they are
 * planes: two or more, each with LIDs, each reusing a LID of another.
 * @sw_atom gets the name per switch node. Returns the number of planes (0: not
 * planes), or -1 on ENOMEM. */
static int detect(fl_fabric *fab, uint32_t *sw_atom) {
  size_t nn = fab->n_nodes;
  uint32_t *up = malloc((nn + 1) * sizeof *up);
  uint32_t *comp = malloc((nn + 1) * sizeof *comp);
  uint32_t *lid_comp = malloc(((size_t)fab->rt.max_lid + 1) * sizeof *lid_comp);
  int rc = 0;
  if (!up || !comp || !lid_comp) {
    rc = -1;
    goto out;
  }
  for (size_t i = 0; i < nn; i++)
    up[i] = (uint32_t)i;
  for (size_t l = 0; l < fab->n_links; l++) {
    fl_id a = fab->ports[fab->links[l].a].node,
          b = fab->ports[fab->links[l].b].node;
    if (is_switch(fab, a) && is_switch(fab, b))
      up[find(up, a)] = find(up, b);
  }
  uint32_t nc = 0; /* components numbered by lowest node id */
  for (size_t i = 0; i < nn; i++)
    comp[i] = FL_NONE;
  for (size_t i = 0; i < nn; i++)
    if (is_switch(fab, (fl_id)i)) {
      uint32_t r = find(up, (uint32_t)i);
      if (comp[r] == FL_NONE)
        comp[r] = nc++;
      comp[i] = comp[r];
    }
  if (nc < 2)
    goto out;
  /* each component's LIDs: a switch's port 0, a CA port by its switch */
  uint8_t *has_lid = calloc(nc, 1), *clash = calloc(nc, 1);
  if (!has_lid || !clash) {
    free(has_lid);
    free(clash);
    rc = -1;
    goto out;
  }
  for (uint32_t l = 0; l <= fab->rt.max_lid; l++)
    lid_comp[l] = FL_NONE;
  for (size_t p = 0; p < fab->n_ports; p++) {
    const fl_port_rec *r = &fab->ports[p];
    if (!r->lid || r->lid > fab->rt.max_lid)
      continue;
    fl_id n = r->node;
    if (is_switch(fab, n) && r->num != 0)
      continue;
    if (!is_switch(fab, n))
      n = peer_node(fab, (fl_id)p);
    if (n == FL_NONE || !is_switch(fab, n))
      continue;
    uint32_t c = comp[n];
    has_lid[c] = 1;
    uint32_t o = lid_comp[r->lid];
    if (o == FL_NONE)
      lid_comp[r->lid] = c;
    else if (o != c)
      clash[o] = clash[c] = 1;
  }
  int planes = 1;
  for (uint32_t c = 0; c < nc; c++)
    planes &= has_lid[c] && clash[c];
  free(has_lid);
  free(clash);
  if (!planes)
    goto out;
  /* up[] is free now: the plane number of each component */
  if (number_components(fab, comp, nc, up) != 0) {
    rc = -1;
    goto out;
  }
  for (size_t i = 0; i < nn; i++)
    if (comp[i] != FL_NONE) {
      char name[16];
      snprintf(name, sizeof name, "%u", up[comp[i]] + 1);
      sw_atom[i] = fl_b_intern(fab, name, (size_t)-1);
      if (sw_atom[i] == UINT32_MAX) {
        rc = -1;
        goto out;
      }
    }
  rc = (int)nc;
out:
  free(up);
  free(comp);
  free(lid_comp);
  return rc;
}

/* Switches without a plane take their tagged neighbours' (BFS over
 * switch-to-switch cables from every tagged switch). */
static int spread(fl_fabric *fab, uint32_t *sw_atom) {
  size_t nn = fab->n_nodes, head = 0, tail = 0;
  fl_id *q = malloc((nn + 1) * sizeof *q);
  if (!q)
    return -1;
  for (size_t i = 0; i < nn; i++)
    if (is_switch(fab, (fl_id)i) && sw_atom[i])
      q[tail++] = (fl_id)i;
  while (head < tail) {
    fl_id n = q[head++];
    const fl_node_rec *r = &fab->nodes[n];
    for (uint32_t k = 0; k < r->port_recs; k++) {
      fl_id p = r->first_port + k;
      for (uint32_t j = fab->port_link_off[p]; j < fab->port_link_off[p + 1];
           j++) {
        const fl_link_rec *l = &fab->links[fab->port_links[j]];
        fl_id m = fab->ports[l->a == p ? l->b : l->a].node;
        if (is_switch(fab, m) && !sw_atom[m]) {
          sw_atom[m] = sw_atom[n];
          q[tail++] = m;
        }
      }
    }
  }
  free(q);
  return 0;
}

/* The index of @atom among the sorted plane names, or FL_NONE. */
static uint32_t plane_index(const fl_fabric *fab, uint32_t atom) {
  for (uint32_t i = 0; atom && i < fab->n_planes; i++)
    if (fab->plane_names[i] == atom)
      return i;
  return FL_NONE;
}

/* Collect the distinct atoms of @sw_atom and of CA tags as sorted plane
 * names. */
static int name_planes(fl_fabric *fab, const uint32_t *sw_atom,
                       const uint32_t *ca_atom) {
  size_t cap = 8, n = 0;
  uint32_t *v = malloc(cap * sizeof *v);
  if (!v)
    return -1;
  for (int pass = 0; pass < 2; pass++) {
    const uint32_t *src = pass ? ca_atom : sw_atom;
    size_t len = pass ? fab->n_ports : fab->n_nodes;
    for (size_t i = 0; i < len; i++) {
      uint32_t a = src[i];
      size_t j = 0;
      while (a && j < n && v[j] != a)
        j++;
      if (!a || j < n)
        continue;
      if (n == cap) {
        uint32_t *w = realloc(v, (cap *= 2) * sizeof *v);
        if (!w) {
          free(v);
          return -1;
        }
        v = w;
      }
      v[n++] = a;
    }
  }
  for (size_t i = 1; i < n; i++) /* a handful of planes: insertion sort */
    for (size_t j = i; j > 0 && fl_natcmp(fl_b_atom_str(fab, v[j - 1]),
                                          fl_b_atom_str(fab, v[j])) > 0;
         j--) {
      uint32_t t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  fab->plane_names = v;
  fab->n_planes = (uint32_t)n;
  return 0;
}

/* ---- home planes ------------------------------------------------------ */

/* The home plane of every port (fabriclint/planes.h): a CA port's `plane`
 * tag when it names a plane; else, for a compute host with two or more CA
 * ports cabled into planes, the plane its position implies (its k-th port,
 * devices in natural order, then port number, in plane k mod N); else the
 * plane it is cabled into. @ca_atom: the CA ports' tags. */
static int home_planes(fl_fabric *fab, const uint32_t *ca_atom) {
  size_t np = fab->n_ports, k = 0;
  for (size_t p = 0; p < np; p++) {
    uint32_t t = ca_atom[p] ? plane_index(fab, ca_atom[p]) : FL_NONE;
    fab->port_home[p] = t != FL_NONE ? t : fab->port_plane[p];
  }
  if (fab->n_planes < 2)
    return 0;
  home_key *v = host_ports(fab, 1, &k);
  if (!v)
    return -1;
  for (size_t s = 0, e; s < k; s = e) {
    for (e = s + 1; e < k && v[e].sys == v[s].sys; e++)
      ;
    if (e - s < 2)
      continue; /* one port: no position to judge it by */
    for (size_t i = s; i < e; i++)
      if (!ca_atom[v[i].port] ||
          plane_index(fab, ca_atom[v[i].port]) == FL_NONE)
        fab->port_home[v[i].port] = (uint32_t)((i - s) % fab->n_planes);
  }
  free(v);
  return 0;
}

int fl_planes_finalize(fl_fabric *fab, fl_error *err) {
  size_t nn = fab->n_nodes, np = fab->n_ports;
  uint32_t *sw_atom = calloc(nn + 1, sizeof *sw_atom);
  uint32_t *ca_atom = calloc(np + 1, sizeof *ca_atom); /* CA port tags */
  fab->node_plane = malloc((nn + 1) * sizeof *fab->node_plane);
  fab->port_plane = malloc((np + 1) * sizeof *fab->port_plane);
  fab->port_home = malloc((np + 1) * sizeof *fab->port_home);
  int rc = FL_OK;
  if (!sw_atom || !ca_atom || !fab->node_plane || !fab->port_plane ||
      !fab->port_home)
    goto nomem;
  int tagged = 0;
  for (size_t i = 0; i < nn; i++) {
    const fl_node_rec *r = &fab->nodes[i];
    uint32_t na = plane_atom(fab, FL_ENT_NODE, (fl_id)i);
    tagged |= na != 0;
    if (is_switch(fab, (fl_id)i)) {
      sw_atom[i] = na;
      continue;
    }
    for (uint32_t k = 0; k < r->port_recs; k++) {
      fl_id p = r->first_port + k;
      uint32_t pa = plane_atom(fab, FL_ENT_PORT, p);
      tagged |= pa != 0;
      ca_atom[p] = pa ? pa : na;
    }
  }
  if (tagged) {
    fab->planes_source = FL_PLANES_ATTR;
    if (spread(fab, sw_atom) != 0)
      goto nomem;
  } else {
    int d = detect(fab, sw_atom);
    if (d < 0)
      goto nomem;
    fab->planes_source = d ? FL_PLANES_DETECTED : FL_PLANES_NONE;
  }
  if (fab->planes_source != FL_PLANES_NONE &&
      name_planes(fab, sw_atom, ca_atom) != 0)
    goto nomem;
  for (size_t i = 0; i < nn; i++)
    fab->node_plane[i] = FL_NONE;
  for (size_t p = 0; p < np; p++) {
    fl_id n = fab->ports[p].node;
    uint32_t pl;
    if (is_switch(fab, n)) {
      pl = plane_index(fab, sw_atom[n]);
    } else {
      fl_id m = peer_node(fab, (fl_id)p);
      pl = m != FL_NONE && is_switch(fab, m) ? plane_index(fab, sw_atom[m])
                                             : FL_NONE;
      if (pl == FL_NONE)
        pl = plane_index(fab, ca_atom[p]);
    }
    fab->port_plane[p] = pl;
  }
  for (size_t i = 0; i < nn; i++) {
    const fl_node_rec *r = &fab->nodes[i];
    if (is_switch(fab, (fl_id)i)) {
      fab->node_plane[i] = plane_index(fab, sw_atom[i]);
      continue;
    }
    uint32_t pl = FL_NONE, mixed = 0;
    for (uint32_t k = 0; k < r->port_recs; k++) {
      uint32_t q = fab->port_plane[r->first_port + k];
      if (q == FL_NONE)
        continue;
      if (pl != FL_NONE && q != pl)
        mixed = 1;
      pl = q;
    }
    fab->node_plane[i] = mixed ? FL_NONE : pl;
  }
  if (fab->n_planes < 2 && fab->planes_source == FL_PLANES_ATTR) {
    /* one plane named: the fabric is one subnet */
    fab->planes_source = FL_PLANES_NONE;
    fab->n_planes = 0;
    for (size_t i = 0; i < nn; i++)
      fab->node_plane[i] = FL_NONE;
    for (size_t p = 0; p < np; p++)
      fab->port_plane[p] = FL_NONE;
  }
  if (home_planes(fab, ca_atom) != 0)
    goto nomem;
  goto out;
nomem:
  rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
out:
  free(sw_atom);
  free(ca_atom);
  return rc;
}

void fl_planes_free(fl_fabric *fab) {
  free(fab->file_plane);
  free(fab->plane_names);
  free(fab->node_plane);
  free(fab->port_plane);
  free(fab->port_home);
  fab->file_plane = fab->plane_names = fab->node_plane = fab->port_plane =
      fab->port_home = NULL;
  fab->n_planes = 0;
}

/* ---- accessors -------------------------------------------------------- */

uint32_t fl_fabric_plane_count(const fl_fabric *fab) {
  return fab && fab->finalized ? fab->n_planes : 0;
}

const char *fl_fabric_plane_name(const fl_fabric *fab, uint32_t i) {
  return fab && fab->finalized && i < fab->n_planes
             ? fl_b_atom_str(fab, fab->plane_names[i])
             : NULL;
}

uint32_t fl_fabric_planes_source(const fl_fabric *fab) {
  return fab && fab->finalized ? fab->planes_source : FL_PLANES_NONE;
}

uint32_t fl_fabric_node_plane(const fl_fabric *fab, fl_id n) {
  return fab && fab->finalized && fab->node_plane && n < fab->n_nodes
             ? fab->node_plane[n]
             : FL_NONE;
}

uint32_t fl_fabric_port_plane(const fl_fabric *fab, fl_id p) {
  return fab && fab->finalized && fab->port_plane && p < fab->n_ports
             ? fab->port_plane[p]
             : FL_NONE;
}

uint32_t fl_fabric_port_home_plane(const fl_fabric *fab, fl_id p) {
  return fab && fab->finalized && fab->port_home && p < fab->n_ports
             ? fab->port_home[p]
             : FL_NONE;
}
