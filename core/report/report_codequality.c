/* SPDX-License-Identifier: MIT */
/*
 * core/report/report_codequality.c — GitLab Code Quality output (report.h,
 * docs/ci.md): the CodeClimate-subset JSON array GitLab reads from
 * `artifacts: reports: codequality` and shows in merge requests.
 *
 * GitLab compares the report of a merge request with that of its target
 * branch itself, so baseline findings are kept (they show as unchanged);
 * waived findings are left out (Code Quality has no suppression field).
 * Fingerprints must be unique per entry or GitLab shows only the first, so
 * the n-th finding with the same entity fingerprint gets ":n" appended.
 * Severities: error -> critical, warning -> major, info -> info.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/types.h"
#include "report/report.h"

static const char *cq_severity(uint32_t sev) {
  return sev >= FL_SEV_ERROR     ? "critical"
         : sev == FL_SEV_WARNING ? "major"
                                 : "info";
}

int fl_report_codequality(FILE *out, const fl_report_input *in) {
  unsigned *occ = fl_report_occurrences(in->fs);
  if (!occ)
    return -1;
  json_t *arr = json_array();
  for (size_t i = 0; i < in->fs->n; i++) {
    const fl_finding_rec *r = &in->fs->v[i];
    if (r->waived)
      continue;
    char fp[17], uniq[40];
    fl_finding_fingerprint(r, fp);
    snprintf(uniq, sizeof uniq, occ[i] > 1 ? "%s:%u" : "%s", fp, occ[i]);
    const char *file;
    uint32_t line, col;
    fl_report_location(in, r, &file, &line, &col);
    json_array_append_new(
        arr,
        json_pack("{s:o,s:o,s:s,s:s,s:{s:o,s:{s:i}}}", "description",
                  fl_report_jstr(r->message), "check_name",
                  fl_report_jstr(r->rule), "fingerprint", uniq, "severity",
                  cq_severity(r->severity), "location", "path",
                  fl_report_jstr(file), "lines", "begin", (json_int_t)line));
  }
  free(occ);
  int rc = json_dumpf(arr, out, JSON_INDENT(2)) == 0 ? 0 : -1;
  fputc('\n', out);
  json_decref(arr);
  return rc || ferror(out) ? -1 : 0;
}
