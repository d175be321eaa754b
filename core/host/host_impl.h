/* SPDX-License-Identifier: MIT */
/*
 * core/host/host_impl.h — what the files of the plugin host share (internal
 * to core/host/host*.c): the context a rule runs in, and the functions one
 * file of the host calls in another. host.c hands plugins the API table and
 * owns the host's life cycle; host_load.c loads plugins; host_params.c
 * holds parameters, the policy and rule selection; host_run.c runs rules.
 */
#ifndef FABRICLINT_CORE_HOST_HOST_IMPL_H
#define FABRICLINT_CORE_HOST_HOST_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "host/host.h"

struct fl_ctx {
  fl_host *host;
  const fl_fabric *fab;
  const fl_rule_def *rule;
  const char *plugin;  /* the rule's plugin name */
  size_t index, count; /* the rule's place in this run (events) */
  fl_findings *out;
  int failed;
  int bad_param; /* failed because of a user's parameter value */
  char fail_msg[512];
  const char *plane;      /* the plane this run judges (a plane's subset), or
                           * NULL: the whole fabric */
  const fl_fabric *whole; /* the whole fabric (== fab unless @plane) */
  uint64_t serial;        /* names @fab for this host (api_fabric_serial) */
};

/* ---- host.c ---- */

/* The declaration of parameter @name of rule @r, or NULL. */
const fl_param_def *find_param_def(const fl_rule_def *r, const char *name);

/* The event @kind about the rule of @c (index and count filled in). */
fl_host_event rule_event(const fl_ctx *c, uint32_t kind);

/* Free the host's copies of plugin @p's rules and parameters and its path;
 * @p is zeroed. */
void free_plugin(fl_loaded_plugin *p);

/* ---- host_load.c ---- */

/* The rule @id among loaded plugins (rules of a plugin being loaded count
 * as far as they are copied). */
const fl_rule_def *find_rule(const fl_host *h, const char *id);

#endif
