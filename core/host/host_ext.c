/* SPDX-License-Identifier: MIT */
/*
 * core/host/host_ext.c — fills the fl_host_api members that belong to later
 * modules (adaptive-routing state, ...), so that those modules do not need
 * to edit core/host.c. Called at the end of fl_host_init().
 */
#include "analysis/swview.h"
#include "fabriclint/counters.h"
#include "fabriclint/covers.h"
#include "fabriclint/pfc.h"
#include "fabriclint/planes.h"
#include "fabriclint/routing.h"
#include "host/host.h"
#include "host/split_impl.h"

void fl_host_fill_ext(fl_host_api *a) {
  /* adaptive-routing tables (core/ar_load.c, core/routing.c) */
  a->ar_count = fl_fabric_ar_count;
  a->ar_has = fl_fabric_ar_has;
  a->ar_lid_state = fl_fabric_ar_lid_state;
  a->ar_lid_group = fl_fabric_ar_lid_group;
  a->ar_group_count = fl_fabric_ar_group_count;
  a->ar_group = fl_fabric_ar_group;
  /* lossless-Ethernet (PFC) deadlock analysis (core/analysis/pfc.c) */
  a->pfc_analyze = fl_pfc_analyze;
  a->pfc_free = fl_pfc_report_free;
  /* director chassis (core/model/chassis.c) */
  a->node_chassis = fl_fabric_node_chassis;
  a->link_internal = fl_fabric_link_internal;
  /* port counters (core/model/counters.c, loaded by core/io/ctr_*.c) */
  a->counter_snapshots = fl_fabric_counter_snapshots;
  a->counter_interval = fl_fabric_counter_interval;
  a->counter_complete = fl_fabric_counter_complete;
  a->port_counter_mask = fl_fabric_port_counter_mask;
  a->port_counter = fl_fabric_port_counter;
  a->counter_unmapped_count = fl_fabric_counter_unmapped_count;
  a->counter_unmapped = fl_fabric_counter_unmapped;
  a->counter_name = fl_counter_name;
  /* planes (core/model/planes.c; ABI 1.3) */
  a->plane_count = fl_fabric_plane_count;
  a->plane_name = fl_fabric_plane_name;
  a->node_plane = fl_fabric_node_plane;
  a->port_plane = fl_fabric_port_plane;
  /* the helper headers' algorithms (ABI 1.6; issue 29): the switch view
   * (core/analysis/swview*.c), cover classes (covers.c), a rule's items
   * split over MPI ranks (core/host/split_*.c) */
  a->view_build = fl_swview_build;
  a->view_free = fl_swview_free;
  a->view_minimal = fl_swview_minimal;
  a->view_minimal_compact = fl_swview_compact;
  a->view_dist_at = fl_swview_dist_at;
  a->view_nmin_at = fl_swview_nmin_at;
  a->view_groups = fl_swview_groups;
  a->view_peer = fl_swview_peer;
  a->view_port_switch = fl_swview_port_switch;
  a->view_is_sharp_an = fl_swview_is_sharp_an;
  a->view_ca_switch = fl_swview_ca_switch;
  a->view_design_ratio = fl_swview_design_ratio;
  a->cover_classes = fl_cover_classes;
  a->covers_free = fl_covers_free;
  a->split_emit = fl_split_record;
  a->split_finish = fl_split_end;
}
