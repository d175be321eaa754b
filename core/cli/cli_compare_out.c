/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_compare_out.c — the text and Markdown renderings of the
 * comparison document (cli_compare.h). Both print the same rows, in the
 * same order: a headline, the inventory and capacity side by side with the
 * delta, the renamed nodes, the findings new / fixed / unchanged and the
 * --fail-on verdicts. JSON is the document itself (cli_compare.c). The
 * HTML page (cli_compare_html.c) takes its table from here: the same rows
 * as <tr>s.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_compare.h"
#include "util/xml_escape.h"

/* Findings listed per list (new, fixed) before "... and N more". */
#define CMP_LISTED 50

typedef struct out_ctx {
  FILE *out;
  int md;   /* 1: Markdown */
  int html; /* 1: HTML table rows (the table only) */
} out_ctx;

/* Text from the input in an HTML cell. */
static void html_text(FILE *out, const char *s) {
  fl_xml_fputs(s, FL_XML_TEXT | FL_XML_APOS_NUM, out);
}

/* Free text (a finding's message, a verdict) into Markdown: HTML's
 * specials as entities, Markdown's emphasis, code, link and table marks
 * escaped, line breaks as spaces, so a message never turns into markup. */
static void md_text(FILE *out, const char *s) {
  for (; s && *s; s++) {
    const char *e = fl_xml_entity((unsigned char)*s, FL_XML_GT);
    if (e)
      fputs(e, out);
    else if (*s == '\n' || *s == '\r')
      fputc(' ', out);
    else {
      if (strchr("\\`*_[]|#", *s))
        fputc('\\', out);
      fputc(*s, out);
    }
  }
}

/* A message or verdict: as it is in text, through md_text() in Markdown,
 * escaped in HTML. */
static void free_text(const out_ctx *c, const char *s) {
  if (c->html)
    html_text(c->out, s);
  else if (c->md)
    md_text(c->out, s);
  else
    fputs(s ? s : "", c->out);
}

/* A value as printed: an integer, a figure (%.4g; whole from 1000 on, so
 * Gb/s never print as 2.048e+05), or "-" when absent. */
static void fmt_val(const json_t *v, int sign, char *buf, size_t size) {
  if (json_is_integer(v))
    snprintf(buf, size, sign ? "%+lld" : "%lld",
             (long long)json_integer_value(v));
  else if (json_is_real(v) && fabs(json_real_value(v)) >= 1000)
    snprintf(buf, size, sign ? "%+.0f" : "%.0f", json_real_value(v));
  else if (json_is_real(v))
    snprintf(buf, size, sign ? "%+.4g" : "%.4g", json_real_value(v));
  else
    snprintf(buf, size, "-");
  if (sign && (!strcmp(buf, "+0") || !strcmp(buf, "-0")))
    snprintf(buf, size, "0");
}

/* One row: a label and the BASE, HEAD and delta values. */
static void row(const out_ctx *c, int indent, const char *label,
                const json_t *b, const json_t *h, const json_t *d) {
  char vb[32], vh[32], vd[32], lab[96];
  fmt_val(b, 0, vb, sizeof vb);
  fmt_val(h, 0, vh, sizeof vh);
  fmt_val(d, 1, vd, sizeof vd);
  snprintf(lab, sizeof lab, "%*s%s", indent * 2, "", label);
  if (c->html) {
    fprintf(c->out, "<tr><td class=\"in%d\">", indent);
    html_text(c->out, label);
    fprintf(c->out, "</td><td>%s</td><td>%s", vb, vh);
    fprintf(c->out, "</td><td>%s</td></tr>\n", vd);
  } else if (c->md) {
    fprintf(c->out, "| %s", indent ? "&nbsp;&nbsp;" : "");
    md_text(c->out, label); /* tier pairs and media come from the input */
    fprintf(c->out, " | %s | %s | %s |\n", vb, vh, vd);
  } else
    fprintf(c->out, "  %-34s %12s %12s %10s\n", lab, vb, vh, vd);
}

/* The rows of every member of object @key of the three objects (BASE,
 * HEAD, delta; the delta holds the union of the members), labelled
 * "@prefix <member>", @field of each member when non-NULL. */
static void rows_of(const out_ctx *c, const json_t *const o[3], const char *key,
                    const char *prefix, const char *field) {
  const json_t *d = json_object_get(o[2], key);
  const char *k;
  json_t *v;
  json_object_foreach((json_t *)d, k, v) {
    const json_t *x[3];
    for (int s = 0; s < 3; s++) {
      x[s] = json_object_get(json_object_get(o[s], key), k);
      if (field)
        x[s] = json_object_get(x[s], field);
    }
    if (field && !x[0] && !x[1])
      continue;
    char lab[80];
    snprintf(lab, sizeof lab, "%s%s", prefix, k);
    row(c, 1, lab, x[0], x[1], x[2]);
  }
}

/* A row of one side's name or value (@side 0 BASE, 1 HEAD) under a
 * figure: in its side's column in Markdown and HTML, "@label, SIDE: @text"
 * in text. */
static void side_row(const out_ctx *c, int indent, const char *label, int side,
                     const char *text) {
  if (c->html) {
    fprintf(c->out, "<tr><td class=\"in%d\">", indent);
    html_text(c->out, label);
    fprintf(c->out, "</td>%s<td>", side ? "<td></td>" : "");
    html_text(c->out, text);
    fputs(side ? "</td><td></td></tr>\n" : "</td><td></td><td></td></tr>\n",
          c->out);
  } else if (c->md) {
    fputs("| ", c->out);
    for (int i = 0; i < indent; i++)
      fputs("&nbsp;&nbsp;", c->out);
    fprintf(c->out, "%s | %s", label, side ? "| " : "");
    free_text(c, text); /* a name from the input: never markup */
    fputs(side ? " | |\n" : " | | |\n", c->out);
  } else {
    fprintf(c->out, "%*s%s, %s: ", indent * 2 + 2, "", label,
            side ? "HEAD" : "BASE");
    free_text(c, text);
    fputc('\n', c->out);
  }
}

static void section(const out_ctx *c, const char *title) {
  if (c->html) {
    fputs("<tr class=\"section\"><th colspan=\"4\">", c->out);
    html_text(c->out, title);
    fputs("</th></tr>\n", c->out);
  } else if (c->md)
    fprintf(c->out, "| **%s** | | | |\n", title);
  else
    fprintf(c->out, "%s\n", title);
}

/* The three objects at @path (inventory or capacity) of BASE, HEAD, delta. */
static void sides(const json_t *m, const char *what, const json_t *o[3]) {
  o[0] = json_object_get(json_object_get(m, "base"), what);
  o[1] = json_object_get(json_object_get(m, "head"), what);
  o[2] = json_object_get(json_object_get(m, "delta"), what);
}

static void table(const out_ctx *c, const json_t *m) {
  const json_t *o[3];
  sides(m, "inventory", o);
  if (c->html)
    fputs("<thead><tr><th></th><th>BASE</th><th>HEAD</th><th>change</th></tr>"
          "</thead><tbody>\n",
          c->out);
  else if (c->md)
    fprintf(c->out, "\n| | BASE | HEAD | change |\n|---|---:|---:|---:|\n");
  else
    fprintf(c->out, "\n  %-34s %12s %12s %10s\n", "", "BASE", "HEAD", "change");
  section(c, "inventory");
  static const char *const top[][2] = {{"switches", "switches"},
                                       {"cas", "hosts (CA nodes)"},
                                       {"cables", "cables"}};
  for (size_t i = 0; i < 3; i++)
    row(c, 0, top[i][1], json_object_get(o[0], top[i][0]),
        json_object_get(o[1], top[i][0]), json_object_get(o[2], top[i][0]));
  rows_of(c, o, "tiers", "switches tier ", "switches");
  rows_of(c, o, "tiers", "ports tier ", "ports");
  rows_of(c, o, "tiers", "cabled ports tier ", "cabled_ports");
  rows_of(c, o, "cables_by_tiers", "cables tiers ", NULL);
  rows_of(c, o, "cables_by_rate", "cables ", NULL);
  rows_of(c, o, "cables_by_media", "cables media ", NULL);
  sides(m, "capacity", o);
  section(c, "capacity");
  if (!json_is_object(o[0]) && !json_is_object(o[1])) {
    row(c, 1, "(ecmp-balance.summary did not run)", NULL, NULL, NULL);
    return;
  }
  rows_of(c, o, "tiers", "oversubscription tier ", "oversubscription");
  rows_of(c, o, "tiers", "up Gb/s tier ", "up_gbps");
  rows_of(c, o, "tiers", "down Gb/s tier ", "down_gbps");
  const char *pat = json_string_value(json_object_get(o[1], "ebb_pattern"));
  if (!pat)
    pat = json_string_value(json_object_get(o[0], "ebb_pattern"));
  char lab[64];
  snprintf(lab, sizeof lab, "eBB (%s)", pat ? pat : "no pattern");
  row(c, 1, lab, json_object_get(o[0], "ebb"), json_object_get(o[1], "ebb"),
      json_object_get(o[2], "ebb"));
}

/* One row per {JSON key, label} of @k (@n of them): BASE, HEAD, delta. */
static void key_rows(const out_ctx *c, const json_t *const o[3],
                     const char *const k[][2], size_t n) {
  for (size_t i = 0; i < n; i++)
    row(c, 1, k[i][1], json_object_get(o[0], k[i][0]),
        json_object_get(o[1], k[i][0]), json_object_get(o[2], k[i][0]));
}

/* The worst single switch failure (failure-domains.single-point). */
static void failure(const out_ctx *c, const json_t *m) {
  const json_t *o[3];
  sides(m, "failure", o);
  section(c, "single switch failure");
  if (!json_is_object(o[0]) && !json_is_object(o[1])) {
    row(c, 1, "(failure-domains.single-point did not run)", NULL, NULL, NULL);
    return;
  }
  static const char *const k[][2] = {
      {"single_point_switches", "switches that cut endpoints off"},
      {"worst_cut_off_endpoints", "endpoints cut off, worst switch"}};
  key_rows(c, o, k, 2);
  for (int s = 0; s < 2; s++) {
    const char *w = json_string_value(json_object_get(o[s], "worst_switch"));
    if (w) /* the name in its side's column (BASE, HEAD) */
      side_row(c, 1, "worst switch", s, w);
  }
}

/* The worst single failure of each failure-domain key (rack, row, hall,
 * PDU, feed; failure-domains.summary): the servers it takes off the
 * fabric, and which value it is on each side. */
static void domain_failures(const out_ctx *c, const json_t *m) {
  const json_t *o[3];
  sides(m, "domain_failures", o);
  if (!json_is_object(o[0]) && !json_is_object(o[1]))
    return;
  section(c, "worst single failure domain (failure-domains.summary)");
  const char *k;
  json_t *v;
  json_object_foreach((json_t *)o[2], k, v) {
    const json_t *x[3];
    for (int s = 0; s < 3; s++)
      x[s] = json_object_get(json_object_get(o[s], k), "servers_off");
    char lab[96];
    snprintf(lab, sizeof lab, "servers off, worst %s", k);
    row(c, 1, lab, x[0], x[1], x[2]);
    for (int s = 0; s < 2; s++) {
      const char *w =
          json_string_value(json_object_get(json_object_get(o[s], k), "worst"));
      char what[96];
      snprintf(what, sizeof what, "worst %s", k); /* a key we name */
      if (w) /* the value in its side's column */
        side_row(c, 2, what, s, w);
    }
  }
}

/* The cost and power of each side's bill of materials (--catalogue):
 * "-" where the catalogue lacks a row's figure, with the count of such
 * rows. */
static void cost(const out_ctx *c, const json_t *m) {
  const json_t *o[3];
  sides(m, "cost", o);
  if (!json_is_object(o[0]) && !json_is_object(o[1]))
    return;
  section(c, "cost and power (bill of materials, --catalogue)");
  static const char *const k[][2] = {
      {"price", "price"},
      {"watts", "watts"},
      {"rows", "BOM rows"},
      {"rows_without_price", "rows without a price"},
      {"rows_without_watts", "rows without watts"}};
  key_rows(c, o, k, 5);
}

/* The unicast LIDs each subnet needs (topology.lid-space with
 * figures=true) against the 49,151 of a subnet: the
 * largest subnet's, the LIDs it leaves, and each subnet's when a side has
 * more than one (planes). */
static void lid_space(const out_ctx *c, const json_t *m) {
  const json_t *o[3];
  sides(m, "lid_space", o);
  if (!json_is_object(o[0]) && !json_is_object(o[1]))
    return;
  section(c, "LID space (unicast LIDs; 49151 per subnet)");
  static const char *const k[][2] = {
      {"subnets", "subnets"},
      {"lmc", "LMC"},
      {"lids_needed", "LIDs needed, largest subnet"},
      {"lids_left", "LIDs left, largest subnet"},
      {"lids_total", "LIDs needed, all subnets"}};
  key_rows(c, o, k, 5);
  if (json_integer_value(json_object_get(o[0], "subnets")) > 1 ||
      json_integer_value(json_object_get(o[1], "subnets")) > 1)
    rows_of(c, o, "by_subnet", "LIDs needed, ", "lids_needed");
}

/* The first bottleneck of collective @x on side @side ("BASE", "HEAD"):
 * its link and how many flows share it (perf's figures). */
static void bottleneck(const out_ctx *c, const json_t *x, const char *side) {
  const json_t *b = json_object_get(x, "bottleneck");
  const char *err = json_string_value(json_object_get(x, "error"));
  if (!json_is_object(b) && !err)
    return;
  fprintf(c->out,
          c->html ? "<tr><td class=\"in2\" colspan=\"4\">%s%s: "
          : c->md ? "| &nbsp;&nbsp;&nbsp;&nbsp;%s%s: "
                  : "      %s%s: ",
          err ? "" : "bottleneck ", side);
  if (err) {
    fputs("cannot be routed: ", c->out);
    free_text(c, err);
  } else {
    free_text(c, json_string_value(json_object_get(b, "link")));
    fprintf(c->out, ", %.4g flows share %.6g Gb/s",
            json_number_value(json_object_get(b, "flow_count")),
            json_number_value(json_object_get(b, "capacity_gbps")));
  }
  fputs(c->html ? "</td></tr>\n" : c->md ? " | | | |\n" : "\n", c->out);
}

/* The job's training step (--workload with `training:`): step time,
 * exposed communication and each phase's time on both sides. */
static void step_rows(const out_ctx *c, const json_t *o[3]) {
  const json_t *sb = json_object_get(o[0], "step"),
               *sh = json_object_get(o[1], "step"),
               *sd = json_object_get(o[2], "step");
  if (!json_is_object(sb) || !json_is_object(sh))
    return;
  char title[160];
  snprintf(title, sizeof title, "training step (--workload %s), s",
           json_string_value(json_object_get(o[0], "file")));
  section(c, title);
  row(c, 1, "step time", json_object_get(sb, "step_time_s"),
      json_object_get(sh, "step_time_s"), json_object_get(sd, "step_time_s"));
  row(c, 1, "exposed communication", json_object_get(sb, "comm_s"),
      json_object_get(sh, "comm_s"), json_object_get(sd, "comm_s"));
  const json_t *pb = json_object_get(sb, "phases"),
               *pd = json_object_get(sd, "phases");
  for (size_t i = 0; i < json_array_size(pb); i++) {
    const json_t *x = json_array_get(pb, i);
    const char *name = json_string_value(json_object_get(x, "phase"));
    const json_t *dd = json_array_get(pd, i);
    const json_t *y = fl_cmp_step_phase(json_object_get(sh, "phases"), name);
    char lab[64];
    snprintf(lab, sizeof lab, "%s phase time", name);
    row(c, 1, lab, json_object_get(x, "time_s"), json_object_get(y, "time_s"),
        json_object_get(dd, "time_s"));
  }
  const json_t *kb = json_object_get(sb, "checkpoint"),
               *kh = json_object_get(sh, "checkpoint"),
               *kd = json_object_get(sd, "checkpoint");
  if (json_is_object(kb) && json_is_object(kh)) {
    row(c, 1, "checkpoint alone", json_object_get(kb, "alone_s"),
        json_object_get(kh, "alone_s"), json_object_get(kd, "alone_s"));
    row(c, 1, "checkpoint beside the step", json_object_get(kb, "during_s"),
        json_object_get(kh, "during_s"), json_object_get(kd, "during_s"));
    row(c, 1, "step time during it", json_object_get(kb, "step_time_during_s"),
        json_object_get(kh, "step_time_during_s"),
        json_object_get(kd, "step_time_during_s"));
  }
  static const char *const side[2] = {"BASE", "HEAD"};
  for (int k = 0; k < 2; k++) {
    const char *err = json_string_value(json_object_get(k ? sh : sb, "error"));
    if (err) {
      fprintf(c->out,
              c->html ? "<tr><td class=\"in2\" colspan=\"4\">%s: "
              : c->md ? "| &nbsp;&nbsp;&nbsp;&nbsp;%s: "
                      : "      %s: ",
              side[k]);
      fputs("cannot be routed: ", c->out);
      free_text(c, err);
      fputs(c->html ? "</td></tr>\n" : c->md ? " | | | |\n" : "\n", c->out);
    }
  }
}

/* The job's collectives (--workload): the fabric's bus bandwidth of each
 * on both sides, and the link that limits it on each. */
static void workload(const out_ctx *c, const json_t *m) {
  const json_t *o[3];
  sides(m, "workload", o);
  if (!json_is_object(o[0]) || !json_is_object(o[1]))
    return;
  char title[160];
  snprintf(title, sizeof title, "collectives (--workload %s), busbw GB/s",
           json_string_value(json_object_get(o[0], "file")));
  const json_t *cb = json_object_get(o[0], "collectives"),
               *ch = json_object_get(o[1], "collectives"),
               *cd = json_object_get(o[2], "collectives");
  if (json_array_size(cb)) /* a training step has none */
    section(c, title);
  for (size_t i = 0; i < json_array_size(cb); i++) {
    const json_t *x = json_array_get(cb, i), *y = json_array_get(ch, i);
    row(c, 1, json_string_value(json_object_get(x, "label")),
        json_object_get(x, "busbw_GBps"), json_object_get(y, "busbw_GBps"),
        json_object_get(json_array_get(cd, i), "busbw_GBps"));
    bottleneck(c, x, "BASE");
    bottleneck(c, y, "HEAD");
  }
  step_rows(c, o);
}

static long long count(const json_t *counts, const char *sev) {
  return (long long)json_integer_value(json_object_get(counts, sev));
}

/* "2 (1 error, 1 warning, 0 info)" from a counts object (cli_compare.h). */
void fl_cmp_counts_text(const json_t *cn, char *buf, size_t size) {
  long long e = count(cn, "error"), w = count(cn, "warning"),
            i = count(cn, "info");
  snprintf(buf, size, "%lld (%lld error, %lld warning, %lld info)", e + w + i,
           e, w, i);
}

static void list(const out_ctx *c, const json_t *m, const char *which) {
  const json_t *fs = json_object_get(json_object_get(m, "findings"), which);
  const json_t *cn = json_object_get(
      json_object_get(json_object_get(m, "findings"), "counts"), which);
  char buf[96];
  fl_cmp_counts_text(cn, buf, sizeof buf);
  fprintf(c->out, c->md ? "\n**%s**: %s\n" : "\n%s: %s\n", which, buf);
  if (c->md && json_array_size(fs))
    fputc('\n', c->out);
  size_t i;
  json_t *f;
  json_array_foreach((json_t *)fs, i, f) {
    if (i == CMP_LISTED) {
      fprintf(c->out,
              c->md ? "- ... and %zu more (--format json lists all)\n"
                    : "  ... and %zu more (--format json lists all)\n",
              json_array_size(fs) - i);
      break;
    }
    const char *sev = json_string_value(json_object_get(f, "severity"));
    const char *rule = json_string_value(json_object_get(f, "rule"));
    const char *msg = json_string_value(json_object_get(f, "message"));
    if (c->md)
      fprintf(c->out, "- **%s** `%s`: ", sev, rule);
    else
      fprintf(c->out, "  %-7s %s: ", sev, rule);
    free_text(c, msg);
    fputc('\n', c->out);
  }
}

static void renamed(const out_ctx *c, const json_t *m) {
  const json_t *r = json_object_get(m, "renamed");
  if (!json_array_size(r))
    return;
  fprintf(c->out,
          c->md ? "\n**renamed nodes** (same GUID): %zu\n\n"
                : "\nrenamed nodes (same GUID): %zu\n",
          json_array_size(r));
  size_t i;
  json_t *e;
  json_array_foreach((json_t *)r, i, e) {
    if (i == CMP_LISTED)
      break;
    fputs(c->md ? "- " : "  ", c->out);
    free_text(c, json_string_value(json_object_get(e, "base")));
    fputs(c->md ? " → " : " -> ", c->out);
    free_text(c, json_string_value(json_object_get(e, "head")));
    fputc('\n', c->out);
  }
}

static void verdicts(const out_ctx *c, const json_t *m) {
  const json_t *v = json_object_get(m, "fail_on");
  if (!json_array_size(v))
    return;
  fprintf(c->out, c->md ? "\n**fail-on**\n\n" : "\nfail-on:\n");
  size_t i;
  json_t *e;
  json_array_foreach((json_t *)v, i, e) {
    /* failed: true, false, or null when the policy could not be judged
     * (no figure to judge it on: exit 2), which is no pass */
    const json_t *fv = json_object_get(e, "failed");
    const char *mark = json_is_true(fv) ? (c->md ? "❌" : "FAIL")
                       : json_is_false(fv)
                           ? (c->md ? "✅" : "ok  ")
                           : (c->md ? "⚠️ not judged" : "N/A ");
    fprintf(c->out, c->md ? "- %s `%s`: " : "  %s %s: ", mark,
            json_string_value(json_object_get(e, "policy")));
    free_text(c, json_string_value(json_object_get(e, "why")));
    fputc('\n', c->out);
  }
}

/* The headline: the findings delta in one line. */
static void headline(const out_ctx *c, const json_t *m) {
  const json_t *cn = json_object_get(json_object_get(m, "findings"), "counts");
  char n[96], f[96];
  fl_cmp_counts_text(json_object_get(cn, "new"), n, sizeof n);
  fl_cmp_counts_text(json_object_get(cn, "fixed"), f, sizeof f);
  const char *b =
      json_string_value(json_object_get(json_object_get(m, "base"), "input"));
  const char *h =
      json_string_value(json_object_get(json_object_get(m, "head"), "input"));
  if (c->md) {
    fputs("### fabriclint compare\n\nBASE ", c->out);
    md_text(c->out, b);
    fputs(" → HEAD ", c->out);
    md_text(c->out, h);
    fprintf(c->out, ": new findings %s, fixed %s\n", n, f);
  } else
    fprintf(c->out, "compare: BASE %s -> HEAD %s\nnew findings %s, fixed %s\n",
            b, h, n, f);
}

static int write_all(FILE *out, const json_t *m, int quiet, int md) {
  out_ctx c = {out, md, 0};
  errno = 0;
  headline(&c, m);
  if (!quiet) {
    table(&c, m);
    failure(&c, m);
    domain_failures(&c, m);
    cost(&c, m);
    lid_space(&c, m);
    workload(&c, m);
  }
  if (!quiet)
    renamed(&c, m);
  list(&c, m, "new");
  if (!quiet) {
    list(&c, m, "fixed");
    const json_t *cn = json_object_get(
        json_object_get(json_object_get(m, "findings"), "counts"), "unchanged");
    char u[96];
    fl_cmp_counts_text(cn, u, sizeof u);
    fprintf(out, md ? "\n**unchanged**: %s\n" : "\nunchanged: %s\n", u);
  }
  verdicts(&c, m);
  return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

int fl_cmp_write_text(FILE *out, const json_t *m, int quiet) {
  return write_all(out, m, quiet, 0);
}

int fl_cmp_write_markdown(FILE *out, const json_t *m, int quiet) {
  return write_all(out, m, quiet, 1);
}

void fl_cmp_write_table_html(FILE *out, const json_t *m) {
  out_ctx c = {out, 0, 1};
  fputs("<table class=\"compare\">", out);
  table(&c, m);
  failure(&c, m);
  domain_failures(&c, m);
  cost(&c, m);
  lid_space(&c, m);
  workload(&c, m);
  fputs("</tbody></table>\n", out);
}
