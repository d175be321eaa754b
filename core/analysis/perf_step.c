/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf_step.c — one training step (issue 35, item 1): the
 * ranks of a `training:` job placed on the job's GPUs, its communicators
 * (TP, CP, EP, PP, DP) and their traffic per step, the inter-node ones
 * run together on the fabric with the max-min flow model, and the step
 * time. Formulas, sources and assumptions: docs/performance-model.md,
 * "Training step".
 *
 * Placement: rank = tp + TP(cp + CP(pp + PP dp)) (TP innermost so that a
 * TP group stays inside a server's NVLink domain, then CP, PP, DP; EP
 * splits DP: dp = ep + EP × dp_outer). GPU g of the job's host h is rank
 * h × per_server + g; its NIC is the host profile's pairing (the
 * `gpu-nics` attribute, NCCL's rule) or NIC g × rails / per_server.
 *
 * Flows per step of one collective of nccl-tests size S, as perf_flows.c
 * models NCCL: a ring collective of a communicator with k members on each
 * of H hosts runs k rail-local rings (member j of host h sends to member j
 * of host h + 1), S / (k n) per flow and step, 2(n − 1) steps for
 * all-reduce and n − 1 for all-gather and reduce-scatter; all-to-all
 * sends S / n from every member to every member on another host through
 * the destination GPU's NIC (PXN); a pipeline boundary sends S from each
 * GPU to its peer in the next stage (and back, for the gradients). Flows
 * between the same two NICs are one flow carrying their sum. A
 * communicator inside one server has no flow: its collectives run at the
 * scale-up bandwidth (time = S × busbw factor / scale_up_GBps).
 *
 * Rates: max-min rates do not depend on bytes, so each phase is solved
 * for unit sizes (S = 1) and scaled: a phase's collectives share its
 * slowest flow's rate r, and one of size S takes steps × S × u × 8 / r
 * (u: the phase's largest per-flow share of S). Three solutions per phase:
 * every fabric phase at once (pf_maxmin_tagged; the step uses it), the
 * phase alone, and the phase alone on the nominal crossbar (the ideal).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/perf_impl.h"
#include "analysis/perf_step.h"

/* Coordinates of a rank, innermost first. */
enum { D_TP, D_CP, D_PP, D_EP, D_DPO, D_N };

#define M_(d) (1u << (d))
static const uint32_t PHASE_DIMS[FL_STEP_PHASES] = {
    [FL_STEP_TP] = M_(D_TP),
    [FL_STEP_CP] = M_(D_CP),
    [FL_STEP_EP] = M_(D_EP),
    [FL_STEP_PP] = M_(D_PP),
    [FL_STEP_DP] = M_(D_CP) | M_(D_EP) | M_(D_DPO),
};
#undef M_

static const char *const PHASE_NAME[FL_STEP_PHASES] = {"tp", "cp", "ep", "pp",
                                                       "dp"};

const char *fl_step_phase_name(uint32_t p) {
  return p < FL_STEP_PHASES ? PHASE_NAME[p] : "?";
}

typedef struct layout {
  uint32_t size[D_N];
  uint64_t stride[D_N];
  uint64_t gpus;
  uint32_t per_server, rails;
  uint32_t *nic_of_gpu; /* [per_server] */
} layout;

/* Rank of member @mi of communicator @gi over the dimensions in @mask. */
static uint64_t member(const layout *L, uint32_t mask, uint64_t gi,
                       uint64_t mi) {
  uint64_t r = 0;
  for (uint32_t d = 0; d < D_N; d++) {
    uint64_t *x = mask >> d & 1u ? &mi : &gi;
    r += (*x % L->size[d]) * L->stride[d];
    *x /= L->size[d];
  }
  return r;
}

static uint32_t ranks_of(const layout *L, uint32_t mask) {
  uint32_t n = 1;
  for (uint32_t d = 0; d < D_N; d++)
    if (mask >> d & 1u)
      n *= L->size[d];
  return n;
}

static uint32_t host_of(const layout *L, uint64_t rank) {
  return (uint32_t)(rank / L->per_server);
}

static uint32_t nic_of(const layout *L, uint64_t rank) {
  return host_of(L, rank) * L->rails + L->nic_of_gpu[rank % L->per_server];
}

/* NIC of host @h on the rail of GPU @rank (PXN: data leaves toward a GPU
 * through the NIC of the destination GPU's rail). */
static uint32_t nic_on_rail(const layout *L, uint32_t h, uint64_t rank) {
  return h * L->rails + L->nic_of_gpu[rank % L->per_server];
}

/* ---- flows -------------------------------------------------------------- */

typedef struct raw {
  uint32_t src, dst, tag;
  double bytes;
} raw;

typedef struct rawv {
  raw *v;
  size_t n, cap;
} rawv;

static int push(rawv *f, uint32_t src, uint32_t dst, uint32_t tag,
                double bytes) {
  if (f->n == f->cap) {
    size_t c = f->cap ? f->cap * 2 : 1024;
    raw *t = realloc(f->v, c * sizeof *t);
    if (!t)
      return -1;
    f->v = t;
    f->cap = c;
  }
  f->v[f->n++] = (raw){src, dst, tag, bytes};
  return 0;
}

/* Ring flows of communicator @gi (unit size). Returns the hosts it spans
 * (0 on no memory). */
static uint32_t ring_flows(const layout *L, uint32_t mask, uint64_t gi,
                           uint32_t tag, rawv *out, uint64_t *tmp) {
  uint32_t n = ranks_of(L, mask);
  for (uint32_t i = 0; i < n; i++)
    tmp[i] = member(L, mask, gi, i);
  /* members in rank order are grouped by host (hosts are rank blocks):
   * H runs; regular when every run has the first run's length k */
  uint32_t H = 0, k = 0, run = 0, regular = 1;
  for (uint32_t i = 0; i <= n; i++) {
    if (i < n && i && host_of(L, tmp[i]) == host_of(L, tmp[i - 1])) {
      run++;
      continue;
    }
    if (i) { /* the run of the previous host ends */
      if (!k)
        k = run;
      regular &= run == k;
    }
    H += i < n;
    run = 1;
  }
  if (H == 1)
    return 1;
  if (regular) { /* k rail-local rings over the H hosts */
    for (uint32_t h = 0; h < H; h++)
      for (uint32_t j = 0; j < k; j++) {
        uint64_t a = tmp[h * k + j], b = tmp[((h + 1) % H) * k + j];
        if (push(out, nic_of(L, a), nic_of(L, b), tag, 1.0 / ((double)k * n)) !=
            0)
          return 0;
      }
  } else { /* one ring in rank order */
    for (uint32_t i = 0; i < n; i++) {
      uint64_t a = tmp[i], b = tmp[(i + 1) % n];
      if (host_of(L, a) != host_of(L, b) &&
          push(out, nic_on_rail(L, host_of(L, a), b), nic_of(L, b), tag,
               1.0 / n) != 0)
        return 0;
    }
  }
  return H;
}

/* All-to-all flows of communicator @gi (unit size): S / n from every
 * member to every member on another host, through the destination's rail. */
static uint32_t a2a_flows(const layout *L, uint32_t mask, uint64_t gi,
                          uint32_t tag, rawv *out, uint64_t *tmp) {
  uint32_t n = ranks_of(L, mask);
  for (uint32_t i = 0; i < n; i++)
    tmp[i] = member(L, mask, gi, i);
  uint32_t H = 1;
  for (uint32_t i = 1; i < n; i++)
    H += host_of(L, tmp[i]) != host_of(L, tmp[i - 1]);
  for (uint32_t i = 0; i < n && H > 1; i++)
    for (uint32_t j = 0; j < n; j++) {
      uint32_t hi = host_of(L, tmp[i]), hj = host_of(L, tmp[j]);
      if (hi != hj && push(out, nic_on_rail(L, hi, tmp[j]), nic_of(L, tmp[j]),
                           tag, 1.0 / n) != 0)
        return 0;
    }
  return H;
}

/* Pipeline flows of communicator @gi: each stage's GPU to the next stage's
 * (activations) and back (gradients), S each. */
static uint32_t pp_flows(const layout *L, uint32_t mask, uint64_t gi,
                         uint32_t tag, rawv *out, uint64_t *tmp) {
  uint32_t n = ranks_of(L, mask), H = 1;
  for (uint32_t i = 0; i < n; i++)
    tmp[i] = member(L, mask, gi, i);
  for (uint32_t i = 0; i + 1 < n; i++) {
    uint64_t a = tmp[i], b = tmp[i + 1];
    uint32_t ha = host_of(L, a), hb = host_of(L, b);
    if (ha == hb)
      continue;
    H++;
    if (push(out, nic_on_rail(L, ha, b), nic_of(L, b), tag, 1.0) != 0 ||
        push(out, nic_on_rail(L, hb, a), nic_of(L, a), tag, 1.0) != 0)
      return 0;
  }
  return H;
}

static int cmp_raw(const void *x, const void *y) {
  const raw *a = x, *b = y;
  if (a->dst != b->dst)
    return a->dst < b->dst ? -1 : 1;
  if (a->src != b->src)
    return a->src < b->src ? -1 : 1;
  return a->tag < b->tag ? -1 : a->tag > b->tag;
}

/* pf_flows of @r[@n] (sorted and merged here): one source group per NIC,
 * one class per (source, destination, tag) carrying the sum of bytes. */
static int to_flows(const fl_perf_job *job, raw *r, size_t n, pf_flows *fl) {
  memset(fl, 0, sizeof *fl);
  uint32_t nn = job->hosts * job->rails + job->n_store;
  fl->nnic = nn;
  fl->rails = job->rails;
  fl->cls = malloc((n ? n : 1) * sizeof *fl->cls);
  if (!fl->cls || pf_flows_nic_groups(job, fl) != 0)
    return -1;
  qsort(r, n, sizeof *r, cmp_raw);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    pf_class *c = k ? &fl->cls[k - 1] : NULL;
    if (c && c->dst == r[i].dst && c->group == r[i].src && c->tag == r[i].tag)
      c->bytes += r[i].bytes;
    else
      fl->cls[k++] = (pf_class){r[i].src, r[i].dst, 1, r[i].bytes, r[i].tag};
  }
  fl->ncls = k;
  for (size_t i = 0; i < k; i++)
    fl->dst_off[fl->cls[i].dst + 1]++;
  fl->total_flows = (double)k;
  for (uint32_t d = 0; d < nn; d++)
    fl->dst_off[d + 1] += fl->dst_off[d];
  return 0;
}

/* ---- phases ------------------------------------------------------------- */

static double bus_factor(uint32_t op, double n) {
  if (op == FL_WL_ALL_REDUCE)
    return 2.0 * (n - 1) / n;
  if (op == FL_WL_SENDRECV)
    return 1.0;
  return (n - 1) / n;
}

static double ring_steps(uint32_t op, double n) {
  if (op == FL_WL_ALL_REDUCE)
    return 2.0 * (n - 1);
  if (op == FL_WL_ALL_GATHER || op == FL_WL_REDUCE_SCATTER)
    return n - 1;
  return 1.0;
}

static void add_op(fl_step_phase *p, uint32_t op, double bytes, double count) {
  p->ops[p->n_ops++] = (fl_step_op){op, bytes, count, 0};
}

/* The collectives of each phase per GPU per step (docs/performance-model.md,
 * "Training step": Megatron-LM's TP and PP, ZeRO's DP, GShard's EP). */
static void derive_ops(const fl_wl_training *t, const layout *L,
                       fl_step_result *res) {
  double m = res->micro_batches, ls = t->layers / t->pp;
  double act =
      t->micro_batch * (t->seq_len / t->cp) * t->hidden * t->precision_bytes;
  double shard = t->params / ((double)t->tp * t->pp);
  for (uint32_t p = 0; p < FL_STEP_PHASES; p++) {
    res->ph[p].ranks = ranks_of(L, PHASE_DIMS[p]);
    res->ph[p].groups = (uint32_t)(L->gpus / res->ph[p].ranks);
  }
  fl_step_phase *ph = res->ph;
  if (t->tp > 1)
    add_op(&ph[FL_STEP_TP], FL_WL_ALL_REDUCE, act, 4 * ls * m);
  if (t->cp > 1) {
    double kv = 2 * t->micro_batch * t->seq_len * (t->hidden / t->tp) *
                t->precision_bytes;
    add_op(&ph[FL_STEP_CP], FL_WL_ALL_GATHER, kv, ls * m);
    add_op(&ph[FL_STEP_CP], FL_WL_REDUCE_SCATTER, kv, ls * m);
  }
  if (t->ep > 1 && t->moe_layers > 0)
    add_op(&ph[FL_STEP_EP], FL_WL_ALL_TO_ALL, act * t->top_k,
           4 * (t->moe_layers / t->pp) * m);
  if (t->pp > 1)
    add_op(&ph[FL_STEP_PP], FL_WL_SENDRECV, act / t->tp, 2 * m);
  if (ph[FL_STEP_DP].ranks > 1) {
    double g = shard * t->grad_bytes, w = shard * t->precision_bytes;
    if (t->zero == 0)
      add_op(&ph[FL_STEP_DP], FL_WL_ALL_REDUCE, g, 1);
    else if (t->zero < 3) {
      add_op(&ph[FL_STEP_DP], FL_WL_REDUCE_SCATTER, g, 1);
      add_op(&ph[FL_STEP_DP], FL_WL_ALL_GATHER, w, 1);
    } else {
      add_op(&ph[FL_STEP_DP], FL_WL_ALL_GATHER, w, 2);
      add_op(&ph[FL_STEP_DP], FL_WL_REDUCE_SCATTER, g, 1);
    }
  }
  for (uint32_t p = 0; p < FL_STEP_PHASES; p++) {
    ph[p].on = ph[p].n_ops > 0;
    for (uint32_t i = 0; i < ph[p].n_ops; i++) {
      const fl_step_op *o = &ph[p].ops[i];
      ph[p].bytes += o->count * o->bytes;
      ph[p].wire_bytes += o->count * o->bytes * bus_factor(o->op, ph[p].ranks);
    }
  }
}

/* The flows of one step of phase @p's collectives (unit size) on every
 * communicator; sets ph->hosts and ph->fabric. */
static int phase_flows(const layout *L, uint32_t p, fl_step_phase *ph,
                       rawv *out) {
  uint32_t mask = PHASE_DIMS[p], n = ph->ranks;
  uint64_t *tmp = malloc(n * sizeof *tmp);
  if (!tmp)
    return -1;
  uint32_t op = ph->ops[0].op;
  for (uint64_t g = 0; g < ph->groups; g++) {
    uint32_t h = op == FL_WL_ALL_TO_ALL ? a2a_flows(L, mask, g, p, out, tmp)
                 : op == FL_WL_SENDRECV ? pp_flows(L, mask, g, p, out, tmp)
                                        : ring_flows(L, mask, g, p, out, tmp);
    if (h == 0) {
      free(tmp);
      return -1;
    }
    if (h > ph->hosts)
      ph->hosts = h;
  }
  free(tmp);
  ph->fabric = ph->hosts > 1;
  return 0;
}

/* Largest per-flow share of S among the classes of tag @p. */
static double unit_of(const pf_flows *fl, uint32_t p) {
  double u = 0;
  for (size_t i = 0; i < fl->ncls; i++)
    if (fl->cls[i].tag == p && fl->cls[i].bytes > u)
      u = fl->cls[i].bytes;
  return u;
}

/* Time of phase @ph's collectives at slowest-flow rate @gbps (Gb/s) with
 * per-flow share @u; fills each op's time_s when @ops. */
static double fabric_time(fl_step_phase *ph, double u, double gbps, int ops) {
  double total = 0;
  for (uint32_t i = 0; i < ph->n_ops; i++) {
    fl_step_op *o = &ph->ops[i];
    double one = ring_steps(o->op, ph->ranks) * o->bytes * u * 8 / (gbps * 1e9);
    if (ops)
      o->time_s = one;
    total += o->count * one;
  }
  return total;
}

static void scale_up_time(fl_step_phase *ph, double GBps) {
  for (uint32_t i = 0; i < ph->n_ops; i++) {
    fl_step_op *o = &ph->ops[i];
    o->time_s = o->bytes * bus_factor(o->op, ph->ranks) / (GBps * 1e9);
    ph->time_s += o->count * o->time_s;
  }
  ph->alone_s = ph->ideal_s = ph->time_s;
  ph->busbw_GBps = GBps;
}

/* Flows @r[@n] alone on @job's routing (@sol) and on the nominal crossbar
 * (@ideal), into @fl; the unit share of their first tag in *@u. FL_OK
 * with all three to free (pf_flows_free, pf_solution_free), else nothing
 * to free; a routing problem is in the solutions' error texts. */
static int solve_pair(const fl_perf_job *job, raw *r, size_t n, pf_flows *fl,
                      pf_solution *sol, pf_solution *ideal, double *u,
                      fl_error *err) {
  if (to_flows(job, r, n, fl) != 0) {
    pf_flows_free(fl);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  *u = unit_of(fl, fl->ncls ? fl->cls[0].tag : 0);
  int rc = pf_solve(&job->net, job->nic, fl, job->routing, sol, err);
  if (rc == FL_OK) {
    pf_net nominal = job->net;
    nominal.cap = job->net.nom;
    rc = pf_solve(&nominal, job->nic, fl, PF_ROUTE_IDEAL, ideal, err);
    if (rc != FL_OK)
      pf_solution_free(sol);
  }
  if (rc != FL_OK)
    pf_flows_free(fl);
  return rc;
}

static void free_pair(pf_flows *fl, pf_solution *sol, pf_solution *ideal) {
  pf_solution_free(sol);
  pf_solution_free(ideal);
  pf_flows_free(fl);
}

/* One phase alone on @job's routing and on the nominal crossbar: its time,
 * ideal and per-link flow counts (@weight, ndl). */
static int solve_alone(const fl_perf_job *job, raw *r, size_t n,
                       fl_step_phase *ph, double *weight, char *error,
                       size_t esz, fl_error *err) {
  pf_flows fl;
  pf_solution sol, ideal;
  double u;
  int rc = solve_pair(job, r, n, &fl, &sol, &ideal, &u, err);
  if (rc != FL_OK)
    return rc;
  if (sol.error[0] || ideal.error[0]) {
    snprintf(error, esz, "%s", sol.error[0] ? sol.error : ideal.error);
  } else {
    ph->alone_s = fabric_time(ph, u, sol.slow_level, 0);
    ph->ideal_s = fabric_time(ph, u, ideal.slow_level, 0);
    memcpy(weight, sol.weight, job->net.ndl * sizeof *weight);
    if (ph->alone_s > ph->ideal_s * (1 + fl_perf_eps(job->routing)) &&
        pf_bottlenecks(job, sol.level, sol.weight, sol.slow_level, ph->alone,
                       &ph->n_alone) != 0)
      rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  free_pair(&fl, &sol, &ideal);
  return rc;
}

/* GPUs per server and each GPU's NIC: the job's `per-server`, else the
 * host profile of the first host (gpu-nics, in GPU order), else 8. */
static int gpus_and_nics(const fl_perf_job *job, const fl_wl_training *t,
                         layout *L, fl_step_result *res) {
  const fl_fabric *f = job->f;
  const char *prof =
      fl_fabric_attr(f, FL_ENT_NODE, job->nic[0].node, "gpu-nics");
  uint32_t G = 0;
  for (const char *s = prof; s && *s; s += strcspn(s, ";"), s += *s == ';')
    G += *s != '-';
  res->per_server_from = t->per_server ? "job" : G ? "host profile" : "default";
  L->per_server = t->per_server ? t->per_server : G ? G : 8;
  L->rails = job->rails;
  L->nic_of_gpu = malloc(L->per_server * sizeof *L->nic_of_gpu);
  if (!L->nic_of_gpu)
    return -1;
  for (uint32_t g = 0; g < L->per_server; g++)
    L->nic_of_gpu[g] = (uint32_t)((uint64_t)g * job->rails / L->per_server);
  if (t->per_server || !G)
    return 0;
  uint32_t g = 0;
  for (const char *s = prof; *s && g < G;
       s += strcspn(s, ";"), s += *s == ';') {
    if (*s == '-')
      continue;
    const char *c = strchr(s, ','), *e = s + strcspn(s, ";");
    if (!c || c > e) {
      g++;
      continue;
    }
    const char *nm = c + 1;
    size_t len = strcspn(nm, ",;");
    for (uint32_t r = 0; r < job->rails; r++) {
      const char *ca = fl_fabric_node_name(f, job->nic[r].node);
      size_t cl = strlen(ca);
      if (cl >= len && strncmp(ca + cl - len, nm, len) == 0 &&
          (cl == len || ca[cl - len - 1] == ' '))
        L->nic_of_gpu[g] = r;
    }
    g++;
  }
  return 0;
}

/* What of phase @p's @t seconds the compute does not hide: DP (with
 * overlap) all but its last bucket within the window, the others none. */
static double exposed(const fl_step_result *res, uint32_t p, double t) {
  if (p != FL_STEP_DP || !res->overlap || t <= 0)
    return t;
  double last = t / res->dp_buckets;
  double rest = t - last - res->dp_window_s;
  return last + (rest > 0 ? rest : 0);
}

static void compute_and_exposure(const fl_wl_training *t, int overlap,
                                 fl_step_result *res) {
  res->tokens = t->global_batch * t->seq_len;
  res->flops = 6 * t->params * res->tokens;
  res->compute_s =
      res->flops / ((double)res->gpus * t->peak_tflops * 1e12 * t->mfu);
  res->backward_s = res->compute_s * 2 / 3;
  double grads = t->params / ((double)t->tp * t->pp) * t->grad_bytes;
  /* Megatron-Core's default bucket: max(40e6, 1e6 x DP size) parameters
   * (DistributedDataParallelConfig.bucket_size; DP with CP) */
  double dpn = (double)t->dp * t->cp;
  double bucket = t->bucket_bytes > 0
                      ? t->bucket_bytes
                      : (dpn * 1e6 > 40e6 ? dpn * 1e6 : 40e6) * t->grad_bytes;
  res->dp_buckets = ceil(grads / bucket);
  res->dp_window_s = t->zero == 3 ? res->compute_s : res->backward_s;
  res->overlap = overlap;
  res->comm_s = res->comm_alone_s = 0;
  for (uint32_t p = 0; p < FL_STEP_PHASES; p++) {
    fl_step_phase *ph = &res->ph[p];
    ph->exposed_s = exposed(res, p, ph->time_s);
    res->comm_s += ph->exposed_s;
    res->comm_alone_s += exposed(res, p, ph->alone_s);
  }
  res->step_alone_s = res->compute_s + res->comm_alone_s;
  res->step_s = res->compute_s + res->comm_s;
}

/* Every fabric phase at once: per-phase times, busbw and bottlenecks. */
static int concurrent(const fl_perf_job *job, rawv *all, double *const *wt,
                      fl_step_result *res, fl_error *err) {
  pf_flows fl;
  pf_solution sol;
  if (to_flows(job, all->v, all->n, &fl) != 0) {
    pf_flows_free(&fl);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  int rc = pf_maxmin_tagged(&job->net, job->nic, &fl, job->routing,
                            FL_STEP_PHASES, &sol, err);
  if (rc == FL_OK && sol.error[0])
    snprintf(res->error, sizeof res->error, "%s", sol.error);
  if (rc == FL_OK) {
    res->ar.sweeps = sol.ar_sweeps;
    res->ar.converged = sol.ar_converged;
    res->ar.residual = sol.ar_residual;
    res->ar.capped = sol.ar_capped;
  }
  for (uint32_t p = 0; rc == FL_OK && !res->error[0] && p < FL_STEP_PHASES;
       p++) {
    fl_step_phase *ph = &res->ph[p];
    if (!ph->on || !ph->fabric)
      continue;
    double u = unit_of(&fl, p), x = sol.tag_level[p];
    ph->rate_gbps = x;
    ph->time_s = fabric_time(ph, u, x, 1);
    const fl_step_op *o = &ph->ops[0];
    ph->busbw_GBps = o->bytes / o->time_s / 1e9 * bus_factor(o->op, ph->ranks);
    if (ph->time_s > ph->ideal_s * (1 + fl_perf_eps(job->routing)) &&
        pf_bottlenecks(job, sol.level, wt[p], x, ph->bottlenecks,
                       &ph->n_bottlenecks) != 0)
      rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  pf_solution_free(&sol);
  pf_flows_free(&fl);
  return rc;
}

/* The checkpoint's flows: each writer NIC to each storage NIC, unit size,
 * tagged FL_STEP_PHASES. */
static int ckpt_flows(const fl_perf_job *job, fl_step_result *res, rawv *out,
                      fl_error *err) {
  fl_step_ckpt *c = &res->ckpt;
  const pf_net *n = &job->net;
  size_t base = (size_t)job->hosts * job->rails, ns = n->nsw ? n->nsw : 1;
  uint32_t *lab = malloc(ns * sizeof *lab), *q = malloc(ns * sizeof *q);
  if (!lab || !q) {
    free(lab), free(q);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  pf_net_components(n, lab, q);
  /* a writer NIC's share goes to the storage NICs it can reach: a plane's
   * NICs write to the storage NICs of their plane */
  double per_nic = c->bytes / ((double)res->hosts_used * job->rails);
  int rc = FL_OK;
  for (uint32_t h = 0; rc == FL_OK && h < res->hosts_used; h++)
    for (uint32_t r = 0; rc == FL_OK && r < job->rails; r++) {
      uint32_t w = h * job->rails + r, k = 0;
      for (uint32_t s = 0; s < job->n_store; s++)
        k += lab[job->nic[base + s].sw] == lab[job->nic[w].sw];
      if (k == 0) {
        snprintf(c->error, sizeof c->error,
                 "%s reaches no NIC of the storage hosts (they are on other "
                 "planes, or cut off)",
                 fl_fabric_node_name(job->f, job->nic[w].node));
        rc = FL_OK;
        goto done;
      }
      for (uint32_t s = 0; s < job->n_store; s++)
        if (lab[job->nic[base + s].sw] == lab[job->nic[w].sw]) {
          if (push(out, w, (uint32_t)(base + s), FL_STEP_PHASES, per_nic / k) !=
              0)
            rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
          c->flows += 1;
          if (per_nic / k > c->flow_bytes)
            c->flow_bytes = per_nic / k;
        }
    }
done:
  free(lab), free(q);
  return rc;
}

/* The checkpoint alone: its rate on the routing and on the nominal
 * crossbar, the links that hold it. */
static int ckpt_alone(const fl_perf_job *job, rawv *ck, fl_step_result *res,
                      fl_error *err) {
  fl_step_ckpt *c = &res->ckpt;
  pf_flows fl;
  pf_solution sol, ideal;
  double u;
  int rc = solve_pair(job, ck->v, ck->n, &fl, &sol, &ideal, &u, err);
  if (rc != FL_OK)
    return rc;
  if (sol.error[0] || ideal.error[0]) {
    snprintf(c->error, sizeof c->error, "%s",
             sol.error[0] ? sol.error : ideal.error);
  } else { /* flows of a NIC reaching fewer storage NICs carry more */
    c->rate_alone_gbps = sol.slow_level;
    c->alone_s = sol.step_time_s;
    c->ideal_s = ideal.step_time_s;
    if (c->alone_s > c->ideal_s * (1 + fl_perf_eps(job->routing)) &&
        pf_bottlenecks(job, sol.level, sol.weight, sol.slow_level,
                       c->bottlenecks, &c->n_bottlenecks) != 0)
      rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  free_pair(&fl, &sol, &ideal);
  return rc;
}

/* The checkpoint beside every fabric phase of the step at once: its rate,
 * each phase's time and the step time then. */
static int ckpt_during(const fl_perf_job *job, const rawv *all, const rawv *ck,
                       fl_step_result *res, fl_error *err) {
  fl_step_ckpt *c = &res->ckpt;
  rawv both = {0};
  for (size_t i = 0; i < all->n + ck->n; i++) {
    const raw *x = i < all->n ? &all->v[i] : &ck->v[i - all->n];
    if (push(&both, x->src, x->dst, x->tag, x->bytes) != 0) {
      free(both.v);
      return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
    }
  }
  pf_flows fl;
  pf_solution sol;
  int rc = to_flows(job, both.v, both.n, &fl) != 0
               ? fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory")
               : pf_maxmin_tagged(&job->net, job->nic, &fl, job->routing,
                                  FL_STEP_PHASES + 1, &sol, err);
  if (rc == FL_OK) {
    if (sol.error[0]) {
      snprintf(c->error, sizeof c->error, "%s", sol.error);
    } else {
      c->rate_during_gbps = sol.tag_level[FL_STEP_PHASES];
      c->during_s = c->flow_bytes * 8 / (c->rate_during_gbps * 1e9);
      double full = res->compute_s; /* a step wholly beside it */
      for (uint32_t p = 0; p < FL_STEP_PHASES; p++) {
        fl_step_phase *ph = &res->ph[p];
        c->ph_during_s[p] = ph->time_s;
        if (ph->on && ph->fabric)
          c->ph_during_s[p] =
              fabric_time(ph, unit_of(&fl, p), sol.tag_level[p], 0);
        full += exposed(res, p, c->ph_during_s[p]);
      }
      /* a checkpoint shorter than that slows only the part of the step
       * it overlaps: the step goes at the slow pace for during_s, at its
       * own for the rest of its work */
      c->step_during_s =
          c->during_s >= full
              ? full
              : c->during_s + (1 - c->during_s / full) * res->step_s;
    }
    pf_solution_free(&sol);
  }
  pf_flows_free(&fl);
  free(both.v);
  return rc;
}

/* A checkpoint written while the job trains (fl_step_ckpt). */
static int checkpoint(const fl_perf_job *job, const fl_wl_training *t,
                      const rawv *all, fl_step_result *res, fl_error *err) {
  fl_step_ckpt *c = &res->ckpt;
  c->on = 1;
  c->bytes = t->ckpt_bytes;
  c->writers = res->hosts_used;
  c->storage = t->n_ckpt_storage;
  c->storage_nics = job->n_store;
  rawv ck = {0};
  int rc = ckpt_flows(job, res, &ck, err);
  if (rc == FL_OK && !c->error[0])
    rc = ckpt_alone(job, &ck, res, err);
  if (rc == FL_OK && !c->error[0])
    rc = ckpt_during(job, all, &ck, res, err);
  free(ck.v);
  return rc;
}

static int check_size(const fl_perf_job *job, const fl_wl_training *t,
                      const layout *L, fl_step_result *res, fl_error *err) {
  res->gpus = (uint32_t)L->gpus;
  res->hosts = job->hosts;
  res->per_server = L->per_server;
  res->rails = job->rails;
  res->hosts_used = (uint32_t)((L->gpus + L->per_server - 1) / L->per_server);
  res->micro_batches = t->global_batch / (t->micro_batch * t->dp);
  if (res->hosts_used <= job->hosts)
    return FL_OK;
  return fl_error_set(err, FL_EINVAL, NULL, t->line, t->col,
                      "training: tp x cp x pp x dp = %llu GPUs, but the job's "
                      "%u host(s) have %u GPUs each (%s): %llu in all",
                      (unsigned long long)L->gpus, job->hosts, L->per_server,
                      res->per_server_from,
                      (unsigned long long)job->hosts * L->per_server);
}

int fl_perf_step(const fl_perf_job *job, const fl_wl_training *t, int overlap,
                 fl_step_result *res, fl_error *err) {
  memset(res, 0, sizeof *res);
  res->routing = job->routing;
  layout L = {.size = {t->tp, t->cp, t->pp, t->ep, t->dp / t->ep}};
  L.stride[0] = 1;
  for (uint32_t d = 1; d < D_N; d++)
    L.stride[d] = L.stride[d - 1] * L.size[d - 1];
  L.gpus = L.stride[D_N - 1] * L.size[D_N - 1];
  if (gpus_and_nics(job, t, &L, res) != 0)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  int rc = check_size(job, t, &L, res, err);
  if (rc == FL_OK) /* --fail: the NICs the step uses still reach */
    rc = pf_job_split(job, (size_t)res->hosts_used * job->rails, err);
  if (rc != FL_OK) {
    free(L.nic_of_gpu);
    return rc;
  }
  derive_ops(t, &L, res);
  rawv all = {0};
  double *wt[FL_STEP_PHASES] = {0};
  for (uint32_t p = 0; rc == FL_OK && p < FL_STEP_PHASES; p++) {
    fl_step_phase *ph = &res->ph[p];
    if (!ph->on)
      continue;
    size_t first = all.n;
    if (phase_flows(&L, p, ph, &all) != 0) {
      rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
      break;
    }
    if (!ph->fabric) {
      scale_up_time(ph, t->scale_up_GBps);
      continue;
    }
    /* solve_alone sorts its slice: a copy keeps @all in phase order */
    size_t n = all.n - first;
    raw *mine = malloc(n * sizeof *mine);
    wt[p] = calloc(job->net.ndl ? job->net.ndl : 1, sizeof *wt[p]);
    if (!mine || !wt[p])
      rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
    else {
      memcpy(mine, all.v + first, n * sizeof *mine);
      rc = solve_alone(job, mine, n, ph, wt[p], res->error, sizeof res->error,
                       err);
    }
    free(mine);
  }
  if (rc == FL_OK && !res->error[0] && all.n)
    rc = concurrent(job, &all, wt, res, err);
  if (rc == FL_OK && !res->error[0])
    compute_and_exposure(t, overlap, res);
  if (rc == FL_OK && !res->error[0] && t->n_ckpt_storage)
    rc = checkpoint(job, t, &all, res, err);
  for (uint32_t p = 0; p < FL_STEP_PHASES; p++)
    free(wt[p]);
  free(all.v);
  free(L.nic_of_gpu);
  return rc;
}
