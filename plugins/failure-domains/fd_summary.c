/* SPDX-License-Identifier: MIT */
/*
 * plugins/failure-domains/fd_summary.c — failure-domains.summary (opt-in,
 * info): the worst single value of each failure-domain key — the rack,
 * row, hall, PDU or feed whose loss takes the most servers off the fabric
 * — as figures, one finding per key, for `fabriclint compare` ("the worst
 * single rack / PDU / feed failure", issue 34 §1) and for a reader who
 * wants the number rather than a verdict.
 *
 * The count is blast-radius's (fd_blast.h): a server is off when none of
 * its HCAs keeps a cable into the largest surviving part of its component,
 * powered off with the value or cut off. Unlike blast-radius nothing is
 * judged: every key with a value in the fabric gets its worst value, even
 * one that takes nothing off (0 servers). A tie goes to the first value in
 * the model's order (keys as `domains` lists them, values in natural
 * order). Each value costs one components_masked(), O(V + E).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fd_blast.h"
#include "fd_rules.h"

/* The finding of key @key: its worst value @vi (servers @r), over
 * @n_values values. */
static int report(const fl_host_api *api, fl_ctx *ctx, const br_ctx *c,
                  uint32_t vi, const br_res *r, uint32_t n_values) {
  const fd_model *m = c->m;
  const fd_value *dv = &m->vals[vi];
  fl_id ids[16];
  uint32_t n_ids = 0;
  for (uint32_t i = 0; i < dv->n_nodes && n_ids < 16; i++)
    if (m->sw[m->dom_nodes[dv->node_off + i]])
      ids[n_ids++] = m->dom_nodes[dv->node_off + i];
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "domain", dv->key);
  jb_key_str(&ev, "value", dv->value);
  jb_key_int(&ev, "values", n_values);
  jb_key_int(&ev, "servers_off", r->off);
  jb_key_int(&ev, "servers_total", c->n_hosts);
  jb_key_int(&ev, "powered_off", r->powered);
  jb_key_int(&ev, "cut_off", r->cut);
  jb_key_int(&ev, "switches_down", r->switches);
  jb_obj_close(&ev);
  char msg[1024], key[512];
  snprintf(msg, sizeof msg,
           "worst single %s failure: losing %s=%s takes %u of %u servers off "
           "the fabric (%u powered off, %u cut off; %u switch(es) down), of "
           "%u %s value(s)",
           dv->key, dv->key, dv->value, r->off, c->n_hosts, r->powered, r->cut,
           r->switches, n_values, dv->key);
  /* one finding per key: the key is its identity, not the worst value, so
   * that a compare matches the rack summary of both sides */
  snprintf(key, sizeof key, "domain=%s", dv->key);
  int rc = fd_report_keyed(api, ctx, key, msg, ids, n_ids, NULL, 0, NULL, 0,
                           jb_str(&ev));
  jb_free(&ev);
  return rc;
}

/* The values of the key of value @first: @first and the values after it
 * with the same key (the model keeps a key's values together). */
static uint32_t key_end(const fd_model *m, uint32_t first) {
  uint32_t j = first + 1;
  while (j < m->n_vals && strcmp(m->vals[j].key, m->vals[first].key) == 0)
    j++;
  return j;
}

static int check_summary(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  fd_state *st = pd;
  fd_model *m = fd_get_model(
      api, ctx, st, fd_param_str(api, ctx, "domains", FD_DEFAULT_DOMAINS));
  if (!m)
    return 1;
  br_ctx c;
  if (br_init(m, &c) != 0) {
    br_free(&c);
    api->fail(ctx, "out of memory");
    return 1;
  }
  int rc = 0;
  for (uint32_t first = 0; first < m->n_vals && !rc;) {
    uint32_t end = key_end(m, first), worst = FD_NONE;
    br_res best;
    memset(&best, 0, sizeof best);
    for (uint32_t vi = first; vi < end && !rc; vi++) {
      br_res r;
      br_set(&c, &m->vals[vi], 1);
      if (br_eval(api, &c, &r, NULL) != 0) {
        api->fail(ctx, "could not compute components");
        rc = 1;
      } else if (worst == FD_NONE || r.off > best.off) {
        worst = vi;
        best = r;
      }
      br_set(&c, &m->vals[vi], 0);
    }
    if (!rc && worst != FD_NONE)
      rc = report(api, ctx, &c, worst, &best, end - first);
    first = end;
  }
  br_free(&c);
  return rc;
}

static const fl_param_def *const PARAMS_SUMMARY[] = {&FD_P_DOMAINS};

const fl_rule_def FD_R_SUMMARY = {
    sizeof(fl_rule_def),
    FL_SEV_INFO,
    "failure-domains.summary",
    "the worst single rack, row, hall, PDU or feed failure, as figures",
    "Per failure-domain key (domains): the value whose loss takes the most "
    "servers off the fabric (powered off with it, or cut off because their "
    "leaves are down), with the counts; every key present, also when its "
    "worst value takes none. Opt-in; meant for comparing two plans "
    "(fabriclint compare).",
    0,
    FL_NEEDS_ALL_PLANES,
    PARAMS_SUMMARY,
    sizeof PARAMS_SUMMARY / sizeof *PARAMS_SUMMARY,
    check_summary};
