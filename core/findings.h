/*
 * core/findings.h — the sorted list of findings every renderer prints
 * (internal). Findings own copies of everything (names, not ids), so they
 * outlive the rule run and render identically from any fabric.
 */
#ifndef FABRICLINT_CORE_FINDINGS_H
#define FABRICLINT_CORE_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

typedef struct fl_port_name {
  char *node;
  uint32_t port;
} fl_port_name;

typedef struct fl_finding_rec {
  char *rule;
  uint32_t severity;
  char *message;
  char **nodes;
  uint32_t n_nodes;
  fl_port_name *ports;
  uint32_t n_ports;
  char *evidence;  /* compact JSON object with sorted keys, or NULL */
  char *file;      /* location; NULL when unknown */
  uint32_t line, col;
  char *key;       /* baseline fingerprint material */
} fl_finding_rec;

typedef struct fl_findings {
  fl_finding_rec *v;
  size_t n, cap;
} fl_findings;

/** Append @rec (takes ownership of its strings). 0 or -1 on ENOMEM. */
int fl_findings_push(fl_findings *fs, fl_finding_rec *rec);
/** Sort by rule id, file, line, column, message, key: a total order so that
 * identical inputs give byte-identical output. */
void fl_findings_sort(fl_findings *fs);
/** Count findings of severity @sev. */
size_t fl_findings_count(const fl_findings *fs, uint32_t sev);
void fl_findings_free(fl_findings *fs);
/** "error", "warning", "info". */
const char *fl_severity_name(uint32_t sev);
/** Parse a severity name; 0 when unknown. "never" parses as 4. */
uint32_t fl_severity_parse(const char *s);

#endif
