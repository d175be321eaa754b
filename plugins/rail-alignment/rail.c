/* SPDX-License-Identifier: MIT */
/*
 * plugins/rail-alignment/rail.c — every GPU NIC on its rail (rule id prefix
 * `rail-alignment`).
 *
 * In rail-optimised AI fabrics (NVIDIA DGX SuperPOD, Spectrum-X, Alibaba
 * HPN) NIC k of every host of a scalable unit (SU) lands on the leaf of rail
 * k, so that the k-th GPUs of all hosts talk through one switch hop. One
 * crossed cable silently halves that host's collective bandwidth.
 *
 * Model used (all through fl_host_api, nothing InfiniBand-specific):
 *  - a NIC is a CA node cabled to a switch (its leaf); its host is the
 *    node's system and its device the node's device, both derived from the
 *    node description or node-name-map entry ("dgx-001 mlx5_3") or given by
 *    a design;
 *  - a NIC's rail is its `rail` attribute (design), else the profile's rail
 *    for its device (profiles/NAME.map, or map=FILE), else, with no profile,
 *    its device name ("mlx5_3"), which is right on any platform whose NIC
 *    names are the same on every host;
 *  - a leaf's rail is its `rail` attribute, else the majority rail of its
 *    NICs (inference; findings say so);
 *  - SUs are the `su` attributes, else the groups of leaves that share hosts.
 * NICs whose host or device cannot be determined, or whose device name does
 * not fit the profile or the naming of the other NICs, are reported as
 * unresolved and never guessed.
 *
 * Files: rail_profiles.c (rail maps), rail_analysis.c (NICs, rails,
 * leaves, SUs), rail_roles.c (roles guessed), gpu.c (GPU affinity rules);
 * the rules: rail_cross.c, rail_leaves.c, rail_role_rules.c, rail_shape.c,
 * rail_unresolved.c, their helpers rail_report.c (shared: rail_rules.h);
 * this file: the view gpu.c reads and the plugin's descriptor.
 *
 * Sources: DGX H100 User Guide, Table 6 "Network Modules" (profile data);
 * DGX SuperPOD reference architectures (rail-optimised SUs);
 * docs/rules/rail-alignment.md.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fabriclint/roles.h"
#include "fabriclint/view.h"
#include "gpu.h"
#include "names.h"
#include "rail.h"
#include "rail_rules.h"

/* ---- the view the GPU affinity rules read (gpu.h) ---------------------- */

int rail_gpu_view(const fl_host_api *api, fl_ctx *ctx, void *data, rg_view *v) {
  const analysis *a = rl_get_analysis(api, ctx, data);
  memset(v, 0, sizeof *v);
  if (!a)
    return 1;
  v->nic = calloc(a->n_nics ? a->n_nics : 1, sizeof *v->nic);
  if (!v->nic) {
    api->fail(ctx, "out of memory");
    return 1;
  }
  for (uint32_t i = 0; i < a->n_nics; i++) {
    const nic *x = &a->nics[i];
    if (x->host < 0 || x->rail == NO_RAIL || x->leaf == FL_NONE)
      continue;
    const leaf *lf = &a->leaves[a->leaf_of_node[x->leaf]];
    rg_nic *r = &v->nic[v->n_nic++];
    r->node = x->node;
    r->leaf = x->leaf;
    r->leaf_port = x->leaf_port;
    r->host = x->sys;
    r->dev = x->dev;
    r->rail = x->rail >= 0 ? a->labels[x->rail] : NULL;
    r->leaf_rail = lf->rail >= 0 ? a->labels[lf->rail] : NULL;
    r->leaf_inferred = lf->inferred;
    r->fix_leaf = x->rail >= 0 && x->rail != lf->rail
                      ? rail_leaf(a, x->rail, lf->su)
                      : FL_NONE;
  }
  /* compute rails that have a leaf, in natural order (labels are sorted) */
  uint8_t *has = calloc(a->n_labels ? a->n_labels : 1, 1);
  const char **rails = calloc(a->n_labels ? a->n_labels : 1, sizeof *rails);
  if (!has || !rails) {
    free(has);
    free(rails);
    free(v->nic);
    api->fail(ctx, "out of memory");
    return 1;
  }
  for (uint32_t L = 0; L < a->n_leaves; L++)
    if (a->leaves[L].rail >= 0)
      has[a->leaves[L].rail] = 1;
  for (uint32_t r = 0; r < a->n_labels; r++)
    if (has[r])
      rails[v->n_rails++] = a->labels[r];
  free(has);
  v->rails = rails;
  return 0;
}

/* ---- descriptors
 * ------------------------------------------------------------------------------
 */

static const fl_param_def P_PROFILE = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "profile",
    "device",
    NULL,
    "NIC-to-rail map: device (rail = device name, the default), generic "
    "(device index = rail: mlx5_N -> N, HCA-N -> N-1), dgx-h100, dgx-h200, "
    "dgx-a100 (shipped maps)",
    NULL,
    NULL};
static const fl_param_def P_MAP = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "map",
    "",
    NULL,
    "a user map file, lines `DEVICE RAIL [ROLE]` (RAIL - = not a compute "
    "NIC); overrides profile",
    NULL,
    NULL};
static const fl_param_def P_INFER = {
    sizeof(fl_param_def),
    FL_PARAM_BOOL,
    "infer",
    "1",
    NULL,
    "infer a leaf's rail from the majority of its NICs when the leaf has no "
    "rail attribute",
    NULL,
    NULL};
static const fl_param_def P_ROLES = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "compute-roles",
    "compute",
    NULL,
    "comma-separated roles whose NICs sit on compute rails (others are left "
    "out of the rail rules; on RoCE they must not land on rail leaves)",
    NULL,
    NULL};
static const fl_param_def P_INFER_ROLES = {
    sizeof(fl_param_def),
    FL_PARAM_BOOL,
    "infer-roles",
    "1",
    NULL,
    "guess the role of hosts with no role attribute from a service word in "
    "the host name (ufm, login, storage, mgmt, ...) or a single NIC where "
    "most hosts have several; the guess is reported by rail-alignment.roles",
    NULL,
    NULL};
static const fl_param_def *const PARAMS[] = {&P_PROFILE, &P_MAP, &P_INFER,
                                             &P_ROLES, &P_INFER_ROLES};

#define RULE(var, sev, on, rid, summ, hlp, fn)                                 \
  static const fl_rule_def var = {                                             \
      sizeof(fl_rule_def), sev, rid, summ, hlp, on, 0, PARAMS, 5, fn}
/* a host's role is the same in every plane: judged once on the whole of a
 * multi-plane fabric (the others run per plane) */
#define RULE_ALL_PLANES(var, sev, on, rid, summ, hlp, fn)                      \
  static const fl_rule_def var = {                                             \
      sizeof(fl_rule_def), sev,    rid, summ, hlp, on,                         \
      FL_NEEDS_ALL_PLANES, PARAMS, 5,   fn}

RULE(R_CROSS, FL_SEV_ERROR, 1, "rail-alignment.cross-rail",
     "a NIC lands on a leaf that serves another rail",
     "NIC k of every host must land on the leaf of rail k. Names the host, "
     "NIC, leaf and port, the rail it belongs to, and a free port of the "
     "right leaf. On RoCE (Ethernet) fabrics, storage/management NICs on a "
     "compute rail leaf are reported here too; on InfiniBand they are not "
     "(the SM and storage must sit on the fabric).",
     check_cross);
RULE(R_SWAP, FL_SEV_ERROR, 1, "rail-alignment.swapped",
     "two NICs of one host are crossed between two rail leaves",
     "One finding per crossed pair, naming both cables and the exact swap "
     "that fixes them.",
     check_swapped);
RULE(R_MIXED, FL_SEV_WARNING, 1, "rail-alignment.mixed-leaf",
     "a leaf serves NICs of several rails with no majority",
     "A rail leaf carries one rail. When no rail has a strict majority of "
     "its NICs, the leaf's rail cannot be established.",
     check_mixed);
RULE(R_INCOMPLETE, FL_SEV_WARNING, 1, "rail-alignment.incomplete-host",
     "a host lacks a NIC on some rail of its SU, or has two on one",
     "Rails of an SU are those of its leaves. A missing NIC is often an "
     "unplugged or dead cable (the HCA is then absent from discovery).",
     check_incomplete);
RULE(R_SU, FL_SEV_WARNING, 1, "rail-alignment.su-shape",
     "scalable units differ in rail count or hosts per rail leaf",
     "SUs of one fabric are built alike; a smaller or larger SU is either a "
     "plan error or missing cabling.",
     check_su_shape);
RULE(R_ORDER, FL_SEV_INFO, 0, "rail-alignment.port-order",
     "within a rail leaf, hosts are not cabled in host order",
     "Cabling hygiene (off by default): host N on port N makes field work "
     "and audits easier.",
     check_port_order);
/* info: unknown is not wrong (a NIC not checked is no fault of the fabric) */
RULE(R_UNRESOLVED, FL_SEV_INFO, 1, "rail-alignment.unresolved",
     "NICs whose host or rail could not be determined",
     "Rather than guess, NICs without a host name (factory-default node "
     "descriptions), outside the profile, or named unlike the other NICs "
     "where the cabling of hosts named alike does not tell their rail are "
     "listed here (at info: unknown is not wrong) and left out of the other "
     "rules. Give a node-name map, a profile or map=FILE.",
     check_unresolved);

RULE(R_ROLES, FL_SEV_INFO, 1, "rail-alignment.roles",
     "hosts whose role was guessed, not given",
     "Hosts with no role attribute are guessed to be non-compute (UFM, "
     "login, storage, management) from a service word in their name or a "
     "single NIC where most hosts have several; rail rules then leave them "
     "alone. One finding lists them; give role= attributes (design XML or an "
     "annotation file) or infer-roles=0 to decide otherwise.",
     check_roles);

RULE_ALL_PLANES(
    R_UNKNOWN_ROLE, FL_SEV_WARNING, 1, "rail-alignment.unknown-role",
    "hosts whose role attribute is not a known role",
    "A role that is neither in compute-roles nor a documented service role "
    "(" FL_SERVICE_ROLES ") is a typo or a site's own word. Such hosts are "
    "judged as compute hosts (the default role), never silently left out of "
    "the rail rules; one finding per value names it and its hosts. Add the "
    "value to compute-roles, or give a service role.",
    check_unknown_role);

RULE(R_GPU_SHARED, FL_SEV_WARNING, 1, "rail-alignment.gpu-shared-nic",
     "two GPUs of a host resolve to one NIC (host profile)",
     "From a host profile (NCCL topology XML, nvidia-smi topo -m): NCCL "
     "pairs each GPU with its nearest NIC; when a PCIe switch holds two "
     "GPUs and one NIC, both GPUs use that NIC and another NIC serves none. "
     "One finding per profile names the GPUs, the NIC, the PCIe switch and "
     "the hosts (with a count).",
     rg_check_shared);
RULE(R_GPU_RAIL, FL_SEV_ERROR, 1, "rail-alignment.gpu-rail",
     "a GPU's NIC lands on another rail's leaf (host profile)",
     "The GPU-level consequence of a crossed or misplaced cable: GPU i's "
     "nearest NIC (host profile) is cabled to a leaf of another rail, is "
     "missing from the fabric, or is not a compute NIC. One finding per "
     "host names each GPU, its NIC, the leaf and port, and the leaf to "
     "cable it to.",
     rg_check_rail);
RULE(R_GPU_ORDER, FL_SEV_WARNING, 1, "rail-alignment.gpu-order",
     "GPU i is not paired with the NIC of rail i (host profile)",
     "With as many GPUs as rails, GPU i must pair with the NIC of rail i "
     "(rails in natural order), so that GPU i of every host meets on one "
     "rail. One finding per profile lists the GPUs, their NICs and rails.",
     rg_check_order);

static const fl_rule_def *const RULES[] = {
    &R_CROSS,        &R_SWAP,       &R_MIXED,      &R_INCOMPLETE,
    &R_SU,           &R_ORDER,      &R_UNRESOLVED, &R_ROLES,
    &R_UNKNOWN_ROLE, &R_GPU_SHARED, &R_GPU_RAIL,   &R_GPU_ORDER};

static const fl_plugin_desc DESC = {sizeof(fl_plugin_desc),
                                    FL_ABI_MAJOR,
                                    FL_ABI_MINOR,
                                    sizeof RULES / sizeof *RULES,
                                    "rail-alignment",
                                    "0.1.0",
                                    "fabriclint",
                                    "MIT",
                                    rail_init,
                                    rail_fini,
                                    RULES};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &DESC;
}
