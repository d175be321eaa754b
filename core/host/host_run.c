/* SPDX-License-Identifier: MIT */
/*
 * core/host/host_run.c — running the selected rules of the loaded plugins
 * over a fabric: each rule in its own context, once over the whole fabric
 * or once per plane for the rules that judge planes apart, with the host's
 * start/end events.
 */
#include "host/host.h"
#include "host/host_impl.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/planes.h"

/* ---- running
 * ------------------------------------------------------------------- */

/* What for_selected_rules() calls for each rule it selects: plugin @p,
 * @rule, its run number @index; FL_OK or an error code. */
typedef int (*rule_visit)(void *arg, fl_loaded_plugin *p,
                          const fl_rule_def *rule, size_t index);

/* The one filter of the rules a run takes: call @fn (NULL: none, count only)
 * for every rule of @h that runs under @patterns (fl_host_rule_runs), in
 * plugin then rule order, numbering them 0, 1, ...; at most @limit of them.
 * *@rc (when not NULL) gets each error @fn returns (the last one stays).
 * Returns the number of rules selected. */
static size_t for_selected_rules(fl_host *h, const char *patterns, size_t limit,
                                 rule_visit fn, void *arg, int *rc) {
  size_t n = 0;
  for (size_t i = 0; i < h->n_plugins; i++) {
    fl_loaded_plugin *p = &h->plugins[i];
    for (uint32_t r = 0; r < p->desc.n_rules && n < limit; r++) {
      const fl_rule_def *rule = p->rules[r];
      if (!fl_host_rule_runs(h, rule, patterns))
        continue;
      int one = fn ? fn(arg, p, rule, n) : FL_OK;
      n++;
      if (one != FL_OK && rc)
        *rc = one;
    }
  }
  return n;
}

/* Run @rule of plugin @p as run number @index of @count into @run; FL_OK or
 * the error it sets in @err. */
static int run_one_in(fl_host *h, const fl_fabric *fab, const fl_fabric *whole,
                      uint64_t serial, const char *plane, fl_loaded_plugin *p,
                      const fl_rule_def *rule, size_t index, size_t count,
                      fl_findings *out, fl_rule_run *run, fl_error *err) {
  memset(run, 0, sizeof *run);
  run->rule = rule;
  run->plugin = p->desc.name;
  fl_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.host = h;
  ctx.fab = fab;
  ctx.rule = rule;
  ctx.plugin = p->desc.name;
  ctx.index = index;
  ctx.count = count;
  ctx.out = out;
  ctx.plane = plane;
  ctx.whole = whole;
  ctx.serial = serial;
  fl_host_event ev = rule_event(&ctx, FL_HOST_EV_RULE_BEGIN);
  if (h->on_event)
    h->on_event(h->event_ctx, &ev);
  int crc = rule->check(&h->api, &ctx, p->data);
  ev.kind = FL_HOST_EV_RULE_END;
  if (h->on_event)
    h->on_event(h->event_ctx, &ev);
  if (crc == 0 && !ctx.failed)
    return FL_OK;
  run->failed = 1;
  snprintf(run->message, sizeof run->message, "%s",
           ctx.failed ? ctx.fail_msg : "check() returned an error");
  if (ctx.bad_param)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0, "rule %s: %s", rule->id,
                        run->message);
  return fl_error_set(err, FL_EPLUGIN, p->path, 0, 0,
                      "rule %s could not run: %s", rule->id, run->message);
}

/* 1 when @rule judges a multi-plane fabric as a whole (FL_NEEDS_ALL_PLANES:
 * cross-plane rules, rules already plane-aware); else it runs once per
 * plane on the plane's subset (fabriclint/planes.h). */
static int all_planes(const fl_rule_def *rule) {
  return (rule->needs & FL_NEEDS_ALL_PLANES) != 0;
}

/* One pass of the selected rules over a fabric or one plane's subset. */
typedef struct rule_pass {
  fl_host *h;
  const fl_fabric *fab; /* the fabric as loaded */
  const fl_fabric *sub; /* the plane's subset, or NULL: @fab */
  const char *plane;    /* the plane's name, or NULL */
  int planes;           /* a multi-plane run: only rules of pass @whole */
  int whole;            /* 1: the pass on the whole fabric (all_planes()) */
  fl_findings *out;
  fl_rule_run *v; /* one run per selected rule */
  size_t count;   /* selected rules */
  fl_error *err;
  uint64_t serial; /* names the fabric the pass's rules see (@sub or @fab) */
} rule_pass;

/* rule_visit of a pass: run @rule into v[@k] (kept when an earlier pass's
 * run of it failed); its error into err. */
static int run_selected(void *arg, fl_loaded_plugin *p, const fl_rule_def *rule,
                        size_t k) {
  rule_pass *x = arg;
  if (x->planes && all_planes(rule) != x->whole)
    return FL_OK;
  fl_rule_run one;
  fl_error e1;
  fl_error_clear(&e1);
  int rc = run_one_in(x->h, x->sub ? x->sub : x->fab, x->fab, x->serial,
                      x->plane, p, rule, k, x->count, x->out, &one, &e1);
  if (!x->v[k].failed)
    x->v[k] = one;
  if (rc != FL_OK && x->err)
    *x->err = e1;
  return rc;
}

/* Tell @h's caller that plane @index of @count (@name), or with @index ==
 * @count the pass on the whole fabric, begins (FL_HOST_EV_PLANE). */
static void plane_event(fl_host *h, const char *name, uint32_t index,
                        uint32_t count) {
  if (!h->on_event)
    return;
  fl_host_event ev;
  memset(&ev, 0, sizeof ev);
  ev.kind = FL_HOST_EV_PLANE;
  ev.plane = name;
  ev.index = index;
  ev.count = count;
  h->on_event(h->event_ctx, &ev);
}

/* Run every selected rule of @x->h once per plane of multi-plane fabric
 * @x->fab (on the plane's subset, built one at a time and freed after its
 * pass: plugins key their caches by fl_host_api.fabric_serial, which is new
 * for every pass, so a later subset at a freed one's address is never taken
 * for it) or once on the whole fabric (all_planes()); @x->v holds one run
 * per rule, failed when any of its runs failed. */
static int run_planes(rule_pass *x, const char *patterns) {
  int rc = FL_OK;
  const fl_fabric *fab = x->fab;
  uint32_t np = fl_fabric_plane_count(fab);
  x->planes = 1;
  fl_fabric *sub = NULL;
  for (uint32_t pl = 0; pl <= np; pl++) {
    x->plane = pl < np ? fl_fabric_plane_name(fab, pl) : NULL;
    plane_event(x->h, x->plane, pl, np);
    /* the last plane's subset is freed here, inside the phase just begun,
     * so that -v counts the time it takes (large fabrics: tens of ms) */
    fl_fabric_free(sub);
    sub = NULL;
    if (pl < np && fl_fabric_plane_subset(fab, pl, &sub, x->err) != FL_OK)
      return x->err && x->err->code ? x->err->code : FL_ENOMEM;
    x->sub = sub;
    x->serial = ++x->h->serial;
    x->whole = pl == np;
    for_selected_rules(x->h, patterns, x->count, run_selected, x, &rc);
    x->sub = NULL;
  }
  return rc;
}

int fl_host_run_rules(fl_host *h, const fl_fabric *fab, const char *patterns,
                      fl_findings *out, fl_rule_run **runs, size_t *n_runs,
                      fl_error *err) {
  int rc = FL_OK;
  size_t n, count = for_selected_rules(h, patterns, SIZE_MAX, NULL, NULL, NULL);
  fl_rule_run *v = count ? calloc(count, sizeof *v) : NULL;
  if (count && !v)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  rule_pass x = {h, fab, NULL, NULL, 0, 0, out, v, count, err, ++h->serial};
  if (fl_fabric_plane_count(fab) >= 2) {
    rc = run_planes(&x, patterns);
    n = count;
  } else {
    n = for_selected_rules(h, patterns, count, run_selected, &x, &rc);
  }
  *runs = v;
  *n_runs = n;
  return rc;
}

int fl_host_run(fl_host *h, const fl_fabric *fab, const char *patterns,
                fl_findings *out, size_t *n_run, fl_error *err) {
  fl_rule_run *runs = NULL;
  size_t n = 0;
  int rc = fl_host_run_rules(h, fab, patterns, out, &runs, &n, err);
  free(runs);
  if (n_run)
    *n_run = n;
  return rc;
}
