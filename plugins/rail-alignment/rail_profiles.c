/* SPDX-License-Identifier: MIT */
/*
 * plugins/rail-alignment/rail_profiles.c — rail maps: the profile files
 * (profiles/NAME.map, map=FILE) read, and a device looked up in them.
 */
#define _GNU_SOURCE /* dladdr */
#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fabriclint/roles.h"
#include "fabriclint/view.h"
#include "gpu.h"
#include "names.h"
#include "rail.h"

/* ---- profiles
 * ----------------------------------------------------------------- */

#define MAP_LINE_MAX 1024

/* Copy the next blank-separated token of @line from *@pos into @out (size
 * @size). 0 at the end of the line, 1 copied, -1 too long (*@col = its
 * 1-based column either way). */
static int map_token(const char *line, size_t *pos, char *out, size_t size,
                     size_t *col) {
  size_t i = *pos;
  while (line[i] == ' ' || line[i] == '\t')
    i++;
  size_t b = i;
  while (line[i] && line[i] != ' ' && line[i] != '\t' && line[i] != '\r' &&
         line[i] != '\n')
    i++;
  *pos = i;
  *col = b + 1;
  if (i == b)
    return 0;
  if (i - b >= size)
    return -1;
  memcpy(out, line + b, i - b);
  out[i - b] = '\0';
  return 1;
}

/* One map line (comment already cut) into @e. 0 blank, 1 entry, -1 error
 * in @why (path:line:col: what was expected). */
static int map_line(const char *line, const char *path, uint32_t ln, map_ent *e,
                    char *why, size_t size) {
  static const char *const what[3] = {"device", "rail", "role"};
  char *field[3] = {e->device, e->rail, e->role};
  const size_t cap[3] = {sizeof e->device, sizeof e->rail, sizeof e->role};
  size_t pos = 0, col = 0;
  int k = 0;
  for (; k < 3; k++) {
    int r = map_token(line, &pos, field[k], cap[k], &col);
    if (r == 0)
      break;
    if (r < 0) {
      snprintf(why, size, "%s:%u:%zu: %s name longer than %zu characters", path,
               ln, col, what[k], cap[k] - 1);
      return -1;
    }
  }
  char extra[2];
  int more = k == 3 ? map_token(line, &pos, extra, sizeof extra, &col) : 0;
  if (k == 0)
    return 0;
  if (k < 2 || more != 0) {
    snprintf(why, size, "%s:%u:%zu: expected DEVICE RAIL [ROLE]", path, ln,
             col);
    return -1;
  }
  if (k < 3)
    snprintf(e->role, sizeof e->role, "%s",
             strcmp(e->rail, "-") == 0 ? "storage" : "compute");
  return 1;
}

int rl_load_map_file(const char *path, rail_map *m, char *why, size_t size) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(why, size, "cannot read rail map %s", path);
    return -1;
  }
  char line[MAP_LINE_MAX];
  uint32_t ln = 0;
  int rc = 0;
  while (rc == 0 && fgets(line, sizeof line, f)) {
    ln++;
    if (!strchr(line, '\n') && !feof(f)) {
      snprintf(why, size, "%s:%u: line longer than %d characters", path, ln,
               MAP_LINE_MAX - 2);
      rc = -1;
      break;
    }
    char *h = strchr(line, '#');
    if (h)
      *h = '\0';
    map_ent e;
    int r = map_line(line, path, ln, &e, why, size);
    if (r < 0)
      rc = -1;
    else if (r > 0 && m->n == MAX_MAP) {
      snprintf(why, size, "%s:%u: more than %d entries", path, ln, MAX_MAP);
      rc = -1;
    } else if (r > 0)
      m->e[m->n++] = e;
  }
  fclose(f);
  return rc;
}

/* Profiles ship beside the plugin: <plugin dir>/rail-alignment-profiles/. */
int rl_load_profile(const char *name, rail_map *m, char *why, size_t size) {
  memset(m, 0, sizeof *m);
  snprintf(m->name, sizeof m->name, "%s", name);
  if (strcmp(name, "device") == 0)
    return 0;
  if (strcmp(name, "generic") == 0) {
    m->generic = 1;
    return 0;
  }
  for (const char *c = name; *c; c++)
    if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_') {
      snprintf(why, size, "profile '%s': not a profile name", name);
      return -1;
    }
  Dl_info info;
  if (!dladdr((void *)rl_load_profile, &info) || !info.dli_fname) {
    snprintf(why, size, "cannot locate the plugin's profiles");
    return -1;
  }
  char path[4096];
  const char *slash = strrchr(info.dli_fname, '/');
  snprintf(path, sizeof path, "%.*s/rail-alignment-profiles/%s.map",
           slash ? (int)(slash - info.dli_fname) : 1,
           slash ? info.dli_fname : ".", name);
  if (rl_load_map_file(path, m, why, size) != 0) {
    snprintf(why, size,
             "unknown profile '%s' (shipped: dgx-h100, dgx-h200, dgx-a100, "
             "generic, device; or pass map=FILE)",
             name);
    return -1;
  }
  return 0;
}

static const map_ent *map_find(const rail_map *m, const char *dev) {
  for (uint32_t i = 0; i < m->n; i++)
    if (strcmp(m->e[i].device, dev) == 0)
      return &m->e[i];
  return NULL;
}

/* Rail label of a NIC from its device under the map; NULL = unresolved,
 * "-" = non-compute. */
const char *rl_device_rail(const rail_map *m, const char *dev, char *buf,
                           size_t size, const char **role) {
  if (m->n) {
    const map_ent *e = map_find(m, dev);
    if (!e)
      return NULL;
    *role = e->role;
    return e->rail;
  }
  if (m->generic) {
    const char *d = dev + strlen(dev);
    while (d > dev && isdigit((unsigned char)d[-1]))
      d--;
    if (!*d)
      return NULL;
    long idx = strtol(d, NULL, 10);
    if (strncmp(dev, "HCA-", 4) == 0)
      idx -= 1; /* HCA-1 is the first */
    snprintf(buf, size, "%ld", idx);
    return buf;
  }
  return dev; /* device mode */
}
