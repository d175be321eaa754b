/* SPDX-License-Identifier: MIT */
/*
 * core/io/ctr_prom.c — loader for a Prometheus text-exposition scrape of
 * treydock/infiniband_exporter (`curl host:9315/metrics`, or its
 * `--exporter.runonce --exporter.output` file).
 *
 * Format: the Prometheus text exposition format 0.0.4 (prometheus/docs
 * "Exposition formats": `# HELP` / `# TYPE` lines, samples
 * `name{label="value",...} value [timestamp_ms]`, label values with `\\`,
 * `\"` and `\n` escapes). Metric names are the exporter's
 * (collectors/switch.go and hca.go): `infiniband_switch_port_<counter>` and
 * `infiniband_hca_port_<counter>` with labels `guid` and `port`, one per
 * PerfQuery counter (`symbol_error_total`, `link_downed_total`,
 * `transmit_wait_total`, `transmit_data_bytes_total`, ...; the data
 * counters are octets, the PMA's 4-octet words times 4, so they are divided
 * by 4 back into PortXmitData/PortRcvData units); `infiniband_switch_info`
 * and `infiniband_hca_info` (labels `guid`, `switch`/`hca`, `lid`) name the
 * nodes; `infiniband_exporter_last_execution` (runonce) is the capture time
 * in seconds, else the largest sample timestamp, else a `# captured` line.
 *
 * A port is named by GUID and port number, with the node name of the info
 * metric as a second key. Samples of other metrics (the exporter's own,
 * rates, uplink info, go_*, process_*) are read past; an
 * `infiniband_*_port_*` metric that is no known counter is counted in a
 * note. A sample line that does not parse, a counter value that is not a
 * non-negative whole number, or a port metric without `guid` or `port` is an
 * error naming file:line:col.
 *
 * Cost: one pass; per sample a name compare, a label scan and two hash
 * lookups (GUID, then GUID index and port).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/ctr_read.h"
#include "io/formats.h"
#include "io/loaders.h"
#include "model/hashmap.h"

static const struct {
  const char *suffix;
  uint32_t id;
} METRIC[] = {
    {"transmit_data_bytes_total", FL_CTR_XMIT_DATA},
    {"receive_data_bytes_total", FL_CTR_RCV_DATA},
    {"transmit_packets_total", FL_CTR_XMIT_PKTS},
    {"receive_packets_total", FL_CTR_RCV_PKTS},
    {"unicast_transmit_packets_total", FL_CTR_UNICAST_XMIT_PKTS},
    {"unicast_receive_packets_total", FL_CTR_UNICAST_RCV_PKTS},
    {"multicast_transmit_packets_total", FL_CTR_MULTICAST_XMIT_PKTS},
    {"multicast_receive_packets_total", FL_CTR_MULTICAST_RCV_PKTS},
    {"symbol_error_total", FL_CTR_SYMBOL_ERRORS},
    {"link_error_recovery_total", FL_CTR_LINK_ERROR_RECOVERY},
    {"link_downed_total", FL_CTR_LINK_DOWNED},
    {"receive_errors_total", FL_CTR_RCV_ERRORS},
    {"receive_remote_physical_errors_total", FL_CTR_RCV_REMOTE_PHYS_ERRORS},
    {"receive_switch_relay_errors_total", FL_CTR_RCV_SWITCH_RELAY_ERRORS},
    {"transmit_discards_total", FL_CTR_XMIT_DISCARDS},
    {"transmit_constraint_errors_total", FL_CTR_XMIT_CONSTRAINT_ERRORS},
    {"receive_constraint_errors_total", FL_CTR_RCV_CONSTRAINT_ERRORS},
    {"local_link_integrity_errors_total", FL_CTR_LOCAL_LINK_INTEGRITY},
    {"excessive_buffer_overrun_errors_total", FL_CTR_EXCESSIVE_BUFFER_OVERRUN},
    {"vl15_dropped_total", FL_CTR_VL15_DROPPED},
    {"transmit_wait_total", FL_CTR_XMIT_WAIT},
    {"qp1_dropped_total", FL_CTR_QP1_DROPPED},
    {"local_physical_errors_total", FL_CTR_LOCAL_PHYSICAL_ERRORS},
    {"malformed_packet_errors_total", FL_CTR_MALFORMED_PKT_ERRORS},
    {"buffer_overrun_errors_total", FL_CTR_BUFFER_OVERRUN_ERRORS},
    {"dli_mapping_errors_total", FL_CTR_DLID_MAPPING_ERRORS}, /* sic */
    {"vl_mapping_errors_total", FL_CTR_VL_MAPPING_ERRORS},
    {"looping_errors_total", FL_CTR_LOOPING_ERRORS},
};

typedef struct pr_rec {
  uint64_t guid;
  uint32_t port, line, col;
  uint64_t mask;
  uint64_t vals[FL_CTR_COUNT];
} pr_rec;

typedef struct pr_state {
  ctr_rd r;
  fl_ctr_batch *b;
  fl_u64map guid_idx; /* GUID -> index in guids */
  uint64_t *guids;
  uint32_t *guid_name; /* per GUID: offset+1 in names, 0 = none */
  size_t n_guids, cap_guids;
  char *names;
  size_t n_names, cap_names;
  fl_u64map rec_idx; /* (guid index << 16 | port) -> record */
  pr_rec *recs;
  size_t n_recs, cap_recs;
  int have_last_exec, have_ts;
  double last_exec, max_ts;
  uint64_t unknown;
  char unknown_names[160];
  int data_words; /* a data counter not a multiple of 4: not octets */
} pr_state;

/* A label value: [p, e) inside the quotes, unescaped into @out (@size);
 * returns its length, or -1 when it does not fit. */
static long unescape(const char *p, const char *e, char *out, size_t size) {
  size_t n = 0;
  for (; p < e; p++) {
    char ch = *p;
    if (ch == '\\' && p + 1 < e) {
      ch = *++p;
      if (ch == 'n')
        ch = '\n';
    }
    if (n + 1 >= size)
      return -1;
    out[n++] = ch;
  }
  out[n] = '\0';
  return (long)n;
}

typedef struct pr_labels {
  const char *guid, *port, *name, *collector;
  const char *guid_e, *port_e, *name_e, *collector_e;
} pr_labels;

/* `{k="v",...}` at *@pp; the labels we use into @lb. */
static int labels(pr_state *s, const char **pp, const char *e, pr_labels *lb,
                  int info) {
  const char *p = *pp + 1;
  memset(lb, 0, sizeof *lb);
  for (;;) {
    p = skip_ws(p, e);
    if (p < e && *p == '}')
      break;
    const char *k0 = p;
    while (p < e && (*p == '_' || (*p >= 'a' && *p <= 'z') ||
                     (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
      p++;
    const char *k1 = p;
    p = skip_ws(p, e);
    if (k1 == k0 || p >= e || *p != '=')
      return ctr_fail(&s->r, k0, "expected a label `name=\"value\"`");
    p = skip_ws(p + 1, e);
    if (p >= e || *p != '"')
      return ctr_fail(&s->r, p, "expected a quoted label value");
    const char *v0 = ++p;
    while (p < e && *p != '"')
      p += *p == '\\' ? 2 : 1;
    if (p >= e)
      return ctr_fail(&s->r, v0 - 1, "label value not closed by `\"`");
    const char *v1 = p++;
    size_t kl = (size_t)(k1 - k0);
    if (kl == 4 && memcmp(k0, "guid", 4) == 0)
      lb->guid = v0, lb->guid_e = v1;
    else if (kl == 4 && memcmp(k0, "port", 4) == 0)
      lb->port = v0, lb->port_e = v1;
    else if (info && ((kl == 6 && memcmp(k0, "switch", 6) == 0) ||
                      (kl == 3 && memcmp(k0, "hca", 3) == 0)))
      lb->name = v0, lb->name_e = v1;
    else if (kl == 9 && memcmp(k0, "collector", 9) == 0)
      lb->collector = v0, lb->collector_e = v1;
    p = skip_ws(p, e);
    if (p < e && *p == ',')
      p++;
    else if (p >= e || *p != '}')
      return ctr_fail(&s->r, p, "expected `,` or `}` after a label");
  }
  *pp = p + 1;
  return FL_OK;
}

/* Index of GUID label [p, e), added when new; -1 on a bad GUID, -2 ENOMEM. */
static long guid_index(pr_state *s, const char *p, const char *e,
                       uint64_t *guid) {
  const char *q = p;
  if (!ctr_u64(&q, e, guid) || q != e || *guid == 0)
    return -1;
  uint32_t k = fl_u64map_get(&s->guid_idx, *guid);
  if (k != FL_MAP_ABSENT)
    return (long)k;
  if (s->n_guids == s->cap_guids) {
    size_t nc = s->cap_guids ? s->cap_guids * 2 : 256;
    uint64_t *g = realloc(s->guids, nc * sizeof *g);
    if (g)
      s->guids = g;
    uint32_t *n = realloc(s->guid_name, nc * sizeof *n);
    if (n)
      s->guid_name = n;
    if (!g || !n)
      return -2;
    s->cap_guids = nc;
  }
  s->guids[s->n_guids] = *guid;
  s->guid_name[s->n_guids] = 0;
  if (fl_u64map_set(&s->guid_idx, *guid, (uint32_t)s->n_guids) != 0)
    return -2;
  return (long)s->n_guids++;
}

static int oom(pr_state *s) {
  return fl_error_set(s->r.err, FL_ENOMEM, s->r.path, 0, 0, "out of memory");
}

/* infiniband_{switch,hca}_info: the node's name. */
static int pr_info(pr_state *s, const pr_labels *lb, const char *at) {
  uint64_t guid;
  if (!lb->guid || !lb->name)
    return FL_OK;
  long gi = guid_index(s, lb->guid, lb->guid_e, &guid);
  if (gi == -2)
    return oom(s);
  if (gi < 0)
    return ctr_fail(&s->r, at, "expected guid=\"0x<hex>\"");
  size_t need = s->n_names + (size_t)(lb->name_e - lb->name) + 1;
  if (need > s->cap_names) {
    size_t nc = s->cap_names ? s->cap_names : 4096;
    while (nc < need)
      nc *= 2;
    char *v = realloc(s->names, nc);
    if (!v)
      return oom(s);
    s->names = v;
    s->cap_names = nc;
  }
  long n = unescape(lb->name, lb->name_e, s->names + s->n_names,
                    s->cap_names - s->n_names);
  if (n < 0)
    return oom(s);
  s->guid_name[gi] = (uint32_t)s->n_names + 1;
  s->n_names += (size_t)n + 1;
  return FL_OK;
}

/* A sample of port counter @id (octets when @bytes). */
static int pr_port(pr_state *s, uint32_t id, int bytes, const pr_labels *lb,
                   double v, const char *name, const char *val_at) {
  ctr_rd *r = &s->r;
  uint64_t guid, port;
  if (!lb->guid || !lb->port)
    return ctr_fail(r, name, "a port counter needs the labels guid and port");
  long gi = guid_index(s, lb->guid, lb->guid_e, &guid);
  if (gi == -2)
    return oom(s);
  const char *q = lb->port;
  if (gi < 0)
    return ctr_fail(r, lb->guid, "expected guid=\"0x<hex>\"");
  if (!ctr_u64(&q, lb->port_e, &port) || q != lb->port_e || port > 255)
    return ctr_fail(r, lb->port, "expected port=\"<0..255>\"");
  if (!(v >= 0) || v > 1.8e19 || v != floor(v))
    return ctr_fail(r, val_at,
                    "expected a counter value: a non-negative whole number");
  uint64_t x = (uint64_t)v;
  if (bytes && x % 4)
    s->data_words = 1; /* see fl_load_prom_ib() */
  uint64_t key = ((uint64_t)gi << 16) | port;
  uint32_t k = fl_u64map_get(&s->rec_idx, key);
  if (k == FL_MAP_ABSENT) {
    if (s->n_recs == s->cap_recs) {
      size_t nc = s->cap_recs ? s->cap_recs * 2 : 256;
      pr_rec *nr = realloc(s->recs, nc * sizeof *nr);
      if (!nr)
        return oom(s);
      s->recs = nr;
      s->cap_recs = nc;
    }
    k = (uint32_t)s->n_recs++;
    pr_rec *rec = &s->recs[k];
    rec->guid = guid;
    rec->port = (uint32_t)port;
    rec->line = r->line;
    rec->col = (uint32_t)(name - r->ls) + 1;
    rec->mask = 0;
    if (fl_u64map_set(&s->rec_idx, key, k) != 0)
      return oom(s);
  }
  ctr_set(&s->recs[k].mask, s->recs[k].vals, id, x);
  return FL_OK;
}

static void pr_unknown(pr_state *s, const char *p, const char *e) {
  s->unknown++;
  size_t n = strlen(s->unknown_names);
  char name[96];
  snprintf(name, sizeof name, "%.*s", (int)(e - p), p);
  if (strstr(s->unknown_names, "...") || strstr(s->unknown_names, name))
    return; /* listed already (or the list is full) */
  if (n + (size_t)(e - p) + 8 < sizeof s->unknown_names)
    snprintf(s->unknown_names + n, sizeof s->unknown_names - n, "%s%.*s",
             n ? ", " : "", (int)(e - p), p);
  else
    snprintf(s->unknown_names + n, sizeof s->unknown_names - n, ", ...");
}

static int pr_sample(pr_state *s, const char *p, const char *e) {
  ctr_rd *r = &s->r;
  const char *n0 = p;
  while (p < e &&
         (*p == '_' || *p == ':' || (*p >= 'a' && *p <= 'z') ||
          (*p >= 'A' && *p <= 'Z') || (p > n0 && *p >= '0' && *p <= '9')))
    p++;
  const char *n1 = p;
  if (n1 == n0)
    return ctr_fail(r, n0, "expected a metric name");
  static const char SW[] = "infiniband_switch_port_",
                    HCA[] = "infiniband_hca_port_";
  size_t nl = (size_t)(n1 - n0);
  const char *suffix = NULL;
  int info = 0, last_exec = 0;
  if (starts_with(n0, n1, SW))
    suffix = n0 + sizeof SW - 1;
  else if (starts_with(n0, n1, HCA))
    suffix = n0 + sizeof HCA - 1;
  else if ((nl == 22 && memcmp(n0, "infiniband_switch_info", 22) == 0) ||
           (nl == 19 && memcmp(n0, "infiniband_hca_info", 19) == 0))
    info = 1;
  else if (nl == 34 &&
           memcmp(n0, "infiniband_exporter_last_execution", 34) == 0)
    last_exec = 1;
  pr_labels lb;
  memset(&lb, 0, sizeof lb);
  if (p < e && *p == '{') {
    int rc = labels(s, &p, e, &lb, info);
    if (rc != FL_OK)
      return rc;
  }
  const char *vs = skip_ws(p, e);
  if (vs == p && vs < e)
    return ctr_fail(r, p, "expected a blank before the value");
  const char *ve = vs;
  while (ve < e && !is_blank(*ve))
    ve++;
  char buf[64];
  if (ve == vs || (size_t)(ve - vs) >= sizeof buf)
    return ctr_fail(r, vs, "expected the sample value");
  memcpy(buf, vs, (size_t)(ve - vs));
  buf[ve - vs] = '\0';
  char *end;
  double v = strtod(buf, &end);
  if (*end)
    return ctr_fail(r, vs, "expected the sample value (a number, NaN, +Inf)");
  const char *ts = skip_ws(ve, e);
  if (ts < e) {
    const char *q = ts;
    int neg = *q == '-';
    uint64_t ms;
    q += neg;
    if (!ctr_u64(&q, e, &ms) || q != e)
      return ctr_fail(r, ts,
                      "expected a timestamp (milliseconds) or the end "
                      "of the line");
    if (!neg && (!s->have_ts || ms / 1000.0 > s->max_ts)) {
      s->max_ts = ms / 1000.0;
      s->have_ts = 1;
    }
  }
  if (info)
    return pr_info(s, &lb, n0);
  if (last_exec) {
    if (isfinite(v) && v > 0 && (!s->have_last_exec || v > s->last_exec)) {
      s->last_exec = v;
      s->have_last_exec = 1;
    }
    return FL_OK;
  }
  if (!suffix)
    return FL_OK; /* another metric: the exporter's own, go_*, rates */
  for (size_t i = 0; i < sizeof METRIC / sizeof *METRIC; i++)
    if ((size_t)(n1 - suffix) == strlen(METRIC[i].suffix) &&
        memcmp(suffix, METRIC[i].suffix, (size_t)(n1 - suffix)) == 0)
      return pr_port(s, METRIC[i].id,
                     strstr(METRIC[i].suffix, "_bytes_") != NULL, &lb, v, n0,
                     vs);
  static const char *const GAUGES[] = {"rate_bytes_per_second",
                                       "raw_rate_bytes_per_second"};
  for (size_t i = 0; i < sizeof GAUGES / sizeof *GAUGES; i++)
    if ((size_t)(n1 - suffix) == strlen(GAUGES[i]) &&
        memcmp(suffix, GAUGES[i], (size_t)(n1 - suffix)) == 0)
      return FL_OK; /* the port's rate, not a counter */
  pr_unknown(s, n0, n1);
  return FL_OK;
}

static void pr_free(pr_state *s) {
  fl_u64map_free(&s->guid_idx);
  fl_u64map_free(&s->rec_idx);
  free(s->guids);
  free(s->guid_name);
  free(s->names);
  free(s->recs);
  free(s);
}

int fl_load_prom_ib(fl_fabric *fab, const fl_input *in,
                    const fl_load_options *opts, fl_error *err) {
  (void)opts;
  pr_state *s = calloc(1, sizeof *s);
  if (!s)
    return fl_error_set(err, FL_ENOMEM, in->path, 0, 0, "out of memory");
  int rc = ctr_open(&s->r, &s->b, fab, in, err);
  int got;
  const char *p, *e;
  while (rc == FL_OK && (got = ctr_line(&s->r, &p, &e)) != 0) {
    if (got < 0) {
      rc = got;
      break;
    }
    if (p == e)
      continue;
    if (*p == '#') {
      int c = ctr_captured(&s->r);
      rc = c < 0 ? c : FL_OK; /* # HELP, # TYPE and comments */
      continue;
    }
    rc = pr_sample(s, p, e);
  }
  /* The exporter's data counters are octets, PortXmitData x 4
   * (collectors/perfquery.go); its releases before that change exported the
   * 4-octet words themselves (the values of its own switch_test.go fixture
   * are not multiples of 4). A scrape whose data values are all multiples of
   * 4 is taken as octets, any other as words (said in a note). */
  for (size_t i = 0; !s->data_words && i < s->n_recs; i++) {
    pr_rec *rec = &s->recs[i];
    if (rec->mask & ((uint64_t)1 << FL_CTR_XMIT_DATA))
      rec->vals[FL_CTR_XMIT_DATA] /= 4;
    if (rec->mask & ((uint64_t)1 << FL_CTR_RCV_DATA))
      rec->vals[FL_CTR_RCV_DATA] /= 4;
  }
  for (size_t i = 0; rc == FL_OK && i < s->n_recs; i++) {
    const pr_rec *rec = &s->recs[i];
    fl_ctr_key key;
    memset(&key, 0, sizeof key);
    key.guid = rec->guid;
    key.port = rec->port;
    uint32_t gi = fl_u64map_get(&s->guid_idx, rec->guid);
    if (gi != FL_MAP_ABSENT && s->guid_name[gi]) {
      key.name = s->names + s->guid_name[gi] - 1;
      key.name_len = strlen(key.name);
    }
    fl_prov pv = {0, rec->line, rec->col};
    if (fl_ctr_add(s->b, &key, rec->mask, rec->vals, pv) != FL_OK)
      rc = oom(s);
  }
  if (rc == FL_OK && s->n_recs == 0 && s->n_guids == 0)
    rc = fl_error_set(err, FL_EPARSE, in->path, s->r.line, 0,
                      "no infiniband_switch_port_* or infiniband_hca_port_* "
                      "sample: not an infiniband_exporter scrape");
  fl_prov pv = {fl_b_file(fab, in->path), 0, 0};
  if (rc == FL_OK && s->unknown)
    fl_b_note(fab, "counters", pv,
              "%llu samples of port metrics fabriclint does not know "
              "skipped (%s)",
              (unsigned long long)s->unknown, s->unknown_names);
  if (rc == FL_OK && s->data_words)
    fl_b_note(fab, "counters", pv,
              "data byte counters that are not multiples of 4 taken as "
              "PortXmitData/PortRcvData words (an infiniband_exporter "
              "release that did not yet multiply them by 4)");
  int timed = s->r.timed || s->have_last_exec || s->have_ts;
  double t = s->r.timed          ? s->r.time
             : s->have_last_exec ? s->last_exec
                                 : s->max_ts;
  rc = ctr_close(s->b, rc, timed, t, 0, err);
  pr_free(s);
  return rc;
}

/* A sample or `# TYPE` line of an infiniband_switch_port_* or
 * infiniband_hca_port_* metric. */
static uint32_t detect_prom(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  if (c->xml_root)
    return FL_FMT_AUTO;
  const char *p = c->text, *end = c->text + c->len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end, *q = p;
    if (fl_detect_prefix(q, le, "# TYPE ") ||
        fl_detect_prefix(q, le, "# HELP "))
      q += 7;
    if (fl_detect_prefix(q, le, "infiniband_switch_port_") ||
        fl_detect_prefix(q, le, "infiniband_hca_port_"))
      return FL_FMT_PROM_IB;
    p = nl ? nl + 1 : end;
  }
  return FL_FMT_AUTO;
}

const fl_format_def fl_fmt_prom_ib = {
    FL_FMT_PROM_IB,
    "prometheus-ib",
    "infiniband-exporter",
    0,
    fl_load_prom_ib,
    detect_prom,
    "an infiniband_exporter Prometheus scrape (infiniband_switch_port_* "
    "samples)"};
