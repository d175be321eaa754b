/* SPDX-License-Identifier: MIT */
/*
 * plugins/planes/planes.c — cross-plane rules of a multi-plane fabric
 * (fabriclint/planes.h): several subnets side by side that share the
 * hosts, each host with one NIC (or port) in every plane.
 *
 * Why: a ConnectX-8 / Quantum-X800 host spreads its bandwidth over several
 * independent planes, and two- and four-subnet InfiniBand clusters do the
 * same with one NIC per plane. Collectives stripe over the planes, so a
 * host whose NIC sits in the wrong plane, or a plane built smaller than its
 * siblings, slows every job it is in while each plane on its own still
 * looks healthy: only a view across planes sees it.
 *
 * Rules (all FL_NEEDS_ALL_PLANES: they judge the fabric as a whole; on a
 * fabric without planes they report nothing):
 *  host-planes    every host has exactly one port in each plane, NIC k in
 *                 plane k (profile `nic-k-plane-k`) or in any order
 *                 (`one-per-plane`); one finding per host, naming the NIC,
 *                 the plane it is in and the switch it is cabled to.
 *  shape          the planes are identical in shape: switches per tier and
 *                 the cabling of each switch (its switch peers) equal to
 *                 the reference plane (the most common shape); one finding
 *                 per differing plane, naming the missing, extra and
 *                 differently cabled switches.
 *  host-capacity  a host's capacity in each plane (Gb/s of its ports
 *                 there) and over all planes, against the most common
 *                 per-plane capacity; one finding per (plane, capacity).
 * "No cable joins two planes" is failure-domains.plane-crossing (it reads
 * the same `plane` attributes): not repeated here.
 *
 * Cost: O(V + E) per rule plus sorting names, O(V log V).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "util/natcmp.h"

#define MAXP 64u /* planes judged (a fabric of more is judged on the first) */

/* Report finding @fd with the evidence object closed in @ev, and free
 * @ev. FL_OK, or FL_ENOMEM (the evidence could not be built) or the
 * host's error. */
static int report_ev(const fl_host_api *api, fl_ctx *ctx, fl_finding *fd,
                     jbuf *ev) {
  const char *evj = jb_str(ev);
  fd->evidence_json = evj;
  int rc = evj ? api->report(ctx, fd) : FL_ENOMEM;
  jb_free(ev);
  return rc;
}

/* The planes a rule judges: 0 when @f has none (a host before ABI 1.3, or
 * one subnet), else the plane count, at most MAXP (a fabric of more is
 * judged on its first MAXP planes). The one preamble of every rule here. */
static uint32_t judged_planes(const fl_host_api *api, const fl_fabric *f) {
  if (!FL_API_HAS(api, port_plane) || api->plane_count(f) < 2)
    return 0;
  uint32_t np = api->plane_count(f);
  return np > MAXP ? MAXP : np;
}

/* ---- host ports ------------------------------------------------------- */

typedef struct hport {
  const char *host;  /* system */
  const char *dev;   /* device */
  fl_id node, port;  /* CA node, port id */
  uint32_t num;      /* port number */
  uint32_t plane;    /* where it is cabled (FL_NONE: uncabled) */
  fl_id peer;        /* switch node at the other end, or FL_NONE */
  uint32_t peer_num; /* its port number */
  double gbps;       /* link rate */
  int tagged_off;    /* 1: its `plane` tag differs from where it is cabled */
} hport;

static int cmp_hport(const void *x, const void *y) {
  const hport *a = x, *b = y;
  int c = strcmp(a->host, b->host);
  if (!c)
    c = fl_natcmp(a->dev, b->dev);
  if (!c)
    c = a->num < b->num ? -1 : a->num > b->num;
  return c;
}

static int service_role(const char *role) {
  return role && *role && strcmp(role, "compute") != 0;
}

/* Cabled ports of compute CAs that have a system, sorted by host, device
 * (natural order), port. *@n gets the count; NULL on ENOMEM (n = 0: none). */
static hport *host_ports(const fl_host_api *api, const fl_fabric *f,
                         size_t *n) {
  size_t cap = api->port_count(f) + 1, k = 0;
  hport *v = malloc(cap * sizeof *v);
  if (!v)
    return NULL;
  for (fl_id c = 0; c < api->node_count(f); c++) {
    const char *sys = api->node_system(f, c);
    if (api->node_kind(f, c) != FL_NODE_CA || !sys || !*sys ||
        service_role(api->attr(f, FL_ENT_NODE, c, "role")))
      continue;
    fl_id p0 = api->node_first_port(f, c);
    for (uint32_t i = 0; i < api->node_port_count(f, c); i++) {
      fl_id p = p0 + i;
      if (!api->port_link_count(f, p))
        continue;
      fl_id l = api->port_link(f, p, 0), q = api->link_other(f, l, p);
      fl_id m = api->port_node(f, q);
      hport h = {sys,
                 api->node_device(f, c),
                 c,
                 p,
                 api->port_num(f, p),
                 api->port_plane(f, p),
                 FL_NONE,
                 0,
                 api->link_gbps(f, l),
                 0};
      if (api->node_kind(f, m) != FL_NODE_CA) {
        h.peer = m;
        h.peer_num = api->port_num(f, q);
      }
      const char *tag = api->attr(f, FL_ENT_PORT, p, "plane");
      if (!tag)
        tag = api->attr(f, FL_ENT_NODE, c, "plane");
      uint32_t mp = h.peer == FL_NONE ? FL_NONE : api->node_plane(f, m);
      h.tagged_off =
          tag && mp != FL_NONE && strcmp(tag, api->plane_name(f, mp)) != 0;
      v[k++] = h;
    }
  }
  qsort(v, k, sizeof *v, cmp_hport);
  *n = k;
  return v;
}

/* ---- planes.host-planes ----------------------------------------------- */

static const char *param_str(const fl_host_api *api, fl_ctx *ctx,
                             const char *name, const char *dflt) {
  const char *v = NULL;
  return api->param_string(ctx, name, &v) == FL_OK && v ? v : dflt;
}

/* One host's ports h[0..n): judge and report. */
static int judge_host(const fl_host_api *api, fl_ctx *ctx, const fl_fabric *f,
                      const hport *h, size_t n, uint32_t np, int ordered) {
  for (size_t i = 0; i < n; i++)
    if (h[i].tagged_off)
      return FL_OK; /* failure-domains.plane-crossing reports its cables */
  uint32_t cnt[MAXP] = {0};
  size_t wrong = 0, first_wrong = n;
  for (size_t i = 0; i < n; i++) {
    if (h[i].plane < MAXP)
      cnt[h[i].plane]++;
    if (ordered && h[i].plane != (uint32_t)(i % np)) {
      wrong++;
      if (first_wrong == n)
        first_wrong = i;
    }
  }
  uint32_t missing = 0, doubled = 0, first_missing = np;
  for (uint32_t p = 0; p < np && p < MAXP; p++) {
    if (cnt[p] == 0 && first_missing == np)
      first_missing = p;
    missing += cnt[p] == 0;
    doubled += cnt[p] > 1 && n <= np;
  }
  if (!missing && !doubled && !wrong)
    return FL_OK;
  char msg[1024], what[512] = "";
  size_t w = 0;
  if (first_wrong < n) {
    const hport *x = &h[first_wrong];
    w += (size_t)snprintf(
        what + w, sizeof what - w,
        "NIC %s port %u (NIC %zu of %zu, for plane %s) is cabled into plane "
        "%s%s%s%s",
        x->dev, x->num, first_wrong + 1, n,
        api->plane_name(f, (uint32_t)(first_wrong % np)),
        x->plane == FL_NONE ? "(none)" : api->plane_name(f, x->plane),
        x->peer != FL_NONE ? " (switch " : "",
        x->peer != FL_NONE ? api->node_name(f, x->peer) : "",
        x->peer != FL_NONE ? ")" : "");
    if (wrong > 1 && w < sizeof what)
      w += (size_t)snprintf(what + w, sizeof what - w,
                            ", and %zu more NIC(s) out of place", wrong - 1);
  }
  if (missing && w < sizeof what)
    w += (size_t)snprintf(what + w, sizeof what - w,
                          "%s%u plane(s) without a port of it (first: plane "
                          "%s)",
                          w ? "; " : "", missing,
                          api->plane_name(f, first_missing));
  if (doubled && w < sizeof what)
    snprintf(what + w, sizeof what - w,
             "%s%u plane(s) with two or more of its ports", w ? "; " : "",
             doubled);
  snprintf(msg, sizeof msg,
           "host %s: %s; each host needs exactly one port in each of the %u "
           "planes%s",
           h[0].host, what, np, ordered ? ", NIC k in plane k" : "");
  fl_id nodes[2 * MAXP + 1];
  fl_port_ref ports[MAXP + 1];
  uint32_t nn = 0, npt = 0;
  const hport *x = first_wrong < n ? &h[first_wrong] : NULL;
  if (x) {
    nodes[nn++] = x->node;
    ports[npt++] = (fl_port_ref){x->node, x->num};
    if (x->peer != FL_NONE) {
      nodes[nn++] = x->peer;
      ports[npt++] = (fl_port_ref){x->peer, x->peer_num};
    }
  }
  for (size_t i = 0; i < n && nn < 2 * MAXP && npt < MAXP; i++)
    if (!x || h[i].node != x->node) {
      nodes[nn++] = h[i].node;
      ports[npt++] = (fl_port_ref){h[i].node, h[i].num};
    }
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "host", h[0].host);
  jb_key_int(&ev, "ports", (long long)n);
  jb_key_int(&ev, "planes", np);
  jb_key_int(&ev, "out_of_place", (long long)wrong);
  jb_key_int(&ev, "planes_missing", missing);
  jb_key_int(&ev, "planes_doubled", doubled);
  if (x) {
    jb_key_str(&ev, "nic", x->dev);
    jb_key_str(&ev, "expected_plane",
               api->plane_name(f, (uint32_t)(first_wrong % np)));
    jb_key_str(&ev, "actual_plane",
               x->plane == FL_NONE ? "" : api->plane_name(f, x->plane));
    if (x->peer != FL_NONE)
      jb_key_str(&ev, "switch", api->node_name(f, x->peer));
  }
  jb_obj_close(&ev);
  fl_finding fd = {.struct_size = sizeof fd,
                   .message = msg,
                   .nodes = nodes,
                   .n_nodes = nn,
                   .n_ports = npt,
                   .ports = ports};
  return report_ev(api, ctx, &fd, &ev);
}

static int check_host_planes(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t np = judged_planes(api, f);
  if (!np)
    return 0;
  const char *profile = param_str(api, ctx, "profile", "nic-k-plane-k");
  int ordered = strcmp(profile, "one-per-plane") != 0;
  if (ordered && strcmp(profile, "nic-k-plane-k") != 0) {
    api->bad_param(ctx, "profile", "expected nic-k-plane-k or one-per-plane");
    return 1;
  }
  size_t n = 0;
  hport *v = host_ports(api, f, &n);
  if (!v) {
    api->fail(ctx, "out of memory");
    return 1;
  }
  int rc = FL_OK;
  for (size_t s = 0, e; s < n && rc == FL_OK; s = e) {
    for (e = s + 1; e < n && strcmp(v[e].host, v[s].host) == 0; e++)
      ;
    rc = judge_host(api, ctx, f, v + s, e - s, np, ordered);
  }
  free(v);
  if (rc != FL_OK)
    api->fail(ctx, "could not report a finding");
  return rc != FL_OK;
}

/* ---- planes.shape ----------------------------------------------------- */

#define SEPS "-_.:/ "

/* Token @i (0-based from the front, or from the back when @back) of @name
 * split on SEPS: its start and length; 0 when it has fewer tokens. */
static int token(const char *name, int i, int back, const char **at,
                 size_t *len) {
  const char *starts[32];
  size_t lens[32];
  int n = 0;
  for (const char *s = name; *s && n < 32;) {
    size_t l = strcspn(s, SEPS);
    starts[n] = s;
    lens[n++] = l;
    s += l;
    if (*s)
      s++;
  }
  if (i >= n || n < 2)
    return 0;
  int k = back ? n - 1 - i : i;
  *at = starts[k];
  *len = lens[k];
  return 1;
}

/* @name without token @i (front or @back) and one separator next to it. */
static void drop_token(const char *name, int i, int back, char *buf,
                       size_t size) {
  const char *at;
  size_t len;
  if (!token(name, i, back, &at, &len)) {
    snprintf(buf, size, "%s", name);
    return;
  }
  size_t head = (size_t)(at - name);
  const char *tail = at + len;
  if (*tail)
    tail++;
  else if (head)
    head--;
  snprintf(buf, size, "%.*s%s", (int)head, name, tail);
}

/* Node @n's name without the " (0x<GUID>)" the model adds when planes name
 * their switches alike (leaf01 in plane 1 and in plane 2, fabriclint/
 * fabric.h): each plane's leaf01 is "leaf01" again, so that planes named
 * alike compare by name. Into @buf. The core's fl_fabric_node_base_name()
 * does the same; a plugin sees the fabric only through the host API, which
 * has no such entry. */
static void plain_name(const fl_host_api *api, const fl_fabric *f, fl_id n,
                       char *buf, size_t size) {
  const char *nm = api->node_name(f, n);
  size_t l = strlen(nm);
  char suf[32];
  int k = snprintf(suf, sizeof suf, " (0x%016llx)",
                   (unsigned long long)api->node_guid(f, n));
  if (api->node_guid(f, n) && k > 0 && l > (size_t)k &&
      memcmp(nm + l - k, suf, (size_t)k) == 0)
    l -= (size_t)k;
  snprintf(buf, size, "%.*s", (int)l, nm);
}

/* The token that names the plane in switch names: the first front or
 * back token position (up to the third) that is the same for every
 * switch of a plane and differs between planes ("pl2-leaf-01",
 * "leaf-01-b"). *@pos and *@back get it; 0 when no position does. */
static int plane_token(const fl_host_api *api, const fl_fabric *f, uint32_t np,
                       int *pos, int *back) {
  for (int b = 0; b < 2; b++)
    for (int i = 0; i < 3; i++) {
      char first[MAXP][128];
      int have[MAXP] = {0}, ok = 1;
      for (fl_id s = 0; ok && s < api->node_count(f); s++) {
        uint32_t p = api->node_plane(f, s);
        if (api->node_kind(f, s) == FL_NODE_CA || p >= np)
          continue;
        char plain[128];
        const char *at;
        size_t len;
        plain_name(api, f, s, plain, sizeof plain);
        if (!token(plain, i, b, &at, &len))
          ok = 0;
        else if (!have[p]) {
          snprintf(first[p], sizeof first[p], "%.*s", (int)len, at);
          have[p] = 1;
        } else if (len != strlen(first[p]) || strncmp(at, first[p], len) != 0)
          ok = 0;
      }
      int differ = 0;
      for (uint32_t p = 1; ok && p < np; p++)
        differ |= have[p] && have[0] && strcmp(first[p], first[0]) != 0;
      if (ok && differ) {
        *pos = i;
        *back = b;
        return 1;
      }
    }
  return 0;
}

/* The name of a switch across planes, into @buf: without its plane token
 * (@pos >= 0), else as it is. */
static void canon(const char *name, int pos, int back, char *buf, size_t size) {
  if (pos >= 0)
    drop_token(name, pos, back, buf, size);
  else
    snprintf(buf, size, "%s", name);
}

/* canon() of node @n's plain name (plain_name()). */
static void canon_node(const fl_host_api *api, const fl_fabric *f, fl_id n,
                       int pos, int back, char *buf, size_t size) {
  char plain[128];
  plain_name(api, f, n, plain, sizeof plain);
  canon(plain, pos, back, buf, size);
}

typedef struct swsig {
  char name[128]; /* canonical */
  fl_id node;
  uint32_t plane, tier;
  char *cab; /* sorted peer canonical names and host-port count */
} swsig;

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The cabling signature of switch @n: its switch peers' canonical names,
 * sorted, and its host-port count. Owned string or NULL. */
static char *cabling(const fl_host_api *api, const fl_fabric *f, fl_id n,
                     int pos, int back) {
  uint32_t np = api->node_port_count(f, n), k = 0;
  char **peers = calloc(np + 1, sizeof *peers);
  size_t len = 32;
  if (!peers)
    return NULL;
  fl_id p0 = api->node_first_port(f, n);
  for (uint32_t i = 0; i < np; i++)
    for (uint32_t j = 0; j < api->port_link_count(f, p0 + i); j++) {
      fl_id l = api->port_link(f, p0 + i, j);
      fl_id m = api->port_node(f, api->link_other(f, l, p0 + i));
      if (api->node_kind(f, m) == FL_NODE_CA)
        continue; /* host cables: planes.host-planes judges them */
      char c[128];
      canon_node(api, f, m, pos, back, c, sizeof c);
      if (k < np && (peers[k] = strdup(c)))
        len += strlen(peers[k++]) + 1;
    }
  qsort(peers, k, sizeof *peers, cmp_str);
  char *s = malloc(len);
  if (s) {
    size_t w = (size_t)snprintf(s, len, "%u", k);
    for (uint32_t i = 0; i < k; i++)
      w += (size_t)snprintf(s + w, len - w, ",%s", peers[i]);
  }
  for (uint32_t i = 0; i < k; i++)
    free(peers[i]);
  free(peers);
  return s;
}

static int cmp_sig(const void *x, const void *y) {
  const swsig *a = x, *b = y;
  if (a->plane != b->plane)
    return a->plane < b->plane ? -1 : 1;
  return strcmp(a->name, b->name);
}

/* Switch @name in plane @p of sorted @v, or NULL. */
static const swsig *find_sig(const swsig *v, size_t n, uint32_t p,
                             const char *name) {
  swsig key;
  memset(&key, 0, sizeof key);
  key.plane = p;
  snprintf(key.name, sizeof key.name, "%s", name);
  return bsearch(&key, v, n, sizeof *v, cmp_sig);
}

#define MAXT 8u /* tiers counted */

/* Compare plane @p with reference plane @ref and report one finding when
 * they differ. */
static int judge_shape(const fl_host_api *api, fl_ctx *ctx, const fl_fabric *f,
                       const swsig *v, size_t n, uint32_t p, uint32_t ref,
                       uint32_t tiers[][MAXT]) {
  uint32_t missing = 0, extra = 0, recabled = 0;
  const swsig *first_missing = NULL, *first_extra = NULL, *first_rec = NULL;
  for (size_t i = 0; i < n; i++) {
    if (v[i].plane == ref && !find_sig(v, n, p, v[i].name)) {
      if (!missing++)
        first_missing = &v[i];
    } else if (v[i].plane == p) {
      const swsig *r = find_sig(v, n, ref, v[i].name);
      if (!r) {
        if (!extra++)
          first_extra = &v[i];
      } else if (strcmp(r->cab, v[i].cab) != 0) {
        if (!recabled++)
          first_rec = &v[i];
      }
    }
  }
  int tier_diff = memcmp(tiers[p], tiers[ref], sizeof tiers[p]) != 0;
  if (!missing && !extra && !recabled && !tier_diff)
    return FL_OK;
  char msg[1536], counts[256] = "";
  size_t w = 0;
  for (uint32_t t = 1; t < MAXT; t++)
    if (tiers[p][t] != tiers[ref][t])
      w += (size_t)snprintf(counts + w, sizeof counts - w,
                            "%s%u tier-%u switch(es) where plane %s has %u",
                            w ? ", " : "", tiers[p][t], t,
                            api->plane_name(f, ref), tiers[ref][t]);
  char detail[768] = "";
  size_t d = 0;
  if (missing)
    d += (size_t)snprintf(detail + d, sizeof detail - d,
                          "%s%u switch(es) of plane %s have no counterpart "
                          "(first: %s)",
                          d ? "; " : "", missing, api->plane_name(f, ref),
                          api->node_name(f, first_missing->node));
  if (extra && d < sizeof detail)
    d += (size_t)snprintf(detail + d, sizeof detail - d,
                          "%s%u switch(es) have none in plane %s (first: %s)",
                          d ? "; " : "", extra, api->plane_name(f, ref),
                          api->node_name(f, first_extra->node));
  if (recabled && d < sizeof detail)
    snprintf(detail + d, sizeof detail - d,
             "%s%u switch(es) cabled differently from their plane-%s "
             "counterpart (first: %s)",
             d ? "; " : "", recabled, api->plane_name(f, ref),
             api->node_name(f, first_rec->node));
  snprintf(msg, sizeof msg,
           "plane %s differs in shape from plane %s: %s%s%s; the planes of a "
           "multi-plane fabric must be identical",
           api->plane_name(f, p), api->plane_name(f, ref), counts,
           *counts && *detail ? "; " : "", detail);
  fl_id nodes[3];
  uint32_t nn = 0;
  if (first_missing)
    nodes[nn++] = first_missing->node;
  if (first_extra)
    nodes[nn++] = first_extra->node;
  if (first_rec)
    nodes[nn++] = first_rec->node;
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "plane", api->plane_name(f, p));
  jb_key_str(&ev, "reference_plane", api->plane_name(f, ref));
  jb_key_int(&ev, "missing", missing);
  jb_key_int(&ev, "extra", extra);
  jb_key_int(&ev, "recabled", recabled);
  if (first_missing)
    jb_key_str(&ev, "first_missing", api->node_name(f, first_missing->node));
  if (first_extra)
    jb_key_str(&ev, "first_extra", api->node_name(f, first_extra->node));
  if (first_rec)
    jb_key_str(&ev, "first_recabled", api->node_name(f, first_rec->node));
  jb_obj_close(&ev);
  fl_finding fd = {
      .struct_size = sizeof fd, .message = msg, .nodes = nodes, .n_nodes = nn};
  return report_ev(api, ctx, &fd, &ev);
}

/* The reference plane: the most common switches-per-tier signature, ties
 * to the plane with more switches, then the lower index. */
static uint32_t reference(uint32_t tiers[][MAXT], uint32_t np) {
  uint32_t best = 0, best_votes = 0, best_total = 0;
  for (uint32_t p = 0; p < np; p++) {
    uint32_t votes = 0, total = 0;
    for (uint32_t q = 0; q < np; q++)
      votes += memcmp(tiers[p], tiers[q], sizeof tiers[p]) == 0;
    for (uint32_t t = 0; t < MAXT; t++)
      total += tiers[p][t];
    if (votes > best_votes || (votes == best_votes && total > best_total)) {
      best = p;
      best_votes = votes;
      best_total = total;
    }
  }
  return best;
}

/* A switch GUID in two planes: (GUID, plane, node) of every switch. */
typedef struct swguid {
  uint64_t guid;
  uint32_t plane;
  fl_id node;
} swguid;

static int cmp_swguid(const void *x, const void *y) {
  const swguid *a = x, *b = y;
  if (a->guid != b->guid)
    return a->guid < b->guid ? -1 : 1;
  if (a->plane != b->plane)
    return a->plane < b->plane ? -1 : 1;
  return a->node < b->node ? -1 : a->node > b->node;
}

/* One finding for plane @q sharing @count switch GUIDs with plane @p (p <
 * q); @first: the first such switch of each (lowest GUID). */
static int report_shared(const fl_host_api *api, fl_ctx *ctx,
                         const fl_fabric *f, uint32_t p, uint32_t q,
                         uint32_t count, uint32_t of, const swguid *first) {
  char msg[1024], gs[24];
  snprintf(gs, sizeof gs, "0x%016llx", (unsigned long long)first[0].guid);
  snprintf(msg, sizeof msg,
           "plane %s has %u of its %u switches with the GUIDs of plane %s's "
           "(first: GUID %s is \"%s\" in plane %s and \"%s\" in plane %s): "
           "a switch is in one plane only, so this is one capture given for "
           "two planes, or an input tagged with the wrong plane",
           api->plane_name(f, q), count, of, api->plane_name(f, p), gs,
           api->node_name(f, first[0].node), api->plane_name(f, p),
           api->node_name(f, first[1].node), api->plane_name(f, q));
  fl_id nodes[2] = {first[1].node, first[0].node};
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "plane", api->plane_name(f, q));
  jb_key_str(&ev, "other_plane", api->plane_name(f, p));
  jb_key_int(&ev, "shared_guids", count);
  jb_key_int(&ev, "switches", of);
  jb_key_str(&ev, "first_guid", gs);
  jb_obj_close(&ev);
  fl_finding fd = {
      .struct_size = sizeof fd, .message = msg, .nodes = nodes, .n_nodes = 2};
  return report_ev(api, ctx, &fd, &ev);
}

/* Switch GUIDs found in two planes (the same capture tagged twice): one
 * finding per pair of planes, counting the shared GUIDs. O(S log S). */
static int check_shared_guids(const fl_host_api *api, fl_ctx *ctx,
                              const fl_fabric *f, uint32_t np) {
  uint32_t nn = api->node_count(f);
  swguid *v = malloc(((size_t)nn + 1) * sizeof *v);
  uint32_t *pair = calloc((size_t)np * np, sizeof *pair);
  uint32_t *per = calloc(np, sizeof *per);
  size_t(*first)[2] = malloc((size_t)np * np * sizeof *first);
  int rc = v && pair && per && first ? FL_OK : FL_ENOMEM;
  size_t n = 0;
  for (fl_id s = 0; rc == FL_OK && s < nn; s++) {
    uint32_t p = api->node_plane(f, s);
    uint64_t g = api->node_guid(f, s);
    if (api->node_kind(f, s) != FL_NODE_SWITCH || p >= np)
      continue;
    per[p]++;
    if (g)
      v[n++] = (swguid){g, p, s};
  }
  if (rc == FL_OK)
    qsort(v, n, sizeof *v, cmp_swguid);
  /* within a run of one GUID: each later plane against the first plane
   * holding it (a GUID repeated within a plane is topology.duplicate-guid's) */
  for (size_t i = 0; rc == FL_OK && i < n;) {
    size_t j = i + 1;
    while (j < n && v[j].guid == v[i].guid)
      j++;
    for (size_t k = i + 1; k < j; k++)
      if (v[k].plane != v[i].plane && v[k].plane != v[k - 1].plane) {
        size_t at = (size_t)v[i].plane * np + v[k].plane;
        if (!pair[at]++) {
          first[at][0] = i;
          first[at][1] = k;
        }
      }
    i = j;
  }
  for (uint32_t p = 0; rc == FL_OK && p < np; p++)
    for (uint32_t q = p + 1; rc == FL_OK && q < np; q++) {
      size_t at = (size_t)p * np + q;
      if (pair[at]) {
        swguid two[2] = {v[first[at][0]], v[first[at][1]]};
        rc = report_shared(api, ctx, f, p, q, pair[at], per[q], two);
      }
    }
  free(v);
  free(pair);
  free(per);
  free(first);
  return rc;
}

static int check_shape(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t np = judged_planes(api, f);
  if (!np)
    return 0;
  uint32_t(*tiers)[MAXT] = calloc(np, sizeof *tiers);
  swsig *v = calloc(api->node_count(f) + 1, sizeof *v);
  size_t n = 0;
  int rc = tiers && v ? FL_OK : FL_ENOMEM;
  int pos = -1, back = 0;
  if (!plane_token(api, f, np, &pos, &back))
    pos = -1;
  for (fl_id s = 0; rc == FL_OK && s < api->node_count(f); s++) {
    uint32_t p = api->node_plane(f, s);
    if (api->node_kind(f, s) == FL_NODE_CA || p >= np)
      continue;
    uint32_t t = api->node_tier(f, s);
    tiers[p][t < MAXT ? t : MAXT - 1]++;
    swsig *g = &v[n++];
    canon_node(api, f, s, pos, back, g->name, sizeof g->name);
    g->node = s;
    g->plane = p;
    g->tier = t;
    if (!(g->cab = cabling(api, f, s, pos, back)))
      rc = FL_ENOMEM;
  }
  if (rc == FL_OK) {
    qsort(v, n, sizeof *v, cmp_sig);
    uint32_t ref = reference(tiers, np);
    for (uint32_t p = 0; p < np && rc == FL_OK; p++)
      if (p != ref)
        rc = judge_shape(api, ctx, f, v, n, p, ref, tiers);
  }
  if (rc == FL_OK)
    rc = check_shared_guids(api, ctx, f, np);
  for (size_t i = 0; v && i < n; i++)
    free(v[i].cab);
  free(v);
  free(tiers);
  if (rc != FL_OK)
    api->fail(ctx, "out of memory");
  return rc != FL_OK;
}

/* ---- planes.host-capacity --------------------------------------------- */

static int cmp_dbl(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

/* The most common value of sorted @v[0..n) (ties: the larger). */
static double mode(const double *v, size_t n) {
  double best = 0;
  size_t run = 0, best_run = 0;
  for (size_t i = 0; i < n; i++) {
    run = i && v[i] == v[i - 1] ? run + 1 : 1;
    if (run >= best_run) {
      best_run = run;
      best = v[i];
    }
  }
  return best;
}

static int check_capacity(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t np = judged_planes(api, f);
  if (!np)
    return 0;
  size_t n = 0;
  hport *v = host_ports(api, f, &n);
  double *cap = NULL, *sorted = NULL;
  size_t nh = 0;
  for (size_t i = 0; v && i < n; i++)
    nh += !i || strcmp(v[i].host, v[i - 1].host) != 0;
  cap = calloc((nh + 1) * np, sizeof *cap);
  sorted = calloc((nh + 1) * np, sizeof *sorted);
  if (!v || !cap || !sorted) {
    free(v);
    free(cap);
    free(sorted);
    api->fail(ctx, "out of memory");
    return 1;
  }
  size_t *first = calloc(nh + 1, sizeof *first);
  for (size_t i = 0, h = (size_t)-1; first && i < n; i++) {
    if (!i || strcmp(v[i].host, v[i - 1].host) != 0)
      first[++h] = i;
    if (v[i].plane < np)
      cap[h * np + v[i].plane] += v[i].gbps;
  }
  memcpy(sorted, cap, nh * np * sizeof *cap);
  qsort(sorted, nh * np, sizeof *sorted, cmp_dbl);
  double want = mode(sorted, nh * np);
  double min_frac = 1.0;
  api->param_double(ctx, "min-fraction", &min_frac);
  int rc = FL_OK;
  for (size_t h = 0; first && h < nh && rc == FL_OK; h++) {
    double total = 0;
    for (uint32_t p = 0; p < np; p++)
      total += cap[h * np + p];
    for (uint32_t p = 0; p < np && rc == FL_OK; p++) {
      double c = cap[h * np + p];
      if (c >= want * min_frac || c == 0)
        continue; /* no port there: planes.host-planes reports it */
      const hport *x = &v[first[h]];
      char msg[512], cause[64], cmsg[256];
      snprintf(msg, sizeof msg,
               "host %s has %.0f Gb/s in plane %s where hosts have %.0f Gb/s "
               "per plane (all planes: %.0f Gb/s of %.0f); collectives striped "
               "over the planes run at the slowest plane's rate",
               x->host, c, api->plane_name(f, p), want, total, want * np);
      snprintf(cause, sizeof cause, "%s:%.0f", api->plane_name(f, p), c);
      snprintf(cmsg, sizeof cmsg,
               "{count} hosts have %.0f Gb/s in plane %s where hosts have "
               "%.0f Gb/s per plane",
               c, api->plane_name(f, p), want);
      fl_id node = x->node;
      jbuf ev;
      jb_init(&ev);
      jb_obj_open(&ev);
      jb_key_str(&ev, "host", x->host);
      jb_key_str(&ev, "plane", api->plane_name(f, p));
      jb_key_double(&ev, "gbps", c);
      jb_key_double(&ev, "expected_gbps", want);
      jb_key_double(&ev, "all_planes_gbps", total);
      jb_obj_close(&ev);
      fl_finding fd = {.struct_size = sizeof fd,
                       .message = msg,
                       .nodes = &node,
                       .n_nodes = 1};
      fd.cause = cause;
      fd.cause_message = cmsg;
      rc = report_ev(api, ctx, &fd, &ev);
    }
  }
  free(first);
  free(v);
  free(cap);
  free(sorted);
  if (rc != FL_OK)
    api->fail(ctx, "could not report a finding");
  return rc != FL_OK;
}

/* ---- descriptor ------------------------------------------------------- */

static const fl_param_def P_PROFILE = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "profile",
    "nic-k-plane-k",
    NULL,
    "nic-k-plane-k: a host's k-th NIC port (devices in natural order) is in "
    "plane k (mod the plane count); one-per-plane: any order",
    NULL,
    NULL};
static const fl_param_def P_FRAC = {sizeof(fl_param_def),
                                    FL_PARAM_DOUBLE,
                                    "min-fraction",
                                    "1",
                                    NULL,
                                    "report a host plane below this fraction "
                                    "of the common per-plane capacity",
                                    "0",
                                    "1"};
static const fl_param_def *const PARAMS_HOST[] = {&P_PROFILE};
static const fl_param_def *const PARAMS_CAP[] = {&P_FRAC};

static const fl_rule_def R_HOST = {
    sizeof(fl_rule_def),
    FL_SEV_ERROR,
    "planes.host-planes",
    "a host without exactly one port in each plane, NIC k in plane k",
    "Every host of a multi-plane fabric needs one NIC (or port) in each "
    "plane; with the default profile its k-th NIC port (devices in natural "
    "order: mlx5_0, mlx5_1, ...) is in plane k (planes in natural order). "
    "A NIC cabled into another plane, a plane without a port of the host, "
    "or two ports in one plane are one finding per host naming the NIC, "
    "the plane it is in and the switch it is cabled to. Recable the NIC to "
    "its plane's leaf. A port whose `plane` tag differs from the plane it "
    "is cabled into is left to failure-domains.plane-crossing.",
    1,
    FL_NEEDS_ALL_PLANES,
    PARAMS_HOST,
    1,
    check_host_planes};
static const fl_rule_def R_SHAPE = {
    sizeof(fl_rule_def),
    FL_SEV_ERROR,
    "planes.shape",
    "a plane that differs in shape from the others",
    "The planes of a multi-plane fabric are meant to be identical: the same "
    "switch count per tier and the same cabling. Switches are matched "
    "across planes by name without the token that names the plane (the "
    "first of the first or last three name tokens that is constant within "
    "each plane and differs between planes: pl2-leaf-01, tor-r1-b -> "
    "leaf-01, tor-r1); a switch's cabling is its switch peers "
    "(host cables are planes.host-planes' to judge). Against the reference "
    "plane (the most common "
    "switches-per-tier count), each differing plane is one finding naming "
    "the missing, extra or differently cabled switches. A plane whose "
    "switches carry another plane's switch GUIDs (the same capture given "
    "for two planes, or an input tagged with the wrong plane) is one "
    "finding per pair of planes, with the count.",
    1,
    FL_NEEDS_ALL_PLANES,
    NULL,
    0,
    check_shape};
static const fl_rule_def R_CAP = {
    sizeof(fl_rule_def),
    FL_SEV_WARNING,
    "planes.host-capacity",
    "a host with less capacity in one plane than the others",
    "A host's capacity in a plane is the Gb/s of its ports there; all "
    "planes together is their sum. A host plane below min-fraction of the "
    "most common per-plane capacity (a NIC trained slower or narrower) is "
    "reported (a plane without a port of the host is planes.host-planes'), one "
    "finding per plane and capacity with the count of "
    "hosts.",
    1,
    FL_NEEDS_ALL_PLANES,
    PARAMS_CAP,
    1,
    check_capacity};

static const fl_rule_def *const RULES[] = {&R_HOST, &R_SHAPE, &R_CAP};

static const fl_plugin_desc DESC = {sizeof(fl_plugin_desc),
                                    FL_ABI_MAJOR,
                                    FL_ABI_MINOR,
                                    sizeof RULES / sizeof *RULES,
                                    "planes",
                                    "0.1.0",
                                    "fabriclint",
                                    "MIT",
                                    NULL,
                                    NULL,
                                    RULES};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &DESC;
}
