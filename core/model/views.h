/* SPDX-License-Identifier: MIT */
/*
 * core/model/views.h — whose view each node's cabling comes from (internal).
 */
#ifndef FABRICLINT_CORE_MODEL_VIEWS_H
#define FABRICLINT_CORE_MODEL_VIEWS_H

#include "fabriclint/error.h"
#include "fabriclint/fabric.h"

/**
 * fl_views_finalize() — a step of fl_fabric_finalize(), after sealing: mark
 * `peer-only` = `yes` every node that per-device neighbour listings (LLDP,
 * NX-OS, Junos) name only as a neighbour (attribute `listed-as-neighbour`,
 * never `lists-neighbours`): its own listing was not given, so its other
 * cables are unknown and a cable it does not list back is not a stale
 * capture (topology.one-sided-link), nor are its ports on one switch proof
 * of single homing (failure-domains.dual-homing). A node that already has
 * the attribute (iblinkinfo --switches-only marks it; an annotation file
 * pins it, `peer-only` = `no`) is left as it is. Returns FL_OK or
 * FL_ENOMEM (@err set).
 */
int fl_views_finalize(fl_fabric *fab, fl_error *err);

#endif /* FABRICLINT_CORE_MODEL_VIEWS_H */
