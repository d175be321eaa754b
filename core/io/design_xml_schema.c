/* SPDX-License-Identifier: MIT */
/*
 * core/io/design_xml_schema.c — the rules of schema/design.rng the design
 * XML loader checks itself: the vocabulary (each element's attributes,
 * their value types, the names of widths, speeds, media and node kinds;
 * the tables mirror the schema one to one) and the check of one attribute
 * value against its type, also offered to design edits through
 * fl_design_attr_check() (design_xml.h). Why built in rather than libxml2's
 * RELAX NG: design_xml.c's opening comment.
 */
#include "io/design_xml.h"
#include "io/design_xml_impl.h"

#include <stdlib.h>
#include <string.h>

/* ---- the vocabulary: mirrors schema/design.rng ------------------------- */

const aspec fabric_attrs[FA_N] = {
    [FA_VERSION] = {"version", T_VERSION, 0},
    [FA_NAME] = {"name", T_NONEMPTY, 0},
    [FA_DESC] = {"description", T_ANY, 0},
};

const aspec node_attrs[NA_N] = {
    [NA_KIND] = {"kind", T_KIND, F_REQ},
    [NA_NAME] = {"name", T_NONEMPTY, F_REQ},
    [NA_GUID] = {"guid", T_GUID, 0},
    [NA_SYSIMG] = {"sysimgguid", T_GUID, 0},
    [NA_VENDID] = {"vendid", T_HEX24, 0},
    [NA_DEVID] = {"devid", T_HEX32, 0},
    [NA_PORTS] = {"ports", T_U16, 0},
    [NA_DESC] = {"desc", T_ANY, 0},
    [NA_SYSTEM] = {"system", T_NONEMPTY, 0},
    [NA_DEVICE] = {"device", T_NONEMPTY, 0},
    [NA_TIER] = {"tier", T_U8, F_DESIGN},
    [NA_RAIL] = {"rail", T_NONEMPTY, F_DESIGN},
    [NA_SU] = {"su", T_NONEMPTY, F_DESIGN},
    [NA_POD] = {"pod", T_NONEMPTY, F_DESIGN},
    [NA_PLANE] = {"plane", T_NONEMPTY, F_DESIGN},
    [NA_RACK] = {"rack", T_NONEMPTY, F_DESIGN},
    [NA_ROW] = {"row", T_NONEMPTY, F_DESIGN},
    [NA_HALL] = {"hall", T_NONEMPTY, F_DESIGN},
    [NA_PDU] = {"pdu", T_NONEMPTY, F_DESIGN},
    [NA_FEED] = {"power-feed", T_NONEMPTY, F_DESIGN},
    [NA_U] = {"u", T_RACKU, F_DESIGN},
    [NA_AR] = {"ar", T_BOOL, F_DESIGN},
    [NA_ROLE] = {"role", T_ROLE, F_DESIGN},
};

const aspec port_attrs[PA_N] = {
    [PA_NUM] = {"num", T_U16, F_REQ},
    [PA_GUID] = {"guid", T_GUID, 0},
    [PA_LID] = {"lid", T_U16, 0},
    [PA_LMC] = {"lmc", T_LMC, 0},
    [PA_LABEL] = {"label", T_NONEMPTY, 0},
    [PA_WIDTH] = {"width", T_WIDTH, F_DESIGN},
    [PA_SPEED] = {"speed", T_SPEED, F_DESIGN},
    [PA_RAIL] = {"rail", T_NONEMPTY, F_DESIGN},
    [PA_PLANE] = {"plane", T_NONEMPTY, F_DESIGN},
};

const aspec link_attrs[LA_N] = {
    [LA_A] = {"a", T_NONEMPTY, F_REQ},
    [LA_APORT] = {"a-port", T_PORTNUM, F_REQ},
    [LA_B] = {"b", T_NONEMPTY, F_REQ},
    [LA_BPORT] = {"b-port", T_PORTNUM, F_REQ},
    [LA_WIDTH] = {"width", T_WIDTH, 0},
    [LA_SPEED] = {"speed", T_SPEED, 0},
    [LA_CABLE] = {"cable", T_NONEMPTY, F_DESIGN},
    [LA_LENGTH] = {"length", T_DECIMAL, F_DESIGN},
    [LA_MEDIA] = {"media", T_MEDIA, F_DESIGN},
};

const aspec fattr_attrs[AA_N] = {{"key", T_NONEMPTY, F_REQ},
                                 {"value", T_ANY, F_REQ}};
const aspec nattr_attrs[AA_N] = {{"key", T_NKEY, F_REQ},
                                 {"value", T_ANY, F_REQ}};
const aspec pattr_attrs[AA_N] = {{"key", T_PKEY, F_REQ},
                                 {"value", T_ANY, F_REQ}};
const aspec lattr_attrs[AA_N] = {{"key", T_LKEY, F_REQ},
                                 {"value", T_ANY, F_REQ}};

const char *const el_names[] = {"", "fabric", "node", "port", "link", "attr"};

static const char *const width_names[] = {"1x", "2x", "4x", "8x", "12x",
                                          "1X", "2X", "4X", "8X", "12X"};
static const char *const speed_names[] = {
    "SDR", "DDR", "QDR", "FDR10", "FDR",  "EDR",  "HDR",  "NDR",  "XDR",  "1G",
    "10G", "25G", "40G", "50G",   "100G", "200G", "400G", "800G", "1600G"};
static const char *const media_names[] = {
    "copper", "dac", "acc", "aec", "aoc", "optical", "fiber", "backplane"};
static const char *const kind_names[] = {"switch", "ca", "router"};
static const uint32_t kind_codes[] = {FL_NODE_SWITCH, FL_NODE_CA,
                                      FL_NODE_ROUTER};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- value checks ------------------------------------------------------ */

int is_xml_ws(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Trim XML whitespace (xsd whiteSpace="collapse" for atomic types). */
static void trim(const char **s, size_t *len) {
  const char *p = *s, *e = *s + strlen(*s);
  while (p < e && is_xml_ws(*p))
    p++;
  while (e > p && is_xml_ws(e[-1]))
    e--;
  *s = p;
  *len = (size_t)(e - p);
}

static int in_list(const char *s, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(s, list[i]) == 0)
      return (int)i;
  return -1;
}

/* xsd unsigned integer lexical form: ws, optional '+', digits, ws. */
static int parse_unsigned(const char *s, uint64_t max, uint64_t *out) {
  size_t len;
  trim(&s, &len);
  size_t i = 0;
  if (i < len && s[i] == '+')
    i++;
  if (i == len)
    return -1;
  uint64_t v = 0;
  for (; i < len; i++) {
    if (s[i] < '0' || s[i] > '9')
      return -1;
    v = v * 10 + (uint64_t)(s[i] - '0');
    if (v > max)
      return -1;
  }
  *out = v;
  return 0;
}

/* (0x)?hex{1,maxdig}, exactly (xsd:string pattern: no trimming). */
static int parse_hex(const char *s, int maxdig, uint64_t *out) {
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    s += 2;
  uint64_t v = 0;
  int n = 0;
  for (; *s; s++, n++) {
    int c = (unsigned char)*s, h;
    if (c >= '0' && c <= '9')
      h = c - '0';
    else if (c >= 'a' && c <= 'f')
      h = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      h = c - 'A' + 10;
    else
      return -1;
    v = v << 4 | (uint64_t)h;
  }
  if (n < 1 || n > maxdig)
    return -1;
  *out = v;
  return 0;
}

/* xsd:decimal >= 0: ws, sign, digits with at most one '.', ws. */
static int check_decimal(const char *s) {
  size_t len, i = 0, digits = 0, nonzero = 0;
  int neg = 0, dot = 0;
  trim(&s, &len);
  if (i < len && (s[i] == '+' || s[i] == '-'))
    neg = s[i++] == '-';
  for (; i < len; i++) {
    if (s[i] == '.' && !dot)
      dot = 1;
    else if (s[i] >= '0' && s[i] <= '9') {
      digits++;
      nonzero += s[i] != '0';
    } else
      return -1;
  }
  return (digits == 0 || (neg && nonzero)) ? -1 : 0;
}

static int check_bool(const char *s, uint64_t *out) {
  size_t len;
  trim(&s, &len);
  if ((len == 4 && memcmp(s, "true", 4) == 0) || (len == 1 && s[0] == '1'))
    *out = 1;
  else if ((len == 5 && memcmp(s, "false", 5) == 0) ||
           (len == 1 && s[0] == '0'))
    *out = 0;
  else
    return -1;
  return 0;
}

static int check_role(const char *s) {
  if (!(s[0] >= 'a' && s[0] <= 'z'))
    return -1;
  for (s++; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
      return -1;
  return 0;
}

static const char *const node_reserved[] = {
    "tier", "rail", "su", "pod",        "plane", "rack", "row",
    "hall", "pdu",  "ar", "power-feed", "role",  "u"};
static const char *const port_reserved[] = {"width", "speed", "rail", "plane"};
static const char *const link_reserved[] = {"cable", "length", "media"};

/* Check @s against @type; numeric results in *@num. 0 if valid. */
int check_value(int type, const char *s, uint64_t *num) {
  *num = 0;
  switch (type) {
  case T_ANY:
    return 0;
  case T_NONEMPTY:
    return s[0] ? 0 : -1;
  case T_KIND: {
    int i = in_list(s, kind_names, NELEM(kind_names));
    if (i < 0)
      return -1;
    *num = kind_codes[i];
    return 0;
  }
  case T_VERSION:
    return strcmp(s, "1") == 0 ? 0 : -1;
  case T_GUID:
    return parse_hex(s, 16, num);
  case T_HEX24:
    return parse_hex(s, 6, num);
  case T_HEX32:
    return parse_hex(s, 8, num);
  case T_U16:
    return parse_unsigned(s, 65535, num);
  case T_PORTNUM:
    return (parse_unsigned(s, 65535, num) == 0 && *num >= 1) ? 0 : -1;
  case T_RACKU:
    return (parse_unsigned(s, 255, num) == 0 && *num >= 1) ? 0 : -1;
  case T_U8:
    return parse_unsigned(s, 255, num);
  case T_LMC:
    return parse_unsigned(s, 7, num);
  case T_BOOL:
    return check_bool(s, num);
  case T_DECIMAL:
    return check_decimal(s);
  case T_WIDTH:
    if (in_list(s, width_names, NELEM(width_names)) < 0)
      return -1;
    *num = fl_width_parse(s, strlen(s));
    return *num ? 0 : -1;
  case T_SPEED:
    if (in_list(s, speed_names, NELEM(speed_names)) < 0)
      return -1;
    *num = fl_speed_parse(s, strlen(s));
    return *num ? 0 : -1;
  case T_ROLE:
    return check_role(s);
  case T_MEDIA:
    return in_list(s, media_names, NELEM(media_names)) < 0 ? -1 : 0;
  case T_NKEY:
    return (s[0] && in_list(s, node_reserved, NELEM(node_reserved)) < 0) ? 0
                                                                         : -1;
  case T_PKEY:
    return (s[0] && in_list(s, port_reserved, NELEM(port_reserved)) < 0) ? 0
                                                                         : -1;
  case T_LKEY:
    return (s[0] && in_list(s, link_reserved, NELEM(link_reserved)) < 0) ? 0
                                                                         : -1;
  }
  return -1;
}

/* What a value of @type should look like, for messages. */
const char *expected(int type) {
  switch (type) {
  case T_NONEMPTY:
    return "a non-empty string";
  case T_KIND:
    return "switch, ca or router";
  case T_VERSION:
    return "1";
  case T_GUID:
    return "a 64-bit GUID in hex, e.g. 0x0002c903000a1b2c";
  case T_HEX24:
    return "a 24-bit vendor id in hex, e.g. 0x2c9";
  case T_HEX32:
    return "a device id in hex, e.g. 0xd2f0";
  case T_U16:
    return "a number 0..65535";
  case T_PORTNUM:
    return "a port number 1..65535";
  case T_RACKU:
    return "a rack unit 1..255 (the lowest unit the equipment occupies)";
  case T_U8:
    return "a number 0..255";
  case T_LMC:
    return "an LMC 0..7";
  case T_BOOL:
    return "true, false, 1 or 0";
  case T_DECIMAL:
    return "a length in metres, e.g. 3 or 2.5";
  case T_WIDTH:
    return "1x, 2x, 4x, 8x or 12x";
  case T_SPEED:
    return "SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR, 1G, 10G, 25G, "
           "40G, 50G, 100G, 200G, 400G, 800G or 1600G";
  case T_ROLE:
    return "a lower-case word such as compute, storage or management";
  case T_MEDIA:
    return "copper, dac, acc, aec, aoc, optical, fiber or backplane";
  case T_NKEY:
    return "a non-empty key other than tier, rail, su, pod, plane, rack, row, "
           "hall, pdu, power-feed, ar and role (write those as attributes of "
           "<node>)";
  case T_PKEY:
    return "a non-empty key other than width, speed, rail and plane (write "
           "those as attributes of <port>)";
  case T_LKEY:
    return "a non-empty key other than cable, length and media (write those "
           "as attributes of <link>)";
  }
  return "a string";
}

/* ---- attributes of the current element -------------------------------- */
int fl_design_attr_check(uint32_t ent_kind, const char *key,
                         const char *value) {
  const aspec *spec = ent_kind == FL_ENT_NODE   ? node_attrs
                      : ent_kind == FL_ENT_PORT ? port_attrs
                      : ent_kind == FL_ENT_LINK ? link_attrs
                                                : NULL;
  int n = ent_kind == FL_ENT_NODE   ? NA_N
          : ent_kind == FL_ENT_PORT ? PA_N
          : ent_kind == FL_ENT_LINK ? LA_N
                                    : 0;
  uint64_t num;
  for (int i = 0; i < n; i++)
    if ((spec[i].flags & F_DESIGN) && strcmp(spec[i].name, key) == 0)
      return check_value(spec[i].type, value, &num) == 0 ? 1 : 0;
  return -1;
}
