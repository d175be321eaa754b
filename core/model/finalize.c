/* SPDX-License-Identifier: MIT */
/*
 * core/model/finalize.c — finishing and freeing a fabric: the steps that
 * reach every part of the model, so they sit above the record store
 * (fabric.c) instead of inside it. Finalizing seals the records (ports
 * sorted, indexes built), then finalizes the routing state (routing.c),
 * derives systems and names, finds the planes (planes.c), attaches port
 * counters (counters.c), derives tiers (derive.c), records the evidence of
 * the inferences (infer.c) and builds the igraph view (graph.c); each of those
 * reads the sealed store and none calls back here. Freeing undoes the same
 * parts in reverse.
 */
#include <stdlib.h>

#include "model/chassis.h"
#include "model/counters.h"
#include "model/derive.h"
#include "model/fabric_impl.h"
#include "model/graph.h"
#include "model/hostprof.h"
#include "model/infer.h"
#include "model/planes.h"
#include "model/routing_impl.h"
#include "model/views.h"

int fl_fabric_finalize(fl_fabric *fab, fl_error *err) {
  if (!fab)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0, "no fabric");
  if (fab->finalized)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0, "fabric already finalized");
  int rc = fl_b_seal(fab, err);
  if (rc == FL_OK) /* before the rules and info read `peer-only` */
    rc = fl_views_finalize(fab, err);
  if (rc == FL_OK)
    rc = fl_routing_finalize(fab, err);
  if (rc == FL_OK)
    rc = fl_derive_systems(fab, fab->system_pattern, err);
  if (rc == FL_OK) /* after systems: they read the shared description */
    rc = fl_b_unique_names(fab, err);
  if (rc == FL_OK) /* after systems and names: profiles match hosts */
    rc = fl_hostprof_attach(fab, err);
  if (rc == FL_OK) /* before tiers: a chassis is one switch */
    rc = fl_derive_chassis(fab, err);
  if (rc == FL_OK) /* after LIDs, systems and the link index */
    rc = fl_planes_finalize(fab, err);
  if (rc == FL_OK) /* after names, LIDs and planes: records name ports by
                      them, a LID within its input's plane */
    rc = fl_counters_finalize(fab, err);
  if (rc == FL_OK)
    rc = fl_derive_tiers(fab, err);
  if (rc == FL_OK) /* after tiers: records what they rest on */
    rc = fl_infer_finalize(fab, err);
  if (rc == FL_OK)
    rc = fl_graph_build(fab, err);
  return rc;
}

void fl_fabric_free(fl_fabric *fab) {
  if (!fab)
    return;
  if (fab->has_graph)
    igraph_destroy(&fab->graph);
  fl_routing_free(&fab->rt);
  fl_infer_free(fab);
  fl_chassis_free(fab);
  fl_counters_free(fab);
  fl_planes_free(fab);
  fl_hostprof_free_all(fab);
  fl_b_free_records(fab);
  free(fab);
}
