/* SPDX-License-Identifier: MIT */
/*
 * core/diff/diff_impl.h — the state of one diff run and the pieces shared
 * by the files of the diff (diff*.c); internal. How the diff works:
 * diff/diff.c.
 */
#ifndef FABRICLINT_CORE_DIFF_DIFF_IMPL_H
#define FABRICLINT_CORE_DIFF_DIFF_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "diff/diff.h"
#include "host/fix.h"
#include "model/hashmap.h"

#define VIRT 0x80000000u
#define NIL  UINT32_MAX

/* how a design node was matched; HOW_CHASSIS: a design switch is a director
 * chassis of the as-built (its ASICs, core/model/chassis.c), its ports
 * front-panel names; HOW_NIC: a per-NIC design node ("host-01
 * ens1f0np0") is a labelled port of an as-built host node (LLDP chassis);
 * HOW_HOST: a design host node whose labelled ports are NICs is a group of
 * as-built per-NIC nodes of that system (InfiniBand HCAs "host-01 mlx5_0");
 * HOW_IN_CHASSIS: the other way round from HOW_CHASSIS, a design ASIC of a
 * director chassis is part of one as-built switch named like the chassis,
 * its ports the as-built's front-panel labels; HOW_CABLE: reached by a
 * cable from a matched node, at the same port numbers on both sides, with
 * the same system name (the ASICs of an IBNL-expanded system, all described
 * by the system's name in the as-built) */
enum {
  HOW_NONE,
  HOW_GUID,
  HOW_NAME,
  HOW_SYSTEM,
  HOW_NIC,
  HOW_HOST,
  HOW_CHASSIS,
  HOW_IN_CHASSIS,
  HOW_CABLE
};
enum { E_OPEN, E_DONE };

typedef struct edge {
  uint64_t k[2]; /* endpoints */
  fl_id link;    /* link id in its own fabric */
  uint32_t next[2];
  uint8_t state;
  uint8_t side; /* 0 design, 1 built */
} edge;

/* A compared cable below its planned width or speed (diff_rates.c). */
typedef struct diff_rate_dev {
  uint32_t de;                /* its design edge (index into dctx.e) */
  uint32_t plan[2], built[2]; /* speed (FL_SPEED_*), width (lanes) */
  uint8_t low[2];             /* still to report: below plan, unexplained */
  uint8_t fabric[2];          /* wholly explained by the fabric's cause */
} diff_rate_dev;

/* The rates of the compared cables, judged once all are seen. */
typedef struct diff_rates {
  diff_rate_dev *v;
  size_t n, cap;
  size_t n_rated[2];  /* compared cables stating speed, width */
  uint32_t *rated[2]; /* per design node: its compared cables stating it */
  uint8_t fab[2];     /* a fabric-wide cause of speed, width was found: */
  uint32_t fab_plan[2], fab_built[2]; /* its planned and built value */
} diff_rates;

/* Pairs of tiers whose switch-to-switch cabling follows another layout
 * than the plan's (diff_layout.c). */
typedef struct diff_layout {
  uint32_t *key; /* lower tier << 16 | upper tier */
  char **msg;    /* its cause message, "{count}" allowed */
  size_t n;
} diff_layout;

typedef struct dctx {
  const fl_fabric *D, *B;
  const fl_diff_opts *o;
  fl_findings *fs;
  fl_work_order *wo;
  fl_diff_stats *st;
  fl_error *err;
  int nomem;
  int failed; /* an input error was recorded in err */
  fl_id *mD, *mB;
  uint8_t *howD;
  uint8_t *b_labels; /* per B node: has labelled ports */
  fl_strmap blabel;  /* B node (4 bytes) + canonical label -> B port */
  fl_strmap vlabel;  /* B node + canonical label -> virtual index */
  char **vnames;     /* virtual index -> label as the design writes it */
  size_t n_v, cap_v;
  fl_u64map key_dport; /* endpoint -> D port */
  edge *e;             /* design edges, then built edges */
  size_t n_e, cap_e, n_de;
  fl_u64map headD, headB; /* endpoint -> first edge of that side */
  uint32_t *planD;        /* plan-constraint D links */
  size_t n_plan;
  uint32_t *planB; /* plan-constraint B links (the as-built is a plan) */
  uint8_t *planB_used;
  size_t n_planB;
  uint32_t *cables_of_D, *cables_of_B; /* per node: cables not compared */
  fl_strmap sysdev; /* B "system\x1fdevice" (canonical) -> per-NIC B node */
  /* planes, when both sides have them (planes_setup()) */
  uint32_t n_plD, n_plB;   /* plane counts; 0 on either side: no plane logic */
  uint8_t oneD, oneB;      /* a side without planes against one with planes:
                              it is one plane, index 0 (planes_setup()) */
  const char *one_name;    /* that side's --*-plane tag, or NULL */
  uint32_t *mapDB, *mapBD; /* plane index on one side -> the other's, or NIL */
  int per_plane; /* a node name repeats across planes on a side: names are
                    matched within a plane, keys and work order name it */
  int qual;      /* ep_str(): name the plane of switch ends (a finding that
                    spans planes, names repeating across planes) */
  fl_id *xplD;   /* per D switch matched in another plane: its B node */
  uint8_t *xplB; /* per B node: part of such a pair (no finding of its own) */
  diff_rates rates; /* cables below planned width or speed (diff_rates.c) */
  diff_layout lay;  /* switch layers cabled to another layout */
  uint8_t *gdoubtB; /* per B node: its GUID contradicts the names, not
                       compared (diff_match.c guid_name_conflicts()) */
} dctx;

typedef struct fnd {
  const char *rule;
  uint32_t sev;
  const fl_fabric *loc_fab;
  uint32_t loc_ent;
  fl_id loc_id;
  uint64_t eps[4];
  int n_eps;
  const char *extra_nodes[2];
  int n_extra;
  int ids; /* 1: the planes of the extra node are those of design node
              @xd and as-built node @xb (FL_NONE: none), not of the
              nodes named like it (names that repeat across planes) */
  fl_id xd, xb;
  json_t *ev;
  const char *cause;     /* one finding per cause (host/findings.h), or NULL */
  const char *cause_msg; /* its message, "{count}" replaced */
  fl_fix_rec *fix;       /* how to fix it (host/fix.h), or NULL; taken */
  const char *key;       /* its identity for the fingerprint, or NULL: the
                            cable ends and nodes (diff_emit.c finding_key()) */
  int has_link2;         /* 1: @link2 is a second design cable (a swap) */
  fl_id link2;           /* its design link, whose cable id the evidence and
                            the work order carry beside @loc_id's */
} fnd;

#define AMBIG (NIL - 1)
typedef struct name_ix {
  fl_strmap m[3];
  uint32_t *v[3];
} name_ix;

/* How GUIDs of matched nodes are judged. With --no-guid they are not
 * compared. When the plan has GUIDs but not one matched node's GUID agrees
 * with the as-built (a generated plan, or placeholders written before the
 * hardware arrived), a GUID finding per node would bury the real ones:
 * one info finding says so instead, and GUIDs are not compared. */
enum { GUIDS_COMPARE, GUIDS_OFF, GUIDS_PLACEHOLDER };

/* ---- diff_keys.c */

char *diff_xstrdup(dctx *c, const char *s);
char *diff_xprintf(dctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
size_t diff_node_key(char *key, size_t size, fl_id node, const char *canon);
uint64_t diff_mkkey(fl_id bnode, uint32_t port);
fl_id diff_key_node(uint64_t k);
uint32_t diff_key_port(uint64_t k);
fl_id diff_key_dnode(const dctx *c, uint64_t k);
const char *diff_key_name(const dctx *c, uint64_t k);
fl_id diff_key_bport(const dctx *c, uint64_t k);
fl_id diff_key_dport(const dctx *c, uint64_t k);
const char *diff_key_port_str(const dctx *c, uint64_t k, char *buf,
                              size_t size);
uint32_t diff_key_port_num(const dctx *c, uint64_t k);
uint32_t diff_node_plane(const dctx *c, int side, fl_id n);
uint32_t diff_port_plane(const dctx *c, int side, fl_id p);
const char *diff_plane_name_d(const dctx *c, uint32_t pl);
const char *diff_plane_name_b(const dctx *c, uint32_t pl);
char *diff_ep_str(dctx *c, uint64_t k);
void diff_qualify(dctx *c, const uint64_t *eps, int n);
const char *diff_rack_of(const dctx *c, uint64_t k);
/* Node attribute @name of the design node of endpoint key @k ("" when
 * none): diff_rack_of() is its `rack`. */
const char *diff_dnode_attr(const dctx *c, uint64_t k, const char *name);
size_t diff_canon_name(const fl_fabric *f, fl_id n, char *buf, size_t size);
size_t diff_full_name(const fl_fabric *f, fl_id n, char *buf, size_t size);
void diff_name_ix_free(name_ix *x);
int diff_ix_put(name_ix *x, int which, const char *canon, size_t len,
                fl_id node);
uint32_t diff_ix_get(const name_ix *x, int which, const char *canon,
                     size_t len);
int diff_index_names(const fl_fabric *f, name_ix *x);

/* ---- diff_emit.c */

void diff_emit(dctx *c, fnd *f, char *msg);
void diff_wo_add(dctx *c, const char *action, const char *finding, uint64_t a,
                 uint64_t b, int has_b, uint64_t from, int has_from,
                 fl_id dlink, const char *detail);
void diff_wo_node_cables(dctx *c, const char *action, const char *finding,
                         fl_id n, const char *detail);
void diff_wo_node(dctx *c, const char *action, const char *finding,
                  const char *node, const char *rack, const char *detail);
/* The swap row just added: the second cable's id, design link @dlink. */
void diff_wo_cable_b(dctx *c, fl_id dlink);
json_t *diff_ep_json(dctx *c, uint64_t k);
/* diff_ep_json() with the design's `rack` and `u` of the end's node when
 * the plan has them (a move's from and to: where to walk). */
json_t *diff_ep_place_json(dctx *c, uint64_t k);
void diff_fix_end(dctx *c, uint64_t k, fl_fix_end *e);
void diff_fix_move(dctx *c, fl_fix_rec *fx, uint64_t cable0, uint64_t cable1,
                   uint64_t from, uint64_t to);
json_t *diff_cable_json(dctx *c, uint64_t a, uint64_t b);

/* ---- diff_planes.c */

size_t diff_canon_base(const fl_fabric *f, fl_id n, int full, char *buf,
                       size_t size);
int diff_planes_setup(dctx *c);
int diff_index_plane_names(const dctx *c, int side, name_ix *x);
void diff_plane_lookup(const dctx *c, const name_ix *dpx, const name_ix *bpx,
                       int pass, fl_id i, uint32_t *di, uint32_t *b);
const char *diff_home_plane_mark(const dctx *c, fl_id b);
const char *diff_left_out_plane(const dctx *c, int ca, const char *name,
                                uint64_t guid);
char *diff_why_in_plane(dctx *c, const name_ix *dpx, const name_ix *bpx,
                        fl_id i);
int diff_split_cross_plane(dctx *c);
void diff_cross_plane_node(dctx *c, fl_id i, fl_id b);
int diff_guid_policy(dctx *c);

/* ---- diff_match.c */

int diff_host_nic_key(dctx *c, fl_id p, uint64_t *out);
int diff_match_nodes(dctx *c);

/* ---- diff_edges.c */

int diff_index_built_labels(dctx *c);
uint32_t diff_first_at(const dctx *c, int side, uint64_t k);
uint32_t diff_next_at(const dctx *c, uint32_t id, uint64_t k);
uint64_t diff_other(const edge *e, uint64_t k);
uint32_t diff_open_at(const dctx *c, int side, uint64_t k, uint32_t skip);
int diff_build_edges(dctx *c);
int diff_count_folded(dctx *c);

/* ---- diff_rates.c */

/* The width (lanes) and speed (FL_SPEED_*) of link @l of @f: the lower
 * of its two ends where both are known, 0 where unknown. */
void diff_link_rate(const fl_fabric *f, fl_id l, uint32_t *w, uint32_t *s);
/* "4xNDR", "NDR", "4x", "400G" or "?": a rate as the messages say it. */
void diff_rate_str(uint32_t w, uint32_t s, char *buf, size_t size);
/* Note the rates of the compared cable of design edge @de and built edge
 * @be (indexes into c->e): counted, and kept when below plan. */
void diff_rate_note(dctx *c, uint32_t de, uint32_t be);
/* Report the cables noted below plan: one finding per cause (the fabric,
 * a node, a cable), with their work-order rows. */
void diff_rates_judge(dctx *c);
void diff_rates_free(diff_rates *R);

/* ---- diff_groups.c */

/* The planned nodes that match nothing, grouped by scalable unit (m[0],
 * v[0]), by host (m[1], v[1]) and, switches outside SUs, by tier (m[2],
 * v[2]): see diff_groups.c. */
typedef struct diff_groups {
  fl_strmap m[3];
  struct grp *v[3];
  size_t cap[3];
  fl_strmap hosts_of_su; /* "SU\x1fhost" of each unmatched NIC */
} diff_groups;
/* Count the groups once the nodes are matched (c->mD, c->xplD set). 0, or
 * -1 on ENOMEM. */
int diff_groups_init(dctx *c, diff_groups *g);
/* The cause of unmatched design node @i and its message ("{count}" for
 * the merged members), both allocated, or both NULL when @i is not part of
 * a wholly missing SU or host, nor one of two or more missing switches of
 * its tier outside SUs. 0, or -1 on ENOMEM. */
int diff_group_of(dctx *c, const diff_groups *g, fl_id i, char **cause,
                  char **cmsg);
void diff_groups_free(diff_groups *g);

/* ---- diff_shift.c */

/* Pairs "A is where the plan puts B" (hosts, or nodes), and the causes of
 * the chains they form (diff_shift.c). Zero-initialise, set @fix and
 * @min_pairs, add, finish, look up, free. */
typedef struct diff_shift {
  const char *fix;  /* the message's last clause, "{count}" allowed */
  size_t min_pairs; /* pairs a chain needs to be one cause (>= 1) */
  fl_strmap names;  /* name -> index */
  uint32_t *parent; /* union-find */
  uint32_t *to;     /* per name: the name whose place it takes, NIL, AMBIG */
  size_t cap_n;
  char **cause, **msg; /* per name, after finish: its chain's, or NULL */
  uint32_t *gap;       /* per name, after finish: its chain's place nobody
                          takes (a name index), or NIL */
} diff_shift;
/* Note that @from is where the plan puts @to. 0, or -1 on ENOMEM. */
int diff_shift_add(diff_shift *s, const char *from, const char *to);
/* @from is not a shift after all (also elsewhere, or in place). */
void diff_shift_drop(diff_shift *s, const char *from);
/* Join the pairs into chains, one cause each. 0, or -1 on ENOMEM. @unit
 * names the nodes ("host"). */
int diff_shift_finish(dctx *c, diff_shift *s, const char *unit);
/* The cause of @from's chain and (in @msg) its message, or NULL. Borrowed
 * from @s. */
const char *diff_shift_cause(const diff_shift *s, const char *from,
                             const char **msg);
/* One cause across rules (host/roots.h): with @gap_primary 0 (cables
 * matched by name), the findings of rule @rule that carry a chain's cause
 * are the primary and the diff.missing-node finding of the name the chain
 * leaves over (with the names shifted, the last planned name is found
 * nowhere) its consequence; with @gap_primary 1 (nodes matched by GUID),
 * the missing-host finding of the place nobody takes (the host really
 * missing) is the primary and the chain's findings its consequences. */
void diff_shift_roots(dctx *c, const diff_shift *s, const char *rule,
                      int gap_primary);
void diff_shift_free(diff_shift *s);

/* ---- diff_layout.c */

/* Count, per pair of switch tiers, the planned cables still unexplained
 * (after exact, duplicate, plan and swap) and flag the pairs where they
 * are at least 8 and half the planned ones. */
void diff_layout_judge(dctx *c);
/* The cause ("layout:1-2", in @buf) of the cable with endpoints @k[0],
 * @k[1] and its message (in @msg), or NULL when its tiers are not flagged. */
const char *diff_layout_cause(dctx *c, const uint64_t *k, char *buf,
                              size_t size, const char **msg);
/* After the last finding: roots for each flagged pair (host/roots.h). */
void diff_layout_roots(dctx *c);
void diff_layout_free(diff_layout *L);

/* ---- diff_classify.c */

void diff_exact(dctx *c);
void diff_double_booked(dctx *c);
void diff_plans(dctx *c);
void diff_swaps(dctx *c);
void diff_misconnected(dctx *c);
void diff_leftovers(dctx *c);
void diff_compare_lids(dctx *c);

#endif /* FABRICLINT_CORE_DIFF_DIFF_IMPL_H */
