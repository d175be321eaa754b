/* SPDX-License-Identifier: MIT */
/*
 * plugins/rail-alignment/rail_roles.c — the roles of hosts that say none,
 * guessed from host names and NIC counts (rail-alignment.roles reports the
 * guess).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fabriclint/roles.h"
#include "fabriclint/view.h"
#include "gpu.h"
#include "names.h"
#include "rail.h"

/* ---- roles by heuristic -------------------------------------------------
 * Hosts that are not GPU compute nodes (the UFM/SM server, login, storage,
 * management) sit on an InfiniBand fabric too and are not "incomplete rail
 * hosts". When no NIC of a host has a role attribute (design XML, annotation
 * file) and the rail map gives none, the role is guessed, and the guess is
 * reported once (rail-alignment.roles):
 *  1. the host name has a word (a run of letters) naming a service: ufm,
 *     cufm, sm, opensm -> ufm; login -> login; storage, stor, nfs, lustre ->
 *     storage; cache -> cache; mgmt, mgt, management, admin, head, bastion,
 *     slurm -> management;
 *     (skipped when most hosts have such a word: a naming convention);
 *  2. else a host with one NIC while most hosts have two or more -> service.
 * Parameter infer-roles=0 turns the guess off. */

static const char *role_of_word(const char *w, size_t n) {
  static const char *const words[][2] = {{"ufm", "ufm"},
                                         {"cufm", "ufm"},
                                         {"sm", "ufm"},
                                         {"opensm", "ufm"},
                                         {"login", "login"},
                                         {"storage", "storage"},
                                         {"stor", "storage"},
                                         {"nfs", "storage"},
                                         {"lustre", "storage"},
                                         {"cache", "cache"},
                                         {"mgmt", "management"},
                                         {"mgt", "management"},
                                         {"admin", "management"},
                                         {"head", "management"},
                                         {"management", "management"},
                                         {"bastion", "management"},
                                         {"slurm", "management"}};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (strlen(words[i][0]) == n && strncasecmp(words[i][0], w, n) == 0)
      return words[i][1];
  return NULL;
}

static const char *role_by_name(const char *host) {
  for (const char *c = host; *c;) {
    while (*c && !isalpha((unsigned char)*c))
      c++;
    const char *e = c;
    while (*e && isalpha((unsigned char)*e))
      e++;
    const char *r = e > c ? role_of_word(c, (size_t)(e - c)) : NULL;
    if (r)
      return r;
    c = e;
  }
  return NULL;
}

static void guess_role(nic *x, const char *role) {
  x->role = role;
  x->role_guessed = 1;
  if (!x->unresolved)
    x->rail = NON_COMPUTE;
}

int rl_guess_roles(const fl_host_api *api, const fl_fabric *f, analysis *a) {
  uint32_t nh = a->n_hosts, *cnt = calloc(nh + 1, sizeof *cnt);
  uint8_t *given = calloc(nh + 1, 1);
  if (!cnt || !given) {
    free(cnt), free(given);
    return -1;
  }
  for (uint32_t i = 0; i < a->n_nics; i++) {
    int32_t h = host_find(a, api->node_system(f, a->nics[i].node));
    if (h < 0)
      continue;
    cnt[h]++;
    if (api->attr(f, FL_ENT_NODE, a->nics[i].node, "role") ||
        strcmp(a->nics[i].role, "compute") != 0)
      given[h] = 1;
  }
  uint32_t multi = 0, named = 0;
  for (uint32_t h = 0; h < nh; h++) {
    multi += cnt[h] >= 2;
    named += !given[h] && role_by_name(a->hosts[h]) != NULL;
  }
  /* a service word in most host names is a naming convention, not a role */
  int by_name = named * 2 <= nh;
  for (uint32_t i = 0; i < a->n_nics; i++) {
    nic *x = &a->nics[i];
    const char *host = api->node_system(f, x->node);
    int32_t h = host_find(a, host);
    if (h < 0 || given[h])
      continue;
    const char *r = by_name ? role_by_name(host) : NULL;
    if (r)
      guess_role(x, r);
    else if (cnt[h] == 1 && multi * 2 > nh)
      guess_role(x, "service");
  }
  free(cnt), free(given);
  return 0;
}

/* Device mode with rails on the leaves only (a leaf-rails side file such
 * as `node,rail` / `leaf-r0,0`, or design `rail=` on switches): the rail of
 * a device name is the strict majority rail of the leaves its NICs are
 * cabled to (`ens1f0np0` is on rail-0 leaves on most hosts, so it is rail
 * 0). Fills a->map with those pairs and returns 1 when that gave any rail;
 * 0 (map untouched) when NICs carry rails themselves or no leaf has one. */
