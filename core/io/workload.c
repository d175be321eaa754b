/* SPDX-License-Identifier: MIT */
/*
 * core/io/workload.c — reader of the `fabriclint perf` job description
 * (grammar in workload.h and docs/perf.md). libyaml's document API, as the
 * policy and annotation readers use; nesting is capped before libyaml sees
 * the text (fl_yaml_depth_check), host and collective counts are capped,
 * and every refusal names file:line:col and what was expected.
 */
#include "io/workload.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <yaml.h>

#include "io/fileio.h"
#include "io/workload_impl.h"

static const struct {
  uint32_t op;
  const char *name;
} OPS[] = {
    {FL_WL_ALL_REDUCE, "all-reduce"},
    {FL_WL_ALL_GATHER, "all-gather"},
    {FL_WL_REDUCE_SCATTER, "reduce-scatter"},
    {FL_WL_ALL_TO_ALL, "all-to-all"},
    {FL_WL_SENDRECV, "sendrecv"},
};

const char *fl_wl_op_name(uint32_t op) {
  for (size_t i = 0; i < sizeof OPS / sizeof OPS[0]; i++)
    if (OPS[i].op == op)
      return OPS[i].name;
  return "?";
}

/* The routing words, in the order of FL_WL_ROUTE_*. */
static const char *const ROUTINGS[] = {"auto", "lft", "ar", "spray"};

int fl_wl_routing_parse(const char *s) {
  for (int i = 0; s && i < (int)(sizeof ROUTINGS / sizeof ROUTINGS[0]); i++)
    if (strcmp(s, ROUTINGS[i]) == 0)
      return i;
  return -1;
}

const char *fl_wl_routing_name(uint32_t routing) {
  return routing < sizeof ROUTINGS / sizeof ROUTINGS[0] ? ROUTINGS[routing]
                                                        : "?";
}

static int parse_int(const char *s, int64_t *out) {
  if (!s || !*s)
    return -1;
  errno = 0;
  char *end;
  long long v = strtoll(s, &end, 10);
  if (errno || *end)
    return -1;
  *out = v;
  return 0;
}

static int want_scalar(wrd *r, const yaml_node_t *v, const char *key,
                       const char **out) {
  *out = wl_scalar(v);
  if (!*out || !**out)
    return wl_fail(r, v, "expected a value for `%s`", key);
  return FL_OK;
}

static int coll_pair(wrd *r, fl_wl_coll *c, const char *key,
                     const yaml_node_t *v, int *has_bytes, int *has_alg) {
  const char *s;
  int rc = want_scalar(r, v, key, &s);
  if (rc != FL_OK)
    return rc;
  if (strcmp(key, "op") == 0) {
    for (size_t i = 0; i < sizeof OPS / sizeof OPS[0]; i++)
      if (strcmp(s, OPS[i].name) == 0)
        c->op = OPS[i].op;
    if (!c->op)
      return wl_fail(r, v,
                     "unknown op `%s`: expected all-reduce, all-gather, "
                     "reduce-scatter, all-to-all or sendrecv",
                     s);
    return FL_OK;
  }
  if (strcmp(key, "bytes") == 0) {
    if (wl_parse_bytes(s, &c->bytes) != 0 || c->bytes == 0)
      return wl_fail(r, v,
                     "bytes `%s`: expected a positive size (1073741824, 1GiB, "
                     "512MB)",
                     s);
    *has_bytes = 1;
    return FL_OK;
  }
  if (strcmp(key, "shift") == 0) {
    if (parse_int(s, &c->shift) != 0)
      return wl_fail(r, v, "shift `%s`: expected an integer", s);
    return FL_OK;
  }
  if (strcmp(key, "algorithm") == 0) {
    if (strcmp(s, "ring") != 0)
      return wl_fail(r, v,
                     "algorithm `%s`: only `ring` is modelled (docs/perf.md, "
                     "limits)",
                     s);
    *has_alg = 1;
    return FL_OK;
  }
  if (strcmp(key, "name") == 0) {
    free(c->name);
    c->name = strdup(s);
    return c->name ? FL_OK
                   : fl_error_set(r->err, FL_ENOMEM, r->path, 0, 0,
                                  "out of memory");
  }
  return wl_fail(r, v, "unknown key `%s`", key); /* not reached: checked */
}

static int known_coll_key(const char *key) {
  static const char *const K[] = {"op", "bytes", "shift", "algorithm", "name"};
  for (size_t i = 0; i < sizeof K / sizeof K[0]; i++)
    if (strcmp(K[i], key) == 0)
      return 1;
  return 0;
}

static int collective(wrd *r, yaml_node_t *m, fl_wl_coll *c) {
  if (m->type != YAML_MAPPING_NODE)
    return wl_fail(
        r, m, "expected a collective mapping {op: ..., bytes: ...}%s", NULL);
  c->line = (uint32_t)m->start_mark.line + 1;
  c->col = (uint32_t)m->start_mark.column + 1;
  c->shift = 1;
  int has_bytes = 0, has_alg = 0, has_shift = 0;
  for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
       p < m->data.mapping.pairs.top; p++) {
    yaml_node_t *k = wl_node(r, p->key), *v = wl_node(r, p->value);
    const char *key = wl_scalar(k);
    if (!key)
      return wl_fail(r, k, "expected a key%s", NULL);
    for (yaml_node_pair_t *q = m->data.mapping.pairs.start; q < p; q++) {
      const char *k2 = wl_scalar(wl_node(r, q->key));
      if (k2 && strcmp(k2, key) == 0)
        return wl_fail(r, k, "key `%s` given twice", key);
    }
    if (!known_coll_key(key))
      return wl_fail(r, k,
                     "unknown key `%s` in a collective: expected op, bytes, "
                     "shift, algorithm or name",
                     key);
    if (strcmp(key, "shift") == 0)
      has_shift = 1;
    int rc = coll_pair(r, c, key, v, &has_bytes, &has_alg);
    if (rc != FL_OK)
      return rc;
  }
  if (!c->op)
    return wl_fail(r, m, "collective without `op`%s", NULL);
  if (!has_bytes)
    return wl_fail(r, m, "collective without `bytes`%s", NULL);
  if (has_shift && c->op != FL_WL_SENDRECV)
    return wl_fail(r, m, "`shift` applies to sendrecv only%s", NULL);
  if (has_alg && c->op == FL_WL_ALL_TO_ALL)
    return wl_fail(r, m, "`algorithm` does not apply to all-to-all%s", NULL);
  if (has_alg && c->op == FL_WL_SENDRECV)
    return wl_fail(r, m, "`algorithm` does not apply to sendrecv%s", NULL);
  return FL_OK;
}

static int hosts(wrd *r, fl_workload *w, yaml_node_t *v) {
  const char *s = wl_scalar(v);
  w->place.hosts_line = (uint32_t)v->start_mark.line + 1;
  w->place.hosts_col = (uint32_t)v->start_mark.column + 1;
  if (s && strcmp(s, "all") == 0) {
    w->all_hosts = 1;
    return FL_OK;
  }
  if (s && *s >= '0' && *s <= '9') { /* a count: the job size (placements) */
    int64_t n;
    if (parse_int(s, &n) != 0 || n < 1 || n > (int64_t)FL_WL_MAX_HOSTS)
      return wl_fail(r, v,
                     "`hosts`: expected a host count from 1 to 1048576, a list "
                     "of host names or `all`, got `%s`",
                     s);
    w->place.job_hosts = (uint32_t)n;
    return FL_OK;
  }
  if (v->type != YAML_SEQUENCE_NODE)
    return wl_fail(r, v,
                   "`hosts`: expected a list of host names, `all` or (with "
                   "`placements:`) a host count%s",
                   NULL);
  size_t n =
      (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
  if (n == 0)
    return wl_fail(r, v, "`hosts`: the list is empty%s", NULL);
  if (n > FL_WL_MAX_HOSTS)
    return wl_fail(r, v, "`hosts`: more than 1048576 hosts%s", NULL);
  w->hosts = calloc(n, sizeof *w->hosts);
  w->host_line = calloc(n, sizeof *w->host_line);
  w->host_col = calloc(n, sizeof *w->host_col);
  if (!w->hosts || !w->host_line || !w->host_col)
    return fl_error_set(r->err, FL_ENOMEM, r->path, 0, 0, "out of memory");
  for (size_t i = 0; i < n; i++) {
    yaml_node_t *h = wl_node(r, v->data.sequence.items.start[i]);
    const char *name = wl_scalar(h);
    if (!name || !*name)
      return wl_fail(r, h, "`hosts`: expected a host name%s", NULL);
    w->hosts[i] = strdup(name);
    if (!w->hosts[i])
      return fl_error_set(r->err, FL_ENOMEM, r->path, 0, 0, "out of memory");
    w->host_line[i] = (uint32_t)h->start_mark.line + 1;
    w->host_col[i] = (uint32_t)h->start_mark.column + 1;
    w->n_hosts = i + 1;
  }
  return FL_OK;
}

static int collectives(wrd *r, fl_workload *w, yaml_node_t *v) {
  if (v->type != YAML_SEQUENCE_NODE)
    return wl_fail(r, v, "`collectives`: expected a list of collectives%s",
                   NULL);
  size_t n =
      (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
  if (n == 0)
    return wl_fail(r, v, "`collectives`: the list is empty%s", NULL);
  if (n > FL_WL_MAX_COLLECTIVES)
    return wl_fail(r, v, "`collectives`: more than 4096 entries%s", NULL);
  w->colls = calloc(n, sizeof *w->colls);
  if (!w->colls)
    return fl_error_set(r->err, FL_ENOMEM, r->path, 0, 0, "out of memory");
  for (size_t i = 0; i < n; i++) {
    w->n_colls = i + 1;
    int rc = collective(r, wl_node(r, v->data.sequence.items.start[i]),
                        &w->colls[i]);
    if (rc != FL_OK)
      return rc;
  }
  return FL_OK;
}

/* `from:` of placements: `all` or a list of host names (the pool). */
static int place_from(wrd *r, fl_wl_placements *p, yaml_node_t *v) {
  const char *s = wl_scalar(v);
  if (s && strcmp(s, "all") == 0) {
    p->from_all = 1;
    return FL_OK;
  }
  if (v->type != YAML_SEQUENCE_NODE)
    return wl_fail(r, v,
                   "`from`: expected `all` or a list of host names (the pool "
                   "placements draw from)%s",
                   NULL);
  size_t n =
      (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
  if (n == 0)
    return wl_fail(r, v, "`from`: the list is empty%s", NULL);
  if (n > FL_WL_MAX_HOSTS)
    return wl_fail(r, v, "`from`: more than 1048576 hosts%s", NULL);
  p->from = calloc(n, sizeof *p->from);
  p->from_line = calloc(n, sizeof *p->from_line);
  p->from_col = calloc(n, sizeof *p->from_col);
  if (!p->from || !p->from_line || !p->from_col)
    return fl_error_set(r->err, FL_ENOMEM, r->path, 0, 0, "out of memory");
  for (size_t i = 0; i < n; i++) {
    yaml_node_t *h = wl_node(r, v->data.sequence.items.start[i]);
    const char *name = wl_scalar(h);
    if (!name || !*name)
      return wl_fail(r, h, "`from`: expected a host name%s", NULL);
    p->from[i] = strdup(name);
    if (!p->from[i])
      return fl_error_set(r->err, FL_ENOMEM, r->path, 0, 0, "out of memory");
    p->from_line[i] = (uint32_t)h->start_mark.line + 1;
    p->from_col[i] = (uint32_t)h->start_mark.column + 1;
    p->n_from = i + 1;
  }
  return FL_OK;
}

static int place_pair(wrd *r, fl_wl_placements *p, const char *key,
                      yaml_node_t *v) {
  if (strcmp(key, "from") == 0)
    return place_from(r, p, v);
  const char *s;
  int rc = want_scalar(r, v, key, &s);
  if (rc != FL_OK)
    return rc;
  uint64_t u;
  if (strcmp(key, "count") == 0) {
    if (wl_parse_u64(s, &u) != 0 || u < 1 || u > FL_WL_MAX_PLACEMENTS)
      return wl_fail(r, v,
                     "`count`: expected a whole number from 1 to 65536, "
                     "got `%s`",
                     s);
    p->count = (uint32_t)u;
  } else if (strcmp(key, "seed") == 0) {
    if (wl_parse_u64(s, &u) != 0)
      return wl_fail(r, v,
                     "`seed`: expected a whole number from 0 to "
                     "18446744073709551615, got `%s`",
                     s);
    p->seed = u;
  } else if (strcmp(key, "index") == 0) {
    if (wl_parse_u64(s, &u) != 0 || u >= FL_WL_MAX_PLACEMENTS)
      return wl_fail(r, v,
                     "`index`: expected a placement index from 0 to "
                     "65535, got `%s`",
                     s);
    p->index = (int64_t)u;
  } else if (strcmp(key, "order") == 0) {
    if (strcmp(s, "pool") == 0)
      p->order = FL_WL_ORDER_POOL;
    else if (strcmp(s, "random") == 0)
      p->order = FL_WL_ORDER_RANDOM;
    else
      return wl_fail(r, v, "`order`: expected pool or random, got `%s`", s);
  } else { /* percentile (keys are checked by the caller) */
    double d = NAN;
    if (wl_parse_decimal(s, &d) != 0 || !(d >= 0.0 && d < 100.0))
      return wl_fail(r, v,
                     "`percentile`: expected a number in [0, 100) (0: the "
                     "worst placement), got `%s`",
                     s);
    p->percentile = d;
  }
  return FL_OK;
}

static int placements(wrd *r, fl_workload *w, yaml_node_t *m) {
  static const char *const K[] = {"count", "seed",  "from",
                                  "order", "index", "percentile"};
  fl_wl_placements *p = &w->place;
  if (m->type != YAML_MAPPING_NODE)
    return wl_fail(r, m,
                   "`placements`: expected a mapping {count: 64, seed: 1, "
                   "from: all}%s",
                   NULL);
  p->on = 1;
  p->seed = 1;
  p->from_all = 1;
  p->index = -1;
  p->line = (uint32_t)m->start_mark.line + 1;
  p->col = (uint32_t)m->start_mark.column + 1;
  for (yaml_node_pair_t *q = m->data.mapping.pairs.start;
       q < m->data.mapping.pairs.top; q++) {
    yaml_node_t *k = wl_node(r, q->key);
    const char *key = wl_scalar(k);
    if (!key)
      return wl_fail(r, k, "expected a key%s", NULL);
    for (yaml_node_pair_t *o = m->data.mapping.pairs.start; o < q; o++) {
      const char *k2 = wl_scalar(wl_node(r, o->key));
      if (k2 && strcmp(k2, key) == 0)
        return wl_fail(r, k, "key `%s` given twice", key);
    }
    size_t i = 0;
    while (i < sizeof K / sizeof *K && strcmp(K[i], key) != 0)
      i++;
    if (i == sizeof K / sizeof *K)
      return wl_fail(r, k,
                     "unknown key `%s` in placements: expected count, seed, "
                     "from, order, index or percentile",
                     key);
    if (strcmp(key, "from") == 0)
      p->from_all = 0;
    int rc = place_pair(r, p, key, wl_node(r, q->value));
    if (rc != FL_OK)
      return rc;
  }
  if (!p->count && p->index < 0)
    return wl_fail(r, m,
                   "`placements`: expected `count` (how many placements) or "
                   "`index` (one placement)%s",
                   NULL);
  if (p->count && p->index >= (int64_t)p->count)
    return wl_fail(r, m, "`placements`: `index` must be below `count`%s", NULL);
  return FL_OK;
}

static int top_pair(wrd *r, fl_workload *w, yaml_node_t *k, yaml_node_t *v) {
  const char *key = wl_scalar(k);
  if (!key)
    return wl_fail(r, k, "expected a key%s", NULL);
  if (strcmp(key, "hosts") == 0)
    return hosts(r, w, v);
  if (strcmp(key, "collectives") == 0)
    return collectives(r, w, v);
  if (strcmp(key, "placements") == 0)
    return placements(r, w, v);
  if (strcmp(key, "training") == 0)
    return wl_training(r, &w->train, v);
  if (strcmp(key, "routing") == 0) {
    int m = fl_wl_routing_parse(wl_scalar(v));
    if (m < 0)
      return wl_fail(r, v, "`routing`: expected auto, lft, ar or spray%s",
                     NULL);
    w->routing = (uint32_t)m;
    return FL_OK;
  }
  if (strcmp(key, "min-share") == 0) {
    const char *s = wl_scalar(v);
    double d = NAN;
    if (wl_parse_decimal(s, &d) != 0 || !(d > 0.0 && d <= 1.0))
      return wl_fail(r, v, "`min-share`: expected a number in (0, 1]%s", NULL);
    w->min_share = d;
    return FL_OK;
  }
  return wl_fail(r, k,
                 "unknown key `%s`: expected hosts, collectives, training, "
                 "routing, min-share or placements",
                 key);
}

/* `hosts: N` and `placements:` go together. */
static int placements_vs_hosts(wrd *r, fl_workload *w) {
  const fl_wl_placements *p = &w->place;
  if (p->on && !p->job_hosts)
    return fl_error_set(r->err, FL_EPARSE, r->path, p->hosts_line, p->hosts_col,
                        "with `placements:`, `hosts:` is the job's host "
                        "count (hosts: 8): the hosts are drawn from `from:`");
  if (!p->on && p->job_hosts)
    return fl_error_set(r->err, FL_EPARSE, r->path, p->hosts_line, p->hosts_col,
                        "`hosts: %u` (a count) needs `placements:` to say "
                        "where the hosts come from",
                        p->job_hosts);
  return FL_OK;
}

/* Placements x collectives x hosts within FL_WL_MAX_WORK (each factor is
 * capped alone; their product is the run time). */
static int work_cap(wrd *r, const fl_workload *w) {
  const fl_wl_placements *p = &w->place;
  uint64_t models = p->on && p->count ? p->count : 1;
  uint64_t hosts = p->on ? p->job_hosts : (uint64_t)w->n_hosts;
  uint64_t work = models * (uint64_t)w->n_colls * hosts; /* < 2^52 */
  if (work <= FL_WL_MAX_WORK)
    return FL_OK;
  return fl_error_set(r->err, FL_EPARSE, r->path, 0, 0,
                      "%llu placement(s) x %zu collective(s) x %llu hosts = "
                      "%llu host-collectives, past the cap of %llu (the "
                      "workload's run time; evaluate fewer placements or "
                      "collectives per run)",
                      (unsigned long long)models, w->n_colls,
                      (unsigned long long)hosts, (unsigned long long)work,
                      FL_WL_MAX_WORK);
}

/* `training:` derives its collectives and places its ranks itself. */
static int training_vs_rest(wrd *r, fl_workload *w, int seen_hosts,
                            int seen_colls) {
  const fl_wl_training *t = &w->train;
  if (seen_colls)
    return fl_error_set(r->err, FL_EPARSE, r->path, t->line, t->col,
                        "`training:` derives the step's collectives: drop "
                        "`collectives:` (or model them in another workload)");
  if (w->place.on || w->place.job_hosts)
    return fl_error_set(r->err, FL_EPARSE, r->path, t->line, t->col,
                        "`training:` places its ranks on the hosts in order: "
                        "`placements:` and a host count do not apply");
  if (!seen_hosts)
    w->all_hosts = 1;
  return FL_OK;
}

static int document(wrd *r, fl_workload *w, yaml_node_t *root) {
  if (!root || root->type != YAML_MAPPING_NODE)
    return wl_fail(
        r, root, "expected a mapping with `hosts:` and `collectives:`%s", NULL);
  int seen_hosts = 0, seen_colls = 0;
  for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
       p < root->data.mapping.pairs.top; p++) {
    yaml_node_t *k = wl_node(r, p->key);
    const char *key = wl_scalar(k);
    for (yaml_node_pair_t *q = root->data.mapping.pairs.start; q < p; q++) {
      const char *k2 = wl_scalar(wl_node(r, q->key));
      if (key && k2 && strcmp(k2, key) == 0)
        return wl_fail(r, k, "key `%s` given twice", key);
    }
    int rc = top_pair(r, w, k, wl_node(r, p->value));
    if (rc != FL_OK)
      return rc;
    seen_hosts |= key && strcmp(key, "hosts") == 0;
    seen_colls |= key && strcmp(key, "collectives") == 0;
  }
  if (w->train.on) /* a training step: its own traffic, every host by
                      default */
    return training_vs_rest(r, w, seen_hosts, seen_colls);
  if (!seen_hosts)
    return wl_fail(r, root,
                   "missing `hosts:` (the job's hosts in rank order)%s", NULL);
  if (!seen_colls)
    return wl_fail(r, root,
                   "missing `collectives:` (or `training:`, a training step)%s",
                   NULL);
  int rc = placements_vs_hosts(r, w);
  return rc == FL_OK ? work_cap(r, w) : rc;
}

int fl_workload_parse(fl_workload *w, const char *name, const char *text,
                      size_t len, fl_error *err) {
  memset(w, 0, sizeof *w);
  w->min_share = 0.9;
  w->path = strdup(name);
  if (!w->path)
    return fl_error_set(err, FL_ENOMEM, name, 0, 0, "out of memory");
  if (fl_yaml_depth_check(text, len, 64, name, err) != FL_OK)
    return FL_EPARSE;
  yaml_parser_t parser;
  yaml_document_t doc;
  if (!yaml_parser_initialize(&parser))
    return fl_error_set(err, FL_ENOMEM, name, 0, 0, "out of memory");
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  if (!yaml_parser_load(&parser, &doc)) {
    int rc = fl_error_set(
        err, FL_EPARSE, name, (uint32_t)parser.problem_mark.line + 1,
        (uint32_t)parser.problem_mark.column + 1, "YAML: %s%s%s",
        parser.problem ? parser.problem : "syntax error",
        parser.context ? " " : "", parser.context ? parser.context : "");
    yaml_parser_delete(&parser);
    return rc;
  }
  wrd r = {&doc, name, err};
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  int rc = root ? document(&r, w, root)
                : fl_error_set(err, FL_EPARSE, name, 1, 0,
                               "empty workload: expected `hosts:` and "
                               "`collectives:`");
  yaml_document_delete(&doc);
  if (rc == FL_OK) { /* a second document would be silently ignored */
    yaml_document_t doc2;
    if (yaml_parser_load(&parser, &doc2)) {
      yaml_node_t *r2 = yaml_document_get_root_node(&doc2);
      if (r2)
        rc = fl_error_set(err, FL_EPARSE, name,
                          (uint32_t)r2->start_mark.line + 1,
                          (uint32_t)r2->start_mark.column + 1,
                          "a workload file holds one YAML document");
      yaml_document_delete(&doc2);
    }
  }
  yaml_parser_delete(&parser);
  return rc;
}

int fl_workload_load(fl_workload *w, const char *path, fl_error *err) {
  memset(w, 0, sizeof *w);
  char *buf;
  size_t len;
  int rc = fl_read_file(path, "workload", &buf, &len, err);
  if (rc != FL_OK)
    return rc;
  rc = fl_workload_parse(w, path, buf, len, err);
  free(buf);
  return rc;
}

void fl_workload_free(fl_workload *w) {
  for (size_t i = 0; i < w->n_hosts; i++)
    free(w->hosts[i]);
  free(w->hosts);
  free(w->host_line);
  free(w->host_col);
  for (size_t i = 0; i < w->n_colls; i++)
    free(w->colls[i].name);
  free(w->colls);
  for (size_t i = 0; i < w->place.n_from; i++)
    free(w->place.from[i]);
  free(w->place.from);
  free(w->place.from_line);
  free(w->place.from_col);
  for (uint32_t i = 0; i < w->train.n_ckpt_storage; i++)
    free(w->train.ckpt_storage[i]);
  free(w->train.ckpt_storage);
  free(w->train.ckpt_line), free(w->train.ckpt_col);
  for (size_t i = 0; i < w->n_fail; i++)
    free(w->fail[i]);
  free(w->fail);
  free(w->path);
  memset(w, 0, sizeof *w);
}
