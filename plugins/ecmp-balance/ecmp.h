/* SPDX-License-Identifier: MIT */
/*
 * plugins/ecmp-balance/ecmp.h — the state and the pieces the files of the
 * ecmp-balance plugin share (internal).
 */
#ifndef FABRICLINT_PLUGINS_ECMP_ECMP_H
#define FABRICLINT_PLUGINS_ECMP_ECMP_H

#include <stdint.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fabriclint/view.h"
#include "traffic.h"

#define MAX_PATTERNS 8

typedef struct eb_state {
  const fl_host_api *api;
  fl_fabric_key key; /* the fabric the view and results are of */
  fl_view v;
  int have_view, have_min;
  /* cached traffic results */
  char tr_key[512];
  tr_result tr[MAX_PATTERNS];
  uint32_t n_tr;
  int have_tr;
} eb_state;

typedef struct sw_cap {
  uint32_t up_n, down_n;
  double up_g, down_g;
  /* links of unknown speed (0 Gb/s: inside an IBNL chassis, a plan without
   * a rate): an uplink is assumed at up_assumed Gb/s, the fastest known
   * uplink of the unit (0 when none is known: then it adds nothing); a
   * down-link adds nothing. So an unknown speed never makes a ratio worse
   * than the known links make it (unknown is not wrong). */
  uint32_t up_unk, down_unk;
  double up_assumed;
  uint32_t par_min, par_max; /* cables per upper neighbour */
  uint32_t up_nb;            /* distinct upper neighbours (units) */
  uint32_t par_min_nb, par_max_nb;
  /* the chassis whose line-card ASICs the cables to it hit most unevenly
   * (spread_max - spread_min > 1), at ASICs spread_max_sw / spread_min_sw */
  uint32_t spread_unit, spread_n, spread_max, spread_min;
  uint32_t spread_max_sw, spread_min_sw;
  /* 1 when a member of the unit, or a switch its uplinks reach, is known
   * only from its neighbours' side (fl_node_peer_only(): a per-device LLDP
   * view, a filtered capture), or an uplink was listed by this end alone (a
   * cut or excerpted capture). Its cables, or the far switch's, are
   * partly unknown, and so is the far switch's tier (a vPC peer or a
   * management switch with unknown hosts ranks "above" the one listed
   * switch): up/down counts there are not judged (real corpus F6, F7). */
  int partial;
} sw_cap;
typedef struct eb_units {
  uint32_t *unit; /* [ns] representative switch of s */
  uint32_t *next; /* [ns] next member of s's unit, FL_VIEW_NONE at the end */
  uint32_t *nmem; /* [ns] members of the unit that s represents, else 0 */
  uint8_t *ext;   /* [ns] 1: s has a cable leaving its chassis (line card) */
  uint32_t *acnt; /* [ns+1] scratch: cables per ASIC, 0 between calls */
  int any;        /* some unit has 2+ members */
} eb_units;
typedef struct pb_total {
  uint32_t switches, imbalanced;
  double worst_ratio, cv_sum, cv_max;
  uint32_t classes, worst_sw;
  uint64_t worst_spread;
} pb_total;

/* ---- ecmp_state.c */

const fl_view *eb_view(const fl_host_api *api, fl_ctx *ctx, eb_state *st,
                       int need_min);
int eb_report(const fl_host_api *api, fl_ctx *ctx, uint32_t sev,
              const char *msg, const fl_id *nodes, uint32_t n_nodes,
              const fl_port_ref *ports, uint32_t n_ports, const char *ev);
int eb_report_cause(const fl_host_api *api, fl_ctx *ctx, const char *msg,
                    const fl_id *nodes, uint32_t n_nodes, const char *ev,
                    const char *cause, const char *cause_msg);
/* eb_report_cause() with a root (one cause across rules; @root NULL for
 * none): the finding is a consequence of a cable or node another rule
 * names. */
int eb_report_rooted(const fl_host_api *api, fl_ctx *ctx, const char *msg,
                     const fl_id *nodes, uint32_t n_nodes, const char *ev,
                     const char *cause, const char *cause_msg,
                     const fl_root *root);
const char *eb_nm(const fl_view *v, uint32_t s);
int64_t eb_pint(const fl_host_api *api, fl_ctx *ctx, const char *name,
                int64_t def);
double eb_pdbl(const fl_host_api *api, fl_ctx *ctx, const char *name,
               double def);
int eb_init(const fl_host_api *api, void **data);
void eb_fini(void *data);

/* ---- ecmp_capacity.c */

void eb_units_free(eb_units *U);
int eb_units_build(const fl_view *v, eb_units *U);
void eb_capacities(const fl_view *v, const eb_units *U, uint32_t u, sw_cap *c,
                   uint32_t *cnt);
int eb_check_asym(const fl_host_api *api, fl_ctx *ctx, void *data);
int eb_check_oversub(const fl_host_api *api, fl_ctx *ctx, void *data);

/* ---- ecmp_groups.c */

int eb_check_mixed(const fl_host_api *api, fl_ctx *ctx, void *data);
int eb_check_width(const fl_host_api *api, fl_ctx *ctx, void *data);

/* ---- ecmp_balance.c */

uint64_t *eb_paths_per_slot(const fl_view *v);
int eb_check_imbalance(const fl_host_api *api, fl_ctx *ctx, void *data);
int eb_balance_total(const fl_view *v, int64_t tol, const uint64_t *paths,
                     pb_total *t);

/* ---- ecmp_load.c */

int eb_traffic(const fl_host_api *api, fl_ctx *ctx, eb_state *st,
               int use_cache_any);
void eb_tr_evidence(const fl_view *v, const tr_result *r, const char *routing,
                    jbuf *ev);
int eb_check_link_load(const fl_host_api *api, fl_ctx *ctx, void *data);

/* ---- ecmp_summary.c */

int eb_check_summary(const fl_host_api *api, fl_ctx *ctx, void *data);

#endif /* FABRICLINT_PLUGINS_ECMP_ECMP_H */
