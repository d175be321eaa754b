/* SPDX-License-Identifier: MIT */
/*
 * core/report/view_tiers.c — the tiers view: the Clos as rows (cores on
 * top, then spines, leaves, and the CAs of each leaf as one node with a
 * count), the nodes and cables findings name in their severity colour,
 * parallel cables as one edge with their count, a legend and the findings
 * with their fix (picture.h). The drawing engine (pic_draw.c) does the
 * work; this file adds the title, the notes and the legend.
 */
#include <stdio.h>
#include <string.h>

#include "fabriclint/fabric.h"
#include "report/pic_view.h"

/* "tiers of plan.xml: 12 switches, 256 CAs, 512 cables" */
static char *title(pic_scene *s, const pic_ctx *c, const char *what) {
  const fl_fabric *f = c->fab;
  const char *src =
      fl_fabric_file_count(f) ? fl_fabric_file_path(f, 0) : "the fabric";
  return pic_printf(s, "%s of %s%s: %u switches, %u CAs, %u cables", what, src,
                    fl_fabric_file_count(f) > 1 ? " (and more)" : "",
                    fl_fabric_count_kind(f, FL_NODE_SWITCH),
                    fl_fabric_count_kind(f, FL_NODE_CA),
                    fl_fabric_link_count(f));
}

/* Side-box lines every tier-style view shares: folding, focus, left out. */
int pic_tiers_side(pic_scene *s, const pic_ctx *c, const pic_draw *d) {
  char line[512];
  if (d->grouped) {
    snprintf(line, sizeof line,
             "switches folded into one node per plane, pod (or SU) and tier: "
             "more than %u nodes, %u edges or %u nodes in one row to draw one "
             "by one; switches and CAs a finding names are drawn alone (up to "
             "%u of each)",
             PIC_MAX_ELEMENT_NODES, PIC_MAX_ELEMENT_EDGES, PIC_MAX_ROW_NODES,
             PIC_MAX_EXPAND);
    if (pic_scene_side(s, line))
      return -1;
  }
  if (c->pic && c->pic->focus) {
    snprintf(line, sizeof line,
             "focus %.200s: %u node%s, drawn with their cable neighbours",
             c->pic->focus, c->n_focus, c->n_focus == 1 ? "" : "s");
    if (pic_scene_side(s, line))
      return -1;
  }
  if (d->cas_unplaced) {
    snprintf(line, sizeof line, "%u CA%s cabled to no switch not drawn",
             d->cas_unplaced, d->cas_unplaced == 1 ? "" : "s");
    if (pic_scene_side(s, line))
      return -1;
  }
  return 0;
}

/* Legend rows for what the tier-style views draw. */
int pic_tiers_legend(pic_scene *s, const pic_ctx *c, const pic_draw *d) {
  if (pic_scene_legend(s, "#e8eef7", 0, 1,
                       d->grouped ? "switch, or switches of one pod/SU and "
                                    "tier (box with a count)"
                                  : "switch (rows: cores, spines, leaves)") ||
      pic_scene_legend(s, "#f2f2f2", 0, 1,
                       d->grouped
                           ? "the CAs of one switch or group of "
                             "switches, with their count"
                           : "the CAs of one switch, with their count") ||
      pic_scene_legend(s, "#9a9a9a", PIC_STYLE_SOLID, 0,
                       "cables; xN: N parallel cables") ||
      pic_add_sev_legend(s, c))
    return -1;
  return 0;
}

int pic_view_tiers(pic_scene *s, const pic_ctx *c) {
  pic_draw d;
  s->title = title(s, c, "tiers");
  int rc = pic_draw_fabric(s, c, NULL, &d);
  if (rc == 0)
    rc = pic_tiers_side(s, c, &d);
  if (rc == 0)
    rc = pic_tiers_legend(s, c, &d);
  if (rc == 0)
    rc = pic_add_notes(s, c, NULL);
  pic_draw_free(&d);
  return rc || s->oom ? -1 : 0;
}

char *pic_view_title(pic_scene *s, const pic_ctx *c, const char *what) {
  return title(s, c, what);
}
