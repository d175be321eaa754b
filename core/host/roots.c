/* SPDX-License-Identifier: MIT */
/*
 * core/host/roots.c — one cause across rules (see roots.h).
 *
 * Why the rules declare roots instead of the host guessing them from
 * shared nodes: a leaf named by an oversubscription warning and by a
 * degraded-link warning may hold two unrelated faults; only the rule that
 * computed the figure knows whether the degraded cable explains it whole.
 */
#include "host/roots.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/plugin.h"
#include "fabriclint/types.h"

typedef struct root_ix {
  fl_finding_rec *r;
  size_t i;
} root_ix;

/* By root; within a root the primaries first, most severe first, then in
 * report order; ties by position, so the order is total. */
static int cmp_root(const void *x, const void *y) {
  const root_ix *a = x, *b = y;
  int c = strcmp(a->r->root, b->r->root);
  if (c)
    return c;
  int pa = a->r->root_role == FL_ROOT_PRIMARY;
  int pb = b->r->root_role == FL_ROOT_PRIMARY;
  if (pa != pb)
    return pa ? -1 : 1;
  if ((c = fl_finding_rec_cmp(a->r, b->r)))
    return c;
  return a->i < b->i ? -1 : a->i > b->i;
}

static int cmp_rec_p(const void *x, const void *y) {
  return fl_finding_rec_cmp(x, y);
}

/* Move the consequences of the run @g[1..n) under @g[0] (the primary,
 * whose related list has room for them); mark them in @gone. Other
 * primaries of the root stay findings of their own: two rules (or two
 * planes judged as one fabric) naming one root each say something a
 * reader must see. */
static void attach_run(root_ix *g, size_t n, uint8_t *gone) {
  fl_finding_rec *p = g[0].r, *v = p->related; /* grown by the caller */
  size_t have = p->n_related;
  for (size_t k = 1; k < n; k++) {
    fl_finding_rec *c = g[k].r;
    if (c->root_role == FL_ROOT_PRIMARY)
      continue;
    if (c->severity > p->severity)
      p->severity = c->severity;
    v[have++] = *c;
    gone[g[k].i] = 1;
  }
  p->n_related = (uint32_t)have;
  qsort(v, have, sizeof *v, cmp_rec_p);
}

int fl_findings_attach_roots(fl_findings *fs) {
  size_t n = 0;
  for (size_t i = 0; i < fs->n; i++)
    n += fs->v[i].root && fl_finding_active(&fs->v[i]);
  if (n < 2)
    return 0;
  root_ix *ix = calloc(n, sizeof *ix);
  uint8_t *gone = calloc(fs->n, 1);
  int rc = -1;
  if (!ix || !gone)
    goto out;
  n = 0;
  for (size_t i = 0; i < fs->n; i++)
    if (fs->v[i].root && fl_finding_active(&fs->v[i]))
      ix[n++] = (root_ix){&fs->v[i], i};
  qsort(ix, n, sizeof *ix, cmp_root);
  /* Grow every primary's list before moving anything, so that ENOMEM
   * leaves @fs as it was. */
  for (size_t s = 0, e; s < n; s = e) {
    for (e = s + 1; e < n && strcmp(ix[e].r->root, ix[s].r->root) == 0; e++)
      ;
    if (e - s < 2 || ix[s].r->root_role != FL_ROOT_PRIMARY)
      continue;
    fl_finding_rec *p = ix[s].r;
    fl_finding_rec *v =
        realloc(p->related, (p->n_related + e - s - 1) * sizeof *v);
    if (!v)
      goto out;
    p->related = v;
  }
  for (size_t s = 0, e; s < n; s = e) {
    for (e = s + 1; e < n && strcmp(ix[e].r->root, ix[s].r->root) == 0; e++)
      ;
    if (e - s >= 2 && ix[s].r->root_role == FL_ROOT_PRIMARY)
      attach_run(ix + s, e - s, gone);
  }
  size_t k = 0;
  for (size_t i = 0; i < fs->n; i++)
    if (!gone[i])
      fs->v[k++] = fs->v[i];
  fs->n = k;
  rc = 0;
out:
  free(ix);
  free(gone);
  return rc;
}

size_t fl_findings_count_related(const fl_findings *fs) {
  size_t c = 0;
  for (size_t i = 0; i < fs->n; i++)
    c += fs->v[i].n_related;
  return c;
}

/* "A port 1" of port @p into @buf; 0, or -1 when it does not fit. */
static int end_name(const fl_fabric *fab, fl_id p, char *buf, size_t n) {
  int k = snprintf(buf, n, "%s port %u",
                   fl_fabric_node_name(fab, fl_fabric_port_node(fab, p)),
                   fl_fabric_port_num(fab, p));
  return k < 0 || (size_t)k >= n ? -1 : 0;
}

static int link_key(const fl_fabric *fab, fl_id l, char **out) {
  if (l >= fl_fabric_link_count(fab))
    return FL_EINVAL;
  fl_id pa = fl_fabric_link_port(fab, l, 0),
        pb = fl_fabric_link_port(fab, l, 1);
  const char *na = fl_fabric_node_name(fab, fl_fabric_port_node(fab, pa));
  const char *nb = fl_fabric_node_name(fab, fl_fabric_port_node(fab, pb));
  size_t n = strlen(na) + strlen(nb) + 64;
  char *a = malloc(n), *b = malloc(n), *k = malloc(2 * n + 16);
  int rc = FL_ENOMEM;
  if (a && b && k && end_name(fab, pa, a, n) == 0 &&
      end_name(fab, pb, b, n) == 0) {
    /* name order, then port order: the same key from either end */
    int c = strcmp(na, nb);
    int swap = c > 0 || (c == 0 && fl_fabric_port_num(fab, pa) >
                                       fl_fabric_port_num(fab, pb));
    snprintf(k, 2 * n + 16, "link:%s - %s", swap ? b : a, swap ? a : b);
    *out = k;
    k = NULL;
    rc = FL_OK;
  }
  free(a);
  free(b);
  free(k);
  return rc;
}

int fl_root_key(const fl_fabric *fab, uint32_t kind, uint32_t role, fl_id id,
                const char *fact, char **out) {
  *out = NULL;
  if (kind == FL_ROOT_NONE)
    return FL_OK;
  if (role != FL_ROOT_PRIMARY && role != FL_ROOT_CONSEQUENCE)
    return FL_EINVAL;
  if (kind == FL_ROOT_LINK)
    return link_key(fab, id, out);
  const char *what;
  if (kind == FL_ROOT_NODE) {
    if (id >= fl_fabric_node_count(fab))
      return FL_EINVAL;
    what = fl_fabric_node_name(fab, id);
  } else if (kind == FL_ROOT_FACT) {
    if (!fact || !*fact)
      return FL_EINVAL;
    what = fact;
  } else
    return FL_EINVAL;
  size_t n = strlen(what) + 8;
  if (!(*out = malloc(n)))
    return FL_ENOMEM;
  snprintf(*out, n, "%s:%s", kind == FL_ROOT_NODE ? "node" : "fact", what);
  return FL_OK;
}
