/*
 * core/report.h — renderers of the sorted findings list (internal).
 * Output is deterministic: the same findings give byte-identical text.
 */
#ifndef FABRICLINT_CORE_REPORT_H
#define FABRICLINT_CORE_REPORT_H

#include <stdio.h>

#include "fabriclint/fabric.h"
#include "findings.h"

#define FL_OUT_TEXT 1
#define FL_OUT_JSON 2

/** The "fabric" object of DESIGN.md §2. */
typedef struct fl_fabric_counts {
  uint32_t switches, cas, routers, links;
} fl_fabric_counts;

void fl_fabric_counts_of(const fl_fabric *fab, fl_fabric_counts *c);

/**
 * fl_report_text() — one line per finding,
 * `file:line: severity: rule: message` (location left out when unknown),
 * then indented node/port lists, then a summary line. @quiet prints only
 * findings. Returns 0, or -1 on a write error.
 */
int fl_report_text(FILE *out, const fl_findings *fs, size_t rules_run,
                   int quiet);

/**
 * fl_report_json() — the JSON object of DESIGN.md §2 (tool, fabric,
 * findings, summary). Returns 0, or -1 on a write error / ENOMEM.
 */
int fl_report_json(FILE *out, const fl_findings *fs,
                   const fl_fabric_counts *counts);

#endif
