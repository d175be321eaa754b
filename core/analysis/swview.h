/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/swview.h — the switch view of fabriclint/view.h as the
 * host implements it (issue 29: no algorithm in a public header). The
 * public header keeps the fl_view struct and inline wrappers that call
 * these through fl_host_api (view_build, view_minimal, ...; ABI 1.6), so
 * a fix here reaches every plugin without a rebuild.
 *
 * Files: swview_build.c (fl_view_build, fl_view_free), swview_minimal.c
 * (twin destinations and the BFS matrix), swview_classes.c (cover classes
 * and the entries read from them), swview_groups.c (groups of equal next
 * hops), swview_nodes.c (peers, host -> NIC -> leaf, SHARP ANs, the plan's
 * ratio). Every
 * function has the semantics documented for its wrapper in view.h.
 */
#ifndef FABRICLINT_CORE_SWVIEW_H
#define FABRICLINT_CORE_SWVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/plugin.h"
#include "fabriclint/view.h"

/* sizeof(fl_view) of a plugin built against ABI 1.6: the members up to
 * eps_all (fl_view.threads came in 1.7). The host reads and writes a view
 * only within its struct_size. */
#define FL_VIEW_SIZE_1_6 ((uint32_t)offsetof(fl_view, threads))

/* The caller's thread budget of @v (fl_view.threads), 0 when its layout
 * has none. */
static inline uint32_t fl_swview_threads(const fl_view *v) {
  return v->struct_size > FL_VIEW_SIZE_1_6 ? v->threads : 0;
}

/* fl_host_api.view_build and friends (semantics: the wrappers in view.h) */
int fl_swview_build(fl_view *v, const fl_host_api *api, const fl_fabric *f);
void fl_swview_free(fl_view *v);
int fl_swview_minimal(fl_view *v);
int fl_swview_compact(fl_view *v);
uint32_t fl_swview_dist_at(const fl_view *v, uint32_t d, uint32_t s);
uint16_t fl_swview_nmin_at(const fl_view *v, uint32_t d, uint32_t s);
uint32_t fl_swview_groups(const fl_view *v, uint32_t s, fl_view_group *g);
fl_id fl_swview_peer(const fl_host_api *api, const fl_fabric *f, fl_id p,
                     fl_id *link, fl_id *peer_port);
fl_id fl_swview_port_switch(const fl_host_api *api, const fl_fabric *f, fl_id p,
                            fl_id *link, fl_id *sw_port);
int fl_swview_is_sharp_an(const fl_host_api *api, const fl_fabric *f, fl_id n);
fl_id fl_swview_ca_switch(const fl_host_api *api, const fl_fabric *f, fl_id n,
                          uint32_t *port, uint32_t *sw_port);
double fl_swview_design_ratio(const fl_host_api *api, const fl_fabric *f,
                              fl_id n, double policy);

/* Shared by the files above (and the unit tests) */

/* rep[d]: the smallest twin of destination switch d (d itself when none);
 * swview_minimal.c. Returns 0, or -1 when out of memory. */
int fl_view_twins(const fl_view *v, uint32_t *rep);
/* Destination @d's cover class at level @l (l >= its own level 0). */
uint32_t fl_view_class_at(const fl_view *v, uint32_t d, uint32_t l);

/**
 * fl_view_gspan() — widen the speed span [*@lo, *@hi] (Gb/s, both 0 while
 * no speed is known) by a link of @g Gb/s. An unknown speed (@g <= 0: a
 * cable inside a chassis expanded from IBNL, a plan without a rate) is
 * neither slower nor faster than the others and leaves the span as it is,
 * so it never makes a set of links "mixed" (unknown is not wrong). A span
 * is mixed when *@hi > *@lo.
 */
static inline void fl_view_gspan(float g, float *lo, float *hi) {
  if (!(g > 0))
    return;
  if (!(*lo > 0) || g < *lo)
    *lo = g;
  if (g > *hi)
    *hi = g;
}

#endif
