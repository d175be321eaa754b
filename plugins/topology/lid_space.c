/* SPDX-License-Identifier: MIT */
/*
 * plugins/topology/lid_space.c — topology.lid-space: does every port of a
 * subnet get a LID?
 *
 * An InfiniBand subnet addresses its ports with 16-bit LIDs of which only
 * 0x0001-0xBFFF are unicast (IBA vol. 1, 4.1.3: 0x0000 reserved,
 * 0xC000-0xFFFE multicast, 0xFFFF permissive): 49,151 LIDs. A switch takes
 * one LID, that of its management port 0 (IBA 4.1.3; OpenSM gives switch
 * port 0 LMC 0 unless `lmc_esp0` is set); every cabled CA or router port
 * takes 2^LMC consecutive LIDs, aligned on 2^LMC (IBA 7.11.1, PortInfo
 * LMC). The aligned blocks of 2^LMC in 0x0000-0xBFFF number 49,152 / 2^LMC
 * and the first holds LID 0, so N CA ports and S switches fit exactly when
 * S + N * 2^LMC <= 49,151 (switches fill the odd LIDs left between blocks).
 *
 * A subnet is what one subnet manager reaches: switches and the CA ports
 * cabled to them (a CA does not forward, so a host with one NIC in each of
 * two planes is in two subnets). Union-find over switches and CA/router
 * ports, O(ports + links). Ethernet fabrics have no LIDs: not judged.
 *
 * With figures=true (`fabriclint compare` sets it) the rule also reports
 * each subnet's LIDs as an info finding, also when they fit: compare's
 * "LID space" rows are this count, never a second one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "topology.h"
#include "util/unionfind.h"

#define LID_UNICAST_MAX 49151u /* 0x0001-0xBFFF */

/* The vertex of port @p: its switch (one LID for the whole switch), or the
 * port itself for CAs and routers (one LID range per port). */
static uint32_t vertex(const fl_host_api *api, const fl_fabric *f, fl_id p,
                       uint32_t nn) {
  fl_id n = api->port_node(f, p);
  return api->node_kind(f, n) == FL_NODE_SWITCH ? n : nn + p;
}

static int any_ethernet(const fl_host_api *api, const fl_fabric *f) {
  uint32_t nl = api->link_count(f);
  for (fl_id l = 0; l < nl; l++)
    if (api->link_speed(f, l) >= FL_SPEED_ETH_1G)
      return 1;
  return 0;
}

typedef struct subnet {
  uint64_t switches, ca_ports, lids; /* LIDs needed at the port LMCs */
  uint32_t max_lmc;
  fl_id first_switch, first_node;
} subnet;

static int report_subnet(const fl_host_api *api, fl_ctx *ctx,
                         const fl_fabric *f, const subnet *s, uint32_t lmc,
                         uint32_t n_subnets) {
  char where[300], msg[1024];
  fl_id named = s->first_switch != FL_NONE ? s->first_switch : s->first_node;
  const char *plane = api->attr(f, FL_ENT_NODE, named, "plane");
  if (n_subnets == 1)
    snprintf(where, sizeof where, "the subnet");
  else if (plane && *plane)
    snprintf(where, sizeof where, "the subnet of plane %s (switch \"%s\")",
             plane, api->node_name(f, named));
  else
    snprintf(where, sizeof where, "the subnet of \"%s\"",
             api->node_name(f, named));
  uint64_t room = s->switches < LID_UNICAST_MAX
                      ? (LID_UNICAST_MAX - s->switches) >> lmc
                      : 0;
  snprintf(msg, sizeof msg,
           "%s needs %llu LIDs (%llu switches x 1 + %llu CA ports x %u at "
           "LMC %u), more than the %u unicast LIDs of a subnet "
           "(0x0001-0xBFFF): %llu port(s) get no LID; split it into planes or "
           "subnets of at most %llu CA ports each beside %llu switches",
           where, (unsigned long long)s->lids, (unsigned long long)s->switches,
           (unsigned long long)s->ca_ports, 1u << lmc, lmc, LID_UNICAST_MAX,
           (unsigned long long)((s->lids - LID_UNICAST_MAX + (1u << lmc) - 1) >>
                                lmc),
           (unsigned long long)room, (unsigned long long)s->switches);
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_int(&ev, "lids_needed", (int64_t)s->lids);
  jb_key_int(&ev, "lids_available", LID_UNICAST_MAX);
  jb_key_int(&ev, "switches", (int64_t)s->switches);
  jb_key_int(&ev, "ca_ports", (int64_t)s->ca_ports);
  jb_key_int(&ev, "lmc", lmc);
  jb_key_int(&ev, "max_port_lmc", s->max_lmc);
  jb_key_int(&ev, "max_ca_ports", (int64_t)room);
  if (plane && *plane)
    jb_key_str(&ev, "plane", plane);
  jb_obj_close(&ev);
  int rc = fl_emit(api, ctx, 0, msg, &named, 1, NULL, 0, NULL, 0, jb_str(&ev));
  jb_free(&ev);
  return rc;
}

/* The policy's LMC of the running rule (parameter `lmc`, 0..7). */
static uint32_t lmc_of(const fl_host_api *api, fl_ctx *ctx) {
  int64_t lmc64 = 0;
  if (api->param_int(ctx, "lmc", &lmc64) != FL_OK)
    lmc64 = 0;
  return lmc64 < 0 ? 0 : lmc64 > 7 ? 7 : (uint32_t)lmc64;
}

/* The subnets of @f at LMC @lmc: *@up the union-find over nn + np
 * vertices (*@nv), *@snp the counts at each root: what the finding and
 * the figures both read. 0, or -1 out of memory (nothing to free). */
static int count_subnets(const fl_host_api *api, const fl_fabric *f,
                         uint32_t lmc, uint32_t **upp, subnet **snp,
                         uint32_t *nvp) {
  uint32_t nn = api->node_count(f), np = api->port_count(f);
  uint32_t nv = nn + np, nl = api->link_count(f);
  uint32_t *up = malloc(((size_t)nv + 1) * sizeof *up);
  subnet *sn = calloc((size_t)nv + 1, sizeof *sn);
  if (!up || !sn) {
    free(up), free(sn);
    return -1;
  }
  fl_uf_init(up, nv);
  for (fl_id l = 0; l < nl; l++)
    fl_uf_join(up, vertex(api, f, api->link_port(f, l, 0), nn),
               vertex(api, f, api->link_port(f, l, 1), nn));
  for (uint32_t v = 0; v < nv; v++)
    sn[v].first_switch = sn[v].first_node = FL_NONE;
  /* switches: one LID each, those with a cable or alone */
  for (fl_id n = 0; n < nn; n++) {
    if (api->node_kind(f, n) != FL_NODE_SWITCH)
      continue;
    subnet *s = &sn[fl_uf_find(up, n)];
    s->switches++;
    s->lids++;
    if (s->first_switch == FL_NONE)
      s->first_switch = n;
    if (s->first_node == FL_NONE)
      s->first_node = n;
  }
  /* CA and router ports with a cable: 2^LMC each (the larger of the port's
   * own LMC, as captured, and the policy's) */
  for (fl_id p = 0; p < np; p++) {
    fl_id n = api->port_node(f, p);
    if (api->node_kind(f, n) == FL_NODE_SWITCH ||
        api->port_link_count(f, p) == 0)
      continue;
    uint32_t pl = api->port_lmc(f, p) & 7;
    if (pl < lmc)
      pl = lmc;
    subnet *s = &sn[fl_uf_find(up, nn + p)];
    s->ca_ports++;
    s->lids += 1u << pl;
    if (pl > s->max_lmc)
      s->max_lmc = pl;
    if (s->first_node == FL_NONE)
      s->first_node = n;
  }
  *upp = up, *snp = sn, *nvp = nv;
  return 0;
}

/* figures=true (compare sets it): one info finding per subnet with a
 * switch, its LIDs as figures; evidence "figures": true. No node named:
 * a figure, not a fault of a switch. */
static int report_figures(const fl_host_api *api, fl_ctx *ctx,
                          const fl_fabric *f, const subnet *s, uint32_t lmc) {
  const char *name = api->node_name(f, s->first_switch);
  char msg[512];
  snprintf(msg, sizeof msg,
           "the subnet of \"%s\" needs %llu of the %u unicast LIDs "
           "(%llu switches x 1 + %llu CA ports x %u at LMC %u)",
           name, (unsigned long long)s->lids, LID_UNICAST_MAX,
           (unsigned long long)s->switches, (unsigned long long)s->ca_ports,
           1u << lmc, lmc);
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_bool(&ev, "figures", 1);
  jb_key_int(&ev, "lids_needed", (int64_t)s->lids);
  jb_key_int(&ev, "lids_available", LID_UNICAST_MAX);
  jb_key_int(&ev, "switches", (int64_t)s->switches);
  jb_key_int(&ev, "ca_ports", (int64_t)s->ca_ports);
  jb_key_int(&ev, "lmc", lmc);
  jb_key_str(&ev, "first_switch", name);
  jb_obj_close(&ev);
  int rc = fl_emit(api, ctx, FL_SEV_INFO, msg, NULL, 0, NULL, 0, NULL, 0,
                   jb_str(&ev));
  jb_free(&ev);
  return rc;
}

static int check_lid_space(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t lmc = lmc_of(api, ctx), nv = 0;
  if (any_ethernet(api, f))
    return 0;
  uint32_t *up = NULL;
  subnet *sn = NULL;
  if (count_subnets(api, f, lmc, &up, &sn, &nv) != 0) {
    api->fail(ctx, "out of memory");
    return 1;
  }
  uint32_t n_subnets = 0;
  for (uint32_t v = 0; v < nv; v++)
    n_subnets += up[v] == v && sn[v].switches > 0;
  int rc = 0;
  for (uint32_t v = 0; v < nv && !rc; v++)
    if (up[v] == v && sn[v].lids > LID_UNICAST_MAX)
      rc = report_subnet(api, ctx, f, &sn[v],
                         sn[v].max_lmc > lmc ? sn[v].max_lmc : lmc, n_subnets);
  int64_t figures = 0;
  if (api->param_int(ctx, "figures", &figures) != FL_OK)
    figures = 0;
  for (uint32_t v = 0; v < nv && !rc && figures; v++)
    if (up[v] == v && sn[v].switches > 0)
      rc = report_figures(api, ctx, f, &sn[v],
                          sn[v].max_lmc > lmc ? sn[v].max_lmc : lmc);
  free(up), free(sn);
  return rc;
}

static const fl_param_def P_LMC = {
    sizeof(fl_param_def),
    FL_PARAM_INT,
    "lmc",
    "0",
    NULL,
    "the LID Mask Control the subnet manager gives CA ports (OpenSM `lmc`): "
    "each takes 2^LMC LIDs; a port's own captured LMC counts when larger",
    "0",
    "7"};
static const fl_param_def P_FIGURES = {
    sizeof(fl_param_def),
    FL_PARAM_BOOL,
    "figures",
    "false",
    NULL,
    "also report each subnet's LIDs (needed, switches, CA ports, LMC) as an "
    "info finding with evidence \"figures\": true, also when it fits "
    "(fabriclint compare sets it)",
    NULL,
    NULL};
static const fl_param_def *const LID_SPACE_PARAMS[] = {&P_LMC, &P_FIGURES};

const fl_rule_def TOPO_R_LID_SPACE = {
    sizeof(fl_rule_def),
    FL_SEV_ERROR,
    "topology.lid-space",
    "a subnet needs more LIDs than the 49,151 unicast LIDs",
    "Each switch takes one LID (port 0) and each cabled CA or router port "
    "2^LMC (IBA 4.1.3, 7.11.1); a subnet has 49,151 unicast LIDs "
    "(0x0001-0xBFFF). Beyond that the subnet manager leaves ports without a "
    "LID: they cannot be reached. Split the fabric into planes or subnets.",
    1,
    0,
    LID_SPACE_PARAMS,
    sizeof LID_SPACE_PARAMS / sizeof *LID_SPACE_PARAMS,
    check_lid_space};
