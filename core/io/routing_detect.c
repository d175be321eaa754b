/* SPDX-License-Identifier: MIT */
/*
 * core/io/routing_detect.c — the detector shared by the routing dumps
 * (formats.h): OpenSM and infiniband-diags routing dumps are told apart by
 * their first marker line ("Unicast lids [", "dump_ucast_routes: Switch",
 * "# SL2VL table:", "{ SW Ports:", "PathRecord dump:", "Groups Definition:");
 * a path-SL file has no marker, so it is one only when every complete line
 * is a path-SL line or a comment. None of these lines occurs in an
 * ibnetdiscover, ibsim or -p file.
 */
#include <ctype.h>
#include <string.h>

#include "io/formats.h"
#include "io/routing_read.h"

/* Kinds of routing-dump lines (classify_routing). */
enum {
  RL_NONE,
  RL_LFTS,    /* "Unicast lids [" (opensm-lfts.dump, ibroute, dump_fts) */
  RL_FDBS,    /* "dump_ucast_routes: Switch 0x" (opensm.fdbs, ibdiagnet) */
  RL_SL2VL,   /* opensm-sl2vl.dump header, "#in out :", "# SL2VL table:" */
  RL_SUBNET,  /* "{ SW Ports:" / "{ CA Ports:" (opensm-subnet.lst) */
  RL_SAQUERY, /* "PathRecord dump:" (saquery -p) */
  RL_PATHSL,  /* "0x<16 hex> <dec> <dec>" (path-SL file) */
  RL_AR,      /* "Groups Definition:" / "LFT Definition:" (ibdiagnet2.far) */
  RL_BLANK,   /* blank or '#' comment */
  RL_COUNT
};

/* "0x" + 16 hex digits, blank, decimal, blank, decimal, nothing else. */
static int is_path_sl_line(const char *s, const char *end) {
  if (!fl_detect_prefix(s, end, "0x") || end - s < 18)
    return 0;
  for (int i = 2; i < 18; i++)
    if (!isxdigit((unsigned char)s[i]))
      return 0;
  const char *p = s + 18;
  for (int field = 0; field < 2; field++) {
    if (p >= end || (*p != ' ' && *p != '\t'))
      return 0;
    while (p < end && (*p == ' ' || *p == '\t'))
      p++;
    if (p >= end || !isdigit((unsigned char)*p))
      return 0;
    while (p < end && isdigit((unsigned char)*p))
      p++;
  }
  while (p < end && isspace((unsigned char)*p))
    p++;
  return p == end;
}

/* "<Channel Adapter|Switch|Router> 0x<16 hex>, base LID" */
static int is_sl2vl_header(const char *s, const char *end) {
  static const char *const kinds[] = {"Channel Adapter 0x", "Switch 0x",
                                      "Router 0x"};
  for (size_t k = 0; k < 3; k++) {
    size_t n = strlen(kinds[k]);
    if (!fl_detect_prefix(s, end, kinds[k]) || (size_t)(end - s) < n + 16)
      continue;
    const char *p = s + n;
    for (int i = 0; i < 16; i++)
      if (!isxdigit((unsigned char)p[i]))
        return 0;
    return fl_detect_prefix(p + 16, end, ", base LID ");
  }
  return 0;
}

static int classify_routing(const char *s, const char *end) {
  s = fl_detect_skip_ws(s, end);
  if (s >= end)
    return RL_BLANK;
  if (fl_detect_prefix(s, end, "Unicast lids ["))
    return RL_LFTS;
  if (fl_detect_prefix(s, end, "# SL2VL table:") ||
      fl_detect_prefix(s, end, "#in out :"))
    return RL_SL2VL;
  if (*s == '#')
    return RL_BLANK;
  if (fl_detect_prefix(s, end, "PathRecord dump:"))
    return RL_SAQUERY;
  if (fl_detect_prefix(s, end, "Groups Definition:") ||
      fl_detect_prefix(s, end, "LFT Definition:"))
    return RL_AR;
  if (fl_detect_prefix(s, end, "{ SW") || fl_detect_prefix(s, end, "{ CA") ||
      fl_detect_prefix(s, end, "{ Rt"))
    return strstr(s, " Ports:") && strstr(s, "NodeGUID:") ? RL_SUBNET : RL_NONE;
  if (is_sl2vl_header(s, end))
    return RL_SL2VL;
  if (is_path_sl_line(s, end))
    return RL_PATHSL;
  const char *h = memchr(s, ':', (size_t)(end - s));
  if (h && h - s >= 17 && memcmp(h - 17, "dump_ucast_routes", 17) == 0 &&
      fl_detect_prefix(h, end, ": Switch 0x"))
    return RL_FDBS;
  return RL_NONE;
}

/* A routing dump, by the first marker line; path-SL files only when every
 * (complete) line is a path-SL line or a comment. */
uint32_t fl_detect_routing(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  if (c->xml_root)
    return FL_FMT_AUTO;
  const char *s = c->text, *end = c->text + c->len, *line, *le;
  uint32_t votes[RL_COUNT] = {0};
  while ((line = fl_detect_line(&s, end, &le)) != NULL) {
    if (le == end && c->window_full)
      break;         /* a line cut by the detection window */
    char save = *le; /* classify_routing uses strstr: terminate the line */
    *(char *)le = '\0';
    int k = classify_routing(line, le);
    *(char *)le = save;
    static const uint32_t fmt_of[RL_COUNT] = {
        [RL_LFTS] = FL_FMT_LFTS,          [RL_FDBS] = FL_FMT_FDBS,
        [RL_SL2VL] = FL_FMT_SL2VL,        [RL_SUBNET] = FL_FMT_SUBNET_LST,
        [RL_SAQUERY] = FL_FMT_SAQUERY_PR, [RL_AR] = FL_FMT_AR};
    if (fmt_of[k])
      return fmt_of[k];
    votes[k]++;
  }
  if (votes[RL_PATHSL] > 0 && votes[RL_NONE] == 0)
    return FL_FMT_PATH_SL;
  return FL_FMT_AUTO;
}
