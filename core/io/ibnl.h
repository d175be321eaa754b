/* SPDX-License-Identifier: MIT */
/*
 * core/io/ibnl.h — IBNL system definitions (ibutils' generic IB netlist:
 * the switch ASICs inside a system and which ASIC port each front-panel
 * connector is). Grammar and sources: docs/formats/ibnl.md.
 *
 * A parsed file (fl_ibnl_file) holds SYSTEM (board) and one TOPSYSTEM
 * definitions; fl_ibnl_flatten() expands a definition into its ASICs, the
 * cables between them and the front-panel port map. A library
 * (fl_ibnl_lib) reads every `*.ibnl` of a search path lazily, on the first
 * lookup, and finds a TOPSYSTEM by any of its names.
 */
#ifndef FL_IO_IBNL_H
#define FL_IO_IBNL_H

#include <stddef.h>
#include <stdint.h>

#include <fabriclint/error.h>

#include "model/hashmap.h"

/** The directory the Debian/Ubuntu package libibdm1 installs IBNL files in. */
#define FL_IBNL_SYSTEM_DIR "/usr/lib/x86_64-linux-gnu/ibdm1.5.7/ibnl"

typedef struct fl_ibnl_file fl_ibnl_file;

/**
 * fl_ibdm_arrow_parse() — the link arrow of IBNL and `.topo` files,
 * `->`, `-4x->`, `-4x-5G->` (@s, @n bytes): width in lanes into *@width
 * (1x 2x 4x 8x 12x) and speed FL_SPEED_* into *@speed (lane rates 2.5G 5G
 * 10G 14G 25G 50G 100G 200G, or SDR..XDR, FDR10); 0 when absent. Returns 1
 * when well formed, else 0.
 */
int fl_ibdm_arrow_parse(const char *s, size_t n, uint32_t *width,
                        uint32_t *speed);

/**
 * fl_ibnl_parse() — parse the IBNL text @buf (@len bytes, need not be
 * NUL-terminated) read from @path. On FL_OK *@out is a new file the caller
 * frees with fl_ibnl_free(); it copies what it keeps. Errors: FL_EPARSE at
 * @path:line:col (what was expected), FL_ENOMEM; *@out is NULL then.
 */
int fl_ibnl_parse(const char *path, const char *buf, size_t len,
                  fl_ibnl_file **out, fl_error *err);

/** fl_ibnl_free() — release @f (NULL allowed). */
void fl_ibnl_free(fl_ibnl_file *f);

/** The path @f was parsed from (borrowed). */
const char *fl_ibnl_path(const fl_ibnl_file *f);

/** The first name of @f's TOPSYSTEM (borrowed). */
const char *fl_ibnl_top_name(const fl_ibnl_file *f);

/** 1 when @name (exact, else ignoring case) is one of the TOPSYSTEM's
 * names of @f. */
int fl_ibnl_names(const fl_ibnl_file *f, const char *name, size_t len);

/** One ASIC of a flattened system. */
typedef struct fl_ibnl_node {
  char *name;     /* instance path: "leaf1/U1", "U1" */
  char *model;    /* device, e.g. "MT47396" */
  uint32_t kind;  /* FL_NODE_SWITCH or FL_NODE_CA */
  uint32_t ports; /* declared port count */
} fl_ibnl_node;

/** A cable inside the system between two ASIC ports. */
typedef struct fl_ibnl_link {
  uint32_t a, pa, b, pb; /* node index, port number */
  uint8_t width, speed;  /* lanes / FL_SPEED_*; 0 when not given */
} fl_ibnl_link;

/** A front-panel connector and the ASIC port behind it. */
typedef struct fl_ibnl_port {
  char *name; /* "L1/P1", "P13" */
  uint32_t node, port;
} fl_ibnl_port;

/** A flattened system: ASICs, internal cables, front panel. */
typedef struct fl_ibnl_sys {
  fl_ibnl_node *nodes;
  size_t n_nodes;
  fl_ibnl_link *links;
  size_t n_links;
  fl_ibnl_port *ports; /* in order of definition */
  size_t n_ports;
  uint32_t dangling; /* connections to board ports the chosen boards lack */
  uint32_t dangling_line;      /* line of the first of them in the IBNL file */
  uint32_t removed;            /* boards the CFG removes (`leaf3=R`) */
  fl_strmap by_name, by_lower; /* port name (as is, lower case) -> index */
} fl_ibnl_sys;

/**
 * fl_ibnl_flatten() — expand the TOPSYSTEM of @f into @out (zeroed first;
 * free with fl_ibnl_sys_free()). @cfg is the `.topo` CFG text
 * ("leaf2=12x,spine1=4x"; NULL or "" for none): the board instance named
 * left of `=` uses the definition `TYPE:<modifier>`; the modifier `R` with
 * no `TYPE:R` definition removes the board (ibdm-topo-file(1): a system
 * that "lacks (R)" leafs), counted in @out->removed. A connection to a
 * board port that the chosen board does not define is dropped and counted
 * in @out->dangling (ibnl(1) NOTE-1). Errors (FL_EPARSE at the IBNL
 * file:line:col): an undefined board type or modifier, a node port out of
 * its range, a port connected to two different ports, boards nested more
 * than 16 deep (a definition that contains itself); FL_ENOMEM.
 * O(instances + connections) expected.
 */
int fl_ibnl_flatten(const fl_ibnl_file *f, const char *cfg, fl_ibnl_sys *out,
                    fl_error *err);

/** fl_ibnl_sys_free() — release what @s holds (not @s itself). */
void fl_ibnl_sys_free(fl_ibnl_sys *s);

/** fl_ibnl_port_find() — the front-panel port called @name (exact, else
 * ignoring case), or NULL. O(1) expected. */
const fl_ibnl_port *fl_ibnl_port_find(const fl_ibnl_sys *s, const char *name,
                                      size_t len);

/* ---- the search path ------------------------------------------------- */

struct fl_file_digest; /* model/file_digest.h */

typedef struct fl_ibnl_lib fl_ibnl_lib;

/**
 * fl_ibnl_lib_new() — a library over the search path @dirs (directories
 * separated by ':'; NULL: the environment variable FABRICLINT_IBNL_PATH
 * when set, an empty value meaning none; unset: FL_IBNL_SYSTEM_DIR when it
 * exists). Nothing is read until the first
 * lookup. NULL on ENOMEM.
 */
fl_ibnl_lib *fl_ibnl_lib_new(const char *dirs);

/** fl_ibnl_lib_free() — release @lib and its files (NULL allowed). */
void fl_ibnl_lib_free(fl_ibnl_lib *lib);

/**
 * fl_ibnl_lib_find() — the file whose TOPSYSTEM is called @type (@len
 * bytes; the first directory of the path wins, names compared exactly,
 * else ignoring case). Reads every `*.ibnl` of the path on the first call;
 * a file that does not parse is skipped and its error kept
 * (fl_ibnl_lib_skipped()). Returns NULL when no file defines @type.
 * Borrowed: valid until fl_ibnl_lib_free().
 */
const fl_ibnl_file *fl_ibnl_lib_find(fl_ibnl_lib *lib, const char *type,
                                     size_t len);

/**
 * fl_ibnl_lib_read() — the path of the @i-th `*.ibnl` file read (after a
 * lookup; parsed or skipped), or NULL past the last; *@digest (when not
 * NULL) = the size and SHA-256 of the bytes read. Only regular files are
 * read: anything else in the path (a FIFO, a device) is skipped, as is a
 * folder of the path that cannot be opened (fl_ibnl_lib_skipped() says
 * so). Borrowed: valid until fl_ibnl_lib_free().
 */
const char *fl_ibnl_lib_read(const fl_ibnl_lib *lib, size_t i,
                             const struct fl_file_digest **digest);

/** The number of `*.ibnl` files read (after a lookup). */
size_t fl_ibnl_lib_files(const fl_ibnl_lib *lib);

/** fl_ibnl_lib_skipped() — the error of the @i-th file that did not parse
 * (file:line:col: message), or NULL past the last. Borrowed. */
const char *fl_ibnl_lib_skipped(const fl_ibnl_lib *lib, size_t i);

/** The search path in use (after fl_ibnl_lib_new(); borrowed). */
const char *fl_ibnl_lib_path(const fl_ibnl_lib *lib);

#endif
