/* SPDX-License-Identifier: MIT */
/*
 * core/model/hostprof.h — GPU<->NIC host profiles (internal; issue 16).
 *
 * A host profile is what one GPU server's own tools say about its PCIe
 * layout: which GPU sits near which NIC. Two loaders make one
 * (core/io/nccl_topo.c: NCCL's NCCL_TOPO_DUMP_FILE XML;
 * core/io/nvsmi_topo.c: `nvidia-smi topo -m`), both through the same
 * pairing rule (fl_hostprof_pair(), NCCL's own: see hostprof.c), and hand
 * it to the fabric with fl_b_hostprof_add(). A profile names no host: at
 * fl_fabric_finalize() (fl_hostprof_attach()) it is attached to
 *   - the one host whose name is the file's base name up to its first dot
 *     (`dgx-001.xml`, `dgx-001.nvidia-smi.txt`), when a CA of that host
 *     exists: a per-host capture;
 *   - else every host with a CA whose device (`mlx5_0`) the profile lists:
 *     one capture stands for a fleet of identical servers.
 * A host named by a profile never takes a fleet profile; a host two fleet
 * profiles match is an error (name the files after their hosts), and so is
 * a profile that matches no CA at all (wrong fabric, or no topology given).
 *
 * What attaches is two node attributes on every CA of the host, read by the
 * rail-alignment plugin (docs/rules/rail-alignment.md, "GPU affinity"):
 *   - `gpu-nics`: the whole pairing, entries `GPU,NIC,PATH,SWITCH` joined by
 *     `;` in GPU order, then the NICs no GPU is paired with, with GPU `-`
 *     (PATH: the PCIe distance class PIX, PXB, PHB, NODE or SYS of the pair,
 *     for an unpaired NIC its nearest GPU's; SWITCH: the PCIe bus id of the
 *     bridge the pair shares, or `-` when the input does not say):
 *     "0,mlx5_0,PXB,0000:03:00.0;1,mlx5_0,PXB,0000:03:00.0;-,mlx5_1,SYS,-"
 *   - `host-profile`: the input's path.
 */
#ifndef FABRICLINT_CORE_MODEL_HOSTPROF_H
#define FABRICLINT_CORE_MODEL_HOSTPROF_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/error.h"
#include "fabriclint/fabric.h"

/** PCIe distance classes, nearest first (nvidia-smi's and NCCL's names). */
#define FL_PCI_PIX  1u /**< at most one PCIe bridge (one switch) */
#define FL_PCI_PXB  2u /**< several PCIe bridges, not the host bridge */
#define FL_PCI_PHB  3u /**< through a PCIe host bridge (the CPU) */
#define FL_PCI_NODE 4u /**< between host bridges of one NUMA node */
#define FL_PCI_SYS  5u /**< across the SMP link between NUMA nodes */

/** fl_pci_class_name() — "PIX" ... "SYS" for FL_PCI_*, "?" otherwise. */
const char *fl_pci_class_name(uint32_t cls);

/**
 * fl_hostprof — one parsed profile, built by a loader.
 * @n_gpus GPUs with indexes @gpu[i] (CUDA device / nvidia-smi GPU number,
 * ascending), @n_nics NICs named @nic[k] (RDMA device names, owned), the
 * distance class of GPU i to NIC k in @dist[i * @n_nics + k] (FL_PCI_*),
 * and for that pair the shared bridge's bus id @sw[i * @n_nics + k]
 * (owned, NULL when unknown). Free with fl_hostprof_free().
 */
typedef struct fl_hostprof {
  uint32_t n_gpus, n_nics;
  uint32_t *gpu;
  char **nic;
  uint8_t *dist;
  char **sw;
} fl_hostprof;

/** fl_hostprof_init() — allocate an empty profile of @n_gpus x @n_nics
 * (arrays zeroed); FL_OK or FL_ENOMEM. */
int fl_hostprof_init(fl_hostprof *p, uint32_t n_gpus, uint32_t n_nics);

/** fl_hostprof_free() — free what @p owns; @p is then empty. */
void fl_hostprof_free(fl_hostprof *p);

/**
 * fl_hostprof_pair() — NCCL's choice of NIC for each GPU (channel 0 of
 * ncclTopoGetLocalNet(), NCCL src/graph/topo.cc): the GPU's local NICs are
 * those at its smallest distance class; the local GPUs of the first of
 * them are those at that NIC's smallest class; the GPU takes local NIC
 * number (index mod local GPUs, bit-mirrored when the local NIC count is a
 * power of two) mod local NICs. Writes NIC indexes into @nic_of[n_gpus].
 * Pure; O(G x N x (G + N)).
 */
void fl_hostprof_pair(const fl_hostprof *p, uint32_t *nic_of);

/**
 * fl_hostprof_string() — the `gpu-nics` attribute value of @p (see the
 * header comment) in a malloc'd string, or NULL on ENOMEM.
 */
char *fl_hostprof_string(const fl_hostprof *p);

/**
 * fl_b_hostprof_add() — hand profile @p of input @path to @fab (the fabric
 * takes what @p owns; @p is emptied). @line is where the profile begins,
 * for errors. FL_OK, FL_EINVAL (fabric finalized) or FL_ENOMEM.
 */
int fl_b_hostprof_add(fl_fabric *fab, const char *path, fl_hostprof *p,
                      fl_error *err);

/**
 * fl_hostprof_attach() — the step of fl_fabric_finalize() after systems
 * and names: attach every profile as the header comment says. FL_OK,
 * FL_EPARSE (a profile matching nothing, a host matched twice; @err names
 * the input) or FL_ENOMEM. O(CAs x profile NICs).
 */
int fl_hostprof_attach(fl_fabric *fab, fl_error *err);

/** fl_hostprof_free_all() — free the profiles @fab holds. */
void fl_hostprof_free_all(fl_fabric *fab);

#endif
