/* SPDX-License-Identifier: MIT */
/*
 * core/io/write_common.c — what the fabric writers share (io/write_common.h):
 * unique node names for the formats that key nodes by name (design XML, DOT,
 * GraphML), the port, rate and node texts of the drawings (DOT, GraphML),
 * and the CSV cell (NDT plan, diff work order).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/write_common.h"
#include "model/hashmap.h"

void fl_wr_names_free(fl_wr_names *w) {
  for (uint32_t i = 0; w->owned && i < w->n; i++)
    free(w->owned[i]);
  free(w->owned);
  free(w->names);
}

int fl_wr_names_build(const fl_fabric *fab, fl_wr_names *w) {
  fl_strmap seen = {0};
  uint32_t n = fl_fabric_node_count(fab);
  uint32_t *first = NULL;
  int rc = -1;
  w->n = n;
  w->names = calloc(n ? n : 1, sizeof *w->names);
  w->owned = calloc(n ? n : 1, sizeof *w->owned);
  first = calloc(n ? n : 1, sizeof *first);
  if (!w->names || !w->owned || !first)
    goto out;
  /* pass 1: count each display name (value = number of holders) */
  for (uint32_t i = 0; i < n; i++) {
    const char *s = fl_fabric_node_name(fab, i);
    size_t len = strlen(s);
    uint32_t e = fl_strmap_put(&seen, s, len, i);
    if (e == FL_MAP_ABSENT)
      goto out;
    w->names[i] = s;
    first[i] = e; /* the first node that has this name */
  }
  /* pass 2: every later holder of a name gets a suffix */
  for (uint32_t i = 0; i < n; i++) {
    if (first[i] == i)
      continue;
    const char *s = w->names[i];
    uint64_t guid = fl_fabric_node_guid(fab, i);
    size_t cap = strlen(s) + 48;
    char *buf = malloc(cap);
    if (!buf)
      goto out;
    if (guid)
      snprintf(buf, cap, "%s #0x%016" PRIx64, s, guid);
    else
      snprintf(buf, cap, "%s #%u", s, i);
    for (uint32_t k = 2;
         fl_strmap_get(&seen, buf, strlen(buf)) != FL_MAP_ABSENT; k++)
      snprintf(buf, cap, "%s #%u.%u", s, i, k);
    if (fl_strmap_put(&seen, buf, strlen(buf), i) == FL_MAP_ABSENT) {
      free(buf);
      goto out;
    }
    w->owned[i] = buf;
    w->names[i] = buf;
  }
  rc = 0;
out:
  free(first);
  fl_strmap_free(&seen);
  return rc;
}

const char *fl_wr_port_text(const fl_fabric *fab, fl_id p, char *buf,
                            size_t size) {
  const char *label = fl_fabric_port_label(fab, p);
  if (label[0])
    return label;
  snprintf(buf, size, "%" PRIu32, fl_fabric_port_num(fab, p));
  return buf;
}

const char *fl_wr_rate_text(const fl_fabric *fab, fl_id l, char *buf,
                            size_t size) {
  uint32_t w = fl_fabric_link_width(fab, l), s = fl_fabric_link_speed(fab, l);
  const char *name = fl_speed_name(s);
  buf[0] = '\0';
  if (s == FL_SPEED_UNKNOWN || strcmp(name, "??") == 0)
    return buf;
  if (s >= FL_SPEED_ETH_1G || w == 0)
    snprintf(buf, size, "%s", name);
  else
    snprintf(buf, size, "%" PRIu32 "x%s", w, name);
  return buf;
}

uint32_t fl_wr_kind_parse(const char *k) {
  if (!k || !*k || strcasecmp(k, "switch") == 0)
    return FL_NODE_SWITCH;
  if (strcasecmp(k, "ca") == 0 || strcasecmp(k, "host") == 0 ||
      strcasecmp(k, "hca") == 0)
    return FL_NODE_CA;
  if (strcasecmp(k, "router") == 0)
    return FL_NODE_ROUTER;
  return 0;
}

int fl_wr_rate_parse(const char *s, uint32_t *width, uint32_t *speed) {
  size_t n = strlen(s);
  const char *x = strpbrk(s, "xX");
  uint32_t w = 0;
  if (x && x > s && (w = fl_width_parse(s, (size_t)(x - s + 1))) != 0) {
    n -= (size_t)(x + 1 - s);
    s = x + 1;
  }
  uint32_t sp = fl_speed_parse(s, n);
  if (sp == FL_SPEED_UNKNOWN)
    return -1;
  *speed = sp;
  *width = w ? w : sp >= FL_SPEED_ETH_1G ? 1 : 4;
  return 0;
}

const char *fl_wr_guid_text(uint64_t guid, char *buf, size_t size) {
  if (guid)
    snprintf(buf, size, "0x%016" PRIx64, guid);
  else
    buf[0] = '\0';
  return buf;
}

const char *fl_wr_tier_text(const fl_fabric *fab, fl_id n, char *buf,
                            size_t size) {
  uint32_t t = fl_fabric_node_tier(fab, n);
  if (t == FL_TIER_UNKNOWN || fl_fabric_node_tier_derived(fab, n))
    buf[0] = '\0';
  else
    snprintf(buf, size, "%" PRIu32, t);
  return buf;
}

static int is_blank(char c) {
  return c == ' ' || c == '\t';
}

int fl_wr_csv_formula_like(const char *s) {
  while (*s == '\'')
    s++;
  return *s && strchr(FL_WR_CSV_FORMULA_LEADS, *s) != NULL;
}

void fl_wr_csv_cell(FILE *out, const char *s) {
  size_t n = strlen(s);
  if (n == 0)
    return;
  int formula = fl_wr_csv_formula_like(s);
  if (!formula && !strpbrk(s, ",\"\r\n") && !is_blank(s[0]) &&
      !is_blank(s[n - 1])) {
    fputs(s, out);
    return;
  }
  fputc('"', out);
  if (formula)
    fputc('\'', out);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', out);
    fputc(*s, out);
  }
  fputc('"', out);
}

int fl_wr_ib_ports_check(const fl_fabric *fab, const char *format,
                         int one_cable, fl_error *err) {
  for (fl_id p = 0; p < fl_fabric_port_count(fab); p++) {
    fl_id n = fl_fabric_port_node(fab, p);
    uint32_t num = fl_fabric_port_num(fab, p);
    if (num > FL_WR_IB_PORT_MAX)
      return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                          "%s cannot name port %" PRIu32 " of \"%s\": "
                          "InfiniBand port numbers are 1..%u (one byte); "
                          "nothing written",
                          format, num, fl_fabric_node_name(fab, n),
                          FL_WR_IB_PORT_MAX);
    uint32_t nl = fl_fabric_port_link_count(fab, p);
    if (!one_cable || num == 0 || nl == 0)
      continue;
    fl_id l = fl_fabric_port_link(fab, p, 0);
    fl_id q = fl_fabric_link_other(fab, l, p);
    if (nl > 1 || q == p)
      return fl_error_set(
          err, FL_EINVAL, NULL, 0, 0,
          "%s cannot say port %" PRIu32 " of \"%s\": it has %s "
          "(topology.port-connected-twice), and a port here has one cable "
          "to one other port; fix the plan, or convert to design XML, "
          "DOT or GraphML, which keep every cable; nothing written",
          format, num, fl_fabric_node_name(fab, n),
          q == p ? "a cable looped onto itself" : "several cables");
  }
  return FL_OK;
}

int fl_wr_cables_check(const fl_fabric *fab, const char *format,
                       fl_error *err) {
  for (fl_id l = 0; l < fl_fabric_link_count(fab); l++)
    if (fl_fabric_link_port(fab, l, 0) != FL_NONE &&
        fl_fabric_link_port(fab, l, 1) != FL_NONE)
      return FL_OK;
  return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                      "%s cannot hold a fabric without cables (%" PRIu32
                      " node(s), no cable): its reader refuses a graph "
                      "without edges; convert to design XML or ibnetdiscover "
                      "instead; nothing written",
                      format, fl_fabric_node_count(fab));
}

void fl_wr_switch_name(const char *name, char *buf, size_t size) {
  const char *colon = strncmp(name, "MF0;", 4) == 0 ? strchr(name, ':') : NULL;
  if (colon && colon > name + 4)
    snprintf(buf, size, "%.*s", (int)(colon - name - 4), name + 4);
  else
    snprintf(buf, size, "%s", name);
}

size_t fl_wr_host_split(const char *name, const char *sys) {
  size_t sl = strlen(sys), nl = strlen(name);
  const char *blank = strchr(name, ' ');
  if (sl && strncmp(name, sys, sl) == 0 && name[sl] == ' ' && name[sl + 1])
    blank = name + sl;
  if (!blank || blank == name || !nl || name[nl - 1] == ' ')
    return 0;
  return (size_t)(blank - name);
}
