/* SPDX-License-Identifier: MIT */
/*
 * plugins/failure-domains/fd_rules.h — what the failure-domains rules share
 * beyond the model (fd_model.h): reading parameters, naming the hosts and
 * pods a failure cuts off (fd_hosts.c), a what-if over one domain value
 * (fd_whatif.c), and each rule's descriptor (one file per rule;
 * failure_domains.c lists them). Private to the plugin.
 */
#ifndef FD_RULES_H
#define FD_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fd_model.h"

#define MAX_NAMED 50 /* names listed in one finding; the rest are counted */

/* Boolean parameter @name of the rule, else @dflt. */
static inline int fd_param_bool(const fl_host_api *api, fl_ctx *ctx,
                                const char *name, int dflt) {
  int64_t v;
  return api->param_int(ctx, name, &v) == FL_OK ? v != 0 : dflt;
}

/* String parameter @name of the rule (borrowed), else @dflt. */
static inline const char *fd_param_str(const fl_host_api *api, fl_ctx *ctx,
                                       const char *name, const char *dflt) {
  const char *s;
  return api->param_string(ctx, name, &s) == FL_OK && s ? s : dflt;
}

/* ---- fd_hosts.c: naming what a failure cuts off ---- */

/* A list of host names (unique, in the order first seen, at most
 * MAX_NAMED; the names are borrowed). */
typedef struct host_set {
  const char *name[MAX_NAMED];
  uint32_t n;
  uint32_t more; /* distinct hosts not listed */
} host_set;

/* Add @name unless listed (compared by pointer, then by bytes). */
void fd_hs_add(host_set *h, const char *name);
/* Sort the listed names in natural order ("node2" before "node10"). */
void fd_hs_sort(host_set *h);
/* Write key @key and the sorted names as a JSON array into @b. */
void fd_hs_json(jbuf *b, const char *key, host_set *h);
/* "a, b, c and 7 more": at most @max names, sorted, into @buf. */
void fd_hs_text(host_set *h, uint32_t max, char *buf, size_t size);
/* How messages name a pod: `pod "1"`, or `the pod of "x"` when derived. */
void fd_pod_label(const fd_pod *pd, char *buf, size_t size);
/* Attribute @key of port @p, else of its node; NULL when neither has a
 * non-empty value (borrowed from the fabric). */
const char *fd_port_attr(const fl_host_api *api, const fl_fabric *f, fl_id p,
                         const char *key);

/* ---- fd_whatif.c: the elements of one domain value, removed ---- */

typedef struct fd_whatif {
  uint8_t *node_off, *link_off; /* 1: removed (cross-plane cables always) */
  uint32_t *memb;               /* scratch: component per node */
} fd_whatif;

/* Allocate the masks for model @m (cross-plane cables removed). 0, or -1
 * when out of memory (fd_wi_free() still frees what was allocated). */
int fd_wi_init(const fd_model *m, fd_whatif *w);
void fd_wi_free(fd_whatif *w);
/* Remove (@on 1) or restore (0) the nodes and cables of value @dv;
 * cross-plane cables stay removed (fd_model.xplane). */
void fd_wi_set(const fd_model *m, fd_whatif *w, const fd_value *dv, uint8_t on);
/* 1 when endpoint @e keeps a cable to a node that is still there. */
int fd_keeps_cable(const fd_model *m, const fd_whatif *w, fl_id e);

/* ---- the rules (one file each) and their shared parameters ---- */

extern const fl_param_def FD_P_DOMAINS; /* "domains" (failure_domains.c) */
extern const fl_param_def FD_P_SINGLE;  /* "allow-single-homed" */

extern const fl_rule_def FD_R_SINGLE;  /* fd_single.c */
extern const fl_rule_def FD_R_PART;    /* fd_partition.c */
extern const fl_rule_def FD_R_CAP;     /* fd_capacity.c */
extern const fl_rule_def FD_R_SPREAD;  /* fd_spread.c */
extern const fl_rule_def FD_R_DUAL;    /* fd_dual.c */
extern const fl_rule_def FD_R_BLAST;   /* blast.c */
extern const fl_rule_def FD_R_SUMMARY; /* fd_summary.c (opt-in) */

#endif
