/* SPDX-License-Identifier: MIT */
/*
 * core/report/report_junit.c — JUnit XML output (report.h, docs/ci.md).
 *
 * Why JUnit for a linter: it is the one report format every CI shows
 * without plugins (GitLab's test report tab, Jenkins' junit step, Azure,
 * Buildkite). The mapping follows what those viewers do with it:
 *  - one <testcase> per rule run, never one per finding: GitLab collapses
 *    duplicate (classname, name) pairs and caps the objects it parses, and
 *    a 100k-port fabric must not make a 100k-case report;
 *  - classname = the plugin (GitLab shows it as the suite), name = rule id;
 *  - a case fails when the rule has findings that fail the run (at or above
 *    --fail-on, not waived, not in the baseline), and its <failure> text
 *    lists them one per line as `file:line: severity: message`; so the
 *    report's failures agree with the exit code;
 *  - other findings (below --fail-on, waived, baseline) go to <system-out>;
 *  - a rule that could not run is an <error>.
 * No time attributes: identical inputs give byte-identical reports.
 * Written with libxml2's xmlTextWriter, which escapes text and attributes;
 * bytes that are not UTF-8 or not allowed in XML 1.0 become '?'.
 */
#include <stdlib.h>
#include <string.h>

#include <libxml/encoding.h>
#include <libxml/xmlwriter.h>

#include "fabriclint/types.h"
#include "report/report.h"

/* A copy of @s that XML 1.0 accepts (caller frees). */
static char *xml_clean(const char *s) {
  char *c = strdup(s ? s : "");
  if (!c)
    return NULL;
  int utf8 = xmlCheckUTF8((const xmlChar *)c);
  for (unsigned char *p = (unsigned char *)c; *p; p++)
    if ((*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') ||
        (!utf8 && *p >= 0x80))
      *p = '?';
  return c;
}

static int attr(xmlTextWriterPtr w, const char *name, const char *value) {
  char *v = xml_clean(value);
  int rc = v ? xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST v) : -1;
  free(v);
  return rc < 0 ? -1 : 0;
}

static int attr_count(xmlTextWriterPtr w, const char *name, size_t n) {
  char buf[32];
  snprintf(buf, sizeof buf, "%zu", n);
  return attr(w, name, buf);
}

/* Append one finding line to the growing buffer *@buf. */
static int append_line(char **buf, size_t *len, const fl_report_input *in,
                       const fl_finding_rec *r, const char *mark) {
  const char *file;
  uint32_t line, col;
  fl_report_location(in, r, &file, &line, &col);
  size_t need = strlen(file) + strlen(r->message) + strlen(mark) + 64;
  for (uint32_t k = 0; k < r->n_nodes; k++)
    need += strlen(r->nodes[k]) + 4;
  char *nb = realloc(*buf, *len + need + 1);
  if (!nb)
    return -1;
  *buf = nb;
  int n = snprintf(nb + *len, need + 1, "%s:%u: %s: %s%s\n", file, line,
                   fl_severity_name(r->severity), r->message, mark);
  *len += (size_t)n;
  if (r->n_nodes) {
    *len += (size_t)sprintf(nb + *len, "    nodes:");
    for (uint32_t k = 0; k < r->n_nodes; k++)
      *len +=
          (size_t)sprintf(nb + *len, "%s \"%s\"", k ? "," : "", r->nodes[k]);
    *len += (size_t)sprintf(nb + *len, "\n");
  }
  return 0;
}

static int text_elem(xmlTextWriterPtr w, const char *name, const char *text) {
  char *t = xml_clean(text);
  int rc = t ? xmlTextWriterWriteElement(w, BAD_CAST name, BAD_CAST t) : -1;
  free(t);
  return rc < 0 ? -1 : 0;
}

static int counts_fail(const fl_report_input *in, const fl_finding_rec *r) {
  return fl_finding_active(r) && r->severity >= in->fail_on;
}

static int testcase(xmlTextWriterPtr w, const fl_report_input *in,
                    const fl_report_rule *rule) {
  char *fail = NULL, *other = NULL;
  size_t nfail = 0, lfail = 0, lother = 0;
  uint32_t worst = 0;
  int rc = 0;
  for (size_t i = 0; i < in->fs->n && rc == 0; i++) {
    const fl_finding_rec *r = &in->fs->v[i];
    if (strcmp(r->rule, rule->id) != 0)
      continue;
    if (counts_fail(in, r) && !rule->failed) {
      nfail++;
      worst = r->severity > worst ? r->severity : worst;
      rc = append_line(&fail, &lfail, in, r, "");
    } else {
      rc = append_line(&other, &lother, in, r,
                       r->waived     ? " [waived]"
                       : r->baseline ? " [baseline]"
                                     : "");
    }
  }
  const char *dot = strchr(rule->id, '.');
  char plugin[128];
  snprintf(plugin, sizeof plugin, "%.*s", dot ? (int)(dot - rule->id) : 0,
           rule->id);
  if (rc == 0)
    rc = xmlTextWriterStartElement(w, BAD_CAST "testcase") < 0 ||
         attr(w, "classname", plugin) || attr(w, "name", rule->id);
  if (rc == 0 && rule->failed) {
    char msg[700];
    snprintf(msg, sizeof msg, "rule %s could not run: %s", rule->id,
             rule->fail_message ? rule->fail_message : "");
    rc = xmlTextWriterStartElement(w, BAD_CAST "error") < 0 ||
         attr(w, "type", "plugin-error") || attr(w, "message", msg) ||
         xmlTextWriterEndElement(w) < 0;
  } else if (rc == 0 && nfail) {
    char msg[256];
    snprintf(msg, sizeof msg, "%zu finding(s) at or above --fail-on %s", nfail,
             fl_severity_name(in->fail_on));
    char *t = xml_clean(fail);
    rc = !t || xmlTextWriterStartElement(w, BAD_CAST "failure") < 0 ||
         attr(w, "type", fl_severity_name(worst)) || attr(w, "message", msg) ||
         xmlTextWriterWriteString(w, BAD_CAST t) < 0 ||
         xmlTextWriterEndElement(w) < 0;
    free(t);
  }
  if (rc == 0 && lother)
    rc = text_elem(w, "system-out", other);
  if (rc == 0)
    rc = xmlTextWriterEndElement(w) < 0;
  free(fail);
  free(other);
  return rc ? -1 : 0;
}

static int rule_fails(const fl_report_input *in, const fl_report_rule *rule) {
  if (rule->failed)
    return 0;
  for (size_t i = 0; i < in->fs->n; i++)
    if (strcmp(in->fs->v[i].rule, rule->id) == 0 &&
        counts_fail(in, &in->fs->v[i]))
      return 1;
  return 0;
}

static int suite_attrs(xmlTextWriterPtr w, const fl_report_input *in) {
  size_t failures = 0, errors = 0;
  for (size_t i = 0; i < in->n_rules; i++) {
    errors += in->rules[i].failed != 0;
    failures += (size_t)rule_fails(in, &in->rules[i]);
  }
  return attr(w, "name", "fabriclint") || attr_count(w, "tests", in->n_rules) ||
         attr_count(w, "failures", failures) ||
         attr_count(w, "errors", errors) || attr_count(w, "skipped", 0);
}

int fl_report_junit(FILE *out, const fl_report_input *in) {
  fflush(out);
  xmlOutputBufferPtr buf = xmlOutputBufferCreateFile(out, NULL);
  if (!buf)
    return -1;
  xmlTextWriterPtr w = xmlNewTextWriter(buf); /* owns @buf from here */
  if (!w) {
    xmlOutputBufferClose(buf);
    return -1;
  }
  int rc = xmlTextWriterSetIndent(w, 1) < 0 ||
           xmlTextWriterSetIndentString(w, BAD_CAST "  ") < 0 ||
           xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL) < 0 ||
           xmlTextWriterStartElement(w, BAD_CAST "testsuites") < 0 ||
           suite_attrs(w, in) ||
           xmlTextWriterStartElement(w, BAD_CAST "testsuite") < 0 ||
           suite_attrs(w, in);
  for (size_t i = 0; i < in->n_rules && !rc; i++)
    rc = testcase(w, in, &in->rules[i]);
  if (!rc)
    rc = xmlTextWriterEndDocument(w) < 0; /* closes all open elements */
  xmlFreeTextWriter(w);                   /* flushes, does not fclose */
  return rc || ferror(out) ? -1 : 0;
}
