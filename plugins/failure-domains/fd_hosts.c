/* SPDX-License-Identifier: MIT */
/*
 * plugins/failure-domains/fd_hosts.c — how the failure-domains rules name
 * what a failure cuts off: lists of host names (unique, in natural order,
 * "a, b, c and 7 more"), pods, and the attribute of a cable end
 * (fd_rules.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_rules.h"

void fd_hs_add(host_set *h, const char *name) {
  for (uint32_t i = 0; i < h->n; i++)
    if (h->name[i] == name || strcmp(h->name[i], name) == 0)
      return;
  if (h->n < MAX_NAMED)
    h->name[h->n++] = name;
  else
    h->more++;
}

static int cmp_nat(const void *x, const void *y) {
  return fl_natcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Listed names in natural order ("node2" before "node10"). */
void fd_hs_sort(host_set *h) {
  if (h->n > 1)
    qsort(h->name, h->n, sizeof *h->name, cmp_nat);
}

/* How messages name a pod: `pod "1"`, or `the pod of leaf "x"` when derived. */
void fd_pod_label(const fd_pod *pd, char *buf, size_t size) {
  if (pd->derived)
    snprintf(buf, size, "the pod of \"%s\"", pd->name);
  else
    snprintf(buf, size, "pod \"%s\"", pd->name);
}

void fd_hs_json(jbuf *b, const char *key, host_set *h) {
  fd_hs_sort(h);
  jb_key(b, key);
  jb_arr_open(b);
  for (uint32_t i = 0; i < h->n; i++)
    jb_str_item(b, h->name[i]);
  jb_arr_close(b);
}

/* "a, b, c and 7 more" */
void fd_hs_text(host_set *h, uint32_t max, char *buf, size_t size) {
  fd_hs_sort(h);
  size_t off = 0;
  buf[0] = '\0';
  uint32_t shown = h->n < max ? h->n : max;
  for (uint32_t i = 0; i < shown && off < size; i++)
    off += (size_t)snprintf(buf + off, size - off, "%s%s", i ? ", " : "",
                            h->name[i]);
  uint32_t rest = h->n - shown + h->more;
  if (rest && off < size)
    snprintf(buf + off, size - off, " and %u more", rest);
}

const char *fd_port_attr(const fl_host_api *api, const fl_fabric *f, fl_id p,
                         const char *key) {
  const char *s = api->attr(f, FL_ENT_PORT, p, key);
  if (!s || !*s)
    s = api->attr(f, FL_ENT_NODE, api->port_node(f, p), key);
  return s && *s ? s : NULL;
}
