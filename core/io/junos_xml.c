/* SPDX-License-Identifier: MIT */
/*
 * core/io/junos_xml.c — Junos LLDP neighbours as XML: `show lldp neighbors |
 * display xml` (RPC get-lldp-neighbors-information, brief) and the detail
 * RPCs get-lldp-interface-neighbors[-information], bare or inside a NETCONF
 * <rpc-reply> (any namespace: elements are matched by local name).
 *
 *   <lldp-neighbors-information style="brief">
 *     <lldp-neighbor-information>
 *       <lldp-local-port-id>xe-4/3/6</lldp-local-port-id>
 *       <lldp-remote-chassis-id>00:1c:73:8f:0a:ed</lldp-remote-chassis-id>
 *       <lldp-remote-port-id-subtype>Interface name</...>
 *       <lldp-remote-port-id>Ethernet1</lldp-remote-port-id>
 *       <lldp-remote-port-description>Ethernet1 interface</...>
 *       <lldp-remote-system-name>peer00.lab.demo</lldp-remote-system-name>
 *
 * Quirks handled (napalm test fixtures, docs/formats/junos-xml.md):
 *  - the local port is `lldp-local-interface` when present (detail output,
 *    older releases; a unit suffix `.0` is dropped by the alias layer),
 *    else `lldp-local-port-id`, which in detail output is an SNMP index
 *    (`667`), so a numeric local port id is used only when nothing else is;
 *  - `lldp-remote-port-id` may be missing (older releases) or "Locally
 *    assigned" (`549`): the description names the port then (alias.h);
 *  - `lldp-remote-system-name` may be missing: the chassis id names the
 *    neighbour;
 *  - sibling elements repeat (`lldp-remote-index` x5): only the fields
 *    above are read, each as the direct child of the neighbour record;
 *  - values may end in a space.
 * As with lldpd, the listing never names the local device: the file does
 * (fl_local_name_from_path). LAG membership (`lldp-local-parent-interface-
 * name`) is kept as port attribute `lag`.
 */
#include "io/formats.h"
#include "io/loaders.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/xmlreader.h>

#include "model/alias.h"

enum {
  F_LOCAL_PORT_ID,
  F_LOCAL_IF,
  F_PARENT,
  F_CHASSIS_ID,
  F_PORT_SUBTYPE,
  F_PORT_ID,
  F_PORT_DESCR,
  F_SYS_NAME,
  F_CAPS,
  F_COUNT
};
static const char *const FIELDS[F_COUNT] = {
    "lldp-local-port-id",
    "lldp-local-interface",
    "lldp-local-parent-interface-name",
    "lldp-remote-chassis-id",
    "lldp-remote-port-id-subtype",
    "lldp-remote-port-id",
    "lldp-remote-port-description",
    "lldp-remote-system-name",
    "lldp-remote-system-capabilities-enabled",
};

static int commit(fl_xr *x, fl_nbr *b, const char *local, char **f,
                  uint32_t line) {
  const char *lport = f[F_LOCAL_IF] && *f[F_LOCAL_IF] ? f[F_LOCAL_IF] : NULL;
  if (!lport && f[F_LOCAL_PORT_ID] && *f[F_LOCAL_PORT_ID])
    lport = f[F_LOCAL_PORT_ID];
  if (!lport)
    return fl_error_set(x->err, FL_EPARSE, x->path, line, 0,
                        "<lldp-neighbor-information> without "
                        "<lldp-local-port-id> or <lldp-local-interface>");
  const char *rname =
      f[F_SYS_NAME] && *f[F_SYS_NAME] ? f[F_SYS_NAME] : f[F_CHASSIS_ID];
  if (!rname || !*rname)
    return fl_error_set(x->err, FL_EPARSE, x->path, line, 0,
                        "neighbour on %s has neither <lldp-remote-system-"
                        "name> nor <lldp-remote-chassis-id>",
                        lport);
  const char *rport =
      fl_alias_lldp_port(f[F_PORT_SUBTYPE], f[F_PORT_ID], f[F_PORT_DESCR]);
  if (!rport || !*rport)
    return fl_error_set(x->err, FL_EPARSE, x->path, line, 0,
                        "neighbour %s on %s has neither <lldp-remote-port-id> "
                        "nor <lldp-remote-port-description>",
                        rname, lport);
  uint32_t rkind = 0;
  if (f[F_CAPS]) {
    if (strstr(f[F_CAPS], "Bridge") || strstr(f[F_CAPS], "Router"))
      rkind = FL_NODE_SWITCH;
    else if (strstr(f[F_CAPS], "Station"))
      rkind = FL_NODE_CA;
  }
  fl_prov prov = {fl_nbr_file(b), line, 0};
  fl_id ln = fl_nbr_node(b, local, 0, prov);
  fl_id rn = ln == FL_NONE ? FL_NONE : fl_nbr_node(b, rname, rkind, prov);
  fl_id lp = rn == FL_NONE ? FL_NONE : fl_nbr_port(b, ln, lport, prov);
  fl_id rp = lp == FL_NONE ? FL_NONE : fl_nbr_port(b, rn, rport, prov);
  if (rp == FL_NONE || fl_nbr_link(b, lp, rp, FL_LINK_SEEN_A, prov) == FL_NONE)
    return fl_error_set(x->err, FL_ENOMEM, x->path, 0, 0, "out of memory");
  if (f[F_PARENT] && *f[F_PARENT] && strcmp(f[F_PARENT], "-") != 0 &&
      fl_b_attr(fl_nbr_fabric(b), FL_ENT_PORT, lp, "lag", f[F_PARENT]) != FL_OK)
    return fl_error_set(x->err, FL_ENOMEM, x->path, 0, 0, "out of memory");
  return FL_OK;
}

int fl_load_junos_xml(fl_fabric *fab, const fl_input *in,
                      const fl_load_options *opts, fl_error *err) {
  const char *path = in->path;
  (void)opts;
  fl_xr x;
  int rc = fl_xr_open(&x, in, err);
  if (rc != FL_OK) {
    fl_xr_close(&x);
    return rc;
  }
  char local[FL_ALIAS_MAX];
  fl_local_name_from_path(path, local, sizeof local);
  fl_nbr *b = fl_nbr_begin(fab, path);
  if (!b) {
    fl_xr_close(&x);
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  }
  char *f[F_COUNT] = {0};
  int list_depth = -1, rec_depth = -1, r;
  uint32_t rec_line = 0;
  while ((r = fl_xr_next(&x)) == 1) {
    int type = fl_xr_type(&x), depth = fl_xr_depth(&x);
    const char *name = fl_xr_name(&x);
    if (type == XML_READER_TYPE_END_ELEMENT) {
      if (depth == rec_depth &&
          strcmp(name, "lldp-neighbor-information") == 0) {
        if ((rc = commit(&x, b, local, f, rec_line)) != FL_OK)
          break;
        for (int i = 0; i < F_COUNT; i++) {
          free(f[i]);
          f[i] = NULL;
        }
        rec_depth = -1;
      }
      continue;
    }
    if (type != XML_READER_TYPE_ELEMENT)
      continue;
    if (depth == 0 && strcmp(name, "rpc-reply") != 0 &&
        strcmp(name, "lldp-neighbors-information") != 0) {
      rc = fl_xr_fail(&x,
                      "root element <%s>; expected <lldp-neighbors-"
                      "information> or <rpc-reply>",
                      name);
      break;
    }
    if (strcmp(name, "lldp-neighbors-information") == 0 && list_depth < 0) {
      list_depth = depth;
      continue;
    }
    if (list_depth >= 0 && depth == list_depth + 1 &&
        strcmp(name, "lldp-neighbor-information") == 0) {
      rec_depth = depth;
      rec_line = fl_xr_line(&x);
      if (fl_xr_empty(&x)) {
        rc = fl_xr_fail(&x, "empty <lldp-neighbor-information>");
        break;
      }
      continue;
    }
    if (rec_depth >= 0 && depth == rec_depth + 1) {
      for (int i = 0; i < F_COUNT; i++)
        if (strcmp(name, FIELDS[i]) == 0 && !f[i]) {
          f[i] = fl_xr_text(&x);
          if (!f[i])
            rc = fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
          break;
        }
      if (rc != FL_OK)
        break;
    }
  }
  if (r < 0)
    rc = r;
  if (rc == FL_OK && list_depth < 0)
    rc = fl_error_set(err, FL_EPARSE, path, 1, 0,
                      "no <lldp-neighbors-information> element; expected "
                      "`show lldp neighbors | display xml` output");
  for (int i = 0; i < F_COUNT; i++)
    free(f[i]);
  fl_nbr_end(b);
  fl_xr_close(&x);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

/* <lldp-neighbors-information>, or an <rpc-reply> holding one. */
static uint32_t detect_junos_xml(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  const char *r = c->xml_root;
  if (!r)
    return FL_FMT_AUTO;
  if (strcmp(r, "lldp-neighbors-information") == 0 ||
      ((strcmp(r, "rpc-reply") == 0 || strstr(r, ":rpc-reply")) &&
       strstr(c->text, "lldp-neighbors-information")))
    return FL_FMT_JUNOS_XML;
  return FL_FMT_AUTO;
}

const fl_format_def fl_fmt_junos_xml = {
    FL_FMT_JUNOS_XML,
    "junos-xml",
    NULL,
    FL_FORMAT_TOPOLOGY | FL_FORMAT_XML,
    fl_load_junos_xml,
    detect_junos_xml,
    "<lldp-neighbors-information> Junos LLDP XML"};
