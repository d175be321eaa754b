/* SPDX-License-Identifier: MIT */
/*
 * core/io/ibsim_write.c — fl_write_ibsim_net(): a fabric as an ibsim net file.
 *
 * Why: ibsim (linux-rdma/ibsim, Debian ibsim-utils) simulates an InfiniBand
 * subnet from a net file, and real OpenSM and infiniband-diags tools run
 * against it unchanged (LD_PRELOAD=libumad2sim.so, `ibsim-run`). Writing
 * our model in that dialect lets fabrics/regen.sh produce dumps made by the
 * real `opensm` and `ibnetdiscover` from any generated plan, instead of
 * hand-written fixtures.
 *
 * The dialect (ibsim/sim_net.c, parse_netconf and friends), as it matters
 * here:
 *   - `Switch N "id"`, `Ca N "id"`, `Rt N "id"` headers; an optional
 *     comment `# "desc"` after the id sets the NodeDescription (otherwise
 *     the id is used), and ` lid L lmc M` after it sets the switch port-0
 *     LID.
 *   - port lines `[p] "peer-id"[rp]`; the comment after them is scanned for
 *     `lid L %dx%s` (the last quote-free "lid" segment: remote LID, width,
 *     speed) and, on CAs, the first `lid L lmc M` is the local port's LID.
 *     Every `=` after the peer id is taken as a `w=`/`s=`/`e=` option.
 *   - `vendid=`, `devid=`, `sysimgguid=`, `switchguid=`, `caguid=`,
 *     `rtguid=` lines set ids of the *next* node (GUIDs as absolute bases).
 *     A CA's port i gets GUID node GUID + i; a switch's ports share the
 *     node GUID.
 *   - a quoted id may contain blanks (it runs from quote to quote), so
 *     "dgx-001 mlx5_0" is a valid id; '#' and '@' are reserved (module
 *     prefixes, aliases) and ids are at most 64 bytes (NODEIDLEN 65).
 *     Descriptions are cut at 63 bytes and lines at 255 (MAXLINE 256).
 *   - every cable must be listed from both ends, consistently, or ibsim
 *     refuses the file ("remote port N in node X is not connected to ...").
 *
 * Hence: ids are node names when they are valid and unique, else `~<node
 * id>`; a node GUID that is 0 or already used is replaced by a synthetic
 * one. A port with several cables, a cable looped onto one port (only in
 * broken inputs) and a port number above 255 cannot be said: the writer
 * refuses the fabric (FL_EINVAL naming the node and port, nothing written;
 * fl_wr_ib_ports_check()) rather than drop cables a later `check` of the
 * file would never see (issue #32 case 3). Comment text has '"' and '='
 * replaced so it cannot end a quote or start an option.
 *
 * Limits of the ibsim version in Debian 12 (0.10): speeds above HDR are not
 * known to it (NDR/XDR links come up as SDR with a warning), and its tables
 * default to 2048 nodes / 256 switches / 13312 ports / LIDs below 30720 —
 * the header comment prints the -N/-S/-P/-L options the file needs.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/write.h"
#include "io/write_common.h"
#include "model/hashmap.h"

#define IBSIM_ID_MAX    64    /* NODEIDLEN - 1 */
#define IBSIM_DESC_MAX  63    /* sizeof nodedesc - 1 */
#define IBSIM_LINEARCAP 30720 /* MAXLINEARCAP: LIDs ibsim holds by default */
#define SYNTH_GUID_BASE 0x0002c903ff000000ull

/**
 * ibsim_ids — per-node ids and GUIDs as written (first pass).
 * @synth: 1 when node n's id is `~n` rather than its name.
 * @guid: node GUID written for node n.
 */
typedef struct ibsim_ids {
  uint8_t *synth;
  uint64_t *guid;
} ibsim_ids;

static void ids_free(ibsim_ids *ids) {
  free(ids->synth);
  free(ids->guid);
}

static int valid_id(const char *s) {
  size_t len = strlen(s);
  if (len == 0 || len > IBSIM_ID_MAX)
    return 0;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    if (*p == '"' || *p == '#' || *p == '@' || *p < 0x20 || *p == 0x7f)
      return 0;
  return 1;
}

/** The id node @n is written under; @buf holds synthetic ones. */
static const char *node_id(const fl_fabric *fab, const ibsim_ids *ids, fl_id n,
                           char *buf, size_t size) {
  if (!ids->synth[n])
    return fl_fabric_node_name(fab, n);
  snprintf(buf, size, "~%" PRIu32, n);
  return buf;
}

/** Names that are valid and seen first keep their name; the rest get ~n. */
static int plan_ids(const fl_fabric *fab, ibsim_ids *ids, fl_error *err) {
  uint32_t nn = fl_fabric_node_count(fab);
  fl_strmap names = {0};
  fl_u64map guids = {0};
  int rc = FL_OK;
  ids->synth = calloc(nn ? nn : 1, 1);
  ids->guid = calloc(nn ? nn : 1, sizeof *ids->guid);
  if (!ids->synth || !ids->guid)
    rc = FL_ENOMEM;
  for (fl_id n = 0; n < nn && rc == FL_OK; n++) {
    const char *name = fl_fabric_node_name(fab, n);
    uint32_t got = FL_MAP_ABSENT;
    if (valid_id(name) &&
        (got = fl_strmap_put(&names, name, strlen(name), n)) == FL_MAP_ABSENT)
      rc = FL_ENOMEM;
    ids->synth[n] = got != n;
    uint64_t g = fl_fabric_node_guid(fab, n);
    int own = 0; /* n is the first node with this non-zero GUID */
    if (g != 0) {
      uint32_t owner = fl_u64map_put(&guids, g, n);
      if (owner == FL_MAP_ABSENT)
        rc = FL_ENOMEM;
      own = owner == n;
    }
    ids->guid[n] = own ? g : SYNTH_GUID_BASE + ((uint64_t)n << 8);
  }
  char buf[24];
  for (fl_id n = 0; n < nn && rc == FL_OK; n++) {
    if (!ids->synth[n])
      continue;
    node_id(fab, ids, n, buf, sizeof buf);
    if (fl_strmap_get(&names, buf, strlen(buf)) != FL_MAP_ABSENT) {
      rc = fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "ibsim net file: node %" PRIu32 " needs the "
                        "synthetic id \"%s\", which another node is named",
                        n, buf);
    }
  }
  fl_strmap_free(&names);
  fl_u64map_free(&guids);
  if (rc == FL_ENOMEM)
    fl_error_set(err, FL_ENOMEM, NULL, 0, 0,
                 "out of memory writing an ibsim net file");
  return rc;
}

/**
 * Write @s as comment text: at most @max bytes (cut at a UTF-8 boundary),
 * '"' -> '\'', '=' -> ':', control characters -> ' '.
 */
static void put_comment_text(FILE *out, const char *s, size_t max) {
  size_t len = strlen(s);
  if (len > max) {
    len = max;
    while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
      len--;
  }
  for (size_t i = 0; i < len; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch == '"')
      ch = '\'';
    else if (ch == '=')
      ch = ':';
    else if (ch < 0x20 || ch == 0x7f)
      ch = ' ';
    fputc(ch, out);
  }
}

/** Description as ibsim should report it: the raw one, else the name. */
static const char *node_desc(const fl_fabric *fab, fl_id n) {
  const char *d = fl_fabric_node_desc(fab, n);
  return d && *d ? d : fl_fabric_node_name(fab, n);
}

/** LID of node @n as a link peer: port 0 of a switch, else port @p. */
static uint32_t peer_lid(const fl_fabric *fab, fl_id n, fl_id p) {
  if (fl_fabric_node_kind(fab, n) == FL_NODE_SWITCH)
    p = fl_fabric_find_port(fab, n, 0);
  return p == FL_NONE ? 0 : fl_fabric_port_lid(fab, p);
}

/** Declared port count, raised to the highest port number present. */
static uint32_t node_ports(const fl_fabric *fab, fl_id n) {
  uint32_t np = fl_fabric_node_nports(fab, n);
  uint32_t cnt = fl_fabric_node_port_count(fab, n);
  if (cnt > 0) {
    fl_id last = fl_fabric_node_first_port(fab, n) + cnt - 1;
    uint32_t hi = fl_fabric_port_num(fab, last);
    if (hi > np)
      np = hi;
  }
  return np ? np : 1;
}

/** Only a link that is the sole link of two distinct ports can be written. */
static int writable_link(const fl_fabric *fab, fl_id p, fl_id *link) {
  *link = FL_NONE;
  if (fl_fabric_port_link_count(fab, p) != 1)
    return 0;
  fl_id l = fl_fabric_port_link(fab, p, 0);
  fl_id q = fl_fabric_link_other(fab, l, p);
  if (q == FL_NONE || q == p || fl_fabric_port_link_count(fab, q) != 1)
    return 0;
  *link = l;
  return 1;
}

/** `lid L WxSPEED` from this end's listing of link @l, when IB speed. */
static void put_link_rate(FILE *out, const fl_fabric *fab, fl_id l, fl_id p,
                          uint32_t rlid) {
  int is_a = fl_fabric_link_port(fab, l, 0) == p;
  uint32_t w =
      is_a ? fl_fabric_link_width(fab, l) : fl_fabric_link_width_b(fab, l);
  uint32_t s =
      is_a ? fl_fabric_link_speed(fab, l) : fl_fabric_link_speed_b(fab, l);
  if (w == 0 || s == FL_SPEED_UNKNOWN || s > FL_SPEED_XDR)
    return; /* ibsim then keeps its defaults (and warns) */
  fprintf(out, " lid %" PRIu32 " %" PRIu32 "x%s", rlid, w, fl_speed_name(s));
}

static void write_port(FILE *out, const fl_fabric *fab, const ibsim_ids *ids,
                       fl_id n, fl_id p) {
  uint32_t num = fl_fabric_port_num(fab, p);
  uint32_t nlinks = fl_fabric_port_link_count(fab, p);
  char buf[24];
  fl_id l;
  if (num == 0 || nlinks == 0)
    return;
  if (!writable_link(fab, p, &l)) {
    fprintf(out,
            "# port %" PRIu32 ": cable not expressible in ibsim (an "
            "end with several links, or a loop); left unconnected\n",
            num);
    return;
  }
  fl_id q = fl_fabric_link_other(fab, l, p);
  fl_id peer = fl_fabric_port_node(fab, q);
  fprintf(out, "[%" PRIu32 "]\t\"%s\"[%" PRIu32 "]\t\t#", num,
          node_id(fab, ids, peer, buf, sizeof buf), fl_fabric_port_num(fab, q));
  if (fl_fabric_node_kind(fab, n) != FL_NODE_SWITCH)
    fprintf(out, " lid %" PRIu32 " lmc %" PRIu32, fl_fabric_port_lid(fab, p),
            fl_fabric_port_lmc(fab, p));
  fputs(" \"", out);
  put_comment_text(out, node_desc(fab, peer), IBSIM_DESC_MAX);
  fputc('"', out);
  put_link_rate(out, fab, l, p, peer_lid(fab, peer, q));
  fputc('\n', out);
}

static void write_node(FILE *out, const fl_fabric *fab, const ibsim_ids *ids,
                       fl_id n) {
  uint32_t kind = fl_fabric_node_kind(fab, n);
  const char *word = kind == FL_NODE_SWITCH ? "Switch"
                     : kind == FL_NODE_CA   ? "Ca"
                                            : "Rt";
  const char *gkey = kind == FL_NODE_SWITCH ? "switchguid"
                     : kind == FL_NODE_CA   ? "caguid"
                                            : "rtguid";
  char buf[24];
  fprintf(out, "vendid=0x%" PRIx32 "\ndevid=0x%" PRIx32 "\n",
          fl_fabric_node_vendid(fab, n), fl_fabric_node_devid(fab, n));
  fprintf(out, "sysimgguid=0x%" PRIx64 "\n%s=0x%" PRIx64 "\n",
          fl_fabric_node_sysimgguid(fab, n), gkey, ids->guid[n]);
  fprintf(out, "%s\t%" PRIu32 " \"%s\"\t\t# \"", word, node_ports(fab, n),
          node_id(fab, ids, n, buf, sizeof buf));
  put_comment_text(out, node_desc(fab, n), IBSIM_DESC_MAX);
  fputc('"', out);
  fl_id p0 = kind == FL_NODE_SWITCH ? fl_fabric_find_port(fab, n, 0) : FL_NONE;
  if (p0 != FL_NONE && fl_fabric_port_lid(fab, p0) != 0)
    fprintf(out, " lid %" PRIu32 " lmc %" PRIu32, fl_fabric_port_lid(fab, p0),
            fl_fabric_port_lmc(fab, p0));
  fputc('\n', out);
  fl_id first = fl_fabric_node_first_port(fab, n);
  uint32_t cnt = fl_fabric_node_port_count(fab, n);
  for (uint32_t i = 0; i < cnt; i++)
    write_port(out, fab, ids, n, first + i);
  fputc('\n', out);
}

/** Header: what the file is and the ibsim table sizes it needs. */
static void write_header(FILE *out, const fl_fabric *fab) {
  uint32_t nn = fl_fabric_node_count(fab), ports = 0, max_lid = 0;
  uint32_t nsw = fl_fabric_count_kind(fab, FL_NODE_SWITCH);
  for (fl_id n = 0; n < nn; n++)
    ports += node_ports(fab, n) +
             (fl_fabric_node_kind(fab, n) == FL_NODE_SWITCH ? 1u : 0u);
  for (fl_id p = 0; p < fl_fabric_port_count(fab); p++) {
    uint32_t top =
        fl_fabric_port_lid(fab, p) + (1u << fl_fabric_port_lmc(fab, p)) - 1;
    if (fl_fabric_port_lid(fab, p) && top > max_lid)
      max_lid = top;
  }
  fprintf(out,
          "# ibsim net file written by fabriclint: %" PRIu32 " switches, "
          "%" PRIu32 " CAs, %" PRIu32 " routers, %" PRIu32 " links.\n"
          "# Node ids are node names; ibsim reports the quoted comment "
          "after each\n# header as the NodeDescription.\n"
          "# Simulate with: ibsim -s -N %" PRIu32 " -S %" PRIu32 " -P %" PRIu32,
          nsw, fl_fabric_count_kind(fab, FL_NODE_CA),
          fl_fabric_count_kind(fab, FL_NODE_ROUTER), fl_fabric_link_count(fab),
          nn ? nn : 1, nsw ? nsw : 1, ports ? ports : 1);
  if (max_lid >= IBSIM_LINEARCAP)
    fprintf(out, " -L %" PRIu32, max_lid + 1);
  fputs(" FILE\n", out);
  for (fl_id l = 0; l < fl_fabric_link_count(fab); l++)
    if (fl_fabric_link_speed(fab, l) > FL_SPEED_HDR &&
        fl_fabric_link_speed(fab, l) <= FL_SPEED_XDR) {
      fputs("# Links above HDR: ibsim 0.10 (Debian 12) does not know these "
            "speeds\n# and brings such links up at SDR.\n",
            out);
      break;
    }
  fputc('\n', out);
}

int fl_write_ibsim_net(const fl_fabric *fab, FILE *out, fl_error *err) {
  int rc = fl_wr_ib_ports_check(fab, "an ibsim net file", 1, err);
  if (rc != FL_OK)
    return rc;
  ibsim_ids ids = {0};
  rc = plan_ids(fab, &ids, err);
  if (rc != FL_OK) {
    ids_free(&ids);
    return rc;
  }
  static const uint32_t order[] = {FL_NODE_SWITCH, FL_NODE_CA, FL_NODE_ROUTER};
  uint32_t nn = fl_fabric_node_count(fab);
  write_header(out, fab);
  for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
    for (fl_id n = 0; n < nn; n++)
      if (fl_fabric_node_kind(fab, n) == order[k])
        write_node(out, fab, &ids, n);
  ids_free(&ids);
  if (fflush(out) != 0 || ferror(out))
    return fl_error_set(err, FL_EIO, NULL, 0, 0,
                        "writing the ibsim net file failed");
  return FL_OK;
}
