/* SPDX-License-Identifier: MIT */
/*
 * plugins/topology/topology.h — the parts of the topology plugin: each
 * file holds one concern (topo_capture.c, topo_ports.c, topo_ids.c,
 * topo_connect.c, topo_rates.c, uplinks.c, lid_space.c, link_state.c,
 * direct.c), topology.c the descriptors, topo_util.c what they share.
 */
#ifndef FABRICLINT_PLUGIN_TOPOLOGY_H
#define FABRICLINT_PLUGIN_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/plugin.h"

#define MAX_NAMED 50 /* nodes named in one finding; the rest are counted */

/* ---- topo_util.c ---- */

/* The node and number of port @p, into @out. */
void topo_port_ref(const fl_host_api *api, const fl_fabric *f, fl_id p,
                   fl_port_ref *out);
/* Report a finding at the rule's severity (fl_emit()): 0, or 1 after
 * api->fail(). Everything is borrowed. */
int topo_report(const fl_host_api *api, fl_ctx *ctx, const char *msg,
                const fl_id *nodes, uint32_t n_nodes, const fl_port_ref *ports,
                uint32_t n_ports, const fl_id *links, uint32_t n_links,
                const char *evidence);
/* "switch", "CA", "router" or "node" for node kind @k (fl_node_kind). */
const char *topo_kind_word(uint32_t k);
/* "4xNDR" (width @w, speed @s; "??NDR" when the width is unknown). */
void topo_link_type(const fl_host_api *api, uint32_t w, uint32_t s, char *buf,
                    size_t size);

/* topo_capture.c: the one-sided cables of a capture that lists every
 * cable from one end (counted into *@one_out, those listed by a CA into
 * *@by_ca_out): 1 when the capture is of that kind, 0 when not. */
int topo_one_sided_counts(const fl_host_api *api, const fl_fabric *f,
                          uint32_t *one_out, uint32_t *by_ca_out);

/* ---- the rule functions of topology.c's descriptors (fl_rule_fn) ---- */

int topo_check_one_sided(const fl_host_api *api, fl_ctx *ctx, void *pd);
int topo_check_mismatch(const fl_host_api *api, fl_ctx *ctx, void *pd);
int topo_check_twice(const fl_host_api *api, fl_ctx *ctx, void *pd);
int topo_check_range(const fl_host_api *api, fl_ctx *ctx, void *pd);
int topo_check_self_loop(const fl_host_api *api, fl_ctx *ctx, void *pd);
int topo_check_dup_guid(const fl_host_api *api, fl_ctx *ctx, void *pd);
int topo_check_lids(const fl_host_api *api, fl_ctx *ctx, void *pd);
int topo_check_unlinked(const fl_host_api *api, fl_ctx *ctx, void *pd);
int topo_check_disconnected(const fl_host_api *api, fl_ctx *ctx, void *pd);
int topo_check_degraded(const fl_host_api *api, fl_ctx *ctx, void *pd);
int topo_check_mixed_speed(const fl_host_api *api, fl_ctx *ctx, void *pd);
int topo_check_same_tier(const fl_host_api *api, fl_ctx *ctx, void *pd);

/* link_state.c: what a capture of port states (iblinkinfo) says about each
 * port and link, and what the topology inputs could not use. */
extern const fl_rule_def TOPO_R_LINK_INACTIVE; /* topology.link-inactive */
extern const fl_rule_def TOPO_R_PORT_DISABLED; /* topology.port-disabled */
extern const fl_rule_def TOPO_R_PORT_DOWN;     /* topology.port-down */
extern const fl_rule_def TOPO_R_BELOW_CAP;     /* topology.below-capability */
extern const fl_rule_def TOPO_R_INPUT;         /* topology.input */

/* lid_space.c: LIDs needed per subnet against the 49,151 unicast LIDs. */
extern const fl_rule_def TOPO_R_LID_SPACE; /* topology.lid-space */

/* uplinks.c: leaves of a non-blocking compute fabric short of uplinks. */
extern const fl_rule_def TOPO_R_MISSING_UPLINKS; /* topology.missing-uplinks */

/**
 * topo_port_state() — the `state` attribute of port @p (iblinkinfo:
 * "Active/LinkUp", "Down/Polling") split at '/': the logical state into
 * @st and the physical state into @ph (@size bytes each, NUL-terminated,
 * truncated). Returns 1, or 0 when the port has no such attribute.
 * link_state.c.
 */
int topo_port_state(const fl_host_api *api, const fl_fabric *f, fl_id p,
                    char *st, char *ph, size_t size);

#endif
