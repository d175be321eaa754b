/* SPDX-License-Identifier: MIT */
/*
 * plugins/deadlock/pfc_rules.c — the lossless-Ethernet (PFC) rules of the
 * `deadlock` plugin: deadlock.pfc-cycle and deadlock.pfc-failure-valley.
 *
 * The analysis is the core's (api->pfc_analyze, fabriclint/pfc.h): buffer
 * dependencies of the ECMP shortest-path routing a Clos runs, per lossless
 * priority (all priorities run the same routing, so one graph stands for
 * each). These rules choose when it applies and turn the report into
 * findings; they keep no state (each rule runs the analysis it needs).
 *
 * Applies (lossless=auto) to Ethernet fabrics: a link runs an Ethernet
 * speed, or no port has a LID and some port is labelled with an Ethernet
 * interface name (LLDP captures, cable plans). InfiniBand fabrics have
 * deadlock.credit-loop instead; a fabric whose link layer nothing tells is
 * not judged Ethernet.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"

static const fl_param_def P_LOSSLESS = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "lossless",
    "auto",
    NULL,
    "auto: analyse Ethernet fabrics (an Ethernet link speed, or ports "
    "named as Ethernet interfaces and no LIDs); on: any fabric; off: never",
    NULL,
    NULL};
static const fl_param_def P_MAXFAIL = {
    sizeof(fl_param_def),
    FL_PARAM_INT,
    "max-failures",
    "0",
    "links",
    "pfc-failure-valley: analyse at most this many single link failures "
    "(0: every switch-to-switch link); the finding says how many were",
    "0",
    "100000000"};
static const fl_param_def *const PFC_PARAMS[] = {&P_LOSSLESS, &P_MAXFAIL};

/* Interface-name words of Ethernet ports, each followed by a digit: NX-OS
 * and EOS (`Ethernet1/1`, `Eth1/1`, `Et1`), SONiC (`Ethernet0`, alias
 * `etp1b`), Cumulus (`swp1`), Linux (`eth0`, `enp65s0f0`), IOS/IOS-XR
 * (`GigabitEthernet0/1`, `Te1/1`, `HundredGigE0/0/0/1`), Junos (`xe-4/3/6`,
 * `ge-0/0/1`, `et-0/0/1`, `mge-`), NetApp (`e0b`). InfiniBand inputs label
 * ports `P1`, `Port 21`, `Blade 1_Port 1/1`, `ibp11s0f0`, none of which is
 * here. (core/model/alias.c keeps a wider list to match spellings of one
 * port, `Port`/`P` included; this one is evidence of the link layer.) */
static const char *const ETH_WORDS[] = {"hundredgigabitethernet",
                                        "tengigabitethernet",
                                        "gigabitethernet",
                                        "fastethernet",
                                        "twentyfivegige",
                                        "fourhundredgige",
                                        "hundredgige",
                                        "fortygige",
                                        "tengige",
                                        "ethernet",
                                        "etp",
                                        "eth",
                                        "et",
                                        "swp",
                                        "enp",
                                        "ens",
                                        "eno",
                                        "gi",
                                        "te",
                                        "fo",
                                        "hu",
                                        "fa",
                                        "e",
                                        "ge-",
                                        "xe-",
                                        "et-",
                                        "mge-"};

/* 1 when port label @lb names an Ethernet interface (ETH_WORDS, then a
 * digit). */
static int eth_label(const char *lb) {
  for (size_t i = 0; i < sizeof ETH_WORDS / sizeof *ETH_WORDS; i++) {
    size_t n = strlen(ETH_WORDS[i]);
    if (strncasecmp(lb, ETH_WORDS[i], n) == 0 && isdigit((unsigned char)lb[n]))
      return 1;
  }
  return 0;
}

/* Ethernet, from evidence only: a link runs an Ethernet speed; or no link
 * says InfiniBand (an InfiniBand lane rate SDR..XDR, or a width of 2 or
 * more lanes: Ethernet links record their whole-port rate with width 1,
 * fabriclint/types.h), no port has a LID and some port is labelled with an
 * Ethernet interface name (eth_label). Labels alone are no evidence: a
 * UFM NDT (`Port 21`, `Blade 1_Port 1/1`) and an ibdm .topo (`P1`) are
 * InfiniBand plans without speeds or LIDs. Unknown is not Ethernet. */
static int is_ethernet(const fl_host_api *api, const fl_fabric *f) {
  uint32_t nl = api->link_count(f), np = api->port_count(f);
  int infiniband = 0;
  for (fl_id l = 0; l < nl; l++) {
    uint32_t sp = api->link_speed(f, l);
    if (sp >= FL_SPEED_ETH_1G)
      return 1;
    infiniband |= (sp >= FL_SPEED_SDR && sp <= FL_SPEED_XDR) ||
                  api->link_width(f, l) >= 2;
  }
  if (infiniband)
    return 0;
  int named = 0;
  for (fl_id p = 0; p < np; p++) {
    if (api->port_lid(f, p))
      return 0;
    named |= eth_label(api->port_label(f, p));
  }
  return named;
}

/* 1 when the rule applies; -1 after a bad parameter. */
static int applies(const fl_host_api *api, fl_ctx *ctx) {
  const char *mode = "auto";
  api->param_string(ctx, "lossless", &mode);
  if (strcmp(mode, "on") == 0)
    return 1;
  if (strcmp(mode, "off") == 0)
    return 0;
  if (strcmp(mode, "auto") != 0) {
    fl_param_error(api, ctx, "lossless", "expected auto, on or off");
    return -1;
  }
  return is_ethernet(api, api->fabric(ctx));
}

/* The fabric is past the analysis' table cap (FL_PFC_MAX_TABLE): one info
 * finding says the rule did not judge it (unknown is not wrong). 0, or 1
 * when the finding could not be reported. */
static int too_large(const fl_host_api *api, fl_ctx *ctx,
                     const fl_pfc_report *r) {
  char msg[512], ev[160];
  uint64_t cells = (uint64_t)r->n_dests * r->n_switches;
  snprintf(msg, sizeof msg,
           "not checked: the fabric is too large for this rule (%u "
           "destinations x %u switches = %llu distance entries, past its "
           "cap of %llu, 1 GiB); give each switch its kind, or check a part "
           "of the fabric (--plane)",
           r->n_dests, r->n_switches, (unsigned long long)cells,
           (unsigned long long)FL_PFC_MAX_TABLE);
  snprintf(ev, sizeof ev,
           "{\"destinations\": %u, \"switches\": %u, \"entries\": %llu, "
           "\"cap\": %llu}",
           r->n_dests, r->n_switches, (unsigned long long)cells,
           (unsigned long long)FL_PFC_MAX_TABLE);
  return fl_emit(api, ctx, FL_SEV_INFO, msg, NULL, 0, NULL, 0, NULL, 0, ev);
}

/* The analysis' report, or NULL with *@rc the check's result: 1 when it
 * failed (api->fail called), 0 when the fabric was too large and said so. */
static fl_pfc_report *run(const fl_host_api *api, fl_ctx *ctx, int failures,
                          int *rc_out) {
  *rc_out = 1;
  if (!FL_API_HAS(api, pfc_free)) {
    api->fail(ctx, "this fabriclint has no PFC analysis (host too old)");
    return NULL;
  }
  int64_t maxf = 0;
  api->param_int(ctx, "max-failures", &maxf);
  fl_pfc_options o = {sizeof o, (uint32_t)failures, (uint32_t)maxf, 20, 0};
  fl_pfc_report *r = NULL;
  int rc = api->pfc_analyze(api->fabric(ctx), &o, &r);
  if (rc == FL_PFC_TOO_LARGE && r) {
    *rc_out = too_large(api, ctx, r);
    api->pfc_free(r);
    return NULL;
  }
  if (rc != 0) {
    api->fail(ctx, "PFC analysis failed: out of memory");
    return NULL;
  }
  return r;
}

/* `"a" port/label` of link @l's end on node @n. */
static const char *end_str(const fl_host_api *api, const fl_fabric *f, fl_id l,
                           fl_id n, char *buf, size_t size) {
  for (uint32_t e = 0; e < 2; e++) {
    fl_id p = api->link_port(f, l, e);
    if (api->port_node(f, p) != n)
      continue;
    int k = snprintf(buf, size, "\"%s\" ", api->node_name(f, n));
    if (k >= 0 && (size_t)k < size)
      fl_port_text(api, f, p, buf + k, size - (size_t)k);
    return buf;
  }
  snprintf(buf, size, "\"%s\"", api->node_name(f, n));
  return buf;
}

static void turn_json(const fl_host_api *api, const fl_fabric *f, jbuf *ev,
                      const fl_pfc_turn *t) {
  jb_obj_open(ev);
  jb_key_str(ev, "from", api->node_name(f, t->from));
  jb_key_str(ev, "via", api->node_name(f, t->via));
  jb_key_str(ev, "to", api->node_name(f, t->to));
  jb_key_str(ev, "destination", api->node_name(f, t->dest));
  jb_obj_close(ev);
}

static int check_pfc_cycle(const fl_host_api *api, fl_ctx *ctx, void *data) {
  (void)data;
  int ok = applies(api, ctx);
  if (ok <= 0)
    return ok < 0;
  int failed;
  fl_pfc_report *r = run(api, ctx, 0, &failed);
  if (!r)
    return failed;
  int rc = 0;
  if (r->cycle_len) {
    const fl_fabric *f = api->fabric(ctx);
    char msg[2048], hop[128];
    size_t n = (size_t)snprintf(
        msg, sizeof msg,
        "the lossless (PFC) buffer dependencies of the ECMP routing form a "
        "cycle of %u switch hops: ",
        r->cycle_len);
    fl_id nodes[64];
    uint32_t nn = 0;
    for (uint32_t i = 0; i < r->cycle_len && n < sizeof msg; i++) {
      const fl_pfc_turn *t = &r->cycle[i];
      end_str(api, f, t->in_link, t->via, hop, sizeof hop);
      n += (size_t)snprintf(msg + n, sizeof msg - n, "%s%s", i ? " -> " : "",
                            hop);
      if (nn < 64)
        nodes[nn++] = t->via;
    }
    if (n < sizeof msg)
      snprintf(msg + n, sizeof msg - n,
               " -> back; pauses on one priority can hold each other "
               "forever. Fix: remove the cabling that makes the routes turn "
               "back up (a valley), or isolate the turns (Tagger)");
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_int(&ev, "length", r->cycle_len);
    jb_key(&ev, "cycle");
    jb_arr_open(&ev);
    for (uint32_t i = 0; i < r->cycle_len; i++)
      turn_json(api, f, &ev, &r->cycle[i]);
    jb_arr_close(&ev);
    jb_key_int(&ev, "valleys", r->n_valleys);
    jb_key_str(&ev, "routing", "ECMP over shortest paths (modelled)");
    jb_obj_close(&ev);
    rc = fl_emit(api, ctx, 0, msg, nodes, nn, NULL, 0, NULL, 0, jb_str(&ev));
    jb_free(&ev);
  }
  api->pfc_free(r);
  return rc;
}

static int failure_finding(const fl_host_api *api, fl_ctx *ctx,
                           const fl_pfc_report *r, const fl_pfc_failure *x) {
  const fl_fabric *f = api->fabric(ctx);
  const fl_pfc_turn *t = &x->example;
  fl_id pa = api->link_port(f, x->link, 0), pb = api->link_port(f, x->link, 1);
  fl_id na = api->port_node(f, pa), nb = api->port_node(f, pb);
  char a[128], b[128], in[128], out[128], msg[1400];
  end_str(api, f, x->link, na, a, sizeof a);
  end_str(api, f, x->link, nb, b, sizeof b);
  end_str(api, f, t->in_link, t->via, in, sizeof in);
  end_str(api, f, t->out_link, t->to, out, sizeof out);
  snprintf(msg, sizeof msg,
           "if the link %s - %s fails, ECMP reroutes lossless traffic "
           "through a valley (down, then up again): \"%s\" sends traffic for "
           "\"%s\" down to %s and on up to %s (%u valley turn(s)); %s. Checked "
           "%u of %u link failures",
           a, b, api->node_name(f, t->from), api->node_name(f, t->dest), in,
           out, x->n_valleys,
           x->cycle == 1
               ? "with the other routes this closes a buffer dependency "
                 "cycle: a PFC deadlock is possible"
           : x->cycle == 2
               ? "whether it closes a dependency cycle was not searched (the "
                 "fabric is too large for the per-failure cycle search); "
                 "keep lossless traffic off valley routes"
               : "no dependency cycle results, but a second valley can "
                 "close one (Hu et al. 2016); keep lossless traffic off "
                 "valley routes (e.g. one BGP ASN per spine tier, RFC "
                 "7938, drops them)",
           r->failures_checked, r->failures_total);
  fl_id nodes[4] = {na, nb, t->via, t->to};
  fl_port_ref ports[2] = {{na, api->port_num(f, pa)},
                          {nb, api->port_num(f, pb)}};
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key(&ev, "failed_link");
  jb_arr_open(&ev);
  jb_str_item(&ev, a);
  jb_str_item(&ev, b);
  jb_arr_close(&ev);
  jb_key(&ev, "valley");
  turn_json(api, f, &ev, t);
  jb_key_int(&ev, "valley_turns", x->n_valleys);
  if (x->cycle == 2)
    jb_key_str(&ev, "cycle", "not searched");
  else
    jb_key_bool(&ev, "cycle", x->cycle != 0);
  jb_obj_close(&ev);
  int rc = fl_emit(api, ctx, x->cycle == 1 ? FL_SEV_ERROR : 0, msg, nodes, 4,
                   ports, 2, NULL, 0, jb_str(&ev));
  jb_free(&ev);
  return rc;
}

static int check_pfc_failure(const fl_host_api *api, fl_ctx *ctx, void *data) {
  (void)data;
  int ok = applies(api, ctx);
  if (ok <= 0)
    return ok < 0;
  int failed;
  fl_pfc_report *r = run(api, ctx, 1, &failed);
  if (!r)
    return failed;
  int rc = 0;
  for (uint32_t i = 0; i < r->n_failures && !rc; i++)
    rc = failure_finding(api, ctx, r, &r->failures[i]);
  api->pfc_free(r);
  return rc;
}

const fl_rule_def fl_deadlock_pfc_cycle = {
    sizeof(fl_rule_def),
    FL_SEV_ERROR,
    "deadlock.pfc-cycle",
    "the lossless (PFC) buffer dependency graph of an Ethernet fabric has a "
    "cycle",
    "RoCE runs on lossless priorities: a full ingress buffer pauses the "
    "upstream switch (PFC). When the buffer dependencies of the routing form "
    "a cycle on one priority, the pauses can hold each other forever (Hu et "
    "al., HotNets 2016). The routing modelled is what a Clos runs: ECMP over "
    "all shortest paths toward every leaf; healthy, it is valley-free and "
    "acyclic. The finding gives one concrete cycle, switch by switch, with "
    "the destination whose routes create each dependency. Applies to "
    "Ethernet fabrics (parameter lossless).",
    1,
    0,
    PFC_PARAMS,
    2,
    check_pfc_cycle};

const fl_rule_def fl_deadlock_pfc_failure = {
    sizeof(fl_rule_def),
    FL_SEV_WARNING,
    "deadlock.pfc-failure-valley",
    "a single link failure makes ECMP route lossless traffic through a "
    "valley",
    "For every switch-to-switch link, the routing is recomputed without it: "
    "a switch that lost its only way down toward a destination detours down "
    "and up again through a neighbour (a valley). Valleys are what close "
    "PFC deadlock cycles; one finding per link whose failure creates one, "
    "with the detour, and an error when the failure closes a cycle. Opt-in "
    "(--rules deadlock.pfc-failure-valley): in a 2-tier Clos with an IGP "
    "every leaf-spine failure creates such a detour at its spine, which is "
    "a design question, not a cabling fault. Cost: one search per "
    "destination whose routes the failure changes.",
    0,
    0,
    PFC_PARAMS,
    2,
    check_pfc_failure};
