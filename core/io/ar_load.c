/* SPDX-License-Identifier: MIT */
/*
 * core/io/ar_load.c — loader for ibdiagnet's adaptive-routing dump
 * (`ibdiagnet2.far`, written by `ibdiagnet -r --r_opt=dump_only`).
 *
 * Why: NVIDIA's SM programs AR-capable switches with an AR group table
 * (sets of ports) and an AR LFT (per destination LID: a static port, a
 * state Static / HBF / Free, and a group). Whether those groups cover every
 * minimal next hop is what the adaptive-routing plugin checks
 * (docs/rules/adaptive-routing.md), and the .far file is
 * the only dump that carries them.
 *
 * Grammar (from the public pest grammar of real files, CrackedPoly/Rapimt
 * crates/rapimt_io/src/ib/cmd_parser/ibfar.pest; no real public .far file
 * exists; docs/routing-inputs.md):
 *
 *   # comments
 *   File version: <n>
 *   Switch 0x<guid> <free text>
 *   Groups Definition:
 *   Group  Sub Group  WHBF  Ports
 *   ------------------------------
 *   <group> <subgroup> <whbf> <p>,<p>,...,      (trailing comma; may be empty)
 *   LFT Definition:
 *   PLFT_NUM: <n>, top: 0x<hex>
 *   LID  Static Port  Lid State  Group
 *   ------------------------------
 *   0x<lid> <port> <Static|HBF|Free> <group>
 *
 * repeated per switch. Sub-groups of one group are united (the plugin asks
 * "which ports may this LID use"). Only PLFT 0 is kept (the others are
 * counted in a note): port-to-PLFT maps are not in this file. The static
 * port is validated but not stored: it is the switch's ordinary LFT entry,
 * which the LFT dumps carry; writing it here would give the fabric partial
 * LFTs (only AR switches) that the routing rules would misread.
 *
 * Strictness: a malformed entry (bad number, unknown LID state, port > 255,
 * LID beyond 0xBFFF, an entry outside its section) is FL_EPARSE naming
 * file:line:col; a switch GUID the topology lacks is skipped with a note
 * (dumps and topology are often taken at different times); other unknown
 * lines outside entries are notes. A last line without a newline is a
 * truncated file (FL_EPARSE), as for the other routing dumps.
 *
 * Cost: one pass, getline() per line, a few byte compares per entry;
 * memory 3 bytes per (AR switch, LID).
 */
#include "io/fileio.h"
#include "io/formats.h"
#include "io/loaders.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/routing.h"
#include "model/build.h"

typedef struct far_rd {
  fl_fabric *fab;
  fl_error *err;
  const char *path;
  uint32_t file;
  uint32_t line;
  const char *ls; /* current line */
  int terminated;
} far_rd;

static int far_err(far_rd *r, const char *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int far_err(far_rd *r, const char *at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc =
      fl_text_verror(r->err, r->path, r->line, r->ls, at, 0, NULL, fmt, ap);
  va_end(ap);
  return rc;
}

static const char *skip_ws(const char *p) {
  while (*p == ' ' || *p == '\t')
    p++;
  return p;
}

static int starts(const char *p, const char *w) {
  return strncmp(p, w, strlen(w)) == 0;
}

/* Unsigned decimal at *@p (advances it); -1 when there is none. */
static int64_t dec(const char **p) {
  const char *s = *p;
  int64_t v = 0;
  if (*s < '0' || *s > '9')
    return -1;
  while (*s >= '0' && *s <= '9') {
    v = v * 10 + (*s - '0');
    if (v > 0xffffffffll)
      return -1;
    s++;
  }
  *p = s;
  return v;
}

/* 0x-hex at *@p (advances it); -1 when there is none. */
static int64_t hex(const char **p, int max_digits) {
  const char *s = *p;
  if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
    return -1;
  s += 2;
  uint64_t v = 0;
  int n = 0;
  for (;; s++, n++) {
    int d = (*s >= '0' && *s <= '9')   ? *s - '0'
            : (*s >= 'a' && *s <= 'f') ? *s - 'a' + 10
            : (*s >= 'A' && *s <= 'F') ? *s - 'A' + 10
                                       : -1;
    if (d < 0)
      break;
    if (n >= max_digits)
      return -1;
    v = v << 4 | (uint64_t)d;
  }
  if (n == 0)
    return -1;
  *p = s;
  return (int64_t)v;
}

/* The error for the field at @at: when it is a number token (decimal or
 * 0x-hex) that dec()/hex() refused or that is out of range, "<what> <the
 * token as written> is out of range (allowed <range>)", the token quoted up
 * to 20 bytes then "..."; else @expected (no number there at all). */
static int num_err(far_rd *r, const char *at, const char *what,
                   const char *range, const char *expected) {
  const char *e = at;
  if (e[0] == '0' && (e[1] == 'x' || e[1] == 'X') &&
      isxdigit((unsigned char)e[2]))
    for (e += 2; isxdigit((unsigned char)*e); e++)
      ;
  else
    while (*e >= '0' && *e <= '9')
      e++;
  if (e == at)
    return far_err(r, at, "%s", expected);
  size_t n = (size_t)(e - at), q = n > 20 ? 20 : n;
  return far_err(r, at, "%s %.*s%s is out of range (allowed %s)", what, (int)q,
                 at, n > q ? "..." : "", range);
}

static int at_end(const char *p) {
  return *skip_ws(p) == '\0';
}

enum { SEC_NONE, SEC_GROUPS, SEC_LFT };

int fl_load_ar(fl_fabric *fab, const fl_input *in, const fl_load_options *opts,
               fl_error *err) {
  const char *path = in->path;
  (void)opts;
  /* the bytes fl_fabric_load() read, as a stream for getline() */
  FILE *f = fmemopen(in->buf, in->len, "r");
  if (!f)
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "cannot read: %s",
                        strerror(errno));
  far_rd r = {fab, err, path, fl_b_file(fab, path), 0, NULL, 1};
  char *buf = NULL;
  size_t cap = 0;
  ssize_t n;
  int rc = FL_OK, sec = SEC_NONE, have_switch = 0, skip = 0, seen_version = 0;
  fl_id sw = FL_NONE;
  int64_t plft = 0;
  uint64_t other_plft = 0, switches = 0, unknown_sw = 0;
  uint32_t sw_line = 0;               /* line of the current Switch block */
  int64_t lft_top = -1, last_lid = 0; /* PLFT 0: declared top, last LID */
  uint64_t cur_guid = 0;
  int sw_has_lft = 1; /* the current block reached "LFT Definition:" */
  while ((n = getline(&buf, &cap, f)) > 0) {
    r.line++;
    r.terminated = buf[n - 1] == '\n';
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
      buf[--n] = '\0';
    r.ls = buf;
    if (!r.terminated) {
      rc = fl_error_set(err, FL_EPARSE, path, r.line, (uint32_t)n + 1,
                        "truncated: the file ends inside a line (no final "
                        "newline)");
      break;
    }
    const char *p = skip_ws(buf);
    fl_prov pv = {r.file, r.line, (uint32_t)(p - buf) + 1};
    if (*p == '\0' || *p == '#')
      continue;
    if (starts(p, "File version:")) {
      const char *q = skip_ws(p + 13);
      if (dec(&q) < 0 || !at_end(q)) {
        rc = far_err(&r, q, "expected `File version: <number>`");
        break;
      }
      seen_version = 1;
      continue;
    }
    if (starts(p, "Switch ") || starts(p, "Switch\t")) {
      if (!sw_has_lft) {
        rc = fl_error_set(err, FL_EPARSE, path, sw_line, 1,
                          "the Switch block ends without an `LFT Definition:` "
                          "section (a block cut short?)");
        break;
      }
      if (lft_top > 0 && last_lid < lft_top) {
        fl_prov tp = {r.file, sw_line, 1};
        fl_b_note(fab, "routing", tp,
                  "the AR LFT of switch 0x%016llx lists LIDs up to 0x%04llx "
                  "but declares top 0x%04llx: the file may be cut short",
                  (unsigned long long)cur_guid, (unsigned long long)last_lid,
                  (unsigned long long)lft_top);
      }
      lft_top = -1;
      last_lid = 0;
      sw_line = r.line;
      sw_has_lft = 0;
      const char *q = skip_ws(p + 7);
      int64_t g = hex(&q, 16);
      if (g < 0) {
        rc = far_err(&r, q, "expected `Switch 0x<node GUID> ...`");
        break;
      }
      cur_guid = (uint64_t)g;
      have_switch = 1;
      sec = SEC_NONE;
      plft = 0;
      sw = fl_b_node_by_guid(fab, (uint64_t)g);
      skip = sw == FL_NONE;
      if (skip) {
        unknown_sw++;
        fl_b_note(fab, "routing", pv,
                  "AR tables for switch GUID 0x%016llx skipped: no such "
                  "switch in the topology",
                  (unsigned long long)g);
        continue;
      }
      switches++;
      if (fl_b_ar_switch(fab, sw) != FL_OK) {
        rc = fl_error_set(err, FL_ENOMEM, path, r.line, 0, "out of memory");
        break;
      }
      continue;
    }
    if (starts(p, "Groups Definition:") || starts(p, "LFT Definition:")) {
      if (!have_switch) {
        rc = far_err(&r, p, "section before any `Switch 0x<guid>` line");
        break;
      }
      sec = p[0] == 'G' ? SEC_GROUPS : SEC_LFT;
      if (sec == SEC_LFT)
        sw_has_lft = 1;
      continue;
    }
    if (starts(p, "PLFT_NUM:")) {
      const char *q = skip_ws(p + 9), *nq = q;
      plft = dec(&q);
      if (plft < 0) {
        rc = num_err(&r, nq, "PLFT_NUM", "0..4294967295",
                     "expected `PLFT_NUM: <n>, top: 0x<hex>`");
        break;
      }
      q = skip_ws(q);
      if (*q != ',') {
        rc = far_err(&r, q, "expected `PLFT_NUM: <n>, top: 0x<hex>`");
        break;
      }
      q = skip_ws(q + 1);
      if (!starts(q, "top:")) {
        rc = far_err(&r, q, "expected `top: 0x<hex>`");
        break;
      }
      const char *tq = q = skip_ws(q + 4);
      int64_t top = hex(&q, 8);
      if (top < 0) {
        rc = num_err(&r, tq, "top", "0x0..0xffffffff, 8 hex digits",
                     "expected `top: 0x<hex>`");
        break;
      }
      if (!at_end(q)) {
        rc = far_err(&r, q, "expected `top: 0x<hex>`");
        break;
      }
      if (plft == 0)
        lft_top = top;
      continue;
    }
    /* column titles and rules */
    if (*p == '-' || starts(p, "Group ") || starts(p, "Group\t") ||
        starts(p, "LID ") || starts(p, "LID\t"))
      continue;
    if (sec == SEC_GROUPS && *p >= '0' && *p <= '9') {
      static const char GROUP_LINE[] =
          "expected `<group> <sub group> <WHBF> <ports>,` (decimal numbers, "
          "group at most 65535)";
      const char *q = p, *gq = q;
      int64_t grp = dec(&q);
      if (grp < 0 || grp > 0xffff) {
        rc = num_err(&r, gq, "AR group", "0..65535", GROUP_LINE);
        break;
      }
      const char *sq = q = skip_ws(q);
      int64_t sub = dec(&q);
      if (sub < 0) {
        rc = num_err(&r, sq, "sub group", "0..4294967295", GROUP_LINE);
        break;
      }
      const char *wq = q = skip_ws(q);
      int64_t whbf = dec(&q);
      if (whbf < 0) {
        rc = num_err(&r, wq, "WHBF", "0..4294967295", GROUP_LINE);
        break;
      }
      uint8_t ports[32];
      memset(ports, 0, sizeof ports);
      q = skip_ws(q);
      while (*q) {
        const char *pq = q;
        int64_t port = dec(&q);
        if (port < 0 || port > 255) {
          rc = num_err(&r, pq, "port number", "0..255",
                       "expected a port number (0..255) followed by `,` in "
                       "the port list");
          break;
        }
        q = skip_ws(q);
        if (*q != ',') {
          rc = far_err(&r, q, "expected `,` after port %lld", (long long)port);
          break;
        }
        q = skip_ws(q + 1);
        ports[port >> 3] |= (uint8_t)(1u << (port & 7));
      }
      if (rc != FL_OK)
        break;
      if (!skip && fl_b_ar_group(fab, sw, (uint32_t)grp, ports) != FL_OK) {
        rc = fl_error_set(err, FL_ENOMEM, path, r.line, 0, "out of memory");
        break;
      }
      continue;
    }
    if (sec == SEC_LFT && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
      const char *q = p;
      int64_t lid = hex(&q, 4);
      if (lid <= 0 || lid > FL_MAX_UCAST_LID) {
        rc = num_err(&r, p, "LID", "0x0001..0xbfff, unicast",
                     "expected a unicast LID 0x0001..0xbfff");
        break;
      }
      if (plft == 0 && lid > last_lid)
        last_lid = lid;
      const char *pq = q = skip_ws(q);
      int64_t port = dec(&q);
      if (port < 0 || port > 255) {
        rc = num_err(&r, pq, "static port", "0..255",
                     "expected the static port (0..255)");
        break;
      }
      q = skip_ws(q);
      uint32_t state = 0;
      if (starts(q, "Static"))
        state = FL_AR_STATE_STATIC, q += 6;
      else if (starts(q, "HBF"))
        state = FL_AR_STATE_HBF, q += 3;
      else if (starts(q, "Free"))
        state = FL_AR_STATE_FREE, q += 4;
      if (!state || (*q != ' ' && *q != '\t' && *q != '\0')) {
        rc = far_err(&r, q, "expected the LID state Static, HBF or Free");
        break;
      }
      const char *gq = q = skip_ws(q);
      int64_t grp = dec(&q);
      if (grp < 0 || grp > 0xffff) {
        rc = num_err(&r, gq, "AR group", "0..65535",
                     "expected the AR group number (0..65535) and the end "
                     "of the line");
        break;
      }
      if (!at_end(q)) {
        rc = far_err(&r, q,
                     "expected the AR group number (0..65535) and "
                     "the end of the line");
        break;
      }
      if (skip)
        continue;
      if (plft != 0) {
        other_plft++;
        continue;
      }
      if (fl_b_ar_lid(fab, sw, (uint32_t)lid, state, (uint32_t)grp) != FL_OK) {
        rc = fl_error_set(err, FL_ENOMEM, path, r.line, 0, "out of memory");
        break;
      }
      continue;
    }
    if (sec != SEC_NONE && ((*p >= '0' && *p <= '9'))) {
      rc = far_err(&r, p,
                   sec == SEC_GROUPS
                       ? "expected `<group> <sub group> <WHBF> <ports>,`"
                       : "expected `0x<LID> <static port> "
                         "<Static|HBF|Free> <group>`");
      break;
    }
    /* free text the grammar does not know: keep going, say so */
    fl_b_note(fab, "routing", pv, "unrecognised line in AR dump ignored: %.80s",
              p);
  }
  if (rc == FL_OK && ferror(f))
    rc = fl_error_set(err, FL_EIO, path, r.line, 0, "read error");
  if (rc == FL_OK && !sw_has_lft)
    rc = fl_error_set(err, FL_EPARSE, path, sw_line, 1,
                      "truncated: the last Switch block has no `LFT "
                      "Definition:` section");
  if (rc == FL_OK && lft_top > 0 && last_lid < lft_top) {
    fl_prov tp = {r.file, sw_line, 1};
    fl_b_note(fab, "routing", tp,
              "the AR LFT of switch 0x%016llx lists LIDs up to 0x%04llx but "
              "declares top 0x%04llx: the file may be cut short",
              (unsigned long long)cur_guid, (unsigned long long)last_lid,
              (unsigned long long)lft_top);
  }
  if (rc == FL_OK && !have_switch)
    rc = fl_error_set(err, FL_EPARSE, path, r.line, 0,
                      "no `Switch 0x<guid>` block: not an ibdiagnet2.far "
                      "adaptive-routing dump");
  if (rc == FL_OK && other_plft) {
    fl_prov pv = {r.file, 0, 0};
    fl_b_note(fab, "routing", pv,
              "%llu AR LFT entries of PLFTs other than 0 ignored (only PLFT "
              "0 is checked)",
              (unsigned long long)other_plft);
  }
  (void)seen_version;
  (void)switches;
  (void)unknown_sw;
  free(buf);
  fclose(f);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

const fl_format_def fl_fmt_ar = {
    FL_FMT_AR,
    "ar",
    NULL,
    0,
    fl_load_ar,
    fl_detect_routing,
    "ibdiagnet2.far (\"Groups Definition:\", \"LFT Definition:\")"};
