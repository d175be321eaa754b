/* SPDX-License-Identifier: MIT */
/*
 * core/model/planes.h — the model's side of planes (fabriclint/planes.h):
 * the --plane tag of an input file while building, finding the planes at
 * finalize, and freeing them. core/model/planes.c.
 */
#ifndef FABRICLINT_CORE_PLANES_H
#define FABRICLINT_CORE_PLANES_H

#include <stdint.h>

#include "fabriclint/error.h"
#include "fabriclint/fabric.h"

/**
 * fl_b_file_plane() — tag input file @file (fl_b_file() id) with plane
 * @plane (a --plane NAME): its loader notes go to that plane's subset
 * (fl_fabric_plane_subset()). FL_OK, FL_EINVAL (finalized, empty name),
 * FL_ENOMEM.
 */
int fl_b_file_plane(fl_fabric *fab, uint32_t file, const char *plane);

/**
 * fl_planes_finalize() — find the planes of a sealed fabric (fabriclint/
 * planes.h says how) and fill the per-node and per-port plane indexes.
 * Called by fl_fabric_finalize() after the records are sealed and LIDs
 * are final. FL_OK or FL_ENOMEM. O(V + E + max LID).
 */
int fl_planes_finalize(fl_fabric *fab, fl_error *err);

/** Free what fl_planes_finalize() and fl_b_file_plane() allocated. */
void fl_planes_free(fl_fabric *fab);

#endif
