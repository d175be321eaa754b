/* SPDX-License-Identifier: MIT */
/*
 * core/report/picture.h — pictures of a fabric and its findings: the
 * `--format dot|svg|html` writers of `check` and `diff`, the views chosen
 * with `--view` and `--focus` (internal; docs/pictures.md).
 *
 * Views:
 *   tiers    the Clos as layers: cores, spines, leaves; the CAs of each
 *            leaf as one node with a count; findings coloured by severity
 *            on the nodes and cables they name; a legend
 *   rails    per SU, hosts x rails: each cell the leaf and port a NIC lands
 *            on; cells named by findings in the severity colour, with the
 *            fix ("-> leaf port") when the finding gives one
 *   load     the tier view with every switch cable coloured by its load
 *            from the ecmp-balance.link-load finding; the hottest listed
 *   diff     (diff only) the plan with missing cables dashed, unexpected
 *            ones purple, moved ones drawn where they are, swapped pairs
 *            joined
 *   domains  racks (else PDUs, feeds, rows, halls) as clusters; what each
 *            domain value holds and which findings its failure raises
 *
 * Scale: a view draws one node per switch while that stays readable
 * (PIC_MAX_ELEMENT_NODES); beyond, switches collapse into one node per
 * (pod or SU, tier), and CAs are never drawn one by one unless a finding
 * names them. `--focus NODE|RULE` draws the neighbourhood of a node, or of
 * every finding of the rules a glob matches.
 *
 * Rendering uses Graphviz's libraries (cgraph, gvc, dot layout: DOT and
 * SVG), in core/report/pic_graphviz.c only.
 */
#ifndef FABRICLINT_CORE_PICTURE_H
#define FABRICLINT_CORE_PICTURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fabriclint/error.h"
#include "fabriclint/fabric.h"
#include "report/report.h"

/* views (--view) */
#define FL_VIEW_TIERS   1u
#define FL_VIEW_RAILS   2u
#define FL_VIEW_LOAD    3u
#define FL_VIEW_DIFF    4u
#define FL_VIEW_DOMAINS 5u

/** Views one HTML report may hold. */
#define FL_VIEW_MAX 5u

/**
 * fl_report_picture — what the picture writers need besides the findings.
 * All borrowed; set by the command (core/cli).
 * @fab: the fabric drawn (check: the loaded fabric; diff: the design).
 * @fab_built: diff: the as-built fabric; NULL for check.
 * @views/@n_views: the views to draw, in order (dot and svg: exactly one).
 * @focus: --focus, or NULL.
 * @argv/@argc: the command line (the HTML report's provenance).
 * @policy_path/@baseline_path: files the run read besides the inputs.
 * @policy_digest/@baseline_digest: the size and SHA-256 of their bytes as
 *   read, or NULL (the provenance then says it was not recorded).
 */
typedef struct fl_report_picture {
  const fl_fabric *fab;
  const fl_fabric *fab_built;
  uint32_t views[FL_VIEW_MAX];
  size_t n_views;
  const char *focus;
  char *const *argv;
  int argc;
  const char *policy_path;
  const char *baseline_path;
  const struct fl_file_digest *policy_digest;
  const struct fl_file_digest *baseline_digest;
} fl_report_picture;

/** Name of view @v ("tiers"...), "?" when unknown. */
const char *fl_view_name(uint32_t v);

/**
 * fl_views_parse() — parse a --view value, a comma-separated list of view
 * names, into @views (at most FL_VIEW_MAX, each once) and *@n. @is_diff
 * says which command draws: diff draws only `diff`, check every view but
 * `diff`. Returns 0, or -1 with a sentence in @msg (@size bytes) naming
 * what was expected.
 */
int fl_views_parse(const char *list, int is_diff, uint32_t *views, size_t *n,
                   char *msg, size_t size);

/**
 * fl_picture_focus_check() — 0 when @focus names a node of @pic's fabrics
 * (exactly) or matches (shell glob, or a plugin name) the id of one of the
 * @n_rules rules run; else -1 with the reason in @err (FL_EINVAL). Lets
 * the command refuse a mistyped --focus (exit 2) before writing anything.
 */
int fl_picture_focus_check(const fl_report_picture *pic, const char *focus,
                           const fl_report_rule *rules, size_t n_rules,
                           fl_error *err);

/**
 * The picture writers of the registry (core/report/writers.c). Each
 * renders @in->picture's first view (dot, svg) or every view (html) of
 * @in->picture->fab with the findings of @in. Return 0, or -1 with errno
 * set (ENOMEM, a write error, EINVAL when @in has no picture context or
 * Graphviz refused the layout, with Graphviz's message handed to
 * @in->diag when set; a layout that succeeded with a warning hands that
 * to @in->diag too).
 *   dot   the scene as DOT source (before layout; `dot -Tpdf` renders it)
 *   svg   the laid-out picture (Graphviz's SVG)
 *   html  one self-contained page: the SVG of each view inline, pan and
 *         zoom, the findings table (sortable, filterable by rule and
 *         severity; a row highlights its elements), the tallies and the
 *         provenance of the inputs (size, SHA-256)
 */
int fl_report_dot(FILE *out, const fl_report_input *in);
int fl_report_svg(FILE *out, const fl_report_input *in);
int fl_report_html(FILE *out, const fl_report_input *in);

/**
 * fl_report_svg_embed() — view @view of @in->picture->fab with the
 * findings of @in, as inline SVG for a page of another writer (`compare
 * --format html`): from the <svg> tag on, without width and height (the
 * page sizes it), every element id prefixed with "@prefix-" so that two
 * pictures of one page never share an id. 0, or -1 with errno set, as the
 * writers above.
 */
int fl_report_svg_embed(FILE *out, const fl_report_input *in, uint32_t view,
                        const char *prefix);

#endif
