/* SPDX-License-Identifier: MIT */
/*
 * plugins/topology/link_state.c — the state of ports and links as a capture
 * of port states reports it (iblinkinfo: docs/formats/iblinkinfo.md), and
 * what the topology inputs could not use.
 *
 * Attributes read (set by the loaders):
 *   port `state`  "<PortState>/<PortPhysicalState>" in libibmad's words
 *                 ("Active/LinkUp", "Down/Polling", "Active/Disabled");
 *   link `could-be-width`, `could-be-speed`   what both ends support when
 *                 more than the link runs at (iblinkinfo's "Could be").
 * Sources: IBA vol. 1 14.2.5.6 PortInfo (PortState: Down, Initialize, Armed,
 * Active; PortPhysicalState: Sleep, Polling, Disabled,
 * PortConfigurationTraining, LinkUp, LinkErrorRecovery, PhyTest); a port
 * carries data traffic only when Active; rdma-core ibdiag_common.c
 * get_max_msg() (the hints: the widest width and the fastest speed in both
 * ends' LinkWidthSupported / LinkSpeed[Ext]Supported, when the active
 * value is not that).
 *
 * Rules:
 *   topology.link-inactive  physically up (LinkUp) but not Active: the
 *       subnet manager has not brought it up; no data crosses it (error);
 *   topology.port-disabled  PortPhysicalState Disabled (warning);
 *   topology.port-down      no link trained: Polling (no cable, or the far
 *       end is dark), Sleep, training, error recovery (info: unused ports
 *       are Down/Polling);
 *   topology.below-capability  a link runs below what both ends support
 *       (warning);
 *   topology.input          loader notes of category "topology": lines
 *       skipped, values not used (info).
 * Each finding carries a cause, so a fabric-wide state (an SM that never
 * ran: every link Initialize) is one finding with a count.
 */
#include <stdio.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "topology.h"

int topo_port_state(const fl_host_api *api, const fl_fabric *f, fl_id p,
                    char *st, char *ph, size_t size) {
  const char *v = api->attr(f, FL_ENT_PORT, p, "state");
  const char *slash = v ? strchr(v, '/') : NULL;
  if (!slash)
    return 0;
  snprintf(st, size, "%.*s", (int)(slash - v), v);
  snprintf(ph, size, "%s", slash + 1);
  return 1;
}

static void port_ref(const fl_host_api *api, const fl_fabric *f, fl_id p,
                     fl_port_ref *out) {
  out->node = api->port_node(f, p);
  out->port = api->port_num(f, p);
}

static void state_evidence(jbuf *ev, const char *st, const char *ph) {
  jb_key_str(ev, "port_state", st);
  jb_key_str(ev, "physical_state", ph);
}

/* ---- topology.link-inactive ---------------------------------------------
 */

static int check_inactive(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t np = api->port_count(f);
  char st[64], ph[64], ost[64], oph[64], msg[1024], cause[96], cmsg[512];
  for (fl_id p = 0; p < np; p++) {
    if (!topo_port_state(api, f, p, st, ph, sizeof st) ||
        strcmp(ph, "LinkUp") || !strcmp(st, "Active"))
      continue;
    uint32_t nl = api->port_link_count(f, p);
    fl_id l = nl ? api->port_link(f, p, 0) : FL_NONE;
    fl_id o = l == FL_NONE ? FL_NONE : api->link_other(f, l, p);
    /* a link both of whose ends are inactive: said once, at its end 0 */
    if (o != FL_NONE && p != api->link_port(f, l, 0) &&
        topo_port_state(api, f, o, ost, oph, sizeof ost) &&
        !strcmp(oph, "LinkUp") && strcmp(ost, "Active"))
      continue;
    fl_port_ref ports[2];
    fl_id nodes[2] = {FL_NONE, FL_NONE};
    uint32_t n = 1;
    if (o != FL_NONE) {
      n = 2;
      for (uint32_t k = 0; k < 2; k++) {
        port_ref(api, f, api->link_port(f, l, k), &ports[k]);
        nodes[k] = ports[k].node;
      }
      snprintf(msg, sizeof msg,
               "link \"%s\" port %u <-> \"%s\" port %u is physically up "
               "(LinkUp) but %s at \"%s\" port %u: the subnet manager has not "
               "made it Active, so no data crosses it",
               api->node_name(f, nodes[0]), ports[0].port,
               api->node_name(f, nodes[1]), ports[1].port, st,
               api->node_name(f, api->port_node(f, p)), api->port_num(f, p));
    } else {
      port_ref(api, f, p, &ports[0]);
      nodes[0] = ports[0].node;
      snprintf(msg, sizeof msg,
               "\"%s\" port %u is physically up (LinkUp) but %s: the subnet "
               "manager has not made it Active, so no data crosses it",
               api->node_name(f, nodes[0]), ports[0].port, st);
    }
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    state_evidence(&ev, st, ph);
    jb_obj_close(&ev);
    snprintf(cause, sizeof cause, "state|%s", st);
    snprintf(cmsg, sizeof cmsg,
             "{count} links are physically up but %s: the subnet manager has "
             "not made them Active (is it running, and can it reach them?)",
             st);
    int rc = fl_emit_cause(api, ctx, 0, msg, nodes, n, ports, n,
                           o != FL_NONE ? &l : NULL, o != FL_NONE, jb_str(&ev),
                           cause, cmsg);
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- topology.port-disabled and topology.port-down ----------------------
 */

/* What a physical state other than LinkUp means. */
static const char *phys_meaning(const char *ph) {
  if (!strcmp(ph, "Polling"))
    return "no link trained: no cable, or one whose far end is dark or "
           "disabled";
  if (!strcmp(ph, "Sleep"))
    return "the port sleeps (it does not even look for a link)";
  if (!strcmp(ph, "PortConfigurationTraining"))
    return "the link is still training";
  if (!strcmp(ph, "LinkErrorRecovery"))
    return "the link is recovering from errors (a flapping link)";
  if (!strcmp(ph, "PhyTest"))
    return "the port is in a physical test mode";
  return "no link trained";
}

/* One finding per port whose physical state is @want (port-disabled) or,
 * with @want NULL, neither LinkUp nor Disabled (port-down). */
static int check_phys(const fl_host_api *api, fl_ctx *ctx, const char *want) {
  const fl_fabric *f = api->fabric(ctx);
  uint32_t np = api->port_count(f);
  char st[64], ph[64], msg[1024], cause[96], cmsg[512];
  for (fl_id p = 0; p < np; p++) {
    if (!topo_port_state(api, f, p, st, ph, sizeof st) || !strcmp(ph, "LinkUp"))
      continue;
    if (want ? strcmp(ph, want) != 0 : strcmp(ph, "Disabled") == 0)
      continue;
    fl_port_ref ref;
    port_ref(api, f, p, &ref);
    const char *why = want ? "switched off by an administrator or by the "
                             "subnet manager; a cable on it carries nothing"
                           : phys_meaning(ph);
    snprintf(msg, sizeof msg, "\"%s\" port %u is %s/%s: %s",
             api->node_name(f, ref.node), ref.port, st, ph, why);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    state_evidence(&ev, st, ph);
    jb_obj_close(&ev);
    snprintf(cause, sizeof cause, "phys|%s", ph);
    snprintf(cmsg, sizeof cmsg, "{count} ports are %s: %s", ph, why);
    int rc = fl_emit_cause(api, ctx, 0, msg, &ref.node, 1, &ref, 1, NULL, 0,
                           jb_str(&ev), cause, cmsg);
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

static int check_disabled(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  return check_phys(api, ctx, "Disabled");
}

static int check_down(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  return check_phys(api, ctx, NULL);
}

/* ---- topology.below-capability ------------------------------------------
 */

/* Lanes of a width name ("12x"), 0 if none. */
static uint32_t lanes(const char *w) {
  uint32_t v = 0;
  for (; w && *w >= '0' && *w <= '9'; w++)
    v = v * 10 + (uint32_t)(*w - '0');
  return w && (*w == 'x' || *w == 'X') ? v : 0;
}

/* "4xHDR", "??HDR", "4x??". */
static void rate_name(const fl_host_api *api, uint32_t w, const char *speed,
                      char *buf, size_t size) {
  if (w)
    snprintf(buf, size, "%ux%s", w, speed);
  else
    snprintf(buf, size, "??%s", speed);
  (void)api;
}

static int check_below(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t nl = api->link_count(f);
  char seen[32], could[32], msg[1024], cause[96], cmsg[512];
  for (fl_id l = 0; l < nl; l++) {
    const char *cw = api->attr(f, FL_ENT_LINK, l, "could-be-width");
    const char *cs = api->attr(f, FL_ENT_LINK, l, "could-be-speed");
    if (!cw && !cs)
      continue;
    uint32_t w = api->link_width(f, l), s = api->link_speed(f, l);
    uint32_t want_w = cw ? lanes(cw) : w;
    const char *sname = api->speed_name(s);
    rate_name(api, w, sname, seen, sizeof seen);
    rate_name(api, want_w, cs ? cs : sname, could, sizeof could);
    fl_port_ref ports[2];
    port_ref(api, f, api->link_port(f, l, 0), &ports[0]);
    port_ref(api, f, api->link_port(f, l, 1), &ports[1]);
    fl_id nodes[2] = {ports[0].node, ports[1].node};
    snprintf(msg, sizeof msg,
             "link \"%s\" port %u <-> \"%s\" port %u runs at %s though both "
             "ends support %s (iblinkinfo's \"Could be\" hint): a bad lane "
             "or connector, a cable below the ports' rating, or a port "
             "configured below its capability",
             api->node_name(f, nodes[0]), ports[0].port,
             api->node_name(f, nodes[1]), ports[1].port, seen, could);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "seen", seen);
    jb_key_str(&ev, "supported", could);
    if (cw)
      jb_key_str(&ev, "could_be_width", cw);
    if (cs)
      jb_key_str(&ev, "could_be_speed", cs);
    jb_key_double(&ev, "seen_gbps", api->link_gbps(f, l));
    jb_obj_close(&ev);
    snprintf(cause, sizeof cause, "%s|%s", seen, could);
    snprintf(cmsg, sizeof cmsg,
             "{count} links run at %s though both ends support %s", seen,
             could);
    int rc = fl_emit_cause(api, ctx, 0, msg, nodes, 2, ports, 2, &l, 1,
                           jb_str(&ev), cause, cmsg);
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- topology.input ------------------------------------------------------
 */

static int check_input(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t n = api->note_count(f);
  for (uint32_t i = 0; i < n; i++) {
    const char *cat, *file, *msg;
    uint32_t line;
    if (api->note(f, i, &cat, &file, &line, &msg) != 0 ||
        strcmp(cat, "routing") == 0) /* deadlock.routing-input's */
      continue;
    char text[1400];
    if (line)
      snprintf(text, sizeof text, "%s:%u: %s", file, line, msg);
    else
      snprintf(text, sizeof text, "%s: %s", file, msg);
    if (fl_emit(api, ctx, 0, text, NULL, 0, NULL, 0, NULL, 0, NULL))
      return 1;
  }
  return 0;
}

/* ---- descriptors ---------------------------------------------------------
 */

#define RULE(var, sev, rid, summ, hlp, fn)                                     \
  const fl_rule_def var = {                                                    \
      sizeof(fl_rule_def), sev, rid, summ, hlp, 1, 0, NULL, 0, fn}

RULE(TOPO_R_LINK_INACTIVE, FL_SEV_ERROR, "topology.link-inactive",
     "a link is physically up but not Active",
     "A port whose physical state is LinkUp but whose port state is "
     "Initialize or Armed has trained with its far end, but the subnet "
     "manager has not made it Active: it carries no data (IBA PortInfo "
     "PortState). Every link so means the SM is not running or cannot reach "
     "the fabric; a few, that it could not configure them. Read from "
     "iblinkinfo's <State>/<PhysState> column.",
     check_inactive);
RULE(TOPO_R_PORT_DISABLED, FL_SEV_WARNING, "topology.port-disabled",
     "a port is physically disabled",
     "PortPhysicalState Disabled: an administrator (ibportstate ... disable) "
     "or the subnet manager (after errors) switched the port off; a cable on "
     "it carries nothing. Read from iblinkinfo (\"Down/Disabled\").",
     check_disabled);
RULE(TOPO_R_PORT_DOWN, FL_SEV_INFO, "topology.port-down", "a port has no link",
     "A port whose physical state is Polling (no cable, or a cable whose far "
     "end is dark), Sleep, PortConfigurationTraining, LinkErrorRecovery or "
     "PhyTest has no link. Unused ports are Down/Polling, so this is "
     "information; a plan (`fabriclint diff`) says which of them should "
     "carry a cable.",
     check_down);
RULE(TOPO_R_BELOW_CAP, FL_SEV_WARNING, "topology.below-capability",
     "a link runs below the width or speed both of its ends support",
     "iblinkinfo prints \"Could be 4X\" or \"Could be 53.125 Gbps\" when the "
     "widest width or the fastest speed both ends support (PortInfo "
     "LinkWidthSupported, LinkSpeed[Ext]Supported) is not the one the link "
     "trained at: a bad lane or connector, a slower cable, or a port "
     "configured down. (ibsim reports 12X support on every port, so every "
     "4X link of a simulated fabric has the hint.)",
     check_below);
RULE(TOPO_R_INPUT, FL_SEV_INFO, "topology.input",
     "a topology input had lines or values fabriclint did not use",
     "Loaders never drop input silently: lines they skip (noise in a "
     "capture, ports whose far end a tool could not reach, values a format "
     "cannot carry, a plan's management or logical links, links joining a "
     "port to itself, devices declared twice or without a link, attribute "
     "rows for unknown nodes) are counted and reported here once per cause, "
     "with the file and the first line. Routing-dump notes are "
     "deadlock.routing-input's.",
     check_input);
