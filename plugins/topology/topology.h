/*
 * plugins/topology/topology.h — the rules of the topology plugin that live
 * in files of their own (the descriptor and the structural rules are in
 * topology.c).
 */
#ifndef FABRICLINT_PLUGIN_TOPOLOGY_H
#define FABRICLINT_PLUGIN_TOPOLOGY_H

#include "fabriclint/plugin.h"

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
