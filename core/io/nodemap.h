/* SPDX-License-Identifier: MIT */
/*
 * core/io/nodemap.h — infiniband-diags node-name-map files (internal).
 *
 * A node-name-map maps a node GUID to a display name; ibnetdiscover,
 * iblinkinfo, ibroute and OpenSM print that name instead of the
 * NodeDescription. fabriclint reads the same file so that its names match
 * what operators see. Semantics follow rdma-core util/node_name_map.c
 * (parse_node_map_wrap() and map_name()); see docs in nodemap.c.
 *
 * Ownership: the caller owns an fl_nodemap (usually on the stack),
 * zero-initialises it, fills it with fl_nodemap_load() and releases it with
 * fl_nodemap_free(). Returned names stay valid until fl_nodemap_free().
 */
#ifndef FABRICLINT_CORE_NODEMAP_H
#define FABRICLINT_CORE_NODEMAP_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/error.h"
#include "model/hashmap.h"

/**
 * fl_nodemap — node GUID -> name.
 * @map:   GUID -> byte offset of the name in @arena.
 * @arena: NUL-terminated names, back to back.
 */
typedef struct fl_nodemap {
  fl_u64map map;
  char *arena;
  size_t alen, acap;
} fl_nodemap;

/**
 * fl_nodemap_load() — read node-name-map file @path into @m (which may
 * already hold entries: the first entry for a GUID wins, as in rdma-core).
 * Returns FL_OK; FL_EIO when @path cannot be read; FL_EPARSE naming
 * file:line when a line does not start with a GUID (rdma-core rejects the
 * whole file silently there; fabriclint names the line); FL_ENOMEM.
 */
int fl_nodemap_load(fl_nodemap *m, const char *path, fl_error *err);

/**
 * fl_nodemap_parse() — the same on an in-memory buffer @buf of @len bytes;
 * @path is only used in error messages.
 */
int fl_nodemap_parse(fl_nodemap *m, const char *buf, size_t len,
                     const char *path, fl_error *err);

/**
 * fl_nodemap_read() — the map of @opts: fl_nodemap_parse() of
 * @opts->node_name_map_text when given (read once by the caller), else
 * fl_nodemap_load() of @opts->node_name_map.
 */
struct fl_load_options;
int fl_nodemap_read(fl_nodemap *m, const struct fl_load_options *opts,
                    fl_error *err);

/** fl_nodemap_lookup() — the name mapped to @guid, or NULL. @m may be NULL. */
const char *fl_nodemap_lookup(const fl_nodemap *m, uint64_t guid);

/** fl_nodemap_count() — number of distinct GUIDs mapped. */
size_t fl_nodemap_count(const fl_nodemap *m);

/** fl_nodemap_free() — release @m's memory and zero it. NULL is a no-op. */
void fl_nodemap_free(fl_nodemap *m);

#endif /* FABRICLINT_CORE_NODEMAP_H */
