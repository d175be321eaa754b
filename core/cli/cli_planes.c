/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_planes.c — the planes part of `fabriclint info` (see
 * cli_planes.h): a user loading several subnets in one run sees how the
 * planes were found (tags, attributes, or detection from disconnected
 * switch components with their own LID spaces) and what each holds, so a
 * wrong split shows before any rule runs.
 */
#include "cli/cli_planes.h"

#include <stdlib.h>
#include <string.h>

#include "fabriclint/planes.h"
#include "fabriclint/routing.h"
#include "util/natcmp.h"

typedef struct plane_stats {
  uint32_t switches, ca_ports, min_lid, max_lid, lfts;
  const char *first_switch; /* first switch name in natural order */
} plane_stats;

const char *fl_cli_planes_source(const fl_cli_opts *o, const fl_fabric *fab) {
  switch (fl_fabric_planes_source(fab)) {
  case FL_PLANES_ATTR:
    return o->n_plane_specs ? "--plane tags (and plane attributes)"
                            : "plane attributes";
  case FL_PLANES_DETECTED:
    return "detected: switch components with overlapping LID spaces, each "
           "its own subnet";
  default:
    return "none";
  }
}

/* Per-plane counts, @np entries (caller frees), or NULL. O(V + P). */
static plane_stats *stats(const fl_fabric *fab, uint32_t np) {
  plane_stats *v = calloc(np, sizeof *v);
  for (fl_id n = 0; v && n < fl_fabric_node_count(fab); n++) {
    uint32_t pl = fl_fabric_node_plane(fab, n);
    int sw = fl_fabric_node_kind(fab, n) != FL_NODE_CA;
    if (sw && pl < np) {
      v[pl].switches++;
      const char *nm = fl_fabric_node_name(fab, n);
      if (!v[pl].first_switch || fl_natcmp(nm, v[pl].first_switch) < 0)
        v[pl].first_switch = nm;
      uint32_t len = 0;
      v[pl].lfts += fl_fabric_lft(fab, n, &len) != NULL;
    }
    fl_id p0 = fl_fabric_node_first_port(fab, n);
    for (uint32_t i = 0; i < fl_fabric_node_port_count(fab, n); i++) {
      fl_id p = p0 + i;
      uint32_t q = fl_fabric_port_plane(fab, p),
               lid = fl_fabric_port_lid(fab, p);
      if (q >= np)
        continue;
      if (!sw && fl_fabric_port_link_count(fab, p))
        v[q].ca_ports++;
      if (lid && (!sw || fl_fabric_port_num(fab, p) == 0)) {
        if (!v[q].min_lid || lid < v[q].min_lid)
          v[q].min_lid = lid;
        if (lid > v[q].max_lid)
          v[q].max_lid = lid;
      }
    }
  }
  return v;
}

void fl_cli_planes_text(FILE *out, const fl_cli_opts *o, const fl_fabric *fab) {
  uint32_t np = fl_fabric_plane_count(fab);
  if (np < 2)
    return;
  plane_stats *v = stats(fab, np);
  fprintf(out, "planes: %u (%s)\n", np, fl_cli_planes_source(o, fab));
  for (uint32_t i = 0; v && i < np; i++)
    fprintf(out,
            "  %s: %u switches (first %s), %u CA ports, LIDs %u-%u, LFTs of "
            "%u switches\n",
            fl_fabric_plane_name(fab, i), v[i].switches,
            v[i].first_switch ? v[i].first_switch : "-", v[i].ca_ports,
            v[i].min_lid, v[i].max_lid, v[i].lfts);
  free(v);
}

json_t *fl_cli_planes_json(const fl_cli_opts *o, const fl_fabric *fab) {
  uint32_t np = fl_fabric_plane_count(fab);
  if (np < 2)
    return NULL;
  plane_stats *v = stats(fab, np);
  json_t *arr = json_array();
  for (uint32_t i = 0; v && i < np; i++)
    json_array_append_new(arr,
                          json_pack("{s:s,s:i,s:s,s:i,s:i,s:i,s:i}", "name",
                                    fl_fabric_plane_name(fab, i), "switches",
                                    (json_int_t)v[i].switches, "first_switch",
                                    v[i].first_switch ? v[i].first_switch : "",
                                    "ca_ports", (json_int_t)v[i].ca_ports,
                                    "min_lid", (json_int_t)v[i].min_lid,
                                    "max_lid", (json_int_t)v[i].max_lid, "lfts",
                                    (json_int_t)v[i].lfts));
  free(v);
  return json_pack("{s:i,s:s,s:o}", "count", (json_int_t)np, "source",
                   fl_cli_planes_source(o, fab), "planes", arr);
}
