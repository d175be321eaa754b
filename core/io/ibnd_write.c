/* SPDX-License-Identifier: MIT */
/*
 * core/io/ibnd_write.c — write a fabric as ibnetdiscover default-mode output.
 *
 * Why: tests, benchmarks and `fabriclint gen` need fabrics in the format
 * operators capture, and a written file must load back into the same model
 * (core/ibnd.c). The layout is exactly that of rdma-core
 * infiniband-diags/ibnetdiscover.c: dump_topology() (header comment block),
 * out_ids() (vendid/devid/sysimgguid, the latter omitted when 0),
 * out_switch()/out_switch_detail(), out_ca()/out_ca_detail(),
 * out_switch_port() and out_ca_port() (port lines, peer port GUID in
 * parentheses only when the peer is not a switch), node_name() ("S-/H-/R-"
 * ids), dump_linkwidth_compat() and dump_linkspeed[ext]_compat().
 * Switches come first, then CAs, then routers, each group in node-id order;
 * every cable is listed from both of its ends.
 *
 * Deterministic output: the ctime() timestamp is replaced by a fixed date,
 * and nodes or ports without a GUID get synthetic ones derived from their
 * ids (SYNTH_BASE | id << 8 for nodes, node GUID + port for CA ports),
 * skipping values that a real node already uses.
 * Names: a node's header and its peers' port lines print the same text, as
 * the real tool does: the NodeDescription as discovered when the display
 * name is that description (trimmed, or with the " (0x<GUID>)" finalize
 * adds to a shared one), else the display name (a design name or a
 * node-name-map entry, as `ibnetdiscover --node-name-map` prints it).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/write.h"
#include "io/write_common.h"

#define SYNTH_BASE 0xfa0b000000000000ull

typedef struct wctx {
  const fl_fabric *fab;
  FILE *out;
  uint64_t *guid; /* per node: real or synthetic node GUID */
} wctx;

static uint64_t synth_guid(const fl_fabric *fab, fl_id n) {
  uint64_t g = SYNTH_BASE | ((uint64_t)n << 8);
  while (fl_fabric_find_node_guid(fab, g) != FL_NONE)
    g += 0x0001000000000000ull; /* next synthetic range */
  return g;
}

static const char *width_str(uint32_t w) {
  switch (w) {
  case 1:
    return "1x";
  case 2:
    return "2x";
  case 4:
    return "4x";
  case 8:
    return "8x";
  case 12:
    return "12x";
  }
  return "\?\?";
}

static const char *speed_str(uint32_t s) {
  if (s >= FL_SPEED_SDR && s <= FL_SPEED_XDR)
    return fl_speed_name(s);
  return "\?\?\?";
}

static char kind_letter(uint32_t kind) {
  return kind == FL_NODE_SWITCH ? 'S' : kind == FL_NODE_ROUTER ? 'R' : 'H';
}

/* Port 0 LID of a switch (its "smalid"), else 0. */
static uint32_t switch_lid(const fl_fabric *fab, fl_id n, uint32_t *lmc) {
  fl_id p0 = fl_fabric_find_port(fab, n, 0);
  if (lmc)
    *lmc = p0 == FL_NONE ? 0 : fl_fabric_port_lmc(fab, p0);
  return p0 == FL_NONE ? 0 : fl_fabric_port_lid(fab, p0);
}

static uint64_t port_guid(const wctx *w, fl_id p) {
  uint64_t g = fl_fabric_port_guid(w->fab, p);
  if (g)
    return g;
  fl_id n = fl_fabric_port_node(w->fab, p);
  if (fl_fabric_node_kind(w->fab, n) == FL_NODE_SWITCH)
    return w->guid[n];
  return w->guid[n] + fl_fabric_port_num(w->fab, p);
}

/* Declared port count, else the highest port number seen; at least 1 (a
 * planned switch without a cable yet has none, and the reader takes a
 * port count of 1..255, as ibnetdiscover prints). */
static uint32_t nports(const fl_fabric *fab, fl_id n) {
  uint32_t np = fl_fabric_node_nports(fab, n);
  uint32_t cnt = fl_fabric_node_port_count(fab, n);
  if (cnt) {
    fl_id last = fl_fabric_node_first_port(fab, n) + cnt - 1;
    uint32_t hi = fl_fabric_port_num(fab, last);
    if (hi > np)
      np = hi;
  }
  return np ? np : 1;
}

/* 1 when display name @nm is description @d trimmed of blanks, with or
 * without the " (0x<16 hex>)" that finalize adds to a shared description. */
static int name_is_desc(const char *nm, const char *d) {
  while (*d == ' ' || *d == '\t')
    d++;
  size_t dl = strlen(d), nl = strlen(nm);
  while (dl > 0 && (d[dl - 1] == ' ' || d[dl - 1] == '\t'))
    dl--;
  if (nl < dl || strncmp(nm, d, dl) != 0)
    return 0;
  return nl == dl ||
         (nl == dl + 21 && strncmp(nm + dl, " (0x", 4) == 0 &&
          strspn(nm + dl + 4, "0123456789abcdef") == 16 && nm[nl - 1] == ')');
}

/* The name ibnetdiscover prints for node @n, in its header and in its
 * peers' port lines alike: the NodeDescription as discovered, or the name
 * the fabric gives it instead (a design name, a node-name-map entry: what
 * `ibnetdiscover --node-name-map` prints). */
static const char *print_name(const fl_fabric *fab, fl_id n) {
  const char *d = fl_fabric_node_desc(fab, n);
  const char *nm = fl_fabric_node_name(fab, n);
  return d[0] && name_is_desc(nm, d) ? d : nm;
}

static void out_ids(const wctx *w, fl_id n) {
  uint64_t sys = fl_fabric_node_sysimgguid(w->fab, n);
  fprintf(w->out, "\nvendid=0x%x\ndevid=0x%x\n",
          fl_fabric_node_vendid(w->fab, n), fl_fabric_node_devid(w->fab, n));
  if (sys)
    fprintf(w->out, "sysimgguid=0x%" PRIx64 "\n", sys);
}

static void out_header(const wctx *w, fl_id n) {
  const fl_fabric *fab = w->fab;
  uint32_t kind = fl_fabric_node_kind(fab, n);
  out_ids(w, n);
  if (kind == FL_NODE_SWITCH) {
    fl_id p0 = fl_fabric_find_port(fab, n, 0);
    uint64_t pg = p0 == FL_NONE ? w->guid[n] : port_guid(w, p0);
    uint32_t lmc;
    uint32_t lid = switch_lid(fab, n, &lmc);
    fprintf(w->out, "switchguid=0x%" PRIx64 "(%" PRIx64 ")\n", w->guid[n], pg);
    fprintf(w->out,
            "Switch\t%u \"S-%016" PRIx64 "\"\t\t# \"%s\" %s port 0 lid %u "
            "lmc %u\n",
            nports(fab, n), w->guid[n], print_name(fab, n), "enhanced", lid,
            lmc);
    return;
  }
  int rt = kind == FL_NODE_ROUTER;
  fprintf(w->out, "%sguid=0x%" PRIx64 "\n", rt ? "rt" : "ca", w->guid[n]);
  fprintf(w->out, "%s\t%u \"%c-%016" PRIx64 "\"\t\t# \"%s\"\n",
          rt ? "Rt" : "Ca", nports(fab, n), kind_letter(kind), w->guid[n],
          print_name(fab, n));
}

/* One port line for link @l seen from port @p. */
static void out_port_line(const wctx *w, fl_id p, fl_id l) {
  const fl_fabric *fab = w->fab;
  fl_id n = fl_fabric_port_node(fab, p);
  fl_id q = fl_fabric_link_other(fab, l, p);
  fl_id m = fl_fabric_port_node(fab, q);
  uint32_t mk = fl_fabric_node_kind(fab, m);
  int from_b = fl_fabric_link_port(fab, l, 0) != p;
  uint32_t wd =
      from_b ? fl_fabric_link_width_b(fab, l) : fl_fabric_link_width(fab, l);
  uint32_t sp =
      from_b ? fl_fabric_link_speed_b(fab, l) : fl_fabric_link_speed(fab, l);
  uint32_t plid = mk == FL_NODE_SWITCH ? switch_lid(fab, m, NULL)
                                       : fl_fabric_port_lid(fab, q);
  int local_sw = fl_fabric_node_kind(fab, n) == FL_NODE_SWITCH;
  fprintf(w->out, "[%u]", fl_fabric_port_num(fab, p));
  if (!local_sw)
    fprintf(w->out, "(%" PRIx64 ") ", port_guid(w, p));
  fprintf(w->out, "\t\"%c-%016" PRIx64 "\"[%u]", kind_letter(mk), w->guid[m],
          fl_fabric_port_num(fab, q));
  if (mk != FL_NODE_SWITCH)
    fprintf(w->out, local_sw ? "(%" PRIx64 ") " : " (%" PRIx64 ") ",
            port_guid(w, q));
  if (local_sw)
    fprintf(w->out, "\t\t# \"%s\" lid %u %s%s\n", print_name(fab, m), plid,
            width_str(wd), speed_str(sp));
  else
    fprintf(w->out, "\t\t# lid %u lmc %u \"%s\" lid %u %s%s\n",
            fl_fabric_port_lid(fab, p), fl_fabric_port_lmc(fab, p),
            print_name(fab, m), plid, width_str(wd), speed_str(sp));
}

static void out_node(const wctx *w, fl_id n) {
  const fl_fabric *fab = w->fab;
  out_header(w, n);
  fl_id first = fl_fabric_node_first_port(fab, n);
  uint32_t cnt = fl_fabric_node_port_count(fab, n);
  for (fl_id p = first; p < first + cnt; p++) {
    if (fl_fabric_port_num(fab, p) == 0)
      continue;
    uint32_t nl = fl_fabric_port_link_count(fab, p);
    for (uint32_t i = 0; i < nl; i++) {
      fl_id l = fl_fabric_port_link(fab, p, i);
      /* a cable looped onto this very port is listed once */
      if (fl_fabric_link_port(fab, l, 0) == p &&
          fl_fabric_link_port(fab, l, 1) == p && i > 0 &&
          fl_fabric_port_link(fab, p, i - 1) == l)
        continue;
      out_port_line(w, p, l);
    }
  }
}

/* "Initiated from": the first CA, else the first node. */
static void out_banner(const wctx *w) {
  const fl_fabric *fab = w->fab;
  uint32_t nn = fl_fabric_node_count(fab);
  fl_id from = nn ? 0 : FL_NONE;
  for (fl_id n = 0; n < nn; n++) {
    if (fl_fabric_node_kind(fab, n) == FL_NODE_CA) {
      from = n;
      break;
    }
  }
  uint64_t ng = 0, pg = 0;
  if (from != FL_NONE) {
    ng = w->guid[from];
    pg = ng;
    if (fl_fabric_node_port_count(fab, from))
      pg = port_guid(w, fl_fabric_node_first_port(fab, from));
  }
  fprintf(w->out,
          "#\n# Topology file: generated on Thu Jan  1 00:00:00 1970\n#\n"
          "# Initiated from node %016" PRIx64 " port %016" PRIx64 "\n",
          ng, pg);
}

int fl_write_ibnetdiscover(const fl_fabric *fab, FILE *out, fl_error *err) {
  /* a port has one peer in a dump: listed line by line, several cables of
   * one port read back paired otherwise (UFM's ndth2s.csv: 320 cables in,
   * 608 back); nor can a port above 255 be said */
  int rc = fl_wr_ib_ports_check(fab, "ibnetdiscover", 1, err);
  if (rc != FL_OK)
    return rc;
  uint32_t nn = fl_fabric_node_count(fab);
  wctx w = {fab, out, calloc(nn ? nn : 1, sizeof(uint64_t))};
  if (!w.guid)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  for (fl_id n = 0; n < nn; n++) {
    w.guid[n] = fl_fabric_node_guid(fab, n);
    if (!w.guid[n])
      w.guid[n] = synth_guid(fab, n);
  }
  out_banner(&w);
  static const uint32_t order[3] = {FL_NODE_SWITCH, FL_NODE_CA, FL_NODE_ROUTER};
  for (int k = 0; k < 3; k++)
    for (fl_id n = 0; n < nn; n++)
      if (fl_fabric_node_kind(fab, n) == order[k])
        out_node(&w, n);
  free(w.guid);
  if (fflush(out) != 0 || ferror(out))
    return fl_error_set(err, FL_EIO, NULL, 0, 0,
                        "writing ibnetdiscover output failed");
  return FL_OK;
}
