/* SPDX-License-Identifier: MIT */
/*
 * core/model/graph.c — the igraph view (see graph.h).
 *
 * igraph 0.10 (Debian 12 libigraph-dev 0.10.2) API: igraph_create,
 * igraph_connected_components, igraph_articulation_points, igraph_bridges.
 * igraph's default error handler aborts the process; fabriclint installs
 * igraph_error_handler_ignore once (process-global igraph state, the only
 * global the library touches) and checks every return code instead.
 *
 * A CA does not forward (issue 12, class 5): switches joined only through a
 * multi-port HCA are separate subnets. Every connectivity query therefore
 * walks switch-to-switch and switch-to-CA cables only, never through a CA:
 *  - a CA belongs with its "home" cable, the first cable of its lowest
 *    cabled port; in the igraph view each of its other cables ends on a
 *    vertex of its own (n_nodes + k), so a CA is never an articulation
 *    point and never joins two components (components, articulation
 *    points and bridges read that view);
 *  - BFS distances leave a CA only when it is the source;
 *  - masked components attach a CA through its first cable still up.
 */
#include "model/graph.h"

#include <stdlib.h>
#include <string.h>

#include "model/fabric_impl.h"

static void install_igraph_handlers(void) {
  igraph_set_error_handler(igraph_error_handler_ignore);
  igraph_set_warning_handler(igraph_warning_handler_ignore);
}

/* The home cable of CA @n: the first cable of its lowest cabled port that
 * is not switched off (@link_off, @node_off may be NULL); FL_NONE when none. */
static fl_id home_link(const fl_fabric *fab, fl_id n, const uint8_t *node_off,
                       const uint8_t *link_off) {
  const fl_node_rec *r = &fab->nodes[n];
  for (uint32_t k = 0; k < r->port_recs; k++) {
    fl_id p = r->first_port + k;
    for (uint32_t j = fab->port_link_off[p]; j < fab->port_link_off[p + 1];
         j++) {
      fl_id l = fab->port_links[j];
      const fl_link_rec *lr = &fab->links[l];
      fl_id u = fab->ports[lr->a == p ? lr->b : lr->a].node;
      if ((link_off && link_off[l]) || (node_off && node_off[u]))
        continue;
      return l;
    }
  }
  return FL_NONE;
}

/* May a walk cross link @l from node @v to node @u? Not through a CA other
 * than by its home cable (see the header). */
static int crosses(const fl_fabric *fab, fl_id v, fl_id u, fl_id l,
                   const uint8_t *node_off, const uint8_t *link_off) {
  if (fab->nodes[v].kind == FL_NODE_CA &&
      home_link(fab, v, node_off, link_off) != l)
    return 0;
  if (fab->nodes[u].kind == FL_NODE_CA &&
      home_link(fab, u, node_off, link_off) != l)
    return 0;
  return 1;
}

/* The igraph vertex of link @l's end on node @n: the node itself, or a
 * vertex of its own for a CA's cable other than its home cable. */
static igraph_integer_t end_vertex(const fl_fabric *fab, fl_id n, fl_id l,
                                   igraph_integer_t *extra) {
  if (fab->nodes[n].kind == FL_NODE_CA && home_link(fab, n, NULL, NULL) != l)
    return (*extra)++;
  return n;
}

int fl_graph_build(fl_fabric *fab, fl_error *err) {
  install_igraph_handlers();
  igraph_vector_int_t edges;
  if (igraph_vector_int_init(&edges, (igraph_integer_t)(2 * fab->n_links)) !=
      IGRAPH_SUCCESS)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory (graph)");
  igraph_integer_t extra = (igraph_integer_t)fab->n_nodes;
  for (size_t l = 0; l < fab->n_links; l++) {
    fl_id a = fab->ports[fab->links[l].a].node;
    fl_id b = fab->ports[fab->links[l].b].node;
    VECTOR(edges)[2 * l] = end_vertex(fab, a, (fl_id)l, &extra);
    VECTOR(edges)[2 * l + 1] = end_vertex(fab, b, (fl_id)l, &extra);
  }
  int rc = igraph_create(&fab->graph, &edges, extra, IGRAPH_UNDIRECTED);
  igraph_vector_int_destroy(&edges);
  if (rc != IGRAPH_SUCCESS)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "igraph_create failed: %s",
                        igraph_strerror(rc));
  fab->has_graph = 1;
  return FL_OK;
}

int fl_graph_components(const fl_fabric *fab, uint32_t *membership,
                        uint32_t *n_comp) {
  if (!fab->has_graph || !membership || !n_comp)
    return FL_EINVAL;
  igraph_vector_int_t memb;
  if (igraph_vector_int_init(&memb, 0) != IGRAPH_SUCCESS)
    return FL_ENOMEM;
  igraph_integer_t no = 0;
  int rc =
      igraph_connected_components(&fab->graph, &memb, NULL, &no, IGRAPH_WEAK);
  if (rc != IGRAPH_SUCCESS) {
    igraph_vector_int_destroy(&memb);
    return FL_ENOMEM;
  }
  /* Renumber so components are ordered by their smallest node id. */
  uint32_t *map = malloc((size_t)(no ? no : 1) * sizeof *map);
  if (!map) {
    igraph_vector_int_destroy(&memb);
    return FL_ENOMEM;
  }
  memset(map, 0xff, (size_t)(no ? no : 1) * sizeof *map);
  uint32_t next = 0;
  for (size_t i = 0; i < fab->n_nodes; i++) {
    igraph_integer_t c = VECTOR(memb)[i];
    if (map[c] == UINT32_MAX)
      map[c] = next++;
    membership[i] = map[c];
  }
  *n_comp = next;
  free(map);
  igraph_vector_int_destroy(&memb);
  return FL_OK;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Copies @v sorted, keeping values below @limit (real nodes or links). */
static int copy_sorted(const igraph_vector_int_t *v, fl_id *out, uint32_t *n,
                       size_t limit) {
  igraph_integer_t len = igraph_vector_int_size(v);
  size_t k = 0;
  for (igraph_integer_t i = 0; i < len; i++)
    if ((size_t)VECTOR(*v)[i] < limit)
      out[k++] = (fl_id)VECTOR(*v)[i];
  if (k > 1)
    qsort(out, k, sizeof *out, cmp_u32);
  *n = (uint32_t)k;
  return FL_OK;
}

int fl_graph_articulation_points(const fl_fabric *fab, fl_id *out,
                                 uint32_t *n) {
  if (!fab->has_graph || !out || !n)
    return FL_EINVAL;
  igraph_vector_int_t res;
  if (igraph_vector_int_init(&res, 0) != IGRAPH_SUCCESS)
    return FL_ENOMEM;
  int rc = igraph_articulation_points(&fab->graph, &res);
  if (rc == IGRAPH_SUCCESS)
    copy_sorted(&res, out, n, fab->n_nodes);
  igraph_vector_int_destroy(&res);
  return rc == IGRAPH_SUCCESS ? FL_OK : FL_ENOMEM;
}

int fl_graph_bridges(const fl_fabric *fab, fl_id *out, uint32_t *n) {
  if (!fab->has_graph || !out || !n)
    return FL_EINVAL;
  igraph_vector_int_t res;
  if (igraph_vector_int_init(&res, 0) != IGRAPH_SUCCESS)
    return FL_ENOMEM;
  int rc = igraph_bridges(&fab->graph, &res);
  if (rc == IGRAPH_SUCCESS)
    copy_sorted(&res, out, n, fab->n_links);
  igraph_vector_int_destroy(&res);
  return rc == IGRAPH_SUCCESS ? FL_OK : FL_ENOMEM;
}

/* Our own BFS over the port/link CSR: no igraph matrix for one source. */
int fl_graph_bfs_distances(const fl_fabric *fab, fl_id src, int32_t *dist) {
  if (!fab->finalized || !dist || src >= fab->n_nodes)
    return FL_EINVAL;
  fl_id *queue = malloc((fab->n_nodes ? fab->n_nodes : 1) * sizeof *queue);
  if (!queue)
    return FL_ENOMEM;
  for (size_t i = 0; i < fab->n_nodes; i++)
    dist[i] = -1;
  size_t head = 0, tail = 0;
  dist[src] = 0;
  queue[tail++] = src;
  while (head < tail) {
    fl_id v = queue[head++];
    const fl_node_rec *r = &fab->nodes[v];
    if (v != src && r->kind == FL_NODE_CA)
      continue; /* a CA does not forward */
    for (uint32_t k = 0; k < r->port_recs; k++) {
      fl_id p = r->first_port + k;
      for (uint32_t j = fab->port_link_off[p]; j < fab->port_link_off[p + 1];
           j++) {
        const fl_link_rec *l = &fab->links[fab->port_links[j]];
        fl_id u = fab->ports[l->a == p ? l->b : l->a].node;
        if (dist[u] >= 0)
          continue;
        dist[u] = dist[v] + 1;
        queue[tail++] = u;
      }
    }
  }
  free(queue);
  return FL_OK;
}

/* ---- what-if queries: elements removed ------------------------------------
 */

/* Components by our own BFS over the port/link CSR, skipping removed nodes
 * and links: failure-domain what-if runs this once per domain value, so it
 * must cost O(V + E) with no graph copy. */
int fl_graph_components_masked(const fl_fabric *fab, const uint8_t *node_off,
                               const uint8_t *link_off, uint32_t *membership,
                               uint32_t *n_comp) {
  if (!fab->finalized || !membership || !n_comp)
    return FL_EINVAL;
  size_t n = fab->n_nodes;
  fl_id *queue = malloc((n ? n : 1) * sizeof *queue);
  if (!queue)
    return FL_ENOMEM;
  for (size_t i = 0; i < n; i++)
    membership[i] = UINT32_MAX;
  uint32_t comp = 0;
  for (size_t root = 0; root < n; root++) {
    if (membership[root] != UINT32_MAX || (node_off && node_off[root]))
      continue;
    size_t head = 0, tail = 0;
    membership[root] = comp;
    queue[tail++] = (fl_id)root;
    while (head < tail) {
      fl_id v = queue[head++];
      const fl_node_rec *r = &fab->nodes[v];
      for (uint32_t k = 0; k < r->port_recs; k++) {
        fl_id p = r->first_port + k;
        for (uint32_t j = fab->port_link_off[p]; j < fab->port_link_off[p + 1];
             j++) {
          fl_id l = fab->port_links[j];
          if (link_off && link_off[l])
            continue;
          const fl_link_rec *lr = &fab->links[l];
          fl_id u = fab->ports[lr->a == p ? lr->b : lr->a].node;
          if (membership[u] != UINT32_MAX || (node_off && node_off[u]) ||
              !crosses(fab, v, u, l, node_off, link_off))
            continue;
          membership[u] = comp;
          queue[tail++] = u;
        }
      }
    }
    comp++;
  }
  free(queue);
  *n_comp = comp;
  return FL_OK;
}

/* Max flow between two node sets: a directed igraph with both directions of
 * every kept link, a super source feeding @src and a super sink fed by @dst
 * (capacity: the sum of all link capacities, i.e. unbounded).
 * igraph_maxflow_value (push-relabel). */
int fl_graph_maxflow(const fl_fabric *fab, const fl_id *src, uint32_t n_src,
                     const fl_id *dst, uint32_t n_dst, const double *capacity,
                     const uint8_t *node_off, const uint8_t *link_off,
                     double *value) {
  if (!fab->finalized || !value || (n_src && !src) || (n_dst && !dst))
    return FL_EINVAL;
  *value = 0;
  if (!n_src || !n_dst)
    return FL_OK;
  install_igraph_handlers();
  igraph_integer_t n = (igraph_integer_t)fab->n_nodes, S = n, T = n + 1;
  igraph_vector_int_t edges;
  igraph_vector_t cap;
  if (igraph_vector_int_init(&edges, 0) != IGRAPH_SUCCESS)
    return FL_ENOMEM;
  if (igraph_vector_init(&cap, 0) != IGRAPH_SUCCESS) {
    igraph_vector_int_destroy(&edges);
    return FL_ENOMEM;
  }
  double total = 0;
  int rc = FL_OK;
  for (size_t l = 0; l < fab->n_links && rc == FL_OK; l++) {
    const fl_link_rec *lr = &fab->links[l];
    fl_id a = fab->ports[lr->a].node, b = fab->ports[lr->b].node;
    if ((link_off && link_off[l]) ||
        (node_off && (node_off[a] || node_off[b])) || a == b ||
        !crosses(fab, a, b, (fl_id)l, NULL, NULL))
      continue; /* a CA forwards nothing: only its home cable counts */
    double c = capacity ? capacity[l] : fl_fabric_link_gbps(fab, (fl_id)l);
    if (c <= 0)
      continue;
    total += c;
    if (igraph_vector_int_push_back(&edges, a) ||
        igraph_vector_int_push_back(&edges, b) ||
        igraph_vector_push_back(&cap, c) ||
        igraph_vector_int_push_back(&edges, b) ||
        igraph_vector_int_push_back(&edges, a) ||
        igraph_vector_push_back(&cap, c))
      rc = FL_ENOMEM;
  }
  for (uint32_t i = 0; i < n_src && rc == FL_OK; i++)
    if (src[i] < fab->n_nodes && !(node_off && node_off[src[i]]) &&
        (igraph_vector_int_push_back(&edges, S) ||
         igraph_vector_int_push_back(&edges, src[i]) ||
         igraph_vector_push_back(&cap, total + 1)))
      rc = FL_ENOMEM;
  for (uint32_t i = 0; i < n_dst && rc == FL_OK; i++)
    if (dst[i] < fab->n_nodes && !(node_off && node_off[dst[i]]) &&
        (igraph_vector_int_push_back(&edges, dst[i]) ||
         igraph_vector_int_push_back(&edges, T) ||
         igraph_vector_push_back(&cap, total + 1)))
      rc = FL_ENOMEM;
  igraph_t g;
  if (rc == FL_OK &&
      igraph_create(&g, &edges, n + 2, IGRAPH_DIRECTED) != IGRAPH_SUCCESS)
    rc = FL_ENOMEM;
  if (rc == FL_OK) {
    igraph_real_t v = 0;
    if (igraph_maxflow_value(&g, &v, S, T, &cap, NULL) != IGRAPH_SUCCESS)
      rc = FL_ENOMEM;
    else
      *value = v;
    igraph_destroy(&g);
  }
  igraph_vector_int_destroy(&edges);
  igraph_vector_destroy(&cap);
  return rc;
}
