/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf_impl.h — the pieces of the performance model shared by
 * perf_flows.c (NICs and flows), perf_route.c (next hops toward a
 * destination NIC) and perf_maxmin.c (max-min fair rates); internal.
 *
 * Links are full duplex: a "directed link" (dl) is 2 × link id + 0 for the
 * direction leaving the link's end 0, + 1 for the other.
 */
#ifndef FABRICLINT_CORE_ANALYSIS_PERF_IMPL_H
#define FABRICLINT_CORE_ANALYSIS_PERF_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/perf.h"
#include "fabriclint/error.h"
#include "fabriclint/fabric.h"

#define PF_NONE  0xffffffffu
#define PF_EJECT 0xfffffffeu /* next hop "switch" of the cable into the NIC */

/** A NIC of the job: CA @node, its cabled @port, the cable @link, the
 * directed links out of (@dl_out) and into (@dl_in) the NIC, the switch
 * index @sw it is cabled to, its @lid, capacity @gbps. */
typedef struct pf_nic {
  fl_id node, port, link;
  uint32_t dl_out, dl_in, sw, lid;
  double gbps;
} pf_nic;

/** What leaves switch port p: the directed link @dl (PF_NONE: uncabled),
 * the switch index @next at the far end (PF_NONE: not a switch) and the
 * far @port id (FL_NONE). One record, so a hop is one cache line. */
typedef struct pf_hop {
  uint32_t dl, next;
  fl_id port;
} pf_hop;

/** Switch indexing and per-port next hops of a fabric (perf_route.c). */
typedef struct pf_net {
  const fl_fabric *f;
  uint32_t threads; /* workers pf_solve() may use (0: fl_threads_available()) */
  size_t ar_max_entries; /* AR's cap on split values (0: PF_AR_MAX_ENTRIES;
                            the unit test sets it) */
  int ar_auto;     /* AR was chosen, not asked for (no LFTs, routing auto): over
                      the cap it falls back to spray's equal split, noted */
  fl_id *failed;   /* [nfailed] cables taken out (perf --fail) */
  uint32_t *comp0; /* [nsw] switch components before the cut, or NULL */
  uint32_t nfailed;
  int rerouted; /* LFT routing replaced by the SM's re-run (perf_fail.c) */
  uint32_t nsw;
  uint32_t *node_sw;       /* [nodes] switch index or PF_NONE */
  fl_id *sw_node;          /* [nsw] */
  pf_hop *hop;             /* [nsw*256] by switch index and port number */
  const uint8_t **lft_row; /* [nsw] the switch's LFT (fl_fabric_lft), NULL */
  uint32_t *lft_len;       /* [nsw] its length in LIDs, 0 without one */
  /* switch-to-switch adjacency (for AR): off[nsw+1], adj_dl, adj_next */
  uint32_t *adj_off, *adj_dl, *adj_next;
  double *cap; /* [2 * links] Gb/s of each directed link, as trained */
  double *nom; /* [2 * links] its nominal (design) Gb/s: perf_nominal.c */
  uint32_t ndl;
} pf_net;

/** Build @n for @f (finalized). FL_OK or FL_ENOMEM. */
int pf_net_build(pf_net *n, const fl_fabric *f, fl_error *err);
void pf_net_free(pf_net *n);
/**
 * pf_net_nominal() — @n->nom from @n->cap (perf_nominal.c): each cable's
 * rate raised to the most common rate of the cables joining the same tiers
 * (ties: the largest); unknown (NAN) stays unknown. Called by pf_net_build.
 * FL_OK or FL_ENOMEM.
 */
int pf_net_nominal(pf_net *n, fl_error *err);
/** pf_net_bfs() — hop distances from switch @root over @n's switch-to-switch
 * cables into @dist[nsw] (PF_NONE: unreachable) and the reachable switches
 * nearest first into @order[nsw]; returns how many. O(switches + cables). */
uint32_t pf_net_bfs(const pf_net *n, uint32_t root, uint32_t *dist,
                    uint32_t *order);
/** pf_net_components() — component labels (from 1) of @n's switches over
 * its switch-to-switch cables into @lab[nsw]; @q[nsw] is scratch. BFS,
 * O(switches + cables). */
void pf_net_components(const pf_net *n, uint32_t *lab, uint32_t *q);
/** pf_net_cut() — take @n->failed[@n->nfailed] out of @n: their hop
 * records and switch-to-switch adjacency. 0, or -1 without memory. */
int pf_net_cut(pf_net *n);
/** Directed link of cable @l leaving port @from. */
uint32_t pf_dl(const fl_fabric *f, fl_id l, fl_id from);

/** Routing modes of pf_router (FL_WL_ROUTE_LFT / _AR / _SPRAY) plus the
 * ideal. */
#define PF_ROUTE_IDEAL 100u

/** The cap on AR's split values (perf.h). */
#define PF_AR_MAX_ENTRIES FL_PERF_AR_MAX_SPLIT
/** Sweeps of the AR fixed point at most, and the gap (how far an edge's
 * flows are from its switch's best response, relative to the largest
 * demand of a switch) below which it has converged. */
#define PF_AR_MAX_SWEEPS 500u
#define PF_AR_TOL        1e-8

/**
 * pf_arsplit — load-aware adaptive routing's split of one step's flows
 * (perf_ar.c): for each destination switch S with flows (row_of[S], else
 * PF_NONE), the flows x[row * nadj + k] each switch-to-switch adjacency
 * edge k (pf_net.adj_*) carries toward S, and the demands dem[row * nsw +
 * s] each source switch s injects toward S. @sweeps run, @residual the
 * last sweep's largest change relative to the largest demand, @converged
 * 1 when it fell to PF_AR_TOL.
 */
typedef struct pf_arsplit {
  uint32_t *row_of;
  uint32_t nrow, nadj;
  double *x, *dem;
  uint32_t sweeps;
  double residual;
  int converged;
  size_t need; /* split values this step needs (also set over the cap) */
} pf_arsplit;

/**
 * pf_ar_balance() — the split of the flows @fl between NICs @nic on @n by
 * load-aware adaptive routing: water-filling of each switch's arrivals over
 * its minimal next hops by their flows per Gb/s, in Gauss–Seidel sweeps to
 * a fixed point (perf_ar.c). FL_OK and *@a (free with pf_ar_free);
 * FL_EINVAL (@err: more than PF_AR_MAX_ENTRIES values would be needed) or
 * FL_ENOMEM. Deterministic; one thread.
 */
struct pf_flows;
int pf_ar_balance(pf_arsplit *a, const pf_net *n, const pf_nic *nic,
                  const struct pf_flows *fl, fl_error *err);
void pf_ar_free(pf_arsplit *a);
/** pf_ar_fractions() — the shares @frac[@k] of the flows at a switch
 * toward destination switch @S taken by its next hops of adjacency indexes
 * @adj[@k] (an equal split where @a is NULL or holds no flows there). */
void pf_ar_fractions(const pf_arsplit *a, uint32_t S, const uint32_t *adj,
                     uint32_t k, double *frac);

/**
 * pf_router — next hops toward one destination NIC at a time. For LFT the
 * hop is the LFT entry; for AR every cabled neighbour switch one hop nearer
 * the destination's switch (BFS distances cached per destination switch).
 */
typedef struct pf_router {
  const pf_net *net;
  uint32_t mode;
  uint32_t bfs_for; /* switch index the dist array is for, PF_NONE */
  uint32_t *dist;   /* [nsw] */
  uint32_t *queue;  /* [nsw] */
  pf_arsplit split; /* AR: the load-aware split (pf_router_balance) */
  int balanced;
  size_t capped;      /* AR chosen by auto over the cap: the values it needed */
  uint32_t pick[256]; /* AR: adjacency indexes of pf_next's last hops */
} pf_router;

int pf_router_init(pf_router *r, const pf_net *net, uint32_t mode);
void pf_router_free(pf_router *r);
/**
 * pf_router_balance() — for AR routing, compute the load-aware split of
 * the flows @fl between NICs @nic (pf_ar_balance) that pf_next_frac then
 * reports; a no-op for other modes. Over the cap on split values: FL_EINVAL
 * when AR was asked for, the equal split (r->capped set) when routing auto
 * chose it. FL_OK, FL_EINVAL or FL_ENOMEM (@err).
 */
int pf_router_balance(pf_router *r, const pf_nic *nic,
                      const struct pf_flows *fl, fl_error *err);
/**
 * pf_next_frac() — the shares @frac[@k] of the flows at switch @s toward
 * NIC @d taken by the @k hops pf_next() has just returned for them: the
 * balanced split under AR, 1/@k otherwise (spray, or the ejection hop).
 */
void pf_next_frac(const pf_router *r, uint32_t s, const pf_nic *d, uint32_t k,
                  double *frac);

/**
 * pf_next() — the next hops of switch @s toward NIC @d: up to @max pairs
 * (directed link, next switch index or PF_EJECT) in @dl/@nx. Returns the
 * count (>= 1), or 0 when @s has no route (then *@why says why: 1 no LFT
 * entry, 2 dead port, 3 the entry leads to another CA, 4 no LFT at all,
 * 5 unreachable).
 */
uint32_t pf_next(pf_router *r, uint32_t s, const pf_nic *d, uint32_t *dl,
                 uint32_t *nx, uint32_t max, uint32_t *why);

/** A source group: @m NICs of one rail cabled to switch @sw with the same
 * capacity (members[first .. first+m)). The group's injection "link" is
 * @inj_dl (the first member's cable; the model keeps one for all, exact by
 * symmetry, docs/perf.md). */
typedef struct pf_group {
  uint32_t sw, inj_dl, m, first;
  double gbps;
} pf_group;

/** A flow class: @count flows of @bytes each from group @group (one flow
 * per member when count == m) to NIC @dst. Weight on the injection link is
 * count / m (per member). @tag: which of several concurrent phases the
 * flows belong to (pf_maxmin_tagged; 0 elsewhere). */
typedef struct pf_class {
  uint32_t group, dst;
  double count, bytes;
  uint32_t tag;
} pf_class;

/**
 * pf_flows — one step's flows, classes sorted by destination NIC
 * (dst_off[nnic + 1]). All-to-all is kept implicit: @a2a set, classes are
 * every group of the destination's rail (count m, or m - 1 when the
 * destination is a member), bytes @a2a_bytes each.
 */
typedef struct pf_flows {
  pf_group *groups;
  uint32_t ng;
  uint32_t *members; /* NIC indexes, grouped */
  pf_class *cls;
  size_t ncls;
  uint32_t *dst_off; /* explicit: [nnic + 1] */
  int a2a;
  double a2a_bytes;
  uint32_t *rail_goff; /* a2a: [rails + 1] groups of each rail, by rail */
  uint32_t *grp_of;    /* a2a: [nnic] group of each NIC */
  uint32_t nnic, rails;
  double total_flows;
} pf_flows;

void pf_flows_free(pf_flows *fl);

/** pf_flows_nic_groups() — one source group per NIC of @job in @fl
 * (@fl->nnic of them, NIC i in group i), with @fl->dst_off zeroed for
 * @fl->nnic destinations. 0, or -1 when out of memory (what was allocated
 * is @fl's: pf_flows_free()). */
int pf_flows_nic_groups(const fl_perf_job *job, pf_flows *fl);

/**
 * pf_class_iter — the classes toward one destination (both encodings).
 */
size_t pf_classes_for(const pf_flows *fl, uint32_t d, pf_class *buf,
                      size_t cap);
/** pf_classes_cap() — the most classes pf_classes_for() gives for one
 * destination of @fl: the buffer its callers allocate. O(NICs). */
size_t pf_classes_cap(const pf_flows *fl);

/** Max-min output: per directed link the saturation level (Gb/s per flow,
 * INFINITY when never saturated) and weight (flows crossing it), the
 * step time, the level that set it and an error text. */
typedef struct pf_solution {
  double *level;  /* [ndl] */
  double *weight; /* [ndl] flows crossing (final round) */
  double step_time_s;
  double slow_level; /* rate of the slowest flow class, Gb/s */
  uint32_t rounds;
  double *tag_level; /* [ntags] pf_maxmin_tagged: slowest rate per tag
                        (Gb/s; INFINITY for a tag without flows), else NULL */
  uint32_t ntags;
  uint32_t ar_sweeps; /* AR: sweeps of the load-aware split (0 otherwise) */
  int ar_converged;   /* AR: 1 when the split reached its fixed point */
  double ar_residual; /* AR: the last sweep's relative change */
  size_t ar_capped;   /* AR by auto over the cap: split values needed (the
                         flows were split equally); 0 otherwise */
  char error[512];
} pf_solution;

/** pf_solution_ar() — copy router @r's AR balance figures into @sol (zero
 * for other modes). */
void pf_solution_ar(pf_solution *sol, const pf_router *r);

/**
 * pf_maxmin() — max-min fair rates of @fl over @net with routing @mode
 * (FL_WL_ROUTE_LFT, _AR or PF_ROUTE_IDEAL), by progressive filling. NICs
 * @nic. Fills @sol (caller frees with pf_solution_free). FL_OK (routing
 * failures in sol->error) or FL_ENOMEM.
 */
int pf_maxmin(const pf_net *net, const pf_nic *nic, const pf_flows *fl,
              uint32_t mode, pf_solution *sol, fl_error *err);
void pf_solution_free(pf_solution *sol);

/**
 * pf_maxmin_tagged() — pf_maxmin() of flows from several phases that run
 * at once (perf_step.c), also giving the rate of each phase's slowest flow
 * in @sol->tag_level[@ntags] (classes' @tag < @ntags). Same cost and
 * returns as pf_maxmin.
 */
int pf_maxmin_tagged(const pf_net *net, const pf_nic *nic, const pf_flows *fl,
                     uint32_t mode, uint32_t ntags, pf_solution *sol,
                     fl_error *err);

/** pf_uniform_bytes() — 1 when every flow of @fl carries the same bytes
 * (all-to-all always; explicit classes compared), else 0. */
int pf_uniform_bytes(const pf_flows *fl);

/**
 * pf_maxmin_first() — the one-pass solver (perf_fast.c) for a step whose
 * flows all carry the same bytes (pf_uniform_bytes): counts the flows on
 * every directed link (@sol->weight, as pf_maxmin's) and saturates the
 * links of the first level only (@sol->level finite there, INFINITY
 * elsewhere, including links pf_maxmin saturates later); step time and
 * slow level are pf_maxmin's. @threads: workers for LFT and ideal routing
 * (0: one per online CPU, at most 8; AR always runs in one). On a routing
 * problem or a loaded link of unknown capacity it returns what pf_maxmin
 * returns (its error text). FL_OK or FL_ENOMEM.
 * Cost: O(sum over destinations of (classes + switch visits)) / threads,
 * memory O(threads × (directed links + switches + groups)).
 */
int pf_maxmin_first(const pf_net *net, const pf_nic *nic, const pf_flows *fl,
                    uint32_t mode, uint32_t threads, pf_solution *sol,
                    fl_error *err);

/** pf_solve() — pf_maxmin_first when @fl's bytes are uniform, else
 * pf_maxmin: what fl_perf_run uses. */
int pf_solve(const pf_net *net, const pf_nic *nic, const pf_flows *fl,
             uint32_t mode, pf_solution *sol, fl_error *err);

/** The resolved job (perf.h's opaque fl_perf_job): NIC r of host h is
 * nic[h * rails + r]. */
struct fl_perf_job {
  const fl_fabric *f;
  pf_net net;
  pf_nic *nic;
  uint32_t hosts, rails, routing;
  uint32_t n_store; /* storage NICs of a checkpoint after the hosts' NICs:
                       nic[hosts * rails + i] (perf_step.c) */
  int net_borrowed; /* a placement's job (perf_place.c): @net is the pool
                       job's, not freed with this one */
};

/**
 * pf_job_fail() — take the switches and cables named by @specs[@n] ("NAME"
 * a switch, all its switch-to-switch cables; "NAME port N" one cable) out
 * of @job's net (perf_fail.c); LFT routing becomes the SM's re-run
 * (spray, net.rerouted). FL_OK; FL_EINVAL with @err for an unknown name,
 * a port without a cable, a CA, a NIC's cable or a switch holding a job
 * NIC; FL_ENOMEM.
 */
int pf_job_fail(struct fl_perf_job *job, char *const *specs, size_t n,
                int defer, fl_error *err);
/**
 * pf_job_split() — after pf_job_fail(), whether the @used first NICs of
 * @job and its storage NICs that reached each other before the cut still
 * do (planes apart by design are no split); pf_job_fail() checks all the
 * job's NICs itself unless told to @defer (a training step uses only its
 * first hosts: perf_step.c checks those). FL_OK; FL_EINVAL with @err
 * naming a pair; FL_ENOMEM.
 */
int pf_job_split(const struct fl_perf_job *job, size_t used, fl_error *err);

/**
 * pf_flows_build() — the flows of one step of collective @c on @job
 * (NCCL's algorithms, docs/perf.md): *@steps identical steps, *@ranks
 * ranks (hosts × rails, one GPU per NIC). FL_OK, FL_EINVAL (@err: a shift
 * of 0 mod n, fewer than 2 ranks) or FL_ENOMEM.
 */
int pf_flows_build(const struct fl_perf_job *job, const fl_wl_coll *c,
                   pf_flows *fl, uint32_t *steps, uint32_t *ranks,
                   fl_error *err);

/**
 * pf_bottlenecks() — the directed links of @job whose saturation level
 * @level[dl] is @slow (to 10^-9) and that carry @weight[dl] > 0 flows,
 * most flows first, at most FL_PERF_MAX_BOTTLENECKS into @out[*@n] (flows
 * = @weight, share = the level). 0, or -1 without memory.
 */
int pf_bottlenecks(const struct fl_perf_job *job, const double *level,
                   const double *weight, double slow, fl_perf_bottleneck *out,
                   uint32_t *n);

#endif
