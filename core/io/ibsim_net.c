/* SPDX-License-Identifier: MIT */
/*
 * core/io/ibsim_net.c — the loader for ibsim net files, includes followed;
 * the line cursor and tokens are ibnd_scan.c's.
 *
 * Source of the format: linux-rdma/ibsim ibsim/sim_net.c: parse_netconf(),
 * parse_switch(), parse_endnode(), parse_port(), parse_port_opt(),
 * parse_guidbase(), parse_include(), new_node() (GUID assignment),
 * get_active_linkwidth()/get_active_linkspeed() (the active width/speed of
 * a cable).
 */
#include "io/fileio.h"
#include "io/formats.h"
#include "io/ibnd_scan.h"
#include "io/listings.h"
#include "io/loaders.h"
#include "io/textscan.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/nodemap.h"
#include "model/build.h"
#include "model/file_digest.h"
#include "model/hashmap.h"

#define IBSIM_MAX_INCLUDE 9 /* ibsim/sim_net.c MAX_INCLUDE */
/* Includes read for one net file, in all: 9 levels of 10 includes each
 * would otherwise read 10^9 files (docs/cli.md "Limits"). */
#define IBSIM_MAX_FILES 1000

/* ======================================================================
 * ibsim net files (ibsim/sim_net.c parse_netconf)
 *
 * Records: a `Switch N "id"`, `Hca N "id"`/`Ca N "id"` or `Rt N "id"`
 * header, then its port lines `[p] "peer"[rp]` (rp defaults to 1) with
 * optional w=/s=/e= enabled-width/speed/extended-speed masks; '#' lines
 * inside a record are skipped and any other line ends it. Ids are free
 * strings; an optional `# "desc"` after the id gives the description
 * (default: the id). A node is named by its id, except an id of
 * ibnetdiscover's form (S-/H-/R- and 16 hex digits) with a description,
 * which is named by the description as the ibnetdiscover reader names it.
 * Switch headers may carry `lid N lmc N`, CA port lines
 * `# lid N lmc N`. A port line whose comment ends with `lid N 4xQDR`
 * (ibnetdiscover output fed to ibsim) takes width and speed from there.
 * Directives at the start of a line: vendid=, devid=, sysimgguid=, width=,
 * speed=, extspeed= (defaults for following nodes/ports), switchguid=,
 * caguid=/hcaguids=, rtguid= (GUID bases, `=` absolute or `+` relative, as in
 * parse_guidbase()), include "file" (relative to the including file here;
 * at most 9 levels and 1,000 included files in all, cycles rejected), do/pdebug
 * (ignored). Aliases (`@`) and module= prefixes are rejected as unsupported.
 * Other lines are ignored, as ibsim does.
 *
 * GUIDs follow new_node(): a switch takes the switch base and advances it by
 * 1; a CA/router takes its base and advances it by ports + 1; CA port n has
 * GUID node + n; switch ports share the node GUID. Active width/speed of a
 * cable: the best lane count/speed enabled at both ends
 * (get_active_linkwidth(), get_active_linkspeed(); an extended speed when
 * both ends enable one).
 * ====================================================================== */

/* ibsim width bits (LINKWIDTH_*): 1 1x, 2 4x, 4 8x, 8 12x, 16 2x. */
static uint8_t sim_best_width(uint32_t m) {
  return m & 8 ? 12 : m & 4 ? 8 : m & 2 ? 4 : m & 16 ? 2 : m & 1 ? 1 : 0;
}

static uint8_t sim_best_speed(uint32_t s, uint32_t x) {
  if (x & 32)
    return FL_SPEED_XDR;
  if (x & 8)
    return FL_SPEED_NDR;
  if (x & 4)
    return FL_SPEED_HDR;
  if (x & 2)
    return FL_SPEED_EDR;
  if (x & 1)
    return FL_SPEED_FDR;
  return s & 4   ? FL_SPEED_QDR
         : s & 2 ? FL_SPEED_DDR
         : s & 1 ? FL_SPEED_SDR
                 : FL_SPEED_UNKNOWN;
}

typedef struct ibsim {
  fl_lstate s;
  fl_fabric *fab;
  fl_error *err;
  fl_strmap ids;     /* node id string -> id index */
  uint32_t *id_node; /* id index -> node index (UINT32_MAX: no node) */
  size_t id_cap;
  uint64_t base[4], absbase[4]; /* per FL_NODE_* kind */
  uint64_t sysimg;
  uint32_t vendid, devid, width, speed, ext;
  char *stack[IBSIM_MAX_INCLUDE]; /* realpath of the files being read */
  int depth;
  int n_included; /* includes read so far (IBSIM_MAX_FILES) */
  int digest;     /* fl_load_options.digest: record each include's bytes */
  /* of the file being read: lines ibsim ignores, `do` console commands */
  uint32_t ignored, ignored_line, dos, do_line;
} ibsim;

static uint32_t sim_id(ibsim *m, const char *s, size_t len) {
  uint32_t n = (uint32_t)fl_strmap_len(&m->ids);
  uint32_t v = fl_strmap_put(&m->ids, s, len, n);
  if (v == FL_MAP_ABSENT)
    return v;
  if (v == n) {
    if (n >= m->id_cap) {
      size_t cap = m->id_cap ? m->id_cap * 2 : 256;
      uint32_t *nv = realloc(m->id_node, cap * sizeof *nv);
      if (!nv)
        return FL_MAP_ABSENT;
      m->id_node = nv;
      m->id_cap = cap;
    }
    m->id_node[n] = UINT32_MAX;
  }
  return v;
}

/* `"id"`: the text between the first two quotes from p. */
static int sim_quoted(pctx *c, const char **pp, const char *e, const char **s,
                      size_t *len) {
  *s = NULL; /* set on every path: callers read them only on FL_OK */
  *len = 0;
  const char *p = memchr(*pp, '"', (size_t)(e - *pp));
  if (!p)
    return perr(c, *pp, "expected a quoted node id");
  const char *q = memchr(p + 1, '"', (size_t)(e - p - 1));
  if (!q)
    return perr(c, p, "expected '\"' to close the node id");
  *s = p + 1;
  *len = (size_t)(q - p - 1);
  *pp = q + 1;
  return FL_OK;
}

/* An id of ibnetdiscover's own form, S-, H- or R- and 16 hex digits (a
 * dump fed to ibsim, which ibsim reads): it names nothing a person chose,
 * so the node is named by its description, as the ibnetdiscover reader
 * names it, and hosts, systems and rails come out the same (outside
 * tester, session 11: under --input-format ibsim-net the rail demo's hosts
 * were "H-0002c9..." and its crossed pair vanished). */
static int ibnd_style_id(const char *id, size_t len) {
  if (len != 18 || (id[0] != 'S' && id[0] != 'H' && id[0] != 'R') ||
      id[1] != '-')
    return 0;
  for (size_t i = 2; i < len; i++)
    if (!isxdigit((unsigned char)id[i]))
      return 0;
  return 1;
}

/* Value of "<key> N" anywhere in [p, e) (strstr + strtoul in ibsim). */
static int sim_find_num(const char *p, const char *e, const char *key,
                        uint32_t *v) {
  size_t n = strlen(key);
  for (const char *q = p; q + n <= e; q++) {
    if (memcmp(q, key, n) == 0) {
      const char *d = q + n;
      uint64_t x;
      if (!scan_dec(&d, e, &x))
        return 0;
      *v = (uint32_t)x;
      return 1;
    }
  }
  return 0;
}

static int sim_header(ibsim *m, pctx *c, const char *p, const char *e,
                      uint32_t kind, uint32_t *cur) {
  c->what = "header";
  const char *q = p;
  while (q < e && !(*q >= '0' && *q <= '9') && *q != '"')
    q++;
  uint32_t nports;
  int rc = parse_num(c, &q, e, 1, MAX_PORT, "port count", &nports);
  const char *id, *desc = NULL;
  size_t idlen, dlen = 0;
  if (rc || (rc = sim_quoted(c, &q, e, &id, &idlen)))
    return rc;
  const char *hash = memchr(q, '#', (size_t)(e - q));
  if (hash) { /* parse_node_desc() */
    const char *d = skip_ws(hash + 1, e);
    const char *de = NULL;
    if (d < e && *d == '"') {
      d++;
      de = memchr(d, '"', (size_t)(e - d));
    }
    desc = d;
    dlen = (size_t)((de ? de : e) - d);
  }
  uint32_t iid = sim_id(m, id, idlen);
  if (iid == FL_MAP_ABSENT)
    return oom(c);
  if (m->id_node[iid] != UINT32_MAX)
    return perr(c, p, "node id \"%.*s\" is already declared",
                EXCERPT(id, id + idlen));
  uint64_t guid = m->base[kind];
  m->base[kind] += kind == FL_NODE_SWITCH ? 1 : nports + 1;
  uint32_t idx =
      fl_ls_add_node(&m->s, m->fab, kind, guid, nports, prov_here(c));
  if (idx == UINT32_MAX)
    return oom(c);
  m->id_node[iid] = idx;
  fl_lnode *n = &m->s.nodes[idx];
  n->has_block = 1;
  if (!(desc && dlen && ibnd_style_id(id, idlen)))
    fl_b_node_set_name(m->fab, n->id, id, idlen);
  if (m->s.have_names && fl_nodemap_lookup(&m->s.names, guid))
    fl_b_node_set_name(m->fab, n->id, fl_nodemap_lookup(&m->s.names, guid),
                       (size_t)-1);
  fl_b_node_set_desc(m->fab, n->id, desc && dlen ? desc : id,
                     desc && dlen ? dlen : idlen);
  fl_b_node_set_ids(m->fab, n->id, m->vendid, m->devid,
                    m->sysimg ? m->sysimg : guid);
  if (kind == FL_NODE_SWITCH) {
    fl_id p0 = fl_b_port(m->fab, n->id, 0, prov_here(c));
    if (p0 == FL_NONE)
      return oom(c);
    fl_b_port_set_guid(m->fab, p0, guid);
    uint32_t lid = 0, lmc = 0;
    const char *t = desc ? desc + dlen : q;
    if (sim_find_num(t, e, "lid ", &lid)) {
      sim_find_num(t, e, "lmc ", &lmc);
      fl_b_port_set_lid(m->fab, p0, lid > MAX_LID ? 0 : lid, lmc & 7);
    }
  }
  *cur = idx;
  return FL_OK;
}

/* w=/s=/e= options before the comment (parse_port_opt). */
static int sim_options(pctx *c, const char *p, const char *e, fl_listing *l) {
  for (const char *q = p; q < e; q++) {
    if (*q != '=' || q == p || !strchr("wse", q[-1]))
      continue;
    const char *d = q + 1;
    uint64_t v;
    if (starts_with(d, e, "0x")) {
      d += 2;
      if (!scan_hex(&d, e, &v))
        return perr(c, q + 1, "expected a number after %c=", q[-1]);
    } else if (!scan_dec(&d, e, &v)) {
      return perr(c, q + 1, "expected a number after %c=", q[-1]);
    }
    if (q[-1] == 'w' && (v < 1 || v > 31))
      return perr(c, q + 1, "bad enabled width %llu: should be 1 to 31",
                  (unsigned long long)v);
    if (q[-1] == 's' && v > 7)
      return perr(c, q + 1, "bad speed %llu: should be 1 to 7",
                  (unsigned long long)v);
    if (q[-1] == 'e' && v > 63)
      return perr(c, q + 1, "bad extended speed %llu", (unsigned long long)v);
    if (q[-1] == 'w')
      l->wmask = (uint8_t)v;
    else if (q[-1] == 's')
      l->smask = (uint8_t)(v ? v : 4); /* 0 means QDR in ibsim */
    else
      l->emask = (uint8_t)v;
  }
  return FL_OK;
}

/* "lid N WxS" at the end of the comment, after its last quote. */
static void sim_comment_ws(pctx *c, const char *hash, const char *e,
                           fl_listing *l) {
  const char *q = last_quote(hash, e);
  const char *p = q ? q + 1 : hash + 1;
  const char *t = NULL;
  for (const char *r = p; r + 4 <= e; r++)
    if (memcmp(r, "lid ", 4) == 0)
      t = r;
  if (!t)
    return;
  t = skip_ws(t + 4, e);
  uint64_t lid;
  if (!scan_dec(&t, e, &lid))
    return;
  t = skip_ws(t, e);
  const char *z = t;
  while (z < e && !is_blank(*z))
    z++;
  uint8_t w, s;
  pctx tmp = *c;
  fl_error scratch;
  memset(&scratch, 0, sizeof scratch);
  tmp.err = &scratch;
  if (z > t && parse_width_speed(&tmp, t, z, &w, &s) == FL_OK) {
    l->width = w;
    l->speed = s;
    l->explicit_ws = 1;
  }
}

static int sim_port(ibsim *m, pctx *c, const char *p, const char *e,
                    uint32_t cur) {
  c->what = "port";
  const fl_lnode *n = &m->s.nodes[cur];
  const char *q = p + 1;
  uint32_t port, rport = 1, lid = 0, lmc = 0;
  int rc = parse_num(c, &q, e, 1, n->nports, "port number", &port);
  const char *id;
  size_t idlen;
  if (rc == FL_OK && (q >= e || *q != ']'))
    rc = perr(c, q, "expected \"]\" after port number");
  if (rc || (rc = sim_quoted(c, &q, e, &id, &idlen)))
    return rc;
  if (q < e && *q == '[') {
    q++;
    if ((rc = parse_num(c, &q, e, 1, MAX_PORT, "peer port number", &rport)))
      return rc;
    if (q >= e || *q != ']')
      return perr(c, q, "expected \"]\" after port number");
    q++;
  }
  uint32_t iid = sim_id(m, id, idlen);
  fl_listing *l = iid == FL_MAP_ABSENT ? NULL : fl_ls_add_listing(&m->s);
  if (!l)
    return oom(c);
  const char *hash = memchr(q, '#', (size_t)(e - q));
  if ((rc = sim_options(c, q, hash ? hash : e, l)))
    return rc;
  l->node = cur;
  l->peer_guid = iid;
  l->port = (uint16_t)port;
  l->peer_port = (uint16_t)rport;
  l->file = c->file;
  l->line = c->lineno;
  l->wmask = l->wmask ? l->wmask : (uint8_t)m->width;
  l->smask = l->smask ? l->smask : (uint8_t)m->speed;
  l->emask = l->emask ? l->emask : (uint8_t)m->ext;
  if (hash)
    sim_comment_ws(c, hash, e, l);
  fl_id pid = fl_b_port(m->fab, n->id, port, prov_here(c));
  if (pid == FL_NONE)
    return oom(c);
  if (n->kind != FL_NODE_SWITCH) {
    fl_b_port_set_guid(m->fab, pid, n->guid + port);
    if (hash && sim_find_num(hash, e, "lid ", &lid)) {
      sim_find_num(hash, e, "lmc ", &lmc);
      fl_b_port_set_lid(m->fab, pid, lid > MAX_LID ? 0 : lid, lmc & 7);
    }
  }
  return FL_OK;
}

/* "key=N" / "key+N" directives. */
static int sim_assign(pctx *c, const char *p, const char *e, int allow_rel,
                      int *rel, uint64_t *v) {
  const char *q = p;
  while (q < e && *q != '=' && !(allow_rel && *q == '+'))
    q++;
  if (q >= e)
    return perr(c, p, "bad assignment: missing '='%s sign",
                allow_rel ? " or '+'" : "");
  *rel = *q == '+';
  char buf[40];
  const char *d = skip_ws(q + 1, e);
  size_t n =
      (size_t)(e - d) < sizeof buf - 1 ? (size_t)(e - d) : sizeof buf - 1;
  memcpy(buf, d, n);
  buf[n] = '\0';
  char *end;
  *v = strtoull(buf, &end, 0);
  if (end == buf)
    return perr(c, d, "expected a number after '%c'", *q);
  return FL_OK;
}

static int sim_read_file(ibsim *m, const char *path);

static int sim_include(ibsim *m, pctx *c, const char *p, const char *e) {
  const char *s, *z;
  size_t len;
  p = skip_ws(p + 7, e);
  if (p < e && *p == '"') {
    if (sim_quoted(c, &p, e, &s, &len))
      return FL_EPARSE;
  } else {
    for (z = e; z > p && is_blank(z[-1]);)
      z--;
    s = p;
    len = (size_t)(z - p);
  }
  if (len == 0)
    return perr(c, p, "bad include file name");
  const char *slash = strrchr(c->path, '/');
  size_t dlen = (*s == '/' || !slash) ? 0 : (size_t)(slash - c->path + 1);
  char *full = malloc(dlen + len + 1);
  if (!full)
    return oom(c);
  memcpy(full, c->path, dlen);
  memcpy(full + dlen, s, len);
  full[dlen + len] = '\0';
  int rc = sim_read_file(m, full);
  if (rc == FL_EIO || (rc && m->err->line == 0)) {
    /* name the include line as well */
    char msg[FL_ERROR_MSG_MAX];
    snprintf(msg, sizeof msg, "%s", m->err->message);
    int code = m->err->code;
    fl_error_clear(m->err);
    fl_error_set(m->err, code, c->path, c->lineno, 1, "include \"%s\": %s",
                 full, msg);
  }
  free(full);
  return rc;
}

/* One top-level directive line. */
static int sim_directive(ibsim *m, pctx *c, const char *p, const char *e) {
  static const struct {
    const char *kw;
    int kind; /* >0: GUID base of that kind; <0: other */
  } dirs[] = {{"switchguid", FL_NODE_SWITCH},
              {"hcaguids", FL_NODE_CA},
              {"caguid", FL_NODE_CA},
              {"rtguid", FL_NODE_ROUTER},
              {"vendid", -1},
              {"devid", -2},
              {"sysimgguid", -3},
              {"width", -4},
              {"speed", -5},
              {"extspeed", -6}};
  c->what = "directive";
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
    if (!starts_with(p, e, dirs[i].kw))
      continue;
    int rel = 0, k = dirs[i].kind, rc;
    uint64_t v = 0;
    if ((rc = sim_assign(c, p, e, k > 0, &rel, &v)))
      return rc;
    if (k > 0) {
      if (!rel)
        m->absbase[k] = v;
      m->base[k] = m->absbase[k] + (rel ? v : 0);
    } else if (k == -1) {
      m->vendid = (uint32_t)v;
    } else if (k == -2) {
      m->devid = (uint32_t)v;
    } else if (k == -3) {
      m->sysimg = v;
    } else if (k == -4) {
      m->width = (uint32_t)v;
    } else if (k == -5) {
      m->speed = (uint32_t)v;
    } else {
      m->ext = (uint32_t)v;
    }
    return FL_OK;
  }
  if (starts_with(p, e, "include"))
    return sim_include(m, c, p, e);
  if (starts_with(p, e, "module"))
    return perr(c, p, "ibsim module= prefixes are not supported");
  /* ignored, as in ibsim, but counted (sim_parse() notes them): blank and
   * '#' lines are comments, pdebug only sets ibsim's parser tracing */
  const char *q = skip_ws(p, e);
  if (q >= e || *q == '#' || starts_with(p, e, "pdebug"))
    return FL_OK;
  if (starts_with(p, e, "do")) {
    if (m->dos++ == 0)
      m->do_line = c->lineno;
  } else if (m->ignored++ == 0) {
    m->ignored_line = c->lineno;
  }
  return FL_OK;
}

/* A port line of the ibsim console's `Dump` command (sim_cmd.c dump_net):
 * the port GUID in hex, blanks, then "[port]". No net file line looks like
 * this (ibsim would silently ignore it, losing the cable). */
static int is_console_port_line(const char *p, const char *e) {
  const char *q = p;
  while (q < e && isxdigit((unsigned char)*q))
    q++;
  if (q == p || q >= e || (*q != ' ' && *q != '\t'))
    return 0;
  while (q < e && (*q == ' ' || *q == '\t'))
    q++;
  return q < e && *q == '[';
}

/* Console `Dump` output (its "# Net status" title or a port line) given as
 * a net file: refused, since its port lines are no net-file syntax. */
static int sim_console(pctx *c, const char *p, const char *e) {
  if (!starts_with(p, e, "# Net status") && !is_console_port_line(p, e))
    return FL_OK;
  return perr(c, p,
              "ibsim console output, not a net file: this is the text of "
              "the ibsim console's Dump command, whose port lines (\"GUID "
              "[port] ...\") a net file does not have; give the net file "
              "ibsim was started with, or ibnetdiscover output of the "
              "simulated fabric");
}

static int sim_line(ibsim *m, pctx *c, uint32_t *cur) {
  const char *p = c->ls, *e = c->le;
  int rc = sim_console(c, p, e);
  if (rc != FL_OK)
    return rc;
  if (*cur != UINT32_MAX) {
    if (p < e && *p == '#')
      return FL_OK;
    if (p < e && *p == '[')
      return sim_port(m, c, p, e, *cur);
    if (p < e && *p == '@')
      return perr(c, p, "ibsim port aliases (@) are not supported");
    *cur = UINT32_MAX; /* end of record */
  }
  if (p < e && *p == '[')
    return perr(c, p,
                "port line outside a node record (a record ends at the "
                "first line that is not a port line or a comment)");
  if (starts_with(p, e, "Switch"))
    return sim_header(m, c, p + 6, e, FL_NODE_SWITCH, cur);
  if (starts_with(p, e, "Hca"))
    return sim_header(m, c, p + 3, e, FL_NODE_CA, cur);
  if (starts_with(p, e, "Ca"))
    return sim_header(m, c, p + 2, e, FL_NODE_CA, cur);
  if (starts_with(p, e, "Rt"))
    return sim_header(m, c, p + 2, e, FL_NODE_ROUTER, cur);
  return sim_directive(m, c, p, e);
}

/* Parse text @t of file @path (its realpath @real, taken over) as one more
 * level of the include stack. */
static int sim_parse(ibsim *m, const char *path, char *real, text *t) {
  m->stack[m->depth++] = real;
  /* an included file is read here, not through load.c's refusals */
  int rc = fl_is_ibnd_cache(t->buf, t->len)
               ? fl_error_set(m->err, FL_EPARSE, path, 0, 0,
                              "this is an ibnetdiscover --cache file "
                              "(binary), not an ibsim net file")
               : FL_OK;
  pctx c;
  pctx_init(&c, m->fab, path, t, m->err);
  uint32_t cur = UINT32_MAX;
  uint32_t outer[4] = {m->ignored, m->ignored_line, m->dos, m->do_line};
  m->ignored = m->ignored_line = m->dos = m->do_line = 0;
  while (rc == FL_OK && next_line(&c))
    rc = sim_line(m, &c, &cur);
  if (rc == FL_OK && m->ignored)
    fl_b_note(m->fab, "topology", (fl_prov){c.file, m->ignored_line, 1},
              "%u line(s) that are no net-file syntax were ignored, as ibsim "
              "ignores them (the first is line %u)",
              m->ignored, m->ignored_line);
  if (rc == FL_OK && m->dos)
    fl_b_note(m->fab, "topology", (fl_prov){c.file, m->do_line, 1},
              "%u `do` console command(s) were not applied: ibsim runs them "
              "when it reads the file (they may link or unlink ports), "
              "fabriclint loads the cabling as written (the first is line "
              "%u)",
              m->dos, m->do_line);
  m->ignored = outer[0];
  m->ignored_line = outer[1];
  m->dos = outer[2];
  m->do_line = outer[3];
  free(m->stack[--m->depth]);
  return rc;
}

/* An included file: read through the shared reader (size limit, no
 * devices, no NUL byte), within the include budget (depth, file count,
 * no cycle). */
static int sim_read_file(ibsim *m, const char *path) {
  if (m->depth >= IBSIM_MAX_INCLUDE)
    return fl_error_set(m->err, FL_EPARSE, path, 0, 0,
                        "includes nested deeper than %d levels",
                        IBSIM_MAX_INCLUDE);
  if (++m->n_included > IBSIM_MAX_FILES)
    return fl_error_set(m->err, FL_EPARSE, path, 0, 0,
                        "more than %d includes in one net file (the include "
                        "budget; each include of a file counts)",
                        IBSIM_MAX_FILES);
  /* The canonical name is only the identity for include-cycle detection. A
   * pipe or memfd (/dev/fd/N from `<(...)`, /proc/self/fd/N) has no path
   * realpath() can resolve: the name as given identifies it then, and
   * text_read() reports a file that really cannot be opened. */
  char *real = realpath(path, NULL);
  if (!real && !(real = strdup(path)))
    return fl_error_set(m->err, FL_ENOMEM, path, 0, 0, "out of memory");
  for (int i = 0; i < m->depth; i++) {
    if (strcmp(m->stack[i], real) == 0) {
      free(real);
      return fl_error_set(m->err, FL_EPARSE, path, 0, 0,
                          "include cycle: this file is already being read");
    }
  }
  fl_input in;
  int rc = fl_input_read(&in, path, "net file", FL_IN_TEXT, m->err);
  if (rc) {
    free(real);
    return rc;
  }
  if (m->digest) {
    fl_file_digest d;
    fl_digest_of(&d, in.buf, in.len);
    if (fl_b_file_digest(m->fab, fl_b_file(m->fab, path), &d) != FL_OK)
      rc = fl_error_set(m->err, FL_ENOMEM, path, 0, 0, "out of memory");
  }
  text t = text_of(&in);
  if (rc == FL_OK)
    rc = sim_parse(m, path, real, &t);
  fl_input_free(&in);
  return rc;
}

/* Resolve peer ids; an undeclared id is an error, as in connect_ports(). */
static int sim_resolve(ibsim *m) {
  for (size_t i = 0; i < m->s.nl; i++) {
    fl_listing *l = &m->s.ls[i];
    uint32_t idx = m->id_node[l->peer_guid];
    if (idx == UINT32_MAX)
      return fl_error_set(m->err, FL_EPARSE, fl_b_file_path(m->fab, l->file),
                          l->line, 0,
                          "peer node \"%s\" is not declared by any Switch/Hca/"
                          "Rt record",
                          fl_strmap_key(&m->ids, l->peer_guid));
    l->peer = idx;
  }
  return FL_OK;
}

/* Active width/speed of each fl_listing from both ends' enabled masks. */
static void sim_active(ibsim *m) {
  fl_lstate *s = &m->s;
  for (size_t i = 0; i < s->nl; i++) {
    fl_listing *l = &s->ls[i];
    if (l->explicit_ws)
      continue;
    uint32_t w = l->wmask, sp = l->smask, x = l->emask;
    uint32_t j = fl_ls_partner(s, i);
    if (j != UINT32_MAX) {
      w &= s->ls[j].wmask;
      sp &= s->ls[j].smask;
      x &= s->ls[j].emask;
    }
    l->width = sim_best_width(w);
    l->speed = sim_best_speed(sp, x);
  }
}

int fl_load_ibsim_net(fl_fabric *fab, const fl_input *in,
                      const fl_load_options *opts, fl_error *err) {
  const char *path = in->path;
  ibsim m;
  memset(&m, 0, sizeof m);
  m.fab = fab;
  m.err = err;
  m.digest = opts->digest;
  m.absbase[FL_NODE_CA] = m.base[FL_NODE_CA] = 0x100000;
  m.absbase[FL_NODE_SWITCH] = m.base[FL_NODE_SWITCH] = 0x200000;
  m.width = 2; /* DEFAULT_LINKWIDTH: 4x */
  m.speed = 1; /* DEFAULT_LINKSPEED: SDR */
  int rc = fl_ls_names(&m.s, opts, err);
  if (rc == FL_OK) {
    char *real = realpath(path, NULL);
    text t = text_of(in);
    if (!real)
      real = strdup(path); /* "-", a pipe: nothing can include it */
    rc = real ? sim_parse(&m, path, real, &t)
              : fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  }
  if (rc == FL_OK && m.s.nn == 0)
    rc = fl_error_set(err, FL_EPARSE, path, 0, 0,
                      "no Switch/Hca/Ca/Rt record found: not an ibsim net "
                      "file");
  if (rc == FL_OK)
    rc = sim_resolve(&m);
  if (rc == FL_OK) {
    if (fl_ls_index(&m.s))
      rc = fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
    else
      sim_active(&m);
  }
  if (rc == FL_OK && fl_ls_merge_links(&m.s, fab))
    rc = fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  fl_strmap_free(&m.ids);
  free(m.id_node);
  fl_ls_free(&m.s);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

const fl_format_def fl_fmt_ibsim_net = {
    FL_FMT_IBSIM_NET,   "ibsim-net",       "ibsim",
    FL_FORMAT_TOPOLOGY, fl_load_ibsim_net, fl_detect_ibnd_family,
    "an ibsim net file"};
