/* SPDX-License-Identifier: MIT */
/*
 * plugins/failure-domains/fd_dual.c — failure-domains.dual-homing: a host's
 * redundant ports (dual-port HCA, two NICs of one rail, two planes) land on one
 * switch or one domain.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_rules.h"

typedef struct hport {
  const char
      *set; /* redundancy set: host + rail, host + "planes", or NIC name */
  const char *set2;
  fl_id node;
  uint32_t port;
  fl_id sw;
  uint32_t sw_port;
  fl_id link;
} hport;

static int cmp_hport(const void *x, const void *y) {
  const hport *a = x, *b = y;
  int c = strcmp(a->set, b->set);
  if (!c)
    c = strcmp(a->set2, b->set2);
  if (c)
    return c;
  if (a->node != b->node)
    return a->node < b->node ? -1 : 1;
  return a->port < b->port ? -1 : a->port > b->port;
}

/* Dual homing. A node known only as the neighbour of per-device listings
 * (fl_node_peer_only(): its own LLDP view was not given), or only as a far
 * end of a filtered capture: its cables beyond the captured switches are
 * unknown, so two of its ports on one captured switch do not prove it
 * single-homed (a controller cabled to two switches of which one was
 * captured; real corpus class F3). Unknown is not wrong. */

static int check_dual_homing(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  fd_state *st = pd;
  fd_model *m = fd_get_model(api, ctx, st, NULL);
  if (!m)
    return 1;
  const fl_fabric *f = m->fab;
  /* a fabric of one switch has nowhere else to home a port: two ports of a
   * host on it are for bandwidth, not a redundancy fault (outside tester,
   * session 11: a lab's single QDR switch, a host with both ConnectX ports
   * on it, was an error) */
  uint32_t nsw = 0;
  for (fl_id v = 0; v < m->nn && nsw < 2; v++)
    nsw += api->node_kind(f, v) == FL_NODE_SWITCH;
  if (nsw < 2)
    return 0;
  char kbuf[256], *keys[16];
  uint32_t nk = 0;
  snprintf(kbuf, sizeof kbuf, "%s",
           fd_param_str(api, ctx, "keys", "rack,pdu,power-feed"));
  char *save = NULL;
  for (char *t = strtok_r(kbuf, ", ", &save); t && nk < 16;
       t = strtok_r(NULL, ", ", &save))
    keys[nk++] = t;
  uint32_t np = api->port_count(f);
  hport *h = malloc(((size_t)np + 1) * sizeof *h);
  if (!h) {
    api->fail(ctx, "out of memory");
    return 1;
  }
  uint32_t n = 0;
  /* cabled ports of endpoints, with the switch they land on */
  for (fl_id v = 0; v < m->nn; v++) {
    if (!m->ep[v])
      continue;
    fl_id first = api->node_first_port(f, v);
    uint32_t cnt = api->node_port_count(f, v), cabled = 0;
    for (uint32_t i = 0; first != FL_NONE && i < cnt; i++)
      cabled += api->port_link_count(f, first + i) > 0;
    for (uint32_t i = 0; first != FL_NONE && i < cnt; i++) {
      fl_id p = first + i;
      fl_id l = FL_NONE, o = FL_NONE;
      fl_id s = fl_view_port_switch(api, f, p, &l, &o);
      if (s == FL_NONE)
        continue;
      const char *rail = fd_port_attr(api, f, p, "rail");
      const char *plane = fd_port_attr(api, f, p, "plane");
      hport e = {NULL, "", v, api->port_num(f, p), s, api->port_num(f, o), l};
      if (rail) {
        e.set = m->host[v]; /* two NICs (or ports) of one rail on one host */
        e.set2 = rail;
      } else if (plane) {
        e.set = m->host[v]; /* the host's ports on different planes */
        e.set2 = "\x01planes";
      } else if (cabled >= 2 && !fl_node_peer_only(api, f, v)) {
        e.set = api->node_name(f, v); /* a dual-port HCA */
        e.set2 = "\x01ports";
      } else {
        continue;
      }
      h[n++] = e;
    }
  }
  if (n > 1)
    qsort(h, n, sizeof *h, cmp_hport);
  int rc = 0;
  for (uint32_t i = 0; i < n && !rc;) {
    uint32_t j = i + 1;
    while (j < n && strcmp(h[j].set, h[i].set) == 0 &&
           strcmp(h[j].set2, h[i].set2) == 0)
      j++;
    /* the first pair that shares a switch, else a domain value */
    uint32_t a = 0, b = 0;
    const char *why_key = NULL, *why_val = NULL;
    int found = 0;
    for (uint32_t x = i; x < j && !found; x++)
      for (uint32_t y = x + 1; y < j && !found; y++)
        if (h[x].sw == h[y].sw)
          a = x, b = y, found = 1;
    for (uint32_t k = 0; k < nk && !found; k++)
      for (uint32_t x = i; x < j && !found; x++)
        for (uint32_t y = x + 1; y < j && !found; y++) {
          const char *sa = api->attr(f, FL_ENT_NODE, h[x].sw, keys[k]);
          const char *sb = api->attr(f, FL_ENT_NODE, h[y].sw, keys[k]);
          /* a dual-fed value ("A+B") shared by both is no single
           * failure: losing any one of its parts leaves both up */
          if (sa && sb && *sa && strcmp(sa, sb) == 0 && !fd_multi_fed(sa))
            a = x, b = y, found = 2, why_key = keys[k], why_val = sa;
        }
    if (found) {
      const char *kind = h[i].set2[0] != '\x01'                       ? "rail"
                         : h[i].set2[1] == 'p' && h[i].set2[2] == 'l' ? "planes"
                                                                      : "ports";
      char what[200], msg[1024];
      if (strcmp(kind, "rail") == 0)
        snprintf(what, sizeof what, "host \"%s\"'s two NICs of rail %s",
                 h[i].set, h[i].set2);
      else if (strcmp(kind, "planes") == 0)
        snprintf(what, sizeof what, "host \"%s\"'s ports on different planes",
                 h[i].set);
      else
        snprintf(what, sizeof what, "the ports of dual-port HCA \"%s\"",
                 h[i].set);
      if (found == 1)
        snprintf(
            msg, sizeof msg,
            "%s land on the same switch \"%s\" (ports %u and %u): one switch "
            "failure disconnects both",
            what, api->node_name(f, h[a].sw), h[a].sw_port, h[b].sw_port);
      else
        snprintf(msg, sizeof msg,
                 "%s land on \"%s\" and \"%s\", both in %s %s: one %s failure "
                 "disconnects both",
                 what, api->node_name(f, h[a].sw), api->node_name(f, h[b].sw),
                 why_key, why_val, why_key);
      fl_id ids[4] = {h[a].node, h[a].sw, h[b].node, h[b].sw};
      uint32_t n_ids = h[a].node == h[b].node ? 0 : 4;
      if (!n_ids) {
        ids[0] = h[a].node, ids[1] = h[a].sw, ids[2] = h[b].sw;
        n_ids = h[a].sw == h[b].sw ? 2 : 3;
      }
      fl_port_ref ports[4] = {{h[a].node, h[a].port},
                              {h[a].sw, h[a].sw_port},
                              {h[b].node, h[b].port},
                              {h[b].sw, h[b].sw_port}};
      fl_id links[2] = {h[a].link, h[b].link};
      jbuf ev;
      jb_init(&ev);
      jb_obj_open(&ev);
      jb_key_str(&ev, "redundancy", kind);
      jb_key_str(&ev, "host", m->host[h[a].node]);
      if (strcmp(kind, "rail") == 0)
        jb_key_str(&ev, "rail", h[i].set2);
      jb_key_str(&ev, "switch_a", api->node_name(f, h[a].sw));
      jb_key_str(&ev, "switch_b", api->node_name(f, h[b].sw));
      if (found == 2) {
        jb_key_str(&ev, "domain", why_key);
        jb_key_str(&ev, "value", why_val);
      }
      jb_obj_close(&ev);
      rc =
          fd_report(api, ctx, msg, ids, n_ids, ports, 4, links, 2, jb_str(&ev));
      jb_free(&ev);
    }
    i = j;
  }
  free(h);
  return rc;
}

static const fl_param_def P_KEYS = {sizeof(fl_param_def),
                                    FL_PARAM_STRING,
                                    "keys",
                                    "rack,pdu,power-feed",
                                    NULL,
                                    "failure-domain keys that a host's "
                                    "redundant ports' switches must not share",
                                    NULL,
                                    NULL};
static const fl_param_def *const PARAMS_DUAL[] = {&P_KEYS};

const fl_rule_def FD_R_DUAL = {
    sizeof(fl_rule_def),
    FL_SEV_ERROR,
    "failure-domains.dual-homing",
    "a host's redundant ports land on one switch or one failure domain",
    "Redundant ports: the cabled ports of a dual-port HCA, a host's NICs of "
    "one rail, a host's ports on different planes. Their switches must "
    "differ and share no value of the keys.",
    1,
    FL_NEEDS_ALL_PLANES,
    PARAMS_DUAL,
    sizeof PARAMS_DUAL / sizeof *PARAMS_DUAL,
    check_dual_homing};
