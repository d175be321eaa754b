/* SPDX-License-Identifier: MIT */
/*
 * core/report/writers.c — the report writer registry: which --format names
 * exist and which writer renders each. The writers (report.c for text and
 * JSON, report_sarif.c, report_junit.c, report_codequality.c; the pictures
 * dot, svg and html in report_picture.c and report_html.c) know nothing of
 * each other or of this table; they use the shared helpers of report.c. A
 * new format is one new writer file and one line here.
 */
#include <stddef.h>
#include <string.h>

#include "report/picture.h"
#include "report/report.h"

static int write_text(FILE *out, const fl_report_input *in) {
  return fl_report_text(out, in->fs, in->rules_run, in->quiet,
                        in->max_per_rule);
}

static int write_json(FILE *out, const fl_report_input *in) {
  return fl_report_json(out, in->fs, in->counts);
}

/* One row per --format: its name, its FL_OUT_* code, its writer. */
static const struct {
  const char *name;
  int code;
  int (*write)(FILE *out, const fl_report_input *in);
} WRITERS[] = {
    {"text", FL_OUT_TEXT, write_text},
    {"json", FL_OUT_JSON, write_json},
    {"sarif", FL_OUT_SARIF, fl_report_sarif},
    {"junit", FL_OUT_JUNIT, fl_report_junit},
    {"codequality", FL_OUT_CODEQUALITY, fl_report_codequality},
    {"dot", FL_OUT_DOT, fl_report_dot},
    {"svg", FL_OUT_SVG, fl_report_svg},
    {"html", FL_OUT_HTML, fl_report_html},
};

#define N_WRITERS (sizeof WRITERS / sizeof WRITERS[0])

int fl_report_format_parse(const char *name) {
  for (size_t i = 0; i < N_WRITERS; i++)
    if (strcmp(name, WRITERS[i].name) == 0)
      return WRITERS[i].code;
  return 0;
}

const char *fl_report_format_name_at(size_t i) {
  return i < N_WRITERS ? WRITERS[i].name : NULL;
}

int fl_report_write(FILE *out, int format, const fl_report_input *in) {
  for (size_t i = 0; i < N_WRITERS; i++)
    if (WRITERS[i].code == format)
      return WRITERS[i].write(out, in);
  return write_text(out, in); /* unknown code: text, as before */
}
