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
        !is_yes(fab, n, "lists-neighbours") && !is_yes(fab, n, "peer-only"))
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
