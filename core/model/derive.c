/* SPDX-License-Identifier: MIT */
/*
 * core/model/derive.c — systems and tiers derived at finalize time.
 *
 * Systems: rail and failure-domain rules group HCAs by host. ibnetdiscover
 * only gives NodeDescription strings such as "dgx-001 mlx5_0" (the Linux
 * default is "<hostname> <ibdev>", set by rdma-core's rdma-ndd), so the host
 * is split off by a pattern (model/sysname.c: the default one scanned by
 * hand, a user's --system-pattern as a regular expression). Switch descriptions
 * of NVIDIA/Mellanox systems read "MF0;<system>:<type>/<board>/U<n>"
 * (libibnetdisc chassis.c), which names the chassis of director ASICs.
 *
 * Tiers: CAs are tier 0 and a switch's tier is its hop distance from the
 * nearest CA, which is the leaf/spine/core rank of a fat tree and of a
 * rail-optimised fabric alike.
 */
#include "model/derive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/roles.h"
#include "model/fabric_impl.h"
#include "model/sysname.h"
#include "model/tier_type.h"
#include "util/unionfind.h"

static void split_mf0(fl_fabric *fab, fl_node_rec *r) {
  const char *d = fl_b_atom_str(fab, r->desc);
  if (strncmp(d, "MF0;", 4) != 0)
    return;
  const char *s = d + 4, *colon = strchr(s, ':');
  if (!colon || colon == s)
    return;
  r->system = fl_b_intern(fab, s, (size_t)(colon - s));
}

int fl_derive_systems(fl_fabric *fab, const char *pattern, fl_error *err) {
  fl_sysmatch sm;
  int rc = fl_sysmatch_init(&sm, pattern, err);
  if (rc != FL_OK)
    return rc;
  for (size_t i = 0; i < fab->n_nodes; i++) {
    fl_node_rec *r = &fab->nodes[i];
    if (r->system != 0)
      continue;
    if (r->kind == FL_NODE_SWITCH) {
      if (r->desc != 0)
        split_mf0(fab, r);
      continue;
    }
    /* the display name: a node-name-map entry wins over the description.
     * Copied: interning may move the string table it lives in. */
    char d[512];
    snprintf(d, sizeof d, "%s",
             fl_b_atom_str(fab, r->name ? r->name : r->desc));
    regmatch_t m[3];
    if (fl_sysmatch_run(&sm, d, m) != 0 || m[1].rm_so < 0 || m[2].rm_so < 0)
      continue;
    r->system =
        fl_b_intern(fab, d + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
    if (r->device == 0)
      r->device =
          fl_b_intern(fab, d + m[2].rm_so, (size_t)(m[2].rm_eo - m[2].rm_so));
  }
  fl_sysmatch_free(&sm);
  return FL_OK;
}

int fl_is_aggregation_node(const fl_fabric *fab, fl_id n) {
  if (n >= fab->n_nodes || fab->nodes[n].kind != FL_NODE_CA)
    return 0;
  if (fab->nodes[n].devid == 0xcf09)
    return 1;
  return strstr(fl_b_atom_str(fab, fab->nodes[n].desc), "Aggregation Node") !=
         NULL;
}

/* ---- tiers ----------------------------------------------------------------
 *
 * The old rule, "1 + hop distance from the nearest CA", ranks every switch
 * that carries a CA as a leaf: a fabric whose service hosts (UFM, storage,
 * login) hang off core switches then gets one switch per "tier" and every
 * rule reading tiers judges the wrong switches. Tiers now come from the
 * switch graph alone, as OpenSM's up*\/down* ranks it from its leaves:
 *
 *  1. Director chassis (core/model/chassis.c: one MF0 chassis name, or one
 *     system image GUID among cabled ASICs) that are cabled to each other
 *     are one unit; all its ASICs get one tier.
 *  2. Endpoints per unit: cables to CAs that are not SHARP Aggregation Nodes
 *     and whose role (attribute) is not a documented non-compute role
 *     (fabriclint/roles.h; absent, "compute" or an unknown word).
 *  3. Per connected component of the switch graph (switch-to-switch cables
 *     only), the seed leaves are the units holding at least half as many
 *     endpoints as the fullest unit of that component ("the leaves that hold
 *     most compute endpoints"), except a unit cabled to two or more such
 *     units with more endpoints (a spine carrying a few service hosts:
 *     leaves are not cabled to several leaves). A component with no
 *     endpoints at all has no tiers (FL_TIER_UNKNOWN).
 *  4. Multi-source BFS from the seeds over switch-to-switch cables: tier =
 *     1 + distance.
 *  5. A unit that is not a seed but carries endpoints, sits at distance 2 and
 *     whose every switch neighbour is at distance 1, is a leaf too (tier 1)
 *     when one seed leaf is cabled to all of those neighbours: a sparsely
 *     filled leaf or a management leaf with two uplinks. A core switch with
 *     service hosts is cabled to spines of several pods and stays a core.
 *  6. Units 3 or more hops above the seeds (beyond a three-tier top) that
 *     form a connected group carrying endpoints or reaching 4 hops are a
 *     pod hanging off the top (Selene's management pod off the core), ranked
 * downward from it: units with endpoints or 4+ hops up are its leaves (tier 1),
 * the others its spines (tier 2); a pod never ranks above the core
 *     (tier_pods()).
 *
 * Cost: O(V + E) for steps 1-4 and 6; step 5 costs the sum of the neighbours'
 * degrees over the (few) candidate units.
 *
 * The shape is irregular when a switch-to-switch cable joins two units of the
 * same tier or skips a tier; fl_derive_tiers() counts such cables and the
 * units carrying endpoints above tier 1 (fl_fabric_shape_irregular()).
 */

typedef struct tier_work {
  size_t n;
  uint32_t *rep;  /* union-find parent, then the unit of each node */
  uint32_t *next; /* next member of the same unit (UINT32_MAX ends) */
  uint32_t *ep;   /* per unit: compute endpoints */
  uint32_t *dist; /* per unit: distance from the seeds */
  uint32_t *comp; /* per unit: switch-graph component */
  uint32_t *mark, *seed_epoch, *cnt, *stamp; /* per unit: step 5 scratch */
  uint8_t *noncompute; /* per node: role other than compute */
  uint8_t *fleet;      /* per node: part of a fleet plan (mark_fleet()) */
  fl_id *queue;
} tier_work;

static fl_id other_node(const fl_fabric *fab, const fl_link_rec *l, fl_id p) {
  return fab->ports[l->a == p ? l->b : l->a].node;
}

/* Per node, @pred applied to the value of its attribute @key (one pass over
 * the attribute records; the last value set wins), into @out; 0 for nodes
 * without it. */
static void node_attr_flags(const fl_fabric *fab, const char *key,
                            int (*pred)(const char *), uint8_t *out) {
  memset(out, 0, fab->n_nodes);
  uint32_t k = fl_strmap_get(&fab->atoms, key, strlen(key));
  if (k == FL_MAP_ABSENT)
    return;
  uint32_t *seq = calloc(fab->n_nodes ? fab->n_nodes : 1, sizeof *seq);
  for (size_t i = 0; i < fab->n_attrs; i++) {
    const fl_attr_rec *a = &fab->attrs[i];
    if (a->ent_kind != FL_ENT_NODE || a->key != k || a->id >= fab->n_nodes)
      continue;
    if (seq && seq[a->id] > a->seq + 1)
      continue;
    if (seq)
      seq[a->id] = a->seq + 1;
    out[a->id] = (uint8_t)(pred(fl_b_atom_str(fab, a->val)) != 0);
  }
  free(seq);
}

/* Nodes whose role attribute names a documented non-compute role
 * (fabriclint/roles.h: storage, ufm, ...). An unknown role is the default
 * role, compute, as for the rail rules (rail-alignment.unknown-role says
 * so). */
static void mark_noncompute(const fl_fabric *fab, uint8_t *off) {
  node_attr_flags(fab, "role", fl_role_is_service, off);
}

static int non_empty(const char *v) {
  return v && *v;
}

/* Nodes of a fleet plan (attribute `fleet`: a SONiC lab graph is a fleet
 * of separate testbeds, DUTs, fan-outs and servers, not one Clos fabric):
 * their switches get no tier, so no rule judges them by Clos tiers (real
 * corpus F15: fan-out "tiers", 1G management links beside 100G DUT ports,
 * "uplink asymmetry" of a fan-out). */
static void mark_fleet(const fl_fabric *fab, uint8_t *fleet) {
  node_attr_flags(fab, "fleet", non_empty, fleet);
}

static int is_compute_ca(const fl_fabric *fab, const uint8_t *noncompute,
                         fl_id n) {
  return fab->nodes[n].kind == FL_NODE_CA && !fl_is_aggregation_node(fab, n) &&
         !noncompute[n];
}

/* ASICs of one director chassis (core/model/chassis.c). */
static int same_chassis(const fl_fabric *fab, fl_id a, fl_id b) {
  uint32_t c = fl_fabric_node_chassis(fab, a);
  return a != b && c != FL_NONE && c == fl_fabric_node_chassis(fab, b);
}

/* Runs the statements for every cable of node v, with u its far node
 * ("continue" skips to the next cable). */
#define FOR_CABLES(fab, v, u, ...)                                             \
  do {                                                                         \
    const fl_node_rec *r_ = &(fab)->nodes[v];                                  \
    for (uint32_t k_ = 0; k_ < r_->port_recs; k_++) {                          \
      fl_id p_ = r_->first_port + k_;                                          \
      for (uint32_t j_ = (fab)->port_link_off[p_];                             \
           j_ < (fab)->port_link_off[p_ + 1]; j_++) {                          \
        fl_id u = other_node(fab, &(fab)->links[(fab)->port_links[j_]], p_);   \
        __VA_ARGS__                                                            \
      }                                                                        \
    }                                                                          \
  } while (0)

/* Step 1 and 2: units and their endpoint counts. */
static void tier_units(const fl_fabric *fab, tier_work *w) {
  for (size_t i = 0; i < w->n; i++) {
    w->rep[i] = (uint32_t)i;
    w->next[i] = UINT32_MAX;
    w->ep[i] = 0;
    w->dist[i] = UINT32_MAX;
    w->comp[i] = UINT32_MAX;
    w->mark[i] = w->seed_epoch[i] = 0;
  }
  for (size_t i = 0; i < w->n; i++) {
    if (fab->nodes[i].kind != FL_NODE_SWITCH)
      continue;
    FOR_CABLES(fab, (fl_id)i, u, {
      if (same_chassis(fab, (fl_id)i, u)) {
        fl_uf_join(w->rep, (uint32_t)i, u);
      }
    });
  }
  for (size_t i = w->n; i-- > 0;) {
    uint32_t r = fl_uf_find(w->rep, (uint32_t)i);
    w->rep[i] = r;
    if (r != i) {
      w->next[i] = w->next[r];
      w->next[r] = (uint32_t)i;
    }
  }
  for (size_t i = 0; i < w->n; i++) {
    if (fab->nodes[i].kind != FL_NODE_SWITCH)
      continue;
    FOR_CABLES(fab, (fl_id)i, u, {
      if (is_compute_ca(fab, w->noncompute, u))
        w->ep[w->rep[i]]++;
    });
  }
}

/* A candidate cabled to two or more candidates with more endpoints is
 * above them (a spine carrying a few service hosts), not a leaf: leaves are
 * not cabled to several leaves. Two leaves cabled to each other (a small
 * flat fabric) stay leaves. cnt[] flags the candidates; mark[] is stamped
 * with epoch n + v + 1 (step 5 uses v + 1) to count each neighbour once. */
static int outranked(const fl_fabric *fab, tier_work *w, fl_id v) {
  uint32_t above = 0, epoch = (uint32_t)(w->n + v + 1);
  for (uint32_t m = v; m != UINT32_MAX; m = w->next[m])
    FOR_CABLES(fab, m, u, {
      if (fab->nodes[u].kind != FL_NODE_SWITCH)
        continue;
      uint32_t r = w->rep[u];
      if (r == v || !w->cnt[r] || w->ep[r] <= w->ep[v] || w->mark[r] == epoch)
        continue;
      w->mark[r] = epoch;
      if (++above >= 2)
        return 1;
    });
  return 0;
}

/* Step 3: components of the switch graph, their fullest unit, the seeds. */
static size_t tier_seeds(const fl_fabric *fab, tier_work *w) {
  size_t seeds = 0;
  uint32_t ncomp = 0;
  for (size_t root = 0; root < w->n; root++) {
    if (fab->nodes[root].kind != FL_NODE_SWITCH || w->rep[root] != root ||
        w->comp[root] != UINT32_MAX)
      continue;
    size_t head = 0, tail = 0, first = seeds;
    uint32_t best = 0;
    w->comp[root] = ncomp;
    w->queue[seeds + tail++] = (fl_id)root;
    while (head < tail) {
      fl_id v = w->queue[seeds + head++];
      if (w->ep[v] > best)
        best = w->ep[v];
      for (uint32_t m = v; m != UINT32_MAX; m = w->next[m])
        FOR_CABLES(fab, m, u, {
          if (fab->nodes[u].kind != FL_NODE_SWITCH ||
              w->comp[w->rep[u]] != UINT32_MAX)
            continue;
          w->comp[w->rep[u]] = ncomp;
          w->queue[seeds + tail++] = w->rep[u];
        });
    }
    /* candidates: at least half the endpoints of the fullest unit */
    for (size_t i = 0; i < tail; i++) {
      fl_id v = w->queue[first + i];
      w->cnt[v] = best > 0 && (uint64_t)w->ep[v] * 2 >= best;
    }
    /* keep the seeds of this component at the front of the queue */
    for (size_t i = 0; i < tail; i++) {
      fl_id v = w->queue[first + i];
      if (w->cnt[v] && !outranked(fab, w, v)) {
        w->dist[v] = 0;
        w->queue[seeds++] = v;
      }
    }
    ncomp++;
  }
  return seeds;
}

/* Step 4: BFS over switch-to-switch cables from the seeds at queue[0..]. */
static void tier_bfs(const fl_fabric *fab, tier_work *w, size_t tail) {
  size_t head = 0;
  while (head < tail) {
    fl_id v = w->queue[head++];
    for (uint32_t m = v; m != UINT32_MAX; m = w->next[m])
      FOR_CABLES(fab, m, u, {
        if (fab->nodes[u].kind != FL_NODE_SWITCH ||
            w->dist[w->rep[u]] != UINT32_MAX)
          continue;
        w->dist[w->rep[u]] = w->dist[v] + 1;
        w->queue[tail++] = w->rep[u];
      });
  }
}

/* Step 5: is unit @v (distance 2, endpoints) a leaf under the spines of one
 * seed leaf? Scratch arrays are stamped with epoch v + 1, so they need no
 * reset between candidates. */
static int under_one_seed(const fl_fabric *fab, tier_work *w, fl_id v) {
  uint32_t nb = 0, epoch = v + 1;
  int found = 0;
  for (uint32_t m = v; m != UINT32_MAX; m = w->next[m])
    FOR_CABLES(fab, m, u, {
      if (fab->nodes[u].kind != FL_NODE_SWITCH)
        continue;
      uint32_t s = w->rep[u];
      if (w->dist[s] != 1)
        return 0;
      if (w->mark[s] != epoch) {
        w->mark[s] = epoch;
        nb++;
      }
    });
  for (uint32_t m = v; m != UINT32_MAX; m = w->next[m])
    FOR_CABLES(fab, m, u, {
      if (fab->nodes[u].kind != FL_NODE_SWITCH || w->mark[w->rep[u]] != epoch)
        continue;
      uint32_t s = w->rep[u];
      w->mark[s] = 0; /* each neighbour unit once */
      for (uint32_t q = s; q != UINT32_MAX; q = w->next[q])
        FOR_CABLES(fab, q, l0, {
          if (fab->nodes[l0].kind != FL_NODE_SWITCH || w->dist[w->rep[l0]] != 0)
            continue;
          uint32_t l = w->rep[l0];
          if (w->seed_epoch[l] != epoch) {
            w->seed_epoch[l] = epoch;
            w->cnt[l] = 0;
            w->stamp[l] = UINT32_MAX;
          }
          if (w->stamp[l] != s) {
            w->stamp[l] = s;
            if (++w->cnt[l] == nb)
              found = 1;
          }
        });
    });
  return found;
}

/* Step 6: a pod hanging off the top. Units POD_DIST or more switch hops
 * above the seeds are beyond a three-tier fabric's top; a connected group
 * of them that carries compute endpoints, or reaches POD_DIST + 1 hops
 * (nothing is above a four-tier fabric's top), is a pod cabled to the top,
 * not a fourth and fifth tier (Selene: the management leaves MLG01-04/05 under
 * the management spines MSPINE3-01/4-01, which are cabled to the core
 * CCORE*; by hop count the spines were tier 4 and the leaves tier 5, so 14
 * core switches "had uplinks" and were "oversubscribed 15.75:1"). Its units
 * are ranked downward from the top: those carrying endpoints, and those
 * further than POD_DIST, are its leaves (distance 0); the others, cabled to
 * the top, its spines (distance 1). Another group (the top of a four-tier
 * fabric: one layer, no endpoints) keeps its hop count. mark[] flags the groups
 * with endpoints, cnt[] numbers them (scratch after step 5). */
#define POD_DIST 3u

static void tier_pods(const fl_fabric *fab, tier_work *w) {
  uint32_t pods = 0;
  for (size_t i = 0; i < w->n; i++)
    w->cnt[i] = UINT32_MAX;
  for (size_t root = 0; root < w->n; root++) {
    if (w->rep[root] != root || w->dist[root] == UINT32_MAX ||
        w->dist[root] < POD_DIST || w->cnt[root] != UINT32_MAX)
      continue;
    size_t head = 0, tail = 0;
    w->mark[pods] = 0;
    w->cnt[root] = pods;
    w->queue[tail++] = (fl_id)root;
    while (head < tail) {
      fl_id v = w->queue[head++];
      w->mark[pods] |= w->ep[v] > 0 || w->dist[v] > POD_DIST;
      for (uint32_t m = v; m != UINT32_MAX; m = w->next[m])
        FOR_CABLES(fab, m, u, {
          uint32_t r = w->rep[u];
          if (fab->nodes[u].kind != FL_NODE_SWITCH || w->cnt[r] != UINT32_MAX ||
              w->dist[r] == UINT32_MAX || w->dist[r] < POD_DIST)
            continue;
          w->cnt[r] = pods;
          w->queue[tail++] = r;
        });
    }
    pods++;
  }
  for (size_t i = 0; i < w->n; i++)
    if (w->rep[i] == i && w->cnt[i] != UINT32_MAX && w->mark[w->cnt[i]])
      w->dist[i] = w->ep[i] > 0 || w->dist[i] > POD_DIST ? 0 : 1;
}

/* Irregularity: switch-to-switch cables between units of the same tier or
 * skipping a tier, and units with endpoints above tier 1. */
static void tier_irregular(fl_fabric *fab, const tier_work *w) {
  fab->shape_flat_links = fab->shape_skip_links = fab->shape_upper_hosts = 0;
  for (size_t l = 0; l < fab->n_links; l++) {
    fl_id a = fab->ports[fab->links[l].a].node;
    fl_id b = fab->ports[fab->links[l].b].node;
    if (fab->nodes[a].kind != FL_NODE_SWITCH ||
        fab->nodes[b].kind != FL_NODE_SWITCH || w->rep[a] == w->rep[b])
      continue;
    uint32_t ta = fab->nodes[a].tier, tb = fab->nodes[b].tier;
    if (ta == FL_TIER_UNKNOWN || tb == FL_TIER_UNKNOWN)
      continue;
    if (ta == tb)
      fab->shape_flat_links++;
    else if (ta > tb + 1 || tb > ta + 1)
      fab->shape_skip_links++;
  }
  for (size_t i = 0; i < w->n; i++)
    if (fab->nodes[i].kind == FL_NODE_SWITCH && w->rep[i] == i &&
        w->ep[i] > 0 && fab->nodes[i].tier != FL_TIER_UNKNOWN &&
        fab->nodes[i].tier > 1)
      fab->shape_upper_hosts++;
}

void fl_shape_facts_get(const fl_fabric *fab, fl_shape_facts *out) {
  out->flat_links = fab->shape_flat_links;
  out->skip_links = fab->shape_skip_links;
  out->upper_endpoint_switches = fab->shape_upper_hosts;
}

static void tier_work_free(tier_work *w) {
  free(w->rep);
  free(w->next);
  free(w->ep);
  free(w->dist);
  free(w->comp);
  free(w->mark);
  free(w->seed_epoch);
  free(w->cnt);
  free(w->stamp);
  free(w->queue);
  free(w->noncompute);
  free(w->fleet);
}

static int tier_work_init(tier_work *w, size_t n) {
  size_t m = n ? n : 1;
  memset(w, 0, sizeof *w);
  w->n = n;
  uint32_t **arr[] = {&w->rep,        &w->next, &w->ep,    &w->dist, &w->comp,
                      &w->seed_epoch, &w->cnt,  &w->stamp, &w->mark};
  for (size_t i = 0; i < sizeof arr / sizeof arr[0]; i++)
    if (!(*arr[i] = malloc(m * sizeof **arr[i])))
      return FL_ENOMEM;
  w->queue = malloc(m * sizeof *w->queue);
  w->noncompute = malloc(m);
  w->fleet = malloc(m);
  return w->queue && w->noncompute && w->fleet ? FL_OK : FL_ENOMEM;
}

/* The tier of switch @n, else the one its device type states. */
static uint32_t tier_or_type(const fl_fabric *fab, fl_id n) {
  if (fab->nodes[n].tier != FL_TIER_UNKNOWN)
    return fab->nodes[n].tier;
  return fl_tier_of_type(fl_fabric_attr(fab, FL_ENT_NODE, n, "device-type"),
                         NULL);
}

fl_id fl_type_tier_conflict(const fl_fabric *fab, fl_id n) {
  uint32_t t =
      fl_tier_of_type(fl_fabric_attr(fab, FL_ENT_NODE, n, "device-type"), NULL);
  if (t == FL_TIER_UNKNOWN)
    return FL_NONE;
  FOR_CABLES(fab, n, u, {
    if (u == n || fab->nodes[u].kind != FL_NODE_SWITCH ||
        same_chassis(fab, n, u))
      continue;
    uint32_t tu = tier_or_type(fab, u);
    if (tu != FL_TIER_UNKNOWN && (tu == t || tu > t + 1 || t > tu + 1))
      return u;
  });
  return FL_NONE;
}

/* Tiers from the device type (issue 30): a switch the shape leaves
 * without a tier (no compute endpoint in its part of the graph, as in a
 * SONiC minigraph of routers) takes the tier its declared type states
 * (model/tier_type.h), marked FL_TIER_FROM_TYPE so the evidence says so.
 * The types must agree with the cables: a Clos cables adjacent layers
 * only, so a switch cabled to one of the same tier by type (two
 * "SpineRouter"s, as in a sample whose peers are all typed alike) or to
 * one two layers away keeps no tier (fl_type_tier_conflict()). A tier the
 * shape gives is kept (the explanation weighs the type against it); a
 * given tier (attribute, annotation) wins over both; a fleet plan's
 * switches (separate testbeds) stay without. O(V + E). */
static void tier_by_type(fl_fabric *fab, const uint8_t *fleet) {
  for (size_t i = 0; i < fab->n_nodes; i++) {
    fl_node_rec *r = &fab->nodes[i];
    if (r->kind != FL_NODE_SWITCH || r->tier != FL_TIER_UNKNOWN || fleet[i])
      continue;
    uint32_t t = fl_tier_of_type(
        fl_fabric_attr(fab, FL_ENT_NODE, (fl_id)i, "device-type"), NULL);
    if (t == FL_TIER_UNKNOWN || fl_type_tier_conflict(fab, (fl_id)i) != FL_NONE)
      continue;
    r->tier = t;
    r->tier_derived = FL_TIER_FROM_TYPE;
  }
}

int fl_derive_tiers(fl_fabric *fab, fl_error *err) {
  tier_work w;
  if (tier_work_init(&w, fab->n_nodes) != FL_OK) {
    tier_work_free(&w);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  mark_noncompute(fab, w.noncompute);
  tier_units(fab, &w);
  tier_bfs(fab, &w, tier_seeds(fab, &w));
  for (size_t i = 0; i < w.n; i++)
    if (fab->nodes[i].kind == FL_NODE_SWITCH && w.rep[i] == i && w.ep[i] > 0 &&
        w.dist[i] == 2 && under_one_seed(fab, &w, (fl_id)i))
      w.dist[i] = 0;
  tier_pods(fab, &w);
  mark_fleet(fab, w.fleet);
  for (size_t i = 0; i < w.n; i++) {
    fl_node_rec *r = &fab->nodes[i];
    if (r->tier != FL_TIER_UNKNOWN || (r->kind == FL_NODE_SWITCH && w.fleet[i]))
      continue;
    if (r->kind == FL_NODE_CA)
      r->tier = 0;
    else if (r->kind == FL_NODE_SWITCH && w.dist[w.rep[i]] != UINT32_MAX)
      r->tier = w.dist[w.rep[i]] + 1;
    else
      continue;
    r->tier_derived = 1;
  }
  tier_irregular(fab, &w);
  tier_by_type(fab, w.fleet);
  tier_work_free(&w);
  return FL_OK;
}
