/* SPDX-License-Identifier: MIT */
/*
 * core/io/ibnd_detect.c — the detector shared by the text topology dumps
 * (formats.h): ibnetdiscover output, the ibnetdiscover -p report, ibsim net
 * files and ibdm topology files share keywords (Switch, Ca, switchguid=), so
 * they are told apart by a vote over every line of the detection window.
 */
#include <ctype.h>
#include <string.h>

#include "io/formats.h"
#include "io/loaders.h"

static int is_hex16_id(const char *s, const char *end) {
  /* "S-0123456789abcdef" */
  if (end - s < 20 || s[0] != '"' || !strchr("SHR?", s[1]) || s[2] != '-')
    return 0;
  for (int i = 3; i < 19; i++)
    if (!isxdigit((unsigned char)s[i]))
      return 0;
  return s[19] == '"';
}

/* Classify one text line: 1 ibnetdiscover id line (switchguid=...), 2 ports
 * report line, 3 header with a free-form id (ibsim), 4 header with an
 * "S-<guid>" id (ibnetdiscover), 0 none. */
static int classify_line(const char *s, const char *end) {
  s = fl_detect_skip_ws(s, end);
  if (end - s >= 11 &&
      (strncmp(s, "switchguid=", 11) == 0 || strncmp(s, "caguid=", 7) == 0 ||
       strncmp(s, "rtguid=", 7) == 0))
    return 1;
  const char *kw[] = {"Switch", "Ca", "Rt", "Hca"};
  for (size_t k = 0; k < 4; k++) {
    size_t n = strlen(kw[k]);
    if ((size_t)(end - s) > n && strncmp(s, kw[k], n) == 0) {
      const char *p = s + n;
      while (p < end && (*p == ' ' || *p == '\t'))
        p++;
      if (p == end || !isdigit((unsigned char)*p))
        continue;
      while (p < end && isdigit((unsigned char)*p))
        p++;
      p = fl_detect_skip_ws(p, end);
      if (p < end && *p == '"')
        return is_hex16_id(p, end) ? 4 : 3;
    }
  }
  if (end - s > 4 && (strncmp(s, "SW ", 3) == 0 || strncmp(s, "CA ", 3) == 0 ||
                      strncmp(s, "RT ", 3) == 0 || strncmp(s, "?? ", 3) == 0)) {
    const char *p = fl_detect_skip_ws(s + 2, end);
    while (p < end && isdigit((unsigned char)*p))
      p++;
    p = fl_detect_skip_ws(p, end);
    while (p < end && isdigit((unsigned char)*p))
      p++;
    p = fl_detect_skip_ws(p, end);
    if (end - p > 2 && p[0] == '0' && p[1] == 'x')
      return 2;
  }
  return 0;
}

/* An ibdm topology connection line: indented, `PORT -...-> TYPE NAME PORT`
 * (ibdm Fabric.cpp parseTopology). */
static int is_topo_conn(const char *s, const char *end) {
  if (s >= end || (*s != ' ' && *s != '\t'))
    return 0;
  const char *h = memchr(s, '#', (size_t)(end - s));
  if (h)
    end = h;
  const char *t[6];
  size_t n[6];
  int k = 0;
  while (s < end && k < 6) {
    while (s < end && isspace((unsigned char)*s))
      s++;
    if (s >= end)
      break;
    t[k] = s;
    while (s < end && !isspace((unsigned char)*s))
      s++;
    n[k] = (size_t)(s - t[k]);
    k++;
  }
  while (s < end && isspace((unsigned char)*s))
    s++;
  return k == 5 && s == end && n[1] >= 2 && t[1][0] == '-' &&
         t[1][n[1] - 1] == '>' && t[1][n[1] - 2] == '-';
}

/* The topology dumps vote line by line: indented `PORT -> TYPE NAME PORT`
 * lines and nothing of ibnetdiscover are an ibdm topology file; headers
 * with free-form ids and none with "S-<guid>" ids an ibsim net file (which
 * may carry switchguid=/caguid= lines too); "S-<guid>" headers or
 * switchguid= lines ibnetdiscover output; `SW <lid> <port> 0x...` lines
 * the -p report. */
uint32_t fl_detect_ibnd_family(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  if (c->xml_root)
    return FL_FMT_AUTO;
  const char *s = c->text, *end = c->text + c->len, *line, *le;
  int votes[5] = {0, 0, 0, 0, 0}, topo = 0;
  while ((line = fl_detect_line(&s, end, &le)) != NULL) {
    votes[classify_line(line, le)]++;
    topo += is_topo_conn(line, le);
  }
  if (topo > 0 && votes[1] + votes[2] + votes[3] + votes[4] == 0)
    return FL_FMT_TOPO_IBDM;
  if (votes[3] > 0 && votes[4] == 0)
    return FL_FMT_IBSIM_NET;
  if (votes[4] > 0 || votes[1] > 0)
    return FL_FMT_IBNETDISCOVER;
  if (votes[2] > 0)
    return FL_FMT_IBND_PORTS;
  return FL_FMT_AUTO;
}
