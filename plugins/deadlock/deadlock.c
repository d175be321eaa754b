/* SPDX-License-Identifier: MIT */
/*
 * plugins/deadlock/deadlock.c — routing deadlock freedom and routing sanity
 * (rule id prefix `deadlock`).
 *
 * The analysis itself (walking LFTs per destination, building the channel
 * dependency graph, finding its strongly connected components) runs in the
 * core (fabriclint/cdg.h, api->cdg_analyze) because it is the hot path of
 * data-centre-scale checks; this plugin chooses what to analyse from its
 * parameters and turns the report into findings. One analysis serves all
 * rules of the plugin: it is cached in the plugin's state (init/fini), keyed
 * by the fabric and the options.
 *
 * Sources: Dally & Seitz, IEEE TC 1987 (CDG acyclic <=> deadlock free for
 * deterministic routing); OpenSM doc/current-routing.txt (up*-down*, ftree,
 * LASH/DFSSSP/Nue use VLs to break cycles); IBA vol. 1 14.2.5.10 (LFT, port
 * 255 = no route).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fabriclint/routing.h"
#include "fabriclint/threads.h"

/* One cached analysis (the fabric and options it was made for). */
typedef struct dl_cache {
  fl_fabric_key key;
  fl_cdg_options opts;
  const fl_cdg_report *rep;
} dl_cache;

/* The routing modelled without LFTs (design mode): the engine, whether the
 * user named it (routing-engine) or it was chosen from the shape, and why. */
typedef struct dl_engine {
  uint32_t engine;
  int given;
  char why[160];
} dl_engine;

typedef struct dl_state {
  dl_cache main;   /* the routing judged (LFTs, or the modelled engine) */
  dl_cache minhop; /* design mode: minhop, to say what minimal would do */
  dl_engine eng;
  const fl_host_api *api;
} dl_state;

static int dl_init(const fl_host_api *api, void **data) {
  dl_state *st = calloc(1, sizeof *st);
  if (!st)
    return 1;
  st->api = api;
  *data = st;
  return 0;
}

static void dl_fini(void *data) {
  dl_state *st = data;
  if (st && st->main.rep)
    st->api->cdg_free(st->main.rep);
  if (st && st->minhop.rep)
    st->api->cdg_free(st->minhop.rep);
  free(st);
}

/* ---- options and the cached analysis ------------------------------------ */

static int pick(const char *v, const char *const *names, uint32_t n,
                uint32_t *out) {
  for (uint32_t i = 0; i < n; i++)
    if (strcmp(v, names[i]) == 0) {
      *out = i;
      return 0;
    }
  return -1;
}

static const char *const ENGINES[] = {"minhop", "updn", "ftree"};

/* A tiered Clos: every switch has a tier and there are at least two. The
 * engine such fabrics run is up*-down* or ftree (deadlock-free by
 * construction); OpenSM's default minhop is what anything else gets. */
static void engine_from_shape(const fl_host_api *api, const fl_fabric *f,
                              dl_engine *e) {
  uint32_t nn = api->node_count(f), n_sw = 0, unknown = 0, top = 0, low = 0;
  for (fl_id n = 0; n < nn; n++) {
    if (api->node_kind(f, n) != FL_NODE_SWITCH)
      continue;
    uint32_t t = api->node_tier(f, n);
    n_sw++;
    if (t == FL_TIER_UNKNOWN) {
      unknown++;
      continue;
    }
    top = t > top ? t : top;
    low = (low == 0 || t < low) ? t : low;
  }
  e->given = 0;
  if (n_sw && !unknown && top > low) {
    e->engine = FL_CDG_ENGINE_UPDN;
    snprintf(e->why, sizeof e->why,
             "chosen from the shape: %u switches in tiers %u-%u", n_sw, low,
             top);
  } else {
    e->engine = FL_CDG_ENGINE_MINHOP;
    snprintf(e->why, sizeof e->why,
             "chosen from the shape: %s, OpenSM's default engine",
             unknown ? "switches without a tier" : "no tiered Clos");
  }
}

static int read_engine(const fl_host_api *api, fl_ctx *ctx, dl_engine *e) {
  const char *v = "auto";
  api->param_string(ctx, "routing-engine", &v);
  if (strcmp(v, "auto") == 0) {
    engine_from_shape(api, api->fabric(ctx), e);
    return 0;
  }
  if (pick(v, ENGINES, 3, &e->engine) != 0) {
    fl_param_error(api, ctx, "routing-engine",
                   "expected auto, minhop, updn or ftree");
    return -1;
  }
  e->given = 1;
  snprintf(e->why, sizeof e->why, "named by routing-engine=%s", v);
  return 0;
}

static int read_opts(const fl_host_api *api, fl_ctx *ctx, fl_cdg_options *o) {
  static const char *const TRAFFIC[] = {"ca", "all"};
  static const char *const VL[] = {"auto", "blind", "aware"};
  static const char *const ROUTING[] = {"auto", "lft", "minimal"};
  const char *t = "ca", *v = "auto", *r = "auto";
  memset(o, 0, sizeof *o);
  o->struct_size = sizeof *o;
  api->param_string(ctx, "traffic", &t);
  api->param_string(ctx, "vl-mode", &v);
  api->param_string(ctx, "routing", &r);
  int64_t ex = 1000;
  api->param_int(ctx, "max-examples", &ex);
  if (ex < 1 || ex > 1000000) {
    fl_param_error(api, ctx, "max-examples", "expected 1 to 1000000");
    return -1;
  }
  o->max_examples = (uint32_t)ex;
  if (pick(t, TRAFFIC, 2, &o->traffic) != 0) {
    fl_param_error(api, ctx, "traffic", "expected ca or all");
    return -1;
  }
  if (pick(v, VL, 3, &o->vl_mode) != 0) {
    fl_param_error(api, ctx, "vl-mode", "expected auto, blind or aware");
    return -1;
  }
  if (pick(r, ROUTING, 3, &o->routing) != 0) {
    fl_param_error(api, ctx, "routing", "expected auto, lft or minimal");
    return -1;
  }
  return 0;
}

/* fl_cdg_options.progress: the walks' progress, passed on to the host. */
typedef struct dl_progress {
  const fl_host_api *api;
  fl_ctx *ctx;
} dl_progress;

static void on_progress(void *p, const char *what, uint64_t done,
                        uint64_t total) {
  dl_progress *d = p;
  fl_progress(d->api, d->ctx, what, done, total);
}

static int is_cached(const dl_cache *c, fl_fabric_key k,
                     const fl_cdg_options *o) {
  return c->rep && fl_fabric_key_eq(c->key, k) &&
         memcmp(&c->opts, o, sizeof *o) == 0;
}

static void uncache(const fl_host_api *api, dl_cache *c) {
  if (c->rep)
    api->cdg_free(c->rep);
  c->rep = NULL;
}

/* The analysis for options @o (their progress fields unset), from cache @c
 * or made now; on one core when @one_core (the report does not depend on
 * the thread count, so the cache key keeps @o's). */
static const fl_cdg_report *cached(const fl_host_api *api, fl_ctx *ctx,
                                   dl_cache *c, const fl_cdg_options *o,
                                   int one_core) {
  const fl_fabric *f = api->fabric(ctx);
  fl_fabric_key key = fl_fabric_key_of(api, ctx);
  if (is_cached(c, key, o))
    return c->rep;
  uncache(api, c);
  const fl_cdg_report *rep = NULL;
  dl_progress dp = {api, ctx};
  fl_cdg_options run = *o; /* the cache key stays free of this rule's ctx */
  run.progress = on_progress;
  run.progress_ctx = &dp;
  if (one_core)
    run.threads = 1;
  else if (run.threads == 0)
    run.threads = fl_run_threads(api, ctx); /* --jobs; 0 on an old host */
  if (FL_API_HAS(api, dist) && api->dist)
    run.dist = api->dist(ctx); /* mpirun: the walks split by destination */
  int rc = api->cdg_analyze(f, &run, &rep);
  if (rc != 0)
    return NULL;
  c->rep = rep;
  c->key = key;
  c->opts = *o;
  return rep;
}

/* 1 when the routing judged is a model (no LFTs), not the fabric's own. */
static int modelled(const fl_host_api *api, const fl_fabric *f,
                    const fl_cdg_options *o) {
  return o->routing == FL_CDG_ROUTING_MINIMAL ||
         (o->routing == FL_CDG_ROUTING_AUTO && !api->lft_count(f));
}

/* A minhop analysis made on a thread of its own (no progress reports). */
typedef struct dl_job {
  const fl_host_api *api;
  const fl_fabric *f;
  fl_cdg_options run;
  const fl_cdg_report *rep;
  int rc;
} dl_job;

static void *minhop_job(void *p) {
  dl_job *j = p;
  j->rc = j->api->cdg_analyze(j->f, &j->run, &j->rep);
  return NULL;
}

/* Design mode, engine @o (not minhop): deadlock.credit-loop needs both that
 * engine's analysis and minhop's, independent of each other, so when
 * neither is cached they are made at once, one core each, minhop on a
 * second thread (into st->minhop; a failure there is left for
 * minhop_analysis() to meet again). Not under mpirun with several ranks,
 * whose collectives one thread at a time makes, nor with a budget of one
 * thread (--jobs 1). Returns @o's report. */
static const fl_cdg_report *cached_pair(const fl_host_api *api, fl_ctx *ctx,
                                        dl_state *st, const fl_cdg_options *o) {
  const fl_fabric *f = api->fabric(ctx);
  fl_fabric_key key = fl_fabric_key_of(api, ctx);
  fl_cdg_options mo = *o;
  mo.engine = FL_CDG_ENGINE_MINHOP;
  const fl_dist *dist =
      FL_API_HAS(api, dist) && api->dist ? api->dist(ctx) : NULL;
  if ((dist && dist->size > 1) || fl_run_threads(api, ctx) == 1 ||
      is_cached(&st->main, key, o) || is_cached(&st->minhop, key, &mo))
    return cached(api, ctx, &st->main, o, 0);
  uncache(api, &st->minhop);
  dl_job j = {api, f, mo, NULL, 0};
  j.run.threads = 1;
  pthread_t th;
  if (pthread_create(&th, NULL, minhop_job, &j) != 0)
    return cached(api, ctx, &st->main, o, 0);
  const fl_cdg_report *rep = cached(api, ctx, &st->main, o, 1);
  pthread_join(th, NULL);
  if (j.rc == 0) {
    st->minhop.rep = j.rep;
    st->minhop.key = key;
    st->minhop.opts = mo;
  }
  return rep;
}

/* The analysis the rules judge; with @with_minhop (deadlock.credit-loop)
 * minhop's too when the routing is modelled by another engine. */
static const fl_cdg_report *analysis(const fl_host_api *api, fl_ctx *ctx,
                                     dl_state *st, int with_minhop) {
  fl_cdg_options o;
  if (read_opts(api, ctx, &o) != 0 || read_engine(api, ctx, &st->eng) != 0)
    return NULL;
  const fl_fabric *f = api->fabric(ctx);
  int model = modelled(api, f, &o);
  o.engine = model ? st->eng.engine : FL_CDG_ENGINE_MINHOP;
  const fl_cdg_report *rep =
      with_minhop && model && o.engine != FL_CDG_ENGINE_MINHOP
          ? cached_pair(api, ctx, st, &o)
          : cached(api, ctx, &st->main, &o, 0);
  int rc = rep ? 0 : 1;
  if (rc != 0) {
    api->fail(ctx, o.vl_mode == FL_CDG_VL_AWARE && !api->has_sl2vl(f)
                       ? "vl-mode=aware needs SL2VL tables (load an "
                         "opensm-sl2vl.dump)"
                   : o.routing == FL_CDG_ROUTING_LFT
                       ? "routing=lft needs LFTs (load opensm-lfts.dump, "
                         "ibroute or dump_fts output)"
                       : "routing analysis failed (out of memory?)");
    return NULL;
  }
  return rep;
}

/* Design mode with a modelled engine other than minhop: the same fabric
 * under minimal routing, to warn what minhop would do. NULL when not
 * needed; *@err set on failure. */
static const fl_cdg_report *minhop_analysis(const fl_host_api *api, fl_ctx *ctx,
                                            dl_state *st,
                                            const fl_cdg_report *main_rep,
                                            int *err) {
  *err = 0;
  if (main_rep->routing != FL_CDG_ROUTING_MINIMAL ||
      st->eng.engine == FL_CDG_ENGINE_MINHOP)
    return NULL;
  fl_cdg_options o = st->main.opts;
  o.engine = FL_CDG_ENGINE_MINHOP;
  const fl_cdg_report *r = cached(api, ctx, &st->minhop, &o, 0);
  if (!r) {
    *err = 1;
    api->fail(ctx, "routing analysis failed (out of memory?)");
  }
  return r;
}

/* ---- helpers
 * -------------------------------------------------------------------- */

static int report(const fl_host_api *api, fl_ctx *ctx, uint32_t sev,
                  const char *msg, const fl_id *nodes, uint32_t n_nodes,
                  const fl_port_ref *ports, uint32_t n_ports, const char *ev) {
  return fl_emit(api, ctx, sev, msg, nodes, n_nodes, ports, n_ports, NULL, 0,
                 ev);
}

static const char *dest_name(const fl_host_api *api, const fl_fabric *f,
                             fl_id port) {
  return port == FL_NONE ? "(no port)"
                         : api->node_name(f, api->port_node(f, port));
}

static const char *routing_word(const fl_cdg_report *r) {
  return r->routing == FL_CDG_ROUTING_MINIMAL ? "minimal" : "lft";
}

/* What the verdict of report @r rests on, into @buf. */
static const char *vl_phrase(const fl_host_api *api, const fl_fabric *f,
                             const fl_cdg_report *r, const dl_engine *e,
                             char *buf, size_t size) {
  if (r->routing == FL_CDG_ROUTING_MINIMAL)
    snprintf(buf, size,
             "VL-blind: modelled %s routing, no LFTs loaded; engine %s",
             ENGINES[e->engine], e->why);
  else if (r->vl_aware)
    snprintf(buf, size, "%s",
             api->has_path_sl(f) ? "VL-aware: SL2VL tables and path SLs"
                                 : "VL-aware: SL2VL tables, SL 0 on every "
                                   "path");
  else
    snprintf(buf, size, "VL-blind: no SL2VL tables loaded");
  return buf;
}

static void common_evidence(const fl_host_api *api, const fl_fabric *f,
                            const fl_cdg_report *r, const dl_engine *e,
                            jbuf *ev) {
  char basis[256];
  jb_key_str(ev, "routing", routing_word(r));
  if (r->routing == FL_CDG_ROUTING_MINIMAL) {
    jb_key_str(ev, "engine", ENGINES[e->engine]);
    jb_key_str(ev, "engine_source", e->given ? "parameter" : "shape");
  }
  jb_key_bool(ev, "vl_aware", (int)r->vl_aware);
  jb_key_str(ev, "verdict_basis", vl_phrase(api, f, r, e, basis, sizeof basis));
  jb_key_str(ev, "traffic", r->traffic == FL_CDG_TRAFFIC_ALL ? "all" : "ca");
}

/* Severity of a credit loop found in report @r: the rule's (error) for the
 * fabric's own LFTs or an engine the user named; a warning for an engine
 * only inferred from the shape (nobody loaded that routing). */
static uint32_t loop_severity(const fl_cdg_report *r, const dl_engine *e) {
  return r->routing == FL_CDG_ROUTING_MINIMAL && !e->given ? FL_SEV_WARNING : 0;
}

/* ---- deadlock.credit-loop
 * ---------------------------------------------------- */

static int loop_finding(const fl_host_api *api, fl_ctx *ctx, const fl_fabric *f,
                        const fl_cdg_report *r, const dl_engine *e,
                        const fl_cdg_loop *lp) {
  fl_id *nodes = calloc(lp->n_hops + 1, sizeof *nodes);
  fl_port_ref *ports = calloc(lp->n_hops + 1, sizeof *ports);
  if (!nodes || !ports) {
    free(nodes), free(ports);
    api->fail(ctx, "out of memory");
    return 1;
  }
  char path[1024] = "";
  size_t off = 0;
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  common_evidence(api, f, r, e, &ev);
  jb_key_int(&ev, "scc_channels", lp->scc_channels);
  jb_key_int(&ev, "cycle_length", lp->n_hops);
  jb_key(&ev, "cycle");
  jb_arr_open(&ev);
  for (uint32_t k = 0; k < lp->n_hops; k++) {
    const fl_cdg_hop *h = &lp->hops[k];
    nodes[k] = h->from_node;
    ports[k].node = h->from_node;
    ports[k].port = h->from_port;
    jb_obj_open(&ev);
    jb_key_str(&ev, "from", api->node_name(f, h->from_node));
    jb_key_int(&ev, "from_port", h->from_port);
    jb_key_str(&ev, "to",
               h->to_node == FL_NONE ? "" : api->node_name(f, h->to_node));
    jb_key_int(&ev, "to_port", h->to_port);
    if (h->vl != FL_VL_UNKNOWN)
      jb_key_int(&ev, "vl", h->vl);
    jb_key_int(&ev, "dlid", h->dlid);
    fl_id dp = api->lid_port(f, h->dlid);
    jb_key_str(&ev, "destination", dest_name(api, f, dp));
    if (h->src != FL_NONE)
      jb_key_str(&ev, "source", api->node_name(f, h->src));
    jb_obj_close(&ev);
    if (off < sizeof path)
      off += (size_t)snprintf(path + off, sizeof path - off, "%s:%u -> ",
                              api->node_name(f, h->from_node), h->from_port);
  }
  if (off < sizeof path && lp->n_hops)
    snprintf(path + off, sizeof path - off, "%s:%u",
             api->node_name(f, lp->hops[0].from_node), lp->hops[0].from_port);
  jb_arr_close(&ev);
  jb_obj_close(&ev);
  char msg[1600], basis[256];
  snprintf(msg, sizeof msg,
           "credit loop (%s): %u channels in a cycle of the channel "
           "dependency graph (%u channels in its strongly connected "
           "component): %s",
           vl_phrase(api, f, r, e, basis, sizeof basis), lp->n_hops,
           lp->scc_channels, path);
  int rc = report(api, ctx, loop_severity(r, e), msg, nodes, lp->n_hops, ports,
                  lp->n_hops, jb_str(&ev));
  jb_free(&ev);
  free(nodes), free(ports);
  return rc;
}

/* Chassis of node @n (core/model/chassis.c), FL_NONE when none or unknown. */
static uint32_t chassis_of(const fl_host_api *api, const fl_fabric *f,
                           fl_id n) {
  if (n == FL_NONE || !FL_API_HAS(api, node_chassis))
    return FL_NONE;
  return api->node_chassis(f, n);
}

/* 1 when @x and @y are ASICs of one director chassis: a cable between them
 * is inside the switch. */
static int same_chassis(const fl_host_api *api, const fl_fabric *f, fl_id x,
                        fl_id y) {
  uint32_t c = chassis_of(api, f, x);
  return c != FL_NONE && c == chassis_of(api, f, y);
}

/* Name of the chassis of ASIC @n into @buf: its system, else the part of
 * the ASIC's name before the first '/'. */
static const char *chassis_label(const fl_host_api *api, const fl_fabric *f,
                                 fl_id n, char *buf, size_t size) {
  const char *sys = api->node_system(f, n), *name = api->node_name(f, n);
  if (sys && *sys) {
    snprintf(buf, size, "%s", sys);
    return buf;
  }
  const char *sl = strchr(name, '/');
  snprintf(buf, size, "%.*s", sl ? (int)(sl - name) : (int)strlen(name), name);
  return buf;
}

/* Hop @k of @lp enters a chassis whose next channel stays inside it: the
 * text of the turn the cycle makes through the chassis into @one, when it
 * is a valley (comes down into the chassis and climbs out of it again: the
 * line cards and spines of a director are one switch, so this is the
 * down-up turn up*-down* forbids). The channels inside may be chained by
 * several routes (one crossing the chassis down, one up), so no single
 * route or LID is named. Returns 1 with @one filled, else 0. */
static int chassis_valley(const fl_host_api *api, const fl_fabric *f,
                          const fl_cdg_loop *lp, uint32_t k, char *one,
                          size_t size) {
  uint32_t n = lp->n_hops;
  const fl_cdg_hop *a = &lp->hops[k], *b = &lp->hops[(k + 1) % n];
  uint32_t j = (k + 1) % n, steps = 0;
  while (steps < n &&
         same_chassis(api, f, lp->hops[j].from_node, lp->hops[j].to_node))
    j = (j + 1) % n, steps++;
  const fl_cdg_hop *x = &lp->hops[j];
  if (steps >= n || x->to_node == FL_NONE)
    return 0;
  uint32_t ta = api->node_tier(f, a->from_node);
  uint32_t tb = api->node_tier(f, b->from_node);
  uint32_t tc = api->node_tier(f, x->to_node);
  if (ta == FL_TIER_UNKNOWN || tc == FL_TIER_UNKNOWN || !(ta > tb) ||
      !(tc > tb))
    return 0;
  char ch[256], via[600] = "";
  size_t off = 0;
  for (uint32_t m = (k + 2) % n; m != j && off < sizeof via; m = (m + 1) % n)
    off +=
        (size_t)snprintf(via + off, sizeof via - off, "%s%s", off ? ", " : "",
                         api->node_name(f, lp->hops[m].from_node));
  snprintf(one, size,
           "valley through director chassis %s (tier %u): channels come down "
           "from %s (tier %u) into line card %s, cross the chassis via %s and "
           "leave line card %s up to %s (tier %u): a down-up turn through one "
           "switch, chained from routes that share cables inside the chassis "
           "(minimal routes cross a director's line cards via its spines)",
           chassis_label(api, f, b->from_node, ch, sizeof ch), tb,
           api->node_name(f, a->from_node), ta, api->node_name(f, b->from_node),
           via, api->node_name(f, x->from_node), api->node_name(f, x->to_node),
           tc);
  return 1;
}

/* The turns of cycle @lp that up*-down* forbids, as text into @buf: a
 * down-up turn (a valley: the route comes down to a switch and climbs
 * again), a cable between two switches of one tier, or a valley through
 * a director chassis (its ASICs are one switch: a cable inside it is
 * neither a same-tier cable nor a turn of its own). Returns how many. */
static uint32_t loop_causes(const fl_host_api *api, const fl_fabric *f,
                            const fl_cdg_loop *lp, char *buf, size_t size,
                            jbuf *ev) {
  uint32_t n = 0;
  size_t off = 0;
  buf[0] = 0;
  for (uint32_t k = 0; k < lp->n_hops; k++) {
    const fl_cdg_hop *a = &lp->hops[k], *b = &lp->hops[(k + 1) % lp->n_hops];
    if (same_chassis(api, f, a->from_node, b->from_node))
      continue; /* a cable inside a chassis */
    uint32_t ta = api->node_tier(f, a->from_node);
    uint32_t tb = api->node_tier(f, b->from_node);
    uint32_t tc =
        b->to_node == FL_NONE ? FL_TIER_UNKNOWN : api->node_tier(f, b->to_node);
    char one[1200];
    if (ta == tb && ta != FL_TIER_UNKNOWN)
      snprintf(one, sizeof one,
               "cable %s:%u - %s:%u joins two tier-%u switches",
               api->node_name(f, a->from_node), a->from_port,
               api->node_name(f, b->from_node), a->to_port, ta);
    else if (same_chassis(api, f, b->from_node, b->to_node)) {
      if (!chassis_valley(api, f, lp, k, one, sizeof one))
        continue;
    } else if (ta != FL_TIER_UNKNOWN && tc != FL_TIER_UNKNOWN && ta > tb &&
               tc > tb)
      snprintf(one, sizeof one,
               "down-up turn at %s (tier %u): in from %s (tier %u), out to "
               "%s (tier %u), on routes to LID %u (%s)",
               api->node_name(f, b->from_node), tb,
               api->node_name(f, a->from_node), ta,
               api->node_name(f, b->to_node), tc, a->dlid,
               dest_name(api, f, api->lid_port(f, a->dlid)));
    else
      continue;
    jb_str_item(ev, one);
    if (off < size)
      off +=
          (size_t)snprintf(buf + off, size - off, "%s%s", n ? "; " : "", one);
    n++;
  }
  return n;
}

/* Design mode: a loop that minimal routing would have while the modelled
 * engine has none is a warning naming what forces the turn. */
static int minhop_finding(const fl_host_api *api, fl_ctx *ctx,
                          const fl_fabric *f, const dl_engine *e,
                          const fl_cdg_loop *lp) {
  fl_id *nodes = calloc(lp->n_hops + 1, sizeof *nodes);
  if (!nodes) {
    api->fail(ctx, "out of memory");
    return 1;
  }
  char path[1024] = "", causes[1200];
  size_t off = 0;
  for (uint32_t k = 0; k < lp->n_hops; k++) {
    nodes[k] = lp->hops[k].from_node;
    if (off < sizeof path)
      off += (size_t)snprintf(path + off, sizeof path - off, "%s:%u -> ",
                              api->node_name(f, lp->hops[k].from_node),
                              lp->hops[k].from_port);
  }
  if (off < sizeof path && lp->n_hops)
    snprintf(path + off, sizeof path - off, "%s:%u",
             api->node_name(f, lp->hops[0].from_node), lp->hops[0].from_port);
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "routing", "minimal");
  jb_key_str(&ev, "engine", "minhop");
  jb_key_str(&ev, "modelled_engine", ENGINES[e->engine]);
  jb_key_int(&ev, "cycle_length", lp->n_hops);
  jb_key_int(&ev, "scc_channels", lp->scc_channels);
  jb_key(&ev, "causes");
  jb_arr_open(&ev);
  uint32_t nc = loop_causes(api, f, lp, causes, sizeof causes, &ev);
  jb_arr_close(&ev);
  jb_obj_close(&ev);
  char msg[2600];
  snprintf(msg, sizeof msg,
           "no LFTs loaded: the modelled %s routing (%s) has no credit "
           "loop, but minimal routing (OpenSM minhop, or ECMP over every "
           "shortest path) would: %u channels, %s; cause: %s",
           ENGINES[e->engine], e->why, lp->n_hops, path,
           nc ? causes : "no tier-breaking turn identified");
  int rc = report(api, ctx, FL_SEV_WARNING, msg, nodes, lp->n_hops, NULL, 0,
                  jb_str(&ev));
  jb_free(&ev);
  free(nodes);
  return rc;
}

static int check_credit_loop(const fl_host_api *api, fl_ctx *ctx, void *data) {
  dl_state *st = data;
  const fl_cdg_report *r = analysis(api, ctx, st, 1);
  if (!r)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  for (uint32_t i = 0; i < r->n_loops; i++)
    if (loop_finding(api, ctx, f, r, &st->eng, &r->loops[i]))
      return 1;
  int err = 0;
  const fl_cdg_report *m = minhop_analysis(api, ctx, st, r, &err);
  if (err)
    return 1;
  for (uint32_t i = 0; m && !r->n_loops && i < m->n_loops; i++)
    if (minhop_finding(api, ctx, f, &st->eng, &m->loops[i]))
      return 1;
  return 0;
}

/* ---- deadlock.verdict (info)
 * ------------------------------------------------------ */

static int check_verdict(const fl_host_api *api, fl_ctx *ctx, void *data) {
  dl_state *st = data;
  const fl_cdg_report *r = analysis(api, ctx, st, 0);
  if (!r)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  char basis[256], what[64];
  if (r->routing == FL_CDG_ROUTING_MINIMAL)
    snprintf(what, sizeof what, "modelled %s", ENGINES[st->eng.engine]);
  else
    snprintf(what, sizeof what, "LFT");
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  common_evidence(api, f, r, &st->eng, &ev);
  jb_key_int(&ev, "credit_loops", r->n_loops);
  jb_key_int(&ev, "channels", r->channels);
  jb_key_int(&ev, "dependencies", (int64_t)r->dependencies);
  jb_key_int(&ev, "destinations", r->destinations);
  jb_key_int(&ev, "sources", r->sources);
  jb_key_int(&ev, "forwarding_loops", (int64_t)r->fwd_loop_count);
  jb_key_int(&ev, "unrouted_pairs", (int64_t)r->unrouted_pairs);
  jb_key_int(&ev, "valley_turns", (int64_t)r->valley_count);
  if (r->vl_aware)
    jb_key_int(&ev, "hops_without_sl2vl", (int64_t)r->missing_sl2vl);
  jb_obj_close(&ev);
  char msg[768];
  snprintf(msg, sizeof msg,
           "%s routing of %u %s from %u %s: %s (%u channels, "
           "%llu dependencies; %s)",
           what, r->destinations,
           r->routing == FL_CDG_ROUTING_MINIMAL ? "destination switches"
                                                : "destination LIDs",
           r->sources,
           r->routing == FL_CDG_ROUTING_MINIMAL || !r->vl_aware
               ? "source switches"
               : "source ports",
           r->n_loops ? "credit loops found" : "no credit loop", r->channels,
           (unsigned long long)r->dependencies,
           vl_phrase(api, f, r, &st->eng, basis, sizeof basis));
  size_t len = strlen(msg);
  if (r->routing == FL_CDG_ROUTING_MINIMAL && r->unrouted_pairs &&
      len < sizeof msg)
    snprintf(msg + len, sizeof msg - len,
             "; %llu (source switch, destination switch) pair(s) have no "
             "route under this model",
             (unsigned long long)r->unrouted_pairs);
  int rc = report(api, ctx, 0, msg, NULL, 0, NULL, 0, jb_str(&ev));
  jb_free(&ev);
  return rc;
}

/* ---- deadlock.forwarding-loop
 * ---------------------------------------------------- */

static int check_fwd_loop(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const fl_fabric *f = api->fabric(ctx);
  if (!api->lft_count(f))
    return 0;
  const fl_cdg_report *r = analysis(api, ctx, data, 0);
  if (!r)
    return 1;
  for (uint32_t i = 0; i < r->n_fwd_loops; i++) {
    const fl_cdg_fwd_loop *fl = &r->fwd_loops[i];
    char path[1024] = "";
    size_t off = 0;
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_int(&ev, "dlid", fl->dlid);
    jb_key_str(&ev, "destination",
               dest_name(api, f, api->lid_port(f, fl->dlid)));
    jb_key_int(&ev, "total_looping_destinations", (int64_t)r->fwd_loop_count);
    jb_key(&ev, "switches");
    jb_arr_open(&ev);
    for (uint32_t k = 0; k < fl->n_switches; k++) {
      jb_str_item(&ev, api->node_name(f, fl->switches[k]));
      if (off < sizeof path)
        off += (size_t)snprintf(path + off, sizeof path - off, "%s -> ",
                                api->node_name(f, fl->switches[k]));
    }
    jb_arr_close(&ev);
    jb_obj_close(&ev);
    if (off < sizeof path && fl->n_switches)
      snprintf(path + off, sizeof path - off, "%s",
               api->node_name(f, fl->switches[0]));
    char msg[1400];
    snprintf(msg, sizeof msg,
             "packets to LID %u (%s) loop between switches: %s", fl->dlid,
             dest_name(api, f, api->lid_port(f, fl->dlid)), path);
    int rc = report(api, ctx, 0, msg, fl->switches, fl->n_switches, NULL, 0,
                    jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- deadlock.unrouted
 * --------------------------------------------------------------- */

static const char *reason_text(uint32_t reason) {
  switch (reason) {
  case FL_CDG_NO_ENTRY:
    return "no LFT entry (255)";
  case FL_CDG_DEAD_PORT:
    return "the entry's port has no cable (down or unconnected)";
  case FL_CDG_WRONG_NODE:
    return "the entry leads to the wrong node (black hole)";
  case FL_CDG_NO_LFT:
    return "the switch has no LFT";
  default:
    return "unrouted";
  }
}

/* Partial routing input (LFTs of some switches only, e.g. one `ibroute
 * <lid>`): not a fault. Said once, with the switches that were not judged;
 * routes stop at them without a finding. */
static int switches_without_lft(const fl_host_api *api, fl_ctx *ctx,
                                const fl_fabric *f) {
  uint32_t nn = api->node_count(f), with = api->lft_count(f), without = 0;
  char names[600] = "";
  size_t off = 0;
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key(&ev, "switches_without_lft");
  jb_arr_open(&ev);
  for (fl_id n = 0; n < nn; n++) {
    uint32_t len = 0;
    if (api->node_kind(f, n) != FL_NODE_SWITCH || api->lft(f, n, &len))
      continue;
    jb_str_item(&ev, api->node_name(f, n));
    if (without < 5 && off < sizeof names)
      off += (size_t)snprintf(names + off, sizeof names - off, "%s\"%s\"",
                              without ? ", " : "", api->node_name(f, n));
    without++;
  }
  jb_arr_close(&ev);
  jb_key_int(&ev, "switches_with_lft", with);
  jb_key_int(&ev, "switches", with + without);
  jb_obj_close(&ev);
  int rc = 0;
  if (without) {
    char msg[1024];
    snprintf(msg, sizeof msg,
             "partial routing input: LFTs of %u of %u switches; reachability "
             "and credit loops judged from those only, routes stop unjudged "
             "at the %u switch(es) without one: %s%s",
             with, with + without, without, names, without > 5 ? ", ..." : "");
    rc = report(api, ctx, FL_SEV_WARNING, msg, NULL, 0, NULL, 0, jb_str(&ev));
  }
  jb_free(&ev);
  return rc;
}

static int check_unrouted(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const fl_fabric *f = api->fabric(ctx);
  if (!api->lft_count(f))
    return 0;
  const fl_cdg_report *r = analysis(api, ctx, data, 0);
  if (!r || switches_without_lft(api, ctx, f))
    return 1;
  for (uint32_t i = 0; i < r->n_unrouted; i++) {
    const fl_cdg_unrouted *u = &r->unrouted[i];
    fl_id dnode =
        u->dest_port == FL_NONE ? FL_NONE : api->port_node(f, u->dest_port);
    fl_id nodes[2] = {u->example_switch, dnode};
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_int(&ev, "dlid", u->dlid);
    jb_key_str(&ev, "destination", dest_name(api, f, u->dest_port));
    jb_key_int(&ev, "switches", u->n_switches);
    jb_key_str(&ev, "example_switch", api->node_name(f, u->example_switch));
    jb_key_int(&ev, "example_entry", u->example_port);
    jb_key_str(&ev, "reason", reason_text(u->reason));
    jb_key_bool(&ev, "traffic_dropped", (int)u->on_traffic_path);
    jb_key_int(&ev, "total_unrouted_pairs", (int64_t)r->unrouted_pairs);
    jb_obj_close(&ev);
    char entry[32];
    if (u->example_port == 255)
      snprintf(entry, sizeof entry, "none");
    else
      snprintf(entry, sizeof entry, "port %u", u->example_port);
    char msg[1024];
    snprintf(msg, sizeof msg,
             "LID %u (%s) is unreachable from %u switch(es)%s, e.g. \"%s\" "
             "(LFT entry: %s): %s",
             u->dlid, dest_name(api, f, u->dest_port), u->n_switches,
             u->on_traffic_path ? ", and CA traffic to it is dropped" : "",
             api->node_name(f, u->example_switch), entry,
             reason_text(u->reason));
    int rc =
        report(api, ctx, u->on_traffic_path ? FL_SEV_ERROR : FL_SEV_WARNING,
               msg, nodes, dnode == FL_NONE ? 1 : 2, NULL, 0, jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- deadlock.not-updown
 * ---------------------------------------------------------- */

static int check_updown(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const fl_cdg_report *r = analysis(api, ctx, data, 0);
  if (!r)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  for (uint32_t i = 0; i < r->n_valleys; i++) {
    const fl_cdg_valley *v = &r->valleys[i];
    fl_id nodes[3] = {v->from, v->at, v->to};
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_int(&ev, "dlid", v->dlid);
    jb_key_str(&ev, "destination",
               dest_name(api, f, api->lid_port(f, v->dlid)));
    jb_key_str(&ev, "from", api->node_name(f, v->from));
    jb_key_int(&ev, "from_tier", api->node_tier(f, v->from));
    jb_key_str(&ev, "at", api->node_name(f, v->at));
    jb_key_int(&ev, "at_tier", api->node_tier(f, v->at));
    jb_key_str(&ev, "to", api->node_name(f, v->to));
    jb_key_int(&ev, "to_tier", api->node_tier(f, v->to));
    jb_key_int(&ev, "total_valley_turns", (int64_t)r->valley_count);
    jb_obj_close(&ev);
    char msg[1024];
    snprintf(msg, sizeof msg,
             "route to LID %u goes down then up: \"%s\" (tier %u) -> \"%s\" "
             "(tier %u) -> \"%s\" (tier %u); up*/down* routing never turns "
             "upward after going down",
             v->dlid, api->node_name(f, v->from), api->node_tier(f, v->from),
             api->node_name(f, v->at), api->node_tier(f, v->at),
             api->node_name(f, v->to), api->node_tier(f, v->to));
    int rc = report(api, ctx, 0, msg, nodes, 3, NULL, 0, jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- deadlock.routing-input
 * ---------------------------------------------------------- */

static int check_input(const fl_host_api *api, fl_ctx *ctx, void *data) {
  (void)data;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t n = api->note_count(f);
  for (uint32_t i = 0; i < n; i++) {
    const char *cat, *file, *msg;
    uint32_t line;
    if (api->note(f, i, &cat, &file, &line, &msg) != 0 ||
        strcmp(cat, "routing"))
      continue;
    char text[1400];
    snprintf(text, sizeof text, "%s:%u: %s", file, line, msg);
    if (report(api, ctx, 0, text, NULL, 0, NULL, 0, NULL))
      return 1;
  }
  return 0;
}

/* ---- descriptors
 * ------------------------------------------------------------------------ */

static const fl_param_def P_TRAFFIC = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "traffic",
    "ca",
    NULL,
    "ca: every CA port to every CA LID (as ibdmchk and Nue); all: also "
    "switch-sourced and switch-destined management traffic",
    NULL,
    NULL};
static const fl_param_def P_VL = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "vl-mode",
    "auto",
    NULL,
    "auto: VL-aware when SL2VL tables are loaded; blind: channels are link "
    "directions; aware: require SL2VL tables",
    NULL,
    NULL};
static const fl_param_def P_ROUTING = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "routing",
    "auto",
    NULL,
    "auto: the loaded LFTs, else the routing-engine model (design mode); "
    "lft; minimal: the routing-engine model even with LFTs loaded",
    NULL,
    NULL};
static const fl_param_def P_ENGINE = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "routing-engine",
    "auto",
    NULL,
    "routing modelled when no LFTs are loaded: minhop (every minimal next "
    "hop), updn (shortest up*/down* paths by tier), ftree (climb tiers, "
    "then descend; same-tier cables unused); auto: updn for a tiered Clos "
    "(every switch has a tier, at least two tiers), else minhop. Loops of a "
    "model are warnings unless the engine is named here",
    NULL,
    NULL};
static const fl_param_def P_EXAMPLES = {
    sizeof(fl_param_def),
    FL_PARAM_INT,
    "max-examples",
    "1000",
    "findings",
    "most forwarding-loop, unrouted and valley findings reported (counts in "
    "the evidence stay complete)",
    "1",
    "1000000"};
/* Each rule lists the parameters it reads (`fabriclint rules` shows them
 * under it). The routing analysis is shared: credit-loop and verdict read
 * its options but list no example cap (they show no example list); a
 * plugin-wide --param deadlock.max-examples still reaches their analysis,
 * so one analysis serves every rule. routing-input reads no parameter. */
static const fl_param_def *const P_ANALYSIS[] = {&P_TRAFFIC, &P_VL, &P_ROUTING,
                                                 &P_ENGINE};
static const fl_param_def *const P_LISTS[] = {&P_TRAFFIC, &P_VL, &P_ROUTING,
                                              &P_ENGINE, &P_EXAMPLES};
#define PARAMS_OF(a) a, (uint32_t)(sizeof a / sizeof *a)
#define NO_PARAMS    NULL, 0

#define RULE(var, sev, on, rid, summ, hlp, fn, needs, params)                  \
  static const fl_rule_def var = {                                             \
      sizeof(fl_rule_def), sev, rid, summ, hlp, on, needs, params, fn}

RULE(R_LOOP, FL_SEV_ERROR, 1, "deadlock.credit-loop",
     "the channel dependency graph of the routing has a cycle",
     "A cycle of channel dependencies (Dally & Seitz) lets buffers wait on "
     "each other forever: a routing deadlock that stalls every flow crossing "
     "it. Each finding is one strongly connected component of the CDG with "
     "one concrete cycle: switch:port hops in order, with the VL and, per "
     "dependency, a destination LID and a source that create it. Fix: route "
     "with up*/down*, ftree or a VL-based engine (LASH, DFSSSP, Nue), or "
     "remove the cable that closes the cycle.",
     check_credit_loop, 0, PARAMS_OF(P_ANALYSIS));
RULE(R_VERDICT, FL_SEV_INFO, 0, "deadlock.verdict",
     "summary of the routing analysis and whether it was VL-aware",
     "States what was analysed (LFTs or reference minimal routing, how many "
     "destinations and sources), the CDG size, and whether the verdict is "
     "VL-aware (SL2VL tables, and path SLs where the engine assigns them) or "
     "VL-blind. Opt-in (--rules deadlock.verdict or --rules deadlock): an "
     "always-present info finding would make --fail-on info useless; every "
     "credit-loop finding states its basis itself.",
     check_verdict, 0, PARAMS_OF(P_ANALYSIS));
RULE(R_FWD, FL_SEV_ERROR, 1, "deadlock.forwarding-loop",
     "following the LFTs toward a destination revisits a switch",
     "Packets to the destination circle until their time-to-live (IB has "
     "none: until the switch lifetime limit) expires.",
     check_fwd_loop, FL_NEEDS_ROUTING, PARAMS_OF(P_LISTS));
RULE(R_UNROUTED, FL_SEV_ERROR, 1, "deadlock.unrouted",
     "a destination is unreachable from some switch",
     "An LFT entry of 255, a port with no cable, or an entry that leads to "
     "another node. Error when CA traffic runs into it, warning when only the "
     "switch's own entry is bad.",
     check_unrouted, FL_NEEDS_ROUTING, PARAMS_OF(P_LISTS));
RULE(R_UPDOWN, FL_SEV_WARNING, 1, "deadlock.not-updown",
     "a route goes down a tier and then up again (a valley)",
     "Up*/down* and ftree routing never turn upward after going down; a "
     "valley is the usual cause of credit loops in fat trees (routes between "
     "non-compute nodes, max_reverse_hops, a leaf-to-leaf cable). Needs tiers "
     "(design attributes or derived from the shape).",
     check_updown, 0, PARAMS_OF(P_LISTS));
RULE(R_INPUT, FL_SEV_WARNING, 1, "deadlock.routing-input",
     "a routing dump names switches, ports or LIDs the topology lacks",
     "LFT blocks for unknown switches are skipped and listed here: the "
     "routing dump and the topology were probably taken at different times.",
     check_input, FL_NEEDS_ROUTING, NO_PARAMS);

/* lossless Ethernet (PFC): plugins/deadlock/pfc_rules.c */
extern const fl_rule_def fl_deadlock_pfc_cycle, fl_deadlock_pfc_failure;

static const fl_rule_def *const RULES[] = {&R_LOOP,
                                           &R_VERDICT,
                                           &R_FWD,
                                           &R_UNROUTED,
                                           &R_UPDOWN,
                                           &R_INPUT,
                                           &fl_deadlock_pfc_cycle,
                                           &fl_deadlock_pfc_failure};

static const fl_plugin_desc DESC = {sizeof(fl_plugin_desc),
                                    FL_ABI_MAJOR,
                                    FL_ABI_MINOR,
                                    sizeof RULES / sizeof *RULES,
                                    "deadlock",
                                    "0.1.0",
                                    "fabriclint",
                                    "MIT",
                                    dl_init,
                                    dl_fini,
                                    RULES};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &DESC;
}
