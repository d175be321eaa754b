/* SPDX-License-Identifier: MIT */
/*
 * plugins/failure-domains/fd_blast.h — what one failure-domain value takes
 * off the fabric (blast.c): the servers that lose every HCA's way into the
 * largest surviving part of their component, powered off with the value or
 * cut off. Shared by failure-domains.blast-radius (blast.c) and
 * failure-domains.summary (fd_summary.c).
 */
#ifndef FABRICLINT_PLUGINS_FD_BLAST_H
#define FABRICLINT_PLUGINS_FD_BLAST_H

#include <stdint.h>

#include "fd_model.h"

typedef struct br_host {
  const char *name;
  uint32_t first, n; /* endpoints of the host in br_ctx.ep_by_host */
} br_host;

typedef struct br_ctx {
  const fd_model *m;
  fl_id *ep_by_host; /* endpoints grouped by host, hosts in name order */
  br_host *hosts;
  uint32_t n_hosts, n_eps;
  uint32_t su_servers; /* most servers on the leaves of one pod (0: none) */
  uint8_t *node_off, *link_off;
  uint32_t *memb, *cnt, *main_of; /* per new comp / per baseline comp */
} br_ctx;

/* The result of one value: servers off the fabric, split by why. */
typedef struct br_res {
  uint32_t off, powered, cut, switches, eps_off;
  int split; /* the hosts that keep a cable fall in two or more pieces of
              * one component: domain-partition's test (fd_splits()) */
} br_res;

/* Hosts (endpoints grouped by system, in name order) and one SU's worth of
 * servers (the most servers cabled to the leaves of one pod) of model @m;
 * 0, or -1 out of memory (then br_free()). */
int br_init(const fd_model *m, br_ctx *c);
void br_free(br_ctx *c);
/* Take the elements of value @dv out of the fabric (@on 1) or back (0). */
void br_set(br_ctx *c, const fd_value *dv, uint8_t on);
/* Evaluate the value whose elements are set in c->node_off/link_off into
 * @r; marks the hosts off the fabric in @off_host (per host, the hosts of
 * br_ctx.hosts) when not NULL. 0, or -1 when the components cannot be
 * computed. O(V + E). */
int br_eval(const fl_host_api *api, br_ctx *c, br_res *r, uint8_t *off_host);
/* Value @a removes exactly the nodes and cables of value @b. */
int same_elements(const fd_model *m, const fd_value *a, const fd_value *b);

#endif
