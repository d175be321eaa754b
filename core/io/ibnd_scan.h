/* SPDX-License-Identifier: MIT */
/*
 * core/io/ibnd_scan.h — what the ibnetdiscover, ibnetdiscover -p and ibsim
 * net readers (ibnd.c, ibnd_ports.c, ibsim_net.c) share: the input as a
 * text, the line cursor with its error context, and the tokens all three
 * formats use (ibnd_scan.c). Internal to those readers; the line cursor
 * also serves the nccl-tests log reader (nccl_tests.c).
 */
#ifndef FABRICLINT_CORE_IO_IBND_SCAN_H
#define FABRICLINT_CORE_IO_IBND_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/error.h"
#include "io/fileio.h"
#include "model/build.h"

#define MAX_PORT 255u
#define MAX_LID  65535u

typedef struct text {
  char *buf;
  size_t len;
} text;

/* The bytes of input @in as a text (borrowed: never freed here). */
text text_of(const fl_input *in);

typedef struct pctx {
  fl_fabric *fab;
  fl_error *err;
  const char *path;
  uint32_t file;         /* fl_b_file() id */
  const char *cur, *end; /* unread text */
  const char *ls, *le;   /* current line, without "\r\n" */
  uint32_t lineno;
  int terminated;   /* current line ended with '\n' */
  const char *what; /* kind of the current line, for "truncated" errors */
} pctx;

/* @fab NULL: a reader that builds no fabric (the nccl-tests reader);
 * prov_here() then names no file. */
void pctx_init(pctx *c, fl_fabric *fab, const char *path, const text *t,
               fl_error *err);
/* Advance to the next line; 0 at end of input. */
int next_line(pctx *c);
fl_prov prov_here(const pctx *c);
/* FL_EPARSE at column of @at (NULL: no column) of the current line. */
int perr(pctx *c, const char *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int oom(pctx *c);

/* The last '"' in [p, e), or NULL. */
const char *last_quote(const char *p, const char *e);
/* "0x" then 1..16 hex digits. */
int parse_0xhex(pctx *c, const char **pp, const char *e, uint64_t *v,
                const char *what);
/* Number in [lo, hi] at *pp; @what names it in errors. */
int parse_num(pctx *c, const char **pp, const char *e, uint32_t lo, uint32_t hi,
              const char *what, uint32_t *out);
/* "4xHDR", "??SDR", "4x???", "?????": width lanes and speed code. */
int parse_width_speed(pctx *c, const char *p, const char *e, uint8_t *width,
                      uint8_t *speed);

#endif
