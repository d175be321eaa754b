/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_docs.c — where a rule is documented: the URI of its page
 * and anchor (docs/rules/<plugin>.md#<rule-id>), for SARIF helpUri and
 * `fabriclint explain`.
 *
 * SARIF 2.1.0 §3.49.12 wants helpUri absolute. The base is
 * $FABRICLINT_DOCS_URL when set (a published copy of docs/, e.g. a
 * repository's blob URL for the release: what a code-scanning page can
 * open), else the published docs of this release, FL_DOCS_URL (CMake
 * -DFABRICLINT_DOCS_URL, default <project URL>/blob/v<version>/docs/),
 * else (configured with -DFABRICLINT_DOCS_URL=local) the file:// URI of the
 * docs folder this fabriclint ships with. Either way a rule gets a helpUri
 * only when the shipped page exists and has the rule's anchor
 * (`<a id="RULE">`), so a third-party plugin's rule never points at a page
 * that is not there. The shipped folder is found relative to the
 * executable (an install moved to another prefix still finds its own),
 * else in the source tree of a build.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_docs.h"
#include "io/data_path.h"

#ifndef FL_DOCS_SOURCE_DIR
#define FL_DOCS_SOURCE_DIR ""
#endif
#ifndef FL_DOCS_INSTALL_DIR
#define FL_DOCS_INSTALL_DIR ""
#endif
#ifndef FL_REL_BIN_DOCS
#define FL_REL_BIN_DOCS "../share/doc/fabriclint"
#endif
#ifndef FL_DOCS_URL
#define FL_DOCS_URL ""
#endif

/* The local docs folder: the install's relative to the executable, else
 * the source tree's (a build), else the configured install's; "" when none
 * has rules/. */
static void local_docs(char *out, size_t size) {
  const fl_data_where where[3] = {{NULL, FL_REL_BIN_DOCS, NULL, NULL},
                                  {NULL, NULL, NULL, FL_DOCS_SOURCE_DIR},
                                  {NULL, NULL, NULL, FL_DOCS_INSTALL_DIR}};
  out[0] = '\0';
  for (int i = 0; i < 3; i++) {
    char dir[PATH_MAX], probe[PATH_MAX + 8];
    if (!fl_data_dir(&where[i], dir, sizeof dir))
      continue;
    snprintf(probe, sizeof probe, "%s/rules", dir);
    if (access(probe, R_OK | X_OK) == 0) {
      snprintf(out, size, "%s", dir);
      return;
    }
  }
}

/* An absolute URI: scheme ":" (RFC 3986 §3.1: ALPHA *( ALPHA / DIGIT / "+"
 * / "-" / "." )) then something. */
static int absolute_uri(const char *s) {
  const char *p = s;
  if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
    return 0;
  while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
         (*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '.')
    p++;
  return *p == ':' && p[1] != '\0';
}

/* Append @path to @out as a URI path: RFC 3986 unreserved, sub-delims and
 * "/:@" kept, other bytes percent-encoded. */
static void uri_path(const char *path, char *out, size_t size) {
  size_t o = strlen(out);
  for (const unsigned char *s = (const unsigned char *)path; *s; s++) {
    unsigned c = *s;
    int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               (c >= '0' && c <= '9') || strchr("-._~/!$&'()*+,;=:@", (int)c);
    int need = keep ? 1 : 3;
    if (o + (size_t)need + 1 > size)
      break;
    o += (size_t)snprintf(out + o, size - o, keep ? "%c" : "%%%02X", c);
  }
}

int fl_cli_docs_base(char *buf, size_t size, char *local, size_t lsize) {
  buf[0] = '\0';
  local_docs(local, lsize);
  const char *env = getenv("FABRICLINT_DOCS_URL");
  if (!(env && *env))
    env = FL_DOCS_URL; /* the published docs of this release ("": local) */
  if (env && *env) {
    if (!absolute_uri(env)) {
      fprintf(stderr,
              "fabriclint: FABRICLINT_DOCS_URL='%s' is not an absolute URI "
              "(e.g. https://host/fabriclint/docs/)\n",
              env);
      return 2;
    }
    size_t n = strlen(env);
    snprintf(buf, size, "%s%s", env, env[n - 1] == '/' ? "" : "/");
    return 0;
  }
  if (*local) {
    snprintf(buf, size, "file://");
    uri_path(local, buf, size);
    size_t n = strlen(buf);
    if (n + 1 < size && buf[n - 1] != '/')
      memcpy(buf + n, "/", 2);
  }
  return 0;
}

/* 1 when file @path contains @needle (pages are a few dozen kB). */
static int page_has(const char *path, const char *needle) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return 0;
  size_t cap = 1 << 16, n = 0;
  char *b = malloc(cap + 1);
  int found = 0;
  while (b) {
    size_t got = fread(b + n, 1, cap - n, f);
    n += got;
    if (n < cap)
      break;
    char *nb = realloc(b, cap * 2 + 1);
    if (!nb) {
      free(b);
      b = NULL;
      break;
    }
    b = nb;
    cap *= 2;
  }
  fclose(f);
  if (b) {
    b[n] = '\0';
    found = strstr(b, needle) != NULL;
    free(b);
  }
  return found;
}

int fl_cli_help_uri(const char *base, const char *local, const char *id,
                    char *buf, size_t size) {
  buf[0] = '\0';
  const char *dot = strchr(id, '.');
  if (!*base || !*local || !dot || dot == id)
    return 0;
  char page[512];
  if ((size_t)(dot - id) == 6 && strncmp(id, "policy", 6) == 0)
    snprintf(page, sizeof page, "ci.md");
  else
    snprintf(page, sizeof page, "rules/%.*s.md", (int)(dot - id), id);
  char path[4096 + 600], anchor[600];
  snprintf(path, sizeof path, "%s/%s", local, page);
  snprintf(anchor, sizeof anchor, "id=\"%s\"", id);
  if (!page_has(path, anchor))
    return 0;
  snprintf(buf, size, "%s", base);
  uri_path(page, buf, size);
  size_t n = strlen(buf);
  snprintf(buf + n, size - n, "#");
  uri_path(id, buf, size);
  return 1;
}

char **fl_cli_help_uris(fl_report_rule *rules, size_t n, const char *base,
                        const char *local) {
  if (!*base || !*local)
    return NULL;
  char **v = calloc(n + 1, sizeof *v);
  for (size_t i = 0; v && i < n; i++) {
    char uri[8192];
    if (fl_cli_help_uri(base, local, rules[i].id, uri, sizeof uri) &&
        (v[i] = strdup(uri)) != NULL)
      rules[i].help_uri = v[i];
  }
  return v;
}

void fl_cli_help_uris_free(char **uris, size_t n) {
  for (size_t i = 0; uris && i < n; i++)
    free(uris[i]);
  free(uris);
}
