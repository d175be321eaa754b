/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_abi_layout.c — the plugin ABI, frozen (DESIGN.md §3,
 * docs/plugins.md "ABI promises").
 *
 * A plugin built against the ABI 1.0 headers must keep loading into every
 * 1.x host. That holds only while every member of every public struct keeps
 * its offset: structs may grow at the end (struct_size says how far a
 * plugin's copy goes), never change in the middle. These static assertions
 * pin the x86-64 / aarch64 (LP64) layout of ABI 1.0, so a change that would
 * break old plugins fails the build, not a user's CI. When a struct grows
 * at the end, add the new members here with the minor version that added
 * them; never edit an existing line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fabriclint/cdg.h"
#include "fabriclint/covers.h"
#include "fabriclint/dist_split.h"
#include "fabriclint/error.h"
#include "fabriclint/plugin.h"
#include "fabriclint/types.h"
#include "fabriclint/view.h"

#define OFF(type, member, off)                                                 \
  _Static_assert(offsetof(type, member) == (off),                              \
                 #type "." #member " moved: plugin ABI break")
#define SIZE(type, size)                                                       \
  _Static_assert(sizeof(type) == (size), #type " changed size")
#define MIN_SIZE(type, size)                                                   \
  _Static_assert(sizeof(type) >= (size), #type " shrank: plugin ABI break")

#if UINTPTR_MAX == 0xffffffffffffffffu /* LP64 */

/* -- ABI 1.0: what plugins fill in (grow at the end only) -- */
OFF(fl_param_def, struct_size, 0);
OFF(fl_param_def, type, 4);
OFF(fl_param_def, name, 8);
OFF(fl_param_def, default_value, 16);
OFF(fl_param_def, unit, 24);
OFF(fl_param_def, doc, 32);
OFF(fl_param_def, min_value, 40); /* added after 1.0 */
OFF(fl_param_def, max_value, 48);
MIN_SIZE(fl_param_def, 40);

OFF(fl_rule_def, struct_size, 0);
OFF(fl_rule_def, default_severity, 4);
OFF(fl_rule_def, id, 8);
OFF(fl_rule_def, summary, 16);
OFF(fl_rule_def, help, 24);
OFF(fl_rule_def, enabled_by_default, 32);
OFF(fl_rule_def, needs, 36);
OFF(fl_rule_def, params, 40);
OFF(fl_rule_def, n_params, 48);
OFF(fl_rule_def, check, 56);
MIN_SIZE(fl_rule_def, 64);

OFF(fl_port_ref, node, 0);
OFF(fl_port_ref, port, 4);
SIZE(fl_port_ref, 8); /* passed as an array: its size is frozen */

OFF(fl_finding, struct_size, 0);
OFF(fl_finding, severity, 4);
OFF(fl_finding, message, 8);
OFF(fl_finding, nodes, 16);
OFF(fl_finding, n_nodes, 24);
OFF(fl_finding, n_ports, 28);
OFF(fl_finding, ports, 32);
OFF(fl_finding, links, 40);
OFF(fl_finding, n_links, 48);
OFF(fl_finding, reserved0, 52);
OFF(fl_finding, evidence_json, 56);
OFF(fl_finding, key, 64);
OFF(fl_finding, cause, 72); /* added after 1.0 */
OFF(fl_finding, cause_message, 80);
OFF(fl_finding, fix, 88);       /* added in 1.2 */
OFF(fl_finding, root_kind, 96); /* added in 1.4 */
OFF(fl_finding, root_role, 100);
OFF(fl_finding, root_id, 104);
OFF(fl_finding, reserved1, 108);
OFF(fl_finding, root_fact, 112);
MIN_SIZE(fl_finding, 72);

/* -- ABI 1.2: fixes (fl_finding.fix) -- */
OFF(fl_fix, struct_size, 0);
OFF(fl_fix, n_changes, 4);
OFF(fl_fix, description, 8);
OFF(fl_fix, changes, 16);
MIN_SIZE(fl_fix, 24);
OFF(fl_fix_change, struct_size, 0);
OFF(fl_fix_change, kind, 4);
OFF(fl_fix_change, link, 8);
OFF(fl_fix_change, end, 12);
OFF(fl_fix_change, node, 16);
OFF(fl_fix_change, port, 20);
OFF(fl_fix_change, value, 24);
MIN_SIZE(fl_fix_change, 32);

OFF(fl_plugin_desc, struct_size, 0);
OFF(fl_plugin_desc, abi_major, 4);
OFF(fl_plugin_desc, abi_minor, 8);
OFF(fl_plugin_desc, n_rules, 12);
OFF(fl_plugin_desc, name, 16);
OFF(fl_plugin_desc, version, 24);
OFF(fl_plugin_desc, vendor, 32);
OFF(fl_plugin_desc, license, 40);
OFF(fl_plugin_desc, init, 48);
OFF(fl_plugin_desc, fini, 56);
OFF(fl_plugin_desc, rules, 64);
MIN_SIZE(fl_plugin_desc, 72);

/* -- ABI 1.0: the host's function table (grows at the end only) -- */
OFF(fl_host_api, struct_size, 0);
OFF(fl_host_api, abi_major, 4);
OFF(fl_host_api, abi_minor, 8);
OFF(fl_host_api, reserved0, 12);
OFF(fl_host_api, fabric, 16);
OFF(fl_host_api, rule_id, 24);
OFF(fl_host_api, node_count, 32);
OFF(fl_host_api, port_count, 40);
OFF(fl_host_api, link_count, 48);
OFF(fl_host_api, node_kind, 56);
OFF(fl_host_api, node_name, 64);
OFF(fl_host_api, node_desc, 72);
OFF(fl_host_api, node_guid, 80);
OFF(fl_host_api, node_sysimgguid, 88);
OFF(fl_host_api, node_devid, 96);
OFF(fl_host_api, node_system, 104);
OFF(fl_host_api, node_device, 112);
OFF(fl_host_api, node_nports, 120);
OFF(fl_host_api, node_tier, 128);
OFF(fl_host_api, node_first_port, 136);
OFF(fl_host_api, node_port_count, 144);
OFF(fl_host_api, find_port, 152);
OFF(fl_host_api, find_node_guid, 160);
OFF(fl_host_api, find_node_name, 168);
OFF(fl_host_api, port_node, 176);
OFF(fl_host_api, port_num, 184);
OFF(fl_host_api, port_guid, 192);
OFF(fl_host_api, port_lid, 200);
OFF(fl_host_api, port_lmc, 208);
OFF(fl_host_api, port_label, 216);
OFF(fl_host_api, port_link_count, 224);
OFF(fl_host_api, port_link, 232);
OFF(fl_host_api, link_port, 240);
OFF(fl_host_api, link_other, 248);
OFF(fl_host_api, link_width, 256);
OFF(fl_host_api, link_speed, 264);
OFF(fl_host_api, link_width_b, 272);
OFF(fl_host_api, link_speed_b, 280);
OFF(fl_host_api, link_flags, 288);
OFF(fl_host_api, link_gbps, 296);
OFF(fl_host_api, attr, 304);
OFF(fl_host_api, provenance, 312);
OFF(fl_host_api, speed_name, 320);
OFF(fl_host_api, speed_lane_gbps, 328);
OFF(fl_host_api, components, 336);
OFF(fl_host_api, articulation_points, 344);
OFF(fl_host_api, bridges, 352);
OFF(fl_host_api, bfs_distances, 360);
OFF(fl_host_api, param_int, 368);
OFF(fl_host_api, param_double, 376);
OFF(fl_host_api, param_string, 384);
OFF(fl_host_api, report, 392);
OFF(fl_host_api, fail, 400);
OFF(fl_host_api, log, 408);
OFF(fl_host_api, lft_count, 416);
OFF(fl_host_api, lft, 424);
OFF(fl_host_api, max_lid, 432);
OFF(fl_host_api, lid_port, 440);
OFF(fl_host_api, has_sl2vl, 448);
OFF(fl_host_api, sl2vl, 456);
OFF(fl_host_api, has_path_sl, 464);
OFF(fl_host_api, path_sl, 472);
OFF(fl_host_api, note_count, 480);
OFF(fl_host_api, note, 488);
OFF(fl_host_api, cdg_analyze, 496);
OFF(fl_host_api, cdg_free, 504);
OFF(fl_host_api, components_masked, 512);
OFF(fl_host_api, maxflow, 520);
MIN_SIZE(fl_host_api, 528);
/* added after 1.0 (ABI 1.1): adaptive routing, bad_param, PFC */
OFF(fl_host_api, ar_count, 528);
OFF(fl_host_api, ar_has, 536);
OFF(fl_host_api, ar_lid_state, 544);
OFF(fl_host_api, ar_lid_group, 552);
OFF(fl_host_api, ar_group_count, 560);
OFF(fl_host_api, ar_group, 568);
OFF(fl_host_api, bad_param, 576);
OFF(fl_host_api, pfc_analyze, 584);
OFF(fl_host_api, pfc_free, 592);
/* added in ABI 1.2: director chassis (fabriclint/fabric.h), then port
 * counters (fabriclint/counters.h) */
OFF(fl_host_api, node_chassis, 600);
OFF(fl_host_api, link_internal, 608);
OFF(fl_host_api, counter_snapshots, 616);
OFF(fl_host_api, counter_interval, 624);
OFF(fl_host_api, counter_complete, 632);
OFF(fl_host_api, port_counter_mask, 640);
OFF(fl_host_api, port_counter, 648);
OFF(fl_host_api, counter_unmapped_count, 656);
OFF(fl_host_api, counter_unmapped, 664);
OFF(fl_host_api, counter_name, 672);
MIN_SIZE(fl_host_api, 680);
/* ABI 1.2: progress reports (fl_progress()) */
OFF(fl_host_api, progress, 680);
MIN_SIZE(fl_host_api, 688);
/* ABI 1.3: planes (fabriclint/planes.h) */
OFF(fl_host_api, plane_count, 688);
OFF(fl_host_api, plane_name, 696);
OFF(fl_host_api, node_plane, 704);
OFF(fl_host_api, port_plane, 712);
/* ABI 1.3: the distributed run (fabriclint/dist.h) */
OFF(fl_host_api, dist, 720);
MIN_SIZE(fl_host_api, 728);
/* ABI 1.5: the serial caches are keyed by (fl_fabric_key) */
OFF(fl_host_api, fabric_serial, 728);
MIN_SIZE(fl_host_api, 736);
/* ABI 1.6: the helper headers' algorithms, run by the host (issue 29) */
OFF(fl_host_api, view_build, 736);
OFF(fl_host_api, view_free, 744);
OFF(fl_host_api, view_minimal, 752);
OFF(fl_host_api, view_minimal_compact, 760);
OFF(fl_host_api, view_dist_at, 768);
OFF(fl_host_api, view_nmin_at, 776);
OFF(fl_host_api, view_groups, 784);
OFF(fl_host_api, view_peer, 792);
OFF(fl_host_api, view_port_switch, 800);
OFF(fl_host_api, view_is_sharp_an, 808);
OFF(fl_host_api, view_ca_switch, 816);
OFF(fl_host_api, view_design_ratio, 824);
OFF(fl_host_api, cover_classes, 832);
OFF(fl_host_api, covers_free, 840);
OFF(fl_host_api, split_emit, 848);
OFF(fl_host_api, split_finish, 856);
MIN_SIZE(fl_host_api, 864);
/* ABI 1.6: the structs those members fill or read. fl_view and fl_split
 * start with struct_size and grow at the end; the view's groups are an
 * array (size frozen); the cover graph and classes are the arguments of
 * fl_cover_classes(), exported from libfabriclint too. */
OFF(fl_view, struct_size, 0);
OFF(fl_view, reserved0, 4);
OFF(fl_view, api, 8);
OFF(fl_view, f, 16);
OFF(fl_view, nn, 24);
OFF(fl_view, ns, 28);
OFF(fl_view, ne, 32);
OFF(fl_view, nd, 36);
OFF(fl_view, sw_node, 40);
OFF(fl_view, node_sw, 48);
OFF(fl_view, tier, 56);
OFF(fl_view, poff, 64);
OFF(fl_view, psw_end, 72);
OFF(fl_view, sw_mixed, 80);
OFF(fl_view, pnb16, 88);
OFF(fl_view, pnb, 96);
OFF(fl_view, pnode, 104);
OFF(fl_view, pnum, 112);
OFF(fl_view, pnbport, 120);
OFF(fl_view, plink, 128);
OFF(fl_view, pgbps, 136);
OFF(fl_view, pslot, 144);
OFF(fl_view, ep_node, 152);
OFF(fl_view, ep_sw, 160);
OFF(fl_view, ep_slot, 168);
OFF(fl_view, ep_lid, 176);
OFF(fl_view, ep_lmc, 184);
OFF(fl_view, ep_gbps, 192);
OFF(fl_view, sw_nep, 200);
OFF(fl_view, lids, 208);
OFF(fl_view, nlids, 216);
OFF(fl_view, dsw, 224);
OFF(fl_view, sw_d, 232);
OFF(fl_view, dist, 240);
OFF(fl_view, nmin, 248);
OFF(fl_view, nc, 256);
OFF(fl_view, ccls, 264);
OFF(fl_view, cup, 272);
OFF(fl_view, clev, 280);
OFF(fl_view, ceps, 288);
OFF(fl_view, cnd, 296);
OFF(fl_view, cfirst, 304);
OFF(fl_view, cout, 312);
OFF(fl_view, eps_all, 320);
MIN_SIZE(fl_view, 328);
OFF(fl_split, struct_size, 0);
OFF(fl_split, reserved0, 4);
OFF(fl_split, dist, 8);
OFF(fl_split, rank, 16);
OFF(fl_split, size, 20);
OFF(fl_split, buf, 24);
OFF(fl_split, len, 32);
OFF(fl_split, cap, 40);
OFF(fl_split, oom, 48);
MIN_SIZE(fl_split, 56);
OFF(fl_view_group, first_d, 0);
OFF(fl_view_group, n_dest, 4);
OFF(fl_view_group, eps, 8);
OFF(fl_view_group, cls, 16);
OFF(fl_view_group, nmin, 20);
OFF(fl_view_group, dir, 22);
OFF(fl_view_group, gmin, 24);
OFF(fl_view_group, gmax, 28);
SIZE(fl_view_group, 32);
OFF(fl_cover_graph, n, 0);
OFF(fl_cover_graph, tier, 8);
OFF(fl_cover_graph, lo, 16);
OFF(fl_cover_graph, hi, 24);
OFF(fl_cover_graph, peer, 32);
OFF(fl_cover_graph, mirrored, 40);
OFF(fl_cover_graph, ctx, 48);
SIZE(fl_cover_graph, 56);
OFF(fl_covers, nc, 0);
OFF(fl_covers, t0, 4);
OFF(fl_covers, levels, 8);
OFF(fl_covers, cls, 16);
OFF(fl_covers, cup, 24);
OFF(fl_covers, clev, 32);
SIZE(fl_covers, 40);

/* -- ABI 1.0: routing analysis structs handed across by cdg_analyze -- */
OFF(fl_cdg_options, struct_size, 0);
OFF(fl_cdg_options, traffic, 4);
OFF(fl_cdg_options, vl_mode, 8);
OFF(fl_cdg_options, routing, 12);
OFF(fl_cdg_options, threads, 16);
OFF(fl_cdg_options, max_examples, 20);
OFF(fl_cdg_options, engine, 24);
MIN_SIZE(fl_cdg_options, 24);
OFF(fl_cdg_options, reserved0, 28); /* 1.2 */
OFF(fl_cdg_options, progress, 32);
OFF(fl_cdg_options, progress_ctx, 40);
MIN_SIZE(fl_cdg_options, 48);
OFF(fl_cdg_options, dist, 48); /* 1.3 */
MIN_SIZE(fl_cdg_options, 56);
OFF(fl_dist, struct_size, 0); /* 1.3: filled by the host */
OFF(fl_dist, rank, 4);
OFF(fl_dist, size, 8);
OFF(fl_dist, ctx, 16);
OFF(fl_dist, allreduce_min_u32, 24);
OFF(fl_dist, allreduce_sum_u64, 32);
OFF(fl_dist, allgather, 40);
MIN_SIZE(fl_dist, 48);
SIZE(fl_cdg_hop, 32); /* arrays: sizes frozen */
SIZE(fl_cdg_loop, 16);
SIZE(fl_cdg_fwd_loop, 16);
SIZE(fl_cdg_unrouted, 32);
SIZE(fl_cdg_valley, 16);
OFF(fl_cdg_report, routing, 0);
OFF(fl_cdg_report, dependencies, 16);
OFF(fl_cdg_report, sources, 24);
OFF(fl_cdg_report, n_loops, 28);
OFF(fl_cdg_report, loops, 32);
OFF(fl_cdg_report, n_fwd_loops, 40);
OFF(fl_cdg_report, n_unrouted, 44);
OFF(fl_cdg_report, fwd_loops, 48);
OFF(fl_cdg_report, unrouted, 56);
OFF(fl_cdg_report, fwd_loop_count, 64);
OFF(fl_cdg_report, unrouted_pairs, 72);
OFF(fl_cdg_report, valley_count, 80);
OFF(fl_cdg_report, missing_sl2vl, 88);
OFF(fl_cdg_report, n_valleys, 96);
OFF(fl_cdg_report, traffic, 100);
OFF(fl_cdg_report, valleys, 104);
OFF(fl_cdg_report, seconds, 112);
#endif

/* Values of the ABI that plugins compile in: changing one breaks them. */
_Static_assert(FL_ABI_MAJOR == 1u, "ABI major changed: a new entry point");
/* counter ids cross the ABI (api->port_counter) */
_Static_assert(FL_CTR_SYMBOL_ERRORS == 0u && FL_CTR_XMIT_WAIT == 12u &&
                   FL_CTR_XMIT_DATA == 13u && FL_CTR_COUNT == 32u,
               "counter ids");
_Static_assert(FL_SEV_INFO == 1u && FL_SEV_WARNING == 2u && FL_SEV_ERROR == 3u,
               "severity codes");
_Static_assert(FL_NODE_SWITCH == 1u && FL_NODE_CA == 2u && FL_NODE_ROUTER == 3u,
               "node kinds");
_Static_assert(FL_ENT_NODE == 1u && FL_ENT_PORT == 2u && FL_ENT_LINK == 3u,
               "entity kinds");
_Static_assert(FL_PARAM_INT == 1u && FL_PARAM_DOUBLE == 2u &&
                   FL_PARAM_STRING == 3u && FL_PARAM_BOOL == 4u,
               "parameter types");
_Static_assert(FL_OK == 0 && FL_EINVAL == -1 && FL_ENOMEM == -4 &&
                   FL_ENOTFOUND == -6,
               "return codes");
_Static_assert(FL_NONE == 0xffffffffu, "FL_NONE");

static void test_entry_point_name(void **state) {
  (void)state;
  assert_string_equal(FL_PLUGIN_ENTRY, "fabriclint_plugin_v1");
}

static void test_struct_sizes_are_multiples_of_8(void **state) {
  (void)state;
  /* struct_size-prefixed structs are copied by size: no tail padding games */
  assert_int_equal(sizeof(fl_finding) % 8, 0);
  assert_int_equal(sizeof(fl_rule_def) % 8, 0);
  assert_int_equal(sizeof(fl_plugin_desc) % 8, 0);
  assert_int_equal(sizeof(fl_host_api) % 8, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_entry_point_name),
      cmocka_unit_test(test_struct_sizes_are_multiples_of_8),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
