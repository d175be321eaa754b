/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_compare_html.c — `fabriclint compare --format html`: one
 * self-contained page (issue 34 §1: "HTML with the pictures of both"):
 *   - the headline (BASE -> HEAD, new and fixed findings);
 *   - the summary table, the rows of the Markdown table with the same
 *     figures (fl_cmp_write_table_html(), cli_compare_out.c);
 *   - the tiers picture of each plan side by side, each with its own
 *     findings coloured, drawn by the picture machinery of `check --format
 *     html` (fl_report_svg_embed(), Graphviz), element ids prefixed "base-"
 *     and "head-";
 *   - the new and fixed findings, the unchanged count, the --fail-on
 *     verdicts.
 * The style sheet is the HTML report's (compiled in); nothing is fetched.
 * Every text from the inputs goes through the one XML/HTML escaper
 * (util/xml_escape.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_compare.h"
#include "report/html_assets.h"
#include "report/picture.h"
#include "util/xml_escape.h"

/* Findings listed per list (new, fixed), as the text and Markdown. */
#define CMP_HTML_LISTED 50

static void esc(FILE *out, const char *s) {
  fl_xml_fputs(s, FL_XML_TEXT | FL_XML_APOS_NUM, out);
}

static const char *side_input(const json_t *m, const char *side) {
  return json_string_value(json_object_get(json_object_get(m, side), "input"));
}

/* The counts of findings @which (new, fixed, unchanged), as text and
 * Markdown word them (fl_cmp_counts_text()). */
static void counts_text(FILE *out, const json_t *m, const char *which) {
  char buf[96];
  fl_cmp_counts_text(
      json_object_get(json_object_get(json_object_get(m, "findings"), "counts"),
                      which),
      buf, sizeof buf);
  fputs(buf, out);
}

static void header(FILE *out, const json_t *m) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\">\n<meta name=\"viewport\" "
        "content=\"width=device-width, initial-scale=1\">\n<title>fabriclint "
        "compare: ",
        out);
  esc(out, side_input(m, "base"));
  fputs(" &#8594; ", out);
  esc(out, side_input(m, "head"));
  fputs("</title>\n<style>\n", out);
  fputs(fl_html_css, out);
  fputs(".compare td:not(:first-child) { text-align: right; }\n"
        ".compare td.in1 { padding-left: 20px; }\n"
        ".compare td.in2 { padding-left: 34px; }\n"
        ".compare tr.section th { background: #f6f6f6; }\n"
        ".pair { display: flex; gap: 12px; }\n"
        ".pair figure { flex: 1; margin: 0; min-width: 0; }\n"
        ".pair .canvas { height: 60vh; cursor: default; }\n",
        out);
  fputs("</style>\n</head>\n<body>\n<header><h1>fabriclint compare</h1><p "
        "class=\"sub\">BASE ",
        out);
  esc(out, side_input(m, "base"));
  fputs(" &#8594; HEAD ", out);
  esc(out, side_input(m, "head"));
  fputs(": new findings ", out);
  counts_text(out, m, "new");
  fputs(", fixed ", out);
  counts_text(out, m, "fixed");
  fputs("</p></header>\n", out);
}

/* One side's picture in its <figure>: the caption gives the plan and its
 * node counts (the figures of the table's inventory). */
static int picture(FILE *out, const json_t *m, const fl_report_input *in,
                   const char *side, const char *prefix) {
  const json_t *inv = json_object_get(json_object_get(m, side), "inventory");
  fprintf(out, "<figure id=\"%s\"><figcaption><b>%s</b> ", prefix,
          strcmp(side, "base") ? "HEAD" : "BASE");
  esc(out, side_input(m, side));
  fprintf(out,
          ": <span class=\"switches\">%lld</span> switches, <span "
          "class=\"cas\">%lld</span> CAs, <span class=\"cables\">%lld</span> "
          "cables</figcaption><div class=\"canvas\">",
          (long long)json_integer_value(json_object_get(inv, "switches")),
          (long long)json_integer_value(json_object_get(inv, "cas")),
          (long long)json_integer_value(json_object_get(inv, "cables")));
  char pre[32];
  snprintf(pre, sizeof pre, "%s-%s", prefix, fl_view_name(FL_VIEW_TIERS));
  if (fl_report_svg_embed(out, in, FL_VIEW_TIERS, pre) != 0)
    return -1;
  fputs("</div></figure>\n", out);
  return 0;
}

static void list(FILE *out, const json_t *m, const char *which) {
  const json_t *fs = json_object_get(json_object_get(m, "findings"), which);
  fprintf(out, "<h3>%s: ", which);
  counts_text(out, m, which);
  fputs("</h3>\n", out);
  if (!json_array_size(fs))
    return;
  fprintf(out,
          "<table id=\"findings-%s\"><thead><tr><th>severity</th>"
          "<th>rule</th><th>message</th></tr></thead><tbody>\n",
          which);
  size_t i;
  json_t *f;
  json_array_foreach((json_t *)fs, i, f) {
    if (i == CMP_HTML_LISTED) {
      fprintf(out,
              "<tr><td colspan=\"3\">... and %zu more (--format json lists "
              "all)</td></tr>\n",
              json_array_size(fs) - i);
      break;
    }
    const char *sev = json_string_value(json_object_get(f, "severity"));
    fprintf(out, "<tr><td class=\"sev-%s\">%s</td><td>", sev, sev);
    esc(out, json_string_value(json_object_get(f, "rule")));
    fputs("</td><td>", out);
    esc(out, json_string_value(json_object_get(f, "message")));
    fputs("</td></tr>\n", out);
  }
  fputs("</tbody></table>\n", out);
}

static void verdicts(FILE *out, const json_t *m) {
  const json_t *v = json_object_get(m, "fail_on");
  if (!json_array_size(v))
    return;
  fputs("<h3>fail-on</h3>\n<ul id=\"fail-on\">\n", out);
  size_t i;
  json_t *e;
  json_array_foreach((json_t *)v, i, e) {
    const json_t *fv = json_object_get(e, "failed");
    fprintf(out, "<li class=\"%s\"><b>%s</b> <code>",
            json_is_true(fv)    ? "sev-error"
            : json_is_false(fv) ? "passed"
                                : "sev-warning",
            json_is_true(fv)    ? "FAIL"
            : json_is_false(fv) ? "ok"
                                : "not judged");
    esc(out, json_string_value(json_object_get(e, "policy")));
    fputs("</code>: ", out);
    esc(out, json_string_value(json_object_get(e, "why")));
    fputs("</li>\n", out);
  }
  fputs("</ul>\n", out);
}

int fl_cmp_write_html(FILE *out, const json_t *m,
                      const fl_report_input *const pic[2]) {
  errno = 0;
  header(out, m);
  fputs("<section id=\"summary\"><h2>Summary</h2>\n", out);
  fl_cmp_write_table_html(out, m);
  fputs("</section>\n<section id=\"pictures\"><h2>Pictures (tiers "
        "view)</h2><div class=\"pair\">\n",
        out);
  if (picture(out, m, pic[0], "base", "base") != 0 ||
      picture(out, m, pic[1], "head", "head") != 0)
    return -1;
  fputs("</div></section>\n<section id=\"findings\"><h2>Findings</h2>\n", out);
  list(out, m, "new");
  list(out, m, "fixed");
  fputs("<h3>unchanged: ", out);
  counts_text(out, m, "unchanged");
  fputs("</h3>\n", out);
  verdicts(out, m);
  fputs("</section>\n<footer>Written by fabriclint " FL_VERSION
        ". The pictures are Graphviz drawings of each plan (docs/"
        "pictures.md).</footer>\n</body>\n</html>\n",
        out);
  if (fflush(out) != 0 || ferror(out)) {
    errno = errno ? errno : EIO;
    return -1;
  }
  return 0;
}
