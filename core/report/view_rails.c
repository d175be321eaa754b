/* SPDX-License-Identifier: MIT */
/*
 * core/report/view_rails.c — the rails view: per scalable unit, a table of
 * hosts (rows) by rails (columns) whose cells say which leaf and port each
 * NIC lands on (picture.h).
 *
 * A NIC is a cabled port of a CA that lands on a switch (SHARP Aggregation
 * Nodes are not NICs). Its host is the CA's system (else its name); its
 * rail the port's `rail` attribute, else the node's, else, on a CA with
 * several cabled ports (an Ethernet host), the port label; else the
 * device (mlx5_0), as rail-alignment's `device` profile reads it. SUs are
 * `su` (else `pod`) attributes of the host or its leaves, else the SU
 * the core infers from the site's names when they are consistent (every
 * leaf named su<N>: fabriclint/infer.h), else the groups of leaves that
 * share hosts, numbered in node order, as rail-alignment forms them.
 *
 * A cell a finding names is filled in the severity colour, with the fix
 * ("-> leaf-su01-r0 p1") when the finding's evidence gives one for that
 * NIC (objects with "nic", "fix_leaf", "fix_port", as rail-alignment
 * writes them). A cell on another leaf than most NICs of its rail in its
 * SU is filled yellow even when no finding names it, so a stray cable
 * shows. SUs with a marked or stray cell are drawn (at most
 * RAILS_MAX_CELLS cells), or on a clean fabric the first SU; the others
 * are summed up in one line each, consecutive clean SUs of the same size
 * in one line together.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fabriclint/fabric.h"
#include "fabriclint/infer.h"
#include "fabriclint/json_buf.h"
#include "report/pic_view.h"
#include "util/natcmp.h"
#include "util/xml_escape.h"

#define RAILS_MAX_CELLS   4096u
#define RAILS_MAX_SUMMARY 64u
#define STRAY_FILL        "#fff3b0"

typedef struct nic {
  fl_id node, port, link, leaf;
  uint32_t leaf_port;
  uint32_t host, rail, su;                /* indexes into the string tables */
  uint32_t host_rank, rail_rank, su_rank; /* natural order */
} nic;

typedef struct rails {
  nic *v;
  size_t n, cap;
  fl_strmap hosts, rails_, sus; /* names -> index */
  uint32_t *su_rail_leaf;       /* [sus * rails] majority leaf, FL_NONE */
  uint8_t *su_draw;             /* [sus] 1: drawn in full */
} rails;

static uint32_t intern(fl_strmap *m, const char *s) {
  return fl_strmap_put(m, s, strlen(s), (uint32_t)fl_strmap_len(m));
}

static int is_sharp_an(const fl_fabric *f, fl_id n) {
  return fl_fabric_node_devid(f, n) == 0xcf09 ||
         strstr(fl_fabric_node_desc(f, n), "Aggregation Node") != NULL;
}

static uint32_t cabled_switch_ports(const fl_fabric *f, fl_id n) {
  uint32_t k = 0, np = fl_fabric_node_port_count(f, n);
  fl_id p0 = fl_fabric_node_first_port(f, n);
  for (uint32_t i = 0; i < np; i++)
    for (uint32_t j = 0; j < fl_fabric_port_link_count(f, p0 + i); j++) {
      fl_id q =
          fl_fabric_link_other(f, fl_fabric_port_link(f, p0 + i, j), p0 + i);
      if (q != FL_NONE &&
          fl_fabric_node_kind(f, fl_fabric_port_node(f, q)) != FL_NODE_CA) {
        k++;
        break;
      }
    }
  return k;
}

/* The rail column of NIC (@n, @p). */
static const char *rail_of(const fl_fabric *f, fl_id n, fl_id p, int multi,
                           char *buf, size_t size) {
  const char *r = fl_fabric_attr(f, FL_ENT_PORT, p, "rail");
  if (!r)
    r = fl_fabric_attr(f, FL_ENT_NODE, n, "rail");
  if (r)
    return r;
  if (multi) {
    const char *lab = fl_fabric_port_label(f, p);
    if (*lab)
      return lab;
    snprintf(buf, size, "port %u", fl_fabric_port_num(f, p));
    return buf;
  }
  const char *dev = fl_fabric_node_device(f, n);
  return *dev ? dev : fl_fabric_node_name(f, n);
}

/* The `su` (else `pod`) attribute of @n; *@word says which. */
static const char *su_attr(const fl_fabric *f, fl_id n, const char **word) {
  const char *s = fl_fabric_attr(f, FL_ENT_NODE, n, "su");
  *word = "SU";
  if (s)
    return s;
  *word = "pod";
  return fl_fabric_attr(f, FL_ENT_NODE, n, "pod");
}

static int add_nic(rails *r, const fl_fabric *f, fl_id n, fl_id p, fl_id l,
                   fl_id q, int multi) {
  if (r->n == r->cap) {
    size_t nc = r->cap ? r->cap * 2 : 256;
    nic *nv = realloc(r->v, nc * sizeof *nv);
    if (!nv)
      return -1;
    r->v = nv;
    r->cap = nc;
  }
  char buf[32];
  const char *sys = fl_fabric_node_system(f, n);
  nic *x = &r->v[r->n++];
  x->node = n, x->port = p, x->link = l;
  x->leaf = fl_fabric_port_node(f, q);
  x->leaf_port = fl_fabric_port_num(f, q);
  x->host = intern(&r->hosts, *sys ? sys : fl_fabric_node_name(f, n));
  x->rail = intern(&r->rails_, rail_of(f, n, p, multi, buf, sizeof buf));
  x->su = FL_MAP_ABSENT;
  return x->host == FL_MAP_ABSENT || x->rail == FL_MAP_ABSENT ? -1 : 0;
}

static int collect(rails *r, const fl_fabric *f) {
  uint32_t nn = fl_fabric_node_count(f);
  for (fl_id n = 0; n < nn; n++) {
    if (fl_fabric_node_kind(f, n) != FL_NODE_CA || is_sharp_an(f, n))
      continue;
    int multi = cabled_switch_ports(f, n) >= 2;
    fl_id p0 = fl_fabric_node_first_port(f, n);
    uint32_t np = fl_fabric_node_port_count(f, n);
    for (uint32_t i = 0; i < np; i++) {
      fl_id p = p0 + i;
      if (fl_fabric_port_link_count(f, p) == 0)
        continue;
      fl_id l = fl_fabric_port_link(f, p, 0);
      fl_id q = fl_fabric_link_other(f, l, p);
      if (q == FL_NONE ||
          fl_fabric_node_kind(f, fl_fabric_port_node(f, q)) == FL_NODE_CA)
        continue;
      if (add_nic(r, f, n, p, l, q, multi) != 0)
        return -1;
    }
  }
  return 0;
}

/* SUs: attributes of the host's node or its leaf; else the core's SU when
 * it comes from the site's names (leaf-su02-*: fabriclint/infer.h); else
 * leaves that share hosts (union-find over leaves through hosts), numbered
 * in node order. */
static int assign_sus(rails *r, const fl_fabric *f) {
  uint32_t nn = fl_fabric_node_count(f),
           nh = (uint32_t)fl_strmap_len(&r->hosts);
  fl_id *rep = malloc((nn + 1) * sizeof *rep);
  fl_id *host_leaf = malloc((nh + 1) * sizeof *host_leaf);
  uint32_t *num = calloc(nn + 1, sizeof *num);
  if (!rep || !host_leaf || !num) {
    free(rep), free(host_leaf), free(num);
    return -1;
  }
  for (fl_id n = 0; n < nn; n++)
    rep[n] = n;
  for (uint32_t h = 0; h < nh; h++)
    host_leaf[h] = FL_NONE;
  for (size_t i = 0; i < r->n; i++) {
    nic *x = &r->v[i];
    fl_id a = x->leaf, b = host_leaf[x->host];
    if (b == FL_NONE) {
      host_leaf[x->host] = a;
      continue;
    }
    while (rep[a] != a)
      a = rep[a] = rep[rep[a]];
    while (rep[b] != b)
      b = rep[b] = rep[rep[b]];
    if (a != b)
      rep[a > b ? a : b] = a < b ? a : b;
  }
  uint32_t next = 0;
  for (fl_id n = 0; n < nn; n++) { /* number the groups in node order */
    fl_id a = n;
    while (rep[a] != a)
      a = rep[a];
    if (a == n && fl_fabric_node_kind(f, n) != FL_NODE_CA)
      num[n] = ++next;
  }
  int rc = 0, by_names = strcmp(fl_fabric_su_source(f), "names") == 0;
  char key[256];
  for (size_t i = 0; i < r->n && rc == 0; i++) {
    nic *x = &r->v[i];
    const char *word;
    const char *s = su_attr(f, x->node, &word);
    if (!s)
      s = su_attr(f, x->leaf, &word);
    uint32_t named = by_names ? fl_fabric_node_su(f, x->node) : 0;
    if (s) {
      snprintf(key, sizeof key, "%s %s", word, s);
    } else if (named) { /* the site's names (fabriclint/infer.h) */
      snprintf(key, sizeof key, "SU %u", named);
    } else {
      fl_id a = host_leaf[x->host];
      while (rep[a] != a)
        a = rep[a];
      snprintf(key, sizeof key, "SU %u", num[a]);
    }
    x->su = intern(&r->sus, key);
    rc = x->su == FL_MAP_ABSENT ? -1 : 0;
  }
  free(rep), free(host_leaf), free(num);
  return rc;
}

/* The rail's usual leaf in each SU: the leaf more than half of its NICs
 * land on (none when no leaf has that many: the fabric is not
 * rail-optimised, e.g. a fat tree whose hosts have one NIC each). */
static int majority_leaves(rails *r, const fl_fabric *f) {
  size_t ns = fl_strmap_len(&r->sus), nr = fl_strmap_len(&r->rails_);
  r->su_rail_leaf = malloc((ns * nr + 1) * sizeof *r->su_rail_leaf);
  uint32_t *best = calloc(ns * nr + 1, sizeof *best);
  uint32_t *total = calloc(ns * nr + 1, sizeof *total);
  fl_u64map cnt = {0};
  int rc = r->su_rail_leaf && best && total ? 0 : -1;
  for (size_t i = 0; rc == 0 && i < ns * nr; i++)
    r->su_rail_leaf[i] = FL_NONE;
  for (size_t i = 0; rc == 0 && i < r->n; i++) {
    const nic *x = &r->v[i];
    size_t cell = (size_t)x->su * nr + x->rail;
    uint64_t key = (uint64_t)cell << 32 | x->leaf;
    uint32_t c = fl_u64map_get(&cnt, key);
    c = c == FL_MAP_ABSENT ? 1 : c + 1;
    if (fl_u64map_set(&cnt, key, c) != 0) {
      rc = -1;
      break;
    }
    total[cell]++;
    if (c > best[cell] ||
        (c == best[cell] && x->leaf < r->su_rail_leaf[cell])) {
      best[cell] = c;
      r->su_rail_leaf[cell] = x->leaf;
    }
  }
  for (size_t i = 0; rc == 0 && i < ns * nr; i++)
    if (2 * (uint64_t)best[i] <= total[i])
      r->su_rail_leaf[i] = FL_NONE;
  (void)f;
  fl_u64map_free(&cnt);
  free(best);
  free(total);
  return rc;
}

/* Natural-order rank of every key of @m into @rank (0 first). */
typedef struct keyref {
  const char *key;
  uint32_t index;
} keyref;

static int keyref_cmp(const void *a, const void *b) {
  const keyref *x = a, *y = b;
  int c = fl_natcmp(x->key, y->key);
  return c ? c : strcmp(x->key, y->key);
}

static uint32_t *ranks(const fl_strmap *m) {
  size_t n = fl_strmap_len(m);
  keyref *v = malloc((n + 1) * sizeof *v);
  uint32_t *rank = malloc((n + 1) * sizeof *rank);
  if (!v || !rank) {
    free(v);
    free(rank);
    return NULL;
  }
  for (size_t i = 0; i < n; i++)
    v[i] = (keyref){fl_strmap_key(m, i), (uint32_t)i};
  qsort(v, n, sizeof *v, keyref_cmp);
  for (size_t i = 0; i < n; i++)
    rank[v[i].index] = (uint32_t)i;
  free(v);
  return rank;
}

static int nic_cmp(const void *pa, const void *pb) {
  const nic *a = pa, *b = pb;
  if (a->su_rank != b->su_rank)
    return a->su_rank < b->su_rank ? -1 : 1;
  if (a->host_rank != b->host_rank)
    return a->host_rank < b->host_rank ? -1 : 1;
  if (a->rail_rank != b->rail_rank)
    return a->rail_rank < b->rail_rank ? -1 : 1;
  if (a->node != b->node)
    return a->node < b->node ? -1 : 1;
  return a->port < b->port ? -1 : a->port > b->port;
}

/* Sort the NICs by SU, host and rail in natural order. */
static int sort_nics(rails *r) {
  uint32_t *rs = ranks(&r->sus), *rh = ranks(&r->hosts),
           *rr = ranks(&r->rails_);
  int rc = rs && rh && rr ? 0 : -1;
  for (size_t i = 0; rc == 0 && i < r->n; i++) {
    r->v[i].su_rank = rs[r->v[i].su];
    r->v[i].host_rank = rh[r->v[i].host];
    r->v[i].rail_rank = rr[r->v[i].rail];
  }
  if (rc == 0)
    qsort(r->v, r->n, sizeof *r->v, nic_cmp);
  free(rs), free(rh), free(rr);
  return rc;
}

static void rails_free(rails *r) {
  free(r->v);
  fl_strmap_free(&r->hosts);
  fl_strmap_free(&r->rails_);
  fl_strmap_free(&r->sus);
  free(r->su_rail_leaf);
  free(r->su_draw);
}

/* ---- fix text from evidence
 * --------------------------------------------------
 */

/* Find in @j an object with "nic" == @name and "fix_leaf"/"fix_port"; copy
 * "LEAF pPORT" into @out. Depth-limited. */
static int find_fix(const json_t *j, const char *name, char *out, size_t size,
                    int depth) {
  if (!j || depth > 8)
    return 0;
  if (json_is_object(j)) {
    const char *nicv = json_string_value(json_object_get(j, "nic"));
    const json_t *fl = json_object_get(j, "fix_leaf");
    const json_t *fp = json_object_get(j, "fix_port");
    if (nicv && strcmp(nicv, name) == 0 && json_is_string(fl) &&
        json_is_integer(fp)) {
      snprintf(out, size, "%s p%lld", json_string_value(fl),
               (long long)json_integer_value(fp));
      return 1;
    }
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)j, k, v) {
      if (find_fix(v, name, out, size, depth + 1))
        return 1;
    }
  } else if (json_is_array(j)) {
    for (size_t i = 0; i < json_array_size(j); i++)
      if (find_fix(json_array_get(j, i), name, out, size, depth + 1))
        return 1;
  }
  return 0;
}

/* The fix for NIC node @name from findings @f[0..n). */
static int fix_of(const pic_ctx *c, const uint32_t *f, uint32_t n,
                  const char *name, char *out, size_t size) {
  for (uint32_t i = 0; i < n; i++) {
    const fl_finding_rec *r = &c->fs->v[f[i] - 1];
    if (!r->evidence)
      continue;
    json_t *j = json_loads(r->evidence, 0, NULL);
    int found = find_fix(j, name, out, size, 0);
    json_decref(j);
    if (found)
      return 1;
  }
  return 0;
}

/* ---- tables --------------------------------------------------------------
 */

/* Table labels are built in the project's growable text buffer
 * (fabriclint/json_buf.h: jb_raw(); `failed` when out of memory). */
typedef jbuf tbuf;

static void tb_put(tbuf *b, const char *s) {
  jb_raw(b, s, strlen(s));
}

static void tb_text(tbuf *b, const char *s) {
  char one[2] = {0, 0};
  for (; *s; s++) {
    const char *e = fl_xml_entity((unsigned char)*s, FL_XML_TEXT | FL_XML_NL);
    if (e) {
      tb_put(b, e);
    } else {
      one[0] = *s;
      tb_put(b, one);
    }
  }
}

/* One cell: the NICs [@i, @j) of one (host, rail). */
static void cell(tbuf *b, pic_scene *s, const pic_ctx *c, const rails *r,
                 size_t i, size_t j, size_t nr, uint32_t *sev_max) {
  const fl_fabric *f = c->fab;
  const pic_marks *m = &c->marks;
  const nic *x = &r->v[i];
  uint32_t sev = 0;
  int stray = 0;
  for (size_t k = i; k < j; k++) {
    if (m->link_sev[r->v[k].link] > sev)
      sev = m->link_sev[r->v[k].link];
    fl_id want = r->su_rail_leaf[(size_t)r->v[k].su * nr + r->v[k].rail];
    stray |= want != FL_NONE && want != r->v[k].leaf;
  }
  if (sev > *sev_max)
    *sev_max = sev;
  char id[PIC_ID_MAX], num[32];
  size_t len = 0;
  id[0] = '\0';
  snprintf(id, sizeof id, "nic-");
  len = strlen(id);
  pic_id_enc(id, sizeof id, &len, fl_fabric_node_name(f, x->node));
  snprintf(num, sizeof num, "~%u", fl_fabric_port_num(f, x->port));
  snprintf(id + len, sizeof id - len, "%s", num);
  const char *fill = sev ? pic_sev_fill(sev) : stray ? STRAY_FILL : NULL;
  tb_put(b, "<TD ID=\"");
  tb_text(b, id);
  tb_put(b, "\" HREF=\"#");
  tb_text(b, id);
  tb_put(b, "\"");
  if (fill) {
    tb_put(b, " BGCOLOR=\"");
    tb_put(b, fill);
    tb_put(b, "\"");
  }
  /* tooltip: where each NIC is, where its rail's leaf is, the findings */
  char *tip = pic_strdup(s, "");
  for (size_t k = i; k < j && tip; k++) {
    const nic *y = &r->v[k];
    fl_id want = r->su_rail_leaf[(size_t)y->su * nr + y->rail];
    tip = pic_printf(
        s, "%s%s%s port %u -> %s port %u (rail %s%s%s)", tip, *tip ? "\n" : "",
        fl_fabric_node_name(f, y->node), fl_fabric_port_num(f, y->port),
        fl_fabric_node_name(f, y->leaf), y->leaf_port,
        fl_strmap_key(&r->rails_, y->rail),
        want != FL_NONE && want != y->leaf ? "; its leaf: " : "",
        want != FL_NONE && want != y->leaf ? fl_fabric_node_name(f, want) : "");
    tip = pic_tooltip_findings(s, c, tip, m->link_f + m->link_off[y->link],
                               m->link_off[y->link + 1] - m->link_off[y->link]);
  }
  tb_put(b, " TOOLTIP=\"");
  tb_text(b, tip ? tip : "");
  tb_put(b, "\">");
  for (size_t k = i; k < j; k++) {
    const nic *y = &r->v[k];
    char fix[300];
    snprintf(num, sizeof num, " p%u", y->leaf_port);
    if (k > i)
      tb_put(b, "<BR/>");
    if (sev)
      tb_put(b, "<B>");
    tb_text(b, fl_fabric_node_name(f, y->leaf));
    tb_put(b, num);
    if (sev)
      tb_put(b, "</B>");
    uint32_t o = m->link_off[y->link], e = m->link_off[y->link + 1];
    if (e > o && fix_of(c, m->link_f + o, e - o,
                        fl_fabric_node_name(f, y->node), fix, sizeof fix)) {
      tb_put(b, "<BR/><FONT COLOR=\"");
      tb_put(b, pic_sev_colour(m->link_sev[y->link]));
      tb_put(b, "\">fix: -&gt; ");
      tb_text(b, fix);
      tb_put(b, "</FONT>");
    }
  }
  tb_put(b, "</TD>");
}

/* The row header of host rows [@h, @he): the host, in the colour of the
 * worst finding naming one of its NICs (an incomplete host, a swap). */
static void host_cell(tbuf *b, pic_scene *s, const pic_ctx *c, const rails *r,
                      size_t h, size_t he) {
  const pic_marks *m = &c->marks;
  const char *host = fl_strmap_key(&r->hosts, r->v[h].host);
  uint32_t sev = 0, f[PIC_MAX_CLASSES], nf = 0;
  for (size_t k = h; k < he; k++) {
    fl_id n = r->v[k].node;
    if (m->node_sev[n] > sev)
      sev = m->node_sev[n];
    for (uint32_t i = m->node_off[n]; i < m->node_off[n + 1]; i++) {
      int seen = 0;
      for (uint32_t j = 0; j < nf && !seen; j++)
        seen = f[j] == m->node_f[i];
      if (!seen && nf < PIC_MAX_CLASSES)
        f[nf++] = m->node_f[i];
    }
  }
  tb_put(b, "<TD ALIGN=\"LEFT\"");
  if (sev) {
    char id[PIC_ID_MAX];
    pic_id(id, sizeof id, "host-", host);
    tb_put(b, " ID=\"");
    tb_text(b, id);
    tb_put(b, "\" HREF=\"#");
    tb_text(b, id);
    tb_put(b, "\" BGCOLOR=\"");
    tb_put(b, pic_sev_fill(sev));
    tb_put(b, "\" TOOLTIP=\"");
    char *tip = pic_tooltip_findings(s, c, host, f, nf);
    tb_text(b, tip ? tip : host);
    tb_put(b, "\"");
  }
  tb_put(b, ">");
  tb_text(b, host);
  tb_put(b, "</TD>");
}

/* The table of SU @su: rows [@i, @j) of r->v (sorted), @cols rail indexes
 * in natural order. Returns the cells drawn. */
static size_t su_table(tbuf *b, pic_scene *s, const pic_ctx *c, const rails *r,
                       size_t i, size_t j, const uint32_t *cols, size_t ncols,
                       uint32_t *sev) {
  const fl_fabric *f = c->fab;
  size_t nr = fl_strmap_len(&r->rails_), cells = 0;
  tb_put(b, "<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" "
            "CELLPADDING=\"3\" BGCOLOR=\"white\"><TR><TD BGCOLOR=\"#dde3ec\">"
            "<B>");
  tb_text(b, fl_strmap_key(&r->sus, r->v[i].su));
  tb_put(b, "</B></TD>");
  for (size_t k = 0; k < ncols; k++) {
    fl_id want = r->su_rail_leaf[(size_t)r->v[i].su * nr + cols[k]];
    tb_put(b, "<TD BGCOLOR=\"#dde3ec\"><B>");
    tb_text(b, fl_strmap_key(&r->rails_, cols[k]));
    tb_put(b, "</B><BR/><FONT POINT-SIZE=\"8\">");
    tb_text(b,
            want != FL_NONE ? fl_fabric_node_name(f, want) : "(no usual leaf)");
    tb_put(b, "</FONT></TD>");
  }
  tb_put(b, "</TR>");
  for (size_t h = i; h < j;) {
    size_t he = h;
    while (he < j && r->v[he].host == r->v[h].host)
      he++;
    tb_put(b, "<TR>");
    host_cell(b, s, c, r, h, he);
    size_t k = h;
    for (size_t col = 0; col < ncols; col++) {
      if (k < he && r->v[k].rail == cols[col]) {
        size_t ke = k;
        while (ke < he && r->v[ke].rail == cols[col])
          ke++;
        cell(b, s, c, r, k, ke, nr, sev);
        cells++;
        k = ke;
      } else {
        tb_put(b, "<TD><FONT COLOR=\"#999999\">-</FONT></TD>");
      }
    }
    tb_put(b, "</TR>");
    h = he;
  }
  tb_put(b, "</TABLE>");
  return cells;
}

/* Rails of SU rows [@i, @j) in natural order into @cols; their count. */
static size_t su_columns(const rails *r, size_t i, size_t j, uint32_t *cols) {
  size_t nr = fl_strmap_len(&r->rails_), n = 0;
  uint8_t *seen = calloc(nr + 1, 1);
  if (!seen)
    return 0;
  for (size_t k = i; k < j; k++)
    if (!seen[r->v[k].rail])
      seen[r->v[k].rail] = 1, cols[n++] = r->v[k].rail;
  free(seen);
  for (size_t a = 1; a < n; a++) /* insertion sort: a few rails */
    for (size_t k = a;
         k > 0 && fl_natcmp(fl_strmap_key(&r->rails_, cols[k - 1]),
                            fl_strmap_key(&r->rails_, cols[k])) > 0;
         k--) {
      uint32_t t = cols[k];
      cols[k] = cols[k - 1];
      cols[k - 1] = t;
    }
  return n;
}

/* 1 when SU rows [@i, @j) hold something a finding names: a NIC's cable
 * (a cell), a NIC (its host's row: an incomplete host), a leaf (a column:
 * the SU's shape), or a stray cable. (Cables alone were looked at: an SU
 * whose incomplete host and short leaf had findings was summed up as
 * "none named by a finding", an outside tester found.) */
static int su_notable(const pic_ctx *c, const rails *r, size_t i, size_t j) {
  size_t nr = fl_strmap_len(&r->rails_);
  const pic_marks *m = &c->marks;
  for (size_t k = i; k < j; k++) {
    const nic *x = &r->v[k];
    fl_id want = r->su_rail_leaf[(size_t)x->su * nr + x->rail];
    if (m->link_sev[x->link] || m->node_sev[x->node] || m->node_sev[x->leaf] ||
        (want != FL_NONE && want != x->leaf))
      return 1;
  }
  return 0;
}

/* 1 when SU name @b follows @a: the same text before a final number one
 * larger ("SU 4" after "SU 3", "su10" after "su09"), so that a run's "SU 2
 * to SU 5" never hides a missing SU 3. */
static int next_name(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b), da = la, db = lb;
  while (da && a[da - 1] >= '0' && a[da - 1] <= '9')
    da--;
  while (db && b[db - 1] >= '0' && b[db - 1] <= '9')
    db--;
  if (da == la || db == lb || da != db || strncmp(a, b, da) != 0 ||
      la - da > 9 || lb - db > 9)
    return 0;
  return strtoul(b + db, NULL, 10) == strtoul(a + da, NULL, 10) + 1;
}

/* Consecutive clean SUs (in the natural order of their names, numbered
 * one after the other) not drawn with as many NICs on as many rails: one
 * line for them all, so that the
 * side box of a 16-SU fabric is one line, not 15 (issue 36: pictures
 * readable at fit from 1 to 16 SUs). */
typedef struct clean_run {
  const char *first, *last;
  size_t n, cells, ncols;
} clean_run;

static int flush_run(pic_scene *s, clean_run *run, size_t *summarised) {
  if (!run->n || (*summarised)++ >= RAILS_MAX_SUMMARY) {
    run->n = 0;
    return 0;
  }
  char line[640], who[300];
  if (run->n == 1)
    snprintf(who, sizeof who, "%.200s", run->first);
  else
    snprintf(who, sizeof who, "%.140s to %.140s (%zu)", run->first, run->last,
             run->n);
  snprintf(line, sizeof line,
           "%s: %zu NICs on %zu rail%s%s, none named by a finding, none off "
           "its rail's usual leaf",
           who, run->cells, run->ncols, run->ncols == 1 ? "" : "s",
           run->n > 1 ? " each" : "");
  run->n = 0;
  return pic_scene_side(s, line);
}

static int draw(pic_scene *s, const pic_ctx *c, rails *r) {
  size_t nr = fl_strmap_len(&r->rails_), drawn_cells = 0, summarised = 0;
  clean_run run = {0};
  uint32_t *cols = malloc((nr + 1) * sizeof *cols);
  if (!cols)
    return -1;
  uint32_t prev = PIC_NONE;
  int rc = 0, any_notable = 0;
  for (size_t i = 0; i < r->n;) {
    size_t j = i;
    while (j < r->n && r->v[j].su == r->v[i].su)
      j++;
    any_notable |= su_notable(c, r, i, j);
    i = j;
  }
  for (size_t i = 0; i < r->n && rc == 0;) {
    size_t j = i;
    while (j < r->n && r->v[j].su == r->v[i].su)
      j++;
    int notable = su_notable(c, r, i, j);
    size_t ncols = su_columns(r, i, j, cols);
    size_t cells = j - i;
    const char *su = fl_strmap_key(&r->sus, r->v[i].su);
    /* the SUs with something to see; on a clean fabric the first one */
    if ((notable || (!any_notable && prev == PIC_NONE)) &&
        drawn_cells + cells <= RAILS_MAX_CELLS) {
      rc = flush_run(s, &run, &summarised); /* a run is of adjacent SUs */
      if (rc)
        break;
      tbuf b = {0};
      uint32_t sev = 0;
      drawn_cells += su_table(&b, s, c, r, i, j, cols, ncols, &sev);
      char id[PIC_ID_MAX];
      uint32_t n = b.failed
                       ? PIC_NONE
                       : pic_scene_node(s, pic_id(id, sizeof id, "su-", su),
                                        PIC_SHAPE_TABLE, NULL);
      if (n == PIC_NONE) {
        free(b.s);
        rc = -1;
        break;
      }
      s->nodes[n].html = pic_strdup(s, b.s);
      s->nodes[n].sev = sev;
      free(b.s);
      if (prev != PIC_NONE) { /* stack the SU tables top to bottom */
        char eid[PIC_ID_MAX * 2 + 8];
        snprintf(eid, sizeof eid, "order-%s~%s", s->nodes[prev].id,
                 s->nodes[n].id);
        uint32_t e = pic_scene_edge(s, prev, n, eid);
        if (e == PIC_NONE)
          rc = -1;
        else
          s->edges[e].style = PIC_STYLE_INVIS;
      }
      prev = n;
    } else if (!notable && run.n && run.cells == cells && run.ncols == ncols &&
               next_name(run.last, su)) {
      run.last = su, run.n++; /* one more clean SU like the run's */
    } else {
      rc = flush_run(s, &run, &summarised);
      if (rc == 0 && notable && summarised++ < RAILS_MAX_SUMMARY) {
        char line[512];
        snprintf(line, sizeof line,
                 "%s: %zu NICs on %zu rails, not drawn (cell limit %u "
                 "reached)",
                 su, cells, ncols, RAILS_MAX_CELLS);
        rc = pic_scene_side(s, line);
      } else if (!notable) {
        run = (clean_run){su, su, 1, cells, ncols};
      }
    }
    i = j;
  }
  if (rc == 0)
    rc = flush_run(s, &run, &summarised);
  if (rc == 0 && summarised > RAILS_MAX_SUMMARY) {
    char line[128];
    snprintf(line, sizeof line, "and %zu more SUs",
             summarised - RAILS_MAX_SUMMARY);
    rc = pic_scene_side(s, line);
  }
  free(cols);
  return rc;
}

int pic_view_rails(pic_scene *s, const pic_ctx *c) {
  rails r;
  memset(&r, 0, sizeof r);
  s->title = pic_view_title(s, c, "rails");
  s->rank_rows = 0;
  int rc = collect(&r, c->fab);
  if (rc == 0)
    rc = assign_sus(&r, c->fab);
  if (rc == 0)
    rc = majority_leaves(&r, c->fab);
  if (rc == 0 && r.n) {
    rc = sort_nics(&r);
  }
  if (rc == 0 && r.n) {
    s->side_title = pic_strdup(s, "SUs");
    rc = draw(s, c, &r);
  } else if (rc == 0) {
    rc = pic_scene_side(s, "no NIC: no CA port is cabled to a switch");
  }
  if (rc == 0)
    rc = pic_scene_legend(s, STRAY_FILL, 0, 1,
                          "NIC on another leaf than most NICs of its rail in "
                          "its SU (header: that leaf)") ||
         pic_add_sev_legend(s, c) || pic_add_notes(s, c, "rail-alignment.");
  rails_free(&r);
  return rc || s->oom ? -1 : 0;
}
