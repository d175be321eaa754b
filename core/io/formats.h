/* SPDX-License-Identifier: MIT */
/*
 * core/io/formats.h — the input format registry (internal).
 *
 * Every input format fabriclint reads is one fl_format_def, defined in the
 * file of its loader (core/io/ibnd.c defines fl_fmt_ibnetdiscover, ...) and
 * listed once in core/io/formats.def, whose order is the detection order.
 * Adding a format is: one new file under core/io/ (loader, detector and its
 * fl_format_def), one line in formats.def, one FL_FMT_* code in
 * include/fabriclint/load.h, a page in docs/formats/ and tests.
 *
 * Detection is by content, never by file name (DESIGN.md §1): users pass
 * `topo.txt`, `ibnetdiscover.out` or a pipe capture interchangeably. Each
 * detector sees the first 64 KiB of the input (fl_detect_ctx) and returns
 * the FL_FMT_* code it recognises, FL_FMT_AUTO for "not mine", or
 * FL_FMT_REFUSED after setting @err for input it recognises but will not
 * read (ibsim console output, a binary cache file). Several formats may
 * share one detector (the routing dumps vote on their marker lines
 * together); it runs once, at the place of its first row.
 */
#ifndef FABRICLINT_CORE_IO_FORMATS_H
#define FABRICLINT_CORE_IO_FORMATS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fabriclint/load.h"
#include "io/fileio.h"

/** Returned by a detector that recognised the input and refused it (@err
 * is set). Never a format code. */
#define FL_FMT_REFUSED 0xfffffffeu

/** Bytes of an input a detector sees at once (one window). */
#define FL_DETECT_BYTES 65536

/** Bytes of a text input searched for a format's structure: when the first
 * window fits no format (an `ibnetdiscover -s` capture opens with its
 * progress lines, ~73 KB for 268 nodes), the next windows, each starting on
 * a line, are tried up to this offset (docs/cli.md "Format detection"). */
#define FL_DETECT_SCAN_MAX ((size_t)64 << 20)

/**
 * fl_detect_ctx — what a detector sees.
 * @path: the input's name, for errors ("-" is standard input).
 * @text: the first FL_DETECT_BYTES of the input after a UTF-8 byte order
 *   mark, NUL-terminated at @len (writable: a detector may terminate a line
 *   temporarily and must restore it). Text input holds no NUL in the window
 *   (checked before text detectors run).
 * @window_full: 1 when the input is longer than the window, so the last line
 *   of @text may be cut.
 * @xml_root: the local name of the XML root element when the input starts
 *   with `<` (after blanks), else NULL. XML detectors look only at this and
 *   @text; text detectors return FL_FMT_AUTO when it is set.
 */
typedef struct fl_detect_ctx {
  const char *path;
  char *text;
  size_t len;
  int window_full;
  const char *xml_root;
} fl_detect_ctx;

/** A detector: an FL_FMT_* code, FL_FMT_AUTO, or FL_FMT_REFUSED. */
typedef uint32_t (*fl_detect_fn)(const fl_detect_ctx *c, fl_error *err);

/** A loader (see loaders.h for the contract). */
typedef int (*fl_load_fn)(fl_fabric *fab, const fl_input *in,
                          const fl_load_options *opts, fl_error *err);

/** fl_format_def.flags */
#define FL_FORMAT_TOPOLOGY 1u /**< describes nodes and links */
#define FL_FORMAT_XML      2u /**< XML: libxml2 checks encoding and NULs */
/** The loader finds NUL bytes itself as it reads (the routing-dump line
 * reader, routing_read.h rd_next()), so the input is not walked in a pass
 * of its own first; a failed load is checked whole, so the error is the
 * same as when the check came first. */
#define FL_FORMAT_NUL_INLINE 4u
/** Binary, detected by its magic number before any text detector
 * (fl_is_ibnd_cache()): no NUL check. */
#define FL_FORMAT_BINARY 8u
/** A folder of files (an ibdiagnet output folder), recognised by
 * fl_detect_format() of the folder, never from a file's bytes. */
#define FL_FORMAT_FOLDER 16u

/**
 * fl_format_def — one input format.
 * @code: its FL_FMT_* value (include/fabriclint/load.h).
 * @name: the `--input-format` name; @alias: a second accepted name or NULL.
 * @flags: FL_FORMAT_*.
 * @load: the loader.
 * @detect: the detector, or NULL when another row's detector covers it.
 * @looks_like: how a user recognises it, for the "unrecognised format"
 *   message ("ibnetdiscover output (Switch/Ca lines with S-/H- ids)").
 */
typedef struct fl_format_def {
  uint32_t code;
  const char *name;
  const char *alias;
  uint32_t flags;
  fl_load_fn load;
  fl_detect_fn detect;
  const char *looks_like;
} fl_format_def;

/** fl_format_count() — number of registered formats. */
size_t fl_format_count(void);

/** fl_format_at() — the @i-th format in detection order (0-based), or NULL
 * past the end. Static storage. */
const fl_format_def *fl_format_at(size_t i);

/** fl_format_find() — the format with code @code, or NULL. */
const fl_format_def *fl_format_find(uint32_t code);

/* ---- detectors shared by a family of formats ---------------------------- */

/** The routing dumps (LFTs, fdbs, SL2VL, subnet.lst, saquery -p, path-SL,
 * ibdiagnet2.far), by their first marker line; core/io/routing_detect.c. */
uint32_t fl_detect_routing(const fl_detect_ctx *c, fl_error *err);

/** The text topology dumps (ibnetdiscover, -p report, ibsim net, ibdm
 * topology), by a vote over the lines; core/io/ibnd_detect.c. */
uint32_t fl_detect_ibnd_family(const fl_detect_ctx *c, fl_error *err);

/** 1 when the @n bytes at @b start with the magic number of an
 * `ibnetdiscover --cache` file (0x8FE7832B, little-endian;
 * core/io/ibnd_cache.c). */
int fl_is_ibnd_cache(const char *b, size_t n);

/** 1 when one of the lines of the @len bytes at @buf is `START_<@name>`
 * (blanks around it allowed): a section of an ibdiagnet2.db_csv, found
 * wherever it is in the file (core/io/dbcsv_load.c). */
int fl_dbcsv_has_section(const char *buf, size_t len, const char *name);

/** The db_csv @path read whole (core/io/dbcsv_load.c): 1 when it has a
 * NODES section, wherever in the file; *@links 1 when it has a LINKS
 * section, *@size its size in bytes (either may be NULL). 0 when it cannot
 * be read. */
int fl_dbcsv_file_sections(const char *path, int *links, size_t *size);

/* ---- helpers shared by detectors (pure) --------------------------------- */

/** First byte of [@s, @end) that is not a blank (isspace), or @end. */
static inline const char *fl_detect_skip_ws(const char *s, const char *end) {
  while (s < end && (*s == ' ' || (*s >= '\t' && *s <= '\r')))
    s++;
  return s;
}

/** The line at *@s of a text ending at @end: returns its first byte and
 * sets *@le to its end (the '\n', or @end for a last line without one),
 * and moves *@s past it; NULL when *@s is at @end. A detector's sample may
 * stop inside a line: then *@le == @end. */
static inline const char *fl_detect_line(const char **s, const char *end,
                                         const char **le) {
  const char *line = *s;
  if (line >= end)
    return NULL;
  const char *nl = memchr(line, '\n', (size_t)(end - line));
  *le = nl ? nl : end;
  *s = nl ? nl + 1 : end;
  return line;
}

/** 1 when [@s, @end) starts with the C string @p. */
static inline int fl_detect_prefix(const char *s, const char *end,
                                   const char *p) {
  size_t n = strlen(p);
  return (size_t)(end - s) >= n && memcmp(s, p, n) == 0;
}

#endif
