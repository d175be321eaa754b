/* SPDX-License-Identifier: MIT */
/*
 * core/diff/diff_layout.c — a switch layer cabled to another layout than
 * the plan's: one cause, not a move per uplink (issue 30).
 *
 * A plan of 16 spines (two cables from each leaf to each) against a build
 * of 8 spines (four from each leaf to each) gave 254 moves and 256
 * unexpected cables: every uplink off by a few ports, all from one fact,
 * the layer follows another layout. So, once the exact cables, duplicates,
 * plan constraints and swaps are taken, the planned cables between
 * switches of two tiers that are still unexplained are counted per pair of
 * tiers; when at least LAYOUT_MIN of them, and at least half of the
 * planned cables between those tiers, are unexplained, every remaining
 * finding between those tiers (moves, missing and unexpected cables)
 * shares the cause "layout:<lower>-<upper>". The moves are the primary,
 * the missing and unexpected cables and the missing switches of the upper
 * tier (diff_groups.c "missing-tier") attached to it (host/roots.h). Below
 * half, the cables stay what they are: a few miscabled uplinks are moves.
 * The message says the counts and one lower switch's fan-out, planned and
 * built. O(edges + links of that switch).
 */
#include <stdlib.h>
#include <string.h>

#include "diff/diff_impl.h"
#include "fabriclint/plugin.h"
#include "host/findings.h"

/* Unexplained planned cables a pair of tiers needs to be one cause. */
#define LAYOUT_MIN 8u

/* The tier of the design switch at endpoint @k, FL_TIER_UNKNOWN when it is
 * no switch, not matched, or has no tier; the design node in @d. */
static uint32_t key_tier(const dctx *c, uint64_t k, fl_id *d) {
  fl_id dp = diff_key_dport(c, k);
  *d = dp != FL_NONE ? fl_fabric_port_node(c->D, dp) : diff_key_dnode(c, k);
  if (*d == FL_NONE || fl_fabric_node_kind(c->D, *d) != FL_NODE_SWITCH)
    return FL_TIER_UNKNOWN;
  return fl_fabric_node_tier(c->D, *d);
}

/* The pair of tiers of edge @e as one key (lower << 16 | upper), or 0 when
 * it does not join switches of two known, different tiers; the design node
 * of the lower end in @low. */
static uint32_t edge_pair(const dctx *c, const edge *e, fl_id *low) {
  fl_id d0, d1;
  uint32_t t0 = key_tier(c, e->k[0], &d0), t1 = key_tier(c, e->k[1], &d1);
  if (t0 == FL_TIER_UNKNOWN || t1 == FL_TIER_UNKNOWN || t0 == t1 ||
      t0 > 0xffff || t1 > 0xffff)
    return 0;
  *low = t0 < t1 ? d0 : d1;
  return t0 < t1 ? t0 << 16 | t1 : t1 << 16 | t0;
}

/* Switches of tier @t cabled to design switch @d on side @side, and the
 * cables to them (the as-built side through @d's match). */
static void fan_out(const dctx *c, int side, fl_id d, uint32_t t, uint32_t *sw,
                    uint32_t *cables) {
  const fl_fabric *F = side ? c->B : c->D;
  fl_id n = side ? c->mD[d] : d;
  *sw = *cables = 0;
  if (n == FL_NONE)
    return;
  fl_id p0 = fl_fabric_node_first_port(F, n);
  uint32_t np = fl_fabric_node_port_count(F, n);
  fl_u64map seen = {0};
  for (uint32_t k = 0; k < np; k++)
    for (uint32_t j = 0; j < fl_fabric_port_link_count(F, p0 + k); j++) {
      fl_id o =
          fl_fabric_link_other(F, fl_fabric_port_link(F, p0 + k, j), p0 + k);
      fl_id u = o == FL_NONE ? FL_NONE : fl_fabric_port_node(F, o);
      fl_id du = side && u != FL_NONE ? c->mB[u] : u;
      if (du == FL_NONE || fl_fabric_node_kind(c->D, du) != FL_NODE_SWITCH ||
          fl_fabric_node_tier(c->D, du) != t)
        continue;
      (*cables)++;
      if (fl_u64map_get(&seen, du) == FL_MAP_ABSENT &&
          fl_u64map_put(&seen, du, 1) == 1)
        (*sw)++;
    }
  fl_u64map_free(&seen);
}

void diff_layout_judge(dctx *c) {
  diff_layout *L = &c->lay;
  fl_u64map at = {0};
  uint32_t *cnt = NULL; /* per pair: planned, unexplained planned, built */
  fl_id *low = NULL;
  uint32_t *key = NULL;
  size_t n = 0, cap = 0;
  for (uint32_t i = 0; i < c->n_e && !c->nomem; i++) {
    fl_id lo = FL_NONE;
    uint32_t pk = edge_pair(c, &c->e[i], &lo);
    if (!pk)
      continue;
    uint32_t s = fl_u64map_put(&at, pk, (uint32_t)n);
    if (s == FL_MAP_ABSENT) {
      c->nomem = 1;
      break;
    }
    if (s == n) {
      if (n == cap) {
        size_t nc = cap ? cap * 2 : 8;
        uint32_t *nk = realloc(key, nc * sizeof *nk);
        if (nk)
          key = nk;
        uint32_t *ncn = nk ? realloc(cnt, nc * 3 * sizeof *ncn) : NULL;
        if (ncn)
          cnt = ncn;
        fl_id *nl = ncn ? realloc(low, nc * sizeof *nl) : NULL;
        if (!nl) {
          c->nomem = 1;
          break;
        }
        low = nl, cap = nc;
      }
      key[n] = pk, low[n] = FL_NONE;
      cnt[3 * n] = cnt[3 * n + 1] = cnt[3 * n + 2] = 0;
      n++;
    }
    int open = c->e[i].state == E_OPEN, design = c->e[i].side == 0;
    cnt[3 * s] += (uint32_t)design;
    cnt[3 * s + 1] += (uint32_t)(design && open);
    cnt[3 * s + 2] += (uint32_t)(!design && open);
    if (design && open && low[s] == FL_NONE)
      low[s] = lo;
  }
  for (size_t s = 0; s < n && !c->nomem; s++) {
    uint32_t planned = cnt[3 * s], off = cnt[3 * s + 1];
    if (off < LAYOUT_MIN || 2 * (uint64_t)off < planned)
      continue;
    uint32_t ta = key[s] >> 16, tb = key[s] & 0xffff, ps, pc, bs, bc;
    fan_out(c, 0, low[s], tb, &ps, &pc);
    fan_out(c, 1, low[s], tb, &bs, &bc);
    char **nm = realloc(L->msg, (L->n + 1) * sizeof *nm);
    uint32_t *nk = nm ? realloc(L->key, (L->n + 1) * sizeof *nk) : NULL;
    if (nm)
      L->msg = nm;
    if (!nk) {
      c->nomem = 1;
      break;
    }
    L->key = nk;
    L->key[L->n] = key[s];
    L->msg[L->n++] = diff_xprintf(
        c,
        "{count} cables between tier-%u and tier-%u switches are not where "
        "the plan puts them: %u of the %u planned ones are elsewhere or "
        "missing and %u built ones are not in the plan, so the layer is "
        "cabled to another layout than the plan's (e.g. \"%s\": planned %u "
        "cables to %u tier-%u switches, built %u to %u); recable it to the "
        "plan, or make the plan for this build (the cables below)",
        ta, tb, off, planned, cnt[3 * s + 2], fl_fabric_node_name(c->D, low[s]),
        pc, ps, tb, bc, bs);
  }
  fl_u64map_free(&at);
  free(cnt), free(low), free(key);
}

const char *diff_layout_cause(dctx *c, const uint64_t *k, char *buf,
                              size_t size, const char **msg) {
  const diff_layout *L = &c->lay;
  if (!L->n)
    return NULL;
  edge e = {.k = {k[0], k[1]}};
  fl_id lo;
  uint32_t pk = edge_pair(c, &e, &lo);
  for (size_t i = 0; pk && i < L->n; i++)
    if (L->key[i] == pk) {
      snprintf(buf, size, "layout:%u-%u", pk >> 16, pk & 0xffff);
      *msg = L->msg[i];
      return buf;
    }
  return NULL;
}

/* Set the root of @r to "fact:@cause" with @role. */
static void root_of(dctx *c, fl_finding_rec *r, const char *cause,
                    uint32_t role) {
  char *k = diff_xprintf(c, "fact:%s", cause);
  if (!k)
    return;
  free(r->root);
  r->root = k;
  r->root_role = role;
}

void diff_layout_roots(dctx *c) {
  static const char *const order[] = {"diff.misconnected", "diff.missing",
                                      "diff.unexpected"};
  const diff_layout *L = &c->lay;
  for (size_t i = 0; i < L->n && !c->nomem; i++) {
    char cause[48], tier[32];
    snprintf(cause, sizeof cause, "layout:%u-%u", L->key[i] >> 16,
             L->key[i] & 0xffff);
    snprintf(tier, sizeof tier, "missing-tier:%u", L->key[i] & 0xffff);
    const char *primary = NULL;
    for (size_t o = 0; o < 3 && !primary; o++)
      for (size_t j = 0; j < c->fs->n && !primary; j++)
        if (c->fs->v[j].cause && strcmp(c->fs->v[j].cause, cause) == 0 &&
            strcmp(c->fs->v[j].rule, order[o]) == 0)
          primary = order[o];
    if (!primary)
      continue;
    for (size_t j = 0; j < c->fs->n; j++) {
      fl_finding_rec *r = &c->fs->v[j];
      if (!r->cause)
        continue;
      if (strcmp(r->cause, cause) == 0)
        root_of(c, r, cause,
                strcmp(r->rule, primary) == 0 ? FL_ROOT_PRIMARY
                                              : FL_ROOT_CONSEQUENCE);
      else if (strcmp(r->cause, tier) == 0)
        root_of(c, r, cause, FL_ROOT_CONSEQUENCE);
    }
  }
}

void diff_layout_free(diff_layout *L) {
  for (size_t i = 0; i < L->n; i++)
    free(L->msg[i]);
  free(L->msg), free(L->key);
  memset(L, 0, sizeof *L);
}
