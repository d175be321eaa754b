/* SPDX-License-Identifier: MIT */
/*
 * core/io/gen_build.h — what the generators of fabriclint/gen.h share
 * (internal): parameter checks, name formatting and the small builder of
 * gen_ctx (switches, CAs, cables with deterministic GUIDs and LIDs).
 *
 * Why a header: each topology kind lives in its own file (gen.c: fat trees,
 * rings and tori; gen_rail.c: rail-optimised SUs, 2 or 3 tiers), and all of
 * them must number GUIDs and LIDs, name nodes and cable ports the same way.
 * Every function here is defined in gen.c.
 */
#ifndef FABRICLINT_IO_GEN_BUILD_H
#define FABRICLINT_IO_GEN_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/error.h"
#include "fabriclint/fabric.h"
#include "fabriclint/gen.h"
#include "fabriclint/types.h"
#include "model/build.h"

/**
 * gen_ctx — what every node and link of one generation run shares.
 * @oom: sticky: set by the first failed allocation; every helper is a
 *   no-op afterwards and the generator reports FL_ENOMEM once.
 */
typedef struct gen_ctx {
  fl_fabric *fab;
  fl_prov prov;
  uint32_t width, speed;
  uint32_t sw_devid, ca_devid;
  uint32_t n_switches, n_cas; /* GUID counters */
  uint32_t next_lid;          /* 0: LIDs are not assigned */
  int oom;
} gen_ctx;

/** gen_fmt() — snprintf into a name buffer sized for validated parameters
 * (numbers of at most 7 digits, prefixes of at most 24 bytes). */
void gen_fmt(char *buf, size_t size, const char *f, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/** Zero-pad width for numbers up to @max, at least @min_width. */
int gen_pad(uint32_t max, int min_width);
/** Fill in default width/speed (4x NDR, 1x for Ethernet) and check them;
 * FL_OK or FL_EINVAL with @err set. */
int gen_check_link(uint32_t *width, uint32_t *speed, fl_error *err);
/** A switch radix must be even, 4..254 (IBA NodeInfo NumPorts); FL_OK or
 * FL_EINVAL naming @what. */
int gen_check_radix(const char *what, uint32_t k, fl_error *err);
/** ceil(@a / @b), @b > 0. */
uint32_t gen_ceil_div(uint32_t a, uint32_t b);
/** @s->lids from its switches and CAs (0 with @no_lids; capped at the
 * unicast LID range). */
void gen_shape_lids(fl_gen_shape *s, uint32_t no_lids);
/** FL_EINVAL when @s has more nodes than FL_GEN_MAX_NODES. */
int gen_check_size(const fl_gen_shape *s, fl_error *err);
/** Start a run: a new fabric whose provenance file is @what; FL_ENOMEM. */
int gen_ctx_init(gen_ctx *c, const char *what, uint32_t width, uint32_t speed,
                 uint32_t no_lids, fl_error *err);
/** Set string attribute @key of node @n (sticky oom on failure). */
void gen_attr_str(gen_ctx *c, fl_id n, const char *key, const char *val);
/** Set decimal attribute @key of node @n. */
void gen_attr_u32(gen_ctx *c, fl_id n, const char *key, uint32_t val);
/** A switch of @nports ports and tier @tier with port 0 (GUID, next LID);
 * FL_NONE after an allocation failure. */
fl_id gen_add_switch(gen_ctx *c, const char *name, uint32_t nports,
                     uint32_t tier);
/** A single-port CA "<system> <device>" (role compute, next LID). */
fl_id gen_add_ca(gen_ctx *c, const char *system, const char *device);
/** A cable from port @pa of node @a to port @pb of node @b. */
void gen_cable(gen_ctx *c, fl_id a, uint32_t pa, fl_id b, uint32_t pb);
/** Finalize into *@out, or free and report FL_ENOMEM / the finalize error. */
int gen_ctx_finish(gen_ctx *c, fl_fabric **out, fl_error *err);

/**
 * gen_copy_fabric() — node and link copies of finalized @src into @dst (not
 * finalized), in @src's order: node i and link j of @src become the next
 * node and link of @dst. @planes 0: a plain copy (names, GUIDs, attributes
 * unchanged); else plane @k (0-based) of @planes as fl_gen_planes() makes
 * it. @port_map (one entry per @src port) receives the new port ids.
 * FL_OK or FL_ENOMEM. Defined in gen_planes.c.
 */
int gen_copy_fabric(fl_fabric *dst, const fl_fabric *src, uint32_t k,
                    uint32_t planes, fl_prov prov, fl_id *port_map);

/**
 * gen_copy_subset() — plain copies of the nodes of finalized @src with
 * @keep[n] set, in order, and of the cables between two of them, into
 * @dst (not finalized). @port_map (one entry per @src port) receives the
 * new port ids (FL_NONE for ports left out). FL_OK or FL_ENOMEM. Defined
 * in gen_planes.c.
 */
int gen_copy_subset(fl_fabric *dst, const fl_fabric *src,
                    const unsigned char *keep, fl_prov prov, fl_id *port_map);

#endif /* FABRICLINT_IO_GEN_BUILD_H */
