/* SPDX-License-Identifier: MIT */
/*
 * core/report/report_html.c — the self-contained HTML report (picture.h):
 * one file a reviewer attaches to a change ticket. It holds, in order:
 *   - the tallies: active findings per severity, set-aside ones, per rule;
 *   - each view of --view as inline SVG (Graphviz), with pan and zoom;
 *   - the findings table: sortable, filterable by rule (glob), severity and
 *     text; a row outlines its elements in the picture;
 *   - the provenance: tool version, command line, and every file the run
 *     read (inputs, folder members, policy, baseline) with its size and
 *     SHA-256, hashed when the report is written.
 * CSS and JavaScript are compiled in (html_assets.h); nothing is fetched.
 * Element ids of each view's SVG are prefixed with the view name
 * ("tiers-node-spine-01"): one page may hold several views of the same
 * elements, and ids must be unique in a page.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/file_digest.h"
#include "report/html_assets.h"
#include "report/pic_graphviz.h"
#include "report/pic_view.h"
#include "report/picture.h"
#include "util/xml_escape.h"

#ifndef FL_VERSION
#define FL_VERSION "0"
#endif

/* ---- escaping --------------------------------------------------------------
 */

static void esc(FILE *out, const char *s) {
  fl_xml_fputs(s, FL_XML_TEXT | FL_XML_APOS_NUM, out);
}

static const char *sev_word(uint32_t sev) {
  return fl_severity_name(sev);
}

/* ---- header and tallies
 * ------------------------------------------------------
 */

static void header(FILE *out, const fl_report_input *in, int is_diff) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\">\n<meta name=\"viewport\" "
        "content=\"width=device-width, initial-scale=1\">\n<title>fabriclint ",
        out);
  fputs(is_diff ? "diff" : "check", out);
  fputs(" report", out);
  const fl_report_picture *pic = in->picture;
  if (fl_fabric_file_count(pic->fab)) {
    fputs(": ", out);
    esc(out, fl_fabric_file_path(pic->fab, 0));
  }
  fputs("</title>\n<style>\n", out);
  fputs(fl_html_css, out);
  fputs("</style>\n</head>\n<body>\n<header><h1>fabriclint ", out);
  fputs(is_diff ? "diff" : "check", out);
  fputs(" report</h1><p class=\"sub\">", out);
  const fl_fabric *sides[2] = {pic->fab, pic->fab_built};
  for (int k = 0; k < 2; k++)
    for (uint32_t i = 0; sides[k] && i < fl_fabric_file_count(sides[k]); i++) {
      if (k || i)
        fputs(k && !i ? " &#8594; " : ", ", out);
      if (i == 8) {
        fprintf(out, "and %u more", fl_fabric_file_count(sides[k]) - 8);
        break;
      }
      esc(out, fl_fabric_file_path(sides[k], i));
    }
  fputs("</p></header>\n", out);
}

static size_t count_state(const fl_findings *fs, int waived, int baseline) {
  size_t n = 0;
  for (size_t i = 0; i < fs->n; i++)
    n += (waived && fs->v[i].waived) || (baseline && fs->v[i].baseline);
  return n;
}

static void tallies(FILE *out, const fl_report_input *in) {
  const fl_findings *fs = in->fs;
  static const uint32_t SEVS[] = {FL_SEV_ERROR, FL_SEV_WARNING, FL_SEV_INFO};
  fputs("<section id=\"tallies\"><h2>Tallies</h2><div class=\"tallies\">", out);
  for (size_t k = 0; k < 3; k++)
    fprintf(out,
            "<div class=\"sev-%s\" id=\"tally-%s\"><div "
            "class=\"count\">%zu</div>%s</div>",
            sev_word(SEVS[k]), sev_word(SEVS[k]),
            fl_findings_count_active(fs, SEVS[k]),
            SEVS[k] == FL_SEV_INFO    ? "info"
            : SEVS[k] == FL_SEV_ERROR ? "errors"
                                      : "warnings");
  fprintf(out,
          "<div id=\"tally-set-aside\"><div class=\"count\">%zu</div>set "
          "aside (%zu waived, %zu baseline)</div>",
          count_state(fs, 1, 1), count_state(fs, 1, 0), count_state(fs, 0, 1));
  fprintf(out,
          "<div id=\"tally-rules\"><div class=\"count\">%zu</div>rules "
          "run</div>",
          in->rules_run);
  if (in->counts)
    fprintf(out,
            "<div id=\"tally-fabric\"><div class=\"count\">%u</div>switches, "
            "%u CAs, %u cables</div>",
            in->counts->switches, in->counts->cas, in->counts->links);
  fputs("</div>\n<table id=\"rule-tally\"><thead><tr><th>rule</th><th>"
        "severity</th><th>active findings</th></tr></thead><tbody>",
        out);
  for (size_t r = 0; r < in->n_rules; r++) {
    /* the severity its findings were reported at (a rule may report below
     * its default level: a credit loop on a weak inference is a warning),
     * as the text tally says; the rule's level only when it found nothing */
    size_t n = 0;
    uint32_t sev = 0;
    for (size_t i = 0; i < fs->n; i++)
      if (fl_finding_active(&fs->v[i]) &&
          !strcmp(fs->v[i].rule, in->rules[r].id)) {
        n++;
        sev = fs->v[i].severity > sev ? fs->v[i].severity : sev;
      }
    if (!n)
      sev = in->rules[r].level;
    if (!n && !in->rules[r].failed)
      continue;
    fputs("<tr><td>", out);
    esc(out, in->rules[r].id);
    fprintf(out, "</td><td class=\"sev-%s\">%s</td><td>%zu%s</td></tr>",
            sev_word(sev), sev_word(sev), n,
            in->rules[r].failed ? " (could not run)" : "");
  }
  fputs("</tbody></table></section>\n", out);
}

/* ---- views ----------------------------------------------------------------
 */

/* The SVG of @svg from its <svg> tag on, without width and height (the page
 * sizes it), every id prefixed with "@view-". */
static void embed_svg(FILE *out, const char *svg, const char *view) {
  const char *p = strstr(svg, "<svg");
  if (!p)
    return;
  const char *tag_end = strchr(p, '>');
  fputs("<svg preserveAspectRatio=\"xMidYMin meet\"", out); /* top */
  for (const char *q = p + 4; *q;) {
    const char *id = strstr(q, " id=\"");
    const char *w = NULL;
    if (tag_end && q < tag_end) { /* drop width="..." height="..." */
      const char *a = strstr(q, " width=\""), *b = strstr(q, " height=\"");
      w = a && a < tag_end ? a : NULL;
      if (b && b < tag_end && (!w || b < w))
        w = b;
    }
    if (w && (!id || w < id)) {
      fwrite(q, 1, (size_t)(w - q), out);
      const char *v = strchr(w + 2, '"');
      v = v ? strchr(v + 1, '"') : NULL;
      q = v ? v + 1 : w + 1;
      continue;
    }
    if (!id) {
      fputs(q, out);
      break;
    }
    fwrite(q, 1, (size_t)(id - q) + 5, out);
    fputs(view, out);
    fputc('-', out);
    q = id + 5;
  }
}

static int one_view(FILE *out, const fl_report_input *in, uint32_t view,
                    int first) {
  const char *name = fl_view_name(view);
  fprintf(out,
          "<div class=\"view%s\" data-view=\"%s\" id=\"view-%s\">"
          "<div class=\"toolbar\"><button data-act=\"zoomIn\">+</button>"
          "<button data-act=\"zoomOut\">&#8722;</button><button "
          "data-act=\"reset\">fit</button>"
          "<label><input type=\"checkbox\" data-dim=\"hide-error\" checked> "
          "errors</label><label><input type=\"checkbox\" "
          "data-dim=\"hide-warning\" checked> warnings</label><label><input "
          "type=\"checkbox\" data-dim=\"hide-info\" checked> info</label>"
          "<label><input type=\"checkbox\" data-dim=\"dim-none\" checked> "
          "elements without findings</label>"
          "<span>drag to pan, wheel to zoom; a click on a coloured element "
          "filters the findings</span></div><div class=\"canvas\">",
          first ? " active" : "", name, name);
  /* a picture that cannot be drawn fails the whole report (exit 2): the
   * page begun here is not kept */
  if (fl_report_svg_embed(out, in, view, name) != 0)
    return -1;
  fputs("</div></div>\n", out);
  return 0;
}

int fl_report_svg_embed(FILE *out, const fl_report_input *in, uint32_t view,
                        const char *prefix) {
  pic_scene s;
  pic_scene_init(&s);
  char *svg = NULL, msg[512] = "";
  size_t len = 0;
  int rc = pic_build_view(&s, in, view);
  if (rc == 0)
    rc = pic_render(&s, PIC_RENDER_SVG, &svg, &len, msg, sizeof msg);
  if (in->diag && msg[0] && (rc == 0 || errno == EINVAL))
    in->diag(in->diag_ctx, rc != 0, msg);
  if (rc == 0)
    embed_svg(out, svg, prefix);
  free(svg);
  pic_scene_free(&s);
  if (rc == 0 && ferror(out)) {
    errno = errno ? errno : EIO;
    rc = -1;
  }
  return rc;
}

static int views(FILE *out, const fl_report_input *in) {
  const fl_report_picture *pic = in->picture;
  fputs("<section id=\"views\"><h2>Pictures</h2><div class=\"tabs\">", out);
  for (size_t i = 0; i < pic->n_views; i++)
    fprintf(out, "<button data-view=\"%s\"%s>%s</button>",
            fl_view_name(pic->views[i]), i == 0 ? " class=\"active\"" : "",
            fl_view_name(pic->views[i]));
  fputs("</div>\n", out);
  for (size_t i = 0; i < pic->n_views; i++)
    if (one_view(out, in, pic->views[i], i == 0) != 0)
      return -1;
  fputs("</section>\n", out);
  return 0;
}

/* ---- findings table
 * -----------------------------------------------------------
 */

/* The rule at position (@i, @k) of the run in report order: finding @i's
 * own rule for @k == 0, its consequence k-1's rule after. */
static const char *rule_at(const fl_findings *fs, size_t i, uint32_t k) {
  return k ? fs->v[i].related[k - 1].rule : fs->v[i].rule;
}

/* Every rule of the run once, in report order, the rules of attached
 * consequences included (a filter by one of them shows its cause). */
static void rule_options(FILE *out, const fl_findings *fs) {
  fputs("<option value=\"\">all rules</option>", out);
  for (size_t i = 0; i < fs->n; i++)
    for (uint32_t k = 0; k <= fs->v[i].n_related; k++) {
      const char *rule = rule_at(fs, i, k);
      int seen = 0;
      for (size_t j = 0; j <= i && !seen; j++)
        for (uint32_t m = 0; m <= fs->v[j].n_related && !seen; m++) {
          if (j == i && m == k)
            break;
          seen = !strcmp(rule_at(fs, j, m), rule);
        }
      if (seen)
        continue;
      fputs("<option value=\"", out);
      esc(out, rule);
      fputs("\">", out);
      esc(out, rule);
      fputs("</option>", out);
    }
}

/* One cause across rules (host/roots.h): the findings this one explains,
 * every one of them (the page is the full report, unlike the text), folded
 * so the table keeps one row per cause. The row's text filter matches
 * them too, since the row's text content includes the list. */
static void related(FILE *out, const fl_finding_rec *r) {
  if (!r->n_related)
    return;
  fprintf(out,
          "<details class=\"related\" data-related=\"%u\"><summary>%u "
          "consequence%s of the same cause</summary><ul>",
          r->n_related, r->n_related, r->n_related == 1 ? "" : "s");
  for (uint32_t k = 0; k < r->n_related; k++) {
    const fl_finding_rec *c = &r->related[k];
    fprintf(out, "<li><span class=\"sev-%s\">%s</span> ", sev_word(c->severity),
            sev_word(c->severity));
    esc(out, c->message);
    fputs(" [", out);
    esc(out, c->rule);
    fputs("]</li>", out);
  }
  fputs("</ul></details>", out);
}

static void finding_row(FILE *out, const fl_report_input *in, size_t i) {
  const fl_finding_rec *r = &in->fs->v[i];
  const char *file;
  uint32_t line, col;
  fl_report_location(in, r, &file, &line, &col);
  int active = fl_finding_active(r);
  fprintf(out, "<tr data-f=\"%zu\" data-sev=\"%s\" data-rule=\"", i + 1,
          sev_word(r->severity));
  esc(out, r->rule);
  /* the rules of its consequences, so a filter by rule finds the cause */
  if (r->n_related) {
    fputs("\" data-related-rules=\"", out);
    for (uint32_t k = 0; k < r->n_related; k++) {
      if (k)
        fputc(' ', out);
      esc(out, r->related[k].rule);
    }
  }
  fprintf(out,
          "\"%s><td data-key=\"%zu\">%zu</td><td data-key=\"%u\" "
          "class=\"sev-%s\">%s</td><td>",
          active ? "" : " class=\"set-aside\"", i + 1, i + 1, 4 - r->severity,
          sev_word(r->severity), sev_word(r->severity));
  esc(out, r->rule);
  fputs("</td><td class=\"msg\">", out);
  esc(out, r->message);
  if (r->n_nodes || r->n_ports) {
    fputs("<div class=\"nodes\">", out);
    for (uint32_t k = 0; k < r->n_nodes && k < FL_TEXT_LIST_MAX; k++) {
      fputs(k ? ", " : "nodes: ", out);
      esc(out, r->nodes[k]);
    }
    if (r->n_nodes > FL_TEXT_LIST_MAX)
      fprintf(out, " and %u more", r->n_nodes - FL_TEXT_LIST_MAX);
    for (uint32_t k = 0; k < r->n_ports && k < FL_TEXT_LIST_MAX; k++) {
      fputs(k ? ", " : (r->n_nodes ? "; ports: " : "ports: "), out);
      esc(out, r->ports[k].node);
      fprintf(out, " port %u", r->ports[k].port);
    }
    if (r->n_ports > FL_TEXT_LIST_MAX)
      fprintf(out, " and %u more", r->n_ports - FL_TEXT_LIST_MAX);
    fputs("</div>", out);
  }
  related(out, r);
  fputs("</td><td class=\"where\">", out);
  if (file) {
    esc(out, file);
    fprintf(out, ":%u", line);
  }
  fputs("</td><td>", out);
  if (r->waived) {
    fputs("waived: ", out);
    esc(out, r->waiver.reason);
    fputs(" (until ", out);
    esc(out, r->waiver.expires);
    fputs(")", out);
  } else if (r->baseline) {
    fputs("baseline", out);
  } else {
    fputs("active", out);
  }
  fputs("</td></tr>\n", out);
}

static void findings(FILE *out, const fl_report_input *in) {
  fputs("<section id=\"findings\"><h2>Findings</h2><div class=\"controls\">"
        "<label>rule <select id=\"filter-rule\">",
        out);
  rule_options(out, in->fs);
  fputs("</select></label><label>severity at least <select "
        "id=\"filter-severity\"><option value=\"\">any</option><option "
        "value=\"error\">error</option><option "
        "value=\"warning\">warning</option><option "
        "value=\"info\">info</option></select></label><label>text <input "
        "id=\"filter-text\" type=\"search\"></label><button "
        "id=\"filter-clear\">show all</button><span "
        "id=\"filter-shown\"></span></div>\n<table "
        "id=\"findings-table\"><thead><tr><th>#</th><th>severity</th>"
        "<th>rule</th><th>message (the fix)</th><th>where</th><th>state</th>"
        "</tr></thead><tbody>\n",
        out);
  for (size_t i = 0; i < in->fs->n; i++)
    finding_row(out, in, i);
  fputs("</tbody></table></section>\n", out);
}

/* ---- provenance
 * -----------------------------------------------------------------
 */

/* One file the run read: its size and SHA-256 as recorded when its bytes
 * were read (model/file_digest.h); never opened again (a FIFO or a pipe
 * can be read once, a file may have changed since). */
static void prov_file(FILE *out, const char *role, const char *path,
                      const fl_file_digest *d) {
  char hex[65];
  fputs("<tr><td>", out);
  esc(out, role);
  fputs("</td><td>", out);
  esc(out, path);
  if (d && d->known)
    fprintf(out, "</td><td>%" PRIu64 "</td><td>%s</td></tr>\n", d->size,
            fl_digest_hex(d, hex));
  else
    fputs("</td><td></td><td>not recorded</td></tr>\n", out);
}

static void provenance(FILE *out, const fl_report_input *in) {
  const fl_report_picture *pic = in->picture;
  fputs("<section id=\"provenance\"><h2>Provenance</h2><table "
        "class=\"prov\"><tbody><tr><th>tool</th><td "
        "colspan=\"3\">fabriclint " FL_VERSION
        "</td></tr><tr><th>command</th><td colspan=\"3\">fabriclint",
        out);
  for (int i = 0; i < pic->argc; i++) {
    fputc(' ', out);
    esc(out, pic->argv[i]);
  }
  fputs("</td></tr></tbody></table>\n<table class=\"prov\" "
        "id=\"inputs\"><thead><tr><th>role</th><th>file</th><th>bytes</th>"
        "<th>SHA-256</th></tr></thead><tbody>\n",
        out);
  const fl_fabric *sides[2] = {pic->fab, pic->fab_built};
  const char *roles[2] = {pic->fab_built ? "design" : "input", "as built"};
  for (int k = 0; k < 2; k++)
    for (uint32_t i = 0; sides[k] && i < fl_fabric_file_count(sides[k]); i++)
      prov_file(out, roles[k], fl_fabric_file_path(sides[k], i),
                fl_fabric_file_digest(sides[k], i));
  if (pic->policy_path)
    prov_file(out, "policy", pic->policy_path, pic->policy_digest);
  if (pic->baseline_path)
    prov_file(out, "baseline", pic->baseline_path, pic->baseline_digest);
  fputs("</tbody></table><p>Sizes and SHA-256 are of the bytes this run read "
        "(inputs, included files, IBNL definitions, policy, baseline), "
        "recorded as they were read.</p></section>\n",
        out);
}

int fl_report_html(FILE *out, const fl_report_input *in) {
  const fl_report_picture *pic = in->picture;
  if (!pic || !pic->fab || !pic->n_views) {
    errno = EINVAL;
    return -1;
  }
  header(out, in, pic->fab_built != NULL);
  tallies(out, in);
  if (views(out, in) != 0)
    return -1;
  findings(out, in);
  provenance(out, in);
  fputs("<footer>Written by fabriclint " FL_VERSION
        ". The pictures are Graphviz drawings of the fabric (docs/"
        "pictures.md).</footer>\n<script>\n",
        out);
  fputs(fl_html_js, out);
  fputs("</script>\n</body>\n</html>\n", out);
  if (ferror(out)) {
    errno = errno ? errno : EIO;
    return -1;
  }
  return 0;
}
