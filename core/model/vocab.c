/* SPDX-License-Identifier: MIT */
/*
 * core/model/vocab.c — speed and width names (see fabriclint/fabric.h).
 *
 * Lane rates are the nominal per-lane rates of the IBA speed grades as
 * tabulated in the InfiniBand Architecture Specification (SDR 2.5 ... XDR 200
 * Gb/s; FDR10 is 10 Gb/s nominal, not 14), so 4xNDR = 400 Gb/s, 2xHDR = 100
 * Gb/s. Ethernet codes carry the whole-port rate with width 1.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fabriclint/fabric.h"

typedef struct speed_def {
  uint32_t code;
  const char *name;
  double gbps;
} speed_def;

static const speed_def SPEEDS[] = {
    {FL_SPEED_SDR, "SDR", 2.5},          {FL_SPEED_DDR, "DDR", 5},
    {FL_SPEED_QDR, "QDR", 10},           {FL_SPEED_FDR10, "FDR10", 10},
    {FL_SPEED_FDR, "FDR", 14},           {FL_SPEED_EDR, "EDR", 25},
    {FL_SPEED_HDR, "HDR", 50},           {FL_SPEED_NDR, "NDR", 100},
    {FL_SPEED_XDR, "XDR", 200},          {FL_SPEED_ETH_1G, "1G", 1},
    {FL_SPEED_ETH_10G, "10G", 10},       {FL_SPEED_ETH_25G, "25G", 25},
    {FL_SPEED_ETH_40G, "40G", 40},       {FL_SPEED_ETH_50G, "50G", 50},
    {FL_SPEED_ETH_100G, "100G", 100},    {FL_SPEED_ETH_200G, "200G", 200},
    {FL_SPEED_ETH_400G, "400G", 400},    {FL_SPEED_ETH_800G, "800G", 800},
    {FL_SPEED_ETH_1600G, "1600G", 1600},
};

const char *fl_speed_name(uint32_t speed) {
  for (size_t i = 0; i < sizeof SPEEDS / sizeof *SPEEDS; i++)
    if (SPEEDS[i].code == speed)
      return SPEEDS[i].name;
  return "??";
}

double fl_speed_lane_gbps(uint32_t speed) {
  for (size_t i = 0; i < sizeof SPEEDS / sizeof *SPEEDS; i++)
    if (SPEEDS[i].code == speed)
      return SPEEDS[i].gbps;
  return 0;
}

uint32_t fl_speed_parse(const char *s, size_t len) {
  if (!s)
    return FL_SPEED_UNKNOWN;
  if (len == (size_t)-1)
    len = strlen(s);
  /* accept "400GbE", "400Gb/s", "400000" (Mb/s, as in SONiC/LLDP plans) */
  for (size_t i = 0; i < sizeof SPEEDS / sizeof *SPEEDS; i++) {
    size_t n = strlen(SPEEDS[i].name);
    if (len == n && strncasecmp(s, SPEEDS[i].name, n) == 0)
      return SPEEDS[i].code;
  }
  if (len > 1 && isdigit((unsigned char)s[0])) {
    char buf[32];
    size_t n = len < sizeof buf - 1 ? len : sizeof buf - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end;
    double v = strtod(buf, &end);
    int mbps = (*end == '\0' && v >= 1000);
    if (mbps)
      v /= 1000.0;
    else if (strcasecmp(end, "G") != 0 && strcasecmp(end, "GbE") != 0 &&
             strcasecmp(end, "Gb/s") != 0 && strcasecmp(end, "Gbps") != 0)
      return FL_SPEED_UNKNOWN;
    for (size_t i = 0; i < sizeof SPEEDS / sizeof *SPEEDS; i++)
      if (SPEEDS[i].code >= FL_SPEED_ETH_1G && SPEEDS[i].gbps == v)
        return SPEEDS[i].code;
  }
  return FL_SPEED_UNKNOWN;
}

uint32_t fl_width_parse(const char *s, size_t len) {
  if (!s)
    return 0;
  if (len == (size_t)-1)
    len = strlen(s);
  if (len < 2 || (s[len - 1] != 'x' && s[len - 1] != 'X'))
    return 0;
  uint32_t v = 0;
  for (size_t i = 0; i + 1 < len; i++) {
    if (!isdigit((unsigned char)s[i]))
      return 0;
    v = v * 10 + (uint32_t)(s[i] - '0');
    if (v > 12)
      return 0;
  }
  return (v == 1 || v == 2 || v == 4 || v == 8 || v == 12) ? v : 0;
}

const char *fl_node_kind_name(uint32_t kind) {
  switch (kind) {
  case FL_NODE_SWITCH:
    return "switch";
  case FL_NODE_CA:
    return "ca";
  case FL_NODE_ROUTER:
    return "router";
  default:
    return "?";
  }
}
