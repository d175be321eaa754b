/* SPDX-License-Identifier: MIT */
/*
 * core/model/routing_impl.h — hooks between the model (fabric.c) and the
 * routing state (routing.c); internal.
 */
#ifndef FABRICLINT_CORE_ROUTING_IMPL_H
#define FABRICLINT_CORE_ROUTING_IMPL_H

#include "model/fabric_impl.h"

/** Apply LID hints and build the LID -> port map. Called by finalize. */
int fl_routing_finalize(fl_fabric *fab, fl_error *err);
/** Free the routing state. Called by fl_fabric_free. */
void fl_routing_free(fl_routing *rt);
/** Keep the build-time GUID indexes current (called by the builder). */

#endif
