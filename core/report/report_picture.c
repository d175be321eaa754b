/* SPDX-License-Identifier: MIT */
/*
 * core/report/report_picture.c — the `dot` and `svg` writers, the view
 * names of --view, the --focus check, and the dispatch from a view name to
 * the file that builds it (picture.h). The HTML report (report_html.c)
 * builds its views through the same pic_build_view().
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/pic_graphviz.h"
#include "report/pic_view.h"
#include "report/picture.h"

static const struct {
  uint32_t view;
  const char *name;
} VIEWS[] = {{FL_VIEW_TIERS, "tiers"},
             {FL_VIEW_RAILS, "rails"},
             {FL_VIEW_LOAD, "load"},
             {FL_VIEW_DIFF, "diff"},
             {FL_VIEW_DOMAINS, "domains"}};

#define N_VIEWS (sizeof VIEWS / sizeof VIEWS[0])

const char *fl_view_name(uint32_t v) {
  for (size_t i = 0; i < N_VIEWS; i++)
    if (VIEWS[i].view == v)
      return VIEWS[i].name;
  return "?";
}

static uint32_t view_parse(const char *s, size_t n) {
  for (size_t i = 0; i < N_VIEWS; i++)
    if (strlen(VIEWS[i].name) == n && strncmp(VIEWS[i].name, s, n) == 0)
      return VIEWS[i].view;
  return 0;
}

int fl_views_parse(const char *list, int is_diff, uint32_t *views, size_t *n,
                   char *msg, size_t size) {
  *n = 0;
  const char *p = list;
  do {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    uint32_t v = view_parse(p, len);
    if (!v) {
      snprintf(msg, size, "--view: expected %s, got '%.*s'",
               is_diff ? "diff"
                       : "tiers, rails, load or domains (or a "
                         "comma-separated list of them)",
               (int)(len > 100 ? 100 : len), p);
      return -1;
    }
    if (is_diff != (v == FL_VIEW_DIFF)) {
      snprintf(msg, size,
               is_diff ? "--view: diff draws the diff view (--view diff), "
                         "not '%s'"
                       : "--view: '%s' is drawn by `fabriclint diff`; check "
                         "draws tiers, rails, load or domains",
               fl_view_name(v));
      return -1;
    }
    for (size_t i = 0; i < *n; i++)
      if (views[i] == v) {
        snprintf(msg, size, "--view: '%s' is listed twice", fl_view_name(v));
        return -1;
      }
    views[(*n)++] = v;
    p = e ? e + 1 : NULL;
  } while (p && *n < FL_VIEW_MAX);
  if (p) {
    snprintf(msg, size, "--view: at most %u views", FL_VIEW_MAX);
    return -1;
  }
  return 0;
}

int fl_picture_focus_check(const fl_report_picture *pic, const char *focus,
                           const fl_report_rule *rules, size_t n_rules,
                           fl_error *err) {
  if ((pic->fab && fl_fabric_find_node_name(pic->fab, focus) != FL_NONE) ||
      (pic->fab_built &&
       fl_fabric_find_node_name(pic->fab_built, focus) != FL_NONE))
    return 0;
  size_t n = strlen(focus);
  for (size_t i = 0; i < n_rules; i++)
    if (fnmatch(focus, rules[i].id, 0) == 0 ||
        (strncmp(rules[i].id, focus, n) == 0 && rules[i].id[n] == '.'))
      return 0;
  fl_error_set(err, FL_EINVAL, NULL, 0, 0,
               "--focus: '%.200s' is neither a node of the fabric (exact "
               "name, as findings print it) nor a rule that ran (an id or "
               "glob such as 'rail-alignment.*'; see fabriclint rules)",
               focus);
  return -1;
}

int pic_build_view(pic_scene *s, const fl_report_input *in, uint32_t view) {
  const fl_report_picture *pic = in->picture;
  if (!pic || !pic->fab) {
    errno = EINVAL;
    return -1;
  }
  pic_ctx c;
  int rc = pic_ctx_init(&c, in, pic->fab);
  if (rc == 0) {
    switch (view) {
    case FL_VIEW_RAILS:
      rc = pic_view_rails(s, &c);
      break;
    case FL_VIEW_LOAD:
      rc = pic_view_load(s, &c);
      break;
    case FL_VIEW_DIFF:
      rc = pic_view_diff(s, &c);
      break;
    case FL_VIEW_DOMAINS:
      rc = pic_view_domains(s, &c);
      break;
    default:
      rc = pic_view_tiers(s, &c);
    }
  }
  pic_ctx_free(&c);
  if (rc != 0 || s->oom) {
    errno = ENOMEM;
    return -1;
  }
  return 0;
}

/* Render the first view of @in as @what and write it to @out. */
static int write_picture(FILE *out, const fl_report_input *in, int what) {
  if (!in->picture || !in->picture->n_views) {
    errno = EINVAL;
    return -1;
  }
  pic_scene s;
  pic_scene_init(&s);
  char *buf = NULL, msg[512] = "";
  size_t len = 0;
  int rc = pic_build_view(&s, in, in->picture->views[0]);
  if (rc == 0)
    rc = pic_render(&s, what, &buf, &len, msg, sizeof msg);
  if (in->diag && msg[0] && (rc == 0 || errno == EINVAL))
    in->diag(in->diag_ctx, rc != 0, msg);
  pic_scene_free(&s);
  if (rc == 0 && (fwrite(buf, 1, len, out) != len || ferror(out))) {
    rc = -1;
    errno = errno ? errno : EIO;
  }
  free(buf);
  return rc;
}

int fl_report_dot(FILE *out, const fl_report_input *in) {
  return write_picture(out, in, PIC_RENDER_DOT);
}

int fl_report_svg(FILE *out, const fl_report_input *in) {
  return write_picture(out, in, PIC_RENDER_SVG);
}
