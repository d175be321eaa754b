/* SPDX-License-Identifier: MIT */
/*
 * core/io/slurm_tree.h — the switch hierarchy Slurm's topology plugins are
 * told about, derived from a finalized fabric (internal; written by
 * core/io/slurm_write.c).
 *
 * Slurm's topology/tree plugin wants a tree of named switches whose leaves
 * hold nodes (hosts, not NICs), and topology/block wants the blocks of
 * nodes that are closest together (topology.conf(5), topology.yaml(5)). A
 * fabric is not that tree: a DGX-style host has 8 NICs on the 8 rail
 * leaves of its scalable unit, a director chassis is many ASICs, and a
 * fat tree's spines are all parents of every leaf. The hierarchy here is
 * built bottom up (core/io/slurm_tree.c):
 *   - nodes are the compute hosts (systems: "dgx-001" for the NICs "dgx-001
 *     mlx5_0".."mlx5_11"); CAs with a non-compute role attribute
 *     (fabriclint/roles.h: storage, ufm, login, ...) and CAs whose name
 *     gives no host (a default "MT4129 ConnectX7 ..." description) are
 *     left out and listed; SHARP Aggregation Nodes (a switch's own
 *     engine) are no host at all;
 *   - a physical unit is a switch, or a whole director chassis;
 *   - level 1: the hosts and the units they are cabled to, joined where
 *     they share one (union-find): a rail-optimised SU's 8 rail leaves and
 *     its 32 hosts are one Slurm switch; a plain leaf and its hosts are one;
 *   - level k+1: the units cabled upward (higher tier, when both tiers are
 *     known) from a level-k switch, not yet placed, joined likewise: a
 *     fat tree's spines become one parent of every leaf switch, a 3-tier
 *     pod's spine group one parent of its SUs, the cores the root;
 *   - roots that the switch graph connects (leaves cabled to each other
 *     with nothing above) get one synthetic root.
 * A Slurm switch standing for one unit is named by it (the site's name);
 * for several, by their names' common stem cut at a '-', '_' or '.'
 * ("leaf-su01-r0".."leaf-su01-r7" -> "leaf-su01"), else "group". Names are
 * made hostlist-safe ('_' for other characters, at most 64 bytes: Slurm's
 * limit) and unique ("-2", "-3", ...).
 */
#ifndef FABRICLINT_CORE_SLURM_TREE_H
#define FABRICLINT_CORE_SLURM_TREE_H

#include <stdint.h>

#include "fabriclint/error.h"
#include "fabriclint/fabric.h"

/** One Slurm switch. */
typedef struct fl_sl_switch {
  char *name;      /* owned, hostlist-safe, unique */
  uint32_t level;  /* 1: holds hosts; above: holds switches */
  uint32_t *hosts; /* level 1: indices into fl_sl_tree.hosts */
  uint32_t n_hosts;
  uint32_t *kids; /* above 1: indices of child switches */
  uint32_t n_kids;
  uint32_t *units;   /* the physical units it stands for (internal ids) */
  uint32_t n_units;  /* 0 for a synthetic root */
  const char **phys; /* their switch or chassis names, natural order */
  uint32_t parent;   /* index of the parent, or UINT32_MAX for a root */
} fl_sl_switch;

/** The hierarchy. */
typedef struct fl_sl_tree {
  fl_sl_switch *sw; /* in no particular order (writers sort by level, then
                       name); hosts and kids too (writers fold them) */
  uint32_t n_sw;
  char **hosts; /* compute host names, owned */
  uint32_t n_hosts;
  char **left_out;       /* hosts left out (role, no usable name), owned */
  const char **left_why; /* [i] why: a role word, "no host name" or "not
                            a Slurm node name";
                            sorted by why, then name (natural order) */
  uint32_t n_left_out;
  char **uncabled; /* compute hosts cabled to no switch, owned, sorted */
  uint32_t n_uncabled;
} fl_sl_tree;

/**
 * fl_sl_tree_build() — fill zero-filled @t from finalized @fab. FL_OK;
 * FL_EINVAL with @err naming the node when a compute host's name cannot
 * be a Slurm node name (fl_hostlist_name_ok: a blank, ',', '[' ...), or
 * when the fabric has no compute host cabled to a switch; FL_ENOMEM.
 * Free @t with fl_sl_tree_free() in every case. O((nodes + links) α).
 */
int fl_sl_tree_build(const fl_fabric *fab, fl_sl_tree *t, fl_error *err);

/** fl_sl_tree_free() — free what @t owns; safe on a zero-filled @t. */
void fl_sl_tree_free(fl_sl_tree *t);

#endif
