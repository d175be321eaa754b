/* SPDX-License-Identifier: MIT */
/*
 * core/model/views.c — whose view each node's cabling comes from
 * (model/views.h).
 *
 * Why: a per-device LLDP listing is one-ended by nature. Its device lists
 * its neighbours; a neighbour whose own listing was not given says nothing,
 * so its cables are seen from one end and its other cables are unknown. On
 * the real corpus (docs/real-fabrics.md, class F4) nine Junos and two NX-OS
 * captures of one switch each gave an error per cable, "listed only by ...
 * (truncated or stale capture)", and a storage controller cabled to two
 * switches, of which one was captured, was called single-homed (F3).
 * Unknown is not wrong: such nodes are marked `peer-only`, as iblinkinfo's
 * switch-only filter marks the CAs it names only as far ends.
 */
#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include "fabriclint/infer.h"
#include "model/fabric_impl.h"
#include "model/views.h"

static int is_yes(const fl_fabric *fab, fl_id n, const char *key) {
  const char *v = fl_fabric_attr(fab, FL_ENT_NODE, n, key);
  return v && strcmp(v, "yes") == 0;
}

int fl_views_finalize(fl_fabric *fab, fl_error *err) {
  uint32_t nn = fl_fabric_node_count(fab), n_mark = 0;
  fl_id *mark = malloc((nn ? nn : 1) * sizeof *mark);
  if (!mark)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  /* every lookup first: an attribute added after sealing is appended
   * unsorted, and the lookups binary-search the sorted index until
   * fl_b_attrs_reindex() */
  for (fl_id n = 0; n < nn; n++)
    if (is_yes(fab, n, "listed-as-neighbour") &&
        !is_yes(fab, n, "lists-neighbours") &&
        !fl_fabric_attr(fab, FL_ENT_NODE, n, "peer-only"))
      mark[n_mark++] = n;
  int rc = FL_OK;
  for (uint32_t i = 0; i < n_mark && rc == FL_OK; i++)
    if (fl_b_attr_sealed(fab, FL_ENT_NODE, mark[i], "peer-only", "yes") !=
        FL_OK)
      rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0,
                        "out of memory marking neighbour-only nodes");
  if (n_mark)
    fl_b_attrs_reindex(fab);
  free(mark);
  return rc;
}

uint32_t fl_fabric_node_view_explain(const fl_fabric *fab, fl_id n, char *buf,
                                     size_t size) {
  if (size)
    buf[0] = '\0';
  if (!fab || n >= fl_fabric_node_count(fab) || !is_yes(fab, n, "peer-only"))
    return FL_CONF_NONE;
  if (!is_yes(fab, n, "listed-as-neighbour")) {
    snprintf(buf, size,
             "only a far end in a filtered capture (iblinkinfo "
             "--switches-only lists switches alone): its other cables are "
             "unknown");
    return FL_CONF_HIGH;
  }
  /* the devices whose listings name it: its cabled neighbours that list */
  uint32_t listers = 0;
  fl_id first = FL_NONE, p0 = fl_fabric_node_first_port(fab, n);
  uint32_t np = fl_fabric_node_port_count(fab, n);
  for (uint32_t i = 0; p0 != FL_NONE && i < np; i++)
    for (uint32_t k = 0; k < fl_fabric_port_link_count(fab, p0 + i); k++) {
      fl_id l = fl_fabric_port_link(fab, p0 + i, k);
      fl_id o = fl_fabric_port_node(fab, fl_fabric_link_other(fab, l, p0 + i));
      if (!is_yes(fab, o, "lists-neighbours"))
        continue;
      listers++; /* a device listing it on two ports counts twice: rare,
                    and the count says "listings" */
      if (first == FL_NONE)
        first = o;
    }
  snprintf(buf, size,
           "only a neighbour in %u listing(s) of other devices (e.g. "
           "\"%s\"); its own listing was not given: its other cables are "
           "unknown",
           listers, first != FL_NONE ? fl_fabric_node_name(fab, first) : "?");
  return FL_CONF_HIGH;
}
