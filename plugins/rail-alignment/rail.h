/* SPDX-License-Identifier: MIT */
/*
 * plugins/rail-alignment/rail.h — the model the rail-alignment files share:
 * rail maps, NICs, leaves and the cached analysis (internal).
 */
#ifndef FABRICLINT_PLUGINS_RAIL_RAIL_H
#define FABRICLINT_PLUGINS_RAIL_RAIL_H

#include <stdint.h>

#include "fabriclint/plugin.h"
#include "names.h"

#define NO_RAIL     (-1)
#define NON_COMPUTE (-2)
#define MAX_MAP     256

typedef struct map_ent {
  char device[64];
  char rail[32]; /* "-" for non-compute */
  char role[32];
} map_ent;

typedef struct rail_map {
  map_ent e[MAX_MAP];
  uint32_t n;
  int generic; /* device index = rail */
  char name[64];
} rail_map;

typedef struct nic {
  fl_id node;
  fl_id leaf;            /* switch node, or FL_NONE */
  char name[128];        /* as users know it: "host-03 ens1f0np0" */
  const char *sys, *dev; /* host and device (borrowed from the fabric) */
  const char *rail_attr; /* the NIC's `rail` attribute, or NULL */
  uint32_t port;         /* NIC port number */
  uint32_t leaf_port;
  int32_t rail; /* label index, NO_RAIL (unresolved), NON_COMPUTE */
  int32_t host; /* host index, -1 when unresolved */
  const char *role;
  const char *unresolved; /* why, or NULL */
  uint8_t eth;            /* cabled at an Ethernet rate (RoCE) */
  uint8_t role_guessed;   /* role from the name/NIC-count heuristic */
  uint8_t role_unknown;   /* role neither compute nor a service role */
  /* rails by cabling when hosts name their NICs differently (rail_naming.c):
   * foreign: named in another scheme than most NICs (pending); by_cabling:
   * the rail was taken from where the cables of hosts named alike land, not
   * from the name (named_rail, tr_best of tr_total cables, naming group
   * `group`); weak: that inference rests on few hosts or a thin majority */
  uint8_t foreign, by_cabling, weak;
  int32_t named_rail, group;
  uint32_t tr_best, tr_total;
} nic;

typedef struct leaf {
  fl_id node;
  int32_t rail; /* label index, or NO_RAIL */
  int inferred;
  uint32_t su;
  uint32_t n_compute;
  uint32_t majority; /* NICs of the leaf's rail */
  uint32_t n_rails;  /* distinct rails among its NICs */
} leaf;

typedef struct analysis {
  const fl_fabric *fab;
  fl_fabric_key fkey; /* the fabric and pass it is of */
  char key[512];
  rail_map map;
  char **labels; /* rail labels, sorted */
  uint32_t n_labels;
  nic *nics;
  uint32_t n_nics;
  char **hosts; /* host names, sorted */
  uint32_t n_hosts;
  rn_set labels_by_name, hosts_by_name; /* hash indexes of the sorted sets */
  uint8_t labels_natdup, hosts_natdup;  /* see rn_sorted_find() */
  uint32_t *host_su;
  uint8_t *host_partial; /* host has NICs that could not be resolved */
  leaf *leaves;
  uint32_t n_leaves;
  int32_t *leaf_of_node; /* node -> leaf index */
  uint32_t n_sus;
  uint32_t *host_off, *host_idx; /* NICs by host (CSR) */
  uint32_t *leaf_off, *leaf_idx; /* NICs by leaf, in port order (CSR) */
  int inferred_any;
  int applicable;  /* the fabric is rail-optimised (see rail_applicable) */
  char scheme[32]; /* device naming scheme in device mode, or "" */
  char **groups;   /* naming groups (rail_naming.c): "mlx5_0/mlx5_3/..." */
  uint32_t n_groups;
} analysis;

typedef struct rail_state {
  const fl_host_api *api;
  analysis *a;
} rail_state;

static inline int32_t host_find(const analysis *a, const char *s) {
  return rn_sorted_find(a->hosts, a->n_hosts, &a->hosts_by_name,
                        a->hosts_natdup, s);
}

/* ---- rail_profiles.c */

int rl_load_map_file(const char *path, rail_map *m, char *why, size_t size);
int rl_load_profile(const char *name, rail_map *m, char *why, size_t size);
const char *rl_device_rail(const rail_map *m, const char *dev, char *buf,
                           size_t size, const char **role);

/* ---- rail_roles.c */

int rl_guess_roles(const fl_host_api *api, const fl_fabric *f, analysis *a);

/* ---- rail_naming.c */

int rl_rails_by_cabling(const fl_host_api *api, fl_ctx *ctx, const fl_fabric *f,
                        analysis *a, int infer);
const char *rl_naming_assumption(const analysis *a, const nic *x, char *buf,
                                 size_t size);

/* ---- rail_analysis.c */

void rl_leaf_rail(const fl_host_api *api, const fl_fabric *f, analysis *a,
                  uint32_t L, const uint32_t *idx, uint32_t n, int infer,
                  uint32_t *cnt);
int rl_leaf_rails(const fl_host_api *api, const fl_fabric *f, analysis *a,
                  int infer);
analysis *rl_get_analysis(const fl_host_api *api, fl_ctx *ctx, rail_state *st);
int rail_init(const fl_host_api *api, void **data);
void rail_fini(void *data);

#endif /* FABRICLINT_PLUGINS_RAIL_RAIL_H */
