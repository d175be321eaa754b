/* SPDX-License-Identifier: MIT */
/*
 * core/io/cisco_plan.c — Cisco cable plan XML (NX-OS DFA cable management,
 * schema nxos-cable-plan-schema.xsd; read and written by the acitoolkit
 * `cableplan` application, applications/cableplan/cableplan.py and
 * docs/cable.rst; docs/formats/cisco-plan.md):
 *
 *   <CISCO_NETWORK_TYPES xmlns="http://www.cisco.com/cableplan/Schema2" ...>
 *    <DATA_CENTER networkLocation="san-jose" idFormat="hostname">
 *     <CHASSIS_INFO sourceChassis="spine1" type="n9k">
 *      <LINK_INFO sourcePort="eth2/35" destChassis="leaf1" destPort="eth1/50"/>
 *      <LINK_INFO sourcePort="eth1/1-eth1/15, eth1/20" destChassis="leaf2"
 *                 minPorts="2" maxPorts="4"/>
 *
 * Semantics (acitoolkit CpLink): a port attribute may be absent (any port
 * of that chassis), one port, or a set (comma-separated ports and ranges
 * `eth1/1-eth1/15` or `eth1/1-15`). minPorts defaults to 1 and maxPorts to
 * unlimited; the plan is met when between the two chassis, on ports of the
 * sets, there are at least minPorts and at most maxPorts cables.
 *
 * Model: a LINK_INFO with one port on each side and no count beyond 1 is a
 * plain planned cable (FL_LINK_DECLARED). Anything else is a *constraint*:
 * a link between two stand-in ports (labelled by the port set, or "any"),
 * carrying the attributes `plan-min`, `plan-max` (absent = unlimited),
 * `plan-a-ports`, `plan-b-ports` (the sets as written; absent = any), which
 * `fabriclint diff` counts against the as-built cables
 * (core/diff/diff_classify.c). `destPortSet`, which cable_plan2.xml uses, is
 * not in the schema and the toolkit ignores it, so it is ignored too (the link
 * means any port) and a note says so. Element names are matched by local name,
 * any namespace.
 */
#include "io/formats.h"
#include "io/loaders.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlreader.h>

#include "model/alias.h"

/* The one limit on a port set (sourcePort, destPort): 4096 ports in all,
 * documented in docs/formats/cisco-plan.md. The loader only counts
 * (no expansion buffer); fl_plan_ports_expand() callers size their buffer
 * with fl_plan_ports_size(). */
#define PLAN_MAX_PORTS 4096

/* Largest port number in a range. */
#define PLAN_MAX_PORT_NUM 65535u

/* Split canonical port @c into prefix and trailing decimal number (at most
 * PLAN_MAX_PORT_NUM). 0 when it does not end in one (outputs then 0). */
static int split_last_num(const char *c, size_t *plen, unsigned *num) {
  size_t n = strlen(c), i = n;
  *plen = 0;
  *num = 0;
  while (i > 0 && isdigit((unsigned char)c[i - 1]))
    i--;
  if (i == n)
    return 0;
  unsigned long v = 0;
  for (size_t k = i; k < n; k++) {
    v = v * 10 + (unsigned long)(c[k] - '0');
    if (v > PLAN_MAX_PORT_NUM)
      return -1;
  }
  *plen = i;
  *num = (unsigned)v;
  return 1;
}

static int emit(char *out, size_t size, size_t *used, const char *s) {
  size_t n = strlen(s);
  if (!out) { /* counting only */
    *used += n + 1;
    return 0;
  }
  if (*used + n + 2 > size)
    return -1;
  memcpy(out + *used, s, n + 1);
  *used += n + 1;
  out[*used] = '\0';
  return 0;
}

static const char RANGE_EXPECTED[] =
    "expected a port (eth1/1), a range of ports with the same prefix and "
    "numbers up to 65535 (eth1/1-eth1/15 or eth1/1-15), or a "
    "comma-separated list of them (4096 ports at most in one port set)";

/* Is it[i] a range separator: '-' after a digit, before a letter or digit
 * (`eth1/1-eth1/3`, `eth1/1 - 3`; not the media '-' of Junos `xe-0/0/1`).
 */
static int range_dash(const char *it, size_t len, size_t i) {
  if (it[i] != '-')
    return 0;
  size_t p = i, n = i + 1;
  while (p > 0 && it[p - 1] == ' ')
    p--;
  while (n < len && it[n] == ' ')
    n++;
  return p > 0 && isdigit((unsigned char)it[p - 1]) && n < len &&
         isalnum((unsigned char)it[n]);
}

/* One item: a port or a range. Returns ports added or -1 with *@why. */
static int expand_item(const char *it, size_t len, char *out, size_t size,
                       size_t *used, int total, const char **why) {
  char canon[FL_ALIAS_MAX], lo[FL_ALIAS_MAX], hi[FL_ALIAS_MAX];
  if (len >= sizeof canon) { /* never cut (issue #32 case 2) */
    *why = "a port longer than 255 bytes";
    return -1;
  }
  if (it[0] == '-' || it[len - 1] == '-') {
    *why = it[0] == '-' ? "a range without its first port"
                        : "a range without its last port";
    return -1;
  }
  size_t dash = 0, ndash = 0;
  for (size_t i = 1; i + 1 < len; i++)
    if (range_dash(it, len, i)) {
      if (!ndash++)
        dash = i;
    }
  if (ndash > 1) {
    *why = "more than one range separator '-' in one item";
    return -1;
  }
  if (ndash == 1) {
    fl_alias_port(it, dash, lo, sizeof lo);
    fl_alias_port(it + dash + 1, len - dash - 1, hi, sizeof hi);
    size_t pl = 0, ph = 0;
    unsigned a = 0, b = 0;
    int rl = split_last_num(lo, &pl, &a);
    int rh = split_last_num(hi, &ph, &b);
    if (rl < 0 || rh < 0) {
      *why = "a port number out of range (allowed 0..65535)";
      return -1;
    }
    if (rl == 0 || rh == 0) {
      *why = "a range whose ends are not numbered ports";
      return -1;
    }
    if (ph != 0 && (ph != pl || memcmp(lo, hi, pl) != 0)) {
      *why = "a range whose two ends have different prefixes";
      return -1;
    }
    if (b < a) {
      *why = "a range whose last port is below its first";
      return -1;
    }
    if ((unsigned long)(b - a) + 1 + (unsigned long)total > PLAN_MAX_PORTS) {
      *why = "more than 4096 ports in one port set";
      return -1;
    }
    for (unsigned k = a; k <= b; k++) {
      snprintf(canon, sizeof canon, "%.*s%u", (int)pl, lo, k);
      if (emit(out, size, used, canon) != 0) {
        *why = "more ports than a plan line may list";
        return -1;
      }
    }
    return (int)(b - a + 1);
  }
  fl_alias_port(it, len, canon, sizeof canon);
  if (!*canon) {
    *why = "an empty port";
    return -1;
  }
  if (total + 1 > PLAN_MAX_PORTS) {
    *why = "more than 4096 ports in one port set";
    return -1;
  }
  if (emit(out, size, used, canon) != 0) {
    *why = "more ports than a plan line may list";
    return -1;
  }
  return 1;
}

/* fl_plan_ports_expand() with the reason of a failure in *@why and the
 * bytes written (or, with @out NULL, needed) before the last NUL in *@nb. */
static int ports_expand_n(const char *set, char *out, size_t size,
                          const char **why, size_t *nb) {
  size_t used = 0;
  int total = 0;
  *nb = 0;
  *why = "an empty port set";
  if (out && size < 2)
    return -1;
  if (out)
    out[0] = out[1] = '\0';
  const char *s = set;
  while (*s) {
    const char *e = strchr(s, ',');
    if (!e)
      e = s + strlen(s);
    const char *a = s, *z = e;
    while (a < z && isspace((unsigned char)*a))
      a++;
    while (z > a && isspace((unsigned char)z[-1]))
      z--;
    if (z == a) {
      *why = "an empty item in a comma-separated list";
      return -1;
    }
    int k = expand_item(a, (size_t)(z - a), out, size, &used, total, why);
    if (k < 0)
      return -1;
    total += k;
    s = *e ? e + 1 : e;
  }
  *nb = used;
  return total ? total : -1;
}

static int ports_expand(const char *set, char *out, size_t size,
                        const char **why) {
  size_t nb;
  return ports_expand_n(set, out, size, why, &nb);
}

int fl_plan_ports_expand(const char *set, char *out, size_t size) {
  const char *why;
  return ports_expand(set, out, size, &why);
}

long fl_plan_ports_size(const char *set, const char **why) {
  const char *w;
  size_t nb;
  if (ports_expand_n(set, NULL, 0, why ? why : &w, &nb) < 0)
    return -1;
  return (long)nb + 2;
}

/* printf arguments for "%.*s%s": attribute value @v quoted up to 60
 * bytes, then "...": a huge value neither fills the message nor is cut
 * without saying so. */
#define VQ_MAX 60
#define VQ(v)                                                                  \
  (int)(strlen(v) > VQ_MAX ? VQ_MAX : strlen(v)), (v),                         \
      (strlen(v) > VQ_MAX ? "..." : "")

static int parse_count(fl_xr *x, const char *attr, const char *v, long *out) {
  char *end;
  long n = strtol(v, &end, 10);
  if (end == v || *end || n < 0 || n > 100000)
    return fl_xr_fail(x,
                      "%s='%.*s%s' is not a count; expected a whole number "
                      "0..100000",
                      attr, VQ(v));
  *out = n;
  return FL_OK;
}

/* The port of @node that end @set (a port set as written, or NULL/"" for
 * any port) of a LINK_INFO stands on: the port itself when @n == 1, else a
 * stand-in of this constraint only (labelled @set or "any"), so two
 * constraints toward one chassis never share a port and never look like two
 * cables in one port (issue 30, F2: cable_plan2.xml's two "any port" links
 * to Leaf3). The stand-in is keyed by the link about to be made. */
static fl_id end_port(fl_nbr *b, fl_id node, const char *set, int n,
                      fl_prov prov) {
  if (n == 1)
    return fl_nbr_port(b, node, set, prov);
  const char *label = set && *set ? set : "any";
  char key[96];
  snprintf(key, sizeof key, "stand-in %u",
           fl_fabric_link_count(fl_nbr_fabric(b)));
  fl_id p = fl_nbr_port(b, node, key, prov);
  if (p != FL_NONE)
    fl_b_port_set_label(fl_nbr_fabric(b), p, label, (size_t)-1);
  return p;
}

/* One LINK_INFO of chassis @src. */
static int link_info(fl_xr *x, fl_nbr *b, const char *src) {
  char *sp = fl_xr_attr(x, "sourcePort"), *dc = fl_xr_attr(x, "destChassis"),
       *dp = fl_xr_attr(x, "destPort"), *mn = fl_xr_attr(x, "minPorts"),
       *mx = fl_xr_attr(x, "maxPorts"), *dset = fl_xr_attr(x, "destPortSet");
  int rc = FL_OK;
  long min = 1, max = -1;
  int na = -1, nb = -1;
  fl_prov prov = {fl_nbr_file(b), fl_xr_line(x), 0};
  fl_fabric *fab = fl_nbr_fabric(b);
  if (!dc || !*dc) {
    rc = fl_xr_fail(x, "<LINK_INFO> without destChassis; expected "
                       "destChassis=\"NAME\"");
    goto out;
  }
  if (mn && *mn && (rc = parse_count(x, "minPorts", mn, &min)) != FL_OK)
    goto out;
  if (mx && *mx && (rc = parse_count(x, "maxPorts", mx, &max)) != FL_OK)
    goto out;
  if (max >= 0 && min > max) {
    rc = fl_xr_fail(x, "minPorts=%ld is above maxPorts=%ld", min, max);
    goto out;
  }
  const char *why = NULL;
  if (sp && *sp && (na = ports_expand(sp, NULL, 0, &why)) < 0) {
    rc = fl_xr_fail(x, "sourcePort='%.*s%s': %s; %s", VQ(sp), why,
                    RANGE_EXPECTED);
    goto out;
  }
  if (dp && *dp && (nb = ports_expand(dp, NULL, 0, &why)) < 0) {
    rc =
        fl_xr_fail(x, "destPort='%.*s%s': %s; %s", VQ(dp), why, RANGE_EXPECTED);
    goto out;
  }
  if (dset)
    fl_b_note(fab, "topology", prov,
              "destPortSet='%s' is not part of the cable plan schema and is "
              "ignored (as acitoolkit does): the link may use any port of %s",
              dset, dc);
  fl_id sn = fl_nbr_node(b, src, FL_NODE_SWITCH, prov);
  fl_id dn = sn == FL_NONE ? FL_NONE : fl_nbr_node(b, dc, FL_NODE_SWITCH, prov);
  /* a destChassis is only a name: the plan does not say what kind of
   * device it is (a host NIC's chassis is written like a switch). A node
   * that is also a sourceChassis has a `model` (CHASSIS_INFO type) and is
   * a switch; `fabriclint diff` compares the kind of no other. */
  if (dn == FL_NONE ||
      fl_b_attr(fab, FL_ENT_NODE, dn, "kind-from", "cable-plan") != FL_OK)
    goto nomem;
  int plain = na == 1 && nb == 1 && min <= 1 && (max < 0 || max >= 1);
  fl_id pa = end_port(b, sn, sp, na, prov);
  fl_id pb = pa == FL_NONE ? FL_NONE : end_port(b, dn, dp, nb, prov);
  if (pb == FL_NONE)
    goto nomem;
  if (plain) {
    if (fl_nbr_link(b, pa, pb, FL_LINK_DECLARED, prov) == FL_NONE)
      goto nomem;
    goto out;
  }
  /* a constraint: a new link every time (never merged) */
  fl_id l = fl_b_link(fab, pa, pb, 0, 0, FL_LINK_DECLARED, prov);
  char num[32];
  snprintf(num, sizeof num, "%ld", min);
  if (l == FL_NONE || fl_b_attr(fab, FL_ENT_LINK, l, "plan-min", num) != FL_OK)
    goto nomem;
  snprintf(num, sizeof num, "%ld", max);
  if (max >= 0 && fl_b_attr(fab, FL_ENT_LINK, l, "plan-max", num) != FL_OK)
    goto nomem;
  if (sp && *sp && fl_b_attr(fab, FL_ENT_LINK, l, "plan-a-ports", sp) != FL_OK)
    goto nomem;
  if (dp && *dp && fl_b_attr(fab, FL_ENT_LINK, l, "plan-b-ports", dp) != FL_OK)
    goto nomem;
  goto out;
nomem:
  rc = fl_error_set(x->err, FL_ENOMEM, x->path, 0, 0, "out of memory");
out:
  free(sp);
  free(dc);
  free(dp);
  free(mn);
  free(mx);
  free(dset);
  return rc;
}

int fl_load_cisco_plan(fl_fabric *fab, const fl_input *in,
                       const fl_load_options *opts, fl_error *err) {
  const char *path = in->path;
  (void)opts;
  fl_xr x;
  int rc = fl_xr_open(&x, in, err);
  if (rc != FL_OK) {
    fl_xr_close(&x);
    return rc;
  }
  fl_nbr *b = fl_nbr_begin(fab, path);
  if (!b) {
    fl_xr_close(&x);
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  }
  fl_nbr_declared(b);
  char *chassis = NULL;
  int chassis_depth = -1, r, seen_root = 0;
  while ((r = fl_xr_next(&x)) == 1) {
    int type = fl_xr_type(&x), depth = fl_xr_depth(&x);
    const char *name = fl_xr_name(&x);
    if (type == XML_READER_TYPE_END_ELEMENT) {
      if (depth == chassis_depth) {
        free(chassis);
        chassis = NULL;
        chassis_depth = -1;
      }
      continue;
    }
    if (type != XML_READER_TYPE_ELEMENT)
      continue;
    if (depth == 0) {
      if (strcmp(name, "CISCO_NETWORK_TYPES") != 0) {
        rc = fl_xr_fail(&x, "root element <%s>; expected <CISCO_NETWORK_TYPES>",
                        name);
        break;
      }
      seen_root = 1;
    } else if (strcmp(name, "CHASSIS_INFO") == 0) {
      free(chassis);
      chassis = fl_xr_attr(&x, "sourceChassis");
      if (!chassis || !*chassis) {
        rc = fl_xr_fail(&x, "<CHASSIS_INFO> without sourceChassis; expected "
                            "sourceChassis=\"NAME\"");
        break;
      }
      fl_prov prov = {fl_nbr_file(b), fl_xr_line(&x), 0};
      fl_id n = fl_nbr_node(b, chassis, FL_NODE_SWITCH, prov);
      char *t = fl_xr_attr(&x, "type");
      if (n == FL_NONE ||
          (t && *t && fl_b_attr(fab, FL_ENT_NODE, n, "model", t) != FL_OK)) {
        free(t);
        rc = fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
        break;
      }
      free(t);
      chassis_depth = fl_xr_empty(&x) ? -1 : depth;
    } else if (strcmp(name, "LINK_INFO") == 0) {
      if (!chassis) {
        rc = fl_xr_fail(&x, "<LINK_INFO> outside <CHASSIS_INFO>");
        break;
      }
      if ((rc = link_info(&x, b, chassis)) != FL_OK)
        break;
    }
  }
  if (r < 0)
    rc = r;
  if (rc == FL_OK && !seen_root)
    rc = fl_error_set(err, FL_EPARSE, path, 1, 0,
                      "no <CISCO_NETWORK_TYPES> element");
  free(chassis);
  fl_nbr_end(b);
  fl_xr_close(&x);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

static uint32_t detect_cisco_plan(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  return c->xml_root && (strcmp(c->xml_root, "CISCO_NETWORK_TYPES") == 0 ||
                         strstr(c->xml_root, ":CISCO_NETWORK_TYPES"))
             ? FL_FMT_CISCO_PLAN
             : FL_FMT_AUTO;
}

const fl_format_def fl_fmt_cisco_plan = {
    FL_FMT_CISCO_PLAN,
    "cisco-plan",
    NULL,
    FL_FORMAT_TOPOLOGY | FL_FORMAT_XML,
    fl_load_cisco_plan,
    detect_cisco_plan,
    "<CISCO_NETWORK_TYPES> Cisco cable plan"};
