/* SPDX-License-Identifier: MIT */
/*
 * core/io/ndt_write.c — fl_write_ufm_ndt(): a fabric's cables as a UFM
 * Network Design Tool plan (docs/formats/ufm-ndt.md, "Writing").
 *
 * Why: UFM's NDT plugin validates cabling against an NDT plan; an
 * architect whose plan is design XML (or whose reference is a dump of a
 * known-good fabric) needs that plan in UFM's spelling. The spelling is the
 * one UFM's own converter writes (Mellanox/ufm_sdk_3.0
 * plugins/UFM_NDT_Plugin/ibnetdiscover-to-ndt.py): the header
 * `#StartDevice,StartPort,EndDevice,EndPort,LinkType`, switch ports
 * `Port N`, director front-panel ports `Blade BB_Port U/P` on the chassis
 * name, host rows `HOST,HOST IFACE,SWITCH,Port N`; a switch described
 * `MF0;<name>:<model>/...` is called <name>, as UFM's converter does. UFM
 * writes two files (switch-to-switch, switch-to-host); one file holds both
 * here, switch rows first, which the reader (core/io/ufm_ndt.c) and UFM's
 * DictReader take alike.
 *
 * What NDT cannot say is refused, never written wrong: a host port in NDT
 * is `<device> <interface>` with no port number (UFM's reader and ours take
 * HCA port 1), so an unlabelled CA port other than 1, or a CA name without
 * a blank to split into device and interface, is FL_EINVAL naming the
 * node. A labelled CA port (an Ethernet host's NIC, `eth0`) is written
 * `<host> <label>`, which reads back as a per-NIC node that `diff` matches
 * to the labelled port (docs/architecture.md, "One host model").
 * Cables inside a director chassis (leaf ASIC to spine ASIC) are no plan
 * row and are left out. Widths and speeds have no NDT column.
 *
 * Cells are RFC 4180 CSV, written by fl_wr_csv_cell() (io/write_common.h):
 * quoted when they hold a comma, a quote, a CR or LF, or blanks at either
 * end. Deterministic: rows in link id order within each group.
 * Cost O(links).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/write.h"
#include "io/write_common.h"
#include "model/alias.h"
#include "model/chassis.h"
#include "model/hashmap.h"

#define NDT_CELL 512

/** One cable end as NDT says it. */
typedef struct ndt_end {
  char dev[NDT_CELL];
  char port[NDT_CELL];
} ndt_end;

/* Copy at most @size - 1 bytes of @s (names are far shorter than a cell). */
static void set(char *dst, size_t size, const char *s) {
  snprintf(dst, size, "%s", s);
}

/** A CA end. A labelled port (a host's NIC `eth0`): device = the node
 * name, port = `<name> <label>`. Else HCA port 1: device = the system when
 * the name starts with it and a blank, else the text before the first
 * blank; port = the whole name. */
static int ca_end(const fl_fabric *fab, fl_id n, fl_id p, ndt_end *e,
                  fl_error *err) {
  const char *name = fl_fabric_node_name(fab, n);
  const char *sys = fl_fabric_node_system(fab, n);
  uint32_t num = fl_fabric_port_num(fab, p);
  const char *label = fl_fabric_port_label(fab, p);
  if (label[0] && label[0] != ' ' && label[strlen(label) - 1] != ' ') {
    /* a host with labelled NICs (an LLDP chassis: eth0, eth1) */
    set(e->dev, sizeof e->dev, name);
    snprintf(e->port, sizeof e->port, "%s %s", name, label);
    return FL_OK;
  }
  if (num != 1)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "NDT cannot name port %" PRIu32 " of \"%s\": a host "
                        "port is `<host> <interface>`, which UFM (and "
                        "fabriclint) read as HCA port 1",
                        num, name);
  size_t h = fl_wr_host_split(name, sys);
  if (!h)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "NDT cannot name the host \"%s\": a host port is "
                        "`<host> <interface>`, and this name has no blank "
                        "between a host and an interface",
                        name);
  snprintf(e->dev, sizeof e->dev, "%.*s", (int)h, name);
  set(e->port, sizeof e->port, name);
  return FL_OK;
}

/* 1 when port label @label ends in the decimal number @num (`swp1`,
 * `Port 1`, `1`): the same port as NDT's `Port N`. */
static int label_is_number(const char *label, uint32_t num) {
  size_t len = strlen(label), i = len;
  while (i > 0 && label[i - 1] >= '0' && label[i - 1] <= '9')
    i--;
  if (i == len || len - i > 10)
    return 0;
  /* a number after a slash is a module's port (`Ethernet1/5`): not N */
  if (i > 0 && label[i - 1] == '/')
    return 0;
  return strtoul(label + i, NULL, 10) == num;
}

/** Port @p as NDT names it (device and port cells). */
static int end_of(const fl_fabric *fab, fl_id p, ndt_end *e, fl_error *err) {
  fl_id n = fl_fabric_port_node(fab, p);
  uint32_t num = fl_fabric_port_num(fab, p);
  const char *label = fl_fabric_port_label(fab, p);
  uint32_t b, u, pp;
  if (fl_fabric_node_kind(fab, n) != FL_NODE_SWITCH)
    return ca_end(fab, n, p, e, err);
  uint32_t c = fl_fabric_node_chassis(fab, n);
  if (c != FL_NONE &&
      fl_fabric_port_panel_name(fab, p, e->port, sizeof e->port) > 0) {
    set(e->dev, sizeof e->dev, fl_fabric_chassis_name(fab, c));
    return FL_OK;
  }
  fl_wr_switch_name(fl_fabric_node_name(fab, n), e->dev, sizeof e->dev);
  if (label[0] && fl_panel_parse(label, strlen(label), &b, &u, &pp) == 0) {
    fl_panel_format(e->port, sizeof e->port, b, u, pp);
    return FL_OK;
  }
  if (num == 0)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "NDT cannot name port 0 of switch \"%s\" (a cable "
                        "on the management port)",
                        e->dev);
  snprintf(e->port, sizeof e->port, "Port %" PRIu32, num);
  /* a port named otherwise (an Ethernet front-panel name): NDT switch
   * ports are `Port N` only. `swp1` as `Port 1` names the same cage; but
   * `etp17a` (a split port) or `et-0/0/48` as "Port 1" would send an
   * installer to another cage than the plan's: refused, never written
   * wrong. A label whose last number is N (and ends there) is that port. */
  if (label[0] && !label_is_number(label, num))
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "NDT cannot name port \"%s\" of switch \"%s\": NDT "
                        "switch ports are `Port N` (InfiniBand); write design "
                        "XML, DOT or GraphML to keep the port names",
                        label, e->dev);
  return FL_OK;
}

static void put_row(FILE *out, const ndt_end *a, const ndt_end *b,
                    const char *type, const char *len, int with_len) {
  fl_wr_csv_cell(out, a->dev);
  fputc(',', out);
  fl_wr_csv_cell(out, a->port);
  fputc(',', out);
  fl_wr_csv_cell(out, b->dev);
  fputc(',', out);
  fl_wr_csv_cell(out, b->port);
  fputc(',', out);
  fl_wr_csv_cell(out, type);
  if (with_len) {
    fputc(',', out);
    fl_wr_csv_cell(out, len ? len : "");
  }
  fputc('\n', out);
}

/* The cell that identifies the node of end @e when read back: a switch is
 * its device cell (a chassis's ASICs share theirs and are told apart by
 * the port), a host port its port cell (the reader makes one node of
 * each). NULL for a chassis port. */
static const char *identity(const fl_fabric *fab, fl_id p, const ndt_end *e) {
  fl_id n = fl_fabric_port_node(fab, p);
  if (fl_fabric_node_kind(fab, n) != FL_NODE_SWITCH)
    return e->port;
  return fl_fabric_node_chassis(fab, n) == FL_NONE ? e->dev : NULL;
}

/* Two nodes written with cells the reader takes for one device (names
 * equal once cleaned of control characters, or once compared as the alias
 * layer does: case, blanks) would merge when read back (issue #32 case
 * 17): refused, naming both. Also a name too long for a cell (the reader
 * takes 511 bytes). */
static int check_end(const fl_fabric *fab, fl_id p, const ndt_end *e,
                     fl_strmap *seen, fl_error *err) {
  fl_id n = fl_fabric_port_node(fab, p);
  const char *id = identity(fab, p, e);
  if (!id)
    return FL_OK;
  size_t len = strlen(id);
  if (len + 1 >= NDT_CELL)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "NDT cannot name \"%.60s...\" (%zu bytes): a cell "
                        "holds at most %d bytes",
                        fl_fabric_node_name(fab, n),
                        strlen(fl_fabric_node_name(fab, n)), NDT_CELL - 2);
  char canon[NDT_CELL];
  size_t k = fl_alias_node_full(id, len, canon, sizeof canon);
  uint32_t had = fl_strmap_put(seen, canon, k, n);
  if (had == FL_MAP_ABSENT)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  if (had == n)
    return FL_OK;
  const char *na = fl_fabric_node_name(fab, had),
             *nb = fl_fabric_node_name(fab, n);
  if (strcmp(na, nb) == 0)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "NDT cannot tell apart two nodes called \"%s\" "
                        "(names the input spells differently can be one "
                        "once control characters are cleaned): a reader "
                        "takes them for one device; rename one",
                        na);
  return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                      "NDT cannot tell \"%s\" and \"%s\" apart: both are "
                      "written \"%s\", which a reader takes for one device "
                      "(names compare without case); rename one",
                      na, nb, id);
}

static int check_names(const fl_fabric *fab, fl_error *err) {
  fl_strmap seen = {0};
  ndt_end e;
  int rc = FL_OK;
  for (fl_id l = 0; l < fl_fabric_link_count(fab) && rc == FL_OK; l++) {
    if (fl_fabric_link_internal(fab, l))
      continue;
    for (int k = 0; k < 2 && rc == FL_OK; k++) {
      fl_id p = fl_fabric_link_port(fab, l, k);
      if (p != FL_NONE && (rc = end_of(fab, p, &e, err)) == FL_OK)
        rc = check_end(fab, p, &e, &seen, err);
    }
  }
  fl_strmap_free(&seen);
  return rc;
}

/* Write the rows of group @hosts (0: switch-to-switch, 1: with a CA end). */
static int put_rows(const fl_fabric *fab, FILE *out, int hosts, int with_len,
                    fl_error *err) {
  ndt_end ea, eb;
  for (fl_id l = 0; l < fl_fabric_link_count(fab); l++) {
    fl_id pa = fl_fabric_link_port(fab, l, 0);
    fl_id pb = fl_fabric_link_port(fab, l, 1);
    if (pa == FL_NONE || pb == FL_NONE || fl_fabric_link_internal(fab, l))
      continue;
    int ca = fl_fabric_node_kind(fab, fl_fabric_port_node(fab, pa)) !=
             FL_NODE_SWITCH;
    int cb = fl_fabric_node_kind(fab, fl_fabric_port_node(fab, pb)) !=
             FL_NODE_SWITCH;
    if ((ca || cb) != hosts)
      continue;
    if (cb && !ca) { /* the host end first, as UFM's host file */
      fl_id t = pa;
      pa = pb;
      pb = t;
    }
    int rc = end_of(fab, pa, &ea, err);
    if (rc == FL_OK)
      rc = end_of(fab, pb, &eb, err);
    if (rc != FL_OK)
      return rc;
    const char *type = fl_fabric_attr(fab, FL_ENT_LINK, l, "link-type");
    put_row(out, &ea, &eb, type && *type ? type : "Data",
            fl_fabric_attr(fab, FL_ENT_LINK, l, "length"), with_len);
  }
  return FL_OK;
}

int fl_write_ufm_ndt(const fl_fabric *fab, FILE *out, fl_error *err) {
  int with_len = 0;
  for (fl_id l = 0; l < fl_fabric_link_count(fab) && !with_len; l++)
    with_len = fl_fabric_attr(fab, FL_ENT_LINK, l, "length") != NULL;
  int rc = check_names(fab, err);
  if (rc != FL_OK)
    return rc;
  fputs("#StartDevice,StartPort,EndDevice,EndPort,LinkType", out);
  fputs(with_len ? ",Cable Length\n" : "\n", out);
  rc = put_rows(fab, out, 0, with_len, err);
  if (rc == FL_OK)
    rc = put_rows(fab, out, 1, with_len, err);
  if (rc != FL_OK)
    return rc;
  if (fflush(out) != 0 || ferror(out))
    return fl_error_set(err, FL_EIO, NULL, 0, 0,
                        "writing the UFM NDT plan failed");
  return FL_OK;
}
