/* SPDX-License-Identifier: MIT */
/*
 * core/model/tier_type.h — the tier a device's declared type states
 * (internal; issue 30, docs/inference.md "Tiers from the device type").
 */
#ifndef FABRICLINT_CORE_MODEL_TIER_TYPE_H
#define FABRICLINT_CORE_MODEL_TIER_TYPE_H

#include <stdint.h>

/** fl_node_rec.tier_derived when the tier came from the device type. */
#define FL_TIER_FROM_TYPE 2u

/**
 * fl_tier_of_type() — the tier (fabriclint's numbering: 1 leaf/ToR, 2 the
 * layer above, 3 spine, 4 above) that a device type of a SONiC minigraph
 * or lab graph (`Type`, `i:type`; the `device-type` attribute) states, and
 * in @role (when not NULL) the role it names, a static string ("SONiC T0
 * ToR", "SONiC T1 leaf router", ...). FL_TIER_UNKNOWN (and @role "") for a type
 * that names no tier of the data fabric: servers (CAs, read as hosts), lab
 * fanouts, console servers, PDUs, chassis-internal ASICs, SmartCables,
 * regional hubs, unknown words. Compared case-insensitively. Source: the
 * device types of sonic-mgmt (ansible/module_utils/ and the minigraph
 * templates) and the sonic-buildimage sample minigraphs: T0 ToRRouter,
 * T1 LeafRouter, T2 SpineRouter (and its chassis front and back ends),
 * BackEnd* and Mgmt* the same tiers of a back-end (GPU) or management
 * fabric. The multi-stage T2 types (LowerSpineRouter, UpperSpineRouter,
 * FabricSpineRouter) are left out: their peers above LT2 play different
 * roles at one height (docs/real-fabrics.md F13), not one tier. Pure,
 * O(table).
 */
uint32_t fl_tier_of_type(const char *type, const char **role);

#endif
