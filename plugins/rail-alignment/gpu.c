/* SPDX-License-Identifier: MIT */
/*
 * plugins/rail-alignment/gpu.c — GPU<->NIC affinity rules (gpu.h says
 * what each checks; docs/rules/rail-alignment.md, "GPU affinity").
 *
 * Input: the `gpu-nics` attribute the core puts on every CA of a host with
 * a host profile ("GPU,NIC,PATH,SWITCH" entries joined by ';', unpaired
 * NICs with GPU "-"; core/model/hostprof.h) and `host-profile` (its file).
 * Hosts sharing one profile (same file, same pairing) are one cause: one
 * finding names them all with a count. Cost: O(CAs log CAs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "gpu.h"
#include "names.h"

#define MAX_ENT    256
#define SHOW_HOSTS 8
#define MAX_NODES  64

typedef struct rg_ent {
  char gpu[16], nic[64], path[8], sw[64];
  int shared; /* its NIC is paired with two or more GPUs */
} rg_ent;

/* One CA of a host with a profile. */
typedef struct rg_ca {
  fl_id node;
  const char *host, *dev, *value, *profile;
} rg_ca;

typedef struct rg_hosts {
  rg_ca *ca; /* sorted by profile, value, host, dev */
  uint32_t n;
} rg_hosts;

static int cmp_ca(const void *x, const void *y) {
  const rg_ca *a = x, *b = y;
  int c = strcmp(a->profile, b->profile);
  if (!c)
    c = strcmp(a->value, b->value);
  if (!c)
    c = fl_natcmp(a->host, b->host);
  if (!c)
    c = strcmp(a->host, b->host);
  return c ? c : strcmp(a->dev, b->dev);
}

/* The CAs that carry a profile. 0, or 1 after api->fail. */
static int collect(const fl_host_api *api, fl_ctx *ctx, rg_hosts *h) {
  const fl_fabric *f = api->fabric(ctx);
  uint32_t nn = api->node_count(f);
  h->n = 0;
  h->ca = NULL;
  for (fl_id n = 0; n < nn; n++) {
    if (api->node_kind(f, n) != FL_NODE_CA)
      continue;
    const char *v = api->attr(f, FL_ENT_NODE, n, "gpu-nics");
    const char *sys = api->node_system(f, n);
    if (!v || !sys || !*sys)
      continue;
    if (!h->ca && !(h->ca = malloc(sizeof *h->ca * nn))) {
      api->fail(ctx, "out of memory");
      return 1;
    }
    const char *dev = api->node_device(f, n);
    const char *prof = api->attr(f, FL_ENT_NODE, n, "host-profile");
    h->ca[h->n++] = (rg_ca){n, sys, dev ? dev : "", v, prof ? prof : ""};
  }
  if (h->n > 1)
    qsort(h->ca, h->n, sizeof *h->ca, cmp_ca);
  return 0;
}

/* Parse a gpu-nics value into @e (at most MAX_ENT); returns the count. */
static uint32_t parse(const char *v, rg_ent *e) {
  uint32_t n = 0;
  while (*v && n < MAX_ENT) {
    size_t len = strcspn(v, ";");
    char buf[256];
    snprintf(buf, sizeof buf, "%.*s", (int)(len < 255 ? len : 255), v);
    memset(&e[n], 0, sizeof e[n]);
    char *f[4] = {e[n].gpu, e[n].nic, e[n].path, e[n].sw};
    size_t cap[4] = {sizeof e[n].gpu, sizeof e[n].nic, sizeof e[n].path,
                     sizeof e[n].sw};
    char *p = buf;
    for (int k = 0; k < 4 && p; k++) {
      char *c = strchr(p, ',');
      if (c && k < 3)
        *c = '\0';
      snprintf(f[k], cap[k], "%s", p);
      p = c && k < 3 ? c + 1 : NULL;
    }
    n++;
    v += len;
    if (*v == ';')
      v++;
  }
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t k = 0; k < n; k++)
      if (i != k && strcmp(e[i].gpu, "-") && strcmp(e[k].gpu, "-") &&
          strcmp(e[i].nic, e[k].nic) == 0)
        e[i].shared = 1;
  return n;
}

/* End of the group of hosts sharing @h->ca[@b]'s profile and pairing. */
static uint32_t group_end(const rg_hosts *h, uint32_t b) {
  uint32_t e = b + 1;
  while (e < h->n && !strcmp(h->ca[e].profile, h->ca[b].profile) &&
         !strcmp(h->ca[e].value, h->ca[b].value))
    e++;
  return e;
}

/* Hosts of group [b, e): count, and "a, b, c and N more" into @out. */
static uint32_t host_list(const rg_hosts *h, uint32_t b, uint32_t e, char *out,
                          size_t size, jbuf *ev) {
  uint32_t n = 0;
  size_t w = 0;
  out[0] = '\0';
  if (ev) {
    jb_key(ev, "hosts");
    jb_arr_open(ev);
  }
  for (uint32_t i = b; i < e; i++) {
    if (i > b && !strcmp(h->ca[i].host, h->ca[i - 1].host))
      continue;
    if (n < SHOW_HOSTS && w < size) {
      int k = snprintf(out + w, size - w, "%s%s", n ? ", " : "", h->ca[i].host);
      w += k > 0 ? (size_t)k : 0;
    }
    if (ev && n < 50)
      jb_str_item(ev, h->ca[i].host);
    n++;
  }
  if (ev)
    jb_arr_close(ev);
  if (n > SHOW_HOSTS && w < size)
    snprintf(out + w, size - w, " and %u more", n - SHOW_HOSTS);
  return n;
}

/* ---- gpu-shared-nic ------------------------------------------------------ */

static int report_shared(const fl_host_api *api, fl_ctx *ctx, const rg_hosts *h,
                         uint32_t b, uint32_t e) {
  rg_ent ent[MAX_ENT];
  uint32_t n = parse(h->ca[b].value, ent);
  char msg[4096], hosts[512], part[1024];
  size_t w = 0;
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "profile", h->ca[b].profile);
  jb_key(&ev, "shared");
  jb_arr_open(&ev);
  msg[0] = '\0';
  for (uint32_t i = 0; i < n; i++) {
    if (!ent[i].shared)
      continue;
    int first = 1;
    for (uint32_t k = 0; k < i; k++)
      first &= !(ent[k].shared && !strcmp(ent[k].nic, ent[i].nic));
    if (!first)
      continue;
    jb_obj_open(&ev);
    jb_key_str(&ev, "nic", ent[i].nic);
    jb_key_str(&ev, "path", ent[i].path);
    jb_key_str(&ev, "pcie_switch", strcmp(ent[i].sw, "-") ? ent[i].sw : "");
    jb_key(&ev, "paths");
    jb_arr_open(&ev);
    for (uint32_t k = i; k < n; k++)
      if (ent[k].shared && !strcmp(ent[k].nic, ent[i].nic))
        jb_str_item(&ev, ent[k].path);
    jb_arr_close(&ev);
    jb_key(&ev, "gpus");
    jb_arr_open(&ev);
    size_t pw = 0;
    uint32_t c = 0;
    for (uint32_t k = i; k < n; k++)
      if (ent[k].shared && !strcmp(ent[k].nic, ent[i].nic)) {
        jb_int_item(&ev, atoi(ent[k].gpu));
        int m = snprintf(part + pw, sizeof part - pw, "%sGPU%s", c ? ", " : "",
                         ent[k].gpu);
        pw += m > 0 && (size_t)m < sizeof part - pw ? (size_t)m : 0;
        c++;
      }
    jb_arr_close(&ev);
    jb_obj_close(&ev);
    char sw[128] = "";
    if (strcmp(ent[i].sw, "-"))
      snprintf(sw, sizeof sw, "PCIe switch %s, ", ent[i].sw);
    int m = snprintf(msg + w, sizeof msg - w,
                     "%s%u GPUs (%s) resolve to one "
                     "NIC, %s (%s%s)",
                     w ? "; " : "", c, part, ent[i].nic, sw, ent[i].path);
    w += m > 0 && (size_t)m < sizeof msg - w ? (size_t)m : 0;
  }
  jb_arr_close(&ev);
  jb_key(&ev, "idle_nics");
  jb_arr_open(&ev);
  for (uint32_t i = 0; i < n; i++) {
    if (strcmp(ent[i].gpu, "-"))
      continue;
    jb_obj_open(&ev);
    jb_key_str(&ev, "nic", ent[i].nic);
    jb_key_str(&ev, "nearest_gpu_path", ent[i].path);
    jb_obj_close(&ev);
    int m = snprintf(msg + w, sizeof msg - w,
                     "; %s serves no GPU (its nearest GPU is at %s)",
                     ent[i].nic, ent[i].path);
    w += m > 0 && (size_t)m < sizeof msg - w ? (size_t)m : 0;
  }
  jb_arr_close(&ev);
  uint32_t nh = host_list(h, b, e, hosts, sizeof hosts, &ev);
  jb_key_int(&ev, "count", nh);
  jb_obj_close(&ev);
  /* the shared NICs of every host of the group */
  fl_id nodes[MAX_NODES];
  uint32_t nn = 0;
  for (uint32_t i = b; i < e && nn < MAX_NODES; i++)
    for (uint32_t k = 0; k < n; k++)
      if (ent[k].shared && !strcmp(ent[k].nic, h->ca[i].dev)) {
        nodes[nn++] = h->ca[i].node;
        break;
      }
  char full[6144];
  snprintf(full, sizeof full,
           "on %u host(s) (%s; host profile %s), %s: NCCL pairs each of those "
           "GPUs with that NIC, so they share one NIC's bandwidth and one "
           "rail; the fix is in the server (one NIC per GPU behind each PCIe "
           "switch: move a GPU or a NIC), else those GPUs get a fraction of "
           "their network bandwidth",
           nh, hosts, h->ca[b].profile, msg);
  int rc = fl_emit(api, ctx, 0, full, nodes, nn, NULL, 0, NULL, 0, jb_str(&ev));
  jb_free(&ev);
  return rc;
}

int rg_check_shared(const fl_host_api *api, fl_ctx *ctx, void *data) {
  (void)data;
  rg_hosts h;
  if (collect(api, ctx, &h))
    return 1;
  int rc = 0;
  rg_ent ent[MAX_ENT];
  for (uint32_t b = 0; b < h.n && !rc;) {
    uint32_t e = group_end(&h, b), n = parse(h.ca[b].value, ent), any = 0;
    for (uint32_t i = 0; i < n; i++)
      any |= (uint32_t)ent[i].shared;
    if (any)
      rc = report_shared(api, ctx, &h, b, e);
    b = e;
  }
  free(h.ca);
  return rc;
}

/* ---- gpu-rail ------------------------------------------------------------ */

static int cmp_nic(const void *x, const void *y) {
  const rg_nic *a = x, *b = y;
  int c = strcmp(a->host, b->host);
  return c ? c : strcmp(a->dev, b->dev);
}

/* The view's NIC @dev of @host (the view is sorted by cmp_nic), or NULL. */
static const rg_nic *view_find(const rg_view *v, const char *host,
                               const char *dev) {
  rg_nic key;
  memset(&key, 0, sizeof key);
  key.host = host;
  key.dev = dev;
  return v->n_nic ? bsearch(&key, v->nic, v->n_nic, sizeof *v->nic, cmp_nic)
                  : NULL;
}

/* rail_gpu_view() sorted for view_find(). */
static int get_view(const fl_host_api *api, fl_ctx *ctx, void *data,
                    rg_view *v) {
  if (rail_gpu_view(api, ctx, data, v))
    return 1;
  if (v->n_nic > 1)
    qsort(v->nic, v->n_nic, sizeof *v->nic, cmp_nic);
  return 0;
}

/* The hosts with a profile and the sorted view, for the rules that need
 * both: 1 when there is work (the caller frees h->ca), 0 when no host has a
 * profile, -1 on an error (nothing to free). */
static int hosts_and_view(const fl_host_api *api, fl_ctx *ctx, void *data,
                          rg_hosts *h, rg_view *v) {
  if (collect(api, ctx, h))
    return -1;
  if (!h->n || get_view(api, ctx, data, v)) {
    int rc = h->n ? -1 : 0;
    free(h->ca);
    return rc;
  }
  return 1;
}

static const rg_ca *ca_find(const rg_hosts *h, uint32_t b, uint32_t e,
                            const char *dev) {
  for (uint32_t i = b; i < e; i++)
    if (!strcmp(h->ca[i].dev, dev))
      return &h->ca[i];
  return NULL;
}

/* @id appended to @nodes[@n] unless there or full; the new count. */
static uint32_t add_node(fl_id *nodes, uint32_t n, fl_id id) {
  for (uint32_t i = 0; i < n; i++)
    if (nodes[i] == id)
      return n;
  if (n < MAX_NODES)
    nodes[n++] = id;
  return n;
}

/* One finding for host [b, e) of @h (its CAs): every GPU whose NIC lands
 * on another rail's leaf, is missing, or is not a compute NIC. */
static int host_rail(const fl_host_api *api, fl_ctx *ctx, const rg_view *v,
                     const rg_hosts *h, uint32_t b, uint32_t e) {
  const fl_fabric *f = api->fabric(ctx);
  rg_ent ent[MAX_ENT];
  uint32_t n = parse(h->ca[b].value, ent), bad = 0, nn = 0;
  char msg[4096];
  size_t w = 0;
  fl_id nodes[MAX_NODES];
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "host", h->ca[b].host);
  jb_key_str(&ev, "profile", h->ca[b].profile);
  jb_key(&ev, "gpus");
  jb_arr_open(&ev);
  msg[0] = '\0';
  for (uint32_t i = 0; i < n; i++) {
    if (!strcmp(ent[i].gpu, "-"))
      continue;
    const rg_nic *x = view_find(v, h->ca[b].host, ent[i].nic);
    const char *problem = NULL;
    char part[1024];
    part[0] = '\0';
    if (!x && !ca_find(h, b, e, ent[i].nic)) {
      problem = "nic-missing";
      snprintf(part, sizeof part,
               "GPU%.15s's NIC %.63s is not on the fabric (not cabled, or not "
               "discovered), so its traffic leaves through another GPU's NIC",
               ent[i].gpu, ent[i].nic);
    } else if (x && !x->rail) {
      problem = "not-compute";
      snprintf(
          part, sizeof part,
          "GPU%.15s's NIC %.63s is not a compute NIC (its role keeps it off "
          "the rails)",
          ent[i].gpu, ent[i].nic);
    } else if (x && x->leaf_rail && strcmp(x->leaf_rail, x->rail) != 0) {
      problem = "wrong-leaf";
      char fix[256] = "";
      if (x->fix_leaf != FL_NONE)
        snprintf(fix, sizeof fix, "; fix: cable %.63s to \"%s\"", ent[i].nic,
                 api->node_name(f, x->fix_leaf));
      snprintf(part, sizeof part,
               "GPU%.15s reaches \"%s\" port %u, a leaf of rail %s%s, through "
               "its NIC %.63s of rail %s%s",
               ent[i].gpu, api->node_name(f, x->leaf), x->leaf_port,
               x->leaf_rail, x->leaf_inferred ? " (inferred)" : "", ent[i].nic,
               x->rail, fix);
    }
    if (!problem)
      continue;
    bad++;
    if (x)
      nn = add_node(nodes, nn, x->node);
    if (x && x->leaf != FL_NONE)
      nn = add_node(nodes, nn, x->leaf);
    if (x && x->fix_leaf != FL_NONE)
      nn = add_node(nodes, nn, x->fix_leaf);
    jb_obj_open(&ev);
    jb_key_int(&ev, "gpu", atoi(ent[i].gpu));
    jb_key_str(&ev, "nic", ent[i].nic);
    jb_key_str(&ev, "problem", problem);
    if (x && x->leaf != FL_NONE) {
      jb_key_str(&ev, "leaf", api->node_name(f, x->leaf));
      jb_key_int(&ev, "leaf_port", x->leaf_port);
      jb_key_str(&ev, "leaf_rail", x->leaf_rail ? x->leaf_rail : "");
      jb_key_str(&ev, "rail", x->rail ? x->rail : "");
      jb_key_str(&ev, "fix_leaf",
                 x->fix_leaf != FL_NONE ? api->node_name(f, x->fix_leaf) : "");
    }
    jb_obj_close(&ev);
    int m = snprintf(msg + w, sizeof msg - w, "%s%s", w ? "; " : "", part);
    w += m > 0 && (size_t)m < sizeof msg - w ? (size_t)m : 0;
  }
  jb_arr_close(&ev);
  jb_key_int(&ev, "count", bad);
  jb_obj_close(&ev);
  int rc = 0;
  if (bad) {
    char full[6144];
    snprintf(full, sizeof full,
             "host %s (host profile %s): %s; GPU i of every host must reach "
             "the leaf of its rail, or its collectives cross rails",
             h->ca[b].host, h->ca[b].profile, msg);
    rc = fl_emit(api, ctx, 0, full, nodes, nn, NULL, 0, NULL, 0, jb_str(&ev));
  }
  jb_free(&ev);
  return rc;
}

int rg_check_rail(const fl_host_api *api, fl_ctx *ctx, void *data) {
  rg_hosts h;
  rg_view v;
  int rc = hosts_and_view(api, ctx, data, &h, &v);
  if (rc <= 0)
    return -rc;
  rc = 0;
  for (uint32_t b = 0; b < h.n && !rc && v.n_nic;) {
    uint32_t e = b + 1;
    while (e < h.n && !strcmp(h.ca[e].host, h.ca[b].host) &&
           !strcmp(h.ca[e].value, h.ca[b].value))
      e++;
    rc = host_rail(api, ctx, &v, &h, b, e);
    b = e;
  }
  free(v.nic);
  free(v.rails);
  free(h.ca);
  return rc;
}

/* ---- gpu-order ----------------------------------------------------------- */

/* The rail of NIC @dev on the hosts of group [b, e) (first found). */
static const char *dev_rail(const rg_view *v, const rg_hosts *h, uint32_t b,
                            uint32_t e, const char *dev) {
  for (uint32_t i = b; i < e; i++) {
    const rg_nic *x = view_find(v, h->ca[i].host, dev);
    if (x && x->rail)
      return x->rail;
  }
  return NULL;
}

static int group_order(const fl_host_api *api, fl_ctx *ctx, const rg_view *v,
                       const rg_hosts *h, uint32_t b, uint32_t e) {
  rg_ent ent[MAX_ENT];
  uint32_t n = parse(h->ca[b].value, ent), ng = 0, bad = 0;
  for (uint32_t i = 0; i < n; i++)
    ng += strcmp(ent[i].gpu, "-") != 0;
  if (ng != v->n_rails)
    return 0; /* GPU i <-> rail i needs as many rails as GPUs */
  char msg[4096], hosts[512];
  size_t w = 0;
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "profile", h->ca[b].profile);
  jb_key(&ev, "gpus");
  jb_arr_open(&ev);
  msg[0] = '\0';
  for (uint32_t i = 0, g = 0; i < n; i++) {
    if (!strcmp(ent[i].gpu, "-"))
      continue;
    const char *want = v->rails[g++];
    const char *got = dev_rail(v, h, b, e, ent[i].nic);
    if (ent[i].shared || !got || !strcmp(got, want))
      continue;
    bad++;
    jb_obj_open(&ev);
    jb_key_int(&ev, "gpu", atoi(ent[i].gpu));
    jb_key_str(&ev, "nic", ent[i].nic);
    jb_key_str(&ev, "rail", got);
    jb_key_str(&ev, "expected_rail", want);
    jb_obj_close(&ev);
    int m = snprintf(msg + w, sizeof msg - w,
                     "%sGPU%s -> %s (rail %s, expected rail %s)", w ? ", " : "",
                     ent[i].gpu, ent[i].nic, got, want);
    w += m > 0 && (size_t)m < sizeof msg - w ? (size_t)m : 0;
  }
  jb_arr_close(&ev);
  uint32_t nh = host_list(h, b, e, hosts, sizeof hosts, &ev);
  jb_key_int(&ev, "count", nh);
  jb_obj_close(&ev);
  int rc = 0;
  if (bad) {
    char full[6144];
    snprintf(full, sizeof full,
             "on %u host(s) (%s; host profile %s), GPU i is not paired with "
             "the NIC of rail i (rails in natural order): %s; GPU i of every "
             "host must use rail i, so hosts built otherwise meet these GPUs "
             "on another rail: check the server's PCIe layout, or give the "
             "rail of each device (profile, map=FILE)",
             nh, hosts, h->ca[b].profile, msg);
    rc = fl_emit(api, ctx, 0, full, NULL, 0, NULL, 0, NULL, 0, jb_str(&ev));
  }
  jb_free(&ev);
  return rc;
}

int rg_check_order(const fl_host_api *api, fl_ctx *ctx, void *data) {
  rg_hosts h;
  rg_view v;
  int rc = hosts_and_view(api, ctx, data, &h, &v);
  if (rc <= 0)
    return -rc;
  rc = 0;
  for (uint32_t b = 0; b < h.n && !rc && v.n_nic;) {
    uint32_t e = group_end(&h, b);
    rc = group_order(api, ctx, &v, &h, b, e);
    b = e;
  }
  free(v.nic);
  free(v.rails);
  free(h.ca);
  return rc;
}
