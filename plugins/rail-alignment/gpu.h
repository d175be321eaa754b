/* SPDX-License-Identifier: MIT */
/*
 * plugins/rail-alignment/gpu.h — GPU<->NIC affinity rules of the
 * rail-alignment plugin (internal; issue 16; docs/rules/rail-alignment.md,
 * "GPU affinity").
 *
 * A host profile (NCCL topology XML or `nvidia-smi topo -m`, attached by
 * the core to every CA of its host as the `gpu-nics` and `host-profile`
 * attributes; core/model/hostprof.h) says which NIC NCCL pairs with each
 * GPU. Rail alignment on the host side is GPU i <-> NIC i <-> rail-i leaf,
 * one to one; these rules check the three links of that chain:
 *   - gpu-shared-nic: two GPUs resolve to one NIC (a PCIe-switch layout
 *     with one NIC for two GPUs): host side only, no rails needed;
 *   - gpu-rail: a GPU's NIC is cabled to another rail's leaf (the GPU-level
 *     consequence of cross-rail and swapped cables, or its NIC is missing);
 *   - gpu-order: GPU i is not paired with the NIC of rail i (the i-th rail
 *     in natural order), so GPU i of this host and of hosts built otherwise
 *     meet on different rails.
 * rail_analysis.c resolves NICs, rails and leaves; it hands the result over as
 * an rg_view, so this file needs none of its internals.
 */
#ifndef FABRICLINT_PLUGINS_RAIL_GPU_H
#define FABRICLINT_PLUGINS_RAIL_GPU_H

#include <stdint.h>

#include "fabriclint/plugin.h"

/** One NIC as rail_analysis.c resolved it (strings borrowed from the fabric or
 * the analysis; valid during the check). */
typedef struct rg_nic {
  fl_id node, leaf;
  uint32_t leaf_port;
  const char *host, *dev;
  const char *rail;      /* its rail label; NULL: not a compute NIC */
  const char *leaf_rail; /* its leaf's rail label, NULL unknown */
  int leaf_inferred;     /* the leaf's rail is a majority inference */
  fl_id fix_leaf;        /* a leaf of its rail in its SU, or FL_NONE */
} rg_nic;

/** The resolved NICs and the compute rails that have a leaf, in natural
 * order (both arrays owned by the view: free() them; strings borrowed). */
typedef struct rg_view {
  rg_nic *nic;
  uint32_t n_nic;
  const char **rails;
  uint32_t n_rails;
} rg_view;

/**
 * rail_gpu_view() — (rail.c) fill @v from the cached rail analysis. 0 with
 * @v filled (free v->nic and v->rails), 1 after api->fail (out of memory, bad
 * parameter). A fabric that is not rail-optimised gives an empty view.
 */
int rail_gpu_view(const fl_host_api *api, fl_ctx *ctx, void *data, rg_view *v);

/** The check() functions of the three rules (gpu.c); @data is the
 * plugin's state, passed on to rail_gpu_view(). */
int rg_check_shared(const fl_host_api *api, fl_ctx *ctx, void *data);
int rg_check_rail(const fl_host_api *api, fl_ctx *ctx, void *data);
int rg_check_order(const fl_host_api *api, fl_ctx *ctx, void *data);

#endif
