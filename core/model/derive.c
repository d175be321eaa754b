/*
 * core/derive.c — systems and tiers derived at finalize time.
 *
 * Systems: rail and failure-domain rules group HCAs by host. ibnetdiscover
 * only gives NodeDescription strings such as "dgx-001 mlx5_0" (the Linux
 * default is "<hostname> <ibdev>", set by rdma-core's rdma-ndd), so the host
 * is split off with a regular expression; users with other conventions pass
 * their own (--system-pattern). Switch descriptions of NVIDIA/Mellanox
 * systems read "MF0;<system>:<type>/<board>/U<n>" (libibnetdisc chassis.c),
 * which names the chassis of director ASICs.
 *
 * Tiers: CAs are tier 0 and a switch's tier is its hop distance from the
 * nearest CA, which is the leaf/spine/core rank of a fat tree and of a
 * rail-optimised fabric alike.
 */
#include "model/derive.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fabric_impl.h"

const char FL_DEFAULT_SYSTEM_PATTERN[] =
    "^[[:space:]]*([^[:space:]]+)[[:space:]]+"
    "(mlx[0-9]+_[0-9]+|HCA-[0-9]+|hfi[0-9]+_[0-9]+|qib[0-9]+|irdma[0-9]+|"
    "bnxt_re[0-9]+|rocep[0-9a-z]+|ibp[0-9a-z]+|erdma_[0-9]+|efa_[0-9]+)"
    "[[:space:]]*$";

int fl_pattern_check(const char *pattern, fl_error *err) {
  regex_t re;
  int rc = regcomp(&re, pattern, REG_EXTENDED);
  if (rc != 0) {
    char msg[256];
    regerror(rc, &re, msg, sizeof msg);
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "invalid system pattern '%s': %s", pattern, msg);
  }
  size_t groups = re.re_nsub;
  regfree(&re);
  if (groups < 2)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "system pattern '%s' needs two groups (system, "
                        "device), it has %zu",
                        pattern, groups);
  return FL_OK;
}

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
  regex_t re;
  if (!pattern)
    pattern = FL_DEFAULT_SYSTEM_PATTERN;
  int rc = fl_pattern_check(pattern, err);
  if (rc != FL_OK)
    return rc;
  if (regcomp(&re, pattern, REG_EXTENDED) != 0)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0, "bad system pattern");
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
    if (regexec(&re, d, 3, m, 0) != 0 || m[1].rm_so < 0 || m[2].rm_so < 0)
      continue;
    r->system =
        fl_b_intern(fab, d + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
    if (r->device == 0)
      r->device =
          fl_b_intern(fab, d + m[2].rm_so, (size_t)(m[2].rm_eo - m[2].rm_so));
  }
  regfree(&re);
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

int fl_derive_tiers(fl_fabric *fab, fl_error *err) {
  size_t n = fab->n_nodes;
  uint32_t *dist = malloc((n ? n : 1) * sizeof *dist);
  fl_id *queue = malloc((n ? n : 1) * sizeof *queue);
  if (!dist || !queue) {
    free(dist);
    free(queue);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  size_t head = 0, tail = 0;
  for (size_t i = 0; i < n; i++) {
    dist[i] = UINT32_MAX;
    if (fab->nodes[i].kind == FL_NODE_CA &&
        !fl_is_aggregation_node(fab, (fl_id)i)) {
      dist[i] = 0;
      queue[tail++] = (fl_id)i;
    }
  }
  while (head < tail) {
    fl_id v = queue[head++];
    const fl_node_rec *r = &fab->nodes[v];
    for (uint32_t k = 0; k < r->port_recs; k++) {
      fl_id p = r->first_port + k;
      for (uint32_t j = fab->port_link_off[p]; j < fab->port_link_off[p + 1];
           j++) {
        const fl_link_rec *l = &fab->links[fab->port_links[j]];
        fl_id u = fab->ports[l->a == p ? l->b : l->a].node;
        if (dist[u] != UINT32_MAX || fab->nodes[u].kind != FL_NODE_SWITCH)
          continue;
        dist[u] = dist[v] + 1;
        queue[tail++] = u;
      }
    }
  }
  for (size_t i = 0; i < n; i++) {
    fl_node_rec *r = &fab->nodes[i];
    if (r->tier != FL_TIER_UNKNOWN)
      continue;
    if (r->kind == FL_NODE_CA)
      r->tier = 0;
    else if (r->kind == FL_NODE_SWITCH && dist[i] != UINT32_MAX)
      r->tier = dist[i];
    else
      continue;
    r->tier_derived = 1;
  }
  free(dist);
  free(queue);
  return FL_OK;
}
