/* SPDX-License-Identifier: MIT */
/*
 * core/io/workload_train.c — the `training:` section of a workload (one
 * training step, modelled by core/analysis/perf_step.c; docs/perf.md,
 * "Training step"). Three mappings, each key a number:
 *
 *     training:
 *       model: {params: 1.3e9, layers: 24, hidden: 2048, seq-len: 2048,
 *               global-batch: 64, micro-batch: 1, precision-bytes: 2}
 *       parallelism: {tp: 8, pp: 2, dp: 4, cp: 1, ep: 1, zero: 1}
 *       gpu: {peak-tflops: 989, mfu: 0.4}
 *       checkpoint: {bytes: 2.45TB, storage: [stor-01, stor-02]}
 *
 * Keys are table rows (name, field, whole or real, range, required), so a
 * refusal names the key, its range and the line; the divisibility the
 * model needs (layers by pp, the batch by micro-batch × dp, ...) is
 * checked here too, where the line is known.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "io/workload_impl.h"

typedef struct key_row {
  const char *name;
  size_t off;    /* offsetof(fl_wl_training, field) */
  int u32;       /* the field is a uint32_t (else a double) */
  int whole;     /* a whole number */
  double lo, hi; /* inclusive range (lo exclusive when lo_open) */
  int lo_open, required;
  int size; /* a byte size: suffixes as `bytes:` of a collective */
} key_row;

#define D(f) offsetof(fl_wl_training, f), 0
#define U(f) offsetof(fl_wl_training, f), 1
static const key_row MODEL[] = {
    {"params", D(params), 1, 1, 1e15, 0, 1, 0},
    {"layers", D(layers), 1, 1, 1e6, 0, 1, 0},
    {"hidden", D(hidden), 1, 1, 1e7, 0, 1, 0},
    {"seq-len", D(seq_len), 1, 1, 1e9, 0, 1, 0},
    {"global-batch", D(global_batch), 1, 1, 1e9, 0, 1, 0},
    {"micro-batch", D(micro_batch), 1, 1, 1e9, 0, 1, 0},
    {"precision-bytes", D(precision_bytes), 1, 1, 8, 0, 0, 0},
    {"grad-bytes", D(grad_bytes), 1, 1, 8, 0, 0, 0},
    {"moe-layers", D(moe_layers), 1, 0, 1e6, 0, 0, 0},
    {"top-k", D(top_k), 1, 1, 1024, 0, 0, 0},
};
static const key_row PAR[] = {
    {"tp", U(tp), 1, 1, 1048576, 0, 0, 0},
    {"pp", U(pp), 1, 1, 1048576, 0, 0, 0},
    {"dp", U(dp), 1, 1, 1048576, 0, 0, 0},
    {"cp", U(cp), 1, 1, 1048576, 0, 0, 0},
    {"ep", U(ep), 1, 1, 1048576, 0, 0, 0},
    {"zero", U(zero), 1, 0, 3, 0, 0, 0},
    {"bucket-bytes", D(bucket_bytes), 1, 1, 1e15, 0, 0, 1},
};
static const key_row GPU[] = {
    {"peak-tflops", D(peak_tflops), 0, 0, 1e9, 1, 1, 0},
    {"mfu", D(mfu), 0, 0, 1, 1, 1, 0},
    {"per-server", U(per_server), 1, 1, 4096, 0, 0, 0},
    {"scale-up-GBps", D(scale_up_GBps), 0, 0, 1e9, 1, 0, 0},
};
#undef D
#undef U

static int set_value(wrd *r, fl_wl_training *t, const key_row *k,
                     yaml_node_t *v) {
  const char *s = wl_scalar(v);
  double d = NAN;
  uint64_t b = 0;
  if (k->size && s && wl_parse_bytes(s, &b) == 0)
    d = (double)b;
  int ok = s && (k->size ? !isnan(d) : wl_parse_decimal(s, &d) == 0) &&
           isfinite(d) && (k->lo_open ? d > k->lo : d >= k->lo) && d <= k->hi &&
           (!k->whole || d == floor(d));
  if (!ok) {
    char what[200];
    snprintf(what, sizeof what, "`%s`: expected %s %s %g %s %g, got `%%s`",
             k->name,
             k->size    ? "a size (200000000, 200MB, 256MiB)"
             : k->whole ? "a whole number"
                        : "a number",
             k->lo_open ? "above" : "from", k->lo,
             k->lo_open ? "and at most" : "to", k->hi);
    return wl_fail(r, v, what, s ? s : "(not a number)");
  }
  char *base = (char *)t + k->off;
  if (k->u32)
    *(uint32_t *)(void *)base = (uint32_t)d;
  else
    *(double *)(void *)base = d;
  return FL_OK;
}

/* One of the three mappings: its keys from @rows[@n]. */
static int section(wrd *r, fl_wl_training *t, const char *what,
                   const key_row *rows, size_t n, yaml_node_t *m) {
  if (m->type != YAML_MAPPING_NODE)
    return wl_fail(r, m, "`%s`: expected a mapping of numbers", what);
  uint32_t seen = 0;
  for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
       p < m->data.mapping.pairs.top; p++) {
    yaml_node_t *k = wl_node(r, p->key);
    const char *key = wl_scalar(k);
    size_t i = 0;
    while (key && i < n && strcmp(rows[i].name, key) != 0)
      i++;
    if (!key || i == n) {
      char keys[400] = "";
      for (size_t j = 0; j < n; j++)
        snprintf(keys + strlen(keys), sizeof keys - strlen(keys), "%s%s",
                 j ? ", " : "", rows[j].name);
      char msg[600];
      snprintf(msg, sizeof msg, "unknown key `%%s` in %s: expected %s", what,
               keys);
      return wl_fail(r, k, msg, key ? key : "?");
    }
    if (seen >> i & 1u)
      return wl_fail(r, k, "key `%s` given twice", key);
    seen |= 1u << i;
    int rc = set_value(r, t, &rows[i], wl_node(r, p->value));
    if (rc != FL_OK)
      return rc;
  }
  for (size_t i = 0; i < n; i++)
    if (rows[i].required && !(seen >> i & 1u))
      return wl_fail(r, m, "missing `%s`", rows[i].name);
  return FL_OK;
}

/* `checkpoint: {bytes: SIZE, storage: [HOST, ...]}`: the whole checkpoint
 * and the hosts it is written to (perf_step.c). */
static int checkpoint(wrd *r, fl_wl_training *t, yaml_node_t *m) {
  t->ckpt_at_line = (uint32_t)m->start_mark.line + 1;
  t->ckpt_at_col = (uint32_t)m->start_mark.column + 1;
  if (m->type != YAML_MAPPING_NODE)
    return wl_fail(r, m,
                   "`checkpoint`: expected a mapping {bytes: SIZE, storage: "
                   "[HOST, ...]}%s",
                   NULL);
  yaml_node_t *st = NULL;
  for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
       p < m->data.mapping.pairs.top; p++) {
    yaml_node_t *k = wl_node(r, p->key), *v = wl_node(r, p->value);
    const char *key = wl_scalar(k), *s = wl_scalar(v);
    uint64_t b = 0;
    if (key && strcmp(key, "bytes") == 0) {
      if (t->ckpt_bytes > 0)
        return wl_fail(r, k, "key `%s` given twice", key);
      if (!s || wl_parse_bytes(s, &b) != 0 || b == 0)
        return wl_fail(r, v,
                       "`bytes`: expected a whole number of bytes from 1 "
                       "to 2^64 - 1 (2450000000000, 2.45TB, 512GiB), got "
                       "`%s`",
                       s ? s : "(not a size)");
      t->ckpt_bytes = (double)b;
    } else if (key && strcmp(key, "storage") == 0) {
      if (st)
        return wl_fail(r, k, "key `%s` given twice", key);
      st = v;
    } else {
      return wl_fail(r, k,
                     "unknown key `%s` in checkpoint: expected bytes or "
                     "storage",
                     key ? key : "?");
    }
  }
  if (t->ckpt_bytes == 0)
    return wl_fail(r, m, "`checkpoint`: missing `bytes`%s", NULL);
  if (!st)
    return wl_fail(r, m,
                   "`checkpoint`: missing `storage` (the hosts it is "
                   "written to)%s",
                   NULL);
  if (st->type != YAML_SEQUENCE_NODE)
    return wl_fail(r, st, "`storage`: expected a list of host names%s", NULL);
  size_t n =
      (size_t)(st->data.sequence.items.top - st->data.sequence.items.start);
  if (n == 0 || n > FL_WL_MAX_STORAGE)
    return wl_fail(r, st, "`storage`: expected 1 to 4096 host names%s", NULL);
  t->ckpt_storage = calloc(n, sizeof *t->ckpt_storage);
  t->ckpt_line = calloc(n, sizeof *t->ckpt_line);
  t->ckpt_col = calloc(n, sizeof *t->ckpt_col);
  if (!t->ckpt_storage || !t->ckpt_line || !t->ckpt_col)
    return fl_error_set(r->err, FL_ENOMEM, r->path, 0, 0, "out of memory");
  for (size_t i = 0; i < n; i++) {
    yaml_node_t *h = wl_node(r, st->data.sequence.items.start[i]);
    const char *name = wl_scalar(h);
    if (!name || !*name)
      return wl_fail(r, h, "`storage`: expected a host name%s", NULL);
    for (size_t j = 0; j < i; j++)
      if (strcmp(t->ckpt_storage[j], name) == 0)
        return wl_fail(r, h, "`storage`: host `%s` listed twice", name);
    t->ckpt_storage[i] = strdup(name);
    if (!t->ckpt_storage[i])
      return fl_error_set(r->err, FL_ENOMEM, r->path, 0, 0, "out of memory");
    t->n_ckpt_storage = (uint32_t)i + 1;
    t->ckpt_line[i] = (uint32_t)h->start_mark.line + 1;
    t->ckpt_col[i] = (uint32_t)h->start_mark.column + 1;
  }
  return FL_OK;
}

/* What the model needs of the numbers together (the line is the
 * `training:` mapping's). */
static int consistent(wrd *r, fl_wl_training *t, yaml_node_t *m) {
  char msg[300];
  const char *bad = NULL;
  if (fmod(t->layers, t->pp) != 0)
    bad = "layers must be a multiple of pp (each stage holds layers / pp)";
  else if (fmod(t->global_batch, t->micro_batch * t->dp) != 0)
    bad = "global-batch must be a multiple of micro-batch x dp (micro-"
          "batches per step)";
  else if (t->dp % t->ep != 0)
    bad = "ep must divide dp (experts are spread over data-parallel ranks)";
  else if (fmod(t->hidden, t->tp) != 0)
    bad = "hidden must be a multiple of tp";
  else if (fmod(t->seq_len, t->cp) != 0)
    bad = "seq-len must be a multiple of cp";
  else if (t->moe_layers > t->layers)
    bad = "moe-layers is more than layers";
  else if (fmod(t->moe_layers, t->pp) != 0)
    bad = "moe-layers must be a multiple of pp";
  else if ((double)t->tp * t->pp * t->dp * t->cp > 16777216.0)
    bad = "tp x pp x dp x cp is more than 16777216 GPUs";
  if (!bad)
    return FL_OK;
  snprintf(msg, sizeof msg, "`training`: %s%%s", bad);
  return wl_fail(r, m, msg, "");
}

int wl_training(wrd *r, fl_wl_training *t, yaml_node_t *m) {
  memset(t, 0, sizeof *t);
  t->on = 1;
  t->line = (uint32_t)m->start_mark.line + 1;
  t->col = (uint32_t)m->start_mark.column + 1;
  t->tp = t->pp = t->dp = t->cp = t->ep = 1;
  t->precision_bytes = 2;
  t->top_k = 1;
  t->moe_layers = -1;
  t->scale_up_GBps = 450; /* H100 SXM NVLink 4: 18 links x 25 GB/s */
  if (m->type != YAML_MAPPING_NODE)
    return wl_fail(r, m,
                   "`training`: expected a mapping {model: ..., parallelism: "
                   "..., gpu: ...}%s",
                   NULL);
  int seen_model = 0, seen_gpu = 0;
  for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
       p < m->data.mapping.pairs.top; p++) {
    yaml_node_t *k = wl_node(r, p->key), *v = wl_node(r, p->value);
    const char *key = wl_scalar(k);
    for (yaml_node_pair_t *q = m->data.mapping.pairs.start; q < p; q++) {
      const char *k2 = wl_scalar(wl_node(r, q->key));
      if (key && k2 && strcmp(k2, key) == 0)
        return wl_fail(r, k, "key `%s` given twice", key);
    }
    int rc;
    if (key && strcmp(key, "model") == 0)
      rc = section(r, t, "model", MODEL, sizeof MODEL / sizeof *MODEL, v),
      seen_model = 1;
    else if (key && strcmp(key, "parallelism") == 0)
      rc = section(r, t, "parallelism", PAR, sizeof PAR / sizeof *PAR, v);
    else if (key && strcmp(key, "gpu") == 0)
      rc = section(r, t, "gpu", GPU, sizeof GPU / sizeof *GPU, v), seen_gpu = 1;
    else if (key && strcmp(key, "checkpoint") == 0)
      rc = checkpoint(r, t, v);
    else
      return wl_fail(r, k,
                     "unknown key `%s` in training: expected model, "
                     "parallelism, gpu or checkpoint",
                     key ? key : "?");
    if (rc != FL_OK)
      return rc;
  }
  if (!seen_model)
    return wl_fail(r, m, "`training`: missing `model:`%s", NULL);
  if (!seen_gpu)
    return wl_fail(r, m, "`training`: missing `gpu:` (peak-tflops and mfu)%s",
                   NULL);
  if (t->grad_bytes == 0)
    t->grad_bytes = t->precision_bytes;
  if (t->moe_layers < 0)
    t->moe_layers = t->ep > 1 ? t->layers : 0;
  return consistent(r, t, m);
}
