/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf_flows.c — from a workload to NIC-to-NIC flows.
 *
 * The job: each host name is resolved to its NICs (CA nodes of that
 * system cabled to a switch, in natural name order; NIC r is rail r, one
 * GPU per NIC, so n = hosts × rails ranks, host-major).
 *
 * Flows per step, following NCCL's published algorithms (NCCL docs,
 * "Collective Operations"; nccl-tests doc/PERFORMANCE.md):
 *   - ring all-reduce / all-gather / reduce-scatter: NCCL runs one ring per
 *     channel, rail-local (a ring leaves every host on the same rail it
 *     enters), so per step NIC r of host h sends a chunk of
 *     bytes / (rails × n) to NIC r of host h + 1; all-reduce is a
 *     reduce-scatter then an all-gather, 2(n − 1) steps; the others n − 1;
 *   - all-to-all with PXN: GPU g of host a reaches GPU g' of host b through
 *     GPU g' of host a (NVLink) and NIC g', so rail r carries every host
 *     pair's data for GPU r: one step, flows NIC(a, r) → NIC(b, r) of
 *     rails × bytes / n each, for every a ≠ b;
 *   - sendrecv shift s: rank i sends bytes to rank i + s mod n; a transfer
 *     inside a host is NVLink (no flow), else through the destination
 *     GPU's rail (PXN): NIC(host i, rail j) → NIC(host j, rail j).
 *
 * All-to-all stays implicit (pf_classes_for generates the classes of one
 * destination on demand): sources on one switch with the same rail and
 * capacity form a group, and a group's flows to one destination are one
 * class of m (or m − 1) flows. Exact for max-min, by symmetry: permuting
 * a group's members maps the flow set and every route onto itself
 * (routing is per destination), so the unique max-min rates are equal
 * across members (docs/perf.md, tests/cli/perf.sh checks it against the
 * per-flow expansion).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/perf_impl.h"
#include "fabriclint/routing.h"
#include "util/natcmp.h"

typedef struct ca_ent {
  const char *sys, *name;
  fl_id node;
} ca_ent;

static int cmp_ca(const void *x, const void *y) {
  const ca_ent *a = x, *b = y;
  int c = strcmp(a->sys, b->sys);
  return c ? c : fl_natcmp(a->name, b->name); /* "mlx5_3" < "mlx5_10" */
}

/* The NIC of CA @n: its lowest-numbered port cabled to a switch. */
static int nic_of(const pf_net *net, fl_id n, pf_nic *out) {
  const fl_fabric *f = net->f;
  fl_id first = fl_fabric_node_first_port(f, n);
  uint32_t np = first == FL_NONE ? 0 : fl_fabric_node_port_count(f, n);
  for (uint32_t k = 0; k < np; k++) {
    fl_id p = first + k;
    if (fl_fabric_port_link_count(f, p) == 0)
      continue;
    fl_id l = fl_fabric_port_link(f, p, 0);
    fl_id q = fl_fabric_link_other(f, l, p);
    if (q == FL_NONE || q == p)
      continue;
    uint32_t sw = net->node_sw[fl_fabric_port_node(f, q)];
    if (sw == PF_NONE)
      continue;
    out->node = n;
    out->port = p;
    out->link = l;
    out->dl_out = pf_dl(f, l, p);
    out->dl_in = pf_dl(f, l, q);
    out->sw = sw;
    out->lid = fl_fabric_port_lid(f, p);
    out->gbps = net->cap[out->dl_out];
    return 1;
  }
  return 0;
}

static int index_cas(const pf_net *net, ca_ent **out, size_t *n) {
  const fl_fabric *f = net->f;
  uint32_t nn = fl_fabric_node_count(f);
  ca_ent *v = malloc((nn ? nn : 1) * sizeof *v);
  if (!v)
    return -1;
  size_t k = 0;
  for (fl_id i = 0; i < nn; i++) {
    pf_nic tmp;
    if (fl_fabric_node_kind(f, i) != FL_NODE_CA || !nic_of(net, i, &tmp))
      continue;
    const char *sys = fl_fabric_node_system(f, i);
    v[k].sys = sys && *sys ? sys : fl_fabric_node_name(f, i);
    v[k].name = fl_fabric_node_name(f, i);
    v[k++].node = i;
  }
  qsort(v, k, sizeof *v, cmp_ca);
  *out = v;
  *n = k;
  return 0;
}

/* The CAs of host @name: [*lo, *hi) in the index, or a single CA whose
 * display name is @name (*single). Returns 0 when found. */
static int find_host(const ca_ent *v, size_t n, const char *name, size_t *lo,
                     size_t *hi, fl_id *single) {
  size_t a = 0, b = n;
  while (a < b) {
    size_t mid = a + (b - a) / 2;
    if (strcmp(v[mid].sys, name) < 0)
      a = mid + 1;
    else
      b = mid;
  }
  size_t e = a;
  while (e < n && strcmp(v[e].sys, name) == 0)
    e++;
  *single = FL_NONE;
  if (e > a) {
    *lo = a, *hi = e;
    return 0;
  }
  for (size_t i = 0; i < n; i++)
    if (strcmp(v[i].name, name) == 0) {
      *single = v[i].node;
      *lo = i, *hi = i + 1;
      return 0;
    }
  return -1;
}

/* Whether system @sys is a storage host of @t's checkpoint. */
static int is_storage(const ca_ent *v, size_t n, const fl_wl_training *t,
                      const char *sys) {
  for (uint32_t i = 0; i < t->n_ckpt_storage; i++) {
    size_t lo, hi;
    fl_id one;
    if (find_host(v, n, t->ckpt_storage[i], &lo, &hi, &one) == 0 &&
        strcmp(v[lo].sys, sys) == 0)
      return 1;
  }
  return 0;
}

/* `hosts: all`: every distinct system, in name order, but the storage
 * hosts of a checkpoint (@t). */
static int all_hosts(const ca_ent *v, size_t n, const fl_wl_training *t,
                     const char ***names, size_t *nh) {
  const char **h = malloc((n ? n : 1) * sizeof *h);
  if (!h)
    return -1;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if ((k == 0 || strcmp(h[k - 1], v[i].sys) != 0) &&
        !is_storage(v, n, t, v[i].sys))
      h[k++] = v[i].sys;
  *names = h;
  *nh = k;
  return 0;
}

static int cmp_u64(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? -1 : a > b;
}

static int resolve_hosts(fl_perf_job *job, const fl_workload *w,
                         const ca_ent *v, size_t nv, const char *const *names,
                         size_t nh, size_t *sys_of, fl_error *err);
static int refuse_repeats(const fl_workload *w, const ca_ent *v,
                          const char *const *names, size_t nh,
                          const size_t *sys_of, fl_error *err);

/* Resolve the job's hosts and refuse repeats. */
static int resolve(fl_perf_job *job, const fl_workload *w, const ca_ent *v,
                   size_t nv, const char *const *names, size_t nh,
                   fl_error *err) {
  /* per host: the index in @v of its system's first CA (a host named by
   * one NIC's CA name is still that system) */
  size_t *sys_of = malloc((nh ? nh : 1) * sizeof *sys_of);
  if (!sys_of)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  int rc = resolve_hosts(job, w, v, nv, names, nh, sys_of, err);
  if (rc == FL_OK)
    rc = refuse_repeats(w, v, names, nh, sys_of, err);
  free(sys_of);
  if (rc == FL_OK)
    job->hosts = (uint32_t)nh;
  return rc;
}

/* Resolve host names @names[0..@nh) to their NICs (job->nic, job->rails)
 * and their systems (@sys_of, see resolve()). */
static int resolve_hosts(fl_perf_job *job, const fl_workload *w,
                         const ca_ent *v, size_t nv, const char *const *names,
                         size_t nh, size_t *sys_of, fl_error *err) {
  for (size_t h = 0; h < nh; h++) {
    size_t lo, hi, slo, shi;
    fl_id one;
    if (find_host(v, nv, names[h], &lo, &hi, &one) != 0)
      return fl_error_set(err, FL_EPARSE, w->path,
                          w->host_line ? w->host_line[h] : 0,
                          w->host_col ? w->host_col[h] : 0,
                          "host `%s` is not in the fabric: expected a host "
                          "(system) name or a CA name cabled to a switch",
                          names[h]);
    uint32_t k = (uint32_t)(hi - lo);
    if (h == 0) {
      job->rails = k;
      job->nic = calloc(nh * k, sizeof *job->nic);
      if (!job->nic)
        return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
    } else if (k != job->rails)
      return fl_error_set(err, FL_EPARSE, w->path,
                          w->host_line ? w->host_line[h] : 0,
                          w->host_col ? w->host_col[h] : 0,
                          "host `%s` has %u NIC(s) cabled to a switch, host "
                          "`%s` %u: every host of a job needs the same count",
                          names[h], k, names[0], job->rails);
    for (uint32_t r = 0; r < k; r++)
      nic_of(&job->net, v[lo + r].node, &job->nic[h * k + r]);
    sys_of[h] = find_host(v, nv, v[lo].sys, &slo, &shi, &one) == 0 ? slo : lo;
  }
  return FL_OK;
}

/* A host listed twice would be two ranks on one NIC, and two NICs of one
 * host listed as two hosts ("h1 mlx5_0", "h1 mlx5_1") would send between
 * planes or rails what stays inside the host: refuse both, naming the
 * later entry. */
static int refuse_repeats(const fl_workload *w, const ca_ent *v,
                          const char *const *names, size_t nh,
                          const size_t *sys_of, fl_error *err) {
  uint64_t *seen = malloc((nh ? nh : 1) * sizeof *seen);
  if (!seen)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  for (size_t h = 0; h < nh; h++)
    seen[h] = (uint64_t)sys_of[h] << 32 | h;
  qsort(seen, nh, sizeof *seen, cmp_u64);
  for (size_t i = 1; i < nh; i++)
    if (seen[i] >> 32 == seen[i - 1] >> 32) {
      size_t a = (size_t)(seen[i - 1] & 0xffffffffu);
      size_t b = (size_t)(seen[i] & 0xffffffffu);
      const char *sys = v[sys_of[b]].sys;
      uint32_t line = w->host_line ? w->host_line[b] : 0;
      uint32_t col = w->host_col ? w->host_col[b] : 0;
      free(seen);
      if (strcmp(names[a], names[b]) == 0)
        return fl_error_set(err, FL_EPARSE, w->path, line, col,
                            "host `%s` is listed twice", names[b]);
      return fl_error_set(err, FL_EPARSE, w->path, line, col,
                          "`%s` and `%s` are both host `%s`: expected each "
                          "host once (its name, `%s`, brings all its NICs)",
                          names[a], names[b], sys, sys);
    }
  free(seen);
  return FL_OK;
}

/* The NICs of the checkpoint's storage hosts after the job's own
 * (job->nic[hosts * rails + i], job->n_store); a storage host that is one
 * of the job's is refused. */
static int add_storage(fl_perf_job *job, const fl_workload *w, const ca_ent *v,
                       size_t nv, fl_error *err) {
  const fl_wl_training *t = &w->train;
  size_t base = (size_t)job->hosts * job->rails, k = 0;
  for (int pass = 0; pass < 2; pass++) {
    for (uint32_t i = 0; i < t->n_ckpt_storage; i++) {
      size_t lo, hi;
      fl_id one;
      if (find_host(v, nv, t->ckpt_storage[i], &lo, &hi, &one) != 0)
        return fl_error_set(err, FL_EPARSE, w->path, t->ckpt_line[i],
                            t->ckpt_col[i],
                            "storage host `%s` is not in the fabric: "
                            "expected a host (system) name or a CA name "
                            "cabled to a switch",
                            t->ckpt_storage[i]);
      for (size_t c = lo; c < hi; c++) {
        if (pass == 0) {
          for (size_t j = 0; j < base; j++)
            if (job->nic[j].node == v[c].node)
              return fl_error_set(err, FL_EPARSE, w->path, t->ckpt_line[i],
                                  t->ckpt_col[i],
                                  "storage host `%s` is one of the job's "
                                  "hosts: expected a host the checkpoint "
                                  "is written to",
                                  t->ckpt_storage[i]);
          /* one host named twice (its name and a CA's, or two CAs) */
          for (uint32_t i2 = 0; i2 < i; i2++) {
            size_t lo2, hi2;
            fl_id one2;
            if (find_host(v, nv, t->ckpt_storage[i2], &lo2, &hi2, &one2) == 0 &&
                strcmp(v[lo2].sys, v[c].sys) == 0)
              return fl_error_set(
                  err, FL_EPARSE, w->path, t->ckpt_line[i], t->ckpt_col[i],
                  "`%s` and `%s` are both storage host `%s`: "
                  "expected each host once (its name brings "
                  "all its NICs)",
                  t->ckpt_storage[i2], t->ckpt_storage[i], v[c].sys);
          }
          k++;
        } else {
          nic_of(&job->net, v[c].node, &job->nic[base + job->n_store++]);
        }
      }
    }
    if (pass == 0) {
      pf_nic *n = realloc(job->nic, (base + k) * sizeof *n);
      if (!n)
        return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
      job->nic = n;
    }
  }
  return FL_OK;
}

void fl_perf_job_set_threads(fl_perf_job *job, uint32_t threads) {
  job->net.threads = threads;
}

int fl_perf_job_new(const fl_fabric *fab, const fl_workload *w,
                    uint32_t routing, fl_perf_job **out, fl_error *err) {
  *out = NULL;
  fl_perf_job *job = calloc(1, sizeof *job);
  if (!job)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  job->f = fab;
  int ar_auto = routing == FL_WL_ROUTE_AUTO && !fl_fabric_lft_count(fab);
  int asked_lft = routing == FL_WL_ROUTE_LFT;
  if (routing == FL_WL_ROUTE_AUTO)
    routing = fl_fabric_lft_count(fab) ? FL_WL_ROUTE_LFT : FL_WL_ROUTE_AR;
  job->routing = routing;
  if (routing == FL_WL_ROUTE_LFT && fl_fabric_lft_count(fab) == 0) {
    fl_perf_job_free(job);
    return fl_error_set(err, FL_EINVAL, w->path, 0, 0,
                        "routing: lft asks for the loaded LFTs, but no LFT "
                        "dump was given");
  }
  int rc = pf_net_build(&job->net, fab, err);
  job->net.ar_auto = ar_auto;
  ca_ent *v = NULL;
  size_t nv = 0;
  if (rc == FL_OK && index_cas(&job->net, &v, &nv) != 0)
    rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  if (rc == FL_OK) {
    const char **names = (const char **)w->hosts;
    size_t nh = w->n_hosts;
    if (w->all_hosts && all_hosts(v, nv, &w->train, &names, &nh) != 0)
      rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
    if (rc == FL_OK && nh == 0 && nv > 0 && w->train.n_ckpt_storage)
      rc = fl_error_set(err, FL_EPARSE, w->path, w->train.ckpt_at_line,
                        w->train.ckpt_at_col,
                        "hosts: all, but every host is a storage host of the "
                        "checkpoint: none is left for the job");
    else if (rc == FL_OK && nh == 0)
      rc = fl_error_set(err, FL_EPARSE, w->path, 0, 0,
                        "hosts: all, but the fabric has no CA cabled to a "
                        "switch");
    if (rc == FL_OK)
      rc = resolve(job, w, v, nv, names, nh, err);
    if (rc == FL_OK && w->train.n_ckpt_storage)
      rc = add_storage(job, w, v, nv, err);
    if (w->all_hosts)
      free((void *)names);
  }
  if (rc == FL_OK && w->n_fail && asked_lft)
    rc = fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                      "--fail with routing lft: the loaded LFTs are the "
                      "subnet manager's from before the failure; give "
                      "routing auto (its re-run modelled), ar or spray");
  if (rc == FL_OK && w->n_fail)
    rc = pf_job_fail(job, w->fail, w->n_fail, w->train.on, err);
  free(v);
  if (rc != FL_OK) {
    fl_perf_job_free(job);
    return rc;
  }
  *out = job;
  return FL_OK;
}

void fl_perf_job_free(fl_perf_job *job) {
  if (!job)
    return;
  if (!job->net_borrowed)
    pf_net_free(&job->net);
  free(job->nic);
  free(job);
}

uint32_t fl_perf_job_hosts(const fl_perf_job *job) {
  return job->hosts;
}
uint32_t fl_perf_job_rails(const fl_perf_job *job) {
  return job->rails;
}

/* ---- flows ---------------------------------------------------------------
 */

static int cmp_cls(const void *x, const void *y) {
  const pf_class *a = x, *b = y;
  if (a->dst != b->dst)
    return a->dst < b->dst ? -1 : 1;
  return a->group < b->group ? -1 : a->group > b->group;
}

int pf_flows_nic_groups(const fl_perf_job *job, pf_flows *fl) {
  uint32_t nn = fl->nnic;
  fl->ng = nn;
  fl->groups = malloc((nn ? nn : 1) * sizeof *fl->groups);
  fl->members = malloc((nn ? nn : 1) * sizeof *fl->members);
  fl->dst_off = calloc((size_t)nn + 1, sizeof *fl->dst_off);
  if (!fl->groups || !fl->members || !fl->dst_off)
    return -1;
  for (uint32_t i = 0; i < nn; i++) {
    fl->groups[i] =
        (pf_group){job->nic[i].sw, job->nic[i].dl_out, 1, i, job->nic[i].gbps};
    fl->members[i] = i;
  }
  return 0;
}

/* Explicit flows: one group per NIC; merge equal (src, dst) pairs. */
static int explicit_flows(const fl_perf_job *job, pf_flows *fl, pf_class *cls,
                          size_t nc) {
  if (pf_flows_nic_groups(job, fl) != 0)
    return -1;
  qsort(cls, nc, sizeof *cls, cmp_cls);
  size_t k = 0;
  for (size_t i = 0; i < nc; i++) {
    if (k && cls[k - 1].dst == cls[i].dst && cls[k - 1].group == cls[i].group)
      cls[k - 1].count += cls[i].count;
    else
      cls[k++] = cls[i];
  }
  fl->cls = cls;
  fl->ncls = k;
  for (size_t i = 0; i < k; i++) {
    fl->dst_off[cls[i].dst + 1]++;
    fl->total_flows += cls[i].count;
  }
  for (uint32_t d = 0; d < fl->nnic; d++)
    fl->dst_off[d + 1] += fl->dst_off[d];
  return 0;
}

typedef struct gkey {
  uint32_t rail, sw, nic;
  double gbps;
} gkey;

static int cmp_gkey(const void *x, const void *y) {
  const gkey *a = x, *b = y;
  if (a->rail != b->rail)
    return a->rail < b->rail ? -1 : 1;
  if (a->sw != b->sw)
    return a->sw < b->sw ? -1 : 1;
  if (a->gbps != b->gbps)
    return a->gbps < b->gbps ? -1 : 1;
  return a->nic < b->nic ? -1 : a->nic > b->nic;
}

/* All-to-all: groups of (rail, switch, capacity), classes implicit. */
static int a2a_flows(const fl_perf_job *job, pf_flows *fl, double bytes) {
  uint32_t nn = fl->nnic, k = job->rails;
  gkey *key = malloc((nn ? nn : 1) * sizeof *key);
  fl->groups = malloc((nn ? nn : 1) * sizeof *fl->groups);
  fl->members = malloc((nn ? nn : 1) * sizeof *fl->members);
  fl->grp_of = malloc((nn ? nn : 1) * sizeof *fl->grp_of);
  fl->rail_goff = calloc((size_t)k + 1, sizeof *fl->rail_goff);
  if (!key || !fl->groups || !fl->members || !fl->grp_of || !fl->rail_goff) {
    free(key);
    return -1;
  }
  for (uint32_t i = 0; i < nn; i++)
    key[i] = (gkey){i % k, job->nic[i].sw, i, job->nic[i].gbps};
  qsort(key, nn, sizeof *key, cmp_gkey);
  for (uint32_t i = 0; i < nn; i++) {
    int same = i && key[i].rail == key[i - 1].rail &&
               key[i].sw == key[i - 1].sw && key[i].gbps == key[i - 1].gbps;
    if (!same) {
      const pf_nic *x = &job->nic[key[i].nic];
      fl->groups[fl->ng++] = (pf_group){x->sw, x->dl_out, 0, i, x->gbps};
      fl->rail_goff[key[i].rail + 1] = fl->ng;
    }
    fl->groups[fl->ng - 1].m++;
    fl->members[i] = key[i].nic;
    fl->grp_of[key[i].nic] = fl->ng - 1;
  }
  for (uint32_t r = 1; r <= k; r++)
    if (fl->rail_goff[r] < fl->rail_goff[r - 1])
      fl->rail_goff[r] = fl->rail_goff[r - 1];
  free(key);
  fl->a2a = 1;
  fl->a2a_bytes = bytes;
  double h = job->hosts;
  fl->total_flows = (double)k * h * (h - 1);
  return 0;
}

static int ring(const fl_perf_job *job, pf_flows *fl, double chunk) {
  uint32_t H = job->hosts, k = job->rails;
  size_t nc = H > 1 ? (size_t)H * k : 0;
  pf_class *cls = malloc((nc ? nc : 1) * sizeof *cls);
  if (!cls)
    return -1;
  size_t i = 0;
  for (uint32_t h = 0; h < H && nc; h++)
    for (uint32_t r = 0; r < k; r++)
      cls[i++] = (pf_class){h * k + r, ((h + 1) % H) * k + r, 1, chunk, 0};
  if (explicit_flows(job, fl, cls, i) != 0) {
    free(cls);
    return -1;
  }
  return 0;
}

static int sendrecv(const fl_perf_job *job, pf_flows *fl, uint64_t n,
                    uint64_t shift, double bytes) {
  uint32_t k = job->rails;
  pf_class *cls = malloc((n ? n : 1) * sizeof *cls);
  if (!cls)
    return -1;
  size_t c = 0;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t j = (i + shift) % n;
    uint32_t hi = (uint32_t)(i / k), hj = (uint32_t)(j / k),
             rj = (uint32_t)(j % k);
    if (hi != hj) /* PXN: leave through the destination GPU's rail */
      cls[c++] = (pf_class){hi * k + rj, hj * k + rj, 1, bytes, 0};
  }
  if (explicit_flows(job, fl, cls, c) != 0) {
    free(cls);
    return -1;
  }
  return 0;
}

int pf_flows_build(const fl_perf_job *job, const fl_wl_coll *c, pf_flows *fl,
                   uint32_t *steps, uint32_t *ranks, fl_error *err) {
  memset(fl, 0, sizeof *fl);
  uint64_t n = (uint64_t)job->hosts * job->rails;
  fl->nnic = (uint32_t)n;
  fl->rails = job->rails;
  *ranks = (uint32_t)n;
  if (n < 2)
    return fl_error_set(err, FL_EINVAL, NULL, c->line, c->col,
                        "%s needs at least 2 ranks, the job has %u",
                        fl_wl_op_name(c->op), (unsigned)n);
  double S = (double)c->bytes;
  int rc = 0;
  switch (c->op) {
  case FL_WL_ALL_REDUCE:
    *steps = (uint32_t)(2 * (n - 1));
    rc = ring(job, fl, S / ((double)job->rails * (double)n));
    break;
  case FL_WL_ALL_GATHER:
  case FL_WL_REDUCE_SCATTER:
    *steps = (uint32_t)(n - 1);
    rc = ring(job, fl, S / ((double)job->rails * (double)n));
    break;
  case FL_WL_ALL_TO_ALL:
    *steps = 1;
    rc = a2a_flows(job, fl, (double)job->rails * S / (double)n);
    break;
  default: {
    int64_t s = c->shift % (int64_t)n;
    if (s < 0)
      s += (int64_t)n;
    if (s == 0)
      return fl_error_set(err, FL_EINVAL, NULL, c->line, c->col,
                          "sendrecv shift %lld is a multiple of the %u ranks: "
                          "every rank would send to itself",
                          (long long)c->shift, (unsigned)n);
    *steps = 1;
    rc = sendrecv(job, fl, n, (uint64_t)s, S);
  }
  }
  if (rc != 0) {
    pf_flows_free(fl);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  return FL_OK;
}
