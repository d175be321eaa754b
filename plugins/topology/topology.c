/* SPDX-License-Identifier: MIT */
/*
 * plugins/topology/topology.c — structural sanity of a fabric (rule id
 * prefix `topology`).
 *
 * These are the checks every other analysis presumes: that the inputs
 * describe one consistent, connected fabric. They read only the model
 * (nodes, ports, links, listing flags, tiers) through fl_host_api, exactly
 * as a third-party plugin would (DESIGN.md §3).
 *
 * Sources: a cable is listed from both ends in ibnetdiscover output
 * (rdma-core infiniband-diags/ibnetdiscover.c, out_switch_port/out_ca_port),
 * so a one-sided listing is a truncated or stale capture; node and port GUIDs
 * are EUI-64s that must be unique in a subnet (IBA vol. 1, 4.1.1); active
 * width/speed are negotiated per link, so both ends report the same values
 * (IBA vol. 1, 5.6.4 / PortInfo LinkWidthActive, LinkSpeedActive).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "direct.h"
#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "topology.h"

/* ---- descriptors
 * -------------------------------------------------------------------- */

#define RULE(var, sev, rid, summ, hlp, fn, prm, nprm)                          \
  static const fl_rule_def var = {                                             \
      sizeof(fl_rule_def), sev, rid, summ, hlp, 1, 0, prm, nprm, fn}

RULE(R_ONE_SIDED, FL_SEV_ERROR, "topology.one-sided-link",
     "a cable is listed by one end only",
     "ibnetdiscover lists every cable twice, once from each end. A cable that "
     "only one end lists means the capture is truncated or stale, or a cable "
     "moved while the fabric was being discovered. Re-run ibnetdiscover.",
     topo_check_one_sided, NULL, 0);
RULE(R_MISMATCH, FL_SEV_ERROR, "topology.link-mismatch",
     "the two ends of a cable report different width or speed",
     "A link negotiates one active width and speed (IBA PortInfo "
     "LinkWidthActive/LinkSpeedActive); two listings that disagree come from "
     "captures taken at different times or a hand-edited file.",
     topo_check_mismatch, NULL, 0);
RULE(R_TWICE, FL_SEV_ERROR, "topology.port-connected-twice",
     "a port appears at the end of two or more cables",
     "Each port holds one cable. Two cables on one port come from merged or "
     "edited dumps, or from a plan that reuses a port.",
     topo_check_twice, NULL, 0);
RULE(R_RANGE, FL_SEV_ERROR, "topology.port-out-of-range",
     "a port number exceeds the node's port count, or port 0 is cabled",
     "NodeInfo NumPorts bounds the physical ports of a node (switch port 0 is "
     "internal). A port beyond it is a typo in a plan or a corrupted dump.",
     topo_check_range, NULL, 0);
RULE(R_DUPGUID, FL_SEV_ERROR, "topology.duplicate-guid",
     "two nodes or ports share a GUID",
     "Node and port GUIDs are EUI-64s and unique in a subnet; a duplicate "
     "breaks subnet management and routing (OpenSM reports duplicate GUIDs "
     "too). Usually a cloned VM/BMC image or a mis-flashed adapter.",
     topo_check_dup_guid, NULL, 0);
RULE(R_UNLINKED, FL_SEV_WARNING, "topology.unlinked-ca",
     "a CA or router has no cable",
     "A host adapter listed without any link is not part of the fabric: a "
     "cable is missing or the port is down.",
     topo_check_unlinked, NULL, 0);
RULE(R_DISCONNECTED, FL_SEV_ERROR, "topology.disconnected",
     "the fabric is split into several components",
     "Every node should reach every other. Each component other than the "
     "largest is reported with the nodes it cuts off. Connectivity runs "
     "through switches (a CA does not forward); in a fabric with no switch "
     "at all (hosts cabled back to back) it runs through the hosts' cables.",
     topo_check_disconnected, NULL, 0);
RULE(R_DIRECT_INDEX, FL_SEV_WARNING, "topology.direct-port-index",
     "back-to-back cables between hosts mix equal and different port indexes",
     "Hosts cabled to each other without a switch (a ring of dual-port "
     "hosts) join either equal port indexes on every cable (p0-p0, p1-p1: "
     "NICs paired by index, NCCL's default, always share a cable; impossible "
     "in a ring of an odd number of hosts) or p0 to p1 on every cable (a "
     "crossed ring; NICs paired by subnet). A mix is neither. Indexes are a "
     "host's back-to-back ports in natural order of their names. The finding "
     "names the cables of each kind and the fewest hosts whose two cables to "
     "swap.",
     topo_check_direct_port_index, NULL, 0);
RULE(R_SELF_LOOP, FL_SEV_WARNING, "topology.self-loop",
     "a cable connects two ports of the same node",
     "Loop-back cables are left from burn-in tests; they consume ports and "
     "confuse routing engines.",
     topo_check_self_loop, NULL, 0);

static const fl_param_def P_WIDTH = {
    sizeof(fl_param_def),
    FL_PARAM_INT,
    "expected-width",
    NULL,
    "lanes",
    "expected link width in lanes (1, 2, 4, 8, 12); default: the most common "
    "width of links joining the same tiers",
    "1",
    "12"};
static const fl_param_def P_SPEED = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "expected-speed",
    NULL,
    NULL,
    "expected lane speed (SDR..XDR, or an Ethernet rate such as 400G); "
    "default: speed is not checked",
    NULL,
    NULL};
static const fl_param_def *const DEGRADED_PARAMS[] = {&P_WIDTH, &P_SPEED};

RULE(R_DEGRADED, FL_SEV_WARNING, "topology.degraded-link",
     "a link runs below the expected width or speed",
     "A 4x cable that trains at 1x or 2x (a bad lane, a dirty connector) "
     "silently cuts bandwidth. Expected values come from the parameters, or "
     "from the majority width of links joining the same tiers.",
     topo_check_degraded, DEGRADED_PARAMS, 2);
RULE(R_MIXED, FL_SEV_WARNING, "topology.mixed-speed",
     "links joining the same tiers run at different speeds",
     "Within one tier pair a design uses one link speed; a mix (e.g. EDR "
     "cables among HDR ones) makes ECMP groups and collectives uneven.",
     topo_check_mixed_speed, NULL, 0);

RULE(R_SAME_TIER, FL_SEV_WARNING, "topology.same-tier-link",
     "a cable joins two switches of the same tier in a hierarchical fabric",
     "Leaf-to-leaf or spine-to-spine cables are miswires in a fat tree or "
     "rail-optimised fabric: they create valley routes and, under minimal "
     "routing, credit loops. Flat topologies (rings, tori) are not checked.",
     topo_check_same_tier, NULL, 0);
RULE(R_LID, FL_SEV_ERROR, "topology.lid",
     "two ports answer the same LID, or a port has a multicast/permissive LID",
     "Each port answers base LID .. base LID + 2^LMC - 1 (IBA 7.11.1); ranges "
     "must not overlap, and unicast LIDs are 0x0001-0xBFFF (IBA 4.1.3).",
     topo_check_lids, NULL, 0);

static const fl_rule_def *const RULES[] = {&R_ONE_SIDED,
                                           &R_MISMATCH,
                                           &R_TWICE,
                                           &R_RANGE,
                                           &R_DUPGUID,
                                           &R_UNLINKED,
                                           &R_DISCONNECTED,
                                           &R_SELF_LOOP,
                                           &R_DEGRADED,
                                           &R_MIXED,
                                           &R_SAME_TIER,
                                           &R_LID,
                                           &TOPO_R_LID_SPACE,
                                           &TOPO_R_MISSING_UPLINKS,
                                           &TOPO_R_LINK_INACTIVE,
                                           &TOPO_R_PORT_DISABLED,
                                           &TOPO_R_PORT_DOWN,
                                           &TOPO_R_BELOW_CAP,
                                           &TOPO_R_INPUT,
                                           &R_DIRECT_INDEX};

static const fl_plugin_desc DESC = {sizeof(fl_plugin_desc),
                                    FL_ABI_MAJOR,
                                    FL_ABI_MINOR,
                                    sizeof RULES / sizeof *RULES,
                                    "topology",
                                    "0.1.0",
                                    "fabriclint",
                                    "MIT",
                                    NULL,
                                    NULL,
                                    RULES};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &DESC;
}
