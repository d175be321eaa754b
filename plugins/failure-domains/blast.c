/* SPDX-License-Identifier: MIT */
/*
 * plugins/failure-domains/blast.c — failure-domains.blast-radius: how much
 * compute one rack, PDU or feed takes off the fabric.
 *
 * domain-partition asks whether the hosts *outside* a domain stay
 * connected, and by design leaves out hosts whose every cable ends in the
 * domain: they are "lost with" it. That is right for a host in its own rack,
 * and wrong for a whole scalable unit whose leaves all hang on one
 * single-fed PDU: 32 DGX, alive and powered, are off the fabric, and the
 * partition rule is silent (journey-4su m-d2). This rule counts servers, not
 * groups: for each domain value, a server is off the fabric when none of its
 * HCAs keeps a cable into the largest surviving part of its original
 * component — because its own power is gone (powered off) or because its
 * leaves are (cut off). The count is judged against the policy:
 * `max-servers`, by default one SU's worth (the most servers cabled to the
 * leaves of one pod, `pod` else `su`, fd_model.h) for a rack, row or hall,
 * where an SU lives, and fewer for power, which is meant to be redundant.
 *
 * One finding per cause: values that remove exactly the same nodes and
 * cables (pdu=X and power-feed=A when only X's equipment is on feed A) are
 * one finding naming every value. Not split over MPI ranks: the folding
 * needs every value; each value costs one components_masked, O(V + E).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fd_blast.h"
#include "fd_rules.h"

#define BR_NAMED 50 /* hosts named in one finding */

/* qsort without a context argument: endpoints carry their host name. */
typedef struct ep_name {
  const char *host;
  fl_id id;
} ep_name;

static int cmp_ep_name(const void *x, const void *y) {
  const ep_name *a = x, *b = y;
  int c = fl_natcmp(a->host, b->host);
  if (!c)
    c = strcmp(a->host, b->host);
  return c ? c : (a->id > b->id) - (a->id < b->id);
}

void br_free(br_ctx *c) {
  free(c->ep_by_host), free(c->hosts), free(c->node_off), free(c->link_off);
  free(c->memb), free(c->cnt), free(c->main_of);
}

/* Hosts (endpoints grouped by system) and one SU's worth of servers. */
int br_init(const fd_model *m, br_ctx *c) {
  memset(c, 0, sizeof *c);
  c->m = m;
  size_t nn = (size_t)m->nn + 1;
  ep_name *en = malloc(nn * sizeof *en);
  c->ep_by_host = malloc(nn * sizeof *c->ep_by_host);
  c->hosts = malloc(nn * sizeof *c->hosts);
  c->node_off = calloc(nn, 1);
  c->link_off = calloc((size_t)m->nl + 1, 1);
  c->memb = malloc(nn * sizeof *c->memb);
  c->cnt = malloc(nn * sizeof *c->cnt);
  c->main_of = malloc(((size_t)m->n_comp + 1) * sizeof *c->main_of);
  uint32_t *pod_cnt = calloc((size_t)m->n_pods + 1, sizeof *pod_cnt);
  uint32_t *pod_last = malloc(((size_t)m->n_pods + 1) * sizeof *pod_last);
  if (!en || !c->ep_by_host || !c->hosts || !c->node_off || !c->link_off ||
      !c->memb || !c->cnt || !c->main_of || !pod_cnt || !pod_last) {
    free(en), free(pod_cnt), free(pod_last);
    return -1;
  }
  for (fl_id v = 0; v < m->nn; v++)
    if (m->ep[v])
      en[c->n_eps++] = (ep_name){m->host[v], v};
  if (c->n_eps > 1)
    qsort(en, c->n_eps, sizeof *en, cmp_ep_name);
  for (uint32_t i = 0; i < c->n_eps; i++) {
    c->ep_by_host[i] = en[i].id;
    if (!c->n_hosts || strcmp(c->hosts[c->n_hosts - 1].name, en[i].host) != 0)
      c->hosts[c->n_hosts++] = (br_host){en[i].host, i, 0};
    c->hosts[c->n_hosts - 1].n++;
  }
  /* servers per pod: hosts with a cable to a switch of the pod */
  for (uint32_t p = 0; p < m->n_pods; p++)
    pod_last[p] = FD_NONE;
  for (uint32_t h = 0; h < c->n_hosts; h++)
    for (uint32_t i = 0; i < c->hosts[h].n; i++) {
      fl_id e = c->ep_by_host[c->hosts[h].first + i];
      for (uint32_t k = m->off[e]; k < m->off[e + 1]; k++) {
        uint32_t p = m->pod[m->nbr[k]];
        if (p != FD_NONE && pod_last[p] != h) {
          pod_last[p] = h;
          pod_cnt[p]++;
        }
      }
    }
  for (uint32_t p = 0; p < m->n_pods; p++)
    if (pod_cnt[p] > c->su_servers)
      c->su_servers = pod_cnt[p];
  free(en), free(pod_cnt), free(pod_last);
  memcpy(c->link_off, m->xplane, m->nl);
  return 0;
}

void br_set(br_ctx *c, const fd_value *dv, uint8_t on) {
  const fd_model *m = c->m;
  for (uint32_t i = 0; i < dv->n_nodes; i++)
    c->node_off[m->dom_nodes[dv->node_off + i]] = on;
  for (uint32_t i = 0; i < dv->n_links; i++) {
    fl_id l = m->dom_links[dv->link_off + i];
    c->link_off[l] = on | m->xplane[l];
  }
}

/* Endpoint @e is alive and keeps a cable to a node still there. */
static int br_alive(const br_ctx *c, fl_id e) {
  const fd_model *m = c->m;
  if (c->node_off[e])
    return 0;
  for (uint32_t k = m->off[e]; k < m->off[e + 1]; k++)
    if (!c->link_off[m->lnk[k]] && !c->node_off[m->nbr[k]])
      return 1;
  return 0;
}

/* Evaluate the value whose elements are set in c->node_off/link_off; marks
 * the hosts off the fabric in @off_host when not NULL. */
int br_eval(const fl_host_api *api, br_ctx *c, br_res *r, uint8_t *off_host) {
  const fd_model *m = c->m;
  uint32_t n_new = 0;
  memset(r, 0, sizeof *r);
  if (api->components_masked(m->fab, c->node_off, c->link_off, c->memb,
                             &n_new) != FL_OK)
    return -1;
  for (uint32_t i = 0; i < n_new; i++)
    c->cnt[i] = 0;
  for (uint32_t b = 0; b < m->n_comp; b++)
    c->main_of[b] = FD_NONE;
  for (uint32_t i = 0; i < c->n_eps; i++) {
    fl_id e = c->ep_by_host[i];
    if (br_alive(c, e) && c->memb[e] < n_new)
      c->cnt[c->memb[e]]++;
  }
  /* the largest surviving part of each baseline component (lowest id on a
   * tie) is "the fabric" its hosts must stay in */
  for (uint32_t i = 0; i < c->n_eps; i++) {
    fl_id e = c->ep_by_host[i];
    if (!br_alive(c, e) || c->memb[e] >= n_new)
      continue;
    uint32_t b = m->comp[e], x = c->memb[e], *mo = &c->main_of[b];
    if (*mo != FD_NONE && *mo != x)
      r->split = 1;
    if (*mo == FD_NONE || c->cnt[x] > c->cnt[*mo] ||
        (c->cnt[x] == c->cnt[*mo] && x < *mo))
      *mo = x;
  }
  for (fl_id v = 0; v < m->nn; v++)
    r->switches += m->sw[v] && c->node_off[v];
  for (uint32_t h = 0; h < c->n_hosts; h++) {
    const br_host *hs = &c->hosts[h];
    uint32_t on = 0, powered = 0;
    for (uint32_t i = 0; i < hs->n; i++) {
      fl_id e = c->ep_by_host[hs->first + i];
      powered += c->node_off[e];
      if (br_alive(c, e) && c->memb[e] == c->main_of[m->comp[e]])
        on = 1;
    }
    if (off_host)
      off_host[h] = !on;
    if (on)
      continue;
    r->off++;
    r->eps_off += hs->n;
    if (powered == hs->n)
      r->powered++;
    else
      r->cut++;
  }
  return 0;
}

/* A place (rack, row, hall): an SU lives in its racks, so losing one may
 * take one SU's worth; power (a PDU, a feed, any other key) is meant to be
 * redundant, so one failure must take fewer. */
static int is_location(const char *key) {
  return strcmp(key, "rack") == 0 || strcmp(key, "row") == 0 ||
         strcmp(key, "hall") == 0;
}

/* The most servers one value of @key may take off the fabric: @max64 when
 * the policy gives it, else one SU's worth (@su servers) for a place and
 * one fewer for power. */
static uint32_t limit_for(const char *key, uint32_t su, int64_t max64) {
  if (max64 > 0)
    return max64 > UINT32_MAX ? UINT32_MAX : (uint32_t)max64;
  return is_location(key) ? su : su ? su - 1 : 0;
}

/* Value @j removes exactly the nodes and cables of value @i. */
int same_elements(const fd_model *m, const fd_value *a, const fd_value *b) {
  return a->n_nodes == b->n_nodes && a->n_links == b->n_links &&
         (!a->n_nodes ||
          memcmp(m->dom_nodes + a->node_off, m->dom_nodes + b->node_off,
                 a->n_nodes * sizeof *m->dom_nodes) == 0) &&
         (!a->n_links ||
          memcmp(m->dom_links + a->link_off, m->dom_links + b->link_off,
                 a->n_links * sizeof *m->dom_links) == 0);
}

static int br_report(const fl_host_api *api, fl_ctx *ctx, br_ctx *c,
                     uint32_t vi, const br_res *r, uint32_t max_servers,
                     const char *lim_key, int auto_max,
                     const uint8_t *off_host) {
  const fd_model *m = c->m;
  const fd_value *dv = &m->vals[vi];
  char also[400] = "", names[700] = "", msg[2048];
  size_t off = 0;
  uint32_t n_also = 0;
  for (uint32_t j = vi + 1; j < m->n_vals; j++)
    if (same_elements(m, dv, &m->vals[j]) && off < sizeof also) {
      off += (size_t)snprintf(also + off, sizeof also - off, "%s%s=%s",
                              n_also ? ", " : "", m->vals[j].key,
                              m->vals[j].value);
      n_also++;
    }
  fl_id ids[16 + BR_NAMED];
  uint32_t n_ids = 0, listed = 0;
  for (uint32_t i = 0; i < dv->n_nodes && n_ids < 16; i++)
    if (m->sw[m->dom_nodes[dv->node_off + i]])
      ids[n_ids++] = m->dom_nodes[dv->node_off + i];
  off = 0;
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "domain", dv->key);
  jb_key_str(&ev, "value", dv->value);
  jb_key(&ev, "same_elements_as");
  jb_arr_open(&ev);
  for (uint32_t j = vi + 1; j < m->n_vals; j++)
    if (same_elements(m, dv, &m->vals[j])) {
      jb_obj_open(&ev);
      jb_key_str(&ev, "domain", m->vals[j].key);
      jb_key_str(&ev, "value", m->vals[j].value);
      jb_obj_close(&ev);
    }
  jb_arr_close(&ev);
  jb_key_int(&ev, "servers_off", r->off);
  jb_key_int(&ev, "servers_total", c->n_hosts);
  jb_key_double(&ev, "percent", c->n_hosts ? 100.0 * r->off / c->n_hosts : 0);
  jb_key_int(&ev, "cut_off", r->cut);
  jb_key_int(&ev, "powered_off", r->powered);
  jb_key_int(&ev, "hcas_off", r->eps_off);
  jb_key_int(&ev, "switches_down", r->switches);
  jb_key_int(&ev, "max_servers", max_servers);
  jb_key_int(&ev, "su_servers", c->su_servers);
  jb_key(&ev, "hosts");
  jb_arr_open(&ev);
  for (uint32_t h = 0; h < c->n_hosts; h++) {
    if (!off_host[h])
      continue;
    jb_str_item(&ev, c->hosts[h].name);
    if (listed < 8 && off < sizeof names)
      off += (size_t)snprintf(names + off, sizeof names - off, "%s%s",
                              listed ? ", " : "", c->hosts[h].name);
    listed++;
    if (n_ids < 16 + BR_NAMED)
      ids[n_ids++] = c->ep_by_host[c->hosts[h].first];
  }
  jb_arr_close(&ev);
  jb_obj_close(&ev);
  if (listed > 8 && off < sizeof names)
    snprintf(names + off, sizeof names - off, " and %u more", listed - 8);
  char why[200], limit[200];
  if (r->cut && r->powered)
    snprintf(why, sizeof why,
             "%u powered off with it, %u alive but cut off (their leaves are "
             "down)",
             r->powered, r->cut);
  else if (r->cut)
    snprintf(why, sizeof why, "alive but cut off: their leaves are down");
  else
    snprintf(why, sizeof why, "powered off with it");
  if (auto_max && is_location(lim_key))
    snprintf(limit, sizeof limit,
             "one %s may take at most one SU's worth (%u servers)", lim_key,
             c->su_servers);
  else if (auto_max)
    snprintf(limit, sizeof limit,
             "fewer than one SU's worth (%u servers) may be lost to one "
             "%s failure",
             c->su_servers, lim_key);
  else
    snprintf(limit, sizeof limit, "the policy allows at most %u servers",
             max_servers);
  snprintf(msg, sizeof msg,
           "losing %s=%s%s%s%s takes %u servers (%.0f %% of %u) off the "
           "fabric, %s (%u switch(es) down): %s; %s",
           dv->key, dv->value, n_also ? " (or " : "", also, n_also ? ")" : "",
           r->off, c->n_hosts ? 100.0 * r->off / c->n_hosts : 0.0, c->n_hosts,
           why, r->switches, names, limit);
  int rc = fd_report(api, ctx, msg, ids, n_ids, NULL, 0, NULL, 0, jb_str(&ev));
  jb_free(&ev);
  return rc;
}

/* The limit of value @vi and of every later value that removes the same
 * elements (they are one finding): the strictest of their keys' limits, a
 * rack that is also the only PDU of what it holds being judged as a PDU
 * (an outside tester: a single-fed SU's leaves in one rack were allowed a
 * rack's SU's worth). Its key in *@key. */
static uint32_t strictest(const fd_model *m, uint32_t vi, uint32_t su,
                          int64_t max64, const char **key) {
  uint32_t lim = limit_for(m->vals[vi].key, su, max64);
  *key = m->vals[vi].key;
  for (uint32_t j = vi + 1; j < m->n_vals; j++)
    if (same_elements(m, &m->vals[vi], &m->vals[j]) &&
        limit_for(m->vals[j].key, su, max64) < lim) {
      lim = limit_for(m->vals[j].key, su, max64);
      *key = m->vals[j].key;
    }
  return lim;
}

static int check_blast(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  fd_state *st = pd;
  fd_model *m = fd_get_model(
      api, ctx, st, fd_param_str(api, ctx, "domains", FD_DEFAULT_DOMAINS));
  if (!m)
    return 1;
  int64_t max64 = 0;
  if (api->param_int(ctx, "max-servers", &max64) != FL_OK)
    max64 = 0;
  br_ctx c;
  uint8_t *off_host = NULL;
  int rc = 0;
  if (br_init(m, &c) != 0 ||
      !(off_host = calloc((size_t)m->nn + 1, sizeof *off_host))) {
    br_free(&c);
    free(off_host);
    api->fail(ctx, "out of memory");
    return 1;
  }
  int auto_max = max64 <= 0;
  /* default: one SU's worth for a place, fewer for power (is_location());
   * no pods with servers: the cluster */
  uint32_t su = c.su_servers ? c.su_servers : c.n_hosts;
  for (uint32_t vi = 0; vi < m->n_vals && !rc; vi++) {
    const fd_value *dv = &m->vals[vi];
    int folded = 0; /* an earlier value removes the same: reported there */
    for (uint32_t j = 0; j < vi && !folded; j++)
      folded = same_elements(m, &m->vals[j], dv);
    if (folded)
      continue;
    br_res r;
    const char *lim_key = NULL;
    br_set(&c, dv, 1);
    if (br_eval(api, &c, &r, off_host) != 0) {
      api->fail(ctx, "could not compute components");
      rc = 1;
    } else if (r.split && fl_fabric_key_eq(st->part_ran, m->key)) {
      /* a value that splits the hosts is domain-partition's finding, which
       * names the groups: reported once */
    } else if (r.off > strictest(m, vi, su, max64, &lim_key)) {
      rc =
          br_report(api, ctx, &c, vi, &r, strictest(m, vi, su, max64, &lim_key),
                    lim_key, auto_max, off_host);
    }
    br_set(&c, dv, 0);
  }
  br_free(&c);
  free(off_host);
  return rc;
}

static const fl_param_def P_BR_MAX = {
    sizeof(fl_param_def),
    FL_PARAM_INT,
    "max-servers",
    "0",
    "servers",
    "most servers one domain value may take off the fabric; 0: one SU's "
    "worth (the most servers on the leaves of one pod or SU) for a rack, row "
    "or hall, one fewer for a PDU, feed or other key",
    "0",
    NULL};
static const fl_param_def *const PARAMS_BLAST[] = {&FD_P_DOMAINS, &P_BR_MAX};

const fl_rule_def FD_R_BLAST = {
    sizeof(fl_rule_def),
    FL_SEV_ERROR,
    "failure-domains.blast-radius",
    "one rack, PDU or feed takes more servers off the fabric than the policy "
    "allows",
    "For each domain value: the servers that lose every HCA's way into the "
    "fabric, powered off with the value or alive but cut off because their "
    "leaves are down. More than max-servers (default: one SU's worth for a "
    "rack, row or hall, fewer for power) is reported; values that remove the "
    "same elements are one finding.",
    1,
    FL_NEEDS_ALL_PLANES,
    PARAMS_BLAST,
    sizeof PARAMS_BLAST / sizeof *PARAMS_BLAST,
    check_blast};
