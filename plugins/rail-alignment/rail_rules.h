/* SPDX-License-Identifier: MIT */
/*
 * plugins/rail-alignment/rail_rules.h — what the rail-alignment rules share
 * beyond the model (rail.h): the reporting helpers (rail_report.c) and each
 * rule's check function, one file per concern (rail_cross.c, rail_leaves.c,
 * rail_role_rules.c, rail_shape.c, rail_unresolved.c); rail.c lists them in
 * the plugin's descriptor. Private to the plugin.
 */
#ifndef FABRICLINT_PLUGINS_RAIL_RAIL_RULES_H
#define FABRICLINT_PLUGINS_RAIL_RAIL_RULES_H

#include <stdint.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "rail.h"

/* ---- rail_report.c ---- */

/* One finding of severity @sev with its nodes, ports and evidence @ev. */
int report(const fl_host_api *api, fl_ctx *ctx, uint32_t sev, const char *msg,
           const fl_id *nodes, uint32_t nn, const fl_port_ref *ports,
           uint32_t np, const char *ev);

/* The label of rail @r, or "?". */
const char *rail_name(const analysis *a, int32_t r);

/* The leaf record of switch @s. */
const leaf *leaf_of(const analysis *a, fl_id s);

/* A leaf of rail @r in SU @su (the fix target), or FL_NONE. */
fl_id rail_leaf(const analysis *a, int32_t r, uint32_t su);

/* A free port of switch @s (no cable), preferring @want; 0 when none. */
uint32_t free_port(const fl_host_api *api, const fl_fabric *f, fl_id s,
                   uint32_t want);

/* Port @num of @node as users know it: its label (`Ethernet1/3`, `swp3`)
 * when it has one, else `port N`. Returns @buf. */
const char *port_str(const fl_host_api *api, const fl_fabric *f, fl_id node,
                     uint32_t num, char *buf, size_t size);

/* A change moving the leaf end of NIC @x's cable to @to port @port. */
fl_fix_change move_leaf_end(const fl_host_api *api, const fl_fabric *f,
                            const nic *x, fl_id to, uint32_t port);

/* The evidence's basis: the profile and where leaf @lf's rail came from. */
void basis(const analysis *a, const leaf *lf, jbuf *ev);

/* Is NIC @i one half of a same-host swap? Returns the partner index or -1. */
int32_t swap_partner(const analysis *a, uint32_t i);

/* ---- the rules: rail-alignment.cross-rail, .swapped (rail_cross.c) ---- */

int check_cross(const fl_host_api *api, fl_ctx *ctx, void *data);

int check_swapped(const fl_host_api *api, fl_ctx *ctx, void *data);

/* ---- .mixed-leaf, .port-order (rail_leaves.c) ---- */

int check_mixed(const fl_host_api *api, fl_ctx *ctx, void *data);

int check_port_order(const fl_host_api *api, fl_ctx *ctx, void *data);

/* ---- .roles, .unknown-role (rail_role_rules.c) ---- */

int check_roles(const fl_host_api *api, fl_ctx *ctx, void *data);

int check_unknown_role(const fl_host_api *api, fl_ctx *ctx, void *data);

/* ---- .incomplete-host, .su-shape (rail_shape.c) ---- */

int check_incomplete(const fl_host_api *api, fl_ctx *ctx, void *data);

int check_su_shape(const fl_host_api *api, fl_ctx *ctx, void *data);

/* ---- .unresolved (rail_unresolved.c) ---- */

int check_unresolved(const fl_host_api *api, fl_ctx *ctx, void *data);

#endif
